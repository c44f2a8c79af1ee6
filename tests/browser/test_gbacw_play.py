"""GBACW played in the browser (issue 54): Little Round Top for the Confederacy against the
`random` agent. The sheets carry the counters as counters (name, strength, a pointer to the
front, orders for one's own), stacks open into a list, a move is a click on a lit hex and a
facing chosen, the brigade and the activation end from the actions panel, and the Union's
activation follows; nothing the Confederacy's page receives names the Union's orders,
efficiency or activation markers, or the pool's order."""

from __future__ import annotations

import contextlib
import json
import time
from typing import Any

import httpx
import pytest

DRAWN = "() => document.querySelector('canvas.map-ground')?.dataset.missing === '0'"
ENDS = ("end_activation", "end_orders_change", "first_am", "end_orders", "end_commanders",
        "end_brigade")


class Seat:
    """The Confederate seat's page and its token, with the traffic it received."""

    def __init__(self, live: Any, page: Any, game_id: str, token: str) -> None:
        self.live, self.page, self.game_id, self.token = live, page, game_id, token
        self.errors: list[str] = []
        self.traffic: list[str] = []  # every JSON body and push frame the page received

    def state(self) -> dict[str, Any]:
        r = httpx.get(f"{self.live.url}/api/games/{self.game_id}", timeout=60,
                      headers={"Authorization": f"Bearer {self.token}"})
        return dict(r.json())

    def events(self) -> list[dict[str, Any]]:
        r = httpx.get(f"{self.live.url}/api/games/{self.game_id}/events?since=0", timeout=60,
                      headers={"Authorization": f"Bearer {self.token}"})
        return list(r.json()["events"])

    def wait_for(self, kind: str, tries: int = 1200) -> dict[str, Any]:
        """The state once the CSA may take an action of `kind` (the agent plays meanwhile)."""
        for _ in range(tries):
            s = self.state()
            if "csa" in s["to_move"] and any(a["type"] == kind for a in s["legal"]):
                return s
            time.sleep(0.1)
        raise AssertionError(f"no {kind} for the CSA: {self.state()['to_move']}")

    def press(self, kind: str) -> None:
        """The first button of the actions panel's group `kind`, clicked."""
        group = self.page.locator(f'#actions details[data-type="{kind}"]').first
        group.evaluate("d => d.open = true")
        group.locator("button").first.click()


@pytest.fixture
def seat(browser: Any, live: Any) -> Any:
    if httpx.get(f"{live.url}/api/maps/gbacw", timeout=120).status_code != 200:
        pytest.skip("no GBACW map")
    r = httpx.post(f"{live.url}/api/games", timeout=120, json={
        "system": "gbacw", "scenario": "little-round-top", "seed": "1",
        "seats": {"usa": {"kind": "ai", "agent": "random"}, "csa": {"kind": "human"}}})
    assert r.status_code == 201, r.text
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    s = Seat(live, page, r.json()["game_id"], r.json()["seats"]["csa"]["token"])
    page.on("pageerror", lambda e: s.errors.append(str(e)))

    def body(response: Any) -> None:
        if "json" in (response.headers.get("content-type") or ""):
            with contextlib.suppress(Exception):  # a body gone with a navigation
                s.traffic.append(response.text())
    page.on("response", body)
    page.on("websocket", lambda ws: ws.on("framereceived", lambda frame: s.traffic.append(
        frame if isinstance(frame, str) else frame.decode())))
    page.goto(live.url + r.json()["seats"]["csa"]["link"])
    page.wait_for_function(DRAWN, timeout=60_000)
    # The map opens whole, centred on the seat's pieces: three steps closer to read them.
    for _ in range(3):
        page.click("button.zoom >> nth=0")
    page.wait_for_function(DRAWN, timeout=60_000)
    yield s
    context.close()


def _inside(box: dict[str, float], bb: dict[str, float] | None, margin: float = 20) -> bool:
    return bb is not None and box["x"] + margin < bb["x"] and \
        bb["x"] + bb["width"] < box["x"] + box["width"] - margin and \
        box["y"] + margin < bb["y"] and bb["y"] + bb["height"] < box["y"] + box["height"] - margin


def _to_first_move(seat: Seat) -> dict[str, Any]:
    """Orders done, the first activation marker picked, no orders changes, a brigade
    activated: the state where its units may move."""
    seat.press("end_orders")
    seat.wait_for("first_am")
    seat.press("first_am")
    seat.wait_for("end_orders_change")
    seat.press("end_orders_change")
    seat.wait_for("activate")
    seat.press("activate")
    return seat.wait_for("move")


