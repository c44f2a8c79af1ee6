"""The engine adaptor for phasing fire (gbacw/fire_action.py, 002 §10.3) on the hand-made
skirmish of tests/data/gbacw/skirmish.yaml: legal targets, refusals, one resolved shot."""

from __future__ import annotations

import pytest

from gbacw_skirmish import ARCHER, GAMBLE, active_gamble
from gettysburg.core.dice import ScriptedDice
from gettysburg.core.protocol import RuleError
from gettysburg.gbacw import fire_action as fa


def test_targets_and_plan_10_3() -> None:
    g, k, enemy = active_gamble()
    target = g.hex_of(g.pos.units[enemy].hex)
    assert fa.fire_targets(g, k) == [target]
    plan = fa.check_fire(g, {"type": "fire", "unit": k, "target": g.pos.units[enemy].hex},
                         "usa")
    # dismounted cavalry leaves one SP in four with the horses (002 §14.25): 4 SP fire 3
    assert plan.sp == g.counter(k).sp - g.counter(k).sp // 4 and plan.shot.hexes == 1
    assert plan.shot.ammunition == "small_arms"
    # not prepared: phasing dismounted cavalry (002 §10.52)
    assert not fa.situation(g, plan, enemy).prepared


def test_refusals_10_3() -> None:
    g, k, enemy = active_gamble()
    with pytest.raises(RuleError) as e:
        fa.check_fire(g, {"type": "fire", "unit": enemy, "target": "A3403"}, "usa")
    assert e.value.rule == "10.3"
    with pytest.raises(RuleError) as e:  # nobody there
        fa.check_fire(g, {"type": "fire", "unit": k, "target": "A3001"}, "usa")
    assert e.value.rule == "10.12"
    other = g.brigade_units(ARCHER)[1]
    with pytest.raises(RuleError) as e:  # an enemy behind the firer's front
        fa.check_fire(g, {"type": "fire", "unit": k, "target": g.pos.units[other].hex},
                      "usa")
    assert e.value.rule.startswith("10.")


def test_one_shot_resolves_with_scripted_dice_10_17() -> None:
    g, k, enemy = active_gamble()
    before = g.position_json()
    plan = fa.check_fire(g, {"type": "fire", "unit": k, "target": g.pos.units[enemy].hex},
                         "usa")
    g.dice = ScriptedDice([8, 9], die="d10")
    roll, outcome = fa.resolve_fire(g, plan)
    assert roll.roll == 8 and roll.column == "sa-4-5"
    assert roll.result.code == CHART_ROW_8_SA_4_5
    assert outcome.units[0].unit == enemy
    events = fa.fire_events(plan, roll, outcome, str(g.pos.units[enemy].hex))
    assert events[0].type == "fire" and all(e.rule for e in events)
    assert g.position_json() == before  # resolving changes nothing in the position


CHART_ROW_8_SA_4_5 = "D"


def test_fire_through_the_engine_records_losses_and_replays() -> None:
    """The game offers the shot; an 8 on the C carbine's 4-5 SP column at 1 hex (5 SP less one
    holding the horses, 002 §14.25) reads D (002 §10.17): the target is disordered, no
    loss."""
    hashes = []
    for _ in range(2):
        g, k, enemy = active_gamble(extra=[8, 9])
        fire = {"type": "fire", "unit": k, "target": g.pos.units[enemy].hex}
        assert fire in g.legal_actions("usa")
        events = g.apply(fire, "usa")
        if [e.type for e in events] == ["fire_declared"]:  # the target may answer (10.42)
            events = g.apply({"type": "hold"}, "csa")
        assert [e.type for e in events][:2] == ["fire", "fire_disorder"]
        assert events[0].data["result"] == "D" and events[0].data["target"] == fire["target"]
        u = g.pos.units[enemy]
        assert u.lost == 0 and u.disordered
        assert "phasing" in g.pos.units[k].fired
        with pytest.raises(RuleError) as e:  # once an activation (002 §10.31)
            g.apply(fire, "usa")
        assert e.value.rule == "10.31"
        hashes.append(g.state_hash())
    assert hashes[0] == hashes[1]


def test_fatigue_reaches_the_fire_roll_and_the_udds_17_31() -> None:
    g, k, enemy = active_gamble()
    plan = fa.check_fire(g, {"type": "fire", "unit": k, "target": g.pos.units[enemy].hex},
                         "usa")
    # BrigadeState.fatigue counts steps (none, OK, then the marker's 0..4): the fire code
    # reads the marker's number (002 §17.24, §17.31)
    g.pos.brigades[GAMBLE].fatigue = 5  # Fatigue 3
    g.pos.brigades[ARCHER].fatigue = 1  # "OK": no effect (§17.33)
    assert g.fatigue
    assert fa.situation(g, plan, enemy).fatigue == 3
    assert fa.target_units(g, plan.target)[0].fatigue == 0
    g.pos.brigades[ARCHER].fatigue = 3  # Fatigue 1: +1 on its UDDs
    assert fa.target_units(g, plan.target)[0].fatigue == 1


def test_a_declared_shot_whose_target_is_gone_is_lost_not_a_crash_10_12() -> None:
    """A shot waits for the defender's answer (002 §10.42); if its target has left the hex
    meanwhile, the defender may only hold, and the shot is lost (the firer keeps its fire)
    instead of the view failing."""
    g, k, enemy = active_gamble(extra=[9, 9])
    fire = {"type": "fire", "unit": k, "target": g.pos.units[enemy].hex}
    events = g.apply(fire, "usa")
    assert [e.type for e in events] == ["fire_declared"]
    g.pos.units[enemy].hex = None  # gone, as a position built by hand
    g._memo.clear()
    assert g.legal_actions("csa") == [{"type": "hold"}]
    assert g.view("csa")["pending"] is not None
    events = g.apply({"type": "hold"}, "csa")
    assert [e.type for e in events] == ["fire_lost"] and events[0].rule == "10.12"
    assert g.pos.pending is None and "phasing" not in g.pos.units[k].fired
