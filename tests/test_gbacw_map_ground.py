"""The ground model's walls, fences and farm buildings (added for the GBACW sheets): valid
features with sources, inside the model's extent, each building tied to a known farm."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from shapely.geometry import shape

from gettysburg.core.battlefield import load_battlefield

DATA = Path(__file__).resolve().parents[1] / "src" / "gettysburg" / "data" / "battlefield"
W, E, S, N = -77.290, -77.195, 39.763, 39.858


def features(name: str) -> list[dict[str, Any]]:
    doc = json.loads((DATA / name).read_text(encoding="utf-8"))
    assert doc["type"] == "FeatureCollection"
    return list(doc["features"])


def test_walls_and_fences_have_sources_and_lie_on_the_ground() -> None:
    walls = features("walls.geojson")
    kinds = {f["properties"]["kind"] for f in walls}
    assert kinds == {"stone_wall", "fence"}
    for f in walls:
        p = f["properties"]
        assert p["id"] and p["name"] and p["source"], p
        geom = shape(f["geometry"])
        assert geom.geom_type == "LineString" and geom.length > 0
        for lon, lat in geom.coords:
            assert W <= lon <= E and S <= lat <= N, p["id"]


def test_buildings_belong_to_farms_and_most_farms_have_two() -> None:
    farms = {f["properties"]["id"] for f in features("places.geojson")
             if f["properties"]["kind"] == "farm"}
    per: dict[str, int] = {}
    for f in features("buildings.geojson"):
        p = f["properties"]
        assert p["kind"] == "building" and p["source"] and p["farm"] in farms, p
        per[p["farm"]] = per.get(p["farm"], 0) + 1
    assert set(per) == farms
    assert per["farm_wentz"] == 1 and sum(1 for n in per.values() if n >= 2) == len(farms) - 1


def test_the_model_loads_them_with_unique_ids() -> None:
    bf = load_battlefield()
    assert len(list(bf.of_kind("stone_wall"))) >= 5
    assert len(list(bf.of_kind("building"))) == len(features("buildings.geojson"))
