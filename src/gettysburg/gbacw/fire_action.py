"""The "fire" action of the GBACW game: legal targets, validation and execution of phasing
fire (002 §10.3), translating between the engine's position and the pure rules of
:mod:`gettysburg.gbacw.fire` and :mod:`gettysburg.gbacw.fire_result`.

Action shapes (each a *fire order*, :class:`FireOrder`, of one or more rolls):

* ``{"type": "fire", "unit", "target"}``: the unit fires all the SP its hex allows it
  (002 §8.31-8.33; through a refused front the §7.34 share) at the enemy in the target hex;
  a good-order Spencer unit fires a second round (§14.31);
* ``{"type": "fire_split", "unit", "targets": [hex ids]}``: its SP split as evenly as
  possible among adjacent enemy hexes in its front (§10.15) or, for a one-counter battery,
  among any hexes it may fire at (§10.65);
* ``{"type": "combined_fire", "unit", "with": [units], "target"}``: stacked batteries or
  sections fire as one, guns added, the worst range DRM (§10.63-10.64);
* ``{"type": "rapid_fire", "unit", "target"}``: a smoothbore battery fires twice at 1-3
  hexes (§10.68).

Return fire to any of them is :mod:`gettysburg.gbacw.return_fire`'s. Stack order is the
position's order of units in a hex.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from gettysburg.core.canonical import JSONDict
from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import Action, Event, RuleError

from .artillery_near import caution_may_fire
from .charts import all_charts
from .charts.fire import Ammo
from .charts.ranges import Light
from .engineering import fire_in_drm, fire_out_drm
from .engineering_step import breastworks
from .extension import split_strength
from .facing import front_hexes, refused_fire_split
from .fatigue import level as fatigue_level
from .fire import (
    NON_PHASING,
    Battery,
    FireKind,
    Firer,
    Shot,
    check_may_fire,
    check_phasing_split,
    check_rapid_fire,
    check_target,
    combine_artillery,
    even_split,
    extended_line_shot,
    flank_fire,
    prepared_fire,
    slope_terrain,
)
from .fire_result import (
    FireRoll,
    Modifier,
    Outcome,
    Situation,
    StackedLeader,
    TargetUnit,
    ammunition_after,
    apply_disorder_spread,
    apply_fire_result,
    apply_friendly_fire,
    fire_modifiers,
    friendly_fire_risk,
    roll_fire,
)
from .kinds import unit_class
from .lasting import jinx_drm, jinx_roll, rain_fire_drm
from .shock import horse_holders
from .special_units import range_rule
from .stacking import Arm, fire_allowances
from .state import UnitState
from .tdg_terrain import check_sunken_road_artillery, cut_fire_drm, sunken_road_fire_drm

if TYPE_CHECKING:
    from .engine_view import GameView as GbacwGame

NON_PHASING_AND_PHASING: tuple[FireKind, ...] = ("phasing", *NON_PHASING)


def present_sp(game: GbacwGame, key: str) -> int:
    """The counter's SP less those lost (002 §12.13)."""
    return game.counter(key).sp - game.pos.units[key].lost


def stack_keys(game: GbacwGame, h: Hex) -> list[str]:
    """The units whose counter is in hex ``h``, top first: the stack's order as
    ``formation_step.stack_of`` keeps it (``UnitState.stack``, then the key; 002 §8.23),
    units with SP left only."""
    p = game.pos
    here = [k for k in game.keys_at(h) if present_sp(game, k) > 0]  # a hex index
    return sorted(here, key=lambda k: (p.units[k].stack, k))


def part_hexes(game: GbacwGame, key: str) -> list[Hex]:
    """The hexes an extended line or column holds besides its counter's (002 §8.44)."""
    board = game.cat.board
    return [board.parse(x) for x in game.pos.units[key].extends]


def target_keys(game: GbacwGame, h: Hex) -> list[str]:
    """The units a shot at ``h`` falls on, top first: the stack there, then any extended
    unit with a part in ``h`` (002 §8.45: each part is a target; **reading**: a part sits
    below the counters of its hex)."""
    keys = stack_keys(game, h)
    hid = game.cat.board.hexes[h].id if h in game.cat.board.hexes else None
    keys += [k for k, u in sorted(game.pos.units.items())
             if hid is not None and hid in u.extends and u.hex is not None
             and k not in keys and present_sp(game, k) > 0]
    return keys


def enemy_targets(game: GbacwGame, seat: str) -> set[Hex]:
    """The hexes holding an enemy of ``seat``: its counters' hexes and the parts of its
    extended units (002 §8.45)."""
    out = set(game.enemy_hexes(seat))
    for k, u in game.pos.units.items():
        if u.seat != seat and u.extends and u.hex is not None and present_sp(game, k) > 0:
            out.update(part_hexes(game, k))
    return out


def occupied_hexes(game: GbacwGame) -> set[Hex]:
    """Every hex a unit or a part of an extended unit stands in (sight blockers, 10.26)
    (002 §10.26)."""
    out = {h for u in game.pos.units.values() if (h := game.hex_of(u.hex)) is not None}
    for k, u in game.pos.units.items():
        if u.extends and u.hex is not None:
            out.update(part_hexes(game, k))
    return out


def firer_of(game: GbacwGame, key: str, *, phasing: bool) -> Firer:
    """The :class:`Firer` a unit fires as: its hex, facing, arm, SP, orders and markers, phasing or
    not (002 §10.1, §10.3, §10.4)."""
    u = game.pos.units[key]
    c = game.counter(key)
    h = game.hex_of(u.hex)
    if h is None or u.facing is None:
        raise RuleError("10.11", f"{key} is not on the map")
    arm: Arm = c.arm
    return Firer(unit=key, arm=arm, hex=h, facing=u.facing, weapon=c.weapon,
                 sp=present_sp(game, key), orders=game.orders_of(key), phasing=phasing,
                 disordered=u.disordered, mounted=c.mode == "mounted",
                 green=c.green, moved_mp=u.mp_spent, ma=c.ma,
                 restacked=RESTACKED in u.fired,  # no prepared fire after it (§10.52)
                 refused=frozenset(u.refused), ammo=_ammo(u.ammo))


def fire_sp(game: GbacwGame, key: str, *, refused_front: bool | None = None) -> int:
    """The SP ``key`` may fire from its hex (002 §8.31-8.33). A stack with a refused flank
    fires at most half its SP through the refused front and the rest through the normal
    fronts (§7.34, :func:`facing.refused_fire_split`): ``refused_front`` picks the share
    (None: the unit's whole allowance)."""
    u = game.pos.units[key]
    h = game.hex_of(u.hex)
    if h is None:
        return 0
    keys = [k for k in stack_keys(game, h) if game.pos.units[k].seat == u.seat]
    # §8.31 holds over the activation: a unit that fired from here counts at least the SP
    # it was allowed then (losses since do not free SP), one that has left counts as spent
    used = {k: sp for k, v in game.pos.units.items()
            if v.fired and k != key and v.seat == u.seat and (sp := fired_from(v, u.hex))}
    entries = [game.stack_entry(k) for k in keys]
    entries = [type(e)(e.unit, e.arm, max(firing_strength(game, k), used.get(k, 0)),
                       e.brigade, e.mounted)
               for e, k in zip(entries, keys, strict=True)]
    allowed = fire_allowances(entries, spent=sum(sp for k, sp in used.items() if k not in keys))
    i = keys.index(key)
    if refused_front is None or not any(game.pos.units[k].refused for k in keys):
        return allowed[i]
    normal, refused = refused_fire_split(allowed)[i]
    return refused if refused_front else normal


