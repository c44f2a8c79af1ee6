"""GBACW in the lobby and each of its six scenarios' openings in Chromium (issue 54): the
lobby lists the system without ``?all``, its scenarios by title, the general and random as
opponents, and starts Little Round Top against the general; every scenario opens with its
counters on the sheets, the seat's markers panel, and no error. With
GETTYSBURG_SCREENSHOTS=1 the openings are saved as docs/gbacw-opening-<scenario>.png, zoomed in
about the middle of the counters so that they read as counters."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from browser.gbacw_seats import DRAWN

DOCS = Path(__file__).resolve().parents[2] / "docs"
STEPS_IN = 4  # wheel steps in from the opening view for the screenshot
SCENARIOS = ("herr-ridge", "little-round-top", "first-day", "second-day", "third-day", "battle")


def _need_map(live: Any) -> None:
    if httpx.get(f"{live.url}/api/maps/gbacw", timeout=120).status_code != 200:
        pytest.skip("no GBACW map")


def test_the_lobby_lists_gbacw_and_starts_a_game_against_the_general(
        browser: Any, live: Any, screenshot: Any) -> None:
    _need_map(live)
    errors: list[str] = []
    page = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live.url + "/")
    page.wait_for_selector("select.who")
    assert page.locator('#system option[value="gbacw"]').count() == 1
    page.select_option("#system", "gbacw")
    page.wait_for_selector('#scenario option[value="little-round-top"]', state="attached")
    offered = [o.get_attribute("value") for o in page.locator("#scenario option").all()]
    assert sorted(offered) == sorted(SCENARIOS)
    page.select_option("#scenario", "little-round-top")
    # the seats' table filled again for GBACW (its opponents: the general and random)
    page.wait_for_selector("select.agent[data-seat=usa] option[value=random]", state="attached")
    page.select_option("select.who[data-seat=csa]", "me")
    page.select_option("select.who[data-seat=usa]", "ai")
    agents = [o.get_attribute("value")
              for o in page.locator("select.agent[data-seat=usa] option").all()]
    assert "general" in agents and "random" in agents
    page.select_option("select.agent[data-seat=usa]", "general")
    screenshot(page, "gbacw-lobby")
    page.click("#start")
    page.wait_for_url(re.compile(r"/g/[^/#]+#.+"), timeout=120_000)
    page.wait_for_function(DRAWN, timeout=120_000)
    page.wait_for_selector("#markers:not([hidden])")
    assert page.locator("g.unit.side-csa").count() > 10
    assert not errors, errors
    page.context.close()


def _close_in(page: Any, units: set[str]) -> None:
    """Zoom in about the middle of the counters on the map (a wheel step zooms about the
    pointer) until they are drawn as counters, with their words, rather than squares."""
    boxes = [b for u in sorted(units) if (b := page.locator(
        f'g.unit.piece-counters[data-unit="{u}"]').first.bounding_box())]
    xs = sorted(b["x"] + b["width"] / 2 for b in boxes)
    ys = sorted(b["y"] + b["height"] / 2 for b in boxes)
    page.mouse.move(xs[len(xs) // 2], ys[len(ys) // 2])
    for _ in range(STEPS_IN):
        page.mouse.wheel(0, -120)
        page.wait_for_function(DRAWN, timeout=180_000)
    page.mouse.move(0, 0)
    page.wait_for_function(
        "() => document.querySelector('canvas.map-pieces')?.dataset.waiting === '0'",
        timeout=180_000)


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_each_scenario_opens_with_its_counters(browser: Any, live: Any, scenario: str) -> None:
    _need_map(live)
    r = httpx.post(f"{live.url}/api/games", timeout=600, json={
        "system": "gbacw", "scenario": scenario, "seed": "1",
        "seats": {"usa": {"kind": "human"}, "csa": {"kind": "human"}}})
    assert r.status_code == 201, r.text
    body = r.json()
    seat = next(iter(httpx.get(f"{live.url}/api/games/{body['game_id']}", timeout=600,
                               headers={"Authorization": "Bearer "
                                        + body["seats"]["csa"]["token"]}).json()["to_move"]))
    token = body["seats"][seat]["token"]
    view = httpx.get(f"{live.url}/api/games/{body['game_id']}", timeout=600,
                     headers={"Authorization": f"Bearer {token}"}).json()["view"]
    on_map = {k for k, u in view["units"].items() if u["hex"]}
    errors: list[str] = []
    page = browser.new_context(viewport={"width": 1400, "height": 900}).new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live.url + body["seats"][seat]["link"])
    page.wait_for_function(DRAWN, timeout=180_000)
    drawn = {g.get_attribute("data-unit") for g in page.locator("g.unit.piece-counters").all()}
    assert on_map and on_map <= drawn, sorted(on_map - drawn)[:5]
    page.wait_for_selector("#markers:not([hidden])")
    page.wait_for_selector("#formations:not([hidden])")
    if os.environ.get("GETTYSBURG_SCREENSHOTS") == "1":
        _close_in(page, on_map)
        page.screenshot(path=str(DOCS / f"gbacw-opening-{scenario}.png"))
    assert not errors, errors
    page.context.close()
