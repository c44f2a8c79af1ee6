"""The web client's map over GBACW's three sheets (5,995 hexes), panned and zoomed in headless
Chromium: run with ``.venv/bin/python benchmarks/bench_client_map.py [--steps N]``.

It starts the server (a temporary database), opens a GBACW game's page twice, once with the
canvas renderer (the default for a large hex map) and once with ``?map=svg`` (the old path:
every hex an SVG shape), and in each makes the same ``N`` steps with real input events
(Playwright's mouse): wheel zooms in and out and mouse-drag pans. A step's time is measured
in the page, from the input event's arrival to the end of the frame that shows it (the
first animation frame after the event, then a task after that frame's paint): ms per step,
median and 95th percentile, for both renderers side by side. Nothing is asserted: figures
only (docs/server.md keeps them; targets: median <= 50 ms, p95 <= 100 ms).

``--shot PATH`` also saves the canvas map zoomed in on the A/B seam west of Cemetery Ridge
(docs/gbacw-client-zoom.png). Debian's chromium (``/usr/bin/chromium``, or
``GETTYSBURG_CHROMIUM``) as the browser tests use it.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

CHROMIUM = os.environ.get("GETTYSBURG_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
VIEWPORT = {"width": 1280, "height": 800}
SCENARIO = "battle"  # the whole battle: all three sheets, the most pieces

# The page records when an input event arrives; `settled` resolves after the frame that
# shows it has painted (its animation frame, then a task queued behind that frame).
WATCH = """() => {
  window.__arrived = null;
  for (const type of ['wheel', 'pointermove']) window.addEventListener(type, () => {
    if (window.__arrived === null) window.__arrived = performance.now();
  }, { capture: true, passive: true });
}"""
SETTLED = """() => new Promise((done) => requestAnimationFrame(() => setTimeout(() => {
  const ms = performance.now() - window.__arrived; window.__arrived = null; done(ms);
}, 0)))"""
IDLE = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"


class Server:
    def __init__(self, db: Path) -> None:
        import uvicorn

        from gettysburg.server.app import create_app
        from gettysburg.server.store import Store

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        self.store = Store(db)
        config = uvicorn.Config(create_app(self.store), host="127.0.0.1", port=port,
                                log_level="warning", ws="websockets-sansio")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        while not self.server.started:
            time.sleep(0.02)
        self.url = f"http://127.0.0.1:{port}"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.store.close()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def open_map(browser: Any, link: str) -> Any:
    """The game's page with its map drawn (the canvas's tiles all drawn, if a canvas)."""
    page = browser.new_context(viewport=VIEWPORT).new_page()
    page.goto(link)
    page.wait_for_selector("svg.map g.units g.unit", timeout=120_000)
    page.wait_for_function("() => { const c = document.querySelector('canvas.map-ground');"
                           " return !c || c.dataset.missing === '0'; }", timeout=60_000)
    page.evaluate(WATCH)
    return page


def steps(page: Any, n: int) -> list[float]:
    """``n`` steps: wheel zooms in, drag pans, wheel zooms out, drag pans back, in turn."""
    box = page.locator("svg.map").bounding_box()
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    times: list[float] = []
    plan: list[tuple[str, float]] = []
    while len(plan) < n:
        plan += [("wheel", -120.0)] * 6 + [("drag", 40.0)] * 6 + [("wheel", 120.0)] * 6 \
            + [("drag", -40.0)] * 6
    dragging = False
    x = cx
    for kind, amount in plan[:n]:
        if kind == "wheel":
            if dragging:
                page.mouse.up()
                dragging = False
            page.mouse.move(cx, cy)
            page.evaluate(IDLE)
            page.evaluate("() => { window.__arrived = null; }")
            page.mouse.wheel(0, amount)
        else:
            if not dragging:
                x = cx
                page.mouse.move(x, cy)
                page.mouse.down()
                page.mouse.move(x + 5, cy)  # past the drag threshold
                x += 5
                dragging = True
                page.evaluate(IDLE)
                page.evaluate("() => { window.__arrived = null; }")
            x += amount
            page.mouse.move(x, cy)
        times.append(page.evaluate(SETTLED))
        page.evaluate(IDLE)
    if dragging:
        page.mouse.up()
    return times


def shot(page: Any, path: str, hex_id: str = "B5328", size: float = 88) -> None:
    """Bring ``hex_id`` (west of Cemetery Ridge, by the A/B seam) to the middle of the map,
    zoom in until a hex is ``size`` px across, and save the board as a picture."""
    page.mouse.up()
    page.set_viewport_size({"width": 1920, "height": 1200})  # a larger board for the picture
    where = """([id, size]) => {
      const s = document.querySelector('svg.map'); const r = s.getBoundingClientRect();
      const [vx, vy, vw, vh] = s.getAttribute('viewBox').split(' ').map(Number);
      const k = Math.max(vw / r.width, vh / r.height);
      const [x, y] = window.__hexes[id];
      return [r.left + (x - vx - (vw - r.width * k) / 2) / k,
              r.top + (y - vy - (vh - r.height * k) / 2) / k, window.__spacing / k < size];
    }"""
    page.evaluate("""async () => {
      const m = await (await fetch('/api/maps/gbacw')).json();
      window.__hexes = Object.fromEntries(m.hexes.map((h) => [h.id, [h.xy[0], -h.xy[1]]]));
      window.__spacing = Math.hypot(...m.layout.basis_q);
    }""")
    box = page.locator("svg.map").bounding_box()
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    for _ in range(40):
        x, y, further = page.evaluate(where, [hex_id, size])
        page.mouse.move(cx, cy)
        page.mouse.down()
        page.mouse.move(cx + (cx - x) / 2, cy + (cy - y) / 2, steps=2)
        page.mouse.move(cx + cx - x, cy + cy - y, steps=2)
        page.mouse.up()
        if not further:
            break
        page.mouse.move(cx, cy)
        page.mouse.wheel(0, -60)
        page.evaluate(IDLE)
    page.wait_for_function("() => document.querySelector('canvas.map-ground')"
                           ".dataset.missing === '0'")
    page.evaluate(IDLE)
    page.locator("#board").screenshot(path=path)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--steps", type=int, default=48)
    ap.add_argument("--shot", help="save the zoomed-in canvas map to this PNG")
    ap.add_argument("--each", action="store_true", help="also print every step's ms")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    server = Server(Path(tempfile.mkdtemp()) / "games.db")
    try:
        r = httpx.post(f"{server.url}/api/games", timeout=120, json={
            "system": "gbacw", "scenario": SCENARIO,
            "seats": {"usa": {"kind": "human"}, "csa": {"kind": "human"}}})
        r.raise_for_status()
        game = r.json()
        link = game["seats"]["usa"]["link"]
        game_path, token = link.split("#")
        hexes = len(httpx.get(f"{server.url}/api/maps/gbacw", timeout=120).json()["hexes"])
        size = f"{VIEWPORT['width']}x{VIEWPORT['height']}"
        print(f"GBACW {SCENARIO}: {hexes} hexes, viewport {size}, "
              f"{args.steps} steps (wheel zoom and drag pan) per renderer")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            rows = []
            for name, query in (("canvas tiles", ""), ("svg (?map=svg)", "?map=svg")):
                t = time.perf_counter()
                page = open_map(browser, f"{server.url}{game_path}{query}#{token}")
                load = time.perf_counter() - t
                times = steps(page, args.steps)
                if args.each:
                    print(name, " ".join(f"{v:.0f}" for v in times))
                rows.append((name, load, statistics.median(times), percentile(times, 0.95),
                             max(times)))
                if args.shot and not query:
                    shot(page, args.shot)
                page.context.close()
            browser.close()
        print(f"{'renderer':<16} {'page load s':>11} {'median ms':>10} {'p95 ms':>8} {'max ms':>8}")
        for name, load, med, p95, worst in rows:
            print(f"{name:<16} {load:>11.1f} {med:>10.1f} {p95:>8.1f} {worst:>8.1f}")
    finally:
        server.stop()


if __name__ == "__main__":
    main()
