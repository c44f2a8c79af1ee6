"""The first-game tutorial, the supply preview and the ground's names in Chromium (issue
57): "Learn to play" in the lobby starts the BoC tutorial; each step offers only what it
teaches, waits for it and says what happened, to its end; selecting Buford in the supply
phase lights the block he would supply; the map names the 1863 ground under the blocks."""

from __future__ import annotations

import json
from typing import Any

import pytest

pytestmark = pytest.mark.usefixtures("boc_ready")

STEPS = ["command", "end_command", "fire", "end_fire", "move", "declare", "end_move", "melee",
         "end_melee", "supply_activate", "supply", "end_supply"]


def _offered(page: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = page.eval_on_selector_all(
        "#actions button[data-action]", "els => els.map(e => JSON.parse(e.dataset.action))")
    return found


def _press(page: Any, pattern: dict[str, Any]) -> None:
    """Click the action button whose action has every key of ``pattern``."""
    page.wait_for_function("""(p) => [...document.querySelectorAll('#actions button[data-action]')]
      .some(b => !b.disabled && Object.entries(p).every(([k, v]) =>
        JSON.stringify(JSON.parse(b.dataset.action)[k]) === JSON.stringify(v)))""", arg=pattern)
    page.evaluate("""(p) => [...document.querySelectorAll('#actions button[data-action]')]
      .find(b => Object.entries(p).every(([k, v]) =>
        JSON.stringify(JSON.parse(b.dataset.action)[k]) === JSON.stringify(v))).click()""", pattern)


def _at(page: Any, step: str) -> str:
    page.wait_for_selector(f"#tutorial[data-step='{step}']", timeout=20000)
    return str(page.inner_text("#tutorial-do"))


def test_learn_to_play_runs_the_tutorial_to_its_end(
        browser: Any, live: Any, screenshot: Any, switch_language: Any) -> None:
    errors: list[str] = []
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live.url + "/")
    page.wait_for_selector("#learn button.learn")
    assert page.inner_text("#learn h2") == "Learn to play"
    page.click("#learn button.learn")

    said = _at(page, "command")
    assert "Buford" in said and page.inner_text("#tutorial-count") == "Step 1 of 12"
    assert "8 AM" in page.inner_text("#tutorial-after")  # the introduction
    # Only what the step teaches is offered: Buford's activation where he stands.
    assert _offered(page) == [{"type": "activate", "hq": "usa-buford"}]
    page.wait_for_selector("g.units g.unit[data-unit='usa-buford']")
    page.locator("g.units g.unit[data-unit='usa-buford']").dispatch_event("click")
    page.wait_for_selector("#preview:not([hidden])")
    lit = page.eval_on_selector_all("g.unit.previewed", "els => els.map(e => e.dataset.unit)")
    assert sorted(lit) == ["usa-calef", "usa-devin", "usa-gamble"]
    screenshot(page, "tutorial")
    _press(page, {"type": "activate", "hq": "usa-buford"})

    _at(page, "end_command")
    assert "under command" in page.inner_text("#tutorial-after")
    _press(page, {"type": "end_phase"})

    _at(page, "fire")
    assert _offered(page) == [{"type": "fire", "unit": "usa-calef", "target": "H11",
                               "through": "H11"}]
    # Played on the map: the battery, then the enemy's hex twice (armed, then fired).
    page.locator("g.units g.unit[data-unit='usa-calef']").dispatch_event("click")
    page.locator("polygon.hex[data-hex=H11]").dispatch_event("click")
    page.wait_for_selector("#armed:not([hidden])")
    page.locator("polygon.hex[data-hex=H11]").dispatch_event("click")
    _at(page, "end_fire")
    assert "lost a step" in page.inner_text("#tutorial-after")
    assert "Archer" not in page.inner_text("#log")  # still hidden after the fire
    _press(page, {"type": "end_phase"})

    _at(page, "move")
    page.locator("g.units g.unit[data-unit='usa-devin']").dispatch_event("click")
    # Only G10 is lit for Devin: the step teaches that one move.
    page.wait_for_selector("polygon.hex.dest[data-hex=G10]", state="attached")
    dests = page.eval_on_selector_all("polygon.hex.dest", "els => els.map(e => e.dataset.hex)")
    assert dests == ["G10"], dests
    page.locator("polygon.hex[data-hex=G10]").dispatch_event("click")

    _at(page, "declare")
    # Opened again without this tab's memory, the panel finds its place from the log.
    page.evaluate("() => sessionStorage.clear()")
    page.reload()
    _at(page, "declare")
    assert page.inner_text("#tutorial-count") == "Step 6 of 12"
    _press(page, {"type": "melee", "unit": "usa-gamble", "target": "H11"})
    _at(page, "end_move")
    _press(page, {"type": "end_phase"})

    _at(page, "melee")
    for _ in range(8):  # resolve, fight, then regroup as the buttons offer
        if page.get_attribute("#tutorial", "data-step") != "melee":
            break
        offered = _offered(page)
        if not offered:
            page.wait_for_timeout(100)
            continue
        kinds = [a["type"] for a in offered]
        pick = next(k for k in ("melee_resolve", "melee_fight", "regroup_done") if k in kinds)
        before = page.inner_text("#phasebar [data-key=step]")
        _press(page, {"type": pick})
        page.wait_for_function("(s) => document.querySelector('#phasebar [data-key=step]')"
                               ".textContent !== s", arg=before)
    _at(page, "end_melee")
    assert "won the melee" in page.inner_text("#tutorial-after")
    assert "Archer" in page.inner_text("#log")  # revealed by the melee, as the words say
    _press(page, {"type": "end_phase"})

    # The supply preview: Buford would supply Gamble, one step short.
    _at(page, "supply_activate")
    page.locator("g.units g.unit[data-unit='usa-buford']").dispatch_event("click")
    page.wait_for_selector("#preview:not([hidden])")
    note = page.inner_text("#preview")
    assert note.startswith("Activated for supply here, Buford would lose a step and have "
                           "2 SP"), note
    assert "for Gamble (8.3)" in note, note
    lit = page.eval_on_selector_all("g.unit.previewed", "els => els.map(e => e.dataset.unit)")
    assert lit == ["usa-gamble"]
    screenshot(page, "supply-preview")
    _press(page, {"type": "supply_activate", "hq": "usa-buford"})
    _at(page, "supply")
    _press(page, {"type": "supply", "unit": "usa-gamble"})
    _at(page, "end_supply")
    assert "full strength" in page.inner_text("#tutorial-after")
    _press(page, {"type": "end_phase"})

    said = _at(page, "finished")
    assert page.inner_text("#tutorial-count") == "Tutorial finished"
    assert "Confederate player" in said and page.locator("#tutorial-lobby").count() == 1
    assert _offered(page) == []  # the tutorial's game is left as it stands
    # The same panel in another language (the page is built again where it was).
    switch_language(page, "de")
    _at(page, "finished")
    assert page.inner_text("#tutorial-count") == "Einführung beendet"
    assert "Konföderierte" in page.inner_text("#tutorial-do")
    switch_language(page, "en")
    assert not errors, errors
    context.close()


