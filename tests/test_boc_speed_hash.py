"""Issue 59: ``BocState.canonical_text`` (what ``BocGame.state_hash`` hashes) is the
canonical JSON of the position, byte for byte, whatever fields are set, with the units'
text put between the fields before and after "units" and the keys' text kept."""

from __future__ import annotations

import random

import pytest

from gettysburg.ai import make_agent
from gettysburg.boc.game import BocGame
from gettysburg.core.canonical import CanonicalError, canonical_json
from gettysburg.core.protocol import Game, new_game


def test_text_is_the_canonical_json_position_after_position() -> None:
    game = new_game("boc/day1", seed="hash-text")
    assert isinstance(game, BocGame)
    agents = {s: make_agent("random", 2) for s in game.seats()}
    rng = random.Random("hash-text")
    kinds: set[str] = set()
    while not game.is_terminal():  # a whole game: random play seldom fights
        st = game.state
        assert st.canonical_text() == canonical_json(st.to_json())
        kinds.update(k for k in ("fire", "melee") if getattr(st, k))
        seat = game.to_move()[0]
        game.apply_unrecorded(agents[seat].choose({}, game.legal_sequence(seat), 1.0, rng),
                              seat)
    assert kinds == {"fire", "melee"}  # positions with the optional fields were met
    assert game.state_hash() == Game.state_hash(game)


def test_fields_after_units_and_refusals() -> None:
    game = new_game("boc/day1", seed="hash-edge")
    assert isinstance(game, BocGame)
    st = game.state
    st.verdicts = [{"day": 1, "winner": None}]
    st.result = {"winner": "csa", "über": "ä"}  # sorts after "units", not ASCII
    st.over = True
    assert st.canonical_text() == canonical_json(st.to_json())
    st.control = {"A1": "csa", 2: "usa"}  # type: ignore[dict-item]
    with pytest.raises(CanonicalError):
        st.canonical_text()
