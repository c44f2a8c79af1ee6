"""Core hex geometry: properties, and the anchors of spec/boc-facts.md section 1."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gettysburg.boc.board import BOC
from gettysburg.core.hexes import (
    DIRECTIONS,
    Hex,
    Hexside,
    Layout,
    cone,
    disc,
    distance,
    hexsides_of,
    line,
    line_steps,
    ring,
)
from gettysburg.core.hexids import HexIdError, SheetOffsetCodec

coords = st.integers(min_value=-40, max_value=40)
hexes = st.builds(Hex, coords, coords)


def b(ids: str) -> list[Hex]:
    return [BOC.parse(x) for x in ids.split()]


# --- spec anchors ---------------------------------------------------------------


def test_boc_neighbours_of_j6_are_the_spec_list() -> None:
    assert sorted(BOC.parse("J6").neighbours()) == sorted(b("J5 J7 I6 K6 I5 K7"))


def test_boc_letter_plus_one_number_plus_one_is_a_neighbour() -> None:
    assert distance(BOC.parse("Q10"), BOC.parse("R11")) == 1
    assert distance(BOC.parse("Q10"), BOC.parse("R9")) == 2


def test_cone_q10_through_r11_is_the_5_3_diagram() -> None:
    got = [BOC.format(h) for h in cone(BOC.parse("Q10"), BOC.parse("R11"))]
    assert sorted(got) == ["R11", "R12", "S11", "S12", "S13", "T12", "T13"]
    ranges = {x: distance(BOC.parse("Q10"), BOC.parse(x)) for x in got}
    assert ranges == {"R11": 1, "R12": 2, "S11": 2, "S12": 2, "S13": 3, "T12": 3, "T13": 3}


def test_boc_distance_formula_of_the_spec() -> None:
    # max(|dl|, |dn|, |dl - dn|) on (letter, number)
    for a, c in [("A1", "C5"), ("Q10", "T13"), ("H14", "L1"), ("G2", "J6")]:
        ha, hc = BOC.parse(a), BOC.parse(c)
        dl, dn = hc.q - ha.q, -hc.r + ha.r
        assert distance(ha, hc) == max(abs(dl), abs(dn), abs(dl - dn))


# --- codecs -----------------------------------------------------------------------


@given(st.integers(1, 60), st.integers(1, 99))
def test_boc_codec_round_trips(q: int, n: int) -> None:
    h = Hex(q, -n)
    assert BOC.parse(BOC.format(h)) == h


@pytest.mark.parametrize("bad", ["", "10", "Q", "Q0", "q-1", "Q100", "1Q", "Q 10x"])
def test_boc_codec_rejects_bad_ids(bad: str) -> None:
    with pytest.raises(HexIdError):
        BOC.parse(bad)


def test_sheet_offset_codec_matches_the_seed_example_and_round_trips() -> None:
    codec = SheetOffsetCodec(sheets={"A": (0, 0), "B": (0, 100)})
    # seed 002's LOS example: the hexside between 4406 and 4505.
    assert distance(codec.parse("A4406"), codec.parse("A4505")) == 1
    assert distance(codec.parse("A4406"), codec.parse("A4507")) == 2
    for text in ["A0101", "A4406", "B3413", "B5013", "A9999"]:
        assert codec.format(codec.parse(text)) == text
    with pytest.raises(HexIdError):
        codec.parse("Z0101")
    with pytest.raises(HexIdError):
        codec.parse("B341")


@given(st.integers(1, 98), st.integers(1, 98))
def test_sheet_offset_neighbours_are_six_axial_neighbours(col: int, row: int) -> None:
    codec = SheetOffsetCodec(sheets={"A": (0, 0)})
    h = codec.parse(f"A{col:02d}{row:02d}")
    assert len({distance(h, n) for n in h.neighbours()}) == 1


# --- properties -------------------------------------------------------------------


@given(hexes, hexes)
def test_distance_is_a_metric(a: Hex, c: Hex) -> None:
    assert distance(a, c) == distance(c, a) >= 0
    assert (distance(a, c) == 0) == (a == c)


@given(hexes, hexes, hexes)
def test_triangle_inequality(a: Hex, c: Hex, d: Hex) -> None:
    assert distance(a, d) <= distance(a, c) + distance(c, d)


@given(hexes, st.integers(0, 6))
def test_ring_and_disc_sizes(h: Hex, k: int) -> None:
    r = ring(h, k)
    assert len(r) == (6 * k if k else 1)
    assert all(distance(h, x) == k for x in r)
    assert len(set(disc(h, k))) == 1 + 3 * k * (k + 1)


@given(hexes, hexes)
def test_line_is_connected_and_has_distance_plus_one_steps(a: Hex, c: Hex) -> None:
    for tie in ("left", "right"):
        path = line(a, c, tie=tie)
        assert path[0] == a and path[-1] == c
        assert len(path) == distance(a, c) + 1
        assert all(distance(x, y) == 1 for x, y in itertools.pairwise(path))


def test_line_reports_ties_along_a_hexside() -> None:
    a, c = Hex(0, 0), Hex(1, 1)  # runs exactly between Hex(1, 0) and Hex(0, 1)
    steps = line_steps(a, c)
    assert steps[1] == (Hex(0, 1), Hex(1, 0))
    assert line(a, c, "left") != line(a, c, "right")


@given(hexes)
def test_hexsides_are_canonical_keys(h: Hex) -> None:
    sides = hexsides_of(h)
    assert len(set(sides)) == 6
    for n, s in zip(h.neighbours(), sides, strict=True):
        assert Hexside.between(n, h) == s
        assert s.other(h) == n


@given(hexes, st.integers(0, 5))
def test_cone_has_seven_hexes_in_three_ranges(h: Hex, k: int) -> None:
    c = cone(h, h + DIRECTIONS[k])
    assert len(c) == 7
    assert [distance(h, x) for x in c] == [1, 2, 2, 2, 3, 3, 3]


def test_hexside_key_rejects_non_adjacent() -> None:
    with pytest.raises(ValueError):
        Hexside.between(Hex(0, 0), Hex(2, 0))


@given(
    st.floats(0.1, 2.0),
    st.floats(0.0, 2 * math.pi),
    st.floats(-100, 100),
    st.floats(-100, 100),
    hexes,
)
def test_layout_round_trips_and_corners(
    size: float, rot: float, ox: float, oy: float, h: Hex
) -> None:
    bq = (size * math.cos(rot), size * math.sin(rot))
    br = (size * math.cos(rot + math.pi / 3), size * math.sin(rot + math.pi / 3))
    lay = Layout(bq, br, (ox, oy))
    x, y = lay.to_plane(h)
    assert lay.hex_at(x, y) == h
    cx, cy = lay.to_plane(h)
    for px, py in lay.corners(h):
        assert math.isclose(math.hypot(px - cx, py - cy), size / math.sqrt(3), rel_tol=1e-6)
    for n in h.neighbours():
        p, q = lay.hexside_segment(Hexside.between(h, n))
        mx, my = (p[0] + q[0]) / 2, (p[1] + q[1]) / 2
        nx, ny = lay.to_plane(n)
        # The shared edge's midpoint is halfway between the two centres.
        assert math.isclose(mx, (cx + nx) / 2, abs_tol=1e-6)
        assert math.isclose(my, (cy + ny) / 2, abs_tol=1e-6)
