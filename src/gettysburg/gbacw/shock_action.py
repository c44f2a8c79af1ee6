"""The "shock" action of the GBACW game: legal shocks, validation and a resolution that
changes nothing (002 §11), translating between the engine's position and the pure rules
of :mod:`gettysburg.gbacw.shock`.

Action shape: ``{"type": "shock", "shocks": [{"attackers": [unit keys], "targets": [hex
ids]}, ...]}``: every shock the active brigade designates in its shock step, at once
(§11.31 judges them together).

The engine's step by step is :mod:`shock_step` (with :mod:`continued_shock`,
:mod:`charge_step`, :mod:`shock_after`); :func:`resolve_shocks` and :func:`execute_shock` are
the earlier dry resolution, kept for the tests and the preview. An extended line (002 §8.46)
fights with every hex it holds (:func:`parts`, :func:`units_in`).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import TYPE_CHECKING

from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import Action, Event, RuleError

from . import fatigue
from .combatant import Check, Combatant, ShockClass, after_losses
from .facing import front_hexes
from .fire_action import present_sp, stack_keys, stacked_leaders
from .movement import entry_cost
from .shock import (
    Fight,
    PreShock,
    Shock,
    check_designation,
    check_may_shock,
    fight,
    green_check,
    mandatory_shock,
    no_brigadier,
    pre_shock_check,
    pre_shock_drm_ids,
    shock_terrain,
)
from .state import UnitState
from .tdg_terrain import check_cut_shock

if TYPE_CHECKING:
    from .engine_view import GameView as GbacwGame


def position_holds_shock_results() -> bool:
    """Whether ``UnitState`` can record what shock does (needed to execute) (002 §11.11)."""
    names = {f.name for f in fields(UnitState)}
    return {"losses", "collapsed", "routed", "blown", "abandoned"} <= names


def _kind(game: GbacwGame, key: str) -> ShockClass:
    c = game.counter(key)
    if c.arm in ("art", "horse_art"):
        return "artillery"
    return "mounted_cavalry" if c.arm == "cav" and c.mode == "mounted" else "infantry"


def parts(game: GbacwGame, key: str) -> tuple[Hex, ...]:
    """Every hex the unit holds in shock: its counter's, and an extended line's other hexes
    (002 §8.44, §8.46) or a column's trail, lead first (002 §8.5: a solid unit in shock,
    shocked through any of its hexes)."""
    u = game.pos.units[key]
    h = game.hex_of(u.hex)
    if h is None:
        return ()
    if u.extension not in ("line", "column"):
        return (h,)
    return (h, *(x for e in u.extends if (x := game.hex_of(e)) is not None))[:3]


def units_in(game: GbacwGame, h: Hex) -> list[str]:
    """The units fighting in ``h``: counters there (top first), then an extended line or
    column reaching it (002 §8.46, §8.5: it defends with every part)."""
    info = game.cat.board.hexes.get(h)
    if info is None:
        return []  # off the map: a unit at the map's edge may face it (a front holds nobody)
    here = stack_keys(game, h)
    hid = info.id
    ext = [k for k, u in sorted(game.pos.units.items()) if u.extension in ("line", "column")
           and hid in u.extends and u.hex is not None and present_sp(game, k) > 0]
    return here + [k for k in ext if k not in here]


def enemy_hexes(game: GbacwGame, seat: str) -> set[Hex]:
    """Hexes an enemy holds, an extended line's or column's hexes included (002 §8.46,
    §8.5)."""
    out = set(game.enemy_hexes(seat))
    for k, u in game.pos.units.items():
        if u.seat != seat and u.hex is not None and u.extension in ("line", "column"):
            out |= set(parts(game, k))
    return out


def combatant_of(game: GbacwGame, key: str) -> Combatant:
    """The unit ``key`` as shock sees it, from the position and its counter (002 §11.4)."""
    u = game.pos.units[key]
    c = game.counter(key)
    h = game.hex_of(u.hex)
    if h is None or u.facing is None:
        raise RuleError("11.12", f"{key} is not on the map")
    keys = stack_keys(game, h)
    stars = sum(ld.stars for ld in stacked_leaders(game, h, keys) if key in ld.command)
    brigadier = any(game.cat.leader_command.get(ld, "") == c.formation
                    and game.hex_of(where) == h for ld, where in game.pos.leaders.items())
    orders = game.orders_of(key)
    brigade = game.pos.brigades.get(c.formation)
    return Combatant(
        key, u.seat, parts(game, key), u.facing, _kind(game, key), present_sp(game, key),
        c.cohesion_disordered if u.disordered else c.cohesion, brigade=c.formation,
        orders=orders if orders in ("march", "advance", "attack") else "advance",  # type: ignore[arg-type]
        disordered=u.disordered, dismounted_cavalry=c.arm == "cav" and c.mode != "mounted",
        green=c.green, moved=u.moves > 0, fired=_fired(u.fired),
        charging=u.charging or _infantry_charge(game, key, orders),
        blown=bool(getattr(u, "blown", False)),
        collapsed=bool(getattr(u, "collapsed", False)), leader_stars=stars,
        with_brigadier=brigadier, cohesion_disordered=c.cohesion_disordered, printed_sp=c.sp,
        column=u.extension == "column" and bool(u.extends),  # 002 §8.51
        fatigue=(fatigue.level(brigade.fatigue) or 0)  # 002 §17.31, with the fatigue rule
        if brigade is not None and game.fatigue else 0)


def _fired(kinds: list[str]) -> bool:
    """Whether the unit fired in its own phase (002 §11.21: a charge is made without)."""
    return bool(set(kinds) - {"return", "withdrawal", "pre_shock", "approach"})


def _infantry_charge(game: GbacwGame, key: str, orders: str) -> bool:
    """002 §11.21: infantry (or dismounted cavalry) of the active brigade on Attack orders
    that moved this activation and did not fire is charging (it moved next to the enemy:
    the caller shocks only from there)."""
    u = game.pos.units[key]
    return (_kind(game, key) == "infantry" and orders == "attack"
            and game.in_activation(key) and u.moves > 0
            and not _fired(u.fired))


def _closed(game: GbacwGame, me: Combatant) -> set[Hex]:
    """Front hexes ``me`` could not move into (a prohibited hexside or ground, §11.12)."""
    cls = me.kind
    out: set[Hex] = set()
    for h in front_hexes(me.hex, me.facing):
        step = entry_cost(game.cat.board, me.hex, h, unit_class=cls, orders=me.orders,
                          use_paths=False)
        if isinstance(step, RuleError):
            out.add(h)
            continue
        try:  # tdg.9.83: into or out of a railroad cut only along the bed
            check_cut_shock(game.cat.board, me.hex, h)
        except RuleError:
            out.add(h)
    return out


def shock_targets(game: GbacwGame, key: str) -> list[Hex]:
    """Enemy hexes the active unit ``key`` may shock now (002 §11.12), in a fixed order."""
    p = game.pos
    if p.brigade is None or key not in p.units or "charge_failed" in p.units[key].fired:
        return []  # 002 §11.53: a failed charge ends the stack's activation
    if p.units[key].extension == "column":
        return []  # 002 §8.5: a column never shocks
    try:
        me = combatant_of(game, key)
        enemy = enemy_hexes(game, p.units[key].seat)
        closed = _closed(game, me)
        check_may_shock(me, active_brigade=p.brigade, enemy=enemy, closed=closed,
                        coordinated=game.active_brigades())
    except RuleError:
        return []
    return sorted((h for h in me.fronts() if h in enemy and h not in closed),
                  key=lambda x: (x.q, x.r))


@dataclass(frozen=True)
class ShockPlan:
    """A validated designation: the shocks, and every unit they or the §11.31 check touch
    (stack order: the position's order)."""

    shocks: tuple[Shock, ...]
    units: tuple[Combatant, ...]

    def unit(self, key: str) -> Combatant:
        return next(u for u in self.units if u.unit == key)


def check_shock(game: GbacwGame, action: Action, seat: str, *, mandatory: bool = True
                ) -> ShockPlan:
    """Validate a shock designation (002 §11.12, §11.21, §11.31-11.32); changes nothing.
    ``mandatory=False`` skips §11.21's must-shock check (a designation already made and
    re-read after the defender's withdrawals)."""
    p = game.pos
    raw = action.get("shocks")
    if not isinstance(raw, list) or not raw:
        raise RuleError("11.31", "shocks must be a non-empty list of {attackers, targets}")
    if p.brigade is None:
        raise RuleError("11.12", "no brigade is active")
    board = game.cat.board
    shocks: list[Shock] = []
    involved: dict[str, Combatant] = {}
    for i, s in enumerate(raw):
        if not isinstance(s, dict):
            raise RuleError("11.31", f"shocks.{i} must be an object")
        attackers = s.get("attackers")
        targets = s.get("targets")
        if not isinstance(attackers, list) or not attackers:
            raise RuleError("11.31", f"shocks.{i}.attackers must name units")
        if not isinstance(targets, list) or not targets:
            raise RuleError("11.31", f"shocks.{i}.targets must name hexes")
        for key in attackers:
            if str(key) not in p.units or p.units[str(key)].seat != seat:
                raise RuleError("11.12", f"shocks.{i}.attackers: {key!r} is not one of your "
                                "units")
        att = [combatant_of(game, str(k)) for k in attackers]
        enemy = enemy_hexes(game, seat)
        for a in att:
            check_may_shock(a, active_brigade=p.brigade, enemy=enemy,
                            coordinated=game.active_brigades(),
                            closed=_closed(game, a))
            involved[a.unit] = a
        dkeys: list[str] = []
        for t in targets:
            try:
                h = board.parse(str(t))
            except Exception as exc:  # the board names the malformed id
                raise RuleError("11.31", f"shocks.{i}.targets: {exc}") from exc
            if h not in enemy:
                raise RuleError("11.31", f"shocks.{i}.targets: no enemy unit in {t}")
            for k in units_in(game, h):
                if p.units[k].seat != seat:
                    dkeys.append(k)
                    involved.setdefault(k, combatant_of(game, k))
        shocks.append(Shock(tuple(a.unit for a in att), tuple(dkeys)))
    # everyone in the attackers' front hexes, for §11.31's coverage and §11.32's stacks
    for a in list(involved.values()):
        if a.side != seat:
            continue
        for h in a.fronts():
            for k in units_in(game, h):
                involved.setdefault(k, combatant_of(game, k))
    order = [k for k in p.units if k in involved]
    units = tuple(involved[k] for k in order)
    check_designation(shocks, units)
    designated = {a for s in shocks for a in s.attackers}
    for k in game.activation_units() if mandatory else ():
        if k in designated or k not in p.units or p.units[k].hex is None:
            continue
        try:
            me = combatant_of(game, k)
        except RuleError:
            continue
        reason = mandatory_shock(me, moved_adjacent=me.moved)
        if reason and any(h in enemy_hexes(game, seat) for h in me.fronts()):
            raise RuleError("11.21", f"{k} must shock ({reason})")
    return ShockPlan(tuple(shocks), units)


@dataclass(frozen=True)
class ShockReport:
    """One shock as rolled: the green checks, the defenders' pre-shock check (None in
    continued shock or when already rolled for another shock on them), the fight (None
    when no attacker committed or the defenders left)."""

    shock: Shock
    green: tuple[Check, ...]
    pre_shock: PreShock | None
    fight: Fight | None


def resolve_shocks(game: GbacwGame, plan: ShockPlan) -> list[ShockReport]:
    """Roll steps 3, 4 and 6a-6b of every designated shock with the game's dice, without
    changing the position (002 §11.11): green checks (§11.36), one pre-shock check per
    defending stack at the worst DRMs (§11.32, §11.37), then each fight (§11.4) on the
    units as the checks left them. Withdrawal before shock, pre-shock fire, retreats,
    advances, continued shock and the post-shock disorder wait for the engine's wiring."""
    dice = game.dice
    board = game.cat.board
    greens: dict[str, Check] = {}
    for s in plan.shocks:
        for a in s.attackers:
            c = green_check(dice, plan.unit(a))
            if c is not None:
                greens[a] = c
    committed = {s: [plan.unit(a) for a in s.attackers
                     if a not in greens or greens[a].passed] for s in plan.shocks}
    by_defence: dict[tuple[str, ...], list[Shock]] = {}
    for s in plan.shocks:
        by_defence.setdefault(s.defenders, []).append(s)
    checks: dict[tuple[str, ...], PreShock | None] = {}
    for dkeys, shocks in by_defence.items():
        dfn = [plan.unit(k) for k in dkeys]
        sets = [pre_shock_drm_ids(dfn[0], committed[s]) for s in shocks if committed[s]]
        checks[dkeys] = pre_shock_check(dice, dfn, sets) if sets else None
    reports: list[ShockReport] = []
    done: set[tuple[str, ...]] = set()
    for s in plan.shocks:
        att = committed[s]
        green = tuple(greens[a] for a in s.attackers if a in greens)
        pre = checks[s.defenders] if s.defenders not in done else None
        done.add(s.defenders)
        left = {r.unit for r in (pre.results if pre else ()) if r.rout or r.abandoned
                or r.retreat}
        dfn = [plan.unit(k) for k in s.defenders if k not in left]
        if pre is not None:
            hit = {r.unit for r in pre.results if r.disordered or r.second}
            dfn = [after_losses(d.with_(disordered=True, cohesion=game.counter(
                d.unit).cohesion_disordered) if d.unit in hit else d,
                pre.losses.get(d.unit, 0)) for d in dfn]
            dfn = [d for d in dfn if d.sp > 0]
        if not att or not dfn:
            reports.append(ShockReport(s, green, pre, None))
            continue
        terrain = shock_terrain(board, att, dfn)
        brigade_att = [plan.unit(a) for x in plan.shocks for a in x.attackers]
        f = fight(dice, att, dfn, terrain=terrain,
                  enemies=[u for u in plan.units if u.side != att[0].side],
                  lacks_brigadier=no_brigadier(brigade_att))
        reports.append(ShockReport(s, green, pre, f))
    return reports


def shock_events(reports: list[ShockReport]) -> list[Event]:
    """Each step rolled as an event citing its section (002 §11.11)."""
    ev: list[Event] = []
    for r in reports:
        ev.append(Event("shock_designated", "11.31", r.shock.to_json()))
        ev += [Event("shock_green_check", "11.36", c.to_json()) for c in r.green]
        if r.pre_shock is not None:
            ev.append(Event("shock_pre_shock_check", "11.37", r.pre_shock.to_json()))
        if r.fight is not None:
            ev.append(Event("shock_resolved", "11.45", r.fight.to_json()))
    return ev


def execute_shock(game: GbacwGame, action: Action, seat: str) -> list[Event]:
    """Check, roll and apply a shock designation: refused until the position can hold it
    (002 §11.11)."""
    if not position_holds_shock_results():
        raise RuleError("11.11", "this engine's position cannot record shock results yet")
    plan = check_shock(game, action, seat)
    return shock_events(resolve_shocks(game, plan))
