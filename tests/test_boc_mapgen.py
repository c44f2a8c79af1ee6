"""Board derivation mechanics on a synthetic battlefield built in a temp dir."""

from __future__ import annotations

import gzip
import json
import math
from pathlib import Path
from typing import Any

import pytest

from gettysburg.boc.board import BOC, Board
from gettysburg.boc.mapgen import MapgenConfig, derive_board, load_config, register
from gettysburg.core.battlefield import BattlefieldError, load_battlefield
from gettysburg.core.geo import GETTYSBURG
from gettysburg.core.hexes import Hexside

CFG = load_config()
LAY = register(CFG).layout


def ll(x: float, y: float) -> list[float]:
    lon, lat = GETTYSBURG.to_lonlat(x, y)
    return [round(lon, 7), round(lat, 7)]


def centre(hid: str) -> tuple[float, float]:
    return LAY.to_plane(BOC.parse(hid))


def hex_ring(hid: str, grow: float = 1.15) -> list[list[float]]:
    cx, cy = centre(hid)
    pts = [ll(cx + (x - cx) * grow, cy + (y - cy) * grow) for x, y in LAY.corners(BOC.parse(hid))]
    return [*pts, pts[0]]


def feature(fid: str, kind: str, geom: dict[str, Any], **props: Any) -> dict[str, Any]:
    return {
        "type": "Feature",
        "geometry": geom,
        "properties": {"id": fid, "kind": kind, "name": props.pop("name", None),
                       "source": "synthetic test", **props},
    }


def write_fc(d: Path, name: str, feats: list[dict[str, Any]]) -> None:
    (d / name).write_text(json.dumps({"type": "FeatureCollection", "features": feats}))


def through(*hids: str) -> dict[str, Any]:
    return {"type": "LineString", "coordinates": [ll(*centre(h)) for h in hids]}


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("battlefield")
    write_fc(d, "landcover.geojson", [
        feature("woods_m8", "woods", {"type": "Polygon", "coordinates": [hex_ring("M8")]}),
        feature("town", "town", {"type": "Polygon", "coordinates": [hex_ring("H6", 1.0)]}),
        feature("rocks", "rocks", {"type": "Polygon", "coordinates": [hex_ring("S9", 0.2)]}),
        feature("orchard", "orchard", {"type": "Polygon", "coordinates": [hex_ring("Q10", 0.3)]}),
    ])
    # A creek crossing the N4/N5 hexside at right angles, and a river along J-row.
    a, b = centre("N4"), centre("N5")
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    vx, vy = b[0] - a[0], b[1] - a[1]
    px, py = -vy * 0.3, vx * 0.3
    write_fc(d, "streams.geojson", [
        feature("creek", "stream", {"type": "LineString",
                "coordinates": [ll(mx - px, my - py), ll(mx + px, my + py)]}, **{"class": "creek"}),
    ])
    write_fc(d, "roads.geojson", [
        feature("pike", "road", through("K16", "K15", "K14", "K13", "K12", "K11", "K10", "K9"),
                name="Test Pike", **{"class": "pike"}),
        feature("lane", "road", through("O4", "O5", "O6"), name="Test Lane", **{"class": "lane"}),
        feature("rail", "railroad", through("D3", "D4", "D5"), name="Test Railroad"),
    ])
    write_fc(d, "crossings.geojson", [])
    write_fc(d, "places.geojson", [
        feature("p_hill", "place", {"type": "Point", "coordinates": ll(*centre("R7"))},
                name="Test Hill"),
    ])
    write_fc(d, "relief.geojson", [])
    # Height field: 520 ft plain with a 140 ft hill on R7.
    west, south, dlon, dlat = -77.30, 39.76, 0.001, 0.001
    rx, ry = centre("R7")
    rows = []
    for i in range(101):
        row = []
        for j in range(101):
            x, y = GETTYSBURG.to_xy(west + j * dlon, south + i * dlat)
            r2 = (x - rx) ** 2 + (y - ry) ** 2
            row.append(int(520 + 140 * math.exp(-r2 / (2 * 260.0**2))))
        rows.append(row)
    with gzip.open(d / "heights.json.gz", "wt") as fh:
        json.dump({"west": west, "south": south, "dlon": dlon, "dlat": dlat, "rows": rows,
                   "source": "synthetic"}, fh)
    return d


