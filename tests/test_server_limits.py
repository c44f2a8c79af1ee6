"""The server's request limits (server/limits.py, docs/security.md "Limits"): body size,
requests and new games per client address."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's notice about its httpx-based client
    from fastapi.testclient import TestClient
    from starlette.websockets import WebSocketDisconnect

from gettysburg.cli import app as cli_app
from gettysburg.server.app import create_app
from gettysburg.server.limits import Limits
from gettysburg.server.store import Store

GAME = {"system": "toy", "scenario": "standard", "options": [], "seed": "7",
        "seats": {"red": {"kind": "human"}, "blue": {"kind": "human"}}}


def _client(store: Store, limits: Limits, who: str = "10.0.0.1") -> TestClient:
    return TestClient(create_app(store, limits=limits), client=(who, 40000))


def _refused(r: Any, status: int, rule: str) -> str:
    assert r.status_code == status, r.text
    error = r.json()["error"]
    assert error["rule"] == rule
    message: str = error["message"]
    return message


def test_a_body_over_the_cap_is_refused_before_anything_is_created(store: Store) -> None:
    with _client(store, Limits(max_body_bytes=2000)) as c:
        padded = dict(GAME, options=["x" * 3000])
        message = _refused(c.post("/api/games", json=padded), 413, "request.size")
        assert "2000 bytes" in message
        assert store.game_ids() == []
        # under the cap the same request goes through
        assert c.post("/api/games", json=GAME).status_code == 201
        assert len(store.game_ids()) == 1


def test_a_chunked_body_is_counted_as_it_arrives(store: Store) -> None:
    """A body sent in chunks declares no length; the cap applies to what arrives."""
    body = json.dumps(dict(GAME, options=["x" * 3000])).encode()

    def chunks() -> Iterator[bytes]:
        for i in range(0, len(body), 500):
            yield body[i:i + 500]

    with _client(store, Limits(max_body_bytes=2000)) as c:
        r = c.post("/api/games", content=chunks(), headers={"content-type": "application/json"})
        assert "content-length" not in r.request.headers
        _refused(r, 413, "request.size")
        assert store.game_ids() == []


def test_requests_over_the_rate_get_429_with_retry_after_per_address(store: Store) -> None:
    limits = Limits(requests="5/minute")
    app = create_app(store, limits=limits)
    with TestClient(app, client=("10.0.0.1", 1)) as c, \
            TestClient(app, client=("10.0.0.2", 1)) as other:
        for _ in range(5):
            assert c.get("/api/systems").status_code == 200
        r = c.get("/api/systems")
        message = _refused(r, 429, "request.rate")
        assert "5 per 1 minute" in message
        assert 1 <= int(r.headers["retry-after"]) <= 60
        # another address has its own count
        assert other.get("/api/systems").status_code == 200


def test_new_games_have_their_own_cap(store: Store) -> None:
    with _client(store, Limits(new_games="2/hour")) as c:
        made = [c.post("/api/games", json=GAME) for _ in range(2)]
        assert [r.status_code for r in made] == [201, 201]
        _refused(c.post("/api/games", json=GAME), 429, "request.rate")
        assert len(store.game_ids()) == 2
        # reading a game is not creating one
        game = made[0].json()
        token = game["seats"]["red"]["token"]
        r = c.get(f"/api/games/{game['game_id']}", headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 200
        # importing a save counts as a new game too
        assert c.post("/api/import", json={"not": "a save"}).status_code == 429


def test_a_websocket_over_the_rate_is_refused(store: Store) -> None:
    with _client(store, Limits(requests="2/minute", new_games=None)) as c:
        game = c.post("/api/games", json=GAME).json()  # the first request
        token = game["seats"]["red"]["token"]
        path = f"/api/games/{game['game_id']}/ws"
        with c.websocket_connect(path) as ws:  # the second
            ws.send_text(json.dumps({"token": token, "since": 0}))
            assert ws.receive_json()["type"] == "state"
        with pytest.raises(WebSocketDisconnect) as refused, c.websocket_connect(path):
            pass
        assert refused.value.code == 1008


def test_limits_off_lets_everything_through(store: Store) -> None:
    with _client(store, Limits.off()) as c:
        assert all(c.get("/api/systems").status_code == 200 for _ in range(30))
        # over the default cap of 8 MiB: refused by the game's set-up, not by the size
        big = dict(GAME, options=["x" * 9_000_000])
        r = c.post("/api/games", json=big)
        assert r.status_code == 422, r.status_code


@pytest.mark.parametrize(("field", "value"), [("requests", "lots"), ("new_games", "5/fortnight")])
def test_a_bad_rate_names_its_field(field: str, value: str) -> None:
    with pytest.raises(ValueError, match=rf"^{field}: .{value}."):
        Limits(**{field: value})


def test_a_bad_body_cap_names_its_field() -> None:
    with pytest.raises(ValueError, match=r"^max_body_bytes"):
        Limits(max_body_bytes=0)


@pytest.mark.parametrize(("option", "value"), [("--rate-limit", "lots"),
                                               ("--new-games", "3 a week")])
def test_serve_refuses_a_bad_rate_naming_the_option(tmp_path: Path, option: str,
                                                     value: str) -> None:
    result = CliRunner().invoke(cli_app, ["serve", "--db", str(tmp_path / "g.db"), option, value])
    assert result.exit_code == 2
    assert f"error: {option}: '{value}'" in result.output


def test_serve_hands_its_caps_to_the_server(monkeypatch: pytest.MonkeyPatch,
                                            tmp_path: Path) -> None:
    from gettysburg.cli import serve_cmd

    seen: list[Limits | None] = []
    proxies: list[tuple[str, ...]] = []

    def fake(host: str, port: int, db: object, ai_delay: float = 0.0,
             limits: Limits | None = None, ai_budget: float = 5.0,
             trusted_proxies: Sequence[str] = ()) -> None:
        seen.append(limits)
        proxies.append(tuple(trusted_proxies))

    monkeypatch.setattr(serve_cmd, "run_server", fake)
    runner = CliRunner()
    db = str(tmp_path / "g.db")
    assert runner.invoke(cli_app, ["serve", "--db", db]).exit_code == 0
    assert seen[-1] == Limits()
    args = ["serve", "--db", db, "--rate-limit", "10/second", "--new-games", "off"]
    assert runner.invoke(cli_app, args).exit_code == 0
    assert seen[-1] == Limits(requests="10/second", new_games="off")
    assert proxies == [(), ()]  # no proxy named: X-Forwarded-For is believed from none
    args = ["serve", "--db", db, "--trusted-proxy", "10.0.0.2", "--trusted-proxy", "::1"]
    assert runner.invoke(cli_app, args).exit_code == 0
    assert proxies[-1] == ("10.0.0.2", "::1")
    # "off" really turns the cap off
    store = Store(tmp_path / "h.db")
    try:
        app = create_app(store, limits=Limits(requests=None, new_games="off"))
        with TestClient(app) as c:
            assert all(c.post("/api/games", json=GAME).status_code == 201 for _ in range(70))
    finally:
        store.close()
