"""Random events (004 §18.0, optional; rule ``tdg.18.0``): the marker in the AM pool, who
rolls, the two-dice table, and each letter's effect as data plus small pure functions the
engine applies.

The chart itself (grid, who-rolls bands, the text of every letter, which ones may repeat)
is ``data/charts/random_events.yaml`` (``all_charts().random_events``). Here:

- :func:`marker_in_pool` / :func:`marker_counts`: from the 1 July 1000 turn on, not at
  night; a marker drawn last in the turn is ignored.
- :func:`draw_event`: the d10 for who rolls (0-2 Union, 3-5 Confederate, 6-9 nobody), then
  the two d10 of the table (first the column, second the row); a letter that may happen only
  once and has happened is no event, as is H for the Union (004 §18.0: an event that cannot
  apply is ignored).
- :data:`EFFECTS`: for every letter, what it does as data (who decides, how long it lasts),
  and one function per letter that needs a computation.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from gettysburg.core.canonical import JSONDict
from gettysburg.core.dice import Dice
from gettysburg.core.protocol import RuleError

from .charts import all_charts
from .charts.events import Light

Seat = Literal["usa", "csa"]
RULE = "tdg.18.0"


def other(seat: Seat) -> Seat:
    """The opposing seat: the roller's enemy in the letters of the Random Events table
    (004 §18.0)."""
    return "csa" if seat == "usa" else "usa"


# --- the marker and the draw ---------------------------------------------------------------------
def marker_in_pool(date: dt.date, hour: int, light: Light) -> bool:
    """004 §18.0: the marker joins the AMs from the 1 July 1000 turn, on every non-night turn."""
    return all_charts().random_events.in_pool(date, hour, light)


def marker_counts(drawn_last: bool) -> bool:
    """004 §18.0: the marker is ignored when it is the last one drawn in the turn."""
    return not (drawn_last and all_charts().random_events.ignored_if_last_drawn)


@dataclass(frozen=True)
class Draw:
    """One drawing of the marker: ``seat`` None = nobody rolls; ``letter`` None = no event
    (nobody rolled, a once-only event already happened, or it cannot apply to ``seat``)."""

    who_roll: int
    seat: Seat | None
    first: int | None = None
    second: int | None = None
    letter: str | None = None
    why_none: str = ""

    def to_json(self) -> JSONDict:
        return {"who_roll": self.who_roll, "seat": self.seat, "first": self.first,
                "second": self.second, "letter": self.letter, "why_none": self.why_none}


def letter_for(first: int, second: int) -> str:
    """004 §18.0 table: the first d10 picks the column, the second the row."""
    return all_charts().random_events.event(first, second).letter


def resolve(who_roll: int, first: int, second: int, happened: frozenset[str] = frozenset(),
            ) -> Draw:
    """The already-rolled dice of one drawing (``first``/``second`` are unused when nobody
    rolls). ``happened``: the once-only letters that have already happened in the game.
    (004 §18.0: who rolls, then the table)."""
    chart = all_charts().random_events
    seat = chart.who_rolls_for(who_roll)
    if seat is None:
        return Draw(who_roll, None, why_none="nobody rolls (6-9)")
    event = chart.event(first, second)
    if seat not in event.sides:
        return Draw(who_roll, seat, first, second, None, f"{event.letter}: no event for {seat}")
    if not event.repeatable and event.letter in happened:
        return Draw(who_roll, seat, first, second, None,
                    f"{event.letter} happens only once and has happened")
    return Draw(who_roll, seat, first, second, event.letter)


def draw_event(dice: Dice, happened: frozenset[str] = frozenset()) -> Draw:
    """Roll the d10s of one drawing of the marker (004 §18.0)."""
    who = dice.roll("random event: who rolls", RULE, die="d10")
    if all_charts().random_events.who_rolls_for(who) is None:
        return resolve(who, 0, 0, happened)
    first = dice.roll("random event: column", RULE, die="d10")
    second = dice.roll("random event: row", RULE, die="d10")
    return resolve(who, first, second, happened)


# --- the effects as data -------------------------------------------------------------------------
Chooser = Literal["roller", "opponent", "none"]


@dataclass(frozen=True)
class Effect:
    """What a letter does, for the engine: ``kind`` names the effect; ``chooser`` who makes
    its choice; ``turns`` how long it lasts (0 = at once; None = see the function)."""

    letter: str
    kind: str
    chooser: Chooser
    turns: int | None = 0


EFFECTS: dict[str, Effect] = {e.letter: e for e in (
    Effect("A", "finish-last-brigade", "none"),
    Effect("B", "free-activation", "roller"),
    Effect("C", "flashman", "roller", None),
    Effect("D", "delay-reinforcement", "roller", 1),
    Effect("E", "sniper", "roller"),
    Effect("F", "remove-two-ams", "none"),
    Effect("G", "shift-entry-area", "roller", None),
    Effect("H", "imboden", "roller", 1),
    Effect("I", "lose-gun-next-battery-move", "none", None),
    Effect("J", "battery-jinx", "opponent", None),
    Effect("K", "opponent-moves-two", "opponent"),
    Effect("L", "drunk-brigadier", "roller", None),
    Effect("M", "heavy-rain", "none", None),
    Effect("N", "panic", "roller"),
    Effect("O", "return-routed", "roller"),
    Effect("P", "hero", "roller", None),
    Effect("Q", "scouting", "roller"),
    Effect("R", "hill-indisposed", "none", None),
    Effect("S", "lee-paralysed", "none", 2),
)}


# --- A: the last activated brigade is finished ----------------------------------------------------
def finish_last(activated: Sequence[str]) -> str | None:
    """A: the brigade activated last this turn (None if none has been) is Finished (004 §18.0 A)."""
    return activated[-1] if activated else None


# --- C: Flashman ----------------------------------------------------------------------------------
FlashmanUse = Literal["lead-shock", "inspect-ams", "captured", "out"]


def flashman_use(roll: int) -> FlashmanUse:
    """C: the d10 when Flashman is used (once a turn): 0-2 lead a shock, 3-5 see the enemy
    AMs in the cup, 6-8 captured (the enemy may use him), 9 out of play (004 §18.0 C)."""
    _d10(roll)
    return ("lead-shock" if roll <= 2 else "inspect-ams" if roll <= 5
            else "captured" if roll <= 8 else "out")


def flashman_shock_drm(roll: int) -> int:
    """C: leading a shock, a second d10: odd he panics (-2 to the shock roll), even +2
    (004 §18.0 C)."""
    return -2 if _d10(roll) % 2 else 2


# --- D, G, H: reinforcements ----------------------------------------------------------------------
def delay_group(due: Sequence[str], entered: Sequence[str], group: str) -> str:
    """D: one of the roller's groups due this turn and not yet entered waits a turn
    (004 §18.0 D)."""
    if group not in due:
        raise RuleError(RULE, f"D: group {group!r} is not due this turn")
    if group in entered:
        raise RuleError(RULE, f"D: group {group!r} has already entered")
    return group


def shift_area(area: int, new_area: int) -> int:
    """G: a group due this turn or next may enter by the area numbered one above or below
    (004 §18.0 G)."""
    if abs(new_area - area) != 1:
        raise RuleError(RULE, f"G: area {new_area} is not next to area {area}")
    return new_area


def imboden_areas(seat: Seat) -> tuple[int, ...]:
    """H: Imboden's brigade may enter next turn by area 1 or 2 (Confederates only; tdg.14.77)."""
    return (1, 2) if seat == "csa" else ()