def _cfg() -> MapgenConfig:
    raw = CFG.model_dump()
    raw["victory"] = [{"name": "Test Hill", "vp": 2, "place": "Test Hill"}]
    raw["entry_roads"] = [{"name": "Test Pike", "road": "Test Pike", "rule": "test"}]
    # Keep the overrides that need no named ground feature (the synthetic ground has none).
    raw["hex_overrides"] = [o for o in raw["hex_overrides"] if o["hex"] in ("S9", "R7", "Q10")]
    raw["side_overrides"] = []
    return MapgenConfig.model_validate(raw)


@pytest.fixture(scope="module")
def board(synthetic: Path) -> Board:
    return derive_board(load_battlefield(synthetic), _cfg())


def side(board: Board, a: str, b: str) -> Any:
    return board.sides[Hexside.between(BOC.parse(a), BOC.parse(b))]


def test_woods_hex_and_its_hexsides(board: Board) -> None:
    m8 = board.hex("M8")
    assert (m8.terrain, m8.stacking, m8.double_defence) == ("woods", 3, True)
    assert all("woods" in side(board, "M8", n).terrain for n in board.neighbours("M8"))
    assert "woods" not in side(board, "M9", "M10").terrain


def test_town_hexes_are_exactly_the_rulebook_list(board: Board) -> None:
    towns = sorted(i.id for i in board.hexes.values() if i.terrain == "town")
    assert towns == ["G5", "G6", "H6", "H7", "I6", "I7"]
    assert "town" in side(board, "H6", "H7").terrain
    assert "town" not in side(board, "J7", "I7").terrain


def test_overrides_devils_den_little_round_top_peach_orchard(board: Board) -> None:
    s9, r7, q10 = board.hex("S9"), board.hex("R7"), board.hex("Q10")
    assert (s9.terrain, s9.stacking, s9.double_defence) == ("rocks", 2, True)
    assert (r7.terrain, r7.stacking) == ("clear", 2)
    assert q10.terrain == "orchard" and not q10.double_defence
    assert all(not ({"orchard", "woods"} & side(board, "Q10", n).terrain)
               for n in board.neighbours("Q10"))
    assert [o["hex"] for o in board.meta["hex_overrides"]][:3] == ["S9", "R7", "Q10"]


def test_stream_crossing_makes_a_creek_hexside(board: Board) -> None:
    assert side(board, "N4", "N5").terrain == {"creek"}
    assert "creek" not in side(board, "N5", "N6").terrain


def test_hill_gives_levels_and_uphill_slopes(board: Board) -> None:
    assert board.hex("R7").ground == 2
    for n in board.neighbours("R7"):
        s = side(board, "R7", n)
        assert s.uphill == BOC.parse("R7")
        assert s.slope == ("hill" if board.hex(n).ground == 0 else "rise")


def test_roads_are_traced_centre_to_centre_with_classes(board: Board) -> None:
    assert [r.road_class for r in side(board, "K11", "K10").roads] == ["main"]
    assert [r.road_class for r in side(board, "O4", "O5").roads] == ["secondary"]
    rail = side(board, "D4", "D5").roads[0]
    assert rail.rail and rail.road_class == "secondary"
    assert not side(board, "K11", "L11").roads


def test_entry_and_victory_hexes(board: Board) -> None:
    assert [i.id for i in board.entry_hexes("Test Pike")] == ["K14"]
    assert [(i.id, i.victory) for i in board.victory_hexes()] == [("R7", 2)]
    assert "Test Hill" in board.hex("R7").names


def test_derivation_is_deterministic_and_round_trips(synthetic: Path, board: Board) -> None:
    again = derive_board(load_battlefield(synthetic), _cfg())
    a = json.dumps(board.to_json(), sort_keys=True)
    assert a == json.dumps(again.to_json(), sort_keys=True)
    assert json.dumps(Board.from_json(json.loads(a)).to_json(), sort_keys=True) == a


def test_bad_battlefield_file_names_file_feature_and_field(tmp_path: Path, synthetic: Path) -> None:
    for f in synthetic.iterdir():
        (tmp_path / f.name).write_bytes(f.read_bytes())
    write_fc(tmp_path, "places.geojson", [
        {"type": "Feature", "geometry": {"type": "Point", "coordinates": [-77.23, 39.83]},
         "properties": {"id": "bad", "kind": "castle", "source": "x"}},
    ])
    with pytest.raises(BattlefieldError, match=r"places\.geojson: feature 'bad': field 'kind'"):
        load_battlefield(tmp_path)


def test_override_off_the_map_is_an_error(synthetic: Path) -> None:
    raw = _cfg().model_dump()
    raw["hex_overrides"].append({"hex": "A30", "terrain": "woods", "rule": "test"})
    with pytest.raises(ValueError, match="A30 is not on the map"):
        derive_board(load_battlefield(synthetic), MapgenConfig.model_validate(raw))
