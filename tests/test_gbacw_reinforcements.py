"""Reinforcements' entry (002 §9.71-9.74, 004 §9.76) on the derived board and by hand."""

from __future__ import annotations

import pytest

from gettysburg.core.protocol import RuleError
from gettysburg.gbacw import reinforcements as rf
from gettysburg.gbacw.board import load_board
from gettysburg.gbacw.reinforcements import Group


def test_004_9_76_entry_area_direct_and_adjacent_hexes() -> None:
    """Area 2 (the Chambersburg Pike's, where Heth's column comes on in Herr Ridge): any
    orders by the direct hex, only Attack or Advance by the edge hexes beside it."""
    b = load_board()
    area = rf.entry_area(b, 2)
    assert b.hexes[area.direct].id == "A1234"
    ids = {b.hexes[h].id for h in area.adjacent}
    assert {"A1333", "A1134"} <= ids
    assert all(h.distance(area.direct) <= rf.ADJACENT_REACH for h in area.adjacent)
    for orders in ("march", "advance", "attack"):
        rf.check_entry_hex(area, area.direct, orders)
    side = area.adjacent[0]
    rf.check_entry_hex(area, side, "advance")
    rf.check_entry_hex(area, side, "attack")
    with pytest.raises(RuleError) as err:
        rf.check_entry_hex(area, side, "march")
    assert err.value.rule == "tdg.9.76"
    with pytest.raises(RuleError, match="not in entry area"):
        rf.check_entry_hex(area, b.parse("B3819"), "advance")


def test_every_area_1_to_14_is_on_the_board() -> None:
    b = load_board()
    for n in range(1, 15):
        area = rf.entry_area(b, n)
        assert len(area.adjacent) >= 2
    with pytest.raises(RuleError, match="not on the map"):
        rf.entry_area(b, 99)


def test_9_72_cumulative_entry_costs() -> None:
    """Three stacks by one road hex at 1 MP each pay 1, 2 and 3; a battery at 2 MP after an
    infantry stack at 1 pays 3."""
    assert rf.cumulative_costs([1, 1, 1]) == [1, 2, 3]
    assert rf.cumulative_costs([1, 2]) == [1, 3]
    assert rf.cumulative_costs([0.5, 0.5]) == [0.5, 1.0]


def test_9_72_enemy_next_to_the_entry_hex() -> None:
    rf.check_enemy_next_to_entry("advance", enemy_adjacent=True)
    rf.check_enemy_next_to_entry("march", enemy_adjacent=False)
    with pytest.raises(RuleError) as err:
        rf.check_enemy_next_to_entry("march", enemy_adjacent=True)
    assert err.value.rule == "9.72"
    assert not rf.may_shock_on_entry("advance", enemy_adjacent_on_entry=True)
    assert rf.may_shock_on_entry("attack", enemy_adjacent_on_entry=True)
    assert rf.may_shock_on_entry("advance", enemy_adjacent_on_entry=False)
    rf.check_enemy_entry_hex(rf.entry_area(load_board(), 3).direct, still_due=False)
    with pytest.raises(RuleError):
        rf.check_enemy_entry_hex(rf.entry_area(load_board(), 3).direct, still_due=True)


def test_9_73_groups_in_order_and_holding_back() -> None:
    queue = [Group("b", due=5), Group("a", due=3)]
    rf.check_group_order(queue, "a")
    with pytest.raises(RuleError, match="group a is due"):
        rf.check_group_order(queue, "b")
    rf.check_group_order([Group("a", 3, entered=True), Group("b", 5)], "b")
    with pytest.raises(RuleError, match="not due"):
        rf.check_group_order(queue, "z")
    assert not rf.holds_up(queue, "a", 4)
    assert rf.holds_up(queue, "a", 5)
    assert not rf.holds_up([Group("a", 3, entered=True), Group("b", 5)], "a", 5)


def test_9_74_activation_cap_on_entry_and_march_example() -> None:
    """A group allowed one AM on its entry turn, arriving on March, moves one activation's
    worth only (002 §9.74's example)."""
    rf.check_entry_activations(0, 1)
    with pytest.raises(RuleError) as err:
        rf.check_entry_activations(1, 1)
    assert err.value.rule == "9.74"
    rf.check_entry_activations(7, None)
    assert rf.march_equivalents(1) == 1
    assert rf.march_equivalents(None) == 4


def test_9_71_orders_of_a_unit_without_its_brigadier() -> None:
    assert rf.orders_after_move("march", "attack", within_brigadier_range=False) == "march"
    assert rf.orders_after_move("march", "attack", within_brigadier_range=True) == "attack"
