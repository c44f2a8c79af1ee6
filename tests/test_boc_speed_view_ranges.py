"""Issue 59, session 47 (the view): the command ranges kept per seat while its HQs stand
where they stood and the enemy hexes are the same, looking only at the HQs with a range
(``BocGame._command_ranges``, ``BocGame._ranged_hqs``).

Every seat's view must be the one built afresh, byte for byte, at every decision, and a
hand edit (an HQ moved) must show at once."""

from __future__ import annotations

import random

from gettysburg.ai import make_agent
from gettysburg.boc.game import BocGame
from gettysburg.core.canonical import canonical_json
from gettysburg.core.protocol import new_game

SEATS = ("usa", "csa", "referee")


def _game(scenario: str, seed: str) -> BocGame:
    game = new_game(scenario, seed=seed)
    assert isinstance(game, BocGame)
    return game


def test_every_seats_view_is_the_view_built_afresh_in_random_play() -> None:
    """Both seats' and the referee's views at every decision of a random Day 1 game
    against views of a twin that forgets its memos before each."""
    kept, fresh = _game("boc/day1", "units-1"), _game("boc/day1", "units-1")
    rng = random.Random(5)
    agent = make_agent("random", 0)
    views = 0
    for _ in range(220):
        if kept.is_terminal():
            break
        for seat in SEATS:
            fresh.forget_memos()
            assert canonical_json(kept.view(seat)) == canonical_json(fresh.view(seat)), \
                (kept.state.phase, seat)
            views += 1
        mover = kept.to_move()[0]
        action = agent.choose({}, kept.legal_sequence(mover), 1.0, rng)
        kept.apply_unrecorded(dict(action), mover)
        fresh.apply_unrecorded(dict(action), mover)
    assert views > 600
    assert kept.state_hash() == fresh.state_hash()


def test_the_ranged_hqs_are_the_hqs_with_a_command_range() -> None:
    """4.5: ``_command_ranges`` looks only at these; every HQ on the map with a range
    has its overlay."""
    game = _game("boc/day2", "units-3")
    oob = game.orders.oob
    hqs = game._ranged_hqs()
    assert list(hqs) == sorted(hqs)
    assert set(hqs) == {u.id for u in oob if game.orders.is_hq(u.id) and u.command_range}
    ranges = game._command_ranges("referee")
    assert set(ranges) == {uid for uid in hqs if uid in game.state.units
                           and game.state.units[uid].status == "on_map"}
    assert ranges
    # Kept per seat while the HQs stand where they stood: a hand move shows at once.
    uid = next(iter(ranges))
    hq = game.state.units[uid]
    hq.hex = next(u.hex for u in game.state.units.values()
                  if u.hex not in (None, hq.hex) and u.side == hq.side)
    moved = game._command_ranges("referee")
    fresh = _game("boc/day2", "units-3")
    fresh.state.units[uid].hex = hq.hex
    assert moved == fresh._command_ranges("referee")
    assert moved[uid] != ranges[uid]
