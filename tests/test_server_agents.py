"""AI seats: what an agent is given (its own seat's view only) and how the runner drives it."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

import random

from gettysburg.ai.agent import register_agent
from gettysburg.core.protocol import Action
from gettysburg.server.agents import LOBBY_MAX, SeatMind, agent_names, offered, stand_in
from gettysburg.server.app import create_app
from gettysburg.server.store import Store

SEEN: list[tuple[dict[str, Any], list[Action], float]] = []


class Spy:
    """Records what it is given, then passes (or attacks when it must assign)."""

    name = "spy"

    def __init__(self, seed: str) -> None:
        self.seed = seed

    def choose(self, view: dict[str, Any], legal: Sequence[Action], budget: float,
               rng: random.Random) -> Action:
        SEEN.append((view, list(legal), budget))
        return legal[-1]


class Broken:
    name = "broken"

    def __init__(self, seed: str) -> None:
        pass

    def choose(self, view: dict[str, Any], legal: Sequence[Action], budget: float,
               rng: random.Random) -> Action:
        return {"type": "teleport", "block": "r1"}


register_agent("spy", Spy)
register_agent("broken", Broken)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    store = Store(tmp_path / "g.db")
    with TestClient(create_app(store, ai_budget=1.5, agents=("spy", "broken"))) as c:
        yield c
    store.close()


def _game(client: TestClient, agent: str) -> tuple[str, dict[str, str]]:
    r = client.post("/api/games", json={"system": "toy", "scenario": "standard", "seed": "4",
                                        "seats": {"red": {"kind": "human"},
                                                  "blue": {"kind": "ai", "agent": agent}}})
    assert r.status_code == 201, r.text
    g = r.json()
    return g["game_id"], {"Authorization": "Bearer " + g["seats"]["red"]["token"]}


def _settle(client: TestClient) -> None:
    app: Any = client.app
    assert app.state.runner.wait_idle(10)


def test_agent_sees_only_its_own_seat(client: TestClient) -> None:
    SEEN.clear()
    gid, h = _game(client, "spy")
    for i in range(3):
        _settle(client)
        state = client.get(f"/api/games/{gid}", headers=h).json()
        if state["to_move"] != ["red"]:
            break
        action = next(a for a in state["legal"] if a["type"] == "pass")
        r = client.post(f"/api/games/{gid}/actions", headers=h,
                        json={"action": action, "action_id": f"p{i}"})
        assert r.status_code == 200
    _settle(client)
    assert len(SEEN) >= 2
    for view, legal, budget in SEEN:
        assert view["seat"] == "blue" and budget == 1.5
        assert all(a.get("block", "b")[0] == "b" for a in legal)
        text = json.dumps(view)
        for label in ("Archer", "Baxter", "Cutler"):
            assert label not in text
        assert "Davis" in text  # its own blocks, in full


def test_an_agent_answering_nonsense_does_not_stall_the_game(client: TestClient) -> None:
    gid, h = _game(client, "broken")
    r = client.post(f"/api/games/{gid}/actions", headers=h,
                    json={"action": {"type": "pass"}, "action_id": "x"})
    assert r.status_code == 200
    _settle(client)
    state = client.get(f"/api/games/{gid}", headers=h).json()
    assert state["step"] >= 2  # blue moved (its first legal action) instead of hanging


def test_a_new_game_seats_the_systems_opponents_and_the_generic_agents() -> None:
    """What the server accepts for a new game's AI seat: the system's presets (from its
    declaration), random and the general, and the agents the embedding program named;
    the lobby's list is the presets marked for it, at most four."""
    from gettysburg import systems as registry

    for declared in registry.all_systems():
        presets = [o.name for o in declared.ai.opponents()]
        names = agent_names(declared.name)
        assert names[:len(presets)] == presets
        assert {"random", "general"} <= set(names)
        assert "spy" not in names and "spy" in agent_names(declared.name, ("spy",))
        lobby = offered(declared.name)
        assert 0 < len(lobby) <= LOBBY_MAX
        assert all(o.title and o.description for o in lobby)
        assert stand_in(declared.name) in names
    assert agent_names("nosuchsystem") == ["random", "general"]


def test_an_opponent_the_system_does_not_list_is_refused_naming_the_seat(
        client: TestClient) -> None:
    """An old agent name (or any unknown one) cannot start a new game; the refusal names
    the seat's field and lists the choices."""
    r = client.post("/api/games", json={"system": "toy", "scenario": "standard",
                                        "seats": {"red": {"kind": "human"},
                                                  "blue": {"kind": "ai",
                                                           "agent": "search-move-still-day1"}}})
    assert r.status_code == 422
    error = r.json()["error"]
    assert error["field"] == "seats.blue.agent" and "random" in error["message"]


def test_a_seat_mind_draws_its_choices_from_the_decision_seed() -> None:
    legal: list[Action] = [{"type": "a"}, {"type": "b"}, {"type": "c"}]
    mind = SeatMind("random", "seat")
    picks = [mind.choose({}, legal, 1.0, f"s:{i}")["type"] for i in range(300)]
    assert set(picks) == {"a", "b", "c"}
    assert [SeatMind("random", "x").choose({}, legal, 1.0, f"d{i}") for i in range(20)] == \
        [SeatMind("random", "y").choose({}, legal, 1.0, f"d{i}") for i in range(20)]


def test_the_lobby_offers_at_most_four_opponents_easiest_first(
        client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """A system declaring more presets than a player can tell apart is cut to the first
    four marked for the lobby (its easiest); the others stay playable by name."""
    from dataclasses import replace

    from gettysburg import systems as registry
    from gettysburg.core.system import Opponent

    toy = registry.get("toy")
    many = tuple(Opponent(f"p{i}", "random", {"en": f"P{i}"}, {"en": f"Preset {i}."},
                          lobby=i != 1) for i in range(7))
    monkeypatch.setitem(registry._loaded, "toy",
                        replace(toy, ai=replace(toy.ai, opponents=lambda: many)))
    listed = next(s for s in client.get("/api/systems").json()["systems"]
                  if s["name"] == "toy")["opponents"]
    assert [o["name"] for o in listed] == ["p0", "p2", "p3", "p4"]
    assert listed[0]["description"] == "Preset 0." and listed[0]["i18n"]["en"]["title"] == "P0"
    assert "p6" in agent_names("toy") and "p1" in agent_names("toy")
