"""What a column/line doctrine (option 6.0) would be worth to the general, per seat.

Run::

    .venv/bin/python experiments/formation_trials.py --games 40 --seed 700 \\
        --out experiments/results/formation_trials_s12.jsonl
    .venv/bin/python experiments/formation_trials.py \\
        --summarise experiments/results/formation_trials_s12.jsonl

With the ``column_line`` option in play (``--option``), each seat in turn is played by
``general-formations`` (the general with ``Style.formations`` on: infantry marches in
column far from the enemy and forms line near it, ``doctrine_boc._s_formation``) against
the general, which keeps every unit in line; game k of each run has the seed of game k of
``gettysburg simulate --seed S``, so it pairs with the game of that seed between two
generals, also played here. The summary gives, per scenario and seat, games, the
general's wins from that seat and the variant's, the variant's mean paired gain in CSA
total signed for the seat, and how many formation changes it made a game.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from gettysburg.ai.agent import JSONDict, register_agent
from gettysburg.ai.general import GeneralAgent, doctrine_choice
from gettysburg.boc.ai.doctrine import BocDoctrine, general_style
from gettysburg.core.protocol import Action
from gettysburg.lab.simulate import GameSpec, make_specs, run_local

Row = dict[str, Any]
NAME = "general-formations"


class _Formations(BocDoctrine):
    def style_for(self, view: JSONDict) -> Any:
        own = general_style(str(view.get("seat")), str(view.get("scenario")))
        return replace(own, formations=True)


class FormationsAgent(GeneralAgent):
    """The general (with its memory), its doctrine changing formation (6.0)."""

    name = NAME

    def __init__(self, seed: str = "0") -> None:
        super().__init__(seed)
        self.doctrine = _Formations()

    def choose(self, view: JSONDict, legal_actions: Sequence[Action], budget_s: float,
               rng: random.Random) -> Action:
        view = self.memory.recall(view)
        return doctrine_choice(view, legal_actions, self.doctrine)


register_agent(NAME, FormationsAgent)


def specs(scenario: str, games: int, seed: int, options: Sequence[str]) -> list[GameSpec]:
    out: list[GameSpec] = []
    for agents in ({"usa": "general", "csa": "general"}, {"usa": NAME, "csa": "general"},
                   {"usa": "general", "csa": NAME}):
        out += make_specs(scenario, games, agents, seed, options=options)
    return [replace(s, index=i) for i, s in enumerate(out)]


def summarise(rows: Sequence[Row]) -> list[str]:
    unique = {(r["scenario"], tuple(r["options"]), r["seed"],
               json.dumps(r["agents"], sort_keys=True)): r for r in rows}
    base = {(r["scenario"], tuple(r["options"]), r["seed"]): r for r in unique.values()
            if r["agents"] == {"usa": "general", "csa": "general"}}
    lines = ["| scenario | options | seat | games | general's wins | with formations: wins "
             "| gain of the formations ± se | formation changes a game |",
             "|---|---|---|---|---|---|---|---|"]
    for (scenario, options) in sorted({(k[0], k[1]) for k in base}):
        for seat in ("usa", "csa"):
            pairs = [(base[(scenario, options, r["seed"])], r) for r in unique.values()
                     if r["scenario"] == scenario and tuple(r["options"]) == options
                     and r["agents"].get(seat) == NAME
                     and (scenario, options, r["seed"]) in base]
            pairs = [(b, r) for b, r in pairs if b["vp"] is not None and r["vp"] is not None]
            if not pairs:
                continue
            sign = 1 if seat == "csa" else -1
            gains = [sign * (r["vp"] - b["vp"]) for b, r in pairs]
            se = statistics.stdev(gains) / len(gains) ** 0.5 if len(gains) > 1 else 0.0
            wins = sum(b["winner"] == seat for b, _ in pairs)
            variant = sum(r["winner"] == seat for _, r in pairs)
            changes = statistics.fmean(r.get("played", {}).get(f"{seat}:formation", 0)
                                       for _, r in pairs)
            lines.append(f"| {scenario} | {' '.join(options) or '-'} | {seat} | {len(pairs)} "
                         f"| {wins} | {variant} | {statistics.fmean(gains):+.2f} ± {se:.2f} "
                         f"| {changes:.1f} |")
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scenario", default="boc/day1")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seed", type=int, default=700, help="as gettysburg simulate --seed")
    ap.add_argument("--option", action="append", default=None,
                    help="game option (repeatable; default column_line)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", help="append the rows to this JSON Lines file")
    ap.add_argument("--summarise", help="only print the summary of this file's rows")
    args = ap.parse_args()
    if args.summarise:
        with open(args.summarise, encoding="utf-8") as f:
            print("\n".join(summarise([json.loads(line) for line in f if line.strip()])))
        return
    rows = run_local(specs(args.scenario, args.games, args.seed,
                           args.option or ["column_line"]), args.workers)
    if args.out:
        with open(args.out, "a", encoding="utf-8") as f:
            for r in rows:
                f.write(json.dumps(r, sort_keys=True) + "\n")
    print("\n".join(summarise(rows)))


if __name__ == "__main__":
    main()
