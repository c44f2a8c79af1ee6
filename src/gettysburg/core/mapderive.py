"""The generic steps that derive a game map from the battlefield model.

Every step is parameterised by the map's shape (a :class:`~gettysburg.core.hexes.Layout`
and its hexes, or a :class:`~gettysburg.core.topology.PositionGraph`), never by a rule
system: a system's own map generator calls these and keeps only its choices (thresholds,
which landcover makes which terrain, overrides). Deterministic: hexes and hexsides are
visited in sorted order and features in the battlefield's order.

Hex grids: hex polygons and hexside "diamonds", the share of each landcover in them,
heights sampled over a hex, streams crossing the centre-to-centre segment of a hexside,
lines (roads, streams) traced hex by hex, places named in each hex, where a line leaves
the map. Graphs: each position's height and cover, each link's length, cover along
its corridor, the roads that follow it and the streams it crosses.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np
from shapely import geometry as sg
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

from gettysburg.core.battlefield import Battlefield, Feature
from gettysburg.core.geo import LocalProjection
from gettysburg.core.hexes import Hex, Hexside, Layout
from gettysburg.core.topology import HexGrid, Link, PositionGraph, all_sides

#: Landcover kinds whose polygons the derivation measures (Battlefield.area_union).
COVER_KINDS = ("woods", "orchard", "town", "marsh", "rocks")

# --- shapes ---------------------------------------------------------------------------


def hex_polygon(layout: Layout, h: Hex) -> sg.Polygon:
    return sg.Polygon(layout.corners(h))


def side_diamond(layout: Layout, side: Hexside) -> sg.Polygon:
    """The quadrilateral of both hex centres and the shared edge's end points."""
    p, q = layout.hexside_segment(side)
    return sg.Polygon([layout.to_plane(side.a), p, layout.to_plane(side.b), q])


def centre_segment(layout: Layout, side: Hexside) -> sg.LineString:
    """The segment joining the two hex centres of a hexside (what a stream crosses)."""
    return sg.LineString([layout.to_plane(side.a), layout.to_plane(side.b)])


def share(area: BaseGeometry, cover: BaseGeometry) -> float:
    """The fraction of ``area`` that ``cover`` covers (0 for an empty cover)."""
    if cover.is_empty or area.area == 0:
        return 0.0
    return float(area.intersection(cover).area / area.area)


def sample_points(layout: Layout, h: Hex) -> list[tuple[float, float]]:
    """37 points spread over a hex: its centre and three rings."""
    cx, cy = layout.to_plane(h)
    inr = layout.spacing() / 2
    pts = [(cx, cy)]
    for frac, n in ((0.3, 6), (0.6, 12), (0.9, 18)):
        for k in range(n):
            a = 2 * math.pi * k / n
            pts.append((cx + frac * inr * math.cos(a), cy + frac * inr * math.sin(a)))
    return pts


def within_latitudes(
    layout: Layout, candidates: Iterable[Hex], south_lat: float, north_lat: float,
    projection: LocalProjection,
) -> list[Hex]:
    """The candidates whose centre lies between two latitudes (inclusive), sorted."""
    out: list[Hex] = []
    for h in candidates:
        _, lat = projection.to_lonlat(*layout.to_plane(h))
        if south_lat <= lat <= north_lat:
            out.append(h)
    return sorted(out)


# --- per hex and per hexside ----------------------------------------------------------


@dataclass
class HexSample:
    """What the ground holds in one hex: landcover shares and sampled heights (feet)."""

    hex: Hex
    poly: sg.Polygon
    shares: dict[str, float]
    heights_ft: np.ndarray

    @property
    def mean_ft(self) -> float:
        return float(self.heights_ft.mean())

    def percentile_ft(self, p: float) -> float:
        return float(np.percentile(self.heights_ft, p))


