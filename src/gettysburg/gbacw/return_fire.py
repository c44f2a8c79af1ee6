"""Return fire in the GBACW engine (002 §10.42, §10.17): the non-phasing player's answer to
a phasing shot, decided before either is rolled, both applied together.

When a phasing ``fire`` finds a non-phasing unit that may fire back (the target, or a unit
next to the target or to the firer that is not in another enemy's front hex, with the firer
in its arc, range and sight; return fire unused this enemy brigade activation), the shot is
kept in ``Position.pending`` (``{"kind": "fire", "seat", "action"}``) and ``to_move`` names
the defender. It answers ``return_fire`` with one of those units (at the firer's hex) or
``hold``. Then the phasing shot and the return shot are both rolled on the position as it
stood, and only then applied: simultaneous, as §10.17 has it. A shell shot (artillery at
shell range) is applied first (§10.17's exception), so no answer is asked: the engine
offers none then (a reading that keeps the decision before any roll).

Readings: one return shot per phasing shot (several units could answer, §10.42; the engine
asks for one); the defender decides before seeing the phasing roll (both are simultaneous).

The non-phasing reserve (002 §10.15, §10.41) lives here for every kind of non-phasing fire:
a unit that splits fires the larger half now and holds the rest back (a ``fired`` entry
``reserve:<SP>@<hex>``, gone with ``fired`` at the end of the enemy activation); its next
non-phasing shot, of any kind, fires that reserve (or what it has left, if fewer) at another
hex and is its last one in that activation (``reserve_used``). **Reading**: §10.15 limits a
unit that splits to two shots, so the reserve shot replaces the full shot §10.41 would give
a kind not yet used.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import Action, Event, RuleError

from . import reaction_step
from .charts import all_charts
from .fire import (
    FireKind,
    Firer,
    check_may_fire,
    check_rapid_fire,
    check_reserve,
    check_target,
    even_split,
    may_return_fire,
    reserved_shot,
)
from .fire_action import (
    COMBINED_SMALL_ARMS,
    FireOrder,
    FirePlan,
    ShotDone,
    ammunition_events,
    apply_shot,
    check_order,
    combine_small_arms_plans,
    extended_line,
    fire_sp,
    firer_of,
    line_plan,
    line_sp,
    mark_fired,
    occupied_hexes,
    roll_shot,
    second_disordered,
    shot_events,
    spencer,
    spencer_round,
    stack_keys,
    unit_rule_of,
)
from .fire_result import Modifier
from .shock_action import combatant_of, parts

if TYPE_CHECKING:
    from .engine_view import GameView as GbacwGame


def _kinds(fired: list[str]) -> list[FireKind]:
    known: tuple[FireKind, ...] = ("phasing", "return", "pre_shock", "withdrawal", "approach")
    return [k for k in known if k in fired]


RESERVE = "reserve:"  # a ``fired`` entry "reserve:<SP>@<hex id>": SP held back (§10.15)
RESERVE_USED = "reserve_used"  # the split's second shot is fired: no more non-phasing fire
ANSWERS = ("return_fire", "return_fire_reserve", "rapid_return_fire", "hold")


def held_back(game: GbacwGame, key: str) -> tuple[int, str] | None:
    """The SP ``key`` holds back for a second non-phasing shot and the hex of its first
    (002 §10.15), or None."""
    for entry in game.pos.units[key].fired:
        if entry.startswith(RESERVE):
            sp, _, hid = entry[len(RESERVE):].partition("@")
            return int(sp), hid
    return None


def may_reserve(game: GbacwGame, key: str) -> bool:
    """Whether ``key`` may split its next non-phasing shot, holding SP back (002 §10.15,
    §10.41): it holds no reserve, has not fired one, and fires at least 2 SP."""
    return held_back(game, key) is None and RESERVE_USED not in game.pos.units[key].fired \
        and fire_sp(game, key) >= 2


def shot_plan(game: GbacwGame, key: str, target: Hex, kind: FireKind = "return") -> FirePlan:
    """A non-phasing shot of ``key`` at ``target`` (return fire: the phasing firer's hex;
    pre-shock fire: an attacker's hex; withdrawal or approach fire: the mover's hex), or a
    RuleError (002 §10.4). A unit that held SP back from an earlier non-phasing shot fires
    them (or what it has left, if fewer) at another hex with fire of any kind, once (002
    §10.15, example 2); after that it fires no more non-phasing fire this activation.
    With the optional §10.82 (game option ``combined_small_arms``) the small-arms units
    stacked with ``key`` that may fire the same kind at ``target`` fire with it as one
    shot, and a stack that split fires its reserve as one (§10.82 with §10.15)."""
    plan = _own_plan(game, key, target, kind)
    if COMBINED_SMALL_ARMS not in game.setup.options or plan.firer.artillery or \
            extended_line(game, key):
        return plan
    partners = _partners(game, key)
    reserve = held_back(game, key)
    if reserve is not None:  # the stack's reserve: the units that split with it fire it
        if not partners:
            return plan
        left = sum(fire_sp(game, k) for k in (key, *partners))
        return replace(plan, sp=reserved_shot(reserve[0], left), units=(key, *partners))
    seat = game.pos.units[key].seat
    plans = [plan]
    for k in stack_keys(game, plan.firer.hex):
        if k == key or game.pos.units[k].seat != seat or held_back(game, k) is not None \
                or extended_line(game, k):
            continue
        try:
            other = _own_plan(game, k, target, kind)
        except RuleError:
            continue
        if not other.firer.artillery and other.shot.refused_side == plan.shot.refused_side:
            plans.append(other)
    return combine_small_arms_plans(game, plans)


def _partners(game: GbacwGame, key: str) -> tuple[str, ...]:
    """The units stacked with ``key`` that split their fire with it as one stack (002
    §10.82): each holds a reserve of 0 SP at the hex of ``key``'s first shot."""
    mine = held_back(game, key)
    here = game.hex_of(game.pos.units[key].hex)
    if mine is None or here is None:
        return ()
    return tuple(k for k in stack_keys(game, here)
                 if k != key and game.pos.units[k].seat == game.pos.units[key].seat
                 and held_back(game, k) == (0, mine[1]))


