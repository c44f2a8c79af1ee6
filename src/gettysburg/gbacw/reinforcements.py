"""Reinforcements' entry (002 §9.7 with 004 §9.76).

Groups come on at their scenario's entry area, paying the cost of the hex they enter, with
orders chosen beforehand in the Reinforcement Orders Phase (II/D) and counted in command for
activation on their entry turn (§9.71). 004 §9.76: an area is one *direct* entry hex (the
road or trail's) and several *adjacent* entry hexes; any orders may come in by the direct
hex, only Attack or Advance by the others. The board marks each area's direct hex
(``HexInfo.entry``); its adjacent hexes are a substitute: the map-edge hexes within
:data:`ADJACENT_REACH` of it.

Stacks entering by one hex pay cumulative costs: the second pays its own cost and the
first's, and so on (§9.72). Except on March orders they may enter with an enemy next to
the entry hex, but on Advance they may not shock before their next activation; no one enters
an enemy entry hex while reinforcements due through it have not come, or could not have
(§9.72). A group kept out by those ahead of it enters in that command's next action phase,
and a player may hold a group back, but it must enter before the next group due through
the same hex; within a group, any order (§9.73). A battle book may cap a group's activations
on its entry turn, March equivalents included (§9.74).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import RuleError

from .board import Board

ADJACENT_REACH = 2  # substitute: how far along the edge 004's "adjacent entry hexes" go
FREE_ORDERS_ONLY_DIRECT = ("attack", "advance")  # orders allowed through an adjacent hex


@dataclass(frozen=True, slots=True)
class EntryArea:
    area: int
    direct: Hex
    adjacent: tuple[Hex, ...]

    def hexes(self) -> tuple[Hex, ...]:
        return (self.direct, *self.adjacent)


def _edge(board: Board, h: Hex) -> bool:
    return any(n not in board.hexes for n in h.neighbours())


def entry_area(board: Board, area: int) -> EntryArea:
    """Entry area ``area``: its direct hex from the board and the edge hexes near it
    (004 §9.76; the adjacent hexes are a substitute, :data:`ADJACENT_REACH`)."""
    direct = [h for h, info in board.hexes.items() if info.entry == area]
    if len(direct) != 1:
        raise RuleError("tdg.9.76", f"entry area {area} is not on the map (found "
                        f"{len(direct)} direct hexes)")
    d = direct[0]
    adj = sorted(h for h in board.hexes if h != d and h.distance(d) <= ADJACENT_REACH
                 and _edge(board, h))
    return EntryArea(area, d, tuple(adj))


def check_entry_hex(area: EntryArea, h: Hex, orders: str) -> None:
    """Any orders through the direct hex, only Attack or Advance through an adjacent one
    (004 §9.76)."""
    if h == area.direct:
        return
    if h not in area.adjacent:
        raise RuleError("tdg.9.76", f"that hex is not in entry area {area.area}")
    if orders not in FREE_ORDERS_ONLY_DIRECT:
        raise RuleError("tdg.9.76", f"units on {orders} orders enter only by the direct hex "
                        f"of area {area.area}")


def cumulative_costs(costs: Sequence[float]) -> list[float]:
    """What each stack entering by one hex pays, in entering order: its own cost of the hex
    plus every earlier stack's (002 §9.72)."""
    out: list[float] = []
    total = 0.0
    for c in costs:
        if c < 0:
            raise ValueError("an entry cost is >= 0")
        total += c
        out.append(total)
    return out


def check_enemy_next_to_entry(orders: str, *, enemy_adjacent: bool) -> None:
    """March orders may not come in next to an enemy; other orders may (002 §9.72)."""
    if enemy_adjacent and orders == "march":
        raise RuleError("9.72", "a reinforcement on March orders may not enter with an enemy "
                        "next to the entry hex")


def may_shock_on_entry(orders: str, *, enemy_adjacent_on_entry: bool) -> bool:
    """A group that entered on Advance beside an enemy may not shock until its next
    activation (002 §9.72)."""
    return not (orders == "advance" and enemy_adjacent_on_entry)


def check_enemy_entry_hex(h: Hex, *, still_due: bool) -> None:
    """No unit enters an enemy entry hex while reinforcements due through it have not all
    entered or had the chance to (002 §9.72)."""
    if still_due:
        raise RuleError("9.72", "the enemy's reinforcements due through that entry hex have "
                        "not yet all come on")


@dataclass(frozen=True, slots=True)
class Group:
    """A scheduled group for one entry hex: its id, the turn it is due, whether it has come."""

    id: str
    due: int  # turn index
    entered: bool = False


def check_group_order(queue: Sequence[Group], group: str) -> None:
    """Groups through one hex come in their scheduled order: a group may not enter while
    one due before it through the same hex is still off the map (002 §9.73)."""
    ordered = sorted(queue, key=lambda g: (g.due, g.id))
    ids = [g.id for g in ordered]
    if group not in ids:
        raise RuleError("9.73", f"group {group} is not due through that hex")
    for g in ordered[:ids.index(group)]:
        if not g.entered:
            raise RuleError("9.73", f"group {g.id} is due through that hex first")


def holds_up(queue: Sequence[Group], group: str, turn: int) -> bool:
    """Whether a held-back group now stands in the way of a later group already due through
    its hex (002 §9.73: it must come on before that one, which :func:`check_group_order`
    enforces); for prompts and the AI."""
    ordered = sorted(queue, key=lambda g: (g.due, g.id))
    ids = [g.id for g in ordered]
    i = ids.index(group)
    if ordered[i].entered or ordered[i].due > turn:
        return False
    return any(not g.entered and g.due <= turn for g in ordered[i + 1:])


def check_entry_activations(used: int, limit: int | None) -> None:
    """A group capped at ``limit`` activations on its entry turn may not take another; March
    equivalents count (002 §9.74)."""
    if limit is not None and used >= limit:
        raise RuleError("9.74", f"this reinforcement may take only {limit} activation(s) on "
                        "its entry turn")


def march_equivalents(limit: int | None) -> int:
    """How many activations' worth a capped group may march on its entry turn (002 §9.74,
    §5.35: four at most)."""
    return 4 if limit is None else min(4, limit)


def orders_after_move(unit_orders: str, brigade_orders: str, *,
                      within_brigadier_range: bool) -> str:
    """A unit that came in without its brigadier keeps its own orders until a move ends
    within his range, then takes the brigade's at once (002 §9.71)."""
    return brigade_orders if within_brigadier_range else unit_orders
