"""The map's layout in a real browser: the off-map strip never covers the map and its blocks
are big enough to read, the hint and hover boxes never cover it either, a stack of blocks
stays inside its hex, block labels are whole words, and the lobby fits a phone."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.usefixtures("boc_ready")


def _open(browser: Any, live: Any, scenario: str, seat: str = "usa",
          size: tuple[int, int] = (1280, 860)) -> tuple[Any, Any, dict[str, Any]]:
    """A BoC game with two human seats (nothing moves by itself), open as `seat`; returns
    the context, the page and the seat's view."""
    r = httpx.post(f"{live.url}/api/games", timeout=60, json={
        "system": "boc", "scenario": scenario,
        "seats": {"usa": {"kind": "human"}, "csa": {"kind": "human"}}})
    r.raise_for_status()
    game = r.json()
    token = game["seats"][seat]["token"]
    view = httpx.get(f"{live.url}/api/games/{game['game_id']}",
                     headers={"Authorization": f"Bearer {token}"}).json()["view"]
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    page.goto(live.url + game["seats"][seat]["link"])
    page.wait_for_selector("g.units g.unit")
    return context, page, view


def _words(live: Any, lang: str) -> dict[str, str]:
    """The client's catalogue in ``lang`` as the server serves it (its own words over every
    system's: a block type's word is the system's)."""
    r = httpx.get(f"{live.url}/api/i18n/{lang}", timeout=60)
    r.raise_for_status()
    words: dict[str, str] = r.json()
    return words


def _strength(unit: dict[str, Any]) -> str:
    """A block's strength as its label reads it: now over maximum (none left once
    eliminated, whatever strength it last had)."""
    now = 0 if unit["status"] == "eliminated" else unit["strength"]
    return f"{now}/{unit['max_strength']}"


def test_the_off_map_strip_does_not_cover_the_zoomed_map(browser: Any, live: Any) -> None:
    context, page, _ = _open(browser, live, "day1")
    page.wait_for_selector(".offmap g.unit")
    box = page.locator("svg.map").bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    for _ in range(6):
        page.mouse.wheel(0, -300)
    page.wait_for_function("() => Number(document.querySelector('svg.map')"
                           ".getAttribute('viewBox').split(' ')[2]) < 2000")
    out = page.evaluate("""() => {
      const map = document.querySelector("svg.map");
      const m = map.getBoundingClientRect();
      const s = document.querySelector(".board .offmap").getBoundingClientRect();
      // What a player sees near the map's top edge, across its width: the map itself.
      const hits = [0.1, 0.3, 0.5, 0.7, 0.9].map((f) =>
        map.contains(document.elementFromPoint(m.left + f * m.width, m.top + 20)));
      return { map: [m.left, m.top, m.right, m.bottom], strip: [s.left, s.top, s.right, s.bottom],
               hits };
    }""")
    m, s = out["map"], out["strip"]
    assert s[3] - s[1] > 20  # the strip is there, with its blocks
    overlap = min(m[2], s[2]) > max(m[0], s[0]) and min(m[3], s[3]) > max(m[1], s[1])
    assert not overlap, out
    assert all(out["hits"]), out
    context.close()


def _inside(point: tuple[float, float], polygon: list[list[float]], slack: float) -> bool:
    """`point` inside the convex `polygon`, or within `slack` pixels of its edges."""
    sign = 0.0
    for (ax, ay), (bx, by) in zip(polygon, polygon[1:] + polygon[:1], strict=True):
        cross = (bx - ax) * (point[1] - ay) - (by - ay) * (point[0] - ax)
        dist = cross / ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5
        if sign == 0:
            sign = 1.0 if cross > 0 else -1.0
        if dist * sign < -slack:
            return False
    return True


