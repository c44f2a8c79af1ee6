"""The research adapters' rate beside the engine's own, in the same run.

Run (needs the ``research`` extra)::

    .venv/bin/python benchmarks/bench_adapters.py --decisions 300 --repeat 3

Plays one semi-random line of a scenario (default ``boc/day1``: a decision ends its phase
half the time, else a uniform legal action; chosen beforehand, untimed, so the three ways
meet the same positions) three ways and prints the decisions a second of each: the engine
itself (``legal_actions`` then ``apply``), the OpenSpiel adapter (``legal_actions`` then
``apply_action``, the engine's dice fed as chance outcomes) and the PettingZoo adapter
(``last``, which builds the observation tensor and the mask, then ``step``), with each
adapter's rate as a share of the engine's (the median of the repeats' shares). The ways
take turns decision by decision, so a busy moment of the machine falls on all three alike.
Each repeat plays a new line (seed + repeat); each way's game is checked to end as the
engine's did. The issue's goal is within 1.5x of the engine (a share of 67 % or more).

Each decision is timed twice: by the wall clock and by the CPU time of this process. On a
machine shared with other work (the load average is printed first) the wall clock also
counts the time spent waiting for a core; the CPU time counts the work each way does.

The cyclic garbage collector is paused while the ways play (``--gc`` leaves it on): its
pauses, a few ms each in a process holding three games, fall on whichever way's
allocation crosses its threshold, not on the way that made the garbage; with it on, the
shares moved by 30 points from one commit to the next without any change to the ways'
own work (session 48). It collects between repeats, untimed.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

import gettysburg.interop.openspiel as spiel
from gettysburg.core.protocol import Action, new_game, research_hooks
from gettysburg.interop.pettingzoo import env

#: One way of playing a line: a generator that sets up, yields, then takes one decision
#: per ``next`` and checks at the end that its game is the engine's.
Way = Callable[[str, int, "list[Decision]"], Iterator[None]]


@dataclass(frozen=True)
class Decision:
    """One decision of the line: who took it, the engine's action, its id, its dice."""

    seat: str
    action: Action
    id: int
    dice: tuple[int, ...]


def line(spec: str, decisions: int, seed: int) -> list[Decision]:
    """The semi-random line all three ways play, chosen by the engine beforehand (not
    timed): a decision ends its phase half the time, else a uniform legal action."""
    game, rng = new_game(spec, seed=seed), random.Random(seed)
    hooks = research_hooks(game.system)
    out: list[Decision] = []
    while len(out) < decisions and not game.is_terminal():
        seat = game.to_move()[0]
        legal = game.legal_actions(seat)
        k = 0 if rng.random() < 0.5 else rng.randrange(len(legal))
        ident = hooks.encode_actions(game, legal)[k]
        game.apply(legal[k], seat)
        out.append(Decision(seat, legal[k], ident, game.history[-1].dice))
    return out


def engine_way(spec: str, seed: int, plan: list[Decision]) -> Iterator[None]:
    game = new_game(spec, seed=seed)
    yield
    for d in plan:
        seat = game.to_move()[0]
        game.legal_actions(seat)  # what a player choosing would ask for
        game.apply(d.action, seat)
        yield
    assert [m.action for m in game.history] == [d.action for d in plan]


def openspiel_way(spec: str, seed: int, plan: list[Decision]) -> Iterator[None]:
    state = spiel.load(spec, seed=seed).new_initial_state()
    yield
    for d in plan:
        legal = state.legal_actions()
        assert d.id in legal
        state.apply_action(d.id)
        for face in d.dice:  # the engine's dice, as chance outcomes
            state.apply_action(face - 1)
        yield
    assert [m.action for m in state.engine.history] == [d.action for d in plan]


def pettingzoo_way(spec: str, seed: int, plan: list[Decision]) -> Iterator[None]:
    e = env(spec)
    e.reset(seed=seed)  # the engine's seed: its dice
    yield
    for d in plan:
        obs, _r, _term, _trunc, info = e.last()
        # The ids beside the mask, without scanning it (before issue 59: only the mask).
        legal = info.get("legal_ids")
        if legal is None:
            legal = np.flatnonzero(obs["action_mask"])
        e.step(d.id)
        yield
    assert [m.action for m in e.game.history] == [d.action for d in plan]


WAYS: dict[str, Way] = {"engine": engine_way, "openspiel": openspiel_way,
                        "pettingzoo": pettingzoo_way}


def play(spec: str, seed: int, plan: list[Decision], collect: bool = False
         ) -> dict[str, tuple[float, float]]:
    """Each way's decisions a second (wall clock, CPU time) on ``plan``, the ways taking
    turns decision by decision (in turn order, then reversed) so that each meets the
    machine's ups and downs alike; ``collect``: the garbage collector left on."""
    gc.collect()
    if not collect:
        gc.disable()
    try:
        return _play(spec, seed, plan)
    finally:
        gc.enable()


def _play(spec: str, seed: int, plan: list[Decision]) -> dict[str, tuple[float, float]]:
    games = {name: way(spec, seed, plan) for name, way in WAYS.items()}
    for g in games.values():
        next(g)  # set-up, untimed
    wall = dict.fromkeys(games, 0.0)
    cpu = dict.fromkeys(games, 0.0)
    names = list(games)
    for i in range(len(plan)):
        for name in names if i % 2 == 0 else names[::-1]:
            w, c = time.perf_counter(), time.process_time()
            next(games[name])
            wall[name] += time.perf_counter() - w
            cpu[name] += time.process_time() - c
    for g in games.values():
        next(g, None)  # the check that the game is the engine's
    return {name: (len(plan) / wall[name], len(plan) / max(cpu[name], 1e-9))
            for name in names}


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--scenario", default="boc/day1")
    ap.add_argument("--decisions", type=int, default=300)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--gc", action="store_true",
                    help="leave the garbage collector on while the ways play")
    args = ap.parse_args()
    load = os.getloadavg()
    print(f"load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} on {os.cpu_count()} cores; "
          f"median of {args.repeat} x {args.decisions} decisions of {args.scenario}; "
          f"garbage collector {'on' if args.gc else 'paused'}")
    # Warm-up, untimed: modules imported on first use and per-board tables built once
    # would otherwise land in the timed steps of whichever way meets them first.
    play(args.scenario, args.seed, line(args.scenario, min(args.decisions, 30), args.seed))
    runs = [play(args.scenario, args.seed + k, line(args.scenario, args.decisions,
                                                    args.seed + k), args.gc)
            for k in range(args.repeat)]
    print(f"{'decisions/s':>11}  {'wall clock':>14}  {'CPU time':>14}")
    for name in WAYS:
        wall, cpu = (statistics.median(r[name][i] for r in runs) for i in (0, 1))
        share = [statistics.median(r[name][i] / r["engine"][i] for r in runs) for i in (0, 1)]
        print(f"{name:>11}  {wall:7.0f} ({share[0]:4.0%})  {cpu:7.0f} ({share[1]:4.0%})")


if __name__ == "__main__":
    main()
