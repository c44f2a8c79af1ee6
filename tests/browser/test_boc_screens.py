"""Playing with others (issue 57): a copy button for the friend's link, hot-seat (both sides
on one screen, a curtain between turns that hides the board), and a save of an unfinished
game continued in the browser."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

pytestmark = pytest.mark.usefixtures("boc_ready")


def _lobby(browser: Any, live: Any, usa: str, csa: str, **context: Any) -> tuple[Any, Any]:
    """The lobby with Day 1 chosen and each side's player set; the game not yet started."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 860}, **context)
    page = ctx.new_page()
    page.goto(live.url + "/")
    page.wait_for_selector("select.who")
    page.select_option("#system", "boc")
    page.wait_for_selector("#scenario option[value=day1]", state="attached")
    if page.input_value("#scenario") != "day1":
        with page.expect_response(lambda r: "/api/setup" in r.url and "day1" in r.url):
            page.select_option("#scenario", "day1")
    page.wait_for_selector("select.who[data-seat=usa]")
    page.select_option("select.who[data-seat=usa]", usa)
    page.select_option("select.who[data-seat=csa]", csa)
    return ctx, page


def test_the_friends_link_is_copied_by_a_button(browser: Any, live: Any) -> None:
    ctx, page = _lobby(browser, live, "me", "friend",
                       permissions=["clipboard-read", "clipboard-write"])
    page.click("#start")
    page.wait_for_selector("button.copy[data-seat=csa]")
    link = page.input_value("input[data-seat=csa]")
    assert re.fullmatch(rf"{re.escape(live.url)}/g/[^#]+#.+", link), link
    page.click("button.copy[data-seat=csa]")
    page.wait_for_selector(".toast.info")
    assert page.evaluate("() => navigator.clipboard.readText()") == link
    ctx.close()


def _own_labels(page: Any) -> set[str]:
    """The sides whose blocks the page names (a hidden block has no label)."""
    return set(page.eval_on_selector_all(
        "g.unit", "els => els.filter((g) => g.querySelector('text.block-label'))"
        ".map((g) => g.dataset.side)"))


def test_hot_seat_hands_the_screen_over_behind_a_curtain(browser: Any, live: Any,
                                                         screenshot: Any) -> None:
    ctx, page = _lobby(browser, live, "me", "me")
    page.click("#start")
    page.wait_for_selector("#hot-seat")
    page.click("#hot-seat")
    # Day 1 opens with the Confederates: the screen waits for their player first.
    page.wait_for_selector("#curtain")
    assert "Hand the screen to Confederacy" in page.inner_text("#curtain")
    page.click("#take-screen")
    page.wait_for_selector("g.units g.unit")
    assert _own_labels(page) == {"csa"}  # only their blocks are named
    end = "button[data-action='{\"type\":\"end_phase\"}']:not([disabled])"
    for _ in range(12):
        if page.locator("#curtain").count():
            break
        page.wait_for_selector(f"{end}, #curtain")
        if page.locator("#curtain").count():
            break
        page.click(end)
        page.wait_for_selector(f"{end}, #curtain")
    page.wait_for_selector("#curtain")
    # Behind the curtain nothing of the board is left in the page.
    assert page.locator("g.unit").count() == 0 and page.locator("#actions").count() == 0
    assert "Hand the screen to Union" in page.inner_text("#curtain")
    screenshot(page, "hotseat")
    page.click("#take-screen")
    page.wait_for_selector("g.units g.unit")
    assert _own_labels(page) == {"usa"}
    assert "Your decision (Union)" in page.inner_text("#phasebar")
    ctx.close()


def test_an_unfinished_save_is_played_on_in_the_browser(browser: Any, live: Any,
                                                        tmp_path: Path) -> None:
    from gettysburg.cli import app

    save = tmp_path / "day1.json"
    runner = CliRunner()
    assert runner.invoke(app, ["game", "new", "boc/day1", "--out", str(save)]).exit_code == 0
    assert runner.invoke(app, ["game", "apply", str(save), "0", "--out", str(save)]
                         ).exit_code == 0
    moved = json.loads(save.read_text())["moves"]
    ctx = browser.new_context(viewport={"width": 1280, "height": 860})
    page = ctx.new_page()
    page.goto(live.url + "/")
    page.wait_for_selector("#save-file", state="attached")
    page.set_input_files("#save-file", str(save))
    # Still going: the seat to move opens it, the other side's link is there to send.
    page.wait_for_selector("#open-mine")
    seat = moved[-1]["seat"]
    other = "usa" if seat == "csa" else "csa"
    assert page.locator(f"input[data-seat={other}]").count() == 1
    page.click("#open-mine")
    page.wait_for_selector("g.units g.unit")
    page.wait_for_selector("#phasebar .turn-you")
    assert _own_labels(page) == {seat}
    assert page.locator("button[data-action]").count() > 0
    ctx.close()
