"""How well the hidden-block sampler guesses what the fog hides (Badges of Courage).

Plays games between two generals and, at the start of every movement phase, takes each
seat's view. For every hidden enemy block in it the sampler (``belief_boc.sample_hidden``)
draws ``--samples`` guesses, which are scored against the truth, read from the referee's
side of the game (the benchmark may look; the sampler never does):

* ``support``: share of hidden blocks whose true unit is among the sampler's candidates
  (a block outside them can never be guessed);
* ``top1``: share whose most often drawn unit is the true one;
* ``log p``: mean log-probability (nats) of the true unit under the draws, smoothed with
  half a draw per candidate, against ``uniform``, the same for a uniform pick among the
  candidates;
* ``strength``: share of draws naming the true unit that also give its true strength.

``--grid`` scores other weightings (``belief_boc.Belief``, list in :func:`grid`) on the
same positions, so the weights can be chosen on one set of seeds and checked on another.

    .venv/bin/python experiments/belief_calibration.py --scenario boc/day1 --games 6
    .venv/bin/python experiments/belief_calibration.py --scenario boc/day1 --games 6 --grid
"""

from __future__ import annotations

import argparse
import copy
import itertools
import math
import random
import statistics
from collections import Counter
from dataclasses import dataclass
from typing import Any

from gettysburg.ai.agent import make_agent, seeded_rng
from gettysburg.boc.ai.belief import (
    BELIEF,
    Belief,
    Sightings,
    candidates,
    sample_hidden,
    scenario_start,
)
from gettysburg.boc.fog import handle
from gettysburg.core.protocol import new_game

JSONDict = dict[str, Any]


@dataclass
class Position:
    view: JSONDict
    truth: dict[str, tuple[str, int]]  # handle -> (unit id, strength)
    seen: Sightings  # what the seat remembers, updated with ``view``


def positions(scenario: str, games: int, seed: int) -> list[Position]:
    """Each seat's view at the start of every movement phase of ``games`` games, with
    what the seat remembers from the views it was given at its own decisions."""
    out: list[Position] = []
    for g in range(games):
        game = new_game(scenario, seed=seed + g)
        agents = {s: make_agent("general", s) for s in game.seats()}
        rng = seeded_rng(f"belief-{seed + g}")
        memory = {s: Sightings() for s in game.seats()}
        last_phase = ""
        while not game.is_terminal():
            seat = game.to_move()[0]
            view = game.view(seat)
            memory[seat].update(view)
            phase = f"{view['time']} {view['active']} {view['phase']}"
            if view["phase"] == "movement" and phase != last_phase:
                units = game.to_json()["position"]["units"]
                key = game.key  # type: ignore[attr-defined]
                for s in game.seats():
                    v = game.view(s)
                    # A DHQ rebuilt under 4.61 shows a new handle each return.
                    truth = {handle(key, uid, int(u.get("returned", 0))):
                             (uid, int(u["strength"])) for uid, u in units.items()}
                    seen = copy.deepcopy(memory[s])
                    seen.update(v)
                    out.append(Position(v, {str(h["handle"]): truth[str(h["handle"])]
                                            for h in v["hidden"]}, seen))
            last_phase = phase
            legal = view.get("legal_actions") or game.legal_actions(seat)
            game.apply(agents[seat].choose(view, legal, 1.0, rng), seat)
    return out


@dataclass
class Score:
    blocks: int = 0
    support: int = 0
    top1: int = 0
    log_p: float = 0.0
    log_uniform: float = 0.0
    named: int = 0
    strength: int = 0

    def row(self) -> str:
        n = max(self.blocks, 1)
        return (f"blocks {self.blocks:5d}  support {self.support / n:.3f}  "
                f"top1 {self.top1 / n:.3f}  log p {self.log_p / n:+.3f}  "
                f"uniform {self.log_uniform / n:+.3f}  "
                f"strength {self.strength / max(self.named, 1):.3f}")


def score(data: list[Position], belief: Belief, samples: int, seed: int,
          sightings: bool = False) -> Score:
    out = Score()
    starts: dict[str, JSONDict] = {}
    rng = random.Random(seed)
    for pos in data:
        scenario = str(pos.view["scenario"])
        start = starts.setdefault(scenario, scenario_start(pos.view))
        pool = candidates(pos.view, start)
        seen = pos.seen if sightings else None
        if seen is not None:
            pool = {k: v for k, v in pool.items() if k not in seen.lost}
        draws = [sample_hidden(pos.view, rng, start, belief, seen) for _ in range(samples)]
        for h, (uid, strength) in pos.truth.items():
            got = Counter(d.blocks[h][0] for d in draws if h in d.blocks)
            out.blocks += 1
            out.support += uid in pool
            out.top1 += bool(got) and got.most_common(1)[0][0] == uid
            k = max(len(pool), 1)
            out.log_p += math.log((got[uid] + 0.5) / (samples + 0.5 * k))
            out.log_uniform += math.log(1 / k)
            right = [d.blocks[h][1] for d in draws if d.blocks.get(h, ("", 0))[0] == uid]
            out.named += len(right)
            out.strength += sum(s == strength for s in right)
    return out


#: Always scored: a uniform pick among the candidates, the sampler of sessions 2-6 (the
#: view alone, distance from the set-up hex), today's weights without and with sightings.
REFERENCE: dict[str, tuple[Belief, bool]] = {
    "uniform pick": (Belief(spread=1e9, reserve_weight=1.0, pace=0.0, entries=False), False),
    "session 6 (view only)": (Belief(pace=0.0, entries=False, lag=1.0), False),
    "current, view only": (BELIEF, False),
    "current, with sightings": (BELIEF, True),
}


def grid() -> dict[str, tuple[Belief, bool]]:
    """The weightings ``--grid`` scores (with or without the seat's sightings): a uniform
    pick for reference, then spreads, paces and lags."""
    out = dict(REFERENCE)
    for spread, pace, lag in itertools.product((2.0, 4.0, 6.0), (0.0, 1.0, 2.0), (0.25, 0.5, 1.0)):
        out[f"sightings spread={spread} pace={pace} lag={lag}"] = (
            Belief(spread=spread, pace=pace, lag=lag, entries=True), True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scenario", default="boc/day1")
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--seed", type=int, default=100)
    ap.add_argument("--samples", type=int, default=40)
    ap.add_argument("--grid", action="store_true", help="score the weightings of grid() as well")
    args = ap.parse_args()
    data = positions(args.scenario, args.games, args.seed)
    hidden = [len(p.truth) for p in data]
    print(f"{args.scenario}: {len(data)} views from {args.games} games (seeds {args.seed}-"
          f"{args.seed + args.games - 1}), hidden blocks a view: "
          f"{statistics.mean(hidden):.1f}, {args.samples} samples each")
    for label, (belief, sightings) in (grid() if args.grid else REFERENCE).items():
        row = score(data, belief, args.samples, args.seed, sightings).row()
        print(f"{label:44s} {row}", flush=True)


if __name__ == "__main__":
    main()
