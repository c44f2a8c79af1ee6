"""GBACW's three sheets (about 6,000 hexes) in the web client: a map this large draws its
ground on a canvas of cached tiles (static/js/maptiles.js; docs/server.md, "The map
renderer"). The canvas holds the town's colour where the town is, prints hex ids only close
in, and a click or hover on the canvas finds the hex under the pointer (issue 50)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

# The page's view of a hex: where its centre is on the canvas (CSS px from the canvas's
# corner, which is the SVG's), and the map units per CSS px.
WHERE = """([x, y]) => {
  const s = document.querySelector('svg.map'); const r = s.getBoundingClientRect();
  const [vx, vy, vw, vh] = s.getAttribute('viewBox').split(' ').map(Number);
  const k = Math.max(vw / r.width, vh / r.height);
  return [(x - vx - (vw - r.width * k) / 2) / k, (y - vy - (vh - r.height * k) / 2) / k,
          r.left, r.top, k];
}"""
PIXEL = """([x, y]) => {
  const c = document.querySelector('canvas.map-ground'); const d = window.devicePixelRatio || 1;
  return [...c.getContext('2d').getImageData(Math.round(x * d), Math.round(y * d), 1, 1).data];
}"""
DRAWN = "() => document.querySelector('canvas.map-ground')?.dataset.missing === '0'"


def _mix(colour: str, toward: str, amount: float) -> tuple[int, ...]:
    """board.js's mix(): `colour` moved `amount` of the way toward `toward`."""
    a = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    b = [int(toward[i:i + 2], 16) for i in (1, 3, 5)]
    return tuple(round(v + (w - v) * amount) for v, w in zip(a, b, strict=True))


def _shade(level: float, lo: float, hi: float) -> float:
    """board.js's levelShade()."""
    return max(0.0, min(0.5, (level - lo) * min(0.09, 0.5 / (hi - lo))))


def _near(pixel: list[int], colour: tuple[int, ...], tolerance: int = 10) -> bool:
    return pixel[3] == 255 and all(abs(p - c) <= tolerance for p, c in zip(pixel, colour,
                                                                          strict=False))


@pytest.fixture
def gbacw_page(browser: Any, live: Any) -> Any:
    the_map = httpx.get(f"{live.url}/api/maps/gbacw", timeout=120)
    if the_map.status_code != 200:
        pytest.skip("no GBACW map")
    r = httpx.post(f"{live.url}/api/games", timeout=120, json={
        "system": "gbacw", "scenario": "first-day",
        "seats": {"usa": {"kind": "human"}, "csa": {"kind": "human"}}})
    assert r.status_code == 201, r.text
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live.url + r.json()["seats"]["usa"]["link"])
    page.wait_for_function(DRAWN, timeout=60_000)
    yield page, the_map.json(), errors
    context.close()


def _centre(page: Any, the_map: dict[str, Any], hex_id: str) -> list[float]:
    h = next(h for h in the_map["hexes"] if h["id"] == hex_id)
    return list(page.evaluate(WHERE, [h["xy"][0], -h["xy"][1]]))


