"""The web client in a real browser (Debian's chromium, headless) against a live server."""

from __future__ import annotations

import json
import re
import time
from typing import Any

BLUE_LABELS = ("Davis", "Early", "Field")


def _step(page: Any) -> int:
    text = page.inner_text("#phasebar [data-key=step]")
    return int(re.findall(r"\d+", text)[-1])


def _new_page(browser: Any, errors: list[str]) -> tuple[Any, Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return context, page


def test_play_against_the_ai_reload_replay_and_language(browser: Any, live: Any,
                                                       screenshot: Any,
                                                       switch_language: Any) -> None:
    errors: list[str] = []
    context, page = _new_page(browser, errors)
    page.goto(live.url + "/?all")  # the toy is kept out of the lobby unless asked for
    page.wait_for_selector("select.who")
    screenshot(page, "lobby")  # as a player first sees it (BoC preselected when present)
    page.select_option("#system", "toy")
    page.wait_for_selector("select.who[data-seat=blue]")
    page.fill("#options", "turns=4")
    page.select_option("select.who[data-seat=blue]", "ai")
    page.click("#start")
    page.wait_for_url(re.compile(r"/g/[^/#]+#.+"))
    page.wait_for_selector("#phasebar .turn-you")
    assert _step(page) == 0
    # Select a block, then take one of its actions (highlighted in the actions panel).
    page.click("g.unit[data-unit=r2]")
    page.wait_for_selector("button.match")
    page.click('button[data-action=\'{"type":"reveal","block":"r2"}\']')
    # The AI (blue) answers by itself: the view moves on past our action.
    page.wait_for_function("() => Number(document.querySelector('#phasebar [data-key=step]')"
                           ".textContent.match(/\\d+/g).pop()) >= 2", timeout=10000)
    page.wait_for_selector("#phasebar .turn-you")
    log_before = page.inner_text("#log")
    step_before = _step(page)
    assert "Blue" in log_before and "Revealed" in log_before
    for block, label in zip(("b1", "b2", "b3"), BLUE_LABELS, strict=True):
        if label not in log_before:  # unrevealed enemy blocks are drawn blank
            assert page.locator(f"g.unit[data-unit={block}] text").count() == 0
            assert label not in page.content()
    screenshot(page, "game")
    # Reload: the game comes back exactly as it was, from the server.
    page.reload()
    page.wait_for_selector("#phasebar .turn-you")
    assert _step(page) == step_before
    assert page.inner_text("#log") == log_before
    # Replay viewer: step back to the start and forward again.
    page.click("#replay-link")
    page.wait_for_selector("#step-label")
    page.wait_for_function("() => document.querySelector('#step-label').textContent.length > 0")
    page.click("#first")
    page.wait_for_function("() => /\\b0\\b/.test(document.querySelector('#step-label')"
                           ".textContent)")
    # A past step says whose decision it was, not "your decision" (nothing is asked here).
    assert page.inner_text("#phasebar .you") == "To decide: Red"
    assert page.locator("#phasebar .turn-you").count() == 0
    page.click("#next")
    page.wait_for_function("() => document.querySelector('#move').textContent.includes('Red')")
    screenshot(page, "replay")
    # Language switch: a UI string changes and the choice survives a reload.
    page.goto(page.url.replace("/replay", ""))
    page.wait_for_selector("#actions h3")
    assert page.inner_text("#actions h3").lower() == "your legal actions"
    switch_language(page, "de")
    page.wait_for_function("() => document.querySelector('#actions h3')?.textContent"
                           " === 'Deine erlaubten Aktionen'")
    page.reload()
    page.wait_for_function("() => document.querySelector('#actions h3')?.textContent"
                           " === 'Deine erlaubten Aktionen'")
    switch_language(page, "it")
    page.wait_for_function("() => document.querySelector('#actions h3')?.textContent"
                           " === 'Le tue azioni legali'")
    assert not errors, errors
    context.close()


def test_an_action_the_server_did_not_get_is_kept_and_sent_once_it_is_back(
        browser: Any, live: Any) -> None:
    errors: list[str] = []
    context, page = _new_page(browser, errors)
    page.goto(live.url + "/?all")
    page.wait_for_selector("select.who")
    page.select_option("#system", "toy")
    page.wait_for_selector("select.who[data-seat=blue]")
    page.click("#start")
    page.wait_for_url(re.compile(r"/g/[^/#]+#.+"))
    page.wait_for_selector("#phasebar .turn-you")
    assert _step(page) == 0 and page.locator("#sending").is_hidden()
    posts: list[str] = []

    def unreachable(route: Any) -> None:
        posts.append(route.request.post_data or "")
        route.abort("connectionrefused")

    page.route("**/api/games/*/actions", unreachable)
    page.click('button[data-action=\'{"type":"reveal","block":"r2"}\']')
    page.wait_for_selector("#sending", state="visible")
    assert "kept" in page.inner_text("#toasts")
    # Locked meanwhile: another click cannot replace (and so lose) the kept action.
    assert page.locator("#actions button[data-action]").first.is_disabled()
    page.wait_for_timeout(4500)  # the 4 s retry fails too, saying nothing new
    assert len(posts) >= 2
    assert page.locator("#toasts .toast").count() == 1
    assert _step(page) == 0
    first = json.loads(posts[0])
    assert first["step"] == 0 and {json.loads(p)["action_id"] for p in posts} == \
        {first["action_id"]}
    page.unroute("**/api/games/*/actions")
    page.wait_for_function("() => Number(document.querySelector('#phasebar [data-key=step]')"
                           ".textContent.match(/\\d+/g).pop()) === 1", timeout=10000)
    page.wait_for_selector("#sending", state="hidden")
    assert "Revealed" in page.inner_text("#log")
    assert not page.locator("#actions button[data-action]").first.is_disabled()
    assert not errors, errors
    context.close()


def test_two_seats_see_nothing_hidden_of_each_other(
        browser: Any, live: Any, switch_language: Any) -> None:
    errors: list[str] = []
    ctx_red, red = _new_page(browser, errors)
    traffic: dict[str, list[str]] = {"red": [], "blue": []}
    frames: dict[str, list[str]] = {"red": [], "blue": []}

    def watch(page: Any, seat: str) -> None:
        def record(route: Any) -> None:  # read every API answer as it passes
            response = route.fetch()
            traffic[seat].append(response.text())
            route.fulfill(response=response)

        page.route("**/api/**", record)
        page.on("websocket", lambda ws: ws.on("framereceived",
                                               lambda payload: frames[seat].append(str(payload))))

    watch(red, "red")
    red.goto(live.url + "/?all")
    red.wait_for_selector("select.who")
    red.select_option("#system", "toy")
    red.wait_for_selector("select.who[data-seat=blue]")
    red.select_option("select.who[data-seat=blue]", "friend")
    red.click("#start")
    link = red.input_value("input[data-seat=blue]")
    assert re.fullmatch(r"http://127\.0\.0\.1:\d+/g/[^/#]+#[\w-]{40,}", link)
    # The link is shown once: a change of language builds the lobby again and keeps it.
    switch_language(red, "it")
    red.wait_for_selector("#created h3:text('Link segreti di accesso')")
    assert red.input_value("input[data-seat=blue]") == link
    switch_language(red, "en")
    red.wait_for_selector("#created h3:text('Secret join links')")
    red.click("#open-mine")
    red.wait_for_selector("#phasebar .turn-you")
    ctx_blue, blue = _new_page(browser, errors)
    watch(blue, "blue")
    blue.goto(link)
    blue.wait_for_selector("#phasebar .you")

    def act(page: Any, action: dict[str, Any], step: int) -> None:
        page.wait_for_selector("#phasebar .turn-you")
        page.click(f"button[data-action='{json.dumps(action, separators=(',', ':'))}']")
        for p in (red, blue):  # both pages learn of it through their own channel
            p.wait_for_function(f"() => Number(document.querySelector('#phasebar [data-key=step]')"
                                f".textContent.match(/\\d+/g).pop()) >= {step}")
        # The tab's title says whose decision it is: the other seat's now, not this one's.
        other = blue if page is red else red
        other.wait_for_function("() => document.title.startsWith('● Your decision')")
        assert not page.title().startswith("●"), page.title()

    assert red.title().startswith("● Your decision") and not blue.title().startswith("●")

    act(red, {"type": "reveal", "block": "r1"}, 1)
    act(blue, {"type": "pass"}, 2)
    act(red, {"type": "pass"}, 3)
    act(blue, {"type": "reveal", "block": "b3"}, 4)
    # Positive control: what was revealed does reach the other side.
    assert "Archer" in blue.content() and "Field" in red.content()
    hidden = {"blue": ("Baxter", "Cutler"), "red": ("Davis", "Early")}
    for seat, page in (("red", red), ("blue", blue)):
        seen = [page.content()]
        seen += traffic[seat]
        assert len(traffic[seat]) > 5
        seen += frames[seat]
        blob = "\n".join(seen)
        assert frames[seat], f"no WebSocket frames captured for {seat}"
        for label in hidden[seat]:
            assert label not in blob, f"{label} reached {seat}"
    assert not errors, errors
    for page, ctx in ((red, ctx_red), (blue, ctx_blue)):
        page.unroute_all(behavior="ignoreErrors")  # no recording while the context closes
        ctx.close()


def test_boc_map_is_drawn_and_played_by_clicks(browser: Any, live: Any,
                                               screenshot: Any) -> None:
    from gettysburg.server import systems

    assert systems.map_json("boc") is not None, "the BoC board ships with the package"
    import httpx

    from gettysburg import systems as registry

    names = list(registry.get("boc").menu().scenarios)
    scenario = "day1"
    assert scenario in names
    seats = httpx.get(f"{live.url}/api/setup", params={"system": "boc", "scenario": scenario})
    assert seats.status_code == 200, seats.text
    body = {"system": "boc", "scenario": scenario,
            "seats": {s: {"kind": "human"} for s in seats.json()["seats"]}}
    r = httpx.post(f"{live.url}/api/games", json=body, timeout=60)
    assert r.status_code == 201, r.text
    game = r.json()
    _seat, token = next((s, v["token"]) for s, v in game["seats"].items()
                       if httpx.get(f"{live.url}/api/games/{game['game_id']}",
                                    headers={"Authorization": f"Bearer {token_of(v)}"})
                       .json()["to_move"] == [s])
    state = httpx.get(f"{live.url}/api/games/{game['game_id']}",
                      headers={"Authorization": f"Bearer {token}"}).json()
    on_map = {u["id"] for u in state["view"].get("units", []) if u.get("hex")}
    unit = next((a.get("unit") or a.get("hq") for a in state["legal"]
                 if (a.get("unit") or a.get("hq")) in on_map and (a.get("to") or a.get("path"))),
                None)
    errors: list[str] = []
    context, page = _new_page(browser, errors)
    page.goto(f"{live.url}/g/{game['game_id']}#{token}")
    page.wait_for_selector("polygon.hex", timeout=20000)
    assert page.locator("polygon.hex").count() > 100
    # The map says its topology (BoC's JSON may leave it out: a hex grid), and blocks wear
    # the colours the system declares for their seats.
    assert page.locator("svg.map.topology-hex").count() == 1
    boc = next(x for x in httpx.get(f"{live.url}/api/systems").json()["systems"]
               if x["name"] == "boc")
    faces = page.eval_on_selector_all(
        "g.units g.unit.piece-blocks", "els => els.map(e => [e.dataset.side, "
        "e.querySelector('rect.face').getAttribute('fill')])")
    assert faces and all(fill == boc["colours"][side] for side, fill in faces), faces
    page.wait_for_selector("#phasebar .turn-you")
    assert unit is not None, "Day 1 starts with units that can act on the map"
    block = page.locator(f"g.units g.unit[data-unit='{unit}']")
    block.click()
    page.wait_for_selector("polygon.dest")
    screenshot(page, "map")  # the whole board as it opens, a block picked, its moves lit
    block.wait_for(state="visible")  # the board may be redrawing after the click
    box = block.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.wheel(0, -500)
    page.wait_for_timeout(150)
    board = page.locator("#board").bounding_box()  # drag the selected block to the middle
    block.wait_for(state="visible")  # the board may be redrawing after the click
    box = block.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + 5, box["y"] + 5)
    page.mouse.down()
    page.mouse.move(board["x"] + board["width"] / 2, board["y"] + board["height"] / 2, steps=5)
    page.mouse.up()
    page.wait_for_timeout(100)  # a click right at the end of a drag is part of the drag
    page.locator("polygon.dest").first.dispatch_event("click")
    page.wait_for_function("() => Number(document.querySelector('#phasebar [data-key=step]')"
                           ".textContent.match(/\\d+/g).pop()) >= 1")
    # The phase bar names the phase in the player's words and gives the time once.
    keys = page.eval_on_selector_all("#phasebar [data-key]", "els => els.map(e => e.dataset.key)")
    assert "time" in keys and "day" not in keys and "hour" not in keys
    assert "source" not in keys  # what the game was made from is for agents, not the bar
    # Blocks off the map: those to come, then the eliminated under their own label, all of
    # them however many (a detached board, drawn from a view of 45 blocks, 2 eliminated).
    strips = page.evaluate("""async ([gid, token]) => {
      const { Board } = await import("/static/js/board.js");
      const map = await (await fetch(`/api/games/${gid}/map`,
        { headers: { Authorization: `Bearer ${token}` } })).json();
      const node = document.createElement("div");
      node.className = "board";
      node.style.width = "400px";  // far too narrow for 45 blocks: the strip must scroll
      document.body.append(node);
      const board = new Board(node, { map, seats: ["usa", "csa"] });
      const units = Array.from({ length: 45 }, (_, i) => ({ id: `usa-u${i}`, side: "usa",
        hex: null, strength: 2, name: `U${i}`, status: i < 2 ? "eliminated" : "reserve" }));
      board.render({ units, hidden: [] });
      const ids = (sel) => [...node.querySelectorAll(sel)].map((g) => g.dataset.unit);
      const strip = node.querySelector("svg.off-waiting");
      const out = { drawn: strip.getBoundingClientRect().width,
                    wanted: Number(strip.getAttribute("width")),
                    waiting: ids(".offmap svg.off-waiting g.unit"),
                    gone: ids(".offmap svg.off-eliminated g.unit"),
                    labels: [...node.querySelectorAll(".offmap > span")]
                      .map((s) => s.textContent) };
      node.remove();
      return out;
    }""", [game["game_id"], token])
    assert strips["gone"] == ["usa-u0", "usa-u1"]
    assert len(strips["waiting"]) == 43 and "usa-u44" in strips["waiting"]
    assert strips["labels"] == ["off map", "eliminated"]
    assert strips["drawn"] == strips["wanted"] > 400  # kept whole, not squeezed
    # The replay viewer draws the map too (this screenshot replaces the toy one).
    page.click("#replay-link")
    page.wait_for_selector("polygon.hex")
    page.wait_for_function("() => /\\b1\\b/.test(document.querySelector('#step-label')"
                           ".textContent)")
    screenshot(page, "replay")
    assert not errors, errors
    context.close()


