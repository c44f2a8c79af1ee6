"""Load on a real server over loopback: run with ``.venv/bin/python benchmarks/bench_load.py``.

Starts ``uvicorn`` with the game server in a subprocess (a fresh SQLite file), then plays
``--games`` games of ``--game`` (default Badges of Courage Day 1) at once for ``--seconds``:
in each, a scripted human client plays the first seat (the USA) through the HTTP API,
driven by the state the server pushes on its WebSocket, against an AI seat (``--agent``) on
the server. A game that ends is replaced by a new one. Prints games started and finished,
actions per second (both seats), the human client's action latency (POST round trip) and
the latency from its POST to the WebSocket push showing the new state (p50/p95/p99), the
server process's CPU time per action (user + system, from /proc: load from other jobs on
the machine disturbs it much less than the wall-clock figures), the load average before and
after, errors, and the server's resident memory before, after and at its peak. The round
trip is also given without the first ``--warmup`` seconds (default 10), when every game is
set up at once ("p95 warm" in the table).

The clients act the moment their push arrives (a closed loop with no thinking time: the
server is saturated, so latency is about the number of games over its throughput);
``--think S`` has each person look at the map 0 to 2 S seconds first, as players do.

``--before COMMIT`` runs the same load on the server of an earlier commit too (its ``src``
read from git, ``commit_src.py``, first on ``PYTHONPATH``), alternating the two ``--rounds``
times, and prints both side by side; with ``--server-only`` only the server's own package
comes from ``COMMIT`` (over the rules engines of ``--after``, default HEAD), so what others
changed in the engines since does not count. ``--quick`` is the short form for a check at
the end of a session (50 games, 30 s a run, one round against ``--before``: about two
minutes).
``tests/test_server_load.py`` runs a short form and asserts no errors and bounded memory
(never timing).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Mapping
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


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used so far, from /proc (0 where there is
    none)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    # After the command's closing parenthesis: state is field 3, utime 14 and stime 15.
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


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
    post_at: list[float] = field(default_factory=list)  # when each POST was sent
    push_ms: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


class LiveServer:
    """The game server in a subprocess on a free loopback port."""

    def __init__(self, ai_budget: float = 0.5, src: Path | None = None) -> None:
        self.dir = tempfile.TemporaryDirectory(prefix="gettysburg-load-")
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = int(s.getsockname()[1])
        env = dict(os.environ)
        if src is not None:  # an earlier commit's server, ahead of the installed package
            env["PYTHONPATH"] = os.pathsep.join(
                [str(src), *filter(None, [env.get("PYTHONPATH")])])
        self.proc = subprocess.Popen(
            [sys.executable, "-c", SERVER, str(Path(self.dir.name) / "games.db"),
             str(self.port), str(ai_budget)], stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE, env=env)
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
               agent: str, system: str = "boc", think: float = 0.0) -> None:
    """One client: play games (USA, scripted) against the server's AI until ``until``."""
    rng = random.Random(slot)
    ws_url = url.replace("http://", "ws://")
    with httpx.Client(base_url=url, timeout=60) as http:
        while time.monotonic() < until:
            try:
                _one_game(http, ws_url, rng, until, tally, scenario, agent, slot, system,
                          think)
            except Exception as exc:  # counted, and the slot starts a new game
                with tally.lock:
                    tally.errors.append(f"slot {slot}: {type(exc).__name__}: {exc}")
                time.sleep(0.5)


def _seats(http: httpx.Client, system: str, scenario: str) -> list[str]:
    r = http.get("/api/setup", params={"system": system, "scenario": scenario})
    if r.status_code != 200:
        raise RuntimeError(f"setup: {r.status_code} {r.text[:200]}")
    data = r.json()
    seats = data.get("seats", data) if isinstance(data, Mapping) else data
    return sorted(seats) if isinstance(seats, Mapping) else [str(s) for s in seats]


