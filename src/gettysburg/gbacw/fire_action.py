"""The "fire" action of the GBACW game: legal targets, validation and execution of phasing
fire (002 §10.3), translating between the engine's position and the pure rules of
:mod:`gettysburg.gbacw.fire` and :mod:`gettysburg.gbacw.fire_result`.

Action shape: ``{"type": "fire", "unit": <unit key>, "target": <hex id>}``; the unit fires
all the SP its hex allows it (002 §8.31-8.33) at the enemy in the target hex.

Not yet here: return, pre-shock, withdrawal and approach fire (each needs a decision by the
non-phasing seat in the middle of the phasing player's activation), split fire, rapid fire
and leader replacement. Stack order is the position's order of units in a hex.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from gettysburg.core.canonical import JSONDict
from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import Action, Event, RuleError

from .charts import all_charts
from .charts.fire import Ammo
from .charts.ranges import Light
from .fire import (
    NON_PHASING,
    FireKind,
    Firer,
    Shot,
    check_may_fire,
    check_target,
    flank_fire,
    prepared_fire,
    slope_terrain,
)
from .fire_result import (
    FireRoll,
    Outcome,
    Situation,
    StackedLeader,
    TargetUnit,
    ammunition_after,
    apply_fire_result,
    fire_modifiers,
    roll_fire,
)
from .stacking import Arm, fire_allowances
from .state import UnitState

if TYPE_CHECKING:
    from .engine_view import GameView as GbacwGame

NON_PHASING_AND_PHASING: tuple[FireKind, ...] = ("phasing", *NON_PHASING)


def present_sp(game: GbacwGame, key: str) -> int:
    """The counter's SP less those lost (002 §12.13)."""
    return game.counter(key).sp - game.pos.units[key].lost


def stack_keys(game: GbacwGame, h: Hex) -> list[str]:
    """The units in hex ``h``, top first (the position's order)."""
    return [k for k, u in game.pos.units.items() if game.hex_of(u.hex) == h
            and present_sp(game, k) > 0]


def firer_of(game: GbacwGame, key: str, *, phasing: bool) -> Firer:
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
                 ammo=_ammo(u.ammo))


def fire_sp(game: GbacwGame, key: str) -> int:
    """The SP ``key`` may fire from its hex (002 §8.31-8.33)."""
    u = game.pos.units[key]
    h = game.hex_of(u.hex)
    if h is None:
        return 0
    keys = [k for k in stack_keys(game, h) if game.pos.units[k].seat == u.seat]
    entries = [game.stack_entry(k) for k in keys]
    entries = [type(e)(e.unit, e.arm, present_sp(game, k), e.brigade, e.mounted)
               for e, k in zip(entries, keys, strict=True)]
    return fire_allowances(entries)[keys.index(key)]


def fatigue_of(game: GbacwGame, key: str) -> int:
    """The unit's brigade fatigue level when the fatigue rule is on (002 §17.31; artillery
    exempt, as the engine treats its MA)."""
    if not game.fatigue or game.counter(key).arm in ("art", "horse_art"):
        return 0
    return game.pos.brigades[game.formation(key)].fatigue


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


def fire_targets(game: GbacwGame, key: str) -> list[Hex]:
    """Hexes the active unit ``key`` may fire at now (phasing fire, 002 §10.3)."""
    try:
        firer = firer_of(game, key, phasing=True)
        check_may_fire(firer, "phasing", fired_kinds=_fired(game.pos.units[key]))
    except RuleError:
        return []
    if fire_sp(game, key) < 1:
        return []
    out = []
    for h in sorted(game.enemy_hexes(game.pos.units[key].seat), key=lambda x: (x.q, x.r)):
        try:
            _shot(game, firer, h)
        except RuleError:
            continue
        out.append(h)
    return out


def _shot(game: GbacwGame, firer: Firer, target: Hex) -> Shot:
    occupied = {h for u in game.pos.units.values() if (h := game.hex_of(u.hex)) is not None}
    friends = {h for u in game.pos.units.values()
               if u.seat == game.pos.units[firer.unit].seat and (h := game.hex_of(u.hex))}
    return check_target(game.cat.board, all_charts().range, firer, target,
                        blockers=occupied - {firer.hex, target}, friends=friends,
                        light=_light(game))


@dataclass(frozen=True)
class FirePlan:
    firer: Firer
    target: Hex
    sp: int
    shot: Shot