def token_of(seat: dict[str, Any]) -> str:
    return str(seat["token"])


def test_map_hover_zoom_and_pan(browser: Any, live: Any, monkeypatch: Any) -> None:
    """A hand-made three-hex map (the map JSON's hex contract, docs/maps.md) declared for
    the toy: hex ids on hover, wheel zoom, drag to pan, blocks without a hex wait in the
    off-map strip."""
    from dataclasses import replace

    import httpx

    from gettysburg import systems as registry
    from gettysburg.server import systems

    r, h = 248.26, 215.0  # a flat-topped hex's corner radius and half height (430 m across)
    tiny = {"system": "toy", "topology": "hex",
            "layout": {"basis_q": [372.39, 215.0], "basis_r": [0.0, 430.0], "origin": [0, 0],
                       "corners": [[r, 0], [r / 2, h], [-r / 2, h], [-r, 0], [-r / 2, -h],
                                   [r / 2, -h]]},
            "hexes": [{"id": "A1", "terrain": "clear", "ground": 0, "xy": [0, 0]},
                      {"id": "B1", "terrain": "woods", "ground": 1, "victory": 2,
                       "xy": [372.39, 215.0]},
                      {"id": "C1", "terrain": "town", "ground": 2, "xy": [744.78, 430.0]}],
            "hexsides": [{"a": "A1", "b": "B1", "terrain": ["creek"],
                          "seg": [[r, 0], [r / 2, h]]},
                         {"a": "B1", "b": "C1", "slope": "hill",
                          "roads": [{"road": "p", "name": "Pike", "class": "pike"}],
                          "seg": [[372.39 + r, h], [372.39 + r / 2, 2 * h]]}]}
    monkeypatch.setitem(registry._loaded, "toy",
                        replace(registry.get("toy"), map_json=lambda: tiny))
    systems._built.pop("toy", None)
    errors: list[str] = []
    context, page = _new_page(browser, errors)
    try:
        r = httpx.post(f"{live.url}/api/games", json={
            "system": "toy", "scenario": "standard",
            "seats": {"red": {"kind": "human"}, "blue": {"kind": "human"}}})
        page.goto(live.url + r.json()["seats"]["red"]["link"])
        page.wait_for_selector("polygon.hex[data-hex=B1]")
        assert page.locator("polygon.hex").count() == 3
        assert page.locator("line.stream").count() == 1 and page.locator("line.road").count() == 1
        assert page.locator(".offmap g.unit").count() == 6  # toy blocks have no hex
        page.hover("polygon.hex[data-hex=B1]")
        assert page.inner_text(".board .hover").startswith("B1")
        before = page.get_attribute("svg.map", "viewBox")
        box = page.locator("svg.map").bounding_box()
        cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.mouse.move(cx, cy)
        page.mouse.wheel(0, -400)
        zoomed = page.get_attribute("svg.map", "viewBox")
        assert float(zoomed.split()[2]) < float(before.split()[2])
        page.mouse.move(cx, cy + 60)
        page.mouse.down()
        page.mouse.move(cx + 80, cy + 60, steps=4)
        page.mouse.up()
        panned = page.get_attribute("svg.map", "viewBox")
        assert float(panned.split()[0]) < float(zoomed.split()[0])
        page.click(".offmap g.unit[data-unit=r1]")
        assert page.locator("button.match").count() == 2  # reveal r1, attack r1
        assert not errors, errors
    finally:
        context.close()
        systems._built.pop("toy", None)


