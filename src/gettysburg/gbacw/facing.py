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

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, cast

from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import RuleError

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
    """Directions of the flank hexes: two for a vertex, four for a side
    (002 §7.11; a side's as §8.51 and E-26)."""
    if f.kind == "vertex":
        return ((f.index - 1) % 6, (f.index + 2) % 6)
    d = f.index
    return ((d - 1) % 6, (d + 1) % 6, (d - 2) % 6, (d + 2) % 6)


def rear_directions(f: Facing) -> tuple[int, ...]:
    """Directions of the rear hexes: two for a vertex, one for a side
    (002 §7.11; a side's as §8.51 and E-26)."""
    if f.kind == "vertex":
        return ((f.index + 3) % 6, (f.index + 4) % 6)
    return ((f.index + 3) % 6,)


def front_hexes(h: Hex, f: Facing) -> tuple[Hex, ...]:
    """The hexes ``h``'s occupant faces (it moves, fires and shocks only into them, 002 §7.13)."""
    return tuple(h.neighbour(d) for d in front_directions(f))


def flank_hexes(h: Hex, f: Facing) -> tuple[Hex, ...]:
    """The flank hexes of a unit at ``h`` facing ``f`` (002 §7.11; a side facing's as §8.51,
    E-26)."""
    return tuple(h.neighbour(d) for d in flank_directions(f))


def rear_hexes(h: Hex, f: Facing) -> tuple[Hex, ...]:
    """The rear hexes of a unit at ``h`` facing ``f`` (002 §7.11; a side facing's as §8.51,
    E-26)."""
    return tuple(h.neighbour(d) for d in rear_directions(f))


Aspect = Literal["front", "flank", "rear"]


def aspect_of(h: Hex, f: Facing, other: Hex) -> Aspect:
    """Whether the adjacent hex ``other`` is front, flank or rear of ``h`` (ValueError if not)
    (002 §7.11)."""
    for d in range(6):
        if h.neighbour(d) == other:
            if d in front_directions(f):
                return "front"
            if d in rear_directions(f):
                return "rear"
            return "flank"
    raise ValueError(f"{other} is not adjacent to {h}")


