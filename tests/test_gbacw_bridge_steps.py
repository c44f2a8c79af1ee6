"""004 §9.81: the movement tables read the steps onto Lott's Ridge bridge once a board
(``movement.bridge_steps_on``, kept in the board's ``costgrid.Grid``); they are exactly the
steps ``bridge_over_cut`` calls "on"."""

from __future__ import annotations

from gettysburg.gbacw.board import load_board
from gettysburg.gbacw.costgrid import grid_of
from gettysburg.gbacw.movement import bridge_over_cut, bridge_steps_on


def test_bridge_steps_on_are_bridge_over_cuts_on_9_81() -> None:
    """Every step of the board, both ways: "on" exactly for the kept pairs (two of them,
    from each end of the bridge), and the board's grid holds the same pairs."""
    board = load_board()
    on = {(h, n) for h in board.hexes for n in h.neighbours()
          if n in board.hexes and bridge_over_cut(board, h, n) == "on"}
    assert len(on) == 2
    assert bridge_steps_on(board) == on == grid_of(board).bridge_on
