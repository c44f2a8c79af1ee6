"""Many games at once on a real server over loopback (docs/security.md, "load").

A short form of ``benchmarks/bench_load.py``: uvicorn in a subprocess, 8 Badges of Courage
games played at once for about 20 s by scripted human clients (HTTP actions, WebSocket
pushes) against the server's AI. It asserts that nothing failed and that the server's
memory stayed bounded; it prints the figures but asserts no timing (the machine may be
busy with other work).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "benchmarks"))

from bench_load import run_load

#: The server may grow by this much while serving 8 games (each BoC game in memory is a
#: few MiB: state, log, history, cached replay); measured growth is far below it.
RSS_GROWTH_BOUND_MIB = 300


def test_eight_games_at_once_without_errors_in_bounded_memory() -> None:
    out = run_load(games=8, seconds=20, scenario="day1", agent="random", ai_budget=0.2)
    print(json.dumps(out))
    assert out["errors"] == []
    assert out["started"] >= 8 and out["actions"] > 0 and out["pushes"] > 0
    rss = out["rss_mib"]
    assert rss["before"] > 0 and rss["after"] - rss["before"] < RSS_GROWTH_BOUND_MIB, rss
