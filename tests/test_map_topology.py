"""Maps by topology: hex grids of any orientation, offset layout and sheets, and graphs of
named positions, placed on the one battlefield and derived by the same core code that
derives the BoC board (core/topology.py, core/mapderive.py, core/mapjson.py)."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gettysburg.boc.board import BOC, load_board
from gettysburg.boc.mapgen import load_config, register
from gettysburg.core.battlefield import Battlefield, load_battlefield
from gettysburg.core.geo import GETTYSBURG
from gettysburg.core.hexes import DIRECTIONS, Hex, Hexside, distance
from gettysburg.core.hexids import (
    OFFSET_KINDS,
    HexIdError,
    OffsetKind,
    SheetOffsetCodec,
    axial_to_offset,
    offset_to_axial,
)
from gettysburg.core.mapderive import (
    link_kind,
    sample_grid,
    sample_hex,
    sample_link,
    sample_position,
)
from gettysburg.core.mapjson import graph_map_json, grid_map_json, map_problem
from gettysburg.core.topology import (
    HexGrid,
    Link,
    Position,
    PositionGraph,
    TopologyError,
    placed_layout,
    register_grid,
    sheet_hexes,
)


@pytest.fixture(scope="module")
def bf() -> Battlefield:
    return load_battlefield()


def bearing(v: tuple[float, float]) -> float:
    return math.degrees(math.atan2(v[0], v[1])) % 360.0


# --- codecs -----------------------------------------------------------------------------


@given(st.sampled_from(OFFSET_KINDS), st.integers(-60, 60), st.integers(-60, 60))
def test_offset_layouts_round_trip_and_keep_six_neighbours(
    kind: OffsetKind, col: int, row: int
) -> None:
    h = offset_to_axial(col, row, kind)
    assert axial_to_offset(h, kind) == (col, row)
    # The offset (column, row) straight below or beside is always an axial neighbour.
    step = (0, 1) if kind.endswith("q") else (1, 0)
    assert distance(h, offset_to_axial(col + step[0], row + step[1], kind)) == 1


def test_sheets_side_by_side_share_one_grid() -> None:
    # A sheet C that is sheet B moved by 60 columns and 5 rows: C(x, y) = B(x+60, y+5).
    codec = SheetOffsetCodec(sheets={"B": (0, 0), "C": (60, 5)})
    for x, y in [(1, 1), (10, 34), (33, 7)]:
        assert codec.parse(f"C{x:02d}{y:02d}") == codec.parse(f"B{x + 60:02d}{y + 5:02d}")
    far = codec.parse("C9090")  # beyond sheet B's 99 columns: written on sheet C
    assert codec.format(far) == "C9090" and codec.local(far, "B") is None
    with pytest.raises(HexIdError, match="unknown map sheet"):
        codec.parse("A0101")
    with pytest.raises(HexIdError, match="'offset'"):
        SheetOffsetCodec(offset="odd-x")  # type: ignore[arg-type]
    with pytest.raises(HexIdError, match="'sheets'"):
        SheetOffsetCodec(sheets={"AB": (0, 0)})
    sized = SheetOffsetCodec(sheets={"B": (0, 0), "C": (60, 5)}, sizes={"B": (60, 40)})
    assert sized.format(codec.parse("B6106")) == "C0101"  # past B's last column
    with pytest.raises(HexIdError, match="sheet B runs from column 1 to 60"):
        sized.parse("B6106")


# --- placing and registering grids --------------------------------------------------------


@pytest.mark.parametrize("orientation", ["flat", "pointy"])
@pytest.mark.parametrize("mirrored", [False, True])
def test_placed_layouts_have_the_orientation_asked(orientation: str, mirrored: bool) -> None:
    lay = placed_layout(orientation, 114.3, (10.0, 20.0), mirrored=mirrored)  # type: ignore[arg-type]
    ox, oy = lay.origin
    bearings = sorted(round(bearing((x - ox, y - oy)), 6) % 360
                      for x, y in (lay.point(d.q, d.r) for d in DIRECTIONS))
    want = [0, 60, 120, 180, 240, 300] if orientation == "flat" else [30, 90, 150, 210, 270, 330]
    assert bearings == pytest.approx(want)
    assert lay.spacing() == pytest.approx(114.3)
    grid = HexGrid(codec=BOC, layout=lay, hexes=(Hex(1, -1), Hex(2, -1)))
    assert grid.orientation == orientation


def test_offset_ids_run_east_and_south_as_printed() -> None:
    """An odd-q sheet placed with its codec's handedness: the next row is due south, the
    next column east (turned 90 degrees: rows west, columns south)."""
    codec = SheetOffsetCodec(sheets={"A": (0, 0)}, offset="odd-q")
    for turn, (row_dir, col_dir) in {0.0: (180, 90), 90.0: (270, 180)}.items():
        lay = placed_layout("flat", 100.0, mirrored=codec.mirrored, bearing_deg=turn)
        a, below, beside = (lay.to_plane(codec.parse(t)) for t in ("A0202", "A0203", "A0402"))
        assert bearing((below[0] - a[0], below[1] - a[1])) == pytest.approx(row_dir)
        assert bearing((beside[0] - a[0], beside[1] - a[1])) == pytest.approx(col_dir)


@pytest.mark.parametrize("mirrored", [False, True])
def test_registration_recovers_a_grid_from_its_landmarks(mirrored: bool) -> None:
    codec = SheetOffsetCodec(sheets={"A": (0, 0)}, mirrored=mirrored)
    truth = placed_layout("flat", 114.3, (-2500.0, 1800.0), bearing_deg=77.0, mirrored=mirrored)
    ids = ["A0101", "A0530", "A2214", "A4003", "A3333"]
    marks = [(f"mark {i}", t, *GETTYSBURG.to_lonlat(*truth.to_plane(codec.parse(t))))
             for i, t in enumerate(ids)]
    reg = register_grid(codec, marks)
    assert reg.rms_m < 0.01
    for t in ids:
        got, want = reg.layout.to_plane(codec.parse(t)), truth.to_plane(codec.parse(t))
        assert math.dist(got, want) < 0.01
    with pytest.raises(TopologyError, match="'hex'"):
        register_grid(codec, [*marks, ("bad", "Q10", -77.2, 39.8)])


def test_boc_registration_is_the_core_one() -> None:
    """BoC's registration is the core's least squares over its landmarks: the shipped
    board's layout is what it gives."""
    lay = register(load_config()).layout
    stored = load_board().layout
    assert lay.basis_q == pytest.approx(stored.basis_q, abs=1e-4)
    assert lay.origin == pytest.approx(stored.origin, abs=1e-4)


