"""Resolving one shot (002 §10.17, §10.8) and applying its result (§8.35, §10.41, §12.2–§12.3,
§12.35–§12.36, §12.51, §12.71), ammunition (§10.68–§10.69, E-5), leader replacement (§12.74–
§12.76, 004 §12.7).

Every die goes through ``dice.roll(purpose, rule, die="d10")``; every result is a record
naming the chart column and row, the DRMs by source and the dice, so the engine can turn
each :class:`Step` into an event citing its section.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from gettysburg.core.dice import Dice
from gettysburg.core.protocol import RuleError

from .charts import Charts
from .charts.fire import Ammo, FireResult
from .charts.fire import FireKind as TableKind
from .charts.ranges import Light
from .fire import Ammunition
from .oob import Oob
from .stacking import Arm, StackEntry, target_density_drm
from .udd import UddRoll, udd

# --- DRMs (002 §10.8) --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Modifier:
    """One DRM with where it comes from and its section."""

    source: str
    value: int
    rule: str

    def to_json(self) -> dict[str, object]:
        return {"source": self.source, "value": self.value, "rule": self.rule}


@dataclass(frozen=True, slots=True)
class Situation:
    """Everything the §10.81 DRMs look at for one shot. ``terrain`` lists the Terrain Effects
    Chart ids that protect the target from this fire (its hex, the hexside crossed, the
    slope: the caller reads the line of fire, §10.81's notes); ``range_drm`` overrides the
    range DRM for combined batteries (the worst, §10.64)."""

    ammunition: Ammunition
    hexes: int
    weapon: str
    light: Light = "day"
    unit_rule: str | None = None
    range_drm: int | None = None
    terrain: tuple[str, ...] = ()
    target_hex: tuple[StackEntry, ...] = ()
    target_mounted_nonphasing: bool = False
    firer_mounted: bool = False
    prepared: bool = False
    firer_disordered: bool = False
    flank: bool = False
    target_lower: bool = False
    artillery_moved_or_top: bool = False
    green_infantry: bool = False
    breastworks_firing_out: bool = False
    artillery_after_facing: bool = False
    artillery_adjacent_steep: bool = False
    low_ammo: bool = False
    fatigue: int = 0
    heavy_rain: bool = False
    extra: tuple[Modifier, ...] = ()  # modifiers worked out by the caller (e.g. 004 §9.83)


def fire_modifiers(charts: Charts, s: Situation) -> tuple[Modifier, ...]:
    """The DRMs of one shot, one per source (002 §10.81, 004 chart; cumulative)."""
    table = charts.fire
    kind: TableKind = "shell" if s.ammunition == "shell" else "small_arms"
    canister = s.ammunition == "canister"
    out: list[Modifier] = []

    def fixed(ident: str, rule: str, when: bool = True) -> None:
        if when:
            out.append(Modifier(ident, table.drm([ident], kind=kind, canister=canister), rule))

    if s.range_drm is not None:
        out.append(Modifier("range", s.range_drm, "10.64"))
    else:
        value, _ = charts.range.drm(s.weapon, s.hexes, s.light, s.unit_rule)
        out.append(Modifier("range", value, "10.16"))
    for ident in s.terrain:
        t = charts.terrain.get(ident)
        if ident == "breastworks" and kind == "shell":
            continue  # no breastworks benefit against shell (§10.81, §15.23)
        if t.fire_drm:
            out.append(Modifier(f"terrain:{ident}", t.fire_drm, "10.81"))
    if kind == "shell":
        density = target_density_drm(s.target_hex, shell=True)
        if density:
            out.append(Modifier("massed-target" if density > 0 else "dispersed-target",
                                density, "8.34"))
    fixed("breastworks-firing-out", "10.81", s.breastworks_firing_out
          and s.ammunition == "small_arms")
    fixed("target-mounted-cavalry", "10.81", s.target_mounted_nonphasing)
    fixed("mounted-cavalry-firing", "10.81", s.firer_mounted)
    fixed("prepared", "10.53", s.prepared and s.ammunition == "small_arms")
    fixed("disordered-firer", "12.34", s.firer_disordered)
    fixed("flank", "10.81", s.flank and kind == "small_arms")
    fixed("artillery-downhill", "10.67", s.target_lower and kind == "shell")
    fixed("artillery-moved", "10.61", s.artillery_moved_or_top)
    fixed("green-infantry", "14.1", s.green_infantry)
    fixed("artillery-after-facing", "10.81", s.artillery_after_facing)
    fixed("artillery-adjacent-two-levels", "10.67", s.artillery_adjacent_steep)
    fixed("low-ammo", "10.69", s.low_ammo)
    fixed("heavy-rain", "tdg.18.0", s.heavy_rain)
    fixed("dawn-dusk", "16.11", s.light in ("dawn", "dusk") and s.hexes >= 2)
    if s.light == "night":
        out.append(Modifier("night", table.night_drm(s.hexes), "16.12"))
    if s.fatigue:
        out.append(Modifier("fatigue", -((s.fatigue + 1) // 2), "17.31"))
    out.extend(s.extra)
    return tuple(out)


def defender_best_terrain(charts: Charts, options: Sequence[tuple[str, ...]]) -> tuple[str, ...]:
    """Of several lines of fire into one hex (an extended line's combined parts, 002 §8.45),
    the terrain whose fire DRM favours the defender most."""
    if not options:
        return ()

    def total(ids: tuple[str, ...]) -> int:
        return sum(charts.terrain.get(i).fire_drm or 0 for i in ids)

    return min(options, key=total)


# --- the roll (002 §10.17) ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FireRoll:
    """One shot on the Fire Table: the column (by SP or guns), the die, the DRMs, the row read
    (clamped to the printed rows, E-21) and the cell."""

    column: str
    strength: int
    roll: int
    modifiers: tuple[Modifier, ...]
    row: int
    result: FireResult

    @property
    def drm(self) -> int:
        return sum(m.value for m in self.modifiers)

    @property
    def modified(self) -> int:
        return self.roll + self.drm

    def to_json(self) -> dict[str, object]:
        return {"column": self.column, "strength": self.strength, "roll": self.roll,
                "drm": self.drm, "modified": self.modified, "row": self.row,
                "result": self.result.code, "modifiers": [m.to_json() for m in self.modifiers],
                "rule": "10.17"}


def fire_column(charts: Charts, ammunition: Ammunition, strength: int) -> str:
    """Small arms and canister read the SP columns, shell the gun columns (002 §10.67)."""
    if strength < 1:
        raise RuleError("10.17", f"fire needs at least 1 SP, not {strength}")
    kind: TableKind = "shell" if ammunition == "shell" else "small_arms"
    return charts.fire.column_for(kind, strength).id


def roll_fire(charts: Charts, dice: Dice, *, ammunition: Ammunition, strength: int,
              modifiers: Sequence[Modifier], firer: str = "") -> FireRoll:
    """Roll one shot and read the Fire Table (002 §10.17)."""
    column = fire_column(charts, ammunition, strength)
    roll = dice.roll(f"fire: {firer}".rstrip(": "), rule="10.17", die="d10")
    return read_fire(charts, column, strength, roll, modifiers)


def read_fire(charts: Charts, column: str, strength: int, roll: int,
              modifiers: Sequence[Modifier]) -> FireRoll:
    """The cell for an already-rolled die (E-21: off the printed rows reads the end row)
    (002 §10.17; E-21)."""
    if not 0 <= roll <= 9:
        raise ValueError(f"a d10 reads 0..9, not {roll}")
    table = charts.fire
    modified = roll + sum(m.value for m in modifiers)
    row = min(max(modified, table.roll_min), table.roll_max)
    return FireRoll(column, strength, roll, tuple(modifiers), row, table.cell(column, modified))


# --- ammunition (002 §10.68-10.69, §10.9; decision E-5) ----------------------------------


def ammunition_after(charts: Charts, rolls: Sequence[int], ammo: Ammo, *, rapid_fire: bool,
                     artillery: bool, small_arms_rule: bool = False) -> Ammo:
    """The firer's ammunition after its shot(s) (unmodified rolls, in order). Artillery: each
    unmodified 5 lowers it (low, then out); with rapid fire an unmodified 0 or 5 on either
    shot puts it out after both. Small arms only with the optional §10.9 (off for TDG, E-5)."""
    if not artillery and not small_arms_rule:
        return ammo
    if ammo == "out":
        return "out"
    low = ammo == "low"
    if rapid_fire and any(r in charts.fire.ammunition.rapid_fire_out_on_unmodified
                          for r in rolls):
        return "out"
    for r in rolls:
        after = charts.fire.ammunition_after(r, rapid_fire=False, low=low)
        if after == "out":
            return "out"
        low = after == "low"
    return "low" if low else "none"


# --- results on the target hex (002 §8.35, §10.41, §12.2-12.3, §12.35-12.36, §12.71) -----


@dataclass(frozen=True, slots=True)
class TargetUnit:
    """A unit in the target hex (top of the stack first): present SP, printed SP, both
    cohesions, state flags."""

    unit: str
    arm: Arm
    sp: int
    printed_sp: int
    cohesion: int
    cohesion_disordered: int
    disordered: bool = False
    collapsed: bool = False
    mounted: bool = False
    blown: bool = False
    phasing: bool = False
    fatigue: int = 0  # its brigade's fatigue level (optional rule, 002 §17.31)

    @property
    def artillery(self) -> bool:
        return self.arm in ("art", "horse_art")

    @property
    def chart_arm(self) -> str:
        """The 2nd Disorder Table's arm."""
        if self.artillery:
            return "artillery"
        return "mounted-cavalry" if self.arm == "cav" and self.mounted else "infantry"

    @property
    def current_cohesion(self) -> int:
        return self.cohesion_disordered if self.disordered else self.cohesion


@dataclass(frozen=True, slots=True)
class StackedLeader:
    """A leader in the target hex: his stars and the units of his command there (§11.73)."""

    id: str
    stars: int
    command: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Step:
    """One thing that happened, in order, with its section: ``loss``, ``eliminated``,
    ``collapse``, ``udd``, ``disorder``, ``second_disorder``, ``retreat``, ``rout_check``,
    ``rout``, ``leader_check``, ``leader_killed``, ``ignored``, ``done``."""

    what: str
    unit: str
    rule: str
    detail: Mapping[str, object] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        return {"what": self.what, "unit": self.unit, "rule": self.rule, **self.detail}


@dataclass(frozen=True, slots=True)
class Outcome:
    """The target hex after a result: the units (same order; SP 0 = eliminated), the steps,
    the retreats the owner must make (unit, least, most hexes), the units that rout, the
    leaders killed, and the phasing units done for the activation (§12.35f)."""

    units: tuple[TargetUnit, ...]
    steps: tuple[Step, ...]
    retreats: tuple[tuple[str, int, int], ...]
    routs: tuple[str, ...]
    killed: tuple[str, ...]
    done: tuple[str, ...]

    def unit(self, name: str) -> TargetUnit:
        for u in self.units:
            if u.unit == name:
                return u
        raise KeyError(name)


Cause = Literal["fire", "friendly-fire"]


class _Apply:
    """The mutable bookkeeping of one result; ``apply_fire_result`` is the entry point."""

    def __init__(self, charts: Charts, dice: Dice, units: Sequence[TargetUnit],
                 leaders: Sequence[StackedLeader], cause: Cause) -> None:
        self.charts = charts
        self.dice = dice
        self.units = list(units)
        self.leaders = list(leaders)
        self.cause = cause
        self.steps: list[Step] = []
        self.retreats: list[tuple[str, int, int]] = []
        self.routs: list[str] = []
        self.killed: list[str] = []
        self.done: list[str] = []
        self.lost_while_collapsed: set[int] = set()
        self.second: list[int] = []  # units with a 2nd disorder from this result
        self.blown_hit: set[int] = set()  # blown units hit by a disorder or a loss (§11.58)
        self.any_loss = False

    # -- helpers
    def outcome(self) -> Outcome:
        return Outcome(tuple(self.units), tuple(self.steps), tuple(self.retreats),
                       tuple(self.routs), tuple(self.killed), tuple(self.done))

    def udd_each(self, reason: str, rule: str) -> None:
        """Every unit rolls a UDD and is disordered on a failure (§10.26, §8.45)."""
        for i in range(len(self.units)):
            if not self.roll_udd(i, 0, reason, rule).passed:
                self.disorder(i, rule)

    def alive(self, i: int) -> bool:
        return self.units[i].sp > 0

    def stars(self, i: int) -> int:
        name = self.units[i].unit
        return sum(ld.stars for ld in self.leaders if name in ld.command)

    def lose(self, i: int, steps: int, rule: str) -> int:
        """Take up to ``steps`` SP from unit i; return what it could not absorb."""
        u = self.units[i]
        take = min(steps, u.sp)
        if take <= 0:
            return steps
        if u.collapsed or u.blown:
            self.lost_while_collapsed.add(i)
        if u.blown and rule != "11.58":
            self.blown_hit.add(i)
        u = replace(u, sp=u.sp - take)
        self.units[i] = u
        self.any_loss = True
        self.steps.append(Step("loss", u.unit, rule, {"sp": take, "left": u.sp,
                                                      "gun": u.artillery}))
        if u.sp == 0:
            self.steps.append(Step("eliminated", u.unit, "12.13"))
        else:
            self.collapse(i)
        return steps - take

    def collapse(self, i: int) -> None:
        """002 §12.23: a non-artillery unit below half its printed SP is disordered (no
        effect if it already is) and collapsed."""
        u = self.units[i]
        if u.artillery or u.collapsed or 2 * u.sp >= u.printed_sp:
            return
        self.units[i] = replace(u, collapsed=True, disordered=True)
        self.steps.append(Step("collapse", u.unit, "12.23",
                               {"sp": u.sp, "printed_sp": u.printed_sp,
                                "newly_disordered": not u.disordered}))

    def roll_udd(self, i: int, drm: int, purpose: str, rule: str) -> UddRoll:
        u = self.units[i]
        # 002 §17.31: half the fatigue level, rounded up, is added to every UDD
        r = udd(self.dice, unit=u.unit, cohesion=u.current_cohesion,
                drm=drm + -(-u.fatigue // 2), leader_stars=self.stars(i), purpose=purpose,
                rule=rule)
        self.steps.append(Step("udd", u.unit, rule, r.to_json()))
        return r

    def disorder(self, i: int, rule: str) -> None:
        u = self.units[i]
        if not u.disordered:
            self.units[i] = replace(u, disordered=True)
            self.steps.append(Step("disorder", u.unit, rule))
            return
        self.steps.append(Step("second_disorder", u.unit, "12.35" if not u.artillery
                               else "12.36", {"cause": self.cause}))
        self.second.append(i)
        if u.blown:
            self.blown_hit.add(i)

    def leader_checks(self) -> None:
        """002 §12.71: each leader in the hex rolls once; 0 kills him."""
        for ld in list(self.leaders):
            roll = self.dice.roll(f"leader casualty: {ld.id}", rule="12.71", die="d10")
            killed = roll == 0
            self.steps.append(Step("leader_check", ld.id, "12.71",
                                   {"roll": roll, "killed": killed}))
            if killed:
                self.killed.append(ld.id)
                self.leaders.remove(ld)
                self.steps.append(Step("leader_killed", ld.id, "12.71"))

    # -- 2nd disorder (§12.35-12.36 through the chart)
    def second_disorders(self, *, shell: bool) -> None:
        table = self.charts.second_disorder
        pooled: list[int] = []
        later: list[tuple[int, tuple[int, int], str]] = []
        done: list[int] = []
        for i in self.second:
            u = self.units[i]
            cell, prov = table.outcome(self.cause, u.chart_arm)
            head = prov.source.split(";")[0]
            rule = head.replace("002 §", "") if head.startswith("002 §") else "12.35"
            if cell.check == "udd":
                r = self.roll_udd(i, 0, "2nd disorder", rule)
                if not r.passed:
                    self.rout(i, rule)
                    continue
            if cell.abandoned:
                self.steps.append(Step("abandoned", u.unit, rule))
                continue
            if cell.sp_loss and u.artillery:
                self.lose(i, cell.sp_loss, rule)  # a gun, no retreat (§12.36)
            elif cell.sp_loss and u.blown:
                self.lose(i, cell.sp_loss, rule)  # blown cavalry is not pooled (§12.35e)
            elif cell.sp_loss:
                pooled.append(i)
            if cell.retreat is not None:
                later.append((i, cell.retreat, rule))
            if u.phasing:
                done.append(i)
        if pooled:
            # §12.35e: two or more units lose 1 SP in all, from the stack's top unit (at
            # random for shell)
            living = [i for i in range(len(self.units)) if self.alive(i)
                      and not self.units[i].artillery]
            if len(pooled) == 1:
                pick = pooled[0]  # §12.35e speaks of two or more units
            elif shell:
                pick = pooled[self._random_index(len(pooled))]
            else:
                pick = living[0] if living else pooled[0]
            self.lose(pick, 1, "12.35")
        # step losses come before the other results (§12.21): the retreats, then §12.35f
        for i, (least, most), rule in later:
            if self.alive(i):
                name = self.units[i].unit
                self.retreats.append((name, least, most))
                self.steps.append(Step("retreat", name, rule, {"least": least, "most": most}))
        for i in done:
            if self.alive(i):
                self.done.append(self.units[i].unit)
                self.steps.append(Step("done", self.units[i].unit, "12.35"))

    def _random_index(self, k: int) -> int:
        if k == 1:
            return 0
        top = 10 - 10 % k
        while True:
            r = self.dice.roll("2nd disorder loss at random", rule="12.35", die="d10")
            if r < top:
                return r * k // top

    def rout(self, i: int, rule: str) -> None:
        u = self.units[i]
        self.routs.append(u.unit)
        self.steps.append(Step("rout", u.unit, rule))

    def blown_losses(self) -> None:
        """002 §11.58: a blown unit hit by a disorder or a step loss loses 1 SP more; a stack
        at most 2 more, one from its top blown unit and one at random among the others."""
        hit = [i for i in sorted(self.blown_hit) if self.alive(i)]
        if not hit:
            return
        self.lose(hit[0], 1, "11.58")
        rest = hit[1:]
        if rest:
            self.lose(rest[self._random_index(len(rest))], 1, "11.58")

    def collapse_checks(self) -> None:
        """002 §12.23, §11.58, §12.51: a collapsed or blown unit that lost SP (a blown one also
        when disordered) takes one final UDD and routs if it fails."""
        for i in sorted(self.lost_while_collapsed | self.blown_hit):
            u = self.units[i]
            if not self.alive(i) or u.unit in self.routs:
                continue
            rule = "11.58" if u.blown else "12.23"
            r = self.roll_udd(i, 0, "blown unit hit" if u.blown else "collapsed unit lost SP",
                              rule)
            if not r.passed:
                self.rout(i, "12.51")


def apply_fire_result(
    charts: Charts,
    dice: Dice,
    result: FireResult,
    units: Sequence[TargetUnit],
    *,
    ammunition: Ammunition,
    leaders: Sequence[StackedLeader] = (),
    target_unit: int = 0,
    cause: Cause = "fire",
) -> Outcome:
    """Apply one Fire Table result to the units of the target hex (top first).

    Small arms and canister (002 §8.35, §10.41, §12.22): the ``target_unit`` (the top unit;
    the top shocking unit for pre-shock fire) takes the step losses, any excess going down
    the stack; then its disorder check (the result's DRM, +2 if it is artillery, §10.7 and
    the chart, less the stars of its leaders, §11.73) — ignored if it was eliminated;
    if it was disordered or eliminated every other unit takes a plain UDD. Shell (§10.67):
    every unit takes the result on its own. A unit disordered again suffers the 2nd
    disorder of ``cause`` from the chart (§12.35a, §12.36), the stack losing 1 SP in all
    (§12.35e). Leaders roll for casualties when step losses occur (§12.71: before the UDDs
    for a numbered result, after all UDDs when the only losses come from 2nd disorders).
    Collapsed units that lost SP take the final UDD of §12.23.
    """
    if not units:
        raise RuleError("10.41", "no unit in the target hex")
    if not 0 <= target_unit < len(units):
        raise RuleError("8.35", f"target_unit {target_unit} is not a unit of the hex")
    if any(u.sp <= 0 or u.sp > u.printed_sp for u in units):
        raise RuleError("12.1", "every unit needs 1..printed SP")
    a = _Apply(charts, dice, units, leaders, cause)
    shell = ammunition == "shell"
    if shell:
        targets = list(range(len(units)))
        if result.sp_loss:
            for i in targets:
                a.lose(i, result.sp_loss, "12.21")
            a.leader_checks()
        for i in targets:
            if a.alive(i):
                _result_check(a, i, result, extra=0)
    else:
        order = [target_unit, *[i for i in range(len(units)) if i != target_unit]]
        left = result.sp_loss
        for i in order:
            if left <= 0:
                break
            left = a.lose(i, left, "12.22")
        if result.sp_loss:
            a.leader_checks()
        hit = target_unit
        if not a.alive(hit):
            if result.check != "none":
                a.steps.append(Step("ignored", units[hit].unit, "10.41",
                                    {"result": result.code}))
            top_hit = True
        else:
            extra = charts.fire.artillery_target_udd_drm.value if a.units[hit].artillery else 0
            top_hit = _result_check(a, hit, result, extra=extra)
            # a collapse disorders it too (§12.23)
            top_hit = top_hit or (a.units[hit].disordered and not units[hit].disordered)
        if top_hit:
            for i in order[1:]:
                if a.alive(i):
                    r = a.roll_udd(i, 0, "top unit disordered or eliminated", "8.35")
                    if not r.passed:
                        a.disorder(i, "8.35")
    a.second_disorders(shell=shell)
    a.blown_losses()
    if not result.sp_loss and a.any_loss:
        a.leader_checks()  # losses only from 2nd disorders: after every UDD (§12.71 note)
    a.collapse_checks()
    return a.outcome()


def friendly_fire_risk(unmodified: int) -> bool:
    """002 §10.26: fire over the heads of friends adjacent to the target endangers them on an
    unmodified roll of 2 or less."""
    if not 0 <= unmodified <= 9:
        raise ValueError(f"a d10 reads 0..9, not {unmodified}")
    return unmodified <= 2


def apply_friendly_fire(charts: Charts, dice: Dice, units: Sequence[TargetUnit], *,
                        leaders: Sequence[StackedLeader] = ()) -> Outcome:
    """002 §10.26: each friendly unit fired over takes a UDD and is disordered if it fails;
    a second disorder is the friendly-fire family's (§12.35b, §12.36)."""
    if not units:
        raise RuleError("10.26", "no friendly unit was fired over")
    a = _Apply(charts, dice, units, leaders, "friendly-fire")
    a.udd_each("fired over by friends", "10.26")
    a.second_disorders(shell=False)
    a.blown_losses()
    if a.any_loss:
        a.leader_checks()
    a.collapse_checks()
    return a.outcome()


def apply_disorder_spread(charts: Charts, dice: Dice, units: Sequence[TargetUnit], *,
                          leaders: Sequence[StackedLeader] = ()) -> Outcome:
    """002 §8.45: friendly artillery stacked in a hex of an extended unit that has just been
    disordered takes a UDD; a failure disorders it (a battery already disordered suffers
    the 2nd disorder of fire, §12.36)."""
    if not units:
        raise RuleError("8.45", "no artillery stacked with the extended unit")
    a = _Apply(charts, dice, units, leaders, "fire")
    a.udd_each("extended unit disordered", "8.45")
    a.second_disorders(shell=False)
    if a.any_loss:
        a.leader_checks()
    a.collapse_checks()
    return a.outcome()


WithdrawalAfterFire = Literal["full", "one_hex", "none"]


def withdrawal_after_fire(outcome: Outcome, unit: str) -> WithdrawalAfterFire:
    """002 §10.44: after withdrawal fire a failed UDD, a D or a step loss limits the leaving
    unit to one hex; a 2nd disorder (or a rout or elimination) replaces the move by its own
    result."""
    u = outcome.unit(unit)
    mine = [s for s in outcome.steps if s.unit == unit]
    if u.sp == 0 or unit in outcome.routs or any(s.what == "second_disorder" for s in mine):
        return "none"
    hurt = any(s.what in ("loss", "disorder", "collapse") for s in mine) or any(
        s.what == "udd" and not s.detail.get("passed") for s in mine)
    return "one_hex" if hurt else "full"


def _result_check(a: _Apply, i: int, result: FireResult, *, extra: int) -> bool:
    """The d/D part of a result on unit i; True if it was disordered (first or second)."""
    if result.check == "auto":
        a.disorder(i, "12.32")
        return True
    if result.check == "udd":
        r = a.roll_udd(i, result.udd_drm + extra, f"fire result {result.code}", "12.32")
        if not r.passed:
            a.disorder(i, "12.32")
            return True
    return False


# --- leaders (002 §12.71-12.76, 004 §12.7) -----------------------------------------------


def leader_dies_with_command(units_left: int, units_routed: int) -> bool:
    """002 §12.71: a leader dies when every unit of his command is eliminated, not when they
    have routed."""
    return units_left == 0 and units_routed == 0


@dataclass(frozen=True, slots=True)
class Replacement:
    """Who takes a fallen leader's command, and which lower counter flips with him (§12.75)."""

    fallen: str
    successor: str | None
    also_flipped: tuple[tuple[str, str], ...]
    rule: str


def replacement_for(oob: Oob, fallen: str, out_of_play: Collection[str]) -> Replacement:
    """The leader who takes ``fallen``'s command in the Replacement phase (002 §12.74-12.76).

    The counter's back (its replacement) first; if that leader is out of play too, a corps
    goes down its ``succession`` (004 §12.7: Hancock, then Caldwell, then Gibbon), otherwise
    down :meth:`Oob.replacement_chain`. A successor who commands a lower formation flips that
    counter too, to his own replacement (§12.75)."""
    gone = set(out_of_play) | {fallen}
    chain = oob.replacement_chain(fallen)[1:]
    rule = "12.74"
    corps = next((c for _, c in oob.corps() if c.leader is not None
                  and c.leader.id == fallen), None)
    if corps is not None and corps.succession:
        candidates = [c for c in corps.succession if c != fallen]
        if chain and chain[0] not in candidates:
            candidates.insert(0, chain[0])
    else:
        candidates = chain
    successor = None
    for i, c in enumerate(candidates):
        if c not in gone:
            successor = c
            rule = "12.74" if i == 0 else ("tdg.12.7" if corps is not None else "12.76")
            break
    flips: list[tuple[str, str]] = []
    if successor is not None and successor != (chain[0] if chain else None):
        nxt = oob.leader(successor).replacement
        if nxt is not None:
            flips.append((successor, nxt if isinstance(nxt, str) else nxt.id))
    return Replacement(fallen, successor, tuple(flips), rule)
