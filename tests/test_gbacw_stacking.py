"""GBACW stacking limits, order in a stack, fire limits and results on stacks (002 §8.1–§8.3)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gettysburg.core.dice import ScriptedDice
from gettysburg.core.protocol import RuleError
from gettysburg.gbacw.stacking import (
    StackEntry,
    check_artillery_fire,
    check_reorder,
    check_road_stacking,
    entry_positions,
    fire_allowances,
    fire_result_on_stack,
    hex_fire_limit,
    hits_each_unit,
    may_fire_after_reorder,
    reverse_stack,
    shock_loss_order,
    shock_result_on_stack,
    stack_problem,
    target_density_drm,
    units_of,
)


def inf(unit: str, sp: int, brigade: str = "Iron") -> StackEntry:
    return StackEntry(unit, "inf", sp, brigade)


def cav(unit: str, sp: int, *, mounted: bool = True, brigade: str = "Buford1") -> StackEntry:
    return StackEntry(unit, "cav", sp, brigade, mounted=mounted)


def art(unit: str, guns: int) -> StackEntry:
    return StackEntry(unit, "art", guns, "Arty")


def rule_of(entries: list[StackEntry], orders: str) -> str | None:
    err = stack_problem(entries, orders)
    return None if err is None else err.rule


# --- limits (§8.12, §8.13) --------------------------------------------------------------


def test_march_limits_8_12() -> None:
    assert rule_of([inf("a", 4), inf("b", 3)], "march") is None
    assert rule_of([inf("a", 4), inf("b", 4)], "march") == "8.12"
    err = stack_problem([inf("a", 8)], "march")
    assert err is not None and "extend" in err.message  # one big unit: extended column
    assert rule_of([inf("a", 3), inf("b", 3, "Other")], "march") == "8.12"
    assert rule_of([cav("c", 4)], "march") is None
    assert rule_of([cav("c", 3), cav("d", 2)], "march") == "8.12"
    assert rule_of([cav("c", 4, mounted=False), inf("a", 3, "Buford1")], "march") is None
    assert rule_of([art("A", 6), art("B", 6)], "march") is None
    assert rule_of([art("A", 4), art("B", 4), art("C", 4)], "march") is None  # 12 guns
    assert rule_of([art("A", 4), art("B", 4), art("C", 6)], "march") == "8.12"
    assert rule_of([inf("a", 3), art("A", 4)], "march") == "8.12"  # no mixing on March
    assert rule_of([inf("a", 3), cav("c", 2, brigade="Iron")], "march") == "8.12"


def test_advance_attack_limits_8_12() -> None:
    for orders in ("advance", "attack"):
        assert rule_of([inf("a", 8), inf("b", 7)], orders) is None
        assert rule_of([inf("a", 8), inf("b", 8)], orders) == "8.12"
        assert rule_of([inf("a", 19)], orders) is None  # one unit of any size
        assert rule_of([inf("a", 8), inf("b", 7), art("A", 6)], orders) is None
        assert rule_of([inf("a", 8), art("A", 3), art("B", 3)], orders) is None  # 6 guns
        assert rule_of([inf("a", 8), art("A", 4), art("B", 3)], orders) == "8.12"
        assert rule_of([inf("a", 8), art("A", 8)], orders) is None  # one battery of any size
        assert rule_of([cav("c", 4), cav("d", 3), art("A", 6)], orders) is None
        assert rule_of([cav("c", 4), cav("d", 4)], orders) == "8.12"
        assert rule_of([cav("c", 9)], orders) is None
        assert rule_of([art("A", 6), art("B", 6)], orders) is None
        assert rule_of([inf("a", 3), inf("b", 3, "Other")], orders) == "8.12"


def test_sections_stack_together_8_37() -> None:
    assert rule_of([art("A", 2), art("A", 2), inf("a", 3)], "advance") is None
    assert rule_of([art("A", 2), inf("a", 3), art("A", 2)], "advance") == "8.37"


def test_stack_problem_bad_orders() -> None:
    assert rule_of([inf("a", 3)], "charge") == "8.12"
    assert rule_of([inf("a", -1)], "march") == "8.12"


def test_road_under_advance_needs_march_stacking_8_13() -> None:
    check_road_stacking([inf("a", 7)], "advance")
    with pytest.raises(RuleError) as e:
        check_road_stacking([inf("a", 8), inf("b", 2)], "advance")
    assert e.value.rule == "8.13"
    check_road_stacking([inf("a", 8), inf("b", 2)], "attack")  # §8.13 speaks of Advance only


# --- order in a stack (§8.23, §8.24, §7.21) -------------------------------------------


def test_entry_order_8_23() -> None:
    stack = [inf("a", 4), inf("b", 3)]
    mover = inf("c", 2)
    assert entry_positions(stack, mover, "front") == (0,)
    assert entry_positions(stack, mover, "flank") == (2,)
    assert entry_positions(stack, mover, "rear") == (2,)
    assert entry_positions([], mover, "rear") == (0,)
    # artillery only: above or below at will
    assert entry_positions([art("A", 6)], mover, "rear") == (0, 1)
    # a non-artillery unit under the artillery: through the front, directly above or below it
    assert entry_positions([art("A", 4), inf("a", 4)], mover, "front") == (0, 1)
    assert entry_positions([art("A", 4), inf("a", 4)], mover, "flank") == (2,)
    # artillery entering is not covered by the exception
    assert entry_positions([art("A", 4)], art("B", 2), "flank") == (1,)
    with pytest.raises(ValueError):
        entry_positions(stack, mover, "side")


def test_reorder_8_24() -> None:
    check_reorder(in_enemy_front=False)
    with pytest.raises(RuleError) as e:
        check_reorder(in_enemy_front=True)
    assert e.value.rule == "8.24"
    assert not may_fire_after_reorder("advance")
    assert may_fire_after_reorder("attack")


def test_about_face_reverses_the_stack_7_21() -> None:
    stack = [art("A", 2), art("A", 2), inf("a", 4), inf("b", 3), inf("c", 1)]
    out = reverse_stack(stack)
    assert [e.unit for e in out] == ["A", "A", "c", "b", "a"]
    out = reverse_stack(stack, leaving=frozenset({"c"}))
    assert [e.unit for e in out] == ["A", "A", "b", "a", "c"]


# --- fire (§8.31-§8.34) -------------------------------------------------------------------


def test_8_33_example_five_over_nine() -> None:
    """5 SP over 9 SP: 7 SP fire, the top unit's 5 and 2 of the lower unit."""
    assert fire_allowances([inf("a", 5), inf("b", 9)]) == [5, 2]
    assert hex_fire_limit([inf("a", 5), inf("b", 9)]) == 7


