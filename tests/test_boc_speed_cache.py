"""Issue 59: the engine's speed memos change no answer.

Legal actions are compared, position after position of random Day 1 games, with those of
a fresh copy of the same position whose memos (and the board's reach and front-line
caches) start empty; and a recorded Day 1 game replays to the state hash it had before
the memos existed.
"""

from __future__ import annotations

import pickle
import random

import pytest

from gettysburg.ai import make_agent
from gettysburg.boc.control import front_line, index
from gettysburg.boc.game import BocGame
from gettysburg.boc.movement import graph
from gettysburg.core.protocol import new_game

#: A Day 1 game of two random agents, seed "speed-replay", played by ``apply`` with the
#: engine as it was before the memos (commit 4af7ca4): its length and final state hash.
REPLAY_ACTIONS = 782
REPLAY_HASH = "3da1074e7615bad20e13c31e4c15c4bce3ff146eb80ab0f726d61296b9d87506"


def uncached(game: BocGame) -> BocGame:
    """The same position with every memo empty (the board's caches emptied too)."""
    fresh = BocGame.from_json(game.to_json())
    graph(fresh.board).reach_cache.clear()
    index(fresh.board).front_memo.clear()
    return fresh


@pytest.mark.parametrize("seed", ["cache-1", "cache-2"])
def test_legal_actions_same_with_and_without_memos(seed: str) -> None:
    game = new_game("boc/day1", seed=seed)
    assert isinstance(game, BocGame)
    agents = {s: make_agent("random", 0) for s in game.seats()}
    rng = random.Random(seed)
    compared = steps = 0
    while not game.is_terminal() and steps < 500:
        seat = game.to_move()[0]
        legal = game.legal_actions(seat)
        if steps % 5 == 0:
            fresh = uncached(game)
            assert fresh.legal_actions(seat) == legal, f"step {steps}"
            assert fresh.view(seat) == game.view(seat), f"step {steps}"
            compared += 1
        game.apply_unrecorded(agents[seat].choose(game.view(seat), legal, 1.0, rng), seat)
        steps += 1
    assert compared >= 60


def test_legal_actions_are_fresh_dicts() -> None:
    """A caller changing an action's top-level fields changes no later answer."""
    game = new_game("boc/day1", seed="fresh")
    seat = game.to_move()[0]
    while game.view(seat)["phase"] != "movement":
        game.apply({"type": "end_phase"}, seat)
        seat = game.to_move()[0]
    first = game.legal_actions(seat)
    moves = [a for a in first if a["type"] == "move"]
    assert moves
    expected = [dict(a) for a in game.legal_actions(seat)]
    for a in first:
        a["unit"] = "changed"
    assert game.legal_actions(seat) == expected


def test_day1_replays_to_the_same_hash_as_before() -> None:
    game = new_game("boc/day1", seed="speed-replay")
    agents = {s: make_agent("random", 0) for s in game.seats()}
    rng = random.Random("speed-replay")
    while not game.is_terminal():
        seat = game.to_move()[0]
        game.apply(agents[seat].choose(game.view(seat), game.legal_actions(seat), 1.0, rng),
                   seat)
    assert len(game.history) == REPLAY_ACTIONS
    assert game.state_hash() == REPLAY_HASH


def test_front_line_memo_answers_as_computed() -> None:
    """6.62: the memo's answer equals the front line worked out afresh, for both sides."""
    game = new_game("boc/day2", seed="front")
    assert isinstance(game, BocGame)
    for side in ("usa", "csa"):
        kept = front_line(game.board, game.state, side)
        index(game.board).front_memo.clear()
        assert front_line(game.board, game.state, side) == kept
        enemy = {u.hex for u in game.state.units.values()
                 if u.side != side and u.status == "on_map" and u.hex is not None}
        nbrs = index(game.board).nbrs
        assert kept == {n for h in enemy for n in nbrs[h] if n not in enemy}


def test_pickled_game_leaves_memos_behind() -> None:
    game = new_game("boc/day1", seed="pickle")
    seat = game.to_move()[0]
    game.view(seat)
    back = pickle.loads(pickle.dumps(game))
    assert back.state_hash() == game.state_hash()
    assert back.legal_actions(seat) == game.legal_actions(seat)
    assert "_enter_memo" not in back.__dict__ and "_range_memo" not in back.__dict__
