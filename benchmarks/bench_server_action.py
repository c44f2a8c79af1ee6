"""Where a server action's time goes, in-process: ``.venv/bin/python
benchmarks/bench_server_action.py [--game boc/day1] [--actions 300] [--profile N]``
(``PYTHONPATH=<an earlier commit's src>`` first times that commit's server the same way).

Plays one game through :class:`gettysburg.server.hosting.Host` on a fresh SQLite store as
the server does (no HTTP, no event loop): a person's seat acts (``Host.act``), then the
push that follows is built for every seat (``push.push_message``: token check, state text,
new log entries), and an AI seat to move answers through ``Host.ai_turns``/``agent_move``
(the ``random`` agent) followed by its push. Prints CPU per handled action (process time,
which load from other jobs on the machine disturbs much less than wall clock) and, from a
cProfile of the whole run, the share of each part of the handling (store write, apply,
views, legal actions, serialisation, the log's events). The person's choice leans on
fires and melees as ``bench_load.py``'s client does.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import random
import secrets
import tempfile
import time
from pathlib import Path
from typing import Any

from gettysburg.server.hosting import Host, SeatSpec
from gettysburg.server.push import push_message
from gettysburg.server.store import Store

#: Parts of an action's handling, each the cumulative time of the outermost of the
#: functions named (file suffix, function name): a system's ``view`` may call another.
#: Parts overlap (a push builds a state, which holds a view and the legal actions), so
#: they do not add up to the total.
PARTS: dict[str, list[tuple[str, str]]] = {
    "Host.act (a person's or the AI's action)": [("server/hosting.py", "act")],
    "  store write (one action row, commit)": [("server/store.py", "append_action")],
    "  apply (rules, snapshot, state hash)": [("core/protocol.py", "apply")],
    "  state hash (of apply)": [("core/protocol.py", "state_hash")],
    "push message (token, state, log entries)": [("server/push.py", "push_message")],
    "  state built (view + legal + undo)": [("server/hosting.py", "_build_state")],
    "  state serialised (json.dumps)": [("server/hosting.py", "_state")],
    "  log entries for the push": [("server/hosting.py", "events")],
    "views (a seat's, once per position)": [("game.py", "view"), ("view.py", "view")],
    "legal actions (every call)": [("game.py", "legal_actions"),
                                   ("legality.py", "legal_actions")],
    "AI: its turn listed (ai_turns)": [("server/hosting.py", "ai_turns")],
    "AI: its choice (SeatMind.choose)": [("server/agents.py", "choose")],
    "canonical JSON (hashes, undo checks)": [("core/canonical.py", "canonical_json")],
}


def _choose(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    weights = [20 if a["type"] in ("fire", "melee") else
               max(1, len(legal) // 4) if a["type"] in ("end_phase", "pass") else 1
               for a in legal]
    return rng.choices(legal, weights)[0]


def play(spec: str, actions: int, seed: int = 1) -> dict[str, Any]:
    """Play ``actions`` handled actions (a person's and the AI's) of ``spec``; returns the
    counts and the CPU and wall time they took."""
    system, scenario = spec.split("/", 1)
    rng = random.Random(seed)
    # The store's secret and the AI seat's seed are drawn at random by the server; drawn
    # here from ``seed`` instead, so two runs (two commits) play the same game.
    drawn = random.Random(f"secrets:{seed}")
    real = secrets.token_hex

    def token_hex(nbytes: int | None = None) -> str:
        return drawn.randbytes(nbytes or 32).hex()

    secrets.token_hex = token_hex
    with tempfile.TemporaryDirectory(prefix="gettysburg-act-") as tmp:
        try:
            host = Host(Store(Path(tmp) / "games.db"))
            probe = host._fresh(system, scenario, [], "1")
            person, *others = probe.seats()
            specs = {person: SeatSpec("human"),
                     **{o: SeatSpec("ai", "random") for o in others}}
            gid, tokens = host.create(system, scenario, [], str(seed), specs)
            host._game_secret(gid)  # the store's secret, read while drawn from ``seed``
        finally:
            secrets.token_hex = real
        token = tokens[person]
        since = 0
        done = 0
        cpu0, wall0 = time.process_time(), time.perf_counter()
        while done < actions:
            text, since = push_message(host, gid, token, person, since)
            state = json.loads(text)["state"]
            if state["status"] == "finished":
                break
            if person in state["to_move"] and state["legal"]:
                host.act(gid, person, _choose(state["legal"], rng), f"a{done}")
                done += 1
                continue
            turns = host.ai_turns(gid)
            if not turns:
                break
            for seat, mind, dseed, view, legal, mark in turns:
                host.agent_move(gid, seat, mind, dseed, view, legal, mark, 0.5)
                done += 1
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
        live = host.load(gid)
        step, last = live.step, live.game.history[-1].state_hash[:12] if live.step else ""
        host.store.close()
    # ``state``: the game's state hash at the end, the same before and after a change of
    # the server that changes no choice.
    return {"game": spec, "actions": done, "step": step, "state": last,
            "cpu_s": round(cpu, 3),
            "wall_s": round(wall, 3), "cpu_ms_per_action": round(1000 * cpu / max(1, done), 2)}


def parts(stats: pstats.Stats) -> dict[str, float]:
    """Cumulative seconds of each of :data:`PARTS` in ``stats``: of the functions it
    names, the one with the most (the outermost, where one calls another)."""
    raw: dict[tuple[str, int, str], tuple[int, int, float, float, Any]] = \
        stats.stats  # type: ignore[attr-defined]
    out: dict[str, float] = {}
    for part, names in PARTS.items():
        out[part] = max([ct for (path, _line, func), (_cc, _nc, _tt, ct, _callers)
                         in raw.items()
                         if any(path.endswith(suffix) and func == name
                                for suffix, name in names)], default=0.0)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", action="append",
                    help="system/scenario (repeatable; default boc/day1 and "
                         "gbacw/little-round-top)")
    ap.add_argument("--actions", type=int, default=300)
    ap.add_argument("--profile", type=int, default=15,
                    help="top functions listed (-1: no profile, the CPU figures only)")
    args = ap.parse_args()
    for spec in args.game or ["boc/day1", "gbacw/little-round-top"]:
        figures = play(spec, args.actions)
        print(json.dumps(figures))
        if args.profile < 0:
            continue
        prof = cProfile.Profile()
        prof.enable()
        profiled = play(spec, args.actions)
        prof.disable()
        stats = pstats.Stats(prof)
        # Shares of the profiled run's wall time (the store's commit waits on the disk);
        # cProfile slows Python code, so the ms are above the unprofiled CPU figure.
        total = profiled["wall_s"] or 1.0
        n = max(1, profiled["actions"])
        print(f"  profiled: {1000 * total / n:.2f} ms/action wall, "
              f"{1000 * profiled['cpu_s'] / n:.2f} CPU")
        for part, seconds in parts(stats).items():
            print(f"  {part:42s} {1000 * seconds / n:8.2f} ms/action {100 * seconds / total:5.1f}%")
        if args.profile:
            stats.sort_stats("cumulative").print_stats(args.profile)


if __name__ == "__main__":
    main()
