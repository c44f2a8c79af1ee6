"""``GbacwGame.legal_sequence`` (the protocol's lazy legal list, issue 59): exactly the
actions of ``legal_actions``, in its order, each item read the caller's own."""

from __future__ import annotations

import random

import pytest

from gettysburg.ai import make_agent
from gettysburg.gbacw.game import GbacwGame
from gettysburg.gbacw.legal_list import LegalList

WEIGHTS = {"move": 4, "move_leader": 2, "move_commander": 2, "end_commanders": 4,
           "fire": 3, "end_activation": 2, "end_brigade": 2}


@pytest.mark.parametrize(("scenario", "seed", "steps", "lazy"), [
    ("little-round-top", 4, 160, {"move", "move_leader", "move_commander"}),
    ("herr-ridge", 5, 120, {"move", "move_leader"})])
def test_sequence_is_the_legal_list(scenario: str, seed: int, steps: int,
                                    lazy: set[str]) -> None:
    """At every decision of a weighted random game (orders, commanders, activations with
    moves and leaders' moves): the same length and items in the same order, read by
    index (from either end), by slice and by iteration; the other seat's is empty."""
    g = GbacwGame(scenario, seed=seed)
    r = random.Random(seed)
    lazy_kinds: set[str] = set()
    for _ in range(steps):
        if g.is_terminal():
            break
        seat = g.to_move()[0]
        legal = g.legal_actions(seat)
        seq = g.legal_sequence(seat)
        assert isinstance(seq, LegalList)
        assert len(seq) == len(legal)
        assert list(seq) == legal
        assert seq.to_list() == legal
        if legal:
            i = r.randrange(len(legal))
            assert seq[i] == legal[i] and seq[i - len(legal)] == legal[i]
            assert seq[i:i + 7] == legal[i:i + 7]
            with pytest.raises(IndexError):
                seq[len(legal)]
        other = "csa" if seat == "usa" else "usa"
        assert len(g.legal_sequence(other)) == 0 == len(g.legal_actions(other))
        lazy_kinds |= {a["type"] for a in legal} & {"move", "move_leader", "move_commander"}
        kinds = sorted({a["type"] for a in legal})
        kind = r.choice([k for k in kinds for _ in range(WEIGHTS.get(k, 1))])
        g.apply(r.choice([a for a in legal if a["type"] == kind]), seat)
    assert lazy_kinds == lazy, lazy_kinds  # the lazily made kinds were read


def test_items_read_are_the_callers_own() -> None:
    """Changing an item read (its nested facing too) changes no later read, nor the list
    made after it."""
    g = GbacwGame("little-round-top", seed=4)
    r = random.Random(4)
    while not any(a["type"] == "move" for a in g.legal_actions(g.to_move()[0])):
        seat = g.to_move()[0]
        legal = g.legal_actions(seat)
        g.apply(legal[r.randrange(len(legal))], seat)
    seat = g.to_move()[0]
    seq = g.legal_sequence(seat)
    legal = g.legal_actions(seat)
    for i, a in enumerate(list(seq)):
        assert a == legal[i]
        a["unit"] = "nobody"
        if isinstance(a.get("facing"), dict):
            a["facing"]["index"] = 99
    for i in range(len(seq)):
        got = seq[i]
        assert got == legal[i]
        got.clear()
    assert seq.to_list() == legal == list(seq)


def test_random_play_from_the_sequence_is_the_same_game() -> None:
    """The random agent drawing from the sequence plays the game it plays from the list
    (the lab's and the server's use): the same final state hash."""
    finals = []
    for lazy in (False, True):
        g = GbacwGame("little-round-top", seed=6)
        agent = make_agent("random", "6", "gbacw")
        rng = random.Random(6)
        for _ in range(200):
            if g.is_terminal():
                break
            seat = g.to_move()[0]
            legal = g.legal_sequence(seat) if lazy else g.legal_actions(seat)
            g.apply_unrecorded(agent.choose(g.view_summary(seat), legal, 1.0, rng), seat)
        finals.append(g.state_hash())
    assert finals[0] == finals[1]
