"""The research adapters' rate beside the engine's own, in the same run.

Run (needs the ``research`` extra)::

    .venv/bin/python benchmarks/bench_adapters.py --decisions 300 --repeat 3

Plays a semi-random line of one scenario (default ``boc/day1``: a decision ends its phase
half the time, else a uniform legal action) three ways, alternating, and prints the
decisions a second of each: the engine itself (``legal_actions`` then ``apply``), the
OpenSpiel adapter (``legal_actions`` then ``apply_action``, dice as chance outcomes) and
the PettingZoo adapter (``last`` then ``step``, the legal ids read from the observation's
mask), with each adapter's rate as a share of the engine's. The issue's goal is within
1.5x of the engine (a share of 67 % or more).

Each run is timed twice: by the wall clock and by the CPU time of this process. On a
machine shared with other work (the load average is printed first) the wall clock also
counts the time spent waiting for a core, which varies from run to run; the CPU time
compares the work each way does.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable

import numpy as np

import gettysburg.interop.openspiel as spiel
from gettysburg.core.protocol import new_game
from gettysburg.interop.pettingzoo import env

Rates = tuple[float, float]  # decisions a second by the wall clock, by CPU time


class Timer:
    """Wall and CPU time since it was made."""

    def __init__(self) -> None:
        self.wall, self.cpu = time.perf_counter(), time.process_time()

    def rates(self, made: int) -> Rates:
        return (made / (time.perf_counter() - self.wall),
                made / max(time.process_time() - self.cpu, 1e-9))


def engine_rate(spec: str, decisions: int, seed: int) -> Rates:
    game, rng, made = new_game(spec, seed=seed), random.Random(seed), 0
    start = Timer()
    while made < decisions and not game.is_terminal():
        seat = game.to_move()[0]
        legal = game.legal_actions(seat)
        game.apply(legal[0] if rng.random() < 0.5 else rng.choice(legal), seat)
        made += 1
    return start.rates(made)


def openspiel_rate(spec: str, decisions: int, seed: int) -> Rates:
    state = spiel.load(spec, seed=seed).new_initial_state()
    rng, made = random.Random(seed), 0
    start = Timer()
    while made < decisions and not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.randrange(6))
            continue
        legal = state.legal_actions()
        state.apply_action(legal[0] if rng.random() < 0.5 else rng.choice(legal))
        made += 1
    return start.rates(made)


def pettingzoo_rate(spec: str, decisions: int, seed: int) -> Rates:
    e = env(spec)
    e.reset(seed=seed)
    rng, made = random.Random(seed), 0
    start = Timer()
    for _agent in e.agent_iter():
        obs, _r, term, trunc, info = e.last()
        if term or trunc or made >= decisions:
            break
        # The ids beside the mask, without scanning it (before issue 59: only the mask).
        legal = info.get("legal_ids")
        if legal is None:
            legal = np.flatnonzero(obs["action_mask"])
        e.step(int(legal[0] if rng.random() < 0.5 else rng.choice(legal)))
        made += 1
    return start.rates(made)


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--scenario", default="boc/day1")
    ap.add_argument("--decisions", type=int, default=300)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    runs: dict[str, Callable[[str, int, int], Rates]] = {
        "engine": engine_rate, "openspiel": openspiel_rate, "pettingzoo": pettingzoo_rate}
    rates: dict[str, list[Rates]] = {name: [] for name in runs}
    load = os.getloadavg()
    print(f"load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} on {os.cpu_count()} cores; "
          f"median of {args.repeat} x {args.decisions} decisions of {args.scenario}")
    for k in range(args.repeat):
        for name, run in runs.items():
            rates[name].append(run(args.scenario, args.decisions, args.seed + k))
    engine = [statistics.median(r[i] for r in rates["engine"]) for i in (0, 1)]
    print(f"{'decisions/s':>10}  {'wall clock':>18}  {'CPU time':>18}")
    for name, values in rates.items():
        wall, cpu = (statistics.median(r[i] for r in values) for i in (0, 1))
        print(f"{name:>10}  {wall:7.0f} ({wall / engine[0]:4.0%})  "
              f"  {cpu:7.0f} ({cpu / engine[1]:4.0%})")


if __name__ == "__main__":
    main()
