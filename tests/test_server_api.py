"""The game server's HTTP/WebSocket API, over the toy rule system and a temporary SQLite db."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's notice about its httpx-based client
    from fastapi.testclient import TestClient

from gettysburg.core import savefile
from gettysburg.core.protocol import REFEREE
from gettysburg.server.app import create_app
from gettysburg.server.store import Store

RED_LABELS = ("Archer", "Baxter", "Cutler")
BLUE_LABELS = ("Davis", "Early", "Field")


class Server:
    """A TestClient over a fresh app on ``db``, with small helpers."""

    def __init__(self, db: Path) -> None:
        self.store = Store(db)
        self.app = create_app(self.store)
        self.client = TestClient(self.app)
        self.client.__enter__()

    def close(self) -> None:
        self.client.__exit__(None, None, None)
        self.store.close()

    def settle(self) -> None:
        assert self.app.state.runner.wait_idle(10)

    def create(self, red: str = "human", blue: str = "human", options: list[str] | None = None,
               seed: str | None = "7", scenario: str = "standard") -> dict[str, Any]:
        seats = {s: ({"kind": "ai", "agent": "random"} if k == "ai" else {"kind": "human"})
                 for s, k in (("red", red), ("blue", blue))}
        r = self.client.post("/api/games", json={"system": "toy", "scenario": scenario,
                                                 "options": options or [], "seed": seed,
                                                 "seats": seats})
        assert r.status_code == 201, r.text
        out: dict[str, Any] = r.json()
        self.settle()
        return out

    def get(self, game: dict[str, Any], seat: str, path: str = "", **params: Any) -> Any:
        r = self.client.get(f"/api/games/{game['game_id']}{path}", params=params,
                            headers=auth(game, seat))
        assert r.status_code == 200, r.text
        return r.json()

    def act(self, game: dict[str, Any], seat: str, action: dict[str, Any],
            action_id: str) -> Any:
        r = self.client.post(f"/api/games/{game['game_id']}/actions", headers=auth(game, seat),
                             json={"action": action, "action_id": action_id})
        self.settle()
        return r


def auth(game: dict[str, Any], seat: str) -> dict[str, str]:
    return {"Authorization": "Bearer " + game["seats"][seat]["token"]}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    s = Server(tmp_path / "games.db")
    yield s
    s.close()


def test_openapi_is_published(server: Server) -> None:
    paths = server.client.get("/openapi.json").json()["paths"]
    assert "/api/games" in paths and "/api/games/{game_id}/actions" in paths


def test_create_join_view_and_legal(server: Server) -> None:
    g = server.create()
    assert set(g["seats"]) == {"red", "blue"}
    red, blue = g["seats"]["red"], g["seats"]["blue"]
    assert red["token"] != blue["token"] and len(red["token"]) >= 40
    assert red["link"] == f"/g/{g['game_id']}#{red['token']}"
    state = server.get(g, "red")
    assert state["seat"] == "red" and state["to_move"] == ["red"] and state["step"] == 0
    assert state["view"]["blocks"]["r1"]["label"] == "Archer"
    assert "label" not in state["view"]["blocks"]["b1"]
    legal = server.get(g, "red", "/legal")["legal"]
    assert {"type": "pass"} in legal
    assert server.get(g, "blue", "/legal")["legal"] == []
    assert server.get(g, "blue", "/view")["blocks"]["b1"]["label"] == "Davis"


def test_tokens_are_hashed_in_the_store(server: Server, tmp_path: Path) -> None:
    g = server.create()
    raw = (tmp_path / "games.db").read_bytes()
    assert g["seats"]["red"]["token"].encode() not in raw


def test_act_and_idempotent_retry(server: Server) -> None:
    g = server.create()
    r1 = server.act(g, "red", {"type": "reveal", "block": "r1"}, "click-1")
    assert r1.status_code == 200 and r1.json()["duplicate"] is False
    r2 = server.act(g, "red", {"type": "reveal", "block": "r1"}, "click-1")
    assert r2.status_code == 200
    assert r2.json()["duplicate"] is True and r2.json()["index"] == r1.json()["index"] == 0
    assert r2.json()["events"] == r1.json()["events"]
    assert server.get(g, "red")["step"] == 1
    # The same id for a different action is a client bug, reported, not applied.
    r3 = server.act(g, "red", {"type": "pass"}, "click-1")
    assert r3.status_code == 409 and r3.json()["error"]["field"] == "action_id"
    assert server.get(g, "red")["step"] == 1


def test_a_kept_action_is_refused_once_the_game_has_moved_on(server: Server) -> None:
    """A client re-sending an action after an outage names the step it was chosen at: the
    server applies it only at that step, and a retry of one it already applied is still
    answered as the duplicate it is."""
    g = server.create(options=["turns=6"])
    gid = g["game_id"]

    def post(seat: str, action: dict[str, Any], action_id: str, step: int) -> Any:
        r = server.client.post(f"/api/games/{gid}/actions", headers=auth(g, seat),
                               json={"action": action, "action_id": action_id, "step": step})
        server.settle()
        return r

    r = post("red", {"type": "reveal", "block": "r1"}, "kept-1", 0)
    assert r.status_code == 200 and r.json()["duplicate"] is False
    again = post("red", {"type": "reveal", "block": "r1"}, "kept-1", 0)  # answer was lost
    assert again.status_code == 200 and again.json()["duplicate"] is True
    assert post("blue", {"type": "reveal", "block": "b1"}, "b-1", 1).status_code == 200
    # Red chose at step 1, but blue has played since: refused, nothing applied.
    stale = post("red", {"type": "reveal", "block": "r2"}, "kept-2", 1)
    assert stale.status_code == 409
    assert stale.json()["error"]["rule"] == "protocol.step"
    assert stale.json()["error"]["field"] == "step"
    assert "now 2" in stale.json()["error"]["message"]
    assert server.get(g, "red")["step"] == 2
    assert post("red", {"type": "reveal", "block": "r2"}, "kept-3", 2).status_code == 200
    assert server.get(g, "red")["step"] == 3


def test_a_body_that_is_not_json_is_400_naming_the_body(server: Server) -> None:
    g = server.create()
    for path in (f"/api/games/{g['game_id']}/actions", "/api/games"):
        r = server.client.post(path, headers={**auth(g, "red"),
                                              "Content-Type": "application/json"},
                               content=b'{"action": {"type": "pass"}, "action_id": ')
        assert r.status_code == 400, r.text
        error = r.json()["error"]
        assert error["rule"] == "request" and error["field"] == "body"
        assert "not valid JSON" in error["message"]
    assert server.get(g, "red")["step"] == 0


def test_wrong_or_missing_token_is_403(server: Server) -> None:
    g, other = server.create(), server.create()
    gid = g["game_id"]
    for headers in ({}, {"Authorization": "Bearer nope"}, auth(other, "red")):
        r = server.client.get(f"/api/games/{gid}", headers=headers)
        assert r.status_code == 403 and r.json()["error"]["rule"] == "auth.token"
        r = server.client.post(f"/api/games/{gid}/actions", headers=headers,
                               json={"action": {"type": "pass"}, "action_id": "x"})
        assert r.status_code == 403
    assert server.get(g, "red")["step"] == 0
    assert server.client.get("/api/games/nosuchgame", headers=auth(g, "red")).status_code == 404


def test_acting_for_the_other_seat_is_refused_naming_the_rule(server: Server) -> None:
    g = server.create()
    before = server.get(g, "red")
    r = server.act(g, "red", {"type": "reveal", "block": "b1"}, "a")
    assert r.status_code == 422 and r.json()["error"]["rule"] == "T2"
    r = server.client.post(f"/api/games/{g['game_id']}/actions", headers=auth(g, "red"),
                           json={"action": {"type": "pass"}, "action_id": "b", "seat": "blue"})
    assert r.status_code == 403 and r.json()["error"]["rule"] == "auth.seat"
    r = server.act(g, "red", {"kind": "pass"}, "c")
    assert r.status_code == 422 and r.json()["error"]["rule"] == "protocol.action"
    r = server.client.post(f"/api/games/{g['game_id']}/actions", headers=auth(g, "red"),
                           json={"action_id": "d"})
    assert r.status_code == 422 and r.json()["error"]["field"] == "body.action"
    assert server.get(g, "red") == before


def test_out_of_turn_is_409(server: Server) -> None:
    g = server.create()
    r = server.act(g, "blue", {"type": "pass"}, "early")
    assert r.status_code == 409 and r.json()["error"]["rule"] == "protocol.seat"
    assert server.get(g, "blue")["step"] == 0


def test_finished_game_refuses_actions(server: Server) -> None:
    g = server.create(options=["turns=1"])
    assert server.act(g, "red", {"type": "pass"}, "1").status_code == 200
    state = server.get(g, "blue")
    assert state["status"] == "finished" and state["result"] is not None
    r = server.act(g, "blue", {"type": "pass"}, "2")
    assert r.status_code == 409 and r.json()["error"]["rule"] == "protocol.over"


def _attack_until_hit(server: Server, g: dict[str, Any]) -> None:
    """Red attacks with Archer (3 dice) until it hits; blue answers by passing/assigning."""
    for i in range(12):
        state = server.get(g, "red")
        if state["status"] == "finished":
            return
        mover = state["to_move"][0]
        legal = server.get(g, mover, "/legal")["legal"]
        if mover == "red":
            action = {"type": "attack", "block": "r1"}
        else:
            action = next(a for a in legal if a["type"] in ("assign", "pass"))
        assert server.act(g, mover, action, f"m{i}").status_code == 200
        if action["type"] == "assign":
            return


def test_event_log_is_filtered(server: Server) -> None:
    g = server.create(seed="3")
    _attack_until_hit(server, g)
    red_log = server.get(g, "red", "/events")["events"]
    blue_log = server.get(g, "blue", "/events")["events"]
    red_dice = [e for e in red_log if e["type"] == "dice"]
    blue_dice = [e for e in blue_log if e["type"] == "dice"]
    assert red_dice and all("rolls" in e["data"] for e in red_dice if e["data"]
                            .get("rolls") is not None)
    assert any("rolls" in e["data"] for e in red_dice)
    assert all(e.get("redacted") and "rolls" not in e["data"]
               for e in blue_dice if "r1" in json.dumps(e))
    later = server.get(g, "red", "/events", since=2)["events"]
    assert all(e["n"] >= 2 for e in later)


def test_ai_answers_a_human_move(server: Server) -> None:
    g = server.create(blue="ai")
    assert "blue" not in g["seats"]  # no link for an AI seat
    assert server.act(g, "red", {"type": "pass"}, "p").status_code == 200
    state = server.get(g, "red")
    assert state["step"] >= 2 and state["to_move"] in (["red"], [])
    moves = server.get(g, "red", "/events")["events"]
    assert any(e["data"].get("seat") == "blue" for e in moves)


def test_ai_moves_first_when_it_is_red(server: Server) -> None:
    g = server.create(red="ai")
    assert server.get(g, "blue")["step"] >= 1


def test_save_is_withheld_until_the_end_then_replays_exactly(server: Server) -> None:
    g = server.create(options=["turns=4"], blue="ai")
    r = server.client.get(f"/api/games/{g['game_id']}/save", headers=auth(g, "red"))
    assert r.status_code == 409 and r.json()["error"]["rule"] == "fog.save"
    for i in range(10):
        state = server.get(g, "red")
        if state["status"] == "finished":
            break
        assert server.act(g, "red", state["legal"][-1], f"s{i}").status_code == 200
    data = server.get(g, "red", "/save")
    game = savefile.replay(data)
    final = server.get(g, "red")
    assert game.is_terminal() and len(game.history) == final["step"]
    assert game.history[-1].state_hash == data["moves"][-1]["state_hash"]
    rows = server.store.actions(g["game_id"])
    assert rows[-1].state_hash == game.state_hash()


def test_restart_resumes_every_game_exactly(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    first = Server(db)
    g = first.create(seed="11")
    _attack_until_hit(first, g)
    first.act(g, "red" if first.get(g, "red")["to_move"] == ["red"] else "blue",
              {"type": "pass"}, "last")
    before = {s: first.get(g, s) for s in ("red", "blue")}
    logs = {s: first.get(g, s, "/events") for s in ("red", "blue")}
    first.close()
    second = Server(db)
    try:
        assert {s: second.get(g, s) for s in ("red", "blue")} == before
        assert {s: second.get(g, s, "/events") for s in ("red", "blue")} == logs
        # An acknowledged action retried after the restart is still applied only once.
        r = second.act(g, "red" if before["red"]["to_move"] == ["blue"] else "blue",
                       {"type": "pass"}, "last")
        assert r.status_code == 200 and r.json()["duplicate"] is True
        mover = before["red"]["to_move"][0]
        r = second.act(g, mover, {"type": "pass"}, "after-restart")
        assert r.status_code == 200 and r.json()["index"] == before["red"]["step"]
    finally:
        second.close()


def test_restart_lets_a_waiting_ai_move(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    store = Store(db)
    from gettysburg.server.hosting import Host, SeatSpec

    game_id, tokens = Host(store).create("toy", "standard", [], "5",
                                         {"red": SeatSpec("ai", "random"),
                                          "blue": SeatSpec("human")})
    store.close()
    assert Store(db).actions(game_id) == []  # nobody drove the AI yet
    server = Server(db)
    try:
        server.settle()
        g = {"game_id": game_id, "seats": {"blue": {"token": tokens["blue"]}}}
        assert server.get(g, "blue")["step"] >= 1
    finally:
        server.close()


def test_replay_shows_each_step_as_the_seat_saw_it(server: Server) -> None:
    g = server.create(options=["turns=4"])
    server.act(g, "red", {"type": "reveal", "block": "r2"}, "1")
    server.act(g, "blue", {"type": "reveal", "block": "b3"}, "2")
    r0 = server.get(g, "blue", "/replay", step=0)
    assert r0["steps"] == 2 and r0["as"] == "blue" and r0["move"] is None
    assert "label" not in r0["view"]["blocks"]["r2"]
    r1 = server.get(g, "blue", "/replay", step=1)
    assert r1["view"]["blocks"]["r2"]["label"] == "Baxter"  # revealed by then
    assert r1["move"] == {"seat": "red"}  # the other seat's action is not shown
    assert server.get(g, "blue", "/replay", step=2)["move"]["action"]["block"] == "b3"
    assert "label" not in server.get(g, "blue", "/replay", step=2)["view"]["blocks"]["r1"]


def test_finished_replay_is_the_referees(server: Server) -> None:
    g = server.create(options=["turns=1"])
    server.act(g, "red", {"type": "pass"}, "1")
    r = server.get(g, "blue", "/replay", step=0)
    assert r["as"] == REFEREE and r["view"]["blocks"]["r1"]["label"] == "Archer"


def test_branch_from_a_finished_game(server: Server) -> None:
    g = server.create(options=["turns=3"])
    r = server.client.post(f"/api/games/{g['game_id']}/branch", headers=auth(g, "red"),
                           json={"step": 0})
    assert r.status_code == 409 and r.json()["error"]["rule"] == "fog.branch"
    for i, seat in enumerate(("red", "blue", "red")):
        server.act(g, seat, {"type": "reveal", "block": f"{seat[0]}{i + 1}"}, f"{i}")
    assert server.get(g, "red")["status"] == "finished"
    r = server.client.post(f"/api/games/{g['game_id']}/branch", headers=auth(g, "red"),
                           json={"step": 2, "seats": {"red": {"kind": "human"},
                                                      "blue": {"kind": "human"}}})
    assert r.status_code == 201, r.text
    b = r.json()
    assert b["game_id"] != g["game_id"]
    assert b["seats"]["red"]["token"] != g["seats"]["red"]["token"]
    state = server.get(b, "blue")
    assert state["step"] == 2 and state["to_move"] == ["red"] and state["parent"] == g["game_id"]
    assert state["view"]["blocks"]["r1"]["label"] == "Archer"  # revealed at step 1
    assert "label" not in state["view"]["blocks"]["r3"]  # revealed only at step 3
    assert server.act(b, "red", {"type": "pass"}, "what-if").status_code == 200
    assert server.get(g, "red")["step"] == 3  # the original is untouched
    # The old tokens do not open the branch.
    r = server.client.get(f"/api/games/{b['game_id']}", headers=auth(g, "red"))
    assert r.status_code == 403
    # A seat left out of ``seats`` is played as in the original (red: a person); an
    # unknown agent is named as such.
    r = server.client.post(f"/api/games/{g['game_id']}/branch", headers=auth(g, "red"),
                           json={"step": 1, "seats": {"blue": {"kind": "ai",
                                                               "agent": "random"}}})
    assert r.status_code == 201, r.text
    assert set(r.json()["seats"]) == {"red"}  # a link for the human seat only
    r = server.client.post(f"/api/games/{g['game_id']}/branch", headers=auth(g, "red"),
                           json={"step": 1, "seats": {"blue": {"kind": "ai",
                                                               "agent": "oracle"}}})
    assert r.status_code == 422 and r.json()["error"]["field"] == "seats.blue.agent"


def test_a_branch_keeps_the_computer_opponent_unless_told_otherwise(server: Server) -> None:
    g = server.create(blue="ai", options=["turns=1"])
    server.act(g, "red", {"type": "pass"}, "0")  # settles: blue answers, the game ends
    assert server.get(g, "red")["status"] == "finished"
    r = server.client.post(f"/api/games/{g['game_id']}/branch", headers=auth(g, "red"),
                           json={"step": 1})
    assert r.status_code == 201, r.text
    b = r.json()
    assert set(b["seats"]) == {"red"}  # blue is still the computer: no link for it
    seats = {s["seat"]: s for s in server.get(b, "red")["seats"]}
    assert seats["blue"]["kind"] == "ai" and seats["blue"]["agent"] == "random"
    assert seats["red"]["kind"] == "human"


def test_undo_refused_with_the_reason(server: Server) -> None:
    g = server.create(options=["turns=6"])
    gid = g["game_id"]
    r = server.client.post(f"/api/games/{gid}/undo", headers=auth(g, "red"))
    assert r.status_code == 409 and "nothing" in r.json()["error"]["message"]
    server.act(g, "red", {"type": "reveal", "block": "r1"}, "1")
    # Blue saw the reveal (and the turn passing): no take-backs.
    r = server.client.post(f"/api/games/{gid}/undo", headers=auth(g, "red"))
    assert r.status_code == 409 and r.json()["error"]["rule"] == "undo"
    assert "blue" in r.json()["error"]["message"]
    r = server.client.post(f"/api/games/{gid}/undo", headers=auth(g, "blue"))
    assert r.status_code == 409 and "not yours" in r.json()["error"]["message"]
    assert server.get(g, "red")["step"] == 1


def test_create_refusals_name_the_field(server: Server) -> None:
    def create(body: dict[str, Any]) -> Any:
        return server.client.post("/api/games", json=body)

    base = {"system": "toy", "scenario": "standard",
            "seats": {"red": {"kind": "human"}, "blue": {"kind": "ai", "agent": "random"}}}
    r = create({**base, "system": "nope"})
    assert r.status_code == 422 and r.json()["error"]["field"] == "system"
    r = create({**base, "scenario": "nope"})
    assert r.status_code == 422 and r.json()["error"]["field"] == "scenario"
    r = create({**base, "options": ["turns=x"]})
    assert r.status_code == 422 and r.json()["error"]["field"] == "options"
    r = create({**base, "seats": {"red": {"kind": "human"}}})
    assert r.status_code == 422 and r.json()["error"]["field"] == "seats"
    r = create({**base, "seats": {"red": {"kind": "human"},
                                  "blue": {"kind": "ai", "agent": "oracle"}}})
    assert r.status_code == 422 and r.json()["error"]["field"] == "seats.blue.agent"
    r = create({**base, "seats": {"red": {"kind": "ai"}, "blue": {"kind": "ai"}}})
    assert r.status_code == 422


def test_lobby_endpoints(server: Server) -> None:
    data = server.client.get("/api/systems").json()
    toy = next(s for s in data["systems"] if s["name"] == "toy")
    assert "standard" in toy["scenarios"] and toy["listed"] is False
    assert toy["seats"] == {"red": "Red", "blue": "Blue"}
    assert [o["name"] for o in toy["opponents"]] == ["random", "general"]
    seats = server.client.get("/api/setup", params={"system": "toy", "scenario": "strong"})
    assert seats.json()["seats"] == ["red", "blue"]
    for lang in ("en", "es", "de", "it"):
        assert server.client.get(f"/api/i18n/{lang}").json()["lobby.title"]
    assert server.client.get("/").status_code == 200
    assert server.client.get(f"/g/{'x' * 8}").status_code == 200


def test_the_other_seat_never_receives_hidden_values(server: Server) -> None:
    """Play a whole game between two humans and record everything sent to blue: nothing
    may contain a red label unless red revealed it or it was eliminated in the open."""
    g = server.create(options=["turns=8"], seed="SEEDxSECRETq")
    gid = g["game_id"]
    received: list[str] = []

    def blue_get(path: str = "", **params: Any) -> None:
        r = server.client.get(f"/api/games/{gid}{path}", params=params,
                              headers=auth(g, "blue"))
        received.append(r.text)

    with server.client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        ws.send_text(json.dumps({"token": g["seats"]["blue"]["token"], "since": 0}))
        received.append(json.dumps(ws.receive_json()))
        plan = {"red": ["attack", "attack", "pass", "attack"], "blue": ["attack", "pass"]}
        i = 0
        while server.get(g, "red")["status"] == "active" and i < 30:
            mover = server.get(g, "red")["to_move"][0]
            legal = server.get(g, mover, "/legal")["legal"]
            want = plan[mover][i % len(plan[mover])]
            action = next((a for a in legal if a["type"] == want), legal[0])
            if mover == "blue":  # also try illegal things and read every error
                r = server.act(g, "blue", {"type": "attack", "block": "r1"}, f"bad{i}")
                received.append(r.text)
                r = server.act(g, "blue", {"type": "reveal", "block": "r2"}, f"bad2{i}")
                received.append(r.text)
            r = server.act(g, mover, action, f"m{i}")
            assert r.status_code == 200
            if mover == "blue":
                received.append(r.text)
            else:  # blue's own wrong-turn attempt while red is to move
                received.append(server.act(g, "blue", {"type": "pass"}, f"ot{i}").text)
            received.append(json.dumps(ws.receive_json()))
            blue_get()
            blue_get("/view")
            blue_get("/legal")
            blue_get("/events")
            if server.get(g, "red")["status"] == "finished":
                break  # from here on the replay and save show everything, by design
            blue_get("/replay", step=max(0, i - 1))
            blue_get("/save")
            i += 1
    referee_log = [e for e in server.app.state.host.load(gid).game.log]
    public = {str(e.data.get("label")) for e in referee_log
              if e.type in ("reveal", "eliminated") and e.visible_to is None}
    hidden = [label for label in RED_LABELS if label not in public]
    assert hidden, "the scripted game revealed everything; the test would prove nothing"
    blob = "\n".join(received)
    assert '"type":"state"' in blob.replace(" ", "")
    for label in hidden:
        assert label not in blob, f"{label} leaked to blue"
    assert "SEEDxSECRETq" not in blob  # the seed never reaches a player


def test_import_a_save_file_to_replay_it(server: Server) -> None:
    g = server.create(options=["turns=3"], blue="ai")
    for i in range(6):
        state = server.get(g, "red")
        if state["status"] == "finished":
            break
        server.act(g, "red", state["legal"][0], f"i{i}")
    data = server.get(g, "red", "/save")
    r = server.client.post("/api/import", json=data)
    assert r.status_code == 201, r.text
    imported = r.json()
    assert set(imported["seats"]) == {"red", "blue"}
    rows = server.store.actions(imported["game_id"])
    assert [row.state_hash for row in rows] == [m["state_hash"] for m in data["moves"]]
    replay = server.get(imported, "blue", "/replay", step=1)
    assert replay["steps"] == len(data["moves"]) and replay["as"] == REFEREE
    # An edited history is caught by the replay and named.
    forged = json.loads(json.dumps(data))
    forged["moves"][1]["state_hash"] = "0" * 64
    r = server.client.post("/api/import", json=forged)
    assert r.status_code == 422 and r.json()["error"]["rule"] == "save.state"
    assert "move 1" in r.json()["error"]["message"]
    r = server.client.post("/api/import", json={"format": "nope"})
    assert r.status_code == 422 and r.json()["error"]["rule"] == "save.format"


def test_websocket_needs_the_token_and_pushes_changes(server: Server) -> None:
    g = server.create()
    gid = g["game_id"]
    with server.client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        ws.send_text(json.dumps({"token": "wrong"}))
        msg = ws.receive_json()
        assert msg["type"] == "error" and msg["error"]["rule"] == "auth.token"
    with server.client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        ws.send_text(json.dumps({"token": g["seats"]["blue"]["token"], "since": 1}))
        first = ws.receive_json()
        assert first["state"]["seat"] == "blue" and first["events"] == []
        server.act(g, "red", {"type": "reveal", "block": "r3"}, "x")
        pushed = ws.receive_json()
        assert pushed["state"]["step"] == 1
        assert [e["type"] for e in pushed["events"]] == ["reveal"]
        assert pushed["state"]["view"]["blocks"]["r3"]["label"] == "Cutler"


def test_concurrent_retries_apply_once(server: Server) -> None:
    from concurrent.futures import ThreadPoolExecutor

    g = server.create()

    def post(_: int) -> Any:
        return server.client.post(f"/api/games/{g['game_id']}/actions", headers=auth(g, "red"),
                                  json={"action": {"type": "reveal", "block": "r3"},
                                        "action_id": "same-click"}).json()

    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(post, range(16)))
    assert {a["index"] for a in answers} == {0}
    assert sum(not a["duplicate"] for a in answers) == 1
    assert len(server.store.actions(g["game_id"])) == 1


def test_a_stored_game_of_an_unknown_system_is_reported(server: Server) -> None:
    from gettysburg.server.store import SeatRow

    server.store.create_game("ghost", "nosuchsystem", "x", [], "1",
                             [SeatRow("a", "human", None, None, "0" * 64)])
    r = server.client.get("/api/games/ghost", headers={"Authorization": "Bearer t"})
    assert r.status_code == 500 and r.json()["error"]["rule"] == "store.system"


def test_lobby_offers_titles_scenarios_in_rule_order_and_options(server: Server) -> None:
    from gettysburg.boc.game import OPTION_RULES

    systems = {s["name"]: s for s in server.client.get("/api/systems").json()["systems"]}
    boc = systems["boc"]
    assert boc["title"] == "Badges of Courage"
    # The rulebook's order, 9.2 to 9.5, each with the title its file gives.
    assert boc["scenarios"] == ["day1", "day2", "day3", "battle"]
    assert boc["scenario_titles"]["day1"] == "The First Day"
    assert boc["scenario_titles"]["day3"] == "Pickett's Charge"
    assert {o["name"]: o["rule"] for o in boc["options"]} == OPTION_RULES
    assert OPTION_RULES["hancock"] == "4.6" and OPTION_RULES["cavalry_battles"] == "10.0"
    # Each scenario offers the options its sheet lists (9.0): those the game takes, and
    # only those; any other is refused naming the options, not the scenario.
    takes = boc["scenario_options"]
    assert takes["day1"] == ["column_line", "fixed_turn_order", "free_deployment", "hancock",
                             "hidden_hits"]
    # hidden_hits (5.23) is the engine's, not a sheet's: every scenario takes it, and the
    # lobby ticks it for a new game.
    assert all("hidden_hits" in takes[s] for s in boc["scenarios"])
    assert boc["ticked"] == ["hidden_hits"] and systems["toy"]["ticked"] == []
    # What the lobby ticks, every scenario takes: a new game never starts refused.
    assert all(set(boc["ticked"]) <= set(takes[s]) for s in boc["scenarios"])
    assert "hancock" not in takes["day2"] and "cavalry_battles" in takes["day3"]
    assert sorted(takes["battle"]) == sorted(OPTION_RULES)
    for scenario in boc["scenarios"]:
        for option in OPTION_RULES:
            r = server.client.get("/api/setup", params={
                "system": "boc", "scenario": scenario, "options": [option]})
            if option in takes[scenario]:
                assert r.status_code == 200, (scenario, option, r.text)
                assert r.json()["seats"] == ["usa", "csa"]
            else:
                assert r.status_code == 422, (scenario, option)
                assert r.json()["error"]["field"] == "options", r.text
                assert "not offered by scenario" in r.json()["error"]["message"]
    r = server.client.get("/api/setup", params={"system": "boc", "scenario": "day3",
                                               "options": ["no_such_option"]})
    assert r.status_code == 422 and "no_such_option" in r.json()["error"]["message"]
    assert r.json()["error"]["field"] == "options"
    # A blank value (a form's empty field) is no option at all.
    r = server.client.get("/api/setup?system=boc&scenario=day2&options=")
    assert r.status_code == 200 and r.json()["seats"] == ["usa", "csa"], r.text
    r = server.client.get("/api/setup", params={"system": "boc", "scenario": "nope",
                                               "options": ["hancock"]})
    assert r.status_code == 422 and r.json()["error"]["field"] == "scenario"
    r = server.client.post("/api/games", json={
        "system": "boc", "scenario": "day2", "options": ["hancock"],
        "seats": {"usa": {"kind": "human"}, "csa": {"kind": "ai", "agent": "random"}}})
    assert r.status_code == 422 and r.json()["error"]["field"] == "options", r.text
    assert ".yaml" not in r.text and "scenarios/" not in r.text  # no server file path
    # A save recorded before the check (Hancock on Day 2 changed nothing) is still hosted.
    from gettysburg.core import savefile
    from gettysburg.core.protocol import new_game

    old = savefile.save(new_game("boc/day2", options=["hancock"], seed="3"))
    r = server.client.post("/api/import", json=old)
    assert r.status_code == 201, r.text
    # A system whose options are free text says so with a hint instead.
    assert systems["toy"]["options"] == [] and systems["toy"]["option_hint"] == "turns=6"