def test_replay_of_a_finished_game_and_what_if_branch(browser: Any, live: Any) -> None:
    import httpx

    r = httpx.post(f"{live.url}/api/games", json={
        "system": "toy", "scenario": "standard", "options": ["turns=2"],
        "seats": {"red": {"kind": "human"}, "blue": {"kind": "human"}}})
    game = r.json()
    for seat, action in (("red", {"type": "reveal", "block": "r2"}), ("blue", {"type": "pass"})):
        httpx.post(f"{live.url}/api/games/{game['game_id']}/actions",
                   headers={"Authorization": "Bearer " + game["seats"][seat]["token"]},
                   json={"action": action, "action_id": seat})
    errors: list[str] = []
    context, page = _new_page(browser, errors)
    page.goto(f"{live.url}/g/{game['game_id']}/replay#{game['seats']['blue']['token']}")
    page.wait_for_selector("#branch:not([hidden])")
    page.wait_for_function("() => document.querySelector('#step-label').textContent.length > 0")
    # Over: the referee's view, so blue now sees red's hidden blocks too.
    assert "referee" in page.inner_text("#step-label")
    # The outcome in words, from the result's `winner`.
    outcome = page.inner_text("#phasebar [data-key=result]")
    assert re.fullmatch(r"Game over: (red wins|blue wins|a draw)", outcome), outcome
    assert page.locator("#phasebar .you").count() == 0  # no "waiting for –" once over
    page.click("#first")
    page.wait_for_function("() => /\\b0\\b/.test(document.querySelector('#step-label')"
                           ".textContent)")
    assert "Cutler" in page.content()
    page.click("#next")
    # The move names the block by its label, as the referee sees it.
    page.wait_for_function("() => document.querySelector('#move').textContent.includes('Baxter')")
    page.click("#branch")
    page.wait_for_selector("#branched a[data-seat=red]")
    page.click("#branched a[data-seat=blue]")
    page.wait_for_selector("#phasebar .you")
    assert _step(page) == 1
    assert not errors, errors
    context.close()