def test_8_33_example_battery_over_seven() -> None:
    """A 6-gun battery over 7 SP: the battery and 1 SP of infantry."""
    assert fire_allowances([art("A", 6), inf("a", 7)]) == [6, 1]


def test_8_33_example_top_unit_rallies() -> None:
    """The 5-SP top unit rallies instead of firing: the units below still fire at most 2."""
    allow = fire_allowances([inf("a", 5), inf("b", 4), inf("c", 3)])
    assert allow == [5, 2, 0]
    assert sum(allow[1:]) == 2


def test_hex_limits_8_31() -> None:
    assert hex_fire_limit([cav("c", 7)]) == 4
    assert hex_fire_limit([art("A", 6), art("B", 6)]) == 12
    assert hex_fire_limit([art("A", 8), inf("a", 7)]) == 8  # one battery may exceed 7
    assert fire_allowances([art("A", 3), cav("c", 5)]) == [3, 4]  # cavalry at most 4
    assert fire_allowances([art("A", 2), cav("c", 5)]) == [2, 4]
    assert fire_allowances([cav("c", 5), art("A", 3)]) == [4, 0]  # artillery not on top
    assert fire_allowances([inf("a", 3), art("A", 6)]) == [3, 0]
    assert fire_allowances([]) == []


def test_artillery_fires_only_from_top_8_33() -> None:
    check_artillery_fire([art("A", 4), inf("a", 5)], 0)
    check_artillery_fire([art("A", 2), art("A", 2), inf("a", 5)], 1)  # a section of the top battery
    check_artillery_fire([art("A", 6), art("B", 6)], 1)  # artillery alone
    check_artillery_fire([inf("a", 5), art("A", 4)], 0)  # infantry is not concerned
    with pytest.raises(RuleError) as e:
        check_artillery_fire([inf("a", 5), art("A", 4)], 1)
    assert e.value.rule == "8.33"


@given(st.lists(st.tuples(st.sampled_from(["inf", "cav", "art"]), st.integers(0, 12)), max_size=5))
def test_allowances_never_exceed_strength_or_limit(spec: list[tuple[str, int]]) -> None:
    entries = [
        art(f"b{i}", sp) if arm == "art" else cav(f"c{i}", sp) if arm == "cav" else inf(f"u{i}", sp)
        for i, (arm, sp) in enumerate(spec)
    ]
    allow = fire_allowances(entries)
    assert all(0 <= a <= e.sp for a, e in zip(allow, entries, strict=True))
    if all(e.kind == "artillery" for e in entries):
        assert sum(allow) <= 12
    else:
        top_battery = entries[0].sp if entries and entries[0].kind == "artillery" else 0
        assert sum(allow) <= max(7, top_battery)


