"""Tune one seat's doctrine weights (``Style``) against the general, by CMA-ES.

Run::

    .venv/bin/python experiments/style_tuning.py --seat csa --generations 20 \
        --games 48 --out experiments/results/style_tuning_csa_s37.jsonl
    .venv/bin/python experiments/style_tuning.py \
        --summarise experiments/results/style_tuning_csa_s37.jsonl
    .venv/bin/python experiments/style_tuning.py --seat usa --games 75 --seed 100000 \
        --compare '[{"hold": 0.2, "threat": 1.0, "take": 0.4}]'
    .venv/bin/python experiments/style_tuning.py --evaluate --games 100 --seed 37700 \
        --out experiments/results/tuned_vs_general_s37.jsonl

Each candidate is a ``Style`` (every field of ``TUNABLE``, or those of ``--params``) played
by one seat (the general's decision rule and memory with those weights) for a whole
scenario against the ``general`` in the other seat. A generation plays every candidate on
the same ``--games`` seeds (``gettysburg simulate --seed`` of ``--seed`` + the generation
number: fresh seeds each generation, so the search cannot fit one set of dice), together
with the general's own game of each seed, so every generation also measures the paired
gain of its candidates over the general.

``--compare`` plays hand-chosen styles instead (a JSON list of weight overrides) the same
way, on one set of seeds, and prints each one's wins and paired gain.

The score a candidate is ranked by is a *soft win* for the tuned seat: a logistic of the
CSA total (9.1) centred on the band's edge, so a game won by a point counts about 0.66, a
draw a point short 0.34, and so on (``--temperature``). It is what issue #7 counts (wins),
made less noisy than a win's 0 or 1.

CMA-ES (``cma``, N. Hansen's pycma) works in normalised coordinates: a weight is its
default (the general's style for the seat and scenario) plus ``scale`` x the coordinate,
within ``bounds``; the search starts at the general with a step of 1 in every coordinate
(``--sigma``). After each generation the strategy is pickled beside ``--out`` so an
interrupted run goes on with ``--resume``. Every candidate's games are one JSON row of
``--out``: its weights, the seeds, the CSA totals and the score.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import pickle
import statistics
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from random import Random
from typing import Any

from gettysburg.ai.agent import register_agent
from gettysburg.ai.general import RememberingAgent, doctrine_choice
from gettysburg.boc.ai.doctrine import (
    BocDoctrine,
    Style,
    StyleKey,
    general_style,
    scenario_bands,
)
from gettysburg.core.protocol import Action
from gettysburg.lab.simulate import GameSpec, make_specs, run_local


@dataclass(frozen=True)
class Knob:
    """How one ``Style`` field is searched: a step of 1 in CMA's coordinates is ``scale``
    of the weight, kept within [``low``, ``high``]; ``integer`` fields are rounded."""

    scale: float
    low: float
    high: float
    integer: bool = False


TUNABLE: dict[str, Knob] = {
    "decay": Knob(0.1, 0.3, 0.95),
    "control_weight": Knob(0.4, 0.0, 3.0),
    "kill_weight": Knob(0.7, 0.0, 4.0),
    "melee_min": Knob(0.4, -1.0, 2.0),
    "melee_min_behind": Knob(0.4, -2.0, 1.0),
    "hunt": Knob(0.3, 0.0, 2.0),
    "hunt_behind": Knob(0.4, 0.0, 3.0),
    "weak_in_front": Knob(0.5, 0.0, 4.0),
    "weak_steps": Knob(0.5, 1.0, 3.0, integer=True),
    "weak_reach": Knob(0.5, 1.0, 3.0, integer=True),
    "weak_on_objective": Knob(0.4, 0.0, 3.0),
    "take": Knob(0.3, 0.5, 3.0),
    "keep_room": Knob(0.5, 0.0, 3.0),
    "shelter_weight": Knob(0.5, 0.0, 4.0),
    "close_in": Knob(0.3, -2.0, 2.0),
    "gun_front": Knob(0.3, -1.0, 3.0),
    "gun_range": Knob(0.3, -1.0, 2.0),
    "crowd": Knob(0.3, 0.0, 3.0),
    "threat": Knob(0.2, 0.0, 2.0),
    "threat_reach": Knob(0.7, 1.0, 5.0, integer=True),
    "threat_cap": Knob(1.0, 1.0, 8.0, integer=True),
    "hold": Knob(0.3, 0.0, 3.0),
    "lost": Knob(0.3, 0.0, 3.0),
    "hq_troops": Knob(0.15, 0.0, 1.0),
    "hq_front": Knob(0.7, 0.0, 5.0),
    "activate_per": Knob(0.2, 0.0, 2.0),
    "activate_cost": Knob(0.3, -0.5, 3.0),
    "fire_vp": Knob(0.2, 0.0, 2.0),
}


def style_at(base: Style, names: Sequence[str], x: Sequence[float]) -> Style:
    """The style at CMA coordinates ``x`` (one per name) around ``base``."""
    changes: dict[str, Any] = {}
    for name, xi in zip(names, x, strict=True):
        knob = TUNABLE[name]
        value = min(knob.high, max(knob.low, float(getattr(base, name)) + knob.scale * xi))
        changes[name] = round(value) if knob.integer else round(value, 4)
    return replace(base, **changes)


def soft_win(vp: float | None, seat: str, bands: tuple[int, int], temperature: float
             ) -> float:
    """A logistic of the CSA total at the seat's winning edge (9.1 bands: the USA wins at
    ``bands[0]`` or less, the CSA at ``bands[1]`` or more); an unfinished game 0."""
    if vp is None:
        return 0.0
    usa_max, csa_min = bands
    margin = (vp - (csa_min - 0.5)) if seat == "csa" else ((usa_max + 0.5) - vp)
    return 1.0 / (1.0 + math.exp(-margin / temperature))


class StyledGeneral(RememberingAgent):
    """The general (its decision rule and its memory) playing one fixed ``Style``, or a
    doctrine's styles by seat and scenario."""

    name = "styled-general"

    def __init__(self, style: Style | BocDoctrine, seed: str = "0") -> None:
        super().__init__(seed)
        self.doctrine = style if isinstance(style, BocDoctrine) else BocDoctrine(style)

    def choose(self, view: dict[str, Any], legal: Sequence[Action], budget_s: float,
               rng: Random) -> Action:
        view = self.memory.recall(view)
        return doctrine_choice(view, legal, self.doctrine)


