"""Fire rules the engine now applies on every shot (issue 53, fire side), on hand-made
positions of tests/data/gbacw/gunline.yaml with scripted d10s: breastworks (002 §15.23),
random event M's rain (004 §18.0), the sunken road, town and farms (004 §9.84, §9.86,
§9.87), extended lines as targets (002 §8.45) and the stack's order (§8.23)."""

from __future__ import annotations

import pytest

from gbacw_gunline import (
    AL13,
    GAMBLE,
    IN3,
    MI5,
    NAP1,
    NAP2,
    RESERVE,
    TN1,
    at,
    gunline,
    hid,
    key_of,
    place,
    script,
)
from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import Action, Event, RuleError
from gettysburg.gbacw import fire_action as fa
from gettysburg.gbacw import formation_step
from gettysburg.gbacw.game import GbacwGame


def mods_of(g: GbacwGame, unit: str, target: Hex) -> dict[str, fa.Modifier]:
    plan = fa.check_fire(g, {"type": "fire", "unit": unit, "target": hid(g, target)}, "usa")
    return {m.source: m for m in fa.fire_modifiers_of(g, plan)}


def facing_pair(g: GbacwGame) -> tuple[Hex, Hex]:
    """IN3 (dismounted, small arms) facing vertex 0 at the centre, the 13th Alabama in its
    front hex facing back."""
    c = at(g, (0, 0))
    t = c.neighbour(0)
    place(g, IN3, c, 0)
    place(g, AL13, t, 3)
    return c, t


def apply_all(g: GbacwGame, action: Action, seat: str = "usa") -> list[Event]:
    ev = g.apply(action, seat)
    if [e.type for e in ev] == ["fire_declared"]:
        ev = g.apply({"type": "hold"}, "csa" if seat == "usa" else "usa")
    return ev


# --- breastworks (002 §15.23) --------------------------------------------------------------


def test_small_arms_fired_out_of_breastworks_get_plus_one_15_23() -> None:
    g = gunline(GAMBLE)
    c, t = facing_pair(g)
    assert "breastworks-firing-out" not in mods_of(g, IN3, t)
    g.pos.breastworks = [{"hex": hid(g, c), "vertex": 0}]  # guards the sides towards t
    m = mods_of(g, IN3, t)["breastworks-firing-out"]
    assert (m.value, m.rule) == (1, "15.23")
    g.pos.breastworks = [{"hex": hid(g, c), "vertex": 3}]  # the works face the other way
    assert "breastworks-firing-out" not in mods_of(g, IN3, t)


def test_infantry_behind_breastworks_minus_one_not_against_shell_15_23() -> None:
    g = gunline(GAMBLE)
    _c, t = facing_pair(g)
    g.pos.breastworks = [{"hex": hid(g, t), "vertex": 3}]  # the target's works face c
    m = mods_of(g, IN3, t)["breastworks"]
    assert (m.value, m.rule) == (-1, "15.23")
    # a battery at shell range (4 hexes) gets no such penalty; at canister range it does
    g2 = gunline(RESERVE)
    c2 = at(g2, (0, 0))
    far = c2
    for _ in range(4):
        far = far.neighbour(0)
    place(g2, NAP1, c2, 0)
    place(g2, AL13, far, 3)
    g2.pos.breastworks = [{"hex": hid(g2, far), "vertex": 3}]
    assert "breastworks" not in mods_of(g2, NAP1, far)
    near = c2.neighbour(0)
    place(g2, AL13, near, 3)
    g2.pos.breastworks = [{"hex": hid(g2, near), "vertex": 3}]
    assert mods_of(g2, NAP1, near)["breastworks"].value == -1


def test_breastworks_drm_reaches_the_fire_event_15_23() -> None:
    """The engine's shot reads the Fire Table one row lower behind works: 5 SP at 1 hex,
    an unmodified 5 with the works' -1."""
    g = gunline(GAMBLE)
    _c, t = facing_pair(g)
    g.pos.breastworks = [{"hex": hid(g, t), "vertex": 3}]
    script(g, [5])
    ev = apply_all(g, {"type": "fire", "unit": IN3, "target": hid(g, t)})
    shot = next(e for e in ev if e.type == "fire")
    sources = {m["source"]: m["value"] for m in shot.data["modifiers"]}
    assert sources["breastworks"] == -1
    assert shot.data["modified"] == 5 + shot.data["drm"]


