"""What the store's two backends share with it: the schema (tables, version), the errors
and the row type. Its own module so that ``store.py`` (which picks a backend) and the
backends (which build the schema) each import this, never each other (docs/storage.md).
"""

from __future__ import annotations

from typing import Any

#: The schema version this code writes; a database from a newer version is refused.
SCHEMA_VERSION = 1

#: The store's tables, one definition for both backends: each column with its SQL type,
#: then the table's keys. ``{real}`` is a float column: each backend names its own type.
TABLES: dict[str, tuple[str, ...]] = {
    "games": ("id TEXT PRIMARY KEY", "system TEXT NOT NULL", "scenario TEXT NOT NULL",
              "options TEXT NOT NULL", "seed TEXT NOT NULL", "status TEXT NOT NULL",
              "result TEXT", "parent TEXT", "parent_step INTEGER", "created {real} NOT NULL",
              "updated {real} NOT NULL",
              # 1 when someone could know the dice before play (a seed typed in the lobby,
              # or one read from a save): both seats are told (docs/security.md).
              "dice_chosen INTEGER NOT NULL DEFAULT 0"),
    "seats": ("game_id TEXT NOT NULL REFERENCES games(id)", "seat TEXT NOT NULL",
              "kind TEXT NOT NULL", "agent TEXT", "agent_seed TEXT", "token_hash TEXT NOT NULL",
              # 1 once the seat's link was used: from then on only its player may change it.
              "joined INTEGER NOT NULL DEFAULT 0",
              "PRIMARY KEY (game_id, seat)"),
    "actions": ("game_id TEXT NOT NULL REFERENCES games(id)", "idx INTEGER NOT NULL",
                "seat TEXT NOT NULL", "action TEXT NOT NULL", "action_id TEXT NOT NULL",
                "dice TEXT NOT NULL", "state_hash TEXT NOT NULL", "created {real} NOT NULL",
                "PRIMARY KEY (game_id, idx)", "UNIQUE (game_id, seat, action_id)"),
    "meta": ("key TEXT PRIMARY KEY", "value TEXT NOT NULL"),
}
_KEYS = ("PRIMARY KEY (", "UNIQUE (")


def create_tables(real: str, extra: dict[str, str] | None = None) -> list[str]:
    """``CREATE TABLE IF NOT EXISTS`` for every table, floats as ``real``; ``extra`` adds
    a backend's own column to a table (after the columns, before the keys)."""
    out = []
    for table, lines in TABLES.items():
        columns = [c.format(real=real) for c in lines if not c.startswith(_KEYS)]
        columns += [extra[table]] if extra and table in extra else []
        keys = [c for c in lines if c.startswith(_KEYS)]
        out.append(f"CREATE TABLE IF NOT EXISTS {table} (\n    "
                   + ",\n    ".join(columns + keys) + "\n)")
    return out


#: Columns added since schema 1 went out, with their definitions: a database that has all
#: the others gets them on open (``ALTER TABLE``), so an older server's file keeps working.
ADDED: dict[str, dict[str, str]] = {"games": {"dice_chosen": "INTEGER NOT NULL DEFAULT 0"},
                                    "seats": {"joined": "INTEGER NOT NULL DEFAULT 0"}}

#: Columns each table must have (checked on open, so a foreign or damaged schema is named).
COLUMNS = {table: {c.split()[0] for c in lines if not c.startswith(_KEYS)}
           for table, lines in TABLES.items()}


class StoreError(Exception):
    """The database cannot be used (unreadable, corrupt, foreign schema, unreachable)."""


class RowError(StoreError):
    """A stored row of one game cannot be read (the other games are unaffected)."""

    def __init__(self, game_id: str, message: str, index: int | None = None) -> None:
        super().__init__(message)
        self.game_id, self.index = game_id, index



#: A row as a backend returns it: column name -> value.
Row = dict[str, Any]