def _one_game(http: httpx.Client, ws_url: str, rng: random.Random, until: float,
              tally: Tally, scenario: str, agent: str, slot: int,
              system: str = "boc", think: float = 0.0) -> None:
    seats = _seats(http, system, scenario)
    me = "usa" if "usa" in seats else seats[0]  # the person plays the USA
    r = _post(http, tally, "/api/games", json={
        "system": system, "scenario": scenario,
        "seats": {s: {"kind": "human"} if s == me else {"kind": "ai", "agent": agent}
                  for s in seats}})
    if r.status_code != 201:
        raise RuntimeError(f"create: {r.status_code} {r.text[:200]}")
    gid, token = r.json()["game_id"], r.json()["seats"][me]["token"]
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
            if step <= acted_at or me not in state["to_move"] or not state["legal"]:
                continue
            action = _choose(state["legal"], rng)
            if think:  # a person looks at the map before acting: 0 to 2 x think seconds
                time.sleep(min(rng.uniform(0, 2 * think), max(0.0, until - time.monotonic())))
                if time.monotonic() >= until:
                    break
            posted = time.monotonic()
            r = _post(http, tally, f"/api/games/{gid}/actions",
                          headers={"Authorization": f"Bearer {token}"},
                          json={"action": action, "action_id": str(uuid.uuid4())})
            with tally.lock:
                tally.post_ms.append((time.monotonic() - posted) * 1000)
                tally.post_at.append(posted)
            if r.status_code != 200:
                raise RuntimeError(f"slot {slot} act: {r.status_code} {r.text[:300]}")
            acted_at = step
    with tally.lock:
        tally.steps += step


