"""Dawn, dusk and night turns (002 §16) and straggler recovery (§16.2).

Which turns are dark comes from the turn-track chart (``all_charts().turn_track``, a
substitute, decision E-14). Dawn and dusk keep the daylight rules but halve command ranges
and the Fire Table's maximum ranges (rounding up) and put -2 on fire beyond one hex
(§16.11). Night halves the same ranges and instead takes a growing amount off fire by range
(-1 at one hex, -3 at two, -6 at three, -10 at four and beyond: 004's Fire Table prints the
last as "4+"), makes batteries fire one by one, forbids cavalry charges and prepared fire,
tires every Attack-orders activation that does something (see :mod:`.fatigue`), and lets
cavalry and artillery react only to an enemy about to come adjacent (§16.12). A Reserve
needs five hexes from the enemy rather than ten at night (§6.31).

002 §16 sets no separate line-of-sight limit at night: the halved fire ranges and the range
penalty do that work.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from gettysburg.core.dice import Dice
from gettysburg.core.protocol import RuleError

from .charts import all_charts
from .charts.turns import Light
from .udd import UddRoll, udd

DARK: frozenset[Light] = frozenset({"dawn", "dusk", "night"})
NIGHT_RANGE_DRM = (0, -1, -3, -6, -10)  # by range in hexes; 4+ hexes is -10 (004 Fire Table)
TWILIGHT_FIRE_DRM = -2  # dawn or dusk fire beyond one hex (§16.11)
RESERVE_DISTANCE = {"day": 10, "dawn": 10, "dusk": 10, "night": 5}  # §6.31's no-LOS test


def light(turn: int) -> Light:
    """The light of turn ``turn`` (an index on the turn track, E-14; 002 §16)."""
    turns = all_charts().turn_track.turns()
    if not 0 <= turn < len(turns):
        raise ValueError(f"turn {turn} is off the turn track (0..{len(turns) - 1})")
    return turns[turn].light


def _check(lt: str) -> None:
    if lt not in ("dawn", "day", "dusk", "night"):
        raise ValueError(f"light is dawn, day, dusk or night, not {lt!r}")


def halved(value: int, lt: Light) -> int:
    """A command range or maximum fire range on a dawn, dusk or night turn: half, rounded up
    (002 §16.11, §16.12)."""
    _check(lt)
    return math.ceil(value / 2) if lt in DARK else value


def command_range(base: int, lt: Light) -> int:
    """A leader's command range this turn (002 §16.11-16.12)."""
    return halved(base, lt)


def max_fire_range(base: int, lt: Light) -> int:
    """The Fire Table's maximum range this turn (002 §16.11-16.12)."""
    return halved(base, lt)


def check_fire_range(distance: int, base_max: int, lt: Light) -> None:
    """Refuse fire beyond the halved maximum range (002 §16.11-16.12)."""
    top = max_fire_range(base_max, lt)
    if distance > top:
        raise RuleError("16.1", f"at {lt} the maximum range is {top} hexes, not {distance}")


def fire_drm(distance: int, lt: Light) -> int:
    """The light's fire modifier at ``distance`` hexes (002 §16.11, §16.12; 004 Fire Table)."""
    _check(lt)
    if distance < 1:
        raise ValueError("fire is at a range of 1 hex or more")
    if lt == "night":
        return NIGHT_RANGE_DRM[min(distance, len(NIGHT_RANGE_DRM) - 1)]
    if lt in ("dawn", "dusk") and distance > 1:
        return TWILIGHT_FIRE_DRM
    return 0


def artillery_fires_singly(lt: Light) -> bool:
    """At night each battery fires alone, whatever its command or stacking (002 §16.12)."""
    return lt == "night"


def check_charge(lt: Light) -> None:
    """No cavalry charge at night (002 §16.12)."""
    if lt == "night":
        raise RuleError("16.12", "no cavalry charge on a night turn")


def check_prepared_fire(lt: Light) -> None:
    """No prepared fire at night (002 §16.12)."""
    if lt == "night":
        raise RuleError("16.12", "no prepared fire on a night turn")


def attack_activation_tires(lt: Light, *, orders: str, counts: bool) -> bool:
    """Whether an activation tires its brigade because it is night (002 §16.12): units on
    Attack orders did something other than the excused actions (``counts``, as
    :func:`.fatigue.counts` decides over the Attack units alone when only part of the
    brigade is on Attack)."""
    return lt == "night" and orders == "attack" and counts


def check_reaction_move(lt: Light, *, becomes_adjacent: bool) -> None:
    """At night cavalry and artillery react by moving only to an enemy about to come
    adjacent, not to one within three hexes (002 §16.12, §9.63)."""
    if lt == "night" and not becomes_adjacent:
        raise RuleError("16.12", "at night a reaction move answers only an enemy about to "
                        "move adjacent")


def reserve_distance(lt: Light) -> int:
    """The fewest hexes from the nearest enemy combat unit a formation needs to go into
    Reserve without the LOS test (002 §6.31: ten, or five on a night turn)."""
    _check(lt)
    return RESERVE_DISTANCE[lt]


# --- straggler recovery (§16.2) ------------------------------------------------------------
def stragglers_eligible(lt: Light, *, reserve: bool) -> bool:
    """A brigade recovers stragglers at the end of a dusk or night turn spent in Reserve
    (002 §16.21). The seed says "crepúsculo" (twilight), beside §16.11's "atardecer"; we read
    it as the evening dusk turn only (dawn is a morning turn, after the night's rest)."""
    _check(lt)
    return reserve and lt in ("dusk", "night")


@dataclass(frozen=True, slots=True)
class StragglerUnit:
    """A unit that may recover stragglers: its strength now and printed, its cohesion, and
    whether its brigadier's command range reaches it."""

    unit: str
    sp: int
    printed_sp: int
    cohesion: int
    artillery: bool = False
    in_range: bool = True
    udd_drm: int = 0  # fatigue and the like (§17.31)


def straggler_cap(printed_sp: int) -> int:
    """Recovery never brings a unit back to its printed strength: one below at best
    (002 §16.23)."""
    return max(0, printed_sp - 1)


def recover_stragglers(units: Iterable[StragglerUnit],
                       dice: Dice) -> list[tuple[StragglerUnit, UddRoll, int]]:
    """Each non-artillery unit in its brigadier's range takes a UDD; a pass adds 1 SP, up to
    one below its printed strength (002 §16.22-16.23). Units already at that cap roll no die.
    Returns (unit, roll, new SP) for every unit that rolled, in the order given."""
    out: list[tuple[StragglerUnit, UddRoll, int]] = []
    for u in units:
        if u.artillery or not u.in_range or u.sp >= straggler_cap(u.printed_sp):
            continue
        r = udd(dice, unit=u.unit, cohesion=u.cohesion, drm=u.udd_drm,
                purpose="straggler recovery", rule="16.22")
        out.append((u, r, u.sp + 1 if r.passed else u.sp))
    return out
