"""The BoC map played from the keyboard alone: Tab to the map, N to the block one can act
with, Enter to select it, Escape to drop it, the arrows to a lit hex and Enter to play
there; every hex and block has words for a screen reader, and the focus shows. No mouse
touches the map."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from browser.test_boc_play import (
    _map_melee,
    _page,
    _play_until_csa_may_melee,
    _state,
    _two_people,
)

pytestmark = pytest.mark.usefixtures("boc_ready")

# What has the focus: its tag, hex or block, label, the hover line, and whether its ring
# shows (the hex cursor's over the map, or the block's own).
FOCUS = """() => {
  const a = document.activeElement;
  const ring = a.matches("polygon.hex") ? document.querySelector("svg.map g.focus-ring")
    : a.querySelector?.("rect.focus-ring");
  return { tag: a.tagName, hex: a.getAttribute("data-hex"), unit: a.getAttribute("data-unit"),
           label: a.getAttribute("aria-label"),
           said: document.querySelector(".board .hover").textContent,
           visible: a.matches(":focus-visible") && !!ring
             && getComputedStyle(ring).display !== "none",
           ring: ring?.querySelector?.("polygon")?.getAttribute("points") ?? null,
           points: a.getAttribute("points") };
}"""


def _game(live: Any) -> tuple[str, str, str]:
    """Day 1, seed 11, both seats people (nothing moves by itself): the CSA's link, game
    id and token. Its first decision: activate Heth (H14), staying or moving one hex."""
    r = httpx.post(f"{live.url}/api/games", timeout=60, json={
        "system": "boc", "scenario": "day1", "seed": "11",
        "seats": {"usa": {"kind": "human"}, "csa": {"kind": "human"}}})
    r.raise_for_status()
    seat = r.json()["seats"]["csa"]
    return live.url + seat["link"], r.json()["game_id"], seat["token"]


def _press(page: Any, key: str) -> dict[str, Any]:
    page.keyboard.press(key)
    return dict(page.evaluate(FOCUS))


def _tab_to_map(page: Any) -> dict[str, Any]:
    for _ in range(20):
        now = _press(page, "Tab")
        if now["hex"] or now["unit"]:
            return now
    raise AssertionError("Tab never reached the map")


def test_a_move_played_from_the_keyboard(browser: Any, live: Any) -> None:
    link, game_id, token = _game(live)
    context, page, errors = _page(browser)
    page.goto(link)
    page.wait_for_selector("g.units g.unit[data-unit='csa-heth']")

    # Tab lands on the block one can act with, ringed, named, and said as on hover.
    now = _tab_to_map(page)
    assert now["unit"] == "csa-heth", now
    assert now["visible"], now
    assert now["label"] == "Heth · division HQ · 3/3 — H14", now
    assert now["said"].startswith("csa-heth · Heth") and "H14 · clear" in now["said"], now
    # Enter selects it (as a click), and the focus stays on it though it is redrawn.
    now = _press(page, "Enter")
    page.wait_for_selector("g.unit.selected[data-unit='csa-heth'][aria-pressed=true]")
    lit = set(page.eval_on_selector_all("polygon.dest", "ps => ps.map(p => p.dataset.hex)"))
    assert lit == {"G13", "G14", "H13", "I14"}, lit
    assert now["unit"] == "csa-heth" and now["visible"], now
    # Escape drops the selection, and the focus comes back to the block.
    now = _press(page, "Escape")
    page.wait_for_selector("g.unit.selected", state="detached")
    assert page.locator("polygon.dest").count() == 0
    assert now["unit"] == "csa-heth", now
    # N: the blocks one can act with (only Heth), then with Heth selected, the lit hexes.
    assert _press(page, "n")["unit"] == "csa-heth"
    _press(page, "Enter")
    page.wait_for_selector("g.unit.selected[data-unit='csa-heth']")
    seen = [_press(page, "n")["hex"] for _ in range(4)]
    assert set(seen) == lit, seen
    assert _press(page, "Shift+N")["hex"] == seen[2]
    # The arrows from Heth's hex: the first way that reaches a lit hex, coming back from
    # each that does not (↑ then ↓, → then ← return to the start).
    assert _press(page, "Escape")["unit"] == "csa-heth"
    _press(page, "Enter")
    page.wait_for_selector("g.unit.selected[data-unit='csa-heth']")
    back = {"ArrowUp": "ArrowDown", "ArrowDown": "ArrowUp", "ArrowLeft": "ArrowRight",
            "ArrowRight": "ArrowLeft"}
    target = None
    for key, undo in back.items():
        now = _press(page, key)
        if now["hex"] in lit:
            target = now["hex"]
            break
        if now["hex"]:
            assert _press(page, undo)["hex"] == "H14", (key, now)
    assert target, "no arrow from H14 reaches a lit hex"
    # A hex with the focus: ringed (the ring is drawn on it), labelled with its id, terrain
    # and that it is lit, and said on the hover line as a mouse over it would.
    assert now["visible"] and now["ring"] == now["points"], now
    assert now["label"].startswith(f"{target} · clear"), now
    assert "lit: the selected block can act here" in now["label"], now
    assert now["said"].startswith(f"{target} · clear"), now
    # Enter plays there: Heth is activated and stands in the new hex, per the server.
    _press(page, "Enter")
    page.wait_for_function("() => Number(document.querySelector('#phasebar [data-key=step]')"
                           ".textContent.match(/\\d+/g).pop()) === 1")
    state = _state(live.url, game_id, token)
    heth = next(u for u in state["view"]["units"] if u["id"] == "csa-heth")
    assert heth["hex"] == target, heth
    page.wait_for_selector(f"g.units g.unit[data-unit='csa-heth'][aria-label$='— {target}']",
                           state="attached")
    assert "Heth" in page.inner_text("#log")
    assert page.evaluate(FOCUS)["hex"] == target  # the focus stays where the move went
    # A screen reader hears what happened: the new log entries, in a polite live region.
    said = page.text_content("#announce[role=status][aria-live=polite]") or ""
    assert "Heth" in said and target in said, said
    assert not page.is_visible("#announce") or page.evaluate(
        "() => document.querySelector('#announce').getBoundingClientRect().width") <= 1
    assert not errors, errors
    context.close()


def test_every_hex_and_block_has_words_and_the_arrows_step_to_a_neighbour(
        browser: Any, live: Any, switch_language: Any) -> None:
    link, _, _ = _game(live)
    context, page, errors = _page(browser)
    page.goto(link)
    page.wait_for_selector("g.units g.unit")
    # Words for a screen reader: every hex its id and terrain, every block its name or
    # "enemy block (hidden)", never a hidden block's handle; one Tab stop in the board.
    labels = page.evaluate("""() => {
      const words = (sel, key) => [...document.querySelectorAll(sel)]
        .map((n) => [n.getAttribute(key), n.getAttribute("aria-label")]);
      const help = document.querySelector("svg.map").getAttribute("aria-describedby");
      return { hexes: words("polygon.hex", "data-hex"), blocks: words(".board g.unit", "data-unit"),
               stops: document.querySelectorAll(".board [tabindex='0']").length,
               help: document.getElementById(help)?.textContent };
    }""")
    terrains = ("clear", "woods", "orchard", "town", "marsh", "rocks")
    assert labels["hexes"] and all(
        label.startswith(f"{hex} · ") and label.split(" · ")[1] in terrains
        for hex, label in labels["hexes"]), labels["hexes"][:5]
    assert labels["blocks"] and all(label for _, label in labels["blocks"])
    hidden = [label for unit, label in labels["blocks"] if unit.startswith("b-")]
    assert hidden and all(label.startswith("enemy block (hidden)") and "b-" not in label
                          for label in hidden), hidden
    assert labels["stops"] == 1, labels["stops"]
    assert "Enter or Space" in labels["help"], labels["help"]

    # From a hex inside the map, each arrow goes to a neighbouring hex that way on the
    # screen, and the opposite arrow comes back.
    _tab_to_map(page)
    for key in ["ArrowDown"] * 5 + ["ArrowRight"] * 3:
        start = _press(page, key)
    assert start["hex"] and start["visible"], start
    centre = """(hex) => { const r = document.querySelector(`polygon[data-hex='${hex}']`)
      .getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2, r.height]; }"""
    x0, y0, size = page.evaluate(centre, start["hex"])
    ways = {"ArrowUp": (0, -1), "ArrowDown": (0, 1), "ArrowLeft": (-1, 0), "ArrowRight": (1, 0)}
    back = {"ArrowUp": "ArrowDown", "ArrowDown": "ArrowUp", "ArrowLeft": "ArrowRight",
            "ArrowRight": "ArrowLeft"}
    for key, (dx, dy) in ways.items():
        to = _press(page, key)["hex"]
        x, y, _ = page.evaluate(centre, to)
        dist = ((x - x0) ** 2 + (y - y0) ** 2) ** 0.5
        assert 0.8 * size < dist < 1.2 * size, (key, to, dist, size)  # one hex away
        assert ((x - x0) * dx + (y - y0) * dy) / dist > 0.8, (key, to)  # that way
        assert _press(page, back[key])["hex"] == start["hex"], key
    # B steps through every block, from the hex with the focus: a hidden one says so too.
    names = [_press(page, "b")["label"] for _ in range(len(labels["blocks"]))]
    assert sorted(names) == sorted(label for _, label in labels["blocks"])

    # The words follow the player's language.
    switch_language(page, "de")
    page.wait_for_function("() => document.querySelector('#map-keys summary')?.textContent"
                           " === 'Tastatur'")
    assert page.get_attribute("polygon[data-hex='H14']", "aria-label").startswith("H14 · offen")
    assert not errors, errors
    context.close()


def test_an_attack_armed_called_off_and_sent_from_the_keyboard(browser: Any, live: Any) -> None:
    # Enter on a lit red hex arms the attack (as a first click does), Escape calls it off
    # and keeps the block selected, and Enter twice declares it: the keys take the click's
    # path, two presses for an attack as two clicks.
    seats = _two_people(live.url)
    game_id = seats["game_id"]
    state = _play_until_csa_may_melee(live.url, seats)
    melee = _map_melee(state["legal"])
    assert melee is not None
    target = str(melee["target"])
    context, page, errors = _page(browser)
    page.goto(f"{live.url}/g/{game_id}#{seats['csa']}")
    page.wait_for_selector("g.units g.unit")
    now = _tab_to_map(page)
    for _ in range(80):  # N: the blocks the CSA can act with, in turn
        if now["unit"] == melee["unit"]:
            break
        now = _press(page, "n")
    assert now["unit"] == melee["unit"], now
    _press(page, "Enter")
    page.wait_for_selector(f"polygon.attack[data-hex='{target}']", state="attached")
    for _ in range(40):  # with a block selected, N steps through its lit hexes
        now = _press(page, "n")
        if now["hex"] == target:
            break
    assert now["hex"] == target and "an attack" in now["label"], now
    _press(page, "Enter")
    page.wait_for_selector(f"polygon.attack.armed[data-hex='{target}']", state="attached")
    note = page.inner_text("#armed")
    assert page.is_visible("#armed") and target in note and "or press Enter" in note, note
    assert "Enter sends the attack" in str(page.evaluate(FOCUS)["label"])
    now = _press(page, "Escape")  # the attack only: the block stays selected
    page.wait_for_selector("polygon.attack.armed", state="detached")
    assert now["hex"] == target and not page.is_visible("#armed"), now
    assert page.locator(f"polygon.attack[data-hex='{target}']").count() == 1
    assert _state(live.url, game_id, seats["csa"])["step"] == state["step"]  # nothing sent
    _press(page, "Enter")
    page.wait_for_selector(f"polygon.attack.armed[data-hex='{target}']", state="attached")
    _press(page, "Enter")
    page.wait_for_function(f"() => [...document.querySelectorAll('#log li')].some("
                           f"(li) => li.textContent.includes('{target}') && "
                           "/melee|Melee/.test(li.textContent))")  # "Melee declared..."
    after = _state(live.url, game_id, seats["csa"])
    assert after["step"] == state["step"] + 1, after["step"]
    assert not errors, errors
    context.close()


def test_the_replay_map_is_read_from_the_keyboard_and_off_it_the_arrows_step(
        browser: Any, live: Any) -> None:
    """The replay's map takes the focus like the play page's: the arrows go from hex to
    hex there (the game's step stays), B to each block with its words, and nothing is
    played; off the map ← → still step through the game, and the help lists these keys."""
    _, game_id, token = _game(live)
    for n, action in enumerate([{"type": "activate", "hq": "csa-heth"},
                                {"type": "end_phase"}]):
        httpx.post(f"{live.url}/api/games/{game_id}/actions", json={
            "action": action, "action_id": f"r{n}"},
            headers={"Authorization": f"Bearer {token}"}).raise_for_status()
    context, page, errors = _page(browser)
    page.goto(f"{live.url}/g/{game_id}/replay#{token}")
    page.wait_for_selector("g.units g.unit[data-unit='csa-heth']")
    step = page.input_value("#step")
    assert int(step) >= 2, step
    help_text = page.evaluate("""() => document.getElementById(document.querySelector(
      "svg.map").getAttribute("aria-describedby"))?.textContent""")
    assert help_text and "Home" in help_text and "Enter or Space" not in help_text, help_text
    assert page.locator(".board [tabindex='0']").count() == 1

    now = _tab_to_map(page)
    assert now["visible"], now
    start = _press(page, "ArrowDown")
    assert start["hex"] and start["label"].startswith(f"{start['hex']} · "), start
    moved = _press(page, "ArrowRight")
    assert moved["hex"] and moved["hex"] != start["hex"], moved
    assert _press(page, "ArrowLeft")["hex"] == start["hex"]
    assert page.input_value("#step") == step  # the arrows moved the focus, not the game
    blocks = page.locator(".board g.unit").count()
    names = {_press(page, "b")["label"] for _ in range(blocks)}
    assert "Heth · division HQ · 3/3 — H14" in names, sorted(names)[:5]
    _press(page, "Enter")  # a read-only map: nothing is played, no step added
    assert page.input_value("#step") == step and page.locator("#step").get_attribute("max") == step

    page.locator("#move").click()  # off the map the arrows step through the game again
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(f"() => document.querySelector('#step').value === '{int(step) - 1}'")
    page.keyboard.press("Home")
    page.wait_for_function("() => document.querySelector('#step').value === '0'")
    assert not errors, errors
    context.close()
