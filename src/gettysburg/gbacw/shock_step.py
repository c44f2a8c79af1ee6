"""Shock carried out in the GBACW engine (002 §11-12): the active brigade designates its
shocks, the defender decides on withdrawal before shock, then the shocks are rolled and
their results written to the position.

The pure rules are in :mod:`shock`, :mod:`retreat` and :mod:`combatant`; the translation
of the position in :mod:`shock_action`. Here is the sequence:

1. ``shock`` (the phasing seat, once per brigade activation, §11.31): the designation is
   checked by ``shock_action.check_shock`` and kept in ``Position.pending``; the brigade's
   units may neither move nor fire after it (shock is the last step of the activation).
2. While a designation is pending, ``to_move`` names the *defender*: it may ``withdraw``
   an eligible unit one hex (two for mounted cavalry) along a path of
   ``shock.withdrawal_options`` (§11.33-11.35; a disordered unit then takes its UDD), or
   ``stand``, which rolls every shock. When no defender may withdraw the shocks are rolled
   at once.
3. ``stand`` rolls steps 3-4 (green checks §11.36, one pre-shock check per defending
   stack §11.37, written at once); then the defender may ``pre_shock_fire`` (§11.38, each
   eligible unit once, applied at once) and ``stand`` again for step 6: each fight; then
   losses, disorder, Blown, abandoned guns, routs and retreats are written,
   then the automatic post-shock disorder (§11.48). A retreat follows the first path
   ``retreat.retreat_options`` allows (the paths are ordered by hex; the owner's choice
   among equal paths, §12.41, is taken for him: a reading kept until the defender's
   retreat choice is an action); what cannot be retreated costs SP or abandons guns
   (§12.44-12.45).

4. Advance (§11.46): when a shocked hex is left empty (or to abandoned guns), the attackers
   that can advance into it, automatically (the seed makes it compulsory; after a
   withdrawal before shock it is voluntary, and the engine then does not advance).

Not here yet: counter-charge (§11.56), continued shock (§11.47).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import Action, Event, RuleError, dice_event

from . import results_step
from .combatant import Check, Combatant, Disorder, check
from .fire import may_pre_shock_fire
from .fire_action import fire_events, resolve_fire, write_outcome
from .retreat import Surroundings, advance_order, check_advance
from .return_fire import shot_plan
from .shock import (
    Shock,
    after_withdrawal,
    fight,
    green_check,
    mandatory_shock,
    no_brigadier,
    post_shock_disorder,
    pre_shock_check,
    pre_shock_drm_ids,
    shock_terrain,
    withdrawal_options,
)
from .shock_action import (
    ShockPlan,
    ShockReport,
    check_shock,
    combatant_of,
    shock_events,
    shock_targets,
)
from .stacking import stack_problem

if TYPE_CHECKING:
    from .charts.terrain import UnitClass
    from .engine_view import GameView as GbacwGame

SHOCKED = "shock"  # the brigade's ``did`` mark: it has designated its shocks (§11.31)


def has_shocked(game: GbacwGame, brigade: str) -> bool:
    return SHOCKED in game.pos.brigades[brigade].did


def _hex_id(game: GbacwGame, h: Hex) -> str:
    return game.cat.board.hexes[h].id


def shock_options(game: GbacwGame, seat: str) -> list[Action]:
    """The designations listed for the active brigade (002 §11.12, §11.21, §11.31): each
    unit alone against each hex it may shock, and all of them together against every hex
    they may shock; only those ``check_shock`` accepts (so the list and the check agree)."""
    p = game.pos
    if p.brigade is None or p.pending is not None or has_shocked(game, p.brigade):
        return []
    per: dict[str, list[str]] = {}
    for k in game.brigade_units(p.brigade):
        if p.units[k].hex is None:
            continue
        targets = shock_targets(game, k)
        if targets:
            per[k] = [_hex_id(game, h) for h in targets]
    candidates: list[Action] = [
        {"type": "shock", "shocks": [{"attackers": [k], "targets": [t]}]}
        for k, ts in per.items() for t in ts]
    if len(per) > 1:
        candidates.append({"type": "shock", "shocks": [
            {"attackers": [k], "targets": ts} for k, ts in per.items()]})
    out = []
    for a in candidates:
        try:
            check_shock(game, a, seat)
        except RuleError:
            continue
        out.append(a)
    return out


def must_shock(game: GbacwGame, seat: str) -> list[str]:
    """Units of the active brigade that must shock before it ends (002 §11.21: a charge,
    mounted cavalry that moved next to an enemy without firing) while a designation is
    possible; empty once the brigade has shocked."""
    p = game.pos
    if p.brigade is None or p.pending is not None or has_shocked(game, p.brigade):
        return []
    out = []
    for k in game.brigade_units(p.brigade):
        if p.units[k].hex is None:
            continue
        try:
            me = combatant_of(game, k)
        except RuleError:
            continue
        if mandatory_shock(me, moved_adjacent=me.moved) and shock_targets(game, k):
            out.append(k)
    return out if out and shock_options(game, seat) else []


def check_designation(game: GbacwGame, action: Action, seat: str) -> ShockPlan:
    """A ``shock`` action: one designation per brigade activation (002 §11.31)."""
    p = game.pos
    if p.pending is not None:
        raise RuleError("11.31", "a shock is already designated and waits for the defender")
    if p.brigade is None:
        raise RuleError("11.12", "no brigade is active")
    if has_shocked(game, p.brigade):
        raise RuleError("11.31", f"{p.brigade} has designated its shocks this activation")
    return check_shock(game, action, seat)


def designate(game: GbacwGame, action: Action, seat: str) -> list[Event]:
    """Record the designation; the defender decides next, or the shocks are rolled now."""
    plan = check_designation(game, action, seat)
    p = game.pos
    assert p.brigade is not None
    p.brigades[p.brigade].did.append(SHOCKED)
    for k in game.brigade_units(p.brigade):
        u = p.units[k]
        u.moves = max(u.moves, game.moves_allowed(k))  # shock ends its movement (§11.11)
    p.pending = {"kind": "shock", "seat": seat, "shocks": [{"attackers": list(s.attackers),
                                           "targets": sorted({p.units[d].hex or ""
                                                              for d in s.defenders})}
                                          for s in plan.shocks],
                 "withdrawn": []}
    ev = [Event("shock_designation", "11.31", {"brigade": p.brigade,
                                               "shocks": p.pending["shocks"]})]
    if not withdraw_options(game):
        ev += resolve(game)
    return ev


# --- the defender's decision: withdrawal before shock (002 §11.33-11.35) ------------------


def _pending_shocks(game: GbacwGame) -> list[dict[str, Any]]:
    p = game.pos.pending
    assert p is not None
    return [dict(s) for s in p["shocks"]]


def _defenders(game: GbacwGame) -> list[tuple[str, list[str]]]:
    """Each defending unit still in a designated hex, with the attackers shocking it."""
    p = game.pos
    out: list[tuple[str, list[str]]] = []
    seat = str(p.pending["seat"]) if p.pending else ""
    seen: set[str] = set()
    for s in _pending_shocks(game):
        for t in s["targets"]:
            for k, u in sorted(p.units.items()):
                if u.hex == t and u.seat != seat and k not in seen:
                    seen.add(k)
                    attackers = [a for x in _pending_shocks(game) if t in x["targets"]
                                 for a in x["attackers"] if p.units[a].hex is not None]
                    out.append((k, attackers))
    return out


def _surroundings(game: GbacwGame, key: str, causing: set[Hex]) -> Surroundings:
    seat = game.pos.units[key].seat
    enemy = game.enemy_hexes(seat)
    fronts: set[Hex] = set()
    for k, u in game.pos.units.items():
        if u.seat != seat and u.hex is not None and u.facing is not None:
            try:
                fronts |= set(combatant_of(game, k).fronts())
            except RuleError:
                continue
    return Surroundings(frozenset(enemy), frozenset(fronts), frozenset(causing),
                        game.friends_of(key))


def withdraw_options(game: GbacwGame) -> list[Action]:
    """``withdraw`` actions of the defender: each eligible unit to the end of each path."""
    p = game.pos
    if p.pending is None or p.pending.get("kind") != "shock" or p.pending.get("stage"):
        return []
    out: list[Action] = []
    for k, attackers in _defenders(game):
        if k in p.pending["withdrawn"] or not attackers:
            continue
        me = combatant_of(game, k)
        att = [combatant_of(game, a) for a in attackers]
        try:
            opts = withdrawal_options(game.cat.board, me, att, sur=_surroundings(
                game, k, {a.hex for a in att}))
        except RuleError:
            continue
        ends = sorted({path.end for path in opts.paths}, key=lambda h: (h.q, h.r))
        out += [{"type": "withdraw", "unit": k, "to": _hex_id(game, h)} for h in ends]
    return out


def defender_options(game: GbacwGame) -> list[Action]:
    return [*withdraw_options(game), *pre_shock_fire_options(game), {"type": "stand"}]


def check_defender(game: GbacwGame, action: Action, seat: str) -> None:
    p = game.pos
    if p.pending is None or p.pending.get("kind") != "shock":
        raise RuleError("11.33", "no shock is waiting for the defender")
    if seat == p.pending["seat"]:
        raise RuleError("11.33", "the defender decides now")
    if action["type"] == "pre_shock_fire" and action not in pre_shock_fire_options(game):
        raise RuleError("11.38", f"{action.get('unit')} may not fire at {action.get('target')}"
                        " before this shock (not shocked nor with an attacker in its front "
                        "hex, out of arc, range or sight, or pre-shock fire used)")
    if action["type"] == "withdraw" and action not in withdraw_options(game):
        raise RuleError("11.33", f"{action.get('unit')} may not withdraw to "
                        f"{action.get('to')} (not shocked, artillery, on Attack or March "
                        "orders, shocked by mounted cavalry, or no such path)")


def withdraw(game: GbacwGame, action: Action, seat: str) -> list[Event]:
    """Move a defender back before the shock; a disordered one takes its UDD (§11.33)."""
    check_defender(game, action, seat)
    p = game.pos
    assert p.pending is not None
    key = str(action["unit"])
    u = p.units[key]
    frm = u.hex
    me = combatant_of(game, key)
    u.hex = str(action["to"])
    first = game.dice.counter
    d = after_withdrawal(game.dice, me)
    p.pending["withdrawn"] = [*p.pending["withdrawn"], key]
    ev = [Event("shock_withdrawal", "11.33", {"unit": key, "from": frm, "to": u.hex})]
    if d is not None:
        ev += [dice_event(game.dice.rolls_since(first)),
               Event("shock_withdrawal_check", "11.33", d.to_json())]
        _disorder(game, d, causing=set(), ev=ev)
    if not withdraw_options(game):
        ev += resolve(game)
    return ev


def stand(game: GbacwGame, action: Action, seat: str) -> list[Event]:
    check_defender(game, action, seat)
    return resolve(game)


# --- the roll and its results ------------------------------------------------------------


def _plan_now(game: GbacwGame) -> ShockPlan | str:
    """The pending designation as the position now stands (withdrawn units gone), or why
    nothing is left to roll: no designated hex still holds an enemy, or what is left no
    longer passes §11.31 (a reading: the withdrawal undid the designation)."""
    p = game.pos
    assert p.pending is not None
    seat = str(p.pending["seat"])
    enemy = {_hex_id(game, h) for h in game.enemy_hexes(seat)}
    shocks = []
    for s in _pending_shocks(game):
        targets = [t for t in s["targets"] if t in enemy]
        attackers = [a for a in s["attackers"] if p.units[a].hex is not None]
        if targets and attackers:
            shocks.append({"attackers": attackers, "targets": targets})
    if not shocks:
        return "the defenders withdrew"
    try:
        return check_shock(game, {"type": "shock", "shocks": shocks}, seat, mandatory=False)
    except RuleError as exc:
        return f"after the withdrawals the designation fails {exc.rule}: {exc}"


def resolve(game: GbacwGame) -> list[Event]:
    """Steps 3-4 (green checks §11.36, the pre-shock check §11.37, written at once), then
    step 5: the defender's pre-shock fire (§11.38) when some unit may fire, else step 6."""
    p = game.pos
    assert p.pending is not None
    if p.pending.get("stage") == "fire":
        return _fights(game)
    plan = _plan_now(game)
    if isinstance(plan, str):
        p.pending = None
        return [Event("shock_cancelled", "11.33", {"reason": plan})]
    first = game.dice.counter
    greens: dict[str, Check] = {}
    for s in plan.shocks:
        for a in s.attackers:
            c = green_check(game.dice, plan.unit(a))
            if c is not None:
                greens[a] = c
    out = sorted(a for a, c in greens.items() if not c.passed)
    ev: list[Event] = [Event("shock_green_check", "11.36", c.to_json())
                       for c in greens.values()]
    by_defence: dict[tuple[str, ...], list[Shock]] = {}
    for s in plan.shocks:
        by_defence.setdefault(s.defenders, []).append(s)
    for dkeys, shocks in by_defence.items():
        dfn = [plan.unit(k) for k in dkeys]
        sets = [pre_shock_drm_ids(dfn[0], [plan.unit(a) for a in s.attackers if a not in out])
                for s in shocks if any(a not in out for a in s.attackers)]
        if not sets:
            continue
        pre = pre_shock_check(game.dice, dfn, sets)
        if pre is None:
            continue
        ev.append(Event("shock_pre_shock_check", "11.37", pre.to_json()))
        causing = {plan.unit(a).hex for s in shocks for a in s.attackers}
        for k, n in pre.losses.items():
            p.units[k].lost += n
        for d in pre.results:
            _disorder(game, d, causing=causing, ev=ev)
    if game.dice.counter > first:
        ev.insert(0, dice_event(game.dice.rolls_since(first)))
    p.pending = {**p.pending, "stage": "fire", "uncommitted": out}
    if not pre_shock_fire_options(game):
        ev += _fights(game)
    return ev


