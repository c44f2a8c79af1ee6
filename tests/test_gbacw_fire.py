"""GBACW fire: who may fire at what, the Fire Table read, and results on the target hex
(002 §10, §12.2-12.3, §12.35-12.36, §12.71; 004 §12.7). Worked examples with scripted dice."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gettysburg.core.dice import ScriptedDice, SeededDice
from gettysburg.core.hexes import DIRECTIONS, Hex
from gettysburg.core.protocol import RuleError
from gettysburg.gbacw.board import load_board
from gettysburg.gbacw.charts import all_charts
from gettysburg.gbacw.charts.fire import FireResult
from gettysburg.gbacw.facing import Facing
from gettysburg.gbacw.fire import (
    Battery,
    Firer,
    check_fire_sp,
    check_lone_battery_target,
    check_may_fire,
    check_phasing_split,
    check_rapid_fire,
    check_reserve,
    check_second_shot,
    check_target,
    combine_artillery,
    even_split,
    exit_side,
    extended_line_shot,
    flank_fire,
    in_fire_arc,
    may_approach_fire,
    may_pre_shock_fire,
    may_return_fire,
    may_withdrawal_fire,
    prepared_fire,
    refused_side_of,
    reserved_shot,
    return_fire_first,
    slope_terrain,
)
from gettysburg.gbacw.fire_result import (
    Situation,
    StackedLeader,
    TargetUnit,
    ammunition_after,
    apply_fire_result,
    apply_friendly_fire,
    defender_best_terrain,
    fire_modifiers,
    friendly_fire_risk,
    leader_dies_with_command,
    read_fire,
    replacement_for,
    roll_fire,
    withdrawal_after_fire,
)
from gettysburg.gbacw.oob import default_oob
from gettysburg.gbacw.stacking import StackEntry, fire_allowances
from gettysburg.gbacw.udd import udd, udd_passes

CHARTS = all_charts()
H0 = Hex(0, 0)
V0 = Facing.vertex(0)  # front hexes neighbour(0) and neighbour(1)


def firer(**kw: object) -> Firer:
    base: dict[str, object] = dict(unit="6 WI", arm="inf", hex=H0, facing=V0, weapon="R", sp=5,
                                   orders="attack", phasing=True)
    base.update(kw)
    return Firer(**base)  # type: ignore[arg-type]


def unit(name: str, sp: int, printed: int | None = None, *, arm: str = "inf",
         coh: int = 6, dcoh: int = 4, **kw: object) -> TargetUnit:
    return TargetUnit(name, arm, sp, printed or sp, coh, dcoh, **kw)  # type: ignore[arg-type]


def cell(code: str) -> FireResult:
    for col in CHARTS.fire.columns:
        for row in range(CHARTS.fire.roll_min, CHARTS.fire.roll_max + 1):
            r = CHARTS.fire.cell(col.id, row)
            if r.code == code:
                return r
    raise AssertionError(code)


# --- UDD (002 §2.6) --------------------------------------------------------------------------


def test_udd_passes_at_or_below_cohesion_2_6() -> None:
    assert udd_passes(5, 5) and not udd_passes(6, 5)
    assert udd_passes(7, 5, drm=0, leader_stars=2)  # §11.73 stars subtract
    assert not udd_passes(4, 5, drm=2)  # d+2
    r = udd(ScriptedDice([6], die="d10"), unit="x", cohesion=6)
    assert r.passed and r.roll == 6 and r.rule == "2.6"
    with pytest.raises(ValueError):
        udd_passes(10, 5)


# --- fire arc (002 §10.16, E-27) -------------------------------------------------------------


def test_fire_arc_front_hexsides_and_outer_vertex_e27() -> None:
    n = H0.neighbour
    assert in_fire_arc(H0, V0, n(0)) and in_fire_arc(H0, V0, n(1))
    assert not in_fire_arc(H0, V0, n(2)) and not in_fire_arc(H0, V0, n(5))
    assert not in_fire_arc(H0, V0, n(3))
    # through the facing vertex itself (between the two front hexsides): in arc
    assert in_fire_arc(H0, V0, n(0) + DIRECTIONS[1])
    # exactly through an outer vertex of the front hexsides: outside (E-27)
    assert not in_fire_arc(H0, V0, n(0) + DIRECTIONS[5])
    assert not in_fire_arc(H0, V0, n(1) + DIRECTIONS[2])
    # a line leaving through a front side at range 3
    far = n(0) + n(0) + n(1)
    assert exit_side(H0, far) == 0 and in_fire_arc(H0, V0, far)
    # a March unit fires through its one front hexside
    assert in_fire_arc(H0, Facing.side(2), n(2)) and not in_fire_arc(H0, Facing.side(2), n(1))


def test_refused_flank_adds_a_fire_side_7_34() -> None:
    left = H0.neighbour(2)  # the left flank of vertex 0
    assert not in_fire_arc(H0, V0, left)
    assert in_fire_arc(H0, V0, left, refused={"left"})
    assert refused_side_of(H0, V0, left, {"left"}) == "left"
    assert refused_side_of(H0, V0, H0.neighbour(0), {"left"}) is None


def test_flank_fire_drm_needs_a_flank_hexside_10_81() -> None:
    t = H0.neighbour(0)  # target facing vertex 3: its front is back towards H0
    facing_back = Facing.vertex(3)
    assert not flank_fire(t, facing_back, H0, target_orders="attack", ammunition="small_arms")
    facing_away = Facing.vertex(1)  # flanks: directions 0 and 3 (3 points back at H0)
    assert flank_fire(t, facing_away, H0, target_orders="attack", ammunition="small_arms")
    assert not flank_fire(t, facing_away, H0, target_orders="march", ammunition="small_arms")
    assert not flank_fire(t, facing_away, H0, target_orders="attack", ammunition="shell")


# --- range, prepared fire, may fire (002 §10.16, §10.3-10.6) ---------------------------------


def test_range_and_prepared_range_10_16_e6() -> None:
    ranges = CHARTS.range
    f = firer(phasing=False)
    assert prepared_fire(ranges, f, 2)  # R prepared range 2 (E-6), not §10.16's example 1
    assert not prepared_fire(ranges, f, 3)
    assert not prepared_fire(ranges, firer(weapon="M", phasing=False), 2)  # M: 2/1
    assert prepared_fire(ranges, firer(weapon="M", phasing=False), 1)
    assert not prepared_fire(ranges, firer(moved_mp=1), 1)  # phasing and moved
    assert not prepared_fire(ranges, firer(arm="cav"), 1)  # phasing dismounted cavalry
    assert prepared_fire(ranges, firer(arm="cav", phasing=False), 1)  # non-phasing: yes
    assert not prepared_fire(ranges, firer(disordered=True), 1)
    assert not prepared_fire(ranges, firer(restacked=True), 1)
    assert not prepared_fire(ranges, firer(faced_in_attack_woods=True), 1)


def test_who_may_fire_10_3_10_4_10_61() -> None:
    check_may_fire(firer(), "phasing")
    check_may_fire(firer(orders="attack", moved_mp=3), "phasing")  # Attack: move and fire
    with pytest.raises(RuleError) as e:
        check_may_fire(firer(orders="march"), "phasing")
    assert e.value.rule == "10.33"
    with pytest.raises(RuleError) as e:
        check_may_fire(firer(orders="march", phasing=False), "return")
    assert e.value.rule == "10.41"
    with pytest.raises(RuleError) as e:
        check_may_fire(firer(orders="advance", moved_mp=1), "phasing")
    assert e.value.rule == "10.33"
    with pytest.raises(RuleError) as e:
        check_may_fire(firer(), "phasing", fired_kinds={"phasing"})
    assert e.value.rule == "10.31"
    gun = firer(arm="art", weapon="N", orders="advance", moved_mp=2, ma=4)
    check_may_fire(gun, "phasing")  # artillery on Advance may move and fire (half MA)
    with pytest.raises(RuleError) as e:
        check_may_fire(firer(arm="art", weapon="N", moved_mp=3, ma=4), "phasing")
    assert e.value.rule == "10.61"
    with pytest.raises(RuleError) as e:
        check_may_fire(firer(arm="art", weapon="N", disordered=True), "phasing")
    assert e.value.rule == "10.61"
    with pytest.raises(RuleError) as e:
        check_may_fire(firer(phasing=False), "return", fired_kinds={"return"})
    assert e.value.rule == "10.41"
    check_may_fire(firer(phasing=False), "pre_shock", fired_kinds={"return"})
    with pytest.raises(RuleError):
        check_may_fire(firer(phasing=False, arm="art", weapon="N"), "withdrawal")
    with pytest.raises(RuleError):
        check_may_fire(firer(phasing=False), "approach")
    with pytest.raises(RuleError) as e:
        check_may_fire(firer(arm="art", weapon="N", ammo="out"), "phasing")
    assert e.value.rule == "10.69"


def test_rapid_fire_10_68() -> None:
    ranges = CHARTS.range
    check_rapid_fire(ranges, firer(arm="art", weapon="N"), 2)
    for bad in (firer(arm="art", weapon="TB"), firer(arm="art", weapon="N", moved_mp=1),
                firer(arm="art", weapon="N", became_top=True)):
        with pytest.raises(RuleError):
            check_rapid_fire(ranges, bad, 2)
    with pytest.raises(RuleError):
        check_rapid_fire(ranges, firer(arm="art", weapon="N"), 4)


def test_check_target_range_arc_and_adjacent_levels() -> None:
    board = load_board()
    here = board.parse("B3821")
    ahead = here.neighbour(0)
    f = firer(hex=here)
    shot = check_target(board, CHARTS.range, f, ahead)
    assert shot.hexes == 1 and shot.ammunition == "small_arms" and shot.sight is None
    with pytest.raises(RuleError) as e:
        check_target(board, CHARTS.range, f, here.neighbour(3))
    assert e.value.rule == "10.16"
    far = here
    for _ in range(6):
        far = far.neighbour(0)
    with pytest.raises(RuleError) as e:
        check_target(board, CHARTS.range, f, far)  # R reaches 5
    assert e.value.rule == "10.16"
    gun = firer(hex=here, arm="art", weapon="N")
    assert check_target(board, CHARTS.range, gun, ahead).ammunition == "canister"


def test_adjacent_artillery_two_levels_10_67() -> None:
    board = load_board()
    pair = next((h, d) for h, info in board.hexes.items() for d in range(6)
                if (n := board.hexes.get(h.neighbour(d))) is not None
                and abs(n.level - info.level) >= 2)
    h, d = pair
    gun = firer(hex=h, facing=Facing.vertex(d), arm="art", weapon="N")
    with pytest.raises(RuleError) as e:
        check_target(board, CHARTS.range, gun, h.neighbour(d))
    assert e.value.rule == "10.67"
    check_target(board, CHARTS.range, gun, h.neighbour(d), kind="pre_shock")


def test_steep_slope_protects_the_target_10_81() -> None:
    board = load_board()
    low, high = next((h, n) for h in sorted(board.hexes, key=lambda x: (x.q, x.r))
                     for d in range(6)
                     if (side := board.side(h, n := h.neighbour(d))) is not None
                     and side.slope == "steep" and side.uphill == n)
    assert slope_terrain(board, low, high) == ("up-one-level-steep",)
    assert slope_terrain(board, high, low) == ("down-one-level-steep",)
    mods = fire_modifiers(CHARTS, Situation(ammunition="small_arms", hexes=1, weapon="R",
                                            terrain=slope_terrain(board, low, high)))
    assert {m.source: m.value for m in mods}["terrain:up-one-level-steep"] == -1


# --- splits (002 §10.15) ---------------------------------------------------------------------


def test_10_15_example_1_phasing_split() -> None:
    """A 5 SP phasing unit with an enemy in each front hex: 5 at one, or 3 and 2."""
    a, b = H0.neighbour(0), H0.neighbour(1)
    check_phasing_split(5, [5], [a], {a, b})
    check_phasing_split(5, [3, 2], [a, b], {a, b})
    check_phasing_split(5, [2, 3], [a, b], {a, b})
    for bad in ([4, 1], [5, 0]):
        with pytest.raises(RuleError) as e:
            check_phasing_split(5, bad, [a, b], {a, b})
        assert e.value.rule == "10.15"
    with pytest.raises(RuleError):
        check_phasing_split(5, [3, 2], [a, a], {a, b})
    assert even_split(5, 2) == [3, 2]


def test_10_15_example_2_reserve() -> None:
    """A 3 SP non-phasing unit returns fire with 1 or 2 SP, holding the rest; after losses
    the held-back shot fires what is left."""
    check_reserve(3, 2, 1)
    check_reserve(3, 1, 2)
    check_reserve(3, 3, 0)
    with pytest.raises(RuleError):
        check_reserve(5, 4, 1)
    assert reserved_shot(2, 1) == 1 and reserved_shot(1, 3) == 1
    check_second_shot(H0.neighbour(0), H0.neighbour(1), 1)
    with pytest.raises(RuleError):
        check_second_shot(H0.neighbour(0), H0.neighbour(0), 1)
    with pytest.raises(RuleError):
        check_second_shot(H0.neighbour(0), H0.neighbour(1), 2)


# --- non-phasing kinds (002 §10.42-10.45) ----------------------------------------------------


def test_10_42_example_1_return_fire_up_to_the_hex_limit() -> None:
    """Several units may return fire, up to 7 SP from the hex (§8.31)."""
    target, shooter = H0, H0.neighbour(0)
    assert may_return_fire(target, target_hex=target, firer_hex=shooter,
                           enemy_front_of_other=True)
    neighbour = H0.neighbour(1)  # adjacent to both
    assert may_return_fire(neighbour, target_hex=target, firer_hex=shooter,
                           enemy_front_of_other=False)
    assert not may_return_fire(neighbour, target_hex=target, firer_hex=shooter,
                               enemy_front_of_other=True)
    assert not may_return_fire(H0.neighbour(3).neighbour(3), target_hex=target,
                               firer_hex=shooter, enemy_front_of_other=False)
    stack = [StackEntry("a", "inf", 4, "X"), StackEntry("b", "inf", 5, "X")]
    assert fire_allowances(stack) == [4, 3]
    assert not return_fire_first(phasing_shell=False, reaction_facing=False)
    assert return_fire_first(phasing_shell=True, reaction_facing=False)


def test_10_42_example_2_stacked_phasing_units_fire_in_turn() -> None:
    """3 and 3 SP over 5 and 4 SP: 3, 3, then 1 SP, and the bottom unit cannot fire."""
    stack = [StackEntry(n, "inf", sp, "X") for n, sp in (("a", 3), ("b", 3), ("c", 5), ("d", 4))]
    assert fire_allowances(stack) == [3, 3, 1, 0]


def test_per_hex_limits_10_14() -> None:
    stack = [StackEntry("a", "inf", 5, "X"), StackEntry("b", "inf", 4, "X")]
    check_fire_sp(stack, 0, 5)
    check_fire_sp(stack, 1, 2)
    with pytest.raises(RuleError) as e:
        check_fire_sp(stack, 1, 3)
    assert e.value.rule == "8.31"
    mixed = [StackEntry("a", "inf", 5, "X"), StackEntry("A/1", "art", 6, "Arty")]
    with pytest.raises(RuleError) as e:
        check_fire_sp(mixed, 1, 1)
    assert e.value.rule == "8.33"


def test_10_42_example_3_one_sp_top_unit() -> None:
    """1d+2 eliminates the 1 SP phasing unit; its d+2 is ignored; the disordered unit below
    takes a UDD (the top was eliminated), fails: 2nd disorder from fire, -1 SP, retreat 1-2,
    done for the activation. Had it passed, the second 'd' would make it roll again."""
    top = unit("top", 1, phasing=True)
    below = unit("below", 4, 6, disordered=True, phasing=True, dcoh=3)
    out = apply_fire_result(CHARTS, ScriptedDice([9], die="d10"), cell("1d+2"), [top, below],
                            ammunition="small_arms")
    assert out.unit("top").sp == 0
    assert [s.what for s in out.steps] == ["loss", "eliminated", "ignored", "udd",
                                           "second_disorder", "loss", "retreat", "done"]
    assert out.unit("below").sp == 3 and out.unit("below").disordered
    assert out.retreats == (("below", 1, 2),)
    assert out.done == ("below",)
    # the other branch: it passes, stays, and the second result 'd' is another UDD
    passed = apply_fire_result(CHARTS, ScriptedDice([2], die="d10"), cell("1d+2"),
                               [top, below], ammunition="small_arms")
    still = passed.unit("below")
    assert still.sp == 4 and not passed.retreats
    again = apply_fire_result(CHARTS, ScriptedDice([3], die="d10"), cell("d"), [still],
                              ammunition="small_arms")
    assert [s.what for s in again.steps] == ["udd"]


def test_other_non_phasing_triggers_10_43_10_45() -> None:
    front = {H0.neighbour(0), H0.neighbour(1)}
    assert may_pre_shock_fire(H0, attacked=True, attacker_hexes=(), front=front,
                              enemy_front_of_other=False, used_this_activation=False)
    assert may_pre_shock_fire(H0, attacked=False, attacker_hexes={H0.neighbour(1)}, front=front,
                              enemy_front_of_other=False, used_this_activation=False)
    assert not may_pre_shock_fire(H0, attacked=False, attacker_hexes={H0.neighbour(1)},
                                  front=front, enemy_front_of_other=True,
                                  used_this_activation=False)
    assert not may_pre_shock_fire(H0, attacked=True, attacker_hexes=(), front=front,
                                  enemy_front_of_other=False, used_this_activation=True)
    np = firer(phasing=False)
    assert may_withdrawal_fire(np, leaving=H0.neighbour(0), front=front, voluntary_move=True)
    assert not may_withdrawal_fire(np, leaving=H0.neighbour(0), front=front,
                                   voluntary_move=False)
    assert not may_withdrawal_fire(np, leaving=H0.neighbour(3), front=front, voluntary_move=True)
    gun = firer(phasing=False, arm="art", weapon="N")
    three = H0.neighbour(0).neighbour(0).neighbour(0)
    assert may_approach_fire(gun, entered=three)
    assert not may_approach_fire(gun, entered=three.neighbour(0))
    assert not may_approach_fire(np, entered=three)


# --- artillery: combining, lone battery (002 §10.63-10.66) -----------------------------------


def test_combined_artillery_10_63_10_64() -> None:
    ranges = CHARTS.range
    a, b = Battery("A/1", "N", 4), Battery("B/1", "TB", 6)
    guns, drm = combine_artillery(ranges, [a, b], 5)
    assert guns == 10 and drm == min(ranges.drm("N", 5)[0], ranges.drm("TB", 5)[0])
    with pytest.raises(RuleError) as e:
        combine_artillery(ranges, [a, b], 2)
    assert e.value.rule == "10.63"
    # sections of one battery combine at canister range, with the worse DRM
    guns, drm = combine_artillery(ranges, [Battery("A/1", "N", 2), Battery("A/1", "H12", 2)], 1)
    assert guns == 4 and drm == min(ranges.drm("N", 1)[0], ranges.drm("H12", 1)[0])
    with pytest.raises(RuleError):
        check_lone_battery_target(phasing=True, alone=True, enemy_front={H0.neighbour(0)},
                                  targets={Hex(5, 0)})
    check_lone_battery_target(phasing=True, alone=False, enemy_front={H0.neighbour(0)},
                              targets={Hex(5, 0)})


def test_extended_line_combines_its_parts_8_45() -> None:
    """A 9 SP line (5 + 4, §8.44) firing both parts at one hex fires 9 SP at the worse
    range DRM; the defender gets the better terrain of the two lines of fire."""
    sp, drm = extended_line_shot(CHARTS.range, "R", [(5, 2), (4, 3)])
    assert sp == 9 and drm == CHARTS.range.drm("R", 3)[0]
    with pytest.raises(RuleError):
        extended_line_shot(CHARTS.range, "R", [])
    assert defender_best_terrain(CHARTS, [("orchard",), ("town",), ()]) == ("town",)


# --- DRMs and the table (002 §10.17, §10.8; E-21) --------------------------------------------


def test_modifiers_by_source_10_81() -> None:
    s = Situation(ammunition="small_arms", hexes=2, weapon="R", prepared=True,
                  firer_disordered=True, flank=True, terrain=("woods",), green_infantry=True)
    mods = {m.source: m.value for m in fire_modifiers(CHARTS, s)}
    assert mods == {"range": 1, "terrain:woods": -1, "prepared": 1, "disordered-firer": -1,
                    "flank": 1, "green-infantry": -1}
    shell = Situation(ammunition="shell", hexes=6, weapon="N", flank=True, target_lower=True,
                      terrain=("breastworks",),
                      target_hex=(StackEntry("a", "inf", 5, "X"), StackEntry("b", "inf", 4, "X")))
    mods = {m.source: m.value for m in fire_modifiers(CHARTS, shell)}
    # no flank or breastworks against shell; massed target; downhill artillery
    assert mods == {"range": 0, "massed-target": 1, "artillery-downhill": 1}
    canister = Situation(ammunition="canister", hexes=1, weapon="N", prepared=True,
                         breastworks_firing_out=True, light="dusk")
    mods = {m.source: m.value for m in fire_modifiers(CHARTS, canister)}
    assert mods == {"range": 4}  # no prepared or breastworks bonus for guns; dusk at 1 hex
    night = Situation(ammunition="small_arms", hexes=2, weapon="R", light="night", fatigue=3)
    mods = {m.source: m.value for m in fire_modifiers(CHARTS, night)}
    assert mods["night"] == -3 and mods["fatigue"] == -2


def test_read_fire_clamps_to_printed_rows_e21() -> None:
    from gettysburg.gbacw.fire_result import Modifier
    big = read_fire(CHARTS, "sa-15+", 15, 9, [Modifier("x", 9, "t")])
    assert big.modified == 18 and big.row == 12 and big.result.code == "3D"
    low = read_fire(CHARTS, "sa-1", 1, 0, [Modifier("x", -6, "t")])
    assert low.row == -2 and low.result.no_effect
    r = roll_fire(CHARTS, ScriptedDice([7], die="d10"), ammunition="small_arms", strength=5,
                  modifiers=[Modifier("range", 1, "10.16")], firer="6 WI")
    assert (r.column, r.roll, r.modified, r.result.code) == ("sa-4-5", 7, 8, "D")
    assert r.to_json()["rule"] == "10.17"
    with pytest.raises(RuleError):
        roll_fire(CHARTS, ScriptedDice([7], die="d10"), ammunition="shell", strength=0,
                  modifiers=[])


def test_ammunition_e5() -> None:
    def after(rolls: list[int], ammo: str = "none", rf: bool = False) -> str:
        return ammunition_after(CHARTS, rolls, ammo, rapid_fire=rf,  # type: ignore[arg-type]
                                artillery=True)
    assert after([5]) == "low" and after([5], "low") == "out" and after([4]) == "none"
    assert after([3], "low") == "low"
    assert after([0, 3], rf=True) == "out" and after([3, 5], rf=True) == "out"
    assert after([3, 4], rf=True) == "none"
    # small arms only with the optional rule (off for TDG)
    assert ammunition_after(CHARTS, [5], "none", rapid_fire=False, artillery=False) == "none"
    assert ammunition_after(CHARTS, [5], "none", rapid_fire=False, artillery=False,
                            small_arms_rule=True) == "low"


# --- results (002 §8.35, §12.2-12.3, §12.35-12.36) -------------------------------------------


def test_8_35_shell_each_unit_rolls_once() -> None:
    """Shell at 5 hexes gives a UDD: each unit rolls; the top fails, the bottom passes and
    takes no second UDD for the top's failure."""
    out = apply_fire_result(CHARTS, ScriptedDice([9, 1], die="d10"), cell("d"),
                            [unit("top", 5), unit("low", 4)], ammunition="shell")
    assert [s.what for s in out.steps] == ["udd", "disorder", "udd"]
    assert out.unit("top").disordered and not out.unit("low").disordered


