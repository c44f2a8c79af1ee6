"""Doctrine variants (``Style``) played all day by one seat against the general.

Run::

    nice -n 10 .venv/bin/python experiments/style_trials.py --games 16 \
        --json experiments/results/style_trials.jsonl
    .venv/bin/python experiments/style_trials.py --scenario boc/day2 --games 30 --seed 600 \
        --variants relieve --seats usa

Every variant below plays the whole scenario from one seat against the ``general`` agent
(whose own style is ``Style()``, or its ``GENERAL_STYLES`` entry for the seat and
scenario), on the seeds of ``gettysburg simulate --seed S`` (500 unless ``--seed``; game k
of every row uses the same seed), so each game pairs with the general-against-general game
of its seed. (Until session 6 that game was recorded as the USA general against
``style-general``, the CSA playing ``Style()``: the same thing while no CSA general had a
style of its own. Older files keep that form and are summarised with it; a file should not
mix runs from before and after a change of the general.) The summary gives, per scenario,
seat and variant, the wins and the mean paired gain in the seat's favour (CSA total
change, signed for the seat) with its standard error. These trials chose the variants of
the ``search`` agent's style search (``doctrine_boc.STYLES``: for each seat the best
variants from that seat, one per family; the "careful" and "shy" variants are one family:
worn blocks keep back) and the USA general's Day 2 style (``relieve``; docs/ai.md).

Variant ``forget`` is the general itself without its memory (``doctrine.Memory``, session
7): it decides from each view alone, so its rows measure what remembering is worth.

``--summarise FILE`` prints the summary of stored rows.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from random import Random
from typing import Any

from gettysburg.ai.agent import register_agent
from gettysburg.ai.general import doctrine_choice
from gettysburg.boc.ai.doctrine import BocDoctrine, Style
from gettysburg.core.protocol import Action
from gettysburg.lab.simulate import GameSpec, make_specs, run_local

VARIANTS: dict[str, Style] = {
    "general": Style(),
    # Style() itself, as a variant: where GENERAL_STYLES gives the general another style,
    # is that one still better? ("general" names the baseline, the general as it plays.)
    "plain": Style(),
    "aggressive": Style(melee_min=-0.1, melee_min_behind=-0.5),
    "cautious": Style(melee_min=0.6, melee_min_behind=0.2),
    "greedy": Style(control_weight=1.5),
    "hunter": Style(hunt=0.8, hunt_behind=1.2),
    "tight": Style(decay=0.55),
    "wide": Style(decay=0.85),
    "killer": Style(kill_weight=2.5),
    "take": Style(take=2.0),
    "bold": Style(weak_in_front=0.0, hunt=0.6),
    "careful1": Style(weak_in_front=1.0),
    "careful2": Style(weak_in_front=0.8, weak_steps=2),
    "careful3": Style(weak_in_front=1.5, weak_steps=2, melee_min=0.4),
    "shy": Style(weak_in_front=1.0, weak_reach=2),  # worn blocks keep 2 hexes away
    "shy2": Style(weak_in_front=1.0, weak_reach=2, weak_steps=2),
    "shy3": Style(weak_in_front=1.5, weak_reach=2, weak_steps=2),
    "shy4": Style(weak_in_front=1.0, weak_reach=3, weak_steps=2),
    "relieve": Style(weak_on_objective=0.6),  # worn blocks hand victory hexes over
    "relieve2": Style(weak_on_objective=1.2),
    "relieve3": Style(weak_on_objective=0.6, weak_steps=2),
    "relieve4": Style(weak_on_objective=1.2, weak_steps=2),
    "steps2": Style(weak_steps=2),
    # Session 22: batteries at their last step keep out of the enemy's gun range (3 hexes),
    # victory hexes included; "-shy3" on the USA's Day 1 style.
    # Session 13, for the USA on Day 2: keep a repulse hex (5.32) for worn blocks in range
    # of the enemy's guns (with the USA's Day 2 style, weak_on_objective=0.6).
    "room": Style(weak_on_objective=0.6, keep_room=1.0),
    "room-half": Style(weak_on_objective=0.6, keep_room=0.5),
    # Session 6, for the CSA on Day 3 (wide, hunter and aggressive each gained alone):
    "wide-hunter": Style(decay=0.85, hunt=0.8, hunt_behind=1.2),
    "tight-hunter": Style(decay=0.55, hunt=0.8, hunt_behind=1.2),  # the CSA on Day 1
    "wide-aggressive": Style(decay=0.85, melee_min=-0.1, melee_min_behind=-0.5),
    "wide-hunter-aggressive": Style(decay=0.85, hunt=0.8, hunt_behind=1.2, melee_min=-0.1,
                                    melee_min_behind=-0.5),
}

#: Variants that play a style only on some days of the battle (9.5), ``Style()`` on the
#: others: does the USA general's Day 2 style pay on the battle's second day too?
DAY_VARIANTS: dict[str, dict[int, Style]] = {
    "relieve-day2": {2: VARIANTS["relieve"]},
    # Today's USA Day 2 style (relieve + keep_room, session 13) on the battle's second day.
    "room-day2": {2: VARIANTS["room"]},
    # The CSA general's Day 1 and Day 3 styles (session 6) on those days of the battle.
    "tight-day1": {1: VARIANTS["tight"]},
    "tight-day1-wide-day3": {1: VARIANTS["tight"], 3: VARIANTS["wide"]},
}


class StyleAgent:
    """The general's decision rule with another doctrine style (by day if ``by_day``)."""

    name = "style"

    def __init__(self, style: Style | None, by_day: dict[int, Style] | None = None) -> None:
        self.doctrine = BocDoctrine(style)
        self.by_day = {day: BocDoctrine(st) for day, st in (by_day or {}).items()}

    def choose(self, view: dict[str, Any], legal: Sequence[Action], budget_s: float,
               rng: Random) -> Action:
        doctrine = self.by_day.get(int(view.get("day") or 0), self.doctrine)
        return doctrine_choice(view, legal, doctrine)


