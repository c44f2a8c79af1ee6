"""How much noise do keyed dice take out of a paired comparison?

Two uses of one idea (``gettysburg.core.dice.KeyedDice``; docs/ai.md, "Coupled games"):

* ``lab``: the paired gain of one agent over the general, from rows of ``gettysburg
  simulate`` (or ``skill_ladder.py``) played with seeded dice and with keyed dice on the same
  seeds, each paired with the general-against-general game of its seed *and dice*. Keyed
  dice keep the two games of a seed on the same dice for every shot and melee round they
  both make, so the standard error of the gain should shrink::

      .venv/bin/python experiments/coupled_dice.py lab experiments/results/coupled_s13.jsonl \\
          experiments/results/skill_ladder_s10.jsonl experiments/results/general_vs_general_s8.jsonl

* ``rollouts``: the same inside search. Along a Day 1 game between two generals, at the
  first decision of each player turn, every style of the seat's portfolio is played in the
  same ``--worlds`` sampled worlds as search's style search plays them
  (``SearchAgent._style_rollout``), once with seeded and once with keyed world dice; the
  printed figure is the standard deviation of a style's paired difference with the
  incumbent, which is what decides whether search can tell two styles apart::

      .venv/bin/python experiments/coupled_dice.py rollouts --seed 700 --worlds 8 --turns 8
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import defaultdict
from typing import Any

from search_vs_general import pair_key, read

from gettysburg.ai.agent import make_agent, seeded_rng
from gettysburg.ai.search import SearchAgent, distinct_styles
from gettysburg.boc.ai import search_hooks as search_boc
from gettysburg.core.protocol import new_game
from gettysburg.lab.simulate import game_seed

Row = dict[str, Any]


def lab(rows: list[Row]) -> list[str]:
    """Per agent measured against the general and per dice: games, paired gain ± se."""
    base = {pair_key(r): r for r in rows if r["finished"]
            and r["agents"] == {"usa": "general", "csa": "general"}}
    gains: dict[tuple[str, str, str], list[float]] = defaultdict(list)
    for r in rows:
        names = set(r["agents"].values()) - {"general"}
        if len(names) != 1 or not r["finished"] or pair_key(r) not in base:
            continue
        agent = names.pop()
        seat = "usa" if r["agents"]["usa"] == agent else "csa"
        g = base[pair_key(r)]
        sign = 1 if seat == "csa" else -1
        gains[(r["scenario"], agent, pair_key(r)[1])].append(sign * (r["vp"] - g["vp"]))
    lines = ["| scenario | agent against the general | dice | games | paired gain ± se | "
             "sd of a game's gain | identical to the general's game |",
             "|---|---|---|---|---|---|---|"]
    for (scenario, agent, dice), got in sorted(gains.items()):
        sd = statistics.stdev(got) if len(got) > 1 else 0.0
        same = sum(1 for x in got if x == 0)
        lines.append(f"| {scenario} | {agent} | {dice} | {len(got)} | "
                     f"{statistics.fmean(got):+.2f} ± {sd / len(got) ** 0.5:.2f} | "
                     f"{sd:.2f} | {same} |")
    return lines


def rollouts(seed: str, worlds: int, turns: int, scenario: str) -> list[str]:
    """Style rollouts at the start of up to ``turns`` player turns of each seat, with
    seeded and keyed world dice (see the module doc)."""
    game = new_game(scenario, seed=seed)
    agents = {s: make_agent("general", f"{seed}:{s}") for s in ("usa", "csa")}
    rngs = {s: seeded_rng("lab", seed, s, "general") for s in ("usa", "csa")}
    probes = {s: SearchAgent(f"{seed}:{s}") for s in ("usa", "csa")}
    seen: set[tuple[Any, ...]] = set()
    done = {"usa": 0, "csa": 0}
    sds: dict[str, list[float]] = defaultdict(list)
    gaps: dict[str, list[float]] = defaultdict(list)
    cost: dict[str, float] = defaultdict(float)
    while not game.is_terminal() and min(done.values()) < turns:
        seat = game.to_move()[0]
        view = game.view(seat)
        probe = probes[seat]
        probe.observe(view)
        key = (view.get("day"), view.get("hour"), view.get("active"))
        if view.get("active") == seat and key not in seen and done[seat] < turns \
                and not view.get("night"):
            seen.add(key)
            done[seat] += 1
            recalled = probe.memory.recall(view)
            hooks = probe._system(recalled)
            assert hooks is not None
            styles = distinct_styles(hooks.portfolio[seat], recalled)
            names = list(styles)
            world_seeds = [random.Random(f"{seed}:{key}:{w}").getrandbits(64)
                           for w in range(worlds)]
            for dice in ("seeded", "keyed"):
                search_boc.WORLD_DICE = dice
                start = time.perf_counter()
                values = [[SearchAgent._style_rollout(recalled, styles[n], hooks,
                                                      random.Random(ws)) for ws in world_seeds]
                          for n in names]
                cost[dice] += time.perf_counter() - start
                for k in range(1, len(names)):
                    diffs = [float(v - b) for v, b in zip(values[k], values[0], strict=True)
                             if v is not None and b is not None]
                    if len(diffs) > 1:
                        sds[dice].append(statistics.stdev(diffs))
                        gaps[dice].append(abs(statistics.fmean(diffs)))
            print(f"{key}: seeded sd {statistics.fmean(sds['seeded'][-len(names) + 1:]):.2f}"
                  f", keyed sd {statistics.fmean(sds['keyed'][-len(names) + 1:]):.2f}",
                  flush=True)
        action = agents[seat].choose(view, view.get("legal_actions")
                                     or game.legal_actions(seat), 1.0, rngs[seat])
        game.apply_unrecorded(action, seat)
    search_boc.WORLD_DICE = "seeded"  # search's own
    lines = ["| world dice | style comparisons | sd of a paired difference (mean) | "
             "median | mean abs. paired gain | seconds |", "|---|---|---|---|---|---|"]
    for dice in ("seeded", "keyed"):
        got = sds[dice]
        lines.append(f"| {dice} | {len(got)} | {statistics.fmean(got):.2f} | "
                     f"{statistics.median(got):.2f} | {statistics.fmean(gaps[dice]):.2f} | "
                     f"{cost[dice]:.0f} |")
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    lab_p = sub.add_parser("lab", help="paired gains from lab rows, seeded against keyed")
    lab_p.add_argument("files", nargs="+")
    ro = sub.add_parser("rollouts", help="the noise of search's style comparisons")
    ro.add_argument("--scenario", default="boc/day1")
    ro.add_argument("--seed", default="700", help="base seed (game 0 of simulate --seed)")
    ro.add_argument("--worlds", type=int, default=8)
    ro.add_argument("--turns", type=int, default=8, help="player turns probed per seat")
    args = ap.parse_args()
    if args.cmd == "lab":
        print("\n".join(lab([r for f in args.files for r in read(f)])))
    else:
        print("\n".join(rollouts(game_seed(args.seed, 0), args.worlds, args.turns,
                                 args.scenario)))


if __name__ == "__main__":
    main()
