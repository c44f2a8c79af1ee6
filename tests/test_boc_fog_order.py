"""Fog of war reaches the *order* of what a seat is shown, not only its content.

Two positions that differ only in which hidden enemy block stands where must give the seat
the same view (up to the opaque handles) and the same legal actions **in the same order**:
an agent breaks ties by position in the list, and the order itself could otherwise tell the
enemy's ids apart. A game resumed from its save must also list its actions exactly as the
live game did, so an AI seat decides the same after a server restart.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from gettysburg.ai import make_agent
from gettysburg.core.protocol import Game, load_game, new_game

# Every field of a block's state but its identity: exchanging them between two hidden
# blocks changes only which unit stands where, which the other seat cannot see.
_IDENTITY = {"id", "side"}


def _key(a: Any) -> str:
    return json.dumps(a, sort_keys=True)


def _hidden_pairs(game: Game, seat: str) -> list[tuple[str, str]]:
    units = game.to_json()["position"]["units"]
    shown = {u["id"] for u in game.view(seat)["units"]}
    hidden = sorted(uid for uid, u in units.items() if u["side"] != seat
                    and u["status"] == "on_map" and uid not in shown)
    return [(a, b) for i, a in enumerate(hidden) for b in hidden[i + 1:]
            if units[a]["hex"] != units[b]["hex"]]


def _swapped(game: Game, a: str, b: str) -> Game:
    data = game.to_json()
    units = data["position"]["units"]
    ua, ub = units[a], units[b]
    for k in (set(ua) | set(ub)) - _IDENTITY:
        va, vb = ua.get(k), ub.get(k)
        for u, v in ((ua, vb), (ub, va)):
            if v is None:
                u.pop(k, None)
            else:
                u[k] = v
    return load_game(data)


def _without_handles(view: dict[str, Any]) -> str:
    hidden = sorted(_key({k: v for k, v in h.items() if k != "handle"})
                    for h in view.get("hidden", []))
    rest = {k: v for k, v in view.items() if k not in ("hidden", "legal_actions")}
    return _key({**rest, "hidden": hidden})


@pytest.mark.parametrize(("scenario", "seed"), [("boc/day1", 11), ("boc/day2", 12),
                                                ("boc/day3", 13)])
def test_hidden_identities_change_neither_the_view_nor_the_order_of_legal_actions(
        scenario: str, seed: int) -> None:
    game = new_game(scenario, seed=seed)
    general, rng = make_agent("general"), random.Random(seed)
    checked = 0
    for step in range(400):
        if game.is_terminal():
            break
        seat = game.to_move()[0]
        if step % 40 == 0:
            pairs = _hidden_pairs(game, seat)
            if pairs:
                a, b = rng.choice(pairs)
                twin = _swapped(game, a, b)
                assert twin.state_hash() != game.state_hash()
                assert [_key(x) for x in twin.legal_actions(seat)] == \
                    [_key(x) for x in game.legal_actions(seat)], (step, a, b)
                assert _without_handles(twin.view(seat)) == _without_handles(game.view(seat))
                checked += 1
        view = game.view(seat)
        game.apply(general.choose(view, view["legal_actions"], 0.0, rng), seat)
    assert checked >= 3


@pytest.mark.parametrize("scenario", ["boc/day1", "boc/day3"])
def test_a_resumed_game_lists_its_actions_as_the_live_game(scenario: str) -> None:
    game = new_game(scenario, seed=5)
    rng = random.Random(5)
    for step in range(200):
        if game.is_terminal():
            break
        seat = game.to_move()[0]
        legal = game.legal_actions(seat)
        if step % 25 == 0:
            resumed = load_game(game.to_json())
            assert [_key(x) for x in resumed.legal_actions(seat)] == [_key(x) for x in legal]
        game.apply(rng.choice(legal), seat)


def test_blocks_shown_by_identity_carry_their_printed_name_and_hidden_ones_do_not() -> None:
    from gettysburg.boc.oob import default_oob

    game = new_game("boc/day1", seed=21)
    oob = default_oob()
    view = game.view("csa")
    own = {u["id"]: u for u in view["units"]}
    assert own["csa-heth"]["name"] == "Heth" and own["csa-heth"]["type"] == "dhq"
    assert all(u["name"] == oob[u["id"]].name for u in view["units"])
    assert view["hidden"] and all(set(h) == {"handle", "side", "hex", "column"}
                                  for h in view["hidden"])
    # A revealed enemy block is named as well: its identity is already shown.
    data = game.to_json()
    data["position"]["units"]["usa-calef"]["revealed"] = True
    shown = {u["id"]: u for u in load_game(data).view("csa")["units"]}
    assert shown["usa-calef"]["name"] == "Calef" and shown["usa-calef"]["strength"] >= 1
    assert {u["side"] for u in shown.values()} == {"csa", "usa"}


def _enemy(v: dict[str, Any], seat: str) -> str:
    """What a view shows of the seat's enemy, comparable as text."""
    return _key([sorted((u for u in v["units"] if u["side"] != seat), key=_key),
                 sorted((h for h in v["hidden"] if h["side"] != seat), key=_key),
                 v["fallen"], v["losses"]])


def test_learned_from_tells_a_move_from_a_sight_of_the_enemy() -> None:
    """``BocGame.learned_from`` (the server's undo against the computer): moving a block
    shows its player nothing new of the enemy; every move of a Day 1 game between generals
    is checked against the seat's view of the enemy before and after, and a block revealed
    or lost counts as learned."""
    game = new_game("boc/day1", seed=11)
    general, rng = make_agent("general"), random.Random(0)
    plain = learned = 0
    for _ in range(400):
        seat = game.to_move()[0]
        before = game.view(seat)
        action = general.choose(before, before["legal_actions"], 0.0, rng)
        game.apply(action, seat)
        after = game.view(seat)
        got = game.learned_from(seat, before, after)
        assert got == (_enemy(before, seat) != _enemy(after, seat)), action
        if action["type"] in ("move", "enter") and not got:
            plain += 1
        learned += bool(got)
    assert plain > 20 and learned > 0


def test_every_handle_has_the_shape_the_server_marks_and_no_unit_id_has_it() -> None:
    from gettysburg.boc.fog import fog_key, handle, is_handle
    from gettysburg.boc.oob import default_oob

    key = fog_key("42")
    ids = list(default_oob().units)
    assert all(is_handle(handle(key, uid)) and is_handle(handle(key, uid, 2)) for uid in ids)
    assert not any(is_handle(uid) for uid in ids)
    assert not is_handle("b-0123") and not is_handle("b-0123456789abc")
