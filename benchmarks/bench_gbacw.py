"""Benchmark the GBACW engine (a script, not a test).

    .venv/bin/python benchmarks/bench_gbacw.py [--seed N]

Times

1. setting up Second Day (II/A's chain and II/B's draws included);
2. ``legal_actions`` on that position once a brigade is active (every unit's reach, its
   turns, fire targets and the leaders' moves): cold (the engine's search tables emptied)
   and warm (the same position asked again, as validate does after the listing);
3. a random player (the weighted one of ``tests/test_gbacw_random_play.py``) through
   Little Round Top to its end: actions, seconds, and the share spent listing actions.
"""

from __future__ import annotations

import argparse
import random
import time

from gettysburg.core.protocol import new_game
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


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args()

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
        kind = r.choice([k for k in kinds for _ in range(WEIGHTS[k])])
        lrt.apply(r.choice([a for a in legal if a["type"] == kind]), s)
    total = time.perf_counter() - t
    print(f"little-round-top random play to the end: {len(lrt.history)} actions in "
          f"{total:.1f} s ({listing:.1f} s listing legal actions); result {lrt.result()}")


if __name__ == "__main__":
    main()