def sample_hex(bf: Battlefield, layout: Layout, h: Hex) -> HexSample:
    poly = hex_polygon(layout, h)
    shares = {k: share(poly, g) for k, g in bf.area_union.items()}
    heights = np.array([bf.height_xy(x, y) for x, y in sample_points(layout, h)])
    return HexSample(hex=h, poly=poly, shares=shares, heights_ft=heights)


def sample_hexes(bf: Battlefield, layout: Layout, hexes: Iterable[Hex]) -> dict[Hex, HexSample]:
    return {h: sample_hex(bf, layout, h) for h in hexes}


@dataclass
class SideSample:
    """What the ground holds across one hexside: the streams crossing its centre-to-centre
    segment (battlefield order) and, on demand, the landcover share of its diamond and
    the heights along the segment or the shared edge."""

    side: Hexside
    diamond: sg.Polygon
    streams: tuple[Feature, ...]
    _covers: dict[str, BaseGeometry] = field(repr=False, default_factory=dict)
    _shares: dict[str, float] = field(repr=False, default_factory=dict)
    _bf: Battlefield | None = field(repr=False, default=None)
    _layout: Layout | None = field(repr=False, default=None)

    def share(self, kind: str) -> float:
        """Share of the diamond covered by ``kind`` (worked out once, when first asked)."""
        if kind not in self._shares:
            self._shares[kind] = share(self.diamond, self._covers[kind])
        return self._shares[kind]

    def profile_ft(self, n: int = 7) -> np.ndarray:
        """Heights at ``n`` points evenly along the segment from ``side.a``'s centre to
        ``side.b``'s (both ends included): what a slope or a crest between them shows."""
        assert self._layout is not None
        return self._heights(self._layout.to_plane(self.side.a),
                             self._layout.to_plane(self.side.b), n)

    def edge_ft(self, n: int = 5) -> np.ndarray:
        """Heights at ``n`` points evenly along the shared edge (ends included)."""
        assert self._layout is not None
        p, q = self._layout.hexside_segment(self.side)
        return self._heights(p, q, n)

    def _heights(self, p: tuple[float, float], q: tuple[float, float], n: int) -> np.ndarray:
        if self._bf is None or n < 2:
            raise ValueError("a hexside's heights need its battlefield and n >= 2")
        bf = self._bf
        ts = [k / (n - 1) for k in range(n)]
        return np.array([bf.height_xy(p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t)
                         for t in ts])


def sample_side(bf: Battlefield, layout: Layout, side: Hexside) -> SideSample:
    seg = centre_segment(layout, side)
    streams = tuple(f for f in bf.of_kind("stream") if f.geom.intersects(seg))
    return SideSample(side=side, diamond=side_diamond(layout, side), streams=streams,
                      _covers=bf.area_union, _bf=bf, _layout=layout)


def sample_sides(
    bf: Battlefield, layout: Layout, hexes: Iterable[Hex]
) -> dict[Hexside, SideSample]:
    """Every hexside between two of ``hexes``, sorted, sampled."""
    return {s: sample_side(bf, layout, s) for s in all_sides(hexes)}


# --- lines ----------------------------------------------------------------------------


def trace_line(layout: Layout, line: BaseGeometry, on_map: set[Hex] | frozenset[Hex],
               min_run: float) -> list[Hex]:
    """The on-map hexes a line passes through, in order.

    The line is sampled every 10 m. Brief clips of a hex corner (shorter than
    ``min_run`` metres) are dropped when the hexes either side of them are adjacent, so
    a road runs centre to centre as printed on a hex map. Consecutive hexes may be apart
    where the line leaves the map and comes back (see :func:`chain_sides`).
    """
    parts = list(getattr(line, "geoms", [line]))
    chain: list[Hex] = []
    for part in parts:
        runs: list[tuple[Hex, float]] = []
        length = part.length
        n = max(2, int(length / 10.0) + 1)
        for i in range(n):
            x, y = part.interpolate(length * i / (n - 1)).coords[0]
            h = layout.hex_at(x, y)
            step = length / (n - 1)
            if runs and runs[-1][0] == h:
                runs[-1] = (h, runs[-1][1] + step)
            else:
                runs.append((h, step))
        # Drop short clips whose neighbours in the sequence touch each other.
        changed = True
        while changed:
            changed = False
            for i in range(1, len(runs) - 1):
                h, run = runs[i]
                prev, nxt = runs[i - 1][0], runs[i + 1][0]
                if run < min_run and (prev == nxt or prev.distance(nxt) == 1):
                    del runs[i]
                    changed = True
                    break
        seq: list[Hex] = []
        for h, _ in runs:
            if not seq or seq[-1] != h:
                seq.append(h)
        chain.extend(h for h in seq if h in on_map)
    return chain


