"""Withdrawal movement (002 §9.54): backing away up to two rear hexes without turning.

A unit on Advance or Attack may spend its activation stepping back into a rear hex, and
from there into one of that hex's rear hexes (the facing kept). Each hex that costs more
than 1 MP to enter calls for a disorder check (UDD) on entering it, with +1 to the roll
for each MP above 1; a unit that fails while already disordered stays in the first hex.
A first hex next to an enemy ends the move there (§9.53). Under Advance, within March
stacking, the path rates may lower the cost (and so the check). Artillery withdraws
through friends only along a pike or road. The withdrawn unit may not fire or shock.
An extended line withdraws whole, every part stepping back the same way and no path rates
(:func:`line_withdrawals`); one that cannot may take a disorder, gather into one of its
hexes and withdraw from there (:class:`Withdrawal`'s ``gather``). This module lists the
legal withdrawals and the checks they call for; the rolls belong to the caller.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import RuleError

from .board import Board
from .charts.terrain import TerrainChart, UnitClass
from .facing import Facing, rear_directions, rear_hexes
from .movement import Check, FriendStack, Orders, entry_cost


@dataclass(frozen=True, slots=True)
class Withdrawal:
    """One legal withdrawal: the hexes entered (one or two), the §9.54 check for each
    (None where the hex costs 1 MP or less), and the terrain's own D or d met (§9.47)."""

    hexes: tuple[Hex, ...]
    checks: tuple[Check | None, ...]
    terrain: tuple[Check, ...] = ()
    #: an extended line withdrawing whole: ``hexes`` are its counter's, the parts follow
    line: bool = False
    #: an extended unit that could not withdraw extended gathers here first (disordered)
    gather: Hex | None = None


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


def line_withdrawals(board: Board, parts: tuple[Hex, ...], facing: Facing, *,
                     unit_class: UnitClass, orders: Orders, enemy: Collection[Hex],
                     blocked: Collection[Hex],
                     chart: TerrainChart | None = None) -> list[Withdrawal]:
    """002 §9.54 with §8.44 for an extended line whose hexes are ``parts`` (its counter's
    first): one or two steps back, every part the same way into its rear hexes, no path
    rates; a step costs the dearest hex a part enters (its UDD from that cost), and any
    part's D or d is met. A part entering the enemy's or a ``blocked`` hex (a friend other
    than artillery, another unit's extension) refuses the step; a first step that brings a
    part next to the enemy ends the move. ``hexes`` of each result are the counter's."""
    if orders not in ("advance", "attack"):
        raise RuleError("9.54", "only units on Advance or Attack orders may withdraw")

    def step(frm: tuple[Hex, ...], d: int
             ) -> tuple[tuple[Hex, ...], Check | None, tuple[Check, ...]] | None:
        to = tuple(h.neighbour(d) for h in frm)
        worst: Check | None = None
        terrain: list[Check] = []
        for a, b in zip(frm, to, strict=True):
            if b not in board.hexes or b in enemy or b in blocked:
                return None
            c = _check(board, a, b, unit_class=unit_class, orders=orders, use_paths=False,
                       chart=chart)
            if isinstance(c, RuleError):
                return None
            own, met = c
            if own is not None and (worst is None or own.drm > worst.drm):
                worst = own
            if met and not any(t.kind == "auto" for t in terrain):
                auto = any(m.kind == "auto" for m in met)
                terrain = [Check(to[0], "auto" if auto else "udd", 0, "9.47")]
        return to, (None if worst is None else Check(to[0], "udd", worst.drm, "9.54")), \
            tuple(terrain)

    out: list[Withdrawal] = []
    for d in rear_directions(facing):
        one = step(parts, d)
        if one is None:
            continue
        first, c1, t1 = one
        out.append(Withdrawal((first[0],), (c1,), t1, line=True))
        if any(n in enemy for h in first for n in h.neighbours()):
            continue  # §9.53: the move ends after the first step
        for d2 in rear_directions(facing):
            two = step(first, d2)
            if two is None:
                continue
            second, c2, t2 = two
            out.append(Withdrawal((first[0], second[0]), (c1, c2), t1 + t2, line=True))
    return out