def register_style(name: str, style: Style | BocDoctrine) -> str:
    """Register ``StyledGeneral(style)`` as agent ``name`` (in this process and the
    workers it forks); returns the name."""
    def make(seed: str) -> StyledGeneral:
        return StyledGeneral(style, seed)
    with contextlib.suppress(ValueError):  # registered earlier in this process (a resume)
        register_agent(name, make)
    return name


def generation_specs(scenario: str, seat: str, games: int, seed: int,
                     agents: Sequence[str]) -> list[GameSpec]:
    """The general's own games of the seeds, then each agent's from ``seat``."""
    enemy = "usa" if seat == "csa" else "csa"
    out = make_specs(scenario, games, {"usa": "general", "csa": "general"}, seed)
    for name in agents:
        out += make_specs(scenario, games, {seat: name, enemy: "general"}, seed)
    return [replace(s, index=i) for i, s in enumerate(out)]


def _rows_by_agent(rows: Iterable[dict[str, Any]], seat: str) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        out.setdefault(str(r["agents"][seat]), []).append(r)
    for rs in out.values():
        rs.sort(key=lambda r: str(r["seed"]))
    return out


def candidate_rows(scenario: str, seat: str, games: int, seed: int, agents: Sequence[str],
                   styles: Sequence[Style], names: Sequence[str], workers: int,
                   temperature: float) -> list[dict[str, Any]]:
    """Play each registered candidate agent from ``seat`` on ``games`` seeds of ``seed``,
    and the general's own games of those seeds; one row per candidate: its weights
    (``names``), soft-win score, wins, paired gain over the general, both sides' totals."""
    bands = scenario_bands(scenario.split("/", 1)[1])
    by = _rows_by_agent(run_local(generation_specs(scenario, seat, games, seed, agents),
                                  workers=workers), seat)
    general = by["general"]
    sign = 1 if seat == "csa" else -1
    out = []
    for name, st in zip(agents, styles, strict=True):
        rs = by[name]
        vps = [r["vp"] for r in rs]
        gains = [sign * (r["vp"] - g["vp"]) for r, g in zip(rs, general, strict=True)
                 if r["vp"] is not None and g["vp"] is not None]
        out.append({
            "scenario": scenario, "seat": seat, "seed": seed,
            "style": {n: getattr(st, n) for n in names},
            "score": round(statistics.fmean(soft_win(v, seat, bands, temperature)
                                            for v in vps), 4),
            "wins": sum(1 for r in rs if r["winner"] == seat), "games": len(rs),
            "gain": round(statistics.fmean(gains), 3),
            "gain_se": round(statistics.stdev(gains) / math.sqrt(len(gains)), 3)
            if len(gains) > 1 else None,
            "general_wins": sum(1 for g in general if g["winner"] == seat),
            "vps": vps, "general_vps": [g["vp"] for g in general],
            "errors": sum(1 for r in rs if r.get("error"))})
    return out


