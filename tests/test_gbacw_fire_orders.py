"""Fire orders in the engine (gbacw/fire_action.py, return_fire.py; issue 53) on hand-made
positions of tests/data/gbacw/gunline.yaml with scripted d10s: split fire (002 §10.15,
§10.65), combined batteries (§10.63-10.64), rapid fire (§10.68), the lone battery (§10.66),
Spencer repeaters (§14.31-14.33), friendly fire (§10.26), light (§16.11-16.12), fatigue
(§17.31), refused fronts (§7.34) and the battle book's cut (004 §9.83)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from gbacw_gunline import (
    AL5,
    AL13,
    ARCHER,
    CUSTER,
    GARNETT,
    IN3,
    MI5,
    NAP1,
    NAP2,
    PITT_A,
    PITT_B,
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
from gettysburg.gbacw.game import GbacwGame

GAMBLE = "US-1/1/Cav"
C = (0, 0)


def nb(g: GbacwGame, h: Hex, d: int, n: int = 1) -> Hex:
    for _ in range(n):
        h = h.neighbour(d % 6)
    return h


def apply_all(g: GbacwGame, action: Action, seat: str = "usa",
              answer: Action | None = None) -> list[Event]:
    """Apply a phasing fire action; if the defender may answer, answer ``answer`` (hold by
    default)."""
    other = "csa" if seat == "usa" else "usa"
    ev = g.apply(action, seat)
    if [e.type for e in ev] == ["fire_declared"]:
        ev = g.apply(answer or {"type": "hold"}, other)
    return ev


def shots(ev: list[Event]) -> list[Event]:
    return [e for e in ev if e.type == "fire"]


# --- split fire (002 §10.15 example 1) ---------------------------------------------------


TN7 = "CS-III:7 TN"  # 5 SP of rifled muskets


def two_in_front() -> tuple[GbacwGame, Hex, Hex]:
    """Archer's 7th Tennessee (5 SP) with a Union regiment in each front hex."""
    g = gunline(ARCHER)
    c = at(g, C)
    place(g, TN7, c, 0)
    a, b = nb(g, c, 0), nb(g, c, 1)
    place(g, IN3, a, 3)
    place(g, key_of(g, MI5), b, 4)
    return g, a, b


def test_split_5_sp_as_3_and_2_10_15_example_1() -> None:
    """A phasing 5 SP unit with an enemy in each front hex fires 5 at one of them, or 3 and
    2: no other split."""
    g, a, b = two_in_front()
    split = {"type": "fire_split", "unit": TN7, "targets": [hid(g, b), hid(g, a)]}
    legal = g.legal_actions("csa")
    assert split in legal  # listed once, targets in the map's order
    assert {"type": "fire", "unit": TN7, "target": hid(g, a)} in legal
    g.validate({"type": "fire_split", "unit": TN7, "targets": [hid(g, a), hid(g, b)]}, "csa")
    order = fa.check_order(g, split, "csa")
    assert [p.sp for p in order.plans] == [3, 2]
    ev = apply_all(g, split, seat="csa")
    fired = shots(ev)
    assert [(s.data["target"], s.data["sp"]) for s in fired] == [(hid(g, b), 3), (hid(g, a), 2)]
    assert all(e.rule for e in ev)
    assert "phasing" in g.pos.units[TN7].fired


def test_split_refusals_10_15() -> None:
    g, a, b = two_in_front()
    before = g.position_json()
    with pytest.raises(RuleError) as e:  # twice at one hex
        g.validate({"type": "fire_split", "unit": TN7, "targets": [hid(g, a), hid(g, a)]},
                   "csa")
    assert e.value.rule == "10.15"
    assert g.position_json() == before
    far = nb(g, b, 1)
    g.pos.units[key_of(g, MI5)].hex = hid(g, far)  # two hexes off: no split at it (adjacent only)
    assert far in fa.fire_targets(g, TN7)
    with pytest.raises(RuleError) as e:
        g.validate({"type": "fire_split", "unit": TN7, "targets": [hid(g, a), hid(g, far)]},
                   "csa")
    assert e.value.rule == "10.15"


