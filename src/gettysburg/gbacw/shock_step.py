"""Shock carried out in the GBACW engine (002 §11-12): the active brigade designates its
shocks, the defender decides on withdrawal before shock, then the shocks are rolled and
their results written to the position.

The pure rules are in :mod:`shock`, :mod:`retreat` and :mod:`combatant`; the translation
of the position in :mod:`shock_action`. Here is the sequence:

1. ``shock`` (the phasing seat, once per brigade activation, §11.31): the designation is
   checked by ``shock_action.check_shock`` and kept in ``Position.pending``, its shocks in
   §11.41's order (:func:`in_resolution_order`); the brigade's units may neither move nor
   fire after it (shock is the last step of the activation).
2. While a designation is pending, ``to_move`` names the *defender*: it may ``withdraw``
   an eligible unit (§11.33-11.35; a disordered unit then takes its UDD), ``counter_charge``
   a charge (§11.56, :mod:`charge_step`), or ``stand``. With nothing to decide the shocks are
   rolled at once.
3. ``stand`` rolls steps 3-4 (green checks §11.36, one pre-shock check per defending stack
   §11.37, written at once); then the defender may ``pre_shock_fire`` (§11.38) and ``stand``
   again for step 6.
4. Step 6 (:func:`_run`): one shock at a time (§11.41): the fight, its results (retreats
   through ``results_step``), the compulsory advance (§11.46), then continued shock (§11.47)
   as the attacker's decision (:mod:`continued_shock`), and the post-shock disorder after
   each series (§11.48); a hex emptied by a withdrawal lets the attacking infantry advance
   (§11.35). When every shock is done, :mod:`shock_after` (§6.26, §17.22).

A decision of another module in the middle (a retreat path, §12.41) pauses the run: what is
left waits in that decision's ``resume`` and :func:`resume_pending` goes on with it.

After an adjusted 1 or less the defender may counter-attack (§11.47): its seat decides, the
same way (:mod:`continued_shock`); each queued shock keeps the seat that rolls it.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import Action, Event, RuleError, dice_event

from . import (
    charge_step,
    continued_shock,
    engineering_step,
    extended_combat,
    results_step,
    shock_after,
    shock_fog,
)
from .combatant import Check, Combatant, Disorder, check
from .engineering import covers
from .facing import Facing
from .fire import may_pre_shock_fire
from .fire_action import (
    ammunition_events,
    apply_shot,
    roll_shot,
    second_disordered,
    shot_events,
    spencer_round,
)
from .kinds import unit_class
from .movement import entry_cost
from .retreat import Surroundings, advance_order
from .return_fire import book_reserve, lone_spencer, shot_plan
from .shock import (
    Effects,
    Shock,
    after_withdrawal,
    counter_charge,
    fight,
    green_check,
    mandatory_shock,
    no_brigadier,
    post_shock_disorder,
    pre_shock_check,
    pre_shock_drm_ids,
    shock_resolution_order,
    shock_terrain,
    withdrawal_options,
)
from .shock_action import (
    ShockPlan,
    ShockReport,
    check_shock,
    combatant_of,
    enemy_hexes,
    shock_events,
    shock_targets,
    units_in,
)
from .shock_units import advance_need
from .shock_units import defenders as _defenders
from .shock_units import hex_id as _hex_id
from .shock_units import pending_shocks as _pending_shocks
from .shock_units import present as _present
from .state import other

if TYPE_CHECKING:
    from .charts.terrain import UnitClass
    from .engine_view import GameView as GbacwGame

SHOCKED = "shock"  # the brigade's ``did`` mark: it has designated its shocks (§11.31)


def has_shocked(game: GbacwGame, brigade: str) -> bool:
    """Whether the brigade has designated its shocks this activation: one designation an activation
    (002 §11.31), no fire after it (§11.11)."""
    return SHOCKED in game.pos.brigades[brigade].did


def shock_options(game: GbacwGame, seat: str) -> list[Action]:
    """The designations listed for the active brigade (002 §11.12, §11.21, §11.31): each
    unit alone against each hex it may shock, and all of them together against every hex
    they may shock; only those ``check_shock`` accepts (so the list and the check agree)."""
    p = game.pos
    if p.brigade is None or p.pending is not None or has_shocked(game, p.brigade):
        return []
    per: dict[str, list[str]] = {}
    for k in game.activation_units():  # a coordinated group's units together (§5.34)
        if p.units[k].hex is None:
            continue
        targets = shock_targets(game, k)
        if targets:
            per[k] = [_hex_id(game, h) for h in targets]
    candidates: list[Action] = [
        {"type": "shock", "shocks": [{"attackers": [k], "targets": [t]}]}
        for k, ts in per.items() for t in ts]
    candidates += [{"type": "shock", "shocks": [{"attackers": [k], "targets": ts}]}
                   for k, ts in per.items() if len(ts) > 1]  # every enemy in front (§11.31)
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
    return out + extended_combat.variants(game, out)  # 002 §8.48: enveloping lines


def must_shock(game: GbacwGame, seat: str) -> list[str]:
    """Units of the active brigade that must shock before it ends (002 §11.21: a charge,
    mounted cavalry that moved next to an enemy without firing) while a designation is
    possible; empty once the brigade has shocked."""
    p = game.pos
    if p.brigade is None or p.pending is not None or has_shocked(game, p.brigade):
        return []
    out = []
    for k in game.activation_units():
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
    plan = check_shock(game, action, seat)
    extended_combat.check(game, action)  # 002 §8.48: the enveloping lines named
    return plan


def designate(game: GbacwGame, action: Action, seat: str) -> list[Event]:
    """Record the designation; the defender decides next, or the shocks are rolled now
    (002 §11.11, §11.31)."""
    plan = check_designation(game, action, seat)
    p = game.pos
    assert p.brigade is not None
    for n in game.active_brigades():  # one designation for a coordinated group (§5.34)
        p.brigades[n].did.append(SHOCKED)
    for k in game.activation_units():
        u = p.units[k]
        u.moves = max(u.moves, game.moves_allowed(k))  # shock ends its movement (§11.11)
    shocks = [{"attackers": list(s.attackers),
               "targets": sorted({p.units[d].hex or "" for d in s.defenders}
                                 | extended_combat.extended_targets(game, s.defenders, raw))}
              for s, raw in zip(plan.shocks, action["shocks"], strict=True)]  # §8.5, §8.46
    p.pending = {"kind": "shock", "seat": seat, "shocks": in_resolution_order(game, shocks),
                 "withdrawn": [],
                 "ctx": {"no_brigadier": no_brigadier([plan.unit(a) for s in plan.shocks
                                                       for a in s.attackers]),
                         "involved": sorted({k for s in plan.shocks
                                             for k in (*s.attackers, *s.defenders)})}}
    if envelop := extended_combat.chosen(action):  # 002 §8.48: pivoted at step 3
        p.pending["ctx"][extended_combat.ENVELOP] = envelop
    ev = [Event("shock_designation", "11.31", {"brigade": p.brigade,
                                               "shocks": p.pending["shocks"]})]
    if not defender_decides(game):
        ev += resolve(game)
    return ev


def defender_decides(game: GbacwGame) -> bool:
    """Whether the defender has a decision before the checks: a withdrawal before shock
    (§11.33) or a counter-charge (§11.56); otherwise the shocks are rolled at once."""
    return bool(withdraw_options(game) or charge_step.counter_options(game))


def in_resolution_order(game: GbacwGame, shocks: list[dict[str, Any]]
                        ) -> list[dict[str, Any]]:
    """002 §11.41: the shocks go from one end of the line to the other, never picked at
    will; the engine goes from the lowest hex (q, then r) of each shock's targets
    (``shock.shock_resolution_order``), ties kept in the designation's order."""
    firsts = [min((h for t in s["targets"] if (h := game.hex_of(t)) is not None),
                  key=lambda x: (x.q, x.r)) for s in shocks]
    order = shock_resolution_order(sorted(set(firsts), key=lambda x: (x.q, x.r)))
    return [s for h in order for s, f in zip(shocks, firsts, strict=True) if f == h]


