"""Issue 59: the ``enter`` actions of due units are listed lazily (``LegalActions``
entry chunks, ``Position.enter_listing``) and are the actions the engine listed before:
one per (entry hex, destination) of ``shared_enter_options``, sorted, right after the
moves, each the caller's own."""

from __future__ import annotations

import random

from gettysburg.ai import make_agent
from gettysburg.boc.control import front_line
from gettysburg.boc.game import BocGame
from gettysburg.core.protocol import Action, new_game


def _as_before(game: BocGame, seat: str) -> list[Action]:
    """The entries as the engine built them before the lazy chunks (commit cd03e53)."""
    st = game.state
    front, occ = front_line(game.board, st, seat), st.occupants()
    out: list[Action] = []
    for uid in sorted(st.units):
        u = st.units[uid]
        if u.side != seat or game.entry_problem(u) is not None:
            continue
        for (entry, _dest), (_c, path) in sorted(
                game.shared_enter_options(uid, front, occ).items()):
            out.append({"type": "enter", "unit": uid, "entry": entry, "path": list(path)})
    return out


def test_entries_are_the_ones_listed_before_in_their_place() -> None:
    game = new_game("boc/day1", seed="entries-1")
    assert isinstance(game, BocGame)
    agents = {s: make_agent("random", 0) for s in game.seats()}
    rng = random.Random(7)
    compared = 0
    for _ in range(500):
        if game.is_terminal():
            break
        seat = game.to_move()[0]
        seq = game.legal_sequence(seat)
        if game.state.phase == "movement" and game.decision() is None:
            listed = game.legal_actions(seat)
            types = [a["type"] for a in listed]
            entries = [a for a in listed if a["type"] == "enter"]
            assert entries == _as_before(game, seat)
            if entries:
                first = types.index("enter")
                assert all(t == "move" for t in types[first - 1:first]) or "move" not in types
                assert types[first:first + len(entries)] == ["enter"] * len(entries)
                k = first + len(entries) // 2
                assert seq[k] == listed[k] and list(seq)[k] == listed[k]
                compared += 1
        game.apply_unrecorded(agents[seat].choose({}, seq, 1.0, rng), seat)
    assert compared >= 20


def test_an_entry_handed_out_is_the_callers_own() -> None:
    game = new_game("boc/day1", seed="entries-2")
    assert isinstance(game, BocGame)
    agents = {s: make_agent("random", 0) for s in game.seats()}
    rng = random.Random(3)
    for _ in range(500):
        seat = game.to_move()[0]
        seq = game.legal_sequence(seat)
        at = next((i for i, a in enumerate(seq) if a["type"] == "enter"), None)
        if at is not None:
            break
        game.apply_unrecorded(agents[seat].choose({}, seq, 1.0, rng), seat)
    else:
        raise AssertionError("no entry offered in 500 decisions")
    item = seq[at]
    path = list(item["path"])
    item["path"].append("Z99")  # a careless caller
    seq[at]["path"].append("Z98")
    assert seq[at]["path"] == path
    assert game.legal_sequence(seat)[at]["path"] == path
    assert game.legal_actions(seat)[at]["path"] == path
