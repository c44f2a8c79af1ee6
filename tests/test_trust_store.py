"""Issue 58 item 5: damage to the stored games is reported as damage (the game marked
damaged, the others served, ``serve --check`` says so), never as an outage to retry; and
the stored dice are checked on replay."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from gettysburg.server.hosting import ApiError, Host
from gettysburg.server.store import Store
from test_server_store import HUMANS, play, raw


def _two_games(db: Path) -> tuple[str, str]:
    store = Store(db)
    host = Host(store)
    good, _ = host.create("toy", "standard", [], "1", HUMANS)
    bad, _ = host.create("toy", "standard", [], "2", HUMANS)
    play(host, good, 3, "good-")
    play(host, bad, 3, "zzbad-")
    store.close()  # checkpoints the WAL: every row is in the file itself
    return good, bad


def _answers(db: Path, good: str, bad: str) -> tuple[ApiError, dict[str, str]]:
    store = Store(db)
    try:
        host = Host(store)
        with pytest.raises(ApiError) as err:
            host.load(bad)
        host.load(good)  # the other game is served
        with pytest.raises(ApiError) as again:
            host.load(bad)
        assert again.value.status == err.value.status  # remembered, not retried for ever
        problems = Host(store).check()
    finally:
        store.close()
    return err.value, problems


def _flipped(db: Path, at: int) -> Path:
    data = bytearray(db.read_bytes())
    data[at] ^= 0xFF
    out = db.with_name(f"flip-{at}.db")
    out.write_bytes(bytes(data))
    return out


def test_a_flipped_byte_in_a_row_marks_that_game_damaged(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    good, bad = _two_games(db)
    data = db.read_bytes()
    at = data.find(b"zzbad-1") + 20  # inside the row's state hash: no UTF-8 text now
    assert at > 20
    logging.disable(logging.WARNING)
    try:
        err, problems = _answers(_flipped(db, at), good, bad)
    finally:
        logging.disable(logging.NOTSET)
    assert err.status == 500 and "damaged" in err.message, (err.status, err.message)
    assert set(problems) == {bad} and "damaged" in problems[bad].lower() + err.message


def test_a_damaged_page_is_told_from_an_outage(tmp_path: Path) -> None:
    """A flip the quick check made on open misses but SQLite's integrity check finds (an
    index no longer matching its table): the game is damaged, and the check says why."""
    db = tmp_path / "games.db"
    good, bad = _two_games(db)
    data = db.read_bytes()
    start = data.find(b"zzbad-1")
    for at in range(start - 120, start):
        flipped = _flipped(db, at)
        conn = sqlite3.connect(flipped)
        try:
            quick = conn.execute("PRAGMA quick_check").fetchall()
            full = conn.execute("PRAGMA integrity_check").fetchall()
        finally:
            conn.close()
        if quick == [("ok",)] and full != [("ok",)]:
            break
    else:
        pytest.fail("no byte of this layout passes the quick check and fails the full one")
    logging.disable(logging.WARNING)
    store = Store(flipped)
    try:
        for gid in (good, bad):  # served, or damaged: never "send it again"
            try:
                Host(store).load(gid)
            except ApiError as exc:
                assert exc.status == 500 and "damaged" in exc.message, exc.message
        assert store.damage()
    finally:
        store.close()
        logging.disable(logging.NOTSET)
    from typer.testing import CliRunner

    from gettysburg.cli import app

    r = CliRunner().invoke(app, ["serve", "--check", "--db", str(flipped)])
    assert r.exit_code == 1, r.output
    assert "damaged: the database file" in r.output and "integrity check" in r.output


def test_a_changed_die_in_the_stored_dice_is_caught_on_replay(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    good, bad = _two_games(db)
    raw(str(db), "UPDATE actions SET dice = ? WHERE game_id = ? AND idx = 1", ("[6]", bad))
    logging.disable(logging.WARNING)
    try:
        err, problems = _answers(db, good, bad)
    finally:
        logging.disable(logging.NOTSET)
    assert err.status == 500 and err.rule == "store.replay", err.message
    assert "dice" in problems[bad]


def test_serve_check_reports_the_damaged_game(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from gettysburg.cli import app

    db = tmp_path / "games.db"
    _good, bad = _two_games(db)
    flipped = _flipped(db, db.read_bytes().find(b"zzbad-1") + 20)
    r = CliRunner().invoke(app, ["serve", "--check", "--db", str(flipped)])
    assert r.exit_code == 1, r.output
    assert f"damaged: game {bad}" in r.output and "1 damaged" in r.output
    assert "unavailable" not in r.output


def test_a_database_from_before_the_new_columns_gains_them(tmp_path: Path) -> None:
    """``dice_chosen`` and ``joined`` came after schema 1: an older file keeps working."""
    db = tmp_path / "games.db"
    good, _bad = _two_games(db)
    raw(str(db), "ALTER TABLE games DROP COLUMN dice_chosen")
    raw(str(db), "ALTER TABLE seats DROP COLUMN joined")
    store = Store(db)
    try:
        assert {"dice_chosen"} <= store._db.columns("games")
        assert {"joined"} <= store._db.columns("seats")
        live = Host(store).load(good)
        assert live.row.dice_chosen is False and live.step == 3
        assert not any(s.joined for s in live.seats)
    finally:
        store.close()
