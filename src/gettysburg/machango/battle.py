"""What the campaign hands a battle and gets back (B1-B7).

At nightfall each of the day's battles becomes a :class:`BattleSetup` (who fights, with
which units and marks, how many battle turns, how many command cards); the battle is then
fought move by move inside the campaign game (:mod:`gettysburg.machango.battle_turns`)
and its figures lost per unit come back as a :class:`BattleOutcome` (B4). Who then holds
the line is the campaign's rule (machango-facts.md), not the battle's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gettysburg.core.canonical import JSONDict
from gettysburg.machango.battle_data import rules

#: Battle dice faces read from a d6 (``data/battle.yaml``; digest 2.2).
FACES: dict[int, str] = {int(k): str(v) for k, v in rules()["faces"].items()}


@dataclass(frozen=True)
class BattleDivision:
    id: str
    units: tuple[tuple[str, int], ...]  # (kind, figures left) for each unit
    elite: bool = False  # G-USA-3
    extra_die: bool = False  # G-CSA-4
    fortified: bool = False  # B6 (F mark, or Buford: G-USA-2)
    ignores_flags: bool = False  # every flag: B7, G-CSA-5
    ignores_one_flag: bool = False  # one flag a roll: G-USA-3, G-USA-5
    generals: tuple[str, ...] = ()


@dataclass(frozen=True)
class BattleForce:
    side: str
    divisions: tuple[BattleDivision, ...]
    cards: int  # after B5 and the generals' card rules, never below 1


@dataclass(frozen=True)
class BattleSetup:
    line: str  # the line fought over
    day: int
    start_hour: int
    turns: int  # B3: 2 battle turns an hour from the start to nightfall
    attacker: BattleForce
    defender: BattleForce


@dataclass
class BattleOutcome:
    losses: dict[str, list[int]]  # division -> figures lost, per unit
    turns_played: int
    log: list[JSONDict] = field(default_factory=list)