FIRED_FROM = "from:"  # a ``UnitState.fired`` entry "from:<SP>@<hex id>" (002 §8.31)


def fired_from(u: UnitState, hex_id: str | None) -> int:
    """The SP ``u`` was allowed when it made its first phasing shot of this activation from
    ``hex_id`` (0: none from there); what :func:`fire_sp` counts for it (002 §8.31, §8.33)."""
    for entry in u.fired:
        if entry.startswith(FIRED_FROM):
            sp, _, hid = entry[len(FIRED_FROM):].partition("@")
            if hid == hex_id:
                return int(sp)
    return 0


def note_fired_from(game: GbacwGame, plan: FirePlan, *, phase: bool = False) -> None:
    """Before a phasing shot is applied (so before any return fire hurts the firers), note
    the SP each firer is allowed from its hex, once an activation (002 §8.31: the hex's
    limit is for the activation, not for the units' strength after the shot). A barrage
    phase (tdg.10.93) has no brigade active: its step notes with ``phase=True``."""
    if not plan.firer.phasing or (game.pos.brigade is None and not phase):
        return
    for k in plan.shooters:
        u = game.pos.units[k]
        if u.hex is not None and not any(x.startswith(FIRED_FROM) for x in u.fired):
            u.fired = [*u.fired, f"{FIRED_FROM}{fire_sp(game, k)}@{u.hex}"]


def firing_strength(game: GbacwGame, key: str) -> int:
    """The SP a unit fires with before the hex limits: dismounted cavalry leaves one of
    every four SP it has holding the horses (002 §14.25)."""
    sp = present_sp(game, key)
    u = game.pos.units[key]
    if u.extension == "column" and u.extends:  # 002 §8.52: the lead fires, with its share
        sp = split_strength(sp, 1 + len(u.extends))[0]
    c = game.counter(key)
    if c.arm == "cav" and c.mode == "dismounted":
        sp -= horse_holders(sp)
    return sp


def lone_battery_front(game: GbacwGame, key: str) -> list[Hex]:
    """002 §10.66: the enemy hexes in the front of a battery alone in its hex (empty when
    the unit is not a lone battery or has no enemy in front)."""
    u = game.pos.units[key]
    h = game.hex_of(u.hex)
    if h is None or u.facing is None or game.counter(key).arm not in ("art", "horse_art"):
        return []
    if any(k != key and game.pos.units[k].seat == u.seat for k in stack_keys(game, h)):
        return []
    enemies = enemy_targets(game, u.seat)
    return [f for f in front_hexes(h, u.facing) if f in enemies]


def fatigue_of(game: GbacwGame, key: str) -> int:
    """The number on the unit's brigade fatigue marker when the fatigue rule is on (002
    §17.24, §17.31: 0 without a marker or at "OK"; ``BrigadeState.fatigue`` counts steps);
    artillery exempt, as the engine treats its MA. The DRM is half of it, rounded up."""
    if not game.fatigue or game.counter(key).arm in ("art", "horse_art"):
        return 0
    return fatigue_level(game.pos.brigades[game.formation(key)].fatigue) or 0


def unit_rule_of(game: GbacwGame, key: str) -> str | None:
    """The range chart's unit rule for ``key``'s range and range DRM: Berdan's
    sharpshooters (004 §14.4, ``special_units.range_rule``), else None."""
    return range_rule(game.counter(key).flags)


def _light(game: GbacwGame) -> Light:
    light: Light = all_charts().turn_track.turns()[game.pos.turn].light
    return light


def _fired(u: UnitState) -> list[FireKind]:
    return [k for k in NON_PHASING_AND_PHASING if k in u.fired]


def _ammo(value: str) -> Ammo:
    if value == "low":
        return "low"
    if value == "out":
        return "out"
    return "none"


RESTACKED = "restack"  # a ``UnitState.fired`` mark: the unit re-ordered its stack (§8.24)


def mark_restacked(game: GbacwGame, key: str) -> None:
    """Note that ``key`` re-ordered its stack this activation (002 §8.24; the game calls
    this after ``formation_step``'s restack)."""
    u = game.pos.units[key]
    if RESTACKED not in u.fired:
        u.fired = [*u.fired, RESTACKED]


def check_phasing_extras(game: GbacwGame, key: str) -> None:
    """The phasing-fire bans that live outside :func:`fire.check_may_fire`: no fire after a
    resupply (002 §10.92), nor after re-ordering the stack on Advance orders (§8.24), nor
    by a battery that moved and stands within three hexes of an enemy that sees it under
    §9.55's Option 1 (:func:`artillery_near.caution_may_fire`)."""
    u = game.pos.units[key]
    if "resupply" in u.fired:
        raise RuleError("10.92", f"{key} resupplied this activation: that was its action")
    if RESTACKED in u.fired and game.orders_of(key) == "advance":
        raise RuleError("8.24", f"{key} re-ordered its stack on Advance orders: it may not "
                                "fire this activation")
    if not caution_may_fire(game, key):
        raise RuleError("9.55", f"{key} moved and ends within three hexes of an enemy that "
                                "sees it: no fire this activation (Option 1)")


@dataclass(frozen=True)
class Scene:
    """The hexes a shot's checks read from the position, taken once for a firer: the
    enemy targets of its seat (002 §8.45), every occupied hex (sight blockers, §10.26),
    its friends' hexes (§10.26) and, for a lone battery, the enemy in its front (§10.66).
    A legal list asks :func:`plan_at` about every enemy hex, so it builds the scene once
    per unit instead of once per hex (same answers: nothing changes in between)."""

    enemies: frozenset[Hex]
    occupied: frozenset[Hex]
    friends: frozenset[Hex]
    lone: tuple[Hex, ...]


def scene_of(game: GbacwGame, key: str, seat: str, *, phasing: bool) -> Scene:
    """The :class:`Scene` of unit ``key`` firing at enemies of ``seat``
    (002 §10.16, §10.26, §8.45)."""
    mine = game.pos.units[key].seat
    friends = frozenset(h for u in game.pos.units.values()
                        if u.seat == mine and (h := game.hex_of(u.hex)))
    return Scene(frozenset(enemy_targets(game, seat)), frozenset(occupied_hexes(game)),
                 friends, tuple(lone_battery_front(game, key)) if phasing else ())


@dataclass
class Planner:
    """One legal list's fire checks for a unit (:func:`order_options`): the
    :class:`Scene` of each firer built once, and each plan and check asked kept with its
    answer (a plan or the refusal). The position does not change while a list is built,
    and every split pair, rapid and combined fire of a battery asks the same plans again:
    without it each pair built three scenes (every unit read) and traced each line anew.
    Never kept beyond the call that made it."""

    scenes: dict[tuple[str, str, bool], Scene] = field(default_factory=dict)
    answers: dict[tuple[Any, ...], FirePlan | RuleError] = field(default_factory=dict)

    def scene(self, game: GbacwGame, key: str, seat: str, *, phasing: bool) -> Scene:
        """:func:`scene_of`, built once per (unit, seat, phasing)."""
        memo = (key, seat, phasing)
        got = self.scenes.get(memo)
        if got is None:
            got = self.scenes[memo] = scene_of(game, key, seat, phasing=phasing)
        return got

    def kept(self, memo: tuple[Any, ...]) -> FirePlan | None:
        """The plan kept for ``memo`` (raising the refusal kept), None when not asked yet."""
        got = self.answers.get(memo)
        if isinstance(got, RuleError):
            raise got.with_traceback(None)  # the same refusal, not its first traceback
        return got