# --- the defender's decision: withdrawal before shock (002 §11.33-11.35) ------------------


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
    """``withdraw`` actions of the defender: each eligible unit to the end of each path
    (002 §11.33)."""
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
    """The defender's answers to a designated shock: counter-charge, withdrawal before shock, or
    stand; after a shock, the attacker's continued-shock choice (002 §11.33, §11.56, §11.47)."""
    p = game.pos.pending
    if p is not None and p.get("kind") == "after_shock":  # the attacker's choice (§11.47)
        return continued_shock.options(game)
    return [*charge_step.counter_options(game), *withdraw_options(game),
            *pre_shock_fire_options(game), {"type": "stand"}]


def check_defender(game: GbacwGame, action: Action, seat: str) -> None:
    """Refuse a defender's answer when no shock waits or the seat is not the defender's
    (002 §11.33)."""
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
    if action["type"] == "counter_charge" and action not in charge_step.counter_options(game):
        raise RuleError("11.56", f"{action.get('unit')} may not counter-charge (mounted "
                        "cavalry on Attack or Advance orders against a charge, not through a "
                        "flank or rear, no return or withdrawal fire, the attacker's hex open "
                        "to a charge, before the pre-shock checks)")


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
    start, end = game.hex_of(frm), game.hex_of(u.hex)
    assert start is not None and end is not None
    held = [str(frm), *u.extends]
    parts = extended_combat.withdraw_parts(game, key, start, end)  # a line steps back whole
    first = game.dice.counter
    d = after_withdrawal(game.dice, me)
    p.pending["withdrawn"] = [*p.pending["withdrawn"], key]
    p.pending["withdrawn_from"] = sorted({*p.pending.get("withdrawn_from", []), *held})
    ev = [Event("shock_withdrawal", "11.33", {"unit": key, "from": frm, "to": u.hex,
                                              **parts})]
    if d is not None:
        pend = p.pending
        ev += [dice_event(game.dice.rolls_since(first)),
               Event("shock_withdrawal_check", "11.33", d.to_json())]
        _disorder(game, d, causing=set(), ev=ev)
        if _interrupted(game, pend, pend):
            return ev
    if not defender_decides(game):
        ev += resolve(game)
    return ev