def test_a_stack_of_four_blocks_stays_inside_its_hex(browser: Any, live: Any) -> None:
    # Day 2 opens with many stacks of four, the player's own and hidden enemy ones.
    context, page, view = _open(browser, live, "day2", size=(1400, 1300))
    hex_of = {u["id"]: u["hex"] for u in view["units"] if u.get("hex")}
    hex_of |= {u["handle"]: u["hex"] for u in view["hidden"] if u.get("hex")}
    drawn = page.evaluate("""() => {
      const corners = (poly) => {
        const m = poly.getScreenCTM();
        return [...poly.points].map((p) => [m.a * p.x + m.c * p.y + m.e,
                                             m.b * p.x + m.d * p.y + m.f]);
      };
      const hexes = {};
      for (const p of document.querySelectorAll("polygon.hex")) hexes[p.dataset.hex] = corners(p);
      const blocks = [...document.querySelectorAll("g.units g.unit")].map((g) => {
        const r = g.getBoundingClientRect();
        return { id: g.dataset.unit, box: [r.left, r.top, r.right, r.bottom] };
      });
      return { hexes, blocks };
    }""")
    stacks: dict[str, list[str]] = {}
    for block in drawn["blocks"]:
        stacks.setdefault(hex_of[block["id"]], []).append(block["id"])
        x0, y0, x1, y1 = block["box"]
        polygon = drawn["hexes"][hex_of[block["id"]]]
        for corner in ((x0, y0), (x1, y0), (x0, y1), (x1, y1)):
            assert _inside(corner, polygon, 0.5), (block, hex_of[block["id"]], polygon)
    fours = [ids for ids in stacks.values() if len(ids) == 4]
    assert len(fours) > 5
    # Every block of a stack is still the one a click there selects.
    mine = next(ids for ids in fours if ids[0].startswith("usa-"))
    for unit in mine:
        page.click(f"g.units g.unit[data-unit='{unit}']")
        page.wait_for_selector(f"g.units g.unit.selected[data-unit='{unit}']")
    context.close()


def test_block_labels_are_whole_names_and_type_words(
        browser: Any, live: Any, switch_language: Any) -> None:
    context, page, view = _open(browser, live, "day2")
    words = _words(live, "en")
    labels = page.evaluate("""() => [...document.querySelectorAll("g.unit")]
      .filter((g) => g.querySelector("text.block-label")).map((g) => ({
        id: g.dataset.unit,
        texts: [...g.querySelectorAll("text.block-label")].map((t) => t.textContent),
        widths: [...g.querySelectorAll("text.block-label")].map((t) => t.getBBox().width),
        face: g.querySelector("rect.face").getBBox().width,
        title: g.querySelector("title").textContent }))""")
    units = {u["id"]: u for u in view["units"]}
    assert len(labels) == len(units) > 30  # on the map and off it
    for block in labels:
        u = units[block["id"]]
        name, _, kind = block["texts"]
        assert name == u["name"], block  # whole, not cut after 10 letters
        assert kind == words[f"unit_type.{u['type']}"], block  # "division HQ", not "dhq"
        assert "_" not in " ".join(block["texts"]) and "_" not in block["title"], block
        assert max(block["widths"]) <= block["face"] * 1.01, block  # and inside the block
    # The type words come in the player's language.
    switch_language(page, "de")
    page.wait_for_function("() => [...document.querySelectorAll('text.block-label')]"
                           ".some((t) => t.textContent === 'Infanterie')")
    context.close()


def test_the_lobby_fits_a_phone(browser: Any, live: Any) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(live.url + "/")
    page.wait_for_selector("select.who[data-seat=csa]")
    width = "() => document.documentElement.scrollWidth"
    assert page.evaluate(width) <= 390
    # With a friend's link shown, and a game in "my games" after a reload.
    page.select_option("select.who[data-seat=csa]", "friend")
    page.click("#start")
    page.wait_for_selector("#open-mine")
    assert page.evaluate(width) <= 390
    page.reload()
    page.wait_for_selector(".games-list li")
    assert re.search(r"boc/", page.inner_text(".games-list"))
    assert page.evaluate(width) <= 390
    context.close()


