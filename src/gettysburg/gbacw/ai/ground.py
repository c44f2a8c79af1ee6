"""Public ground for the GBACW doctrine: the scenario's objective hexes (its victory block
is public, 004 sc.2-sc.3) and how far, in infantry MP over the Terrain chart (002 §9.1),
every hex of the map lies from each of them. Cached: the same answer for every game."""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass
from functools import cache

from gettysburg.core.hexes import DIRECTIONS, Hex
from gettysburg.core.hexids import axial_to_offset
from gettysburg.gbacw.board import Board, load_board
from gettysburg.gbacw.charts import all_charts
from gettysburg.gbacw.scenario import Control, SuddenDeath, VictoryPoints, load_scenario
from gettysburg.gbacw.victory import other, road_line

#: a hex no infantry enters (the chart's "P") or off the sheets
FAR = 10_000.0


@dataclass(frozen=True)
class Objectives:
    """Who must take which hexes: ``taker`` wins by holding every one of ``hexes``."""

    taker: str | None
    hexes: tuple[Hex, ...]
    sheets: tuple[str, ...] = ()  # the scenario's map sheets (distances stay on them)


@cache
def board() -> Board:
    return load_board()


@cache
def parse(hex_id: str) -> Hex:
    return board().parse(hex_id)


@cache
def objectives(scenario: str) -> Objectives:
    """The control conditions of the scenario's victory block (public: the scenario file),
    else its victory-point objectives' hexes with no taker (both sides hold them), else the
    campaign's sudden-death objectives (``_sudden_death``). A scenario scored another way
    has no objective hexes (the doctrine then closes on the enemy)."""
    try:
        scen = load_scenario(scenario)
    except (OSError, ValueError, KeyError):
        return Objectives(None, ())
    sheets = tuple(str(m) for m in scen.maps)
    for cond in scen.victory.conditions:
        if isinstance(cond, Control) and cond.hexes:
            return Objectives(cond.seat, tuple(parse(h) for h in cond.hexes), sheets)
    for cond in scen.victory.conditions:
        if isinstance(cond, VictoryPoints):
            # 004 sc.4, sc.5: either side scores an objective it occupies at the end, so
            # both hold them (no taker)
            hexes = sorted({parse(h) for o in cond.objectives for h in o.hexes},
                           key=lambda x: (x.q, x.r))
            return Objectives(None, tuple(hexes), sheets)
    deaths = [c for c in scen.victory.conditions if isinstance(c, SuddenDeath) and c.geographic]
    if deaths:
        return _sudden_death(deaths, sheets)
    return Objectives(None, (), sheets)


def _sudden_death(deaths: list[SuddenDeath], sheets: tuple[str, ...]) -> Objectives:
    """004 sc.6 (the campaign): each side wins at once on its own geographic objectives.
    The side with the longer list (the Confederacy: Culp's and Cemetery Hill, the Round
    Tops... ) takes; the other holds. Both lists are objectives: the taker also goes for
    the holder's (Gettysburg), which the holder must keep to win, and the holder guards
    every hex the taker needs."""
    def count(c: SuddenDeath) -> int:
        return sum(len(g.hexes) for g in c.geographic)

    taker = max(deaths, key=lambda c: (count(c), c.seat)).seat
    hexes = sorted({parse(h) for c in deaths for g in c.geographic for h in g.hexes},
                   key=lambda x: (x.q, x.r))
    return Objectives(taker, tuple(hexes), sheets)


@dataclass(frozen=True)
class Campaign:
    """The sudden-death terms beyond the objective hexes (004 sc.6.7), public in the
    scenario file: ``road_seat`` needs no enemy infantry or cavalry on the hexes of
    ``road_zone`` (on or east of the Emmitsburg Road's stretch); ``ci_limit`` maps a seat
    to how many of its own combat-ineffective divisions hand the enemy the game."""

    road_seat: str | None = None
    road_zone: frozenset[Hex] = frozenset()
    ci_limit: tuple[tuple[str, int], ...] = ()

    def limit(self, seat: str) -> int | None:
        return dict(self.ci_limit).get(seat)