# --- random event M (004 §18.0) ----------------------------------------------------------


def test_rain_minus_three_on_every_shot_tdg_18_0() -> None:
    g = gunline(GAMBLE)
    _, t = facing_pair(g)
    assert "heavy-rain" not in mods_of(g, IN3, t)
    g.pos.tdg["rain"] = {"from": g.pos.turn, "to": g.pos.turn}
    m = mods_of(g, IN3, t)["heavy-rain"]
    assert (m.value, m.rule) == (-3, "tdg.18.0")
    g.pos.tdg["rain"] = {"from": g.pos.turn + 1, "to": g.pos.turn + 2}  # not yet
    assert "heavy-rain" not in mods_of(g, IN3, t)


# --- Gettysburg's terrain (004 §9.84, §9.86, §9.87) ---------------------------------------


@pytest.mark.parametrize(("target", "firer", "source", "value", "rule"), [
    ("B4124", "B4125", "sunken-road", -1, "tdg.9.84"),  # the trench, not along the road
    ("B3319", "B3219", "terrain:town", -2, "10.81"),  # 004 §9.86 through the chart
    ("B1916", "B2017", "terrain:farm", -1, "10.81"),  # 004 §9.87 through the chart
])
def test_gettysburg_terrain_in_fire_tdg_9_84_9_86_9_87(target: str, firer: str, source: str,
                                                       value: int, rule: str) -> None:
    g = gunline(GAMBLE)
    t, f = g.cat.board.parse(target), g.cat.board.parse(firer)
    d = next(d for d in range(6) if f.neighbour(d) == t)
    place(g, IN3, f, d)
    place(g, AL13, t, (d + 3) % 6)
    m = mods_of(g, IN3, t)[source]
    assert (m.value, m.rule) == (value, rule)


def test_a_battery_in_the_sunken_road_fires_only_along_it_tdg_9_84() -> None:
    g = gunline(RESERVE)
    road, off = g.cat.board.parse("B4124"), g.cat.board.parse("B4125")
    d = next(d for d in range(6) if road.neighbour(d) == off)
    place(g, NAP1, road, d)
    place(g, AL13, off, (d + 3) % 6)
    with pytest.raises(RuleError) as err:
        fa.check_fire(g, {"type": "fire", "unit": NAP1, "target": hid(g, off)}, "usa")
    assert err.value.rule == "tdg.9.84"
    assert off not in fa.fire_targets(g, NAP1)


# --- extended lines as targets (002 §8.45) ------------------------------------------------


def extended_enemy(g: GbacwGame) -> tuple[Hex, Hex]:
    """The 1st Tennessee two hexes ahead of the centre, extended into its flank hex, which
    is IN3's front hex; the counter's own hex is out of IN3's front."""
    c = at(g, (0, 0))
    place(g, IN3, c, 0)
    part = c.neighbour(0)
    counter_hex = part.neighbour(5)  # beside the part, away from IN3's arc
    tn = key_of(g, TN1)
    place(g, TN1, counter_hex, 2)
    u = g.pos.units[tn]
    u.extension, u.extends = "line", [hid(g, part)]
    g._memo.clear()
    return part, counter_hex


def test_an_extension_hex_is_a_fire_target_8_45() -> None:
    g = gunline(GAMBLE)
    part, counter_hex = extended_enemy(g)
    assert part in fa.enemy_targets(g, "usa") and counter_hex in fa.enemy_targets(g, "usa")
    assert part in fa.fire_targets(g, IN3)
    tn = key_of(g, TN1)
    assert fa.target_keys(g, part) == [tn]
    script(g, [9] + [9] * 10)  # a 9 at 1 hex: the top unit's loss and check
    ev = apply_all(g, {"type": "fire", "unit": IN3, "target": hid(g, part)})
    shot = next(e for e in ev if e.type == "fire")
    assert shot.data["target"] == hid(g, part)
    hit = [e for e in ev if e.type.startswith("fire_") and e.data.get("unit") == tn]
    assert hit, [e.type for e in ev]


