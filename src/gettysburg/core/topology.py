"""The two shapes a game map takes on the battlefield: a hex grid or a graph of positions.

Both are placed on the one ground model (local metres of :mod:`gettysburg.core.geo`,
east = +x, north = +y) and know no rule system:

* :class:`HexGrid`: which hexes exist (any size and outline, one sheet or several),
  how their ids are written (a :class:`~gettysburg.core.hexids.HexCodec`) and where
  they lie (a :class:`~gettysburg.core.hexes.Layout`: any spacing, rotation, flat- or
  pointy-topped). A grid is placed either by least squares over landmarks
  (:func:`register_grid`) or by its origin, spacing and bearing (:func:`placed_layout`).
* :class:`PositionGraph`: named positions (id, name, lon/lat, attributes) and the links
  between them (a kind such as road/open/obstructed, and attributes), with neighbours
  and shortest paths.

The derivation steps that sample the ground for either shape live in
:mod:`gettysburg.core.mapderive`; the drawing data sent to the web client in
:mod:`gettysburg.core.mapjson`.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

from gettysburg.core.geo import GETTYSBURG, LocalProjection, Registration, fit_hex_grid
from gettysburg.core.hexes import DIRECTIONS, Hex, Hexside, Layout
from gettysburg.core.hexids import HexCodec, HexIdError, SheetOffsetCodec, offset_to_axial

Orientation = Literal["flat", "pointy"]


class TopologyError(ValueError):
    """A grid or graph that is malformed, or a hex, position or link that is not on it."""


# --- hex grids ------------------------------------------------------------------------


def placed_layout(
    orientation: Orientation,
    spacing_m: float,
    origin_xy: tuple[float, float] = (0.0, 0.0),
    *,
    bearing_deg: float = 0.0,
    mirrored: bool = False,
) -> Layout:
    """A grid laid by hand: Hex(0, 0) at ``origin_xy``, neighbours ``spacing_m`` apart.

    ``flat``: a neighbour due north (flat tops); ``pointy``: a neighbour due east.
    ``bearing_deg`` turns the whole grid clockwise. ``mirrored`` suits codecs whose ids
    run clockwise (:attr:`HexCodec.mirrored`): then +r lies clockwise of +q. Before the
    turn +q points east (pointy) or 30 degrees off east (flat: north of east, or south of
    it when mirrored), so offset columns run east and offset rows south, as printed.
    """
    if spacing_m <= 0:
        raise TopologyError(f"field 'spacing_m' must be > 0, got {spacing_m}")
    if orientation not in ("flat", "pointy"):
        raise TopologyError(f"field 'orientation' must be 'flat' or 'pointy', got {orientation!r}")
    # Angle of +q, anticlockwise from east, before the bearing turns it.
    base = 30.0 if orientation == "flat" else 0.0
    if mirrored and orientation == "flat":
        base = -30.0
    theta = math.radians(base - bearing_deg)
    turn = -60.0 if mirrored else 60.0
    phi = theta + math.radians(turn)
    return Layout(
        basis_q=(spacing_m * math.cos(theta), spacing_m * math.sin(theta)),
        basis_r=(spacing_m * math.cos(phi), spacing_m * math.sin(phi)),
        origin=origin_xy,
    )


def register_grid(
    codec: HexCodec,
    landmarks: Iterable[tuple[str, str, float, float]],
    *,
    spacing_m: float | None = None,
    projection: LocalProjection = GETTYSBURG,
) -> Registration:
    """Lay a grid on the ground by least squares over ``landmarks``: (label, hex id,
    lon, lat) each. The fit follows the codec's handedness; ``spacing_m`` fixes the
    scale (else it is fitted too). A bad hex id is an error naming the landmark."""
    pairs = []
    for label, hex_id, lon, lat in landmarks:
        try:
            h = codec.parse(hex_id)
        except HexIdError as exc:
            raise TopologyError(f"landmark {label!r}: field 'hex': {exc}") from None
        pairs.append((f"{hex_id} {label}", h, projection.to_xy(lon, lat)))
    if len(pairs) < 2:
        raise TopologyError("a grid needs at least two landmarks to be registered")
    return fit_hex_grid(pairs, spacing_m, mirrored=codec.mirrored)


def sheet_hexes(
    codec: SheetOffsetCodec, sheet: str, columns: tuple[int, int], rows: tuple[int, int]
) -> list[Hex]:
    """Every hex of ``sheet`` with local columns and rows in the inclusive ranges given."""
    if sheet not in codec.sheets:
        raise TopologyError(f"unknown map sheet {sheet!r}; have {sorted(codec.sheets)}")
    c0, r0 = codec.sheets[sheet]
    return sorted(
        offset_to_axial(c + c0, r + r0, codec.offset)
        for c in range(columns[0], columns[1] + 1)
        for r in range(rows[0], rows[1] + 1)
    )


@dataclass(frozen=True)
class HexGrid:
    """Hexes placed on the ground, with their printed ids.

    ``sheets`` optionally groups the hexes by printed sheet (name -> its hexes); a hex
    may belong to more than one where sheets overlap.
    """

    codec: HexCodec
    layout: Layout
    hexes: tuple[Hex, ...]
    sheets: Mapping[str, tuple[Hex, ...]] = field(default_factory=dict)
    projection: LocalProjection = GETTYSBURG

    def __post_init__(self) -> None:
        if not self.hexes:
            raise TopologyError("a hex grid needs at least one hex")
        object.__setattr__(self, "hexes", tuple(sorted(set(self.hexes))))
        for name, hs in self.sheets.items():
            off = [h for h in hs if h not in self.on_map]
            if off:
                raise TopologyError(f"sheet {name!r}: {len(off)} hexes not on the grid")

    @cached_property
    def on_map(self) -> frozenset[Hex]:
        return frozenset(self.hexes)

    @property
    def orientation(self) -> Orientation:
        """``flat`` if some neighbour lies within 15 degrees of north, else ``pointy``."""
        for d in DIRECTIONS:
            x, y = self.layout.point(float(d.q), float(d.r))
            x -= self.layout.origin[0]
            y -= self.layout.origin[1]
            if abs(math.degrees(math.atan2(x, y))) < 15.0:
                return "flat"
        return "pointy"

    def id(self, h: Hex) -> str:
        return self.codec.format(h)

    def parse(self, hex_id: str) -> Hex:
        """The hex of ``hex_id``; an error if the id is malformed or off the grid."""
        try:
            h = self.codec.parse(hex_id)
        except HexIdError as exc:
            raise TopologyError(str(exc)) from None
        if h not in self.on_map:
            raise TopologyError(f"{hex_id!r} is not a hex of this map")
        return h

    def neighbours(self, h: Hex) -> list[Hex]:
        return [n for n in h.neighbours() if n in self.on_map]

    def hexsides(self) -> list[Hexside]:
        """Every hexside between two hexes of the grid, sorted."""
        return all_sides(self.hexes)

    def edge(self, h: Hex) -> bool:
        """Whether ``h`` has a neighbour off the grid."""
        return any(n not in self.on_map for n in h.neighbours())

    def xy(self, h: Hex) -> tuple[float, float]:
        return self.layout.to_plane(h)

    def lonlat(self, h: Hex) -> tuple[float, float]:
        return self.projection.to_lonlat(*self.layout.to_plane(h))

    def hex_at_lonlat(self, lon: float, lat: float) -> Hex | None:
        """The grid's hex holding a ground point, or None off the grid."""
        h = self.layout.hex_at(*self.projection.to_xy(lon, lat))
        return h if h in self.on_map else None


