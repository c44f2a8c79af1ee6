"""The store of hosted games: SQLite (the default) or PostgreSQL, one interface.

A game row holds how the game was set up (system, scenario, options, seed) and its
status; a seat row holds who plays a seat (human or AI agent) and the SHA-256 of its
secret token (the token itself is never stored); the actions table holds every applied
action with the dice it consumed and the state hash it led to. The game itself is never
stored: it is rebuilt by replaying the actions, which also proves the stored history is
consistent (each replayed state hash must match).

``Store(target)`` opens a SQLite file (a path, ``sqlite:///path`` or ``:memory:``) or a
PostgreSQL database (``postgresql://…``); the two backends differ only in how they connect,
check and create the schema (``store_sqlite.py``, ``store_postgres.py``). Every write that
belongs together (an action and the game's new status) is one transaction. Problems with
the database itself raise :class:`StoreError` naming the database and what is wrong; a
row that cannot be read raises :class:`RowError` naming the game. See docs/storage.md.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from gettysburg.server.store_schema import (
    ADDED,
    COLUMNS,
    SCHEMA_VERSION,
    TABLES,
    Row,
    RowError,
    StoreError,
    create_tables,
)

__all__ = ["COLUMNS", "SCHEMA_VERSION", "TABLES", "ActionRow", "Backend", "GameRow", "Row",
           "RowError", "SeatRow", "Store", "StoreError", "create_tables"]

@dataclass(frozen=True)
class SeatRow:
    seat: str
    kind: str  # "human" or "ai"
    agent: str | None
    agent_seed: str | None
    token_hash: str
    joined: bool = False  # its link has been used (only its player may change it now)


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
    dice_chosen: bool = False  # someone could know the dice before play (the seed was read)


@dataclass(frozen=True)
class ActionRow:
    index: int
    seat: str
    action: dict[str, Any]
    action_id: str
    dice: list[int]
    state_hash: str



@dataclass
class _Append:
    """An action waiting for its commit (``Store.append_action``)."""

    game_id: str
    row: ActionRow
    status: str
    result: dict[str, Any] | None
    finished: bool = False
    error: BaseException | None = None


class Backend(Protocol):
    """What a database driver provides (SQL uses ``?`` placeholders throughout)."""

    kind: str  # "sqlite" or "postgresql"
    where: str  # the database as shown in messages (a path, or a URL without password)
    seat_order: str  # the column that keeps seats in insertion order
    errors: tuple[type[Exception], ...]  # the driver's own exceptions

    def query(self, sql: str, params: Sequence[object] = ()) -> list[Row]: ...
    def transaction(self) -> AbstractContextManager[None]: ...
    def columns(self, table: str) -> set[str]: ...
    def close(self) -> None: ...


def is_postgres(target: str | Path) -> bool:
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


def sqlite_path(target: str | Path) -> str:
    """The file a SQLite target names: a path, ``sqlite:///abs/path`` or ``:memory:``."""
    text = str(target)
    if text.startswith("sqlite://"):
        text = text[len("sqlite://"):]
        if not text:
            raise StoreError("sqlite:// needs a path, e.g. sqlite:///var/lib/gettysburg/games.db")
    return text