def run(args: argparse.Namespace) -> None:
    import cma  # the tuner's own dependency (dev extra)

    seat, scenario = args.seat, args.scenario
    base = general_style(seat, scenario)
    names = list(args.params or TUNABLE)
    unknown = [n for n in names if n not in TUNABLE]
    if unknown:
        sys.exit(f"unknown --params {unknown}; have {list(TUNABLE)}")
    out = Path(args.out)
    state_file = out.with_suffix(".cma.pickle")
    if args.resume and state_file.exists():
        with state_file.open("rb") as f:
            es, gen = pickle.load(f)
    else:
        lower = [(TUNABLE[n].low - float(getattr(base, n))) / TUNABLE[n].scale for n in names]
        upper = [(TUNABLE[n].high - float(getattr(base, n))) / TUNABLE[n].scale for n in names]
        # Separable CMA: a few hundred noisy evaluations cannot learn a full covariance.
        opts = {"popsize": args.popsize, "seed": args.cma_seed, "bounds": [lower, upper],
                "verbose": -9, "CMA_diagonal": True}
        es, gen = cma.CMAEvolutionStrategy([0.0] * len(names), args.sigma, opts), 0
    while gen < args.generations:
        xs = es.ask()
        styles = [style_at(base, names, x) for x in xs]
        styles.append(style_at(base, names, es.mean))
        labels: list[int | str] = [*range(len(xs)), "mean"]
        agents = [register_style(f"tuned-{seat}-{gen}-{k}", st)
                  for k, st in zip(labels, styles, strict=True)]
        rows = candidate_rows(scenario, seat, args.games, args.seed + gen, agents, styles,
                              names, args.workers, args.temperature)
        with out.open("a") as f:
            for k, row in zip(labels, rows, strict=True):
                f.write(json.dumps({"generation": gen, "candidate": k, **row}) + "\n")
        scores = [r["score"] for r in rows[:-1]]
        mean_row = rows[-1]
        es.tell(xs, [-s for s in scores])  # cma minimises
        gen += 1
        with state_file.open("wb") as f:
            pickle.dump((es, gen), f)
        print(f"gen {gen - 1}: best {max(scores):.3f} median {statistics.median(scores):.3f} "
              f"mean-style wins {mean_row['wins']}/{mean_row['games']} "
              f"(general {mean_row['general_wins']}) sigma {es.sigma:.2f}", flush=True)
    final = style_at(base, names, es.mean)
    print(json.dumps({n: getattr(final, n) for n in names}, sort_keys=True))


def summarise(path: str) -> None:
    """Per generation: the candidates' best and median scores, and the mean style's wins
    and paired gain against the general's on the same seeds."""
    with open(path) as f:
        rows = [json.loads(line) for line in f]
    gens: dict[int, list[dict[str, Any]]] = {}
    for r in rows:
        if isinstance(r["generation"], int):  # not a --compare row
            gens.setdefault(r["generation"], []).append(r)
    if not gens:
        print(f"{path}: no generations (only --compare rows?)")
        return
    print(f"{'gen':>3} {'best':>6} {'median':>6}  mean style: {'wins':>5} {'general':>7} "
          f"{'gain':>6}")
    for g, rs in sorted(gens.items()):
        cands = [r for r in rs if r["candidate"] != "mean"]
        mean = next((r for r in rs if r["candidate"] == "mean"), None)
        scores = [r["score"] for r in cands]
        line = f"{g:3} {max(scores):6.3f} {statistics.median(scores):6.3f}"
        if mean is not None:
            line += f"  {mean['wins']:>5}/{mean['games']} {mean['general_wins']:>7} " \
                    f"{mean['gain']:+6.2f}"
        print(line)
    last = max(gens)
    mean = next((r for r in gens[last] if r["candidate"] == "mean"), None)
    if mean is not None:
        print(json.dumps(mean["style"], sort_keys=True))


