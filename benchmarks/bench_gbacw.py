"""Benchmark the GBACW engine (a script, not a test).

    .venv/bin/python benchmarks/bench_gbacw.py [--seed N]

Times

1. setting up Second Day (II/A's chain and II/B's draws included);
2. ``legal_actions`` on that position once a brigade is active (every unit's reach, its
   turns, fire targets and the leaders' moves): cold (the engine's search tables emptied)
   and warm (the same position asked again, as validate does after the listing);
3. a random player (the weighted one of ``tests/test_gbacw_random_play.py``) through
   Little Round Top to its end: actions, seconds, and the share spent listing actions.

``--fire`` instead prints the CPU time (``time.process_time``) spent in
``fire_action.fire_targets`` over 300 weighted random actions (fire favoured) of Little
Round Top (seeds 1, 2) and Herr Ridge (seed 3), with a hash of every legal list and the
final state hash, to compare a change that must not change any answer.
"""

from __future__ import annotations

import argparse
import hashlib
import random
import time

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


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--fire", action="store_true", help="the fire part's CPU time only")
    args = ap.parse_args()
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