# --- E, N: sniper and panic -----------------------------------------------------------------------
def sniper(distance: int, in_sight: bool, roll: int) -> bool:
    """E: an enemy leader within 4 hexes and in sight of one of the roller's infantry units
    is killed on an odd d10 (004 §18.0 E)."""
    if distance > 4:
        raise RuleError(RULE, f"E: the leader is {distance} hexes away (at most 4)")
    if not in_sight:
        raise RuleError(RULE, "E: no infantry unit of yours sees that leader")
    return _d10(roll) % 2 == 1


def panic(distance: int, cohesion: int, roll: int) -> bool:
    """N: a unit within 3 hexes of the roller's combat units routs when the d10 exceeds its
    cohesion (004 §18.0 N)."""
    if distance > 3:
        raise RuleError(RULE, f"N: the unit is {distance} hexes from your combat units (at most 3)")
    return _d10(roll) > cohesion


# --- F: two AMs out of the cup --------------------------------------------------------------------
def remove_two(cup: Sequence[str], rng: random.Random) -> tuple[list[str], list[str]]:
    """F: two AMs taken at random from the cup are set aside (fewer if fewer are left);
    returns (removed, left) (004 §18.0 F)."""
    left = list(cup)
    removed = [left.pop(rng.randrange(len(left))) for _ in range(min(2, len(left)))]
    return removed, left


# --- I, J: batteries -----------------------------------------------------------------------------
def lose_gun(guns: int) -> int:
    """I: the roller's next battery to move loses a gun (not below 0) (004 §18.0 I)."""
    return max(0, guns - 1)


def battery_jinx(roll: int) -> tuple[int, int]:
    """J: the next time the roller fires a battery the opponent rolls: even -> (-2 to the fire
    roll, 1 gun lost); odd -> (0, 0) (004 §18.0 J)."""
    return (-2, 1) if _d10(roll) % 2 == 0 else (0, 0)


