"""Undo that cannot cheat, on a tiny test-only rule system where some actions are private.

System "memo": two seats take turns; on its turn a seat may ``plan`` (a private note the
other seat cannot see), ``scout`` (public: the other seat sees a counter go up), ``roll``
(a die, public) or ``end`` its turn.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from gettysburg.core.canonical import JSONDict
from gettysburg.core.dice import Dice, normalize_seed
from gettysburg.core.protocol import (
    Action,
    Event,
    Game,
    GameSetup,
    RuleError,
    Seat,
    action_key,
    register_system,
    resolve_dice,
)
from gettysburg.server.app import create_app
from gettysburg.server.store import Store

SEATS = ("usa", "csa")


class MemoGame(Game):
    system = "memo"

    def __init__(self, scenario: str = "one", options: Sequence[str] = (),
                 seed: int | str = 0, dice: Dice | None = None) -> None:
        super().__init__(GameSetup(self.system, scenario, tuple(options), normalize_seed(seed)),
                         resolve_dice(seed, dice))
        self.active, self.turn = "usa", 1
        self.plans: dict[str, list[str]] = {s: [] for s in SEATS}
        self.scouts = 0

    def position_json(self) -> JSONDict:
        return {"active": self.active, "turn": self.turn, "scouts": self.scouts,
                "plans": {k: list(v) for k, v in self.plans.items()}}

    def load_position(self, position: JSONDict) -> None:
        self.active, self.turn = str(position["active"]), int(position["turn"])
        self.scouts = int(position["scouts"])
        self.plans = {k: list(v) for k, v in position["plans"].items()}

    def seats(self) -> list[Seat]:
        return list(SEATS)

    def to_move(self) -> list[Seat]:
        return [] if self.is_terminal() else [self.active]

    def legal_actions(self, seat: Seat) -> list[Action]:
        if seat not in self.to_move():
            return []
        return [{"type": "plan", "note": f"n{len(self.plans[seat])}"}, {"type": "scout"},
                {"type": "roll"}, {"type": "end"}]

    def validate(self, action: Action, seat: Seat) -> None:
        if action_key(action) not in {action_key(a) for a in self.legal_actions(seat)}:
            raise RuleError("M1", f"{action['type']} is not allowed now")

    def execute(self, action: Action, seat: Seat) -> list[Event]:
        kind = action["type"]
        if kind == "plan":
            self.plans[seat].append(str(action["note"]))
            return [Event("plan", "M2", {"note": action["note"]}, visible_to=(seat,))]
        if kind == "scout":
            self.scouts += 1
            return [Event("scout", "M3", {"seat": seat})]
        if kind == "roll":
            value = self.dice.roll("roll", "M4")
            return [Event("roll", "M4", {"value": value})]
        self.active = SEATS[1] if seat == SEATS[0] else SEATS[0]
        self.turn += 1
        return [Event("end", "M5", {"seat": seat})]

    def view(self, seat: Seat) -> JSONDict:
        return {"active": self.active, "turn": self.turn, "scouts": self.scouts,
                "plans": self.plans.get(seat, [])}

    def is_terminal(self) -> bool:
        return self.turn > 10

    def result(self) -> JSONDict | None:
        return {"winner": None} if self.is_terminal() else None


register_system("memo", MemoGame)


class KnowingMemoGame(MemoGame):
    """Memo that can say what an action showed its own player: a scout shows nothing of
    the other side (``Game.learned_from``); a ``peek`` shows the other side's plans."""

    system = "memo-knows"

    def legal_actions(self, seat: Seat) -> list[Action]:
        return [*super().legal_actions(seat), {"type": "peek"}] if seat in self.to_move() \
            else []

    def execute(self, action: Action, seat: Seat) -> list[Event]:
        if action["type"] == "peek":
            self.peeked = True
            return [Event("peek", "M6", {"seat": seat}, visible_to=(seat,))]
        return super().execute(action, seat)

    def view(self, seat: Seat) -> JSONDict:
        out = super().view(seat)
        if getattr(self, "peeked", False):
            other = SEATS[1] if seat == SEATS[0] else SEATS[0]
            out["their_plans"] = list(self.plans[other])
        return out

    def learned_from(self, seat: Seat, before: JSONDict, after: JSONDict) -> bool | None:
        return before.get("their_plans") != after.get("their_plans")


register_system("memo-knows", KnowingMemoGame)


@contextmanager
def _serving(db: Path) -> Iterator[TestClient]:
    """A server on the store in ``db``, closed on leaving (a restart opens another)."""
    store = Store(db)
    with TestClient(create_app(store)) as c:
        yield c
    store.close()


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with _serving(tmp_path / "g.db") as c:
        yield c


def _game(client: TestClient, system: str = "memo", csa: str = "human"
          ) -> tuple[str, dict[str, str]]:
    seat = {"kind": "ai", "agent": "random"} if csa == "ai" else {"kind": "human"}
    r = client.post("/api/games", json={"system": system, "scenario": "one",
                                        "seats": {"usa": {"kind": "human"}, "csa": seat}})
    assert r.status_code == 201, r.text
    body = r.json()
    return body["game_id"], {s: {"Authorization": "Bearer " + v["token"]}
                             for s, v in body["seats"].items()}