def test_the_map_names_the_ground_under_the_blocks(browser: Any, live: Any,
                                                    screenshot: Any) -> None:
    import httpx

    r = httpx.post(f"{live.url}/api/games", timeout=60, json={
        "system": "boc", "scenario": "day1",
        "seats": {"usa": {"kind": "human"}, "csa": {"kind": "human"}}})
    r.raise_for_status()
    game = r.json()
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    page = context.new_page()
    page.goto(live.url + game["seats"]["usa"]["link"])
    page.wait_for_selector("g.units g.unit")
    places = page.eval_on_selector_all("g.place-names text.place-name",
                                       "els => els.map(e => e.textContent)")
    for name in ("Gettysburg", "Cemetery Hill", "Culp's Hill", "Little Round Top",
                 "Lutheran SeminarySeminary Ridge", "Devil's Den", "Peach Orchard"):
        assert name in places, (name, places)
    roads = page.eval_on_selector_all("g.place-names text.road-name",
                                      "els => els.map(e => e.dataset.road)")
    for road in ("Chambersburg Pike", "Emmitsburg Road", "Baltimore Pike", "Taneytown Road"):
        assert roads.count(road) == 1, (road, roads)
    # Under the blocks: the names come before the pieces in the drawing order, and take
    # no clicks.
    order = page.evaluate("""() => { const svg = document.querySelector('svg.map');
      const kids = [...svg.children];
      return [kids.indexOf(svg.querySelector('g.place-names')),
              kids.indexOf(svg.querySelector('g.units'))]; }""")
    assert 0 <= order[0] < order[1], order
    assert page.get_attribute("g.place-names", "pointer-events") == "none"
    # Legible at the default zoom: a name on screen is at least 9 px tall.
    height = page.evaluate("""() => [...document.querySelectorAll('text.place-name')]
      .find(e => e.textContent === 'Cemetery Hill').getBoundingClientRect().height""")
    assert height >= 9, height
    screenshot(page, "place-names")
    context.close()