def stand(game: GbacwGame, action: Action, seat: str) -> list[Event]:
    """The defender stands: the designated shocks are rolled now (002 §11.4)."""
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
    enemy = {_hex_id(game, h) for h in enemy_hexes(game, seat)}
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


def works(game: GbacwGame, attackers: list[Combatant], defenders: list[Combatant]
          ) -> set[tuple[Hex, Hex]]:
    """The (attacker hex, defender hex) pairs across breastworks when every attacking hex
    next to the defenders comes across works in their hexes (002 §15.23, E-8; the reading of
    ``engineering.pre_shock_drm``: an attack also from an open side goes around them), for
    the pre-shock check's -1 and the shock roll's -1 (the Terrain chart's line, once)."""
    pairs = {(a, d) for u in attackers for a in u.hexes for v in defenders for d in v.hexes
             if a.distance(d) == 1}
    built = engineering_step.breastworks(game)
    if pairs and built and all(covers(built, d, a) for a, d in pairs):
        return pairs
    return set()


def resolve(game: GbacwGame) -> list[Event]:
    """Steps 3-4 (green checks §11.36, the pre-shock check §11.37, written at once), then
    step 5: the defender's pre-shock fire (§11.38) when some unit may fire, else step 6."""
    p = game.pos
    assert p.pending is not None
    pend = p.pending
    if pend.get("stage") == "fire":
        return _fights(game)
    plan = _plan_now(game)
    if isinstance(plan, str) or p.pending.get("continued"):
        # every defender withdrew (the attackers may advance, §11.35), or a continued shock:
        # no green or pre-shock check (§11.47)
        p.pending = {**p.pending, "stage": "fire", "uncommitted": []}
        if isinstance(plan, str) or not pre_shock_fire_options(game):
            return _fights(game)
        return []
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
    if pend.get("ctx", {}).get(extended_combat.ENVELOP):  # 002 §8.48: after step 3
        ev += extended_combat.pivot_all(game, pend["ctx"], set(out))
        again = _plan_now(game)
        plan = plan if isinstance(again, str) else again
    by_defence: dict[tuple[str, ...], list[Shock]] = {}
    for s in plan.shocks:
        by_defence.setdefault(s.defenders, []).append(s)
    countered = set(pend.get("ctx", {}).get("counter_charged", []))
    for dkeys, shocks in by_defence.items():
        dfn = [plan.unit(k) for k in dkeys]
        sets = [pre_shock_drm_ids(dfn[0], [plan.unit(a) for a in s.attackers if a not in out],
                                  behind_breastworks=bool(works(game, [
                                      plan.unit(a) for a in s.attackers if a not in out],
                                      dfn)))  # 002 §15.23: -1
                for s in shocks if any(a not in out for a in s.attackers)]
        if not sets or dfn[0].unit in countered:
            continue  # §11.56: a counter-charging stack takes no pre-shock check
        pre = pre_shock_check(game.dice, dfn, sets)
        if pre is None:
            continue
        ev.append(Event("shock_pre_shock_check", "11.37", pre.to_json()))
        causing = {plan.unit(a).hex for s in shocks for a in s.attackers}
        for k, n in pre.losses.items():
            p.units[k].lost += n
        for d in pre.results:
            _disorder(game, d, causing=causing, ev=ev, sp=False)  # pre.losses has the SP
        held = {h for d in dfn for h in d.hexes}
        if all(not _live(game, h, str(pend["seat"])) for h in held):
            ctx = pend.setdefault("ctx", {})  # §11.47: the check emptied the hex
            ctx["pre_vacated"] = sorted({*ctx.get("pre_vacated", []),
                                         *(_hex_id(game, h) for h in held)})
    ev = shock_fog.fog(game, ev, str(pend["seat"]))  # 002 §17.31: fatigue is the owner's
    if game.dice.counter > first:
        ev.insert(0, dice_event(game.dice.rolls_since(first)))
    after = {**pend, "stage": "fire", "uncommitted": out}
    if _interrupted(game, pend, after):
        return ev  # retreat paths to choose first; then pre-shock fire or stand
    p.pending = after
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
        if u.seat == seat and k not in attackers and _present(game, k):
            try:
                others |= set(combatant_of(game, k).fronts())
            except RuleError:
                continue
    out: list[Action] = []
    countered = set(p.pending.get("ctx", {}).get("counter_charged", []))
    for k, u in sorted(p.units.items()):
        here = game.hex_of(u.hex)
        if u.seat == seat or here is None or u.facing is None or k in countered \
                or not _present(game, k):  # gone to this action's results, not yet swept
            continue  # §11.56: a counter-charging unit fires no pre-shock fire
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
    done = roll_shot(game, plan)
    # shot_events keeps the brigades' fatigue DRMs out of the enemy's copy (002 §17.31)
    ev = [Event("pre_shock_fire", "11.38", {"unit": key}), *shot_events(game, done)]
    apply_shot(game, done)
    ev += ammunition_events(game, plan.shooters, [done.roll.roll])  # 002 §10.69, §10.91
    if lone_spencer(plan) and not second_disordered(done.outcome, key):
        ev += spencer_round(game, plan)  # 002 §14.36: a Spencer unit fires twice
    for k in plan.shooters:  # its stack with it under the optional §10.82
        u = game.pos.units[k]
        u.fired = [*u.fired, "pre_shock"]
    return ev + book_reserve(game, key, target)  # a reserve it held is spent (002 §10.15)


