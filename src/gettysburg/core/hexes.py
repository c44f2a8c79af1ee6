"""Hex geometry on axial coordinates, independent of any rule system.

Axial coordinates ``(q, r)`` with the implicit cube coordinate ``s = -q - r``.
The six neighbour directions are listed in a fixed order (index 0..5) so that
every derived ordering in the project (neighbour lists, overflow placement,
cones) is deterministic.

Screen/ground layout is *not* decided here: a :class:`Layout` turns axial
coordinates into plane coordinates (flat- or pointy-topped, any rotation), so
the same geometry serves every hex grid a rule system lays on the ground
(registered by least squares, or placed by hand: :mod:`gettysburg.core.topology`).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Literal


@dataclass(frozen=True, order=True, slots=True)
class Hex:
    """A hex in axial coordinates."""

    q: int
    r: int

    @property
    def s(self) -> int:
        return -self.q - self.r

    def __add__(self, other: Hex) -> Hex:
        return Hex(self.q + other.q, self.r + other.r)

    def __sub__(self, other: Hex) -> Hex:
        return Hex(self.q - other.q, self.r - other.r)

    def scale(self, k: int) -> Hex:
        return Hex(self.q * k, self.r * k)

    def neighbour(self, direction: int) -> Hex:
        return self + DIRECTIONS[direction % 6]

    def neighbours(self) -> list[Hex]:
        return [self + d for d in DIRECTIONS]

    def distance(self, other: Hex) -> int:
        dq = self.q - other.q
        dr = self.r - other.r
        return max(abs(dq), abs(dr), abs(dq + dr))


# Fixed order, going round the hex: each direction is adjacent to the ones
# before and after it (index +-1 mod 6), which the cone construction relies on.
DIRECTIONS: tuple[Hex, ...] = (
    Hex(1, 0),
    Hex(1, -1),
    Hex(0, -1),
    Hex(-1, 0),
    Hex(-1, 1),
    Hex(0, 1),
)


def direction_index(delta: Hex) -> int:
    """Index of the unit direction ``delta``; ValueError if not a unit step."""
    try:
        return DIRECTIONS.index(delta)
    except ValueError:
        raise ValueError(f"{delta} is not a neighbour step") from None


def distance(a: Hex, b: Hex) -> int:
    # Arithmetic on the coordinates, no Hex built: the engines call this millions of times.
    dq = a.q - b.q
    dr = a.r - b.r
    return max(abs(dq), abs(dr), abs(dq + dr))


def are_adjacent(a: Hex, b: Hex) -> bool:
    return distance(a, b) == 1


def ring(center: Hex, radius: int) -> list[Hex]:
    """Hexes at exactly ``radius`` from ``center``, in a fixed order."""
    if radius < 0:
        raise ValueError("radius must be >= 0")
    if radius == 0:
        return [center]
    out: list[Hex] = []
    h = center + DIRECTIONS[4].scale(radius)
    for side in range(6):
        for _ in range(radius):
            out.append(h)
            h = h + DIRECTIONS[side]
    return out


def disc(center: Hex, radius: int) -> list[Hex]:
    """Hexes within ``radius`` of ``center`` (centre first, then ring by ring)."""
    out: list[Hex] = []
    for k in range(radius + 1):
        out.extend(ring(center, k))
    return out


# --- hexsides -----------------------------------------------------------------


@dataclass(frozen=True, order=True, slots=True)
class Hexside:
    """The edge between two adjacent hexes, as an unordered pair.

    Stored canonically (``a < b``) so it can key dictionaries no matter which
    side it is looked up from.
    """

    a: Hex
    b: Hex

    @staticmethod
    def between(x: Hex, y: Hex) -> Hexside:
        if not are_adjacent(x, y):
            raise ValueError(f"{x} and {y} are not adjacent")
        return Hexside(x, y) if x < y else Hexside(y, x)

    def other(self, h: Hex) -> Hex:
        if h == self.a:
            return self.b
        if h == self.b:
            return self.a
        raise ValueError(f"{h} is not on hexside {self}")

    def hexes(self) -> tuple[Hex, Hex]:
        return (self.a, self.b)


def hexsides_of(h: Hex) -> list[Hexside]:
    return [Hexside.between(h, n) for n in h.neighbours()]


# --- lines ----------------------------------------------------------------------

# Straight lines are computed in cube space. A line that runs exactly along a
# hexside (or through a vertex) is equidistant from two hexes; the tie rule is
# explicit: ``line_steps`` reports both candidates, ``line`` resolves them by a
# named policy.
TiePolicy = Literal["left", "right"]

_EPS = 1e-9


def _cube_round_candidates(x: float, y: float, z: float) -> list[Hex]:
    """Hexes whose centre is nearest to the cube point; more than one on a tie."""
    best: list[Hex] = []
    best_d = math.inf
    base_q, base_r = math.floor(x), math.floor(y)
    for dq in (0, 1):
        for dr in (0, 1):
            q, r = base_q + dq, base_r + dr
            for cand in (Hex(q, r), Hex(q - 1, r + 1), Hex(q + 1, r - 1)):
                d = _cube_dist_sq(x, y, z, cand)
                if d < best_d - _EPS:
                    best, best_d = [cand], d
                elif abs(d - best_d) <= _EPS and cand not in best:
                    best.append(cand)
    return sorted(best)


def _cube_dist_sq(x: float, y: float, z: float, h: Hex) -> float:
    # Euclidean distance in the plane, expressed through axial differences.
    dq, dr = x - h.q, y - h.r
    return dq * dq + dr * dr + dq * dr


def line_steps(a: Hex, b: Hex) -> list[tuple[Hex, ...]]:
    """The hexes a straight centre-to-centre line from ``a`` to ``b`` crosses.

    Returns one tuple per step (``distance(a, b) + 1`` steps). A tuple holds one
    hex, or two when the line runs exactly along the hexside between them (a
    tie): rules that trace lines of sight decide what a tie means.
    """
    n = distance(a, b)
    steps: list[tuple[Hex, ...]] = []
    for i in range(n + 1):
        t = i / n if n else 0.0
        x = a.q + (b.q - a.q) * t
        y = a.r + (b.r - a.r) * t
        steps.append(tuple(_cube_round_candidates(x, y, -x - y)))
    return steps


def line(a: Hex, b: Hex, tie: TiePolicy = "left") -> list[Hex]:
    """One hex per step; ties broken towards the left (or right) of a->b."""
    out: list[Hex] = []
    for step in line_steps(a, b):
        if len(step) == 1:
            out.append(step[0])
        else:
            out.append(_pick_side(a, b, step, tie))
    return out


def _pick_side(a: Hex, b: Hex, cands: tuple[Hex, ...], tie: TiePolicy) -> Hex:
    # Sign of the cross product tells on which side of a->b a candidate lies.
    ax, ay = axial_to_unit_plane(a)
    bx, by = axial_to_unit_plane(b)

    def side(h: Hex) -> float:
        hx, hy = axial_to_unit_plane(h)
        return (bx - ax) * (hy - ay) - (by - ay) * (hx - ax)

    ranked = sorted(cands, key=side)
    return ranked[-1] if tie == "left" else ranked[0]


def axial_to_unit_plane(h: Hex) -> tuple[float, float]:
    """Plane position for unit hex spacing (distance 1 between neighbours).

    Axis q along +x, axis r at 120 degrees from q; only used for angles and
    sides, never for drawing (see :class:`Layout`).
    """
    return (h.q + h.r * 0.5, h.r * math.sqrt(3) / 2)


# --- cones ----------------------------------------------------------------------


def cone(origin: Hex, through: Hex, max_range: int = 3) -> list[Hex]:
    """Hexes within ``max_range`` whose centre lies within 30 deg (inclusive)
    of the line from ``origin`` through the adjacent hex ``through``.

    This is the firing cone through one hexside; for range 3 it holds 7 hexes
    (``d, 2d, d+u, d+v, 3d, 2d+u, 2d+v`` where ``u``, ``v`` flank ``d``).
    Ordered by range, then by angle from left to right of the fire direction.
    """
    k = direction_index(through - origin)
    d = DIRECTIONS[k]
    dx, dy = axial_to_unit_plane(d)
    out: list[tuple[int, float, Hex]] = []
    for h in disc(origin, max_range)[1:]:
        vx, vy = axial_to_unit_plane(h - origin)
        ang = math.degrees(math.atan2(dx * vy - dy * vx, dx * vx + dy * vy))
        if abs(ang) <= 30.0 + 1e-6:
            out.append((distance(origin, h), -ang, h))
    out.sort()
    return [h for _, _, h in out]


# --- layouts ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Layout:
    """Maps axial hexes to a plane (metres, pixels...) and back.

    ``basis_q`` and ``basis_r`` are the plane vectors of one step along q and r;
    ``origin`` is the plane position of Hex(0, 0). Any similarity (rotation,
    scale, reflection) of a regular hex grid is expressible this way, which is
    what a least-squares registration on real ground produces.
    """

    basis_q: tuple[float, float]
    basis_r: tuple[float, float]
    origin: tuple[float, float]

    def to_plane(self, h: Hex) -> tuple[float, float]:
        return self.point(float(h.q), float(h.r))

    def point(self, q: float, r: float) -> tuple[float, float]:
        return (
            self.origin[0] + q * self.basis_q[0] + r * self.basis_r[0],
            self.origin[1] + q * self.basis_q[1] + r * self.basis_r[1],
        )

    def fractional(self, x: float, y: float) -> tuple[float, float]:
        """Fractional axial coordinates of a plane point."""
        (a, b), (c, d) = self.basis_q, self.basis_r
        det = a * d - b * c
        px, py = x - self.origin[0], y - self.origin[1]
        return ((d * px - c * py) / det, (-b * px + a * py) / det)

    def hex_at(self, x: float, y: float) -> Hex:
        q, r = self.fractional(x, y)
        cands = _cube_round_candidates(q, r, -q - r)
        return cands[0]

    def corners(self, h: Hex) -> list[tuple[float, float]]:
        """The six corners of ``h``, in order, corner i between direction i and i+1."""
        cx, cy = self.to_plane(h)
        out: list[tuple[float, float]] = []
        for i in range(6):
            d1, d2 = DIRECTIONS[i], DIRECTIONS[(i + 1) % 6]
            # A corner sits at the centroid of the hex and two adjacent neighbours.
            px, py = self.point((d1.q + d2.q) / 3.0, (d1.r + d2.r) / 3.0)
            out.append((cx + px - self.origin[0], cy + py - self.origin[1]))
        return out

    def hexside_segment(self, side: Hexside) -> tuple[tuple[float, float], tuple[float, float]]:
        """End points of the edge shared by the two hexes of ``side``."""
        k = direction_index(side.b - side.a)
        cs = self.corners(side.a)
        return cs[(k - 1) % 6], cs[k]

    def spacing(self) -> float:
        """Centre-to-centre distance of neighbours."""
        return math.hypot(*self.basis_q)


def iter_rect(q_range: Iterable[int], r_range: Iterable[int]) -> Iterator[Hex]:
    rs = list(r_range)
    for q in q_range:
        for r in rs:
            yield Hex(q, r)