def test_the_town_is_drawn_on_the_canvas_in_its_colour_and_only_a_few_hexes_are_shapes(
        gbacw_page: Any) -> None:
    page, the_map, errors = gbacw_page
    assert len(the_map["hexes"]) > 5000
    # The hexes are not 6,000 SVG shapes: only those made for the play so far.
    assert page.locator("polygon.hex").count() < 100
    page.click("button.zoom >> nth=2")  # the whole map
    page.wait_for_function(DRAWN)
    lod = page.get_attribute("canvas.map-ground", "data-lod").split()
    assert "ids" not in lod and "names" not in lod and "fills" in lod  # far out: no ids
    levels = [h["ground"] for h in the_map["hexes"]]
    lo, hi = min(levels), max(levels)
    s = (the_map["layout"]["basis_q"][0] ** 2 + the_map["layout"]["basis_q"][1] ** 2) ** 0.5
    town = [h for h in the_map["hexes"] if h["terrain"] == "town"]
    assert any(h["id"] == "B3821" for h in town)
    hits = total = 0
    for h in town:
        colour = _mix("#caa58a", "#6b4a22", _shade(h["ground"], lo, hi))
        x, y, _, _, k = page.evaluate(WHERE, [h["xy"][0], -h["xy"][1]])
        # Around the centre (roads run through it), a third of the way to the edge.
        for dx, dy in ((0.3, 0), (-0.3, 0), (0, 0.3), (0, -0.3), (0.2, 0.2), (-0.2, -0.2)):
            total += 1
            hits += _near(page.evaluate(PIXEL, [x + dx * s / k, y + dy * s / k]), colour)
    assert hits >= total * 0.6, (hits, total)
    # And not everywhere: a woods hex is not the town's colour.
    woods = next(h for h in the_map["hexes"] if h["terrain"] == "woods")
    x, y, *_ = page.evaluate(WHERE, [woods["xy"][0], -woods["xy"][1]])
    town_colour = _mix("#caa58a", "#6b4a22", _shade(woods["ground"], lo, hi))
    assert not _near(page.evaluate(PIXEL, [x, y]), town_colour)
    assert not errors, errors


def test_close_in_the_canvas_prints_the_hex_ids_where_they_belong(gbacw_page: Any) -> None:
    page, the_map, errors = gbacw_page
    for _ in range(40):
        x, y, left, top, _ = _centre(page, the_map, "B3821")
        box = page.locator("svg.map").bounding_box()
        if not (0 < x < box["width"] and 0 < y < box["height"]):
            # Bring the town into the middle first (a drag pans one to one).
            cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
            page.mouse.move(cx, cy)
            page.mouse.down()
            page.mouse.move(cx + (cx - left - x) / 2, cy + (cy - top - y) / 2, steps=2)
            page.mouse.move(cx + cx - left - x, cy + cy - top - y, steps=2)
            page.mouse.up()
            continue
        if "ids" in (page.get_attribute("canvas.map-ground", "data-lod") or ""):
            break
        page.mouse.move(left + x, top + y)
        page.mouse.wheel(0, -120)
        page.wait_for_function(DRAWN)
    page.wait_for_function(DRAWN)
    assert "ids" in page.get_attribute("canvas.map-ground", "data-lod").split()
    # The id's letters as the canvas sets them, drawn apart: where they have ink, the map
    # is darker than the hex's ground (the letters are there, not just the hex).
    x, y, _, _, k = _centre(page, the_map, "B3821")
    s = (the_map["layout"]["basis_q"][0] ** 2 + the_map["layout"]["basis_q"][1] ** 2) ** 0.5
    share = page.evaluate("""([text, x, y, fs, dy]) => {
      const d = window.devicePixelRatio || 1;
      const map = document.querySelector('canvas.map-ground').getContext('2d');
      const w = Math.ceil(fs * text.length * d), h = Math.ceil(fs * 1.6 * d);
      const [x0, y0] = [Math.round((x - w / d / 2) * d), Math.round((y + dy - fs * 1.2) * d)];
      const ink = document.createElement('canvas'); ink.width = w; ink.height = h;
      const c = ink.getContext('2d'); c.font = `${fs * d}px Arial, Helvetica, sans-serif`;
      c.textAlign = 'center'; c.fillText(text, w / 2, fs * 1.2 * d);
      const mask = c.getImageData(0, 0, w, h).data;
      const seen = map.getImageData(x0, y0, w, h).data;
      const lum = (a, i) => a[i] * 0.3 + a[i + 1] * 0.59 + a[i + 2] * 0.11;
      const ground = map.getImageData(Math.round(x * d), Math.round((y - fs * 2.4) * d), 1, 1).data;
      let on = 0, dark = 0;
      for (let i = 0; i < mask.length; i += 4) if (mask[i + 3] > 160) {
        on++; if (lum(seen, i) < lum(ground, 0) - 25) dark++;
      }
      return on ? dark / on : 0;
    }""", ["B3821", x, y, s * 0.11 / k, s * 0.4 / k])
    assert share >= 0.6, share
    assert not errors, errors


