"""What only its owner's view shows of the set-up breastworks and the off-map roads (004 sc.4.5,
sc.5.5, §9.88; gbacw/own_view.py), and the client's sentences for their events: the markers
left to place and a unit's journey never reach the other seat."""

from __future__ import annotations

import json
import re
from pathlib import Path

from gettysburg import gbacw
from gettysburg.gbacw import off_map_step, setup_works
from gettysburg.gbacw.game import GbacwGame
from gettysburg.gbacw.setup import turn_label

WORDS = json.loads((Path(gbacw.__file__).parent / "data" / "client_words.json")
                   .read_text("utf-8"))["en"]


def _slots(kind: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", WORDS[f"sentence.{kind}"]))


def _second_day_union_orders() -> GbacwGame:
    g = GbacwGame("second-day", seed=1)
    g.apply({"type": "end_orders"}, "csa")
    assert g.to_move() == ["usa"]
    return g


def test_works_to_place_in_the_owner_s_view_only_and_counting_down() -> None:
    """004 sc.4.5: the Union's 20 listed markers and E-18's free one are the Union's to see;
    a marker put down stands on the map for both (002 §15.21)."""
    g = _second_day_union_orders()
    assert g.view("usa")["works_to_place"] == {"listed": 20, "free": 1}
    assert g.view("referee")["works_to_place"] == {"listed": 20, "free": 1}
    assert "works_to_place" not in g.view("csa")
    place = next(a for a in g.legal_actions("usa") if a["type"] == "place_works")
    events = g.apply(place, "usa")
    (ev,) = [e for e in events if e.type == "breastworks"]
    assert _slots("breastworks") <= set(ev.data)
    assert sum(g.view("usa")["works_to_place"].values()) == 20
    marker = {"hex": place["hex"], "vertex": place["facing"]["index"]}
    assert marker in g.view("csa")["breastworks"] and marker in g.view("usa")["breastworks"]
    assert "works_to_place" not in g.view("csa")
    g.apply({"type": "end_orders"}, "usa")  # the rest placed by default: the pool is closed
    assert "works_to_place" not in g.view("usa")


def test_the_opening_announcement_reads_as_its_sentence() -> None:
    """004 sc.4.5: the set-up's works_to_place event carries every field its sentence says."""
    g = GbacwGame("second-day", seed=1)
    got = [e for e in setup_works.open_pool(g) if e.type == "works_to_place"]
    assert got and _slots("works_to_place") <= set(got[0].data)


def test_a_unit_on_an_off_map_road_is_away_in_its_owner_s_view_only() -> None:
    """004 §9.88: a Union unit leaves by the road from area 11 (C5312) for area 12: its
    owner's view marks it away (area 12's direct hex, the turn it may come back from); the
    enemy's view does not hold it at all."""
    g = GbacwGame("second-day", seed=1)
    key = next(k for k, u in sorted(g.pos.units.items())
               if u.seat == "usa" and u.hex is not None and g.counter(k).arm == "inf")
    g.pos.units[key].hex = "C5312"
    events = off_map_step.apply(g, {"type": "leave_map", "unit": key, "area": "12"}, "usa")
    assert _slots("leave_map") <= set(events[0].data)
    away = {"area": 12, "hex": "C5345", "back": turn_label(g.pos.turn + 2)}
    assert g.view("usa")["units"][key]["away"] == away
    assert g.view("referee")["units"][key]["away"] == away
    csa = g.view("csa")
    assert key not in csa["units"]
    assert '"away"' not in json.dumps(csa)
