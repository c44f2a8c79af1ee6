"""OpenSpiel's IS-MCTS against our ``search`` agent on Badges of Courage, equal budget.

Run (needs the research extra)::

    nice -n 10 .venv/bin/python experiments/ismcts_vs_search.py --games 4 --budget 0.5

(``--first K`` numbers the games from K, to split one run over processes; ``--json FILE``
appends the per-game rows, ``--summarise FILE`` prints the summary of such a file.)

Both players get the same wall-clock budget per decision, ``--budget`` seconds:

* ``search`` (``gettysburg.ai.make_agent("search")``) receives it as ``budget_s`` and,
  as designed, spends it only on decisions where dice decide (the rest go to its general);
* OpenSpiel's ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` plays through the adapter
  (:mod:`gettysburg.interop.openspiel`) with the public-standing evaluator; before each
  decision its simulation count is set to ``budget / (mean seconds per simulation so far)``
  (at least ``--min-sims``), so it too spends about the budget on every decision. Its
  worlds come from ``resample_from_infostate`` (hidden enemy identities re-dealt).

Seats alternate: IS-MCTS is USA in even-numbered games, CSA in odd ones. Dice are chance
outcomes drawn from a generator seeded by ``--seed`` and the game number. The script prints
one line per game and a summary: search's wins, draws and losses, its win rate with a
Wilson 95% interval (``gettysburg.lab.simulate.wilson``; draws count as not won), and the
mean time per decision each side used. ``--max-decisions`` caps a game (0 = play it out;
a capped game ends on the public standing, see docs/research.md).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

import numpy as np
from open_spiel.python.algorithms import ismcts

from gettysburg.ai import make_agent
from gettysburg.core.protocol import research_hooks
from gettysburg.interop import openspiel as bos
from gettysburg.lab.simulate import wilson

SEATS = ("usa", "csa")


class Budgeted:
    """IS-MCTS with a per-decision time budget (simulations scaled from past timings)."""

    def __init__(self, game: Any, budget: float, min_sims: int, seed: int) -> None:
        self.game, self.budget, self.min_sims = game, budget, min_sims
        self.rng = random.Random(seed)
        self.np_rng = np.random.RandomState(seed % 2**31)
        self.sim_time: list[float] = []
        self.evaluator = bos.StandingEvaluator()

    def sims(self) -> int:
        if not self.sim_time:
            return self.min_sims
        per = statistics.fmean(self.sim_time[-50:])
        return max(self.min_sims, int(self.budget / per))

    def step(self, state: Any) -> int:
        n = self.sims()
        bot = ismcts.ISMCTSBot(self.game, self.evaluator, uct_c=2.0, max_simulations=n,
                               random_state=self.np_rng)
        bot.set_resampler(lambda s, player: s.resample_with_seed(
            s.seat_of(player), self.rng.getrandbits(31)))
        t0 = time.perf_counter()
        action = int(bot.step(state))
        if len(state.legal_actions()) > 1:
            self.sim_time.append((time.perf_counter() - t0) / n)
        return action


def play(game_no: int, args: argparse.Namespace) -> dict[str, Any]:
    game = bos.load(args.scenario, seed=game_no,
                    max_decisions=args.max_decisions or bos.DEFAULT_MAX_DECISIONS)
    hooks = research_hooks("boc")
    ismcts_seat = SEATS[game_no % 2]
    bot = Budgeted(game, args.budget, args.min_sims, args.seed * 1000 + game_no)
    agent = make_agent("search", seed=f"{args.seed}-{game_no}")
    agent_rng = random.Random(f"agent-{args.seed}-{game_no}")
    dice = random.Random(f"dice-{args.seed}-{game_no}")
    state = game.new_initial_state()
    spent: dict[str, list[float]] = {"ismcts": [], "search": []}
    start = time.perf_counter()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(dice.randrange(6))
            continue
        seat = state.seat_of(state.current_player())
        t0 = time.perf_counter()
        if seat == ismcts_seat:
            action = bot.step(state)
            spent["ismcts"].append(time.perf_counter() - t0)
        else:
            engine = state.engine
            legal = engine.legal_actions(seat)
            chosen = agent.choose(engine.view(seat), legal, args.budget, agent_rng)
            ids = hooks.encode_actions(engine, legal)
            action = ids[legal.index(chosen)]
            spent["search"].append(time.perf_counter() - t0)
        state.apply_action(action)
    returns = state.returns()
    search_return = returns[1 - SEATS.index(ismcts_seat)]
    result = state.engine.result()
    return {"game": game_no, "ismcts_seat": ismcts_seat, "search_return": search_return,
            "result": result, "truncated": result is None,
            "decisions": {k: len(v) for k, v in spent.items()},
            "mean_s": {k: round(statistics.fmean(v), 3) if v else 0.0
                       for k, v in spent.items()},
            "wall_s": round(time.perf_counter() - start, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--first", type=int, default=0,
                        help="number of the first game (to split a run over processes)")
    parser.add_argument("--budget", type=float, default=0.25, help="seconds per decision")
    parser.add_argument("--scenario", default="day3")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--min-sims", type=int, default=2)
    parser.add_argument("--max-decisions", type=int, default=0)
    parser.add_argument("--json", help="append one JSON line per game to this file")
    parser.add_argument("--summarise", help="only print the summary of a --json file")
    args = parser.parse_args()
    if args.summarise:
        with open(args.summarise, encoding="utf-8") as fh:
            summarise([json.loads(line) for line in fh if line.strip()], args)
        return
    rows = []
    for g in range(args.first, args.first + args.games):
        row = play(g, args)
        rows.append(row)
        print(json.dumps(row), flush=True)
        if args.json:
            with open(args.json, "a", encoding="utf-8") as fh:
                fh.write(json.dumps(row) + "\n")
    summarise(rows, args)


def summarise(rows: list[dict[str, Any]], args: argparse.Namespace) -> None:
    wins = sum(1 for r in rows if r["search_return"] > 0)
    draws = sum(1 for r in rows if r["search_return"] == 0)
    lo, hi = wilson(wins, len(rows))
    print(f"search vs IS-MCTS on {args.scenario}, {args.budget} s per decision: "
          f"{wins} won, {draws} drawn, {len(rows) - wins - draws} lost of {len(rows)}; "
          f"win rate {wins / max(1, len(rows)):.2f}, Wilson 95% [{lo:.2f}, {hi:.2f}]")
    for side in ("ismcts", "search"):
        n = sum(r["decisions"][side] for r in rows)
        t = sum(r["decisions"][side] * r["mean_s"][side] for r in rows)
        print(f"  {side}: {n} decisions, {t / max(1, n):.3f} s per decision on average")


if __name__ == "__main__":
    main()
