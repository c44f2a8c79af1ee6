"""The refusal note's reasons (gbacw/explain.py): a move put to the engine's check, its
refusal with its section; nothing for another seat's piece or a place off the sheets."""

from __future__ import annotations

import pytest

from gettysburg.gbacw.explain import explain
from gettysburg.gbacw.game import GbacwGame


@pytest.fixture(scope="module")
def game() -> GbacwGame:
    return GbacwGame("little-round-top", seed=1)


def test_a_move_in_the_orders_segment_is_refused_with_the_segment_s_section(
        game: GbacwGame) -> None:
    # 002 §3.0: units move in the activation segment, not while orders are given.
    why = explain(game, "csa", "CS-I:1 TX", "C2733")
    assert why is not None and why["rule"] == "3.0" and "action phase" in why["message"]


def test_not_the_seat_s_decision(game: GbacwGame) -> None:
    assert game.to_move() == ["csa"]
    union = next(k for k, u in game.pos.units.items() if u.seat == "usa" and u.hex)
    assert explain(game, "usa", union, "C1924") == {
        "rule": "3.0", "message": "it is not your decision now"}


def test_no_answer_for_another_seat_s_piece_or_a_place_off_the_sheets(game: GbacwGame) -> None:
    assert explain(game, "usa", "CS-I:1 TX", "C2733") is None  # not the Union's
    assert explain(game, "csa", "CS-I:1 TX", "Z9999") is None  # no such hex
    assert explain(game, "csa", "nobody", "C2733") is None
    assert explain(game, "usa", "hood", "C2733") is None  # a Confederate leader
