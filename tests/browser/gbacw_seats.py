"""A GBACW seat's page in Chromium with the traffic it received, and a player for it that
acts through the server's API (the general or random, choosing from the seat's own view
and legal list): shared by the GBACW browser tests that play long stretches of a game."""

from __future__ import annotations

import contextlib
import itertools
import json
import random
import time
from typing import Any

import httpx

from gettysburg.ai.agent import make_agent, observe

DRAWN = "() => document.querySelector('canvas.map-ground')?.dataset.missing === '0'"
IDS = itertools.count()


class Seat:
    """One seat's token, its page (or None) and every JSON body and push frame its page or
    its player received."""

    def __init__(self, live: Any, game_id: str, seat: str, token: str, link: str) -> None:
        self.live, self.game_id, self.seat, self.token, self.link = live, game_id, seat, token, link
        self.page: Any = None
        self.errors: list[str] = []
        self.traffic: list[str] = []
        self.agent: Any = None
        self.rng = random.Random(f"{game_id}:{seat}")
        self.refused: list[tuple[dict[str, Any], str]] = []

    # --- the page ----------------------------------------------------------------------

    def open(self, browser: Any, zoom_steps: int = 3) -> Any:
        context = browser.new_context(viewport={"width": 1400, "height": 900})
        page = context.new_page()
        page.on("pageerror", lambda e: self.errors.append(str(e)))

        def body(response: Any) -> None:
            if "json" in (response.headers.get("content-type") or ""):
                with contextlib.suppress(Exception):  # a body gone with a navigation
                    self.traffic.append(response.text())
        page.on("response", body)
        page.on("websocket", lambda ws: ws.on("framereceived", lambda frame: self.traffic.append(
            frame if isinstance(frame, str) else frame.decode())))
        page.goto(self.live.url + self.link)
        page.wait_for_function(DRAWN, timeout=60_000)
        for _ in range(zoom_steps):
            page.click("button.zoom >> nth=0")
        page.wait_for_function(DRAWN, timeout=60_000)
        self.page = page
        return page

    def select(self, unit: str) -> None:
        """Select a counter or leader from the keyboard (focus, Enter): wherever the map is."""
        g = self.page.locator(f'g.unit[data-unit="{unit}"]').first
        g.focus()
        self.page.keyboard.press("Enter")
        self.page.wait_for_selector(f'g.unit.selected[data-unit="{unit}"]')

    def press(self, kind: str) -> None:
        """The first button of the actions panel's group ``kind``, clicked."""
        group = self.page.locator(f'#actions details[data-type="{kind}"]').first
        group.evaluate("d => d.open = true")
        group.locator("button").first.click()

    # --- the API -----------------------------------------------------------------------

    def _get(self, path: str, **params: Any) -> Any:
        r = httpx.get(f"{self.live.url}/api/games/{self.game_id}{path}", params=params,
                      timeout=120, headers={"Authorization": f"Bearer {self.token}"})
        self.traffic.append(r.text)
        assert r.status_code == 200, r.text
        return r.json()

    def state(self) -> dict[str, Any]:
        return dict(self._get(""))

    def events(self) -> list[dict[str, Any]]:
        return list(self._get("/events", since=0)["events"])

    def preview(self, unit: str) -> dict[str, Any]:
        return dict(self._get("/preview", unit=unit))

    def send(self, action: dict[str, Any], step: int) -> httpx.Response:
        r = httpx.post(f"{self.live.url}/api/games/{self.game_id}/actions", timeout=120,
                       headers={"Authorization": f"Bearer {self.token}"},
                       json={"action": action, "action_id": f"{self.seat}{next(IDS)}",
                             "step": step})
        self.traffic.append(r.text)
        return r

    def play(self, state: dict[str, Any], agent: str = "general") -> bool:
        """One decision by ``agent`` from this seat's view and legal list, sent; False when
        it was refused (the next try leaves that action out) or the game moved on."""
        if self.agent is None:
            self.agent = make_agent(agent, 1, "gbacw")
        legal = [a for a in state["legal"] if all(a != r for r, _ in self.refused)]
        if not legal:
            return False
        observe(self.agent, state["view"])
        action = self.agent.choose(state["view"], legal, 1.0, self.rng)
        r = self.send(action, state["step"])
        if r.status_code == 409 and "protocol.step" in r.text:
            return False  # the other seat (or the server's AI) played first
        if r.status_code != 200:
            self.refused.append((action, r.text))
            return False
        return True


def walk(node: Any, found: list[tuple[str, Any]]) -> None:
    """Every (key, value) pair of a JSON document, at any depth."""
    if isinstance(node, dict):
        for k, v in node.items():
            found.append((k, v))
            walk(v, found)
    elif isinstance(node, list):
        for v in node:
            walk(v, found)


def pairs(traffic: list[str]) -> tuple[int, list[tuple[str, Any]]]:
    found: list[tuple[str, Any]] = []
    bodies = 0
    for text in traffic:
        try:
            doc = json.loads(text)
        except ValueError:
            continue
        bodies += 1
        walk(doc, found)
    return bodies, found


def wait(cond: Any, timeout: float = 120, every: float = 0.2) -> Any:
    end = time.time() + timeout
    while time.time() < end:
        got = cond()
        if got:
            return got
        time.sleep(every)
    raise AssertionError("timed out waiting")
