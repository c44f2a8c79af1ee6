"""The BoC view's command-range overlay data (4.5): own HQs only, from the engine's rule."""

from __future__ import annotations

from gettysburg.boc.command import command_range
from gettysburg.boc.game import BocGame
from gettysburg.core.protocol import new_game


def test_each_seat_gets_the_ranges_of_its_own_hqs_only() -> None:
    game = new_game("boc/day2", seed=3)
    assert isinstance(game, BocGame)
    for seat, enemy in (("usa", "csa"), ("csa", "usa")):
        ranges = game.view(seat)["command_ranges"]
        assert ranges and all(hq.startswith(seat + "-") for hq in ranges)
        assert not any(hq.startswith(enemy + "-") for hq in ranges)
        for hq, hexes in ranges.items():
            expected = command_range(game.board, game.state, game.orders, hq)
            assert hexes == sorted(expected)
            assert game.state.units[hq].hex in hexes


def test_meade_reaches_three_hexes_through_non_enemy_ground() -> None:
    game = new_game("boc/day2", seed=3)
    hexes = game.view("usa")["command_ranges"]["usa-meade"]
    assert "L4" in hexes  # Meade's own hex (Day 2 set-up)
    assert len(hexes) > 19  # range 3 (8.0 example): more than a radius-2 disc holds
