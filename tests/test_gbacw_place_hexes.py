"""The view's ``place_hexes`` (own_view.place_hexes, 004 §9.88): a ``leave_map`` names an
entry area, not a hex; the seat's view says where each area its legal ``leave_map`` actions
name lies on the map (the area's direct hex), for the client to draw it as a mark to click.
Positions built by hand on the skirmish, as in test_gbacw_tdg_off_map.py."""

from __future__ import annotations

from gbacw_skirmish import active_gamble
from gettysburg.gbacw.board import load_board
from gettysburg.gbacw.reinforcements import entry_area

ROAD_12 = "C5345"  # area 12's direct hex on the derived map


def test_each_area_a_legal_leave_map_names_is_placed_on_its_direct_hex() -> None:
    g, k, enemy = active_gamble()
    g.pos.units[k].hex = ROAD_12
    g.pos.units[enemy].hex = "C3030"
    g._memo.clear()
    areas = {a["area"] for a in g.legal_actions("usa") if a["type"] == "leave_map"}
    assert areas == {"11", "13", "14"}
    board = load_board()
    placed = g.view("usa")["place_hexes"]
    assert placed == {"area": {a: board.hexes[entry_area(board, int(a)).direct].id
                               for a in sorted(areas, key=int)}}
    assert placed["area"]["11"] == "C5312"
    # the enemy has no such action, so no such marks; nor does anyone once it is taken
    assert "place_hexes" not in g.view("csa")
    g.apply({"type": "leave_map", "unit": k, "area": "11"}, "usa")
    assert not [a for a in g.legal_actions("usa") if a["type"] == "leave_map" and a["unit"] == k]


def test_no_place_hexes_without_a_leave_map() -> None:
    g, _k, _enemy = active_gamble()
    assert not [a for a in g.legal_actions("usa") if a["type"] == "leave_map"]
    assert "place_hexes" not in g.view("usa")
