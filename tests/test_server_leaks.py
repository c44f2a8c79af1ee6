"""Nothing a seat receives reveals what the rules keep hidden from it (docs/security.md).

Real Badges of Courage games are played through the HTTP API and the WebSocket by two
scripted human seats, and everything each seat receives (state, view, legal actions,
events, replay, save refusal, map, error messages, WebSocket pushes) is checked against
the referee's state at that moment: no id or name of an enemy block the rules keep hidden,
no identity field next to a hidden block's handle, no seed, fog key or other seat's token.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's notice about its httpx-based client
    from fastapi.testclient import TestClient

from gettysburg.server.app import create_app
from gettysburg.server.store import Store


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    store = Store(tmp_path / "games.db")
    with TestClient(create_app(store)) as c:
        yield c
    store.close()


# --- the server opens no file a client names --------------------------------------------

def test_a_scenario_path_is_refused_without_opening_the_file(client: TestClient,
                                                              tmp_path: Path) -> None:
    """The protocol takes a file path as the scenario (for the CLI); over the network that
    would let anyone make the server read its files and describe them in the error."""
    secret = tmp_path / "secret.yaml"
    secret.write_text("id: x\nwho: secret-value-xyz\n", encoding="utf-8")
    seats = {"usa": {"kind": "human"}, "csa": {"kind": "human"}}
    for scenario in (str(secret), "/etc/passwd", "../../../../etc/hostname", "day1.yaml",
                     str(Path(__file__).parents[1] / "src/gettysburg/boc/data/scenarios/"
                                                     "day1.yaml")):
        r = client.post("/api/games", json={"system": "boc", "scenario": scenario,
                                            "seats": seats})
        assert r.status_code == 422, r.text
        err = r.json()["error"]
        assert err["rule"] == "setup.scenario" and err["field"] == "scenario"
        assert "have ['battle', 'day1', 'day2', 'day3']" in err["message"]
        assert "secret-value" not in r.text and "entry" not in r.text
        r = client.get("/api/setup", params={"system": "boc", "scenario": scenario})
        assert r.status_code == 422 and "entry" not in r.text
    r = client.post("/api/games", json={"system": "toy", "scenario": "../standard",
                                        "seats": {"red": {"kind": "human"},
                                                  "blue": {"kind": "human"}}})
    assert r.status_code == 422 and r.json()["error"]["field"] == "scenario"


def test_an_imported_save_naming_a_path_is_refused_before_any_replay(
        client: TestClient, tmp_path: Path) -> None:
    from gettysburg.core import savefile
    from gettysburg.core.protocol import new_game

    data = savefile.save(new_game("toy/standard", seed=3))
    data["scenario"] = str(tmp_path / "nothing-here.yaml")
    r = client.post("/api/import", json=data)
    assert r.status_code == 422, r.text
    assert r.json()["error"] == {"rule": "save.header", "field": "save.scenario",
                                 "message": r.json()["error"]["message"]}
    assert "no scenario" in r.json()["error"]["message"]  # refused by name, not by replay
