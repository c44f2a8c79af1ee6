"""Tests of the shipped battlefield model (src/gettysburg/data/battlefield)."""

from __future__ import annotations

import gzip
import json
import math
import re
from pathlib import Path
from typing import Any

import pytest
from shapely.geometry import Point, shape

DATA = Path(__file__).resolve().parents[1] / "src" / "gettysburg" / "data" / "battlefield"

FILES = {
    "roads.geojson": {"road", "railroad", "railroad_bed"},
    "streams.geojson": {"stream"},
    "crossings.geojson": {"bridge", "ford"},
    "landcover.geojson": {"town", "woods", "orchard", "marsh", "rocks", "field"},
    "places.geojson": {"landmark", "farm", "place"},
    "relief.geojson": {"spot_height", "ridge_line", "valley_line"},
}
GEOM_TYPES = {
    "roads.geojson": {"LineString", "MultiLineString"},
    "streams.geojson": {"LineString"},
    "crossings.geojson": {"Point"},
    "landcover.geojson": {"Polygon", "MultiPolygon"},
    "places.geojson": {"Point"},
}
ROAD_CLASSES = {"pike", "road", "lane"}
STREAM_CLASSES = {"river", "creek"}
VICTORY = {
    "Seminary Ridge",
    "Gettysburg",
    "Benner's Hill",
    "Culp's Hill",
    "Cemetery Hill",
    "Powers Hill",
    "Little Round Top",
    "Big Round Top",
    "Peach Orchard",
}
# Model extent (at least this much must be covered).
W, E, S, N = -77.290, -77.195, 39.763, 39.858
M_PER_DEG_LAT = 110_990.0
M_PER_DEG_LON = 111_320.0 * math.cos(math.radians(39.81))


def load(name: str) -> list[dict[str, Any]]:
    data = json.loads((DATA / name).read_text(encoding="utf-8"))
    assert data["type"] == "FeatureCollection"
    return list(data["features"])


def dist_m(lon1: float, lat1: float, lon2: float, lat2: float) -> float:
    return math.hypot((lon1 - lon2) * M_PER_DEG_LON, (lat1 - lat2) * M_PER_DEG_LAT)


def all_coords(geom: dict[str, Any]) -> list[list[float]]:
    out: list[list[float]] = []

    def walk(c: Any) -> None:
        if isinstance(c[0], (int, float)):
            out.append(c)
        else:
            for x in c:
                walk(x)

    walk(geom["coordinates"])
    return out


@pytest.fixture(scope="module")
def features() -> dict[str, list[dict[str, Any]]]:
    return {name: load(name) for name in FILES}


@pytest.fixture(scope="module")
def heights() -> dict[str, Any]:
    return dict(json.loads(gzip.decompress((DATA / "heights.json.gz").read_bytes())))


def test_every_file_parses_and_has_features(features: dict[str, list[dict[str, Any]]]) -> None:
    for name, feats in features.items():
        assert feats, name


def test_required_properties_and_kinds(features: dict[str, list[dict[str, Any]]]) -> None:
    for name, feats in features.items():
        for f in feats:
            p = f["properties"]
            for key in ("id", "kind", "name", "source"):
                assert key in p, (name, p.get("id"), key)
            assert re.fullmatch(r"[a-z0-9_]+", p["id"]), p["id"]
            assert p["kind"] in FILES[name], (name, p["id"], p["kind"])
            assert isinstance(p["source"], str) and p["source"], p["id"]
            if "aliases" in p:
                assert isinstance(p["aliases"], list)
            if p["name"] is None:
                assert p["kind"] in {"woods", "spot_height"}, p["id"]
            if name in GEOM_TYPES:
                assert f["geometry"]["type"] in GEOM_TYPES[name], p["id"]


def test_ids_unique_across_files(features: dict[str, list[dict[str, Any]]]) -> None:
    ids = [f["properties"]["id"] for feats in features.values() for f in feats]
    dupes = {i for i in ids if ids.count(i) > 1}
    assert not dupes


