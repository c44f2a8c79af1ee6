"""The map starts readable and keeps its zoom across a reload; the other side's turn is drawn
(issue 57): moves as trails, fire and melee marked, and said in a sentence."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from browser.test_board_layout import _open

pytestmark = pytest.mark.usefixtures("boc_ready")

_SEEN = """() => {
  const map = document.querySelector("svg.map").getBoundingClientRect();
  const inside = (r) => { const x = (r.left + r.right) / 2; const y = (r.top + r.bottom) / 2;
    return x >= map.left && x <= map.right && y >= map.top && y <= map.bottom; };
  const own = [...document.querySelectorAll("g.units g.unit")]
    .filter((g) => g.querySelector("text.block-label"));
  return { own: own.length, seen: own.filter((g) => inside(g.getBoundingClientRect())).length,
           hex: document.querySelector("polygon.hex").getBoundingClientRect().height,
           box: document.querySelector("svg.map").getAttribute("viewBox") };
}"""


def test_the_map_starts_on_your_forces_and_keeps_its_zoom(browser: Any, live: Any,
                                                          screenshot: Any) -> None:
    context, page, _ = _open(browser, live, "day2", seat="csa")
    start = page.evaluate(_SEEN)
    page.click("button.zoom[aria-label='The whole map']")
    whole = page.evaluate(_SEEN)
    # Fitted to the board's width: hexes well over 1.5 times as tall as on the whole map,
    # and most of one's own blocks in sight.
    assert start["hex"] > 1.5 * whole["hex"], (start, whole)
    assert start["own"] > 20 and start["seen"] >= 0.6 * start["own"], start
    # Zoomed and panned, then reloaded: the same view.
    page.click("button.zoom[aria-label='Zoom in']")
    box = page.locator("svg.map").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 + 80, box["y"] + box["height"] / 2 + 40, steps=5)
    page.mouse.up()
    kept = page.get_attribute("svg.map", "viewBox")
    assert kept not in (start["box"], whole["box"])
    page.reload()
    page.wait_for_selector("g.units g.unit")
    assert page.get_attribute("svg.map", "viewBox") == kept
    context.close()


def test_the_computers_turn_is_drawn_as_trails(browser: Any, live: Any,
                                               screenshot: Any) -> None:
    r = httpx.post(f"{live.url}/api/games", timeout=60, json={
        "system": "boc", "scenario": "day1", "seed": "7",
        "seats": {"usa": {"kind": "human"}, "csa": {"kind": "ai", "agent": "general"}}})
    r.raise_for_status()
    link = r.json()["seats"]["usa"]
    errors: list[str] = []
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live.url + link["link"])
    page.wait_for_selector("g.units g.unit")
    assert page.locator("g.trails g.trail").count() == 0  # nothing yet since no action
    end = "button[data-action='{\"type\":\"end_phase\"}']:not([disabled])"
    for _ in range(40):
        page.wait_for_selector(end, timeout=60000)
        if page.locator("g.trails g.trail-move").count():
            break
        page.click(end)
        page.wait_for_function("() => !document.querySelector('#phasebar .turn-you') || "
                               "document.querySelector('#actions button[data-action]')",
                               timeout=60000)
    moves = page.eval_on_selector_all("g.trails g.trail-move", "els => els.map(e => e.dataset.to)")
    assert moves, "the computer moved nothing in 40 phases"
    token = link["token"]
    state = httpx.get(f"{live.url}/api/games/{r.json()['game_id']}",
                      headers={"Authorization": f"Bearer {token}"}).json()
    # Every trail ends where a Confederate block now stands (they are hidden: by hex).
    enemy = {h["hex"] for h in state["view"]["hidden"]} | {
        u["hex"] for u in state["view"]["units"] if u["side"] == "csa"}
    assert set(moves) <= enemy, (moves, enemy)
    since = page.inner_text("#since")
    assert since.startswith("Since your last action:") and f"{len(moves)} moves" in since, since
    screenshot(page, "trails")
    # A reload keeps them: they are the turn since the player's last action.
    page.reload()
    page.wait_for_selector("g.trails g.trail-move")
    assert sorted(page.eval_on_selector_all("g.trails g.trail-move",
                                            "els => els.map(e => e.dataset.to)")) == sorted(moves)
    assert not errors, errors
    context.close()