def test_a_what_if_branch_is_played_against_the_same_computer(browser: Any, live: Any) -> None:
    import httpx

    r = httpx.post(f"{live.url}/api/games", json={
        "system": "toy", "scenario": "standard", "options": ["turns=2"],
        "seats": {"red": {"kind": "human"}, "blue": {"kind": "ai", "agent": "random"}}})
    game = r.json()
    red = {"Authorization": "Bearer " + game["seats"]["red"]["token"]}
    deadline, passes = time.monotonic() + 60, 0
    while True:  # red passes (or takes its hits) whenever it is to move; blue answers
        got = httpx.get(f"{live.url}/api/games/{game['game_id']}", headers=red)
        assert got.status_code == 200, got.text
        state = got.json()
        if state["status"] == "finished":
            break
        assert time.monotonic() < deadline, (state["to_move"], state["status"], state["step"])
        if state["to_move"] == ["red"]:
            action = min(state["legal"], key=lambda a: a["type"] != "pass")
            sent = httpx.post(f"{live.url}/api/games/{game['game_id']}/actions", headers=red,
                              json={"action": action, "action_id": str(passes)})
            assert sent.status_code == 200, sent.text
            passes += 1
        time.sleep(0.2)
    errors: list[str] = []
    context, page = _new_page(browser, errors)
    page.goto(f"{live.url}/g/{game['game_id']}/replay#{game['seats']['red']['token']}")
    page.wait_for_selector("#branch:not([hidden])")
    page.click("#first")
    page.wait_for_function("() => /\\b0\\b/.test(document.querySelector('#step-label')"
                           ".textContent)")
    page.click("#branch")
    # One seat for a person: straight into the branch, where blue is still the computer.
    page.wait_for_url(re.compile(r"/g/[^/#]+#.+"))
    assert game["game_id"] not in page.url
    page.wait_for_selector("#phasebar .turn-you")
    branch_id, token = re.findall(r"/g/([^/#]+)#(.+)$", page.url)[0]
    state = httpx.get(f"{live.url}/api/games/{branch_id}",
                      headers={"Authorization": f"Bearer {token}"}).json()
    seats = {s["seat"]: s for s in state["seats"]}
    assert state["seat"] == "red" and seats["blue"]["kind"] == "ai", seats
    assert state["parent"] == game["game_id"] and state["step"] == 0
    assert not errors, errors
    context.close()