def pre_shock_fire_options(game: GbacwGame) -> list[Action]:
    """002 §11.38, §10.43: a shocked defender, or a friend with an attacker in its front hex
    not in another enemy's front hex, may fire at the attackers' hexes before the roll,
    once per enemy brigade activation."""
    p = game.pos
    if p.pending is None or p.pending.get("kind") != "shock" or \
            p.pending.get("stage") != "fire":
        return []
    seat = str(p.pending["seat"])
    attackers = [a for s in p.pending["shocks"] for a in s["attackers"]
                 if a not in p.pending["uncommitted"] and p.units[a].hex is not None]
    hexes = sorted({h for a in attackers if (h := game.hex_of(p.units[a].hex)) is not None},
                   key=lambda x: (x.q, x.r))
    attacked = {k for k, _ in _defenders(game)}
    others: set[Hex] = set()  # front hexes of enemies that are not shocking now
    for k, u in p.units.items():
        if u.seat == seat and k not in attackers and u.hex is not None:
            try:
                others |= set(combatant_of(game, k).fronts())
            except RuleError:
                continue
    out: list[Action] = []
    for k, u in sorted(p.units.items()):
        here = game.hex_of(u.hex)
        if u.seat == seat or here is None or u.facing is None:
            continue
        try:
            front = combatant_of(game, k).fronts()
        except RuleError:
            continue
        if not may_pre_shock_fire(here, attacked=k in attacked, attacker_hexes=hexes,
                                  front=front,
                                  enemy_front_of_other=k not in attacked and here in others,
                                  used_this_activation="pre_shock" in u.fired):
            continue
        for h in hexes:
            try:
                shot_plan(game, k, h, "pre_shock")
            except RuleError:
                continue
            out.append({"type": "pre_shock_fire", "unit": k, "target": _hex_id(game, h)})
    return out


