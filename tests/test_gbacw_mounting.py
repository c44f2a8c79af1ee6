"""Mounting and dismounting cavalry in the GBACW engine (gbacw/mounting.py; 002 §14.21-14.25,
§10.94; 004 §14.2 and sc.1), on the hand-made skirmish: Gamble's dismounted brigade active,
an Archer regiment moved next to its first unit (tests/gbacw_skirmish.py)."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from gbacw_skirmish import ARCHER, GAMBLE, active_gamble
from gettysburg.core.protocol import RuleError
from gettysburg.gbacw import fatigue, mounting
from gettysburg.gbacw.fire_action import firing_strength
from gettysburg.gbacw.game import GbacwGame
from gettysburg.gbacw.kinds import unit_class
from gettysburg.gbacw.oob import Counter
from gettysburg.gbacw.shock import unit_shock_sp
from gettysburg.gbacw.shock_action import combatant_of
from gettysburg.gbacw.state import Position

FREE = "US-Cav:8 IL"  # no enemy next to it (A3303); 9 SP on either of the OOB's twins
NEAR = "US-Cav:12 IL"  # Archer's regiment stands in its front hex


def remounts(g: GbacwGame) -> list[dict[str, object]]:
    return [a for a in g.legal_actions("usa") if a["type"] in ("mount", "dismount")]


def refused(g: GbacwGame, action: dict[str, object], seat: str = "usa") -> str:
    before = json.dumps(g.pos.to_json(), sort_keys=True)
    with pytest.raises(RuleError) as e:
        g.apply(action, seat)
    assert json.dumps(g.pos.to_json(), sort_keys=True) == before  # nothing changed
    return e.value.rule


def test_mounting_swaps_the_counter_and_halves_the_new_ma_14_22() -> None:
    g, _k, _e = active_gamble()
    assert {"type": "mount", "unit": FREE} in remounts(g)
    assert {"type": "mount", "unit": NEAR} not in remounts(g)  # next to the enemy
    for a in remounts(g):  # the list and the check agree
        g.validate(a, "usa")
    assert unit_class(g.counter(FREE)) == "infantry" and g.mp_of(FREE) == 6
    ev = g.apply({"type": "mount", "unit": FREE}, "usa")
    assert [(e.type, e.rule) for e in ev] == [("mount", "14.22")]
    assert ev[0].data == {"unit": FREE, "counter": f"{FREE}:mounted", "hex": "A3303",
                          "sp": 9, "ma": 6}
    assert g.counter(FREE).mode == "mounted"
    assert unit_class(g.counter(FREE)) == "mounted_cavalry"  # the Terrain chart's class (14.23)
    assert g.mp_of(FREE) == 6  # half of the mounted 12, for this activation only
    reach = g.reach(FREE)
    assert reach and max(r.half_mp for r in reach.values()) <= 2 * 6
    assert {"type": "dismount", "unit": FREE} not in remounts(g)  # one change an activation
    assert refused(g, {"type": "dismount", "unit": FREE}) == "14.22"
    g.pos.brigade = None  # another activation: the full mounted MA
    assert g.mp_of(FREE) == 12


def test_attack_orders_halve_again_and_fatigue_comes_off_after_14_22_17_31() -> None:
    g, _k, _e = active_gamble()
    g.pos.brigades[GAMBLE].orders = "attack"
    g.apply({"type": "mount", "unit": FREE}, "usa")
    assert g.mp_of(FREE) == 3  # 12 -> 6 (mounting) -> 3 (Attack, rounded up)
    g.fatigue = True
    g.pos.brigades[GAMBLE].fatigue = fatigue.steps_of("2")  # -1 from the MA (half of 2)
    g._memo.clear()
    assert g.mp_of(FREE) == 2


def test_dismounting_halves_the_foot_ma_and_the_unit_counts_as_infantry_14_22_14_23() -> None:
    g, _k, _e = active_gamble()
    u = g.pos.units[FREE]
    u.counter = f"{FREE}:mounted"  # it starts the activation mounted
    g._memo.clear()
    assert {"type": "dismount", "unit": FREE} in remounts(g)
    ev = g.apply({"type": "dismount", "unit": FREE}, "usa")
    assert ev[0].type == "dismount" and ev[0].data["counter"] == f"{FREE}:dismounted"
    assert unit_class(g.counter(FREE)) == "infantry" and g.mp_of(FREE) == 3  # 6 / 2


def test_not_after_moving_nor_next_to_the_enemy_14_22() -> None:
    g, _k, _e = active_gamble()
    assert refused(g, {"type": "mount", "unit": NEAR}) == "14.22"
    assert refused(g, {"type": "dismount", "unit": FREE}) == "14.22"  # already on foot
    g.pos.units[FREE].moves = 1  # it turned or moved: too late
    assert refused(g, {"type": "mount", "unit": FREE}) == "14.22"
    assert refused(g, {"type": "mount", "unit": "CS-III:1 TN"}) == "14.22"  # not yours


def test_blown_cavalry_may_not_dismount_14_22_11_58() -> None:
    g, _k, _e = active_gamble()
    u = g.pos.units[FREE]
    u.counter, u.blown = f"{FREE}:mounted", True
    g._memo.clear()
    assert refused(g, {"type": "dismount", "unit": FREE}) == "14.22"


def test_stay_forbids_mounting_6_23() -> None:
    g, _k, _e = active_gamble()
    g.pos.brigades[GAMBLE].stay = True
    assert remounts(g) == []
    assert refused(g, {"type": "mount", "unit": FREE}) == "6.23"


def test_confederate_cavalry_never_dismounts_004_14_2() -> None:
    g, _k, _e = active_gamble()
    # the rule read through the module, on a hand-made Confederate cavalry unit of the brigade
    u = g.pos.units[FREE]
    u.counter, u.seat = f"{FREE}:mounted", "csa"
    for k in g.brigade_units(GAMBLE):
        if k != FREE:
            g.pos.units[k].hex = None  # no Union unit next to it now
    g._memo.clear()
    problem = mounting.remount_problem(g, FREE, "dismounted")
    assert problem is not None and problem.rule == "tdg.14.2"


def test_the_3rd_west_virginia_may_not_dismount_004_sc1() -> None:
    g, _k, _e = active_gamble()
    assert "no_dismount" in g.cat.counters["US-Cav:3 WV:mounted"].flags
    u = g.pos.units[FREE]
    u.counter = "US-Cav:3 WV:mounted"  # the flagged counter in the brigade's place
    g.cat = replace(g.cat, counters={  # this game's copy of the data only
        **g.cat.counters, "US-Cav:3 WV:mounted": _as_gambles(g, "US-Cav:3 WV:mounted"),
        "US-Cav:3 WV:dismounted": _as_gambles(g, "US-Cav:3 WV:dismounted")})
    g._memo.clear()
    problem = mounting.remount_problem(g, FREE, "dismounted")
    assert problem is not None and problem.rule == "tdg.sc.1"


def _as_gambles(g: GbacwGame, cid: str) -> Counter:
    return replace(g.cat.counters[cid], formation=GAMBLE)


def test_mounting_resupplies_and_losses_carry_over_10_94() -> None:
    g, _k, _e = active_gamble()
    u = g.pos.units[FREE]
    u.ammo, u.lost = "low", 2  # 7 of 9 SP on foot
    ev = g.apply({"type": "mount", "unit": FREE}, "usa")
    assert [(e.type, e.rule) for e in ev] == [("mount", "14.22"), ("resupply", "10.94")]
    assert u.ammo == "none"
    assert g.counter(FREE).sp - u.lost == 7  # the same share of equal twins
    assert ev[0].data["sp"] == 7


def test_mounting_stacks_at_present_strength_8_12_14_22() -> None:
    """Mounting into a hex with mounted friends counts the unit's SP left, not its printed
    SP (002 §8.12 with §12.13): 8 IL (9 SP) cannot mount beside 6 mounted SP on Advance
    orders (limit 7), but at 1 SP left it can."""
    def beside_mounted(lost: int) -> GbacwGame:
        g, _k, _e = active_gamble()
        other = "US-Cav:8 NY Cav#2"
        u, o = g.pos.units[FREE], g.pos.units[other]
        o.hex, o.facing = u.hex, u.facing
        o.counter = f"{other}:mounted"
        u.lost = lost
        g._memo.clear()
        return g

    assert refused(beside_mounted(0), {"type": "mount", "unit": FREE}) == "8.12"
    g = beside_mounted(8)
    assert {"type": "mount", "unit": FREE} in remounts(g)
    g.apply({"type": "mount", "unit": FREE}, "usa")
    assert g.counter(FREE).mode == "mounted"


def test_horse_holders_follow_the_counter_14_25() -> None:
    """Fire and shock read the counter on the map: on foot one SP in four holds the horses,
    mounted none (002 §14.25)."""
    g, _k, _e = active_gamble()
    assert firing_strength(g, FREE) == 9 - 2  # 9 SP: two in four-SP lots hold horses
    c = combatant_of(g, FREE)
    assert c.dismounted_cavalry and unit_shock_sp(c, attacking=True) == 7
    g.apply({"type": "mount", "unit": FREE}, "usa")
    assert firing_strength(g, FREE) == 9
    c = combatant_of(g, FREE)
    assert c.mounted and not c.dismounted_cavalry and unit_shock_sp(c, attacking=True) == 9


def test_mounting_is_no_activity_for_fatigue_17_22() -> None:
    g, _k, _e = active_gamble()
    g.apply({"type": "mount", "unit": FREE}, "usa")
    did = g.pos.brigades[GAMBLE].did
    assert "mount" in did and set(did) <= fatigue.EXEMPT_ACTIONS


def test_saved_only_when_set_and_replayed_the_same() -> None:
    g, _k, _e = active_gamble()
    assert "remounted" not in g.pos.units[FREE].to_json()
    g.apply({"type": "mount", "unit": FREE}, "usa")
    saved = g.pos.to_json()
    assert saved["units"][FREE]["remounted"] is True
    back = Position.from_json(json.loads(json.dumps(saved)))
    assert back.to_json() == saved
    g2, _k2, _e2 = active_gamble()
    g2.apply({"type": "mount", "unit": FREE}, "usa")
    assert g2.state_hash() == g.state_hash()
    assert ARCHER  # the skirmish's other brigade is untouched
