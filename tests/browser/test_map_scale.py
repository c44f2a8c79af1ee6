"""The board scales to the map it draws: a crowded graph's discs stay apart and their names
readable; a hex grid is shaded by its own range of levels (a few levels, or sixteen)."""

from __future__ import annotations

import itertools
import math
from typing import Any

import httpx
import pytest


def _crowded_graph(url: str) -> tuple[str, dict[str, Any], dict[str, Any]]:
    """A listed system whose map is a graph of many positions, with its /api/systems entry."""
    for info in httpx.get(f"{url}/api/systems").json()["systems"]:
        r = httpx.get(f"{url}/api/maps/{info['name']}")
        if r.status_code == 200 and r.json().get("topology") == "graph" \
                and len(r.json()["positions"]) >= 30:
            return info["name"], info, r.json()
    pytest.skip("no listed system has a graph map of 30 positions or more")


def test_a_crowded_graph_map_keeps_its_discs_apart_and_names_readable(browser: Any,
                                                                      live: Any) -> None:
    name, info, the_map = _crowded_graph(live.url)
    scenario = next(iter(info["scenarios"]))
    seats = {seat: {"kind": "human"} for seat in info["seats"]}
    r = httpx.post(f"{live.url}/api/games", json={"system": name, "scenario": scenario,
                                                   "seats": seats})
    assert r.status_code == 201, r.text
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live.url + next(iter(r.json()["seats"].values()))["link"])
    page.wait_for_selector("svg.map.topology-graph polygon.position")
    discs = page.eval_on_selector_all("polygon.position", """els => els.map(e => {
      const pts = e.getAttribute('points').split(' ').map(p => p.split(',').map(Number));
      const cx = pts.reduce((s, p) => s + p[0], 0) / pts.length;
      const cy = pts.reduce((s, p) => s + p[1], 0) / pts.length;
      return [e.dataset.hex, cx, cy, Math.max(...pts.map(p => Math.hypot(p[0] - cx, p[1] - cy)))];
    })""")
    assert len(discs) == len(the_map["positions"])
    for i, (a, ax, ay, ar) in enumerate(discs):
        assert ar > 0, a
        for b, bx, by, br in discs[i + 1:]:
            assert math.hypot(ax - bx, ay - by) >= ar + br, (a, b)
    # Names in full (a long one on two lines), at a size that goes with the discs: not a
    # speck beside them, nor so large that it covers the map.
    nearest = sorted(min(math.hypot(ax - bx, ay - by) for b, bx, by, _ in discs if b != a)
                     for a, ax, ay, _ in discs)
    median = nearest[len(nearest) // 2]
    labels = page.eval_on_selector_all("text.position-name", "els => els.map(e => "
                                       "[e.textContent, Number(e.getAttribute('font-size'))])")
    assert sorted(t for t, _ in labels) == sorted(p.get("name") or p["id"]
                                                  for p in the_map["positions"])
    for _, size in labels:
        assert 0.1 * median <= size <= 0.3 * median
    assert not errors, errors
    context.close()


# A row of hexes, one a level from 0 to `top`, drawn by board.js alone; their fills back.
SHADES = """async (top) => {
  const { Board } = await import('/static/js/board.js');
  const node = document.createElement('div');
  node.className = 'board';
  node.style.height = '300px';
  document.body.prepend(node);
  const r = 100 / Math.sqrt(3);
  const corners = Array.from({ length: 6 }, (_, i) => [r * Math.cos(Math.PI / 6 + i * Math.PI / 3),
    r * Math.sin(Math.PI / 6 + i * Math.PI / 3)]);
  const hexes = Array.from({ length: top + 1 }, (_, i) => ({ id: `h${i}`, xy: [i * 100, 0],
    terrain: 'clear', ground: i }));
  new Board(node, { map: { topology: 'hex', layout: { corners, basis_q: [100, 0],
    basis_r: [50, 86.6], origin: [0, 0] }, hexes, hexsides: [] } });
  const out = hexes.map((h) => node.querySelector(`polygon[data-hex=${h.id}]`)
    .getAttribute('fill'));
  node.remove();
  return out;
}"""


def _lightness(colour: str) -> int:
    return sum(int(colour[i:i + 2], 16) for i in (1, 3, 5))


@pytest.mark.parametrize("top", [2, 16])
def test_hexes_are_shaded_by_the_maps_own_range_of_levels(browser: Any, live: Any,
                                                          top: int) -> None:
    context = browser.new_context(viewport={"width": 1000, "height": 700})
    page = context.new_page()
    page.goto(live.url + "/")
    fills = page.evaluate(SHADES, top)
    # Each level its own tone, darker as it climbs, the highest never black.
    light = [_lightness(f) for f in fills]
    assert all(a > b for a, b in itertools.pairwise(light)), fills
    assert light[-1] > light[0] // 3
    context.close()


def test_a_graph_map_draws_its_ground_under_the_links(browser: Any, live: Any) -> None:
    """A graph map that carries the ground (landcover, streams, roads) is drawn over it:
    one path per area and line, beneath the links and the positions."""
    name, info, the_map = _crowded_graph(live.url)
    ground = the_map.get("ground")
    if not ground:
        pytest.skip(f"{name}'s map carries no ground")
    seats = {seat: {"kind": "human"} for seat in info["seats"]}
    r = httpx.post(f"{live.url}/api/games", json={"system": name, "scenario":
                                                   next(iter(info["scenarios"])), "seats": seats})
    assert r.status_code == 201, r.text
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(live.url + next(iter(r.json()["seats"].values()))["link"])
    page.wait_for_selector("svg.map.topology-graph polygon.position")
    drawn = page.eval_on_selector_all("svg.map g.ground path", "els => els.length")
    assert drawn == len(ground["areas"]) + len(ground["lines"]) > 0
    order = page.evaluate("""() => [...document.querySelector('svg.map').querySelectorAll(
        'g.ground, g.links, g.positions')].map(g => g.getAttribute('class'))""")
    assert order.index("ground") < order.index("links") < order.index("positions")
    context.close()