def pre_shock_fire(game: GbacwGame, action: Action, seat: str) -> list[Event]:
    """Fire one defending unit's pre-shock shot (002 §11.38) and apply it at once."""
    check_defender(game, action, seat)
    key = str(action["unit"])
    target = game.cat.board.parse(str(action["target"]))
    plan = shot_plan(game, key, target, "pre_shock")
    roll, outcome = resolve_fire(game, plan)
    ev = [Event("pre_shock_fire", "11.38", {"unit": key}),
          *fire_events(plan, roll, outcome, str(action["target"]))]
    write_outcome(game, outcome)
    u = game.pos.units[key]
    u.fired = [*u.fired, "pre_shock"]
    return ev


def _fights(game: GbacwGame) -> list[Event]:
    """Step 6 (002 §11.4-11.48) on the units as the earlier steps left them."""
    p = game.pos
    assert p.pending is not None
    out = set(p.pending.get("uncommitted", []))
    exempt = bool(p.pending["withdrawn"])
    plan = _plan_now(game)
    p.pending = None
    if isinstance(plan, str):
        return [Event("shock_cancelled", "11.37", {"reason": plan})]
    first = game.dice.counter
    reports: list[ShockReport] = []
    brigade_att = [plan.unit(a) for x in plan.shocks for a in x.attackers]
    for s in plan.shocks:
        att = [plan.unit(a) for a in s.attackers if a not in out]
        dfn = [plan.unit(d) for d in s.defenders]
        if not att or not dfn:
            reports.append(ShockReport(s, (), None, None))
            continue
        f = fight(game.dice, att, dfn, terrain=shock_terrain(game.cat.board, att, dfn),
                  enemies=[u for u in plan.units if u.side != att[0].side],
                  lacks_brigadier=no_brigadier(brigade_att))
        reports.append(ShockReport(s, (), None, f))
    ev: list[Event] = [dice_event(game.dice.rolls_since(first))] \
        if game.dice.counter > first else []
    ev += shock_events(reports)
    for r in reports:
        ev += _apply(game, plan, r, exempt=exempt)
    return ev


