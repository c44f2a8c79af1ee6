"""Nothing a seat receives reveals what the rules keep hidden from it (docs/security.md).

Real Badges of Courage games are played through the HTTP API and the WebSocket by two
scripted human seats, and everything each seat receives (state, view, legal actions,
events, replay, save refusal, map, error messages, WebSocket pushes) is checked against
the referee's state at that moment: no id or name of an enemy block the rules keep hidden,
no identity field next to a hidden block's handle, no seed, fog key or other seat's token.
"""

from __future__ import annotations

import json
import os
import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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
        assert "have ['day1', 'day2', 'day3', 'battle']" in err["message"]
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


# --- the checker ------------------------------------------------------------------------

#: Fields that tell who or what a block is; none may sit beside a hidden block's handle.
IDENTITY_KEYS = frozenset({"id", "name", "strength", "max_strength", "morale", "firepower",
                           "label", "rating", "movement", "type"})


def _names() -> dict[str, list[str]]:
    """Unit id -> the names it is printed under (the public order of battle)."""
    from gettysburg.boc.oob import default_oob

    return {u.id: [u.name, *u.aliases] for u in default_oob().units.values()}


def _name_in(name: str, text: str) -> bool:
    """``name`` as a whole word (names hold dots and spaces: "A.P. Hill")."""
    return name in text and re.search(rf"(?<![\w.']){re.escape(name)}(?![\w'])",
                                      text) is not None


def public_names(public: str) -> set[str]:
    """Block names that also occur in public text (map places, UI words)."""
    return {n for ns in _names().values() for n in ns if _name_in(n, public)}


class Secrets:
    """What ``seat`` may not learn at one moment, built from the referee's position."""

    def __init__(self, seat: str, position: dict[str, Any], fog_handles: dict[str, str],
                 seen: set[str], secrets: list[str], public: set[str]) -> None:
        names = _names()
        self.seat = seat
        hidden = [uid for uid, u in position["units"].items()
                  if u["side"] != seat and u["status"] == "on_map" and not u.get("revealed")]
        # A block shown to this seat once (revealed, or eliminated in the open) may be
        # named by old log entries even if it is hidden again now: only never-seen ones.
        self.ids = sorted(uid for uid in hidden if uid not in seen)
        self.handles = {fog_handles[uid] for uid in hidden}
        allowed = {n for uid, ns in names.items() if uid not in self.ids for n in ns}
        # Names that are also public words (a place on the map, a friendly block's name)
        # cannot be told apart from a leak by text; the id check covers those blocks.
        self.names = sorted({n for uid in self.ids for n in names.get(uid, [])
                             if n not in allowed and n not in public})
        self.secrets = [s for s in secrets if s]

    def leaks(self, label: str, text: str) -> list[str]:
        """Every forbidden thing in one message ``text`` (JSON or not) a seat received."""
        found = [f"{label}: id {i!r}" for i in self.ids if i in text and re.search(
            rf"(?<![\w-]){re.escape(i)}(?![\w-])", text)]
        found += [f"{label}: name {n!r}" for n in self.names if _name_in(n, text)]
        found += [f"{label}: secret {s[:6]!r}..." for s in self.secrets if s in text]
        try:
            doc = json.loads(text)
        except ValueError:
            return found
        for obj in _dicts(doc):
            if IDENTITY_KEYS.isdisjoint(obj):
                continue
            if any(isinstance(v, str) and v in self.handles for v in obj.values()):
                found.append(f"{label}: {sorted(IDENTITY_KEYS & set(obj))} beside a hidden "
                             f"block's handle in {json.dumps(obj)[:200]}")
        return found


def _dicts(doc: Any) -> Iterator[dict[str, Any]]:
    """Every JSON object inside ``doc``."""
    stack = [doc]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            yield item
            stack.extend(v for v in item.values() if isinstance(v, (dict, list)))
        elif isinstance(item, list):
            stack.extend(v for v in item if isinstance(v, (dict, list)))


