"""SQLite backend of the store (stdlib ``sqlite3``): WAL journal, ``synchronous=FULL``.

With WAL and ``synchronous=FULL`` a transaction is on disk (the WAL file fsynced) before
``COMMIT`` returns, so an action acknowledged to a client survives the process being
killed and the machine losing power. On open the file is checked (``PRAGMA quick_check``)
so a truncated or corrupt file is refused with a message instead of failing later.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from gettysburg.server.store_schema import SCHEMA_VERSION, Row, StoreError, create_tables

SCHEMA = ";\n".join([
    *create_tables("REAL"),
    f"INSERT OR IGNORE INTO meta (key, value) VALUES ('schema', '{SCHEMA_VERSION}')",
])


class SqliteBackend:
    kind = "sqlite"
    seat_order = "rowid"  # seats are listed in the order they were inserted
    errors: tuple[type[Exception], ...] = (sqlite3.Error,)

    def __init__(self, path: str) -> None:
        self.where = path
        if path != ":memory:":
            p = Path(path)
            if p.is_dir():
                raise StoreError(f"{path}: is a directory, not a database file")
            try:
                p.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(f"{path}: cannot create its folder: {exc}") from None
        try:
            self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"{path}: cannot open: {exc}") from None
        self._db.row_factory = sqlite3.Row
        # Stored bytes that are not UTF-8 (a damaged page) come back as lone surrogates for
        # the store to name as a damaged row, instead of failing the read like an outage.
        self._db.text_factory = lambda b: b.decode("utf-8", "surrogateescape")
        try:
            self._open()
        except sqlite3.Error as exc:
            self._db.close()
            raise StoreError(f"{path}: not a usable gettysburg database: {exc} (restore a "
                             "backup, or move it aside to start a new one)") from None
        except StoreError:
            self._db.close()
            raise

    def _open(self) -> None:
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")  # an acknowledged action survives a crash
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.execute("PRAGMA busy_timeout=5000")  # another process briefly writing
        problems = [" ".join(str(r[0]).split())
                    for r in self._db.execute("PRAGMA quick_check(5)").fetchall()]
        if problems != ["ok"]:
            raise StoreError(f"{self.where}: the database file is damaged (SQLite integrity "
                             f"check: {'; '.join(problems)}); restore a backup or move it "
                             "aside to start a new one")
        self._db.executescript(SCHEMA)

    def query(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        return [dict(r) for r in self._db.execute(sql, tuple(params)).fetchall()]

    @contextmanager
    def transaction(self) -> Iterator[None]:
        # IMMEDIATE takes the write lock up front, so the transaction cannot fail half-way
        # on a lock upgrade.
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def columns(self, table: str) -> set[str]:
        return {str(r[1]) for r in self._db.execute(f"PRAGMA table_info({table})").fetchall()}

    def close(self) -> None:
        self._db.close()