# --- combined and split battery fire (002 §10.63-10.66) ----------------------------------


def battery_pair(distance: int) -> tuple[GbacwGame, Hex]:
    g = gunline(RESERVE)
    c = at(g, C)
    place(g, NAP1, c, 0)
    place(g, NAP2, c, 0)
    target = nb(g, c, 0, distance)
    place(g, AL13, target, 3)
    return g, target


def test_two_batteries_combine_at_shell_range_10_63() -> None:
    g, target = battery_pair(4)
    action = {"type": "combined_fire", "unit": NAP1, "with": [NAP2], "target": hid(g, target)}
    assert action in g.legal_actions("usa")
    script(g, [5, 9])
    ev = apply_all(g, action)
    fired = shots(ev)
    assert len(fired) == 1
    assert fired[0].data["sp"] == 12 and fired[0].data["combined"] == [NAP1, NAP2]
    assert fired[0].data["ammunition"] == "shell"
    assert "phasing" in g.pos.units[NAP1].fired and "phasing" in g.pos.units[NAP2].fired
    # an unmodified 5 lowers the ammunition of every battery that fired together (10.69)
    assert g.pos.units[NAP1].ammo == "low" and g.pos.units[NAP2].ammo == "low"


def test_different_batteries_do_not_combine_at_canister_10_63() -> None:
    g, target = battery_pair(2)
    action = {"type": "combined_fire", "unit": NAP1, "with": [NAP2], "target": hid(g, target)}
    assert action not in g.legal_actions("usa")
    with pytest.raises(RuleError) as e:
        g.validate(action, "usa")
    assert e.value.rule == "10.63"


def test_sections_of_one_battery_combine_with_the_worst_range_drm_10_64() -> None:
    """Pittsylvania's 3-inch rifles (+3 at one hex) and Napoleons (+4) fire together at one
    hex: 4 guns on the small-arms columns with +3 for the range."""
    g = gunline(GARNETT)
    c = at(g, C)
    place(g, PITT_A, c, 0)
    place(g, PITT_B, c, 0)
    target = nb(g, c, 0)
    place(g, IN3, target, 3)
    action = {"type": "combined_fire", "unit": PITT_A, "with": [PITT_B],
              "target": hid(g, target)}
    assert action in g.legal_actions("csa")
    order = fa.check_order(g, action, "csa")
    assert order.plans[0].sp == 4 and order.plans[0].range_drm == 3
    ev = apply_all(g, action, seat="csa")
    mods = shots(ev)[0].data["modifiers"]
    assert {"source": "range", "value": 3, "rule": "10.64"} in mods


def test_a_section_does_not_split_but_a_battery_does_10_65() -> None:
    g = gunline(RESERVE)
    c = at(g, C)
    place(g, NAP1, c, 0)
    a, b = nb(g, c, 0, 5), nb(g, c, 1, 5)
    place(g, AL13, a, 3)
    place(g, TN1, b, 3)
    split = {"type": "fire_split", "unit": NAP1, "targets": [hid(g, a), hid(g, b)]}
    order = fa.check_order(g, split, "usa")  # any range for a battery (10.65)
    assert [p.sp for p in order.plans] == [3, 3]
    g2 = gunline(GARNETT)
    c2 = at(g2, C)
    place(g2, PITT_A, c2, 0)
    place(g2, IN3, nb(g2, c2, 0, 5), 3)
    place(g2, MI5, nb(g2, c2, 1, 5), 3)
    with pytest.raises(RuleError) as e:
        g2.validate({"type": "fire_split", "unit": PITT_A,
                     "targets": [hid(g2, nb(g2, c2, 0, 5)), hid(g2, nb(g2, c2, 1, 5))]}, "csa")
    assert e.value.rule == "10.65"


