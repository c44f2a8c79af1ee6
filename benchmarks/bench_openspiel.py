"""What the OpenSpiel adapter's per-seat memory costs: decisions and re-deals, timed.

Run (needs the ``research`` extra)::

    .venv/bin/python benchmarks/bench_openspiel.py --decisions 150 --repeat 3

Plays the same semi-random Day 1 line through ``python_boc_day1`` (a decision ends its
phase half the time, else a uniform legal id; dice uniform) with the seats' memory
(``ResearchHooks.remember``) and with it switched off, alternating, and prints the
milliseconds per decision of each. Then, at the position reached, the milliseconds per
``resample_with_seed`` with the seat's memory and with a memory of the current view
only (what the adapter did before session 10).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

import gettysburg.interop.openspiel as bos
from gettysburg.boc.research import BocResearch


def play(decisions: int, seed: int) -> tuple[float, Any]:
    """Milliseconds per decision over ``decisions`` decisions, and the state reached (at a
    decision)."""
    state = bos.load("boc/day1").new_initial_state()
    rng, made = random.Random(seed), 0
    start = time.perf_counter()
    while (made < decisions or state.is_chance_node()) and not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.randrange(6))
            continue
        legal = state.legal_actions()
        state.apply_action(legal[0] if rng.random() < 0.5 else rng.choice(legal))
        made += 1
    return (time.perf_counter() - start) / max(made, 1) * 1000, state


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--decisions", type=int, default=150)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--redeals", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    remember = BocResearch.remember
    timings: dict[str, list[float]] = {"with memory": [], "without": []}
    for _ in range(args.repeat):
        for label in timings:
            BocResearch.remember = remember if label == "with memory" else (
                lambda self, game, seat, memory=None: None)
            timings[label].append(play(args.decisions, args.seed)[0])
    BocResearch.remember = remember
    for label, ms in timings.items():
        print(f"decision {label}: median {statistics.median(ms):.2f} ms "
              f"over {args.repeat} x {args.decisions} decisions")
    _, state = play(args.decisions, args.seed)
    if state.is_terminal():
        print("the line ended before the re-deals; use fewer --decisions")
        return
    seat = state.seat_of(state.current_player())
    for label in ("with the seat's memory", "current view only"):
        if label == "current view only":
            state._memory = bos._Memories()
        start = time.perf_counter()
        for k in range(args.redeals):
            state.resample_with_seed(seat, k)
        ms = (time.perf_counter() - start) / args.redeals * 1000
        print(f"re-deal, {label}: {ms:.1f} ms (mean of {args.redeals})")


if __name__ == "__main__":
    main()