# --- deriving another grid from the same ground -------------------------------------------


@pytest.fixture(scope="module")
def two_sheets(bf: Battlefield) -> HexGrid:
    """A flat-topped odd-q grid of 250 m hexes in two sheets side by side (A west of B),
    rows running south, laid by hand over the town and Cemetery Hill."""
    codec = SheetOffsetCodec(sheets={"A": (0, 0), "B": (10, 0)}, offset="odd-q",
                             sizes={"A": (10, 12), "B": (10, 12)})
    origin = GETTYSBURG.to_xy(-77.262, 39.842)
    lay = placed_layout("flat", 250.0, origin, mirrored=codec.mirrored)
    sheets = {s: tuple(sheet_hexes(codec, s, (1, 10), (1, 12))) for s in ("A", "B")}
    return HexGrid(codec=codec, layout=lay, hexes=sheets["A"] + sheets["B"], sheets=sheets)


def test_a_different_grid_is_derived_by_the_same_core_code(
    bf: Battlefield, two_sheets: HexGrid
) -> None:
    grid = two_sheets
    assert len(grid.hexes) == 240 and grid.orientation == "flat"
    assert {grid.id(h)[0] for h in grid.sheets["B"]} == {"B"}
    ground = sample_grid(bf, grid)
    assert set(ground.hexes) == set(grid.hexes)
    assert set(ground.sides) == set(grid.hexsides())
    assert len(ground.sides) > 2 * len(grid.hexes)  # a filled grid: most hexes have six
    for s in ground.hexes.values():
        assert all(0.0 <= v <= 1.0 + 1e-9 for v in s.shares.values())
        assert 300 < s.mean_ft < 900
    # The town square's hex is built up; the places of the ground name their hexes.
    square = grid.hex_at_lonlat(-77.2311, 39.8309)
    assert square is not None and ground.hexes[square].shares["town"] > 0.5
    cemetery = bf.find_named("Cemetery Hill", "place")
    h = grid.hex_at_lonlat(cemetery.lonlat.x, cemetery.lonlat.y)
    assert h is not None and "Cemetery Hill" in ground.names[h]
    # The Baltimore Pike leaves the square southwards: traced hex by hex across sheet
    # hexsides, and the sides it crosses are sides of the grid.
    pike = ground.lines["road_baltimore_pike"]
    assert pike and square in pike
    crossed = ground.line_sides("road_baltimore_pike")
    assert len(crossed) >= 3 and all(c in ground.sides for c in crossed)
    assert sum(distance(a, b) == 1 for a, b in itertools.pairwise(pike)) >= len(pike) - 2
    # A stream crossing a hexside is found from that side.
    creek_sides = [s for s in ground.sides.values() if s.streams]
    assert creek_sides and all(0.0 <= s.share("woods") <= 1.0 for s in creek_sides)
    # Heights across a hexside: the profile runs from one hex centre to the other.
    side = next(iter(ground.sides.values()))
    prof = side.profile_ft(5)
    assert len(prof) == 5 and len(side.edge_ft()) == 5
    assert prof[0] == pytest.approx(bf.height_xy(*grid.xy(side.side.a)))
    assert prof[-1] == pytest.approx(bf.height_xy(*grid.xy(side.side.b)))
    # Drawing data for the web client, in the map JSON contract.
    terrain = {h: {"woods": round(s.shares["woods"], 2)} for h, s in ground.hexes.items()}
    crossing = {c: {"roads": ["road_baltimore_pike"]} for c in crossed}
    doc = grid_map_json(grid, terrain, crossing, {"system": "test"})
    assert [r["id"] for r in doc["hexes"]] == [grid.id(h) for h in grid.hexes]
    assert {r["sheet"] for r in doc["hexes"]} == {"A", "B"}
    assert all(r["id"].startswith(r["sheet"]) for r in doc["hexes"])
    assert len(doc["hexsides"]) == len(set(crossed))
    x, y = grid.xy(square)
    assert next(r["xy"] for r in doc["hexes"] if r["id"] == grid.id(square)) == pytest.approx(
        [x, y], abs=0.02)
    assert map_problem(doc) is None and doc["topology"] == "hex"