def test_counters_show_strength_and_facing_a_move_by_clicks_and_the_ai_activates(
        seat: Seat, screenshot: Any) -> None:
    """002 §7.1 (facing), §5.3 (activation), §9.1 (movement) through the page."""
    page = seat.page
    view = seat.state()["view"]
    # Counters as counters: the view's strength printed, the pointer at the view's facing.
    own = {k: u for k, u in view["units"].items() if u["seat"] == "csa" and u["hex"]}
    drawn = page.locator("g.unit.piece-counters")
    assert drawn.count() > 10
    shown = 0
    for g in drawn.all()[:40]:
        key = g.get_attribute("data-unit")
        if key not in own:
            continue
        u = own[key]
        assert str(u["sp"]) in g.locator("text.block-label").all_text_contents()
        facing = u["facing"]
        assert g.locator("polygon.facing").get_attribute("data-facing") == \
            f"{facing['kind']} {facing['index']}"
        shown += 1
    assert shown >= 5
    # Own orders on own counters (the Union's are not in this seat's view at all).
    assert page.locator("g.unit.side-csa text.orders").count() > 0
    assert page.locator("g.unit.side-usa text.orders").count() == 0
    # Leaders are small round counters.
    assert page.locator("g.unit.leader circle.face").count() > 0
    screenshot(page, "gbacw-little-round-top")

    state = _to_first_move(seat)
    # The side panel's formations: the seat's own brigades, the active one marked.
    page.wait_for_selector(
        f'#formations tr.active[data-brigade="{state["view"]["brigade"]}"]')
    rows = [r.get_attribute("data-brigade") for r in page.locator("#formations tbody tr").all()]
    assert sorted(rows) == sorted(state["view"]["brigades"]) and all(
        r.startswith("CS-") for r in rows)
    moves = [a for a in state["legal"] if a["type"] == "move"]
    box = page.locator("svg.map").bounding_box()
    # A counter alone in its hex or on top of its stack (one under another is covered).
    troops: dict[str, int] = {}
    for u in state["view"]["units"].values():
        troops[u["hex"]] = troops.get(u["hex"], 0) + 1

    def clickable(key: str) -> bool:
        g = page.locator(f'g.unit[data-unit="{key}"]')
        return g.count() == 1 and _inside(box, g.bounding_box()) and (
            troops[state["view"]["units"][key]["hex"]] == 1 or g.get_attribute("data-stack"))
    unit = next(u for u in dict.fromkeys(a["unit"] for a in moves) if clickable(u))
    page.locator(f'g.unit[data-unit="{unit}"]').click()
    if page.locator("#stack").is_visible():  # it stood under another counter
        page.locator(f'#stack button[data-unit="{unit}"]').click()
    assert page.locator(f'g.unit.selected[data-unit="{unit}"]').count() == 1
    # The lit hexes are the legal moves' places.
    targets = {a["to"] for a in moves if a["unit"] == unit}
    lit = {p.get_attribute("data-hex") for p in page.locator("polygon.dest").all()}
    assert lit == targets
    occupied = {u["hex"] for u in state["view"]["units"].values()}
    to = next(p.get_attribute("data-hex") for p in page.locator("polygon.dest").all()
              if p.get_attribute("data-hex") not in occupied and _inside(box, p.bounding_box()))
    page.locator(f'polygon.dest[data-hex="{to}"]').click()
    # The facings a move there may end in, as the legal actions give them.
    facings = sorted(f"{a['facing']['kind']} {a['facing']['index']}" for a in moves
                     if a["unit"] == unit and a["to"] == to)
    page.wait_for_selector("#choose:not([hidden])")
    offered = sorted(b.get_attribute("data-facing")
                     for b in page.locator("#choose button.facing-option").all())
    assert offered == facings and len(offered) > 1
    chosen = offered[-1]
    screenshot(page, "gbacw-facing-choice")
    page.locator(f'#choose button.facing-option[data-facing="{chosen}"]').click()
    page.wait_for_selector("#choose", state="hidden")
    for _ in range(100):
        u = seat.state()["view"]["units"][unit]
        if u["hex"] == to:
            break
        time.sleep(0.1)
    assert u["hex"] == to and f"{u['facing']['kind']} {u['facing']['index']}" == chosen
    page.wait_for_function(f"""() => document
        .querySelector('g.unit[data-unit="{unit}"] polygon.facing')
        ?.getAttribute('data-facing') === '{chosen}'""")
    # The log says it in a sentence.
    page.wait_for_function(f"""() => [...document.querySelectorAll('#log li.sentence')]
        .some((li) => li.textContent.includes('moves') && li.textContent.includes('{to}'))""")

    # The brigade done, then whatever ends the CSA's part until the Union activates.
    seat.press("end_brigade")
    for _ in range(60):
        if any(e["type"] == "activate" and e["data"].get("seat") == "usa"
               for e in seat.events()):
            break
        s = seat.state()
        if "csa" not in s["to_move"]:
            time.sleep(0.2)
            continue
        kind = next((k for k in ENDS if any(a["type"] == k for a in s["legal"])), None)
        assert kind is not None, {a["type"] for a in s["legal"]}
        seat.press(kind)
        time.sleep(0.5)
    else:
        raise AssertionError("the Union never activated")
    # The AI's activation reaches the page's log, in sentences.
    page.wait_for_function("""() => [...document.querySelectorAll('#log li')]
        .some((li) => /Union activates/.test(li.textContent))""", timeout=60_000)
    screenshot(page, "gbacw-after-ai")
    assert not seat.errors, seat.errors


