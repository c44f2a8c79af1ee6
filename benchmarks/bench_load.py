"""Load on a real server over loopback: run with ``.venv/bin/python benchmarks/bench_load.py``.

Starts ``uvicorn`` with the game server in a subprocess (a fresh SQLite file), then plays
``--games`` Badges of Courage games at once for ``--seconds``: in each, a scripted human
client plays the USA through the HTTP API, driven by the state the server pushes on its
WebSocket, against an AI seat (``--agent``) on the server. A game that ends is replaced by
a new one. Prints games started and finished, actions per second (both seats), the human
client's action latency (POST round trip) and the latency from its POST to the WebSocket
push showing the new state (p50/p95/p99), errors, and the server's resident memory before,
after and at its peak. ``tests/test_server_load.py`` runs a short form and asserts no errors
and bounded memory (never timing).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

# Every simulated player comes from 127.0.0.1, so the per-address caps (server/limits.py)
# would count them as one; the load they stand for is many addresses.
SERVER = """
import sys, uvicorn
from pathlib import Path
from gettysburg.server.app import create_app
from gettysburg.server.limits import Limits
from gettysburg.server.store import Store
app = create_app(Store(Path(sys.argv[1])), ai_budget=float(sys.argv[3]), limits=Limits.off())
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning")
"""


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def rss_kib(pid: int) -> tuple[int, int]:
    """(resident, peak resident) memory of a process in KiB, from /proc."""
    out = {"VmRSS": 0, "VmHWM": 0}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in out:
            out[key] = int(value.split()[0])
    return out["VmRSS"], out["VmHWM"]


@dataclass
class Tally:
    started: int = 0
    finished: int = 0
    steps: int = 0
    pushes: int = 0
    retries: int = 0
    post_ms: list[float] = field(default_factory=list)
    push_ms: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


class LiveServer:
    """The game server in a subprocess on a free loopback port."""

    def __init__(self, ai_budget: float = 0.5) -> None:
        self.dir = tempfile.TemporaryDirectory(prefix="gettysburg-load-")
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = int(s.getsockname()[1])
        self.proc = subprocess.Popen(
            [sys.executable, "-c", SERVER, str(Path(self.dir.name) / "games.db"),
             str(self.port), str(ai_budget)], stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE)
        self.url = f"http://127.0.0.1:{self.port}"
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited: {self.proc.stderr.read().decode()[-2000:]}"
                                   if self.proc.stderr else "server exited")
            try:
                if httpx.get(f"{self.url}/api/systems", timeout=5).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.2)
        raise RuntimeError("server did not start")

    def close(self) -> str:
        self.proc.terminate()
        try:
            _, err = self.proc.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            _, err = self.proc.communicate()
        self.dir.cleanup()
        return err.decode(errors="replace") if err else ""


def _choose(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    weights = [20 if a["type"] in ("fire", "melee") else
               max(1, len(legal) // 4) if a["type"] == "end_phase" else 1 for a in legal]
    return rng.choices(legal, weights)[0]


def _post(http: httpx.Client, tally: Tally, url: str, **kwargs: Any) -> httpx.Response:
    """POST, re-sent after a dropped connection (a keep-alive connection the server closed
    as it was reused). Safe for actions: the same ``action_id`` is applied once, which is
    what the browser client does too."""
    for attempt in range(3):
        try:
            return http.post(url, **kwargs)
        except httpx.TransportError:
            if attempt == 2:
                raise
            with tally.lock:
                tally.retries += 1
    raise AssertionError("unreachable")


def play_games(url: str, slot: int, until: float, tally: Tally, scenario: str,
               agent: str) -> None:
    """One client: play games (USA, scripted) against the server's AI until ``until``."""
    rng = random.Random(slot)
    ws_url = url.replace("http://", "ws://")
    with httpx.Client(base_url=url, timeout=60) as http:
        while time.monotonic() < until:
            try:
                _one_game(http, ws_url, rng, until, tally, scenario, agent, slot)
            except Exception as exc:  # counted, and the slot starts a new game
                with tally.lock:
                    tally.errors.append(f"slot {slot}: {type(exc).__name__}: {exc}")
                time.sleep(0.5)