def test_a_phone_zooms_the_map_by_pinch_and_by_buttons(browser: Any, live: Any) -> None:
    # A phone has no wheel: two fingers pinch the map, and + − ⤢ under it zoom too (also
    # for a keyboard). Before, a pinch only jerked the map sideways.
    r = httpx.post(f"{live.url}/api/games", timeout=60, json={
        "system": "boc", "scenario": "day1",
        "seats": {"usa": {"kind": "human"}, "csa": {"kind": "human"}}})
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                  is_mobile=True)
    page = context.new_page()
    page.goto(live.url + r.json()["seats"]["usa"]["link"])
    page.wait_for_selector("g.units g.unit")

    def width() -> float:
        return float(page.get_attribute("svg.map", "viewBox").split()[2])

    # The map starts fitted to the screen's width around one's own blocks: ⤢ shows it all.
    page.tap("button.zoom[aria-label='The whole map']")
    whole = width()
    box = page.locator("svg.map").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    cdp = context.new_cdp_session(page)

    def touch(kind: str, spread: float | None) -> None:
        points = [] if spread is None else [{"x": x - spread, "y": y, "id": 0},
                                            {"x": x + spread, "y": y, "id": 1}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    touch("touchStart", 20)
    for k in range(1, 6):
        touch("touchMove", 20 + 8 * k)  # fingers 40 px apart, then 120: three times closer
    touch("touchEnd", None)
    assert width() == pytest.approx(whole / 3, rel=0.02)
    assert page.locator("g.unit.selected, polygon.dest").count() == 0  # a pinch is no tap
    page.tap("button.zoom[aria-label='Zoom out']")
    assert width() == pytest.approx(whole / 2, rel=0.02)
    page.tap("button.zoom[aria-label='The whole map']")
    assert width() == pytest.approx(whole)
    page.focus("button.zoom[aria-label='Zoom in']")
    page.keyboard.press("Enter")
    assert width() < whole
    context.close()


def _boxes_of_offmap_blocks(page: Any) -> list[dict[str, Any]]:
    """Each block in the off-map strip: its face and its labels, as drawn on screen."""
    return page.evaluate("""() => {
      const box = (e) => {
        const r = e.getBoundingClientRect();
        return [r.left, r.top, r.right, r.bottom];
      };
      return [...document.querySelectorAll(".offmap g.unit")].map((g) => ({
        id: g.dataset.unit, face: box(g.querySelector("rect.face")),
        labels: [...g.querySelectorAll("text.block-label")].map((t) => ({ text: t.textContent,
          box: box(t), px: Number(t.getAttribute("font-size")) * t.getScreenCTM().a })) }));
    }""")


@pytest.mark.parametrize("size", [(1280, 860), (390, 844)])
def test_off_map_blocks_are_large_enough_to_read(browser: Any, live: Any,
                                                  size: tuple[int, int]) -> None:
    # Day 1: most of both armies are still to come, waiting in the strip.
    context, page, view = _open(browser, live, "day1", size=size)
    page.wait_for_selector(".offmap g.unit")
    blocks = _boxes_of_offmap_blocks(page)
    strip = page.locator(".board .offmap").bounding_box()
    units = {u["id"]: u for u in view["units"]}
    labelled = [b for b in blocks if b["labels"]]
    assert len(labelled) > 10
    for block in blocks:
        x0, y0, x1, y1 = block["face"]
        assert 60 <= x1 - x0 <= 110 and 60 <= y1 - y0 <= 110, block  # not the old 28 px
        assert strip["y"] - 0.5 <= y0 and y1 <= strip["y"] + strip["height"] + 0.5, block
    for block in labelled:
        x0, y0, x1, y1 = block["face"]
        name, strength, _ = (label["text"] for label in block["labels"])
        unit = units[block["id"]]
        assert name == unit["name"] and strength == _strength(unit), block
        for label in block["labels"]:
            lx0, ly0, lx1, ly1 = label["box"]
            # Whole, inside its block, and set at a size one can read (8 px and up).
            assert x0 - 0.5 <= lx0 and lx1 <= x1 + 0.5 and y0 - 0.5 <= ly0 and ly1 <= y1 + 0.5, \
                (block["id"], label)
            assert label["px"] >= 8, (block["id"], label)
    context.close()


def test_long_names_and_type_words_read_in_every_language(
        browser: Any, live: Any, switch_language: Any) -> None:
    # The whole battle: every block still to come, among them the longest labels in each
    # language ("Alexander's Battalion", "Kav.-Divisions-HQ", "QG corpo cavalleria",
    # "CG cuerpo caballería"). They go on two lines rather than shrink to 7 px.
    for seat in ("usa", "csa"):
        context, page, view = _open(browser, live, "battle", seat=seat)
        page.wait_for_selector(".offmap g.unit")
        units = {u["id"]: u for u in view["units"]}
        for lang in ("en", "es", "de", "it"):
            words = _words(live, lang)
            if lang != "en":
                switch_language(page, lang)
                page.wait_for_function("(w) => [...document.querySelectorAll('.offmap "
                                       "text.block-label')].some((t) => t.textContent === w)",
                                       arg=words["unit_type.infantry"])
            blocks = _boxes_of_offmap_blocks(page)
            assert len(blocks) > 40
            for block in blocks:
                x0, y0, x1, y1 = block["face"]
                name, strength, kind = (label["text"] for label in block["labels"])
                unit = units[block["id"]]
                assert name == unit["name"], block  # whole, the space kept between lines
                assert strength == _strength(unit), block
                assert kind == words[f"unit_type.{unit['type']}"], block
                for label in block["labels"]:
                    lx0, ly0, lx1, ly1 = label["box"]
                    assert label["px"] >= 8.5, (lang, block["id"], label)
                    assert x0 - 0.5 <= lx0 and lx1 <= x1 + 0.5, (lang, block["id"], label)
                    assert y0 - 0.5 <= ly0 and ly1 <= y1 + 0.5, (lang, block["id"], label)
                # The three labels do not run into each other.
                boxes = [label["box"] for label in block["labels"]]
                assert boxes[0][3] <= boxes[1][1] + 1 and boxes[1][3] <= boxes[2][1] + 1, \
                    (lang, block)
        context.close()


def _intersect(a: list[float], b: list[float]) -> list[float] | None:
    box = [max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])]
    return box if box[2] > box[0] and box[3] > box[1] else None


