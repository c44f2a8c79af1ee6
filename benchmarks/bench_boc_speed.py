"""The BoC engine's speed now against an earlier commit, in one run (issue 59).

    .venv/bin/python benchmarks/bench_boc_speed.py [--before COMMIT] [--now COMMIT]
                                                  [--games N] [--rounds R] [--general N]
                                                  [--modes lazy,simulate,...]

The earlier engine is taken from git (``git archive COMMIT src``, into a temporary folder:
the checkout is not touched) and both engines play the same random-vs-random Day 1 games,
each in its own Python process, the two taking turns ``--rounds`` times so that the load
other jobs put on the machine falls on both alike. Figures are CPU seconds
(``time.process_time``) of the play loop alone; the final state hashes of the two must be
the same (the engine changed its speed, not its games). Ways of playing (as
``bench_movement.MODES``): ``lazy`` (no view, ``legal_sequence``; the earlier engine
lacks it and is shown by ``list``), ``list`` (no view, ``legal_actions``), ``lab`` (a view
every decision, its legal list, unrecorded ``apply``: the lab's loop) and ``recorded``
(the lab's loop with ``apply``: history, state hash, snapshot) and ``simulate`` (the
lab's own ``play_game``, random against random, as ``gettysburg simulate`` plays: since
issue 59 it hands the random agent the view's summary and ``legal_sequence``; the games'
rows, timings aside, must be the same for both engines). ``--modes`` picks the ways of
playing (all by default); each figure is given as the mean over the rounds and as the
best round (the one least disturbed by other jobs). ``--general N`` adds N Day 1
games of two ``general`` agents (the lab's loop).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from commit_src import extract

ROOT = Path(__file__).resolve().parent.parent

#: Run in each engine's process: plays and prints {mode: [steps, cpu, hashes]} as JSON.
PLAYER = r'''
import json, random, sys, time
from gettysburg.ai import make_agent
from gettysburg.core.protocol import new_game
games, general = int(sys.argv[1]), int(sys.argv[2])
wanted = set(sys.argv[3].split(","))
out = {}

def play(mode, agent, n, tag):
    steps, cpu, hashes = 0, 0.0, []
    for k in range(n):
        game = new_game("boc/day1", seed=f"{tag}-{k}")
        agents = {s: make_agent(agent, k, system="boc") for s in game.seats()}
        rng = random.Random(k)
        apply = game.apply if mode == "recorded" else game.apply_unrecorded
        t = time.process_time()
        while not game.is_terminal():
            seat = game.to_move()[0]
            if mode in ("lab", "recorded"):
                view = game.view(seat)
                legal = view["legal_actions"]
            else:
                view = {}
                legal = game.legal_sequence(seat) if mode == "lazy" \
                    else game.legal_actions(seat)
            apply(agents[seat].choose(view, legal, 1.0, rng), seat)
            steps += 1
        cpu += time.process_time() - t
        hashes.append(game.state_hash())
    return [steps, cpu, hashes]

PLAY = ("finished", "winner", "vp", "result", "eliminated", "turns", "actions", "vp_track",
        "error", "played")

def simulate(n, tag):
    from gettysburg.lab.simulate import make_specs, play_game
    steps, cpu, rows = 0, 0.0, []
    for spec in make_specs("boc/day1", n, {"usa": "random", "csa": "random"}, seed=tag):
        t = time.process_time()
        row = play_game(spec)
        cpu += time.process_time() - t
        steps += row["actions"]
        # What the game was (rows of another commit may carry other fields besides).
        rows.append(json.dumps({k: row.get(k) for k in PLAY}, sort_keys=True))
    return [steps, cpu, rows]

from gettysburg.boc.game import BocGame
modes = ["lazy", "list", "lab", "recorded"]
for mode in modes:
    if mode not in wanted or mode == "lazy" and not hasattr(BocGame, "legal_sequence"):
        continue
    out[mode] = play(mode, "random", games, "bench")
if "simulate" in wanted:
    out["simulate"] = simulate(games, "bench")
if general:
    out["general"] = play("lab", "general", general, "general")
print(json.dumps(out))
'''




def run(src: Path, games: int, general: int, modes: str) -> dict[str, Any]:
    env_path = str(src)
    proc = subprocess.run([sys.executable, "-c", PLAYER, str(games), str(general), modes],
                          check=True, capture_output=True, text=True,
                          env={"PYTHONPATH": env_path, "PATH": "/usr/bin:/bin"})
    got: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return got


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", default="4356777",
                    help="the earlier commit (default: the engine before this session's work)")
    ap.add_argument("--now", default=None,
                    help="time this commit instead of the checkout (taken from git, so "
                         "that editing the checkout meanwhile changes nothing)")
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--general", type=int, default=0)
    ap.add_argument("--modes", default="lazy,list,lab,recorded,simulate",
                    help="the random ways of playing to time (comma-separated; "
                         "session 47: fewer ways allow more rounds, whose best is the figure)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        trees = {"before": extract(args.before, Path(tmp) / "before"),
                 "now": extract(args.now, Path(tmp) / "now") if args.now else ROOT / "src"}
        totals: dict[str, dict[str, list[float]]] = {"before": {}, "now": {}}
        #: per tree and mode, each round's CPU seconds a game (the best is the figure
        #: least disturbed by the other jobs on the machine).
        rounds: dict[str, dict[str, list[float]]] = {"before": {}, "now": {}}
        hashes: dict[str, set[str]] = {}
        for _ in range(args.rounds):
            for name, src in trees.items():
                got = run(src, args.games, args.general, args.modes)
                for mode, (steps, cpu, hs) in got.items():
                    row = totals[name].setdefault(mode, [0.0, 0.0, 0.0])
                    n = args.general if mode == "general" else args.games
                    row[0] += steps
                    row[1] += cpu
                    row[2] += n
                    rounds[name].setdefault(mode, []).append(cpu / n)
                    kind = mode if mode in ("general", "simulate") else "random"
                    hashes.setdefault(kind, set()).add(json.dumps(hs))
    print(f"BoC Day 1, CPU time, {args.rounds} rounds of {args.games} random games "
          f"(goals: 5,000 transitions/s, 0.2 s a random game); before = {args.before}, "
          f"now = {args.now or 'the checkout'}")
    print("  mean over the rounds, then (best round): transitions a second, CPU s a game")
    print(f"  {'':10s} {'before':>38s} {'now':>38s}")
    for mode in ("lazy", "list", "lab", "recorded", "simulate", "general"):
        cells = []
        for name in ("before", "now"):
            tot = totals[name].get(mode)
            if not tot:
                cells.append(f"{'-':>38s}")
                continue
            per_game = tot[0] / tot[2]  # the same games in every round
            best = min(rounds[name][mode])
            cells.append(f"{tot[0] / tot[1]:5.0f}/s {tot[1] / tot[2]:6.3f} s "
                         f"({per_game / best:5.0f}/s {best:6.3f} s)")
        if any(c.strip() != "-" for c in cells):
            print(f"  {mode:10s} {cells[0]:>38s} {cells[1]:>38s}")
    same = all(len(v) == 1 for v in hashes.values())
    print("  final state hashes and simulate's rows: "
          + ("the same, game for game, in every way of playing" if same else "DIFFERENT"))
    if not same:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
