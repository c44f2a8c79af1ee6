"""The web client with a GBACW scenario's counters on the map, in headless Chromium: run
with ``.venv/bin/python benchmarks/bench_client_counters.py [--scenario third-day]
[--steps N] [--clicks N]``.

It starts the server (a temporary database), creates the scenario with both seats played
by people (nobody moves), opens the Union's page, zooms three steps in from the opening
view (counters readable) and measures, in the page, from the input event's arrival to the
end of the frame that shows it:

- pan and zoom: ``N`` steps of wheel zooms and mouse-drag pans, as bench_client_map.py;
- click to response: a click on one of the seat's counters in sight until the page shows
  it selected (its ring, the actions panel following it); ``--clicks`` counters in turn,
  each clicked twice (select, then unselect).

No scenario opens with 1,000 counters on the map (the battle's arrive as reinforcements;
Day 3 opens with the most, 576). ``--inflate N`` makes the page's view hold N: copies of
the scenario's counters put on free hexes around them, served to the page in place of
the game's state (a route in the browser, nothing changed on the server), so the client
draws, pans and hit-tests N counters as it would late in the battle.

``--static DIR`` serves the page's client files (``/static/...``) from ``DIR`` instead, routed
in the browser: the client of another commit (``git archive COMMIT src/gettysburg/server/static
| tar -x -C /tmp/old``, then ``--static /tmp/old/src/gettysburg/server/static``) measured
against this one under the same load.

Figures only (docs/server.md keeps them); nothing is asserted. Counters drawn and on the
map are printed with the page's load time (from the address to the map drawn).
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).parent))
from bench_client_map import (
    ARGS,
    CHROMIUM,
    IDLE,
    VIEWPORT,
    WATCH,
    Server,
    percentile,
    steps,
)

# A click's arrival (pointerdown) to the frame painted after the counter shows selected.
CLICK_WATCH = """() => { window.__down = null; window.addEventListener('pointerdown',
  () => { window.__down = performance.now(); }, { capture: true, passive: true }); }"""
SELECTED = """([id, on]) => new Promise((done) => {
  // ...and, on a map whose pieces are painted on a canvas, none of them still waiting there
  const painted = () =>
    (document.querySelector('canvas.map-pieces')?.dataset.waiting ?? '0') === '0';
  const want = () => Boolean(document.querySelector(`g.unit.selected[data-unit="${id}"]`)) === on
    && painted();
  const check = () => want() ? requestAnimationFrame(() => setTimeout(() =>
    done(performance.now() - window.__down), 0)) : requestAnimationFrame(check);
  check();
})"""


def visible_own(page: Any, seat: str, limit: int, alone: set[str]) -> list[str]:
    """Own counters (not leaders) wholly inside the map's box, alone in their hex."""
    box = page.locator("svg.map").bounding_box()
    out: list[str] = []
    for g in page.locator(f"g.unit.side-{seat}:not(.leader)").all():
        bb = g.bounding_box()
        if bb is None or not (box["x"] + 30 < bb["x"] and bb["x"] + bb["width"] < box["x"]
                              + box["width"] - 30 and box["y"] + 30 < bb["y"]
                              and bb["y"] + bb["height"] < box["y"] + box["height"] - 60):
            continue
        if g.get_attribute("data-unit") not in alone:
            continue
        out.append(str(g.get_attribute("data-unit")))
        if len(out) >= limit:
            break
    return out


def clicks(page: Any, units: list[str]) -> list[float]:
    page.evaluate(CLICK_WATCH)
    times: list[float] = []
    for unit in units:
        for on in (True, False):
            page.locator(f'g.unit[data-unit="{unit}"]').click()
            if on and page.locator("#stack").is_visible():  # a stack opened into its list
                page.locator(f'#stack button[data-unit="{unit}"]').click()
            times.append(page.evaluate(SELECTED, [unit, on]))
            page.evaluate(IDLE)
    return times


def open_map(browser: Any, link: str, route: tuple[str, Any, str] | None = None,
             static: Path | None = None) -> Any:
    """The game's page with its counters and map drawn (as bench_client_map.open_map), the
    game's state served by ``route`` when given, the client's files from ``static``."""
    page = browser.new_context(viewport=VIEWPORT).new_page()
    if static is not None:
        def client(r: Any) -> None:
            path = static / r.request.url.split("/static/", 1)[1].split("?")[0]
            kind = "text/css" if path.suffix == ".css" else "text/javascript"
            r.fulfill(status=200, content_type=kind, body=path.read_bytes())
        page.route("**/static/**", client)
    if route is not None:
        page.route(route[0], route[1])
        body = json.loads(route[2])

        def push(ws: Any) -> None:
            # the push channel's states carry the inflated view too
            server = ws.connect_to_server()

            def relay(message: str | bytes) -> None:
                try:
                    doc = json.loads(message)
                except ValueError:
                    ws.send(message)
                    return
                if isinstance(doc, dict) and doc.get("type") == "state":
                    doc["state"] = body
                ws.send(json.dumps(doc))
            server.on_message(relay)
        page.route_web_socket(re.compile(r".*/ws$"), push)
    page.goto(link)
    page.wait_for_selector("svg.map g.units g.unit", timeout=300_000)
    page.wait_for_function("() => { const c = document.querySelector('canvas.map-ground');"
                           " return !c || c.dataset.missing === '0'; }", timeout=300_000)
    page.evaluate(WATCH)
    return page


