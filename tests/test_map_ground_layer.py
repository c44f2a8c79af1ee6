"""The ground drawn under a graph map (core/mapjson.ground_layer): the battlefield's
landcover, streams and roads in the map's metres, simplified, where the positions are."""

from __future__ import annotations

import json

from shapely.geometry import Point, Polygon

from gettysburg import systems
from gettysburg.core.battlefield import load_battlefield
from gettysburg.core.geo import GETTYSBURG
from gettysburg.core.mapjson import GROUND_AREAS, ground_layer, map_problem


def test_the_ground_layer_holds_the_town_woods_streams_and_roads() -> None:
    bf = load_battlefield()
    ground = ground_layer(bf, GETTYSBURG)
    kinds = {a["kind"] for a in ground["areas"]}
    assert {"town", "woods"} <= kinds <= set(GROUND_AREAS)
    assert {"stream", "pike"} <= {line["kind"] for line in ground["lines"]}
    # The projection is centred on the town square, which stands inside the town's outline.
    town = [Polygon(a["points"]) for a in ground["areas"] if a["kind"] == "town"]
    assert any(p.contains(Point(0, 0)) for p in town)
    # Simplified: a light picture, not the survey.
    assert len(json.dumps(ground)) < 200_000


def test_a_graph_map_with_ground_keeps_the_map_contract() -> None:
    for declared in systems.all_systems():
        doc = declared.map_json() if declared.map_json is not None else None
        if doc is None or "ground" not in doc:
            continue
        assert map_problem(doc) is None
        xs = [p["xy"][0] for p in doc["positions"]]
        ys = [p["xy"][1] for p in doc["positions"]]
        inside = [a for a in doc["ground"]["areas"]
                  if min(xs) <= a["points"][0][0] <= max(xs)
                  and min(ys) <= a["points"][0][1] <= max(ys)]
        assert inside, f"{declared.name}: the ground lies away from its positions"
