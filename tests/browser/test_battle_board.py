"""A battle fought inside a game is drawn from the view's ``battle`` object (battle.js):
its hex board with terrain, the units by figures and side colour, the own hand as buttons
and the other side's as a count; clicks send the matching legal action. Mundo Machango's
battle is the one the project has: a real game is brought to nightfall with an attack
declared, and each of the battle's actions is chosen by clicking the drawing of the view
of the seat to move, then applied to the game, until a unit has fired."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

# Draws a battle into a fresh node with the page's own modules; the selection is kept as
# game.js keeps it, and each action clicked is pushed onto window.sent.
HARNESS = """async ([view, legal, seat]) => {
  const { drawBattle, battleOf } = await import('/static/js/battle.js');
  let node = document.getElementById('battle-test');
  if (!node) {
    node = document.createElement('div');
    node.id = 'battle-test';
    node.className = 'board battle';
    node.style.height = '600px';
    document.body.prepend(node);
  }
  window.sent ??= [];
  let selected = null;
  const draw = () => drawBattle(node, battleOf(view), { seat, legal, selected,
    colours: { [Object.keys(battleOf(view).hands)[0]]: ['#3d5a8c', '#25375a'],
               [Object.keys(battleOf(view).hands)[1]]: ['#8b8c84', '#565752'] },
    onSelect: (id) => { selected = id; draw(); }, onAct: (a) => window.sent.push(a) });
  draw();
  return battleOf(view) !== null;
}"""


def _game(tmp_path: Path) -> Any:
    machango = pytest.importorskip("gettysburg.machango.game")
    forces = pytest.importorskip("gettysburg.machango.forces")
    over: dict[str, Any] = {d: {"at": None} for d in forces.load_forces().divisions}
    over["c_heth_1"] = {"at": "klingel_farm"}
    over["u_doubleday"] = {"at": "codori_farm"}
    scenario = {"title": "battle test", "compose": "auto", "arrivals": "none",
                "start": {"day": 1, "hour": 19, "phase": "day", "active": "csa"},
                "divisions": over}
    path = tmp_path / "scenario.yaml"
    path.write_text(yaml.safe_dump(scenario), encoding="utf-8")
    game = machango.MachangoGame(str(path), (), 0, None)
    game.apply({"type": "attack", "division": "c_heth_1", "target": "codori_farm"}, "csa")
    game.apply({"type": "end_turn"}, "csa")
    assert game.phase == "battle"
    return game


def _sent(page: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = page.evaluate("() => window.sent.splice(0)")
    return out


def _nearest_move(game: Any, seat: str, moves: list[dict[str, Any]]) -> dict[str, Any]:
    """The move that ends nearest an enemy unit, so that the battle comes to fire."""
    from gettysburg.machango.battle_hexes import distance
    foes = [u["hex"] for u in game.fight["units"].values()
            if u["side"] != seat and u["figures"] > 0]
    return min(moves, key=lambda a: min(distance(a["to"], h) for h in foes))


def test_the_battle_board_is_drawn_and_played_by_clicks(browser: Any, live: Any,
                                                         tmp_path: Path) -> None:
    game = _game(tmp_path)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live.url + "/")
    seat = game.to_move()[0]
    view = game.view(seat)
    battle = view["battle"]
    assert page.evaluate(HARNESS, [view, game.legal_actions(seat), seat]) is True
    # Every hex of the board, coloured by its terrain; every unit with its figures.
    hexes = page.eval_on_selector_all("#battle-test polygon.bhex", "els => els.map(e => "
                                      "[e.dataset.hex, e.getAttribute('class')])")
    assert sorted(h for h, _ in hexes) == sorted(battle["board"]["hexes"])
    for h, cls in hexes:
        assert f"t-{battle['board']['hexes'][h]['terrain']}" in cls
    fills = page.eval_on_selector_all("#battle-test polygon.bhex",
                                      "els => els.map(e => e.getAttribute('fill'))")
    assert len(set(fills)) > 3  # terrains and heights, not one tone
    drawn = page.eval_on_selector_all("#battle-test g.bunit", "els => els.map(e => "
                                      "[e.dataset.unit, e.dataset.side, Number(e.dataset.figures), "
                                      "e.querySelectorAll('circle.figure').length, "
                                      "e.querySelector('rect').getAttribute('fill')])")
    units = battle["units"]
    assert sorted(d[0] for d in drawn) == sorted(u for u, x in units.items() if x["figures"] > 0)
    for uid, side, figures, dots, _ in drawn:
        assert side == units[uid]["side"] and figures == units[uid]["figures"] == dots
    assert len({fill for *_, fill in drawn}) == 2  # a colour a side
    # The own hand as buttons, the other side's as a count.
    own = page.eval_on_selector_all(f"#battle-test .hand.own[data-side={seat}] button.battle-card",
                                    "els => els.map(e => e.dataset.card)")
    assert own == battle["hands"][seat]
    other = next(s for s in battle["hands"] if s != seat)
    assert str(battle["hands"][other]) in page.inner_text(f"#battle-test .hand[data-side={other}]")

    # Fight: each action chosen by clicking, applied to the game, the view drawn again.
    kinds: list[str] = []
    for _ in range(40):
        seat = game.to_move()[0]
        legal = game.legal_actions(seat)
        view = game.view(seat)
        page.evaluate(HARNESS, [view, legal, seat])
        fires = [a for a in legal if a["type"] == "battle_fire"]
        moves = [a for a in legal if a["type"] == "battle_move"]
        orders = [a for a in legal if a["type"] == "battle_order"]
        cards = [a for a in legal if a["type"] == "battle_card"]
        if fires:
            want = fires[0]
            page.click(f"#battle-test g.bunit[data-unit='{want['unit']}']")
            # The targets it may fire at are marked with their dice.
            targets = page.eval_on_selector_all("#battle-test g.bunit.target",
                                                "els => els.map(e => e.dataset.unit)")
            assert sorted(targets) == sorted(
                o["target"] for o in view["battle"]["fire_options"] if o["unit"] == want["unit"])
            page.click(f"#battle-test g.bunit[data-unit='{want['target']}']")
        elif moves:
            want = _nearest_move(game, seat, moves)
            page.click(f"#battle-test g.bunit[data-unit='{want['unit']}']")
            lit = page.eval_on_selector_all("#battle-test polygon.bhex.dest",
                                            "els => els.map(e => e.dataset.hex)")
            assert sorted(lit) == sorted(a["to"] for a in moves if a["unit"] == want["unit"])
            page.click(f"#battle-test polygon.bhex[data-hex='{want['to']}']", force=True)
        elif orders:  # from the keyboard: a unit one can order is a Tab stop
            want = orders[0]
            page.focus(f"#battle-test g.bunit[data-unit='{want['unit']}']")
            page.keyboard.press("Enter")
        elif cards:
            want = cards[0]
            page.click(f"#battle-test button.battle-card[data-card='{want['card']}']")
        else:  # only "done" (the action list's button, not the board's)
            game.apply(legal[-1], seat)
            continue
        assert _sent(page) == [want]
        before = game.state_hash()
        game.apply(want, seat)
        assert game.state_hash() != before
        kinds.append(want["type"])
        if want["type"] == "battle_fire":
            break
    assert {"battle_card", "battle_order", "battle_move", "battle_fire"} <= set(kinds), kinds
    # A click on a card the rules do not allow now sends nothing.
    seat = game.to_move()[0]
    view = game.view(seat)
    page.evaluate(HARNESS, [view, game.legal_actions(seat), seat])
    disabled = page.eval_on_selector_all("#battle-test button.battle-card[disabled]",
                                         "els => els.length")
    playable = {a.get("card") for a in game.legal_actions(seat) if a["type"] == "battle_card"}
    hand = view["battle"]["hands"][seat]
    assert disabled == sum(1 for c in hand if c not in playable)
    assert not errors, errors
    context.close()


def _state(url: str, game_id: str, token: str) -> dict[str, Any]:
    r = httpx.get(f"{url}/api/games/{game_id}", headers={"Authorization": f"Bearer {token}"})
    r.raise_for_status()
    out: dict[str, Any] = r.json()
    return out


def test_a_game_at_nightfall_shows_its_battle_in_the_maps_place(browser: Any, live: Any) -> None:
    """The campaign (seed 1) played over the API by two people, attacking whenever it can
    and else ending the turn, until a battle is fought; then the seat to move plays a card
    by clicking it on the game page."""
    systems = httpx.get(f"{live.url}/api/systems").json()["systems"]
    info = next((s for s in systems if s["name"] == "machango"), None)
    if info is None:
        pytest.skip("Mundo Machango is not registered")
    r = httpx.post(f"{live.url}/api/games", timeout=60, json={
        "system": "machango", "scenario": next(iter(info["scenarios"])), "seed": "1",
        "seats": {seat: {"kind": "human"} for seat in info["seats"]}})
    assert r.status_code == 201, r.text
    game_id = r.json()["game_id"]
    seats = {s: v for s, v in r.json()["seats"].items()}
    tokens = {s: v["token"] for s, v in seats.items()}
    for n in range(200):
        state = _state(live.url, game_id, next(iter(tokens.values())))
        if state["view"].get("phase") == "battle":
            break
        seat = state["to_move"][0]
        legal = _state(live.url, game_id, tokens[seat])["legal"]
        pick = next((a for a in legal if a["type"] == "attack"), None) or next(
            (a for a in legal if a["type"] == "end_turn"), legal[-1])
        httpx.post(f"{live.url}/api/games/{game_id}/actions",
                   json={"action": pick, "action_id": f"m{n}"},
                   headers={"Authorization": f"Bearer {tokens[seat]}"}).raise_for_status()
    else:
        raise AssertionError("no battle was fought")
    for n in range(10):  # a general's choice before the cards (Ewell's) is made over the API
        seat = _state(live.url, game_id, next(iter(tokens.values())))["to_move"][0]
        legal = _state(live.url, game_id, tokens[seat])["legal"]
        if any(a["type"] == "battle_card" for a in legal):
            break
        httpx.post(f"{live.url}/api/games/{game_id}/actions",
                   json={"action": legal[0], "action_id": f"b{n}"},
                   headers={"Authorization": f"Bearer {tokens[seat]}"}).raise_for_status()
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(live.url + seats[seat]["link"])
    page.wait_for_selector("#battle g.bunit")
    assert page.is_hidden("#board") and page.is_visible("#battle svg.battle-map")
    mine = _state(live.url, game_id, tokens[seat])
    battle = mine["view"]["battle"]
    assert page.locator("#battle polygon.bhex").count() == len(battle["board"]["hexes"])
    if os.environ.get("BATTLE_SHOT"):
        page.screenshot(path=os.environ["BATTLE_SHOT"])
    # Play the card the actions list offers first: the server takes it, and the page,
    # told over its channel, heads the battle with the card in play.
    card = next(a for a in mine["legal"] if a["type"] == "battle_card")
    page.click(f"#battle button.battle-card[data-card='{card['card']}']")
    words = httpx.get(f"{live.url}/api/i18n/en").json()  # the card's name as the page says it
    named = words.get(f"card.{card['card']}", card["card"].replace("_", " "))
    page.wait_for_function("c => document.querySelector('#battle .battle-facts')"
                           ".textContent.includes(c)", arg=named)
    after = _state(live.url, game_id, tokens[seat])
    assert after["step"] == mine["step"] + 1
    assert after["view"]["battle"]["card"] == card["card"]
    assert not errors, errors
    context.close()