def test_lone_battery_fires_at_the_enemy_in_its_front_10_66() -> None:
    g = gunline(RESERVE)
    c = at(g, C)
    place(g, NAP1, c, 0)
    near, far = nb(g, c, 0), nb(g, c, 1, 4)
    place(g, AL13, near, 3)
    place(g, TN1, far, 3)
    assert fa.fire_targets(g, NAP1) == [near]
    with pytest.raises(RuleError) as e:
        g.validate({"type": "fire", "unit": NAP1, "target": hid(g, far)}, "usa")
    assert e.value.rule == "10.66"
    place(g, NAP2, c, 0)  # not alone: free to pick
    assert far in fa.fire_targets(g, NAP1)


# --- rapid fire (002 §10.68) ---------------------------------------------------------------


def test_rapid_fire_twice_at_one_hex_and_out_on_a_5_10_68() -> None:
    g, target = battery_pair(2)
    g.pos.units[NAP2].hex = None
    action = {"type": "rapid_fire", "unit": NAP1, "target": hid(g, target)}
    assert action in g.legal_actions("usa")
    script(g, [9, 5])
    ev = apply_all(g, action)
    fired = shots(ev)
    assert [s.data["roll"] for s in fired] == [9, 5]
    assert all(s.data["target"] == hid(g, target) for s in fired)
    assert g.pos.units[NAP1].ammo == "out"
    assert any(e.type == "fire_ammunition" and e.rule == "10.68" for e in ev)


def test_no_rapid_fire_at_shell_range_or_after_moving_10_68() -> None:
    g, target = battery_pair(4)
    g.pos.units[NAP2].hex = None
    action = {"type": "rapid_fire", "unit": NAP1, "target": hid(g, target)}
    assert action not in g.legal_actions("usa")
    with pytest.raises(RuleError) as e:
        g.validate(action, "usa")
    assert e.value.rule == "10.68"
    g2, t2 = battery_pair(2)
    g2.pos.units[NAP2].hex = None
    g2.pos.units[NAP1].mp_spent = 1
    with pytest.raises(RuleError) as e:
        g2.validate({"type": "rapid_fire", "unit": NAP1, "target": hid(g2, t2)}, "usa")
    assert e.value.rule == "10.68"


# --- Spencer repeaters (002 §14.3) -------------------------------------------------------


def spencer_facing_archer(attacker_faces_away: bool = True, active: str = CUSTER
                          ) -> tuple[GbacwGame, str, Hex]:
    g = gunline(active)
    c = at(g, C)
    k = key_of(g, MI5)
    place(g, k, c, 0)
    target = nb(g, c, 0)
    place(g, AL13, target, 0 if attacker_faces_away else 3)
    return g, k, target


def test_spencer_fires_a_second_round_14_31() -> None:
    g, k, target = spencer_facing_archer()
    action = {"type": "fire", "unit": k, "target": hid(g, target)}
    assert action in g.legal_actions("usa")
    script(g, [1, 1])
    ev = apply_all(g, action)
    fired = shots(ev)
    assert len(fired) == 2 and fired[1].data.get("second_round") is True
    assert [s.data["target"] for s in fired] == [hid(g, target)] * 2


def test_spencer_out_of_ammunition_on_a_5_in_the_second_round_14_33() -> None:
    g, k, target = spencer_facing_archer()
    script(g, [5, 1, 5, 1])  # the first round's 5, its target's UDD, the second round's 5
    ev = apply_all(g, {"type": "fire", "unit": k, "target": hid(g, target)})
    assert [s.data["roll"] for s in shots(ev)] == [5, 5]
    assert g.pos.units[k].ammo == "out"
    assert [e.rule for e in ev if e.type == "fire_ammunition"] == ["14.33"]


def test_a_disordered_spencer_fires_once_14_3() -> None:
    g, k, target = spencer_facing_archer()
    g.pos.units[k].disordered = True
    ev = apply_all(g, {"type": "fire", "unit": k, "target": hid(g, target)})
    assert len(shots(ev)) == 1


