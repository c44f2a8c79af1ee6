"""Extended lines and extended columns (002 §8.4, §8.5).

An extended line is one infantry unit spread over two or three hexes side by
side, all with the same vertex facing: :class:`ExtendedLine` holds its hexes
from left to right (left and right as in :mod:`gettysburg.gbacw.facing`: each
hex is the right flank hex, ``neighbour(v-1)``, of the one before). An extended
column is one unit spread over a lead hex and one or two trailing hexes,
lead first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise

from gettysburg.core.hexes import DIRECTIONS, Hex
from gettysburg.core.protocol import RuleError
from gettysburg.gbacw.facing import (
    Aspect,
    Facing,
    RefuseSide,
    flank_direction,
    front_directions,
    front_hexes,
    rear_hexes,
)
from gettysburg.gbacw.stacking import StackEntry

# --- strength ----------------------------------------------------------------------


def split_strength(sp: int, parts: int) -> tuple[int, ...]:
    """SP per hex of an extended unit, the counter's hex first (002 §8.44, §8.5).

    As even as possible; the odd SP go to the counter's hex and then, with two
    extensions, to the first extension: 9 over two hexes is 5/4, 17 over three
    is 6/6/5.
    """
    if parts not in (1, 2, 3):
        raise ValueError(f"an extended unit holds 1 to 3 hexes, not {parts}")
    if sp < 0:
        raise ValueError("SP must be >= 0")
    base, extra = divmod(sp, parts)
    return tuple(base + (1 if i < extra else 0) for i in range(parts))


def line_extensions_allowed(entry: StackEntry) -> int:
    """How many flank hexes a unit may extend into (002 §8.41, §8.43): infantry only
    (not dismounted cavalry), one with 8 SP or more, both sides with 15 or more."""
    if entry.arm != "inf":
        return 0
    if entry.sp >= 15:
        return 2
    return 1 if entry.sp >= 8 else 0


def column_extensions(entry: StackEntry) -> int:
    """Trailing hexes an extended column needs (002 §8.5): infantry (not dismounted
    cavalry) 1 from 8 SP and 2 from 15; cavalry 1 from 5 SP and 2 from 9."""
    if entry.arm == "inf":
        return 2 if entry.sp >= 15 else 1 if entry.sp >= 8 else 0
    if entry.arm == "cav" and entry.mounted:
        return 2 if entry.sp >= 9 else 1 if entry.sp >= 5 else 0
    return 0


# --- extended lines (002 §8.4) --------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ExtendedLine:
    """An extended line: ``hexes`` left to right, ``counter`` the index of the unit's
    own counter among them, ``facing`` shared by every part (a vertex)."""

    hexes: tuple[Hex, ...]
    counter: int
    facing: Facing

    def __post_init__(self) -> None:
        if self.facing.kind != "vertex":
            raise ValueError("an extended line faces a vertex")
        if not 2 <= len(self.hexes) <= 3:
            raise ValueError("an extended line holds 2 or 3 hexes")
        if not 0 <= self.counter < len(self.hexes):
            raise ValueError("counter must index one of the hexes")
        if len(self.hexes) == 3 and self.counter != 1:
            raise ValueError("a line extended both ways has its counter in the middle")
        step = flank_direction(self.facing, "right")
        for a, b in pairwise(self.hexes):
            if a.neighbour(step) != b:
                raise ValueError(f"{b} is not the right flank hex of {a}")

    @staticmethod
    def extend(h: Hex, facing: Facing, sides: Sequence[RefuseSide]) -> ExtendedLine:
        """The line of a unit in ``h`` extending to its ``sides`` flank hexes."""
        if facing.kind != "vertex":
            raise RuleError("8.41", "only a unit facing a vertex can extend its line")
        left = "left" in sides
        right = "right" in sides
        hexes: list[Hex] = []
        if left:
            hexes.append(h.neighbour(flank_direction(facing, "left")))
        hexes.append(h)
        if right:
            hexes.append(h.neighbour(flank_direction(facing, "right")))
        return ExtendedLine(tuple(hexes), 1 if left else 0, facing)

    def strengths(self, sp: int) -> dict[Hex, int]:
        """SP in each hex (002 §8.44), for fire and massed targets."""
        parts = split_strength(sp, len(self.hexes))
        order = [self.counter, *[i for i in range(len(self.hexes)) if i != self.counter]]
        return {self.hexes[i]: parts[k] for k, i in enumerate(order)}

    def front_hexes(self) -> frozenset[Hex]:
        out: set[Hex] = set()
        for h in self.hexes:
            out.update(front_hexes(h, self.facing))
        return frozenset(out)


def check_extend(
    entry: StackEntry,
    h: Hex,
    facing: Facing,
    sides: Sequence[RefuseSide],
    *,
    stacked_with_non_artillery: bool,
    occupied_by_non_artillery: frozenset[Hex] | set[Hex],
    enemy: frozenset[Hex] | set[Hex],
    costs: Sequence[int],
    existing: int = 0,
) -> int:
    """Check an extension (002 §8.41–§8.43) and return its MP cost.

    ``costs`` are the MP to move into each new hex (the larger is paid when both
    sides extend at once, §8.43); ``existing`` counts extensions already placed.
    """
    allowed = line_extensions_allowed(entry)
    if allowed == 0:
        raise RuleError("8.41", f"{entry.unit}: only an infantry unit of 8 SP or more may extend")
    if not sides or len(set(sides)) != len(sides):
        raise RuleError("8.41", "extend to the left or right flank hex, each at most once")
    if existing + len(sides) > allowed:
        raise RuleError("8.43", f"{entry.unit}: extending both ways needs 15 SP or more")
    if stacked_with_non_artillery:
        raise RuleError("8.41", "an extending unit cannot be stacked with non-artillery units")
    if len(costs) != len(sides):
        raise ValueError("give one MP cost per side")
    for side in sides:
        target = h.neighbour(flank_direction(facing, side))
        if target in occupied_by_non_artillery:
            raise RuleError("8.41", f"the {side} flank hex holds a non-artillery unit")
        if any(n in enemy for n in target.neighbours()):
            raise RuleError("8.41", f"the {side} flank hex is adjacent to the enemy")
    cost = max(costs)
    if cost > 2:
        raise RuleError("8.41", f"extending costs {cost} MP (at most 2)")
    return cost


def line_moves(line: ExtendedLine) -> list[ExtendedLine]:
    """Every position an extended line may move to in one step (002 §8.44).

    Straight ahead into either front direction, every part moving the same way;
    or a forward pivot on the left or right end hex, the other parts swinging
    forward around it (the far end of a three-hex line moving two hexes) and the
    facing turning one vertex. A 180-degree turn in place is :func:`about_face`.
    """
    v = line.facing.index
    out: list[ExtendedLine] = []
    for d in front_directions(line.facing):
        moved = tuple(h.neighbour(d) for h in line.hexes)
        out.append(ExtendedLine(moved, line.counter, line.facing))
    n = len(line.hexes)
    # pivot on the left end: the line swings from direction v-1 to v; facing v+1
    p = line.hexes[0]
    hexes = tuple(p + DIRECTIONS[v % 6].scale(k) for k in range(n))
    out.append(ExtendedLine(hexes, line.counter, Facing.vertex(v + 1)))
    # pivot on the right end: the line swings from v+2 to v+1 (seen from that end)
    p = line.hexes[-1]
    hexes = tuple(reversed([p + DIRECTIONS[(v + 1) % 6].scale(k) for k in range(n)]))
    out.append(ExtendedLine(hexes, line.counter, Facing.vertex(v - 1)))
    return out


def line_turn_extra(*, orders: str, in_woods: bool) -> int:
    """Extra MP when an extended line pivots or turns in a woods hex under Attack orders
    (002 §8.44); the about face itself costs 1 MP (§7.22)."""
    return 1 if orders == "attack" and in_woods else 0


def about_face(line: ExtendedLine) -> ExtendedLine:
    """The line turned 180 degrees in place (002 §8.44, 1 MP): left and right swap."""
    n = len(line.hexes)
    turned = Facing.vertex(line.facing.index + 3)
    return ExtendedLine(tuple(reversed(line.hexes)), n - 1 - line.counter, turned)


def check_line_move(line: ExtendedLine, new: ExtendedLine) -> None:
    """An extended line moves only forward or by pivoting (002 §8.44)."""
    if new not in line_moves(line) and new != about_face(line):
        raise RuleError("8.44", "an extended line moves only ahead, by forward pivot or about face")


def line_move_cost(entered: Mapping[Hex, int]) -> int:
    """MP for a move of an extended line: the dearest hex any part enters (002 §8.44)."""
    return max(entered.values(), default=0)


def check_half_adjacent(
    line: ExtendedLine,
    new: ExtendedLine,
    *,
    enemy: frozenset[Hex] | set[Hex],
    enemy_artillery: frozenset[Hex] | set[Hex],
    orders: str,
    disordered: bool,
) -> None:
    """With one part already next to the enemy, the other may move next to enemy
    artillery only, unless under Attack orders and in good order (002 §8.44)."""
    if orders == "attack" and not disordered:
        return
    touching = [any(n in enemy for n in h.neighbours()) for h in line.hexes]
    if not any(touching) or all(touching):
        return
    for i, h in enumerate(new.hexes):
        if touching[i]:
            continue
        near = [n for n in h.neighbours() if n in enemy]
        if any(n not in enemy_artillery for n in near):
            raise RuleError("8.44", "the free half may move next to enemy artillery only")


def line_disorder(line: ExtendedLine, artillery: frozenset[Hex] | set[Hex]) -> tuple[Hex, ...]:
    """A disorder on any part disorders the whole unit; artillery stacked in any of its
    hexes takes a UDD (002 §8.45). Returns those artillery hexes."""
    return tuple(h for h in line.hexes if h in artillery)


def envelop(
    line: ExtendedLine,
    defender: Hex,
    *,
    orders: str,
    disordered: bool,
    refused: bool,
    enemy_fronts: Mapping[Hex, frozenset[Hex]],
    occupied: frozenset[Hex] | set[Hex],
) -> ExtendedLine:
    """The pivot of an envelopment (002 §8.48) for a shock on ``defender``.

    ``enemy_fronts`` maps each enemy-occupied hex (the defender's included) to its
    front hexes; ``occupied`` holds every hex with a unit in it.
    """
    if len(line.hexes) != 2:
        raise RuleError("8.48", "only a two-hex extended line can envelop")
    if disordered:
        raise RuleError("8.48", "an enveloping line must be in good order")
    if orders not in ("advance", "attack"):
        raise RuleError("8.48", "envelopment needs Advance or Attack orders")
    if refused:
        raise RuleError("8.48", "a line with a refused flank cannot envelop")
    touching = [defender in h.neighbours() for h in line.hexes]
    if all(touching) or not any(touching):
        raise RuleError("8.48", "exactly one part of the line must be next to the defender")
    mover = touching.index(False)
    start = line.hexes[mover]
    if any(start in fr for fr in enemy_fronts.values()):
        raise RuleError("8.48", "the moving part starts in an enemy front hex")
    # pivot on the part in contact, so the other swings forward
    new = line_moves(line)[-1] if mover == 0 else line_moves(line)[-2]
    goal = new.hexes[mover]
    if goal in occupied:
        raise RuleError("8.48", f"{goal} is not empty")
    if defender not in front_hexes(goal, new.facing):
        raise RuleError("8.48", "the pivot must bring the defender into the moving part's front")
    others = {h for h in enemy_fronts if h != defender}
    if any(h in others for h in new.front_hexes()) and not any(
        h in others for h in line.front_hexes()
    ):
        raise RuleError("8.48", "the pivot would bring another enemy unit into the line's front")
    if any(goal in fr for h, fr in enemy_fronts.items() if h != defender):
        raise RuleError("8.48", f"{goal} is in the front hex of another enemy unit")
    return new


# --- extended columns (002 §8.5) --------------------------------------------------------


def check_column_chain(parts: Sequence[Hex]) -> None:
    """The parts of a column, lead first, each adjacent to the one before (002 §8.5)."""
    if not 2 <= len(parts) <= 3:
        raise RuleError("8.5", "an extended column holds 2 or 3 hexes")
    if len(set(parts)) != len(parts):
        raise RuleError("8.5", "the parts of a column are in different hexes")
    for a, b in pairwise(parts):
        if b not in a.neighbours():
            raise RuleError("8.5", f"{b} must end adjacent to {a}")


def column_aspect(parts: Sequence[tuple[Hex, Facing]], other: Hex) -> Aspect:
    """Front, flank or rear of an extended column for an adjacent hex (002 §8.51):
    one front hex ahead of the lead, one rear hex behind the tail, every other
    adjacent hex a flank. For a vertex-facing lead (Advance orders on a road) both
    its front hexes count as the front, and both rear hexes of the tail as the rear."""
    check_column_chain([h for h, _ in parts])
    hexes = {h for h, _ in parts}
    if other in hexes or not any(other in h.neighbours() for h in hexes):
        raise ValueError(f"{other} is not adjacent to the column")
    lead, lf = parts[0]
    tail, tf = parts[-1]
    if other in front_hexes(lead, lf):
        return "front"
    if other in rear_hexes(tail, tf):
        return "rear"
    return "flank"


def check_column_facing(parts: Sequence[tuple[Hex, Facing]], *, road_bend: bool = False) -> None:
    """Each extension stands behind the part before it and faces it (002 §8.52), unless a
    road's bend makes that impossible (then it faces the next road hex: the caller
    says so with ``road_bend``)."""
    check_column_chain([h for h, _ in parts])
    if road_bend:
        return
    for (a, fa), (b, fb) in pairwise(parts):
        if b not in rear_hexes(a, fa) or a not in front_hexes(b, fb):
            raise RuleError("8.52", f"the extension in {b} must trail behind {a} facing it")


def check_column_fire(part: int, *, prepared: bool) -> None:
    """Only the lead hex of an extended column fires, never prepared fire (002 §8.52)."""
    if part != 0:
        raise RuleError("8.52", "only the lead hex of an extended column may fire")
    if prepared:
        raise RuleError("8.52", "an extended column is never eligible for prepared fire")


def check_column_shock() -> None:
    """An extended column must retract or form an extended line before it shocks (002 §8.52)."""
    raise RuleError("8.52", "an extended column must retract or form a line before shocking")


def column_as_line(parts: Sequence[Hex], facing: Facing) -> ExtendedLine:
    """The line a column forms by turning to ``facing`` (002 §8.52, §7.26), parts lead
    first: a two-hex column keeps its counter in the lead, its extension then on a flank; a
    three-hex column must lie straight (a road's bend makes it ineligible), its counter
    going to the middle hex and its ends becoming both flanks (a line extended both ways
    has its counter in the middle, §8.43)."""
    check_column_chain(parts)
    if facing.kind != "vertex":
        raise RuleError("8.52", "a line faces a vertex")
    if len(parts) == 2:
        lead, ext = parts
        sides = [s for s in ("left", "right")
                 if lead.neighbour(flank_direction(facing, s)) == ext]
        if not sides:
            raise RuleError("8.41", "the extension must stand on a flank of the counter")
        return ExtendedLine.extend(lead, facing, sides)  # type: ignore[arg-type]
    if not is_straight(parts):
        raise RuleError("8.52", "a column bent by its road's course cannot form a line")
    line = ExtendedLine.extend(parts[1], facing, ("left", "right"))
    if set(line.hexes) != set(parts):
        raise RuleError("8.41", "the column's ends must stand on the flanks of its middle hex")
    return line


def line_as_column(line: ExtendedLine, facing: Facing) -> tuple[Hex, ...]:
    """The column a line forms by turning to ``facing`` (002 §8.44, §8.52), lead first:
    each part behind the one before (in one of its rear hexes, the same facing); a
    two-hex line's counter leads, a three-hex line's counter leaves the middle for the end
    that leads."""
    if facing.kind != "vertex":
        raise RuleError("8.52", "a column on Advance faces a vertex")
    here = line.hexes[line.counter]
    if len(line.hexes) == 2:
        ext = next(h for h in line.hexes if h != here)
        if ext not in rear_hexes(here, facing):
            raise RuleError("8.52", "the extension must stand behind the lead")
        return (here, ext)
    for lead, tail in ((line.hexes[0], line.hexes[2]), (line.hexes[2], line.hexes[0])):
        if here in rear_hexes(lead, facing) and tail in rear_hexes(here, facing):
            return (lead, here, tail)
    raise RuleError("8.52", "each extension must stand behind the part before it")


def is_straight(parts: Sequence[Hex]) -> bool:
    """Whether the hexes run in one straight row, each a step the same way from the last
    (a column a road bends cannot form a line, 002 §8.52)."""
    steps = {next((d for d in range(6) if a.neighbour(d) == b), None)
             for a, b in pairwise(parts)}
    return len(steps) == 1 and None not in steps


def column_ma_penalty(extension: int, *, orders: str) -> int:
    """MP taken from an extension's MA for the activation under Advance orders (002 §8.5):
    1 for the first extension, 2 for the second."""
    if extension not in (1, 2):
        raise ValueError("extension is 1 or 2")
    return extension if orders == "advance" else 0
