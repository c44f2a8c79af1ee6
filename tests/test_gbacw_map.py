"""The GBACW map sheets A, B and C derived from the ground model (gbacw/mapgen.py): the
stored board is the derivation, every hex seed 004 cites is on its sheet and near its
landmark, and the terrain the book states for its hexes holds."""

from __future__ import annotations

import itertools
import json
import statistics
from pathlib import Path

import pytest

from gettysburg.core.battlefield import Battlefield, load_battlefield
from gettysburg.core.geo import GETTYSBURG
from gettysburg.core.hexes import Hex, line
from gettysburg.core.mapderive import hex_of_place
from gettysburg.core.mapjson import map_problem
from gettysburg.gbacw import mapgen
from gettysburg.gbacw.board import Board, BoardError, board_from_json, board_path, load_board
from gettysburg.gbacw.map_hooks import map_json

# Every hex id seed 004 cites (set-ups, objectives, rules 9.81 and 10.23, reinforcements),
# as collected in ../shared/spec/gbacw-hex-cited-004.csv.
CITED = """
A1133 A1330 A1332 A1429 A1522 A1523 A1622 A1623 A1627 A1634 A1723 A1824 A2314 A2410
A2512 A2610 A2613 A2703 A2810 A2811 A2828 A2909 A3005 A3014 A3214 A3315 A3415 A3515
A3517 A4403 A4704 A4802 A4804 A5101 A5202 A5404 A5806 A6701 A6807 B2129 B2415 B2905
B2924 B3021 B3108 B3125 B3218 B3220 B3221 B3231 B3305 B3328 B3413 B3424 B3431 B3505
B3530 B3531 B3617 B3619 B3633 B3701 B3703 B3705 B3725 B3732 B3806 B3818 B3821 B3827
B3916 B3919 B3921 B3924 B3927 B4015 B4031 B4131 B4232 B4331 B4333 B4432 B4433 B4519
B4520 B4521 B4531 B4620 B4621 B4632 B4719 B4720 B4721 B4732 B4820 B4821 B4832 B4918
B4919 B4920 B4921 B4922 B4932 B5013 B5014 B5015 B5019 B5020 B5021 B5022 B5033 B5113
B5114 B5115 B5116 B5122 B5133 B5214 B5216 B5220 B5221 B5222 B5314 B5319 B5322 B5323
B5419 B5422 B5521 B5523 B5715 B5733 B5810 B5825 B5834 B6221 B6331 B6405 B6410 B6432
B6501 B6511 B6520 B6532 B6620 B6704 B6719 B6720 B6820 B6834 B6920 B6922 B6933 B7020
B7021 C1006 C1015 C1016 C1019 C1029 C1115 C1128 C1141 C1214 C1217 C1229 C1239 C1314
C1327 C1329 C1332 C1415 C1416 C1417 C1419 C1424 C1432 C1437 C1438 C1515 C1521 C1525
C1617 C1627 C1716 C1717 C1718 C1719 C1816 C1817 C1916 C1918 C1924 C1935 C2024 C2035
C2118 C2122 C2123 C2124 C2219 C2313 C2516 C2518 C2624 C2720 C2833 C2934 C3034 C3036
C3116 C3215 C4645
""".split()


@pytest.fixture(scope="module")
def bf() -> Battlefield:
    return load_battlefield()


@pytest.fixture(scope="module")
def board() -> Board:
    return load_board()


def hexes(board: Board, *ids: str) -> list[Hex]:
    return [board.parse(i) for i in ids]


def test_board_file_is_the_derivation_byte_for_byte(bf: Battlefield) -> None:
    text = mapgen.board_text(mapgen.derive(bf))
    assert text == board_path().read_text(encoding="utf-8")


def test_three_sheets_of_about_six_thousand_hexes(board: Board) -> None:
    per = {s: len(board.sheet_hexes(s)) for s in "ABC"}
    assert all(1800 <= n <= 2300 for n in per.values()), per
    assert 5500 <= len(board.hexes) <= 6500
    # C(x, y) = B(x+60, y+5), stated by the book's own pairs (C1029 = B7034, C1016 = B7021).
    assert board.parse("C1029") == board.parse("B7034")
    assert board.parse("C1016") == board.parse("B7021")
    # Sheet A's seam with B (fitted): A5101 is B5133 (both cited for the same batteries).
    assert board.parse("A5101") == board.parse("B5133")


