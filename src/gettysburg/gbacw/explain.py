"""Why a seat's counter or leader can do nothing at a hex now, for the web client's refusal
note (the declaration's ``explain`` hook): the move there is put to the engine's own check,
and its refusal, with its section, is the answer. Only what the check would tell the seat
on sending that move, so no more than its own actions reveal."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gettysburg.core.canonical import JSONDict
from gettysburg.core.protocol import Game, RuleError

if TYPE_CHECKING:
    from gettysburg.gbacw.game import GbacwGame


def explain(game: Game, seat: str, piece: str, place: str) -> JSONDict | None:
    """``{"rule", "message"}``: why ``seat``'s unit or leader ``piece`` has no action at hex
    ``place``; None when the question does not apply (not the seat's piece, not a hex of the
    sheets) or the engine finds nothing against the move."""
    from gettysburg.gbacw import sequence

    g: GbacwGame = game  # type: ignore[assignment]
    p = g.pos
    if not _is_hex(g, place):
        return None
    unit = p.units.get(piece)
    if unit is not None:
        if unit.seat != seat:
            return None
        # the facing it has: a move's refusal seldom turns on the facing it ends in
        facing = ({"kind": "vertex", "index": 0} if unit.facing is None
                  else unit.facing.to_json())
        attempt: JSONDict = {"type": "move", "unit": piece, "to": place, "facing": facing}
    elif piece in p.leaders and p.leader_seat.get(piece) == seat:
        attempt = {"type": "move_leader", "leader": piece, "to": place}
    else:
        return None
    if seat not in g.to_move():
        phase = sequence.PHASES.get(p.phase)
        return {"rule": phase.rule if phase else "3.0", "message": "it is not your decision now"}
    try:
        g.validate(attempt, seat)
    except RuleError as exc:
        return {"rule": exc.rule, "message": exc.message}
    return None


def _is_hex(g: GbacwGame, place: str) -> bool:
    try:
        h = g.hex_of(place)
    except (KeyError, ValueError):
        return False
    return h is not None and h in g.cat.board.hexes