def _fights(game: GbacwGame) -> list[Event]:
    """Step 6 (002 §11.4-11.48) on the units as the earlier steps left them: the designated
    shocks one at a time, each through 6a-6d before the next (§11.41), in the order fixed at
    designation."""
    p = game.pos
    pend = p.pending
    assert pend is not None
    out = set(pend.get("uncommitted", []))
    seat = str(pend["seat"])
    ctx = _ctx(pend)
    queue = [{**s, "attackers": [a for a in s["attackers"] if a not in out]}
             for s in _pending_shocks(game)]
    if pend.get("withdrawn"):
        ctx["withdrawn_from"] = sorted({*ctx["withdrawn_from"],
                                        *pend.get("withdrawn_from", [])})
    p.pending = None
    return _run(game, seat, queue + list(ctx.pop("rest", [])), ctx)


def _ctx(pending: dict[str, Any]) -> dict[str, Any]:
    """What a designation carries through its shocks (a fresh one at designation)."""
    base: dict[str, Any] = {"no_brigadier": False, "withdrawn_from": [], "pre_vacated": [],
                            "fought": [], "involved": [], "chain": None}
    return {**base, **copy.deepcopy(pending.get("ctx", {}))}


RESUME = "shock_resume"


def _interrupted(game: GbacwGame, mine: dict[str, Any] | None, then: dict[str, Any]) -> bool:
    """Whether a result just written opened another module's decision (results_step's
    retreat path choice, 002 §12.41) over ``mine``; if so, ``then`` is what comes back when
    that decision is over (it keeps the pending it replaced as its ``resume``)."""
    p = game.pos.pending
    if p is None or p is mine:
        return False
    while p.get("resume") is not None and p["resume"] is not mine:
        p = p["resume"]  # a decision stacked over another: the bottom one resumes us
    p["resume"] = then
    return True


def resume_pending(game: GbacwGame) -> list[Event]:
    """After another module's decision: when what comes back is the rest of a shock step
    (kind ``shock_resume``), go on with it at once (002 §11.41)."""
    p = game.pos.pending
    if p is None or p.get("kind") != RESUME:
        return []
    game.pos.pending = None
    ctx = copy.deepcopy(dict(p["ctx"]))
    queue = copy.deepcopy(list(p["queue"]))
    seat = str(p["attacker"])
    group, must = list(p.get("group", [])), bool(p.get("must"))
    n = int(p.get("continued", 1))
    if group and continued_shock.open_continuation(game, seat, group, must=must, n=n,
                                                   queue=queue, ctx=ctx):
        return []
    counter = list(p.get("counter", []))
    if counter and continued_shock.open_counterattack(game, other(seat), counter,
                                                      list(p.get("vacated", [])),
                                                      queue=queue, ctx=ctx):
        return []
    return _end_series(game, ctx) + _run(game, seat, queue, ctx)


def _live(game: GbacwGame, h: Hex, seat: str) -> list[str]:
    """The enemy units still defending ``h``: not routed, eliminated nor abandoned guns."""
    p = game.pos
    return [k for k in units_in(game, h)
            if p.units[k].seat != seat and not p.units[k].routed
            and p.units[k].abandoned is None]


