"""Reaction facing in the GBACW engine (002 §9.61-9.62 through :mod:`reaction`): when a
phasing unit moves next to non-phasing units, their owner may turn each of them one vertex,
at no MP, before the phasing player goes on.

After a ``move`` that ends next to enemy units that may react, ``Position.pending`` holds
``{"kind": "reaction", "seat": the mover's seat, "trigger": the hex entered, "units":
[...]}`` and ``to_move`` names the defender: ``react`` (``unit``, ``facing``) turns one of
them (infantry and cavalry then take a UDD, a failure disorders, §9.62), as long as some
may; ``no_reaction`` lets the phasing player go on. A unit reacts once per enemy brigade
activation (``Position.reacted``, cleared when a brigade activates).

Readings and limits: only a unit alone in its hex is offered a reaction turn (a stack would
turn together, §9.62's stacked-unit condition); refusal (§7.3) and reaction to fire from
outside the front, and reaction moves (§9.63) are not offered yet.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import Action, Event, RuleError, dice_event

from .combatant import check, disorder
from .facing import Facing
from .reaction import ActivationLog, EnemyUnit, Reactor, check_facing, facing_needs_udd
from .shock_action import combatant_of

if TYPE_CHECKING:
    from .charts.terrain import UnitClass
    from .engine_view import GameView as GbacwGame


def _class(game: GbacwGame, key: str) -> UnitClass:
    c = game.counter(key)
    if c.arm in ("art", "horse_art"):
        return "artillery"
    return "mounted_cavalry" if c.arm == "cav" and c.mode == "mounted" else "infantry"


def _reactor(game: GbacwGame, key: str) -> Reactor | None:
    u = game.pos.units[key]
    h = game.hex_of(u.hex)
    if h is None or u.facing is None:
        return None
    orders = game.orders_of(key)
    return Reactor(key, h, u.facing, _class(game, key),
                   orders if orders in ("march", "advance", "attack")  # type: ignore[arg-type]
                   else "advance")


def _enemies(game: GbacwGame, seat: str) -> list[EnemyUnit]:
    out: list[EnemyUnit] = []
    for u in game.pos.units.values():
        h = game.hex_of(u.hex)
        if u.seat != seat and h is not None and u.facing is not None:
            out.append((h, u.facing))
    return out


def turns(game: GbacwGame, key: str, trigger: Hex) -> list[Facing]:
    """The one-vertex turns ``key`` may make in reaction to an enemy entering ``trigger``."""
    p = game.pos
    me = _reactor(game, key)
    if me is None or me.facing.kind != "vertex":
        return []
    if sum(1 for x in p.units.values() if x.hex == p.units[key].hex) > 1:
        return []  # a reading: only a unit alone in its hex turns in reaction
    log = ActivationLog(faced=set(p.reacted))
    out = []
    for d in (-1, 1):
        f = Facing("vertex", (me.facing.index + d) % 6)
        try:
            check_facing(me, "face", log, enemies=_enemies(game, p.units[key].seat),
                         trigger=trigger, new_facing=f)
        except RuleError:
            continue
        out.append(f)
    return out


def after_move(game: GbacwGame, key: str) -> list[Event]:
    """Ask the defender about reaction facing when ``key``'s move ended next to units of
    its that may turn (002 §9.61)."""
    p = game.pos
    here = game.hex_of(p.units[key].hex)
    if here is None or p.pending is not None:
        return []
    seat = p.units[key].seat
    units = [k for k, u in sorted(p.units.items())
             if u.seat != seat and (h := game.hex_of(u.hex)) is not None
             and h.distance(here) == 1 and turns(game, k, here)]
    if not units:
        return []
    p.pending = {"kind": "reaction", "seat": seat, "trigger": p.units[key].hex,
                 "units": units}
    return [Event("reaction_possible", "9.61", {"trigger": p.units[key].hex,
                                                "units": units})]


def options(game: GbacwGame) -> list[Action]:
    p = game.pos.pending
    assert p is not None
    trigger = game.hex_of(str(p["trigger"]))
    assert trigger is not None
    out: list[Action] = []
    for k in p["units"]:
        out += [{"type": "react", "unit": k, "facing": f.to_json()}
                for f in turns(game, k, trigger)]
    return [*out, {"type": "no_reaction"}]


def check_answer(game: GbacwGame, action: Action, seat: str) -> None:
    p = game.pos.pending
    if p is None or p.get("kind") != "reaction":
        raise RuleError("9.61", "no enemy move waits for a reaction")
    if seat == p["seat"]:
        raise RuleError("9.61", "the defender decides on reaction facing now")
    if action["type"] == "react" and action not in options(game):
        raise RuleError("9.62", f"{action.get('unit')} may not turn to {action.get('facing')} "
                        "in reaction (one vertex, once per enemy activation, not on March, "
                        "not in another enemy's front hex, alone in its hex)")


def answer(game: GbacwGame, action: Action, seat: str) -> list[Event]:
    check_answer(game, action, seat)
    p = game.pos
    assert p.pending is not None
    if action["type"] == "no_reaction":
        p.pending = None
        return [Event("reaction_declined", "9.61", {})]
    key = str(action["unit"])
    u = p.units[key]
    me = combatant_of(game, key)
    u.facing = Facing.from_json(action["facing"])
    p.reacted = [*p.reacted, key]
    ev: list[Event] = [Event("reaction_facing", "9.62", {"unit": key, "hex": u.hex,
                                            "facing": u.facing.to_json()})]
    reactor = _reactor(game, key)
    if reactor is not None and facing_needs_udd(reactor):
        first = game.dice.counter
        c = check(game.dice, me, "reaction facing", "9.62")
        data: dict[str, object] = {"check": c.to_json()}
        if not c.passed:
            d = disorder(game.dice, me, "reaction-facing")
            data["disorder"] = d.to_json()
            u.disordered = True
            u.lost += d.sp_loss
            u.routed = u.routed or d.rout
        ev += [dice_event(game.dice.rolls_since(first)),
               Event("reaction_check", "9.62", data)]
    trigger = game.hex_of(str(p.pending["trigger"]))
    left = [k for k in p.pending["units"] if k != key and trigger is not None
            and turns(game, k, trigger)]
    if left:
        p.pending = {**p.pending, "units": left}
    else:
        p.pending = None
    return ev