def fire_targets(game: GbacwGame, key: str) -> list[Hex]:
    """Hexes the active unit ``key`` may fire at now (phasing fire, 002 §10.3)."""
    try:
        firer = firer_of(game, key, phasing=True)
        check_may_fire(firer, "phasing", fired_kinds=_fired(game.pos.units[key]))
        check_phasing_extras(game, key)
    except RuleError:
        return []
    if fire_sp(game, key) < 1:
        return []
    out = []
    seat = game.pos.units[key].seat
    scene = scene_of(game, key, seat, phasing=True)
    origins = (firer.hex, *part_hexes(game, key))  # an extended line fires from its parts
    top: int | None = None
    for h in sorted(scene.enemies, key=lambda x: (x.q, x.r)):
        if top is None:
            top = all_charts().range.max_range(firer.weapon, _light(game),
                                               unit_rule_of(game, key))
        if all(o.distance(h) > top for o in origins):
            continue  # beyond the weapon's range from every hex it fires from (§10.16)
        try:  # check_fire's checks (§10.66, §7.34)
            plan_at(game, firer, h, seat, scene=scene)
        except RuleError:
            continue
        out.append(h)
    return out


def _shot(game: GbacwGame, firer: Firer, target: Hex, scene: Scene | None = None,
          kind: FireKind = "phasing") -> Shot:
    if scene is None:
        scene = scene_of(game, firer.unit, game.pos.units[firer.unit].seat, phasing=False)
    shot = check_target(game.cat.board, all_charts().range, firer, target, kind=kind,
                        blockers=scene.occupied - {firer.hex, target}, friends=scene.friends,
                        light=_light(game), unit_rule=unit_rule_of(game, firer.unit))
    if firer.artillery and firer.hex in game.cat.board.hexes and \
            target in game.cat.board.hexes:
        check_sunken_road_artillery(game.cat.board, firer.hex, target)  # 004 §9.84
    return shot


def friends_fired_over(game: GbacwGame, firer: Firer, shot: Shot, target: Hex) -> tuple[Hex, ...]:
    """002 §10.26: the hexes of the firer's friends on the line of small-arms or canister fire
    next to the target (the fire passes over their heads)."""
    if shot.sight is None or shot.ammunition == "shell":
        return ()
    seat = game.pos.units[firer.unit].seat
    mine = {h for u in game.pos.units.values()
            if u.seat == seat and (h := game.hex_of(u.hex)) is not None}
    out: list[Hex] = []
    for h in shot.sight.path:
        if h in (firer.hex, target) or h in out:
            continue
        if h in mine and h.distance(target) == 1:
            out.append(h)
    return tuple(out)


@dataclass(frozen=True)
class FirePlan:
    """One roll's plan: the firer (for combined fire the top battery, ``units`` all of
    them), target, SP or guns, the geometry, the range DRM when combined (§10.64) and the
    friends it passes over (§10.26)."""

    firer: Firer
    target: Hex
    sp: int
    shot: Shot
    range_drm: int | None = None
    units: tuple[str, ...] = ()
    over: tuple[Hex, ...] = ()
    worst: tuple[str, ...] = ()  # combined small arms (§10.82): "unprepared", "disordered", "low"
    extra: tuple[Modifier, ...] = ()  # DRMs the caller adds (e.g. 002 §9.62's artillery -2)

    @property
    def shooters(self) -> tuple[str, ...]:
        return self.units or (self.firer.unit,)


def check_fire(game: GbacwGame, action: Action, seat: str,
               planner: Planner | None = None) -> FirePlan:
    """Validate a fire action (changes nothing) (002 §10.3, §10.1); ``planner``: the
    list's kept checks (:class:`Planner`)."""
    if planner is None:
        return _check_fire(game, action, seat, None)
    memo = ("check_fire", str(action.get("unit")), str(action.get("target")), seat)
    got = planner.kept(memo)
    if got is None:
        try:
            got = _check_fire(game, action, seat, planner)
        except RuleError as exc:
            planner.answers[memo] = exc
            raise
        planner.answers[memo] = got
    return got


def _check_fire(game: GbacwGame, action: Action, seat: str,
                planner: Planner | None) -> FirePlan:
    key = str(action.get("unit"))
    p = game.pos
    if key not in p.units or p.units[key].seat != seat:
        raise RuleError("10.3", f"{key!r} is not one of your units")
    if not game.in_activation(key):  # the active brigade or its group (§5.34)
        raise RuleError("10.3", f"{key} is not of the active brigade")
    firer = firer_of(game, key, phasing=True)
    check_may_fire(firer, "phasing", fired_kinds=_fired(p.units[key]))
    check_phasing_extras(game, key)
    if fire_sp(game, key) < 1:
        raise RuleError("8.33", f"{key} may fire no SP from its hex (the hex limit is used "
                                "by the units above it)")
    target = game.cat.board.parse(str(action.get("target")))
    return plan_at(game, firer, target, seat, planner=planner)


def plan_at(game: GbacwGame, firer: Firer, target: Hex, seat: str,
            sp: int | None = None, *, by_parts: bool = True,
            scene: Scene | None = None, planner: Planner | None = None) -> FirePlan:
    """The plan of ``firer``'s shot at ``target``: an enemy there, the lone battery rule
    (§10.66), range, arc and sight (§10.12, §10.16), the SP through a refused front (§7.34);
    a phasing extended line fires by its parts (§8.45, :func:`line_plan`) unless
    ``by_parts`` is False (a share given by the caller). ``scene``: the
    position's hexes as :func:`scene_of` reads them (built here when not given);
    ``planner``: the list's kept checks (:class:`Planner`), which then gives the scene."""
    if planner is not None:
        memo = ("plan_at", firer, target, seat, sp, by_parts)
        got = planner.kept(memo)
        if got is None:
            try:
                got = plan_at(game, firer, target, seat, sp, by_parts=by_parts,
                              scene=planner.scene(game, firer.unit, seat,
                                                  phasing=firer.phasing))
            except RuleError as exc:
                planner.answers[memo] = exc
                raise
            planner.answers[memo] = got
        return got
    if scene is None:
        scene = scene_of(game, firer.unit, seat, phasing=firer.phasing)
    if target not in scene.enemies:
        raise RuleError("10.12", f"no enemy unit in {game.cat.board.hexes[target].id}")
    lone = scene.lone
    if lone and target not in lone:
        raise RuleError("10.66", f"{firer.unit} is a lone battery with an enemy in its front: "
                                 "it fires at that enemy")
    if by_parts and sp is None and firer.phasing and extended_line(game, firer.unit):
        return line_plan(game, firer, target, scene)
    shot = _shot(game, firer, target, scene)
    allowed = fire_sp(game, firer.unit, refused_front=shot.refused_side is not None)
    if allowed < 1:
        raise RuleError("7.34", f"{firer.unit} has no SP left to fire through that front")
    return FirePlan(firer, target, allowed if sp is None else min(sp, allowed), shot,
                    over=friends_fired_over(game, firer, shot, target))


