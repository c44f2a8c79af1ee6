"""Benchmark BoC movement: legal-action generation and movement ranges (a script, not a test).

    .venv/bin/python benchmarks/bench_movement.py [--board PATH] [--repeat N]

Uses the shipped board (``boc/data/board.json``) when it exists, else ``--board``, else a
hand-built clear board with a few roads. It times

1. ``legal_actions`` at the Day 2 ("Sickles' Folly") start, in the CSA movement phase:
   cold (the board's cache of recent ``reachable`` answers emptied first) and warm (as the
   next decision of the same phase finds it: each unit's reach kept);
2. the movement range of every unit on the map (ZOC ignored), with the engine's Dijkstra
   (:func:`gettysburg.boc.movement.reachable`, its cache emptied before every unit, so
   every search is done) and with networkx's ``single_source_dijkstra_path_length`` on the
   same (hex, road) state graph, after asserting that both give the same cost for every
   reachable hex; and prints the ratio;
3. (shipped board only, ``--games N``, 0 to skip) random-vs-random Day 1 transitions a
   second and CPU seconds a game, played each way in the same run (``MODES``): the
   engine's lazily built legal actions without a view (issue 59), the full list without a
   view (as before it), the lab's loop (a view every decision), the lab's loop with the
   memos emptied before every decision and with recorded ``apply``; all end each game in
   the same state hash.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import networkx as nx
import yaml

from gettysburg.boc.board import STACKING, Board, board_path, load_board
from gettysburg.boc.game import BocGame
from gettysburg.boc.movement import NO_ROAD, MoveGraph, MoveRules, graph, reachable
from gettysburg.boc.scenario import SCENARIO_DIR


def hand_built_board(path: Path) -> None:
    """A clear A-U x 1-14 board with two main roads, a creek and a hill (no real map yet)."""
    hexes = []
    for letter in "ABCDEFGHIJKLMNOPQRSTU":
        for n in range(1, 15):
            terrain = "woods" if (ord(letter) + n) % 5 == 0 else "clear"
            hexes.append({"id": f"{letter}{n}", "terrain": terrain, "ground": 0,
                          "stacking": STACKING[terrain], "d2": terrain == "woods",
                          "height_ft": 500.0})
    sides: list[dict[str, Any]] = []
    pike = [f"L{n}" for n in range(1, 7)] + ["K6", "J6", "I6", "H6"]
    for a, b in itertools.pairwise(pike):
        sides.append({"a": a, "b": b, "roads": [{"road": "bp", "name": "Baltimore Pike",
                                                 "class": "main"}]})
    west = [f"H{n}" for n in range(14, 6, -1)]
    for a, b in itertools.pairwise(west):
        sides.append({"a": a, "b": b, "roads": [{"road": "cp", "name": "Cashtown Pike",
                                                 "class": "main"}]})
    for n in range(1, 14):
        sides.append({"a": f"N{n}", "b": f"N{n + 1}", "terrain": ["creek"]})
        sides.append({"a": f"P{n}", "b": f"Q{n}", "slope": "hill", "uphill": f"P{n}"})
    doc = {"system": "boc", "meta": {"hand_built": True},
           "layout": {"basis_q": [0.0, -430.0], "basis_r": [372.4, -215.0],
                      "origin": [0.0, 0.0]}, "hexes": hexes, "hexsides": sides}
    path.write_text(json.dumps(doc), encoding="utf-8")


def day2_game(board_file: Path | None, tmp: Path) -> tuple[BocGame, str]:
    if board_file is None:
        return BocGame("boc/day2", [], 1), "shipped board"
    raw = yaml.safe_load((SCENARIO_DIR / "day2.yaml").read_text(encoding="utf-8"))
    raw["engine"] = {"board": str(board_file.resolve())}
    scen = tmp / "day2.yaml"
    scen.write_text(yaml.safe_dump(raw), encoding="utf-8")
    return BocGame(str(scen), [], 1), str(board_file)


def state_graph(g: MoveGraph, multiplier: int) -> nx.DiGraph:
    """The engine's search space as an explicit graph: nodes are (hex, road followed)."""
    dg = nx.DiGraph()
    roads_at: dict[str, set[str]] = {h: {NO_ROAD} for h in g.steps}
    for a, steps in g.steps.items():
        for st in steps:
            for rk, _ in st.roads:
                roads_at[a].add(rk)
                roads_at[st.to].add(rk)
    for a, steps in g.steps.items():
        for road in roads_at[a]:
            for st in steps:
                dg.add_edge((a, road), (st.to, NO_ROAD), w=st.off_road * multiplier)
                for rk, rc in st.roads:
                    change = 1 if road and road != rk else 0
                    dg.add_edge((a, road), (st.to, rk), w=rc + change)
    return dg


def timed(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), out


#: How a random Day 1 game is played (``random_day1``'s ``mode``):
#: lab: the lab's loop (``view`` every decision, its listed legal actions, unrecorded);
#: list: no view, ``legal_actions`` (every action built) and unrecorded ``apply``;
#: lazy: no view, ``legal_sequence`` (count and one item; issue 59) and unrecorded ``apply``;
#: recorded: the lab's loop with recorded ``apply`` (history, state hash, snapshot).
MODES = ("lab", "list", "lazy", "recorded")


