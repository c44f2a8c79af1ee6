"""The scenario card beside the map (issue 57): arrivals by hour with their entry roads,
the victory bands, start and end, the options in force, in the player's language."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.usefixtures("boc_ready")


def test_the_scenario_card_shows_arrivals_bands_end_and_options(
        browser: Any, live: Any, switch_language: Any, screenshot: Any) -> None:
    r = httpx.post(f"{live.url}/api/games", timeout=60, json={
        "system": "boc", "scenario": "day1", "options": ["hidden_hits"],
        "seats": {"usa": {"kind": "human"}, "csa": {"kind": "human"}}})
    r.raise_for_status()
    game = r.json()
    link = game["seats"]["usa"]
    card = httpx.get(f"{live.url}/api/games/{game['game_id']}/card",
                     headers={"Authorization": f"Bearer {link['token']}"}).json()
    errors: list[str] = []
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live.url + link["link"])
    page.wait_for_selector("#scenario-card[open] #card-arrivals tbody tr")
    assert "The First Day" in page.inner_text("#scenario-card .card-title")
    times = page.inner_text("#card-times")
    assert "Day 1, 8:00" in times and "Day 1, 8:00 PM" in times and "Confederacy" in times, times
    bands = page.eval_on_selector_all("#card-victory li", "els => els.map(e => e.textContent)")
    assert bands == ["Confederacy wins at 10 or more", "a draw from 5 to 9",
                     "Union wins at 4 or less"], bands
    assert "CSA total" in page.inner_text("#card-victory b")
    options = page.inner_text("#card-options")
    assert "Hidden hits" in options and "(5.23)" in options, options
    rows = page.eval_on_selector_all(
        "#card-arrivals tbody tr",
        "els => els.map(e => ({ side: e.dataset.side, "
        "cells: [...e.cells].map(c => c.textContent) }))")
    assert len(rows) == len(card["arrivals"])
    for row, arrival in zip(rows, card["arrivals"], strict=True):
        when, side, entry, pieces = row["cells"]
        assert side == ("Union" if arrival["side"] == "usa" else "Confederacy"), row
        assert row["side"] == arrival["side"] and entry == arrival["entry"], row
        assert when.startswith(f"Day {arrival['at']['day']}"), row
        if arrival["side"] == "usa":
            assert pieces == ", ".join(arrival["pieces"]), row
        else:
            assert pieces == f"{arrival['count']} (not named)", row
    screenshot(page, "card")
    switch_language(page, "de")
    page.wait_for_selector("#scenario-card #card-arrivals tbody tr")
    assert "Szenariokarte" in page.inner_text("#scenario-card summary")
    assert "Tag 1" in page.inner_text("#card-times")
    assert not errors, errors
    context.close()
