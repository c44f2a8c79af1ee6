"""The GBACW general's CPU a decision and an activation on a long scenario, before and after
a change (issue 54: "decides a player's activation in under a second").

    .venv/bin/python benchmarks/bench_gbacw_general_speed.py --scenario third-day \
        --max-actions 300 --seeds 7 --before COMMIT [--now COMMIT] [--rounds 2]

Plays the scenario's first ``--max-actions`` actions with the general on both seats, the
lab's loop (``view``, then ``choose`` on its legal list), once in ``--before`` and once in
this checkout (or ``--now``), each tree (``commit_src.extract``: the checkout is not
touched) in its own Python process, turn about ``--rounds`` times. It times each
``choose`` in CPU seconds (``time.process_time``: the machine's other load is not counted,
though a busy cache still slows it a little) and prints, per tree, the best round's

- per decision: mean, p95 and max (its legal list's size and number), and how many took
  over a second;
- per activation (one seat's decisions with the same turn, acting command, brigade and
  phase, as ``GbacwMemory`` groups them; an orders segment counts as one): p95, the max
  and which, and how many over a second;
- the engine's view with its legal list, in all (not the general's cost);

and whether the two trees played the same actions to the same final state hash (a speed
change must not change a decision).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from commit_src import extract

ROOT = Path(__file__).resolve().parent.parent

#: Run in each tree's process: prints {"choose": [...], "keys": [...], "view": s,
#: "actions": digest, "final": hash} as JSON.
PLAYER = r'''
import hashlib, json, random, sys, time
from gettysburg.ai import make_agent
from gettysburg.gbacw.game import GbacwGame
scenario, seed, limit = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
g = GbacwGame(scenario, seed=seed)
agents = {s: make_agent("general", str(seed), "gbacw") for s in ("usa", "csa")}
rng = random.Random(seed)
digest = hashlib.sha256()
choose, keys, legal_sizes, view_cpu = [], [], [], 0.0
while not g.is_terminal() and len(choose) < limit:
    s = g.to_move()[0]
    t0 = time.process_time()
    v = g.view(s)
    legal = v["legal_actions"]
    t1 = time.process_time()
    act = agents[s].choose(v, legal, 1.0, rng)
    choose.append(time.process_time() - t1)
    view_cpu += t1 - t0
    keys.append([s, str(v.get("turn")), str(v.get("current")), str(v.get("brigade")),
                 str(v.get("phase"))])
    legal_sizes.append(len(legal))
    digest.update(json.dumps(act, sort_keys=True).encode())
    g.apply_unrecorded(act, s)
print(json.dumps({"choose": choose, "keys": keys, "legal": legal_sizes, "view": view_cpu,
                  "actions": digest.hexdigest()[:16], "final": g.state_hash()[:16]}))
'''


def summary(run: dict[str, Any]) -> str:
    """One line of figures for one tree's run (module doc)."""
    xs: list[float] = run["choose"]
    ordered = sorted(xs)
    acts: dict[tuple[str, ...], float] = {}
    for key, x in zip(run["keys"], xs, strict=True):
        acts[tuple(key)] = acts.get(tuple(key), 0.0) + x
    worst = max(range(len(xs)), key=lambda i: xs[i])
    by_act = sorted(acts.values())
    top = max(acts, key=lambda k: acts[k])
    return (f"{len(xs)} decisions, choose {sum(xs):.1f} s: per decision mean "
            f"{1000 * sum(xs) / len(xs):.1f} ms, p95 {1000 * ordered[int(0.95 * len(xs))]:.0f} "
            f"ms, max {1000 * ordered[-1]:.0f} ms ({run['legal'][worst]} legal, decision "
            f"{worst}), {sum(1 for x in xs if x > 1.0)} over 1 s; per activation p95 "
            f"{by_act[int(0.95 * len(by_act))]:.2f} s, max {by_act[-1]:.2f} s of {len(acts)} "
            f"({'/'.join(top[1:])}), {sum(1 for a in by_act if a > 1.0)} over 1 s; "
            f"view+legal {run['view']:.0f} s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenario", default="third-day")
    ap.add_argument("--max-actions", type=int, default=300)
    ap.add_argument("--seeds", default="7")
    ap.add_argument("--before", required=True, help="the commit to compare with")
    ap.add_argument("--now", default=None, help="a commit instead of the checkout")
    ap.add_argument("--now-src", default=None,
                    help="a src tree instead of the checkout (e.g. a commit with some files "
                         "of the work in progress copied in)")
    ap.add_argument("--rounds", type=int, default=1)
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}; {args.scenario}, the first "
          f"{args.max_actions} decisions, general on both seats; before = {args.before}, "
          f"now = {args.now_src or args.now or 'the checkout'}; best of {args.rounds}")
    with tempfile.TemporaryDirectory() as tmp:
        trees = {"before": extract(args.before, Path(tmp) / "before"),
                 "now": Path(args.now_src) if args.now_src
                 else ROOT / "src" if args.now is None
                 else extract(args.now, Path(tmp) / "now")}
        for seed in args.seeds.split(","):
            best: dict[str, dict[str, Any]] = {}
            for _ in range(args.rounds):
                for name, src in trees.items():
                    proc = subprocess.run(
                        [sys.executable, "-c", PLAYER, args.scenario, seed,
                         str(args.max_actions)], check=True, capture_output=True, text=True,
                        env={"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin"})
                    run = json.loads(proc.stdout.strip().splitlines()[-1])
                    if name not in best or sum(run["choose"]) < sum(best[name]["choose"]):
                        best[name] = run
            same = all(best["before"][k] == best["now"][k] for k in ("actions", "final"))
            print(f"seed {seed}: " + ("same game" if same else "DIFFERENT games") +
                  f" (actions {best['now']['actions']}, final {best['now']['final']})")
            for name in ("before", "now"):
                print(f"  {name:6s} {summary(best[name])}")


if __name__ == "__main__":
    main()