def random_day1(games: int, memos: bool, recorded: bool = False, mode: str = "lab"
                ) -> tuple[int, float]:
    """(transitions, CPU seconds) of ``games`` random-vs-random Day 1 games, the random
    agent and dice seeded per game (``mode``: see ``MODES``; ``recorded`` is the same as
    ``mode="recorded"``). ``memos=False`` empties the engine's issue-59 memos before every
    decision (``BocGame.forget_memos``). CPU time (``time.process_time``): the machine is
    shared, and wall-clock figures move by several times between runs."""
    from gettysburg.ai import make_agent
    from gettysburg.core.protocol import new_game

    if recorded:
        mode = "recorded"
    steps, spent = 0, 0.0
    for k in range(games):
        game = new_game("boc/day1", seed=f"bench-{k}")
        assert isinstance(game, BocGame)
        agents = {s: make_agent("random", k) for s in game.seats()}
        rng = random.Random(k)
        apply = game.apply if mode == "recorded" else game.apply_unrecorded
        t = time.process_time()
        while not game.is_terminal():
            if not memos:
                game.forget_memos()
            seat = game.to_move()[0]
            if mode in ("lab", "recorded"):
                view = game.view(seat)
                legal: Any = view["legal_actions"]
            else:
                view = {}
                legal = game.legal_sequence(seat) if mode == "lazy" \
                    else game.legal_actions(seat)
            apply(agents[seat].choose(view, legal, 1.0, rng), seat)
            steps += 1
        spent += time.process_time() - t
        last_hashes[k] = game.state_hash()
    return steps, spent


#: The final state hash of each benchmark game (game index -> hash) of the last run:
#: every way of playing must end each game in the same state.
last_hashes: dict[int, str] = {}


def day1_figures(games: int) -> None:
    """Issue 59's figures, each way of playing in the same run: goals 5,000 transitions
    a second (engine: legal actions and apply) and 0.2 s a random Day 1 game."""
    print(f"random vs random Day 1, {games} games, CPU time (goal 5,000 transitions/s and "
          "0.2 s a game):")
    rows = (("lazy legal_sequence, no view", True, "lazy"),
            ("legal_actions list, no view", True, "list"),
            ("lab loop (view + list)", True, "lab"),
            ("lab loop, memos emptied", False, "lab"),
            ("lab loop, recorded apply", True, "recorded"))
    hashes: set[tuple[str, ...]] = set()
    for label, memos, mode in rows:
        n, sec = random_day1(games, memos, mode=mode)
        hashes.add(tuple(last_hashes[k] for k in range(games)))
        print(f"  {label:30s} {n / sec:7.0f} transitions/s, {sec / games:.3f} s a game "
              f"({n} transitions)")
    assert len(hashes) == 1, "the ways of playing ended in different states"
    print("  every way ended each game in the same state hash")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--board", type=Path, default=None)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--games", type=int, default=2,
                    help="random Day 1 games for the transitions figure (0: skip it)")
    args = ap.parse_args()
    if args.games and board_path().exists():
        day1_figures(args.games)
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        board_file: Path | None = None
        if not board_path().exists():
            board_file = args.board
            if board_file is None:
                board_file = tmp / "board.json"
                hand_built_board(board_file)
        game, source = day2_game(board_file, tmp)
        board: Board = game.board if board_file is None else load_board(str(board_file))
        print(f"board: {source}: {len(board.hexes)} hexes")
        for _ in range(2):  # command, fire -> movement
            game.apply({"type": "end_phase"}, game.to_move()[0])
        seat = game.to_move()[0]
        g = graph(board)
        kept = graph(game.board).reach_cache

        def cold() -> list[Any]:
            kept.clear()
            return game.legal_actions(seat)

        t_legal, legal = timed(cold, args.repeat)
        t_warm, _ = timed(lambda: game.legal_actions(seat), args.repeat)
        print(f"legal_actions at Day 2 start, {seat} movement phase: {len(legal)} actions "
              f"in {t_legal * 1000:.1f} ms cold, {t_warm * 1000:.1f} ms with the reach of "
              f"every unit kept (median of {args.repeat})")

        units = [u for u in game.state.units.values() if u.status == "on_map"]
        plans = []
        for u in units:
            mv = game.orders.oob[u.id].movement
            assert u.hex is not None
            plans.append((u.hex, MoveRules(budget=mv.allowance,
                                           multiplier=mv.off_road_multiplier, one_hex=False)))
        graphs = {m: state_graph(g, m) for m in {r.multiplier for _, r in plans}}

        def ours() -> list[dict[str, int]]:
            out = []
            for h, r in plans:
                g.reach_cache.clear()  # time the search, not the cache
                out.append(reachable(board, h, r).cost)
            return out

        def theirs() -> list[dict[str, int]]:
            out = []
            for h, r in plans:
                dist = nx.single_source_dijkstra_path_length(
                    graphs[r.multiplier], (h, NO_ROAD), cutoff=r.budget,
                    weight=lambda _u, _v, d: d["w"])
                best: dict[str, int] = {}
                for (hx, _road), c in dist.items():
                    if hx != h:
                        best[hx] = min(int(c), best.get(hx, int(c)))
                out.append(best)
            return out

        assert ours() == theirs(), "engine and networkx disagree"
        t_ours, _ = timed(ours, args.repeat)
        t_nx, _ = timed(theirs, args.repeat)
        cells = sum(len(c) for c in ours())
        print(f"movement ranges of {len(units)} units ({cells} reachable hexes, ZOC ignored): "
              f"engine {t_ours * 1000:.1f} ms, networkx {t_nx * 1000:.1f} ms, "
              f"ratio networkx/engine {t_nx / t_ours:.2f}x; results identical")
        print(f"per unit: engine {t_ours / len(units) * 1e6:.0f} us, "
              f"networkx {t_nx / len(units) * 1e6:.0f} us")


if __name__ == "__main__":
    main()