def test_boc_hexes_are_sampled_by_the_core(bf: Battlefield) -> None:
    board = load_board()
    for hid in ("J6", "R7", "Q10"):
        info = board.hex(hid)
        assert round(sample_hex(bf, board.layout, info.hex).mean_ft, 1) == round(
            info.height_ft, 1)


def test_grid_errors_name_what_is_wrong(two_sheets: HexGrid) -> None:
    with pytest.raises(TopologyError, match="sheet A runs from column 1 to 10"):
        two_sheets.parse("A2020")
    small = HexGrid(codec=two_sheets.codec, layout=two_sheets.layout,
                    hexes=two_sheets.sheets["A"])
    with pytest.raises(TopologyError, match="'B0101' is not a hex of this map"):
        small.parse("B0101")
    with pytest.raises(TopologyError, match="sheet letter"):
        two_sheets.parse("Q10")
    with pytest.raises(TopologyError, match="at least one hex"):
        HexGrid(codec=BOC, layout=two_sheets.layout, hexes=())
    with pytest.raises(TopologyError, match="'spacing_m'"):
        placed_layout("flat", 0.0)
    assert Hexside.between(Hex(0, 0), Hex(1, 0)) in set(
        HexGrid(codec=BOC, layout=two_sheets.layout, hexes=(Hex(0, 0), Hex(1, 0))).hexsides())