def chain_sides(chain: list[Hex]) -> list[Hexside]:
    """The hexsides a traced chain crosses: consecutive hexes that are neighbours."""
    return [Hexside.between(a, b) for a, b in itertools.pairwise(chain)
            if a.distance(b) == 1]


def crossing_near(
    layout: Layout, side: Hexside, road: Feature, crossings: Iterable[Feature]
) -> Feature | None:
    """The bridge or ford the ground records for ``road`` nearest this hexside (within
    one hex of the middle of its centre-to-centre segment), or None."""
    mid = centre_segment(layout, side).centroid
    best: tuple[float, Feature] | None = None
    for c in crossings:
        if c.props.extra("road") != road.id:
            continue
        d = c.geom.distance(mid)
        if d <= layout.spacing() and (best is None or d < best[0]):
            best = (d, c)
    return best[1] if best else None


def footprint(layout: Layout, hexes: Iterable[Hex]) -> BaseGeometry:
    """The ground the hexes cover, as one shape."""
    return unary_union([hex_polygon(layout, h) for h in hexes])


def exit_hex(line: BaseGeometry, chain: list[Hex], area: BaseGeometry) -> Hex | None:
    """The hex where a traced line leaves the map: its last hex if the line ends off
    ``area``, else its first if it starts off it, else None (it stays on the map)."""
    if not chain:
        return None
    parts = list(getattr(line, "geoms", [line]))
    first_out = not area.contains(sg.Point(next(iter(parts[0].coords))))
    last_out = not area.contains(sg.Point(list(parts[-1].coords)[-1]))
    if last_out:
        return chain[-1]
    if first_out:
        return chain[0]
    return None


# --- names and places -----------------------------------------------------------------


def place_names(bf: Battlefield, layout: Layout, on_map: Iterable[Hex]) -> dict[Hex, list[str]]:
    """The names of the ground's places and landmarks (points) in each on-map hex."""
    hs = set(on_map)
    out: dict[Hex, list[str]] = {}
    for f in sorted(bf.of_kind("place", "landmark"), key=lambda f: f.id):
        if not f.name or f.geom.geom_type != "Point":
            continue
        h = layout.hex_at(f.geom.x, f.geom.y)
        if h in hs:
            out.setdefault(h, []).append(f.name)
    return out


def hex_of_place(bf: Battlefield, layout: Layout, name: str) -> Hex:
    """The hex holding the named place or landmark (its representative point)."""
    f = bf.find_named(name, "landmark", "place")
    pt = f.geom.representative_point()
    return layout.hex_at(pt.x, pt.y)


# --- a whole grid ---------------------------------------------------------------------

#: Line features a grid traces by default: every road, railroad and stream.
LINE_KINDS = ("road", "railroad", "railroad_bed", "stream")


@dataclass
class GridGround:
    """The ground sampled on a whole grid: what a system classifies into its terrain."""

    grid: HexGrid
    hexes: dict[Hex, HexSample]
    sides: dict[Hexside, SideSample]
    lines: dict[str, list[Hex]]  # feature id -> hexes it runs through
    names: dict[Hex, list[str]]

    def line_sides(self, fid: str) -> list[Hexside]:
        return chain_sides(self.lines.get(fid, []))


