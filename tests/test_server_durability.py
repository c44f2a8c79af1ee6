"""Durability: the real server process is SIGKILLed while actions are being posted, then
restarted on the same database (SQLite and PostgreSQL).

A client thread plays Badges of Courage Day 1 (both seats human, the first legal action
each time) while a second thread keeps re-sending the last acknowledged action with its
id (the browser's retry). The server is killed at a random moment, or just after an
action was sent so that the kill lands while the request is in flight. Afterwards:

* every action acknowledged with HTTP 2xx is stored, at the index the server answered,
  exactly once and unchanged;
* the action whose answer never came is either stored whole (at the next index) or not at
  all; re-sending it with the same id after the restart applies it exactly once either way;
* the stored actions are numbered 0..n-1 without gaps and the restarted server replays
  them to the same state hashes (otherwise it would answer 500 ``store.replay``);
* the game goes on.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from gettysburg.server.store import Store
from pg_server import db_target, free_port

__all__ = ["db_target"]

GETTYSBURG = Path(sys.executable).parent / "gettysburg"
#: Kills per store: one at a random moment, two just after a POST was sent, one as soon as
#: the POSTed action's row is committed (before the server can answer).
ROUNDS = 4


class ServerProcess:
    """``gettysburg serve`` in a child process, on a free port."""

    def __init__(self, db: str, log: Path, args: Sequence[str] = ()) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log
        with log.open("a") as out:
            self.proc = subprocess.Popen(
                [str(GETTYSBURG), "serve", "--port", str(self.port), "--db", server_db(db),
                 *args],
                stdout=out, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"server exited {self.proc.returncode}:\n{log.read_text()}")
            try:
                if httpx.get(f"{self.url}/api/systems", timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.kill()
        raise AssertionError(f"server did not answer within 90 s:\n{log.read_text()}")

    def kill(self) -> None:
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=30)


@dataclass
class Sent:
    seat: str
    action: dict[str, Any]
    action_id: str
    index: int | None = None  # the index the server acknowledged (None: no answer)


@dataclass
class Client:
    """Plays the game over HTTP, recording what it sent and what was acknowledged."""

    url: str
    game_id: str
    tokens: dict[str, str]
    sent: list[Sent] = field(default_factory=list)
    posting: threading.Event = field(default_factory=threading.Event)
    stop: threading.Event = field(default_factory=threading.Event)
    retries: int = 0
    errors: list[BaseException] = field(default_factory=list)

    def guard(self, work: Any, *args: Any) -> None:
        """Run ``work`` in a thread, keeping its failure for the test to raise."""
        try:
            work(*args)
        except BaseException as exc:
            self.errors.append(exc)

    def headers(self, seat: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[seat]}"}

    def mover(self, http: httpx.Client) -> tuple[str, list[dict[str, Any]]]:
        for seat in self.tokens:
            r = http.get(f"{self.url}/api/games/{self.game_id}/legal", headers=self.headers(seat))
            r.raise_for_status()
            if r.json()["legal"]:
                return seat, r.json()["legal"]
        raise AssertionError("nobody can move")

    def post(self, http: httpx.Client, s: Sent) -> httpx.Response:
        return http.post(f"{self.url}/api/games/{self.game_id}/actions",
                         headers=self.headers(s.seat),
                         json={"action": s.action, "action_id": s.action_id})

    def play(self, tag: str) -> None:
        """Post actions until the server goes away (or ``stop``)."""
        with httpx.Client(timeout=30) as http:
            try:
                for k in range(10_000):
                    if self.stop.is_set():
                        return
                    seat, legal = self.mover(http)
                    s = Sent(seat, legal[0], f"{tag}-{k}")
                    self.sent.append(s)
                    self.posting.set()  # the kill may land from here on
                    r = self.post(http, s)
                    assert r.status_code == 200, r.text
                    assert r.json()["duplicate"] is False
                    s.index = int(r.json()["index"])
            except httpx.TransportError:
                return  # the server was killed

    def retry_acknowledged(self) -> None:
        """Keep re-sending the last acknowledged action with its id: always a duplicate."""
        with httpx.Client(timeout=30) as http:
            while not self.stop.is_set():
                done = [s for s in self.sent if s.index is not None]
                if not done:
                    time.sleep(0.01)
                    continue
                try:
                    r = self.post(http, done[-1])
                except httpx.TransportError:
                    return
                assert r.status_code == 200, r.text
                assert r.json()["duplicate"] is True and r.json()["index"] == done[-1].index
                self.retries += 1


SERVER_APP = "gettysburg-durability"  # the served store's sessions, named in its URL


def server_db(db: str) -> str:
    """The database as the server process gets it (PostgreSQL: sessions named)."""
    if not db.startswith("postgresql://"):
        return db
    return f"{db}{'&' if '?' in db else '?'}application_name={SERVER_APP}"


def wait_for_disconnect(db: str) -> None:
    """PostgreSQL may still be committing what the killed server sent just before it died
    (its backend reads the socket up to the end): wait until that backend has gone."""
    if not db.startswith("postgresql://"):
        return
    import psycopg

    with psycopg.connect(db, autocommit=True) as conn:
        for _ in range(300):
            row = conn.execute("SELECT count(*) FROM pg_stat_activity"
                               " WHERE application_name = %s", (SERVER_APP,)).fetchone()
            if row is not None and row[0] == 0:
                return
            time.sleep(0.05)
    raise AssertionError("the killed server's PostgreSQL session did not end")


def wait_for_row(db: str, action_id: str) -> None:
    """Poll the database (as a second reader) until the action's row is committed."""
    sql = "SELECT 1 FROM actions WHERE action_id = ?"
    if db.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(db, autocommit=True) as conn:
            for _ in range(100_000):
                if conn.execute(sql.replace("?", "%s"), (action_id,)).fetchone():
                    return
        raise AssertionError(f"{action_id} was never committed")
    import sqlite3

    conn2 = sqlite3.connect(db)
    try:
        for _ in range(100_000):
            if conn2.execute(sql, (action_id,)).fetchone():
                return
    finally:
        conn2.close()
    raise AssertionError(f"{action_id} was never committed")


