"""Small-integer tables of a GBACW board for the movement searches (the speed of 002 §9).

:mod:`gettysburg.gbacw.paths` searches thousands of (hex, facing) states a unit, and the engine
asks for every unit of a brigade; the rules themselves stay in :mod:`gettysburg.gbacw.movement`.
This module only keeps what they answer, once per board, in forms a tight loop reads fast:

- :class:`Grid`: the board's hexes numbered 0..N-1 in (q, r) order (so comparing numbers
  compares hexes as :class:`Hex` does), each hex's six neighbours as numbers (-1 off the map),
  which hexes are woods (§7.22), and the (hex, facing) pairs a path is made of;
- :class:`StepTable`: :func:`movement.entry_cost` for one (unit class, orders, path use,
  breastworks, chart), filled a hex at a time the first time a search leaves it;
- :class:`EnemyContext`: the numbers of the enemy's hexes and of the hexes next to them (and,
  for March, within four hexes of them, §6.13), kept for the last few enemy sets, since every
  unit of a side moves against the same enemy.

The tables assume the board is not changed after it is loaded (the engine never does; moving
breastworks come in as ``breastwork_sides`` and key their own table).
"""

from __future__ import annotations

import contextlib
import weakref
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from gettysburg.core.hexes import DIRECTIONS, Hex, Hexside
from gettysburg.core.protocol import RuleError

from .board import Board
from .charts import all_charts
from .charts.terrain import TerrainChart, UnitClass
from .facing import Facing
from .movement import Orders, Step, bridge_closers, bridge_steps_on, entry_cost

#: disorder codes in a table entry: none, d (UDD), D (automatic)
NO_DISORDER, UDD, AUTO = 0, 1, 2
#: path codes: none, pike, road, trail (pike and road give the full rate)
PATH_CODES = {None: 0, "pike": 1, "road": 2, "trail": 3}

#: one step: (neighbour number, half MP, disorder code, path code, the Step, special) where
#: special marks a bridge or ford, or the step onto Lott's Ridge bridge, whose use depends on
#: where friends on March and enemies stand (002 §8.22 exception 3, 004 §9.81)
Entry = tuple[int, int, int, int, Step, bool]
Row = tuple[Entry | None, ...]
Fronts = tuple[tuple[Entry, ...], ...]

#: the directions of the front hexes of each facing index, by kind (002 §7.11)
FRONT_DIRECTIONS = {"vertex": tuple((v, (v + 1) % 6) for v in range(6)),
                    "side": tuple((d,) for d in range(6))}

WOODS = ("woods", "rough-woods")
#: tables kept a board: four classes by three orders by path use, with room for a few sets of
#: breastworks; the oldest goes first
MAX_TABLES = 48


@dataclass(slots=True)
class StepTable:
    """:func:`movement.entry_cost` for one kind of mover, by (hex number, direction)."""

    board: Board
    grid: Grid
    unit_class: UnitClass
    orders: Orders | None
    use_paths: bool
    breastworks: frozenset[Hexside]
    chart: TerrainChart | None
    rows: list[Row | None]
    by_facing: dict[str, list[Fronts | None]] = field(default_factory=dict)

    def row(self, i: int) -> Row:
        """The six steps out of hex ``i`` (None: off the map or refused)."""
        found = self.rows[i]
        if found is None:
            found = self.rows[i] = self._build(i)
        return found

    def fronts(self, i: int, kind: str) -> Fronts:
        """The steps into the front hexes of hex ``i`` for each facing index of ``kind``
        (002 §7.13), the refused ones left out."""
        table = self.by_facing.get(kind)
        if table is None:
            table = self.by_facing[kind] = [None] * len(self.rows)
        found = table[i]
        if found is None:
            row = self.row(i)
            found = table[i] = tuple(
                tuple(e for d in FRONT_DIRECTIONS[kind][f] if (e := row[d]) is not None)
                for f in range(6))
        return found

    def _build(self, i: int) -> Row:
        g, board = self.grid, self.board
        h = g.hexes[i]
        out: list[Entry | None] = []
        for d in range(6):
            j = g.neighbours[6 * i + d]
            if j < 0:
                out.append(None)
                continue
            n = g.hexes[j]
            step = entry_cost(board, h, n, unit_class=self.unit_class, orders=self.orders,
                              use_paths=self.use_paths, breastwork_sides=self.breastworks,
                              chart=self.chart)
            if isinstance(step, RuleError):
                out.append(None)
                continue
            special = step.bridge or (bool(g.bridge_closers) and (h, n) in g.bridge_on)
            dis = UDD if step.disorder == "udd" else AUTO if step.disorder == "auto" else 0
            out.append((j, step.half_mp, dis, PATH_CODES[step.path], step, special))
        return tuple(out)


@dataclass(slots=True)
class EnemyContext:
    """Where the enemy is, by hex number (see the module docstring)."""

    enemy: frozenset[int]
    near: frozenset[int]  # next to an enemy hex
    hexes_near: frozenset[Hex]
    _within4: dict[int, tuple[Hex, ...]] | None = None
    _grid: Grid | None = None
    enemy_hexes: frozenset[Hex] = frozenset()

    def within4(self) -> dict[int, tuple[Hex, ...]]:
        """The enemy hexes within four hexes of each hex that has any (002 §6.13)."""
        if self._within4 is None:
            g = self._grid
            assert g is not None
            out: dict[int, list[Hex]] = {}
            for e in self.enemy_hexes:
                for x in _disc(e, 4):
                    k = g.index.get(x)
                    if k is not None:
                        out.setdefault(k, []).append(e)
            self._within4 = {k: tuple(v) for k, v in out.items()}
        return self._within4


