"""Browser tests: the real server (uvicorn in a thread, temp db) driven by Debian's chromium.

They skip, with the reason, if /usr/bin/chromium is missing (``./run test`` installs it
when apt is available). Screenshots are written to docs/screenshots/ when
GETTYSBURG_SCREENSHOTS=1.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("GETTYSBURG_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


class LiveServer:
    def __init__(self, db: Path) -> None:
        import uvicorn

        from gettysburg.server.app import create_app
        from gettysburg.server.store import Store

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.store = Store(db)
        self.app = create_app(self.store, ai_delay=0.05)
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning",
                                ws="websockets-sansio")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.time() + 10
        while not self.server.started:
            if time.time() > deadline:
                raise RuntimeError("server did not start")
            time.sleep(0.02)
        self.url = f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)
        self.store.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing (install Debian's chromium: apt-get install chromium)")
    playwright_sync = pytest.importorskip("playwright.sync_api")
    with playwright_sync.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def live(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path / "games.db")
    yield server
    server.stop()


def _screenshot(page: Any, name: str) -> None:
    if os.environ.get("GETTYSBURG_SCREENSHOTS") == "1":
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}.png"))


@pytest.fixture
def screenshot() -> Any:
    """``screenshot(page, name)``: docs/screenshots/<name>.png when GETTYSBURG_SCREENSHOTS=1."""
    return _screenshot


def _switch_language(page: Any, lang: str) -> None:
    # Loading a language translates the page on show before main.js builds it again, so
    # words alone can be met on the old page while the new one is still being filled (the
    # lobby restores the choices made so far only after its requests return). main.js
    # marks the body ready when a page is built: wait for that mark, set afresh.
    page.evaluate("() => { delete document.body.dataset.ready; }")
    page.select_option("#lang", lang)
    page.wait_for_function("() => document.body.dataset.ready === '1'")


@pytest.fixture
def switch_language() -> Any:
    """``switch_language(page, lang)``: choose ``lang`` and wait until the page is built
    again in it."""
    return _switch_language


@pytest.fixture
def boc_ready() -> None:
    """Skip a BoC page test when the board file is missing (the map cannot be drawn)."""
    from gettysburg.server import systems

    if systems.map_json("boc") is None:
        pytest.skip("boc/data/board.json is missing")