def test_small_arms_top_disordered_others_test_8_35() -> None:
    out = apply_fire_result(CHARTS, ScriptedDice([9, 9], die="d10"), cell("d+2"),
                            [unit("top", 5), unit("low", 4)], ammunition="small_arms")
    whats = [(s.what, s.unit) for s in out.steps]
    assert whats == [("udd", "top"), ("disorder", "top"), ("udd", "low"), ("disorder", "low")]
    assert out.steps[0].detail["drm"] == 2 and out.steps[2].detail["drm"] == 0


def test_fatigue_adds_half_to_every_udd_17_31() -> None:
    out = apply_fire_result(CHARTS, ScriptedDice([5], die="d10"), cell("d"),
                            [unit("a", 5, coh=6, fatigue=3)], ammunition="small_arms")
    assert out.steps[0].detail["drm"] == 2 and out.unit("a").disordered  # 5 + 2 > 6


def test_artillery_target_takes_plus_two_on_the_udd() -> None:
    out = apply_fire_result(CHARTS, ScriptedDice([4], die="d10"), cell("d"),
                            [unit("A/1", 6, arm="art", coh=5, dcoh=5)], ammunition="canister")
    assert out.steps[0].detail["drm"] == 2 and out.unit("A/1").disordered


def test_12_23_example_1_collapse_at_the_fifth_loss() -> None:
    """An 8 SP unit that has lost 4 is normal; its fifth loss collapses and disorders it."""
    base = unit("8 SP", 4, 8)
    assert not base.collapsed
    five_left = apply_fire_result(CHARTS, ScriptedDice([], die="d10"), cell("1D"),
                                  [unit("8 SP", 5, 8)], ammunition="small_arms")
    u = five_left.unit("8 SP")
    assert u.sp == 4 and not u.collapsed and u.disordered  # the D only