def check_stored(db: str, ledger: list[Sent], client: Client) -> tuple[int, bool]:
    """Compare the store with what the clients saw (``ledger``: every action acknowledged
    in earlier rounds); returns (actions stored, whether this round's unanswered action,
    if any, was stored)."""
    store = Store(db)
    try:
        rows = store.actions(client.game_id)
    finally:
        store.close()
    assert [r.index for r in rows] == list(range(len(rows))), "gaps in the stored actions"
    assert len({(r.seat, r.action_id) for r in rows}) == len(rows), "an action stored twice"
    by_id = {r.action_id: r for r in rows}
    acked = ledger + [s for s in client.sent if s.index is not None]
    for s in acked:
        stored = by_id.get(s.action_id)
        assert stored is not None, f"acknowledged action {s.action_id} was lost"
        assert (stored.index, stored.seat, stored.action) == (s.index, s.seat, s.action)
    pending = [s for s in client.sent if s.index is None]
    assert len(pending) <= 1
    kept = bool(pending) and pending[0].action_id in by_id
    if kept:
        stored = by_id[pending[0].action_id]
        assert (stored.seat, stored.action) == (pending[0].seat, pending[0].action)
        assert stored.index == len(rows) - 1
    assert len(rows) == len(acked) + int(kept)
    return len(rows), kept