def test_every_cited_hex_parses_and_lies_on_its_sheet(board: Board) -> None:
    assert len(CITED) > 200
    for hid in CITED:
        h = board.parse(hid)
        assert hid[0] in board.hexes[h].sheets, hid
        assert board.codec.local(h, hid[0]) == (int(hid[1:3]), int(hid[3:5])), hid


def test_cited_landmark_hexes_lie_within_a_hex_and_a_half(board: Board) -> None:
    cfg = mapgen.load_config()
    spacing = board.layout.spacing()
    dists = []
    for a in cfg.registration:
        x, y = board.layout.to_plane(board.parse(a.hex))
        lx, ly = GETTYSBURG.to_xy(a.lon, a.lat)
        d = ((x - lx) ** 2 + (y - ly) ** 2) ** 0.5 / spacing
        assert d <= 1.5, (a.hex, a.label, round(d, 2))
        dists.append(d)
    assert statistics.median(dists) <= 1.0
    # The residuals the board keeps are the same figures.
    stored = board.meta["registration_residuals_m"]
    assert len(stored) == len(cfg.registration)
    assert max(stored.values()) <= 1.5 * spacing


def test_the_fitted_scale_is_the_books_125_yards(board: Board) -> None:
    assert abs(board.meta["hex_spacing_m"] - 114.3) / 114.3 < 0.02


def test_sheet_a_offset_is_the_best_fit() -> None:
    cfg = mapgen.load_config()
    fits = mapgen.sheet_offset_fits(cfg, "A", yy=range(30, 35), xx=(0,))
    assert (fits[0][1], fits[0][2]) == tuple(cfg.grid.sheets["A"].origin)


def test_town_hexes_of_the_book_are_town(board: Board) -> None:
    for i in range(18, 28):
        assert board.hex(f"B38{i:02d}").terrain == "town"
    town = [h for h, i in board.hexes.items() if i.terrain == "town"]
    assert 60 <= len(town) <= 130  # the 1863 borough, not the whole sheet
    assert all("B" in board.hexes[h].sheets for h in town)


def test_devils_den_is_rocky_and_little_round_top_steep(board: Board, bf: Battlefield) -> None:
    den = hex_of_place(bf, board.layout, "Devil's Den")
    assert board.hexes[den].terrain == "rocky"
    assert board.hex("C2123").terrain == "rocky"
    for hid in ("C2118", "C2219"):
        h = board.parse(hid)
        assert "steep" in [board.slope(h, n) for n in h.neighbours()], hid
    # Big Round Top stands well above Little Round Top, which stands above the Wheatfield.
    assert board.hex("C2720").level > board.hex("C2219").level > board.hex("C1424").level
    assert board.hex("C2219").level - board.hex("C1424").level >= 3


def test_levels_are_20_foot_steps_of_the_ground(board: Board) -> None:
    square, crest = board.hex("B3821"), board.hex("B5020")
    assert square.level == round((square.height_ft - 400) / 20)
    assert crest.level - square.level >= 3  # Cemetery Hill over the town square


def test_minor_patches_are_dropped() -> None:
    centre = Hex(0, 0)
    levels = {h: 3 for h in [centre, *centre.neighbours()]}
    levels |= {n: 3 for h in centre.neighbours() for n in h.neighbours()}
    levels[centre] = 4
    assert mapgen.drop_minor_patches(levels, 2) == 1 and levels[centre] == 3
    levels[centre], levels[Hex(1, 0)], levels[Hex(0, 1)] = 4, 4, 4  # three hexes: kept
    assert mapgen.drop_minor_patches(levels, 2) == 0 and levels[centre] == 4


def test_slope_classes_only_where_levels_differ(board: Board) -> None:
    assert board.sides
    for s in board.sides.values():
        if s.slope is None:
            continue
        a, b = board.hexes[s.side.a], board.hexes[s.side.b]
        assert a.level != b.level and s.slope in ("minor", "steep", "sheer")
        assert s.uphill == (s.side.a if a.level > b.level else s.side.b)
        assert board.uphill(s.side.a, s.side.b) == s.uphill