def _own_plan(game: GbacwGame, key: str, target: Hex, kind: FireKind) -> FirePlan:
    """``key``'s own non-phasing shot (:func:`shot_plan` without §10.82's stack)."""
    firer: Firer = firer_of(game, key, phasing=False)
    kinds = _kinds(game.pos.units[key].fired)
    if RESERVE_USED in game.pos.units[key].fired:
        raise RuleError("10.15", f"{key} split its fire and has fired both shots")
    reserve = held_back(game, key)
    if reserve is not None:
        if reserve[1] == game.cat.board.hexes[target].id:
            raise RuleError("10.15", f"{key} may not fire twice at one hex")
        kinds = [k for k in kinds if k != kind]  # the reserve serves any later kind
    check_may_fire(firer, kind, fired_kinds=kinds)
    turned = reaction_step.artillery_fire_drm(game, key) if firer.artillery else 0
    extra = (Modifier("reaction-facing", turned, "9.62"),) if turned else ()
    if extended_line(game, key):  # 002 §8.45: by its parts, as phasing fire
        cap = None if reserve is None else reserved_shot(reserve[0], line_sp(game, key))
        if cap is not None and cap < 1:
            raise RuleError("8.33", f"{key} has no SP left to fire")
        return line_plan(game, firer, target, kind=kind, cap=cap, extra=extra)
    sp = fire_sp(game, key)
    if reserve is not None:
        sp = reserved_shot(reserve[0], sp)
    if sp < 1:
        raise RuleError("8.33", f"{key} may fire no SP from its hex")
    seat = game.pos.units[key].seat
    occupied = occupied_hexes(game)
    friends = {h for u in game.pos.units.values()
               if u.seat == seat and (h := game.hex_of(u.hex)) is not None}
    light = all_charts().turn_track.turns()[game.pos.turn].light
    shot = check_target(game.cat.board, all_charts().range, firer, target, kind=kind,
                        blockers=occupied - {firer.hex, target}, friends=friends,
                        light=light, unit_rule=unit_rule_of(game, key))  # 004 §14.4
    return FirePlan(firer, target, sp, shot, extra=extra)


