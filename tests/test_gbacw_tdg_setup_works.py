"""The scenarios' ready-made breastworks placed by their owner (004 sc.4.5: Day 2's listed hexes,
faced as the Union likes, with E-18's free marker; 004 sc.5.5: Day 3's 45 markers in hexes the
Union's infantry holds, within 002 §15.12): setup_works.py through the engine's legal list,
checks and the default the engine takes when the Union ends its first orders segment."""

from __future__ import annotations

import random

import pytest

from gettysburg.core.protocol import RuleError
from gettysburg.gbacw import engineering, setup_works
from gettysburg.gbacw.ai.doctrine import GbacwDoctrine
from gettysburg.gbacw.game import GbacwGame
from gettysburg.gbacw.kinds import unit_class


def _union_to_order(scenario: str) -> GbacwGame:
    g = GbacwGame(scenario, seed=1)
    while g.to_move() != ["usa"]:
        g.apply({"type": "end_orders"}, g.to_move()[0])
    assert g.pos.phase == "orders"
    return g


def _vertex(v: int) -> dict[str, object]:
    return {"kind": "vertex", "index": v}


def _infantry_hexes(g: GbacwGame) -> set[str]:
    return {str(u.hex) for k, u in g.pos.units.items() if u.seat == "usa" and u.hex is not None
            and unit_class(g.counter(k)) == "infantry"}


def test_third_day_places_a_marker_where_its_infantry_stands_sc_5_5() -> None:
    g = _union_to_order("third-day")
    assert g.pos.breastworks == [] and g.pos.tdg["works"] == {"seat": "usa", "listed": {},
                                                              "free": 45}
    offered = [a for a in g.legal_actions("usa") if a["type"] == "place_works"]
    assert offered and {str(a["hex"]) for a in offered} <= _infantry_hexes(g)
    act = offered[0]
    g.apply(act, "usa")
    assert g.pos.breastworks == [{"hex": act["hex"], "vertex": act["facing"]["index"]}]
    assert g.pos.tdg["works"]["free"] == 44
    assert act not in g.legal_actions("usa")  # that vertex is guarded now
    with pytest.raises(RuleError) as e:
        g.validate(act, "usa")
    assert e.value.rule == "15.21"
    # a second marker in the hex, on another vertex; a third is refused (002 §15.12)
    other = {**act, "facing": _vertex((act["facing"]["index"] + 2) % 6)}
    g.apply(other, "usa")
    third = {**act, "facing": _vertex((act["facing"]["index"] + 4) % 6)}
    with pytest.raises(RuleError) as e:
        g.validate(third, "usa")
    assert e.value.rule == "15.12"


def test_third_day_refusals_cite_the_rule() -> None:
    g = _union_to_order("third-day")
    held = _infantry_hexes(g)
    empty = next(h for h in sorted(g.cat.board.hexes) if g.cat.board.hexes[h].id not in held
                 and g.cat.board.hexes[h].id.startswith("B5"))
    with pytest.raises(RuleError) as e:
        g.validate({"type": "place_works", "hex": g.cat.board.hexes[empty].id,
                    "facing": _vertex(0)}, "usa")
    assert e.value.rule == "tdg.sc.5.5"
    site = next(a for a in g.legal_actions("usa") if a["type"] == "place_works")
    with pytest.raises(RuleError) as e:  # a hexside facing is no breastwork's
        g.validate({**site, "facing": {"kind": "side", "index": 0}}, "usa")
    assert e.value.rule == "15.21"
    with pytest.raises(RuleError) as e:  # not the Confederates'
        g.validate(site, "csa")
    # an infantry hex §15.12 closes (town or next to the enemy), if the set-up has one
    closed = [h for h in held if setup_works._free_site_problem(
        g, [g.cat.board.parse(h)], g.cat.board.parse(h),
        frozenset(g.enemy_hexes("usa"))) is not None]
    assert closed  # the set-up has town hexes and hexes next to the enemy
    for h in closed[:3]:
        with pytest.raises(RuleError) as e:
            g.validate({"type": "place_works", "hex": h, "facing": _vertex(0)}, "usa")
        assert e.value.rule == "15.12"
    g.apply({"type": "end_orders"}, "usa")
    with pytest.raises(RuleError):  # the segment is over: no more set-up works
        g.validate(site, "usa")