def _run(game: GbacwGame, seat: str, queue: list[dict[str, Any]], ctx: dict[str, Any]
         ) -> list[Event]:
    """Resolve the queued shocks in order (002 §11.41): a shock whose hexes were emptied
    before its turn is an advance (§11.35, §11.46's note); the others fight (6a-6b), write
    their results, advance (6c) and may continue (6d, §11.47: the phasing seat then
    decides, and this stops until it has). At the end of each series the post-shock
    disorder (6e, §11.48); when the queue is done, the March brigades shocked go to Advance
    (§6.26, §11.48) and shock fatigue is counted (§17.22)."""
    ev: list[Event] = []
    p = game.pos
    phasing = str(ctx.setdefault("phasing", seat))
    while queue:
        item = queue.pop(0)
        iseat = str(item.setdefault("seat", phasing))  # a counter-attack is the defender's
        n = int(item.get("continued", 0))
        if n == 0:
            ev += _end_series(game, ctx)  # a new shock: the last series is over
        atts = [a for a in item["attackers"] if _present(game, a)]
        hexes = [h for t in item["targets"] if (h := game.hex_of(str(t))) is not None]
        live = [h for h in hexes if _live(game, h, iseat)]
        if not atts:
            ev += _end_series(game, ctx)
            continue
        if not live:
            ev += _emptied(game, iseat, item, atts, hexes, ctx, queue)
            if p.pending is not None:
                return ev
            continue
        near = {x for a in atts for h in combatant_of(game, a).hexes for x in h.neighbours()}
        if not set(live) & near:  # the attackers were moved off (a retreat after fire)
            ev.append(Event("shock_cancelled", "11.41", {
                "attackers": atts, "targets": [_hex_id(game, h) for h in live],
                "reason": "no attacker is next to the defenders any more"}))
            continue
        live = [h for h in live if h in near]
        ev += _fight_one(game, iseat, item, atts, live, ctx)
        group, must = ctx.pop("continue_group", ([], False))
        counter, vacated = ctx.pop("counter_group", ([], []))
        if _interrupted(game, None, {"kind": RESUME, "seat": other(iseat), "attacker": iseat,
                                     "queue": queue, "ctx": ctx, "group": group,
                                     "must": must, "continued": n + 1,
                                     "counter": counter, "vacated": vacated}):
            return ev  # a retreat path to choose first; resume_pending goes on
        if group and continued_shock.open_continuation(game, iseat, group, must=must,
                                                       n=n + 1, queue=queue, ctx=ctx):
            return ev
        if counter and continued_shock.open_counterattack(game, other(iseat), counter,
                                                          vacated, queue=queue, ctx=ctx):
            return ev
        ev += _end_series(game, ctx)
    return ev + _end_series(game, ctx) + _finish(game, phasing, ctx)


def _emptied(game: GbacwGame, seat: str, item: dict[str, Any], atts: list[str],
             hexes: list[Hex], ctx: dict[str, Any], queue: list[dict[str, Any]]
             ) -> list[Event]:
    """A shock whose target hexes hold no defender when its turn comes."""
    ids = [_hex_id(game, h) for h in hexes]
    if any(t in ctx["withdrawn_from"] for t in ids):
        # §11.35: after a withdrawal before shock the attacking infantry may advance; the
        # shock (and any series of continued shocks) ends there
        ev: list[Event] = [Event("shock_ended", "11.35", {"attackers": atts, "targets": ids,
                                                          "reason": "withdrawn"})]
        continued_shock.open_voluntary_advance(game, seat, atts, hexes, queue=queue, ctx=ctx)
        return ev
    att = [combatant_of(game, a) for a in atts]
    moved, ev = _advance(game, att, set(hexes), set())
    if any(t in ctx["pre_vacated"] for t in ids) and not item.get("continued"):
        # §11.47: a pre-shock check that emptied the hex opens continued shock
        must = any(a.charging for a in att if a.unit in moved)
        ev.append(Event("shock_ended", "11.47", {"attackers": atts, "targets": ids,
                                                 "reason": "pre-shock check"}))
        if moved and continued_shock.open_continuation(game, seat, moved, must=must, n=1,
                                                       queue=queue, ctx=ctx):
            return ev
        return ev
    # §11.46's note: emptied by an earlier shock: advance, no post-shock disorder
    ev.append(Event("shock_ended", "11.46", {"attackers": atts, "targets": ids,
                                             "reason": "emptied by an earlier shock"}))
    return ev


