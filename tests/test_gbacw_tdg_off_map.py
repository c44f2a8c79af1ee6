"""Off-map movement on map C's south roads (004 §9.88): the links as data (off_map.py,
data/off_map_roads.yaml: substitutes with their basis) and the engine's ``leave_map``, the
unit's journey and return by its area's direct hex, and the ban on moving next to an enemy
unit on an off-map road (off_map_step.py). Positions built by hand on the skirmish."""

from __future__ import annotations

from pathlib import Path

import pytest

from gbacw_skirmish import active_gamble
from gettysburg.core.protocol import RuleError
from gettysburg.gbacw import entry_step, off_map_step
from gettysburg.gbacw.board import load_board
from gettysburg.gbacw.charts.datafile import DataError
from gettysburg.gbacw.game import GbacwGame
from gettysburg.gbacw.off_map import destinations, journey_turns, load_links, parse_links
from gettysburg.gbacw.reinforcements import entry_area

ROAD_12, ROAD_11 = "C5345", "C5312"  # the direct hexes of areas 12 and 11 (derived map)


def test_links_are_sheet_c_entry_areas_each_a_substitute_with_its_basis() -> None:
    links = load_links()
    assert links
    board = load_board()
    for ln in links:
        for a in (ln.a, ln.b):
            assert board.hexes[entry_area(board, a).direct].id.startswith("C")
        assert ln.turns >= 1 and ln.basis
    assert board.hexes[entry_area(board, 12).direct].id == ROAD_12
    assert board.hexes[entry_area(board, 11).direct].id == ROAD_11


def test_journeys_chain_links_and_take_the_quickest() -> None:
    links = load_links()
    assert journey_turns(links, 11, 12) == 2
    assert journey_turns(links, 11, 13) == 5  # 11-12-14-13: 2 + 2 + 1
    assert journey_turns(links, 13, 11) == 5
    assert journey_turns(links, 10, 11) is None  # the Baltimore Pike is on sheet B
    assert journey_turns(links, 12, 12) is None
    assert destinations(links, 12) == {11: 2, 13: 3, 14: 2}
    assert destinations(links, 2) == {}


@pytest.mark.parametrize(("row", "field"), [
    ({"a": 11, "b": 11, "turns": 1, "substitute": True, "basis": "x"}, "b"),
    ({"a": 11, "b": 15, "turns": 1, "substitute": True, "basis": "x"}, "b"),
    ({"a": 11, "b": 12, "turns": 0, "substitute": True, "basis": "x"}, "turns"),
    ({"a": 11, "b": 12, "turns": 1}, "basis"),
    ({"a": 11, "b": 12, "turns": 1, "substitute": True, "basis": "x", "cost": 2}, "cost"),
])
def test_a_bad_link_is_refused_naming_its_field(row: dict[str, object], field: str) -> None:
    with pytest.raises(DataError) as e:
        parse_links({"source": "004 §9.88", "links": [row]}, Path("roads.yaml"))
    assert e.value.field == field and e.value.record == "links[0]"


def test_a_pair_linked_twice_is_refused() -> None:
    row = {"a": 11, "b": 12, "turns": 1, "substitute": True, "basis": "x"}
    with pytest.raises(DataError) as e:
        parse_links({"source": "004 §9.88", "links": [row, {**row, "a": 12, "b": 11}]})
    assert e.value.record == "links[1]"


def _on_the_road(hex_id: str = ROAD_12) -> tuple[GbacwGame, str, str]:
    """Gamble's first unit, active, alone on a direct hex; Archer's regiment far away."""
    g, k, enemy = active_gamble()
    g.pos.units[k].hex = hex_id
    g.pos.units[enemy].hex = "C3030"
    g._memo.clear()
    return g, k, enemy


def test_leave_by_the_emmitsburg_road_and_come_back_on_the_taneytown_road() -> None:
    g, k, _enemy = _on_the_road()
    legal = [a for a in g.legal_actions("usa") if a["type"] == "leave_map"]
    assert {a["area"] for a in legal if a["unit"] == k} == {"11", "13", "14"}
    start = g.pos.turn
    ev = g.apply({"type": "leave_map", "unit": k, "area": "11"}, "usa")
    assert ev[0].type == "leave_map" and ev[0].data["to"] == 11
    u = g.pos.units[k]
    assert u.hex is None and u.facing is None
    assert g.pos.tdg["off_map"][k] == {"from": 12, "to": 11, "back": start + 2}
    assert g.waiting(k) is None  # on the road: two turns (the link's substitute)
    again = g.clone()
    assert again.state_hash() == g.state_hash()
    g.pos.turn = start + 1
    g._memo.clear()
    assert g.waiting(k) is None
    g.pos.turn = start + 2
    g._memo.clear()
    assert g.waiting(k) == ROAD_11
    reach = g.reach(k)
    assert reach and all(g.cat.board.hexes[r.path[0][0]].id == ROAD_11 for r in reach.values())
    leaders = dict(g.pos.leaders)
    (to, _), r = sorted(reach.items(), key=lambda kv: kv[1].half_mp)[0]
    g._move({"type": "move", "unit": k, "to": g.cat.board.hexes[to].id}, r)
    assert g.pos.units[k].hex is not None and "off_map" not in g.pos.tdg
    assert g.pos.leaders == leaders  # nobody comes on with it


