"""PostgreSQL backend of the store (psycopg 3), for hosted servers.

The connection runs in autocommit mode and every write group is an explicit transaction
(``BEGIN … COMMIT``), so an action row and the game's status change commit together; with
PostgreSQL's defaults (``fsync=on``, ``synchronous_commit=on``) ``COMMIT`` returns only
once the transaction is in the server's write-ahead log on disk. The schema is created on
first use under an advisory lock, so two servers starting at once do not race. A lost
connection is re-opened on the next call (the call that noticed the loss fails, and the
server rebuilds that game from the store).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from gettysburg.server.store_schema import SCHEMA_VERSION, Row, StoreError, create_tables

try:
    import psycopg
    from psycopg.conninfo import conninfo_to_dict, make_conninfo
    from psycopg.rows import dict_row
except ImportError:  # pragma: no cover - the "postgres" extra is not installed
    psycopg = None  # type: ignore[assignment]

# Seats keep the order they were written in (SQLite has its rowid for that).
SCHEMA = [
    *create_tables("DOUBLE PRECISION", {"seats": "pos BIGSERIAL"}),
    f"INSERT INTO meta (key, value) VALUES ('schema', '{SCHEMA_VERSION}')"
    " ON CONFLICT (key) DO NOTHING",
]

#: Advisory lock key held while creating the schema ("gettysburg" in ASCII, truncated).
SCHEMA_LOCK = 0x6765747479


def redact(url: str) -> str:
    """The URL without its password, for messages and logs."""
    try:
        params = conninfo_to_dict(url)
    except Exception:
        return url.split("@")[-1] if "@" in url else url
    host, port, db = params.get("host", ""), params.get("port", ""), params.get("dbname", "")
    user = params.get("user")
    login = f"{user}@" if user else ""
    return f"postgresql://{login}{host}{f':{port}' if port else ''}/{db}"


class PostgresBackend:
    kind = "postgresql"
    seat_order = "pos"
    errors: tuple[type[Exception], ...] = () if psycopg is None else (psycopg.Error,)

    def __init__(self, url: str) -> None:
        if psycopg is None:
            raise StoreError("PostgreSQL needs psycopg: pip install 'gettysburg[postgres]'")
        self.url = url
        self.where = redact(url)
        self._in_tx = False
        self._db = self._connect()
        try:
            with self.transaction():
                self.query("SELECT pg_advisory_xact_lock(?)", (SCHEMA_LOCK,))
                for statement in SCHEMA:
                    self.query(statement)
        except psycopg.Error as exc:
            self._db.close()
            raise StoreError(f"{self.where}: cannot create the schema: {exc}") from None

    def _connect(self) -> psycopg.Connection[Row]:
        # The sessions show as "gettysburg" in pg_stat_activity unless the URL names them.
        named = "application_name" in conninfo_to_dict(self.url)
        try:
            conn: psycopg.Connection[Row] = psycopg.connect(
                self.url if named else make_conninfo(self.url, application_name="gettysburg"),
                autocommit=True, row_factory=dict_row, connect_timeout=10)
        except psycopg.Error as exc:
            raise StoreError(f"{self.where}: cannot connect: {str(exc).strip()}") from None
        return conn

    def _conn(self) -> psycopg.Connection[Row]:
        if self._db.closed or self._db.broken:
            self._db = self._connect()
        return self._db

    def query(self, sql: str, params: Sequence[object] = ()) -> list[Row]:
        try:
            return self._query(sql, params)
        except psycopg.OperationalError:
            # A read outside a transaction on a connection that just broke (server
            # restarted, idle connection dropped) is safe to repeat once on a new one.
            if self._in_tx or not self._db.broken or not sql.lstrip().startswith("SELECT"):
                raise
            return self._query(sql, params)

    def _query(self, sql: str, params: Sequence[object]) -> list[Row]:
        # The store writes "?" placeholders (SQLite's); psycopg takes "%s".
        cur = self._conn().execute(sql.replace("?", "%s"), tuple(params))
        if cur.description is None:
            return []
        rows: list[dict[str, Any]] = cur.fetchall()
        return rows

    @contextmanager
    def transaction(self) -> Iterator[None]:
        with self._conn().transaction():
            self._in_tx = True
            try:
                yield
            finally:
                self._in_tx = False

    def columns(self, table: str) -> set[str]:
        rows = self.query("SELECT column_name FROM information_schema.columns"
                          " WHERE table_schema = current_schema() AND table_name = ?",
                          (table,))
        return {str(r["column_name"]) for r in rows}

    def close(self) -> None:
        self._db.close()