def test_sigkill_loses_no_acknowledged_action(db_target: str, tmp_path: Path) -> None:
    rounds = ROUNDS
    log = tmp_path / "server.log"
    rng = random.Random(20260704)
    server = ServerProcess(db_target, log)
    try:
        r = httpx.post(f"{server.url}/api/games", timeout=60,
                       json={"system": "boc", "scenario": "day1", "seed": "1863",
                             "seats": {"usa": {"kind": "human"}, "csa": {"kind": "human"}}})
        assert r.status_code == 201, r.text
        game_id = r.json()["game_id"]
        tokens = {s: v["token"] for s, v in r.json()["seats"].items()}
        stored, in_flight, kept_total, retries = 0, 0, 0, 0
        ledger: list[Sent] = []
        for round_no in range(rounds):
            client = Client(server.url, game_id, tokens)
            players = [threading.Thread(target=client.guard, args=(client.play, f"r{round_no}")),
                       threading.Thread(target=client.guard, args=(client.retry_acknowledged,))]
            for t in players:
                t.start()
            if round_no == 0:
                time.sleep(rng.uniform(0.5, 2.0))  # anywhere: mid-GET, mid-POST, idle
            else:
                time.sleep(rng.uniform(0.3, 1.0))
                client.posting.clear()
                assert client.posting.wait(30)
                if round_no < rounds - 1:
                    time.sleep(rng.uniform(0.0, 0.008))  # the POST just sent is in flight
                else:  # the moment its row is committed, before the answer is sent
                    wait_for_row(db_target, client.sent[-1].action_id)
            server.kill()
            client.stop.set()
            for t in players:
                t.join(60)
                assert not t.is_alive()
            assert not client.errors, client.errors
            wait_for_disconnect(db_target)
            n, kept = check_stored(db_target, ledger, client)
            ledger += [s for s in client.sent if s.index is not None]
            assert n > stored, "no progress in this round"
            stored = n
            pending = [s for s in client.sent if s.index is None]
            in_flight += len(pending)
            kept_total += int(kept)
            retries += client.retries
            server = ServerProcess(db_target, log)
            client.url = server.url  # the browser reconnects to the restarted server
            with httpx.Client(timeout=60) as http:
                state = http.get(f"{server.url}/api/games/{game_id}",
                                 headers=client.headers("usa"))
                assert state.status_code == 200, state.text  # replayed, hashes matched
                assert state.json()["step"] == stored
                for s in pending:  # the browser re-sends what got no answer, same id
                    r = client.post(http, s)
                    assert r.status_code == 200, r.text
                    assert r.json()["duplicate"] is kept
                    assert r.json()["index"] == (stored - 1 if kept else stored)
                    stored += 0 if kept else 1
                    s.index = r.json()["index"]
                    ledger.append(s)
        # The game goes on after the last restart.
        client = Client(server.url, game_id, tokens)
        with httpx.Client(timeout=60) as http:
            for k in range(3):
                seat, legal = client.mover(http)
                r = client.post(http, Sent(seat, legal[0], f"after-{k}"))
                assert r.status_code == 200 and r.json()["index"] == stored + k, r.text
        kind = "postgresql" if db_target.startswith("postgresql:") else "sqlite"
        print(f"\n{kind}: {rounds} kills, {stored + 3} actions stored, "
              f"{in_flight} posts cut off by the kill ({kept_total} of them committed), "
              f"{retries} duplicate retries answered")
    except BaseException:
        print(log.read_text() if log.exists() else "(no server log)")
        raise
    finally:
        server.kill()


def test_the_server_starts_with_a_damaged_game_and_serves_the_others(db_target: str,
                                                                     tmp_path: Path) -> None:
    from gettysburg.server.hosting import Host
    from test_server_store import HUMANS, play, raw

    store = Store(db_target)
    host = Host(store)
    good, good_tokens = host.create("toy", "standard", [], "1", HUMANS)
    bad, bad_tokens = host.create("toy", "standard", [], "2", HUMANS)
    for gid in (good, bad):
        play(host, gid, 3)
    store.close()
    raw(db_target, "UPDATE actions SET action = ? WHERE game_id = ? AND idx = 1",
        ('{"type": "attack", "block": "nobody"}', bad))
    log = tmp_path / "server.log"
    server = ServerProcess(db_target, log)
    try:
        with httpx.Client(timeout=60) as http:
            r = http.get(f"{server.url}/api/games/{bad}",
                         headers={"Authorization": f"Bearer {bad_tokens['red']}"})
            assert r.status_code == 500, r.text
            assert r.json()["error"]["rule"] == "store.replay"
            message = r.json()["error"]["message"]
            assert f"game {bad} is damaged: its stored action 1 does not replay" in message
            assert "nobody" not in message  # the replay's own words go to the log only
            client = Client(server.url, good, good_tokens)
            seat, legal = client.mover(http)
            r = client.post(http, Sent(seat, legal[0], "go-on"))
            assert r.status_code == 200 and r.json()["index"] == 3, r.text
    finally:
        server.kill()
    text = log.read_text()
    assert f"game {bad} is not served: game {bad}: stored action 1" in text
    assert "Traceback" not in text
