"""The one interface through which the campaign has its battles fought (B1-B7), and a
PLACEHOLDER engine behind it.

At nightfall the campaign hands each of the day's battles to a :class:`BattleEngine` as a
:class:`BattleSetup` (who fights, with which units and marks, how many battle turns, how
many command cards) and applies the :class:`BattleOutcome` it gets back (figures lost per
unit; B4). Who then holds the line is the campaign's rule (machango-facts.md), not the
engine's.

:class:`DicePlaceholderBattle` is NOT BattleCry: it only resolves a battle by dice so the
campaign can be played end to end until the battle issue's hex-board engine replaces it
behind the same interface. What it does (docs/machango-decisions.md, "The placeholder
battle"): sides alternate battle turns, attacker first (B2), for ``turns`` turns or until a
side has no units (B3); each turn the side orders as many of its units as it has cards,
strongest first; each ordered unit rolls 1 die (+1 elite, G-USA-3; +1 Stuart's cavalry,
G-CSA-4; -1, never below 1, against a fortified division, B6) at the enemy unit with the
fewest figures; a die showing the target's kind or crossed sabres takes 1 figure.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from gettysburg.core.canonical import JSONDict
from gettysburg.core.dice import Dice

#: Battle dice faces read from a d6 (digest 2.2: two infantry faces, one each of cavalry,
#: artillery, flag and crossed sabres).
FACES = {1: "infantry", 2: "infantry", 3: "cavalry", 4: "artillery", 5: "flag", 6: "sabres"}


@dataclass(frozen=True)
class BattleDivision:
    id: str
    units: tuple[tuple[str, int], ...]  # (kind, figures left) for each unit
    elite: bool = False  # G-USA-3
    extra_die: bool = False  # G-CSA-4
    fortified: bool = False  # B6 (F mark, or Buford: G-USA-2)
    ignores_flags: bool = False  # every flag: B7, G-CSA-5 (the hex engine's)
    ignores_one_flag: bool = False  # one flag a roll: G-USA-3, G-USA-5 (the hex engine's)
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


class BattleEngine(Protocol):
    def fight(self, setup: BattleSetup, dice: Dice) -> BattleOutcome: ...


class DicePlaceholderBattle:
    """A placeholder that resolves a battle by dice (see the module doc); removed when
    the battle issue's engine lands."""

    name = "dice-placeholder"

    def fight(self, setup: BattleSetup, dice: Dice) -> BattleOutcome:
        left = {d.id: [f for _, f in d.units]
                for force in (setup.attacker, setup.defender) for d in force.divisions}
        kinds = {d.id: [k for k, _ in d.units]
                 for force in (setup.attacker, setup.defender) for d in force.divisions}
        start = {did: list(v) for did, v in left.items()}
        log: list[JSONDict] = []

        def alive(force: BattleForce) -> list[tuple[str, int]]:
            return [(d.id, i) for d in force.divisions for i, f in enumerate(left[d.id]) if f > 0]

        played = 0
        for turn in range(setup.turns):
            own, foe = ((setup.attacker, setup.defender) if turn % 2 == 0
                        else (setup.defender, setup.attacker))
            if not alive(own) or not alive(foe):
                break
            played += 1
            by_id = {d.id: d for d in own.divisions}
            foes = {d.id: d for d in foe.divisions}
            ordered = sorted(alive(own), key=lambda u: (-left[u[0]][u[1]], u))[:own.cards]
            for did, i in ordered:
                targets = alive(foe)
                if not targets:
                    break
                tid, ti = min(targets, key=lambda u: (left[u[0]][u[1]], u))
                n = 1 + by_id[did].elite + by_id[did].extra_die - foes[tid].fortified
                rolls = dice.roll_n(max(1, n), f"{did} fires at {tid}", "B-placeholder")
                hits = sum(1 for v in rolls if FACES[v] in (kinds[tid][ti], "sabres"))
                left[tid][ti] = max(0, left[tid][ti] - hits)
                log.append({"turn": turn + 1, "unit": [did, i], "target": [tid, ti],
                            "dice": rolls, "hits": hits})
        losses = {did: [a - b for a, b in zip(start[did], left[did], strict=True)]
                  for did in sorted(left)}
        return BattleOutcome(losses=losses, turns_played=played, log=log)