def test_a_narrow_screen_stacks_the_board_above_the_panels(browser: Any, live: Any) -> None:
    import httpx

    r = httpx.post(f"{live.url}/api/games", json={
        "system": "toy", "scenario": "standard",
        "seats": {"red": {"kind": "human"}, "blue": {"kind": "ai", "agent": "random"}}})
    game = r.json()
    context = browser.new_context(viewport={"width": 420, "height": 900})
    page = context.new_page()
    page.goto(f"{live.url}/g/{game['game_id']}#{game['seats']['red']['token']}")
    page.wait_for_selector("#phasebar .turn-you")
    board = page.locator("#board").bounding_box()
    actions = page.locator("#actions").bounding_box()
    assert board["width"] > 350  # the whole width, not what the panels leave
    assert actions["y"] >= board["y"] + board["height"]  # the panels come under it
    context.close()


def test_a_finished_game_says_so_not_live(browser: Any, live: Any) -> None:
    """Once over, the game page says "finished" where it said "live", and the phase bar
    gives the result badge, not the view's raw `over` flag."""
    import httpx

    r = httpx.post(f"{live.url}/api/games", json={
        "system": "toy", "scenario": "standard", "options": ["turns=1"],
        "seats": {"red": {"kind": "human"}, "blue": {"kind": "human"}}})
    game = r.json()
    for seat in ("red", "blue"):
        httpx.post(f"{live.url}/api/games/{game['game_id']}/actions",
                   headers={"Authorization": "Bearer " + game["seats"][seat]["token"]},
                   json={"action": {"type": "pass"}, "action_id": seat})
    errors: list[str] = []
    context, page = _new_page(browser, errors)
    page.goto(f"{live.url}/g/{game['game_id']}#{game['seats']['red']['token']}")
    page.wait_for_selector("#phasebar [data-key=result]")
    page.wait_for_function("() => document.querySelector('#conn').textContent === 'finished'")
    assert page.locator("#phasebar [data-key=over]").count() == 0
    assert not errors, errors
    context.close()


