"""A copy of a Machango game made through its canonical JSON (a save, an adapter's
serialised state, a search's clone) lists the legal actions in the game's own order, so
whoever picks "the i-th legal action" picks the same one in both."""

from __future__ import annotations

import json
import random

from gettysburg.core.canonical import canonical_json
from gettysburg.core.protocol import load_game, new_game


def test_a_copy_lists_the_legal_actions_in_the_games_order() -> None:
    game = new_game("machango/campaign", seed=3)
    rng = random.Random(2)
    for step in range(150):
        seat = game.to_move()[0]
        legal = game.legal_actions(seat)
        copy = load_game(json.loads(canonical_json(game.to_json())))
        assert copy.legal_actions(seat) == legal, f"step {step}"
        assert copy.state_hash() == game.state_hash()
        game.apply(rng.choice(legal), seat)
