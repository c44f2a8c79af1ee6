"""The store over SQLite and PostgreSQL (the same tests run against both), its refusals of
damaged databases and rows, and a few server API tests on each store.

The PostgreSQL cases use the throwaway server of ``tests/pg_server.py`` and skip, saying how
to install it, where the PostgreSQL binaries are missing.
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from gettysburg.cli import app as cli_app
from gettysburg.server.hosting import ApiError, Host, SeatSpec
from gettysburg.server.store import ActionRow, RowError, SeatRow, Store, StoreError
from pg_server import cluster, db_target
from test_server_api import Server, auth

__all__ = ["db_target"]  # the fixture, imported so pytest finds it here

HUMANS = {"red": SeatSpec("human"), "blue": SeatSpec("human")}


def seats() -> list[SeatRow]:
    return [SeatRow("red", "human", None, None, "a" * 64),
            SeatRow("blue", "ai", "random", "s1", "b" * 64)]


def row(i: int, action_id: str | None = None) -> ActionRow:
    return ActionRow(i, "red", {"type": "pass", "n": i}, action_id or f"id{i}", [i % 6 + 1],
                     f"{i:064x}")


def play(host: Host, game_id: str, n: int, prefix: str = "a") -> None:
    """Apply ``n`` legal actions (the first listed for whoever is to move)."""
    live = host.load(game_id)
    for k in range(n):
        seat = live.game.to_move()[0]
        host.act(game_id, seat, live.game.legal_actions(seat)[0], f"{prefix}{k}")


def raw(target: str, sql: str, params: tuple[Any, ...] = ()) -> None:
    """Run SQL on the database behind the store's back (to damage it on purpose)."""
    if target.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(target, autocommit=True) as conn:
            conn.execute(sql.replace("?", "%s"), params)  # type: ignore[arg-type]
    else:
        with sqlite3.connect(target) as conn:
            conn.execute(sql, params)
        conn.close()


# --- the store itself, on both backends ---------------------------------------------------


def test_rows_round_trip_and_survive_reopening(db_target: str) -> None:
    store = Store(db_target)
    store.create_game("g1", "toy", "standard", ["turns=4"], "7", seats())
    store.create_game("g2", "toy", "standard", [], "8", seats()[:1], actions=[row(0)],
                      parent="g1", parent_step=0)
    store.create_game("g3", "toy", "standard", [], "9", seats(), actions=[row(0)],
                      status="finished", result={"winner": "blue"})
    for i in range(5):
        store.append_action("g1", row(i), "active", None)
    store.append_action("g1", row(5), "finished", {"winner": "red"})
    store.close()
    store = Store(db_target)  # the schema already exists: opened again, nothing lost
    try:
        g1 = store.game("g1")
        assert g1 is not None and g1.status == "finished" and g1.result == {"winner": "red"}
        assert g1.options == ["turns=4"] and g1.seed == "7"
        assert store.seats("g1") == seats()  # in the order they were given
        assert store.actions("g1") == [row(i) for i in range(6)]
        assert store.action_by_id("g1", "red", "id3") == row(3)
        assert store.action_by_id("g1", "blue", "id3") is None
        assert store.game_ids() == ["g1", "g2", "g3"]
        assert store.game_ids("active") == ["g2"]
        g3 = store.game("g3")
        assert g3 is not None and g3.result == {"winner": "blue"}
        g2 = store.game("g2")
        assert g2 is not None and (g2.parent, g2.parent_step) == ("g1", 0)
        assert store.game("nope") is None
    finally:
        store.close()


def test_a_failed_append_changes_nothing(db_target: str) -> None:
    """The action row and the status change are one transaction: a clash on the action
    index (or on the action id) leaves both as they were."""
    store = Store(db_target)
    try:
        store.create_game("g", "toy", "standard", [], "1", seats())
        store.append_action("g", row(0), "active", None)
        with pytest.raises(StoreError, match=r"(?i)unique|duplicate"):
            store.append_action("g", row(0, "other"), "finished", {"winner": "blue"})
        with pytest.raises(StoreError, match=r"(?i)unique|duplicate"):
            store.append_action("g", row(1, "id0"), "finished", {"winner": "blue"})
        g = store.game("g")
        assert g is not None and g.status == "active" and g.result is None
        assert store.actions("g") == [row(0)]
        store.append_action("g", row(1), "active", None)  # the store still works
        assert len(store.actions("g")) == 2
    finally:
        store.close()