def test_geometries_valid_and_rounded(features: dict[str, list[dict[str, Any]]]) -> None:
    for feats in features.values():
        for f in feats:
            g = shape(f["geometry"])
            assert g.is_valid and not g.is_empty, f["properties"]["id"]
            for c in all_coords(f["geometry"]):
                assert -77.5 < c[0] < -77.0 and 39.6 < c[1] < 40.0  # lon, lat order
                assert round(c[0], 6) == c[0] and round(c[1], 6) == c[1]


def test_classes(features: dict[str, list[dict[str, Any]]]) -> None:
    for f in features["roads.geojson"]:
        p = f["properties"]
        if p["kind"] == "road":
            assert p["class"] in ROAD_CLASSES, p["id"]
    for f in features["streams.geojson"]:
        assert f["properties"]["class"] in STREAM_CLASSES


def test_rock_creek_is_a_river(features: dict[str, list[dict[str, Any]]]) -> None:
    rock = [f for f in features["streams.geojson"] if f["properties"]["name"] == "Rock Creek"]
    assert len(rock) == 1 and rock[0]["properties"]["class"] == "river"
    # it flows south: downstream end lower in latitude than its upstream end
    coords = rock[0]["geometry"]["coordinates"]
    assert coords[0][1] > coords[-1][1]


def test_crossings_refer_to_real_roads_and_streams(
    features: dict[str, list[dict[str, Any]]],
) -> None:
    roads = {f["properties"]["id"]: shape(f["geometry"]) for f in features["roads.geojson"]}
    streams = {f["properties"]["id"]: shape(f["geometry"]) for f in features["streams.geojson"]}
    for f in features["crossings.geojson"]:
        p = f["properties"]
        assert p["road"] in roads and p["stream"] in streams, p["id"]
        pt = shape(f["geometry"])
        assert roads[p["road"]].distance(pt) < 1e-5
        assert streams[p["stream"]].distance(pt) < 1e-5


def test_every_road_stream_intersection_has_a_crossing(
    features: dict[str, list[dict[str, Any]]],
) -> None:
    crossings = [shape(f["geometry"]) for f in features["crossings.geojson"]]
    for r in features["roads.geojson"]:
        rg = shape(r["geometry"])
        for s in features["streams.geojson"]:
            inter = rg.intersection(shape(s["geometry"]))
            if inter.is_empty:
                continue
            pts = list(getattr(inter, "geoms", [inter]))
            for pt in pts:
                assert any(pt.distance(c) < 1e-5 for c in crossings), (
                    r["properties"]["id"],
                    s["properties"]["id"],
                )


@pytest.mark.parametrize(
    ("road", "bridge_stream"),
    [
        ("road_baltimore_pike", "stream_rock_creek"),
        ("road_york_pike", "stream_rock_creek"),
        ("road_hanover_road", "stream_rock_creek"),
        ("road_harrisburg_road", "stream_rock_creek"),
        ("road_chambersburg_pike", "stream_willoughby_run"),
        ("road_fairfield_road", "stream_willoughby_run"),
        ("road_millerstown_road", "stream_willoughby_run"),
    ],
)
def test_1863_bridges(
    features: dict[str, list[dict[str, Any]]], road: str, bridge_stream: str
) -> None:
    hits = [
        f
        for f in features["crossings.geojson"]
        if f["properties"]["road"] == road and f["properties"]["stream"] == bridge_stream
    ]
    assert hits and all(f["properties"]["kind"] == "bridge" for f in hits)