def test_12_23_example_2_collapse_then_second_disorder_then_rout_check() -> None:
    """1D on the unit of example 1: to 3 SP, disordered and collapsed; the D is now a 2nd
    disorder: to 2 SP and retreat; then, having lost SP while collapsed, a rout check."""
    out = apply_fire_result(CHARTS, ScriptedDice([9], die="d10"), cell("1D"),
                            [unit("8 SP", 4, 8, dcoh=4)], ammunition="small_arms")
    whats = [s.what for s in out.steps]
    assert whats == ["loss", "collapse", "second_disorder", "loss", "retreat", "udd", "rout"]
    u = out.unit("8 SP")
    assert u.sp == 2 and u.collapsed and u.disordered
    assert out.routs == ("8 SP",) and out.retreats == (("8 SP", 1, 2),)
    held = apply_fire_result(CHARTS, ScriptedDice([3], die="d10"), cell("1D"),
                             [unit("8 SP", 4, 8, dcoh=4)], ammunition="small_arms")
    assert held.routs == ()


def test_second_disorder_stack_loses_one_sp_12_35e() -> None:
    a = unit("a", 4, disordered=True)
    b = unit("b", 3, disordered=True)
    out = apply_fire_result(CHARTS, ScriptedDice([9], die="d10"), cell("D"), [a, b],
                            ammunition="small_arms")
    assert out.unit("a").sp == 3 and out.unit("b").sp == 3  # one SP in all, from the top
    assert set(out.retreats) == {("a", 1, 2), ("b", 1, 2)}
    shell = apply_fire_result(CHARTS, ScriptedDice([8], die="d10"), cell("D"), [a, b],
                              ammunition="shell")
    # shell: the loss falls at random (d10 8 of 0-9 with two units: the second)
    assert (shell.unit("a").sp, shell.unit("b").sp) == (4, 2)


