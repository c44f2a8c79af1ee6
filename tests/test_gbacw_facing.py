"""GBACW facing, facing changes and refused flanks (002 §7)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import RuleError
from gettysburg.gbacw.facing import (
    Facing,
    FacingKind,
    RefuseSide,
    adjacent_of_other_kind,
    aspect_of,
    check_attack_unit_fire_with_refusers,
    check_free_turn,
    check_refuse,
    check_refused_shock,
    check_retreat_facing,
    check_turn_before_leaving,
    facing_towards,
    flank_hexes,
    front_hexes,
    rear_hexes,
    refused_aspects,
    refused_fire_split,
    refused_front_hexes,
    reversed_facing,
    to_kind,
    turn,
    turning_cost,
    unrefuse_cost,
    vertex_steps,
)

H0 = Hex(0, 0)
facings = st.builds(Facing, st.sampled_from(["vertex", "side"]), st.integers(0, 5))
vertex_facings = st.builds(Facing.vertex, st.integers(0, 5))


# --- the type -----------------------------------------------------------------------


def test_vertex_facing_convention_7_11() -> None:
    f = Facing.vertex(0)
    assert front_hexes(H0, f) == (H0.neighbour(0), H0.neighbour(1))
    assert flank_hexes(H0, f) == (H0.neighbour(5), H0.neighbour(2))
    assert rear_hexes(H0, f) == (H0.neighbour(3), H0.neighbour(4))


def test_side_facing_has_one_front_and_one_rear_e26() -> None:
    f = Facing.side(2)
    assert front_hexes(H0, f) == (H0.neighbour(2),)
    assert rear_hexes(H0, f) == (H0.neighbour(5),)
    assert len(flank_hexes(H0, f)) == 4


@given(facings, st.integers(-20, 20), st.integers(-20, 20))
def test_front_flank_rear_partition_the_neighbours(f: Facing, q: int, r: int) -> None:
    h = Hex(q, r)
    parts = [*front_hexes(h, f), *flank_hexes(h, f), *rear_hexes(h, f)]
    assert sorted(parts) == sorted(h.neighbours())
    for n in front_hexes(h, f):
        assert aspect_of(h, f, n) == "front"
    for n in rear_hexes(h, f):
        assert aspect_of(h, f, n) == "rear"


@given(facings, st.integers(-12, 12), st.integers(-12, 12))
def test_turning_is_a_group(f: Facing, a: int, b: int) -> None:
    assert turn(turn(f, a), b) == turn(f, a + b)
    assert turn(f, 0) == f
    assert turn(turn(f, a), -a) == f
    assert turn(f, 6) == f
    assert reversed_facing(reversed_facing(f)) == f
    assert vertex_steps(f, turn(f, a)) == min(a % 6, 6 - a % 6)
    assert vertex_steps(f, turn(f, a)) == vertex_steps(turn(f, a), f)


@given(facings)
def test_json_round_trip(f: Facing) -> None:
    assert Facing.from_json(f.to_json()) == f


@pytest.mark.parametrize(
    "bad",
    [
        None,
        {"kind": "corner", "index": 0},
        {"kind": "side", "index": 6},
        {"kind": "side", "index": True},
        {"kind": "vertex"},
        "vertex 1",
    ],
)
def test_bad_json_names_the_field(bad: object) -> None:
    with pytest.raises(ValueError, match="facing"):
        Facing.from_json(bad)


def test_bad_construction() -> None:
    with pytest.raises(ValueError):
        Facing("corner", 0)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Facing("side", 7)


def test_vertex_steps_refuses_mixed_kinds() -> None:
    with pytest.raises(ValueError, match=r"7\.23"):
        vertex_steps(Facing.side(0), Facing.vertex(0))


@given(facings)
def test_kind_change_keeps_a_front_hex_7_23(f: Facing) -> None:
    other: FacingKind = "vertex" if f.kind == "side" else "side"
    g = to_kind(f, other)
    assert g.kind == other
    assert set(front_hexes(H0, f)) & set(front_hexes(H0, g))
    assert g in adjacent_of_other_kind(f)
    assert to_kind(f, f.kind) == f
    # any target is free on an orders change
    assert to_kind(f, other, Facing(other, 4)) == Facing(other, 4)


def test_to_kind_target_must_match() -> None:
    with pytest.raises(ValueError):
        to_kind(Facing.side(0), "vertex", Facing.side(1))


def test_facing_towards() -> None:
    assert facing_towards(H0, H0.neighbour(3)) == Facing.side(3)
    assert H0.neighbour(3) in front_hexes(H0, facing_towards(H0, H0.neighbour(3), "vertex"))
    with pytest.raises(ValueError):
        facing_towards(H0, Hex(5, 5))


def test_left_and_right_on_the_printed_sheet() -> None:
    """Direction indexes grow counterclockwise on the sheets (B3821 -> B3820 is north)."""
    from gettysburg.gbacw.board import load_board

    board = load_board()
    h = board.parse("B3821")
    ids = [board.hexes[h.neighbour(d)].id for d in range(6)]
    assert ids == ["B3921", "B3920", "B3820", "B3720", "B3721", "B3822"]


# --- facing-change costs (§7.21-§7.25) ------------------------------------------------


def test_one_vertex_per_hex_is_free_more_costs_one_7_21() -> None:
    assert turning_cost(1, orders="advance", in_woods=False) == 0
    assert turning_cost(2, orders="advance", in_woods=False) == 1
    assert turning_cost(3, orders="march", in_woods=True) == 1
    # a second single-vertex turn in the same hex pays the 1 MP; a third is free
    assert turning_cost(1, orders="advance", in_woods=False, turned_in_hex=1) == 1
    assert turning_cost(1, orders="advance", in_woods=False, turned_in_hex=2) == 0
    assert turning_cost(0, orders="attack", in_woods=True) == 0


def test_attack_orders_in_woods_pay_per_vertex_7_22() -> None:
    assert turning_cost(1, orders="attack", in_woods=True) == 1
    assert turning_cost(2, orders="attack", in_woods=True) == 2
    assert turning_cost(3, orders="attack", in_woods=True) == 1  # about face
    assert turning_cost(2, orders="attack", in_woods=False) == 1


def test_leaders_turn_free() -> None:
    assert turning_cost(3, orders="attack", in_woods=True, unit_class="leader") == 0


def test_turning_cost_bad_input() -> None:
    with pytest.raises(ValueError):
        turning_cost(4, orders="advance", in_woods=False)
    with pytest.raises(ValueError):
        turning_cost(1, orders="advance", in_woods=False, turned_in_hex=-1)


def test_free_turns_7_23() -> None:
    for reason in ("orders_change", "road", "advance_after_combat", "reaction"):
        check_free_turn(reason, 3, orders="advance", in_woods=True)
    check_free_turn("fire", 1, orders="advance", in_woods=False)
    with pytest.raises(RuleError) as e:
        check_free_turn("fire", 2, orders="advance", in_woods=False)
    assert e.value.rule == "7.23"
    with pytest.raises(RuleError) as e:
        check_free_turn("fire", 1, orders="attack", in_woods=True)
    assert e.value.rule == "7.22"
    check_free_turn("rally", 1, orders="attack", in_woods=True)
    with pytest.raises(RuleError) as e:
        check_free_turn("rally", 2, orders="attack", in_woods=False)
    assert e.value.rule == "7.25"
    with pytest.raises(RuleError):
        check_free_turn("whim", 1, orders="attack", in_woods=False)


def test_next_to_enemy_one_vertex_and_leave_7_24() -> None:
    check_turn_before_leaving(1, leaves_hex=True)
    check_turn_before_leaving(3, leaves_hex=False)
    with pytest.raises(RuleError) as e:
        check_turn_before_leaving(2, leaves_hex=True)
    assert e.value.rule == "7.24"


def test_retreat_keeps_facing_7_25() -> None:
    check_retreat_facing(Facing.vertex(1), Facing.vertex(1))
    with pytest.raises(RuleError):
        check_retreat_facing(Facing.vertex(1), Facing.vertex(2))


# --- refused flanks (§7.3) -------------------------------------------------------------

F = Facing.vertex(0)  # fronts 0,1; left flank 2, right flank 5; rears 3,4
LEFT = H0.neighbour(2)
RIGHT = H0.neighbour(5)


def _refuse(side: RefuseSide = "right", /, **kw: object) -> None:
    args: dict[str, object] = {
        "orders": "advance", "friendly": set(), "enemy": set(), "units_in_hex": 1, "hex_sp": 4,
    }
    args.update(kw)
    check_refuse(H0, F, side, **args)  # type: ignore[arg-type]


def test_refused_front_hexes_and_aspects_7_34() -> None:
    assert refused_front_hexes(H0, F, "right") == (H0.neighbour(0), H0.neighbour(1), RIGHT)
    asp = refused_aspects(F, {"right"})
    assert asp == {0: "front", 1: "front", 5: "refused_front", 4: "flank", 2: "flank", 3: "rear"}
    asp = refused_aspects(F, {"left"})
    assert asp == {0: "front", 1: "front", 2: "refused_front", 3: "flank", 5: "flank", 4: "rear"}
    # an extended line refusing both ways: three flanks become two fronts, the rears flanks
    both = refused_aspects(F, {"left", "right"})
    assert sorted(both.values()) == ["flank", "flank", "front", "front"] + ["refused_front"] * 2


@given(vertex_facings, st.sampled_from([frozenset(), frozenset({"left"}), frozenset({"right"})]))
def test_refused_aspects_cover_every_direction(f: Facing, sides: frozenset[str]) -> None:
    asp = refused_aspects(f, sides)
    assert sorted(asp) == list(range(6))
    assert list(asp.values()).count("rear") == (2 if not sides else 1)


def test_refuse_when_isolated_at_end_of_line_or_bend_7_31() -> None:
    _refuse()  # no friend adjacent
    _refuse(friendly={LEFT})  # end of a line, refusing the open right
    _refuse(friendly={LEFT, H0.neighbour(4)})  # bend: friend in the flank and the opposite rear


def test_refuse_refused_cases_7_31_7_32() -> None:
    cases: list[tuple[dict[str, object], str]] = [
        ({"friendly": {LEFT, RIGHT}}, "7.32"),
        ({"friendly": {RIGHT}}, "7.31"),
        ({"friendly": {H0.neighbour(3)}}, "7.31"),  # friend only behind: not a line's end
        ({"orders": "march"}, "7.32"),
        ({"extended_column": True}, "7.32"),
        ({"hex_sp": 1}, "7.32"),
        ({"enemy": {H0.neighbour(0)}}, "7.32"),
        ({"already_refused": {"left"}}, "7.32"),
        ({"already_refused": {"right"}, "extended_line": True}, "7.32"),
    ]
    for kw, rule in cases:
        with pytest.raises(RuleError) as e:
            _refuse(**kw)
        assert e.value.rule == rule, kw
    _refuse(enemy={H0.neighbour(0)}, reaction=True)
    _refuse(hex_sp=1, units_in_hex=2)  # the 2-SP minimum is for a unit alone
    _refuse(already_refused={"left"}, extended_line=True)  # §8.44
    with pytest.raises(RuleError):
        check_refuse(H0, Facing.side(0), "left", orders="advance", friendly=set(), enemy=set(),
                     units_in_hex=1, hex_sp=4)


def test_refuse_costs_7_32_7_33() -> None:
    assert unrefuse_cost() == 1
    for reason in ("reaction", "withdrawal", "advance", "retreat"):
        assert unrefuse_cost(reason) == 0
    with pytest.raises(ValueError):
        unrefuse_cost("boredom")


def test_7_34_example_1_seven_sp_on_top() -> None:
    """7 SP on top: 4 through the normal fronts, 3 through the refused one; those below none."""
    assert refused_fire_split([7, 0]) == [(4, 3), (0, 0)]


def test_7_34_example_2_five_over_three() -> None:
    """5 over 3 (the hex fires 7, §8.33): the 5 fires 4 + 1 refused, the 3 fires 2 refused."""
    assert refused_fire_split([5, 2]) == [(4, 1), (0, 2)]


def test_7_34_example_3_three_two_eight() -> None:
    assert refused_fire_split([3, 2, 2]) == [(3, 0), (1, 1), (0, 2)]


def test_7_34_example_4_attack_unit_after_refusers_fired() -> None:
    with pytest.raises(RuleError) as e:
        check_attack_unit_fire_with_refusers(orders="attack", refusers_fired=True)
    assert e.value.rule == "7.34"
    check_attack_unit_fire_with_refusers(orders="advance", refusers_fired=True)
    # next activation: the 4-SP refuser fires 3 normal and 1 refused, the 2-SP unit both refused
    assert refused_fire_split([4, 2]) == [(3, 1), (0, 2)]


def test_7_34_example_5_battery_sections_over_infantry() -> None:
    # sections: 4 TB above 2 H12, then the infantry's 1 SP left by §8.33
    assert refused_fire_split([4, 2, 1]) == [(4, 0), (0, 2), (0, 1)]
    # H12 on top: they and two TB normal; the other two TB and 1 infantry SP refused
    assert refused_fire_split([2, 4, 1]) == [(2, 0), (2, 2), (0, 1)]


def test_7_34_example_6_two_six_gun_batteries() -> None:
    assert refused_fire_split([6, 6]) == [(6, 0), (0, 6)]


@given(st.lists(st.integers(0, 12), max_size=6))
def test_refused_split_properties(allow: list[int]) -> None:
    split = refused_fire_split(allow)
    total = sum(allow)
    normal = sum(n for n, _ in split)
    refused = sum(r for _, r in split)
    assert normal + refused == total
    assert 0 <= normal - refused <= 1
    assert normal == (total + 1) // 2
    for a, (n, r) in zip(allow, split, strict=True):
        assert n + r == a and n >= 0 and r >= 0


def test_refused_split_bad_input() -> None:
    with pytest.raises(ValueError):
        refused_fire_split([3, -1])


def test_no_shock_into_refused_front_7_34() -> None:
    check_refused_shock(H0, F, "right", H0.neighbour(0))
    with pytest.raises(RuleError) as e:
        check_refused_shock(H0, F, "right", RIGHT)
    assert e.value.rule == "7.34"
