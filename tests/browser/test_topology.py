"""The board draws whatever topology a system's map declares (a hex grid, or a graph of
named positions and links) and pieces in the style the system declares (blocks, faced
counters in stacks, divisions' markers, plain markers). The toy declares a tiny graph."""

from __future__ import annotations

from typing import Any

import httpx


def _page(browser: Any) -> tuple[Any, Any, list[str]]:
    errors: list[str] = []
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    return context, page, errors


def _view_box(page: Any) -> list[float]:
    return [float(v) for v in page.get_attribute("svg.map", "viewBox").split()]


def test_a_graph_map_is_drawn_with_its_links_and_pans_and_zooms(browser: Any, live: Any) -> None:
    toy_map = httpx.get(f"{live.url}/api/maps/toy").json()
    assert toy_map["topology"] == "graph"
    r = httpx.post(f"{live.url}/api/games", json={
        "system": "toy", "scenario": "standard",
        "seats": {"red": {"kind": "human"}, "blue": {"kind": "human"}}})
    assert r.status_code == 201, r.text
    context, page, errors = _page(browser)
    page.goto(live.url + r.json()["seats"]["red"]["link"])
    page.wait_for_selector("svg.map.topology-graph polygon.position")
    ids = page.eval_on_selector_all("polygon.position", "els => els.map(e => e.dataset.hex)")
    assert sorted(ids) == sorted(p["id"] for p in toy_map["positions"])
    assert page.locator("polygon.hex").count() == 0
    # Each link a line between its two positions, styled by its kind.
    links = page.eval_on_selector_all("line.link", "els => els.map(e => [e.dataset.a, "
                                      "e.dataset.b, e.getAttribute('class')])")
    assert sorted((a, b) for a, b, _ in links) == sorted(
        (link["a"], link["b"]) for link in toy_map["links"])
    for a, b, cls in links:
        kind = next(k["kind"] for k in toy_map["links"] if (k["a"], k["b"]) == (a, b))
        assert f"link-{kind}" in cls
    names = page.eval_on_selector_all("text.position-name", "els => els.map(e => e.textContent)")
    assert sorted(names) == sorted(p["name"] for p in toy_map["positions"])
    first = toy_map["positions"][0]
    page.hover(f"polygon.position[data-hex={first['id']}]")
    assert page.inner_text(".board .hover").startswith(f"{first['id']} · {first['name']}")
    # The toy's blocks stand on no position: they wait in the strip, and are played there.
    assert page.locator(".offmap g.unit").count() == 6
    page.click(".offmap g.unit[data-unit=r1]")
    assert page.locator("button.match").count() == 2  # reveal r1, attack r1
    # Wheel zoom, drag to pan, the zoom buttons (from the whole map: the page starts fitted
    # to the board's width).
    page.click("button.zoom >> nth=2")
    before = _view_box(page)
    box = page.locator("svg.map").bounding_box()
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(cx, cy)
    page.mouse.wheel(0, -400)
    zoomed = _view_box(page)
    assert zoomed[2] < before[2]
    page.mouse.move(cx + 5, cy + 100)
    page.mouse.down()
    page.mouse.move(cx + 85, cy + 100, steps=4)
    page.mouse.up()
    panned = _view_box(page)
    assert panned[0] < zoomed[0] and panned[2] == zoomed[2]
    page.click("button.zoom >> nth=2")  # fit: the whole map again
    assert _view_box(page) == before
    # From the keyboard an arrow key follows a link to the next position that way.
    page.focus(f"polygon.position[data-hex={first['id']}]")
    page.keyboard.press("ArrowLeft")
    left = page.evaluate("() => document.activeElement.dataset.hex")
    linked = {k["b"] if k["a"] == first["id"] else k["a"] for k in toy_map["links"]
              if first["id"] in (k["a"], k["b"])}
    assert left in linked
    assert not errors, errors
    context.close()