def _one_game(http: httpx.Client, ws_url: str, rng: random.Random, until: float,
              tally: Tally, scenario: str, agent: str, slot: int) -> None:
    r = _post(http, tally, "/api/games", json={"system": "boc", "scenario": scenario,
                                      "seats": {"usa": {"kind": "human"},
                                                "csa": {"kind": "ai", "agent": agent}}})
    if r.status_code != 201:
        raise RuntimeError(f"create: {r.status_code} {r.text[:200]}")
    gid, token = r.json()["game_id"], r.json()["seats"]["usa"]["token"]
    with tally.lock:
        tally.started += 1
    acted_at, posted, step = -1, 0.0, 0
    with connect(f"{ws_url}/api/games/{gid}/ws", max_size=None, open_timeout=60) as ws:
        ws.send(json.dumps({"token": token, "since": 0}))
        while (left := until - time.monotonic()) > 0:
            try:
                msg = json.loads(ws.recv(timeout=left))
            except TimeoutError:
                break  # the time is up while the server was still thinking
            if msg.get("type") != "state":
                raise RuntimeError(f"push: {msg}")
            state = msg["state"]
            step = int(state["step"])
            with tally.lock:
                tally.pushes += 1
                if posted and step > acted_at:
                    tally.push_ms.append((time.monotonic() - posted) * 1000)
                    posted = 0.0
            if state["status"] == "finished":
                with tally.lock:
                    tally.finished += 1
                break
            # A push computed before our last action can arrive after it: skip it.
            if step <= acted_at or "usa" not in state["to_move"] or not state["legal"]:
                continue
            action = _choose(state["legal"], rng)
            posted = time.monotonic()
            r = _post(http, tally, f"/api/games/{gid}/actions",
                          headers={"Authorization": f"Bearer {token}"},
                          json={"action": action, "action_id": str(uuid.uuid4())})
            with tally.lock:
                tally.post_ms.append((time.monotonic() - posted) * 1000)
            if r.status_code != 200:
                raise RuntimeError(f"slot {slot} act: {r.status_code} {r.text[:300]}")
            acted_at = step
    with tally.lock:
        tally.steps += step


def run_load(games: int, seconds: float, scenario: str = "day1", agent: str = "random",
             ai_budget: float = 0.5) -> dict[str, Any]:
    """Run the load; returns the figures (see the module docstring)."""
    server = LiveServer(ai_budget)
    try:
        rss0, _ = rss_kib(server.proc.pid)
        tally = Tally()
        start = time.monotonic()
        until = start + seconds
        threads = [threading.Thread(target=play_games, daemon=True,
                                    args=(server.url, i, until, tally, scenario, agent))
                   for i in range(games)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=seconds + 240)
        elapsed = time.monotonic() - start
        stuck = sum(t.is_alive() for t in threads)
        rss1, peak = rss_kib(server.proc.pid)
    finally:
        stderr = server.close()
    errors = list(tally.errors) + [f"{stuck} client(s) still running"] * bool(stuck)
    if "Traceback" in stderr:
        errors.append(f"server stderr: {stderr[-1500:]}")
    return {"games": games, "seconds": round(elapsed, 1), "started": tally.started,
            "finished": tally.finished, "actions": tally.steps,
            "actions_per_s": round(tally.steps / elapsed, 1), "pushes": tally.pushes,
            "retries": tally.retries,
            "human_actions": len(tally.post_ms),
            "post_ms": {f"p{q}": round(percentile(tally.post_ms, q / 100), 1)
                        for q in (50, 95, 99)},
            "push_ms": {f"p{q}": round(percentile(tally.push_ms, q / 100), 1)
                        for q in (50, 95, 99)},
            "rss_mib": {"before": rss0 // 1024, "after": rss1 // 1024, "peak": peak // 1024},
            "errors": errors}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--scenario", default="day1")
    ap.add_argument("--agent", default="random", help="the server's AI (random, general...)")
    ap.add_argument("--ai-budget", type=float, default=0.5)
    args = ap.parse_args()
    out = run_load(args.games, args.seconds, args.scenario, args.agent, args.ai_budget)
    print(json.dumps(out, indent=2))
    print(f"machine: {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