def _in_other_front(game: GbacwGame, key: str, firer_hex: Hex) -> bool:
    """Whether ``key`` stands in the front hex of an enemy in a hex other than the firer's."""
    u = game.pos.units[key]
    here = game.hex_of(u.hex)
    if here is None:
        return False  # no front holds a unit off the map
    for k, e in game.pos.units.items():
        h = game.hex_of(e.hex)
        if e.seat == u.seat or h is None or h == firer_hex or e.facing is None:
            continue
        # a front hex is next to one of the unit's hexes: only those near are built
        if h.distance(here) > 1 and not any(here.distance(x) == 1 for x in parts(game, k)):
            continue
        try:
            if here in combatant_of(game, k).fronts():
                return True
        except RuleError:
            continue
    return False


def answers(game: GbacwGame, plan: FirePlan | FireOrder) -> list[str]:
    """The non-phasing units that may return the phasing shot(s) ``plan`` (002 §10.42): for
    an order, those that may answer any of its shots (split fire: any target)."""
    if isinstance(plan, FireOrder):
        out: set[str] = set()
        for p in plan.plans:
            out.update(answers(game, p))
        return sorted(out)
    if plan.shot.ammunition == "shell":
        return []
    seat = game.pos.units[plan.firer.unit].seat
    found = []
    for k, u in sorted(game.pos.units.items()):
        h = game.hex_of(u.hex)
        if u.seat == seat or h is None:
            continue
        if h.distance(plan.target) > 1 and h.distance(plan.firer.hex) > 1:
            continue
        if not may_return_fire(h, target_hex=plan.target, firer_hex=plan.firer.hex,
                               enemy_front_of_other=h != plan.target and _in_other_front(
                                   game, k, plan.firer.hex)):
            continue
        try:
            shot_plan(game, k, plan.firer.hex)
        except RuleError:
            continue
        found.append(k)
    return found


def defer(game: GbacwGame, action: Action, seat: str) -> list[Event] | None:
    """Keep a phasing fire action for the defender's answer when one is possible (None: roll
    it now) (002 §10.42)."""
    order = check_order(game, action, seat)
    if not answers(game, order):
        return None
    game.pos.pending = {"kind": "fire", "seat": seat, "action": dict(action)}
    targets = [game.cat.board.hexes[p.target].id for p in order.plans]
    return [Event("fire_declared", "10.42", {"unit": order.firer.unit,
                                             "target": targets[0],
                                             "targets": sorted(set(targets)),
                                             "kind": order.kind})]


def options(game: GbacwGame) -> list[Action]:
    """The defender's answers to a declared phasing shot: each unit that may fire back, at what, or
    hold (002 §10.42)."""
    p = game.pos.pending
    assert p is not None
    try:
        order = check_order(game, p["action"], str(p["seat"]))
    except RuleError:
        return [{"type": "hold"}]  # the shot no longer stands: `answer` says why
    out: list[Action] = []
    for k in answers(game, order):
        out.append({"type": "return_fire", "unit": k})
        if "return" not in game.pos.units[k].fired and may_reserve(game, k):
            out.append({"type": "return_fire_reserve", "unit": k})  # 002 §10.15
        if _rapid_ok(game, k, order.firer.hex):
            out.append({"type": "rapid_return_fire", "unit": k})  # 002 §10.68
    return [*out, {"type": "hold"}]


def _rapid_ok(game: GbacwGame, key: str, target: Hex) -> bool:
    """A non-phasing smoothbore battery may return fire twice at 1-3 hexes (002 §10.68); it
    has spent no MP in this enemy activation."""
    try:
        plan = shot_plan(game, key, target)
        check_rapid_fire(all_charts().range, replace(plan.firer, moved_mp=0), plan.shot.hexes)
    except RuleError:
        return False
    return plan.shot.ammunition == "canister" and not plan.extra  # no rapid fire (§9.62)


def check(game: GbacwGame, action: Action, seat: str) -> None:
    """Refuse a return-fire answer when no shot waits, from the wrong seat or by a unit that may not
    fire back (002 §10.42)."""
    p = game.pos.pending
    if p is None or p.get("kind") != "fire":
        raise RuleError("10.42", "no phasing shot waits for an answer")
    if seat == p["seat"]:
        raise RuleError("10.42", "the defender answers the shot now")
    if action["type"] in ANSWERS[:3] and action not in options(game):
        raise RuleError("10.42", f"{action.get('unit')} may not return this fire (not the "
                        "target or next to it or the firer, in another enemy's front hex, "
                        "out of arc, range or sight, or return fire used)")