def test_no_enemy_moves_next_to_a_unit_on_an_off_map_road() -> None:
    g, k, enemy = _on_the_road()
    road_end = g.cat.board.parse(ROAD_11)
    near = next(h for h in sorted(g.cat.board.hexes, key=lambda h: (h.q, h.r))
                if h.distance(road_end) == 3 and g.cat.board.hexes[h].id.startswith("C"))
    g.pos.units[enemy].hex = g.cat.board.hexes[near].id
    g._memo.clear()
    before = g.reach(enemy)
    assert any(h.distance(road_end) <= 1 for r in before.values() for h, _ in r.path)
    g.apply({"type": "leave_map", "unit": k, "area": "11"}, "usa")
    assert off_map_step.road_ends(g, "csa") == [road_end]
    after = g.reach(enemy)
    assert after and len(after) < len(before)
    assert not any(h.distance(road_end) <= 1 for r in after.values() for h, _ in r.path)
    assert off_map_step.road_ends(g, "usa") == []  # his own side is not held back


def test_refusals_cite_9_88() -> None:
    g, k, enemy = _on_the_road()
    with pytest.raises(RuleError) as e:  # no road from area 12 to area 10
        g.validate({"type": "leave_map", "unit": k, "area": "10"}, "usa")
    assert e.value.rule == "tdg.9.88"
    g.pos.units[k].hex = "C5344"  # beside the direct hex, not on it
    g._memo.clear()
    with pytest.raises(RuleError) as e:
        g.validate({"type": "leave_map", "unit": k, "area": "11"}, "usa")
    assert e.value.rule == "tdg.9.88"
    g.pos.units[k].hex = ROAD_12
    g.pos.units[enemy].hex = next(g.cat.board.hexes[n].id for n in
                                  g.cat.board.parse(ROAD_12).neighbours()
                                  if n in g.cat.board.hexes)
    g._memo.clear()
    with pytest.raises(RuleError) as e:  # next to an enemy
        g.validate({"type": "leave_map", "unit": k, "area": "11"}, "usa")
    assert e.value.rule == "tdg.9.88"
    assert not [a for a in g.legal_actions("usa") if a["type"] == "leave_map"]
    with pytest.raises(RuleError):  # not the Confederates' unit
        g.validate({"type": "leave_map", "unit": k, "area": "11"}, "csa")


def test_a_reinforcement_waiting_at_a_linked_hex_takes_the_road() -> None:
    """004 §9.88: the roads serve to enter as reinforcements too. A unit waiting off the map
    at area 12's direct hex (set by hand: the skirmish has no group there) takes the road
    to area 11; while on it, it no longer waits, nor holds up its group's hex (9.73)."""
    g, k, _enemy = active_gamble()
    g.pos.units[k].hex = None
    g.pos.units[k].facing = None
    plain = g.waiting
    g.waiting = lambda key: ROAD_12 if key == k else plain(key)  # type: ignore[method-assign]
    g._memo.clear()
    act = {"type": "leave_map", "unit": k, "area": "11"}
    assert act in g.legal_actions("usa")
    start = g.pos.turn
    ev = g.apply(act, "usa")
    assert ev[0].data["hex"] == ROAD_12
    assert g.pos.tdg["off_map"][k] == {"from": 12, "to": 11, "back": start + 2,
                                       "arriving": True}
    g.waiting = plain  # type: ignore[method-assign]
    g._memo.clear()
    assert off_map_step.travelling(g, k) and entry_step.kept_off(g, k)
    assert g.waiting(k) is None
    g.pos.turn = start + 2
    g._memo.clear()
    assert g.waiting(k) == ROAD_11
    assert off_map_step.came_back(g, k) is False  # a reinforcement: its leaders may come
    assert "off_map" not in g.pos.tdg
