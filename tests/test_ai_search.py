"""Search: the belief sampler is consistent with the view, worlds are playable, and the
decision depends only on what the seat sees."""

from __future__ import annotations

import json
import random
from typing import Any

from gettysburg.ai import make_agent
from gettysburg.ai.belief_boc import candidates, determinise, sample_hidden, scenario_start
from gettysburg.ai.search import SearchAgent
from gettysburg.core.protocol import Game, new_game


def _played(spec: str, n: int, seed: int = 3, options: tuple[str, ...] = ()) -> Game:
    game = new_game(spec, seed=seed, options=options)
    general, rng = make_agent("general"), random.Random(0)
    for _ in range(n):
        seat = game.to_move()[0]
        view = game.view(seat)
        game.apply(general.choose(view, view["legal_actions"], 0.0, rng), seat)
    return game


def test_sample_gives_each_hidden_block_a_distinct_plausible_enemy() -> None:
    game = _played("boc/day2", 30)
    seat = game.to_move()[0]
    view = game.view(seat)
    start = scenario_start(view)
    pool = candidates(view, start)
    sample = sample_hidden(view, random.Random(1), start)
    assert set(sample.blocks) == {h["handle"] for h in view["hidden"]}
    ids = [uid for uid, _ in sample.blocks.values()]
    assert len(ids) == len(set(ids)) and set(ids) <= set(pool)
    shown = {u["id"] for u in view["units"]}
    assert not set(ids) & shown
    assert all(start["position"]["units"][uid]["side"] != seat for uid in ids)
    assert all(1 <= s <= 4 for _, s in sample.blocks.values())
    again = sample_hidden(view, random.Random(1), start)
    assert again == sample


def test_world_matches_what_the_seat_sees() -> None:
    game = _played("boc/day1", 25)
    seat = game.to_move()[0]
    view = game.view(seat)
    world = determinise(view, sample_hidden(view, random.Random(2)), random.Random(2))
    wview = world.view(seat)
    for key in ("day", "hour", "phase", "active", "control", "losses"):
        assert wview[key] == view[key]
    own = [u for u in view["units"] if u["side"] == seat]
    assert [u for u in wview["units"] if u["side"] == seat] == own
    assert sorted(h["hex"] for h in wview["hidden"]) == sorted(h["hex"] for h in view["hidden"])
    assert world.to_move() == game.to_move()
    # The world is a real game: it plays on.
    action = world.legal_actions(seat)[-1]
    world.apply(action, seat)


def _deploy_game(swap: bool) -> Game:
    game = new_game("boc/day3", options=["free_deployment"], seed=11)
    if swap:
        swaps = [a for a in game.legal_actions("usa") if a["type"] == "swap"]
        game.apply(swaps[len(swaps) // 3], "usa")
    game.apply({"type": "end_phase"}, "usa")
    return game


def _key(a: dict[str, Any]) -> str:
    return json.dumps(a, sort_keys=True)


def test_search_decides_the_same_whatever_the_hidden_identities() -> None:
    a, b = _deploy_game(False), _deploy_game(True)
    assert a.state_hash() != b.state_hash()
    searched = 0
    for _ in range(40):
        seat = a.to_move()[0]
        if seat != "csa" or searched >= 2:
            break
        va, vb = a.view(seat), b.view(seat)
        sa, sb = SearchAgent("1"), SearchAgent("1")
        ca = sa.choose(va, va["legal_actions"], 0.2, random.Random(5))
        cb = sb.choose(vb, vb["legal_actions"], 0.2, random.Random(5))
        assert _key(ca) == _key(cb)
        searched += sa.searched
        a.apply(ca, seat)
        b.apply(cb, seat)
    assert searched >= 1


def test_search_without_a_world_builder_plays_like_the_general() -> None:
    game = new_game("toy/standard", seed=1)
    seat = game.to_move()[0]
    view, legal = game.view(seat), game.legal_actions(seat)
    got = make_agent("search").choose(view, legal, 0.1, random.Random(0))
    assert got == make_agent("general").choose(view, legal, 0.1, random.Random(0))
