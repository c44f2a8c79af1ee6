"""Brigade fatigue (002 §17, optional in the series but on by default here, as the seed urges).

Scale. A brigade's fatigue is kept as a count of *steps* climbed from "no marker":
0 = no marker, 1 = "Fatigue OK", 2 = "Fatigue 0", 3 = "Fatigue 1", ... 6 = "Fatigue 4"
(§17.24 lists the markers in that order and every level incurred moves one place up).
The printed number on the marker (:func:`level`) is what the effects read (§17.31);
no marker, OK and 0 have no effect (§17.33). ``BrigadeState.fatigue`` holds these steps.

Causes (§17.22): activations beyond a turn's second (counted in activation
*equivalents*, so a March AM's long move counts as several; a road-only March is free
up to the third), at most two levels a turn that way (§17.23); and every action phase
after the first in a turn in which the brigade took part in shock step 6b, uncapped.
At night every activation on Attack orders that does something costs a level (§16.12).
Artillery never tires, but a battery marching a fourth equivalent checks its wheels
(§17.26). Activations of units out of command count like any other (§17.22); levels are
incurred as things happen but the marker, and so its effects, changes only once the
brigade's activation is over (§17.21): the engine adds them then.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Literal

from gettysburg.core.protocol import RuleError

NO_MARKER = 0
OK = 1  # "Fatigue OK": the first step, no effect yet (§17.33)
MAX_STEPS = 6  # "Fatigue 4", the top (§17.25)
FREE_ACTIVATIONS = 2  # §17.22 cause 1
FREE_ROAD_MARCH = 3  # §17.22 cause 1, second exception
ACTIVATION_CAP = 2  # levels a turn from activations (§17.23)
RESERVE_RECOVERY = 2  # §17.41
IDLE_RECOVERY = 1  # §17.42
BROKEN_WHEELS = range(6, 10)  # d10 6-9 costs a marching battery 1 SP (§17.26)

# What a brigade's units may do in an activation without it counting (§17.22 exceptions,
# §16.12's list for night Attack activations adds the leader's move and Loose Cannon's
# cautious retreat, which §17.22 also excuses).
EXEMPT_ACTIONS = frozenset({
    "none", "mount", "dismount", "rally", "resupply", "free_facing", "engineering",
    "cautious_retreat", "leader_move",
})
# What does not count as moving for the idle brigade's recovery (§17.42).
IDLE_HARMLESS = frozenset({"none", "free_facing", "mount", "dismount", "reaction_facing",
                           "reaction_refuse", "rally", "resupply", "leader_move"})


def _check_steps(steps: int) -> None:
    if not NO_MARKER <= steps <= MAX_STEPS:
        raise ValueError(f"fatigue steps run {NO_MARKER}..{MAX_STEPS}, not {steps}")


def level(steps: int) -> int | None:
    """The number printed on the marker (002 §17.24): None without a marker or at "OK"."""
    _check_steps(steps)
    return steps - 2 if steps >= 2 else None


def label(steps: int) -> str:
    """The marker's name: "none", "OK", or "0".."4" (002 §17.24)."""
    _check_steps(steps)
    return ("none", "OK")[steps] if steps < 2 else str(steps - 2)


def steps_of(marker: str) -> int:
    """Steps for a marker named as :func:`label` does (reinforcements arriving tired, §17.21)."""
    for s in range(MAX_STEPS + 1):
        if label(s) == marker:
            return s
    raise ValueError(f"fatigue marker {marker!r} is not one of none, OK, 0..4")


def modifier(steps: int) -> int:
    """Half the marker's number, rounded up (002 §17.31); 0 for none, OK and 0 (§17.33)."""
    lv = level(steps)
    return 0 if lv is None or lv <= 0 else math.ceil(lv / 2)


def raised(steps: int, levels: int) -> int:
    """Steps after incurring ``levels`` levels: never past Fatigue 4 (002 §17.25)."""
    _check_steps(steps)
    if levels < 0:
        raise ValueError("fatigue is raised by a count >= 0")
    return min(MAX_STEPS, steps + levels)


def lowered(steps: int, levels: int) -> int:
    """Steps after recovering ``levels`` levels, never below no marker (002 §17.4)."""
    _check_steps(steps)
    if levels < 0:
        raise ValueError("fatigue is lowered by a count >= 0")
    return max(NO_MARKER, steps - levels)


# --- effects (§17.31-17.34) ----------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Effects:
    """Every modifier a brigade's fatigue puts on its units (002 §17.31)."""

    ma: int  # taken off the MA after any halving (see §9.42 for the one-hex move)
    fire: int  # added to every fire roll (negative)
    shock_attack: int  # added to shock resolution rolls when attacking (negative)
    shock_defence: int  # added to shock resolution rolls when defending
    udd: int  # added to every UDD
    pre_shock: int  # added to every pre-shock check, green ones too
    rally: int  # added to every rally attempt


def effects(steps: int) -> Effects:
    """The modifiers of 002 §17.31 for a brigade with ``steps`` of fatigue."""
    m = modifier(steps)
    return Effects(ma=-m, fire=-m, shock_attack=-m, shock_defence=m, udd=m, pre_shock=m,
                   rally=m)


def fatigued_ma(ma: int, steps: int) -> int:
    """A unit's MA after fatigue (002 §17.31): ``ma`` is already halved for Attack orders or
    for mounting/dismounting; never below 0 (§9.42 still lets it move one hex)."""
    if ma < 0:
        raise ValueError("an MA is >= 0")
    return max(0, ma - modifier(steps))


def forced_orders(steps: int, orders: str) -> str:
    """A brigade at Fatigue 4 goes to Advance at once (002 §17.32)."""
    return "advance" if steps == MAX_STEPS else orders