def _undecoded(text: str) -> bool:
    """Whether ``text`` came from stored bytes that are not UTF-8 (a flipped bit in a page:
    the SQLite backend reads them with ``surrogateescape``, so they show as surrogates)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _json(game_id: str, what: str, text: object, index: int | None = None) -> Any:
    if not isinstance(text, str):
        raise RowError(game_id, f"game {game_id}: {what} is {text!r}, not JSON text", index)
    if _undecoded(text):
        raise RowError(game_id, f"game {game_id}: {what} holds bytes that are not UTF-8 "
                                "text (a damaged page)", index)
    try:
        return json.loads(text)
    except ValueError as exc:
        raise RowError(game_id, f"game {game_id}: {what} is not valid JSON ({exc})",
                       index) from None


def _text(game_id: str, what: str, value: object, index: int | None = None) -> str:
    if not isinstance(value, str):
        raise RowError(game_id, f"game {game_id}: {what} is {value!r}, not text", index)
    if _undecoded(value):
        raise RowError(game_id, f"game {game_id}: {what} holds bytes that are not UTF-8 "
                                "text (a damaged page)", index)
    return value


class Store:
    """Thread-safe access to one database (one connection, serialised by a lock)."""

    def __init__(self, target: str | Path) -> None:
        if is_postgres(target):
            from gettysburg.server.store_postgres import PostgresBackend

            self._db: Backend = PostgresBackend(str(target))
        else:
            from gettysburg.server.store_sqlite import SqliteBackend

            self._db = SqliteBackend(sqlite_path(target))
        self.kind, self.where = self._db.kind, self._db.where
        self.path = self.where  # kept for callers that print where games are stored
        self._lock = threading.RLock()
        # Group commit of actions (append_action): the queue, and whether a commit of it
        # is under way, guarded by ``_group``.
        self._group = threading.Condition(threading.Lock())
        self._queue: list[_Append] = []
        self._writing = False
        try:
            self._check_schema()
        except BaseException:
            self._db.close()
            raise

    def _check_schema(self) -> None:
        for table, added in ADDED.items():
            have = self._db.columns(table)
            if COLUMNS[table] - set(added) <= have:  # ours, written before these columns
                for name, sql in added.items():
                    if name not in have:
                        self._db.query(f"ALTER TABLE {table} ADD COLUMN {name} {sql}")
        for table, wanted in COLUMNS.items():
            missing = wanted - self._db.columns(table) - set(ADDED.get(table, {}))
            if missing:
                raise StoreError(f"{self.where}: table {table} lacks column(s) "
                                 f"{', '.join(sorted(missing))}: not a gettysburg games "
                                 "database, or a damaged one")
        rows = self._db.query("SELECT value FROM meta WHERE key = 'schema'")
        version = rows[0]["value"] if rows else None
        if version is None or not str(version).isdigit():
            raise StoreError(f"{self.where}: meta.schema is {version!r}, not a version number")
        if int(version) > SCHEMA_VERSION:
            raise StoreError(f"{self.where}: written by a newer gettysburg (schema {version}; "
                             f"this one reads up to {SCHEMA_VERSION})")

    def damage(self) -> list[str]:
        """What SQLite's ``integrity_check`` finds wrong with the file (empty: nothing, or
        PostgreSQL, which checks its own pages). Asked when a read fails, to tell a damaged
        file (the game stays damaged) from a database that is out for a moment."""
        if self.kind != "sqlite":
            return []
        try:
            rows = self._query("PRAGMA integrity_check(10)")
        except StoreError as exc:
            return [str(exc)]
        found = [" ".join(str(v).split()) for r in rows for v in r.values()]
        return [] if found == ["ok"] else found

    def secret(self) -> bytes:
        """This database's own random secret (made on first use, kept in ``meta``): the
        server derives each game's fog secret from it, so no player can compute what the
        fog hides from anything they chose or can read (docs/security.md)."""
        with self._tx() as db:
            db.query("INSERT INTO meta (key, value) VALUES ('secret', ?)"
                     " ON CONFLICT (key) DO NOTHING", (secrets.token_hex(32),))
            rows = db.query("SELECT value FROM meta WHERE key = 'secret'")
        value = str(rows[0]["value"]) if rows else ""
        try:
            key = bytes.fromhex(value)
        except ValueError:
            key = b""
        if len(key) < 16:
            raise StoreError(f"{self.where}: meta.secret is not a secret this server wrote")
        return key

    def close(self) -> None:
        with self._lock:
            self._db.close()

    @contextmanager
    def _tx(self) -> Iterator[Backend]:
        """One transaction: everything in it commits together or not at all. A database
        error (lost connection, full disk, a constraint) becomes a :class:`StoreError`."""
        with self._lock:
            try:
                with self._db.transaction():
                    yield self._db
            except self._db.errors as exc:
                raise StoreError(f"{self.where}: {' '.join(str(exc).split())}") from exc

    def _query(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        with self._lock:
            try:
                return self._db.query(sql, params)
            except self._db.errors as exc:
                raise StoreError(f"{self.where}: {' '.join(str(exc).split())}") from exc

    # --- games --------------------------------------------------------------------------

    def create_game(self, game_id: str, system: str, scenario: str, options: Sequence[str],
                    seed: str, seats: Sequence[SeatRow], actions: Sequence[ActionRow] = (),
                    parent: str | None = None, parent_step: int | None = None,
                    status: str = "active", result: dict[str, Any] | None = None,
                    dice_chosen: bool = False) -> None:
        """A new game with its seats and any actions already played (a branch or an imported
        save), all in one transaction."""
        now = time.time()
        with self._tx() as db:
            db.query("INSERT INTO games (id, system, scenario, options, seed, status, result,"
                     " parent, parent_step, created, updated, dice_chosen)"
                     " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                     (game_id, system, scenario, json.dumps(list(options)), seed, status,
                      None if result is None else json.dumps(result), parent, parent_step,
                      now, now, 1 if dice_chosen else 0))
            for s in seats:
                db.query("INSERT INTO seats (game_id, seat, kind, agent, agent_seed, token_hash)"
                         " VALUES (?, ?, ?, ?, ?, ?)",
                         (game_id, s.seat, s.kind, s.agent, s.agent_seed, s.token_hash))
            for a in actions:
                self._insert_action(db, game_id, a, now)

    @staticmethod
    def _game(row: Row) -> GameRow:
        gid = str(row["id"])
        options = _json(gid, "games.options", row["options"])
        if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
            raise RowError(gid, f"game {gid}: games.options is not a list of strings")
        result = None if row["result"] is None else _json(gid, "games.result", row["result"])
        if result is not None and not isinstance(result, dict):
            raise RowError(gid, f"game {gid}: games.result is not a JSON object")
        if row["status"] not in ("active", "finished"):
            raise RowError(gid, f"game {gid}: games.status is {row['status']!r}, "
                                "not active or finished")
        return GameRow(id=gid, system=_text(gid, "games.system", row["system"]),
                       scenario=_text(gid, "games.scenario", row["scenario"]),
                       options=options, seed=_text(gid, "games.seed", row["seed"]),
                       status=row["status"], result=result,
                       parent=row["parent"], parent_step=row["parent_step"],
                       created=float(row["created"]), updated=float(row["updated"]),
                       dice_chosen=bool(row.get("dice_chosen")))

    def game(self, game_id: str) -> GameRow | None:
        rows = self._query("SELECT * FROM games WHERE id = ?", (game_id,))
        return self._game(rows[0]) if rows else None

    def game_ids(self, status: str | None = None) -> list[str]:
        """Game ids in creation order (no row is parsed, so one bad row hides nothing)."""
        if status is None:
            rows = self._query("SELECT id FROM games ORDER BY created, id")
        else:
            rows = self._query("SELECT id FROM games WHERE status = ? ORDER BY created, id",
                               (status,))
        return [str(r["id"]) for r in rows]

    def games(self, status: str | None = None) -> list[GameRow]:
        """Every game row (raises :class:`RowError` on the first that cannot be read)."""
        out = []
        for gid in self.game_ids(status):
            row = self.game(gid)
            if row is not None:
                out.append(row)
        return out

    def seats(self, game_id: str) -> list[SeatRow]:
        rows = self._query(f"SELECT * FROM seats WHERE game_id = ? ORDER BY {self._db.seat_order}",
                           (game_id,))
        out = []
        for r in rows:
            if r["kind"] not in ("human", "ai"):
                raise RowError(game_id, f"game {game_id}: seat {r['seat']!r} has kind "
                                        f"{r['kind']!r}, not human or ai")
            out.append(SeatRow(seat=_text(game_id, "seats.seat", r["seat"]), kind=r["kind"],
                               agent=r["agent"], agent_seed=r["agent_seed"],
                               token_hash=_text(game_id, "seats.token_hash", r["token_hash"]),
                               joined=bool(r.get("joined"))))
        return out

    def mark_joined(self, game_id: str, seat: str) -> None:
        """The seat's link has been used: from now on only its player may change it."""
        with self._tx() as db:
            db.query("UPDATE seats SET joined = 1 WHERE game_id = ? AND seat = ?",
                     (game_id, seat))

    def set_token(self, game_id: str, seat: str, token_hash: str, *, joined: bool,
                  unless_joined: bool = False) -> bool:
        """Give the seat a new link (the old one stops working); with ``unless_joined``
        only if nobody has used its link yet. Whether it was changed."""
        with self._tx() as db:
            if unless_joined:
                rows = db.query("SELECT joined FROM seats WHERE game_id = ? AND seat = ?",
                                (game_id, seat))
                if not rows or rows[0]["joined"]:
                    return False
            db.query("UPDATE seats SET token_hash = ?, joined = ? WHERE game_id = ? AND seat = ?",
                     (token_hash, 1 if joined else 0, game_id, seat))
        return True

    # --- actions ------------------------------------------------------------------------

    @staticmethod
    def _insert_action(db: Backend, game_id: str, a: ActionRow, now: float) -> None:
        db.query("INSERT INTO actions (game_id, idx, seat, action, action_id, dice, state_hash,"
                 " created) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                 (game_id, a.index, a.seat, json.dumps(a.action, sort_keys=True),
                  a.action_id, json.dumps(a.dice), a.state_hash, now))

    def append_action(self, game_id: str, a: ActionRow, status: str,
                      result: dict[str, Any] | None) -> None:
        """Record one applied action and the game's status; the action is acknowledged to
        the client only after this returns, so only once a commit holding it is durable.

        Group commit (issue 59): actions of different games that arrive while a commit is
        on its way to disk wait for it to end, then go together in the next transaction,
        one fsync for all of them. Each caller still returns only after the commit that
        holds its own action, and raises its own failure: when a shared transaction fails,
        its actions are written again one transaction each, so one bad row fails only its
        own action."""
        item = _Append(game_id, a, status, result)
        with self._group:
            self._queue.append(item)
            while self._writing and not item.finished:
                self._group.wait()
            if not item.finished:  # no commit under way: this caller writes the queue
                self._writing = True
                batch, self._queue = self._queue, []
        if not item.finished:
            try:
                self._write_group(batch)
            finally:
                with self._group:
                    for done in batch:
                        done.finished = True
                    self._writing = False
                    self._group.notify_all()
        if item.error is not None:
            raise item.error

    def _write_group(self, batch: list[_Append]) -> None:
        """Write ``batch`` in one transaction, or, if that fails, one transaction each
        (every item's ``error`` says how its own write went)."""
        try:
            self._append_all(batch)
            return
        except BaseException as exc:
            if len(batch) == 1:
                batch[0].error = exc
                return
        for item in batch:
            try:
                self._append_all([item])
            except BaseException as exc:
                item.error = exc

    def _append_all(self, batch: Sequence[_Append]) -> None:
        now = time.time()
        with self._tx() as db:
            for item in batch:
                self._insert_action(db, item.game_id, item.row, now)
                db.query("UPDATE games SET status = ?, result = ?, updated = ? WHERE id = ?",
                         (item.status, None if item.result is None
                          else json.dumps(item.result), now, item.game_id))

    def append_status(self, game_id: str, status: str, result: dict[str, Any] | None) -> None:
        with self._tx() as db:
            db.query("UPDATE games SET status = ?, result = ?, updated = ? WHERE id = ?",
                     (status, None if result is None else json.dumps(result), time.time(),
                      game_id))

    def delete_last_action(self, game_id: str, index: int) -> None:
        """Undo: drop action ``index``, which must be the last one."""
        now = time.time()
        with self._tx() as db:
            last = db.query("SELECT MAX(idx) AS last FROM actions WHERE game_id = ?",
                            (game_id,))[0]["last"]
            if last != index:
                raise ValueError(f"action {index} is not the last action ({last})")
            db.query("DELETE FROM actions WHERE game_id = ? AND idx = ?", (game_id, index))
            db.query("UPDATE games SET status = 'active', result = NULL, updated = ?"
                     " WHERE id = ?", (now, game_id))

    @staticmethod
    def _action(game_id: str, r: Row) -> ActionRow:
        index = r["idx"]
        if not isinstance(index, int):
            raise RowError(game_id, f"game {game_id}: actions.idx is {index!r}, not a number")
        where = f"action {index}"
        action = _json(game_id, f"{where}: actions.action", r["action"], index)
        if not isinstance(action, dict):
            raise RowError(game_id, f"game {game_id}: {where}: actions.action is not a JSON "
                                    "object", index)
        dice = _json(game_id, f"{where}: actions.dice", r["dice"], index)
        if not isinstance(dice, list) or not all(isinstance(d, int) for d in dice):
            raise RowError(game_id, f"game {game_id}: {where}: actions.dice is not a list of "
                                    "numbers", index)
        return ActionRow(index=index, seat=_text(game_id, f"{where}: actions.seat", r["seat"],
                                                 index),
                         action=action,
                         action_id=_text(game_id, f"{where}: actions.action_id",
                                         r["action_id"], index), dice=dice,
                         state_hash=_text(game_id, f"{where}: actions.state_hash",
                                          r["state_hash"], index))

    def actions(self, game_id: str) -> list[ActionRow]:
        rows = self._query("SELECT * FROM actions WHERE game_id = ? ORDER BY idx", (game_id,))
        return [self._action(game_id, r) for r in rows]

    def action_by_id(self, game_id: str, seat: str, action_id: str) -> ActionRow | None:
        rows = self._query("SELECT * FROM actions WHERE game_id = ? AND seat = ?"
                           " AND action_id = ?", (game_id, seat, action_id))
        return self._action(game_id, rows[0]) if rows else None