def extended_line(game: GbacwGame, key: str) -> bool:
    """Whether ``key`` is an extended line (its parts fire by their hexes, 002 §8.45)."""
    u = game.pos.units[key]
    return u.extension == "line" and bool(u.extends)


def line_plan(game: GbacwGame, firer: Firer, target: Hex,
              scene: Scene | None = None, *, kind: FireKind = "phasing",
              cap: int | None = None, extra: tuple[Modifier, ...] = ()) -> FirePlan:
    """002 §8.45: each hex of an extended line fires as a unit of its own with its share of
    the SP (``extension.split_strength``, the counter's hex within its hex limits); the
    parts that may fire at one hex must combine: their SP add up, with the worst range DRM
    of the parts (``fire.extended_line_shot``, a reading as for §10.64), and the defender
    takes the line of fire most favourable to him (its terrain and the other DRMs that
    depend on where the shot comes from). Return fire answers at that part's hex.
    Non-phasing fire (``kind``) goes the same way; ``cap`` bounds the SP of the shot (a
    split share, §10.15, or the SP held back for a second return shot); ``extra``: DRMs
    the caller adds."""
    hexes = [firer.hex, *part_hexes(game, firer.unit)]
    shares = split_strength(firing_strength(game, firer.unit), len(hexes))
    plans: list[FirePlan] = []
    refused: RuleError | None = None
    for i, (h, share) in enumerate(zip(hexes, shares, strict=True)):
        part = replace(firer, hex=h, sp=share)
        try:
            shot = _shot(game, part, target, scene, kind)
        except RuleError as exc:
            refused = refused or exc
            continue
        if i == 0:  # the counter's hex shares its hex limits with the stack (§8.31-8.33)
            share = min(share, fire_sp(game, firer.unit,
                                       refused_front=shot.refused_side is not None))
        if share >= 1:
            plans.append(FirePlan(part, target, share, shot, extra=extra,
                                  over=friends_fired_over(game, part, shot, target)))
    if not plans:
        raise refused or RuleError("8.45", f"no part of {firer.unit} may fire at that hex")
    if len(plans) == 1:
        one = plans[0]
        return one if cap is None else replace(one, sp=min(one.sp, cap),
                                               firer=replace(one.firer, sp=min(one.sp, cap)))
    charts = all_charts()
    total, worst = extended_line_shot(charts.range, firer.weapon,
                                      [(p.sp, p.shot.hexes) for p in plans], _light(game))
    if cap is not None:
        total = min(total, cap)
    top = target_keys(game, target)[0]
    combined = [replace(p, sp=total, range_drm=worst, firer=replace(p.firer, sp=total))
                for p in plans]
    return min(combined, key=lambda p: sum(
        m.value for m in fire_modifiers(charts, situation(game, p, top))))


def situation(game: GbacwGame, plan: FirePlan, top: str) -> Situation:
    """The DRM inputs of a planned shot as the position shows them (002 §10.8)."""
    charts = all_charts()
    f = plan.firer
    info = game.cat.board.hexes.get(plan.target)
    terrain: tuple[str, ...] = ()
    if info is not None:
        terrain = tuple(t for t in (info.terrain, *info.features)
                        if t in {x.id for x in charts.terrain.terrain}
                        and charts.terrain.get(t).where == "hex")
    terrain = tuple(t for t in terrain if t != "railroad-cut")  # cut_fire_drm's (004 §9.83)
    terrain += slope_terrain(game.cat.board, f.hex, plan.target)
    extra: list[Modifier] = list(plan.extra)
    board = game.cat.board
    if f.hex in board.hexes and plan.target in board.hexes:
        cut = cut_fire_drm(board, f.hex, plan.target)
        if cut:
            extra.append(Modifier("railroad-cut", cut, "tdg.9.83"))
        sunken = sunken_road_fire_drm(board, f.hex, plan.target)
        if sunken:
            extra.append(Modifier("sunken-road", sunken, "tdg.9.84"))
    tu = game.pos.units[top]
    tc = game.counter(top)
    extra += breastwork_modifiers(game, plan, top)
    rain = rain_fire_drm(game)
    if rain:
        extra.append(Modifier("heavy-rain", rain, "tdg.18.0"))
    jinx = jinx_drm(game, f.unit)  # 004 §18.0 J, rolled by roll_shot (lasting.jinx_roll)
    if jinx:
        extra.append(Modifier("battery-jinx", jinx, "tdg.18.0"))
    fi = game.cat.board.hexes.get(f.hex)
    lower = info is not None and fi is not None and info.level < fi.level
    return Situation(
        ammunition=plan.shot.ammunition, hexes=plan.shot.hexes, weapon=f.weapon,
        light=_light(game), terrain=terrain, range_drm=plan.range_drm, extra=tuple(extra),
        target_hex=tuple(game.stack_entry(k) for k in target_keys(game, plan.target)),
        target_mounted_nonphasing=tc.arm == "cav" and tc.mode == "mounted",
        firer_mounted=f.arm == "cav" and f.mounted,
        prepared=prepared_fire(charts.range, f, plan.shot.hexes)
        and "unprepared" not in plan.worst and _light(game) != "night"  # none at night (16.12)
        and game.pos.units[f.unit].extension != "column",  # nor by a column (8.52)
        firer_disordered=f.disordered or "disordered" in plan.worst,
        flank=tu.facing is not None and flank_fire(
            plan.target, tu.facing, f.hex, target_orders=game.orders_of(top),
            ammunition=plan.shot.ammunition),
        target_lower=lower and f.artillery,
        artillery_moved_or_top=f.artillery and f.moved_mp > 0,
        green_infantry=f.green and f.arm == "inf",
        low_ammo=f.ammo == "low" or "low" in plan.worst,
        fatigue=fatigue_of(game, f.unit), unit_rule=unit_rule_of(game, f.unit))


def breastwork_modifiers(game: GbacwGame, plan: FirePlan, top: str) -> list[Modifier]:
    """002 §15.23 for one shot: +1 to small arms fired out across a guarded hexside of the
    firer's hex; -1 when the target's top unit is infantry or dismounted cavalry behind a
    guarded hexside against small arms or canister (none against shell). The Terrain
    chart's breastworks row is a hexside row, so :func:`situation` never counts it again
    (E-8)."""
    works = breastworks(game)
    if not works:
        return []
    kind = plan.shot.ammunition
    out = []
    firing_out = fire_out_drm(works, plan.firer.hex, plan.target, kind=kind)
    if firing_out and not plan.firer.artillery:
        out.append(Modifier("breastworks-firing-out", firing_out, "15.23"))
    behind = fire_in_drm(works, plan.target, plan.firer.hex, kind=kind,
                         target_class=unit_class(game.counter(top)))
    if behind:
        out.append(Modifier("breastworks", behind, "15.23"))
    return out


def fire_modifiers_of(game: GbacwGame, plan: FirePlan) -> tuple[Modifier, ...]:
    """The DRMs of ``plan`` on the position as it stands (002 §10.81)."""
    keys = target_keys(game, plan.target)
    if not keys:
        return ()
    return fire_modifiers(all_charts(), situation(game, plan, keys[0]))


