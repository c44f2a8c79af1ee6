"""SQLite store for hosted games (stdlib ``sqlite3``, WAL mode).

A game row holds how the game was set up (system, scenario, options, seed) and its
status; a seat row holds who plays a seat (human or AI agent) and the SHA-256 of its
secret token (the token itself is never stored); the actions table holds every applied
action with the dice it consumed and the state hash it led to. The game itself is never
stored: it is rebuilt by replaying the actions, which also proves the stored history is
consistent (each replayed state hash must match).
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    system TEXT NOT NULL,
    scenario TEXT NOT NULL,
    options TEXT NOT NULL,
    seed TEXT NOT NULL,
    status TEXT NOT NULL,
    result TEXT,
    parent TEXT,
    parent_step INTEGER,
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    game_id TEXT NOT NULL REFERENCES games(id),
    seat TEXT NOT NULL,
    kind TEXT NOT NULL,
    agent TEXT,
    agent_seed TEXT,
    token_hash TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE TABLE IF NOT EXISTS actions (
    game_id TEXT NOT NULL REFERENCES games(id),
    idx INTEGER NOT NULL,
    seat TEXT NOT NULL,
    action TEXT NOT NULL,
    action_id TEXT NOT NULL,
    dice TEXT NOT NULL,
    state_hash TEXT NOT NULL,
    created REAL NOT NULL,
    PRIMARY KEY (game_id, idx),
    UNIQUE (game_id, seat, action_id)
);
"""


@dataclass(frozen=True)
class SeatRow:
    seat: str
    kind: str  # "human" or "ai"
    agent: str | None
    agent_seed: str | None
    token_hash: str


@dataclass(frozen=True)
class GameRow:
    id: str
    system: str
    scenario: str
    options: list[str]
    seed: str
    status: str  # "active" or "finished"
    result: dict[str, Any] | None
    parent: str | None
    parent_step: int | None
    created: float
    updated: float


@dataclass(frozen=True)
class ActionRow:
    index: int
    seat: str
    action: dict[str, Any]
    action_id: str
    dice: list[int]
    state_hash: str


class Store:
    """Thread-safe access to one SQLite file (one connection, serialised by a lock)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.row_factory = sqlite3.Row
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")  # an acknowledged action survives a crash
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    # --- games --------------------------------------------------------------------------

    def create_game(self, game_id: str, system: str, scenario: str, options: Sequence[str],
                    seed: str, seats: Sequence[SeatRow], actions: Sequence[ActionRow] = (),
                    parent: str | None = None, parent_step: int | None = None) -> None:
        now = time.time()
        with self._tx() as db:
            db.execute("INSERT INTO games (id, system, scenario, options, seed, status, result,"
                       " parent, parent_step, created, updated)"
                       " VALUES (?, ?, ?, ?, ?, 'active', NULL, ?, ?, ?, ?)",
                       (game_id, system, scenario, json.dumps(list(options)), seed, parent,
                        parent_step, now, now))
            for s in seats:
                db.execute("INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?)",
                           (game_id, s.seat, s.kind, s.agent, s.agent_seed, s.token_hash))
            for a in actions:
                self._insert_action(db, game_id, a, now)

    @staticmethod
    def _game(row: sqlite3.Row) -> GameRow:
        return GameRow(id=row["id"], system=row["system"], scenario=row["scenario"],
                       options=list(json.loads(row["options"])), seed=row["seed"],
                       status=row["status"],
                       result=None if row["result"] is None else json.loads(row["result"]),
                       parent=row["parent"], parent_step=row["parent_step"],
                       created=row["created"], updated=row["updated"])

    def game(self, game_id: str) -> GameRow | None:
        with self._lock:
            row = self._db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        return None if row is None else self._game(row)

    def games(self, status: str | None = None) -> list[GameRow]:
        with self._lock:
            if status is None:
                rows = self._db.execute("SELECT * FROM games ORDER BY created").fetchall()
            else:
                rows = self._db.execute("SELECT * FROM games WHERE status = ? ORDER BY created",
                                        (status,)).fetchall()
        return [self._game(r) for r in rows]

    def seats(self, game_id: str) -> list[SeatRow]:
        with self._lock:
            rows = self._db.execute("SELECT * FROM seats WHERE game_id = ? ORDER BY rowid",
                                    (game_id,)).fetchall()
        return [SeatRow(seat=r["seat"], kind=r["kind"], agent=r["agent"],
                        agent_seed=r["agent_seed"], token_hash=r["token_hash"]) for r in rows]

    # --- actions ------------------------------------------------------------------------

    @staticmethod
    def _insert_action(db: sqlite3.Connection, game_id: str, a: ActionRow, now: float) -> None:
        db.execute("INSERT INTO actions VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                   (game_id, a.index, a.seat, json.dumps(a.action, sort_keys=True),
                    a.action_id, json.dumps(a.dice), a.state_hash, now))

    def append_action(self, game_id: str, a: ActionRow, status: str,
                      result: dict[str, Any] | None) -> None:
        """Record one applied action and the game's status in one transaction; the action is
        acknowledged to the client only after this returns."""
        now = time.time()
        with self._tx() as db:
            self._insert_action(db, game_id, a, now)
            db.execute("UPDATE games SET status = ?, result = ?, updated = ? WHERE id = ?",
                       (status, None if result is None else json.dumps(result), now, game_id))

    def append_status(self, game_id: str, status: str, result: dict[str, Any] | None) -> None:
        with self._tx() as db:
            db.execute("UPDATE games SET status = ?, result = ?, updated = ? WHERE id = ?",
                       (status, None if result is None else json.dumps(result), time.time(),
                        game_id))

    def delete_last_action(self, game_id: str, index: int) -> None:
        """Undo: drop action ``index``, which must be the last one."""
        now = time.time()
        with self._tx() as db:
            last = db.execute("SELECT MAX(idx) FROM actions WHERE game_id = ?",
                              (game_id,)).fetchone()[0]
            if last != index:
                raise ValueError(f"action {index} is not the last action ({last})")
            db.execute("DELETE FROM actions WHERE game_id = ? AND idx = ?", (game_id, index))
            db.execute("UPDATE games SET status = 'active', result = NULL, updated = ?"
                       " WHERE id = ?", (now, game_id))

    @staticmethod
    def _action(r: sqlite3.Row) -> ActionRow:
        return ActionRow(index=r["idx"], seat=r["seat"], action=json.loads(r["action"]),
                         action_id=r["action_id"], dice=list(json.loads(r["dice"])),
                         state_hash=r["state_hash"])

    def actions(self, game_id: str) -> list[ActionRow]:
        with self._lock:
            rows = self._db.execute("SELECT * FROM actions WHERE game_id = ? ORDER BY idx",
                                    (game_id,)).fetchall()
        return [self._action(r) for r in rows]

    def action_by_id(self, game_id: str, seat: str, action_id: str) -> ActionRow | None:
        with self._lock:
            r = self._db.execute("SELECT * FROM actions WHERE game_id = ? AND seat = ?"
                                 " AND action_id = ?", (game_id, seat, action_id)).fetchone()
        return None if r is None else self._action(r)
