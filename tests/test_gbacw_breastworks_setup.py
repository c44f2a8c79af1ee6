"""Day 2's printed breastworks (004 sc. 4.5, decision E-18; 002 §15.21): the 20 listed markers,
two in B5013 over the four sides of its corner, and the one free marker wait for the Union's
first orders segment (setup_works.py; tests/test_gbacw_tdg_setup_works.py places them by
hand); ended without a choice, the engine places them oriented towards the enemy; other
scenarios start with none."""

from __future__ import annotations

import pytest

from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import RuleError, new_game
from gettysburg.gbacw import engineering, engineering_step
from gettysburg.gbacw.game import GbacwGame

LISTED = ["B5122", "B5022", "B4921", "B4821", "B4720", "B4820", "B4919", "B5019", "B4521",
          "B4520", "B4620", "B4719", "B4918", "B5113", "B5114", "B5115", "B5116", "B5014",
          "B5013"]


def _game(scenario: str) -> GbacwGame:
    g = new_game(f"gbacw/{scenario}", seed=1)
    assert isinstance(g, GbacwGame)
    return g


def _union_ends_orders(g: GbacwGame) -> None:
    while g.pos.phase == "orders" and "usa" not in g.pos.orders_done:
        g.apply({"type": "end_orders"}, g.to_move()[0])


def test_second_day_places_the_twenty_listed_markers_sc_4_5() -> None:
    g = _game("second-day")
    assert g.pos.breastworks == [] and g.pos.tdg["works"]["free"] == 1
    _union_ends_orders(g)
    listed = [e.data for e in g.log if e.type == "breastworks" and e.data.get("setup")
              and e.data["hex"] in LISTED][:20]
    hexes = [str(b["hex"]) for b in listed]
    assert sorted(set(hexes)) == sorted(LISTED)
    assert len(hexes) == 20 and hexes.count("B5013") == 2
    assert len(g.pos.breastworks) == 21  # and the free one (E-18)
    corner = g.cat.board.parse("B5013")
    assert engineering_step.sides_of(g, corner) in ([0, 1, 2, 3], [1, 2, 3, 4], [2, 3, 4, 5],
                                                     [0, 3, 4, 5], [0, 1, 4, 5], [0, 1, 2, 5])
    # each faces the nearest Confederate counter, as the engine orients them for the Union
    enemies = [h for u in g.pos.units.values()
               if u.seat == "csa" and (h := g.hex_of(u.hex)) is not None]
    for b in listed:
        if b["hex"] != "B5013":
            h = g.cat.board.parse(str(b["hex"]))
            assert b["vertex"] == engineering.towards_vertex(h, enemies)
    assert "works" not in g.pos.tdg


def test_the_placed_works_guard_hexsides_and_stay_through_a_save() -> None:
    g = _game("second-day")
    _union_ends_orders(g)
    assert len(engineering_step.guarded(g)) >= 20  # shared hexsides counted once
    again = g.clone()
    assert again.pos.breastworks == g.pos.breastworks
    assert again.state_hash() == g.state_hash()


@pytest.mark.parametrize("scenario", ["herr-ridge", "little-round-top"])
def test_other_scenarios_start_without_works(scenario: str) -> None:
    assert _game(scenario).pos.breastworks == []


def test_setup_vertices_point_at_the_enemy() -> None:
    h = Hex(0, 0)
    enemy = h.neighbour(2).neighbour(2)
    assert engineering.towards_vertex(h, []) == 0
    v = engineering.towards_vertex(h, [enemy])
    assert 2 in engineering.Breastwork(h, v).sides()  # it guards the side facing the enemy
    one, two = engineering.setup_vertices(h, 2, [enemy])
    sides = sorted({d for w in (one, two) for d in engineering.Breastwork(h, w).sides()})
    assert len(sides) == 4 and 2 in sides  # four sides, the enemy's direction among them
    with pytest.raises(RuleError):
        engineering.setup_vertices(h, 3, [enemy])


def test_from_board_wants_a_vertex_per_printed_marker_15_21() -> None:
    g = _game("herr-ridge")
    with pytest.raises(RuleError):
        engineering.from_board(g.cat.board, {})
