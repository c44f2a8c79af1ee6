"""The board's entry roads (6.7): names compared as one road, and the roads beside a road
along the map edge."""

from __future__ import annotations

import math

from gettysburg.boc.board import Board
from gettysburg.boc.scenario import ENTRY_ROAD_ALIASES


def road_name(name: str) -> str:
    """Entry roads compared by canonical name (the seeds' Cashtown Pike is the scenario
    files' Chambersburg Pike, 6.7)."""
    return ENTRY_ROAD_ALIASES.get(name, name).casefold()


def _entry_ring(board: Board) -> list[str]:
    """The board's entry roads in cyclic order of their hexes' bearing from the map
    centre; cached on the board (boards are immutable once loaded, as ``index``)."""
    got = board.__dict__.get("_boc_entry_ring")
    if isinstance(got, list):
        return got
    infos = [i for i in board.hexes.values() if i.entries]
    ring: list[tuple[float, str]] = []
    if infos:
        cx = sum(board.layout.to_plane(i.hex)[0] for i in board.hexes.values()) \
            / len(board.hexes)
        cy = sum(board.layout.to_plane(i.hex)[1] for i in board.hexes.values()) \
            / len(board.hexes)
        for i in infos:
            x, y = board.layout.to_plane(i.hex)
            for name in i.entries:
                ring.append((math.atan2(y - cy, x - cx), name))
    ring.sort()
    names = [n for _, n in ring]
    board.__dict__["_boc_entry_ring"] = names
    return names


def adjacent_roads(board: Board, road: str) -> list[str]:
    """6.7: the entry roads next to ``road`` along the map edge (cyclic order of the entry
    hexes by bearing from the map centre)."""
    names = _entry_ring(board)
    if not names:
        return []
    key = road_name(road)
    out: set[str] = set()
    for k, n in enumerate(names):
        if road_name(n) == key:
            for j in (k - 1, (k + 1) % len(names)):
                if road_name(names[j]) != key:
                    out.add(names[j])
    return sorted(out)
