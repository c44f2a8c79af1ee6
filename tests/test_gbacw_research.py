"""GBACW through the research adapters (issue 54): its hooks' promises (an id block per
declared action type, ids distinct and in range, an undeclared type refused naming it, a
tensor from the seat's view only, forks that play on as the original), OpenSpiel's
random_sim_test, pickles and observers on gbacw/herr-ridge, and PettingZoo's api_test
and seed_test."""

from __future__ import annotations

import pickle
import random

import pytest

from gettysburg import systems
from gettysburg.core.protocol import new_game, research_hooks
from gettysburg.gbacw.actions import ACTION_ORDER
from gettysburg.gbacw.game import GbacwGame
from gettysburg.gbacw.research import CAPACITY, LARGE, encode_list, hooks, layout
from gettysburg.interop import SCENARIOS

HOOKS = hooks()
SPEC = "gbacw/herr-ridge"
#: Decisions a random OpenSpiel/PettingZoo game is cut at (the orders and first activations).
DECISIONS = 30


def _game(seed: int = 0) -> GbacwGame:
    game = new_game(SPEC, seed=seed)
    assert isinstance(game, GbacwGame)
    return game


def _play(game: GbacwGame, rng: random.Random, steps: int) -> list[list[dict[str, object]]]:
    seen = []
    for _ in range(steps):
        if game.is_terminal():
            break
        seat = game.to_move()[0]
        legal = game.legal_actions(seat)
        seen.append(legal)
        game.apply(rng.choice(legal), seat)
    return seen


# --- registry and codec -----------------------------------------------------------------------


def test_gbacw_is_served_through_its_declaration() -> None:
    research = systems.get("gbacw").research
    assert research is not None and research() is research_hooks("gbacw") is HOOKS
    assert {f"gbacw/{s}" for s in systems.get("gbacw").menu().scenarios} <= set(SCENARIOS)


def test_every_declared_type_has_a_block_and_the_blocks_tile_the_space() -> None:
    assert list(layout()) == list(ACTION_ORDER)
    first = 0
    for kind, (start, n) in layout().items():
        assert start == first and n == LARGE.get(kind, CAPACITY), kind
        first += n
    assert HOOKS.action_space_size(_game()) == first


def test_ids_are_distinct_in_range_and_in_their_types_block() -> None:
    game, size = _game(2), HOOKS.action_space_size(_game(2))
    for legal in _play(game, random.Random(2), 60):
        ids = HOOKS.encode_actions(game, legal)
        assert len(set(ids)) == len(ids) and all(0 <= i < size for i in ids)
        for i, action in zip(ids, legal, strict=True):
            start, n = layout()[str(action["type"])]
            assert start <= i < start + n


def test_an_undeclared_type_or_a_full_block_is_refused_naming_it() -> None:
    with pytest.raises(ValueError, match="'teleport'"):
        encode_list([{"type": "teleport"}])
    too_many = [{"type": "rally", "unit": f"u{k}"} for k in range(CAPACITY + 1)]
    with pytest.raises(ValueError, match="'rally'"):
        encode_list(too_many)
    assert encode_list(too_many[:2]) == [layout()["rally"][0], layout()["rally"][0] + 1]


# --- observations: the seat's view only ---------------------------------------------------------


def test_observation_drops_the_legal_actions_and_keeps_the_fog() -> None:
    game = _game()
    obs = HOOKS.observation_json(game, "usa")
    assert "legal_actions" not in obs
    assert all(b["seat"] == "usa" for b in obs["brigades"].values())  # no enemy orders
    tensor = HOOKS.observation_tensor(game, "usa")
    assert len(tensor) == HOOKS.tensor_size(game)
    assert all(-100.0 <= x <= 100.0 for x in tensor)


def test_hidden_enemy_orders_and_off_map_counters_do_not_reach_the_tensor() -> None:
    """Two games differing in what the fog hides from the USA (a CSA brigade's orders and
    Reserve, a CSA counter not yet on the map) give the USA the same observation; the CSA
    sees the change (so the check can fail)."""
    one, two = _game(), HOOKS.fork(_game())
    assert isinstance(two, GbacwGame)
    brigade = next(b for b in two.pos.brigades.values() if b.seat == "csa")
    brigade.orders = "march" if brigade.orders != "march" else "attack"
    brigade.reserve = not brigade.reserve
    off = next(u for u in two.pos.units.values() if u.seat == "csa" and u.hex is None)
    off.disordered = not off.disordered
    for seat, same in (("usa", True), ("csa", False)):
        a = (HOOKS.observation_json(one, seat), HOOKS.observation_tensor(one, seat),
             HOOKS.render_text(one, seat))
        b = (HOOKS.observation_json(two, seat), HOOKS.observation_tensor(two, seat),
             HOOKS.render_text(two, seat))
        assert (a[0] == b[0]) is same and (a[2] == b[2]) is True


def test_a_fork_plays_on_as_the_original() -> None:
    game = _game(4)
    _play(game, random.Random(4), 25)
    twin = HOOKS.fork(game)
    assert isinstance(twin, GbacwGame) and twin.state_hash() == game.state_hash()
    rng_a, rng_b = random.Random(9), random.Random(9)
    _play(game, rng_a, 25)
    assert twin.state_hash() != game.state_hash() or game.is_terminal()
    _play(twin, rng_b, 25)
    assert twin.state_hash() == game.state_hash()
    assert HOOKS.standing(game) in (-0.5, 0.0, 0.5, -1.0, 1.0)
    assert HOOKS.turn(twin) == HOOKS.turn(game) >= 0


# --- OpenSpiel -----------------------------------------------------------------------------------


def test_openspiel_random_sim_test_pickles_and_observers() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    adapter = pytest.importorskip("gettysburg.interop.openspiel")
    game = adapter.load(SPEC, max_decisions=DECISIONS)
    assert game.get_type().short_name == "python_gbacw_herr-ridge"
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)
    state, rng = game.new_initial_state(), random.Random(1)
    for _ in range(12):
        state.apply_action(rng.choice(state.legal_actions()))
    again = pickle.loads(pickle.dumps(state))
    assert str(again) == str(state) and again.legal_actions() == state.legal_actions()
    assert pickle.loads(pickle.dumps(game)).get_type().short_name == "python_gbacw_herr-ridge"
    observer = game.make_py_observer()
    for player in (0, 1):
        observer.set_from(state, player)
        assert len(observer.tensor) == HOOKS.tensor_size(state.engine)
        assert observer.string_from(state, player)
    assert state.information_state_string(0) != state.information_state_string(1)


# --- PettingZoo ----------------------------------------------------------------------------------


def test_pettingzoo_api_test() -> None:
    pytest.importorskip("pettingzoo")
    pz = pytest.importorskip("gettysburg.interop.pettingzoo")
    from pettingzoo.test import api_test, seed_test

    api_test(pz.env(SPEC, max_decisions=DECISIONS), num_cycles=DECISIONS)
    seed_test(lambda **kw: pz.env(SPEC, max_decisions=12, **kw), num_cycles=8)