def test_return_fire_against_a_phasing_spencer_follows_it_14_31() -> None:
    """The Spencer's first round applies, then the return fire, then its second round."""
    g, k, target = spencer_facing_archer(attacker_faces_away=False)
    action = {"type": "fire", "unit": k, "target": hid(g, target)}
    ev = g.apply(action, "usa")
    assert [e.type for e in ev] == ["fire_declared"]
    script(g, [1, 1, 1])
    ev = g.apply({"type": "return_fire", "unit": AL13}, "csa")
    order = [(e.data["unit"], e.data.get("second_round", False)) for e in shots(ev)]
    assert order == [(k, False), (AL13, False), (k, True)]
    assert ev[[e.type for e in ev].index("return_fire")].rule == "14.31"


def test_a_returning_spencer_fires_a_second_round_14_32() -> None:
    g, k, _target = spencer_facing_archer(attacker_faces_away=False, active=ARCHER)
    action = {"type": "fire", "unit": AL13, "target": hid(g, at(g, C))}
    ev = g.apply(action, "csa")
    assert [e.type for e in ev] == ["fire_declared"]
    script(g, [1, 1, 1])
    ev = g.apply({"type": "return_fire", "unit": k}, "usa")
    order = [(e.data["unit"], e.data.get("second_round", False)) for e in shots(ev)]
    assert order == [(AL13, False), (k, False), (k, True)]


# --- friendly fire, light, fatigue, terrain, refused fronts -------------------------------


def test_fire_over_friends_next_to_the_target_on_a_2_or_less_10_26() -> None:
    g, target = battery_pair(2)
    g.pos.units[NAP2].hex = None
    plan = fa.check_fire(g, {"type": "fire", "unit": NAP1, "target": hid(g, target)}, "usa")
    friend = nb(g, target, 3)
    place(g, IN3, friend, 0)
    plan = replace(plan, over=(friend,))  # as if the line passed over them (they are lower)
    script(g, [2, 9, 9])
    done = fa.roll_shot(g, plan)
    assert done.friendly is not None
    ev = fa.shot_events(g, done)
    assert any(e.type == "friendly_fire" and e.rule == "10.26" for e in ev)
    udd = [e for e in ev if e.type == "fire_udd" and e.data["unit"] == IN3]
    assert udd and udd[0].data["rule"] == "10.26"
    script(g, [3, 9, 9])
    assert fa.roll_shot(g, plan).friendly is None


def test_dusk_halves_the_range_and_takes_2_beyond_one_hex_16_11() -> None:
    from gettysburg.gbacw.charts import all_charts
    turns = all_charts().turn_track.turns()
    dusk = next(i for i, t in enumerate(turns) if t.light == "dusk")
    g = gunline(GAMBLE)
    c = at(g, C)
    place(g, IN3, c, 0)
    place(g, AL13, nb(g, c, 0, 3), 3)
    assert fa.fire_targets(g, IN3) == [nb(g, c, 0, 3)]  # carbines reach 3 by day
    g.pos.turn = dusk
    assert fa.fire_targets(g, IN3) == []  # 3 halved rounding up is 2 (002 §16.11)
    for hexes, dark in ((2, True), (1, False)):
        g.pos.units[AL13].hex = hid(g, nb(g, c, 0, hexes))
        plan = fa.check_fire(g, {"type": "fire", "unit": IN3,
                                 "target": hid(g, nb(g, c, 0, hexes))}, "usa")
        mods = {m.source: m for m in fa.fire_modifiers_of(g, plan)}
        assert ("dawn-dusk" in mods) is dark  # -2 only beyond one hex
        if dark:
            assert mods["dawn-dusk"].value == -2 and mods["dawn-dusk"].rule == "16.11"


