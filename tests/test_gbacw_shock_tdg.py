"""The battle book's terrain in the engine's shock (004 §9.83, §9.86, §9.87: ``tdg.9.8x``):
no shock into or out of a railroad cut but along its bed, the town's and the farms' shock
DRMs for the defender. On the Gettysburg map, with positions built by hand."""

from __future__ import annotations

from gbacw_skirmish import active_gamble
from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import RuleError
from gettysburg.gbacw import shock_action as sa
from gettysburg.gbacw.board import Board, load_board
from gettysburg.gbacw.facing import Facing, front_hexes
from gettysburg.gbacw.shock import terrain_shock_drm
from gettysburg.gbacw.tdg_terrain import check_cut_shock


def _first(board: Board, feature: str | None = None, terrain: str | None = None) -> Hex:
    return next(h for h in sorted(board.hexes, key=lambda x: (x.q, x.r))
                if (feature is None or feature in board.hexes[h].features)
                and (terrain is None or board.hexes[h].terrain == terrain)
                and all(n in board.hexes for n in h.neighbours()))


def test_town_and_farm_help_the_defender_tdg_9_86_9_87() -> None:
    board = load_board()
    town = _first(board, terrain="town")
    drm, ids = terrain_shock_drm(board, town.neighbour(0), town)
    assert "town" in ids and drm <= -2
    farm = _first(board, feature="farm")
    attacker = next(n for n in farm.neighbours() if board.side(n, farm) is None
                    or not board.side(n, farm).stream)  # type: ignore[union-attr]
    drm, ids = terrain_shock_drm(board, attacker, farm)
    assert "farm" in ids and drm <= -1


def test_no_shock_into_a_cut_but_along_the_bed_tdg_9_83() -> None:
    """A unit next to a railroad cut, off the bed, may not shock the enemy in it; the
    engine leaves the hex out of its targets (shock_action.shock_targets)."""
    g, k, d1 = active_gamble()
    board = g.cat.board
    cut = _first(board, feature="railroad-cut")
    side = None
    for n in cut.neighbours():
        if n not in board.hexes:
            continue
        try:
            check_cut_shock(board, n, cut)
        except RuleError as e:
            assert e.rule == "tdg.9.83"
            side = n
            break
    assert side is not None
    facing = next(f for v in range(6) if cut in front_hexes(side, f := Facing("vertex", v)))
    u = g.pos.units[k]
    u.hex, u.facing = board.hexes[side].id, facing
    g.pos.units[d1].hex = board.hexes[cut].id
    g._memo.clear()
    assert cut not in sa.shock_targets(g, k)
