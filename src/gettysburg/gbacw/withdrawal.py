"""Withdrawal movement (002 §9.54): backing away up to two rear hexes without turning.

A unit on Advance or Attack may spend its activation stepping back into a rear hex, and
from there into one of that hex's rear hexes (the facing kept). Each hex that costs more
than 1 MP to enter calls for a disorder check (UDD) on entering it, with +1 to the roll
for each MP above 1; a unit that fails while already disordered stays in the first hex.
A first hex next to an enemy ends the move there (§9.53). Under Advance, within March
stacking, the path rates may lower the cost (and so the check). Artillery withdraws
through friends only along a pike or road. The withdrawn unit may not fire or shock.
This module lists the legal withdrawals and the checks they call for; the rolls belong to
the caller.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import RuleError

from .board import Board
from .charts.terrain import TerrainChart, UnitClass
from .facing import Facing, rear_hexes
from .movement import Check, FriendStack, Orders, entry_cost


@dataclass(frozen=True, slots=True)
class Withdrawal:
    """One legal withdrawal: the hexes entered (one or two), the §9.54 check for each
    (None where the hex costs 1 MP or less), and the terrain's own D or d met (§9.47)."""

    hexes: tuple[Hex, ...]
    checks: tuple[Check | None, ...]
    terrain: tuple[Check, ...] = ()


def _check(board: Board, frm: Hex, to: Hex, *, unit_class: UnitClass, orders: Orders,
           use_paths: bool, chart: TerrainChart | None
           ) -> tuple[Check | None, tuple[Check, ...]] | RuleError:
    step = entry_cost(board, frm, to, unit_class=unit_class, orders=orders,
                      use_paths=use_paths and orders == "advance", chart=chart)
    if isinstance(step, RuleError):
        return step
    excess = -(-step.half_mp // 2) - 1  # whole MP above one (a ½-MP road step is 1)
    terrain = () if step.disorder == "none" else (
        Check(to, "auto" if step.disorder == "auto" else "udd", 0, "9.47"),)
    return (Check(to, "udd", excess, "9.54") if excess > 0 else None), terrain


def _by_road(board: Board, a: Hex, b: Hex) -> bool:
    side = board.side(a, b)
    return side is not None and any(r.road_class in ("pike", "road") for r in side.roads)


def withdrawals(board: Board, start: Hex, facing: Facing, *, unit_class: UnitClass,
                orders: Orders, enemy: Collection[Hex],
                friends: Mapping[Hex, FriendStack] | None = None,
                use_paths: bool = True,
                chart: TerrainChart | None = None) -> list[Withdrawal]:
    """Every withdrawal of one or two rear hexes (002 §9.54), in a fixed order."""
    if orders not in ("advance", "attack"):
        raise RuleError("9.54", "only units on Advance or Attack orders may withdraw")
    friends = friends or {}

    def enterable(frm: Hex, to: Hex) -> tuple[Check | None, tuple[Check, ...]] | RuleError:
        if to not in board.hexes or to in enemy:
            return RuleError("9.51", "no way back into that hex")
        return _check(board, frm, to, unit_class=unit_class, orders=orders,
                      use_paths=use_paths, chart=chart)

    out: list[Withdrawal] = []
    for first in rear_hexes(start, facing):
        c1 = enterable(start, first)
        if isinstance(c1, RuleError):
            continue
        if first not in friends or friends[first].can_stack:
            out.append(Withdrawal((first,), (c1[0],), c1[1]))
        if any(n in enemy for n in first.neighbours()):
            continue  # §9.53: the move ends in the first hex
        for second in rear_hexes(first, facing):
            if unit_class == "artillery" and first in friends and not (
                    friends[first].artillery_only and _by_road(board, start, first)
                    and _by_road(board, first, second)):
                continue  # artillery passes only artillery, and only along the road
            c2 = enterable(first, second)
            if isinstance(c2, RuleError):
                continue
            if second in friends and not friends[second].can_stack:
                continue
            out.append(Withdrawal((first, second), (c1[0], c2[0]), c1[1] + c2[1]))
    return out
