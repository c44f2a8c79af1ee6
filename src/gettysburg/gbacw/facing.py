"""Facing of GBACW units (002 §7.1–§7.2): the type, its front/flank/rear hexes, turning.

A unit on Advance or Attack orders faces a hex *vertex*; on March it faces a
hex*side* (002 §7.11). Directions are those of :data:`gettysburg.core.hexes.DIRECTIONS`
(0..5 going round the hex, ``d`` and ``d+1`` adjacent):

* ``Facing("side", d)``: one front hex, ``h.neighbour(d)``; the opposite hex
  ``h.neighbour(d+3)`` is the rear, the other four are flanks (a column has one
  front and one rear, 002 §8.5; a March unit is read the same way).
* ``Facing("vertex", v)``: the corner between directions ``v`` and ``v+1``.
  Front hexes ``neighbour(v)``, ``neighbour(v+1)``; flanks ``neighbour(v-1)``,
  ``neighbour(v+2)``; rear ``neighbour(v+3)``, ``neighbour(v+4)``.

Both kinds turn in steps of 60 degrees ("one vertex", 002 §7.21); a side and a
vertex facing are 30 degrees apart, and the change between them comes with a
change to or from March orders (free, 002 §7.23): :func:`to_kind`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, cast

from gettysburg.core.hexes import Hex

FacingKind = Literal["vertex", "side"]
_KINDS: tuple[str, ...] = ("vertex", "side")


@dataclass(frozen=True, order=True, slots=True)
class Facing:
    """A facing: ``kind`` "vertex" or "side", ``index`` 0..5 (see the module docstring)."""

    kind: FacingKind
    index: int

    def __post_init__(self) -> None:
        if self.kind not in _KINDS:
            raise ValueError(f"facing kind must be 'vertex' or 'side', not {self.kind!r}")
        if isinstance(self.index, bool) or not isinstance(self.index, int):
            raise ValueError(f"facing index must be an int 0..5, not {self.index!r}")
        if not 0 <= self.index <= 5:
            raise ValueError(f"facing index must be 0..5, not {self.index}")

    @staticmethod
    def vertex(index: int) -> Facing:
        return Facing("vertex", index % 6)

    @staticmethod
    def side(index: int) -> Facing:
        return Facing("side", index % 6)

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "index": self.index}

    @staticmethod
    def from_json(data: object) -> Facing:
        """Parse ``{"kind": "vertex"|"side", "index": 0..5}``; ValueError naming the field."""
        if not isinstance(data, dict):
            raise ValueError(f"facing must be an object with kind and index, not {data!r}")
        kind = data.get("kind")
        index = data.get("index")
        if kind not in _KINDS:
            raise ValueError(f"facing.kind must be 'vertex' or 'side', not {kind!r}")
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index <= 5:
            raise ValueError(f"facing.index must be an int 0..5, not {index!r}")
        return Facing(cast(FacingKind, kind), index)

    def __str__(self) -> str:
        return f"{self.kind} {self.index}"


def front_directions(f: Facing) -> tuple[int, ...]:
    """Directions of the front hexes (002 §7.11): two for a vertex, one for a side."""
    if f.kind == "vertex":
        return (f.index, (f.index + 1) % 6)
    return (f.index,)


def flank_directions(f: Facing) -> tuple[int, ...]:
    """Directions of the flank hexes: two for a vertex, four for a side."""
    if f.kind == "vertex":
        return ((f.index - 1) % 6, (f.index + 2) % 6)
    d = f.index
    return ((d - 1) % 6, (d + 1) % 6, (d - 2) % 6, (d + 2) % 6)


def rear_directions(f: Facing) -> tuple[int, ...]:
    """Directions of the rear hexes: two for a vertex, one for a side."""
    if f.kind == "vertex":
        return ((f.index + 3) % 6, (f.index + 4) % 6)
    return ((f.index + 3) % 6,)


def front_hexes(h: Hex, f: Facing) -> tuple[Hex, ...]:
    """The hexes ``h``'s occupant faces (it moves, fires and shocks only into them, 002 §7.13)."""
    return tuple(h.neighbour(d) for d in front_directions(f))


def flank_hexes(h: Hex, f: Facing) -> tuple[Hex, ...]:
    return tuple(h.neighbour(d) for d in flank_directions(f))


def rear_hexes(h: Hex, f: Facing) -> tuple[Hex, ...]:
    return tuple(h.neighbour(d) for d in rear_directions(f))


Aspect = Literal["front", "flank", "rear"]


def aspect_of(h: Hex, f: Facing, other: Hex) -> Aspect:
    """Whether the adjacent hex ``other`` is front, flank or rear of ``h`` (ValueError if not)."""
    for d in range(6):
        if h.neighbour(d) == other:
            if d in front_directions(f):
                return "front"
            if d in rear_directions(f):
                return "rear"
            return "flank"
    raise ValueError(f"{other} is not adjacent to {h}")


def turn(f: Facing, steps: int) -> Facing:
    """``f`` turned ``steps`` vertices (60 degrees each; positive in direction order)."""
    return Facing(f.kind, (f.index + steps) % 6)


def vertex_steps(a: Facing, b: Facing) -> int:
    """Fewest one-vertex turns from ``a`` to ``b`` (0..3, 002 §7.21); same kind only."""
    if a.kind != b.kind:
        raise ValueError(
            f"cannot count vertex turns between a {a.kind} and a {b.kind} facing "
            "(the change of kind goes with a change of orders, 002 §7.23)"
        )
    d = (b.index - a.index) % 6
    return min(d, 6 - d)


def reversed_facing(f: Facing) -> Facing:
    """The 180-degree turn (002 §7.21 reverses a stack's order when it makes it)."""
    return turn(f, 3)


def adjacent_of_other_kind(f: Facing) -> tuple[Facing, Facing]:
    """The two facings of the other kind 30 degrees either side of ``f``.

    A side ``d`` lies between vertices ``d-1`` and ``d``; a vertex ``v`` lies
    between sides ``v`` and ``v+1``.
    """
    if f.kind == "side":
        return (Facing("vertex", (f.index - 1) % 6), Facing("vertex", f.index))
    return (Facing("side", f.index), Facing("side", (f.index + 1) % 6))


def to_kind(f: Facing, kind: FacingKind, target: Facing | None = None) -> Facing:
    """The facing after a change to or from March orders (002 §7.23: free, any facing).

    With no ``target``: ``f`` if it is already of ``kind``; otherwise the facing
    of the other kind with the same index, which keeps the first front hex in
    front (side ``d`` -> vertex ``d``, fronts ``d`` and ``d+1``; vertex ``v`` ->
    side ``v``). With a ``target`` of ``kind``: that facing, since the change is free.
    """
    if target is not None:
        if target.kind != kind:
            raise ValueError(f"target facing {target} is not of kind {kind!r}")
        return target
    if f.kind == kind:
        return f
    return Facing(kind, f.index)


def facing_towards(h: Hex, front: Hex, kind: FacingKind = "side") -> Facing:
    """The side facing with ``front`` as its front hex, or for ``kind="vertex"`` the
    vertex facing with ``front`` as its first front hex (ValueError if not adjacent)."""
    for d in range(6):
        if h.neighbour(d) == front:
            return Facing(kind, d)
    raise ValueError(f"{front} is not adjacent to {h}")