def test_the_checker_fires_on_an_injected_leak() -> None:
    """The checker is only worth something if it catches a leak: inject a few."""
    from gettysburg.core.protocol import new_game

    game = new_game("boc/day1", seed="leak-probe")
    pos = game.position_json()
    key: bytes = game.key  # type: ignore[attr-defined]
    from gettysburg.boc.fog import handle

    handles = {uid: handle(key, uid) for uid in pos["units"]}
    secret = Secrets("usa", pos, handles, set(), ["the-seed", "tok"], public=set())
    assert secret.ids, "Day 1 starts with hidden CSA blocks on the map"
    clean = json.dumps(game.view("usa"))
    assert secret.leaks("view", clean) == []
    victim = secret.ids[0]
    victim_handle = handles[victim]
    assert secret.leaks("x", clean.replace(victim_handle, victim))  # an id instead of handle
    name = _names()[victim][0]
    if name in secret.names:
        assert secret.leaks("x", json.dumps({"message": f"{name} cannot fire"}))
    assert secret.leaks("x", json.dumps({"hidden": [{"handle": victim_handle,
                                                     "strength": 4}]}))
    assert secret.leaks("x", "error: the-seed")
    assert not secret.leaks("x", json.dumps({"unit": victim_handle, "hex": "Q10"}))
    # An id that is merely a prefix of a longer word is not a hit.
    assert not secret.leaks("x", json.dumps({"u": victim + "x"}))


def test_own_blocks_carry_their_label_and_hidden_blocks_only_their_back(
        client: TestClient) -> None:
    """Each seat's view gives its own blocks what the printed label shows (rating, maximum
    strength, movement allowance), as the order of battle prints them; a hidden enemy block
    is its back: side, hex and formation under its handle, nothing more."""
    from gettysburg.boc.oob import default_oob

    oob = default_oob()
    r = client.post("/api/games", json={"system": "boc", "scenario": "day1", "seed": "lbl",
                                        "seats": {s: {"kind": "human"} for s in SEATS}})
    assert r.status_code == 201, r.text
    links = r.json()["seats"]
    for seat in SEATS:
        headers = {"Authorization": f"Bearer {links[seat]['token']}"}
        view = client.get(f"/api/games/{r.json()['game_id']}/view", headers=headers).json()
        own = [u for u in view["units"] if u["side"] == seat]
        assert own and len(own) == len(view["units"]), "Day 1 starts with no block revealed"
        for u in own:
            printed = oob[u["id"]]
            assert (u["rating"], u["max_strength"], u["movement"]) == (
                printed.rating, printed.max_strength, printed.movement.allowance), u
            assert u["strength"] <= u["max_strength"]
        assert {"C2", "B2"} & {u["rating"] for u in own}  # real ratings, not a default
        assert view["hidden"], "the enemy's blocks on the map are hidden"
        for h in view["hidden"]:
            assert set(h) == {"handle", "side", "hex", "column"}, h
            assert h["side"] != seat


# --- real games through the API -----------------------------------------------------------

SEATS = ("usa", "csa")


