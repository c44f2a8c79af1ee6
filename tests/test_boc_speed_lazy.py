"""Issue 59: the lazily built legal actions (``BocGame.legal_sequence``) are the list
``legal_actions`` gives, item for item, and every item handed out is the caller's own."""

from __future__ import annotations

import random

from gettysburg.ai import make_agent
from gettysburg.boc.game import BocGame
from gettysburg.boc.legal_list import LegalActions
from gettysburg.core.protocol import new_game


def test_sequence_matches_the_list_through_random_day1_positions() -> None:
    game = new_game("boc/day1", seed="lazy-1")
    assert isinstance(game, BocGame)
    agents = {s: make_agent("random", 0) for s in game.seats()}
    rng = random.Random("lazy-1")
    compared = steps = 0
    while not game.is_terminal() and steps < 300:
        seat = game.to_move()[0]
        seq = game.legal_sequence(seat)
        if steps % 4 == 0:
            listed = game.legal_actions(seat)
            assert len(seq) == len(listed), f"step {steps}"
            assert list(seq) == listed
            assert seq.to_list() == listed
            assert [seq[i] for i in range(len(seq))] == listed
            assert seq[-1] == listed[-1] and seq[1:4] == listed[1:4]
            other = "csa" if seat == "usa" else "usa"
            assert len(game.legal_sequence(other)) == len(game.legal_actions(other)) == 0
            compared += 1
        game.apply_unrecorded(agents[seat].choose({}, seq, 1.0, rng), seat)
        steps += 1
    assert compared >= 60


def test_items_handed_out_are_fresh() -> None:
    """Changing an item (its path too) changes neither the sequence nor a later answer."""
    game = new_game("boc/day1", seed="lazy-2")
    assert isinstance(game, BocGame)
    while game.state.phase != "movement":
        seat = game.to_move()[0]
        game.apply_unrecorded({"type": "end_phase"}, seat)
    seat = game.to_move()[0]
    seq = game.legal_sequence(seat)
    before = game.legal_actions(seat)
    k = next(i for i, a in enumerate(before) if a["type"] == "move")
    first = seq[k]
    first["path"].append("Z99")
    first["unit"] = "nobody"
    for a in seq:
        if a["type"] == "move":
            a["path"].clear()
    assert seq[k] == before[k]
    assert game.legal_actions(seat) == before


def test_out_of_range_and_empty() -> None:
    seq = LegalActions()
    assert len(seq) == 0 and list(seq) == [] and seq[0:3] == []
    seq.add([{"type": "end_phase"}])
    seq.add_moves("u", [["A1", "A2"]])
    assert seq[-2] == {"type": "end_phase"}
    assert seq[1] == {"type": "move", "unit": "u", "path": ["A1", "A2"]}
    for bad in (2, -3):
        try:
            seq[bad]
        except IndexError:
            continue
        raise AssertionError(f"index {bad} accepted")


def test_state_hash_is_the_protocol_hash() -> None:
    """BocGame.state_hash skips re-checking the position; the bytes hashed are the same
    as the protocol's generic hash of ``hash_material``, and the position is what
    ``json_copy`` made of it before (issue 59)."""
    from gettysburg.boc.state import plain_copy
    from gettysburg.core.canonical import json_copy
    from gettysburg.core.protocol import Game

    game = new_game("boc/day1", seed="lazy-hash")
    assert isinstance(game, BocGame)
    agents = {s: make_agent("random", 1) for s in game.seats()}
    rng = random.Random("lazy-hash")
    for step in range(200):
        seat = game.to_move()[0]
        if step % 10 == 0:
            assert game.state_hash() == Game.state_hash(game)
            data = game.position_json()
            assert data == json_copy(data)
            # Keys in json_copy's order (sorted), the units last, as before.
            assert list(data) == [*sorted(k for k in data if k != "units"), "units"]
        game.apply_unrecorded(agents[seat].choose({}, game.legal_sequence(seat), 1.0, rng),
                              seat)
    assert plain_copy({"b": (1, [2.5, None]), "a": {"z": True, "y": "x"}}) == \
        json_copy({"b": (1, [2.5, None]), "a": {"z": True, "y": "x"}})
    for bad in ({1: "x"}, {"a": {2}}, [object()]):
        try:
            plain_copy(bad)
        except TypeError:  # CanonicalError is a TypeError
            continue
        raise AssertionError(f"{bad!r} copied")
