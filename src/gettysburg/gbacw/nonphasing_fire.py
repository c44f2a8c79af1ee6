"""Withdrawal fire (002 §10.44) and artillery approach fire (§10.45) in the GBACW engine:
the non-phasing seat's shots in the middle of a phasing move, through ``Position.pending``.

* **Withdrawal fire.** A phasing ``move`` that leaves a hex adjacent to, and in the front of,
  non-phasing infantry or cavalry that may fire at it (arc, range, sight; withdrawal fire
  unused this enemy brigade activation) is held before the unit moves: ``pending`` =
  ``{"kind": "withdrawal", "seat", "action", "unit", "hex", "limit"}`` and the defender
  answers ``withdrawal_fire`` {unit} (one eligible unit at a time, all before the move) or
  ``let_pass``. The shot goes at the hex being left, at its top unit when others stay
  there (§8.35). Then the move goes on as far as the results allow
  (:func:`fire_result.withdrawal_after_fire`): a failed UDD, a D or a step loss cut it to
  the first hex of its path; a 2nd disorder, a rout or the unit's loss stop it (the 2nd
  Disorder chart's result replaces the move). A Spencer unit fires twice (§14.35).
* **Approach fire.** After a phasing ``move`` ends within 3 hexes of non-phasing artillery
  that may fire at the mover's new hex (arc, range, sight; approach fire unused this enemy
  brigade activation), ``pending`` = ``{"kind": "approach", "seat", "unit", "hex"}`` and
  the defender answers ``approach_fire`` {unit} (a battery at a time) or ``let_pass``.

* **The reserve (002 §10.15, §10.41).** Each firer may also answer
  ``withdrawal_fire_reserve`` / ``approach_fire_reserve`` {unit}: the larger half of its SP
  now, the rest held back for its next non-phasing shot of any kind at another hex
  (``return_fire.book_reserve``); a unit holding a reserve fires it with whatever kind
  comes next (``return_fire.shot_plan``).

Readings: a move is one action from its start to its end hex, so approach fire is offered
where the move ends (not at each hex it passes); when the move also asks a reaction (002
§9.61-9.63) that answer comes first and approach fire is offered after it, at the phasing
unit on top in the hex the move ended in.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import Action, Event, RuleError

from .facing import Facing
from .fire import may_approach_fire, may_withdrawal_fire
from .fire_action import (
    FirePlan,
    ammunition_events,
    apply_shot,
    firer_of,
    mark_fired,
    roll_shot,
    shot_events,
    spencer_round,
    stack_keys,
)
from .fire_result import withdrawal_after_fire
from .return_fire import book_reserve, lone_spencer, may_reserve, shot_plan, split_reserve
from .shock_action import combatant_of

if TYPE_CHECKING:
    from .engine_view import GameView as GbacwGame

KINDS = ("withdrawal", "approach")
RESERVING = ("withdrawal_fire_reserve", "approach_fire_reserve")  # 002 §10.15
ACTION_KINDS = ("withdrawal_fire", "approach_fire", *RESERVING, "let_pass")
_LIMITS = ("full", "one_hex", "none")  # worst last


def _fronts(game: GbacwGame, key: str) -> set[Hex]:
    try:
        return set(combatant_of(game, key).fronts())
    except RuleError:
        return set()


def withdrawal_firers(game: GbacwGame, mover: str, leaving: Hex) -> list[str]:
    """Non-phasing infantry and cavalry that may fire at ``mover`` leaving ``leaving``
    (002 §10.44): the hex is adjacent and in their front, and they may fire at it now."""
    seat = game.pos.units[mover].seat
    out = []
    for k, u in sorted(game.pos.units.items()):
        h = game.hex_of(u.hex)
        if u.seat == seat or h is None or h.distance(leaving) != 1:
            continue
        try:
            firer = firer_of(game, k, phasing=False)
        except RuleError:
            continue
        if not may_withdrawal_fire(firer, leaving=leaving, front=_fronts(game, k),
                                   voluntary_move=True):
            continue
        try:
            shot_plan(game, k, leaving, "withdrawal")
        except RuleError:
            continue
        out.append(k)
    return out


def approach_firers(game: GbacwGame, mover: str, entered: Hex) -> list[str]:
    """Non-phasing batteries that may fire at ``mover`` in ``entered`` (002 §10.45)."""
    seat = game.pos.units[mover].seat
    out = []
    for k, u in sorted(game.pos.units.items()):
        h = game.hex_of(u.hex)
        if u.seat == seat or h is None or h.distance(entered) > 3:
            continue
        if f"moved:{k}" in game.pos.reacted:  # it reaction-moved away (002 §9.63)
            continue
        try:
            firer = firer_of(game, k, phasing=False)
        except RuleError:
            continue
        if not may_approach_fire(firer, entered=entered):
            continue
        try:
            shot_plan(game, k, entered, "approach")
        except RuleError:
            continue
        out.append(k)
    return out


def before_move(game: GbacwGame, action: Action, seat: str) -> list[Event] | None:
    """Hold a phasing move for withdrawal fire when someone may fire (None: move now).
    The move's own run after the answers is marked on the game while it lasts (002 §10.44-10.45)."""
    run: Any = game
    pend = game.pos.pending
    # a reaction to a move is answered first; approach fire follows it (after_move)
    run._approach_after = str(pend["trigger"]) if pend is not None and \
        pend.get("kind") == "reaction" and pend.get("cause") == "move" else None
    if action.get("type") != "move":
        return None
    key = str(action["unit"])
    if getattr(game, "_withdrawal_cleared", None) == key:
        return None
    here = game.hex_of(game.pos.units[key].hex)
    if here is None or game.pos.pending is not None:
        return None
    if not withdrawal_firers(game, key, here):
        return None
    first = _first_step(game, key, action)  # the path as it stands before any fire
    game.pos.pending = {"kind": "withdrawal", "seat": seat, "action": dict(action), "unit": key,
                        "hex": game.pos.units[key].hex, "limit": "full", "first": first}
    return [Event("withdrawal_declared", "10.44", {"unit": key, "from": game.pos.units[key].hex,
                                                   "to": action["to"]})]