def _fight_one(game: GbacwGame, seat: str, item: dict[str, Any], atts: list[str],
               live: list[Hex], ctx: dict[str, Any]) -> list[Event]:
    """Steps 6a-6c of one shock (or continued shock) on the position as it stands."""
    p = game.pos
    n = int(item.get("continued", 0))
    att = [combatant_of(game, a) for a in atts]
    dkeys = list(dict.fromkeys(k for h in live for k in _live(game, h, seat)))  # a unit once
    dfn = [combatant_of(game, k) for k in dkeys]
    near = {h for a in att for x in a.hexes for h in (x, *x.neighbours())}
    enemies = [combatant_of(game, k) for k, u in sorted(p.units.items())
               if u.seat != seat and _present(game, k) and game.hex_of(u.hex) in near]
    first = game.dice.counter
    board = game.cat.board
    cover = {h for u in (*att, *dfn) for h in u.hexes
             if board.hexes[h].terrain in charge_step.COVER}  # §11.43, §11.55
    f = fight(game.dice, att, dfn,
              terrain=shock_terrain(board, att, dfn, breastworks=works(game, att, dfn)),
              enemies=enemies, continued=n,
              lacks_brigadier=bool(item.get("no_brigadier", ctx["no_brigadier"])),
              cover=cover, target_cover=any(h in cover for h in live),
              counter_charged=bool(set(dkeys) & set(ctx.get("counter_charged", []))))
    shock = Shock(tuple(atts), tuple(dkeys))
    ev: list[Event] = [dice_event(game.dice.rolls_since(first))]
    ev += shock_events([ShockReport(shock, (), None, f)])
    if n:
        ev[-1] = Event("shock_resolved", "11.47", {**ev[-1].data, "continued": n})
    chain = ctx["chain"] or {"att": [], "dfn": [], "was": [], "fought": False}
    for u in (*att, *dfn):
        if u.unit not in chain["att"] and u.unit not in chain["dfn"] and u.disordered:
            chain["was"].append(u.unit)
    chain["att"] += [a for a in atts if a not in chain["att"]]
    chain["dfn"] += [d for d in dkeys if d not in chain["dfn"]]
    chain["fought"] = True
    ctx["chain"] = chain
    for u in (*att, *dfn):  # §17.22: the brigades engaged in step 6b (guns never tire)
        if u.kind != "artillery" and u.brigade not in ctx["fought"]:
            ctx["fought"].append(u.brigade)
    att_hexes = {h for a in att for h in a.hexes}
    def_hexes = set(live)
    routed: set[str] = set()
    ev += _write_effects(game, f.defender, att_hexes, routed)
    ev += extended_combat.gather_after_roll(  # 002 §8.49: before it moves
        game, ctx, atts, retreating={*f.attacker.retreats, *f.attacker.routs},
        vacated=not any(_live(game, h, seat) for h in live),
        continues=f.attacker_continues != "none")
    ev += _write_effects(game, f.attacker, def_hexes, routed)
    moved, adv = _advance(game, att, def_hexes, routed)
    ev += adv
    cont = f.attacker_continues
    group = moved
    if cont != "none" and not moved and any(_live(game, h, seat) for h in live):
        # §11.47: a defender that could not retreat is shocked again where it stands
        group = [a for a in atts if _present(game, a) and a not in routed]
    ctx["continue_group"] = (group if cont != "none" else [], cont == "must")
    if f.defender_counterattacks:  # §11.47: an adjusted 1 or less, the defender may go on
        left = sorted({_hex_id(game, h) for h in att_hexes
                       if not _live(game, h, other(seat))})
        ctx["counter_group"] = ([d for d in dkeys if _present(game, d) and d not in routed
                                 and combatant_of(game, d).kind != "artillery"
                                 and game.orders_of(d) in ("advance", "attack")], left)
    return shock_fog.fog(game, ev, seat)  # 002 §17.31: fatigue is the owner's


def _write_effects(game: GbacwGame, eff: Effects, causing: set[Hex], routed: set[str]
                   ) -> list[Event]:
    """Write one side's shock results (002 §11.45, §12.2-12.5): losses, disorder, Blown,
    abandoned guns, routs, then the retreats of those that did not rout."""
    p = game.pos
    ev: list[Event] = []
    for k, n in eff.losses.items():
        p.units[k].lost += n
    ev += results_step.leader_losses(game, dict(eff.losses))  # 002 §12.71
    for d in eff.disorders:
        if d.disordered or d.second:
            p.units[d.unit].disordered = True
        if d.blown:
            charge_step.mark_blown(game, d.unit)
    for k in eff.collapsed:  # 002 §12.23: the marker, and its disordered face
        p.units[k].collapsed = p.units[k].disordered = True
    for k in eff.abandoned:
        p.units[k].abandoned = p.units[k].abandoned or "abandoned-1"  # 002 §12.36
    for k in eff.routs:
        p.units[k].routed = True
        routed.add(k)
    for k, need in sorted(eff.retreats.items()):
        if k not in routed:
            ev += _retreat(game, k, need, causing)
    return ev


def _end_series(game: GbacwGame, ctx: dict[str, Any]) -> list[Event]:
    """Step 6e (002 §11.48) after a shock or a series of continued shocks, on the units
    that took part in step 6b and did not rout, as they stood before their first roll
    (attackers: the side that rolled)."""
    chain = ctx.get("chain")
    ctx["chain"] = None
    if not chain or not chain["fought"]:
        return []
    p = game.pos

    def now(keys: list[str]) -> list[Combatant]:
        out = []
        for k in keys:
            if not _present(game, k):
                continue
            out.append(combatant_of(game, k).with_(disordered=k in chain["was"]))
        return out

    routed = {k for k in (*chain["att"], *chain["dfn"]) if p.units[k].routed}
    post = post_shock_disorder(now(chain["att"]),
                               now([k for k in chain["dfn"] if k not in chain["att"]]),
                               routed=routed)
    for k in post.disordered:
        p.units[k].disordered = True
    for k in post.blown:
        charge_step.mark_blown(game, k)
    for k, n in post.losses.items():
        p.units[k].lost += n
    return [Event("shock_post_disorder", "11.48", post.to_json())]


def _finish(game: GbacwGame, seat: str, ctx: dict[str, Any]) -> list[Event]:
    """After the last shock of a designation: March brigades shocked go to Advance orders
    and their other units take a UDD (002 §6.26, §11.48); each brigade engaged in step 6b
    counts one shock phase for fatigue (§17.22, with the fatigue rule)."""
    return shock_after.finish(game, seat, ctx)


