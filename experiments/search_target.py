"""How much better than the general must a player be to beat it in 60% of the games?

Issue #7 asks ``search`` to beat ``general`` in at least 60% of games. This script turns
that bar into victory points. It reads general-against-general games (rows of
``gettysburg simulate --out``) and supposes a player who, in either seat, ends every game
``d`` points better for its side than the general did (the CSA total moved by ``d``
towards its side, 9.1), everything else equal. For each whole ``d`` it prints the share of
games that player wins from each seat, the mean of the two (seats alternating), and its
score counting a draw as half a win::

    gettysburg simulate boc/day1 --games 100 --usa general --csa general --seed 700 \\
        --workers 2 --out experiments/results/general_vs_general_s5.jsonl
    .venv/bin/python experiments/search_target.py experiments/results/general_vs_general_s5.jsonl

The scenario's 9.1-9.3 bands come from its public file. Multi-day scenarios (the battle,
judged after each day) are not modelled by one shift and are skipped. A constant shift
is a simplification: a real player gains more in some games than in others.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from gettysburg.boc.scenario import load_scenario

Row = dict[str, Any]
TARGET = 0.6


def read(path: str) -> list[Row]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def outcomes(totals: list[int], d: int, usa_max: int, csa_min: int
             ) -> dict[str, tuple[float, float]]:
    """Per seat: (share won, score with a draw as half) for a player ``d`` points better."""
    n = len(totals)
    usa = [t - d for t in totals]  # the player is the USA: the CSA total falls
    csa = [t + d for t in totals]
    usa_w = sum(t <= usa_max for t in usa) / n
    usa_d = sum(usa_max < t < csa_min for t in usa) / n
    csa_w = sum(t >= csa_min for t in csa) / n
    csa_d = sum(usa_max < t < csa_min for t in csa) / n
    return {"usa": (usa_w, usa_w + usa_d / 2), "csa": (csa_w, csa_w + csa_d / 2)}


def report(rows: list[Row], scenario: str, max_shift: int = 8) -> list[str]:
    games = [r for r in rows if r.get("scenario") == scenario and r.get("finished")
             and r.get("agents") == {"usa": "general", "csa": "general"}
             and isinstance(r.get("vp"), int)]
    if not games:
        return [f"{scenario}: no finished general-against-general games"]
    v = load_scenario(scenario).victory
    if len(games[0]["result"].get("verdicts", [])) > 1 or scenario.endswith("battle"):
        return [f"{scenario}: judged after each day; one shift does not model it"]
    totals = [int(r["vp"]) for r in games]
    lines = [f"{scenario}: {len(totals)} games between two generals; USA wins at a CSA "
             f"total of {v.usa_win_max} or less, CSA at {v.csa_win_min} or more",
             "",
             "| points better, d | wins as USA | wins as CSA | wins, seats alternating "
             "| score (draw = ½), alternating |",
             "|---|---|---|---|---|"]
    first_win: int | None = None
    first_score: int | None = None
    for d in range(max_shift + 1):
        o = outcomes(totals, d, v.usa_win_max, v.csa_win_min)
        wins = (o["usa"][0] + o["csa"][0]) / 2
        score = (o["usa"][1] + o["csa"][1]) / 2
        if first_win is None and wins >= TARGET:
            first_win = d
        if first_score is None and score >= TARGET:
            first_score = d
        lines.append(f"| {d} | {o['usa'][0]:.0%} | {o['csa'][0]:.0%} | {wins:.0%} | "
                     f"{score:.0%} |")
    beyond = f"more than {max_shift}"
    win_d = beyond if first_win is None else first_win
    score_d = beyond if first_score is None else first_score
    lines += ["", f"60% of games won, seats alternating: d = {win_d}",
              f"60% score with a draw as half: d = {score_d}"]
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("rows", help="general against general rows (gettysburg simulate --out)")
    ap.add_argument("--scenario", default=None, help="one scenario (default: every one)")
    args = ap.parse_args()
    rows = read(args.rows)
    scenarios = [args.scenario] if args.scenario else sorted({str(r["scenario"]) for r in rows})
    for s in scenarios:
        print("\n".join(report(rows, s)))
        print()


if __name__ == "__main__":
    main()