@cache
def campaign(scenario: str) -> Campaign:
    """The scenario's :class:`Campaign` terms (all empty for a scenario scored another
    way). The road's zone is read as the victory rule reads it (``victory.road_line``:
    in a row of the stretch, at or east of the road's westmost hex)."""
    try:
        scen = load_scenario(scenario)
    except (OSError, ValueError, KeyError):
        return Campaign()
    deaths = [c for c in scen.victory.conditions if isinstance(c, SuddenDeath)]
    limits = tuple(sorted((str(other(c.seat)), c.enemy_ci_divisions)
                          for c in deaths if c.enemy_ci_divisions is not None))
    road = next((c for c in deaths if c.clear_road is not None), None)
    if road is None or road.clear_road is None:
        return Campaign(None, frozenset(), limits)
    b = board()
    line = road_line(b, *road.clear_road)
    kind = b.codec.offset
    zone = frozenset(h for h in b.hexes
                     if (cr := axial_to_offset(h, kind))[0] in line and cr[1] <= line[cr[0]])
    return Campaign(road.seat, zone, limits)


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
def _grid(sheets: tuple[str, ...]) -> tuple[dict[Hex, float],
                                            dict[tuple[Hex, Hex], tuple[bool, float]]]:
    """Each hex's entry cost on ``sheets`` (all, when empty), and for each listed hexside
    crossed one way (from, to): whether a road runs across it and the MP it adds."""
    b = board()
    enter = {h: _entry_cost(i.terrain) for h, i in b.hexes.items()
             if not sheets or set(i.sheets) & set(sheets)}
    sides: dict[tuple[Hex, Hex], tuple[bool, float]] = {}
    for side in b.sides.values():
        x, y = side.side.a, side.side.b
        for frm, to in ((x, y), (y, x)):
            if frm not in enter or to not in enter:
                continue
            extra = 1.0 if side.stream else 0.0
            if side.slope == "sheer":
                extra = FAR
            elif side.slope == "steep":
                levels = abs(b.hexes[to].level - b.hexes[frm].level) or 1
                extra += (2.0 if side.uphill == to else 1.0) * levels
            sides[(frm, to)] = (bool(side.roads), extra)
    return enter, sides


@cache
def _graph(sheets: tuple[str, ...]) -> tuple[tuple[Hex, ...],
                                             dict[Hex, int],
                                             tuple[tuple[tuple[int, float], ...], ...]]:
    """The hexes of ``sheets`` numbered, and for each hex the neighbours one may walk from
    into it with that step's MP (its entry cost, 1 along a road, plus the hexside's), so
    that every objective's search runs over plain integers."""
    enter, sides = _grid(sheets)
    hexes = tuple(enter)
    index = {h: i for i, h in enumerate(hexes)}
    into: list[tuple[tuple[int, float], ...]] = []
    for here in hexes:
        base = enter[here]
        row: list[tuple[int, float]] = []
        for dv in DIRECTIONS:
            n = here + dv
            j = index.get(n)
            if j is None:
                continue
            step = base
            found = sides.get((n, here))  # walking from `n` into `here`
            if found is not None:
                step = (min(step, 1.0) if found[0] else step) + found[1]
            row.append((j, step))
        into.append(tuple(row))
    return hexes, index, tuple(into)


@cache
def distance_field(goal: Hex, sheets: tuple[str, ...] = ()) -> dict[Hex, float]:
    """Infantry MP from every hex to ``goal`` (Dijkstra): the hex's terrain, or 1 along a
    road (002 §9.1), plus a creek (+1) and a steep slope (+2 a level up, +1 down); a sheer
    slope is not climbed (the Terrain chart's elevation rows). The engine's own path
    search has the rest of 002 §9."""
    hexes, index, into = _graph(sheets)
    g = index[goal]  # a goal off the sheets has no field (KeyError, as before)
    dist = [math.inf] * len(hexes)
    dist[g] = 0.0
    todo: list[tuple[float, int]] = [(0.0, g)]
    pop, push = heapq.heappop, heapq.heappush
    while todo:
        d, i = pop(todo)
        if d > dist[i]:
            continue
        for j, step in into[i]:
            nd = d + step
            if nd < dist[j]:
                dist[j] = nd
                push(todo, (nd, j))
    return {hexes[i]: x for i, x in enumerate(dist) if x < math.inf}


def mp_to(goal: Hex, h: Hex, sheets: tuple[str, ...] = ()) -> float:
    return distance_field(goal, sheets).get(h, FAR)