def _vacated(game: GbacwGame, h: Hex, seat: str) -> bool:
    """The defenders left ``h``, or only abandoned guns remain (002 §11.46)."""
    return not _live(game, h, seat)


def _advance(game: GbacwGame, attackers: list[Combatant], targets: set[Hex],
             routed: set[str]) -> tuple[list[str], list[Event]]:
    """002 §11.46, §12.6: when the defenders have left a shocked hex (or left only abandoned
    guns), every attacker that can must advance into it, chargers first, then upper units
    (``retreat.advance_order``), within the stacking limits; facing kept (the vertex turn
    §11.46 allows is not offered); the hex's D/d check met on entering (§12.6). Readings:
    each attacker goes into the first vacated target next to it (by hex); guns the advance
    reaches are manned again (§12.81). Returns the units that advanced and the events."""
    ev: list[Event] = []
    moved: list[str] = []
    p = game.pos
    if not attackers:
        return moved, ev
    seat = attackers[0].side
    open_hexes = sorted((h for h in targets if _vacated(game, h, seat)),
                        key=lambda x: (x.q, x.r))
    if not open_hexes:
        return moved, ev
    for a in advance_order(attackers):
        u = p.units[a.unit]
        if a.unit in routed or u.facing is None or not _present(game, a.unit):
            continue
        for h in open_hexes:
            data = advance_unit(game, a.unit, h, rule="11.46")
            if data is not None:
                ev.append(Event("shock_advance", "11.46", data))
                moved.append(a.unit)
                break
    return moved, ev


def advance_unit(game: GbacwGame, key: str, h: Hex, *, rule: str,
                 facing: Facing | None = None) -> dict[str, Any] | None:
    """Advance ``key`` into the adjacent hex ``h`` if :func:`advance_need` allows it, with
    the hex's D/d check; returns the event's data, or None when it may not (002 §11.46, §12.6)."""
    if facing is None:  # 002 §8.47: a line advances extended when it can
        done = extended_combat.advance_extended(game, key, h, rule=rule)
        if done is not None:
            return done
    need = advance_need(game, key, h, facing=facing)
    if need is None:
        return None
    p = game.pos
    u = p.units[key]
    me = combatant_of(game, key)
    hid = _hex_id(game, h)
    retracted = retract(game, key)
    frm, u.hex = u.hex, hid
    if facing is not None:
        u.facing = facing
    data: dict[str, Any] = {"unit": key, "from": frm, "to": hid}
    if retracted:
        data["retracted"] = retracted
    data.update(terrain_check(game, me, need, rule))
    for k, x in p.units.items():  # §12.81: guns reached by the advance
        if x.hex == hid and x.seat == u.seat and x.abandoned is not None:
            x.abandoned = None
            x.disordered = True
            data.setdefault("recrewed", []).append(k)
    return data


def retract(game: GbacwGame, key: str) -> list[str]:
    """002 §8.49: an extended attacker gathers into its counter's hex before it advances or
    continues a shock (a reading: the engine does not offer the pivot); the hexes given
    up."""
    u = game.pos.units[key]
    if u.extension is None:
        return []
    gone = list(u.extends)
    u.extension, u.extends, u.refused = None, [], []
    return gone


def terrain_check(game: GbacwGame, me: Combatant, need: str, rule: str) -> dict[str, Any]:
    """A hex's D (automatic disorder) or d (a UDD) met by an advancing unit (002 §12.6)."""
    u = game.pos.units[me.unit]
    if need == "auto":
        u.disordered = True
        return {"terrain": "D"}
    if need == "udd":
        c = check(game.dice, me, "advance into terrain", rule)
        u.disordered = u.disordered or not c.passed
        return {"terrain": c.to_json()}
    return {}


def _disorder(game: GbacwGame, d: Disorder, *, causing: set[Hex], ev: list[Event],
              sp: bool = True) -> None:
    """Write one disorder result (002 §12.3) to the position; ``sp=False`` when the caller
    writes the stack's one SP itself (§12.35e: a pre-shock check's ``losses``)."""
    u = game.pos.units[d.unit]
    if d.disordered or d.second:
        u.disordered = True
    if sp:
        u.lost += d.sp_loss
    if d.blown:
        charge_step.mark_blown(game, d.unit)
    if d.abandoned:
        u.abandoned = u.abandoned or "abandoned-1"
    if d.rout:
        u.routed = True
    elif d.retreat:
        ev += _retreat(game, d.unit, d.retreat, causing)


def _class(game: GbacwGame, key: str) -> UnitClass:
    return unit_class(game.counter(key))


def _retreat(game: GbacwGame, key: str, need: tuple[int, int], causing: set[Hex]
             ) -> list[Event]:
    """Carry out a retreat (002 §12.41-12.47) through :func:`results_step.retreat`: the
    owner's choice of path when more than one is allowed, friends passed through check."""
    return results_step.retreat(game, key, need, causing, event="shock_retreat")


