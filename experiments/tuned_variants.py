"""``general-tuned`` with some ``Style`` weights changed, paired game by game with its own.

The tuned doctrine is deterministic and a lab game's dice follow its seed, so a variant
that changes a few decisions plays ``general-tuned``'s very game of a seed until its first
different decision: the pair's difference is the change's alone (session 30's idea for
search, "Variants on the base's random numbers", here for the doctrine). Every tuned entry
(``tuned_styles.yaml``, each day's) gets the same ``--knobs``; the other seat is the
general. Each game prints a line against ``general-tuned``'s row of its seed and seat from
``--base`` (rows of ``gettysburg simulate ... --usa general-tuned`` or ``--csa
general-tuned``), and the run ends with the paired summary::

    .venv/bin/python experiments/tuned_variants.py --seat csa --games 100 --seed 320000 \\
        --knobs '{"final_turn_command": true}' \\
        --base experiments/results/general_tuned_battle_s38.jsonl \\
        --out experiments/results/final_turn_command_battle_s40.jsonl

With ``--days`` the knobs go only into the style the seat plays on those days; with
``--reaching D`` too, only the seeds whose base game went on to day ``D`` are played (a
change to Day 3 leaves a battle won on Day 2 as it was), and a second summary counts every
seed, the others as the base played them::

    .venv/bin/python experiments/tuned_variants.py --seat usa --days 3 --reaching 3 \
        --knobs '{"take": 1.3, "lost": 1.0}' \
        --base experiments/results/general_tuned_battle_s38.jsonl
"""

from __future__ import annotations

import argparse
import json
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from style_tuning import register_style

from gettysburg.boc.ai.doctrine import BocDoctrine, StyleKey
from gettysburg.boc.ai.tuned import load_tuned
from gettysburg.lab.simulate import Row, make_specs, run_local

BASE_AGENT = "general-tuned"


def variant_doctrine(knobs: Mapping[str, Any], days: Sequence[int] = (),
                     seat: str = "csa", scenario: str = "boc/battle") -> BocDoctrine:
    """The tuned doctrine with ``knobs`` set in every tuned style (a misspelt weight is
    refused by ``dataclasses.replace``); with ``days``, only in the style ``seat`` plays
    on those days of ``scenario`` (the tuned entry of the day, else of the scenario,
    else the general's), every other style as tuned."""
    tuned = load_tuned()
    if not days:
        return BocDoctrine(styles={key: replace(style, **knobs)
                                   for key, style in tuned.items()})
    as_tuned = BocDoctrine(styles=tuned)
    styles: dict[StyleKey, Any] = dict(tuned)
    for day in days:  # the style the tuned doctrine would play that day (``style_for``)
        style = as_tuned.style_for({"seat": seat, "scenario": scenario, "day": day})
        styles[(seat, scenario, day)] = replace(style, **knobs)
    return BocDoctrine(styles=styles)


def reaching(base: Mapping[str, Row], day: int) -> set[str]:
    """Seeds whose ``general-tuned`` game went on to ``day`` (its last verdict on that day
    or later): a change to that day's play alone leaves every other game as it was."""
    return {seed for seed, row in base.items()
            if int((row.get("result") or {}).get("day") or 0) >= day}


def day1_total(row: Row) -> float | None:
    verdicts = (row.get("result") or {}).get("verdicts") or []
    return float(verdicts[0]["total"]) if verdicts else None


def same_game(a: Row, b: Row) -> bool:
    """The same actions by type and the same CSA total at every turn."""
    return (a.get("played"), a.get("vp_track")) == (b.get("played"), b.get("vp_track"))