def test_night_fire_drm_16_12() -> None:
    from gettysburg.gbacw.charts import all_charts
    turns = all_charts().turn_track.turns()
    night = next(i for i, t in enumerate(turns) if t.light == "night")
    g = gunline(GAMBLE)
    c = at(g, C)
    place(g, IN3, c, 0)
    place(g, AL13, nb(g, c, 0), 3)
    g.pos.turn = night
    plan = fa.check_fire(g, {"type": "fire", "unit": IN3, "target": hid(g, nb(g, c, 0))},
                         "usa")
    mods = {m.source: m for m in fa.fire_modifiers_of(g, plan)}
    assert mods["night"].rule == "16.12"
    assert mods["night"].value == all_charts().fire.night_drm(1)


def test_fatigue_lowers_fire_rolls_17_31() -> None:
    g, a, _b = two_in_front()
    g.fatigue = True
    g.pos.brigades[ARCHER].fatigue = 5  # steps: the marker's Fatigue 3 (002 §17.24)
    plan = fa.check_fire(g, {"type": "fire", "unit": TN7, "target": hid(g, a)}, "csa")
    mods = {m.source: m for m in fa.fire_modifiers_of(g, plan)}
    assert mods["fatigue"].value == -2 and mods["fatigue"].rule == "17.31"
    g.pos.brigades[ARCHER].fatigue = 2  # Fatigue 0: no effect (§17.33)
    plan = fa.check_fire(g, {"type": "fire", "unit": TN7, "target": hid(g, a)}, "csa")
    assert "fatigue" not in {m.source for m in fa.fire_modifiers_of(g, plan)}


def test_fire_into_a_railroad_cut_tdg_9_83() -> None:
    g = gunline(GAMBLE)
    cut = g.cat.board.parse("A3002")
    firer = next(n for n in (cut.neighbour(d) for d in range(6))
                 if "railroad-cut" not in g.cat.board.hexes[n].features)
    d = next(d for d in range(6) if firer.neighbour(d) == cut)
    place(g, IN3, firer, d)
    place(g, AL13, cut, (d + 3) % 6)
    plan = fa.check_fire(g, {"type": "fire", "unit": IN3, "target": hid(g, cut)}, "usa")
    mods = {m.source: m for m in fa.fire_modifiers_of(g, plan)}
    assert mods["railroad-cut"].value == 2 and mods["railroad-cut"].rule == "tdg.9.83"
    assert "terrain:railroad-cut" not in mods


def test_refused_front_fires_its_share_7_34() -> None:
    """A refusing unit fires through its refused front at most half its SP (rounded down),
    the rest through the normal front."""
    g = gunline(GAMBLE)
    c = at(g, C)
    place(g, IN3, c, 0)
    g.pos.units[IN3].refused = ["left"]
    assert fa.fire_sp(g, IN3) == 5  # 6 SP less one holding the horses (002 §14.25)
    assert fa.fire_sp(g, IN3, refused_front=True) == 2
    assert fa.fire_sp(g, IN3, refused_front=False) == 3


def test_horse_holders_cut_dismounted_fire_14_25() -> None:
    """4 and 7 SP leave 1 SP with the horses, 8 SP leave 2 (002 §14.25's examples)."""
    g = gunline(CUSTER)
    c = at(g, C)
    for n, (key, sp) in enumerate((("US-Cav:5 MI Cav#1", 7), ("US-Cav:7 MI Cav", 8))):
        k = key_of(g, key)
        place(g, k, nb(g, c, 0, 3 * n), 0)
        assert g.counter(k).sp == sp
        assert fa.fire_sp(g, k) == sp - (2 if sp == 8 else 1)


# --- the non-phasing reserve (002 §10.15 example 2) ----------------------------------------