def test_the_tutorial_declaration_is_served_for_the_lobby(live: Any) -> None:
    import httpx

    systems = httpx.get(f"{live.url}/api/systems").json()["systems"]
    boc = next(s for s in systems if s["name"] == "boc")
    assert boc["tutorial"]["scenario"] == "tutorial" not in boc["scenarios"]
    assert json.dumps(boc["tutorial"]["steps"][0]["allow"]) == \
        '[{"type": "activate", "hq": "usa-buford", "to": null}]'


def test_a_supply_activation_that_supplies_nobody_is_warned_first(browser: Any,
                                                                   live: Any) -> None:
    """Day 1, the Confederate supply phase: every block of Heth's is at full strength, so
    activating him for supply would only cost him a step (8.1): the first click warns,
    the second sends."""
    import httpx

    r = httpx.post(f"{live.url}/api/games", timeout=60, json={
        "system": "boc", "scenario": "day1",
        "seats": {"usa": {"kind": "human"}, "csa": {"kind": "human"}}})
    r.raise_for_status()
    game = r.json()
    token = game["seats"]["csa"]["token"]
    for i in range(4):  # the CSA plays first: command, fire, movement, melee
        httpx.post(f"{live.url}/api/games/{game['game_id']}/actions",
                   headers={"Authorization": f"Bearer {token}"},
                   json={"action": {"type": "end_phase"}, "action_id": f"end-{i}"}
                   ).raise_for_status()
    errors: list[str] = []
    context = browser.new_context(viewport={"width": 1280, "height": 860})
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live.url + game["seats"]["csa"]["link"])
    page.wait_for_selector("g.units g.unit[data-unit='csa-heth']")
    assert "supply" in page.inner_text("#phasebar [data-key=phase]")
    page.locator("g.units g.unit[data-unit='csa-heth']").dispatch_event("click")
    page.wait_for_selector("#preview:not([hidden])")
    note = page.inner_text("#preview")
    assert "it would supply no block (8.3)" in note and "Archer: at full strength" in note, note
    assert page.locator("g.unit.previewed").count() == 0
    out = page.eval_on_selector_all("g.unit.preview-out", "els => els.map(e => e.dataset.unit)")
    assert sorted(out) == ["csa-archer", "csa-davis"], out
    step = page.inner_text("#phasebar [data-key=step]")
    _press(page, {"type": "supply_activate", "hq": "csa-heth"})
    page.wait_for_selector("#warn:not([hidden])")
    assert page.inner_text("#warn").startswith("activating Heth for supply here supplies no "
                                               "block: it would only lose a step (8.1)")
    assert page.inner_text("#phasebar [data-key=step]") == step  # nothing sent
    _press(page, {"type": "supply_activate", "hq": "csa-heth"})
    page.wait_for_function("(s) => document.querySelector('#phasebar [data-key=step]')"
                           ".textContent !== s", arg=step)
    assert not errors, errors
    context.close()
