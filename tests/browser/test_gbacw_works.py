"""GBACW's set-up breastworks placed in the browser (004 sc.4.5, 002 §15.21): on the Second Day
the Union, once the Confederacy (``random``) has given its orders, sees in the phase bar how
many markers it still has to put down, the hexes they may go to lit with nothing selected, a
click on one offers the vertices a marker may guard, and the chosen one is placed: the count
goes down by one, the marker is in the view's ``breastworks``, drawn along its corner's two
hexsides, and the log says it. Then a unit selected offers its turns where it stands as arrows
(``build``, 002 §15.1), and the one chosen is drawn as works being built."""

from __future__ import annotations

import contextlib
import re
import time
from typing import Any

import httpx
import pytest

DRAWN = "() => document.querySelector('canvas.map-ground')?.dataset.missing === '0'"


def _state(live: Any, game_id: str, token: str) -> dict[str, Any]:
    r = httpx.get(f"{live.url}/api/games/{game_id}", timeout=60,
                  headers={"Authorization": f"Bearer {token}"})
    return dict(r.json())


def _inside(box: dict[str, float], bb: dict[str, float] | None, margin: float = 20) -> bool:
    return bb is not None and box["x"] + margin < bb["x"] and \
        bb["x"] + bb["width"] < box["x"] + box["width"] - margin and \
        box["y"] + margin < bb["y"] and bb["y"] + bb["height"] < box["y"] + box["height"] - margin


def _left(page: Any) -> int:
    """The markers still to place as the phase bar says them (listed + free)."""
    text = page.locator('#phasebar [data-key="works_to_place"]').inner_text()
    return sum(int(n) for n in re.findall(r"\d+", text))


def test_second_day_union_places_a_breastwork_and_the_count_goes_down(
        browser: Any, live: Any, screenshot: Any) -> None:
    if httpx.get(f"{live.url}/api/maps/gbacw", timeout=120).status_code != 200:
        pytest.skip("no GBACW map")
    r = httpx.post(f"{live.url}/api/games", timeout=120, json={
        "system": "gbacw", "scenario": "second-day", "seed": "1",
        "seats": {"csa": {"kind": "ai", "agent": "random"}, "usa": {"kind": "human"}}})
    assert r.status_code == 201, r.text
    game_id, usa = r.json()["game_id"], r.json()["seats"]["usa"]
    for _ in range(600):  # the Confederacy's orders segment comes first
        state = _state(live, game_id, usa["token"])
        if "usa" in state["to_move"] and any(a["type"] == "place_works" for a in state["legal"]):
            break
        time.sleep(0.1)
    else:
        raise AssertionError(f"no place_works for the Union: {state['to_move']}")
    pool = state["view"]["works_to_place"]
    assert pool == {"listed": 20, "free": 1}  # the book's list and E-18's one more
    works = [a for a in state["legal"] if a["type"] == "place_works"]

    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(live.url + usa["link"])
        page.wait_for_function(DRAWN, timeout=60_000)
        for _ in range(3):
            page.click("button.zoom >> nth=0")
        page.wait_for_function(DRAWN, timeout=60_000)
        # The count in the bar, in the system's words.
        bar = page.locator('#phasebar [data-key="works_to_place"]')
        assert "breastworks to place" in bar.inner_text()
        assert _left(page) == 21
        # With nothing selected, the places a marker may go to are lit: those drawn now are
        # all among the legal actions' hexes.
        sites = {a["hex"] for a in works}
        page.wait_for_selector("polygon.dest")
        lit = {p.get_attribute("data-hex") for p in page.locator("polygon.dest").all()}
        assert lit and lit <= sites
        box = page.locator("svg.map").bounding_box()
        units = state["view"]["units"]
        held: dict[str, list[str]] = {}
        for k, u in units.items():
            held.setdefault(u["hex"], []).append(k)
        seen = [p.get_attribute("data-hex") for p in page.locator("polygon.dest").all()
                if _inside(box, p.bounding_box())]
        hex_id = next((h for h in seen if h not in held), None)
        if hex_id is not None:
            page.locator(f'polygon.dest[data-hex="{hex_id}"]').click()
        else:  # every site in sight holds a counter: a click on it places there
            hex_id = seen[0]
            top = next(g for k in held[hex_id]
                       if (g := page.locator(f'g.unit[data-unit="{k}"]')).count() == 1
                       and (len(held[hex_id]) == 1 or g.get_attribute("data-stack")))
            top.click()
        # The vertices a marker may guard there, as the legal actions give them.
        page.wait_for_selector("#choose:not([hidden])")
        assert hex_id in page.locator("#choose h3").inner_text()
        assert "Breastwork" in page.locator("#choose h3").inner_text()
        offered = sorted(b.get_attribute("data-facing")
                         for b in page.locator("#choose button.facing-option").all())
        assert offered == sorted(f"{a['facing']['kind']} {a['facing']['index']}"
                                 for a in works if a["hex"] == hex_id)
        screenshot(page, "gbacw-setup-works")
        chosen = offered[0]
        page.locator(f'#choose button.facing-option[data-facing="{chosen}"]').click()
        page.wait_for_function("""() => {
            const n = document.querySelector('#phasebar [data-key="works_to_place"]');
            return n && (n.textContent.match(/\\d+/g) || []).reduce((a, b) => a + +b, 0) === 20;
        }""")
        after = _state(live, game_id, usa["token"])["view"]
        assert sum(after["works_to_place"].values()) == 20
        assert {"hex": hex_id, "vertex": int(chosen.split()[1])} in after["breastworks"]
        # Drawn on the map along the two hexsides of its corner.
        page.wait_for_selector(f'polyline.edge-mark[data-kind="breastworks"][data-hex="{hex_id}"]'
                               f'[data-vertex="{chosen.split()[1]}"]', state="attached")
        screenshot(page, "gbacw-setup-works-placed")
        page.wait_for_function(f"""() => [...document.querySelectorAll('#log li.sentence')]
            .some((li) => li.textContent.includes('breastwork in {hex_id}'))""")

        # A unit's turns where it stands (here: breastworks built toward a corner, 002 §15.1)
        # offered as arrows once it is selected, and one sent from there.
        legal = _state(live, game_id, usa["token"])["legal"]
        sites = {a["hex"] for a in legal if a["type"] == "place_works"}
        builds: dict[str, list[str]] = {}
        for a in legal:
            if a["type"] == "build":
                facing = f"{a['facing']['kind']} {a['facing']['index']}"
                builds.setdefault(a["unit"], []).append(facing)
        unit = next(k for k in sorted(builds) if units[k]["hex"] not in sites
                    and page.locator(f'g.unit[data-unit="{k}"]').count() == 1)
        g = page.locator(f'g.unit[data-unit="{unit}"]')
        g.focus()
        page.keyboard.press("Enter")
        page.wait_for_selector(f'g.unit.selected[data-unit="{unit}"]')
        row = page.locator('#turn .turn-kind[data-type="build"]')
        assert sorted(b.get_attribute("data-facing")
                      for b in row.locator("button.facing-option").all()) == sorted(builds[unit])
        assert "Build" in row.inner_text()
        row.locator("button.facing-option").first.click()
        page.wait_for_function(f"""() => [...document.querySelectorAll(
            'polyline.edge-mark[data-kind="constructions"]')].some((p) => p.dataset.hex
            === '{units[unit]["hex"]}')""")
        assert not errors, errors
    finally:
        with contextlib.suppress(Exception):
            context.close()
