"""A large map's pieces painted on a canvas (piececanvas.js; docs/server.md, "Counters on a
canvas"): what the canvas shows is where the counters are, a click there selects the counter
or opens its stack, and an extended line (a piece holding three hexes: the view's
`extension` and `extends`, 002 §8.4) is drawn through its hexes.

The page is served the game's own state with one counter's view turned into an extended
line (a route in the browser, the server unchanged), as the client draws whatever the view
gives; the line's flanks are two free hexes either side of the counter.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

import httpx
import pytest

# A hex's centre on the screen (CSS px in the page), from the SVG's box and viewBox.
WHERE = """([x, y]) => {
  const s = document.querySelector('svg.map'); const r = s.getBoundingClientRect();
  const [vx, vy, vw, vh] = s.getAttribute('viewBox').split(' ').map(Number);
  const k = Math.max(vw / r.width, vh / r.height);
  return [r.left + (x - vx - (vw - r.width * k) / 2) / k,
          r.top + (y - vy - (vh - r.height * k) / 2) / k];
}"""
# The pieces' canvas's pixel at a point of the page (its alpha: 0 where nothing is drawn).
ALPHA = """([x, y]) => {
  const c = document.querySelector('canvas.map-pieces'); const r = c.getBoundingClientRect();
  const d = window.devicePixelRatio || 1;
  const [px, py] = [Math.round((x - r.left) * d), Math.round((y - r.top) * d)];
  return c.getContext('2d').getImageData(px, py, 1, 1).data[3];
}"""
PAINTED = ("() => document.querySelector('canvas.map-ground')?.dataset.missing === '0'"
           " && document.querySelector('canvas.map-pieces')?.dataset.waiting === '0'")


def _route_state(page: Any, game_id: str, state: dict[str, Any]) -> None:
    """The page's game state, and the push channel's, replaced by ``state``."""
    body = json.dumps(state)
    page.route(f"**/api/games/{game_id}", lambda route: route.fulfill(
        status=200, content_type="application/json", body=body))

    def push(ws: Any) -> None:
        server = ws.connect_to_server()

        def relay(message: str | bytes) -> None:
            try:
                doc = json.loads(message)
            except ValueError:
                ws.send(message)
                return
            if isinstance(doc, dict) and doc.get("type") == "state":
                doc["state"] = state
            ws.send(json.dumps(doc))
        server.on_message(relay)
    page.route_web_socket(re.compile(r".*/ws$"), push)


@pytest.fixture
def line_page(browser: Any, live: Any) -> Any:
    """The Union's page of Little Round Top, one lone counter made an extended line, the
    view kept centred on it and close enough to read."""
    got = httpx.get(f"{live.url}/api/maps/gbacw", timeout=120)
    if got.status_code != 200:
        pytest.skip("no GBACW map")
    the_map = got.json()
    r = httpx.post(f"{live.url}/api/games", timeout=120, json={
        "system": "gbacw", "scenario": "little-round-top",
        "seats": {"usa": {"kind": "human"}, "csa": {"kind": "human"}}})
    assert r.status_code == 201, r.text
    game_id, link = r.json()["game_id"], r.json()["seats"]["usa"]["link"]
    state = httpx.get(f"{live.url}/api/games/{game_id}", timeout=120,
                      headers={"Authorization": f"Bearer {link.split('#')[1]}"}).json()
    xy = {h["id"]: (h["xy"][0], -h["xy"][1]) for h in the_map["hexes"]}
    s = math.hypot(*the_map["layout"]["basis_q"])
    units = state["view"]["units"]
    taken: dict[str, int] = {}
    for u in units.values():
        taken[u["hex"]] = taken.get(u["hex"], 0) + 1
    taken.update({v["hex"]: 1 for v in state["view"]["leaders"].values()})

    def flanks(hex_id: str) -> list[str] | None:
        """Two free neighbours of ``hex_id`` on opposite sides of it."""
        x, y = xy[hex_id]
        near = [h for h, (a, b) in xy.items() if 0.8 * s < math.hypot(a - x, b - y) < 1.2 * s
                and h not in taken]
        for a in near:
            for b in near:
                ax, ay = xy[a][0] - x, xy[a][1] - y
                bx, by = xy[b][0] - x, xy[b][1] - y
                if ax * bx + ay * by < -0.9 * s * s:
                    return [a, b]
        return None
    unit = next(k for k, u in sorted(units.items()) if u["seat"] == "usa" and u["hex"] in xy
                and taken[u["hex"]] == 1 and flanks(u["hex"]))
    line = flanks(units[unit]["hex"])
    assert line
    units[unit] = {**units[unit], "extension": "line", "extends": line}
    x, y = xy[units[unit]["hex"]]
    view = {"x": x - 5 * s, "y": y - 3 * s, "w": 10 * s, "h": 6 * s}
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(
        f"localStorage.setItem('gettysburg.view.{game_id}.usa', '{json.dumps(view)}')")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    _route_state(page, game_id, state)
    page.goto(live.url + link)
    page.wait_for_selector("svg.map.painted-pieces g.unit")
    page.wait_for_function(PAINTED, timeout=60_000)
    yield page, state, xy, unit, errors
    context.close()


def test_counters_on_the_canvas_are_where_the_svg_says_and_a_click_selects_or_opens(
        line_page: Any) -> None:
    page, state, xy, unit, errors = line_page
    units = state["view"]["units"]
    box = page.locator("svg.map").bounding_box()
    # The counter is painted on the canvas at its hex, not drawn in the SVG: its group
    # keeps an invisible face (to click and focus) and its words for the page.
    sx, sy = page.evaluate(WHERE, list(xy[units[unit]["hex"]]))
    assert box["x"] < sx < box["x"] + box["width"] and box["y"] < sy < box["y"] + box["height"]
    assert page.evaluate(ALPHA, [sx, sy]) == 255
    g = page.locator(f'g.unit[data-unit="{unit}"]')
    assert g.locator("rect.face").evaluate("(r) => getComputedStyle(r).fill") == "none"
    assert str(units[unit]["sp"]) in g.locator("text.block-label").all_text_contents()
    # An empty hex shows nothing on the pieces' canvas.
    held = {u["hex"] for u in units.values()}
    held |= {v["hex"] for v in state["view"]["leaders"].values()}
    held |= {h for u in units.values() for h in u.get("extends") or []}
    ux, uy = xy[units[unit]["hex"]]
    empty = min((h for h in xy if h not in held),
                key=lambda h: abs(math.hypot(xy[h][0] - ux, xy[h][1] - uy) - 3 * math.dist(
                    xy[units[unit]["extends"][0]], (ux, uy))))
    ex, ey = page.evaluate(WHERE, list(xy[empty]))
    if box["x"] < ex < box["x"] + box["width"] and box["y"] < ey < box["y"] + box["height"]:
        assert page.evaluate(ALPHA, [ex, ey]) == 0
    # A click on the counter's place selects it: drawn whole in the SVG, gone from the canvas.
    page.mouse.click(sx, sy)
    page.wait_for_selector(f'g.unit.selected[data-unit="{unit}"]')
    page.wait_for_function(PAINTED)
    assert g.locator("rect.face").evaluate("(r) => getComputedStyle(r).fill") != "none"
    # Unselected again (Escape), it is back on the canvas.
    page.keyboard.press("Escape")
    page.wait_for_selector(f'g.unit.selected[data-unit="{unit}"]', state="detached")
    page.wait_for_function(PAINTED)
    assert page.evaluate(ALPHA, [sx, sy]) == 255
    # A stack in sight: a click on its place opens it into the list of its counters.
    stacks = [s for s in page.locator("g.unit[data-stack]").all()
              if (b := s.bounding_box()) and box["x"] + 20 < b["x"]
              and b["x"] + b["width"] < box["x"] + box["width"] - 20
              and box["y"] + 20 < b["y"] and b["y"] + b["height"] < box["y"] + box["height"] - 20]
    if stacks:
        top = stacks[0].get_attribute("data-unit")
        b = stacks[0].bounding_box()
        page.mouse.click(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2)
        page.wait_for_selector("#stack:not([hidden])")
        listed = {x.get_attribute("data-unit") for x in page.locator("#stack button").all()}
        assert top in listed and len(listed) == int(stacks[0].get_attribute("data-stack"))
    assert not errors, errors


def test_an_extended_line_is_drawn_through_its_hexes(line_page: Any, screenshot: Any) -> None:
    page, state, xy, unit, errors = line_page
    screenshot(page, "gbacw-extended-line")
    u = state["view"]["units"][unit]
    shape = page.locator(f'g.extension[data-unit="{unit}"]')
    assert shape.count() == 1
    assert shape.get_attribute("data-kind") == "line"
    assert shape.get_attribute("data-hexes").split() == u["extends"]
    # A part in each flank hex, centred on it, with its pointer; the band through all three.
    for hex_id in u["extends"]:
        part = shape.locator(f'g.extension-part[data-hex="{hex_id}"]')
        b = part.locator("rect").bounding_box()
        sx, sy = page.evaluate(WHERE, list(xy[hex_id]))
        assert abs(b["x"] + b["width"] / 2 - sx) < 2 and abs(b["y"] + b["height"] / 2 - sy) < 2
        assert part.locator("polygon.facing").count() == 1
    # The band: a segment from the counter's edge to each flank's centre (it stops short of
    # the counter, whose words it would hide).
    d = shape.locator("path.extension-band").get_attribute("d")
    segments = [[float(v) for v in re.findall(r"-?[\d.]+", seg)] for seg in d.split("M")[1:]]
    assert len(segments) == 2
    cx, cy = xy[u["hex"]]
    s = math.dist(xy[u["extends"][0]], (cx, cy))
    for (x0, y0, x1, y1), hex_id in zip(segments, u["extends"], strict=True):
        assert math.dist((x1, y1), xy[hex_id]) < 0.01 * s
        assert 0.2 * s < math.dist((x0, y0), (cx, cy)) < 0.5 * s
    assert not errors, errors
