"""Store throughput: run with ``.venv/bin/python benchmarks/bench_store.py [--db TARGET]…``.

For each ``--db`` (a SQLite path or a ``postgresql://`` URL; default: a temporary SQLite
file) it prints:

* the latency of one committed action row (``Store.append_action``: one transaction with
  the game's status), median and 95th percentile;
* BoC Day 1 actions per second through ``Host.act`` (rules + fog check + commit);
* the time a restarted server takes to rebuild that game from the store (replaying every
  stored action and checking its state hash).

``--actions N`` sets how many actions (default 200). Nothing is asserted: figures only.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from gettysburg.server.hosting import Host, SeatSpec
from gettysburg.server.store import ActionRow, SeatRow, Store


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench(target: str, n: int) -> None:
    store = Store(target)
    try:
        game_id = f"bench-{time.time_ns()}"
        store.create_game(game_id, "toy", "standard", [], "1",
                          [SeatRow("red", "human", None, None, "0" * 64)])
        lat = []
        for i in range(n):
            t = time.perf_counter()
            store.append_action(game_id, ActionRow(i, "red", {"type": "pass"}, f"b{i}", [3],
                                                   "0" * 64), "active", None)
            lat.append(time.perf_counter() - t)
        host = Host(store)
        gid, _ = host.create("boc", "day1", [], "1863",
                             {"usa": SeatSpec("human"), "csa": SeatSpec("human")})
        live = host.load(gid)
        t = time.perf_counter()
        for k in range(n):
            seat = live.game.to_move()[0]
            host.act(gid, seat, live.game.legal_actions(seat)[0], f"a{k}")
        played = time.perf_counter() - t
        t = time.perf_counter()
        Host(store).load(gid)
        reload = time.perf_counter() - t
    finally:
        store.close()
    print(f"{store.kind:10} commit median {statistics.median(lat) * 1e3:6.2f} ms, "
          f"p95 {percentile(lat, 0.95) * 1e3:6.2f} ms | BoC day1 via Host.act "
          f"{n / played:6.1f} actions/s | rebuild {n} actions {reload:5.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", action="append", help="SQLite path or postgresql:// URL")
    parser.add_argument("--actions", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for target in args.db or [str(Path(tmp) / "bench.db")]:
            bench(target, args.actions)


if __name__ == "__main__":
    main()