def check_orders(steps: int, orders: str) -> None:
    """Neither March nor Attack may be given at Fatigue 4 (002 §17.32)."""
    if steps == MAX_STEPS and orders in ("march", "attack"):
        raise RuleError("17.32", f"a brigade at Fatigue 4 may not take {orders} orders until "
                        "its fatigue falls")


def may_build(steps: int) -> bool:
    """Fatigue 2 or worse forbids building breastworks (002 §17.34, §15.11)."""
    lv = level(steps)
    return lv is None or lv < 2


# --- causes (§17.22-17.23, §16.12) ---------------------------------------------------------
def counts(actions: Iterable[str]) -> bool:
    """Whether an activation in which the brigade's non-artillery units did ``actions``
    counts for fatigue (002 §17.22 exceptions; attached artillery alone never counts, §17.26,
    so the caller leaves artillery out)."""
    return any(a not in EXEMPT_ACTIONS for a in actions)


def equivalents(mp_spent: float, ma: int) -> int:
    """How many activations a March AM's move is worth (002 §5.35, §17.22): the MP spent
    over the unit's MA, rounded up; at least one."""
    if ma <= 0:
        raise ValueError("an MA is > 0")
    if mp_spent < 0:
        raise ValueError("MP spent are >= 0")
    return max(1, math.ceil(mp_spent / ma - 1e-9))


@dataclass(frozen=True, slots=True)
class TurnTally:
    """What a brigade has done this turn that fatigue counts (reset each turn)."""

    equivalents: int = 0  # counted activation equivalents (§17.22 cause 1)
    off_road: bool = False  # a counted one was not a March on pikes and roads alone
    activation_levels: int = 0  # levels already incurred from activations (§17.23 cap)
    shock_phases: int = 0  # action phases in which it was engaged in shock step 6b

    def to_json(self) -> dict[str, object]:
        return {"equivalents": self.equivalents, "off_road": self.off_road,
                "activation_levels": self.activation_levels, "shock_phases": self.shock_phases}


def after_activation(
    tally: TurnTally,
    *,
    worth: int = 1,
    road_march: bool = False,
    night_attack: bool = False,
) -> tuple[TurnTally, int]:
    """Fatigue levels a counted activation adds (002 §17.22 cause 1, §17.23, §16.12).

    ``worth`` is its activation equivalents (:func:`equivalents` for a March AM, else 1);
    ``road_march`` says the units marched on pikes and roads (bridges and fords too) alone,
    which is free up to a turn's third equivalent; any other movement makes the third
    count. ``night_attack``: on a night turn an Attack-orders activation tires the brigade
    even within the free two (one level; the two-a-turn cap still holds). Call it only for
    activations that :func:`counts`. Returns the new tally and the levels to add now."""
    if worth < 1:
        raise ValueError("an activation is worth >= 1 equivalent")
    t = replace(tally, equivalents=tally.equivalents + worth,
                off_road=tally.off_road or not road_march)
    free = FREE_ACTIVATIONS if t.off_road else FREE_ROAD_MARCH
    due = min(ACTIVATION_CAP, max(0, t.equivalents - free))
    new = due - min(due, tally.activation_levels)
    if night_attack:
        new = max(new, 1)
    new = min(new, ACTIVATION_CAP - tally.activation_levels)
    return replace(t, activation_levels=tally.activation_levels + new), new


def after_shock_phase(tally: TurnTally) -> tuple[TurnTally, int]:
    """An action phase (friendly or enemy) in which the brigade took part in shock step 6b:
    the first of the turn is free, each later one adds a level, uncapped (002 §17.22 cause 2,
    §17.23). Call it once a phase however often the brigade fought in it (an attack followed
    by a defence after a rolled 1 is one)."""
    t = replace(tally, shock_phases=tally.shock_phases + 1)
    return t, (1 if t.shock_phases > 1 else 0)


def wheel_check_due(before: int, after: int) -> bool:
    """A battery marching on the March AM checks for broken wheels when its move reaches a
    fourth activation equivalent (002 §17.26)."""
    return before < 4 <= after


def broken_wheels(roll: int) -> bool:
    """The wheel check: a d10 of 6-9 costs the battery 1 SP (002 §17.26)."""
    if not 0 <= roll <= 9:
        raise ValueError(f"a d10 reads 0..9, not {roll}")
    return roll in BROKEN_WHEELS


# --- recovery (§17.4) ----------------------------------------------------------------------
def idle(actions: Iterable[str]) -> bool:
    """Whether a brigade not in Reserve stayed quiet all turn (002 §17.42): its
    non-artillery units neither moved (reaction moves too), fired in their phase, built,
    declared shock nor were the target of one; free facing changes, mounting or
    dismounting and reaction refusals or facing changes do not break it."""
    return all(a in IDLE_HARMLESS for a in actions)


IdleChoice = Literal["rally", "rest"]


def end_of_turn(steps: int, *, reserve_all_turn: bool, idle_choice: IdleChoice | None = None,
                was_idle: bool = False) -> int:
    """Fatigue after the turn's recovery (002 §17.41-17.42): two levels off for a brigade in
    Reserve the whole turn and still in it; one off for an idle one that chooses to rest
    rather than rally its disordered units (§13.45)."""
    if reserve_all_turn:
        return lowered(steps, RESERVE_RECOVERY)
    if idle_choice == "rest":
        if not was_idle:
            raise RuleError("17.42", "only a brigade that stayed idle all turn may rest off "
                            "fatigue")
        return lowered(steps, IDLE_RECOVERY)
    return steps
