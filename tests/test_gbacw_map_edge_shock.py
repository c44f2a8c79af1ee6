"""A unit at the map's edge facing off it (002 §7.1 allows any facing) and shocking through
its other front hex (002 §11.31): found by a Battle of Gettysburg game between random players
(issue 54, seed 54, game 0: a continued shock's advance, 002 §11.8, ended on B0828 of the north
edge facing north, and the next shock's check asked who stood in the off-map front hex)."""

from __future__ import annotations

from gbacw_skirmish import active_gamble
from gettysburg.gbacw import shock_action as sa
from gettysburg.gbacw.facing import Facing, front_hexes

EDGE, INSIDE = "A0905", "A0906"  # on map A's edge; vertex 4's fronts: off the map, A0906


def test_an_off_map_front_holds_nobody_and_the_shock_is_checked_11_31() -> None:
    g, k, enemy = active_gamble()
    board = g.cat.board
    g.pos.units[k].hex, g.pos.units[k].facing = EDGE, Facing("vertex", 4)
    g.pos.units[enemy].hex = INSIDE
    off, on = front_hexes(board.parse(EDGE), Facing("vertex", 4))
    assert off not in board.hexes and board.hexes[on].id == INSIDE
    assert sa.units_in(g, off) == []
    plan = sa.check_shock(g, {"type": "shock", "shocks": [
        {"attackers": [k], "targets": [INSIDE]}]}, "usa")
    assert plan.shocks[0].attackers == (k,) and enemy in plan.shocks[0].defenders