def inflate(state: dict[str, Any], hexes: list[str], n: int) -> dict[str, Any]:
    """The state with its view's units copied onto free hexes until ``n`` are on the map."""
    units = state["view"]["units"]
    taken = {u["hex"] for u in units.values() if u["hex"]}
    free = [h for h in hexes if h not in taken]
    base = [(k, u) for k, u in sorted(units.items()) if u["hex"]]
    i = 0
    while sum(1 for u in units.values() if u["hex"]) < n and free and base:
        k, u = base[i % len(base)]
        units[f"{k}#{i}"] = {**u, "hex": free.pop(0)}
        i += 1
    return state


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scenario", default="third-day")
    ap.add_argument("--steps", type=int, default=48)
    ap.add_argument("--clicks", type=int, default=10)
    ap.add_argument("--inflate", type=int, default=0, help="counters on the map (copies)")
    ap.add_argument("--static", type=Path, default=None, help="the client's files from here")
    ap.add_argument("--each", action="store_true", help="print every step's and click's time")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    server = Server(Path(tempfile.mkdtemp()) / "games.db")
    try:
        t = time.perf_counter()
        r = httpx.post(f"{server.url}/api/games", timeout=600, json={
            "system": "gbacw", "scenario": args.scenario,
            "seats": {"usa": {"kind": "human"}, "csa": {"kind": "human"}}})
        r.raise_for_status()
        created = time.perf_counter() - t
        game = r.json()
        link = game["seats"]["usa"]["link"]
        state = httpx.get(f"{server.url}/api/games/{game['game_id']}", timeout=600,
                          headers={"Authorization": f"Bearer {link.split('#')[1]}"}).json()
        on_map = sum(1 for u in state["view"]["units"].values() if u["hex"])
        leaders = sum(1 for v in state["view"]["leaders"].values() if v["hex"])
        if args.inflate:
            # free hexes nearest the scenario's own pieces first (the sheets' order)
            m = httpx.get(f"{server.url}/api/maps/gbacw", timeout=600).json()
            xy = {h["id"]: h["xy"] for h in m["hexes"]}
            placed = [xy[u["hex"]] for u in state["view"]["units"].values() if u["hex"] in xy]
            cx = sum(p[0] for p in placed) / max(1, len(placed))
            cy = sum(p[1] for p in placed) / max(1, len(placed))
            near = sorted(xy, key=lambda h: (xy[h][0] - cx) ** 2 + (xy[h][1] - cy) ** 2)
            state = inflate(state, near, args.inflate)
            on_map = sum(1 for u in state["view"]["units"].values() if u["hex"])
        per_hex: dict[str, list[str]] = {}
        for k, u in state["view"]["units"].items():
            per_hex.setdefault(str(u["hex"]), []).append(k)
        alone = {ks[0] for ks in per_hex.values() if len(ks) == 1}
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            if args.inflate:
                body = json.dumps(state)
                browser_route = f"**/api/games/{game['game_id']}"

                def serve(route: Any) -> None:
                    route.fulfill(status=200, content_type="application/json", body=body)
            t = time.perf_counter()
            page = open_map(browser, f"{server.url}{link}",
                            route=(browser_route, serve, body) if args.inflate else None,
                            static=args.static)
            load = time.perf_counter() - t
            drawn = page.locator("g.unit").count()
            for _ in range(3):
                page.click("button.zoom >> nth=0")
            page.wait_for_function("() => document.querySelector('canvas.map-ground')"
                                   ".dataset.missing === '0'", timeout=60_000)
            page.evaluate(IDLE)
            units = visible_own(page, "usa", args.clicks, alone)
            ct = clicks(page, units)
            page.evaluate(WATCH)
            st = steps(page, args.steps)
            browser.close()
        print(f"GBACW {args.scenario}: {on_map} counters and {leaders} leaders on the map, "
              f"{drawn} g.unit shapes; game created in {created:.1f} s; viewport "
              f"{VIEWPORT['width']}x{VIEWPORT['height']}; page load {load:.1f} s")
        if args.each:
            print("steps", " ".join(f"{v:.0f}" for v in st))
            print("clicks", " ".join(f"{v:.0f}" for v in ct))
        print(f"{'measure':<26} {'n':>4} {'median ms':>10} {'p95 ms':>8} {'max ms':>8}")
        for name, v in (("pan and zoom (close in)", st), ("click to selected", ct)):
            if v:
                print(f"{name:<26} {len(v):>4} {statistics.median(v):>10.1f} "
                      f"{percentile(v, 0.95):>8.1f} {max(v):>8.1f}")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