# --- K: the opponent moves two units --------------------------------------------------------------
def check_opponent_moves(moves: Sequence[tuple[str, str, int]]) -> None:
    """K: at most two combat units of either side, not on March orders, up to 3 hexes each;
    ``moves`` = (unit, orders, hexes moved) (004 §18.0 K)."""
    if len(moves) > 2:
        raise RuleError(RULE, f"K: {len(moves)} units moved (at most 2)")
    for unit, orders, hexes in moves:
        if orders == "march":
            raise RuleError(RULE, f"K: {unit} is on March orders")
        if hexes > 3:
            raise RuleError(RULE, f"K: {unit} moved {hexes} hexes (at most 3)")


# --- L: a drunk brigadier -------------------------------------------------------------------------
@dataclass(frozen=True)
class Drunk:
    """L: the brigadier's ratings while drunk, until the next day's first day turn."""

    leader: str
    orders: int = -2
    command_range: int = 2
    ma: int = 3


def drunk(leader: str, profile: str | None) -> Drunk:
    """L: one of the roller's brigadiers rated U (the OOB's profile) is drunk; he may be
    relieved (replaced as if killed) if he starts an activation next to his corps commander
    or the OC. The ratings are set to these values (the seed gives values, not modifiers).
    (004 §18.0 L)."""
    if profile != "U":
        raise RuleError(RULE, f"L: {leader} is not a U-rated brigadier")
    return Drunk(leader)


def may_relieve(adjacent_to_corps_or_oc: bool) -> bool:
    """L: relief is allowed when the drunk starts an activation next to his corps commander
    or the OC (004 §18.0 L)."""
    return adjacent_to_corps_or_oc


# --- M: heavy rain -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Rain:
    """M: heavy rain for ``turns`` turns counting the current one."""

    turns: int
    fire_drm: int = -3
    rally_drm: int = 2
    fatigue_every_activation: bool = True
    fatigue_recovery: bool = False

    def ma(self, ma: int) -> int:
        """Every unit's MA is halved, rounded down."""
        return ma // 2


def heavy_rain(roll: int) -> Rain:
    """M: half the d10, rounded down, at least 1, is the number of turns of rain (004 §18.0 M)."""
    return Rain(max(1, _d10(roll) // 2))


# --- P: hero --------------------------------------------------------------------------------------
HERO_DRM = 2  # P: once, a cohesion-based UDD roll shifted by 2 in the holder's favour


def hero_roll(roll: int, favour: Literal["low", "high"]) -> int:
    """P: a played Hero moves one cohesion UDD roll by 2 toward what the holder wants (a low
    roll for his own unit's check, a high one against an enemy's) (004 §18.0 P)."""
    return roll - HERO_DRM if favour == "low" else roll + HERO_DRM


# --- Q: scouting ---------------------------------------------------------------------------------
def check_scouting(brigade: str, cavalry: bool, enemy_within_2: bool, buford: bool,
                   date: dt.date) -> str:
    """Q: a cavalry brigade with no enemy combat unit within 2 hexes leaves play; Buford's
    brigades only from 2 July (004 §18.0 Q)."""
    if not cavalry:
        raise RuleError(RULE, f"Q: {brigade} is not a cavalry brigade")
    if enemy_within_2:
        raise RuleError(RULE, f"Q: {brigade} has an enemy combat unit within 2 hexes")
    if buford and date < dt.date(1863, 7, 2):
        raise RuleError(RULE, f"Q: {brigade} is Buford's; not before 2 July")
    return brigade


# --- R: A.P. Hill --------------------------------------------------------------------------------
@dataclass(frozen=True)
class HillEffect:
    """R: ``delay`` turns added to Hill's entry (off the map), or ``replaced_turns`` turns on
    his replacement counting the current one (on the map)."""

    delay: int = 0
    replaced_turns: int = 0


def hill(on_map: bool, roll: int) -> HillEffect:
    """R: off the map, Hill enters 1 turn later (odd d10) or 2 (even); on the map he is
    flipped to his replacement and recovers after 3 turns, the current one included.
    (004 §18.0 R)."""
    if on_map:
        return HillEffect(replaced_turns=3)
    return HillEffect(delay=1 if _d10(roll) % 2 else 2)


# --- S: Lee ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class LeeParalysed:
    """S: for the two turns after the current one, Lee's initiative is 0 and the Confederates
    may not transfer efficiency."""

    first_turn: int  # turn index (the turn track's) the effect starts
    last_turn: int
    initiative: int = 0
    efficiency_transfer: bool = False

    def active(self, turn: int) -> bool:
        return self.first_turn <= turn <= self.last_turn


def lee_paralysed(current_turn: int) -> LeeParalysed:
    """S: the two turns following ``current_turn`` (turn-track indices) (004 §18.0 S)."""
    return LeeParalysed(current_turn + 1, current_turn + 2)


def _d10(roll: int) -> int:
    if isinstance(roll, bool) or not isinstance(roll, int) or not 0 <= roll <= 9:
        raise RuleError(RULE, f"a d10 reads 0-9, not {roll!r}")
    return roll