def test_each_counter_style_draws_pieces_on_positions(browser: Any, live: Any) -> None:
    """A board drawn from the toy's graph map and a view that puts pieces on positions, in
    each style a system may declare: the shapes differ, the pieces stand on their
    positions, a stack of faced counters is offset piece by piece, and each side wears its
    colour."""
    context, page, errors = _page(browser)
    page.goto(live.url + "/?all")
    page.wait_for_selector("select.who")
    out = page.evaluate("""async () => {
      const { Board } = await import("/static/js/board.js");
      const { seatColours } = await import("/static/js/systems.js");
      const map = await (await fetch("/api/maps/toy")).json();
      const colours = seatColours({ seats: { red: "Red", blue: "Blue" } });
      const [p, q] = map.positions.map((x) => x.id);
      const units = [
        { id: "r1", side: "red", hex: p, strength: 3, name: "Archer", type: "inf" },
        { id: "r2", side: "red", hex: p, strength: 2, name: "Baxter", type: "inf" },
        { id: "r3", side: "red", hex: p, strength: 1, name: "Cutler", type: "cav" },
        { id: "b1", side: "blue", hex: q, strength: 4, name: "Davis", type: "art" }];
      const found = {};
      for (const counters of ["blocks", "counters", "divisions", "markers"]) {
        const node = document.createElement("div");
        node.className = "board";
        node.style.width = "600px"; node.style.height = "400px";
        document.body.append(node);
        const board = new Board(node, { map, seats: ["red", "blue"], counters, colours });
        board.render({ units });
        const pieces = [...node.querySelectorAll("g.units g.unit")];
        const at = (g) => { const m = g.getCTM(); return [m.e, m.f]; };
        const face = (g) => g.querySelector(".face");
        found[counters] = {
          count: pieces.length,
          classes: pieces.map((g) => g.getAttribute("class")),
          shapes: pieces.map((g) => face(g).tagName),
          box: pieces.map((g) => { const b = face(g).getBBox(); return [b.width, b.height]; }),
          fills: pieces.map((g) => [g.dataset.side, face(g).getAttribute("fill")]),
          xy: pieces.map(at),
          labels: pieces.map((g) => [...g.querySelectorAll("text")]
            .map((x) => x.textContent).join("|")),
          centre: board.centres.get(p),
          colours,
        };
        node.remove();
      }
      return found;
    }""")
    for style, got in out.items():
        assert got["count"] == 4, style
        assert all(f"piece-{style}" in c for c in got["classes"]), style
        assert all(fill == got["colours"][side][0] for side, fill in got["fills"]), style
        assert len({tuple(xy) for xy in got["xy"]}) == 4, style  # none hides another
    assert set(out["markers"]["shapes"]) == {"circle"}
    assert set(out["blocks"]["shapes"]) == set(out["counters"]["shapes"]) == {"rect"}
    assert all(w > 1.4 * h for w, h in out["divisions"]["box"])  # a wide label
    assert all(abs(w - h) < 1e-6 for w, h in out["counters"]["box"])  # square
    assert "Archer" in out["divisions"]["labels"][0] and "3" in out["divisions"]["labels"][0]
    assert out["markers"]["labels"][0] == "3"  # a disc says its strength only
    # A stack of faced counters climbs up and to the right, piece by piece.
    stack = out["counters"]["xy"][:3]
    assert stack[0][0] < stack[1][0] < stack[2][0] and stack[0][1] > stack[1][1] > stack[2][1]
    assert not errors, errors
    context.close()


def test_a_system_kept_out_of_the_lobby_is_offered_only_when_asked_for(
        browser: Any, live: Any) -> None:
    listed = {s["name"]: s["listed"] for s in
              httpx.get(f"{live.url}/api/systems").json()["systems"]}
    assert listed["toy"] is False
    context, page, errors = _page(browser)
    page.goto(live.url + "/")
    page.wait_for_selector("select.who")
    menu = page.eval_on_selector_all("#system option", "els => els.map(e => e.value)")
    assert menu == [name for name, shown in listed.items() if shown]
    page.goto(live.url + "/?all")
    page.wait_for_selector("select.who")
    menu = page.eval_on_selector_all("#system option", "els => els.map(e => e.value)")
    assert menu == list(listed)
    # The toy lists its own opponents: the lobby offers those (English only: it is hidden).
    page.select_option("#system", "toy")
    page.wait_for_selector("select.agent[data-seat=blue]")
    offered = page.eval_on_selector_all("select.agent[data-seat=blue] option",
                                        "els => els.map(e => e.value)")
    toy = next(s for s in httpx.get(f"{live.url}/api/systems").json()["systems"]
               if s["name"] == "toy")
    assert offered == [o["name"] for o in toy["opponents"]]
    assert not errors, errors
    context.close()
