"""``Game.legal_sequence``'s contract (issue 59): a sequence's items are fixed when it is
made, so a sequence read after the game has moved on (a research adapter's clone reads the
sequence of the state it was cloned from) still lists that position's actions."""

from __future__ import annotations

import copy
import random

import pytest

from gettysburg.core.protocol import new_game


@pytest.mark.parametrize("scenario,steps", [("boc/day1", 120), ("gbacw/little-round-top", 25),
                                            ("toy/standard", 40)])
def test_a_sequence_read_later_lists_the_position_it_was_made_at(scenario: str,
                                                                 steps: int) -> None:
    game = new_game(scenario, seed=3)
    rng = random.Random(3)
    checked = 0
    for _ in range(steps):
        if game.is_terminal():
            break
        seat = game.to_move()[0]
        seq = game.legal_sequence(seat)
        listed = game.legal_actions(seat)
        action = copy.deepcopy(listed[rng.randrange(len(listed))])
        game.apply_unrecorded(action, seat)
        # Read only now, after the game moved on: the items of the position it was made at.
        assert list(seq) == listed
        checked += 1
    assert checked == steps or (checked >= 5 and game.is_terminal())
