"""``gettysburg play`` / ``gettysburg serve``: options, default database, port fallback."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gettysburg.cli import app, play_cmd, serve_cmd


def test_serve_and_play_are_commands() -> None:
    runner = CliRunner()
    out = runner.invoke(app, ["serve", "--help"])
    assert out.exit_code == 0 and "--host" in out.output and "--db" in out.output
    out = runner.invoke(app, ["play", "--help"])
    assert out.exit_code == 0 and "--no-browser" in out.output and "--port" in out.output


def test_default_db_lives_in_the_user_data_dir(monkeypatch: pytest.MonkeyPatch,
                                               tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert serve_cmd.default_db() == tmp_path / "gettysburg" / "games.db"


def test_play_takes_another_port_when_its_own_is_taken() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        taken = busy.getsockname()[1]
        port = play_cmd._port("127.0.0.1", taken)
        assert port != taken and port > 0
    assert play_cmd._port("127.0.0.1", 0) > 0


def test_play_starts_the_server_on_localhost(monkeypatch: pytest.MonkeyPatch,
                                              tmp_path: Path) -> None:
    calls: list[tuple[str, int, Path]] = []
    monkeypatch.setattr(play_cmd, "run_server",
                        lambda host, port, db, **kw: calls.append((host, port, db)))
    out = CliRunner().invoke(app, ["play", "--no-browser", "--port", "0",
                                   "--db", str(tmp_path / "x.db")])
    assert out.exit_code == 0, out.output
    host, port, db = calls[0]
    assert host == "127.0.0.1" and port > 0 and db == tmp_path / "x.db"
    assert f"http://127.0.0.1:{port}/" in out.output


def test_play_and_serve_take_the_ai_pause_and_budget(monkeypatch: pytest.MonkeyPatch,
                                                     tmp_path: Path) -> None:
    delays: list[float] = []
    budgets: list[float] = []

    def fake(host: str, port: int, db: object, *, ai_delay: float, ai_budget: float,
             limits: object = None, trusted_proxies: object = ()) -> None:
        delays.append(ai_delay)
        budgets.append(ai_budget)

    monkeypatch.setattr(play_cmd, "run_server", fake)
    monkeypatch.setattr(serve_cmd, "run_server", fake)
    db = str(tmp_path / "x.db")
    runner = CliRunner()
    assert runner.invoke(app, ["play", "--no-browser", "--db", db]).exit_code == 0
    assert runner.invoke(app, ["play", "--no-browser", "--db", db, "--ai-delay", "0",
                               "--ai-budget", "2"]).exit_code == 0
    assert runner.invoke(app, ["serve", "--db", db, "--ai-delay", "1.5",
                               "--ai-budget", "0.5"]).exit_code == 0
    assert delays == [0.3, 0.0, 1.5]
    assert budgets == [5.0, 2.0, 0.5]  # 5 s: the server's own default (create_app)
    bad = runner.invoke(app, ["play", "--no-browser", "--db", db, "--ai-delay", "-1"])
    assert bad.exit_code == 2 and "--ai-delay" in bad.output
    bad = runner.invoke(app, ["serve", "--db", db, "--ai-budget", "-1"])
    assert bad.exit_code == 2 and "--ai-budget" in bad.output
