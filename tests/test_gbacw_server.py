"""GBACW through the server (issue 54): taking back against the general until dice or a
reveal (docs/server.md "Undo", gbacw/learned.py), the fire and shock preview route, and a
seat's traffic without the enemy's orders."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from gettysburg.gbacw.game import GbacwGame
from gettysburg.gbacw.learned import learned_from
from gettysburg.server.app import create_app
from gettysburg.server.store import Store

IDS = itertools.count()


class Server:
    def __init__(self, db: Path) -> None:
        self.store = Store(db)
        self.app = create_app(self.store)
        self.client = TestClient(self.app)
        self.client.__enter__()

    def close(self) -> None:
        self.client.__exit__(None, None, None)
        self.store.close()

    def settle(self) -> None:
        assert self.app.state.runner.wait_idle(60)

    def create(self) -> dict[str, Any]:
        r = self.client.post("/api/games", json={
            "system": "gbacw", "scenario": "little-round-top", "seed": "1",
            "seats": {"usa": {"kind": "ai", "agent": "general"}, "csa": {"kind": "human"}}})
        assert r.status_code == 201, r.text
        self.settle()
        out: dict[str, Any] = r.json()
        return out

    def headers(self, game: dict[str, Any]) -> dict[str, str]:
        return {"Authorization": "Bearer " + game["seats"]["csa"]["token"]}

    def state(self, game: dict[str, Any]) -> dict[str, Any]:
        r = self.client.get(f"/api/games/{game['game_id']}", headers=self.headers(game))
        assert r.status_code == 200, r.text
        out: dict[str, Any] = r.json()
        return out

    def act(self, game: dict[str, Any], action: dict[str, Any]) -> Any:
        r = self.client.post(f"/api/games/{game['game_id']}/actions", headers=self.headers(game),
                             json={"action": action, "action_id": f"t{next(IDS)}"})
        assert r.status_code == 200, r.text
        self.settle()
        return r.json()

    def undo(self, game: dict[str, Any]) -> Any:
        r = self.client.post(f"/api/games/{game['game_id']}/undo", headers=self.headers(game))
        self.settle()
        return r


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(tmp_path / "games.db")
    yield s
    s.close()


def _first(state: dict[str, Any], kind: str) -> dict[str, Any]:
    return next(a for a in state["legal"] if a["type"] == kind)


def test_orders_are_taken_back_against_the_general_but_not_a_draw(server: Server) -> None:
    """002 §6.1: an order given shows the Union nothing, so it may be taken back though the
    general (a computer seat) sees the Confederate counters turn; the first marker's pick
    rolls the blind draw (§5.3), so it stays."""
    game = server.create()
    s = server.state(game)
    assert s["to_move"] == ["csa"]
    order = _first(s, "set_orders")
    before = s["view"]["brigades"][order["brigade"]]["orders"]
    server.act(game, order)
    s = server.state(game)
    assert s["view"]["brigades"][order["brigade"]]["orders"] == order["orders"]
    assert s["undo"]
    r = server.undo(game)
    assert r.status_code == 200, r.text
    s = server.state(game)
    assert s["view"]["brigades"][order["brigade"]]["orders"] == before and s["step"] == 0
    # orders done; the general gives his; the Confederacy picks its first marker (dice)
    server.act(game, _first(s, "end_orders"))
    for _ in range(600):
        s = server.state(game)
        if "csa" in s["to_move"]:
            break
        server.settle()
    pick = _first(s, "first_am")
    server.act(game, pick)
    r = server.undo(game)
    assert r.status_code == 409, r.text  # the draw: dice rolled, a marker shown
    assert "dice" in r.text or "showed you" in r.text or "not yours" in r.text, r.text


def test_the_preview_route_gives_a_leaders_reach_to_its_own_seat_only(server: Server) -> None:
    game = server.create()
    view = server.state(game)["view"]
    mine = next(ld for ld, v in view["leaders"].items() if v["seat"] == "csa" and v["hex"])
    theirs = next(ld for ld, v in view["leaders"].items() if v["seat"] == "usa" and v["hex"])
    r = server.client.get(f"/api/games/{game['game_id']}/preview", params={"unit": mine},
                          headers=server.headers(game))
    assert r.status_code == 200 and view["leaders"][mine]["hex"] in r.json()["reach"]
    r = server.client.get(f"/api/games/{game['game_id']}/preview", params={"unit": theirs},
                          headers=server.headers(game))
    assert r.status_code == 200 and r.json() == {}


def test_learned_from_sees_only_the_enemy_part() -> None:
    g = GbacwGame("little-round-top", seed=1)
    before = g.view("csa")
    order = next(a for a in g.legal_actions("csa") if a["type"] == "set_orders")
    g.apply(order, "csa")
    assert not learned_from("csa", before, g.view("csa"))
    assert g.learned_from("csa", before, g.view("csa")) is False
    enemy = next(k for k, u in before["units"].items() if u["seat"] == "usa" and u["hex"])
    moved = {**before, "units": {**before["units"], enemy: {**before["units"][enemy],
                                                             "hex": None}}}
    assert learned_from("csa", before, moved)
    assert learned_from("csa", before, {**before, "current": "usa/US-III"})
