"""GBACW extended lines and columns (002 §8.4, §8.5).

The rulebook's examples (§8.47, §8.48) number hexes on a generic map whose
columns are staggered the other way from the TDG sheets (there 2222 touches
2323; on sheet A it does not), so they are built here on that numbering.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import RuleError
from gettysburg.gbacw.extension import (
    ExtendedLine,
    about_face,
    check_column_chain,
    check_column_facing,
    check_column_fire,
    check_column_shock,
    check_extend,
    check_half_adjacent,
    check_line_move,
    column_aspect,
    column_extensions,
    column_ma_penalty,
    envelop,
    line_disorder,
    line_extensions_allowed,
    line_move_cost,
    line_moves,
    line_turn_extra,
    split_strength,
)
from gettysburg.gbacw.facing import Facing, front_hexes
from gettysburg.gbacw.stacking import StackEntry


def ex(cr: str) -> Hex:
    """A hex of the rulebook's example map ("CCRR"): even columns sit half a hex higher."""
    c, r = int(cr[:2]), int(cr[2:])
    return Hex(c, r - (c + 1) // 2)


EAST = Facing.vertex(0)  # front hexes south-east and north-east
WEST = Facing.vertex(3)


def inf(sp: int) -> StackEntry:
    return StackEntry("u", "inf", sp, "Iron")


# --- strength -------------------------------------------------------------------------


def test_8_44_examples_split() -> None:
    assert split_strength(9, 2) == (5, 4)
    assert split_strength(17, 3) == (6, 6, 5)
    assert split_strength(10, 2) == (5, 5)  # §8.45 diagram
    assert split_strength(18, 3) == (6, 6, 6)


@given(st.integers(0, 40), st.integers(1, 3))
def test_split_sums_and_differs_by_at_most_one(sp: int, parts: int) -> None:
    out = split_strength(sp, parts)
    assert sum(out) == sp and len(out) == parts
    assert max(out) - min(out) <= 1
    assert list(out) == sorted(out, reverse=True)  # the extra SP go to the counter first


def test_split_bad_input() -> None:
    with pytest.raises(ValueError):
        split_strength(9, 4)
    with pytest.raises(ValueError):
        split_strength(-1, 2)


def test_line_strengths_put_the_extra_on_the_counter() -> None:
    line = ExtendedLine.extend(ex("2222"), EAST, ["right"])
    assert line.strengths(9) == {ex("2222"): 5, ex("2223"): 4}
    both = ExtendedLine.extend(ex("2222"), EAST, ["left", "right"])
    assert both.strengths(17)[ex("2222")] == 6
    assert sorted(both.strengths(17).values()) == [5, 6, 6]


def test_who_may_extend_8_41_8_43() -> None:
    assert line_extensions_allowed(inf(7)) == 0
    assert line_extensions_allowed(inf(8)) == 1
    assert line_extensions_allowed(inf(14)) == 1
    assert line_extensions_allowed(inf(15)) == 2
    assert line_extensions_allowed(StackEntry("c", "cav", 12, "B", mounted=False)) == 0


def test_column_markers_8_5() -> None:
    assert column_extensions(inf(7)) == 0
    assert column_extensions(inf(8)) == 1
    assert column_extensions(inf(15)) == 2
    assert column_extensions(StackEntry("c", "cav", 4, "B", mounted=True)) == 0
    assert column_extensions(StackEntry("c", "cav", 5, "B", mounted=True)) == 1
    assert column_extensions(StackEntry("c", "cav", 9, "B", mounted=True)) == 2
    assert column_extensions(StackEntry("c", "cav", 9, "B", mounted=False)) == 0
    assert column_extensions(StackEntry("A", "art", 6, "Arty")) == 0


# --- extending (§8.41-§8.43) -------------------------------------------------------------


def _extend(entry: StackEntry, sides: list[str], **kw: object) -> int:
    args: dict[str, object] = {
        "stacked_with_non_artillery": False, "occupied_by_non_artillery": set(), "enemy": set(),
        "costs": [1] * len(sides),
    }
    args.update(kw)
    return check_extend(entry, ex("2222"), EAST, sides, **args)  # type: ignore[arg-type]


def test_extend_checks() -> None:
    assert _extend(inf(9), ["right"]) == 1
    assert _extend(inf(15), ["left", "right"], costs=[1, 2]) == 2  # the dearer side
    cases: list[tuple[StackEntry, list[str], dict[str, object], str]] = [
        (inf(7), ["right"], {}, "8.41"),
        (inf(9), ["left", "right"], {}, "8.43"),
        (inf(9), ["right"], {"stacked_with_non_artillery": True}, "8.41"),
        (inf(9), ["right"], {"occupied_by_non_artillery": {ex("2223")}}, "8.41"),
        (inf(9), ["right"], {"enemy": {ex("2224")}}, "8.41"),
        (inf(9), ["right"], {"costs": [3]}, "8.41"),
        (inf(9), [], {}, "8.41"),
    ]
    for entry, sides, kw, rule in cases:
        with pytest.raises(RuleError) as e:
            _extend(entry, sides, **kw)
        assert e.value.rule == rule, (entry, sides, kw)
    assert _extend(inf(16), ["left"], existing=1, costs=[1]) == 1  # second side added later
    with pytest.raises(RuleError):
        _extend(inf(14), ["left"], existing=1, costs=[1])


def test_extended_line_shape() -> None:
    line = ExtendedLine.extend(ex("2222"), EAST, ["right"])
    assert line.hexes == (ex("2222"), ex("2223"))  # right of an east-facing unit is south
    with pytest.raises(ValueError):
        ExtendedLine((ex("2223"), ex("2222")), 0, EAST)
    with pytest.raises(RuleError):
        ExtendedLine.extend(ex("2222"), Facing.side(0), ["right"])


# --- moving (§8.44, §8.47) --------------------------------------------------------------------


def test_8_47_example_forward_or_pivot() -> None:
    """9 SP in 2222 extended to 2223 shocks 2323 and advances: straight ahead to
    2323-2324, or pivoting into 2323 while the extension stays in 2223."""
    line = ExtendedLine.extend(ex("2222"), EAST, ["right"])
    assert ex("2323") in front_hexes(ex("2223"), EAST)
    moves = line_moves(line)
    ahead = ExtendedLine((ex("2323"), ex("2324")), 0, EAST)
    assert ahead in moves
    pivots = [m for m in moves if m.facing != EAST]
    pivot = next(m for m in pivots if ex("2223") in m.hexes)
    assert pivot.hexes[pivot.counter] == ex("2323")
    check_line_move(line, ahead)
    check_line_move(line, pivot)
    check_line_move(line, about_face(line))
    with pytest.raises(RuleError) as e:  # sideways is not a front move
        check_line_move(line, ExtendedLine((ex("2221"), ex("2222")), 0, EAST))
    assert e.value.rule == "8.44"


def test_three_hex_line_pivots_on_an_end_the_far_end_moving_two() -> None:
    line = ExtendedLine.extend(ex("2222"), EAST, ["left", "right"])
    for m in line_moves(line):
        moved = [a.distance(b) for a, b in zip(line.hexes, m.hexes, strict=True)]
        assert sorted(moved) in ([1, 1, 1], [0, 1, 2])


@given(st.integers(0, 5), st.sampled_from([["left"], ["right"], ["left", "right"]]))
def test_every_move_keeps_a_valid_line(v: int, sides: list[str]) -> None:
    line = ExtendedLine.extend(Hex(3, -2), Facing.vertex(v), sides)  # type: ignore[arg-type]
    for m in [*line_moves(line), about_face(line)]:
        assert len(m.hexes) == len(line.hexes)  # the constructor checked the shape
    assert about_face(about_face(line)) == line


def test_line_move_cost_is_the_dearest_hex() -> None:
    assert line_move_cost({ex("2323"): 1, ex("2324"): 3}) == 3
    assert line_move_cost({}) == 0


def test_free_half_next_to_enemy_artillery_only_8_44() -> None:
    line = ExtendedLine.extend(ex("2222"), EAST, ["right"])
    touching = Hex(23, 12)  # next to 2223 only
    beyond = Hex(24, 10)  # next to where 2222 goes when the line steps north-east
    new = ExtendedLine((line.hexes[0].neighbour(1), line.hexes[1].neighbour(1)), 0, EAST)
    assert new in line_moves(line)
    assert beyond in new.hexes[0].neighbours() and beyond not in line.hexes[0].neighbours()
    enemy = {touching, beyond}
    with pytest.raises(RuleError) as e:
        check_half_adjacent(line, new, enemy=enemy, enemy_artillery=set(), orders="advance",
                            disordered=False)
    assert e.value.rule == "8.44"
    check_half_adjacent(line, new, enemy=enemy, enemy_artillery={beyond}, orders="advance",
                        disordered=False)
    check_half_adjacent(line, new, enemy=enemy, enemy_artillery=set(), orders="attack",
                        disordered=False)
    with pytest.raises(RuleError):
        check_half_adjacent(line, new, enemy=enemy, enemy_artillery=set(), orders="attack",
                            disordered=True)


def test_disorder_spreads_to_artillery_hexes_8_45() -> None:
    line = ExtendedLine.extend(ex("2222"), EAST, ["right"])
    assert line_disorder(line, {ex("2223"), ex("3000")}) == (ex("2223"),)


# --- envelopment (§8.48) ----------------------------------------------------------------


def _envelopment_position() -> tuple[ExtendedLine, dict[Hex, frozenset[Hex]]]:
    attacker = ExtendedLine((ex("3311"), ex("3312")), 1, EAST)
    fronts = {ex("3412"): frozenset(front_hexes(ex("3412"), WEST))}
    return attacker, fronts


def test_8_48_example_envelopment() -> None:
    """Defender in 3412 faces west; the attacker extended in 3311-3312 faces east. The part in
    3311 does not touch 3412 and may pivot to 3411."""
    line_before = ExtendedLine((ex("3210"), ex("3211")), 1, EAST)
    attacker, fronts = _envelopment_position()
    assert attacker in line_moves(line_before)  # the move that provoked the shock
    assert ex("3412") in ex("3312").neighbours()
    assert ex("3412") not in ex("3311").neighbours()
    new = envelop(attacker, ex("3412"), orders="attack", disordered=False, refused=False,
                  enemy_fronts=fronts, occupied={ex("3412"), *attacker.hexes})
    assert set(new.hexes) == {ex("3312"), ex("3411")}
    assert ex("3412") in front_hexes(ex("3411"), new.facing)
    assert ex("3412") in front_hexes(ex("3312"), new.facing)


def test_envelopment_refusals_8_48() -> None:
    attacker, fronts = _envelopment_position()
    base: dict[str, object] = {
        "orders": "attack", "disordered": False, "refused": False, "enemy_fronts": fronts,
        "occupied": {ex("3412"), *attacker.hexes},
    }
    other = Hex(35, -7)  # faces 3411 but is not in the pivoted line's front
    bad: list[dict[str, object]] = [
        {"disordered": True},
        {"refused": True},
        {"orders": "march"},
        {"occupied": {ex("3412"), ex("3411"), *attacker.hexes}},
        # another enemy whose front covers 3411
        {"enemy_fronts": {**fronts, ex("3512"): frozenset(front_hexes(ex("3512"), WEST))}},
        # 3411 is in the front of an enemy the pivot does not face
        {"enemy_fronts": {**fronts, other: frozenset(front_hexes(other, Facing.vertex(4)))}},
        # the moving part starts in an enemy front hex
        {"enemy_fronts": {**fronts, ex("3410"): frozenset({ex("3311")})}},
    ]
    for kw in bad:
        with pytest.raises(RuleError) as e:
            envelop(attacker, ex("3412"), **{**base, **kw})  # type: ignore[arg-type]
        assert e.value.rule == "8.48", kw
    with pytest.raises(RuleError, match="in the front hex of another"):
        envelop(attacker, ex("3412"), **{**base, **bad[5]})  # type: ignore[arg-type]
    both_touch = ExtendedLine((ex("3311"), ex("3312")), 1, EAST)
    with pytest.raises(RuleError):
        envelop(both_touch, ex("3411"), **base)  # type: ignore[arg-type]


# --- columns (§8.5) ------------------------------------------------------------------------


def test_column_front_rear_flank_8_51() -> None:
    lead, tail = Hex(0, 0), Hex(0, 1)  # marching north (direction 2), tail to the south
    north = Facing.side(2)
    parts = [(lead, north), (tail, north)]
    check_column_facing(parts)
    assert column_aspect(parts, lead.neighbour(2)) == "front"
    assert column_aspect(parts, tail.neighbour(5)) == "rear"
    around = {n for h in (lead, tail) for n in h.neighbours()} - {lead, tail}
    aspects = sorted(column_aspect(parts, n) for n in around)
    assert aspects.count("front") == 1 and aspects.count("rear") == 1
    assert aspects.count("flank") == len(around) - 2
    with pytest.raises(ValueError):
        column_aspect(parts, Hex(5, 5))


def test_column_shape_and_facing_8_52() -> None:
    with pytest.raises(RuleError):
        check_column_chain([Hex(0, 0), Hex(0, 2)])
    with pytest.raises(RuleError):
        check_column_chain([Hex(0, 0)])
    with pytest.raises(RuleError) as e:  # the extension faces away from its lead
        check_column_facing([(Hex(0, 0), Facing.side(2)), (Hex(0, 1), Facing.side(5))])
    assert e.value.rule == "8.52"
    check_column_facing([(Hex(0, 0), Facing.side(2)), (Hex(0, 1), Facing.side(5))], road_bend=True)


def test_column_fire_and_shock_8_52() -> None:
    check_column_fire(0, prepared=False)
    with pytest.raises(RuleError):
        check_column_fire(1, prepared=False)
    with pytest.raises(RuleError):
        check_column_fire(0, prepared=True)
    with pytest.raises(RuleError) as e:
        check_column_shock()
    assert e.value.rule == "8.52"


def test_column_ma_penalty_under_advance_8_5() -> None:
    assert column_ma_penalty(1, orders="advance") == 1
    assert column_ma_penalty(2, orders="advance") == 2
    assert column_ma_penalty(2, orders="march") == 0
    with pytest.raises(ValueError):
        column_ma_penalty(3, orders="advance")


def test_line_turn_extra_in_woods_under_attack_8_44() -> None:
    assert line_turn_extra(orders="attack", in_woods=True) == 1
    assert line_turn_extra(orders="advance", in_woods=True) == 0
    assert line_turn_extra(orders="attack", in_woods=False) == 0