def _roll_order(game: GbacwGame, order: FireOrder) -> list[ShotDone]:
    dones: list[ShotDone] = []
    for plan in order.plans:
        prev = dones[-1].outcome if order.rapid and dones else None
        dones.append(roll_shot(game, plan, prev))
    return dones


def _apply(game: GbacwGame, dones: list[ShotDone]) -> list[Event]:
    ev: list[Event] = []
    for done in dones:
        ev += shot_events(game, done)
        apply_shot(game, done)
    return ev


def answer(game: GbacwGame, action: Action, seat: str) -> list[Event]:
    """Roll the kept phasing fire and the answer (if any), then apply them (002 §10.17,
    §10.42): simultaneous, except that a phasing Spencer unit fires and applies first and
    fires its second round after the return fire (§14.31, §14.34); a returning Spencer
    unit fires a second round after both applied (§14.32), or with them against rapid fire
    (§14.37)."""
    check(game, action, seat)
    p = game.pos
    assert p.pending is not None
    phasing_action, phasing_seat = p.pending["action"], str(p.pending["seat"])
    try:
        order = check_order(game, phasing_action, phasing_seat)
    except RuleError as exc:
        # something since the declaration (a reaction, a retreat) took the shot's target or
        # its sight away: the shot is not fired, and the firer keeps its fire
        p.pending = None
        return [Event("fire_lost", exc.rule, {"unit": phasing_action.get("unit"),
                                              "reason": str(exc)})]
    back: FirePlan | None = None
    keep = 0
    rapid = action["type"] == "rapid_return_fire"
    if action["type"] in ANSWERS[:3]:
        back = shot_plan(game, str(action["unit"]), order.firer.hex)
        if action["type"] == "return_fire_reserve":
            back, keep = split_reserve(back)
    p.pending = None
    ev: list[Event] = []
    if order.spencer:  # 002 §14.31: the Spencer fires and applies first
        dones = _roll_order(game, order)
        ev += _apply(game, dones)
        mark_fired(game, order.shooters, "phasing")
        ev += ammunition_events(game, order.shooters, [d.roll.roll for d in dones])
        returned: list[ShotDone] = []
        if back is not None:
            try:
                share = back.sp if keep else None
                back = shot_plan(game, back.firer.unit, order.firer.hex)
                if share is not None:
                    back = replace(back, sp=min(share, back.sp))
            except RuleError as exc:
                ev.append(Event("return_fire_lost", exc.rule, {"unit": back.firer.unit,
                                                               "reason": str(exc)}))
                back = None
        if back is not None and rapid:  # 002 §14.38: Spencer and guns alternate
            return ev + _alternate(game, order, back, dones)
        if back is not None:
            returned = [roll_shot(game, back)]
            ev.append(Event("return_fire", "14.31", {"unit": back.firer.unit}))
            ev += _apply(game, returned)
            mark_fired(game, back.shooters, "return")
            ev += ammunition_events(game, back.shooters, [returned[0].roll.roll])
            ev += _spencer_back(game, back, returned)
        if not second_disordered(returned[0].outcome if returned else None,
                                 order.firer.unit) and not any(
                second_disordered(d.outcome, order.firer.unit) for d in dones):
            ev += spencer_round(game, order.plans[0])
        return ev + _booked(game, back, keep)
    dones = _roll_order(game, order)
    answered: list[ShotDone] = []
    if back is not None:
        answered = [roll_shot(game, back)]
        if rapid:  # 002 §10.68: the second falls on the first's result, both simultaneous
            answered.append(roll_shot(game, back, answered[0].outcome))
        elif order.rapid and lone_spencer(back):  # 002 §14.37: all rolled, then applied
            answered.append(roll_shot(game, back, second_round=True))
    ev += _apply(game, dones)
    if back is not None:
        ev.append(Event("return_fire", "10.42", {"unit": back.firer.unit}))
        ev += _apply(game, answered)
    mark_fired(game, order.shooters, "phasing")
    ev += ammunition_events(game, order.shooters, [d.roll.roll for d in dones],
                            rapid=order.rapid)
    if back is not None:
        mark_fired(game, back.shooters, "return")
        rolls = [d.roll.roll for d in answered]
        if rapid:
            ev += ammunition_events(game, back.shooters, rolls, rapid=True)
        else:
            ev += ammunition_events(game, back.shooters, rolls[:1], second=rolls[1:])
        if len(answered) == 1:
            ev += _spencer_back(game, back, dones + answered)
    return ev + _booked(game, back, keep)