def target_units(game: GbacwGame, h: Hex) -> list[TargetUnit]:
    """The units in a target hex as the fire rules read them: arm, strength, formation, markers
    (002 §10.17, §10.7)."""
    out = []
    for k in target_keys(game, h):
        c, u = game.counter(k), game.pos.units[k]
        arm: Arm = c.arm
        out.append(TargetUnit(k, arm, present_sp(game, k), c.sp, c.cohesion,
                              c.cohesion_disordered, disordered=u.disordered,
                              collapsed=u.collapsed, mounted=c.mode == "mounted",
                              blown=u.blown, phasing=game.in_activation(k),
                              fatigue=fatigue_of(game, k)))
    return out


def stacked_leaders(game: GbacwGame, h: Hex, keys: list[str]) -> list[StackedLeader]:
    """Leaders in ``h`` with the units there under their command (002 §11.73)."""
    out = []
    for ld, where in sorted(game.pos.leaders.items()):
        if game.hex_of(where) != h:
            continue
        command = game.cat.leader_command.get(ld, "")
        mine = frozenset(k for k in keys if command and command in (
            game.counter(k).formation, game.counter(k).division, game.counter(k).corps))
        out.append(StackedLeader(ld, game.cat.oob.leader(ld).stars, mine))
    return out


def resolve_fire(game: GbacwGame, plan: FirePlan) -> tuple[FireRoll, Outcome]:
    """Roll the shot and apply its result to the target hex (no change to the position)
    (002 §10.17)."""
    charts = all_charts()
    keys = target_keys(game, plan.target)
    mods = fire_modifiers(charts, situation(game, plan, keys[0]))
    roll = roll_fire(charts, game.dice, ammunition=plan.shot.ammunition, strength=plan.sp,
                     modifiers=mods, firer=plan.firer.unit)
    outcome = apply_fire_result(charts, game.dice, roll.result,
                                target_units(game, plan.target),
                                ammunition=plan.shot.ammunition,
                                leaders=stacked_leaders(game, plan.target, keys))
    return roll, outcome


def fire_events(plan: FirePlan, roll: FireRoll, outcome: Outcome, target_id: str) -> list[Event]:
    """The shot and each of its steps as events, each citing its section (002 §10.17)."""
    shot: JSONDict = {"unit": plan.firer.unit, "target": target_id,
                      "sp": plan.sp, "range": plan.shot.hexes,
                      "ammunition": plan.shot.ammunition, **roll.to_json()}
    ev = [Event("fire", "10.17", shot)]
    ev += [Event(f"fire_{s.what}", s.rule, s.to_json()) for s in outcome.steps]
    return ev


def write_outcome(game: GbacwGame, outcome: Outcome) -> None:
    """One shot's results on the position: losses, disorder, collapse (002 §12.2), routs,
    guns abandoned (§12.8, §12.36; a gun already abandoned keeps its marker) and leaders
    killed (§12.7). Phasing, return and pre-shock fire all write through here."""
    p = game.pos
    for tu in outcome.units:
        u = p.units[tu.unit]
        u.disordered = tu.disordered
        u.lost = game.counter(tu.unit).sp - tu.sp
        u.collapsed = tu.collapsed
    for name in outcome.routs:
        p.units[name].routed = True
    for step in outcome.steps:
        if step.what == "abandoned":
            p.units[step.unit].abandoned = p.units[step.unit].abandoned or "abandoned-1"
    for ld in outcome.killed:
        p.leaders[ld] = None


SMALL_ARMS_AMMO = "small_arms_ammo"  # the optional 002 §10.9 (game option)
COMBINED_SMALL_ARMS = "combined_small_arms"  # the optional 002 §10.82 (game option)
SPENCER = ("SR", "SC")  # Spencer rifles and carbines (002 §14.3)
ORDER_TYPES = ("fire", "fire_split", "combined_fire", "rapid_fire")


def spencer(firer: Firer) -> bool:
    """002 §14.3: a good-order Spencer unit, not mounted cavalry, fires a second round."""
    return firer.weapon in SPENCER and not firer.disordered and not firer.mounted \
        and not firer.artillery


@dataclass(frozen=True)
class FireOrder:
    """A phasing fire action as rolls: ``plans`` in the order rolled (split fire: one per
    target; rapid fire: the same plan twice, §10.68); ``spencer``: a second round follows
    the first and any return fire (§14.31)."""

    kind: str
    plans: tuple[FirePlan, ...]
    rapid: bool = False
    spencer: bool = False

    @property
    def firer(self) -> Firer:
        return self.plans[0].firer

    @property
    def shooters(self) -> tuple[str, ...]:
        return self.plans[0].shooters


def _hexes(game: GbacwGame, ids: object, field_name: str) -> list[Hex]:
    if not isinstance(ids, list) or not ids:
        raise RuleError("protocol.action", f"field {field_name!r}: a non-empty list of hexes")
    return [game.cat.board.parse(str(x)) for x in ids]


def check_order(game: GbacwGame, action: Action, seat: str,
                planner: Planner | None = None) -> FireOrder:
    """Validate any phasing fire action (changes nothing) (002 §10.3, §10.15, §10.6);
    ``planner``: the list's kept checks (:class:`Planner`)."""
    kind = str(action.get("type"))
    if kind not in ORDER_TYPES:
        raise RuleError("10.3", f"{kind!r} is not a phasing fire action")
    if kind == "fire":
        plan = check_fire(game, action, seat, planner)
        if COMBINED_SMALL_ARMS in game.setup.options and not plan.firer.artillery:
            plan = _stack_combined(game, plan, seat, planner)
        return FireOrder(kind, (plan,), spencer=spencer(plan.firer) and len(plan.shooters) == 1)
    key = str(action.get("unit"))
    first = check_fire(game, {"type": "fire", "unit": key,
                              "target": action.get("target", (action.get("targets") or [""])[0])},
                       seat, planner)
    f = first.firer
    if kind == "rapid_fire":
        check_rapid_fire(all_charts().range, f, first.shot.hexes)
        if first.shot.ammunition != "canister":
            raise RuleError("10.68", "rapid fire only at 1-3 hexes")
        return FireOrder(kind, (first, first), rapid=True)
    if kind == "fire_split":
        plans = _split(game, f, _hexes(game, action.get("targets"), "targets"), seat, planner)
        if COMBINED_SMALL_ARMS in game.setup.options and not f.artillery:
            plans = combined_split(game, plans, seat, planner)  # 002 §10.82 with §10.15
        return FireOrder(kind, plans)
    return FireOrder(kind, (_combined(game, first, [str(x) for x in action.get("with") or []],
                                      seat, planner),))


def _split(game: GbacwGame, f: Firer, targets: list[Hex], seat: str,
           planner: Planner | None = None) -> tuple[FirePlan, ...]:
    """002 §10.15: as evenly as possible among adjacent enemy hexes in the front, never two
    shares at one hex; a one-counter battery may split among any hexes it may fire at
    (§10.65), a battery's section never splits."""
    if len(targets) < 2:
        raise RuleError("10.15", "a split names two or more target hexes")
    if len(set(targets)) != len(targets):
        raise RuleError("10.15", "a unit may not split its fire against one hex")
    if f.artillery and game.counter(f.unit).mode:
        raise RuleError("10.65", f"{f.unit} is a section of a battery: sections do not split")
    if extended_line(game, f.unit):
        return _line_split(game, f, targets, seat, planner)
    plans = [plan_at(game, f, t, seat, by_parts=False, planner=planner) for t in targets]
    if len({p.shot.refused_side for p in plans}) > 1:
        raise RuleError("7.34", "split fire goes through the normal or the refused front, "
                                "not both (each front is counted separately)")
    sp = plans[0].sp
    adjacent = {t for t in targets if t.distance(f.hex) == 1}
    if not f.artillery:
        check_phasing_split(sp, even_split(sp, len(targets)), targets, adjacent)
    shares = even_split(sp, len(targets))
    return tuple(FirePlan(p.firer, p.target, share, p.shot, over=p.over)
                 for p, share in zip(plans, shares, strict=True))