def test_second_disorder_artillery_loses_a_gun_12_36() -> None:
    gun = unit("A/1", 6, arm="art", disordered=True)
    out = apply_fire_result(CHARTS, ScriptedDice([], die="d10"), cell("D"), [gun],
                            ammunition="canister")
    assert out.unit("A/1").sp == 5 and out.retreats == ()
    ff = apply_fire_result(CHARTS, ScriptedDice([], die="d10"), cell("D"), [gun],
                           ammunition="small_arms", cause="friendly-fire")
    assert [s.what for s in ff.steps] == ["second_disorder", "abandoned"]


def test_second_disorder_friendly_fire_udd_or_rout_12_35b() -> None:
    u = unit("a", 4, disordered=True, dcoh=3)
    routed = apply_fire_result(CHARTS, ScriptedDice([8], die="d10"), cell("D"), [u],
                               ammunition="small_arms", cause="friendly-fire")
    assert routed.routs == ("a",) and routed.unit("a").sp == 4
    held = apply_fire_result(CHARTS, ScriptedDice([1], die="d10"), cell("D"), [u],
                             ammunition="small_arms", cause="friendly-fire")
    assert held.routs == () and held.unit("a").sp == 3 and held.retreats == (("a", 1, 2),)


def test_blown_cavalry_loses_one_more_and_checks_for_rout_11_58() -> None:
    """A blown unit disordered again: the fire 2nd disorder (-1 SP, retreat), then 1 SP more
    and a UDD for rout."""
    b = unit("1 VA Cav", 5, arm="cav", mounted=True, disordered=True, blown=True, dcoh=3)
    out = apply_fire_result(CHARTS, ScriptedDice([9], die="d10"), cell("D"), [b],
                            ammunition="small_arms")
    assert [s.what for s in out.steps] == ["second_disorder", "loss", "retreat", "loss",
                                           "udd", "rout"]
    assert out.unit("1 VA Cav").sp == 3 and out.routs == ("1 VA Cav",)
    assert out.steps[3].rule == "11.58" and out.steps[4].rule == "11.58"