def _booked(game: GbacwGame, back: FirePlan | None, keep: int) -> list[Event]:
    return [] if back is None else book_reserve(game, back.firer.unit, back.target, keep,
                                                back.shooters[1:])


def split_reserve(plan: FirePlan) -> tuple[FirePlan, int]:
    """A non-phasing shot split as evenly as possible: the larger half fired now, the rest
    held back (002 §10.15); the plan of the shot now and the SP kept."""
    now, keep = even_split(plan.sp, 2)
    check_reserve(plan.sp, now, keep)
    return replace(plan, sp=now), keep


def book_reserve(game: GbacwGame, key: str, target: Hex, keep: int = 0,
                 partners: tuple[str, ...] = ()) -> list[Event]:
    """After a non-phasing shot of ``key`` at ``target``: record the SP it held back
    (``keep``; ``partners``: the units of its stack that fired with it, under the optional
    §10.82, hold a share of 0), or use up the reserve that shot fired, its stack's with it
    (002 §10.15)."""
    u = game.pos.units[key]
    if held_back(game, key) is not None:
        for k in (key, *_partners(game, key)):
            v = game.pos.units[k]
            v.fired = [f for f in v.fired if not f.startswith(RESERVE)] + [RESERVE_USED]
        return []
    if keep:
        hid = game.cat.board.hexes[target].id
        u.fired = [*u.fired, f"{RESERVE}{keep}@{hid}"]
        for k in partners:
            v = game.pos.units[k]
            v.fired = [*v.fired, f"{RESERVE}0@{hid}"]
        data: dict[str, object] = {"unit": key, "sp": keep}
        if partners:
            data["with"] = list(partners)
        return [Event("fire_reserved", "10.15", data)]
    return []


def _alternate(game: GbacwGame, order: FireOrder, back: FirePlan,
               dones: list[ShotDone]) -> list[Event]:
    """002 §14.38: a phasing Spencer against a battery answering with rapid fire: the
    Spencer's rounds and the guns' shots alternate, the Spencer first (its first round is
    already applied); guns disordered by a Spencer round fire no more."""
    ev: list[Event] = [Event("return_fire", "14.38", {"unit": back.firer.unit})]
    gun = back.firer.unit
    spencer_key = order.firer.unit
    rolls: list[int] = []
    fired_any = False
    for turn in range(2):
        if game.pos.units[gun].disordered or game.pos.units[gun].hex is None:
            break
        try:
            plan = shot_plan(game, gun, order.firer.hex)
        except RuleError:
            break
        fired_any = True
        done = roll_shot(game, replace(plan, sp=min(plan.sp, back.sp)))
        rolls.append(done.roll.roll)
        ev += _apply(game, [done])
        if turn == 0 and not second_disordered(done.outcome, spencer_key) and not any(
                second_disordered(d.outcome, spencer_key) for d in dones):
            ev += spencer_round(game, order.plans[0])
    if fired_any:
        mark_fired(game, (gun,), "return")
        ev += ammunition_events(game, (gun,), rolls, rapid=True)
    return ev


def lone_spencer(plan: FirePlan) -> bool:
    """A Spencer unit firing alone (002 §14.3): a stack's combined shot (§10.82) has no
    second round, as in phasing fire."""
    return spencer(plan.firer) and len(plan.shooters) == 1


def _spencer_back(game: GbacwGame, back: FirePlan, before: list[ShotDone]) -> list[Event]:
    """002 §14.32: a returning Spencer unit in good order that suffered no 2nd disorder
    fires a second round of return fire."""
    if not lone_spencer(back) or any(second_disordered(d.outcome, back.firer.unit)
                                      for d in before):
        return []
    return spencer_round(game, back)