def line_sp(game: GbacwGame, key: str) -> int:
    """The SP an extended line fires with, all its parts together (002 §8.45): each hex's
    share, the counter's hex within its hex limits (§8.31-8.33)."""
    shares = split_strength(firing_strength(game, key), 1 + len(game.pos.units[key].extends))
    return min(shares[0], fire_sp(game, key)) + sum(shares[1:])


def _line_split(game: GbacwGame, f: Firer, targets: list[Hex],
                seat: str, planner: Planner | None = None) -> tuple[FirePlan, ...]:
    """Split fire by an extended line (002 §10.15 with §8.45). **Reading**: the line's SP
    (:func:`line_sp`) split as evenly as possible among enemy hexes each adjacent to one of
    its hexes and in that part's front; each share is fired by the parts that reach its
    hex, combined as :func:`line_plan` combines them, and never with more SP than those
    parts have."""
    plans = [plan_at(game, f, t, seat, planner=planner) for t in targets]
    if len({p.shot.refused_side for p in plans}) > 1:
        raise RuleError("7.34", "split fire goes through the normal or the refused front, "
                                "not both (each front is counted separately)")
    sp = line_sp(game, f.unit)
    mine = [f.hex, *part_hexes(game, f.unit)]
    adjacent = {t for t in targets if any(t.distance(h) == 1 for h in mine)}
    shares = even_split(sp, len(targets))
    check_phasing_split(sp, shares, targets, adjacent)
    return tuple(replace(p, sp=min(share, p.sp), firer=replace(p.firer, sp=min(share, p.sp)))
                 for p, share in zip(plans, shares, strict=True))


def _combined(game: GbacwGame, first: FirePlan, others: list[str], seat: str,
              planner: Planner | None = None) -> FirePlan:
    """002 §10.63-10.64: stacked batteries or sections of the active brigade fire as one:
    guns added (each within the hex limits), the worst range DRM; different batteries only
    at 4+ hexes. Combined fire does not split (§10.65)."""
    f = first.firer
    if not f.artillery:
        raise RuleError("10.63", "only batteries and sections combine their fire")
    if _light(game) == "night":
        raise RuleError("16.12", "at night every battery fires alone")
    if not others or f.unit in others or len(set(others)) != len(others):
        raise RuleError("10.63", "name the other batteries or sections that fire with it")
    plans = [first]
    for k in others:
        plan = check_fire(game, {"type": "fire", "unit": k,
                                 "target": game.cat.board.hexes[first.target].id}, seat,
                          planner)
        if not plan.firer.artillery or plan.firer.hex != f.hex:
            raise RuleError("10.63", f"{k} is not a battery stacked with {f.unit}")
        plans.append(plan)
    batteries = [Battery(game.stack_entry(p.firer.unit).unit, p.firer.weapon, p.sp)
                 for p in plans]
    guns, drm = combine_artillery(all_charts().range, batteries, first.shot.hexes, _light(game))
    return FirePlan(f, first.target, guns, first.shot, range_drm=drm,
                    units=tuple(p.firer.unit for p in plans), over=first.over)


def combined_small_arms(game: GbacwGame, first: FirePlan, seat: str,
                        planner: Planner | None = None) -> FirePlan:
    """002 §10.82 (optional): the non-artillery units of the active brigade stacked with the
    firer that may fire at the same hex fire with it as one, their SP added (within the hex
    limits), with the least favourable range DRM, prepared fire, state and ammunition."""
    f = first.firer
    plans = [first]
    for k in stack_keys(game, f.hex):
        if k == f.unit or game.pos.units[k].seat != seat:
            continue
        try:
            plan = check_fire(game, {"type": "fire", "unit": k,
                                     "target": game.cat.board.hexes[first.target].id}, seat,
                              planner)
        except RuleError:
            continue
        if not plan.firer.artillery and plan.shot.refused_side == first.shot.refused_side:
            plans.append(plan)
    return combine_small_arms_plans(game, plans)


def _stack_combined(game: GbacwGame, first: FirePlan, seat: str,
                    planner: Planner | None) -> FirePlan:
    """:func:`combined_small_arms`, given the planner only when there is one (a caller may
    stand in for the function with its three-argument form, as a test does)."""
    if planner is None:
        return combined_small_arms(game, first, seat)
    return combined_small_arms(game, first, seat, planner)


def combine_small_arms_plans(game: GbacwGame, plans: list[FirePlan]) -> FirePlan:
    """002 §10.82 (optional): the shots of stacked small-arms units at one hex as one shot
    led by the first: SP added, the least favourable range DRM, prepared fire only if all
    have it, disordered or low on ammunition if any is (phasing or non-phasing fire)."""
    first = plans[0]
    if len(plans) == 1:
        return first
    f = first.firer
    charts = all_charts()
    light = _light(game)
    worst = []
    if not all(prepared_fire(charts.range, p.firer, p.shot.hexes) for p in plans):
        worst.append("unprepared")
    if any(p.firer.disordered for p in plans):
        worst.append("disordered")
    if any(p.firer.ammo == "low" for p in plans):
        worst.append("low")
    drm = min(charts.range.drm(p.firer.weapon, p.shot.hexes, light)[0] for p in plans)
    return FirePlan(f, first.target, sum(p.sp for p in plans), first.shot, range_drm=drm,
                    units=tuple(p.firer.unit for p in plans), over=first.over,
                    worst=tuple(worst), extra=first.extra)


def combined_split(game: GbacwGame, plans: tuple[FirePlan, ...],
                   seat: str, planner: Planner | None = None) -> tuple[FirePlan, ...]:
    """002 §10.82 (optional) with §10.15: a split by a unit whose stack combines its small
    arms is the stack's split, the stack taken as one unit: its SP added as
    :func:`combined_small_arms` adds them at each target, shared as evenly as possible.
    **Reading**: the stack splits only among hexes every unit of the combination may fire
    at (one firing unit; a share fired by fewer units would not be the stack's)."""
    f = plans[0].firer
    if extended_line(game, f.unit):
        return plans
    whole = [_stack_combined(game, plan_at(game, f, p.target, seat, by_parts=False,
                                           planner=planner), seat, planner)
             for p in plans]
    if len(whole[0].shooters) == 1 and all(len(w.shooters) == 1 for w in whole):
        return plans
    if any(w.shooters != whole[0].shooters for w in whole):
        raise RuleError("10.82", f"{f.unit}'s stack fires as one: it splits only among hexes "
                        "all its units may fire at")
    sp = min(w.sp for w in whole)  # the same units; a refused front is one for all
    shares = even_split(sp, len(whole))
    targets = [w.target for w in whole]
    check_phasing_split(sp, shares, targets, {t for t in targets if t.distance(f.hex) == 1})
    return tuple(replace(w, sp=share) for w, share in zip(whole, shares, strict=True))