def after_move(game: GbacwGame, action: Action, events: list[Event]) -> list[Event]:
    """Offer approach fire at a unit whose move just ended (002 §10.45), or, after the last
    answer to the reaction that move caused, at the top phasing unit in its hex."""
    run: Any = game
    trigger, run._approach_after = getattr(game, "_approach_after", None), None
    if game.pos.pending is not None:
        return []
    if action.get("type") == "move":
        key = str(action["unit"])
        if not any(e.type == "move" for e in events):
            return []
    elif trigger is not None:
        h = game.hex_of(trigger)
        phasing = [k for k in stack_keys(game, h)
                   if game.in_activation(k)] if h is not None else []  # or its group (§5.34)
        if not phasing:
            return []
        key = phasing[0]
    else:
        return []
    u = game.pos.units.get(key)
    if u is None or u.hex is None:
        return []
    here = game.hex_of(u.hex)
    if here is None or not approach_firers(game, key, here):
        return []
    game.pos.pending = {"kind": "approach", "seat": u.seat, "unit": key, "hex": u.hex}
    return [Event("approach_offered", "10.45", {"unit": key, "hex": u.hex})]


def options(game: GbacwGame) -> list[Action]:
    """The defender's answers to a held move: each unit that may fire at the mover, or let it pass
    (002 §10.44-10.45)."""
    p = game.pos.pending
    assert p is not None
    key, h = str(p["unit"]), game.hex_of(str(p["hex"]))
    assert h is not None
    firers = withdrawal_firers(game, key, h) if p["kind"] == "withdrawal" else \
        approach_firers(game, key, h)
    out: list[Action] = []
    for k in firers:
        out.append({"type": f"{p['kind']}_fire", "unit": k})
        if may_reserve(game, k):  # 002 §10.15: half now, the rest for a later shot
            out.append({"type": f"{p['kind']}_fire_reserve", "unit": k})
    return [*out, {"type": "let_pass"}]


def check(game: GbacwGame, action: Action, seat: str) -> None:
    """Refuse a withdrawal or approach shot when none waits, from the wrong seat or by a unit that
    may not fire (002 §10.44-10.45)."""
    p = game.pos.pending
    kind = action.get("type")
    if p is None or p.get("kind") not in KINDS:
        raise RuleError("10.4", f"{kind}: no enemy move waits for withdrawal or approach fire")
    if kind not in ACTION_KINDS:
        rule = "10.44" if p["kind"] == "withdrawal" else "10.45"
        raise RuleError(rule, f"the defender answers the {p['kind']} fire first")
    if seat == p["seat"]:
        raise RuleError("10.4", "the defender answers now")
    if action not in options(game):
        rule = "10.44" if p["kind"] == "withdrawal" else "10.45"
        raise RuleError(rule, f"{action.get('unit')} may not fire at {p['unit']} now (arc, "
                        "range, sight, front, or that fire used this activation)")