def test_unfinished_railroad_bridge_and_cuts(board: Board, bf: Battlefield) -> None:
    # 004 9.81: the bridge over the cut between A1522 and A1723, over A1623.
    a1522, a1623, a1723 = hexes(board, "A1522", "A1623", "A1723")
    assert {"railroad-bridge", "railroad-cut"} <= set(board.hexes[a1623].features)
    bed = {h for s in board.sides.values() for r in s.roads
           if r.name == "Unfinished railroad bed" for h in (s.side.a, s.side.b)}
    # The bed runs through the bridge's middle hex; the two ends lie either side of it.
    assert a1623 in bed and a1522 not in bed and a1723 not in bed
    assert a1522.distance(a1623) == 1 == a1723.distance(a1623)
    assert all(r.road_class == "trail" for s in board.sides.values() for r in s.roads
               if r.name == "Unfinished railroad bed")  # 004 9.82
    # 9.83: a cut where the bed crosses McPherson's and Seminary Ridge (landmarks.md).
    cuts = [h for h, i in board.hexes.items() if "railroad-cut" in i.features]
    for name in ("Railroad cut (McPherson Ridge)", "Railroad cut (Seminary Ridge)"):
        at = hex_of_place(bf, board.layout, name)
        assert min(at.distance(c) for c in cuts) <= 1, name
    assert all(h in bed for h in cuts)


def test_sunken_road_runs_south_west_of_town_on_sheet_b(board: Board) -> None:
    sunk = [h for h, i in board.hexes.items() if "sunken-road" in i.features]
    assert len(sunk) >= 5
    sx, sy = board.layout.to_plane(board.parse("B3821"))
    for h in sunk:
        assert "B" in board.hexes[h].sheets
        x, y = board.layout.to_plane(h)
        assert x < sx + 100 and y < sy + 100  # west and south of the square
    assert any(r.sunken for s in board.sides.values() for r in s.roads)


def test_town_line_of_sight_example_has_its_town_and_street(board: Board) -> None:
    # 004 10.23: B3619 sees B3919 straight along a street; B3617 cannot see B3916.
    along = line(board.parse("B3619"), board.parse("B3919"))
    assert all(board.hexes[h].terrain == "town" for h in along)
    streets = [{r.name for r in s.roads}
               for p, q in itertools.pairwise(along)
               if (s := board.side(p, q)) is not None]
    assert len(streets) == len(along) - 1 and set.intersection(*streets)
    across = line(board.parse("B3617"), board.parse("B3916"))
    inner = across[1:-1]
    assert any(board.hexes[h].terrain == "town" for h in inner)
    shared = [{r.name for r in s.roads} if (s := board.side(p, q)) else set()
              for p, q in itertools.pairwise(across)]
    assert not set.intersection(*shared)  # no one street runs along it


def test_roads_in_the_three_classes_with_bridges(board: Board) -> None:
    classes = {r.road_class: r.name for s in board.sides.values() for r in s.roads}
    assert {"pike", "road", "trail", "railroad"} <= set(classes)
    pike = {r.name for s in board.sides.values() for r in s.roads if r.road_class == "pike"}
    assert pike == {"Baltimore Pike", "Chambersburg Pike", "York Pike"}
    # The Baltimore Pike crosses Rock Creek (a creek hexside) by its bridge.
    crossings = [s.crossing for s in board.sides.values() if s.stream
                 and any(r.name == "Baltimore Pike" for r in s.roads)]
    assert crossings and set(crossings) == {"bridge"}
    # Every road over a creek hexside crosses by a bridge or a ford.
    over = [s for s in board.sides.values() if s.stream and s.roads]
    assert over and all(s.crossing in ("bridge", "ford") for s in over)


def test_streams_creek_hexsides_and_runs_in_hexes(board: Board) -> None:
    assert sum(1 for s in board.sides.values() if s.stream == "creek") > 100
    runs = [h for h, i in board.hexes.items() if "run" in i.features]
    assert len(runs) > 100
    # A road over a run crosses by the ground's bridge or ford, in a run hex.
    over = [i for i in board.hexes.values() if {"bridge", "ford"} & set(i.features)]
    assert len(over) >= 5 and all("run" in i.features for i in over)
    bf = load_battlefield()
    pike = next(c for c in bf.of_kind("bridge") if c.props.extra("road") == "road_chambersburg_pike"
                and "willoughby" in str(c.props.extra("stream")))
    assert "bridge" in board.hexes[board.layout.hex_at(pike.geom.x, pike.geom.y)].features