def order_options(game: GbacwGame, key: str) -> list[Action]:
    """The split, combined and rapid fire actions ``key`` may take now (002 §10.15,
    §10.63-10.65, §10.68), in a fixed order. Every check of the list shares one
    :class:`Planner` (a battery's split pairs ask the same plans again and again)."""
    planner = Planner()
    targets = game.fire_targets(key)  # this function's answer, kept for the position
    if not targets:
        return []
    seat = game.pos.units[key].seat
    board = game.cat.board
    out: list[Action] = []
    c = game.counter(key)
    rf = c.arm in ("art", "horse_art") and all_charts().range.weapon(c.weapon).rapid_fire
    for t in targets if rf else []:
        action: Action = {"type": "rapid_fire", "unit": key, "target": board.hexes[t].id}
        if _valid(game, action, seat, planner):
            out.append(action)
    for i, a in enumerate(targets):
        for b in targets[i + 1:]:
            action = {"type": "fire_split", "unit": key,
                      "targets": [board.hexes[a].id, board.hexes[b].id]}
            if _valid(game, action, seat, planner):
                out.append(action)
    here = game.hex_of(game.pos.units[key].hex)
    if c.arm in ("art", "horse_art") and here is not None:
        stack = [k for k in stack_keys(game, here) if game.pos.units[k].seat == seat]
        if stack and stack[0] == key:  # the top battery leads; one pairing per partner
            for other in stack[1:]:
                for t in targets:
                    action = {"type": "combined_fire", "unit": key, "with": [other],
                              "target": board.hexes[t].id}
                    if _valid(game, action, seat, planner):
                        out.append(action)
    return out


def _valid(game: GbacwGame, action: Action, seat: str, planner: Planner) -> bool:
    try:
        check_order(game, action, seat, planner)
    except RuleError:
        return False
    return True


# --- rolling and applying an order (002 §10.17, §10.68, §14.31) --------------------------


@dataclass(frozen=True)
class ShotDone:
    """One rolled shot: its plan, the roll, the outcome (None: no unit left to hit, the die
    still counts for ammunition, §10.68, §14.3) and what its friendly fire did (§10.26)."""

    plan: FirePlan
    roll: FireRoll
    outcome: Outcome | None
    friendly: Outcome | None = None
    second_round: bool = False
    spread: Outcome | None = None  # artillery with a newly disordered extended unit (8.45)
    before: tuple[Event, ...] = ()  # what was rolled for the shot first (004 §18.0 J)


def _alive(units: tuple[TargetUnit, ...], routs: tuple[str, ...]) -> list[TargetUnit]:
    return [u for u in units if u.sp > 0 and u.unit not in routs]


def roll_shot(game: GbacwGame, plan: FirePlan, after: Outcome | None = None, *,
              second_round: bool = False) -> ShotDone:
    """Roll ``plan`` on the position as it stands; ``after``: a shot at the same hex rolled
    just before, whose result this one falls on (rapid fire, §10.68)."""
    charts = all_charts()
    before = tuple(jinx_roll(game, plan.firer.unit))  # 004 §18.0 J: before the DRMs are read
    keys = target_keys(game, plan.target)
    units = target_units(game, plan.target) if after is None else _alive(after.units,
                                                                         after.routs)
    if not keys:
        units = []
    sit = situation(game, plan, keys[0]) if keys else None
    mods = fire_modifiers(charts, sit) if sit is not None else ()
    roll = roll_fire(charts, game.dice, ammunition=plan.shot.ammunition, strength=plan.sp,
                     modifiers=mods, firer=plan.firer.unit)
    outcome = None
    if units:
        dead = {ld for ld in (after.killed if after is not None else ())}
        leaders = [ld for ld in stacked_leaders(game, plan.target, keys) if ld.id not in dead]
        outcome = apply_fire_result(charts, game.dice, roll.result, units,
                                    ammunition=plan.shot.ammunition, leaders=leaders)
    friendly = None
    if plan.over and friendly_fire_risk(roll.roll):
        over = [u for h in plan.over for u in target_units(game, h)]
        if over:
            friendly = apply_friendly_fire(charts, game.dice, over)
    spread = disorder_spread(game, [o for o in (outcome, friendly) if o is not None], after)
    return ShotDone(plan, roll, outcome, friendly, second_round, spread, before)


def disorder_spread(game: GbacwGame, outcomes: list[Outcome],
                    after: Outcome | None = None) -> Outcome | None:
    """002 §8.45: when a shot disorders an extended unit, each friendly battery stacked in
    any of its hexes takes a UDD (``formation_step.disorder_spread`` names the same
    batteries). **Reading**: a battery the shot itself fell on has had its checks and does
    not roll again; ``after``: the earlier shot of a rapid fire, whose disorder counts."""
    hit = {u.unit for o in outcomes for u in o.units}
    before = {u.unit: u.disordered for u in after.units} if after is not None else {}
    rolling: list[str] = []
    for o in outcomes:
        for tu in o.units:
            u = game.pos.units[tu.unit]
            if not u.extends or u.hex is None or not tu.disordered or tu.sp < 1 \
                    or before.get(tu.unit, u.disordered):
                continue
            hexes = {game.hex_of(u.hex), *part_hexes(game, tu.unit)}
            rolling += [k for k, v in sorted(game.pos.units.items())
                        if v.seat == u.seat and k not in hit and k not in rolling
                        and game.hex_of(v.hex) in hexes and present_sp(game, k) > 0
                        and game.counter(k).arm in ("art", "horse_art")]
    if not rolling:
        return None
    where = {h for k in rolling if (h := game.hex_of(game.pos.units[k].hex)) is not None}
    units = [tu for h in sorted(where, key=lambda x: (x.q, x.r))
             for tu in target_units(game, h) if tu.unit in rolling]
    return apply_disorder_spread(all_charts(), game.dice, units)


