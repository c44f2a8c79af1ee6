"""Command range: how far a leader's command reaches, in his own movement points (002 §4.15).

The distance runs from the superior's hex to the subordinate's, counting what it costs a
leader to enter each hex on the way and the subordinate's hex itself, but not the leader's
own; it takes the leader's best rate (March's on pikes and roads, 002 §9.31). It is not
traced into terrain closed to leaders, nor on through a hex next to an enemy combat unit
unless a friendly combat unit is there. A unit next to its leader is always in range,
whatever the hexside between (§4.15's last sentence).
"""

from __future__ import annotations

from collections.abc import Collection

from gettysburg.core.hexes import Hex

from .board import Board
from .charts.terrain import TerrainChart
from .paths import command_cost


def leader_distance(board: Board, leader_hex: Hex, unit_hex: Hex, *,
                    enemy_adjacent: Collection[Hex], friendly_combat: Collection[Hex],
                    limit: int | None = None,
                    chart: TerrainChart | None = None) -> float | None:
    """The command distance in leader MP (002 §4.15); None if no trace exists (within
    ``limit`` MP when given). ``enemy_adjacent``: hexes next to an enemy combat unit;
    ``friendly_combat``: hexes holding a friendly combat unit."""
    if leader_hex == unit_hex:
        return 0.0
    costs = command_cost(board, leader_hex,
                         enemy_adjacent=lambda h: h in enemy_adjacent,
                         friendly_combat=lambda h: h in friendly_combat or h == unit_hex,
                         limit_half=None if limit is None else 2 * limit, chart=chart)
    half = costs.get(unit_hex)
    return None if half is None else half / 2


def in_range(board: Board, leader_hex: Hex, unit_hex: Hex, command_range: int, *,
             enemy_adjacent: Collection[Hex], friendly_combat: Collection[Hex],
             chart: TerrainChart | None = None) -> bool:
    """Whether ``unit_hex`` is within ``command_range`` leader MP of ``leader_hex`` (002
    §4.15); stacked or adjacent is always in range."""
    if leader_hex.distance(unit_hex) <= 1:
        return True
    d = leader_distance(board, leader_hex, unit_hex, enemy_adjacent=enemy_adjacent,
                        friendly_combat=friendly_combat, limit=command_range, chart=chart)
    return d is not None and d <= command_range


def enemy_adjacent_hexes(enemy: Collection[Hex]) -> frozenset[Hex]:
    """The hexes next to (or holding) an enemy combat unit, for the arguments above (002 §4.15)."""
    return frozenset(n for e in enemy for n in (e, *e.neighbours()))
