"""Random events (004 §18.0): the marker, who rolls, all 40 cells of the table, and every
letter's effect function on a small record."""

from __future__ import annotations

import datetime as dt
import random

import pytest

from gettysburg.core.dice import ScriptedDice
from gettysburg.core.protocol import RuleError
from gettysburg.gbacw import random_events as re_
from gettysburg.gbacw.charts import all_charts

# The 004 §18.0 grid as printed: rows = second die 0-9, columns = first die 0-1/2-4/5-7/8-9.
GRID = ["BAAA", "CBCC", "ECDD", "FDEF", "GEJJ", "HFKK", "IGML", "KHNN", "PIOQ", "SKQR"]
COLUMNS = [(0, 1), (2, 4), (5, 7), (8, 9)]
CELLS = [(col, row) for row in range(10) for col in range(4)]


@pytest.mark.parametrize(("col", "row"), CELLS)
def test_each_of_the_40_cells_004_18(col: int, row: int) -> None:
    """Every die value of the cell's column gives the printed letter."""
    lo, hi = COLUMNS[col]
    for first in range(lo, hi + 1):
        assert re_.letter_for(first, row) == GRID[row][col]


def test_every_letter_a_to_s_is_reachable_and_has_an_effect() -> None:
    letters = {ch for row in GRID for ch in row}
    assert letters == set("ABCDEFGHIJKLMNOPQRS")
    assert set(re_.EFFECTS) == letters
    assert {e.letter for e in all_charts().random_events.events} == letters


def test_repeatable_letters_follow_the_seed() -> None:
    """004 marks A B D E F G I K L N O P S 'MOMTO'; the others happen once."""
    rep = {e.letter for e in all_charts().random_events.events if e.repeatable}
    assert rep == set("ABDEFGIKLNOPS")


def test_marker_in_pool_from_1_july_1000_not_at_night() -> None:
    assert not re_.marker_in_pool(dt.date(1863, 7, 1), 9, "day")
    assert re_.marker_in_pool(dt.date(1863, 7, 1), 10, "day")
    assert not re_.marker_in_pool(dt.date(1863, 7, 2), 1, "night")
    assert re_.marker_in_pool(dt.date(1863, 7, 2), 5, "dawn")
    assert not re_.marker_counts(drawn_last=True) and re_.marker_counts(drawn_last=False)


@pytest.mark.parametrize(("who", "seat"), [(0, "usa"), (2, "usa"), (3, "csa"), (5, "csa"),
                                           (6, None), (9, None)])
def test_who_rolls(who: int, seat: str | None) -> None:
    d = re_.resolve(who, 0, 0)
    assert d.seat == seat
    assert (d.letter is None) == (seat is None)


def test_once_only_and_not_applicable() -> None:
    # H (first 0, row 5) is no event for the Union, an event for the Confederates
    assert re_.resolve(0, 0, 5).letter is None
    assert re_.resolve(3, 0, 5).letter == "H"
    # M (first 5, row 6) happens once; A repeats
    assert re_.resolve(0, 5, 6, frozenset("M")).letter is None
    assert re_.resolve(0, 5, 0, frozenset("A")).letter == "A"


def test_draw_event_rolls_three_d10_or_one() -> None:
    d = re_.draw_event(ScriptedDice([4, 8, 9], die="d10"))
    assert (d.seat, d.letter) == ("csa", "R")
    dice = ScriptedDice([7], die="d10")
    assert re_.draw_event(dice).seat is None and dice.remaining == 0


def test_a_finish_last() -> None:
    assert re_.finish_last(["b1", "b2"]) == "b2" and re_.finish_last([]) is None


def test_c_flashman() -> None:
    assert [re_.flashman_use(r) for r in range(10)] == (
        ["lead-shock"] * 3 + ["inspect-ams"] * 3 + ["captured"] * 3 + ["out"])
    assert re_.flashman_shock_drm(3) == -2 and re_.flashman_shock_drm(4) == 2


def test_d_g_h_reinforcements() -> None:
    assert re_.delay_group(["g1", "g2"], ["g1"], "g2") == "g2"
    with pytest.raises(RuleError):
        re_.delay_group(["g1"], ["g1"], "g1")
    with pytest.raises(RuleError):
        re_.delay_group(["g1"], [], "g3")
    assert re_.shift_area(5, 6) == 6 and re_.shift_area(5, 4) == 4
    with pytest.raises(RuleError):
        re_.shift_area(5, 7)
    assert re_.imboden_areas("csa") == (1, 2) and re_.imboden_areas("usa") == ()


def test_e_sniper_and_n_panic() -> None:
    assert re_.sniper(4, True, 7) and not re_.sniper(1, True, 2)
    with pytest.raises(RuleError, match="at most 4"):
        re_.sniper(5, True, 1)
    with pytest.raises(RuleError):
        re_.sniper(2, False, 1)
    assert re_.panic(3, 5, 6) and not re_.panic(3, 5, 5)
    with pytest.raises(RuleError):
        re_.panic(4, 5, 9)


def test_f_remove_two() -> None:
    removed, left = re_.remove_two(["a", "b", "c"], random.Random(1))
    assert len(removed) == 2 and sorted(removed + left) == ["a", "b", "c"]
    assert re_.remove_two(["a"], random.Random(1)) == (["a"], [])


def test_i_j_batteries() -> None:
    assert re_.lose_gun(4) == 3 and re_.lose_gun(0) == 0
    assert re_.battery_jinx(2) == (-2, 1) and re_.battery_jinx(7) == (0, 0)


def test_k_opponent_moves() -> None:
    re_.check_opponent_moves([("u1", "advance", 3), ("u2", "attack", 1)])
    for bad in ([("u1", "march", 1)], [("u1", "advance", 4)],
                [("u1", "advance", 1)] * 3):
        with pytest.raises(RuleError):
            re_.check_opponent_moves(bad)


def test_l_drunk() -> None:
    d = re_.drunk("x", "U")
    assert (d.orders, d.command_range, d.ma) == (-2, 2, 3)
    with pytest.raises(RuleError, match="not a U-rated"):
        re_.drunk("x", "A")
    assert re_.may_relieve(True) and not re_.may_relieve(False)


def test_m_rain() -> None:
    assert [re_.heavy_rain(r).turns for r in range(10)] == [1, 1, 1, 1, 2, 2, 3, 3, 4, 4]
    rain = re_.heavy_rain(9)
    assert (rain.fire_drm, rain.rally_drm, rain.ma(7)) == (-3, 2, 3)
    assert rain.fatigue_every_activation and not rain.fatigue_recovery


def test_p_hero() -> None:
    assert re_.hero_roll(5, "low") == 3 and re_.hero_roll(5, "high") == 7


def test_q_scouting() -> None:
    july1, july2 = dt.date(1863, 7, 1), dt.date(1863, 7, 2)
    assert re_.check_scouting("gamble", True, False, True, july2) == "gamble"
    for args in (("x", False, False, False, july2), ("x", True, True, False, july2),
                 ("gamble", True, False, True, july1)):
        with pytest.raises(RuleError):
            re_.check_scouting(*args)


def test_r_hill_and_s_lee() -> None:
    assert re_.hill(False, 3).delay == 1 and re_.hill(False, 4).delay == 2
    assert re_.hill(True, 0).replaced_turns == 3
    lee = re_.lee_paralysed(10)
    assert [lee.active(t) for t in (10, 11, 12, 13)] == [False, True, True, False]
    assert lee.initiative == 0 and not lee.efficiency_transfer


def test_bad_die_is_refused() -> None:
    with pytest.raises(RuleError, match="0-9"):
        re_.flashman_use(10)