def test_a_hover_and_a_click_on_the_canvas_find_the_hex_under_the_pointer(
        gbacw_page: Any) -> None:
    page, the_map, errors = gbacw_page
    box = page.locator("svg.map").bounding_box()
    for _ in range(6):  # close enough that a hex is a fair target
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.wheel(0, -120)
    page.wait_for_function(DRAWN)
    # A block of one's own, selected: a click on a hex it cannot go to is refused, naming
    # the hex clicked.
    page.locator("g.unit[data-side=usa]").first.click()
    page.wait_for_selector("g.unit.selected")
    # Hexes whose centre shows nothing of the SVG's above the canvas: a piece there would
    # take the click.
    free = page.evaluate("""(hexes) => {
      const s = document.querySelector('svg.map'); const r = s.getBoundingClientRect();
      const [vx, vy, vw, vh] = s.getAttribute('viewBox').split(' ').map(Number);
      const k = Math.max(vw / r.width, vh / r.height);
      const out = [];
      for (const [id, x, y] of hexes) {
        const sx = r.left + (x - vx - (vw - r.width * k) / 2) / k;
        const sy = r.top + (y - vy - (vh - r.height * k) / 2) / k;
        const inside = sx > r.left + 40 && sx < r.right - 40
          && sy > r.top + 40 && sy < r.bottom - 40;
        if (!inside) continue;
        if (document.elementFromPoint(sx, sy) === s) out.push([id, sx, sy]);
      }
      return out;
    }""", [[h["id"], h["xy"][0], -h["xy"][1]] for h in the_map["hexes"]])
    assert len(free) > 10
    for hex_id, sx, sy in (free[0], free[len(free) // 2]):
        page.mouse.move(sx, sy)
        page.wait_for_function("(id) => document.querySelector('.board .hover').textContent"
                               ".startsWith(id + ' · ')", arg=hex_id)
        page.mouse.click(sx, sy)
        page.wait_for_function("(id) => document.querySelector('.refused-mark')"
                               "?.dataset.place === id", arg=hex_id)
        assert hex_id in page.inner_text("#refusal")
    assert not errors, errors


def test_the_keyboard_steps_over_canvas_hexes_as_over_svg_ones(gbacw_page: Any) -> None:
    page, the_map, errors = gbacw_page
    page.locator("svg.map g.unit[data-side=usa]").first.focus()
    start = page.evaluate("() => document.activeElement.dataset.unit")
    assert start
    made = page.locator("polygon.hex").count()
    page.keyboard.press("ArrowRight")
    hex_id = page.evaluate("() => document.activeElement.dataset.hex")
    assert hex_id and page.locator("polygon.hex").count() == made + 1  # made on arrival
    page.keyboard.press("ArrowRight")
    then = page.evaluate("() => document.activeElement.dataset.hex")
    assert then and then != hex_id
    # The two are neighbours on the map, the second east of the first; the ring is shown.
    a = next(h["xy"] for h in the_map["hexes"] if h["id"] == hex_id)
    b = next(h["xy"] for h in the_map["hexes"] if h["id"] == then)
    s = (the_map["layout"]["basis_q"][0] ** 2 + the_map["layout"]["basis_q"][1] ** 2) ** 0.5
    assert 0.8 * s < ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5 < 1.2 * s and b[0] > a[0]
    assert page.evaluate("() => document.querySelector('.focus-ring').style.display") == ""
    assert page.inner_text(".board .hover").startswith(then)
    assert not errors, errors
