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
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import numpy as np

import gettysburg.interop.openspiel as spiel
from gettysburg.core.protocol import new_game
from gettysburg.interop.pettingzoo import env


def engine_rate(spec: str, decisions: int, seed: int) -> float:
    game, rng, made = new_game(spec, seed=seed), random.Random(seed), 0
    start = time.perf_counter()
    while made < decisions and not game.is_terminal():
        seat = game.to_move()[0]
        legal = game.legal_actions(seat)
        game.apply(legal[0] if rng.random() < 0.5 else rng.choice(legal), seat)
        made += 1
    return made / (time.perf_counter() - start)


def openspiel_rate(spec: str, decisions: int, seed: int) -> float:
    state = spiel.load(spec, seed=seed).new_initial_state()
    rng, made = random.Random(seed), 0
    start = time.perf_counter()
    while made < decisions and not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.randrange(6))
            continue
        legal = state.legal_actions()
        state.apply_action(legal[0] if rng.random() < 0.5 else rng.choice(legal))
        made += 1
    return made / (time.perf_counter() - start)


def pettingzoo_rate(spec: str, decisions: int, seed: int) -> float:
    e = env(spec)
    e.reset(seed=seed)
    rng, made = random.Random(seed), 0
    start = time.perf_counter()
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
    return made / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--scenario", default="boc/day1")
    ap.add_argument("--decisions", type=int, default=300)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    runs: dict[str, Callable[[str, int, int], float]] = {
        "engine": engine_rate, "openspiel": openspiel_rate, "pettingzoo": pettingzoo_rate}
    rates: dict[str, list[float]] = {name: [] for name in runs}
    for k in range(args.repeat):
        for name, run in runs.items():
            rates[name].append(run(args.scenario, args.decisions, args.seed + k))
    engine = statistics.median(rates["engine"])
    for name, values in rates.items():
        rate = statistics.median(values)
        print(f"{name:>10}: {rate:7.0f} decisions/s  ({rate / engine:4.0%} of the engine's) "
              f"median of {args.repeat} x {args.decisions} decisions of {args.scenario}")


if __name__ == "__main__":
    main()