# --- graphs of positions ----------------------------------------------------------------


def _graph(bf: Battlefield) -> PositionGraph:
    def at(pid: str, name: str) -> Position:
        f = bf.find_named(name, "place", "landmark")
        return Position(pid, name, f.lonlat.x, f.lonlat.y, {"star": pid in ("cem", "culp")})

    return PositionGraph(
        positions=(at("town", "Gettysburg town square"), at("cem", "Cemetery Hill"),
                   at("culp", "Culp's Hill"), at("angle", "The Angle"),
                   at("lrt", "Little Round Top"), at("spring", "Spangler's Spring")),
        links=(Link("town", "cem", "road"), Link("cem", "culp"), Link("cem", "angle"),
               Link("angle", "lrt"), Link("culp", "spring"), Link("spring", "lrt")),
    )


def test_a_position_graph_on_the_battlefield(bf: Battlefield) -> None:
    g = _graph(bf)
    assert g.neighbours("cem") == ["angle", "culp", "town"]
    assert g.neighbours("cem", kinds=["road"]) == ["town"]
    # By links, the way round by the Angle and the way by Spangler's Spring tie at three;
    # the tie goes to the ids first in order, whatever the order of the links.
    assert g.shortest_path("town", "lrt", weight="links") == ["town", "cem", "angle", "lrt"]
    by_metres = g.shortest_path("culp", "lrt")
    lengths = {
        tuple(p): sum(g.length_m(a, b) for a, b in itertools.pairwise(p))
        for p in (["culp", "cem", "angle", "lrt"], ["culp", "spring", "lrt"])
    }
    assert tuple(by_metres) == min(lengths, key=lambda p: lengths[p])
    assert g.length_m("town", "cem") == pytest.approx(
        math.dist(GETTYSBURG.to_xy(-77.2311, 39.8309), g.xy("cem")))
    with pytest.raises(TopologyError, match="no way"):
        g.shortest_path("town", "lrt", kinds=["road"])
    # Placed on the ground: heights from the height field, ways from the roads.
    assert sample_position(bf, g, "cem").height_ft > sample_position(bf, g, "town").height_ft
    pike = sample_link(bf, g, g.link("town", "cem"))
    assert "road_baltimore_pike" in pike.roads and link_kind(pike) == "road"
    assert pike.length_m == pytest.approx(g.length_m("town", "cem"), abs=0.1)
    doc = graph_map_json(g, {"system": "test"})
    assert map_problem(doc) is None and doc["topology"] == "graph"
    assert doc["positions"][1] == {"id": "cem", "name": "Cemetery Hill", "star": True,
                                   "xy": [round(v, 2) for v in g.xy("cem")]}
    assert {"a": "town", "b": "cem", "kind": "road"} in doc["links"]


def test_bad_graphs_are_refused_naming_the_field(bf: Battlefield) -> None:
    p = (Position("a", "A", -77.23, 39.82), Position("b", "B", -77.24, 39.83))
    with pytest.raises(TopologyError, match="'id' is used twice"):
        PositionGraph(positions=(*p, Position("a", "again", -77.2, 39.8)), links=())
    with pytest.raises(TopologyError, match="field 'b': no position 'c'"):
        PositionGraph(positions=p, links=(Link("a", "c"),))
    with pytest.raises(TopologyError, match="linked twice"):
        PositionGraph(positions=p, links=(Link("a", "b"), Link("b", "a")))
    with pytest.raises(TopologyError, match="two different"):
        PositionGraph(positions=p, links=(Link("a", "a"),))
    with pytest.raises(TopologyError, match="no position 'z'"):
        PositionGraph(positions=p, links=()).neighbours("z")