# landmarks.md section 1 coordinates (lat, lon)
LANDMARKS = {
    "Gettysburg town square": (39.8309, -77.2311),  # R11, R10
    "Evergreen Cemetery gatehouse": (39.8208, -77.2293),  # R7
    "Culp's Hill summit": (39.8201, -77.2204),  # R1
    "Spangler's Spring": (39.8145, -77.2173),  # R2
    "Barlow's Knoll": (39.8456, -77.2264),  # R12
    "Oak Hill": (39.8483, -77.2433),  # R13
    "McPherson barn": (39.8372, -77.2512),  # R14
    "Lutheran Seminary": (39.8319, -77.2447),  # R39
    "Lee's Headquarters": (39.8349, -77.2449),  # R15
    "The Angle": (39.8125, -77.2357),  # R6
    "Devil's Den": (39.7915, -77.2424),  # R5
    "Little Round Top summit": (39.7921, -77.2365),  # R3
    "Big Round Top summit": (39.7863, -77.2392),  # R4
    "Pitzer's Woods": (39.8047, -77.2563),  # R24
    "Stevens' Knoll": (39.8191, -77.2246),  # R34
}


def test_landmarks_near_reference(features: dict[str, list[dict[str, Any]]]) -> None:
    by_name = {
        f["properties"]["name"]: f
        for f in features["places.geojson"]
        if f["properties"]["kind"] == "landmark"
    }
    for name, (lat, lon) in LANDMARKS.items():
        assert name in by_name, name
        x, y = by_name[name]["geometry"]["coordinates"]
        assert dist_m(x, y, lon, lat) < 150, name


def test_victory_places(features: dict[str, list[dict[str, Any]]]) -> None:
    tagged = {
        f["properties"]["name"]
        for f in features["places.geojson"]
        if "victory" in f["properties"].get("tags", [])
    }
    assert tagged == VICTORY


def test_named_features_present(features: dict[str, list[dict[str, Any]]]) -> None:
    lc = features["landcover.geojson"]
    kinds = {f["properties"]["kind"] for f in lc}
    assert {"town", "woods", "orchard", "marsh", "rocks"} <= kinds
    woods = [f for f in lc if f["properties"]["kind"] == "woods"]
    assert len(woods) >= 15
    orchard = [f for f in lc if f["properties"]["name"] == "Peach Orchard"]
    assert orchard and shape(orchard[0]["geometry"]).distance(Point(-77.2492, 39.8011)) < 0.001
    names = {f["properties"]["name"] for f in features["roads.geojson"]}
    for n in (
        "Chambersburg Pike",
        "Baltimore Pike",
        "York Pike",
        "Emmitsburg Road",
        "Taneytown Road",
        "Fairfield Road",
        "Hanover Road",
        "Mummasburg Road",
        "Carlisle Road",
        "Harrisburg Road",
        "Millerstown Road",
    ):
        assert n in names, n
    rel = features["relief.geojson"]
    ridges = {f["properties"]["name"] for f in rel if f["properties"]["kind"] == "ridge_line"}
    for n in (
        "Seminary Ridge",
        "Cemetery Ridge",
        "McPherson Ridge",
        "Herr Ridge",
        "Oak Ridge",
        "Warfield Ridge",
        "Houck's Ridge",
    ):
        assert n in ridges, n
    spots = [f for f in rel if f["properties"]["kind"] == "spot_height"]
    assert len(spots) >= 30
    assert all(isinstance(f["properties"]["elev_ft"], int) for f in spots)


# Roads that leave the extent: (name, edge)
EDGES = [
    ("Chambersburg Pike", "W"),
    ("Fairfield Road", "W"),
    ("Millerstown Road", "W"),
    ("York Pike", "E"),
    ("Hanover Road", "E"),
    ("Baltimore Pike", "E"),
    ("Emmitsburg Road", "S"),
    ("Taneytown Road", "S"),
    ("Mummasburg Road", "N"),
    ("Carlisle Road", "N"),
    ("Harrisburg Road", "N"),
]


@pytest.mark.parametrize(("name", "edge"), EDGES)
def test_roads_reach_extent_edges(
    features: dict[str, list[dict[str, Any]]], name: str, edge: str
) -> None:
    f = next(f for f in features["roads.geojson"] if f["properties"]["name"] == name)
    coords = all_coords(f["geometry"])
    tol = 1e-4
    if edge == "W":
        assert min(c[0] for c in coords) <= W + tol
    elif edge == "E":
        assert max(c[0] for c in coords) >= E - tol
    elif edge == "S":
        assert min(c[1] for c in coords) <= S + tol
    else:
        assert max(c[1] for c in coords) >= N - tol


