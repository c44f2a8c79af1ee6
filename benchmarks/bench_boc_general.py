"""The ``general`` against itself, the whole BoC battle, now against an earlier commit (issue 59).

    .venv/bin/python benchmarks/bench_boc_general.py [--before COMMIT] [--now COMMIT]
        [--scenario boc/battle] [--games N] [--rounds R] [--seed S]

Both trees (``--before``'s ``src`` from git, and the checkout's or ``--now``'s) play the
same seeded general-vs-general games with the lab's ``play_game`` (as ``gettysburg simulate
... --seat usa=general --seat csa=general`` plays them), each round in a fresh Python
process per tree, the trees taking turns ``--rounds`` times so that the load of other
jobs falls on both alike; the figure of a tree is its best round (the one the load
disturbed least) and the mean beside it. CPU seconds (``time.process_time``) a game, with
the part spent in the doctrine's ``scores`` (the general's decision) and in the engine's
``view`` (the view and its legal list the general decides from: ``view``, or
``view_shared`` where the tree has it). The games' rows (timings aside) must be the same
for both trees: the general plays the same moves, faster.
The goal (issue 59): the whole battle in 3 s a game or less. With more than two games a
round it also prints the median and the longest game and how many games keep within 3 s
(battles between generals differ in length: ``--games 30 --rounds 1 --seed typical``)."""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from commit_src import extract

ROOT = Path(__file__).resolve().parent.parent
GOAL_S = 3.0

#: Run in each tree's process: plays the games, prints {cpu, scores, view, actions, rows}.
PLAYER = r'''
import json, sys, time
from gettysburg.boc.ai.doctrine import BocDoctrine
from gettysburg.boc.game import BocGame
from gettysburg.lab.simulate import make_specs, play_game
scenario, games, seed = sys.argv[1], int(sys.argv[2]), sys.argv[3]
spent = {"scores": 0.0, "view": 0.0}

def timed(cls, name, part):
    inner = getattr(cls, name)
    def wrapper(self, *args):
        t = time.process_time()
        try:
            return inner(self, *args)
        finally:
            spent[part] += time.process_time() - t
    setattr(cls, name, wrapper)

timed(BocDoctrine, "scores", "scores")
timed(BocGame, "view", "view")
if "view_shared" in vars(BocGame):  # the lab hands the general the shared view since 002efdb
    timed(BocGame, "view_shared", "view")
PLAY = ("finished", "winner", "vp", "result", "eliminated", "turns", "actions", "vp_track",
        "error", "played")
cpu, actions, rows, each = 0.0, 0, [], []
for spec in make_specs(scenario, games, {"usa": "general", "csa": "general"}, seed=seed):
    t = time.process_time()
    row = play_game(spec)
    each.append(time.process_time() - t)
    cpu += each[-1]
    actions += row["actions"]
    rows.append(json.dumps({k: row.get(k) for k in PLAY}, sort_keys=True))
print(json.dumps({"cpu": cpu, "each": each, "actions": actions, "rows": rows, **spent}))
'''


def run(src: Path, scenario: str, games: int, seed: str) -> dict[str, Any]:
    proc = subprocess.run([sys.executable, "-c", PLAYER, scenario, str(games), seed],
                          check=True, capture_output=True, text=True,
                          env={"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin"})
    got: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return got


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", default="8bb0a1a",
                    help="the earlier commit (default: the general before session 46's work)")
    ap.add_argument("--now", default=None, help="a commit instead of the checkout's src")
    ap.add_argument("--scenario", default="boc/battle")
    ap.add_argument("--games", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--seed", default="bench")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        trees = {"before": extract(args.before, Path(tmp) / "before"),
                 "now": extract(args.now, Path(tmp) / "now") if args.now else ROOT / "src"}
        rounds: dict[str, list[dict[str, Any]]] = {"before": [], "now": []}
        for _ in range(args.rounds):
            for name, src in trees.items():
                rounds[name].append(run(src, args.scenario, args.games, args.seed))
    rows = {json.dumps(r["rows"]) for runs in rounds.values() for r in runs}
    actions = rounds["now"][0]["actions"] / args.games
    print(f"{args.scenario}, general vs general, {args.games} game(s) a round (seed "
          f"{args.seed!r}, {actions:.0f} actions a game), {args.rounds} rounds; CPU s a game, "
          f"best round (mean); goal {GOAL_S:.0f} s")
    print(f"  {'':10s} {'before ' + args.before:>24s} {'now ' + (args.now or 'checkout'):>24s}")
    for part in ("cpu", "scores", "view"):
        cells = []
        for name in ("before", "now"):
            vals = [r[part] / args.games for r in rounds[name]]
            cells.append(f"{min(vals):7.2f} ({sum(vals) / len(vals):5.2f})")
        label = {"cpu": "game", "scores": "  scores", "view": "  view"}[part]
        print(f"  {label:10s} {cells[0]:>24s} {cells[1]:>24s}")
    if args.games > 2:
        # Games differ in length (a battle between generals lasts ~600 to ~2,900
        # decisions), so the spread of one game's CPU too: each game's best round.
        cells = []
        for name in ("before", "now"):
            best = sorted(min(r["each"][i] for r in rounds[name]) for i in range(args.games))
            cells.append(f"{statistics.median(best):5.2f} / {best[-1]:5.2f} / "
                         f"{sum(x <= GOAL_S for x in best):3d}")
        print(f"  each game (its best round): median s / longest s / games within {GOAL_S:.0f} s")
        print(f"  {'':10s} {cells[0]:>24s} {cells[1]:>24s}")
    same = len(rows) == 1
    print("  games' rows: " + ("the same in every round of both trees" if same
                               else "DIFFERENT"))
    if not same:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
