"""Issue 59, session 47 (the view): a seat's blocks kept from one view to the next
(``boc/units_memo.py``) and the HQs the command ranges look at (``BocGame._ranged_hqs``).

The kept lists must be ``fog.units_view``'s, byte for byte, for every seat at every
decision, whatever changed the blocks (an action, a hand edit, a new fog key)."""

from __future__ import annotations

import random

from gettysburg.ai import make_agent
from gettysburg.boc.fog import secret_key, units_view
from gettysburg.boc.game import BocGame
from gettysburg.boc.units_memo import kept_units_view
from gettysburg.core.canonical import canonical_json
from gettysburg.core.protocol import new_game

SEATS = ("usa", "csa", "referee")


def _game(scenario: str, seed: str) -> BocGame:
    game = new_game(scenario, seed=seed)
    assert isinstance(game, BocGame)
    return game


def _fresh_units(game: BocGame, seat: str) -> str:
    return canonical_json(list(units_view(game.key, game.state, seat, game._shown)))


def test_every_seats_kept_blocks_are_the_blocks_built_afresh_in_random_play() -> None:
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


def test_kept_blocks_see_a_hand_edit_and_a_new_fog_key() -> None:
    """The memo compares every block's fields, so it needs no ``forget_memos``: a block
    revealed or moved by hand, and a server's fog key, show at once."""
    game = _game("boc/day1", "units-2")
    memo, shown, hidden = kept_units_view(None, game.key, game.state, "usa",
                                          game.orders.oob, game._shown)
    assert canonical_json([shown, hidden]) == _fresh_units(game, "usa")
    enemy = next(u for u in game.state.units.values()
                 if u.side == "csa" and u.status == "on_map" and not u.revealed)
    enemy.revealed = True  # by hand
    memo, shown, hidden = kept_units_view(memo, game.key, game.state, "usa",
                                          game.orders.oob, game._shown)
    assert any(d["id"] == enemy.id for d in shown)
    assert canonical_json([shown, hidden]) == _fresh_units(game, "usa")
    enemy.revealed = False
    enemy.hex = next(u.hex for u in game.state.units.values()
                     if u.hex not in (None, enemy.hex))
    memo, shown, hidden = kept_units_view(memo, game.key, game.state, "usa",
                                          game.orders.oob, game._shown)
    assert canonical_json([shown, hidden]) == _fresh_units(game, "usa")
    # A shown block changed in its place, a hidden one moved (each keeps its kind).
    own = next(u for u in game.state.units.values() if u.side == "usa")
    own.strength += 1
    other = next(u for u in game.state.units.values()
                 if u.side == "csa" and u.status == "on_map" and not u.revealed
                 and u.id != enemy.id)
    other.hex = enemy.hex
    memo, shown, hidden = kept_units_view(memo, game.key, game.state, "usa",
                                          game.orders.oob, game._shown)
    assert any(d["id"] == own.id and d["strength"] == own.strength for d in shown)
    assert canonical_json([shown, hidden]) == _fresh_units(game, "usa")
    game.key = secret_key(b"server secret")
    memo, shown, hidden = kept_units_view(memo, game.key, game.state, "usa",
                                          game.orders.oob, game._shown)
    assert canonical_json([shown, hidden]) == _fresh_units(game, "usa")
    # Each dict handed out is the caller's own.
    shown[0]["strength"] = -1
    hidden[0]["hex"] = "nowhere"
    _, again, again_hidden = kept_units_view(memo, game.key, game.state, "usa",
                                             game.orders.oob, game._shown)
    assert again[0]["strength"] != -1 and again_hidden[0]["hex"] != "nowhere"


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