def test_a_stack_shows_its_top_counter_and_count_and_opens_into_a_list(seat: Seat) -> None:
    page = seat.page
    view = seat.state()["view"]
    box = page.locator("svg.map").bounding_box()
    stacks = [g for g in page.locator("g.unit[data-stack]").all() if _inside(box, g.bounding_box())]
    assert stacks, "no stack in sight"
    g = stacks[0]
    count = int(g.get_attribute("data-stack"))
    top = g.get_attribute("data-unit")
    hex_id = view["units"][top]["hex"]
    under = sorted(k for k, u in view["units"].items() if u["hex"] == hex_id)
    assert count == len(under) > 1
    assert g.locator(".stack-count text").text_content() == str(count)
    g.click()
    page.wait_for_selector("#stack:not([hidden])")
    listed = sorted(b.get_attribute("data-unit") for b in page.locator("#stack button").all())
    assert listed == under
    # Picking one selects it and puts it on top of its stack.
    pick = next(k for k in under if k != top)
    page.locator(f'#stack button[data-unit="{pick}"]').click()
    page.wait_for_selector(f'g.unit.selected[data-unit="{pick}"][data-stack="{count}"]')
    assert page.locator("#stack").is_hidden()
    assert not seat.errors, seat.errors


def _walk(node: Any, found: list[tuple[str, Any]], key: str = "") -> None:
    if isinstance(node, dict):
        for k, v in node.items():
            found.append((k, v))
            _walk(v, found, k)
    elif isinstance(node, list):
        for v in node:
            _walk(v, found, key)


def test_the_confederate_page_receives_no_union_orders_markers_or_pool_order(seat: Seat) -> None:
    """002 §5.2-§5.3 and §6 through the fog: over an activation and the Union's reply, the
    page's traffic holds no Union brigade's orders or Reserve, no Union efficiency or
    activation-marker counts, no Union marker in a pool, and no draw order."""
    _to_first_move(seat)
    seat.press("end_brigade")
    for _ in range(60):
        if any(e["type"] == "activate" and e["data"].get("seat") == "usa" for e in seat.events()):
            break
        s = seat.state()
        if "csa" not in s["to_move"]:
            time.sleep(0.2)
            continue
        seat.press(next(k for k in ENDS if any(a["type"] == k for a in s["legal"])))
        time.sleep(0.5)
    time.sleep(1)
    assert seat.traffic
    found: list[tuple[str, Any]] = []
    bodies = 0
    for text in seat.traffic:
        try:
            _walk(json.loads(text), found)
            bodies += 1
        except ValueError:
            continue
    assert bodies > 5
    union = ("US-", "usa/")
    for key, value in found:
        if key == "brigades" and isinstance(value, dict):
            assert all(v.get("seat") == "csa" for v in value.values()), list(value)
        if key in ("ams", "em") and isinstance(value, dict):
            assert not any(k.startswith(union) for k in value), (key, value)
        if key in ("pool", "markers") and isinstance(value, dict):
            assert not any(k.startswith("usa/") for k in value), (key, value)
        if key in ("order", "draw_order", "pool_order"):
            raise AssertionError(f"a pool order reached the page: {key}={value}")
        # An event about a Union brigade never says its orders.
        if key == "data" and isinstance(value, dict) \
                and str(value.get("brigade", "")).startswith("US-"):
            assert "orders" not in value and "reserve" not in value, value
    assert not seat.errors, seat.errors