def _fire(game: GbacwGame, plan: FirePlan, kind: str) -> tuple[list[Event], Any]:
    done = roll_shot(game, plan)
    ev = shot_events(game, done)
    apply_shot(game, done)
    mark_fired(game, plan.shooters, "withdrawal" if kind == "withdrawal" else "approach")
    ev += ammunition_events(game, plan.shooters, [done.roll.roll])
    return ev, done.outcome


def answer(game: GbacwGame, action: Action, seat: str) -> list[Event]:
    """Fire (or let pass); a withdrawal then lets the held move go on as far as the
    results allow (002 §10.44-10.45)."""
    check(game, action, seat)
    p = game.pos.pending
    assert p is not None
    key, h = str(p["unit"]), game.hex_of(str(p["hex"]))
    assert h is not None
    ev: list[Event] = []
    if action["type"] != "let_pass":
        firer = str(action["unit"])
        plan = shot_plan(game, firer, h, "withdrawal" if p["kind"] == "withdrawal"
                         else "approach")
        keep = 0
        if action["type"] in RESERVING:
            plan, keep = split_reserve(plan)
        ev.append(Event(f"{p['kind']}_fire", "10.44" if p["kind"] == "withdrawal" else "10.45",
                        {"unit": firer, "at": key}))
        shot_ev, outcome = _fire(game, plan, str(p["kind"]))
        ev += shot_ev
        if lone_spencer(plan) and p["kind"] == "withdrawal":  # 002 §14.35: twice
            ev += spencer_round(game, plan)
        ev += book_reserve(game, firer, h, keep, plan.shooters[1:])
        if p["kind"] == "withdrawal" and outcome is not None and any(
                t.unit == key for t in outcome.units):
            limit = withdrawal_after_fire(outcome, key)
            p["limit"] = max(str(p["limit"]), limit, key=_LIMITS.index)
        gone = game.pos.units[key].hex is None or game.pos.units[key].routed or \
            key not in stack_keys(game, h)
        more = options(game)[:-1] if not gone and p.get("limit") != "none" else []
        if more:
            return ev
    game.pos.pending = None
    if p["kind"] == "withdrawal":
        ev += _go_on(game, p)
    return ev


def _go_on(game: GbacwGame, p: dict[str, Any]) -> list[Event]:
    """The held move after withdrawal fire (002 §10.44)."""
    key = str(p["unit"])
    mover_seat = str(p["seat"])
    u = game.pos.units[key]
    h = game.hex_of(str(p["hex"]))
    if u.hex is None or u.routed or h is None or key not in stack_keys(game, h):
        return []
    action = dict(p["action"])
    limit = str(p["limit"])
    if limit == "none":
        u.moves = game.moves_allowed(key)  # the 2nd Disorder result replaces the move
        return [Event("withdrawal_stopped", "10.44", {"unit": key})]
    if limit == "one_hex":
        cut = p.get("first")
        if cut is None:
            u.moves = game.moves_allowed(key)
            return [Event("withdrawal_stopped", "10.44", {"unit": key})]
        action = dict(cut)
    run: Any = game
    run._withdrawal_cleared = key
    try:
        return [Event("withdrawal_goes_on", "10.44", {"unit": key, "limit": limit,
                                                      "to": action["to"]}),
                *run._execute(action, mover_seat)]
    except RuleError as exc:
        return [Event("withdrawal_stopped", exc.rule, {"unit": key, "reason": str(exc)})]
    finally:
        run._withdrawal_cleared = None


def _first_step(game: GbacwGame, key: str, action: Action) -> Action | None:
    """The held move cut to the first hex of its path, with the facing it has there."""
    run: Any = game
    to = game.cat.board.parse(str(action["to"]))
    reach = run.reach(key)
    chosen = reach.get((to, Facing.from_json(action["facing"])))
    if chosen is None or not chosen.path:
        return None
    here = game.hex_of(game.pos.units[key].hex)
    first = next((step for step in chosen.path if step[0] != here), None)
    if first is None:
        return None
    h, facing = first[0], first[1]
    if (h, facing) not in reach:
        facing = next((f for (x, f) in sorted(reach, key=lambda r: (r[1].kind, r[1].index))
                       if x == h), None)
        if facing is None:
            return None
    return {"type": "move", "unit": key, "to": game.cat.board.hexes[h].id,
            "facing": facing.to_json()}