def test_a_disordered_line_puts_its_stacked_battery_to_a_udd_8_45() -> None:
    """The Tennessee line is disordered by a shot at its part; the Confederate battery in the
    counter's hex rolls a UDD (here a 9 against cohesion 7: it fails and is disordered)."""
    g = gunline(GAMBLE)
    _part, counter_hex = extended_enemy(g)
    bat = key_of(g, "CS-III:Pittsylvania/A")
    place(g, "CS-III:Pittsylvania/A", counter_hex, 2)
    assert formation_step.disorder_spread(g, key_of(g, TN1)) == [bat]
    g2 = gunline(GAMBLE)
    part2, counter2 = extended_enemy(g2)
    place(g2, "CS-III:Pittsylvania/A", counter2, 2)
    script(g2, [9, 9, 9, 9, 9, 9])  # the shot; the line's UDD fails; the battery's UDD fails
    ev = apply_all(g2, {"type": "fire", "unit": IN3, "target": hid(g2, part2)})
    assert g2.pos.units[key_of(g2, TN1)].disordered
    udds = [e for e in ev if e.type == "fire_udd" and e.rule == "8.45"]
    assert [e.data["unit"] for e in udds] == [bat]
    assert g2.pos.units[bat].disordered == (not bool(udds[0].data["passed"]))


# --- the stack's order (002 §8.23) ---------------------------------------------------------


def test_stack_keys_follow_the_stack_order_8_23() -> None:
    g = gunline(RESERVE)
    c = at(g, (0, 0))
    place(g, NAP2, c, 0)
    place(g, NAP1, c, 0)
    assert fa.stack_keys(g, c) == [NAP2, NAP1]
    assert fa.stack_keys(g, c) == formation_step.stack_of(g, c)
    g.pos.units[NAP2].stack, g.pos.units[NAP1].stack = 1, 0
    assert fa.stack_keys(g, c) == [NAP1, NAP2] == formation_step.stack_of(g, c)


# --- no fire after re-ordering a stack on Advance orders (002 §8.24) ----------------------


def restacked(orders: str) -> tuple[GbacwGame, Hex, list[Event]]:
    """IN3 under MI5 facing the 13th Alabama, Gamble's brigade on ``orders``; IN3 goes on
    top through the engine's ``restack``."""
    g = gunline(GAMBLE)
    c = at(g, (0, 0))
    mi5 = key_of(g, MI5)
    place(g, mi5, c, 0)
    place(g, IN3, c, 0)
    t = c.neighbour(0)
    place(g, AL13, t, 0)  # facing away: the stack is not in its front (§8.24)
    g.pos.brigades[GAMBLE].orders = orders
    g._memo.clear()
    ev = g.apply({"type": "restack", "unit": IN3}, "usa")
    return g, t, ev


def test_no_fire_after_a_restack_on_advance_orders_8_24() -> None:
    g, t, ev = restacked("advance")
    assert [e.type for e in ev][-1] == "restack" and fa.stack_keys(g, t.neighbour(3))[0] == IN3
    assert fa.fire_targets(g, IN3) == []
    assert not any(a.get("unit") == IN3 and str(a["type"]).endswith("fire")
                   for a in g.legal_actions("usa"))
    with pytest.raises(RuleError) as err:
        g.apply({"type": "fire", "unit": IN3, "target": hid(g, t)}, "usa")
    assert err.value.rule == "8.24"


def test_a_restack_on_attack_orders_still_fires_but_unprepared_8_24_10_52() -> None:
    g, t, _ = restacked("attack")
    assert t in fa.fire_targets(g, IN3)
    plan = fa.check_fire(g, {"type": "fire", "unit": IN3, "target": hid(g, t)}, "usa")
    assert plan.firer.restacked
    assert "prepared" not in {m.source for m in fa.fire_modifiers_of(g, plan)}


# --- 002 §9.55 Option 1: a battery that moved near a watching enemy holds its fire ----------


def test_caution_option_bans_fire_after_moving_near_the_enemy_9_55() -> None:
    g = gunline(RESERVE, options=("artillery_caution",))
    c = at(g, (0, 0))
    place(g, NAP1, c, 0)
    t = c.neighbour(0).neighbour(0).neighbour(0)  # three hexes, in sight on open ground
    place(g, AL13, t, 3)
    assert t in fa.fire_targets(g, NAP1)  # it has not moved
    u = g.pos.units[NAP1]
    u.moved, u.mp_spent = True, 1
    g._memo.clear()
    assert fa.fire_targets(g, NAP1) == []
    with pytest.raises(RuleError) as err:
        fa.check_fire(g, {"type": "fire", "unit": NAP1, "target": hid(g, t)}, "usa")
    assert err.value.rule == "9.55"
    place(g, AL13, t.neighbour(0), 3)  # four hexes: it may fire after all
    g._memo.clear()
    assert t.neighbour(0) in fa.fire_targets(g, NAP1)


