"""Issue 58 item 6: seat links can be replaced (a player's own, at any time; a friend's by
the game's creator until the friend has used it), and proxy headers are believed only
from a proxy the operator named."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from gettysburg.server.app import create_app
from gettysburg.server.store import Store

TOY = {"system": "toy", "scenario": "standard",
       "seats": {"red": {"kind": "human"}, "blue": {"kind": "human"}}}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    store = Store(tmp_path / "games.db")
    with TestClient(create_app(store)) as c:
        yield c
    store.close()


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _game(client: TestClient) -> tuple[str, dict[str, str]]:
    r = client.post("/api/games", json=TOY)
    assert r.status_code == 201, r.text
    return r.json()["game_id"], {s: v["token"] for s, v in r.json()["seats"].items()}


def test_a_player_replaces_their_own_link(client: TestClient) -> None:
    gid, tokens = _game(client)
    r = client.post(f"/api/games/{gid}/link", headers=_auth(tokens["blue"]))
    assert r.status_code == 200, r.text
    new = r.json()
    assert new["seat"] == "blue" and new["token"] != tokens["blue"]
    assert new["link"] == f"/g/{gid}#{new['token']}"
    assert client.get(f"/api/games/{gid}", headers=_auth(tokens["blue"])).status_code == 403
    r = client.get(f"/api/games/{gid}", headers=_auth(new["token"]))
    assert r.status_code == 200 and r.json()["seat"] == "blue"
    # The other seat's link is untouched; the new link survives a restart of the game.
    assert client.get(f"/api/games/{gid}", headers=_auth(tokens["red"])).status_code == 200
    host: Any = client.app.state.host  # type: ignore[attr-defined]
    host._live.clear()
    assert client.get(f"/api/games/{gid}", headers=_auth(new["token"])).status_code == 200
    assert client.get(f"/api/games/{gid}", headers=_auth(tokens["blue"])).status_code == 403


def test_the_creator_takes_back_a_friends_link_until_it_is_used(client: TestClient) -> None:
    gid, tokens = _game(client)
    # The creator opens their own seat; the friend's has not been used.
    state = client.get(f"/api/games/{gid}", headers=_auth(tokens["red"])).json()
    assert {s["seat"]: s["joined"] for s in state["seats"]} == {"red": True, "blue": False}
    r = client.post(f"/api/games/{gid}/link", json={"seat": "blue"},
                    headers=_auth(tokens["red"]))
    assert r.status_code == 200 and r.json()["seat"] == "blue", r.text
    friend = r.json()["token"]
    assert client.get(f"/api/games/{gid}", headers=_auth(tokens["blue"])).status_code == 403
    # The new friend comes: from now on the creator cannot take the seat.
    assert client.get(f"/api/games/{gid}", headers=_auth(friend)).status_code == 200
    r = client.post(f"/api/games/{gid}/link", json={"seat": "blue"},
                    headers=_auth(tokens["red"]))
    assert r.status_code == 409 and r.json()["error"]["rule"] == "seat.joined", r.text
    assert client.get(f"/api/games/{gid}", headers=_auth(friend)).status_code == 200
    # ... and the friend can shut out the creator's copy of the original links anyway.
    r = client.post(f"/api/games/{gid}/link", headers=_auth(friend))
    assert r.status_code == 200
    r = client.post(f"/api/games/{gid}/link", json={"seat": "nobody"},
                    headers=_auth(tokens["red"]))
    assert r.status_code == 422 and r.json()["error"]["field"] == "seat"


def test_an_ai_seat_has_no_link_to_replace(client: TestClient) -> None:
    r = client.post("/api/games", json={**TOY, "seats": {"red": {"kind": "human"},
                                                         "blue": {"kind": "ai"}}})
    gid, token = r.json()["game_id"], r.json()["seats"]["red"]["token"]
    r = client.post(f"/api/games/{gid}/link", json={"seat": "blue"}, headers=_auth(token))
    assert r.status_code == 422, r.text


def _new_games(url: str, n: int) -> list[int]:
    """``n`` new games, each claiming another client address by X-Forwarded-For."""
    with httpx.Client(timeout=60) as http:
        return [http.post(f"{url}/api/games", json=TOY,
                          headers={"X-Forwarded-For": f"203.0.113.{k + 1}"}).status_code
                for k in range(n)]


def test_forwarded_for_is_believed_only_from_a_named_proxy(tmp_path: Path) -> None:
    from test_server_durability import ServerProcess

    db = str(tmp_path / "games.db")
    server = ServerProcess(db, tmp_path / "a.log", ["--new-games", "2/hour"])
    try:
        # Any local process could name any address: the header is ignored, one address.
        assert _new_games(server.url, 3) == [201, 201, 429]
    finally:
        server.kill()
    server = ServerProcess(db, tmp_path / "b.log",
                           ["--new-games", "2/hour", "--trusted-proxy", "127.0.0.1"])
    try:
        # Through the operator's proxy: each client address has its own count.
        assert _new_games(server.url, 3) == [201, 201, 201]
    finally:
        server.kill()


def test_a_replaced_link_closes_its_open_websocket(client: TestClient) -> None:
    import json

    gid, tokens = _game(client)
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        ws.send_text(json.dumps({"token": tokens["blue"], "since": 0}))
        assert ws.receive_json()["type"] == "state"
        r = client.post(f"/api/games/{gid}/link", headers=_auth(tokens["red"]),
                        json={"seat": "blue"})
        assert r.status_code == 409  # blue's link was used (this WebSocket)
        r = client.post(f"/api/games/{gid}/link", headers=_auth(tokens["blue"]))
        assert r.status_code == 200
        msg = ws.receive_json()
        assert msg["type"] == "error" and msg["error"]["rule"] == "auth.token", msg