def sample_grid(
    bf: Battlefield, grid: HexGrid, *, line_kinds: Iterable[str] = LINE_KINDS,
    min_run_m: float | None = None,
) -> GridGround:
    """Sample every hex and hexside of ``grid`` and trace its lines (clips shorter than
    ``min_run_m`` dropped: by default a seventh of the hex spacing)."""
    lay = grid.layout
    run = lay.spacing() / 7 if min_run_m is None else min_run_m
    kinds = tuple(line_kinds)
    lines = {f.id: trace_line(lay, f.geom, grid.on_map, run)
             for f in sorted(bf.of_kind(*kinds), key=lambda f: f.id)}
    return GridGround(
        grid=grid,
        hexes=sample_hexes(bf, lay, grid.hexes),
        sides=sample_sides(bf, lay, grid.hexes),
        lines={k: v for k, v in lines.items() if v},
        names=place_names(bf, lay, grid.hexes),
    )


# --- graphs ---------------------------------------------------------------------------


@dataclass(frozen=True)
class PositionSample:
    height_ft: float
    cover: str | None  # the landcover kind under the position, if any


@dataclass(frozen=True)
class LinkSample:
    length_m: float
    cover: dict[str, float]  # landcover kind -> share of the link's corridor
    roads: tuple[str, ...]  # road/railroad ids that join the two ends without a detour
    streams: tuple[str, ...]  # stream ids the link crosses


def sample_position(bf: Battlefield, graph: PositionGraph, pid: str) -> PositionSample:
    x, y = graph.xy(pid)
    pt = sg.Point(x, y)
    cover = next((k for k in COVER_KINDS if bf.area_union[k].contains(pt)), None)
    return PositionSample(height_ft=bf.height_xy(x, y), cover=cover)


def roads_between(
    bf: Battlefield, a: tuple[float, float], b: tuple[float, float], *,
    end_m: float = 250.0, detour: float = 1.5,
) -> tuple[str, ...]:
    """Roads and railroads that join two ground points: each passes within ``end_m`` of
    both, and its stretch between them is at most ``detour`` times the straight line."""
    pa, pb = sg.Point(a), sg.Point(b)
    straight = pa.distance(pb)
    out = []
    for f in sorted(bf.of_kind("road", "railroad", "railroad_bed"), key=lambda f: f.id):
        if f.geom.distance(pa) > end_m or f.geom.distance(pb) > end_m:
            continue
        along = abs(f.geom.project(pb) - f.geom.project(pa))
        if along <= detour * straight:
            out.append(f.id)
    return tuple(out)


def sample_link(
    bf: Battlefield, graph: PositionGraph, link: Link, *, corridor_m: float = 60.0,
    end_m: float = 250.0,
) -> LinkSample:
    """A link's ground: its straight line's length, the cover of the corridor
    ``corridor_m`` wide along it, the roads that join its ends (:func:`roads_between`)
    and the streams its straight line crosses."""
    a, b = graph.xy(link.a), graph.xy(link.b)
    seg = sg.LineString([a, b])
    corridor = seg.buffer(corridor_m / 2, cap_style="flat")
    cover = {k: round(share(corridor, g), 4) for k, g in bf.area_union.items()}
    streams = tuple(sorted(f.id for f in bf.of_kind("stream") if f.geom.intersects(seg)))
    return LinkSample(length_m=round(seg.length, 1), cover=cover,
                      roads=roads_between(bf, a, b, end_m=end_m), streams=streams)


def link_kind(sample: LinkSample, *, obstructed_share: float = 0.5,
              obstructing: Iterable[str] = ("woods", "marsh", "rocks", "town")) -> str:
    """A plain reading of a link's sample: ``road`` if a road follows it, ``obstructed``
    if cover of the ``obstructing`` kinds takes ``obstructed_share`` of its corridor,
    else ``open``. A system may read the sample its own way."""
    if sample.roads:
        return "road"
    if sum(sample.cover.get(k, 0.0) for k in obstructing) >= obstructed_share:
        return "obstructed"
    return "open"