def _apply(game: GbacwGame, plan: ShockPlan, r: ShockReport, *, exempt: bool) -> list[Event]:
    p = game.pos
    ev: list[Event] = []
    att_hexes = {plan.unit(a).hex for a in r.shock.attackers}
    def_hexes = {plan.unit(d).hex for d in r.shock.defenders}
    routed: set[str] = set()
    if r.pre_shock is not None:
        for k, n in r.pre_shock.losses.items():
            p.units[k].lost += n
        for d in r.pre_shock.results:
            _disorder(game, d, causing=att_hexes, ev=ev)
            if d.rout:
                routed.add(d.unit)
    if r.fight is None:
        return ev
    for eff, causing in ((r.fight.defender, att_hexes), (r.fight.attacker, def_hexes)):
        for k, n in eff.losses.items():
            p.units[k].lost += n
        for d in eff.disorders:
            if d.disordered or d.second:
                p.units[d.unit].disordered = True
            if d.blown:
                p.units[d.unit].blown = True
        for k in eff.abandoned:
            p.units[k].abandoned = p.units[k].abandoned or "abandoned-1"  # 002 §12.36
        for k in eff.routs:
            p.units[k].routed = True
            routed.add(k)
        for k, need in sorted(eff.retreats.items()):
            if k not in routed:
                ev += _retreat(game, k, need, causing)
    attackers = [plan.unit(a) for a in r.shock.attackers]
    defenders = [plan.unit(d) for d in r.shock.defenders]
    ev += _advance(game, attackers, {h for h in def_hexes}, routed)
    post = post_shock_disorder(attackers, defenders, exempt=exempt, routed=routed)
    for k in post.disordered:
        p.units[k].disordered = True
    for k in post.blown:
        p.units[k].blown = True
    for k, n in post.losses.items():
        p.units[k].lost += n
    ev.append(Event("shock_post_disorder", "11.48", post.to_json()))
    return ev