def test_friendly_fire_10_26() -> None:
    assert friendly_fire_risk(2) and not friendly_fire_risk(3)
    good, shaken = unit("a", 5), unit("b", 4, disordered=True, dcoh=3)
    out = apply_friendly_fire(CHARTS, ScriptedDice([9, 9, 1], die="d10"), [good, shaken])
    whats = [(s.what, s.unit) for s in out.steps]
    assert whats == [("udd", "a"), ("disorder", "a"), ("udd", "b"), ("second_disorder", "b"),
                     ("udd", "b"), ("loss", "b"), ("retreat", "b")]
    assert out.steps[3].detail["cause"] == "friendly-fire"
    assert out.unit("b").sp == 3  # passed the §12.35b UDD: -1 SP and retreat


def test_withdrawal_after_fire_10_44() -> None:
    passed = apply_fire_result(CHARTS, ScriptedDice([1], die="d10"), cell("d"),
                               [unit("a", 5)], ammunition="small_arms")
    assert withdrawal_after_fire(passed, "a") == "full"
    failed = apply_fire_result(CHARTS, ScriptedDice([9], die="d10"), cell("d"),
                               [unit("a", 5)], ammunition="small_arms")
    assert withdrawal_after_fire(failed, "a") == "one_hex"
    second = apply_fire_result(CHARTS, ScriptedDice([], die="d10"), cell("D"),
                               [unit("a", 5, disordered=True)], ammunition="small_arms")
    assert withdrawal_after_fire(second, "a") == "none"