def all_sides(hexes: Iterable[Hex]) -> list[Hexside]:
    """Every hexside whose two hexes are both in ``hexes``, sorted."""
    hs = set(hexes)
    out = {Hexside.between(h, n) for h in hs for n in h.neighbours() if n in hs}
    return sorted(out)


# --- graphs of positions --------------------------------------------------------------


@dataclass(frozen=True)
class Position:
    """A named place a piece can stand on: where it is and what it is like."""

    id: str
    name: str
    lon: float
    lat: float
    attrs: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Link:
    """A way between two positions (unordered): its ``kind`` (``road``, ``open``,
    ``obstructed``...) and any attributes (``length_m`` is filled in when placed)."""

    a: str
    b: str
    kind: str = "open"
    attrs: Mapping[str, Any] = field(default_factory=dict)

    def other(self, pid: str) -> str:
        if pid == self.a:
            return self.b
        if pid == self.b:
            return self.a
        raise TopologyError(f"position {pid!r} is not on link {self.a}-{self.b}")


@dataclass(frozen=True)
class PositionGraph:
    """Positions and links placed on the battlefield. Ids are unique, links join two
    different known positions and no pair is linked twice (each checked, by name)."""

    positions: tuple[Position, ...]
    links: tuple[Link, ...]
    projection: LocalProjection = GETTYSBURG

    def __post_init__(self) -> None:
        seen: set[str] = set()
        for p in self.positions:
            if not p.id:
                raise TopologyError("position: field 'id' must not be empty")
            if p.id in seen:
                raise TopologyError(f"position {p.id!r}: field 'id' is used twice")
            if not (math.isfinite(p.lon) and math.isfinite(p.lat)):
                raise TopologyError(f"position {p.id!r}: field 'lon'/'lat' must be numbers")
            seen.add(p.id)
        pairs: set[frozenset[str]] = set()
        for k in self.links:
            for end in ("a", "b"):
                if getattr(k, end) not in seen:
                    raise TopologyError(
                        f"link {k.a}-{k.b}: field {end!r}: no position {getattr(k, end)!r}")
            if k.a == k.b:
                raise TopologyError(f"link {k.a}-{k.b}: a link joins two different positions")
            pair = frozenset((k.a, k.b))
            if pair in pairs:
                raise TopologyError(f"link {k.a}-{k.b}: the pair is linked twice")
            pairs.add(pair)

    @cached_property
    def by_id(self) -> dict[str, Position]:
        return {p.id: p for p in self.positions}

    @cached_property
    def _adjacent(self) -> dict[str, list[tuple[str, Link]]]:
        out: dict[str, list[tuple[str, Link]]] = {p.id: [] for p in self.positions}
        for k in self.links:
            out[k.a].append((k.b, k))
            out[k.b].append((k.a, k))
        for v in out.values():
            v.sort(key=lambda t: t[0])  # a fixed order: ids
        return out

    def position(self, pid: str) -> Position:
        try:
            return self.by_id[pid]
        except KeyError:
            raise TopologyError(f"no position {pid!r} on this map") from None

    def xy(self, pid: str) -> tuple[float, float]:
        p = self.position(pid)
        return self.projection.to_xy(p.lon, p.lat)

    def neighbours(self, pid: str, kinds: Sequence[str] | None = None) -> list[str]:
        """Positions linked to ``pid`` (only by links of ``kinds`` if given), by id."""
        self.position(pid)
        return [n for n, k in self._adjacent[pid] if kinds is None or k.kind in kinds]

    def link(self, a: str, b: str) -> Link:
        for n, k in self._adjacent[self.position(a).id]:
            if n == b:
                return k
        raise TopologyError(f"no link between {a!r} and {b!r}")

    def length_m(self, a: str, b: str) -> float:
        """Straight-line ground distance between two positions."""
        (ax, ay), (bx, by) = self.xy(a), self.xy(b)
        return math.hypot(bx - ax, by - ay)

    def shortest_path(
        self,
        start: str,
        goal: str,
        *,
        weight: str = "metres",
        kinds: Sequence[str] | None = None,
    ) -> list[str]:
        """The shortest chain of positions from ``start`` to ``goal`` (both included),
        by ground distance (``weight="metres"``) or number of links (``"links"``),
        using only links of ``kinds`` if given. Ties go to the path first by ids, so the
        answer never depends on the order links were listed. An error if none exists."""
        self.position(start)
        self.position(goal)
        if weight not in ("metres", "links"):
            raise TopologyError(f"field 'weight' must be 'metres' or 'links', got {weight!r}")
        best: dict[str, float] = {start: 0.0}
        queue: list[tuple[float, list[str]]] = [(0.0, [start])]
        done: set[str] = set()
        while queue:
            cost, path = heapq.heappop(queue)
            here = path[-1]
            if here in done:
                continue
            if here == goal:
                return path
            done.add(here)
            for n, k in self._adjacent[here]:
                if n in done or (kinds is not None and k.kind not in kinds):
                    continue
                step = 1.0 if weight == "links" else self.length_m(here, n)
                c = cost + step
                if c <= best.get(n, math.inf) + 1e-9:
                    best[n] = min(c, best.get(n, math.inf))
                    heapq.heappush(queue, (c, [*path, n]))
        raise TopologyError(f"no way from {start!r} to {goal!r} on this map")