def _weights(legal: list[dict[str, Any]], patience: int) -> list[int]:
    """Favour combat (it reveals and hides blocks); end a phase now and then."""
    return [20 if a["type"] in ("fire", "melee") else
            max(1, len(legal) // patience) if a["type"] == "end_phase" else 1 for a in legal]


class Match:
    """One BoC game between two scripted human seats, every answer to a seat checked."""

    def __init__(self, client: TestClient, scenario: str, seed: str) -> None:
        from gettysburg.boc.fog import fog_key

        self.client, self.seed = client, seed
        r = client.post("/api/games", json={"system": "boc", "scenario": scenario,
                                            "seed": seed, "seats": {s: {"kind": "human"}
                                                                    for s in SEATS}})
        assert r.status_code == 201, r.text
        self.gid = r.json()["game_id"]
        self.tokens = {s: r.json()["seats"][s]["token"] for s in SEATS}
        self.host = client.app.state.host  # type: ignore[attr-defined]
        # The server's fog key (from its secret, not the seed): the seed alone gives none.
        self.fog_key: bytes = self.referee().key
        assert self.fog_key != fog_key(seed)
        self.seen: dict[str, set[str]] = {s: set() for s in SEATS}
        self.found: list[str] = []
        self.checked = 0
        self._cache: dict[tuple[str, int, int], Secrets] = {}
        public = [client.get("/api/maps/boc").text, client.get("/api/systems").text,
                  client.get("/api/i18n/en").text]
        self.public = public_names("\n".join(public))
        self.ws: dict[str, Any] = {}
        self.ws_steps: dict[str, int] = {}
        self.ws_state: dict[str, dict[str, Any]] = {}

    # -- the referee's side ----------------------------------------------------------------
    def referee(self) -> Any:
        return self.host.load(self.gid).game

    def state_hash(self) -> str:
        return str(self.referee().state_hash())

    def note_reveals(self) -> None:
        """Blocks the rules have shown a seat (revealed, or eliminated) stay known to it."""
        for uid, u in self.referee().position_json()["units"].items():
            if u.get("revealed") or u["status"] == "eliminated":
                for s in SEATS:
                    self.seen[s].add(uid)

    def secrets(self, seat: str) -> Secrets:
        from gettysburg.boc.fog import handle

        game = self.referee()
        key = (seat, len(game.history), len(self.seen[seat]))
        if key not in self._cache:
            pos = game.position_json()
            handles = {uid: handle(self.fog_key, uid, u.get("returned", 0))
                       for uid, u in pos["units"].items()}
            other = [t for s, t in self.tokens.items() if s != seat]
            if game.is_terminal():
                # Over: the referee's replay and the save (with the seed) are released by
                # design (docs/server.md); only the other seat's token stays secret.
                self._cache[key] = Secrets(seat, {"units": {}}, {}, set(), other, set())
            else:
                self._cache[key] = Secrets(seat, pos, handles, self.seen[seat],
                                           [self.seed, self.fog_key.hex(), *other],
                                           self.public)
        return self._cache[key]

    def scan(self, seat: str, label: str, text: str, sent: tuple[str, ...] = ()) -> None:
        """Check one message ``seat`` received; ``sent`` are strings the seat itself put in
        its request (an error may quote them back)."""
        for s in sent:
            text = text.replace(s, "<sent>")
        self.found.extend(self.secrets(seat).leaks(f"{seat} {label}", text))
        self.checked += 1

    # -- a seat's side -----------------------------------------------------------------------
    def auth(self, seat: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[seat]}"}

    def get(self, seat: str, path: str = "", **params: Any) -> Any:
        r = self.client.get(f"/api/games/{self.gid}{path}", params=params,
                            headers=self.auth(seat))
        self.scan(seat, f"GET {path or '/'} {params}", r.text)
        return r

    def post(self, seat: str, path: str, body: dict[str, Any],
             sent: tuple[str, ...] = ()) -> Any:
        r = self.client.post(f"/api/games/{self.gid}{path}", json=body,
                             headers=self.auth(seat))
        self.scan(seat, f"POST {path}", r.text, sent)
        return r

    def connect(self, seat: str) -> None:
        ws = self.client.websocket_connect(f"/api/games/{self.gid}/ws")
        ws.__enter__()
        ws.send_text(json.dumps({"token": self.tokens[seat], "since": 0}))
        self.ws[seat] = ws
        self.ws_steps[seat] = -1
        self.drain(seat)

    def drain(self, seat: str) -> None:
        """Read the seat's WebSocket pushes up to the game's current step."""
        want = len(self.referee().history)
        while self.ws_steps[seat] != want:
            msg = self.ws[seat].receive_text()
            self.scan(seat, "WS", msg)
            self.ws_state[seat] = json.loads(msg)["state"]
            self.ws_steps[seat] = int(self.ws_state[seat]["step"])

    def close(self) -> None:
        for ws in self.ws.values():
            ws.__exit__(None, None, None)


def _probe_identities(m: Match, seat: str, legal: list[dict[str, Any]]) -> None:
    """Name a hidden enemy block (or a made-up one) where the seat's own block goes: the
    refusal must read the same whichever block it is, so it cannot be used to ask where
    (or whether) a hidden block is."""
    enemy = [uid for uid in m.secrets(seat).ids][:6]
    if not enemy:
        return
    fake = f"{'csa' if seat == 'usa' else 'usa'}-nobody"
    own = {uid for uid, u in m.referee().position_json()["units"].items() if u["side"] == seat}
    done: set[tuple[str, str]] = set()
    before = m.state_hash()
    for action in legal:
        for field, value in action.items():
            if not isinstance(value, str) or value not in own \
                    or (action["type"], field) in done:
                continue
            done.add((action["type"], field))
            answers = {}
            for uid in [*enemy, fake]:
                r = m.client.post(f"/api/games/{m.gid}/actions", headers=m.auth(seat),
                                  json={"action": {**action, field: uid},
                                        "action_id": f"probe-{uid}-{len(m.found)}"})
                assert 400 <= r.status_code < 500, r.text
                answers[uid] = (r.status_code, r.text.replace(uid, "<unit>"))
            assert len(set(answers.values())) == 1, (action, field, answers)
    assert m.state_hash() == before


def _probe_other_seat(m: Match, mover: str, legal: list[dict[str, Any]]) -> None:
    """The seat not to move tries the mover's action, and names the mover's seat: refused,
    nothing changes, and the refusal says nothing it should not."""
    idle = next(s for s in SEATS if s != mover)
    before = m.state_hash()
    sent = tuple(str(v) for v in legal[0].values())
    r = m.post(idle, "/actions", {"action": legal[0], "action_id": "not-mine"}, sent)
    assert r.status_code == 409 and r.json()["error"]["rule"] == "protocol.seat", r.text
    r = m.post(idle, "/actions", {"action": legal[0], "action_id": "not-mine-2",
                                  "seat": mover}, sent)
    assert r.status_code == 403 and r.json()["error"]["rule"] == "auth.seat", r.text
    assert m.state_hash() == before


def _read_everything(m: Match, rng: Any) -> None:
    step = len(m.referee().history)
    for seat in SEATS:
        m.get(seat)
        view = m.get(seat, "/view").json()
        m.get(seat, "/legal")
        m.get(seat, "/events", since=rng.randrange(0, 40))
        assert m.get(seat, "/card").status_code == 200
        # Why one's own block has no action at a hidden enemy block's hex (issue 57): the
        # answer names nothing hidden (picked by step, not by rng: the game stays the same).
        own = [u["id"] for u in view["units"] if u["side"] == seat and u.get("hex")]
        places = [h["hex"] for h in view["hidden"]]
        if own and places:
            r = m.get(seat, "/why", unit=own[step % len(own)], place=places[step % len(places)])
            assert r.status_code == 200, r.text
        if own:  # and what selecting it would set going
            assert m.get(seat, "/preview", unit=own[step % len(own)]).status_code == 200
        m.get(seat, "/replay", step=rng.randrange(0, step + 1))
        r = m.get(seat, "/map")
        assert r.status_code == 200 and r.text == m.client.get("/api/maps/boc").text
        if not m.referee().is_terminal():
            r = m.get(seat, "/save")
            assert r.status_code == 409 and r.json()["error"]["rule"] == "fog.save"
            r = m.post(seat, "/branch", {"step": 0})
            assert r.status_code == 409 and r.json()["error"]["rule"] == "fog.branch"


def play(m: Match, seed: int, patience: int, limit: int) -> dict[str, int]:
    """Play up to ``limit`` actions; returns what was exercised."""
    import random

    rng = random.Random(seed)
    for s in SEATS:
        m.connect(s)
    try:
        return _play(m, rng, patience, limit)
    finally:
        m.close()  # an open WebSocket would keep the test client from shutting down


def _play(m: Match, rng: Any, patience: int, limit: int) -> dict[str, int]:
    played: dict[str, int] = {}
    ids: dict[str, list[tuple[str, dict[str, Any]]]] = {s: [] for s in SEATS}
    for i in range(limit):
        game = m.referee()
        if game.is_terminal():
            break
        mover = game.to_move()[0]
        legal = m.ws_state[mover]["legal"]  # what the seat's client was pushed
        assert legal, f"{mover} is to move but has no legal action"
        if i % 9 == 0:
            _probe_identities(m, mover, legal)
            _probe_other_seat(m, mover, legal)
        action = rng.choices(legal, _weights(legal, patience))[0]
        before = len(game.history)
        r = m.client.post(f"/api/games/{m.gid}/actions", headers=m.auth(mover),
                          json={"action": action, "action_id": f"a{i}"})
        assert r.status_code == 200, r.text
        m.note_reveals()
        m.scan(mover, "POST /actions", r.text)
        played[action["type"]] = played.get(action["type"], 0) + 1
        ids[mover].append((f"a{i}", action))
        assert len(m.referee().history) == before + 1
        for s in SEATS:
            m.drain(s)
        if i % 11 == 0:
            _read_everything(m, rng)
        if i % 13 == 5 and len(ids[mover]) > 1:
            # A replayed action id: the stored outcome, applied once; reused for another
            # action: refused. Either way nothing changes.
            old_id, old_action = ids[mover][-2]
            h = m.state_hash()
            r = m.post(mover, "/actions", {"action": old_action, "action_id": old_id})
            assert r.status_code == 200 and r.json()["duplicate"] is True, r.text
            r = m.post(mover, "/actions", {"action": {**old_action, "again": True},
                                           "action_id": old_id})
            assert r.status_code == 409 and r.json()["error"]["rule"] == "request.action_id"
            assert m.state_hash() == h
    _read_everything(m, rng)
    return played


#: GETTYSBURG_LONG=1 plays the game to its end (about 300 actions, a few minutes on a
#: loaded machine); by default the first 90 actions, which include the cavalry battles,
#: fire and melee decisions of Day 3.
LONG = os.environ.get("GETTYSBURG_LONG") == "1"


def test_a_game_leaks_nothing_to_either_seat(client: TestClient) -> None:
    seed = "L3-a"
    m = Match(client, "day3", seed)
    played = play(m, seed=8, patience=4, limit=700 if LONG else 90)
    game = m.referee()
    assert m.found == [], "\n".join(m.found[:20])
    # The game must have exercised the fog, or the test proves nothing.
    assert {"move", "end_phase", "fire"} <= set(played), played
    assert m.checked > 300
    if not LONG:
        assert not game.is_terminal() and all(m.secrets(s).ids for s in SEATS)
        return
    assert game.is_terminal(), f"the game did not finish: {played}"
    assert "melee" in played and any(m.seen[s] for s in SEATS)
    # Once the game is over, the save and the referee's replay are released by design.
    r = m.client.get(f"/api/games/{m.gid}/save", headers=m.auth("usa"))
    assert r.status_code == 200 and r.json()["seed"] == seed
    before = m.state_hash()
    for s in SEATS:  # and nothing more can be played
        r = m.client.post(f"/api/games/{m.gid}/actions", headers=m.auth(s),
                          json={"action": {"type": "end_phase"}, "action_id": "late"})
        assert r.status_code == 409 and r.json()["error"]["rule"] == "protocol.over"
    assert m.state_hash() == before


# --- tokens: every endpoint, every channel -------------------------------------------------

GET_PATHS = ("", "/view", "/legal", "/events", "/replay", "/save", "/map")
POST_PATHS = ("/actions", "/undo", "/branch")


def test_a_token_opens_only_its_own_game_on_every_endpoint(client: TestClient) -> None:
    """Another game's token, a missing or malformed one: 403 everywhere, the same answer,
    and the game is untouched."""
    def create() -> dict[str, Any]:
        r = client.post("/api/games", json={"system": "boc", "scenario": "day1",
                                            "seed": "t", "seats": {
                                                "usa": {"kind": "human"},
                                                "csa": {"kind": "human"}}})
        assert r.status_code == 201
        body: dict[str, Any] = r.json()
        return body

    g, other = create(), create()
    gid = g["game_id"]
    host = client.app.state.host  # type: ignore[attr-defined]
    before = host.load(gid).game.state_hash()
    bad_headers = [{}, {"Authorization": "Bearer "}, {"Authorization": "Basic x"},
                   {"Authorization": "Bearer " + g["seats"]["usa"]["token"][:-1]},
                   {"Authorization": "Bearer " + g["seats"]["usa"]["token"] + "x"},
                   {"Authorization": "Bearer " + other["seats"]["usa"]["token"]},
                   {"Authorization": "Bearer " + other["seats"]["csa"]["token"]}]
    answers = set()
    for headers in bad_headers:
        for path in GET_PATHS:
            r = client.get(f"/api/games/{gid}{path}", headers=headers)
            assert r.status_code == 403, (path, r.text)
            answers.add(r.text)
        for path in POST_PATHS:
            body = {"action": {"type": "end_phase"}, "action_id": "x", "step": 0}
            r = client.post(f"/api/games/{gid}{path}", headers=headers, json=body)
            assert r.status_code == 403, (path, r.text)
            answers.add(r.text)
        with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
            token = headers.get("Authorization", "")[7:]
            ws.send_text(json.dumps({"token": token, "since": 0}))
            msg = ws.receive_json()
            assert msg["type"] == "error" and msg["error"]["rule"] == "auth.token"
            answers.add(json.dumps({"error": msg["error"]}, separators=(",", ":")))
    assert len(answers) == 1, answers  # a wrong token learns nothing about the game
    assert host.load(gid).game.state_hash() == before
    assert client.app.state.store.actions(gid) == []  # type: ignore[attr-defined]


def test_a_websocket_with_a_malformed_hello_is_closed(client: TestClient) -> None:
    r = client.post("/api/games", json={"system": "toy", "scenario": "standard", "seed": "1",
                                        "seats": {"red": {"kind": "human"},
                                                  "blue": {"kind": "human"}}})
    gid = r.json()["game_id"]
    token = r.json()["seats"]["red"]["token"]
    for hello in ("not json", "[]", json.dumps({"token": token, "since": "x"}),
                  json.dumps({"token": None}), json.dumps({"token": [token]})):
        with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
            ws.send_text(hello)
            try:
                msg = ws.receive_json()
            except Exception:  # closed without a message: fine, nothing was sent
                continue
            assert msg["type"] == "error", msg
    # The right hello still works afterwards.
    with client.websocket_connect(f"/api/games/{gid}/ws") as ws:
        ws.send_text(json.dumps({"token": token, "since": 0}))
        assert ws.receive_json()["state"]["seat"] == "red"


def test_a_websocket_that_never_says_hello_is_closed(client: TestClient,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """A connection that never sends its token does not hold a server task forever."""
    from starlette.websockets import WebSocketDisconnect

    from gettysburg.server import push

    monkeypatch.setattr(push, "HELLO_SECONDS", 0.3)
    r = client.post("/api/games", json={"system": "toy", "scenario": "standard", "seed": "1",
                                        "seats": {"red": {"kind": "human"},
                                                  "blue": {"kind": "human"}}})
    with client.websocket_connect(f"/api/games/{r.json()['game_id']}/ws") as ws, \
            pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_text()  # nothing sent: the server gives up and closes
    assert closed.value.code == 4400


def test_a_server_drawn_seed_never_reaches_a_seat(client: TestClient) -> None:
    """A game created without a seed gets a secret one; no endpoint shows it (or the fog
    key derived from it) to either seat while the game is on."""
    from gettysburg.boc.fog import fog_key

    r = client.post("/api/games", json={"system": "boc", "scenario": "day1",
                                        "seats": {"usa": {"kind": "human"},
                                                  "csa": {"kind": "human"}}})
    g = r.json()
    seed = client.app.state.store.game(g["game_id"]).seed  # type: ignore[attr-defined]
    assert len(seed) >= 32
    secrets = (seed, fog_key(seed).hex())
    for seat in SEATS:
        headers = {"Authorization": "Bearer " + g["seats"][seat]["token"]}
        texts = [client.get(f"/api/games/{g['game_id']}{p}", headers=headers).text
                 for p in GET_PATHS]
        with client.websocket_connect(f"/api/games/{g['game_id']}/ws") as ws:
            ws.send_text(json.dumps({"token": g["seats"][seat]["token"], "since": 0}))
            texts.append(ws.receive_text())
        assert all(s not in t for s in secrets for t in texts), seat
        assert any('"view"' in t for t in texts)


# --- the end of a game releases everything: it must stay the end -------------------------

END_SEED = "end-of-game"


@pytest.fixture(scope="module")
def day1_to_the_end() -> list[tuple[str, dict[str, Any]]]:
    """A whole BoC Day 1 game (seat, action) by a fixed policy: mostly end the phase. Its
    last action is a plain end_phase (after the 8 PM supply phase, 9.2): no dice."""
    import random

    from gettysburg.core.protocol import new_game

    game = new_game("boc/day1", seed=END_SEED)
    rng = random.Random(1)
    while not game.is_terminal():
        seat = game.to_move()[0]
        legal = game.legal_actions(seat)
        ends = [a for a in legal if a["type"] == "end_phase"]
        game.apply(ends[0] if ends and rng.random() < 0.8 else rng.choice(legal), seat)
    last = game.history[-1]
    assert last.action == {"type": "end_phase"} and not last.dice
    return [(m.seat, m.action) for m in game.history]


def _one_move_from_the_end(client: TestClient, moves: list[tuple[str, dict[str, Any]]],
                           opponent: str) -> tuple[str, str, dict[str, str]]:
    """The game of ``moves`` hosted one action before its end, with a person in the seat
    that plays that action and ``opponent`` ("human" or an agent) in the other."""
    from gettysburg.server.hosting import SeatSpec

    host = client.app.state.host  # type: ignore[attr-defined]
    mover = moves[-1][0]
    specs = {s: SeatSpec("human") if s == mover or opponent == "human"
             else SeatSpec("ai", opponent) for s in SEATS}
    gid, tokens = host.create("boc", "day1", [], END_SEED, specs,
                              actions=[{"seat": s, "action": a} for s, a in moves[:-1]])
    return gid, mover, tokens


def test_the_move_that_ended_a_game_cannot_be_taken_back(
        client: TestClient, day1_to_the_end: list[tuple[str, dict[str, Any]]]) -> None:
    """Once over, a game shows every seat the referee's replay and its save (the seed, so
    every die to come, and every hidden action). Against the computer, undo takes back a
    move that showed its player nothing and rolled no dice, which BoC's last end_phase is:
    it used to be taken back, and the player went on with everything in hand."""
    gid, mover, tokens = _one_move_from_the_end(client, day1_to_the_end, "general")
    headers = {"Authorization": f"Bearer {tokens[mover]}"}
    r = client.post(f"/api/games/{gid}/actions", headers=headers,
                    json={"action": day1_to_the_end[-1][1], "action_id": "the-end"})
    assert r.status_code == 200, r.text
    state = client.get(f"/api/games/{gid}", headers=headers).json()
    assert state["status"] == "finished" and state["undo"] is False
    r = client.get(f"/api/games/{gid}/save", headers=headers)
    assert r.status_code == 200 and r.json()["seed"] == END_SEED  # released: the end
    r = client.post(f"/api/games/{gid}/undo", headers=headers)
    assert r.status_code == 409, r.text
    assert r.json()["error"] == {"rule": "undo",
                                 "message": "cannot take back: the game is over"}
    state = client.get(f"/api/games/{gid}", headers=headers).json()
    assert state["status"] == "finished" and state["step"] == len(day1_to_the_end)
    assert client.app.state.store.game(gid).status == "finished"  # type: ignore[attr-defined]


def test_an_action_the_store_refused_is_not_seen_by_a_request_in_flight(
        client: TestClient, day1_to_the_end: list[tuple[str, dict[str, Any]]]) -> None:
    """A request that has found the game (``Host.auth``) waits on its lock while an action
    is applied. If the store then refuses the action, that request must find the game as
    stored, not with the action that never was: here the end of the game, whose save
    (with the seed) and referee replay would go to a game still being played."""
    from gettysburg.server.hosting import ApiError
    from gettysburg.server.store import StoreError

    gid, mover, tokens = _one_move_from_the_end(client, day1_to_the_end, "human")
    other = next(s for s in SEATS if s != mover)
    host = client.app.state.host  # type: ignore[attr-defined]
    store = client.app.state.store  # type: ignore[attr-defined]
    in_flight, _seat = host.auth(gid, tokens[other])  # e.g. GET /save, before the action
    stored = in_flight.game.state_hash()

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise StoreError("the disk is full")

    real, store.append_action = store.append_action, refuse
    try:
        with pytest.raises(ApiError) as refused:
            host.act(gid, mover, day1_to_the_end[-1][1], "the-end")
        assert refused.value.status == 503
    finally:
        store.append_action = real
    assert in_flight.game.state_hash() == stored and not in_flight.game.is_terminal()
    with pytest.raises(ApiError) as withheld:
        host.save(in_flight)
    assert withheld.value.rule == "fog.save"
    replay = host.replay(in_flight, other, 10**6)
    assert replay["as"] == other and replay["step"] == len(day1_to_the_end) - 1
    assert host.state(in_flight, other)["status"] == "active"
    # The player sends it again, as told: applied once, and the game ends for real.
    out = host.act(gid, mover, day1_to_the_end[-1][1], "the-end")
    assert out["applied"] and not out["duplicate"]
    assert host.load(gid).game.is_terminal() and store.game(gid).status == "finished"