# --- leaders (002 §12.71-12.76; 004 §12.7) ---------------------------------------------------


def test_leader_rolls_before_the_udd_on_1d_plus_2_12_71() -> None:
    """1d+2: the leader rolls first (0: killed); his stars then no longer help the UDD."""
    ld = StackedLeader("meredith", 1, frozenset({"19 IN"}))
    out = apply_fire_result(CHARTS, ScriptedDice([0, 7], die="d10"), cell("1d+2"),
                            [unit("19 IN", 5, coh=7)], ammunition="small_arms", leaders=[ld])
    assert [s.what for s in out.steps][:4] == ["loss", "leader_check", "leader_killed", "udd"]
    assert out.killed == ("meredith",)
    assert out.steps[3].detail["leader_stars"] == 0 and out.unit("19 IN").disordered
    alive = apply_fire_result(CHARTS, ScriptedDice([4, 7], die="d10"), cell("1d+2"),
                              [unit("19 IN", 5, coh=7)], ammunition="small_arms",
                              leaders=[ld])
    assert alive.killed == () and alive.steps[2].detail["leader_stars"] == 1
    assert alive.unit("19 IN").disordered  # 7 + 2 - 1 = 8 > 7


def test_leader_rolls_after_udds_for_second_disorder_losses_12_71() -> None:
    ld = StackedLeader("x", 1, frozenset({"a"}))
    out = apply_fire_result(CHARTS, ScriptedDice([5], die="d10"), cell("D"),
                            [unit("a", 4, disordered=True)], ammunition="small_arms",
                            leaders=[ld])
    assert [s.what for s in out.steps] == ["second_disorder", "loss", "retreat", "leader_check"]
    assert leader_dies_with_command(0, 0) and not leader_dies_with_command(0, 2)


