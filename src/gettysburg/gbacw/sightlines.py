"""Sight between two hexes among the units on the map, answered fast for the engine's many
questions (002 §10.2, §10.26; the speed of issue 54): the same answer as
:func:`los.line_of_sight` with the occupied hexes as blockers, taken in two parts.

The ground's verdict and the hexes a line passes between its ends depend on the two hexes
alone, so they are kept once per pair. Units block only from those hexes between (002
§10.26; here every unit counts, friend or enemy, as ``line_of_sight`` reads blockers when
it is told no friends), so a line whose ground is clear and with no unit between is clear,
and a line with units between is asked once per set of those units. A line the ground
blocks stays blocked whoever stands on it: the ground is checked before the units.
"""

from __future__ import annotations

from collections.abc import Collection

from gettysburg.core.hexes import Hex

from .board import Board
from .los import line_of_sight, trace

#: per board: (origin, target) -> (clear over the ground, hexes between the two)
_LINES: dict[int, tuple[Board, dict[tuple[Hex, Hex], tuple[bool, frozenset[Hex]]]]] = {}
#: per board: (origin, target, units between) -> clear
_UNITS: dict[int, tuple[Board, dict[tuple[Hex, Hex, frozenset[Hex]], bool]]] = {}
#: the units' answers kept a board before starting afresh (a long game's many positions)
UNITS_KEPT = 200_000


def clear(board: Board, origin: Hex, target: Hex, occupied: Collection[Hex]) -> bool:
    """Whether ``origin`` sees ``target`` with units in ``occupied`` (the ends' own units
    never block; 002 §10.2, §10.26): ``line_of_sight(board, origin, target,
    blockers=occupied - {origin, target}).clear``."""
    lines = _table(_LINES, board)
    known = lines.get((origin, target))
    if known is None:
        steps = trace(origin, target)
        between = frozenset(h for s in steps[1:len(steps) - 1] for h in s)
        known = lines[(origin, target)] = (line_of_sight(board, origin, target).clear,
                                           between - {origin, target})
    ground_clear, between = known
    if not ground_clear:
        return False
    found = between.intersection(occupied)
    if not found:
        return True
    units = _table(_UNITS, board)
    key = (origin, target, frozenset(found))
    answer = units.get(key)
    if answer is None:
        if len(units) >= UNITS_KEPT:
            units.clear()
        answer = units[key] = line_of_sight(board, origin, target, blockers=found).clear
    return answer


def _table(tables: dict[int, tuple[Board, dict]], board: Board) -> dict:  # type: ignore[type-arg]
    kept = tables.get(id(board))
    if kept is None or kept[0] is not board:
        kept = tables[id(board)] = (board, {})
    return kept[1]
