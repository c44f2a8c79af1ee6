"""GBACW's Little Round Top in Chromium against the general (issue 54): orders given and
taken back, the activation-marker pool and the draw, a leader's command range lit, a fire
and a shock sent from their previews (the chart's column or odds, every modifier, each
result's chance), the general's activation and answers in the log, and the replay.

The Confederacy's page plays the decisions the test is about; the others (moves on the way
to contact) are sent through the same API by the general's own code, choosing from the
seat's view and legal list, as a player clicking the actions panel would."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
import pytest

from browser.gbacw_seats import Seat, wait

STEPS = 3000  # decisions before contact and a shock (about 700 in the seeded probe)


@pytest.fixture
def csa(browser: Any, live: Any) -> Any:
    if httpx.get(f"{live.url}/api/maps/gbacw", timeout=120).status_code != 200:
        pytest.skip("no GBACW map")
    r = httpx.post(f"{live.url}/api/games", timeout=120, json={
        "system": "gbacw", "scenario": "little-round-top", "seed": "1",
        "seats": {"usa": {"kind": "ai", "agent": "general"}, "csa": {"kind": "human"}}})
    assert r.status_code == 201, r.text
    body = r.json()
    s = Seat(live, body["game_id"], "csa", body["seats"]["csa"]["token"],
             body["seats"]["csa"]["link"])
    s.open(browser)
    yield s
    s.page.context.close()


def _mine(s: Seat, kind: str, tries: int = 600) -> dict[str, Any]:
    """The state once the CSA may take an action of ``kind`` (the general plays meanwhile)."""
    for _ in range(tries):
        st = s.state()
        if "csa" in st["to_move"] and any(a["type"] == kind for a in st["legal"]):
            return st
        time.sleep(0.1)
    raise AssertionError(f"no {kind} for the CSA")


def _drive_until(s: Seat, kinds: set[str]) -> dict[str, Any]:
    """Play the CSA's other decisions by the general until one of ``kinds`` is legal."""
    for _ in range(STEPS):
        st = s.state()
        if st["status"] == "finished":
            raise AssertionError("the game ended first")
        if "csa" not in st["to_move"]:
            time.sleep(0.05)
            continue
        if any(a["type"] in kinds for a in st["legal"]):
            return st
        s.play(st)
    raise AssertionError(f"no {kinds} within {STEPS} decisions")


def _kinds(s: Seat, since: int) -> set[str]:
    return {e["type"] for e in s.events() if e["n"] >= since}


def _sent(s: Seat, kind: str, since: int) -> list[dict[str, Any]]:
    return [e for e in s.events() if e["n"] >= since and e["type"] == kind]