def test_a_3_sp_unit_returns_2_and_keeps_1_for_later_10_15_example_2() -> None:
    g = gunline(GAMBLE)
    c = at(g, C)
    place(g, AL5, c, 0)  # 3 SP
    a, b = nb(g, c, 0), nb(g, c, 1)
    place(g, IN3, a, 3)
    il8 = "US-Cav:8 IL"
    place(g, il8, b, 4)
    ev = g.apply({"type": "fire", "unit": IN3, "target": hid(g, c)}, "usa")
    assert [e.type for e in ev] == ["fire_declared"]
    assert {"type": "return_fire_reserve", "unit": AL5} in g.legal_actions("csa")
    script(g, [0, 0, 0, 0])
    ev = g.apply({"type": "return_fire_reserve", "unit": AL5}, "csa")
    back = [s for s in shots(ev) if s.data["unit"] == AL5]
    assert [s.data["sp"] for s in back] == [2]
    assert any(e.type == "fire_reserved" and e.data["sp"] == 1 for e in ev)
    # the second phasing shot comes from another hex: the reserve answers it with 1 SP
    ev = g.apply({"type": "fire", "unit": il8, "target": hid(g, c)}, "usa")
    assert [e.type for e in ev] == ["fire_declared"]
    legal = g.legal_actions("csa")
    assert {"type": "return_fire", "unit": AL5} in legal
    assert {"type": "return_fire_reserve", "unit": AL5} not in legal
    script(g, [0, 0, 0, 0])
    ev = g.apply({"type": "return_fire", "unit": AL5}, "csa")
    back = [s for s in shots(ev) if s.data["unit"] == AL5]
    assert [(s.data["sp"], s.data["target"]) for s in back] == [(1, hid(g, b))]
    assert "reserve_used" in g.pos.units[AL5].fired


# --- optional combined small-arms fire (002 §10.82) -----------------------------------------


@pytest.mark.parametrize("option", [False, True])
def test_stacked_small_arms_combine_with_the_option_10_82(option: bool) -> None:
    g = gunline(GAMBLE, options=("combined_small_arms",) if option else ())
    c = at(g, C)
    il12 = "US-Cav:12 IL"
    place(g, IN3, c, 0)
    place(g, il12, c, 0)
    target = nb(g, c, 0)
    place(g, AL13, target, 0)  # faces away: no return fire
    g.pos.units[il12].disordered = True
    ev = apply_all(g, {"type": "fire", "unit": IN3, "target": hid(g, target)})
    fired = shots(ev)
    assert len(fired) == 1
    # each less its horse holders (6 - 1, 5 - 1), the second unit then capped by the front of
    # the stack (002 §8.33): 5 and 2
    if option:  # 5 + 2 SP as one shot, the worse state for both (disordered)
        assert fired[0].data["combined"] == [IN3, il12] and fired[0].data["sp"] == 7
        assert "disordered-firer" in [m["source"] for m in fired[0].data["modifiers"]]
        assert "phasing" in g.pos.units[il12].fired
    else:
        assert fired[0].data["sp"] == 5 and g.pos.units[il12].fired == []


def test_fatigue_drms_stay_with_their_owner_fog_17_31() -> None:
    """The enemy's fatigue is hidden (the views): the fire event shows the firer's fatigue DRM
    to its own seat only; the other seat reads the roll without it (named as hidden)."""
    g, a, _b = two_in_front()
    g.fatigue = True
    g.pos.brigades[ARCHER].fatigue = 5  # steps: the marker's Fatigue 3, -2 (002 §17.31)
    start = {s: g.log_size(s) for s in ("usa", "csa")}
    ev = apply_all(g, {"type": "fire", "unit": TN7, "target": hid(g, a)}, seat="csa")
    assert any(m["source"] == "fatigue" for m in shots(ev)[0].data["modifiers"])
    mine = [e for e in g.events("csa", since=start["csa"]) if e["type"] == "fire"]
    theirs = [e for e in g.events("usa", since=start["usa"]) if e["type"] == "fire"]
    assert any(m["source"] == "fatigue" for m in mine[0]["data"]["modifiers"])
    assert theirs[0].get("redacted") is True
    assert all(m["source"] != "fatigue" for m in theirs[0]["data"]["modifiers"])
    assert theirs[0]["data"]["modified"] == mine[0]["data"]["modified"] + 2


