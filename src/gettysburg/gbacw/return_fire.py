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
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import Action, Event, RuleError

from .charts import all_charts
from .fire import FireKind, Firer, check_may_fire, check_target, may_return_fire
from .fire_action import (
    FirePlan,
    check_fire,
    fire_events,
    fire_sp,
    firer_of,
    resolve_fire,
    write_outcome,
)
from .fire_result import ammunition_after
from .shock_action import combatant_of

if TYPE_CHECKING:
    from .engine_view import GameView as GbacwGame
    from .fire_result import FireRoll, Outcome


def _kinds(fired: list[str]) -> list[FireKind]:
    known: tuple[FireKind, ...] = ("phasing", "return", "pre_shock", "withdrawal", "approach")
    return [k for k in known if k in fired]


def shot_plan(game: GbacwGame, key: str, target: Hex, kind: FireKind = "return") -> FirePlan:
    """A non-phasing shot of ``key`` at ``target`` (return fire: the phasing firer's hex;
    pre-shock fire: an attacker's hex), or a RuleError (002 §10.4)."""
    firer: Firer = firer_of(game, key, phasing=False)
    check_may_fire(firer, kind, fired_kinds=_kinds(game.pos.units[key].fired))
    sp = fire_sp(game, key)
    if sp < 1:
        raise RuleError("8.33", f"{key} may fire no SP from its hex")
    seat = game.pos.units[key].seat
    occupied = {h for u in game.pos.units.values() if (h := game.hex_of(u.hex)) is not None}
    friends = {h for u in game.pos.units.values()
               if u.seat == seat and (h := game.hex_of(u.hex)) is not None}
    light = all_charts().turn_track.turns()[game.pos.turn].light
    shot = check_target(game.cat.board, all_charts().range, firer, target, kind=kind,
                        blockers=occupied - {firer.hex, target}, friends=friends,
                        light=light)
    return FirePlan(firer, target, sp, shot)


def _in_other_front(game: GbacwGame, key: str, firer_hex: Hex) -> bool:
    """Whether ``key`` stands in the front hex of an enemy in a hex other than the firer's."""
    u = game.pos.units[key]
    here = game.hex_of(u.hex)
    for k, e in game.pos.units.items():
        h = game.hex_of(e.hex)
        if e.seat == u.seat or h is None or h == firer_hex or e.facing is None:
            continue
        try:
            if here in combatant_of(game, k).fronts():
                return True
        except RuleError:
            continue
    return False


def answers(game: GbacwGame, plan: FirePlan) -> list[str]:
    """The non-phasing units that may return the phasing shot ``plan`` (002 §10.42)."""
    if plan.shot.ammunition == "shell":
        return []
    seat = game.pos.units[plan.firer.unit].seat
    out = []
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
        out.append(k)
    return out


def defer(game: GbacwGame, action: Action, seat: str) -> list[Event] | None:
    """Keep a phasing ``fire`` for the defender's answer when one is possible (None: roll
    it now)."""
    plan = check_fire(game, action, seat)
    if not answers(game, plan):
        return None
    game.pos.pending = {"kind": "fire", "seat": seat, "action": dict(action)}
    return [Event("fire_declared", "10.42", {"unit": plan.firer.unit,
                                             "target": str(action["target"])})]


def options(game: GbacwGame) -> list[Action]:
    p = game.pos.pending
    assert p is not None
    plan = check_fire(game, p["action"], str(p["seat"]))
    return [*({"type": "return_fire", "unit": k} for k in answers(game, plan)),
            {"type": "hold"}]


def check(game: GbacwGame, action: Action, seat: str) -> None:
    p = game.pos.pending
    if p is None or p.get("kind") != "fire":
        raise RuleError("10.42", "no phasing shot waits for an answer")
    if seat == p["seat"]:
        raise RuleError("10.42", "the defender answers the shot now")
    if action["type"] == "return_fire" and action not in options(game):
        raise RuleError("10.42", f"{action.get('unit')} may not return this fire (not the "
                        "target or next to it or the firer, in another enemy's front hex, "
                        "out of arc, range or sight, or return fire used)")


def _ammo(game: GbacwGame, plan: FirePlan, roll: FireRoll) -> list[Event]:
    u = game.pos.units[plan.firer.unit]
    if not plan.firer.artillery:
        return []
    after = ammunition_after(all_charts(), [roll.roll], plan.firer.ammo, rapid_fire=False,
                             artillery=True)
    if after == u.ammo:
        return []
    u.ammo = after
    return [Event("fire_ammunition", "10.69", {"unit": plan.firer.unit, "ammo": after})]


def answer(game: GbacwGame, action: Action, seat: str) -> list[Event]:
    """Roll the kept phasing shot and the answer (if any) on the same position, then apply
    both (002 §10.17, §10.42)."""
    check(game, action, seat)
    p = game.pos
    assert p.pending is not None
    phasing_action, phasing_seat = p.pending["action"], str(p.pending["seat"])
    plan = check_fire(game, phasing_action, phasing_seat)
    back: FirePlan | None = None
    if action["type"] == "return_fire":
        back = shot_plan(game, str(action["unit"]), plan.firer.hex)
    p.pending = None
    roll, outcome = resolve_fire(game, plan)
    ev = fire_events(plan, roll, outcome, game.cat.board.hexes[plan.target].id)
    answered: tuple[FireRoll, Outcome] | None = None
    if back is not None:
        answered = resolve_fire(game, back)
        ev += [Event("return_fire", "10.42", {"unit": back.firer.unit})]
        ev += fire_events(back, *answered, game.cat.board.hexes[back.target].id)
    write_outcome(game, outcome)
    shooter = p.units[plan.firer.unit]
    shooter.fired = [*shooter.fired, "phasing"]
    ev += _ammo(game, plan, roll)
    if back is not None and answered is not None:
        write_outcome(game, answered[1])
        u = p.units[back.firer.unit]
        u.fired = [*u.fired, "return"]
        ev += _ammo(game, back, answered[0])
    return ev
