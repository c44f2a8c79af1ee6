"""Map data for the client: served per system from the registry, with the plane geometry
the core adds to a hex map (core/mapjson.py)."""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from gettysburg.boc.board import BOC
from gettysburg.core.mapjson import hex_map_json, map_problem
from gettysburg.server import systems
from gettysburg.server.app import create_app
from gettysburg.server.store import Store

# Three hexes in a row and their two shared sides, on a 430 m grid, north up.
TINY: dict[str, Any] = {
    "system": "toy",
    "layout": {"basis_q": [372.39, 215.0], "basis_r": [0.0, 430.0], "origin": [1000.0, 2000.0]},
    "hexes": [{"id": "A1", "terrain": "clear", "ground": 0, "stacking": 3},
              {"id": "B1", "terrain": "woods", "ground": 1, "stacking": 3, "victory": 2},
              {"id": "C1", "terrain": "town", "ground": 2, "stacking": 2}],
    "hexsides": [{"a": "A1", "b": "B1", "terrain": ["creek"]},
                 {"a": "B1", "b": "C1", "slope": "hill", "uphill": "C1",
                  "roads": [{"road": "pike", "name": "Baltimore Pike", "class": "pike"}]}],
}


def test_geometry_puts_hexes_on_the_plane() -> None:
    doc = hex_map_json(TINY, BOC)
    assert doc["topology"] == "hex" and map_problem(doc) is None
    lay = TINY["layout"]
    for row in doc["hexes"]:
        h = BOC.parse(row["id"])
        x = lay["origin"][0] + h.q * lay["basis_q"][0] + h.r * lay["basis_r"][0]
        y = lay["origin"][1] + h.q * lay["basis_q"][1] + h.r * lay["basis_r"][1]
        assert row["xy"] == pytest.approx([x, y], abs=0.01)
    corners = doc["layout"]["corners"]
    assert len(corners) == 6
    radius = 430 / math.sqrt(3)  # corner distance of a 430 m hex
    assert all(math.hypot(*c) == pytest.approx(radius, rel=1e-3) for c in corners)
    a, b = (next(r["xy"] for r in doc["hexes"] if r["id"] == k) for k in ("A1", "B1"))
    (x1, y1), (x2, y2) = doc["hexsides"][0]["seg"]
    mid = ((x1 + x2) / 2, (y1 + y2) / 2)
    assert mid == pytest.approx(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2), abs=0.05)
    assert math.hypot(x2 - x1, y2 - y1) == pytest.approx(radius, rel=1e-3)
    assert TINY["hexes"][0].get("xy") is None  # the source document is not modified


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    # The server builds a system's map once and keeps it: put TINY there for the toy.
    saved = systems._built.pop("toy", None)
    systems._built["toy"] = hex_map_json(TINY, BOC)
    store = Store(tmp_path / "g.db")
    with TestClient(create_app(store)) as c:
        yield c
    store.close()
    systems._built.pop("toy", None)
    if saved is not None:
        systems._built["toy"] = saved


def test_map_served_by_system_and_by_game(client: TestClient) -> None:
    doc = client.get("/api/maps/toy").json()
    assert [h["id"] for h in doc["hexes"]] == ["A1", "B1", "C1"]
    r = client.post("/api/games", json={"system": "toy", "scenario": "standard",
                                        "seats": {"red": {"kind": "human"},
                                                  "blue": {"kind": "human"}}})
    g = r.json()
    token = g["seats"]["red"]["token"]
    r = client.get(f"/api/games/{g['game_id']}/map", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200 and r.json()["hexsides"][1]["seg"]
    assert client.get(f"/api/games/{g['game_id']}/map").status_code == 403
    assert client.get("/api/maps/nosuch").status_code == 404


def test_events_name_the_blocks_they_give_by_id_and_no_others() -> None:
    from gettysburg.boc.oob import default_oob

    if systems.map_json("boc") is None:
        pytest.skip("boc/data/board.json is missing")
    perrin = default_oob().units["csa-perrin"].name
    events: list[dict[str, Any]] = [
        {"n": 0, "type": "melee_won", "rule": "7.2",
         "data": {"units": ["csa-perrin"], "hex": "F12", "winner": "csa"}},
        {"n": 1, "type": "hit", "rule": "5.23", "data": {"unit": "b-0123456789ab", "hex": "F12"}},
        {"n": 2, "type": "setup", "rule": "9.0", "data": {"csa-perrin": "K8"}},
    ]
    named = systems.annotate_events("boc", events)
    assert named[0]["names"] == {"csa-perrin": perrin}
    assert "names" not in named[1]  # a hidden block's handle names nobody
    assert named[1]["handles"] == ["b-0123456789ab"]  # but is marked as a handle
    assert "handles" not in named[0] and "handles" not in named[2]
    assert named[2]["names"] == {"csa-perrin": perrin}  # ids as keys too
    assert named[0]["data"] == events[0]["data"]
    assert "names" not in events[0]  # the engine's events are not changed
    assert systems.annotate_events("toy", events) == events  # no roster, nothing added


def test_every_registered_map_keeps_the_contract() -> None:
    """Each system's map JSON has its topology and the plane coordinates docs/maps.md
    promises the client (hex: ids, xy, corners, hexside segments; graph: positions and
    links)."""
    from gettysburg import systems as registry

    checked = []
    for declared in registry.all_systems():
        if declared.map_json is None:
            continue
        doc = declared.map_json()
        assert map_problem(doc) is None, (declared.name, map_problem(doc))
        checked.append(doc["topology"])
    if systems.map_json("boc") is not None:
        assert "hex" in checked


def test_map_problem_names_the_field() -> None:
    doc = hex_map_json(TINY, BOC)
    assert map_problem({**doc, "topology": "maze"}) is not None
    assert "'xy'" in str(map_problem({**doc, "hexes": [{"id": "A1"}]}))
    bad_side = {**doc, "hexsides": [{"a": "A1", "b": "Z9", "seg": [[0, 0], [1, 1]]}]}
    assert "hexsides[0]" in str(map_problem(bad_side))
    positions: list[dict[str, Any]] = [{"id": "p", "name": "P", "xy": [0, 0]}]
    graph = {"topology": "graph", "positions": positions,
             "links": [{"a": "p", "b": "q", "kind": "road"}]}
    assert "links[0]" in str(map_problem(graph))
    positions.append({"id": "q", "name": "Q", "xy": [1.5, 2]})
    assert map_problem(graph) is None