def test_third_day_default_places_all_45_within_the_rules() -> None:
    g = _union_to_order("third-day")
    g.apply(next(a for a in g.legal_actions("usa") if a["type"] == "place_works"), "usa")
    ev = g.apply({"type": "end_orders"}, "usa")
    works = g.pos.breastworks
    assert len(works) == 45 and "works" not in g.pos.tdg
    assert sum(1 for e in ev if e.type == "breastworks" and e.data["default"]) == 44
    held = _infantry_hexes(g)
    enemy = frozenset(g.enemy_hexes("usa"))
    per_hex: dict[str, set[int]] = {}
    for b in works:
        assert b["hex"] in held
        per_hex.setdefault(str(b["hex"]), set()).add(int(b["vertex"]))
    for hid, vs in per_hex.items():
        n = sum(1 for b in works if b["hex"] == hid)
        assert n == len(vs) <= engineering.MAX_PER_HEX  # distinct vertices, two at most
        h = g.cat.board.parse(hid)
        assert g.cat.board.hexes[h].terrain not in engineering.NO_BUILD_TERRAIN
        assert not any(n2 in enemy for n2 in h.neighbours())
    # a save replays to the same works
    again = g.clone()
    assert again.pos.breastworks == works and again.state_hash() == g.state_hash()


def test_second_day_listed_hex_faced_as_the_union_likes_sc_4_5() -> None:
    g = _union_to_order("second-day")
    pool = g.pos.tdg["works"]
    assert pool["listed"]["B5013"] == 2 and sum(pool["listed"].values()) == 20
    assert pool["free"] == 1
    for v in (3, 5):  # the book leaves the facing to the Union
        act = {"type": "place_works", "hex": "B5122", "facing": _vertex(v)}
        assert act in g.legal_actions("usa")
    g.apply({"type": "place_works", "hex": "B5122", "facing": _vertex(3)}, "usa")
    assert {"hex": "B5122", "vertex": 3} in g.pos.breastworks
    assert g.pos.tdg["works"]["listed"]["B5122"] == 0
    # B5013 takes its two, then no third (the free one must go elsewhere: §15.12's two)
    g.apply({"type": "place_works", "hex": "B5013", "facing": _vertex(0)}, "usa")
    g.apply({"type": "place_works", "hex": "B5013", "facing": _vertex(2)}, "usa")
    with pytest.raises(RuleError) as e:
        g.validate({"type": "place_works", "hex": "B5013", "facing": _vertex(4)}, "usa")
    assert e.value.rule == "15.12"
    ev = g.apply({"type": "end_orders"}, "usa")
    assert len(g.pos.breastworks) == 21 and not any(e.type == "works_lost" for e in ev)
    assert {"hex": "B5122", "vertex": 3} in g.pos.breastworks
    assert sorted(b["vertex"] for b in g.pos.breastworks if b["hex"] == "B5013") == [0, 2]


def test_the_general_places_the_works_itself() -> None:
    """004 sc.4.5: ready-made works cost nothing, so the general (``ai/minor_choices``)
    scores placing one above ending the orders segment, which would leave them to the
    engine's default."""
    g = _union_to_order("second-day")
    legal = g.legal_actions("usa")
    scores = GbacwDoctrine().scores(g.view("usa"), legal)
    end = next(i for i, a in enumerate(legal) if a["type"] == "end_orders")
    works = [scores[i] for i, a in enumerate(legal) if a["type"] == "place_works"]
    assert works and max(works) > scores[end]


@pytest.mark.parametrize("scenario", ["herr-ridge", "little-round-top"])
def test_no_works_no_choice(scenario: str) -> None:
    g = GbacwGame(scenario, seed=1)
    assert "works" not in g.pos.tdg
    for seat in ("usa", "csa"):
        assert setup_works.options(g, seat) == []


def test_every_marker_placed_by_hand_leaves_nothing_to_the_default() -> None:
    """Day 2: the Union places all 21 itself (seeded choices among the offered ones); the
    pool closes with the last, and ending the segment adds nothing."""
    rng = random.Random(3)
    g = _union_to_order("second-day")
    for _ in range(21):
        offered = setup_works.options(g, "usa")
        assert offered
        g.apply(rng.choice(offered), "usa")
    assert "works" not in g.pos.tdg and len(g.pos.breastworks) == 21
    assert setup_works.options(g, "usa") == []
    listed = [b for b in g.pos.breastworks if b["hex"] == "B5013"]
    assert len(listed) >= 2  # the listed hexes all got theirs
    ev = g.apply({"type": "end_orders"}, "usa")
    assert not any(e.type in ("breastworks", "works_lost") for e in ev)
    assert len(g.pos.breastworks) == 21
