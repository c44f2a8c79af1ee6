"""Issue 58 item 4: bad input gets a 4xx naming the field, never a 500 or a dropped
connection, and leaves every stored game as it was."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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
    with TestClient(create_app(store), raise_server_exceptions=False) as c:
        yield c
    store.close()


def _raw_post(client: TestClient, url: str, text: str, token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    return client.post(url, content=text.encode("utf-8"), headers=headers)


def _game(client: TestClient) -> tuple[str, dict[str, str]]:
    r = client.post("/api/games", json=TOY)
    assert r.status_code == 201, r.text
    return r.json()["game_id"], {s: v["token"] for s, v in r.json()["seats"].items()}


def _state(client: TestClient, gid: str, token: str) -> Any:
    return client.get(f"/api/games/{gid}", headers={"Authorization": f"Bearer {token}"}).json()


def test_a_lone_surrogate_in_an_action_id_is_refused_by_name(client: TestClient) -> None:
    gid, tokens = _game(client)
    state = _state(client, gid, tokens["red"])
    mover = state["to_move"][0]
    legal = _state(client, gid, tokens[mover])["legal"]
    # JSON may carry a lone surrogate (\ud800); it is no text SQLite can store.
    body = json.dumps({"action": legal[0], "action_id": "a\ud800b"})
    assert "\\ud800" in body
    r = _raw_post(client, f"/api/games/{gid}/actions", body, tokens[mover])
    assert r.status_code == 422, r.text
    assert r.json()["error"]["field"] == "action_id"
    assert _state(client, gid, tokens[mover])["step"] == state["step"]
    # The game still takes a good action afterwards.
    r = client.post(f"/api/games/{gid}/actions", json={"action": legal[0], "action_id": "ok"},
                    headers={"Authorization": f"Bearer {tokens[mover]}"})
    assert r.status_code == 200, r.text


def test_a_seed_with_a_lone_surrogate_is_refused_naming_the_seed(client: TestClient) -> None:
    body = json.dumps({**TOY, "seed": "x\udfffy"})
    r = _raw_post(client, "/api/games", body)
    assert r.status_code == 422, r.text
    assert r.json()["error"]["field"] == "seed" and r.json()["error"]["rule"] == "setup.seed"
    r = client.post("/api/games", json={**TOY, "seed": "s" * 10_000})
    assert r.status_code == 422 and r.json()["error"]["field"] == "seed", r.text


def test_options_are_neither_repeated_nor_endless(client: TestClient) -> None:
    r = client.post("/api/games", json={**TOY, "options": ["turns=4"] * 100_000})
    assert r.status_code == 422, r.text[:300]
    assert r.json()["error"]["field"] == "options"
    r = client.post("/api/games", json={**TOY, "options": ["turns=4", "turns=4"]})
    assert r.status_code == 422 and r.json()["error"]["field"] == "options", r.text
    assert "twice" in r.json()["error"]["message"]
    r = client.post("/api/games", json={**TOY, "options": ["turns=4"]})
    assert r.status_code == 201, r.text


def test_an_imported_save_with_repeated_options_is_refused(client: TestClient) -> None:
    from gettysburg.core import savefile
    from gettysburg.core.protocol import new_game

    data = savefile.save(new_game("toy/standard", options=["turns=4"], seed=3))
    data["options"] = ["turns=4"] * 1000
    r = client.post("/api/import", json=data)
    assert 400 <= r.status_code < 500, r.text[:300]
    assert "options" in (r.json()["error"].get("field") or "")


@pytest.mark.parametrize("since", ["1e999", "-1", "\"3\"", "1.5", "true", "null"])
def test_a_websocket_hello_with_a_bad_since_is_answered(client: TestClient,
                                                        since: str) -> None:
    gid, tokens = _game(client)
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        ws.send_text(f'{{"token": "{tokens["red"]}", "since": {since}}}')
        msg = ws.receive_json()
        assert msg["type"] == "error", msg
        assert msg["error"]["field"] == "since" and msg["error"]["rule"] == "request.since"
    # A good hello still works.
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        ws.send_text(json.dumps({"token": tokens["red"], "since": 0}))
        assert ws.receive_json()["type"] == "state"


def test_a_refusal_quoting_a_lone_surrogate_is_still_json(client: TestClient) -> None:
    """A refusal may quote the action or seat it was sent: with a lone surrogate in it the
    answer could not be encoded (500); it is escaped now."""
    gid, tokens = _game(client)
    state = _state(client, gid, tokens["red"])
    mover = state["to_move"][0]
    legal = _state(client, gid, tokens[mover])["legal"]
    for body in ({"action": {**legal[0], "block": "r\ud800"}, "action_id": "s1"},
                 {"action": legal[0], "action_id": "s2", "seat": "r\ud800"},
                 {"action": {"type": "x\udfff"}, "action_id": "s3"}):
        r = _raw_post(client, f"/api/games/{gid}/actions", json.dumps(body), tokens[mover])
        assert 400 <= r.status_code < 500, r.text
        assert "error" in r.json()
    assert _state(client, gid, tokens[mover])["step"] == state["step"]