# landmarks.md "box edge" points (lat, lon) of roads and streams that leave the 6 x 9 km box
BOX_EDGE_POINTS = [
    ("road_chambersburg_pike", 39.8484, -77.2750),
    ("road_fairfield_road", 39.8210, -77.2750),
    ("road_millerstown_road", 39.8015, -77.2750),
    ("road_york_pike", 39.8415, -77.2050),
    ("road_hanover_road", 39.8272, -77.2050),
    ("road_baltimore_pike", 39.8010, -77.2050),
    ("road_taneytown_road", 39.7700, -77.2290),
    ("road_emmitsburg_road", 39.7700, -77.2685),
    ("road_mummasburg_road", 39.8510, -77.2500),
    ("road_carlisle_road", 39.8510, -77.2340),
    ("road_harrisburg_road", 39.8510, -77.2235),
    ("railroad_gettysburg", 39.8410, -77.2050),
    ("railroad_bed_unfinished", 39.8505, -77.2750),
    ("stream_rock_creek", 39.7700, -77.2200),
    ("stream_plum_run", 39.7700, -77.2384),
    ("stream_willoughby_run", 39.7860, -77.2750),
]


@pytest.mark.parametrize(("fid", "lat", "lon"), BOX_EDGE_POINTS)
def test_lines_pass_landmarks_box_edge_points(
    features: dict[str, list[dict[str, Any]]], fid: str, lat: float, lon: float
) -> None:
    feats = features["roads.geojson"] + features["streams.geojson"]
    f = next(f for f in feats if f["properties"]["id"] == fid)
    d_deg = shape(f["geometry"]).distance(Point(lon, lat))
    assert d_deg * M_PER_DEG_LAT < 200, fid


def height_at(h: dict[str, Any], lat: float, lon: float) -> float:
    fx = (lon - h["west"]) / h["dlon"]
    fy = (lat - h["south"]) / h["dlat"]
    i, j = int(fy), int(fx)
    ty, tx = fy - i, fx - j
    r = h["rows"]
    return float(
        r[i][j] * (1 - tx) * (1 - ty)
        + r[i][j + 1] * tx * (1 - ty)
        + r[i + 1][j] * (1 - tx) * ty
        + r[i + 1][j + 1] * tx * ty
    )


def test_heights_header(heights: dict[str, Any]) -> None:
    h = heights
    assert h["units"] == "ft" and h["crs"] == "EPSG:4326"
    assert len(h["rows"]) == h["nrows"] and all(len(r) == h["ncols"] for r in h["rows"])
    assert all(isinstance(v, int) for r in h["rows"] for v in r)
    assert h["west"] <= W and h["south"] <= S
    assert h["west"] + (h["ncols"] - 1) * h["dlon"] >= E - 1e-9
    assert h["south"] + (h["nrows"] - 1) * h["dlat"] >= N - 1e-9
    assert "estimated_note" in h and "source" in h
    assert (DATA / "heights.json.gz").stat().st_size < 400_000


@pytest.mark.parametrize(
    ("what", "lat", "lon", "lo_ft", "hi_ft"),
    [
        ("Little Round Top summit", 39.7921, -77.2365, 635, 685),
        ("Big Round Top summit", 39.7863, -77.2392, 765, 795),
        ("town square", 39.8309, -77.2311, 522, 552),
        ("Cemetery Hill crest", 39.8196, -77.2308, 610, 640),
        ("Culp's Hill summit", 39.8201, -77.2204, 615, 645),
    ],
)
def test_heights_spot_checks(
    heights: dict[str, Any], what: str, lat: float, lon: float, lo_ft: int, hi_ft: int
) -> None:
    z = height_at(heights, lat, lon)
    assert lo_ft <= z <= hi_ft, (what, z)


def test_heights_plausible_everywhere(heights: dict[str, Any]) -> None:
    vals = [v for r in heights["rows"] for v in r]
    assert min(vals) >= 350 and max(vals) <= 820