# --- rapid return fire (002 §10.68) and the Spencer against it (§14.38) ----------------------


def test_a_battery_returns_rapid_fire_twice_10_68() -> None:
    g = gunline(ARCHER)
    c = at(g, C)
    place(g, NAP1, c, 0)
    target = nb(g, c, 0, 2)
    place(g, AL13, target, 3)
    ev = g.apply({"type": "fire", "unit": AL13, "target": hid(g, c)}, "csa")
    assert [e.type for e in ev] == ["fire_declared"]
    assert {"type": "rapid_return_fire", "unit": NAP1} in g.legal_actions("usa")
    script(g, [1, 1, 0, 1, 1, 1])
    ev = g.apply({"type": "rapid_return_fire", "unit": NAP1}, "usa")
    units = [s.data["unit"] for s in shots(ev)]
    assert units == [AL13, NAP1, NAP1]
    assert g.pos.units[NAP1].ammo == "out"  # an unmodified 0 on a rapid-fire shot
    assert "return" in g.pos.units[NAP1].fired


def test_spencer_and_rapid_fire_guns_alternate_14_38() -> None:
    g = gunline(CUSTER)
    c = at(g, C)
    k = key_of(g, MI5)
    place(g, k, c, 0)
    gun = nb(g, c, 0)
    place(g, PITT_B, gun, 3)  # two Napoleons, alone, facing the Michiganders
    ev = g.apply({"type": "fire", "unit": k, "target": hid(g, gun)}, "usa")
    assert [e.type for e in ev] == ["fire_declared"]
    assert {"type": "rapid_return_fire", "unit": PITT_B} in g.legal_actions("csa")
    script(g, [0] * 12)
    ev = g.apply({"type": "rapid_return_fire", "unit": PITT_B}, "csa")
    order = [(s.data["unit"], s.data.get("second_round", False)) for s in shots(ev)]
    assert order == [(k, False), (PITT_B, False), (k, True), (PITT_B, False)]
    assert any(e.type == "return_fire" and e.rule == "14.38" for e in ev)


def test_no_fire_listed_through_a_front_with_no_sp_left_7_34() -> None:
    """The legal list offers only shots the check accepts: a refused stack whose share
    through a front is 0 is not offered a shot through it (the bug g3_client saw)."""
    g = gunline(GAMBLE)
    c = at(g, C)
    place(g, IN3, c, 0)
    g.pos.units[IN3].lost = 4  # 1 SP left: 1 through the normal front, 0 through the refused
    g.pos.units[IN3].refused = ["left"]
    for d in range(6):
        place(g, AL13, nb(g, c, d), (d + 3) % 6)
        for h in fa.fire_targets(g, IN3):
            g.validate({"type": "fire", "unit": IN3, "target": hid(g, h)}, "usa")


def test_a_battery_that_turned_in_reaction_fires_at_minus_2_9_62(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """reaction_step says when a battery's non-phasing shot takes 002 §9.62's -2; the shot
    carries it and rapid fire is not offered then."""
    from gettysburg.gbacw import reaction_step
    from gettysburg.gbacw import return_fire as rf
    g = gunline(ARCHER)
    c = at(g, C)
    place(g, NAP1, c, 0)
    target = nb(g, c, 0, 2)
    place(g, AL13, target, 3)
    g.apply({"type": "fire", "unit": AL13, "target": hid(g, c)}, "csa")
    monkeypatch.setattr(reaction_step, "artillery_fire_drm", lambda game, key: -2)
    plan = rf.shot_plan(g, NAP1, target)
    mods = {m.source: m for m in fa.fire_modifiers_of(g, plan)}
    assert mods["reaction-facing"].value == -2 and mods["reaction-facing"].rule == "9.62"
    assert {"type": "rapid_return_fire", "unit": NAP1} not in g.legal_actions("usa")
    assert {"type": "return_fire", "unit": NAP1} in g.legal_actions("usa")