def run_load(games: int, seconds: float, scenario: str = "day1", agent: str = "random",
             ai_budget: float = 0.5, system: str = "boc",
             src: Path | None = None, think: float = 0.0,
             warmup: float = 10.0) -> dict[str, Any]:
    """Run the load (on the server of ``src``, an earlier commit's tree, if given);
    returns the figures (see the module docstring)."""
    load0 = os.getloadavg()[0]
    server = LiveServer(ai_budget, src)
    try:
        rss0, _ = rss_kib(server.proc.pid)
        cpu0 = cpu_seconds(server.proc.pid)
        mine0 = time.process_time()
        tally = Tally()
        start = time.monotonic()
        until = start + seconds
        threads = [threading.Thread(target=play_games, daemon=True,
                                    args=(server.url, i, until, tally, scenario, agent,
                                          system, think))
                   for i in range(games)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=seconds + 240)
        elapsed = time.monotonic() - start
        stuck = sum(t.is_alive() for t in threads)
        cpu = cpu_seconds(server.proc.pid) - cpu0
        mine = time.process_time() - mine0
        rss1, peak = rss_kib(server.proc.pid)
    finally:
        stderr = server.close()
    errors = list(tally.errors) + [f"{stuck} client(s) still running"] * bool(stuck)
    if "Traceback" in stderr:
        errors.append(f"server stderr: {stderr[-1500:]}")
    return {"game": f"{system}/{scenario}", "games": games, "think_s": think,
            "seconds": round(elapsed, 1),
            "started": tally.started,
            "finished": tally.finished, "actions": tally.steps,
            "actions_per_s": round(tally.steps / elapsed, 1), "pushes": tally.pushes,
            "retries": tally.retries,
            "human_actions": len(tally.post_ms),
            "post_ms": {f"p{q}": round(percentile(tally.post_ms, q / 100), 1)
                        for q in (50, 95, 99)},
            # The same after the first ``warmup`` seconds, when every game is being set up
            # at once and each client's first state built.
            "post_ms_steady": {f"p{q}": round(percentile(
                [ms for ms, at in zip(tally.post_ms, tally.post_at, strict=True)
                 if at >= start + warmup], q / 100), 1) for q in (50, 95, 99)},
            "warmup_s": warmup,
            "push_ms": {f"p{q}": round(percentile(tally.push_ms, q / 100), 1)
                        for q in (50, 95, 99)},
            # The server process's CPU (every thread: HTTP, pushes, the AI) per action.
            "server_cpu_ms_per_action": round(1000 * cpu / max(1, tally.steps), 2),
            "server_cpu_s": round(cpu, 1),
            # The clients' own CPU (this process: 50 threads parsing pushes share one
            # interpreter lock, so a busy client also lengthens the latencies it measures).
            "client_cpu_s": round(mine, 1),
            "load_average": {"before": round(load0, 1),
                             "after": round(os.getloadavg()[0], 1)},
            "rss_mib": {"before": rss0 // 1024, "after": rss1 // 1024, "peak": peak // 1024},
            "errors": errors}


def _line(label: str, out: Mapping[str, Any]) -> str:
    """One run's figures on a line (the side-by-side table)."""
    post, push, load = out["post_ms"], out["push_ms"], out["load_average"]
    steady = out["post_ms_steady"]
    return (f"{label:>8} {out['actions_per_s']:8.1f} {post['p50']:7.0f} {post['p95']:7.0f} "
            f"{post['p99']:7.0f} {steady['p95']:8.0f} {push['p95']:8.0f} "
            f"{out['server_cpu_ms_per_action']:8.2f} "
            f"{load['before']:5.1f}-{load['after']:<5.1f} {len(out['errors']):3d}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--game", default="boc/day1", help="system/scenario (default boc/day1)")
    ap.add_argument("--scenario", default=None, help="the scenario of --game's system")
    ap.add_argument("--agent", default="random", help="the server's AI (random, general...)")
    ap.add_argument("--ai-budget", type=float, default=0.5)
    ap.add_argument("--warmup", type=float, default=10.0, metavar="S",
                    help="seconds left out of the steady round trip figures")
    ap.add_argument("--think", type=float, default=0.0, metavar="S",
                    help="the person's mean thinking time before each action (0 to 2 S, "
                         "uniform); default 0: each acts the moment its push arrives")
    ap.add_argument("--before", metavar="COMMIT",
                    help="also run the server of this earlier commit, side by side")
    ap.add_argument("--after", metavar="COMMIT",
                    help="run this commit's server as 'now' rather than the working tree "
                         "(which others may be editing)")
    ap.add_argument("--server-only", action="store_true",
                    help="with --before: 'before' is the 'now' tree (--after, else HEAD) with "
                         "only src/gettysburg/server taken from --before, so the rules "
                         "engines changed since do not count")
    ap.add_argument("--rounds", type=int, default=1,
                    help="with --before: how many times to run each, alternating")
    ap.add_argument("--quick", action="store_true",
                    help="50 games, 30 s a run, one round (about two minutes with --before)")
    args = ap.parse_args()
    if args.quick:
        args.games, args.seconds, args.rounds = 50, 30.0, 1
    system, _, scenario = args.game.partition("/")
    scenario = args.scenario or scenario or "day1"
    runs: list[tuple[str, dict[str, Any]]] = []
    with tempfile.TemporaryDirectory(prefix="gettysburg-before-") as tmp:
        src = now = None
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from commit_src import extract

        if args.after or (args.before and args.server_only):
            now = extract(args.after or "HEAD", Path(tmp) / "after")
        if args.before and args.server_only and now is not None:
            src = extract(args.after or "HEAD", Path(tmp) / "before")
            old = extract(args.before, Path(tmp) / "old") / "gettysburg" / "server"
            shutil.rmtree(src / "gettysburg" / "server")
            shutil.copytree(old, src / "gettysburg" / "server")
        elif args.before:
            src = extract(args.before, Path(tmp) / "before")
        for k in range(args.rounds if src is not None else 1):
            # Alternate which goes first, so a change in the machine's load between
            # neighbouring runs falls on both.
            order = [("now", now), ("before", src)] if src is not None else [("now", now)]
            for label, tree in order[::-1] if k % 2 else order:
                out = run_load(args.games, args.seconds, scenario, args.agent,
                               args.ai_budget, system, tree, args.think, args.warmup)
                runs.append((label, out))
                print(json.dumps({"run": label, **out}, indent=2), flush=True)
    print(f"\n{args.games} games of {system}/{scenario} for {args.seconds:.0f} s, "
          f"{args.agent} AI, thinking {args.think:g} s; machine: {os.cpu_count()} CPUs"
          + (f"; before = {args.before}" if args.before else "")
          + (" (its server only)" if args.before and args.server_only else "")
          + (f"; now = {args.after or 'HEAD'}" if now is not None
             else "; now = the working tree"))
    print(f"{'run':>8} {'act/s':>8} {'rt p50':>7} {'rt p95':>7} {'rt p99':>7} "
          f"{'p95 warm':>8} {'push p95':>8} {'cpu ms/a':>8} {'load':>11} {'err':>3}")
    for label, out in runs:
        print(_line(label, out))


if __name__ == "__main__":
    main()
