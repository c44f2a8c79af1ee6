"""Benchmark the GBACW engine (a script, not a test).

    .venv/bin/python benchmarks/bench_gbacw.py [--seed N]
    .venv/bin/python benchmarks/bench_gbacw.py --scenario third-day --max-actions 300 \
        --before COMMIT --seeds 7,8

Times

1. setting up Second Day (II/A's chain and II/B's draws included);
2. ``legal_actions`` on that position once a brigade is active (every unit's reach, its
   turns, fire targets and the leaders' moves): cold (the engine's search tables emptied)
   and warm (the same position asked again, as validate does after the listing);
3. a random player (the weighted one of ``tests/test_gbacw_random_play.py``) through
   Little Round Top to its end: actions, seconds, and the share spent listing actions.

``--lrt`` instead plays whole Little Round Top games as the lab does (issue 54's measure): the
``general`` (CSA) against ``random``, and random against random, one seed each of
``--seeds``, in this checkout (or ``--now COMMIT``) and in ``--before COMMIT``
(``git archive``: the checkout is not touched), each in its own Python process, the two
taking turns ``--rounds`` times so that the machine's other load falls on both alike.
Figures are CPU seconds (``time.process_time``) of the play loop; the final state hashes of
the two must be the same (the engine changed its speed, not its games).

``--scenario NAME --max-actions N`` instead plays the first N actions of a scenario (the long
ones: first-day, second-day, third-day, battle), random against random and the general on
both seats, one game of each per ``--seeds``, in this checkout and in ``--before`` as
``--lrt`` does (each in its own process, turn about): CPU seconds of the play loop, and a
digest of the actions played and the final state hash, which must be the same in both.

``--parts`` instead times, in this checkout (or ``--now``) and in ``--before`` (each its own
process, turn about, ``--rounds`` times, the best kept), the engine parts session 47 cut:
the state hash of a Third Day position (what every recorded ``apply`` pays), the split,
rapid and combined fire a battery of the gun-line test positions may take
(``fire_action.order_options``), a Second Day activation's legal list and the random
agent's draw from ``legal_sequence`` (the count and one action), and a Second Day random
prefix whose Loose Cannon tasks filter the moves, the leaders' sweep on that prefix's last
position and 002 §9.72's entry filter over First Day US-1/1/Cav's moves (session 47's second
part); each with a digest of its answers, which must be the same in both.

``--fire`` instead prints the CPU time (``time.process_time``) spent in
``fire_action.fire_targets`` over 300 weighted random actions (fire favoured) of Little
Round Top (seeds 1, 2) and Herr Ridge (seed 3), with a hash of every legal list and the
final state hash, to compare a change that must not change any answer.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from commit_src import extract

from gettysburg.core.canonical import hash_json
from gettysburg.core.protocol import new_game
from gettysburg.gbacw import fire_action
from gettysburg.gbacw import questions as gbacw_game
from gettysburg.gbacw.game import GbacwGame

WEIGHTS = {"end_orders": 6, "first_am": 4, "end_orders_change": 6, "end_activation": 3,
           "end_brigade": 4, "activate": 4, "roll_orders": 1, "set_orders": 1, "reserve": 1,
           "transfer": 1, "move": 2, "face": 1, "move_leader": 1, "fire": 2,
           "coordinate": 2, "rally": 2, "move_commander": 1, "end_commanders": 6, "share": 1,
           "raise": 1, "shock": 3, "withdraw": 2, "stand": 3,
           "return_fire": 3, "hold": 2, "react": 2, "no_reaction": 3,
           "pre_shock_fire": 3}


def to_active_brigade(g: GbacwGame) -> None:
    """Play end-of-phase actions until a brigade is active (with units on the map)."""
    for _ in range(400):
        seat = g.to_move()[0]
        legal = g.legal_actions(seat)
        act = [a for a in legal if a["type"] == "activate"
               and any(g.on_map(k) for k in g.brigade_units(a["brigade"]))]
        if act:
            g.apply(act[0], seat)
            return
        pick = next((a for a in legal if a["type"] in ("end_orders", "first_am",
                                                       "end_orders_change")), None)
        g.apply(pick or next(a for a in legal if a["type"] == "end_activation"), seat)
    raise SystemExit("no brigade became active")


FIRE_WEIGHTS = {"fire": 6, "fire_split": 3, "return_fire": 4, "end_activation": 1,
                "end_brigade": 2}


def fire_cpu(scenario: str, seed: int, actions: int = 300) -> None:
    """CPU in fire_targets over a seeded weighted random game, and its hashes."""
    spent = [0.0]
    plain = fire_action.fire_targets

    def timed(game: GbacwGame, key: str) -> list[object]:
        t = time.process_time()
        try:
            return list(plain(game, key))
        finally:
            spent[0] += time.process_time() - t

    gbacw_game.fire_action.fire_targets = timed
    try:
        g = new_game(f"gbacw/{scenario}", seed=seed)
        r = random.Random(seed)
        digest = hashlib.sha256()
        t0, n = time.process_time(), 0
        while not g.is_terminal() and n < actions:
            s = g.to_move()[0]
            legal = g.legal_actions(s)
            digest.update(hash_json(legal).encode())
            kinds = sorted({a["type"] for a in legal})
            kind = r.choice([k for k in kinds for _ in range(FIRE_WEIGHTS.get(k, 2))])
            g.apply(r.choice([a for a in legal if a["type"] == kind]), s)
            n += 1
    finally:
        gbacw_game.fire_action.fire_targets = plain
    print(f"{scenario} seed {seed}: {n} actions, {time.process_time() - t0:.2f} s CPU, "
          f"fire_targets {spent[0]:.2f} s; legal lists {digest.hexdigest()[:16]}, "
          f"final {g.state_hash()[:16]}")


ROOT = Path(__file__).resolve().parent.parent

#: Run in each engine's process: plays the games and prints [[kind, seed, actions, cpu,
#: final hash], ...] as JSON. The lab's loop: a view for the general, the view's summary
#: and ``legal_sequence`` for the random agent (the full view where a commit lacks the
#: summary; the list itself where the system has no lazy sequence).
PLAYER = r'''
import json, random, sys, time
from gettysburg.ai import make_agent
from gettysburg.gbacw.game import GbacwGame
out = []
for kind in ("general", "random"):
    for seed in [int(x) for x in sys.argv[1].split(",")]:
        g = GbacwGame("little-round-top", seed=seed)
        agents = {s: make_agent("general" if kind == "general" and s == "csa" else "random",
                                str(seed), "gbacw") for s in ("usa", "csa")}
        rng = random.Random(seed)
        n, t = 0, time.process_time()
        while not g.is_terminal():
            s = g.to_move()[0]
            if getattr(agents[s], "reads_view", True) is False and hasattr(g, "view_summary"):
                v, legal = g.view_summary(s), g.legal_sequence(s)
            else:
                v = g.view(s)
                legal = v["legal_actions"]
            g.apply_unrecorded(agents[s].choose(v, legal, 1.0, rng), s)
            n += 1
        out.append([kind, seed, n, time.process_time() - t, g.state_hash()[:16]])
print(json.dumps(out))
'''




#: Run in each engine's process for ``--scenario``: a scenario's first actions, the lab's
#: loop, random against random and the general on both seats; prints [[kind, seed,
#: actions, cpu, digest of the actions, final hash], ...] as JSON.
PREFIX_PLAYER = r'''
import hashlib, json, random, sys, time
from gettysburg.ai import make_agent
from gettysburg.gbacw.game import GbacwGame
scenario, limit = sys.argv[1], int(sys.argv[3])
out = []
for kind in ("random", "general"):
    for seed in [int(x) for x in sys.argv[2].split(",")]:
        t = time.process_time()
        g = GbacwGame(scenario, seed=seed)
        agents = {s: make_agent(kind, str(seed), "gbacw") for s in ("usa", "csa")}
        rng = random.Random(seed)
        digest = hashlib.sha256()
        n = 0
        while not g.is_terminal() and n < limit:
            s = g.to_move()[0]
            if getattr(agents[s], "reads_view", True) is False and hasattr(g, "view_summary"):
                v, legal = g.view_summary(s), g.legal_sequence(s)
            else:
                v = g.view(s)
                legal = v["legal_actions"]
            act = agents[s].choose(v, legal, 1.0, rng)
            digest.update(json.dumps(act, sort_keys=True).encode())
            g.apply_unrecorded(act, s)
            n += 1
        out.append([kind, seed, n, time.process_time() - t, digest.hexdigest()[:16],
                    g.state_hash()[:16]])
print(json.dumps(out))
'''


#: Run in each engine's process for ``--parts``: prints {part: [cpu ms, digest]} as JSON.
PARTS = r'''
import hashlib, json, random, sys, time
sys.path.insert(0, sys.argv[1])  # the checkout's tests: the gun-line positions
from gbacw_gunline import AL5, AL13, HUGER_C, NAP1, NAP2, PITT_A, PITT_B, RESERVE, TN1, \
    at, gunline, key_of, place
from gettysburg.core.canonical import hash_json
from gettysburg.gbacw import fire_action
from gettysburg.gbacw import questions
from gettysburg.gbacw.game import GbacwGame


def best(f, n):
    b, got = 1e9, None
    for _ in range(n):
        t = time.process_time()
        got = f()
        b = min(b, time.process_time() - t)
    return round(1000 * b, 2), got


def digest(x):
    return hashlib.sha256(json.dumps(x, sort_keys=True, default=str).encode()).hexdigest()[:12]


out = {}
g = GbacwGame("third-day", seed=7)
r = random.Random(7)
for _ in range(40):
    s = g.to_move()[0]
    legal = g.legal_actions(s)
    g.apply_unrecorded(r.choice(legal), s)
ms, h = best(g.state_hash, 30)
out["state hash, Third Day (ms)"] = [ms, h[:12]]

enemy = (AL13, AL5, TN1, PITT_A, PITT_B, HUGER_C)
batteries = []
for seed in range(6):
    rr = random.Random(seed)
    b = gunline(RESERVE)
    place(b, NAP1, at(b, (0, 0)), 1)
    place(b, NAP2, at(b, (0, 0)), 1)
    spots = []
    for i in range(7):
        for j in range(7 - i):
            x = at(b, (0, 0))
            for d, m in ((1, i), (2, j)):
                for _ in range(m):
                    x = x.neighbour(d)
            if 0 < i + j and x in b.cat.board.hexes:
                spots.append(x)
    for k, x in zip(enemy, rr.sample(spots, len(enemy))):
        place(b, k, x, 4)
    b._memo.clear()
    batteries.append(b)
ms, got = best(lambda: [fire_action.order_options(b, key_of(b, NAP1)) for b in batteries], 5)
out["order_options, 6 battery positions (ms)"] = [ms, digest(got)]

sd = GbacwGame("second-day", seed=3)
for _ in range(400):
    s = sd.to_move()[0]
    legal = sd.legal_actions(s)
    act = [a for a in legal if a["type"] == "activate"
           and any(sd.on_map(k) for k in sd.brigade_units(a["brigade"]))]
    if act:
        sd.apply(act[0], s)
        break
    pick = next((a for a in legal if a["type"] in ("end_orders", "first_am",
                                                   "end_orders_change")), None)
    sd.apply(pick or next(a for a in legal if a["type"] == "end_activation"), s)
seat = sd.to_move()[0]
sd.legal_actions(seat)  # the searches kept: what is timed is the list itself


def listing():
    sd._memo.clear()
    return sd.legal_actions(seat)


def drawing():
    sd._memo.clear()
    seq = sd.legal_sequence(seat)
    return [len(seq), seq[len(seq) // 2]]


ms, got = best(listing, 5)
out[f"legal_actions, Second Day activation ({len(got)} actions, warm searches; ms)"] = \
    [ms, digest(got)]
ms, got = best(drawing, 5)
out["legal_sequence: the count and one action (ms)"] = [ms, digest(got)]

t = time.process_time()
lc = GbacwGame("second-day", seed=7)
rr = random.Random(7)
hashes = []
for _ in range(600):
    s = lc.to_move()[0]
    legal = lc.legal_sequence(s)
    lc.apply_unrecorded(dict(legal[rr.randrange(len(legal))]), s)
ms = round(1000 * (time.process_time() - t), 0)
out["Second Day random, 600 actions (the lab's loop; ms)"] = [ms, lc.state_hash()[:12]]

# session 47, part 2: the leaders' sweep after every action (002 §12.71/§12.73), on that
# position (a leader it moves stays moved: the later rounds time the settled sweep)
from gettysburg.gbacw import entry_step, results_step
ms, got = best(lambda: [results_step.sweep_leaders(lc), sorted(lc.pos.leaders.items())], 30)
out["sweep_leaders, Second Day after 600 random actions (ms)"] = [ms, digest(got)]

# 002 §9.72's filter on First Day 1-0700 US-1/1/Cav's moves (a 13,000-move list)
fd = GbacwGame("first-day", seed=7)
for _ in range(400):
    s = fd.to_move()[0]
    legal = fd.legal_actions(s)
    act = [a for a in legal if a["type"] == "activate" and a["brigade"] == "US-1/1/Cav"]
    if act:
        fd.apply(act[0], s)
        break
    pick = next((a for a in legal if a["type"] in ("end_orders", "first_am",
                                                   "end_orders_change")), None)
    fd.apply(pick or next(a for a in legal if a["type"] == "end_activation"), s)
kept = []
plain_filter = entry_step.queue_filter
entry_step.queue_filter = lambda game, key, found: (
    kept.append((key, dict(found))), plain_filter(game, key, found))[1]
fd._memo.clear()
fd.legal_actions(fd.to_move()[0])
entry_step.queue_filter = plain_filter
ms, got = best(lambda: [plain_filter(fd, k, f) for k, f in kept], 7)
out[f"queue_filter, First Day US-1/1/Cav's {sum(len(f) for _, f in kept)} moves (ms)"] = \
    [ms, digest([[str(m), r.half_mp] for f in got for m, r in f.items()])]
print(json.dumps(out))
'''


def parts_versus(before: str, rounds: int, now: str | None = None) -> None:
    """The engine parts of ``PARTS`` in this checkout (or at ``now``) and at ``before``."""
    with tempfile.TemporaryDirectory() as tmp:
        trees = {"before": extract(before, Path(tmp) / "before"),
                 "now": ROOT / "src" if now is None else extract(now, Path(tmp) / "now")}
        cpu: dict[tuple[str, str], list[float]] = {}
        seen: dict[tuple[str, str], str] = {}
        for _ in range(rounds):
            for name, src in trees.items():
                proc = subprocess.run([sys.executable, "-c", PARTS, str(ROOT / "tests")],
                                      check=True, capture_output=True, text=True,
                                      env={"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin"})
                rows: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
                for part, (ms, answer) in rows.items():
                    cpu.setdefault((name, part), []).append(ms)
                    seen[(name, part)] = answer
    print(f"engine parts, CPU (best of {rounds} runs, each itself a best of several); "
          f"before = {before}, now = {now or 'the checkout'}")
    for part in dict.fromkeys(p for _, p in cpu):
        b, a = (min(cpu[(name, part)]) for name in ("before", "now"))
        same = "same answers" if seen[("before", part)] == seen[("now", part)] else \
            f"DIFFERENT: {seen[('before', part)]} / {seen[('now', part)]}"
        print(f"  {part}: before {b:.1f}, now {a:.1f} (x{b / max(a, 1e-9):.1f}); {same}")


def prefix_versus(scenario: str, limit: int, before: str, seeds: str, rounds: int,
                  now: str | None = None) -> None:
    """A scenario's first ``limit`` actions in this checkout (or at ``now``) and at
    ``before`` (see the module)."""
    with tempfile.TemporaryDirectory() as tmp:
        trees = {"before": extract(before, Path(tmp) / "before"),
                 "now": ROOT / "src" if now is None else extract(now, Path(tmp) / "now")}
        cpu: dict[tuple[str, str, int], list[float]] = {}
        seen: dict[tuple[str, str, int], tuple[int, str, str]] = {}
        for _ in range(rounds):
            for name, src in trees.items():
                proc = subprocess.run([sys.executable, "-c", PREFIX_PLAYER, scenario, seeds,
                                       str(limit)], check=True, capture_output=True,
                                      text=True,
                                      env={"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin"})
                rows: list[Any] = json.loads(proc.stdout.strip().splitlines()[-1])
                for kind, seed, n, secs, acts, final in rows:
                    cpu.setdefault((name, kind, seed), []).append(secs)
                    seen[(name, kind, seed)] = (n, acts, final)
    print(f"{scenario}, the first {limit} actions (set-up included), CPU s (best of "
          f"{rounds}); before = {before}, now = {now or 'the checkout'}")
    for kind, seed in sorted({(k, s) for _, k, s in cpu}):
        b, a = (min(cpu[(name, kind, seed)]) for name in ("before", "now"))
        was, got = seen[("before", kind, seed)], seen[("now", kind, seed)]
        same = "same game" if was == got else f"DIFFERENT: {was} / {got}"
        print(f"  {kind:8s} seed {seed}: {got[0]} actions, before {b:6.1f} s, now {a:6.1f} s "
              f"(x{b / a:.2f}, {1000 * a / max(1, got[0]):.0f} ms an action); "
              f"actions {got[1]}, final {got[2]}: {same}")


def lrt_versus(before: str, seeds: str, rounds: int, now: str | None = None) -> None:
    """Whole Little Round Top games in this checkout (or at ``now``) and at ``before`` (see
    the module)."""
    with tempfile.TemporaryDirectory() as tmp:
        trees = {"before": extract(before, Path(tmp) / "before"),
                 "now": ROOT / "src" if now is None else extract(now, Path(tmp) / "now")}
        cpu: dict[tuple[str, str, int], list[float]] = {}
        seen: dict[tuple[str, str, int], tuple[int, str]] = {}
        for _ in range(rounds):
            for name, src in trees.items():
                proc = subprocess.run([sys.executable, "-c", PLAYER, seeds], check=True,
                                      capture_output=True, text=True,
                                      env={"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin"})
                rows: list[Any] = json.loads(proc.stdout.strip().splitlines()[-1])
                for kind, seed, n, secs, final in rows:
                    cpu.setdefault((name, kind, seed), []).append(secs)
                    seen[(name, kind, seed)] = (n, final)
    print(f"Little Round Top to the end, CPU s a game (best of {rounds}); before = {before}, "
          f"now = {now or 'the checkout'}")
    for kind, seed in sorted({(k, s) for _, k, s in cpu}):
        b, a = (min(cpu[(name, kind, seed)]) for name in ("before", "now"))
        (nb, hb), (na, ha) = seen[("before", kind, seed)], seen[("now", kind, seed)]
        same = "same game" if (nb, hb) == (na, ha) else f"DIFFERENT: {nb} {hb} / {na} {ha}"
        print(f"  {kind:8s} seed {seed}: {na} actions, before {b:6.1f} s, now {a:6.1f} s "
              f"(x{b / a:.2f}); final {ha}: {same}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--fire", action="store_true", help="the fire part's CPU time only")
    ap.add_argument("--lrt", action="store_true",
                    help="whole Little Round Top games, now against --before")
    ap.add_argument("--before", default="99d8bff",
                    help="the commit --lrt compares with (default: before issue 54's speed-ups)")
    ap.add_argument("--now", default=None,
                    help="a commit --lrt measures instead of the checkout (others' work in "
                         "progress left out)")
    ap.add_argument("--seeds", default="5401", help="--lrt's seeds, comma-separated")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--scenario", default=None,
                    help="a scenario's first --max-actions actions, now against --before")
    ap.add_argument("--max-actions", type=int, default=300)
    ap.add_argument("--parts", action="store_true",
                    help="the engine parts session 47 cut, now against --before")
    args = ap.parse_args()
    if args.parts:
        parts_versus(args.before, args.rounds, args.now)
        return
    if args.scenario:
        prefix_versus(args.scenario, args.max_actions, args.before, args.seeds, args.rounds,
                      args.now)
        return
    if args.lrt:
        lrt_versus(args.before, args.seeds, args.rounds, args.now)
        return
    if args.fire:
        for scenario, seed in (("little-round-top", 1), ("little-round-top", 2),
                               ("herr-ridge", 3)):
            fire_cpu(scenario, seed)
        return

    t = time.perf_counter()
    g = new_game("gbacw/second-day", seed=args.seed)
    assert isinstance(g, GbacwGame)
    print(f"second-day set-up: {time.perf_counter() - t:.2f} s, {len(g.pos.units)} units")
    to_active_brigade(g)
    seat = g.to_move()[0]
    gbacw_game._REACH_CACHE.clear()
    gbacw_game._LEADER_CACHE.clear()
    g._memo.clear()
    t = time.perf_counter()
    legal = g.legal_actions(seat)
    cold = time.perf_counter() - t
    t = time.perf_counter()
    g.legal_actions(seat)
    warm = time.perf_counter() - t
    print(f"legal_actions, brigade {g.pos.brigade} active: {len(legal)} actions, "
          f"cold {cold:.2f} s, warm {warm * 1000:.1f} ms")

    r = random.Random(args.seed)
    lrt = new_game("gbacw/little-round-top", seed=args.seed)
    t = time.perf_counter()
    listing = 0.0
    while not lrt.is_terminal():
        s = lrt.to_move()[0]
        t0 = time.perf_counter()
        legal = lrt.legal_actions(s)
        listing += time.perf_counter() - t0
        kinds = sorted({a["type"] for a in legal})
        kind = r.choice([k for k in kinds for _ in range(WEIGHTS.get(k, 1))])
        lrt.apply(r.choice([a for a in legal if a["type"] == kind]), s)
    total = time.perf_counter() - t
    print(f"little-round-top random play to the end: {len(lrt.history)} actions in "
          f"{total:.1f} s ({listing:.1f} s listing legal actions); result {lrt.result()}")


if __name__ == "__main__":
    main()
