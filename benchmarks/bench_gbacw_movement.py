"""Benchmark GBACW movement: every unit's legal moves on the Second Day (a script, not a test).

    .venv/bin/python benchmarks/bench_gbacw_movement.py [--repeat N] [--orders O] [--reference]

Sets up 004's Second Day scenario on the derived board (both armies, as
``deployment.place_units`` places them; a facing left to the owner points at the nearest
enemy) and times

1. :func:`gettysburg.gbacw.paths.reachable` for every unit of both armies with the full rules
   (enemy hexes and artillery, friends, the §9.42 minimum, the disordered MA): cold (a fresh
   board, so every step cost is worked out as the searches meet it) and warm (the board's
   kept tables, as the engine finds them after its first searches); per call (mean, median,
   max) and in total;
2. the same searches on the same (hex, facing, path-followed) graph with the same weights
   (turn costs, free turns along a path, terrain and hexside costs) with networkx's
   ``single_source_dijkstra_path_length``, the enemy and the orders' bans applied through its
   weight function, after asserting that both give the same cost for every (hex, facing) a
   unit can end in. networkx cannot keep the path-dependent rules (friends passed through,
   §8.22; the one-hex minimum, §9.42; the disordered MA, §9.47), so this comparison leaves
   them out on both sides;
3. with ``--reference``, the search as first written (the step-at-a-time reference kept in
   ``tests/test_gbacw_paths_speed.py``) on the full rules, asserting identical answers.

``--orders`` puts every unit on ``deployed`` orders (the scenario's), ``march`` or ``attack``.
Times are CPU seconds of this process (``time.process_time``), medians of ``--repeat`` runs:
on a shared machine the wall clock counts the waits for a core; the total wall time is
printed at the end.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import networkx as nx

from gettysburg.core.hexes import Hex
from gettysburg.gbacw.board import Board, load_board
from gettysburg.gbacw.charts import all_charts
from gettysburg.gbacw.deployment import place_units
from gettysburg.gbacw.facing import Facing, vertex_steps
from gettysburg.gbacw.movement import (
    FriendStack,
    Step,
    approach_ban,
    effective_orders,
    entry_cost,
    movement_allowance,
    turn_cost,
)
from gettysburg.gbacw.oob import Counter, default_oob
from gettysburg.gbacw.paths import Reach, reachable
from gettysburg.gbacw.scenario import load_scenario

Plan = dict[str, Any]


def unit_class(c: Counter) -> str:
    """The Terrain chart's class of a counter (as gbacw.game reads it)."""
    if c.arm in ("art", "horse_art"):
        return "artillery"
    return "mounted_cavalry" if c.arm == "cav" and c.mode == "mounted" else "infantry"


def second_day(board: Board, orders_for_all: str) -> list[Plan]:
    """One plan (reachable's arguments) per unit of both armies on the Second Day."""
    oob, scen = default_oob(), load_scenario("second-day")
    counters = {c.id: c for c in oob.counters()}
    placed = {seat: [(board.parse(p.hex), p, counters[p.counter])
                     for p in place_units(scen, seat, oob, board)] for seat in ("usa", "csa")}
    guns_only = {seat: {h for h, _, _ in units} - {h for h, _, c in units
                                                 if unit_class(c) != "artillery"}
                 for seat, units in placed.items()}
    plans: list[Plan] = []
    for seat, units in placed.items():
        foe = "csa" if seat == "usa" else "usa"
        enemy = {h for h, _, _ in placed[foe]}
        for h, p, c in units:
            orders = p.orders if orders_for_all == "deployed" else orders_for_all
            cls = unit_class(c)
            kind = "side" if effective_orders(orders, cls) == "march" else "vertex"  # type: ignore[arg-type]
            if p.facing is not None:
                index = p.facing
            else:  # the owner's choice: towards the nearest enemy
                near = min(enemy, key=lambda e: (e.distance(h), e))
                index = min(range(6), key=lambda d: (h.neighbour(d).distance(near), d))
            friends = {x: FriendStack(artillery_only=x in guns_only[seat],
                                      march=orders == "march")
                       for x, _, _ in units if x != h}
            plans.append({"start": h, "facing": Facing(kind, index),  # type: ignore[arg-type]
                          "mp": movement_allowance(c.ma, orders, cls),  # type: ignore[arg-type]
                          "unit_class": cls, "orders": orders, "enemy": enemy,
                          "enemy_artillery": guns_only[foe], "friends": friends, "full_ma": c.ma,
                          "mp_disordered": c.ma_disordered})
    return plans


