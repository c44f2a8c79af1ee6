"""Refusals said in place and actions told apart (issue 57): a click on a hex the selected
block cannot reach crosses it out and says why with the rule; the action list follows the
selected block; no two buttons read the same."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

pytestmark = pytest.mark.usefixtures("boc_ready")


def _to_phase(url: str, gid: str, tokens: dict[str, str], phase: str) -> dict[str, Any]:
    """End phases through the API until ``phase``; the state of the seat then to move."""
    for i in range(20):
        r = httpx.get(f"{url}/api/games/{gid}",
                      headers={"Authorization": f"Bearer {tokens['usa']}"})
        mover = r.json()["to_move"][0]
        state = httpx.get(f"{url}/api/games/{gid}",
                          headers={"Authorization": f"Bearer {tokens[mover]}"}).json()
        if state["view"]["phase"] == phase:
            return dict(state)
        httpx.post(f"{url}/api/games/{gid}/actions",
                   headers={"Authorization": f"Bearer {tokens[mover]}"},
                   json={"action": {"type": "end_phase"}, "action_id": f"end-{i}"}
                   ).raise_for_status()
    raise AssertionError(f"no {phase} phase")


def test_a_refused_hex_says_why_and_the_actions_follow_the_block(
        browser: Any, live: Any, screenshot: Any) -> None:
    r = httpx.post(f"{live.url}/api/games", timeout=60, json={
        "system": "boc", "scenario": "day2",
        "seats": {"usa": {"kind": "human"}, "csa": {"kind": "human"}}})
    r.raise_for_status()
    game = r.json()
    tokens = {s: v["token"] for s, v in game["seats"].items()}
    state = _to_phase(live.url, game["game_id"], tokens, "movement")
    seat = state["seat"]
    moves: dict[str, set[str]] = {}
    for a in state["legal"]:
        if a["type"] == "move":
            moves.setdefault(a["unit"], set()).add(a["path"][-1])
    unit = max(moves, key=lambda u: len(moves[u]))
    name = next(u["name"] for u in state["view"]["units"] if u["id"] == unit)
    errors: list[str] = []
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live.url + game["seats"][seat]["link"])
    page.wait_for_selector("g.units g.unit")
    everything = page.locator("button[data-action]").count()
    assert everything == len(state["legal"]) > 1000  # Day 2's moves: every block's

    page.locator(f"g.units g.unit[data-unit='{unit}']").dispatch_event("click")
    page.wait_for_selector("#following")
    following = page.inner_text("#following")
    assert name in following and str(len(moves[unit])) in following, following
    shown = page.eval_on_selector_all("button[data-action]",
                                      "els => els.map(e => JSON.parse(e.dataset.action))")
    texts = page.eval_on_selector_all("button[data-action]", "els => els.map(e => e.textContent)")
    assert len(shown) == len(moves[unit]) + sum(
        1 for a in state["legal"] if not {"unit", "hq", "units"} & set(a))
    assert all(a.get("unit", unit) == unit for a in shown), shown
    assert len(set(texts)) == len(texts), "two buttons read the same"

    # A hex out of its reach: crossed out, and the reason under the map, with its rule.
    far = next(h for h in ("A1", "Y14", "A14", "Y1", "P1") if h not in moves[unit])
    page.locator(f"polygon.hex[data-hex={far}]").dispatch_event("click")
    page.wait_for_selector("#refusal:not([hidden])")
    said = page.inner_text("#refusal")
    assert said.startswith(f"Not {far}: {name}") and re.search(r"\(rule 6\.\d+\)$", said), said
    assert page.get_attribute("g.refused-mark", "data-place") == far
    assert page.eval_on_selector("g.refused-mark", "g => g.style.display") != "none"
    # The map is still the same: nothing was sent.
    assert page.locator("button[data-action]").count() == len(shown)
    screenshot(page, "refusal")

    # A lit hex plays; the refusal goes.
    lit = sorted(moves[unit])[0]
    page.locator(f"polygon.hex[data-hex={lit}]").dispatch_event("click")
    page.wait_for_function("() => document.querySelector('#refusal').hidden")
    page.wait_for_function(f"() => !document.querySelector('#following') && "
                           f"document.querySelectorAll('button[data-action]').length "
                           f"!= {len(shown)}")
    # Clicking the block again shows every block's actions again.
    other = next(u for u in moves if u != unit)
    page.locator(f"g.units g.unit[data-unit='{other}']").dispatch_event("click")
    page.wait_for_selector("#following")
    page.locator(f"g.units g.unit[data-unit='{other}']").dispatch_event("click")
    page.wait_for_function("() => !document.querySelector('#following')")
    assert page.locator("button[data-action]").count() > 1000
    assert not errors, errors
    context.close()


def test_actions_that_differ_never_read_the_same(browser: Any, live: Any) -> None:
    """Two fires of one block at one hex, through two hexes (or one aimed at its guns):
    each label says how it differs; actions that read apart anyway keep their words."""
    page = browser.new_page()
    page.goto(live.url + "/")
    page.wait_for_selector("body[data-ready='1']")
    out = page.evaluate("""async () => {
      const { labels } = await import("/static/js/panels.js");
      const names = new Map([["u1", "Pegram"]]);
      return labels([
        { type: "fire", unit: "u1", target: "H10", through: "H11" },
        { type: "fire", unit: "u1", target: "H10", through: "H12" },
        { type: "fire", unit: "u1", target: "H10", through: "H12", at: "artillery" },
        { type: "move", unit: "u1", path: ["G9", "G10", "H10"] },
        { type: "move", unit: "u1", path: ["G9", "H9", "H10"] },
        { type: "end_phase" }], names);
    }""")
    assert len(set(out)) == len(out), out
    assert out[0].endswith("(through H11)") and out[1].endswith("(through H12)"), out
    assert "aimed at" in out[2] and "Pegram" in out[2], out
    assert out[3].endswith("(via G9 G10)") and out[4].endswith("(via G9 H9)"), out
    assert "(" not in out[5], out
    page.close()


def test_selecting_an_hq_lights_what_it_commands_and_warns_of_a_wasted_activation(
        browser: Any, live: Any, screenshot: Any) -> None:
    r = httpx.post(f"{live.url}/api/games", timeout=60, json={
        "system": "boc", "scenario": "day1",
        "seats": {"usa": {"kind": "human"}, "csa": {"kind": "human"}}})
    r.raise_for_status()
    game = r.json()
    errors: list[str] = []
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live.url + game["seats"]["csa"]["link"])
    page.wait_for_selector("g.units g.unit")
    page.locator("g.units g.unit[data-unit='csa-heth']").dispatch_event("click")
    page.wait_for_selector("#preview:not([hidden])")
    assert page.inner_text("#preview") == "Heth would command Archer, Davis, Pegram (4.3)"
    lit = page.eval_on_selector_all("g.unit.previewed", "els => els.map(e => e.dataset.unit)")
    assert sorted(lit) == ["csa-archer", "csa-davis", "csa-pegram"]
    screenshot(page, "command-preview")
    page.locator("g.units g.unit[data-unit='csa-heth']").dispatch_event("click")  # deselect
    page.wait_for_selector("#preview", state="hidden")

    # An activation the rules say commands nobody (here the server's answer is stood in
    # for, as the client knows no rule): the first click warns, the second sends.
    warn = {"lit": [], "out": {}, "note": "Heth would command no block where it stands (4.3)",
            "warn": "activating Heth here commands no block (4.3)",
            "warn_for": [{"hq": "csa-heth", "type": "activate"}]}
    page.route("**/preview?*", lambda route: route.fulfill(json=warn))
    page.locator("g.units g.unit[data-unit='csa-heth']").dispatch_event("click")
    page.wait_for_selector("#preview:not([hidden])")
    step = page.inner_text("#phasebar [data-key=step]")
    page.click("button[data-action='{\"type\":\"activate\",\"hq\":\"csa-heth\"}']")
    page.wait_for_selector("#warn:not([hidden])")
    assert page.inner_text("#warn") == ("activating Heth here commands no block (4.3): "
                                        "click it again to do it anyway")
    assert page.inner_text("#phasebar [data-key=step]") == step  # nothing sent
    page.click("button[data-action='{\"type\":\"activate\",\"hq\":\"csa-heth\"}']")
    page.wait_for_function("(s) => document.querySelector('#phasebar [data-key=step]')"
                           ".textContent !== s", arg=step)
    assert page.locator("#warn").is_hidden()
    assert not errors, errors
    context.close()
