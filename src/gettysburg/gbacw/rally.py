"""Rally, idle brigades, rout recovery and combat effectiveness (002 §13; stragglers,
§16.2, are in :mod:`gettysburg.gbacw.night`).

Pure functions over :class:`~gettysburg.gbacw.combatant.Combatant` records and plain
counts; rolls come from a :class:`~gettysburg.core.dice.Dice` and are returned with the
section they answer to.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from gettysburg.core.dice import Dice
from gettysburg.core.protocol import RuleError

from .charts import all_charts
from .combatant import Combatant

# --- rally (002 §13.4) --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Rally:
    """One rally attempt (002 §13.41): the d10, the modifiers, and the outcome."""

    unit: str
    roll: int
    drm_ids: tuple[str, ...]
    leader_stars: int
    modified: int
    cohesion: int
    rallied: bool
    sp_loss: int

    def to_json(self) -> dict[str, object]:
        return {"rule": "13.41", "unit": self.unit, "roll": self.roll,
                "drms": list(self.drm_ids), "leader_stars": self.leader_stars,
                "modified": self.modified, "cohesion": self.cohesion,
                "rallied": self.rallied, "sp_loss": self.sp_loss}


def rally_drm_ids(u: Combatant, *, adjacent_enemy: bool) -> tuple[str, ...]:
    """002 §13.42: +1 next to an enemy combat unit, -1 for mounted cavalry (stacked leaders'
    stars are taken apart, §11.73)."""
    ids: list[str] = []
    if adjacent_enemy:
        ids.append("adjacent-enemy")
    if u.kind == "mounted_cavalry":
        ids.append("mounted-cavalry")
    return tuple(ids)


def rally_result(roll: int, cohesion: int, drm_ids: Sequence[str] = (), *,
                 leader_stars: int = 0, fatigue: int = 0) -> tuple[int, bool, int]:
    """002 §13.41 on the Rally chart: (modified roll, rallied, SP lost). At or below the
    disordered cohesion the unit rallies; above it stays disordered, losing 1 SP at twice
    the cohesion or more, or at an adjusted 9 or more."""
    r = all_charts().rally.result(roll, cohesion, drm_ids, leader_stars=leader_stars,
                                  fatigue=fatigue)
    return r.modified_roll, r.rallied, r.sp_loss


def rally(dice: Dice, u: Combatant, *, adjacent_enemy: bool,
          leader_stars_after_move: int | None = None, rain: bool = False) -> Rally:
    """002 §13.4: roll to rally a disordered unit (never on March orders, §6.13, nor a
    collapsed one, §12.23). Leaders count only once they have
    finished moving (§13.43): ``leader_stars_after_move`` overrides ``u.leader_stars``.
    Half the brigade's fatigue, rounded up, is added (§17.31); ``rain``: random event M's
    heavy rain lasts (the chart's heavy-rain DRM, 004 §18.0)."""
    if not u.disordered:
        raise RuleError("13.41", f"{u.unit} is not disordered")
    if u.collapsed:
        raise RuleError("12.23", f"{u.unit} is collapsed: only stragglers bring it back")
    if u.orders == "march":
        raise RuleError("6.13", f"{u.unit}: units on March orders do not rally")
    stars = u.leader_stars if leader_stars_after_move is None else leader_stars_after_move
    ids = rally_drm_ids(u, adjacent_enemy=adjacent_enemy) + (("heavy-rain",) if rain else ())
    roll = dice.roll(f"rally: {u.unit}", rule="13.41", die="d10")
    modified, rallied, loss = rally_result(roll, u.cohesion, ids, leader_stars=stars,
                                           fatigue=u.fatigue)
    return Rally(u.unit, roll, ids, stars, modified, u.cohesion, rallied, loss)


def rally_may_turn(*, refused: bool, extended: bool, stacked: bool,
                   turned_after_resupply: bool) -> bool:
    """002 §13.41: a rallied unit may turn one vertex unless it refuses a flank, is
    extended, is stacked, or already turned after resupply this activation. (Stacked units
    that all rally may turn if every unit of the stack may: the caller's test.)"""
    return not (refused or extended or stacked or turned_after_resupply)


# --- idle brigades (002 §13.45, §17.42) ---------------------------------------------------


def idle_rally(*, was_idle: bool, units: Sequence[Combatant],
               in_range: Sequence[bool]) -> tuple[str, ...]:
    """002 §13.45: in the Recovery phase a brigade that stayed idle all turn (decided by
    ``fatigue.idle``) may rally, without a roll, every disordered unit within its
    brigadier's command range; the other choice, one fatigue level off, is
    ``fatigue.end_of_turn(..., idle_choice="rest")`` (§17.42). Collapsed units stay
    disordered (§12.23). Returns the units rallied."""
    if not was_idle:
        raise RuleError("13.45", "only a brigade idle all turn rallies without a roll")
    if len(units) != len(in_range):
        raise ValueError("give one in_range per unit")
    return tuple(u.unit for u, ok in zip(units, in_range, strict=True)
                 if ok and u.disordered and not u.collapsed)


# --- rout recovery (002 §13.5) ------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RoutRecovery:
    """A routed unit's recovery roll (002 §13.52): back on the map (disordered, mounted if
    cavalry, within a hex of its brigadier), still routed, or gone for good; 1 SP lost
    either way."""

    unit: str
    roll: int
    cohesion: int
    returned: bool
    eliminated: bool
    sp_loss: int

    def to_json(self) -> dict[str, object]:
        return {"rule": "13.52", "unit": self.unit, "roll": self.roll,
                "cohesion": self.cohesion, "returned": self.returned,
                "eliminated": self.eliminated, "sp_loss": self.sp_loss}


def rout_recovery(dice: Dice, unit: str, *, disordered_cohesion: int,
                  reserve_all_turn: bool) -> RoutRecovery:
    """002 §13.51-13.53: at the end of a turn its brigade spent wholly in Reserve, a routed
    unit rolls a d10 against its disordered cohesion (cavalry: the mounted counter's).
    At or below it returns, 1 SP weaker and disordered; above it stays routed and loses
    1 SP; a 9 eliminates it whatever its cohesion. No leader modifies it (no leader is in
    the Division box) and this loss never calls for a collapse rout check (§12.23)."""
    if not reserve_all_turn:
        raise RuleError("13.51", f"{unit}: its brigade must spend the whole turn in Reserve")
    roll = dice.roll(f"rout recovery: {unit}", rule="13.52", die="d10")
    if roll == 9:
        return RoutRecovery(unit, roll, disordered_cohesion, False, True, 0)
    return RoutRecovery(unit, roll, disordered_cohesion, roll <= disordered_cohesion, False, 1)


# Stragglers (002 §16.2) are ``night.recover_stragglers``.


def collapsed(sp: int, printed_sp: int) -> bool:
    """002 §12.23: a unit below half its printed strength is collapsed."""
    return 2 * sp < printed_sp


# --- combat effectiveness (002 §13.2-13.3) ------------------------------------------------

Status = Literal["good", "disordered", "collapsed", "routed", "eliminated", "not-arrived"]


def brigade_ineffective(regiments: Sequence[Status]) -> bool:
    """002 §13.21, §13.24: a brigade (its artillery left out by the caller; regiments not
    yet arrived ignored) is combat ineffective when every regiment is eliminated, collapsed,
    disordered or routed, or when more than half are eliminated, collapsed or routed."""
    present = [s for s in regiments if s != "not-arrived"]
    if not present:
        return False
    if all(s != "good" for s in present):
        return True
    broken = sum(1 for s in present if s in ("eliminated", "collapsed", "routed"))
    return 2 * broken > len(present)


def division_ineffective(brigades_ci: Sequence[bool]) -> bool:
    """002 §13.31: a division is combat ineffective when more than half its (non-artillery)
    brigades are; the marker goes once most of them are no longer CI (§13.33)."""
    return 2 * sum(brigades_ci) > len(brigades_ci)


def activation_cap(*, brigade_ci: bool, division_ci: bool) -> int | None:
    """002 §13.23, §13.32: a CI brigade, or any brigade of a CI division, activates at most
    twice a turn (None: no cap from this rule); a CI division's brigades never coordinate."""
    return 2 if brigade_ci or division_ci else None