def _act(client: TestClient, gid: str, h: dict[str, str], action: dict[str, Any],
         aid: str) -> None:
    r = client.post(f"/api/games/{gid}/actions", headers=h,
                    json={"action": action, "action_id": aid})
    assert r.status_code == 200, r.text


def test_private_actions_can_be_taken_back(client: TestClient) -> None:
    gid, h = _game(client)
    _act(client, gid, h["usa"], {"type": "plan", "note": "n0"}, "a")
    _act(client, gid, h["usa"], {"type": "plan", "note": "n1"}, "b")
    state = client.get(f"/api/games/{gid}", headers=h["usa"]).json()
    assert state["undo"] is True and state["view"]["plans"] == ["n0", "n1"]
    r = client.post(f"/api/games/{gid}/undo", headers=h["usa"])
    assert r.status_code == 200, r.text
    assert r.json()["view"]["plans"] == ["n0"] and r.json()["step"] == 1
    assert client.post(f"/api/games/{gid}/undo", headers=h["usa"]).status_code == 200
    state = client.get(f"/api/games/{gid}", headers=h["usa"]).json()
    assert state["step"] == 0 and state["view"]["plans"] == []
    # The undone action is gone from the store too, so a restart does not bring it back.
    events = client.get(f"/api/games/{gid}/events", headers=h["usa"]).json()["events"]
    assert not [e for e in events if e["type"] == "plan"]


def test_undo_refused_after_dice_or_anything_the_other_seat_saw(client: TestClient) -> None:
    gid, h = _game(client)
    _act(client, gid, h["usa"], {"type": "roll"}, "r")
    r = client.post(f"/api/games/{gid}/undo", headers=h["usa"])
    assert r.status_code == 409 and "dice" in r.json()["error"]["message"]
    _act(client, gid, h["usa"], {"type": "scout"}, "s")
    # The client is told in advance, so it can grey out its "take back" button.
    assert client.get(f"/api/games/{gid}", headers=h["usa"]).json()["undo"] is False
    r = client.post(f"/api/games/{gid}/undo", headers=h["usa"])
    assert r.status_code == 409 and "csa" in r.json()["error"]["message"]
    assert client.get(f"/api/games/{gid}", headers=h["usa"]).json()["step"] == 2
    _act(client, gid, h["usa"], {"type": "end"}, "e")
    r = client.post(f"/api/games/{gid}/undo", headers=h["usa"])
    assert r.status_code == 409
    r = client.post(f"/api/games/{gid}/undo", headers=h["csa"])
    assert r.status_code == 409 and "not yours" in r.json()["error"]["message"]


def test_undo_survives_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    with _serving(db) as c:
        gid, h = _game(c)
        _act(c, gid, h["usa"], {"type": "plan", "note": "n0"}, "a")
        assert c.post(f"/api/games/{gid}/undo", headers=h["usa"]).status_code == 200
    with _serving(db) as c:
        state = c.get(f"/api/games/{gid}", headers=h["usa"]).json()
        assert state["step"] == 0 and state["view"]["plans"] == []
        # The id of the undone action may be used again: it was never acknowledged as kept.
        _act(c, gid, h["usa"], {"type": "plan", "note": "n0"}, "a")


def test_a_move_the_computer_saw_can_be_taken_back_if_it_showed_nothing(
        client: TestClient) -> None:
    """Against a computer seat, a public action may be taken back when the system says it
    showed its player nothing of the other side; against a person it may not, and a system
    that cannot tell keeps the strict rule."""
    gid, h = _game(client, "memo-knows", csa="ai")
    _act(client, gid, h["usa"], {"type": "scout"}, "s")
    assert client.get(f"/api/games/{gid}", headers=h["usa"]).json()["undo"] is True
    r = client.post(f"/api/games/{gid}/undo", headers=h["usa"])
    assert r.status_code == 200, r.text
    state = client.get(f"/api/games/{gid}", headers=h["usa"]).json()
    assert state["step"] == 0 and state["view"]["scouts"] == 0
    _act(client, gid, h["usa"], {"type": "peek"}, "p")  # it showed usa the CSA's plans
    r = client.post(f"/api/games/{gid}/undo", headers=h["usa"])
    assert r.status_code == 409 and "showed you" in r.json()["error"]["message"]
    gid, h = _game(client, "memo-knows")  # a person in the CSA seat watches the board
    _act(client, gid, h["usa"], {"type": "scout"}, "s")
    r = client.post(f"/api/games/{gid}/undo", headers=h["usa"])
    assert r.status_code == 409 and "csa could see" in r.json()["error"]["message"]
    gid, h = _game(client, "memo", csa="ai")  # no learned_from: the strict rule
    _act(client, gid, h["usa"], {"type": "scout"}, "s")
    r = client.post(f"/api/games/{gid}/undo", headers=h["usa"])
    assert r.status_code == 409 and "csa could see" in r.json()["error"]["message"]


def test_undo_against_the_computer_after_a_restart_checks_by_replay(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    with _serving(db) as c:
        gid, h = _game(c, "memo-knows", csa="ai")
        _act(c, gid, h["usa"], {"type": "scout"}, "s")
        _act(c, gid, h["usa"], {"type": "peek"}, "p")
    with _serving(db) as c:
        r = c.post(f"/api/games/{gid}/undo", headers=h["usa"])
        assert r.status_code == 409 and "showed you" in r.json()["error"]["message"]