# --- the answers that go back into the shock flow (moved here from continued_shock and
# charge_step, which the flow imports: no import cycle) ------------------------------------


def answer_after_shock(game: GbacwGame, action: Action, seat: str) -> list[Event]:
    """Carry out ``continue_shock``, ``shock_advance`` or ``end_shock`` (002 §11.35, §11.47;
    the options and checks are :mod:`continued_shock`'s)."""
    continued_shock.check(game, action, seat)
    pos = game.pos
    p = pos.pending
    assert p is not None
    queue, ctx = list(p["queue"]), dict(p["ctx"])
    if action["type"] == "shock_advance":
        h = game.hex_of(str(action["to"]))
        assert h is not None
        data = advance_unit(game, str(action["unit"]), h, rule="11.35")
        assert data is not None
        p["units"] = [k for k in p["units"] if k != action["unit"]]
        ev = [Event("shock_advance", "11.35", data)]
        if continued_shock.advance_options(game):
            return ev
        pos.pending = None
        return ev + _end_series(game, ctx) + _run(game, seat, queue, ctx)
    if action["type"] == "end_shock":
        pos.pending = None
        ev = [Event("shock_ended", "11.35" if p.get("voluntary") else "11.47",
                    {"units": list(p["units"]), "declined": True})]
        return ev + _end_series(game, ctx) + _run(game, seat, queue, ctx)
    # continue_shock
    group = continued_shock._group(game, list(p["units"]))
    to = game.hex_of(str(action["to"]))
    f = Facing.from_json(action["facing"])
    path, targets = continued_shock._moves(game, p)[(to, f)]  # type: ignore[index]
    n = int(p["continued"])
    ev = [Event("shock_continue", "11.47", {
        "units": group, "continued": n, "path": [_hex_id(game, h) for h in path],
        "facing": f.to_json(), "targets": [_hex_id(game, h) for h in targets],
        **({"counterattack": True} if p.get("counter") else {})})]
    prev = game.hex_of(pos.units[group[0]].hex)
    for k in group:  # 002 §8.49: an extended line gathers before it goes on
        gone = retract(game, k)
        if gone:
            ev.append(Event("shock_retract", "8.49", {"unit": k, "hexes": gone}))
    for h in path:  # 002 §11.47: the hexes' D/d checks on the way (§12.6)
        assert prev is not None
        for k in group:
            me = combatant_of(game, k)
            step = entry_cost(game.cat.board, prev, h, unit_class=continued_shock._class(game, k),
                              orders=game.orders_of(k),  # type: ignore[arg-type]
                              use_paths=False)
            assert not isinstance(step, RuleError)
            pos.units[k].hex = _hex_id(game, h)
            data = terrain_check(game, me, str(step.disorder), "11.47")
            if data:
                ev.append(Event("shock_advance", "11.47", {"unit": k, "to": _hex_id(game, h),
                                                           **data}))
        prev = h
    for k in group:
        pos.units[k].facing = f
    item: dict[str, Any] = {"attackers": group, "targets": [_hex_id(game, h) for h in targets],
                            "continued": n, "seat": seat}
    if p.get("counter"):  # §11.72 for the counter-attacking brigade's own shock
        item["no_brigadier"] = no_brigadier([combatant_of(game, k) for k in group])
    pos.pending = {"kind": "shock", "seat": seat, "continued": n, "shocks": [item],
                   "withdrawn": [], "ctx": {**ctx, "rest": queue}}
    if not withdraw_options(game):
        ev += resolve(game)
    return ev


def answer_counter_charge(game: GbacwGame, action: Action, seat: str) -> list[Event]:
    """Roll (on Advance) or take (on Attack) the counter-charge of ``unit``'s stack
    (002 §11.56; the options and checks are :mod:`charge_step`'s)."""
    check_defender(game, action, seat)
    pend = game.pos.pending
    assert pend is not None
    key = str(action["unit"])
    attackers = dict(_defenders(game))[key]
    first = game.dice.counter
    cc = counter_charge(game.dice, combatant_of(game, key),
                        [combatant_of(game, a) for a in attackers],
                        fired_this_activation=bool({"return", "withdrawal"}
                                                   & set(game.pos.units[key].fired)))
    here = game.pos.units[key].hex
    stack = [k for k, u in game.pos.units.items() if u.hex == here and u.seat != pend["seat"]]
    pend["cc_tried"] = sorted({*pend.get("cc_tried", []), *stack})
    ctx: dict[str, Any] = pend.setdefault("ctx", {})
    if cc.counter_charged:
        ctx["counter_charged"] = sorted({*ctx.get("counter_charged", []), *stack})
    ev: list[Event] = []
    if game.dice.counter > first:
        ev.append(dice_event(game.dice.rolls_since(first)))
    ev.append(Event("counter_charge", "11.56", {"unit": key, "stack": stack, **cc.to_json()}))
    ev = shock_fog.fog(game, ev)  # 002 §17.31: the defender's fatigue on its UDD
    if not defender_decides(game):
        ev += resolve(game)  # nothing left to decide before the checks
    return ev
