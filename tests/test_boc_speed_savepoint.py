"""Issue 59, session 46: ``apply`` goes back by the system's own savepoint
(``Game.savepoint``); BoC's (``BocState.savepoint``) copies each unit's field values and
the other fields instead of encoding the position, and builds back the state that
``load_position`` of the position's JSON would build."""

from __future__ import annotations

import random
from dataclasses import fields

import pytest

from gettysburg.ai import make_agent
from gettysburg.boc.game import BocGame
from gettysburg.boc.state import _FLAT_DICTS, _FLAT_LISTS, _SCALARS, BocState
from gettysburg.core.protocol import Action, Event, RuleError, Seat, new_game


def _same(a: BocState, b: BocState) -> None:
    """Equal field for field, units and dict keys in the same order."""
    assert a == b
    assert list(a.units) == list(b.units)
    for f in fields(BocState):
        x, y = getattr(a, f.name), getattr(b, f.name)
        if isinstance(x, dict):
            assert list(x) == list(y), f.name


def test_savepoints_build_back_the_loaded_position_through_random_play() -> None:
    """Day 1, random agents, recorded: at every fifth position the savepoint, called
    after the game went on, builds the state the position's JSON loads to; the fields
    copied shallowly hold strings and numbers only."""
    game = new_game("boc/day1", seed="savepoint-1")
    assert isinstance(game, BocGame)
    agents = {s: make_agent("random", 0) for s in game.seats()}
    rng = random.Random(5)
    checked = 0
    for step in range(400):
        if game.is_terminal():
            break
        seat = game.to_move()[0]
        if step % 5 == 0:
            snapshot = game.position_json()
            back = game.state.savepoint()
            for name in _FLAT_DICTS:
                assert all(isinstance(v, _SCALARS) for v in getattr(game.state, name).values())
            for name in _FLAT_LISTS:
                assert all(isinstance(v, _SCALARS) for v in getattr(game.state, name))
        game.apply(agents[seat].choose({}, game.legal_sequence(seat), 1.0, rng), seat)
        if step % 5 == 0:
            first = back()
            _same(first, BocState.from_json(snapshot))
            assert first.canonical_text() == BocState.from_json(snapshot).canonical_text()
            second = back()  # a new state each time: nothing shared with the first
            uid = next(iter(first.units))
            assert second.control is not first.control
            assert second.units[uid] is not first.units[uid]
            checked += 1
    assert checked > 50


def test_an_execute_failing_half_way_leaves_the_game_as_it_was(
        monkeypatch: pytest.MonkeyPatch) -> None:
    game = new_game("boc/day1", seed="savepoint-2")
    assert isinstance(game, BocGame)
    while game.state.phase != "movement":
        game.apply({"type": "end_phase"}, game.to_move()[0])
    seat: Seat = game.to_move()[0]
    move: Action = next(a for a in game.legal_actions(seat) if a["type"] == "move")
    before, text = game.state_hash(), game.state.canonical_text()
    real = BocGame.execute

    def half_way(g: BocGame, action: Action, s: Seat) -> list[Event]:
        real(g, action, s)  # the block has moved...
        g.state.control.clear()
        raise RuleError("test", "...and then something failed")

    monkeypatch.setattr(BocGame, "execute", half_way)
    with pytest.raises(RuleError):
        game.apply(move, seat)
    assert game.state_hash() == before and game.state.canonical_text() == text
    monkeypatch.undo()
    game.apply(move, seat)  # and the game goes on from there
    assert game.state.units[move["unit"]].hex == move["path"][-1]
