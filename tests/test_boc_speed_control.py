"""Session 47 (issue 59): ``control.compute_control`` works out 6.61 in one pass over the
occupied hexes' neighbours; it must be :func:`control.control_of`'s answer, sorted, for
any placement of the blocks."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from gettysburg.ai import make_agent
from gettysburg.boc.control import compute_control, control_of, index, occupied_by
from gettysburg.boc.game import BocGame
from gettysburg.boc.state import ON_MAP
from gettysburg.core.protocol import new_game


def _as_control_of(game: BocGame) -> dict[str, str]:
    return dict(sorted(control_of(occupied_by(game.state), index(game.board).nbrs).items()))


def _day1(seed: str) -> BocGame:
    game = new_game("boc/day1", seed=seed)
    assert isinstance(game, BocGame)
    return game


def test_control_in_random_day1_play() -> None:
    game = _day1("control-play")
    agent, rng = make_agent("random", 0), random.Random(2)
    for _ in range(300):
        if game.is_terminal():
            break
        assert compute_control(game.board, game.state) == _as_control_of(game)
        seat = game.to_move()[0]
        game.apply_unrecorded(agent.choose({}, game.legal_sequence(seat), 1.0, rng), seat)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_control_of_blocks_placed_at_random(data: st.DataObject) -> None:
    """Blocks of both sides put anywhere (stacked, side by side, on the edge)."""
    game = _day1("control-placed")
    hexes = sorted(index(game.board).nbrs)
    units = sorted(game.state.units)
    for uid in data.draw(st.lists(st.sampled_from(units), max_size=60, unique=True)):
        u = game.state.units[uid]
        u.status, u.hex = ON_MAP, data.draw(st.sampled_from(hexes))
    got = compute_control(game.board, game.state)
    assert got == _as_control_of(game)
    assert list(got) == sorted(got)