def _disc(center: Hex, radius: int) -> list[Hex]:
    return [Hex(center.q + dq, center.r + dr) for dq in range(-radius, radius + 1)
            for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1)]


@dataclass(slots=True)
class Grid:
    """A board's hexes as numbers (see the module docstring)."""

    hexes: list[Hex]
    index: dict[Hex, int]
    neighbours: list[int]  # 6 * i + d -> the neighbour's number, -1 off the map
    woods: list[bool]
    bridge_closers: frozenset[Hex]
    # the steps onto Lott's Ridge bridge (movement.bridge_steps_on, 004 §9.81)
    bridge_on: frozenset[tuple[Hex, Hex]] = frozenset()
    pairs: dict[str, list[tuple[Hex, Facing]]] = field(default_factory=dict)
    facings: dict[str, tuple[Facing, ...]] = field(default_factory=dict)
    tables: dict[tuple[object, ...], StepTable] = field(default_factory=dict)
    enemies: dict[frozenset[Hex], EnemyContext] = field(default_factory=dict)

    def pair_list(self, kind: str) -> list[tuple[Hex, Facing]]:
        """``pairs[6 * i + f]`` is (hex i, facing f of ``kind``), shared by every path."""
        found = self.pairs.get(kind)
        if found is None:
            fs = self.facing_list(kind)
            found = self.pairs[kind] = [(h, f) for h in self.hexes for f in fs]
        return found

    def facing_list(self, kind: str) -> tuple[Facing, ...]:
        found = self.facings.get(kind)
        if found is None:
            found = self.facings[kind] = tuple(Facing(kind, k)  # type: ignore[arg-type]
                                               for k in range(6))
        return found

    def table(self, board: Board, unit_class: UnitClass, orders: Orders | None,
              use_paths: bool, breastwork_sides: Collection[Hexside],
              chart: TerrainChart | None) -> StepTable:
        """The step table of one kind of mover (``orders`` already the effective ones)."""
        works = frozenset(breastwork_sides)
        the_chart = chart if chart is not None else all_charts().terrain
        key = (unit_class, orders, use_paths, works, id(the_chart))
        found = self.tables.get(key)
        if found is None or found.chart is not chart:
            if len(self.tables) >= MAX_TABLES:  # each set of breastworks keys its own
                _drop_oldest(self.tables)
            found = self.tables[key] = StepTable(board, self, unit_class, orders, use_paths,
                                                 works, chart, [None] * len(self.hexes))
            _seed(found, list(self.tables.values()))
        return found

    def enemy_context(self, enemy: Collection[Hex]) -> EnemyContext:
        """The enemy's hexes as numbers, kept for the last eight enemy sets."""
        key = enemy if isinstance(enemy, frozenset) else frozenset(enemy)
        found = self.enemies.get(key)
        if found is None:
            index = self.index
            near_hexes = frozenset(n for e in key for n in e.neighbours())
            found = EnemyContext(frozenset(index[e] for e in key if e in index),
                                 frozenset(index[n] for n in near_hexes if n in index),
                                 near_hexes, None, self, key)
            if len(self.enemies) >= 8:
                _drop_oldest(self.enemies)
            self.enemies[key] = found
        return found


def _seed(table: StepTable, tables: Collection[StepTable]) -> None:
    """Fill a new table from the newest other table of the same mover under other
    breastworks: a hex's row reads the works only on its own six hexsides
    (:func:`movement.entry_cost` asks whether the side crossed is guarded), so every row
    away from the hexsides whose works differ is the same (a work built or crossed
    otherwise costs the whole board's rows again)."""
    donor = None
    for t in tables:
        if t is not table and t.chart is table.chart and t.unit_class == table.unit_class \
                and t.orders == table.orders and t.use_paths == table.use_paths:
            donor = t
    if donor is None:
        return
    index = table.grid.index
    differ = {index[h] for side in table.breastworks ^ donor.breastworks
              for h in (side.a, side.b) if h in index}
    table.rows = [None if i in differ else r for i, r in enumerate(donor.rows)]
    for kind, fronts in donor.by_facing.items():
        table.by_facing[kind] = [None if i in differ else f for i, f in enumerate(fronts)]


def _drop_oldest(kept: dict[Any, Any]) -> None:
    """Forget the oldest entry (another thread may have done it first: no matter)."""
    with contextlib.suppress(RuntimeError, StopIteration):
        kept.pop(next(iter(kept)), None)


_GRIDS: dict[int, tuple[weakref.ref[Board], Grid]] = {}


def grid_of(board: Board) -> Grid:
    """The board's :class:`Grid`, built once and dropped with the board
    (the movement costs of 002 §9.2-9.4)."""
    kept = _GRIDS.get(id(board))
    if kept is not None and kept[0]() is board:
        return kept[1]
    hexes = sorted(board.hexes)
    index = {h: i for i, h in enumerate(hexes)}
    neighbours = [index.get(h + d, -1) for h in hexes for d in DIRECTIONS]
    woods = [board.hexes[h].terrain in WOODS for h in hexes]
    grid = Grid(hexes, index, neighbours, woods, bridge_closers(board),
                bridge_steps_on(board))
    key = id(board)
    _GRIDS[key] = (weakref.ref(board, lambda _r: _GRIDS.pop(key, None)), grid)
    return grid