def turn(f: Facing, steps: int) -> Facing:
    """``f`` turned ``steps`` vertices (60 degrees each; positive in direction order)
    (002 §7.21)."""
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
    between sides ``v`` and ``v+1`` (002 §7.23).
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
    vertex facing with ``front`` as its first front hex (ValueError if not adjacent) (002 §7.11)."""
    for d in range(6):
        if h.neighbour(d) == front:
            return Facing(kind, d)
    raise ValueError(f"{front} is not adjacent to {h}")


# --- facing-change costs (002 §7.2) ---------------------------------------------

Orders = Literal["march", "advance", "attack"]


def turning_cost(
    steps: int,
    *,
    orders: str,
    in_woods: bool,
    turned_in_hex: int = 0,
    unit_class: str = "infantry",
) -> int:
    """MP for turning ``steps`` vertices in one hex (002 §7.21–§7.22, E-12).

    ``turned_in_hex`` is how many vertices the unit already turned in this hex
    during the activation: the first vertex per hex is free and anything beyond
    costs 1 MP once (§7.21). Under Attack orders in a woods hex each vertex costs
    1 MP, but a 180-degree turn costs 1 MP in all (§7.22). Leaders pay nothing.
    """
    if not 0 <= steps <= 3:
        raise ValueError(f"steps must be 0..3 vertices, not {steps}")
    if turned_in_hex < 0:
        raise ValueError(f"turned_in_hex must be >= 0, not {turned_in_hex}")
    if unit_class == "leader" or steps == 0:
        return 0
    if orders == "attack" and in_woods:
        return 1 if steps == 3 else steps
    before = 1 if turned_in_hex > 1 else 0
    after = 1 if turned_in_hex + steps > 1 else 0
    return after - before


FreeTurn = Literal["orders_change", "road", "advance_after_combat", "reaction", "fire", "rally"]
_FREE_TURNS: tuple[str, ...] = (
    "orders_change", "road", "advance_after_combat", "reaction", "fire", "rally",
)


def check_free_turn(reason: str, steps: int, *, orders: str, in_woods: bool) -> None:
    """Refuse a facing change claimed free under 002 §7.23 that the rule does not cover.

    Free: any number of vertices when orders change to or from March, on road
    movement, when advancing after combat and as a reaction; one vertex to fire
    (not under Attack orders in woods, §7.22) and one vertex on being rallied
    (§7.25).
    """
    if reason not in _FREE_TURNS:
        raise RuleError("7.23", f"{reason!r} is not a free facing change")
    if reason == "fire":
        if orders == "attack" and in_woods:
            raise RuleError("7.22", "under Attack orders in woods each vertex costs 1 MP")
        if steps > 1:
            raise RuleError("7.23", "only one vertex may be turned free to fire")
    if reason == "rally" and steps > 1:
        raise RuleError("7.25", "a rallied unit may turn only one vertex")


def check_retreat_facing(old: Facing, new: Facing) -> None:
    """A retreating unit keeps its facing (002 §7.25)."""
    if old != new:
        raise RuleError("7.25", "a retreating unit keeps its facing")


def check_turn_before_leaving(steps: int, *, leaves_hex: bool) -> None:
    """A unit starting its move next to the enemy (002 §7.24, §9.53): one vertex and
    leave, or two or three vertices and stay."""
    if leaves_hex and steps > 1:
        raise RuleError(
            "7.24", f"next to the enemy: one vertex and leave, or stay ({steps} turned)"
        )


# --- refused flanks (002 §7.3) ----------------------------------------------------
#
# Left and right: on the printed sheets the direction index grows counterclockwise
# (B3821's neighbour 2 is B3820, north; 3 is B3720, north-west), so for a vertex
# facing v the left front hex is neighbour(v+1), the left flank neighbour(v+2),
# the right flank neighbour(v-1).

RefuseSide = Literal["left", "right"]


def _need_vertex(f: Facing, rule: str) -> None:
    if f.kind != "vertex":
        raise RuleError(rule, "only a unit facing a vertex can refuse a flank")


def flank_direction(f: Facing, side: RefuseSide) -> int:
    """Direction of the left or right flank hex of a vertex facing (002 §7.3)."""
    if side not in ("left", "right"):
        raise ValueError(f"side must be 'left' or 'right', not {side!r}")
    return (f.index + 2) % 6 if side == "left" else (f.index - 1) % 6


def refused_front_hex(h: Hex, f: Facing, side: RefuseSide) -> Hex:
    """The third front hex of a refused unit: its old flank hex on ``side`` (002 §7.34)."""
    _need_vertex(f, "7.34")
    return h.neighbour(flank_direction(f, side))


def refused_aspects(f: Facing, sides: frozenset[str] | set[str]) -> dict[int, str]:
    """Direction -> "front", "refused_front", "flank" or "rear" for a refused unit (002 §7.34).

    The refused flank hex becomes a front (the refused front), and the rear hex
    next to it becomes a flank; with no sides this is the plain vertex facing.
    Both sides only for an extended line (§8.44).
    """
    _need_vertex(f, "7.34")
    out: dict[int, str] = {}
    for d in front_directions(f):
        out[d] = "front"
    for d in flank_directions(f):
        out[d] = "flank"
    for d in rear_directions(f):
        out[d] = "rear"
    for side in sorted(sides):
        fd = flank_direction(f, cast(RefuseSide, side))
        out[fd] = "refused_front"
        # the rear hex touching the refused front turns into a flank
        out[(fd + 1) % 6 if side == "left" else (fd - 1) % 6] = "flank"
    return out


def refused_front_hexes(h: Hex, f: Facing, side: RefuseSide) -> tuple[Hex, Hex, Hex]:
    """The three front hexes of a refused unit: the two normal ones, then the refused one
    (002 §7.34)."""
    a, b = front_hexes(h, f)
    return (a, b, refused_front_hex(h, f, side))


def check_refuse(
    h: Hex,
    f: Facing,
    side: RefuseSide,
    *,
    orders: str,
    friendly: frozenset[Hex] | set[Hex],
    enemy: frozenset[Hex] | set[Hex],
    units_in_hex: int,
    hex_sp: int,
    already_refused: frozenset[str] | set[str] = frozenset(),
    extended_line: bool = False,
    extended_column: bool = False,
    reaction: bool = False,
) -> None:
    """Refuse (RuleError) a flank refusal 002 §7.31–§7.32 does not allow.

    ``friendly`` and ``enemy`` are the hexes holding friendly and enemy combat
    units (``h`` itself is ignored). Reading of "end of a line" (§7.31): the
    flank hex on the refused side holds no friend and either the other flank
    hex holds one (end of a line, or the centre of a bent line when a friend is
    also in the rear hex on the refused side) or no friend is adjacent at all.
    """
    if orders not in ("advance", "attack"):
        raise RuleError("7.32", "only units under Advance or Attack orders can refuse a flank")
    if extended_column:
        raise RuleError("7.32", "a unit in extended column cannot refuse a flank")
    _need_vertex(f, "7.32")
    if side in already_refused:
        raise RuleError("7.32", f"the {side} flank is already refused")
    if already_refused and not extended_line:
        raise RuleError("7.32", "only an extended line may refuse both flanks (8.44)")
    if units_in_hex == 1 and hex_sp < 2:
        raise RuleError("7.32", "a unit alone in its hex needs at least 2 SP to refuse")
    if not reaction and any(n in enemy for n in h.neighbours()):
        raise RuleError("7.32", "a unit adjacent to the enemy can refuse only as a reaction (9.61)")
    other: RefuseSide = "right" if side == "left" else "left"
    near = h.neighbour(flank_direction(f, side))
    far = h.neighbour(flank_direction(f, other))
    if near in friendly and far in friendly:
        raise RuleError("7.32", "a unit between two friendly-occupied flank hexes cannot refuse")
    if near in friendly:
        raise RuleError("7.31", f"the {side} flank hex holds a friendly unit")
    if far not in friendly and any(n in friendly for n in h.neighbours()):
        raise RuleError(
            "7.31",
            "refusal only at the end or bend of a line, or with no friend adjacent",
        )


REFUSE_COST = 1  # MP each unit of the stack pays to refuse (002 §7.32)
UNREFUSE_COST = 1  # MP each unit pays to leave the refused state (002 §7.33)
JOIN_REFUSED_COST = 1  # extra MP to enter a refused unit's hex (002 §7.32)


def unrefuse_cost(reason: str | None = None) -> int:
    """MP to leave the refused state (002 §7.33): 1, or 0 when a reaction move,
    withdrawal, advance or retreat ends it."""
    if reason is None:
        return UNREFUSE_COST
    if reason in ("reaction", "withdrawal", "advance", "retreat"):
        return 0
    raise ValueError(f"unknown reason {reason!r} for leaving the refused state")


def refused_fire_split(allowances: Sequence[int]) -> list[tuple[int, int]]:
    """Most SP each unit of a refusing stack may fire (normal fronts, refused front), 002 §7.34.

    ``allowances`` are the SP each unit may fire, top of the stack first, after
    the hex limits of §8.31–§8.33 (a battery's sections are separate entries).
    At most half the stack's firing SP go through the refused front (rounded
    down) and at most half through the normal fronts (rounded up); the top unit
    fills the normal fronts first, those below fill what remains, then the
    rest goes through the refused front in the same order.
    """
    if any(a < 0 for a in allowances):
        raise ValueError("fire allowances must be >= 0")
    total = sum(allowances)
    normal_left = (total + 1) // 2
    refused_left = total // 2
    out: list[tuple[int, int]] = []
    for a in allowances:
        n = min(a, normal_left)
        normal_left -= n
        r = min(a - n, refused_left)
        refused_left -= r
        out.append((n, r))
    return out


def check_attack_unit_fire_with_refusers(*, orders: str, refusers_fired: bool) -> None:
    """A unit under Attack orders stacked with refusing units that have fired may
    not fire itself in that activation (002 §7.34, exception)."""
    if orders == "attack" and refusers_fired:
        raise RuleError(
            "7.34", "under Attack orders: no fire after stacked refusing units fired"
        )


def check_refused_shock(h: Hex, f: Facing, side: RefuseSide, target: Hex) -> None:
    """A refusing unit or stack cannot shock into its refused front hex (002 §7.34)."""
    if target == refused_front_hex(h, f, side):
        raise RuleError("7.34", "a refusing stack cannot shock into its refused front")