def paired(rows: Sequence[Row], base: Mapping[str, Row], seat: str) -> dict[str, Any]:
    """The variant's games against ``general-tuned``'s of the same seeds (by seed, in
    ``base``), signed for ``seat``: wins, draws and losses of each, how many games were the
    same game, and the mean gain (± se) in CSA total at the end and at Day 1's verdict."""
    sign = 1.0 if seat == "csa" else -1.0
    pairs = [(r, base[r["seed"]]) for r in rows if r["finished"] and r["seed"] in base]

    def tally(rs: Sequence[Row]) -> list[int]:
        return [sum(1 for r in rs if r["winner"] == seat),
                sum(1 for r in rs if r["winner"] is None),
                sum(1 for r in rs if r["winner"] not in (None, seat))]

    def mean_se(xs: list[float]) -> list[float]:
        if not xs:
            return [0.0, 0.0]
        se = statistics.stdev(xs) / len(xs) ** 0.5 if len(xs) > 1 else 0.0
        return [round(statistics.fmean(xs), 3), round(se, 3)]

    ends = [sign * (float(r["vp"]) - float(b["vp"])) for r, b in pairs]
    firsts = [sign * (x - y) for r, b in pairs
              if (x := day1_total(r)) is not None and (y := day1_total(b)) is not None]
    return {"games": len(pairs), "same_game": sum(1 for r, b in pairs if same_game(r, b)),
            "variant": tally([r for r, _ in pairs]), "base": tally([b for _, b in pairs]),
            "gain": mean_se(ends), "day1_gain": mean_se(firsts)}


def base_rows(path: str, seat: str, scenario: str) -> dict[str, Row]:
    """``general-tuned``'s rows from ``seat`` in ``scenario``, by seed."""
    with open(path, encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    return {r["seed"]: r for r in rows if r.get("scenario") == scenario
            and r["agents"].get(seat) == BASE_AGENT}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scenario", default="boc/battle")
    ap.add_argument("--seat", choices=["usa", "csa"], default="csa")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", default="320000")
    ap.add_argument("--knobs", required=True, help="JSON: Style weights to set, e.g. "
                                                  '\'{"final_turn_command": true}\'')
    ap.add_argument("--days", type=int, nargs="*", default=[],
                    help="set the knobs only on these days (the seat's style of each day)")
    ap.add_argument("--reaching", type=int, default=0,
                    help="play only the seeds whose base game went on to this day (with "
                         "--days no earlier: the others are the base's very games)")
    ap.add_argument("--name", default="tuned-variant", help="the variant's agent name")
    ap.add_argument("--base", required=True, help="general-tuned's rows of the same seeds")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", help="append the variant's rows here")
    args = ap.parse_args()
    if args.reaching and (not args.days or min(args.days) < args.reaching):
        ap.error("--reaching D needs --days, none of them before D")
    name = register_style(args.name, variant_doctrine(json.loads(args.knobs), args.days,
                                                      args.seat, args.scenario))
    base = base_rows(args.base, args.seat, args.scenario)
    agents = {"usa": "general", "csa": "general", args.seat: name}
    specs = make_specs(args.scenario, args.games, agents, args.seed, budget_s=1.0)
    skipped: list[Row] = []
    if args.reaching:
        keep = reaching(base, args.reaching)
        skipped = [base[s.seed] for s in specs if s.seed not in keep and s.seed in base]
        specs = [s for s in specs if s.seed in keep]

    def progress(row: Row) -> None:
        b = base.get(row["seed"])
        was = f"{b['winner']} {b['vp']} (Day 1 {day1_total(b)})" if b else "no base row"
        print(f"{row['index']} {row['seed']}: {row['winner']} {row['vp']} (Day 1 "
              f"{day1_total(row)}); {BASE_AGENT}: {was}"
              f"{', the same game' if b and same_game(row, b) else ''}", flush=True)
        if args.out:
            with open(args.out, "a", encoding="utf-8") as f:
                f.write(json.dumps(row, sort_keys=True) + "\n")

    rows = run_local(specs, workers=args.workers, progress=progress)
    print(json.dumps(paired(rows, base, args.seat)))
    if args.reaching:  # every seed: the skipped ones played as the base played them
        print(json.dumps({"all_seeds": paired(list(rows) + skipped, base, args.seat)}))


if __name__ == "__main__":
    main()
