"""Public ground for the GBACW doctrine: the scenario's objective hexes (its victory block
is public, 004 sc.2-sc.3) and how far, in infantry MP over the Terrain chart (002 §9.1),
every hex of the map lies from each of them. Cached: the same answer for every game."""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass
from functools import cache

from gettysburg.core.hexes import DIRECTIONS, Hex
from gettysburg.gbacw.board import Board, load_board
from gettysburg.gbacw.charts import all_charts
from gettysburg.gbacw.scenario import Control, load_scenario

#: a hex no infantry enters (the chart's "P") or off the sheets
FAR = 10_000.0


@dataclass(frozen=True)
class Objectives:
    """Who must take which hexes: ``taker`` wins by holding every one of ``hexes``."""

    taker: str | None
    hexes: tuple[Hex, ...]


@cache
def board() -> Board:
    return load_board()


@cache
def parse(hex_id: str) -> Hex:
    return board().parse(hex_id)


@cache
def objectives(scenario: str) -> Objectives:
    """The control conditions of the scenario's victory block (public: the scenario file).
    A scenario scored another way has no objective hexes (the doctrine then closes on the
    enemy)."""
    try:
        scen = load_scenario(scenario)
    except (OSError, ValueError, KeyError):
        return Objectives(None, ())
    for cond in scen.victory.conditions:
        if isinstance(cond, Control) and cond.hexes:
            return Objectives(cond.seat, tuple(parse(h) for h in cond.hexes))
    return Objectives(None, ())


@cache
def _entry_cost(terrain: str) -> float:
    try:
        cost = all_charts().terrain.move_cost(terrain, "infantry")
    except (KeyError, ValueError, LookupError):
        return 1.0
    if cost.kind == "prohibited":
        return FAR
    return float(cost.mp) if cost.kind == "enter" and cost.mp else 1.0


@cache
def distance_field(goal: Hex) -> dict[Hex, float]:
    """Infantry MP from every hex to ``goal`` (Dijkstra on hex terrain only: slopes and
    hexsides are left to the engine's own path search)."""
    b = board()
    out: dict[Hex, float] = {goal: 0.0}
    todo: list[tuple[float, int, int]] = [(0.0, goal.q, goal.r)]
    while todo:
        d, q, r = heapq.heappop(todo)
        here = Hex(q, r)
        if d > out.get(here, math.inf):
            continue
        # walking from `n` into `here` costs `here`'s terrain
        step = _entry_cost(b.hexes[here].terrain) if here in b.hexes else FAR
        for dv in DIRECTIONS:
            n = here + dv
            if n not in b.hexes:
                continue
            nd = d + step
            if nd < out.get(n, math.inf):
                out[n] = nd
                heapq.heappush(todo, (nd, n.q, n.r))
    return out


def mp_to(goal: Hex, h: Hex) -> float:
    return distance_field(goal).get(h, FAR)