def test_massed_and_dispersed_targets_8_34() -> None:
    assert target_density_drm([inf("a", 5), inf("b", 3)], shell=True) == 1
    assert target_density_drm([inf("a", 2), art("A", 6)], shell=True) == -1
    assert target_density_drm([inf("a", 5)], shell=True) == 0
    assert target_density_drm([art("A", 1)], shell=True) == 0  # artillery alone: neither
    assert target_density_drm([inf("a", 9)], shell=False) == 0  # canister and small arms


# --- results (§8.35-§8.37) ------------------------------------------------------------------


def test_top_unit_takes_fire_results_8_35() -> None:
    stack = [inf("a", 4), inf("b", 3), art("A", 4)]
    out = fire_result_on_stack(stack, 1, disorder=False)
    assert out.losses == (1, 0, 0) and out.udd == () and out.eliminated == ()
    out = fire_result_on_stack(stack, 1, disorder=True)
    assert out.udd == (1, 2)


def test_excess_losses_go_down_and_the_rest_test_8_35() -> None:
    stack = [inf("a", 2), inf("b", 3), inf("c", 3)]
    out = fire_result_on_stack(stack, 3, disorder=False)
    assert out.losses == (2, 1, 0)
    assert out.eliminated == (0,)
    assert out.udd == (1, 2)  # the top unit was eliminated


def test_pre_shock_fire_targets_the_top_shocking_unit_8_35() -> None:
    stack = [inf("a", 2), inf("b", 1), inf("c", 3)]
    out = fire_result_on_stack(stack, 2, disorder=False, target_unit=1, overflow=[2, 0])
    assert out.losses == (0, 1, 1)
    assert out.eliminated == (1,)
    assert out.udd == (0, 2)
    with pytest.raises(ValueError):
        fire_result_on_stack(stack, 1, disorder=False, target_unit=3)


def test_battery_section_hit_at_random_8_37() -> None:
    stack = [art("A", 2), art("A", 2), inf("a", 4)]
    # d6 1..3 picks the first live section, 4..6 the second
    out = fire_result_on_stack(stack, 1, disorder=False, dice=ScriptedDice([5]))
    assert out.losses == (0, 1, 0)
    out = fire_result_on_stack(stack, 2, disorder=False, dice=ScriptedDice([2, 1]))
    assert out.losses == (2, 0, 0)
    out = fire_result_on_stack(stack, 3, disorder=False, dice=ScriptedDice([2, 1]))
    assert out.losses == (2, 1, 0)  # the last live section takes the third step
    with pytest.raises(ValueError):
        fire_result_on_stack(stack, 1, disorder=False)


def test_battery_draw_rerolls_biased_faces() -> None:
    stack = [art("A", 1), art("A", 1), art("A", 1), art("A", 1), art("A", 1)]
    dice = ScriptedDice([6, 6, 3])  # 6 is rerolled for 5 sections
    out = fire_result_on_stack(stack, 1, disorder=False, dice=dice)
    assert out.losses == (0, 0, 1, 0, 0)


def test_shock_losses_top_first_and_bloody_to_highest_cohesion_8_36() -> None:
    stack = [inf("a", 3), inf("b", 4), inf("c", 2)]
    assert shock_loss_order(stack, [5, 7, 7], bloody=False) == [0, 1, 2]
    assert shock_loss_order(stack, [5, 7, 7], bloody=True) == [1, 0, 2]
    part = [True, True, False]
    assert shock_loss_order(stack, [5, 7, 8], bloody=True, participating=part) == [1, 0, 2]
    defending = [art("A", 4), inf("a", 5)]
    assert shock_loss_order(defending, [4, 8], bloody=True, defending=True) == [0, 1]
    assert shock_loss_order(defending, [4, 8], bloody=True) == [1, 0]
    with pytest.raises(ValueError):
        shock_loss_order(stack, [5], bloody=True)
    out = shock_result_on_stack(stack, 5, [1, 0, 2])
    assert out.losses == (1, 4, 0) and out.eliminated == (1,)


def test_units_of_groups_sections() -> None:
    assert units_of([art("A", 2), art("A", 2), inf("a", 3)]) == [[0, 1], [2]]


def test_8_35_example_shell_fire_hits_each_unit() -> None:
    """Artillery at five hexes: each unit takes the UDD on its own, and the top unit's
    failure brings no second UDD on the one below; at three hexes or for small arms the
    top unit takes it for the stack."""
    assert hits_each_unit(5, artillery=True)
    assert hits_each_unit(4, artillery=True)
    assert not hits_each_unit(3, artillery=True)
    assert not hits_each_unit(5, artillery=False)


def test_hex_limit_counts_fire_of_units_that_left_8_31() -> None:
    assert fire_allowances([inf("a", 5), inf("b", 4)], spent=4) == [3, 0]
    assert fire_allowances([art("A", 6), art("B", 6)], spent=6) == [6, 0]