def timed(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """The median CPU time of ``repeat`` runs (this process's own time: the machine is
    shared, and waiting for a core is not the search's cost) and the last answer."""
    times, out = [], None
    for _ in range(repeat):
        t = time.process_time()
        out = fn()
        times.append(time.process_time() - t)
    return statistics.median(times), out


def per_call(board: Board, plans: list[Plan]) -> list[float]:
    out = []
    for p in plans:
        t = time.process_time()
        reachable(board, **p)
        out.append(time.process_time() - t)
    return out


# --- the same graph for networkx ---------------------------------------------------------

State = tuple[Hex, int, bool]  # hex, facing index, entered along a path


def state_graph(board: Board, cls: str, orders: str, kind: str, starts: list[Hex],
                reach_hexes: int) -> nx.DiGraph:
    """Every (hex, facing, by path) state within ``reach_hexes`` of a start, and every move
    out of it: turn in the hex, then step into a front hex (002 §7.13, §7.21-7.23, §9.4),
    weighted in half MP as paths.reachable counts them."""
    region = {x for s in starts for dq in range(-reach_hexes, reach_hexes + 1)
              for dr in range(-reach_hexes, reach_hexes + 1)
              if (x := Hex(s.q + dq, s.r + dr)) in board.hexes
              and x.distance(s) <= reach_hexes}
    fronts = ({f: (f, (f + 1) % 6) for f in range(6)} if kind == "vertex"
              else {f: (f,) for f in range(6)})
    g = nx.DiGraph()
    for h in region:
        woods = board.hexes[h].terrain in ("woods", "rough-woods")
        tcs = [2 * turn_cost(k, unit_class=cls, orders=orders, in_woods=woods)  # type: ignore[arg-type]
               for k in range(4)]
        steps: dict[int, Step] = {}
        for d in range(6):
            n = h.neighbour(d)
            if n in board.hexes:
                found = entry_cost(board, h, n, unit_class=cls, orders=orders)  # type: ignore[arg-type]
                if isinstance(found, Step):
                    steps[d] = found
        for f in range(6):
            for by_path in (False, True):
                for f2 in range(6):
                    k = min((f2 - f) % 6, (f - f2) % 6)
                    for d in fronts[f2]:
                        st = steps.get(d)
                        if st is None:
                            continue
                        free = by_path and st.path is not None
                        g.add_edge((h, f, by_path), (st.to, f2, st.path is not None),
                                   w=(0 if free else tcs[k]) + st.half_mp, bridge=st.bridge,
                                   step=st)
    return g


def nx_reach(board: Board, graphs: dict[tuple[str, str], nx.DiGraph],
             p: Plan) -> dict[tuple[Hex, Facing], int]:
    """The cheapest half MP to end in each (hex, facing), by networkx on the state graph."""
    start, facing, cls, orders = p["start"], p["facing"], p["unit_class"], p["orders"]
    enemy, limit = p["enemy"], 2 * p["mp"]
    near = {n for e in enemy for n in e.neighbours()}
    bans: dict[tuple[Hex, bool], bool] = {}
    source = (start, facing.index, True)
    start_adjacent = start in near

    def weight(u: State, v: State, d: dict[str, Any]) -> int | None:
        if v[0] in enemy:
            return None  # §9.51
        if u != source and u[0] in near:
            return None  # §9.53: the move stopped there
        if u[0] == start and start_adjacent and min((v[1] - u[1]) % 6, (u[1] - v[1]) % 6) >= 2:
            return None  # §7.24
        if v[0] in near:
            key = (v[0], d["bridge"])
            if key not in bans:
                bans[key] = approach_ban(board, v[0], d["step"], unit_class=cls,
                                         orders=orders, enemy=enemy,
                                         enemy_artillery=p["enemy_artillery"]) is not None
            if bans[key]:
                return None
        return int(d["w"])

    g = graphs[(cls, orders)]
    dist = nx.single_source_dijkstra_path_length(g, source, cutoff=limit, weight=weight)
    kind = facing.kind
    out: dict[tuple[Hex, Facing], int] = {}
    for (h, f, _bp), c in dist.items():
        if (h, f, _bp) != source and h in near:  # stopped next to the enemy (§9.53)
            cands = [(Facing(kind, f), int(c))]
        else:
            woods = board.hexes[h].terrain in ("woods", "rough-woods")
            cands = [(Facing(kind, f2), int(c) + 2 * turn_cost(
                vertex_steps(Facing(kind, f), Facing(kind, f2)), unit_class=cls,
                orders=orders, in_woods=woods)) for f2 in range(6)]
        for f2, cost in cands:
            if cost <= limit and cost < out.get((h, f2), cost + 1):
                out[(h, f2)] = cost
    return out


def cheapest(reach: dict[tuple[Hex, Facing], Reach]) -> dict[tuple[Hex, Facing], int]:
    return {k: r.half_mp for k, r in reach.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--orders", choices=("deployed", "march", "attack"), default="deployed")
    ap.add_argument("--reference", action="store_true",
                    help="also time the search as first written (slow: about a minute)")
    args = ap.parse_args()
    wall = time.perf_counter()
    all_charts()
    board = load_board()
    plans = second_day(board, args.orders)
    hexes = {p["start"] for p in plans}
    print(f"Second Day on the derived board ({len(board.hexes)} hexes): {len(plans)} units "
          f"on {len(hexes)} hexes, orders {args.orders}")
    gc.collect()

    t_cold, _ = timed(lambda: [reachable(board, **p) for p in plans], 1)
    # an 8-MP regiment in the open, as the movement tests measure it (first, while the
    # heap is small: the army's answers held below make every full collection dearer)
    a2810 = board.parse("A2810")
    for orders, f in (("advance", Facing.vertex(0)), ("march", Facing.side(0))):
        one: Plan = {"start": a2810, "facing": f, "mp": 8, "unit_class": "infantry",
                     "orders": orders, "enemy": ()}
        reachable(board, **one)
        t1, r1 = timed(lambda one=one: reachable(board, **one), 9)  # type: ignore[misc]
        print(f"an 8-MP regiment on {orders} from A2810, no enemy: {len(r1)} states in "
              f"{t1 * 1000:.1f} ms (median of 9)")

    t_warm, answers = timed(lambda: [reachable(board, **p) for p in plans], args.repeat)
    calls = per_call(board, plans)
    states = sum(len(a) for a in answers)
    print(f"reachable, full rules, every unit: cold {t_cold:.2f} s (step costs worked out "
          f"as met), warm {t_warm * 1000:.0f} ms; per call mean {statistics.mean(calls) * 1000:.2f}"
          f" ms, median {statistics.median(calls) * 1000:.2f} ms, max {max(calls) * 1000:.1f} ms;"
          f" {states} end states ({states / len(plans):.0f} a unit)")
    # the same graph, the same weights: networkx against reachable
    simple = [{**p, "friends": {}, "full_ma": None, "mp_disordered": None} for p in plans]
    t0 = time.process_time()
    graphs: dict[tuple[str, str], nx.DiGraph] = {}
    for cls, orders in sorted({(p["unit_class"], p["orders"]) for p in simple}):
        mine = [p for p in simple if (p["unit_class"], p["orders"]) == (cls, orders)]
        most = max(p["mp"] for p in mine) * (2 if orders == "march" else 1)
        graphs[(cls, orders)] = state_graph(board, cls, orders, mine[0]["facing"].kind,
                                            [p["start"] for p in mine], most)
    t_build = time.process_time() - t0
    edges = sum(g.number_of_edges() for g in graphs.values())
    ours = [cheapest(reachable(board, **p)) for p in simple]
    theirs = [nx_reach(board, graphs, p) for p in simple]
    for p, a, b in zip(simple, ours, theirs, strict=True):
        assert a == b, f"reachable and networkx disagree for the unit at {p['start']}"
    t_ours, _ = timed(lambda: [reachable(board, **p) for p in simple], args.repeat)
    t_nx, _ = timed(lambda: [nx_reach(board, graphs, p) for p in simple], args.repeat)
    print(f"same graph, same weights (friends, §9.42 and the disordered MA left out on both "
          f"sides): reachable {t_ours * 1000:.0f} ms, networkx {t_nx * 1000:.0f} ms "
          f"(its graph: {edges} edges built in {t_build:.1f} s, not counted); ratio "
          f"networkx/reachable {t_nx / t_ours:.1f}x; costs identical for every unit")
    print(f"  per unit: reachable {t_ours / len(plans) * 1000:.2f} ms, networkx "
          f"{t_nx / len(plans) * 1000:.2f} ms")

    if args.reference:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
        from test_gbacw_paths_speed import reference_reachable  # type: ignore[import-not-found]

        t_ref, ref = timed(lambda: [reference_reachable(board, **p) for p in plans], 1)
        assert all(list(a.items()) == list(b.items()) for a, b in zip(answers, ref, strict=True))
        print(f"the search as first written, full rules: {t_ref:.2f} s "
              f"({t_ref / len(plans) * 1000:.1f} ms a unit); {t_ref / t_warm:.1f}x the warm "
              f"search; answers identical")
    print(f"(wall clock for the whole run: {time.perf_counter() - wall:.0f} s)")


if __name__ == "__main__":
    main()