def test_004_12_7_hancock_caldwell_gibbon() -> None:
    oob = default_oob()
    first = replacement_for(oob, "hancock", ())
    assert first.successor == "caldwell" and first.rule == "12.74"
    r = replacement_for(oob, "hancock", {"caldwell"})
    assert r.successor == "gibbon" and r.rule == "tdg.12.7"
    assert r.also_flipped == (("gibbon", "harrow"),)  # §12.75: Gibbon's counter flips too
    brig = replacement_for(oob, "caldwell", ())
    assert brig.successor == oob.leader("caldwell").replacement


# --- properties ------------------------------------------------------------------------------

codes = sorted({CHARTS.fire.cell(c.id, r).code for c in CHARTS.fire.columns
                for r in range(CHARTS.fire.roll_min, CHARTS.fire.roll_max + 1)})
units_st = st.lists(
    st.tuples(st.integers(1, 12), st.integers(0, 11), st.booleans(), st.booleans(),
              st.sampled_from(["inf", "art", "cav"])),
    min_size=1, max_size=4)


@settings(max_examples=150, deadline=None)
@given(units_st, st.sampled_from(codes), st.sampled_from(["small_arms", "canister", "shell"]),
       st.sampled_from(["fire", "friendly-fire"]), st.integers(0, 2**31))
