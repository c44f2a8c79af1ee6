"""Screen Day 1 changes to ``general-tuned`` in the battle: each game played only to Day 1's
verdict, the tuned doctrine's own and each variant's, on the same seeds.

The battle's Confederate wins are made at Day 1's count (9.5: 10 points or more; session
38 found 20 of the tuned CSA's 26 wins of 100 there), and Day 1 is a quarter of a battle's
cost, so a Day 1 change for the CSA is screened four times as fast this way as by whole
battles (``tuned_variants.py``). Each variant sets its knobs in the seat's Day 1 style
only (``tuned_variants.variant_doctrine``); the other seat is the general. Prints, for the
tuned doctrine and each variant, the games whose Day 1 count the seat wins and loses by
the battle's bands, the mean CSA total, and the gain over the tuned doctrine's game of the
same seed (± se) with how many games were the same::

    .venv/bin/python experiments/first_day_screen.py --seat csa --games 200 --seed 330000 \\
        --variants '{"ftcmd": {"final_turn_command": true}}'
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import statistics
from collections.abc import Mapping, Sequence
from typing import Any, cast

from style_tuning import register_style
from tuned_variants import BASE_AGENT, variant_doctrine

from gettysburg.boc.game import BocGame
from gettysburg.boc.victory import STANDARD_BANDS, csa_total, verdict
from gettysburg.lab.simulate import GameSpec, _new_play, make_specs

SCENARIO = "boc/battle"


def first_day_total(spec: GameSpec) -> tuple[str, int, int]:
    """(agent of the measured seat, game index, CSA total at Day 1's verdict): the game
    is played until Day 1's night begins or the game ends (a win at that count)."""
    play = _new_play(spec)
    game = cast(BocGame, play.game)  # the battle is a BoC game
    while not game.is_terminal():
        state = game.state
        if state.night or state.day > 1:
            break
        seat = game.to_move()[0]
        view = game.view(seat)
        legal = view.get("legal_actions") or game.legal_actions(seat)
        game.apply_unrecorded(play.agents[seat].choose(view, legal, 1.0, play.rngs[seat]),
                              seat)
    measured = next((name for name in spec.agents.values() if name != "general"), "general")
    return measured, spec.index, int(csa_total(game.board, game.state)["total"])


def summary(totals: Mapping[str, Mapping[int, int]], seat: str) -> list[dict[str, Any]]:
    """One line per agent: wins and losses at Day 1's count for ``seat``, mean total,
    and the gain over ``general-tuned``'s games of the same indices."""
    sign = 1 if seat == "csa" else -1
    base = totals[BASE_AGENT]
    out = []
    for name, games in totals.items():
        gains = [sign * (t - base[i]) for i, t in games.items() if i in base]
        verdicts = [verdict(t, STANDARD_BANDS) for t in games.values()]  # 9.5
        wins = verdicts.count(seat)
        losses = len(verdicts) - wins - verdicts.count(None)
        se = statistics.stdev(gains) / len(gains) ** 0.5 if len(gains) > 1 else 0.0
        out.append({"agent": name, "games": len(games), "wins": wins, "losses": losses,
                    "mean_total": round(statistics.fmean(games.values()), 2),
                    "gain": [round(statistics.fmean(gains), 2) if gains else 0.0,
                             round(se, 2)],
                    "same": sum(1 for g in gains if g == 0)})
    return out


def run(seat: str, games: int, seed: str, variants: Mapping[str, Mapping[str, Any]],
        workers: int) -> list[dict[str, Any]]:
    names = [BASE_AGENT]
    for name, knobs in variants.items():
        names.append(register_style(name, variant_doctrine(knobs, [1], seat, SCENARIO)))
    specs: list[GameSpec] = []
    for name in names:
        agents = {"usa": "general", "csa": "general", seat: name}
        specs += make_specs(SCENARIO, games, agents, seed, budget_s=1.0)
    results: Sequence[tuple[str, int, int]]
    if workers > 1:  # forked workers know the variants registered above
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            results = pool.map(first_day_total, specs, chunksize=4)
    else:
        results = [first_day_total(s) for s in specs]
    totals: dict[str, dict[int, int]] = {name: {} for name in names}
    for name, index, total in results:
        totals[name][index] = total
    return summary(totals, seat)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seat", choices=["usa", "csa"], default="csa")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed", default="330000")
    ap.add_argument("--variants", required=True,
                    help='JSON: {name: {weight: value}}, e.g. \'{"k2": {"kill_weight": 2}}\'')
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    for line in run(args.seat, args.games, args.seed, json.loads(args.variants),
                    args.workers):
        print(json.dumps(line))


if __name__ == "__main__":
    main()