def _fog(game: GbacwGame, done: ShotDone, ev: list[Event]) -> list[Event]:
    """Keep brigade fatigue (hidden from the enemy, 002 §17.0 and the views) out of what
    the other seat reads: the firer's fatigue DRM on the roll, a target's on its UDDs. The
    seat that owns the fatigue sees the event in full, the other a copy without it."""
    firer_seat = game.pos.units[done.plan.firer.unit].seat
    out: list[Event] = []
    tired = {u.unit: -(-u.fatigue // 2) for u in (done.outcome.units if done.outcome else ())
             if u.fatigue}
    for e in ev:
        data = dict(e.data)
        if e.type == "fire" and e.data.get("unit") == done.plan.firer.unit:
            mods = [m for m in data.get("modifiers", []) if isinstance(m, dict)]
            hidden = sum(int(m["value"]) for m in mods if m.get("source") == "fatigue")
            if any(m.get("source") == "fatigue" for m in mods):
                data["modifiers"] = [m for m in mods if m.get("source") != "fatigue"]
                data["drm"] = int(data["drm"]) - hidden
                data["modified"] = int(data["modified"]) - hidden
                data["hidden"] = ["fatigue (002 §17.31)"]
                out.append(Event(e.type, e.rule, e.data, visible_to=(firer_seat,),
                                 redacted=data))
                continue
        if e.type == "fire_udd" and str(e.data.get("unit")) in tired:
            part = tired[str(e.data["unit"])]
            owner = game.pos.units[str(e.data["unit"])].seat
            data["drm"] = int(data["drm"]) - part
            data["modified"] = int(data["modified"]) - part
            data["hidden"] = ["fatigue (002 §17.31)"]
            out.append(Event(e.type, e.rule, e.data, visible_to=(owner,), redacted=data))
            continue
        out.append(e)
    return out


def shot_events(game: GbacwGame, done: ShotDone) -> list[Event]:
    """The events of one rolled shot (each citing its section), the fatigue DRMs shown
    only to their owner (:func:`_fog`) (002 §10.17, §17.31)."""
    return [*done.before, *_fog(game, done, _shot_events(game, done))]


def _shot_events(game: GbacwGame, done: ShotDone) -> list[Event]:
    board = game.cat.board
    target_id = board.hexes[done.plan.target].id
    if done.outcome is None:
        shot: JSONDict = {"unit": done.plan.firer.unit, "target": target_id, "sp": done.plan.sp,
                          "range": done.plan.shot.hexes,
                          "ammunition": done.plan.shot.ammunition, **done.roll.to_json(),
                          "empty": True}
        ev = [Event("fire", "10.68", shot)]
    else:
        ev = fire_events(done.plan, done.roll, done.outcome, target_id)
    if len(done.plan.shooters) > 1:
        ev[0].data["combined"] = list(done.plan.shooters)
        ev[0].data["range_rule"] = "10.64"
    if done.second_round:
        ev[0].data["second_round"] = True
        ev[0].data["rule_round"] = "14.31"
    if done.friendly is not None:
        ev.append(Event("friendly_fire", "10.26", {"unit": done.plan.firer.unit,
                                                   "over": [board.hexes[h].id
                                                            for h in done.plan.over],
                                                   "roll": done.roll.roll}))
        ev += [Event(f"fire_{s.what}", s.rule, s.to_json()) for s in done.friendly.steps]
    if done.spread is not None:
        ev += [Event(f"fire_{s.what}", s.rule, s.to_json()) for s in done.spread.steps]
    return ev


HURT = "hit:"  # a ``Position.reacted`` entry: hurt by phasing fire this activation (9.63)


def hurt_by_fire(outcome: Outcome) -> list[str]:
    """The units ``outcome`` hurt in the sense of 002 §9.63: a failed UDD, a disorder or a
    step loss."""
    out: list[str] = []
    for s in outcome.steps:
        hurt = s.what in ("loss", "disorder", "second_disorder", "collapse", "rout") or (
            s.what == "udd" and not s.detail.get("passed"))
        if hurt and s.unit not in out:
            out.append(s.unit)
    return out


def mark_hurt(game: GbacwGame, done: ShotDone) -> None:
    """002 §9.63: mounted cavalry or artillery hurt by the phasing side's fire in this
    enemy activation moves one hex only in reaction (``reaction_step.moves`` reads the
    mark). **Reading**: any phasing shot earlier in the activation counts, the engine
    having no pause for a shot just before the reaction move."""
    if done.outcome is None or not done.plan.firer.phasing:
        return
    for k in hurt_by_fire(done.outcome):
        u = game.pos.units.get(k)
        if u is None or game.counter(k).arm not in ("art", "horse_art", "cav"):
            continue
        if game.counter(k).arm == "cav" and game.counter(k).mode != "mounted":
            continue
        if HURT + k not in game.pos.reacted:
            game.pos.reacted = [*game.pos.reacted, HURT + k]


def apply_shot(game: GbacwGame, done: ShotDone) -> None:
    """Write one rolled shot on the position (target, then friends fired over)
    (002 §10.17, §10.26)."""
    note_fired_from(game, done.plan)  # 002 §8.31, before the shot's results
    mark_hurt(game, done)
    if done.outcome is not None:
        write_outcome(game, done.outcome)
    if done.friendly is not None:
        write_outcome(game, done.friendly)
    if done.spread is not None:
        write_outcome(game, done.spread)


def mark_fired(game: GbacwGame, units: tuple[str, ...], kind: FireKind) -> None:
    """Record that these units made a shot of this kind this activation: once per activation for
    phasing fire, once per kind for non-phasing fire (002 §10.3, §10.4)."""
    for k in units:
        u = game.pos.units[k]
        if kind not in u.fired:
            u.fired = [*u.fired, kind]


def ammunition_events(game: GbacwGame, units: tuple[str, ...], rolls: list[int], *,
                      rapid: bool = False, second: list[int] | None = None) -> list[Event]:
    """Ammunition after a unit's shots (002 §10.69, §10.68; §10.91 with the option; §14.33:
    an unmodified 5 on a Spencer second round puts it out)."""
    ev: list[Event] = []
    small_arms = SMALL_ARMS_AMMO in game.setup.options
    for k in units:
        u = game.pos.units[k]
        c = game.counter(k)
        art = c.arm in ("art", "horse_art")
        after = ammunition_after(all_charts(), rolls, _ammo(u.ammo), rapid_fire=rapid,
                                 artillery=art, small_arms_rule=small_arms
                                 and c.mode != "mounted")
        rule = "10.68" if rapid else ("10.69" if art else "10.91")
        if second and 5 in second and after != "out":
            after, rule = "out", "14.33"
        if after != _ammo(u.ammo):
            u.ammo = after
            ev.append(Event("fire_ammunition", rule, {"unit": k, "ammo": after}))
    return ev


def second_disordered(outcome: Outcome | None, unit: str) -> bool:
    """Whether ``unit`` suffered a 2nd disorder (or was eliminated or routed) in ``outcome``
    (002 §12.35-12.36)."""
    if outcome is None:
        return False
    return any(s.unit == unit and s.what in ("second_disorder", "rout", "eliminated")
               for s in outcome.steps) or unit in outcome.routs


def spencer_round(game: GbacwGame, plan: FirePlan) -> list[Event]:
    """The Spencer unit's second round at the same hex (002 §14.31-14.32), unless it is
    gone; an unmodified 5 puts it out of ammunition (§14.33)."""
    key = plan.firer.unit
    u = game.pos.units[key]
    if u.hex is None or u.routed or present_sp(game, key) < 1:
        return []
    sp = min(plan.sp, fire_sp(game, key))
    if sp < 1:
        return []
    again = FirePlan(plan.firer, plan.target, sp, plan.shot, over=plan.over)
    done = roll_shot(game, again, second_round=True)
    ev = shot_events(game, done)
    apply_shot(game, done)
    ev += ammunition_events(game, (key,), [done.roll.roll], second=[done.roll.roll])
    return ev


def execute_fire(game: GbacwGame, action: Action, seat: str) -> list[Event]:
    """Check, roll, apply and record a phasing fire action with no answer (002 §10.17): the
    shots in order (rapid fire's second falls on the first's result, §10.68), then a
    Spencer's second round (§14.31)."""
    order = check_order(game, action, seat)
    ev: list[Event] = []
    dones: list[ShotDone] = []
    for plan in order.plans:
        prev = dones[-1].outcome if order.rapid and dones else None
        dones.append(roll_shot(game, plan, prev))
    for done in dones:
        ev += shot_events(game, done)
        apply_shot(game, done)
    mark_fired(game, order.shooters, "phasing")
    ev += ammunition_events(game, order.shooters, [d.roll.roll for d in dones],
                            rapid=order.rapid)
    if order.spencer and not any(second_disordered(d.outcome, order.firer.unit)
                                 for d in dones):
        ev += spencer_round(game, order.plans[0])
    return ev