def test_my_games_say_how_each_game_stands(browser: Any, live: Any) -> None:
    """The lobby's list asks the server how each game stands (its own token), so two
    games of one scenario read differently, and a game the server lost says so."""
    import httpx

    def toy(turns: int) -> dict[str, Any]:
        r = httpx.post(f"{live.url}/api/games", json={
            "system": "toy", "scenario": "standard", "options": [f"turns={turns}"],
            "seats": {"red": {"kind": "human"}, "blue": {"kind": "human"}}})
        assert r.status_code == 201, r.text
        return dict(r.json())

    waiting, over = toy(3), toy(1)
    httpx.post(f"{live.url}/api/games/{waiting['game_id']}/actions",
               headers={"Authorization": "Bearer " + waiting["seats"]["red"]["token"]},
               json={"action": {"type": "pass"}, "action_id": "a"})
    httpx.post(f"{live.url}/api/games/{over['game_id']}/actions",
               headers={"Authorization": "Bearer " + over["seats"]["red"]["token"]},
               json={"action": {"type": "pass"}, "action_id": "a"})
    entries = [{"game_id": g["game_id"], "seat": seat, "token": g["seats"][seat]["token"],
                "system": "toy", "scenario": "standard", "seen": 1_700_000_000_000}
               for g, seat in ((waiting, "red"), (waiting, "blue"), (over, "red"))]
    entries.append({"game_id": "gone0000", "seat": "red", "token": "x", "system": "toy",
                    "scenario": "standard", "seen": 1_700_000_000_000})
    errors: list[str] = []
    context, page = _new_page(browser, errors)
    page.goto(live.url + "/")
    page.evaluate("e => localStorage.setItem('gettysburg.games', JSON.stringify(e))", entries)
    page.reload()
    page.wait_for_function("() => { const s = [...document.querySelectorAll('.game-status')];"
                           " return s.length === 4 && s.every(x => x.textContent.length > 0); }")

    def status(game_id: str, seat: str) -> str:
        return str(page.inner_text(f".game-status[data-game='{game_id}'][data-seat={seat}]"))

    assert status(waiting["game_id"], "red") == "Waiting for Blue"
    assert status(waiting["game_id"], "blue") == "Your decision (Blue)"
    assert status(over["game_id"], "red").startswith("finished: ")
    assert status("gone0000", "red") == "no longer on this server"
    assert "2023" in page.inner_text(".games-list")  # when each was started
    assert not [e for e in errors if "404" not in e and "403" not in e], errors
    context.close()
