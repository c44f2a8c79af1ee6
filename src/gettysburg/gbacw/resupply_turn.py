"""The one-vertex turn after a resupply (002 §10.92).

A unit that resupplies its ammunition may then change its facing by one vertex (one hexside
on March orders), free. The engine's ``resupply_face`` {unit, facing} is the ``resupply``
action followed by that turn: offered for every unit :func:`ammunition.resupply_options`
lists, with the turns a rallying unit may make (:func:`formation_step.rally_turns`: one
vertex either way, not for an extended or refused unit); the friends stacked with it turn
with it (§7.11, §8.26). The seed bars the turn to a unit that already turned after rallying
or failed a rally in the same Resupply and Rally action: the engine's resupply is the unit's
whole action for the activation (no rally in it), so that case does not arise.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gettysburg.core.protocol import Action, Event, RuleError

from . import ammunition, formation_step
from .facing import Facing

if TYPE_CHECKING:
    from .engine_view import GameView

KIND = "resupply_face"


def _resupply(action: Action) -> Action:
    return {"type": "resupply", "unit": action.get("unit")}


def options(game: GameView) -> list[Action]:
    """The ``resupply_face`` actions open now (002 §10.92): each resupply with each
    one-vertex turn."""
    return [{"type": KIND, "unit": a["unit"], "facing": f.to_json()}
            for a in ammunition.resupply_options(game)
            for f in formation_step.rally_turns(game, str(a["unit"]))]


def check(game: GameView, action: Action, seat: str) -> Facing:
    """Refuse a resupply-and-turn that 002 §10.92-10.93 forbid; the facing, checked."""
    ammunition.check_resupply(game, _resupply(action), seat)
    key = str(action["unit"])
    facing = Facing.from_json(action["facing"])
    if facing not in formation_step.rally_turns(game, key):
        raise RuleError("10.92", f"{key} may turn one vertex after resupplying, not to "
                        f"{facing} (not an extended or refused unit)")
    return facing


def execute(game: GameView, action: Action, seat: str) -> list[Event]:
    """002 §10.92: resupply, then the one-vertex turn of the unit and its stack."""
    facing = check(game, action, seat)
    key = str(action["unit"])
    ev = ammunition.resupply(game, _resupply(action), seat)
    u = game.pos.units[key]
    old = u.facing
    u.facing = facing
    mates = formation_step.face_stack(game, key)
    return [*ev, Event("resupply_turn", "10.92", {
        "unit": key, "hex": u.hex, "from": None if old is None else old.to_json(),
        "facing": facing.to_json(), "stack": mates})]