def _vacated(game: GbacwGame, h: Hex, seat: str) -> bool:
    """The defenders left ``h``, or only abandoned guns remain (002 §11.46)."""
    return all(u.abandoned is not None for u in game.pos.units.values()
               if u.seat != seat and u.hex is not None and game.hex_of(u.hex) == h)


def _advance(game: GbacwGame, attackers: list[Combatant], targets: set[Hex],
             routed: set[str]) -> list[Event]:
    """002 §11.46, §12.6: when the defenders have left a shocked hex (or left only abandoned
    guns), every attacker that can must advance into it, chargers first, then upper units
    (``retreat.advance_order``), within the stacking limits; facing kept (the vertex turn
    §11.46 allows is not offered); the hex's D/d check met on entering (§12.6). Readings:
    each attacker goes into the first vacated target next to it (by hex); guns the advance
    reaches are manned again (§12.81)."""
    ev: list[Event] = []
    p = game.pos
    if not attackers:
        return ev
    seat = attackers[0].side
    open_hexes = sorted((h for h in targets if _vacated(game, h, seat)),
                        key=lambda x: (x.q, x.r))
    if not open_hexes:
        return ev
    enemy = game.enemy_hexes(seat)
    for a in advance_order(attackers):
        u = p.units[a.unit]
        here = game.hex_of(u.hex)
        if a.unit in routed or here is None or u.facing is None or game.gone(a.unit):
            continue
        me = combatant_of(game, a.unit)
        for h in open_hexes:
            if here.distance(h) != 1:
                continue
            try:
                need = check_advance(game.cat.board, me, h, new_facing=u.facing,
                                     enemy=enemy - {h})
            except RuleError:
                continue
            hid = _hex_id(game, h)
            entries = [game.stack_entry(k) for k, x in p.units.items()
                       if x.hex == hid and x.seat == seat and x.abandoned is None]
            if stack_problem([*entries, game.stack_entry(a.unit)],
                             game.orders_of(a.unit)) is not None:
                continue
            frm, u.hex = u.hex, hid
            data: dict[str, Any] = {"unit": a.unit, "from": frm, "to": hid}
            if need == "auto":
                u.disordered = True
                data["terrain"] = "D"
            elif need == "udd":
                c = check(game.dice, me, "advance into terrain", "12.6")
                data["terrain"] = c.to_json()
                u.disordered = u.disordered or not c.passed
            for k, x in p.units.items():  # §12.81: guns reached by the advance
                if x.hex == hid and x.seat == seat and x.abandoned is not None:
                    x.abandoned = None
                    x.disordered = True
                    data.setdefault("recrewed", []).append(k)
            ev.append(Event("shock_advance", "11.46", data))
            break
    return ev


def _disorder(game: GbacwGame, d: Disorder, *, causing: set[Hex], ev: list[Event]) -> None:
    """Write one disorder result (002 §12.3) to the position."""
    u = game.pos.units[d.unit]
    if d.disordered or d.second:
        u.disordered = True
    u.lost += d.sp_loss
    if d.blown:
        u.blown = True
    if d.abandoned:
        u.abandoned = u.abandoned or "abandoned-1"
    if d.rout:
        u.routed = True
    elif d.retreat:
        ev += _retreat(game, d.unit, d.retreat, causing)


def _class(game: GbacwGame, key: str) -> UnitClass:
    c = game.counter(key)
    if c.arm in ("art", "horse_art"):
        return "artillery"
    return "mounted_cavalry" if c.arm == "cav" and c.mode == "mounted" else "infantry"


def _retreat(game: GbacwGame, key: str, need: tuple[int, int], causing: set[Hex]
             ) -> list[Event]:
    """Carry out a retreat (002 §12.41-12.47) through :func:`results_step.retreat`: the
    owner's choice of path when more than one is allowed, friends passed through check."""
    return results_step.retreat(game, key, need, causing, event="shock_retreat")