def test_walls_fences_and_farms(board: Board, bf: Battlefield) -> None:
    angle = hex_of_place(bf, board.layout, "The Angle")
    walls = [s for s in board.sides.values() if s.wall == "stone-wall"]
    assert any(min(angle.distance(h) for h in (s.side.a, s.side.b)) <= 1 for s in walls)
    assert any(s.wall == "fence" for s in board.sides.values())
    # 9.87: a hex holding two or more buildings (out of town) is a farm hex; one is not.
    count: dict[Hex, int] = {}
    for f in bf.of_kind("building"):
        h = board.layout.hex_at(f.geom.x, f.geom.y)
        count[h] = count.get(h, 0) + 1
    two = {h for h, n in count.items() if n >= 2 and h in board.hexes
           and board.hexes[h].terrain != "town"}
    assert len(two) >= 10
    assert two == {h for h, i in board.hexes.items() if "farm" in i.features}
    lone = [f for f in bf.of_kind("building") if f.props.extra("farm") == "farm_wentz"]
    assert len(lone) == 1  # the Wentz house stood alone
    farms = [h for h, i in board.hexes.items() if "farm" in i.features]
    assert all(board.hexes[h].terrain != "town" for h in farms)


def test_breastworks_sites_of_day_two(board: Board) -> None:
    sites = {i.id: i.breastworks for i in board.hexes.values() if i.breastworks}
    assert sum(sites.values()) == 20 and sites["B5013"] == 2
    assert all(i.startswith("B") for i in sites)


def test_entry_areas_one_to_fourteen_on_the_edge(board: Board) -> None:
    entries = {i.entry: h for h, i in board.hexes.items() if i.entry is not None}
    assert sorted(entries) == list(range(1, 15))
    for area, h in entries.items():
        assert any(n not in board.hexes for n in h.neighbours()), area
    report = board.meta["entry_areas"]
    assert all(e["substitute"] and e["reason"] for e in report)
    # The pikes' entries are where those pikes leave the sheets.
    pikes = {e["road"]: e["hex"] for e in report}
    for road in ("Chambersburg Pike", "Baltimore Pike", "York Pike"):
        h = board.parse(pikes[road])
        assert any(r.name == road for n in h.neighbours() if (s := board.side(h, n))
                   for r in s.roads)


def test_map_json_is_a_hex_map_the_client_draws(board: Board) -> None:
    doc = map_json()
    assert map_problem(doc) is None and doc["topology"] == "hex"
    assert len(doc["hexes"]) == len(board.hexes)
    assert {h["sheet"] for h in doc["hexes"]} == {"A", "B", "C"}
    assert {h["terrain"] for h in doc["hexes"]} <= {"clear", "woods", "orchard", "marsh",
                                                    "rocks", "town"}
    size = len(json.dumps(doc, separators=(",", ":")))
    assert size < 3_000_000  # a few MB at most: one request, drawn once


def test_bad_ids_and_bad_files_are_refused_by_name(board: Board, tmp_path: Path) -> None:
    with pytest.raises(BoardError, match="B9999"):
        board.parse("B9999")
    with pytest.raises(BoardError, match="unknown map sheet"):
        board.parse("D1010")
    with pytest.raises(BoardError, match="codec"):
        board_from_json({"codec": {"sheets": {}}, "layout": {}})
    bad = tmp_path / "mapgen.yaml"
    text = mapgen.config_path().read_text(encoding="utf-8")
    bad.write_text(text.replace("hex_yards: 125", "hex_yards: 125\n  colour: red"),
                   encoding="utf-8")
    with pytest.raises(ValueError, match="colour"):
        mapgen.load_config(bad)
    bad.write_text(text.replace("hexes: [A1522, A1623, A1723]", "hexes: [A1522, A9923]"),
                   encoding="utf-8")
    with pytest.raises(ValueError, match="railroad_bridge: A9923"):
        mapgen.derive(load_battlefield(), mapgen.load_config(bad))