def test_without_the_option_a_moved_battery_fires_9_55() -> None:
    g = gunline(RESERVE)
    c = at(g, (0, 0))
    place(g, NAP1, c, 0)
    t = c.neighbour(0).neighbour(0).neighbour(0)
    place(g, AL13, t, 3)
    u = g.pos.units[NAP1]
    u.moved, u.mp_spent = True, 1
    assert t in fa.fire_targets(g, NAP1)


# --- random event M's rain on rally rolls (004 §18.0) -------------------------------------


@pytest.mark.parametrize("rain", [False, True])
def test_rain_adds_two_to_rally_rolls_tdg_18_0(rain: bool) -> None:
    g = gunline(GAMBLE)
    place(g, IN3, at(g, (0, 0)), 0)
    g.pos.units[IN3].disordered = True
    if rain:
        g.pos.tdg["rain"] = {"from": g.pos.turn, "to": g.pos.turn}
    script(g, [3])
    ev = g.apply({"type": "rally", "unit": IN3}, "usa")
    r = next(e for e in ev if e.type == "rally").data
    assert r["roll"] == 3 and r["modified"] == (5 if rain else 3)
    assert ("heavy-rain" in r["drms"]) == rain  # type: ignore[operator]


# --- night (002 §16.12): no prepared fire, every battery fires alone -----------------------


def _night() -> int:
    from gettysburg.gbacw.charts import all_charts
    return next(i for i, t in enumerate(all_charts().turn_track.turns()) if t.light == "night")


def test_no_prepared_fire_at_night_16_12() -> None:
    g = gunline("CS-Archer/Heth")
    c = at(g, (0, 0))
    place(g, "CS-III:7 TN", c, 0)
    place(g, IN3, c.neighbour(0), 3)
    action = {"type": "fire", "unit": "CS-III:7 TN", "target": hid(g, c.neighbour(0))}
    plan = fa.check_fire(g, action, "csa")
    assert "prepared" in {m.source for m in fa.fire_modifiers_of(g, plan)}
    g.pos.turn = _night()
    plan = fa.check_fire(g, action, "csa")
    assert "prepared" not in {m.source for m in fa.fire_modifiers_of(g, plan)}


def test_batteries_do_not_combine_at_night_16_12() -> None:
    g = gunline(RESERVE)
    c = at(g, (0, 0))
    place(g, NAP1, c, 0)
    place(g, NAP2, c, 0)
    t = c
    for _ in range(4):  # two batteries combine at four hexes or more (§10.63)
        t = t.neighbour(0)
    place(g, AL13, t, 3)
    action = {"type": "combined_fire", "unit": NAP1, "with": [NAP2], "target": hid(g, t)}
    assert fa.check_order(g, action, "usa").shooters == (NAP1, NAP2)
    g.pos.turn = _night()
    with pytest.raises(RuleError) as err:
        fa.check_order(g, action, "usa")
    assert err.value.rule == "16.12"
    assert fa.check_fire(g, {"type": "fire", "unit": NAP1, "target": hid(g, t)}, "usa").sp == 6


# --- 002 §9.63: hurt by the mover's fire, a reaction move goes one hex only ------------------


def test_mounted_cavalry_hurt_by_phasing_fire_reacts_one_hex_only_9_63() -> None:
    from gettysburg.gbacw import reaction_step
    g = gunline("CS-Archer/Heth")
    c = at(g, (0, 0))
    tn7 = "CS-III:7 TN"
    place(g, tn7, c, 0)
    u = g.pos.units[IN3]
    place(g, IN3, c.neighbour(0), 0)  # facing away: mounted, free to ride off
    u.counter = u.counter.replace("dismounted", "mounted")
    g._memo.clear()
    before = reaction_step.moves(g, IN3, c)
    assert any(len(m) == 2 for m in before)
    script(g, [9] * 12)
    apply_all(g, {"type": "fire", "unit": tn7, "target": hid(g, c.neighbour(0))}, "csa")
    assert u.lost > 0 or u.disordered
    assert f"{fa.HURT}{IN3}" in g.pos.reacted
    g._memo.clear()
    after = reaction_step.moves(g, IN3, c)
    assert after and all(len(m) == 1 for m in after)