def _maker(style: Style | None, by_day: dict[int, Style] | None = None
           ) -> Callable[[str], StyleAgent]:
    def make(seed: str) -> StyleAgent:
        return StyleAgent(style, by_day)
    return make


for _name, _style in VARIANTS.items():
    register_agent(f"style-{_name}", _maker(_style))
for _name, _days in DAY_VARIANTS.items():
    register_agent(f"style-{_name}", _maker(Style(), _days))
#: The general itself (its own styles) without its memory (``doctrine.Memory``): this
#: agent decides from each view alone, as every general did before session 7.
register_agent("style-forget", _maker(None))
NAMES = [*VARIANTS, *DAY_VARIANTS, "forget"]


def specs(scenario: str, games: int, names: Sequence[str], seats: Sequence[str],
          seed: int = 500) -> list[GameSpec]:
    out: list[GameSpec] = []
    for name in names:
        if name == "general":  # the baseline: the general as it plays now, in both seats
            out += make_specs(scenario, games, {"usa": "general", "csa": "general"}, seed)
        elif "csa" in seats:
            out += make_specs(scenario, games, {"usa": "general", "csa": f"style-{name}"},
                              seed)
        if name != "general" and "usa" in seats:
            out += make_specs(scenario, games, {"usa": f"style-{name}", "csa": "general"},
                              seed)
    return [replace(s, index=i) for i, s in enumerate(out)]


#: The general-against-general game of a seed, as recorded since session 6 and before.
BASELINE = {"usa": "general", "csa": "general"}
BASELINE_BEFORE_S6 = {"usa": "general", "csa": "style-general"}


def summarise(rows: Sequence[dict[str, Any]]) -> None:
    """Per scenario, seat and variant: games, wins and the mean paired gain over the
    general-against-general game of the same seed (rows repeated across runs count once)."""
    unique = {(r["scenario"], r["seed"], json.dumps(r["agents"], sort_keys=True)): r
              for r in rows}
    base: dict[tuple[str, str], Any] = {}
    for form in (BASELINE_BEFORE_S6, BASELINE):  # the newer form wins where both exist
        base.update({(r["scenario"], r["seed"]): r["vp"] for r in unique.values()
                     if r["agents"] == form})
    groups: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for r in unique.values():
        if r["agents"] == BASELINE:
            seat, name = "both", "general"
            groups.setdefault((r["scenario"], seat, name), []).append(r)
            continue
        seat = "csa" if r["agents"]["csa"].startswith("style-") else "usa"
        groups.setdefault((r["scenario"], seat, r["agents"][seat][len("style-"):]),
                          []).append(r)
    print(f"{'scenario':10} {'seat':4} {'variant':22} {'games':>5} {'wins':>4}  "
          "gain (CSA total, for the seat)")
    for (scenario, seat, name), rs in sorted(groups.items()):
        sign = 1 if seat == "csa" else -1
        gains = [sign * (r["vp"] - base[(scenario, r["seed"])]) for r in rs
                 if r["vp"] is not None and base.get((scenario, r["seed"])) is not None]
        wins = sum(1 for r in rs if r["winner"] == seat)
        if seat == "both":  # the baseline: its wins are the CSA's (as in older files)
            seat, wins = "csa", sum(1 for r in rs if r["winner"] == "csa")
        se = statistics.stdev(gains) / len(gains) ** 0.5 if len(gains) > 1 else 0.0
        mean = statistics.fmean(gains) if gains else 0.0
        print(f"{scenario:10} {seat:4} {name:22} {len(rs):5} {wins:4}  {mean:+.2f} ± {se:.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scenario", default="boc/day1")
    ap.add_argument("--games", type=int, default=16)
    ap.add_argument("--seed", type=int, default=500, help="as gettysburg simulate --seed")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--variants", nargs="*", default=list(VARIANTS),
                    help=f"of {', '.join(NAMES)}")
    ap.add_argument("--seats", nargs="*", default=["usa", "csa"],
                    help="seats that play the variants (the general's games always run)")
    ap.add_argument("--json", help="append the rows to this file")
    ap.add_argument("--summarise", help="only print the summary of this file's rows")
    args = ap.parse_args()
    if args.summarise:
        with open(args.summarise, encoding="utf-8") as f:
            summarise([json.loads(line) for line in f if line.strip()])
        return
    names = ["general"] + [n for n in args.variants if n != "general"]
    unknown = [n for n in names if n not in NAMES]
    if unknown:
        sys.exit(f"unknown variants {unknown}; have {NAMES}")
    rows = run_local(specs(args.scenario, args.games, names, args.seats, args.seed),
                     args.workers)
    keep = ("scenario", "seed", "index", "agents", "vp", "winner", "error", "seconds")
    if args.json:
        with open(args.json, "a", encoding="utf-8") as f:
            for r in rows:
                f.write(json.dumps({k: r[k] for k in keep}, sort_keys=True) + "\n")
    summarise(rows)


if __name__ == "__main__":
    main()