def check_fire(game: GbacwGame, action: Action, seat: str) -> FirePlan:
    """Validate a fire action (changes nothing)."""
    key = str(action.get("unit"))
    p = game.pos
    if key not in p.units or p.units[key].seat != seat:
        raise RuleError("10.3", f"{key!r} is not one of your units")
    if p.brigade is None or game.formation(key) != p.brigade:
        raise RuleError("10.3", f"{key} is not of the active brigade")
    firer = firer_of(game, key, phasing=True)
    check_may_fire(firer, "phasing", fired_kinds=_fired(p.units[key]))
    sp = fire_sp(game, key)
    if sp < 1:
        raise RuleError("8.33", f"{key} may fire no SP from its hex (the hex limit is used "
                                "by the units above it)")
    target = game.cat.board.parse(str(action.get("target")))
    if target not in game.enemy_hexes(seat):
        raise RuleError("10.12", f"no enemy unit in {action.get('target')}")
    shot = _shot(game, firer, target)
    return FirePlan(firer, target, sp, shot)


def situation(game: GbacwGame, plan: FirePlan, top: str) -> Situation:
    """The DRM inputs of a planned shot as the position shows them."""
    charts = all_charts()
    f = plan.firer
    info = game.cat.board.hexes.get(plan.target)
    terrain: tuple[str, ...] = ()
    if info is not None:
        terrain = tuple(t for t in (info.terrain, *info.features)
                        if t in {x.id for x in charts.terrain.terrain}
                        and charts.terrain.get(t).where == "hex")
    terrain += slope_terrain(game.cat.board, f.hex, plan.target)
    tu = game.pos.units[top]
    tc = game.counter(top)
    fi = game.cat.board.hexes.get(f.hex)
    lower = info is not None and fi is not None and info.level < fi.level
    return Situation(
        ammunition=plan.shot.ammunition, hexes=plan.shot.hexes, weapon=f.weapon,
        light=_light(game), terrain=terrain,
        target_hex=tuple(game.stack_entry(k) for k in stack_keys(game, plan.target)),
        target_mounted_nonphasing=tc.arm == "cav" and tc.mode == "mounted",
        firer_mounted=f.arm == "cav" and f.mounted,
        prepared=prepared_fire(charts.range, f, plan.shot.hexes),
        firer_disordered=f.disordered,
        flank=tu.facing is not None and flank_fire(
            plan.target, tu.facing, f.hex, target_orders=game.orders_of(top),
            ammunition=plan.shot.ammunition),
        target_lower=lower and f.artillery,
        artillery_moved_or_top=f.artillery and f.moved_mp > 0,
        green_infantry=f.green and f.arm == "inf",
        low_ammo=f.ammo == "low",
        fatigue=fatigue_of(game, f.unit))


def target_units(game: GbacwGame, h: Hex) -> list[TargetUnit]:
    out = []
    for k in stack_keys(game, h):
        c, u = game.counter(k), game.pos.units[k]
        arm: Arm = c.arm
        out.append(TargetUnit(k, arm, present_sp(game, k), c.sp, c.cohesion,
                              c.cohesion_disordered, disordered=u.disordered,
                              collapsed=u.collapsed, mounted=c.mode == "mounted",
                              blown=u.blown, phasing=game.formation(k) == game.pos.brigade,
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
    """Roll the shot and apply its result to the target hex (no change to the position)."""
    charts = all_charts()
    keys = stack_keys(game, plan.target)
    mods = fire_modifiers(charts, situation(game, plan, keys[0]))
    roll = roll_fire(charts, game.dice, ammunition=plan.shot.ammunition, strength=plan.sp,
                     modifiers=mods, firer=plan.firer.unit)
    outcome = apply_fire_result(charts, game.dice, roll.result,
                                target_units(game, plan.target),
                                ammunition=plan.shot.ammunition,
                                leaders=stacked_leaders(game, plan.target, keys))
    return roll, outcome


def fire_events(plan: FirePlan, roll: FireRoll, outcome: Outcome, target_id: str) -> list[Event]:
    """The shot and each of its steps as events, each citing its section."""
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


def execute_fire(game: GbacwGame, action: Action, seat: str) -> list[Event]:
    """Check, roll, apply and record a fire action."""
    plan = check_fire(game, action, seat)
    roll, outcome = resolve_fire(game, plan)
    write_outcome(game, outcome)
    p = game.pos
    shooter = p.units[plan.firer.unit]
    shooter.fired = [*shooter.fired, "phasing"]
    ev = fire_events(plan, roll, outcome, game.cat.board.hexes[plan.target].id)
    if plan.firer.artillery:
        after = ammunition_after(all_charts(), [roll.roll], plan.firer.ammo, rapid_fire=False,
                                 artillery=True)
        if after != shooter.ammo:
            shooter.ammo = after
            ev.append(Event("fire_ammunition", "10.69", {"unit": plan.firer.unit,
                                                         "ammo": after}))
    return ev
