"""How long the GBACW general takes to decide (issue 54: under a second a decision).

Run::

    .venv/bin/python benchmarks/bench_gbacw_general.py --scenario little-round-top \
        --seat csa --decisions 300

Plays the general (on ``--seat``) against random from the scenario's start and times each
of the general's decisions: the agent's ``choose`` on the view and legal list the engine
gave (the engine's own view and legal list are not counted). Each decision is timed twice,
by the wall clock and by this process's CPU time: on a machine shared with other work (the
load average is printed first) the wall clock also counts waiting for a core. Last, the
kinds of action the general chose, with how often.
"""

from __future__ import annotations

import argparse
import collections
import os
import random
import statistics
import time

from gettysburg.ai import make_agent
from gettysburg.gbacw.game import GbacwGame


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenario", default="little-round-top")
    ap.add_argument("--seat", default="csa", choices=("csa", "usa"))
    ap.add_argument("--decisions", type=int, default=300)
    ap.add_argument("--seed", type=int, default=5400)
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}")
    g = GbacwGame(args.scenario, seed=args.seed)
    agents = {s: make_agent("general" if s == args.seat else "random", str(args.seed), "gbacw")
              for s in ("usa", "csa")}
    rng = random.Random(args.seed)
    wall: list[float] = []
    cpu: list[float] = []
    chosen: collections.Counter[str] = collections.Counter()
    while not g.is_terminal() and len(wall) < args.decisions:
        s = g.to_move()[0]
        v = g.view(s)
        legal = v["legal_actions"]
        w0, c0 = time.perf_counter(), time.process_time()
        a = agents[s].choose(v, legal, 1.0, rng)
        if s == args.seat:
            wall.append(time.perf_counter() - w0)
            cpu.append(time.process_time() - c0)
            chosen[str(a["type"])] += 1
        g.apply(a, s)
    for name, xs in (("wall", wall), ("cpu", cpu)):
        print(f"{name}: {len(xs)} decisions, mean {statistics.mean(xs):.3f} s, "
              f"median {statistics.median(xs):.3f} s, max {max(xs):.3f} s")
    # what the general played, by kind (the tools of gbacw/ai/tactics.py among them)
    print("chosen: " + ", ".join(f"{k} {n}" for k, n in sorted(chosen.items())))


if __name__ == "__main__":
    main()