def test_undo_deletes_only_the_last_action(db_target: str) -> None:
    store = Store(db_target)
    try:
        store.create_game("g", "toy", "standard", [], "1", seats())
        for i in range(3):
            store.append_action("g", row(i), "active" if i < 2 else "finished", None)
        with pytest.raises(ValueError, match="not the last"):
            store.delete_last_action("g", 1)
        assert len(store.actions("g")) == 3
        store.delete_last_action("g", 2)
        g = store.game("g")
        assert [a.index for a in store.actions("g")] == [0, 1]
        assert g is not None and g.status == "active"
    finally:
        store.close()


def test_a_foreign_table_is_refused_naming_it(db_target: str) -> None:
    raw(db_target, "CREATE TABLE games (id TEXT PRIMARY KEY, colour TEXT)")
    with pytest.raises(StoreError, match=r"table games lacks column\(s\) created, options"):
        Store(db_target)


def test_a_database_from_a_newer_version_is_refused(db_target: str) -> None:
    Store(db_target).close()
    raw(db_target, "UPDATE meta SET value = '99' WHERE key = 'schema'")
    with pytest.raises(StoreError, match="newer gettysburg"):
        Store(db_target)


def test_a_garbage_row_names_the_game_and_field(db_target: str) -> None:
    store = Store(db_target)
    try:
        store.create_game("g", "toy", "standard", [], "1", seats(), actions=[row(0), row(1)])
        store.create_game("h", "toy", "standard", [], "1", seats())
        raw(db_target, "UPDATE actions SET dice = ? WHERE game_id = 'g' AND idx = 1",
            ("[1, 2",))
        with pytest.raises(RowError, match=r"game g: action 1: actions\.dice is not valid JSON"):
            store.actions("g")
        raw(db_target, "UPDATE games SET options = ? WHERE id = 'g'", ('{"a": 1}',))
        with pytest.raises(RowError, match=r"game g: games\.options is not a list"):
            store.game("g")
        assert store.game_ids() == ["g", "h"]  # listing does not read the bad rows
        assert store.game("h") is not None
    finally:
        store.close()


def test_postgres_reconnects_after_losing_its_connection() -> None:
    import psycopg

    url = cluster().new_database()
    store = Store(url)
    try:
        store.create_game("g", "toy", "standard", [], "1", seats())
        with psycopg.connect(cluster().admin_url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                          " WHERE application_name = 'gettysburg'")
        assert store.game_ids() == ["g"]  # a read is repeated once on a new connection
        store.append_action("g", row(0), "active", None)  # and writes go on
        assert store.actions("g") == [row(0)]
    finally:
        store.close()


def _two_moves_in(host: Host) -> tuple[str, str, dict[str, Any]]:
    """A toy game after two actions: its id, the seat to move and its first legal action."""
    gid, _ = host.create("toy", "standard", [], "3", HUMANS)
    play(host, gid, 2)
    game = host.load(gid).game
    seat = game.to_move()[0]
    return gid, seat, game.legal_actions(seat)[0]