def test_little_round_top_against_the_general(csa: Seat, screenshot: Any) -> None:
    page = csa.page
    st = csa.state()
    assert st["to_move"] == ["csa"]
    # The markers panel: own AMs and EMs, nothing drawn yet, the fog named.
    page.wait_for_selector("#markers:not([hidden])")
    assert page.locator("#drawn").get_attribute("data-marker") is None
    ams = {r.get_attribute("data-marker") for r in page.locator("#markers tr.ams").all()}
    assert ams == set(st["view"]["ams"]) and all(a.startswith("CS-") for a in ams)

    # 1. Orders (002 §6.1) from the actions panel, shown in the formations panel; taken back.
    order = next(a for a in st["legal"] if a["type"] == "set_orders")
    before = st["view"]["brigades"][order["brigade"]]["orders"]
    page.locator(f"#actions button[data-action='{json.dumps(order, separators=(',', ':'))}']")\
        .evaluate("b => { b.closest('details').open = true; b.click(); }")
    wait(lambda: csa.state()["view"]["brigades"][order["brigade"]]["orders"] == order["orders"])
    row = page.locator(f'#formations tr[data-brigade="{order["brigade"]}"] td').nth(1)
    wait(lambda: row.text_content() != "" and csa.state()["undo"])
    shown = row.text_content()
    page.wait_for_selector("#undo:not([disabled])")
    page.click("#undo")
    wait(lambda: csa.state()["view"]["brigades"][order["brigade"]]["orders"] == before)
    wait(lambda: row.text_content() != shown)

    # 2. A leader's command range lit on the map (002 §4.15).
    leader = next(ld for ld, v in st["view"]["leaders"].items() if v["seat"] == "csa" and v["hex"])
    reach = set(csa.preview(leader)["reach"])
    csa.select(leader)
    page.wait_for_function("() => document.querySelectorAll('polygon.in-range').length > 0")
    lit = {p.get_attribute("data-hex") for p in page.locator("polygon.in-range").all()}
    assert lit == reach and st["view"]["leaders"][leader]["hex"] in lit
    screenshot(page, "gbacw-command-range")
    page.keyboard.press("Escape")

    # 3. Orders done; the general's; the first marker picked and drawn (002 §5.3).
    csa.press("end_orders")
    _mine(csa, "first_am")
    csa.press("first_am")
    st = wait(lambda: (x := csa.state())["view"]["current"] and x)
    page.wait_for_selector(f'#drawn[data-marker="{st["view"]["current"]}"]')
    rows = page.locator("#markers tr.pool")
    pool = {r.get_attribute("data-marker") for r in rows.all()}
    wait(lambda: {r.get_attribute("data-marker") for r in rows.all()}
         == set(csa.state()["view"]["pool"]))
    assert all(m.startswith("csa/") for m in pool)
    screenshot(page, "gbacw-markers")

    # 4. A fire from its preview (002 §10.17, §10.81).
    st = _drive_until(csa, {"fire"})
    fire = next(a for a in st["legal"] if a["type"] == "fire")
    seen = csa.preview(fire["unit"])
    shot = next(f for f in seen["fire"] if f["target"] == fire["target"])
    csa.select(fire["unit"])
    block = page.locator(f'#combat section.fire-preview[data-target="{fire["target"]}"]')
    block.wait_for()
    assert block.locator("h4").text_content()
    sources = [r.get_attribute("data-source") for r in block.locator("table.modifiers tr").all()]
    assert sources == [m["source"] for m in shot["modifiers"]]
    bars = {c.get_attribute("data-result"): int(c.get_attribute("data-chance") or 0)
            for c in block.locator(".chances:not(.alt) .chance").all()}
    assert bars == {c["result"]: c["chance"] for c in shot["chances"]}
    assert sum(bars.values()) == 100 and shot["column"] in block.locator(".facts").text_content()
    screenshot(page, "gbacw-fire-preview")
    n0 = st["log_size"]
    block.locator("button.commit").click()
    # the general may answer (return fire or hold, 002 §10.42); the shot is rolled then
    wait(lambda: _sent(csa, "fire", n0), timeout=120)
    page.wait_for_function("""() => [...document.querySelectorAll('#log li')]
        .some((li) => /column/.test(li.textContent))""", timeout=60_000)

    # 5. A shock from its preview (002 §11.42-11.45).
    st = _drive_until(csa, {"shock"})
    shock = next(a for a in st["legal"] if a["type"] == "shock")
    attacker = shock["shocks"][0]["attackers"][0]
    seen = csa.preview(attacker)
    part = next(s for s in seen["shock"] if s["action"] == shock)["parts"][0]
    csa.select(attacker)
    section = page.locator("#combat section.shock-preview").filter(
        has=page.locator(f'div.shock-part[data-targets="{part["targets"]}"]')).first
    section.wait_for()
    facts = section.locator(".facts").first.text_content() or ""
    assert part["ratio"] in facts
    ids = [r.get_attribute("data-source") for r in section.locator("table.modifiers").first
           .locator("tr").all()]
    assert ids == [m["id"] for m in part["modifiers"]] and "ratio" in ids
    screenshot(page, "gbacw-shock-preview")
    n0 = csa.state()["log_size"]
    button = section.locator("button.commit")
    want = json.loads(button.get_attribute("data-action") or "{}")
    assert want["type"] == "shock"
    button.click()
    wait(lambda: _kinds(csa, n0) & {"shock_designation", "shock_designated"}, timeout=120)
    # the general decides as the defender (withdraw or stand, 002 §11.33); then the fight, or
    # an advance into a hex the pre-shock checks emptied (§11.46)
    wait(lambda: {k for k in _kinds(csa, n0) if k in ("shock_resolved", "shock_cancelled",
                                                      "shock_advance", "shock_ended")
                  or "withdraw" in k}, timeout=180)
    # the attacker may go on shocking (§11.47): this seat declines
    st = csa.state()
    if "csa" in st["to_move"] and {"type": "end_shock"} in st["legal"]:
        assert csa.send({"type": "end_shock"}, st["step"]).status_code == 200

    # 6. The general's activations reached the log, in sentences.
    page.wait_for_function("""() => [...document.querySelectorAll('#log li')]
        .some((li) => /Union activates/.test(li.textContent))""", timeout=60_000)
    assert any(e["type"] == "activate" and e["data"].get("seat") == "usa" for e in csa.events())

    # 7. The replay: the game step by step as this seat saw it.
    total = csa.state()["step"]
    page.goto(f"{csa.live.url}/g/{csa.game_id}/replay#{csa.token}")
    page.wait_for_selector("#step")
    assert int(page.locator("#step").get_attribute("max") or 0) == total
    page.click("#first")
    page.wait_for_function(
        "() => /\\b0\\b/.test(document.querySelector('#step-label').textContent)")
    page.click("#next")
    page.wait_for_function("() => document.querySelector('#step').value === '1'")
    assert page.locator("g.unit").count() > 10
    screenshot(page, "gbacw-replay")
    assert not csa.errors, csa.errors