@pytest.mark.parametrize("size", [(1280, 860), (390, 844)])
def test_the_hint_and_hover_boxes_never_cover_the_map(browser: Any, live: Any,
                                                      size: tuple[int, int]) -> None:
    context, page, view = _open(browser, live, "day1", size=size)
    page.locator("#board").scroll_into_view_if_needed()
    boxes = """() => {
      const box = (sel) => {
        const e = document.querySelector(sel);
        if (!e || e.hidden || getComputedStyle(e).display === "none") return null;
        const r = e.getBoundingClientRect();
        return [r.left, r.top, r.right, r.bottom];
      };
      return { map: box("svg.map"), board: box("#board"), hint: box(".board .hint"),
               hover: box(".board .hover"),
               text: document.querySelector(".board .hover").textContent };
    }"""

    def check(out: dict[str, Any]) -> None:
        # What of the map one can see: the svg, clipped by the board around it.
        seen = _intersect(out["map"], out["board"])
        assert seen and out["hint"] and out["hover"], out
        for name in ("hint", "hover"):
            assert _intersect(out[name], seen) is None, (name, out)

    # A hex near the map's middle with nothing on it: the hover box names it.
    spot = page.evaluate("""() => {
      const m = document.querySelector("svg.map").getBoundingClientRect();
      const [mx, my] = [m.left + m.width / 2, m.top + m.height / 2];
      let best = null;
      for (const p of document.querySelectorAll("polygon.hex")) {
        const r = p.getBoundingClientRect();
        const [x, y] = [r.left + r.width / 2, r.top + r.height / 2];
        if (document.elementFromPoint(x, y) !== p) continue;
        const d = Math.hypot(x - mx, y - my);
        if (!best || d < best.d) best = { d, x, y, hex: p.dataset.hex };
      }
      return best;
    }""")
    page.mouse.move(spot["x"], spot["y"])
    page.wait_for_function("(hex) => document.querySelector('.board .hover').textContent"
                           ".startsWith(hex)", arg=spot["hex"])
    check(page.evaluate(boxes))
    # A block on the map: the hover box says which.
    mine = next(u for u in view["units"] if u.get("hex"))
    page.hover(f"g.units g.unit[data-unit='{mine['id']}']")
    page.wait_for_function("(name) => document.querySelector('.board .hover').textContent"
                           ".includes(name)", arg=mine["name"])
    check(page.evaluate(boxes))
    # And one in the off-map strip.
    waiting = page.locator(".offmap g.unit").first
    waiting.hover()
    name = next(u["name"] for u in view["units"]
                if u["id"] == waiting.get_attribute("data-unit"))
    page.wait_for_function("(name) => document.querySelector('.board .hover').textContent"
                           ".includes(name)", arg=name)
    check(page.evaluate(boxes))
    # A hidden enemy block: the hover box says so, without the opaque handle.
    hidden = view["hidden"][0]
    page.locator(f"g.units g.unit[data-unit='{hidden['handle']}']").hover(force=True)
    page.wait_for_function("() => document.querySelector('.board .hover').textContent"
                           ".includes('enemy block (hidden)')")
    assert hidden["handle"] not in page.evaluate(boxes)["text"]
    context.close()