def test_results_never_negative_and_replay(spec: list[tuple[int, int, bool, bool, str]],
                                           code: str, ammunition: str, cause: str,
                                           seed: int) -> None:
    us = [TargetUnit(f"u{i}", arm, max(1, printed - lost) if printed - lost > 0 else 1,  # type: ignore[arg-type]
                     printed, 6, 4, disordered=dis, collapsed=col and arm != "art")
          for i, (printed, lost, dis, col, arm) in enumerate(spec)]
    res = cell(code)
    a = apply_fire_result(CHARTS, SeededDice(seed), res, us, ammunition=ammunition,  # type: ignore[arg-type]
                          cause=cause, leaders=[StackedLeader("L", 2, frozenset({"u0"}))])  # type: ignore[arg-type]
    b = apply_fire_result(CHARTS, SeededDice(seed), res, us, ammunition=ammunition,  # type: ignore[arg-type]
                          cause=cause, leaders=[StackedLeader("L", 2, frozenset({"u0"}))])  # type: ignore[arg-type]
    assert a == b
    for before, after in zip(us, a.units, strict=True):
        assert 0 <= after.sp <= before.sp
    assert all(s.rule for s in a.steps)
    lost = sum(x.sp - y.sp for x, y in zip(us, a.units, strict=True))
    # small arms: the numbered loss plus at most one SP per stack and a gun per battery
    guns = sum(1 for u in us if u.artillery)
    if ammunition != "shell":
        assert lost <= res.sp_loss + 1 + guns


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["inf", "art", "cav"]), st.integers(1, 12)),
                min_size=1, max_size=4))
def test_hex_caps_hold(spec: list[tuple[str, int]]) -> None:
    entries = [StackEntry(f"u{i}", arm, sp, "X", mounted=arm == "cav")  # type: ignore[arg-type]
               for i, (arm, sp) in enumerate(spec)]
    allow = fire_allowances(entries)
    arty_only = all(e.kind == "artillery" for e in entries)
    assert all(0 <= a <= e.sp for a, e in zip(allow, entries, strict=True))
    if arty_only:
        assert sum(allow) <= 12
    else:
        small = sum(a for a, e in zip(allow, entries, strict=True) if e.kind != "artillery")
        assert small <= 7
        assert sum(a for a, e in zip(allow, entries, strict=True)
                   if e.kind == "mounted_cavalry") <= 4


def _rotate(h: Hex) -> Hex:
    """60 degrees round: direction d to direction d+1."""
    return Hex(h.q + h.r, -h.q)


@settings(max_examples=200, deadline=None)
@given(st.integers(-8, 8), st.integers(-8, 8), st.integers(0, 5),
       st.sampled_from(["vertex", "side"]))
def test_fire_arc_turns_with_the_facing(q: int, r: int, v: int, kind: str) -> None:
    h = Hex(q, r)
    assert _rotate(DIRECTIONS[v]) == DIRECTIONS[(v + 1) % 6]
    f, g = Facing(kind, v), Facing(kind, (v + 1) % 6)  # type: ignore[arg-type]
    assert in_fire_arc(H0, f, h) == in_fire_arc(H0, g, _rotate(h))
    # an arc of 120 degrees (vertex) or 60 (side): never both a hex and its opposite
    assert not (in_fire_arc(H0, f, h) and in_fire_arc(H0, f, Hex(-q, -r)))


@given(st.integers(1, 40), st.integers(1, 6))
def test_even_split_property_10_15(sp: int, parts: int) -> None:
    if sp < parts:
        with pytest.raises(RuleError):
            even_split(sp, parts)
        return
    shares = even_split(sp, parts)
    assert sum(shares) == sp and max(shares) - min(shares) <= 1 and len(shares) == parts
