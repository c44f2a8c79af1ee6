"""The GBACW state hash is written from kept parts (``questions.state_hash``: each unit's
canonical text kept while its fields stay the same) and must equal the protocol's own hash
of ``hash_material`` byte for byte: saves carry hashes, and old saves must verify."""

from __future__ import annotations

import random

from gettysburg.core.canonical import hash_json
from gettysburg.core.protocol import Game
from gettysburg.gbacw import questions
from gettysburg.gbacw.game import GbacwGame

WEIGHTS = {"fire": 6, "fire_split": 3, "return_fire": 4, "move": 4, "shock": 4,
           "end_activation": 1, "end_brigade": 1}


def protocol_hash(g: GbacwGame) -> str:
    return Game.state_hash(g)


def test_state_hash_equals_the_protocols_through_a_game() -> None:
    """Little Round Top at random (moves, fire and shock favoured): after every action the
    kept-text hash equals the protocol's, and the recorded chain is the protocol's."""
    g = GbacwGame("little-round-top", seed=3)
    r = random.Random(3)
    assert g.state_hash() == protocol_hash(g) == hash_json(g.hash_material())
    for _ in range(220):
        if g.is_terminal():
            break
        seat = g.to_move()[0]
        legal = g.legal_actions(seat)
        kinds = sorted({a["type"] for a in legal})
        kind = r.choice([k for k in kinds for _ in range(WEIGHTS.get(k, 2))])
        g.apply(r.choice([a for a in legal if a["type"] == kind]), seat)
        assert g.history[-1].state_hash == protocol_hash(g)
        assert g.state_hash() == protocol_hash(g)
    replayed = GbacwGame("little-round-top", seed=3)
    for move in g.history:  # the chain verifies as a save's would
        replayed.apply(move.action, move.seat)
        assert protocol_hash(replayed) == move.state_hash


def test_changes_made_in_place_change_the_hash() -> None:
    """A unit's list changed in place, a field set by hand, a unit gone and a position
    loaded: each time the kept texts give the protocol's hash, never a stale one."""
    g = GbacwGame("little-round-top", seed=1)
    first = g.state_hash()
    k = sorted(g.pos.units)[0]
    g.pos.units[k].fired.append("phasing")  # the same list object, new contents
    assert g.state_hash() == protocol_hash(g) != first
    g.pos.units[k].fired.clear()
    assert g.state_hash() == first
    g.pos.units[k].lost += 1
    assert g.state_hash() == protocol_hash(g) != first
    gone = g.pos.units.pop(k)
    assert g.state_hash() == protocol_hash(g)
    g.pos.units[k] = gone
    g.pos.units[k].lost -= 1
    assert g.state_hash() == first
    g.load_position(g.position_json())
    assert g.state_hash() == first


def test_a_state_holding_the_slot_text_falls_back() -> None:
    """A string of the state equal to the slot the hash writes parts into (no real state
    holds one) is hashed the protocol's way."""
    g = GbacwGame("little-round-top", seed=1)
    g.pos.tdg = {"note": questions._SLOT}
    assert g.state_hash() == protocol_hash(g)
    g.pos.tdg = {}
    g.pos.units[sorted(g.pos.units)[0]].abandoned = questions._SLOT
    assert g.state_hash() == protocol_hash(g)