def test_a_failed_write_is_503_and_changes_nothing(db_target: str,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store(db_target)
    host = Host(store)
    try:
        gid, seat, action = _two_moves_in(host)
        live = host.load(gid)
        before = live.game.state_hash()
        real = store.append_action

        def broken(*args: Any, **kwargs: Any) -> None:
            raise StoreError(f"{store.where}: disk I/O error")

        monkeypatch.setattr(store, "append_action", broken)
        with pytest.raises(ApiError) as caught:
            host.act(gid, seat, action, "click-1")
        assert (caught.value.status, caught.value.rule) == (503, "store.unavailable")
        assert store.where not in caught.value.message  # the detail is for the log only
        assert host.load(gid).game.state_hash() == before  # rebuilt from the store
        assert len(store.actions(gid)) == 2
        monkeypatch.setattr(store, "append_action", real)
        out = host.act(gid, seat, action, "click-1")  # the client's retry
        assert out["index"] == 2 and out["duplicate"] is False
        assert host.act(gid, seat, action, "click-1")["duplicate"] is True
    finally:
        store.close()


def test_a_failed_undo_is_503_and_changes_nothing(db_target: str,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Undo's delete failing in the database is a 503 the client may retry, as a failed
    action is, and leaves the game as it was (it was a bare 500)."""
    store = Store(db_target)
    host = Host(store)
    try:
        gid, seat, action = _two_moves_in(host)
        host.act(gid, seat, action, "click-1")
        live = host.load(gid)
        before = live.game.state_hash()
        # Whether the toy's action may be taken back is not what is tested here.
        monkeypatch.setattr(host, "_undo_refusal", lambda *args, **kwargs: None)

        def broken(*args: Any, **kwargs: Any) -> None:
            raise StoreError(f"{store.where}: disk I/O error")

        monkeypatch.setattr(store, "delete_last_action", broken)
        with pytest.raises(ApiError) as caught:
            host.undo(gid, seat)
        assert (caught.value.status, caught.value.rule) == (503, "store.unavailable")
        assert host.load(gid).game.state_hash() == before
        assert len(store.actions(gid)) == 3
    finally:
        store.close()


def test_postgres_lost_connection_mid_game_is_503_then_recovers() -> None:
    import psycopg

    store = Store(cluster().new_database())
    host = Host(store)
    try:
        gid, seat, action = _two_moves_in(host)
        with psycopg.connect(cluster().admin_url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                          " WHERE application_name = 'gettysburg'")
        outcomes = []
        for _ in range(3):
            try:
                outcomes.append(host.act(gid, seat, action, "click-1")["duplicate"])
            except ApiError as exc:
                outcomes.append(exc.rule)
        # The id lookup is a read (repeated on a new connection), so the first try may
        # already succeed; either way the action is applied exactly once.
        assert outcomes in (["store.unavailable", False, True], [False, True, True])
        assert [a.action_id for a in store.actions(gid)] == ["a0", "a1", "click-1"]
    finally:
        store.close()


def test_postgres_password_is_not_shown() -> None:
    with pytest.raises(StoreError) as caught:
        Store("postgresql://gb:s3cret-pw@127.0.0.1:1/games")
    assert "s3cret-pw" not in str(caught.value)
    assert "postgresql://gb@127.0.0.1:1/games: cannot connect" in str(caught.value)


# --- damaged games in a running server -----------------------------------------------------


def test_a_game_that_no_longer_replays_is_reported_and_the_rest_work(db_target: str) -> None:
    store = Store(db_target)
    host = Host(store)
    bad, bad_tokens = host.create("toy", "standard", [], "3", HUMANS)
    good, _ = host.create("toy", "standard", [], "4", HUMANS)
    garbled, _ = host.create("toy", "standard", [], "5", HUMANS)
    for gid in (bad, good, garbled):
        play(host, gid, 4)
    store.close()
    # Damage two games behind the server's back: one action edited so it replays to
    # another state (or is refused), one row that is not even JSON.
    raw(db_target, "UPDATE actions SET state_hash = ? WHERE game_id = ? AND idx = 2",
        ("0" * 64, bad))
    raw(db_target, "UPDATE actions SET action = ? WHERE game_id = ? AND idx = 1",
        ("{oops", garbled))
    store = Store(db_target)
    host = Host(store)
    try:
        assert host.active_games() == [good]  # the damaged ones are left out, not fatal
        problems = host.check()
        assert set(problems) == {bad, garbled}
        assert "[store.replay]" in problems[bad] and "stored action 2" in problems[bad]
        assert "[store.row]" in problems[garbled] and "action 1" in problems[garbled]
        with pytest.raises(ApiError) as caught:
            host.auth(bad, bad_tokens["red"])
        assert caught.value.status == 500 and caught.value.rule == "store.replay"
        assert "stored action 2 does not replay" in caught.value.message
        assert set(host.damaged()) == {bad, garbled}
        play(host, good, 2, prefix="b")  # the healthy game goes on
        assert len(store.actions(good)) == 6
    finally:
        store.close()


def test_serve_check_reports_damaged_games_and_exits_1(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    store = Store(db)
    host = Host(store)
    gid, _ = host.create("toy", "standard", [], "3", HUMANS)
    other, _ = host.create("toy", "standard", [], "4", HUMANS)
    play(host, gid, 3)
    store.close()
    runner = CliRunner()
    out = runner.invoke(cli_app, ["serve", "--check", "--db", str(db)])
    assert out.exit_code == 0, out.output
    assert "2 games, 2 replay exactly, 0 damaged" in out.output
    raw(str(db), "DELETE FROM actions WHERE game_id = ? AND idx = 1", (gid,))
    out = runner.invoke(cli_app, ["serve", "--check", "--db", f"sqlite://{db}"])
    assert out.exit_code == 1
    assert f"damaged: game {gid}: [store.replay]" in out.output
    assert "stored action 1 is missing" in out.output and other not in out.output
    assert "Traceback" not in out.output


def test_serve_check_creates_nothing_and_db_takes_no_unknown_scheme(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch
                                                                    ) -> None:
    """A mistyped path is not "0 games, 0 damaged": checking never creates a database; and
    --db refuses a URL of another scheme instead of making a folder named after it."""
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    missing = tmp_path / "no" / "such.db"
    out = runner.invoke(cli_app, ["serve", "--check", "--db", str(missing)])
    assert out.exit_code == 2 and f"no database at {missing}" in out.output
    assert not (tmp_path / "no").exists()
    for args in (["serve", "--check"], ["serve", "--port", "0"]):
        out = runner.invoke(cli_app, [*args, "--db", "mysql://x"])
        assert out.exit_code == 2 and "mysql:// is not a store" in out.output, out.output
    assert list(tmp_path.iterdir()) == []


# --- damaged SQLite files ---------------------------------------------------------------------


def _filled_db(path: Path, games: int = 30) -> bytes:
    store = Store(path)
    host = Host(store)
    for i in range(games):
        gid, _ = host.create("toy", "standard", [], str(i), HUMANS)
        play(host, gid, 5)
    store.close()  # the last connection closing folds the WAL into the file
    assert not Path(f"{path}-wal").exists()
    return path.read_bytes()


@pytest.mark.parametrize("damage", ["truncated", "garbled page", "garbled header", "text file"])
def test_a_damaged_sqlite_file_is_refused_with_a_clear_message(tmp_path: Path,
                                                               damage: str) -> None:
    good = _filled_db(tmp_path / "good.db")
    page = 4096
    assert len(good) > 8 * page
    bad = {
        "truncated": good[: len(good) // 2 + 100],
        "garbled page": good[: 2 * page] + os.urandom(page) + good[3 * page:],
        "garbled header": b"x" * 100 + good[100:],
        "text file": b"not a database at all\n" * 100,
    }[damage]
    path = tmp_path / "bad.db"
    path.write_bytes(bad)
    with pytest.raises(StoreError, match=rf"^{path}: (not a usable gettysburg database|the "
                                         r"database file is damaged)"):
        Store(path)
    # The command line says the same on stderr and exits 2 without starting a server.
    for args in (["serve", "--port", "0"], ["play", "--no-browser", "--port", "0"],
                 ["serve", "--check"]):
        out = CliRunner().invoke(cli_app, [*args, "--db", str(path)])
        assert out.exit_code == 2, (args, out.output)
        assert f"error: {path}:" in out.output and "Traceback" not in out.output
    assert path.read_bytes() == bad  # nothing was written to it


def test_play_and_serve_take_a_postgres_url_and_hide_its_password(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from gettysburg.cli import play_cmd, serve_cmd

    calls: list[object] = []
    fake = lambda host, port, db, **kw: calls.append(db)  # noqa: E731
    monkeypatch.setattr(play_cmd, "run_server", fake)
    monkeypatch.setattr(serve_cmd, "run_server", fake)
    url = "postgresql://gb:s3cret@db.example:5432/games?sslmode=require"
    runner = CliRunner()
    for args in (["play", "--no-browser", "--port", "0"], ["serve", "--port", "0"]):
        out = runner.invoke(cli_app, [*args, "--db", url])
        assert out.exit_code == 0, out.output
        assert calls[-1] == url  # handed over untouched (not mangled into a Path)
        assert "s3cret" not in out.output and "postgresql://gb@db.example:5432/games" in out.output
    out = runner.invoke(cli_app, ["serve", "--port", "0", "--db", f"sqlite://{tmp_path}/x.db"])
    assert out.exit_code == 0 and calls[-1] == f"sqlite://{tmp_path}/x.db"
    out = runner.invoke(cli_app, ["serve", "--port", "0", "--db", "rel/x.db"])
    assert out.exit_code == 0 and calls[-1] == Path("rel/x.db")


def test_a_directory_is_not_a_database(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="is a directory"):
        Store(tmp_path)


# --- the server API on both stores ---------------------------------------------------------


def test_api_create_act_and_restart_replay(db_target: str) -> None:
    first = Server(db_target)  # type: ignore[arg-type]  # a URL works as well as a path
    g = first.create(seed="11", options=["turns=12"])
    try:
        for i in range(6):
            state = first.get(g, "red")
            seat = state["to_move"][0]
            action = first.get(g, seat)["legal"][0]
            r = first.act(g, seat, action, f"x{i}")
            assert r.status_code == 200 and r.json()["index"] == i, r.text
        r = first.act(g, seat, action, "x5")  # a retry: applied once only
        assert r.status_code == 200 and r.json()["duplicate"] is True
        before = {s: first.get(g, s) for s in ("red", "blue")}
        logs = {s: first.get(g, s, "/events") for s in ("red", "blue")}
    finally:
        first.close()
    second = Server(db_target)  # type: ignore[arg-type]
    try:
        assert {s: second.get(g, s) for s in ("red", "blue")} == before
        assert {s: second.get(g, s, "/events") for s in ("red", "blue")} == logs
        mover = before["red"]["to_move"][0]
        r = second.act(g, mover, before[mover]["legal"][0], "after-restart")
        assert r.status_code == 200 and r.json()["index"] == 6
        replay = second.get(g, "red", "/replay", step=3)
        assert replay["step"] == 3 and replay["steps"] == 7
        r = second.client.get(f"/api/games/{g['game_id']}", headers=auth(g, "red") | {
            "Authorization": "Bearer wrong"})
        assert r.status_code == 403
    finally:
        second.close()


def test_api_import_of_malformed_saves_names_what_broke(db_target: str) -> None:
    server = Server(db_target)  # type: ignore[arg-type]
    try:
        g = server.create(options=["turns=3"], blue="ai")
        for i in range(8):
            state = server.get(g, "red")
            if state["status"] == "finished":
                break
            attacks = [a for a in state["legal"] if a["type"] == "attack"]
            server.act(g, "red", (attacks or state["legal"])[0], f"i{i}")  # attacks roll
        data = server.get(g, "red", "/save")
        cases: list[tuple[Any, int, str, str]] = [
            ([1, 2, 3], 422, "request", ""),
            ({**data, "moves": "lots"}, 422, "save.format", "moves"),
            ({**data, "seed": "other"}, 422, "save.header", "genesis"),
        ]
        edited = json.loads(json.dumps(data))
        edited["moves"][2]["action"] = {"type": "attack", "block": "nobody"}
        cases.append((edited, 422, "save.action", "move 2"))
        redice = json.loads(json.dumps(data))
        first_rolled = next(i for i, m in enumerate(redice["moves"]) if m["dice"])
        redice["moves"][first_rolled]["dice"][0] = redice["moves"][first_rolled]["dice"][0] % 6 + 1
        cases.append((redice, 422, "save.dice", f"move {first_rolled}"))
        for body, status, rule, said in cases:
            r = server.client.post("/api/import", json=body)
            assert r.status_code == status, (rule, r.text)
            assert r.json()["error"]["rule"] == rule and said in r.json()["error"]["message"]
        ids = server.store.game_ids()
        assert len(ids) == 1  # none of the refused saves left a game behind
    finally:
        server.close()


def test_game_replay_verify_names_a_broken_save(tmp_path: Path) -> None:
    runner = CliRunner()
    save = tmp_path / "g.json"
    assert runner.invoke(cli_app, ["game", "new", "boc/day1", "--seed", "3", "--out",
                                   str(save)]).exit_code == 0
    for _ in range(3):
        legal = runner.invoke(cli_app, ["game", "legal", str(save), "--json"])
        action = json.loads(legal.output)[0]
        assert runner.invoke(cli_app, ["game", "apply", str(save), json.dumps(action),
                                       "--out", str(save)]).exit_code == 0
    text = save.read_text()
    (tmp_path / "cut.json").write_text(text[: len(text) // 2])
    data = json.loads(text)
    data["moves"][1]["state_hash"] = "f" * 64
    (tmp_path / "edited.json").write_text(json.dumps(data))
    data = json.loads(text)
    data["moves"][0]["dice"] = [10]  # no die shows 10
    (tmp_path / "dice.json").write_text(json.dumps(data))
    for name, said in (("cut.json", "not JSON"), ("edited.json", "move 1"),
                       ("dice.json", "moves.0.dice.0")):
        out = runner.invoke(cli_app, ["game", "replay", str(tmp_path / name), "--verify"])
        assert out.exit_code == 1, (name, out.output)
        assert name in out.output and said in out.output and "Traceback" not in out.output


def test_without_postgresql_binaries_the_postgres_cases_skip_saying_how_to_install(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import pg_server

    monkeypatch.setattr(pg_server, "_cluster", None)
    monkeypatch.setattr(pg_server, "find_bin", lambda: None)
    with pytest.raises(pytest.skip.Exception, match="apt-get install postgresql"):
        pg_server.cluster()
