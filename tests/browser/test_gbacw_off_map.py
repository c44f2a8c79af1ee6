"""A unit taken off the map by a road beyond its edge, in Chromium (004 §9.88; issue 54).

No scenario starts with a unit that may leave the map, so the position is played: the First
Day from seed 1 between two seeded ``random`` players, in the engine, until the Union may
``leave_map`` (Rowley's brigade waiting at entry area 14's hex), then hosted from its save
(``/api/import``). The Union's page: the unit selected in the off-map strip; each area its
legal ``leave_map`` actions name marked on the map at the hex the view puts it at
(``place_hexes``) and lit; a click on area 12's mark sends that action; the unit then shows,
in the strip, where and from when it comes back; the log says it left. The Confederacy's
view holds neither the unit nor the marks."""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest

from browser.gbacw_seats import DRAWN, Seat, wait
from gettysburg.ai.agent import make_agent, observe
from gettysburg.core import savefile
from gettysburg.core.protocol import new_game

SCENARIO, SEED = "first-day", 1
LIMIT = 400  # decisions (61 with this seed)


def _played_to_a_road() -> dict[str, Any]:
    """The save of a First Day played until the Union may take an off-map road."""
    g = new_game(f"gbacw/{SCENARIO}", seed=SEED)
    agent, rng = make_agent("random", 1, "gbacw"), random.Random(SEED)
    for _ in range(LIMIT):
        seat = g.to_move()[0]
        legal = g.legal_actions(seat)
        if seat == "usa" and any(a["type"] == "leave_map" for a in legal):
            return savefile.save(g)
        view = g.view(seat)
        observe(agent, view)
        g.apply(agent.choose(view, legal, 1.0, rng), seat)
    raise AssertionError(f"no leave_map within {LIMIT} decisions")


@pytest.fixture
def usa(browser: Any, live: Any) -> Any:
    if httpx.get(f"{live.url}/api/maps/gbacw", timeout=120).status_code != 200:
        pytest.skip("no GBACW map")
    r = httpx.post(f"{live.url}/api/import", json=_played_to_a_road(), timeout=300)
    assert r.status_code == 201, r.text
    body = r.json()
    seats = {s: Seat(live, body["game_id"], s, body["seats"][s]["token"], body["seats"][s]["link"])
             for s in ("usa", "csa")}
    seats["usa"].open(browser, zoom_steps=0)
    yield seats
    seats["usa"].page.context.close()


def test_a_unit_leaves_by_an_off_map_road_from_a_mark_on_the_map(
        usa: dict[str, Seat], screenshot: Any) -> None:
    seat = usa["usa"]
    page = seat.page
    st = seat.state()
    roads = [a for a in st["legal"] if a["type"] == "leave_map"]
    unit = roads[0]["unit"]
    mine = {a["area"] for a in roads if a["unit"] == unit}
    placed = st["view"]["place_hexes"]["area"]
    assert set(placed) == {a["area"] for a in roads} and mine <= set(placed)
    assert not st["view"]["units"][unit]["hex"]  # waiting off the map, in the strip
    seat.select(unit)
    # Each area the unit may go to: a mark at its hex, that hex lit as a destination.
    for area in mine:
        mark = page.locator(f'g.place-mark[data-field="area"][data-value="{area}"]')
        mark.wait_for(state="attached")
        assert mark.get_attribute("data-hex") == placed[area]
        assert page.locator(f'polygon.dest[data-hex="{placed[area]}"]').count() == 1
    assert page.locator("g.place-mark").count() == len(mine)
    # From the whole map, close in on area 12's mark (a wheel step zooms about the pointer),
    # then click it.
    area = "12" if "12" in mine else sorted(mine)[0]
    mark = page.locator(f'g.place-mark[data-value="{area}"]')
    page.click("button.zoom >> nth=2")
    page.wait_for_function(DRAWN, timeout=60_000)
    frame = page.locator("svg.map").bounding_box()
    cx, cy = frame["x"] + frame["width"] / 2, frame["y"] + frame["height"] / 2
    box = mark.bounding_box()  # a drag pans one to one: the mark to the middle
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move((x + cx) / 2, (y + cy) / 2, steps=2)
    page.mouse.move(cx, cy, steps=2)
    page.mouse.up()
    page.wait_for_function(DRAWN, timeout=60_000)
    for _ in range(5):
        box = mark.bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.wheel(0, -120)
        page.wait_for_function(DRAWN, timeout=60_000)
    screenshot(page, "gbacw-leave-map")
    n0 = st["log_size"]
    mark.click()
    st = wait(lambda: (x := seat.state())["view"]["units"][unit].get("away") and x)
    assert st["view"]["units"][unit]["away"]["area"] == int(area)
    assert st["view"]["units"][unit]["away"]["hex"] == placed[area]
    left = [e for e in seat.events() if e["n"] >= n0 and e["type"] == "leave_map"]
    assert [e["data"]["unit"] for e in left] == [unit]
    # The strip says where and from when it comes back; the log says it left.
    back = page.locator(f'ul.off-away li[data-unit="{unit}"]')
    back.wait_for()
    assert placed[area] in (back.text_content() or "")
    page.wait_for_function("""(area) => [...document.querySelectorAll('#log li')]
        .some((li) => li.textContent.includes('leaves the map')
                      && li.textContent.includes('entry area ' + area))""", arg=area)
    # The enemy sees the unit leave (the event), never where it is nor the marks.
    enemy = usa["csa"].state()["view"]
    assert unit not in enemy["units"] and "place_hexes" not in enemy
    assert not seat.errors, seat.errors