# --- random event J: the jinxed battery (004 §18.0) ------------------------------------------


@pytest.mark.parametrize(("roll", "drm"), [(4, -2), (7, 0)])
def test_a_jinxed_battery_rolls_the_opponents_d10_first_tdg_18_0(roll: int, drm: int) -> None:
    g = gunline(RESERVE)
    c = at(g, (0, 0))
    place(g, NAP1, c, 0)
    t = c.neighbour(0).neighbour(0)
    place(g, AL13, t, 3)
    g.pos.tdg["jinx"] = ["usa"]
    script(g, [roll, 5] + [9] * 10)
    ev = apply_all(g, {"type": "fire", "unit": NAP1, "target": hid(g, t)})
    types = [e.type for e in ev]
    assert types.index("random_event_effect") < types.index("fire")
    shot = next(e for e in ev if e.type == "fire")
    assert shot.data["roll"] == 5
    mods = {m["source"]: m for m in shot.data["modifiers"]}  # type: ignore[union-attr]
    assert (mods["battery-jinx"]["value"] if drm else 0) == drm
    assert ("battery-jinx" in mods) == bool(drm)
    assert "jinx" not in g.pos.tdg  # spent either way


def test_the_preview_of_a_shot_at_an_extension_hex_8_45() -> None:
    from gettysburg.gbacw.preview import fire_preview
    g = gunline(GAMBLE)
    part, _ = extended_enemy(g)
    got = fire_preview(g, "usa", {"type": "fire", "unit": IN3, "target": hid(g, part)})
    assert got is not None and got["units"] == [key_of(g, TN1)]


# --- an extended line fires by its parts (002 §8.45) -----------------------------------------


def line_of_tn1(target: tuple[int, ...]) -> tuple[GbacwGame, str, Hex]:
    """The 1st Tennessee (6 SP) facing vertex 0 at the centre, extended into its left flank
    hex (3 SP a hex); IN3 placed by the directions in ``target`` from the centre."""
    g = gunline("CS-Archer/Heth")
    c = at(g, (0, 0))
    place(g, TN1, c, 0)
    tn = key_of(g, TN1)
    u = g.pos.units[tn]
    u.extension, u.extends = "line", [hid(g, c.neighbour(5))]
    t = c
    for d in target:
        t = t.neighbour(d)
    place(g, IN3, t, 3)
    g._memo.clear()
    return g, tn, t


def test_parts_that_reach_one_hex_combine_8_45() -> None:
    g, tn, t = line_of_tn1((0, 0))
    plan = fa.check_fire(g, {"type": "fire", "unit": tn, "target": hid(g, t)}, "csa")
    assert plan.sp == 6 and plan.range_drm is not None  # 3 + 3, the worst range DRM
    script(g, [5] * 12)
    ev = apply_all(g, {"type": "fire", "unit": tn, "target": hid(g, t)}, "csa")
    shot = next(e for e in ev if e.type == "fire")
    assert shot.data["sp"] == 6


@pytest.mark.parametrize(("target", "part"), [((1,), 0), ((5, 0), 1)])
def test_a_hex_only_one_part_reaches_gets_that_parts_share_8_45(target: tuple[int, ...],
                                                                part: int) -> None:
    g, tn, t = line_of_tn1(target)
    plan = fa.check_fire(g, {"type": "fire", "unit": tn, "target": hid(g, t)}, "csa")
    hexes = [g.hex_of(g.pos.units[tn].hex), *fa.part_hexes(g, tn)]
    assert plan.sp == 3 and plan.range_drm is None and plan.firer.hex == hexes[part]


def test_a_hex_no_part_has_in_its_arc_is_refused_8_45() -> None:
    g, tn, t = line_of_tn1((5, 5))
    with pytest.raises(RuleError) as err:
        fa.check_fire(g, {"type": "fire", "unit": tn, "target": hid(g, t)}, "csa")
    assert err.value.rule == "10.16"
    assert t not in fa.fire_targets(g, tn)
