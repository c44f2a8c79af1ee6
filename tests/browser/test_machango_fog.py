"""Mundo Machango's fog in the browser (D3): the CSA's game page, open in Chromium while
both seats play over the HTTP API, is never told what the USA put in its divisions before
a battle shows them, nor which cards the USA holds in a battle, while its own hand is
shown. Every HTTP response body and WebSocket frame the page receives is recorded.

The USA composes every division all artillery and the CSA all infantry, so before the
battle no unit of artillery exists that the CSA could rightly hear of."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
import pytest

# A unit list entry of artillery, as JSON writes it: ["artillery", <figures>].
ARTILLERY_UNIT = re.compile(r'\[\s*"artillery"\s*,\s*\d+\s*\]')


class Recorder:
    """Every response body and WebSocket frame a page receives, in order."""

    def __init__(self, page: Any) -> None:
        self.items: list[tuple[str, str]] = []  # (where, text)
        page.on("response", self._response)
        page.on("websocket", self._socket)

    def _response(self, response: Any) -> None:
        try:
            body = response.body()
        except Exception:  # a redirect or a body already gone has none to read
            return
        self.items.append((response.url, body.decode("utf-8", "replace")))

    def _socket(self, ws: Any) -> None:
        def frame(payload: Any) -> None:
            text = payload if isinstance(payload, str) else bytes(payload).decode("utf-8",
                                                                                   "replace")
            self.items.append((f"ws:{ws.url}", text))
        ws.on("framereceived", frame)

    def game_traffic(self, start: int = 0) -> list[tuple[str, str]]:
        """The game's own traffic (its state, log and frames), not the static files and
        word lists, which name every card and unit kind as a catalogue."""
        return [(u, t) for u, t in self.items[start:] if u.startswith("ws:") or "/api/games/" in u]


def _walk(node: Any) -> Any:
    yield node
    if isinstance(node, dict):
        for v in node.values():
            yield from _walk(v)
    elif isinstance(node, list):
        for v in node:
            yield from _walk(v)


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


def _usa_units_told(data: Any, hidden: set[str]) -> list[str]:
    """The hidden USA divisions whose units a JSON payload gives (a view's ``divisions``)."""
    out = []
    for node in _walk(data):
        if isinstance(node, dict) and isinstance(node.get("divisions"), dict):
            for did, d in node["divisions"].items():
                if did in hidden and isinstance(d, dict) and d.get("units") is not None:
                    out.append(did)
    return out


def _usa_compose_told(data: Any) -> bool:
    """Whether a JSON payload gives a USA division's choice of units: a compose action or
    event's data naming a USA division with its artillery or infantry."""
    return any(isinstance(node, dict) and str(node.get("division", "")).startswith("u_")
               and ("artillery" in node or "infantry" in node) for node in _walk(data))


def _usa_hand_told(data: Any) -> bool:
    """Whether a JSON payload gives the USA's battle hand as cards, not as a count."""
    return any(isinstance(node, dict) and isinstance(node.get("hands"), dict)
               and isinstance(node["hands"].get("usa"), list) for node in _walk(data))


def test_the_csa_page_never_learns_the_usas_divisions_or_hand(browser: Any, live: Any) -> None:
    systems = httpx.get(f"{live.url}/api/systems").json()["systems"]
    info = next((s for s in systems if s["name"] == "machango"), None)
    if info is None:
        pytest.skip("Mundo Machango is not registered")
    r = httpx.post(f"{live.url}/api/games", timeout=60, json={
        "system": "machango", "scenario": next(iter(info["scenarios"])), "seed": "1",
        "seats": {seat: {"kind": "human"} for seat in info["seats"]}})
    assert r.status_code == 201, r.text
    game_id = r.json()["game_id"]
    seats = r.json()["seats"]
    tokens = {s: v["token"] for s, v in seats.items()}
    host = live.app.state.host

    def referee() -> dict[str, Any]:
        live_game = host.load(game_id)
        with live_game.lock:
            out: dict[str, Any] = live_game.game.view("referee")
        return out

    def state(seat: str) -> dict[str, Any]:
        got = httpx.get(f"{live.url}/api/games/{game_id}",
                        headers={"Authorization": f"Bearer {tokens[seat]}"})
        got.raise_for_status()
        out: dict[str, Any] = got.json()
        return out

    n = 0

    def act(seat: str, action: dict[str, Any]) -> None:
        nonlocal n
        n += 1
        httpx.post(f"{live.url}/api/games/{game_id}/actions",
                   json={"action": action, "action_id": f"f{n}"},
                   headers={"Authorization": f"Bearer {tokens[seat]}"}).raise_for_status()

    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    rec = Recorder(page)
    page.goto(live.url + seats["csa"]["link"])
    page.wait_for_function("() => document.body.dataset.ready === '1'")

    def synced(step: int) -> None:
        """Wait until the CSA's page has been told of step ``step`` (its frame came)."""
        for _ in range(200):
            told = re.compile(rf'"step":\s*{step}[,}}]')
            if any(told.search(t) for u, t in rec.items if u.startswith("ws:")):
                return
            page.wait_for_timeout(25)
        raise AssertionError(f"the CSA's page was not told of step {step}")

    # The USA composes every division all artillery, the CSA all infantry.
    while (st := state("usa"))["view"]["phase"] == "compose":
        seat = st["to_move"][0]
        legal = state(seat)["legal"]
        first = legal[0]["division"]
        mine = [a for a in legal if a["division"] == first]
        act(seat, mine[-1] if seat == "usa" else mine[0])
    ref = referee()
    composed = {did: d["units"] for did, d in ref["divisions"].items()
                if d["side"] == "usa" and not d["cavalry"]}
    assert composed and all(k == "artillery" for units in composed.values() for k, _ in units)
    assert not any(k == "artillery" for d in ref["divisions"].values() if d["side"] == "csa"
                   for k, _ in d["units"] or [])
    pages: list[str] = []

    def look() -> None:  # the page's text and markup (titles, labels) as the CSA has it
        pages.append(page.inner_text("body") + page.content())

    # Play on, attacking whenever one can and else ending the turn, until a battle.
    for _ in range(200):
        st = state("usa")
        synced(st["step"])
        look()
        seat = st["to_move"][0]
        legal = state(seat)["legal"]
        pick = next((a for a in legal if a["type"] == "attack"), None) or next(
            (a for a in legal if a["type"] == "end_turn"), legal[-1])
        before = len(rec.items)
        act(seat, pick)
        if state("usa")["view"]["phase"] == "battle":
            break
    else:
        raise AssertionError("no battle was fought")
    # Before the battle's start: no USA division's contents in what the CSA heard or saw.
    hidden = set(composed)
    for where, text in rec.items[:before]:
        assert not ARTILLERY_UNIT.search(text), f"USA units in {where}"
        if "/api/games/" in where or where.startswith("ws:"):
            data = _json(text)
            assert not _usa_units_told(data, hidden), f"USA divisions in {where}"
            assert not _usa_compose_told(data), f"USA composition in {where}"
    words = httpx.get(f"{live.url}/api/i18n/en").json()
    artillery_word = words.get("unit_type.artillery", "artillery")
    own = re.compile(rf"{re.escape(artillery_word)} 0 ·", re.I)  # the CSA's compose in the log
    for text in pages:
        left = own.sub("", text)
        assert artillery_word.lower() not in left.lower(), left[
            max(0, left.lower().find(artillery_word.lower()) - 200):][:400]

    # The battle: the CSA's page shows its own hand, never the USA's.
    ref = referee()
    still_hidden = {did for did in hidden if not ref["divisions"][did]["revealed"]}
    assert still_hidden != hidden  # the battle showed the divisions it is fought by
    start = len(rec.items)
    usa_held: set[str] = set()
    public: set[str] = set()
    shown_own = 0
    battle_pages: list[str] = []
    for _ in range(30):
        st = state("usa")
        if st["view"]["phase"] != "battle":
            break
        ref = referee()
        battle = ref["battle"]
        usa_held |= set(battle["hands"]["usa"])
        public |= set(battle["hands"]["csa"]) | set(battle.get("discard") or [])
        if battle.get("card"):
            public.add(battle["card"])
        synced(st["step"])
        page.wait_for_selector("#battle g.bunit")
        if battle["hands"]["csa"]:
            page.wait_for_function(
                "want => JSON.stringify([...document.querySelectorAll("
                "'#battle .hand.own[data-side=csa] button.battle-card')]"
                ".map(e => e.dataset.card)) === JSON.stringify(want)",
                arg=battle["hands"]["csa"])
            shown_own += 1
        battle_pages.append(page.content())
        seat = st["to_move"][0]
        legal = state(seat)["legal"]
        act(seat, legal[0])
    assert shown_own > 0, "the CSA's own hand was never shown"
    last = referee()["battle"]  # what the last action made public (a card played)
    if last is not None:
        public |= set(last["hands"]["csa"]) | set(last.get("discard") or [])
        public |= {last["card"]} if last.get("card") else set()
    page.wait_for_timeout(300)  # the frames of the last action
    secret = usa_held - public
    assert usa_held and secret, (usa_held, public)
    # The detectors are live: what the battle showed (its USA divisions) did come.
    assert any(ARTILLERY_UNIT.search(t) for _, t in rec.game_traffic(start))
    for where, text in rec.game_traffic(start):
        data = _json(text)
        assert not _usa_hand_told(data), f"the USA's hand in {where}"
        assert not _usa_units_told(data, still_hidden), f"USA divisions in {where}"
        for card in secret:
            assert f'"{card}"' not in text, f"the USA's card {card} in {where}"
    for html in battle_pages:
        for card in secret:
            assert card not in html and words.get(f"card.{card}", "\0") not in html, card
    assert not errors, errors
    context.close()
