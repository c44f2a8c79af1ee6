"""A step table for a new set of breastworks starts from the last table of the same mover
(costgrid._seed): the rows away from the hexsides whose works differ are the same, and every
row, seeded or built, equals a table built from nothing (002 §9.4 through
movement.entry_cost, §15.17's cost of crossing a guarded hexside)."""

from __future__ import annotations

import random

from gettysburg.core.hexes import Hexside
from gettysburg.gbacw.board import load_board
from gettysburg.gbacw.costgrid import Grid, StepTable, grid_of


def _fresh(grid: Grid, t: StepTable) -> StepTable:
    return StepTable(t.board, grid, t.unit_class, t.orders, t.use_paths, t.breastworks,
                     t.chart, [None] * len(grid.hexes))


def _sides(grid: Grid, rng: random.Random, n: int) -> frozenset[Hexside]:
    out: set[Hexside] = set()
    while len(out) < n:
        h = rng.choice(grid.hexes)
        d = rng.randrange(6)
        j = grid.neighbours[6 * grid.index[h] + d]
        if j >= 0:
            out.add(Hexside.between(h, grid.hexes[j]))
    return frozenset(out)


def test_seeded_rows_equal_rows_built_afresh_15_17() -> None:
    board = load_board()
    grid = grid_of(board)
    rng = random.Random(54)
    first = _sides(grid, rng, 30)
    second = frozenset(list(first)[:20]) | _sides(grid, rng, 10)
    sample = rng.sample(range(len(grid.hexes)), 300) + sorted(
        grid.index[h] for s in first ^ second for h in (s.a, s.b))
    for cls, orders in (("infantry", "advance"), ("artillery", "march"),
                        ("mounted_cavalry", "attack")):
        a = grid.table(board, cls, orders, True, first, None)  # type: ignore[arg-type]
        for i in sample:
            a.row(i)
            a.fronts(i, "vertex")
        b = grid.table(board, cls, orders, True, second, None)  # type: ignore[arg-type]
        kept = [i for i in sample if b.rows[i] is not None]
        assert kept, "nothing was seeded"
        # the rows of the hexes on a changed hexside were not carried over
        for s in first ^ second:
            for h in (s.a, s.b):
                assert b.rows[grid.index[h]] is None
        ref = _fresh(grid, b)
        for i in sample:
            assert b.row(i) == ref.row(i)
            assert b.fronts(i, "vertex") == ref.fronts(i, "vertex")
        # and a crossing that differs does cost differently somewhere (the test can fail)
    changed = next(iter(first ^ second))
    t1 = _fresh(grid, grid.table(board, "infantry", "advance", True, first, None))
    t2 = _fresh(grid, grid.table(board, "infantry", "advance", True, second, None))
    i = grid.index[changed.a]
    assert t1.row(i) != t2.row(i) or t1.row(grid.index[changed.b]) != t2.row(
        grid.index[changed.b])