def compare_player(seat: str, scenario: str, override: dict[str, Any]
                   ) -> tuple[Style, Style | BocDoctrine]:
    """One ``--compare`` entry: its every-day style (the general's for the seat and scenario
    with the entry's weights) and what plays it. An entry may hold ``"days": {"1": {...}}``,
    weights for single days of a multi-day scenario (the battle, 9.5), each over the
    general's style as ``tuned_styles.yaml``'s day entries are; then a doctrine plays it."""
    base = general_style(seat, scenario)
    days = override.get("days") or {}
    style = replace(base, **{k: v for k, v in override.items() if k != "days"})
    if not days:
        return style, style
    by: dict[StyleKey, Style] = {(seat, scenario): style}
    for day, weights in days.items():
        by[(seat, scenario, int(day))] = replace(base, **weights)
    return style, BocDoctrine(styles=by)


def compare(args: argparse.Namespace) -> None:
    """Play hand-chosen styles (``--compare``: a JSON list of weight overrides of the
    general's style for ``--seat``, optionally by day: ``compare_player``) on ``--games``
    seeds of ``--seed`` against the general, beside the general's own games; print each
    one's wins and paired gain, and append its row to ``--out`` if given."""
    try:
        overrides = json.loads(args.compare)
        players = [compare_player(args.seat, args.scenario, o) for o in overrides]
    except (ValueError, TypeError, AttributeError) as exc:
        sys.exit(f"--compare must be a JSON list of Style weight objects: {exc}")
    styles = [style for style, _player in players]
    names = sorted({n for o in overrides for n in o if n != "days"})
    agents = [register_style(f"hand-{args.seat}-{k}", player)
              for k, (_style, player) in enumerate(players)]
    rows = candidate_rows(args.scenario, args.seat, args.games, args.seed, agents, styles,
                          names, args.workers, args.temperature)
    if rows:
        print(f"general: {rows[0]['general_wins']} wins of {rows[0]['games']}")
    for o, row in zip(overrides, rows, strict=True):
        se = "" if row["gain_se"] is None else f" ± {row['gain_se']}"  # one game: no spread
        print(f"{json.dumps(o, sort_keys=True)}: {row['wins']} wins, gain "
              f"{row['gain']:+.2f}{se}, soft win {row['score']:.3f}", flush=True)
    if args.out:
        with open(args.out, "a") as f:
            for o, row in zip(overrides, rows, strict=True):
                f.write(json.dumps({"generation": "compare", "candidate": o, **row}) + "\n")


def evaluate(args: argparse.Namespace) -> None:
    """Play the shipped tuned styles (``tuned_boc``; the agent ``general-tuned``) against
    the general from each seat on ``--games`` seeds of ``--seed``, the rows appended to
    ``--out``; pair them with the general's own games of the seeds (``gettysburg simulate``)
    in ``search_vs_general.py --agent general-tuned``."""
    from search_vs_general import play_against_general

    play_against_general("general-tuned", args.scenario, args.games, str(args.seed), 1.0,
                         ("usa", "csa"), args.workers, args.out, start=args.start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scenario", default="boc/day1")
    ap.add_argument("--seat", choices=["usa", "csa"], default="csa")
    ap.add_argument("--games", type=int, default=48, help="games per candidate a generation")
    ap.add_argument("--generations", type=int, default=20)
    ap.add_argument("--popsize", type=int, default=12)
    ap.add_argument("--sigma", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=37000, help="seeds of generation 0")
    ap.add_argument("--cma-seed", type=int, default=37)
    ap.add_argument("--temperature", type=float, default=1.5)
    ap.add_argument("--params", nargs="*", help=f"of {', '.join(TUNABLE)} (default all)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", help="append every candidate's row here")
    ap.add_argument("--resume", action="store_true", help="go on from --out's pickle")
    ap.add_argument("--summarise", help="only summarise this file's rows")
    ap.add_argument("--evaluate", action="store_true",
                    help="play the shipped tuned styles (general-tuned) against the general "
                         "from both seats, --games seeds of --seed a seat")
    ap.add_argument("--start", type=int, default=0, help="with --evaluate: skip seeds")
    ap.add_argument("--compare", metavar="JSON",
                    help="play these hand-chosen styles instead of tuning: a JSON list of "
                         "weight overrides, e.g. '[{\"hold\": 0.2}]'")
    args = ap.parse_args()
    if args.summarise:
        summarise(args.summarise)
        return
    if args.evaluate:
        evaluate(args)
        return
    if args.compare:
        compare(args)
        return
    if not args.out:
        ap.error("--out is required")
    run(args)


if __name__ == "__main__":
    main()

