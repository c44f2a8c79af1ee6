"""The engine adaptor for shock (gbacw/shock_action.py, 002 §11) on the hand-made skirmish of
tests/data/gbacw/skirmish.yaml: legal targets, the designation's refusals, a dry resolution."""

from __future__ import annotations

import pytest

from gbacw_skirmish import ARCHER, active_gamble
from gettysburg.core.dice import ScriptedDice
from gettysburg.core.protocol import RuleError
from gettysburg.gbacw import shock_action as sa


def test_targets_and_designation_11_31() -> None:
    g, k, enemy = active_gamble()
    target = g.hex_of(g.pos.units[enemy].hex)
    assert target is not None
    assert g.orders_of(k) in ("advance", "attack")
    assert sa.shock_targets(g, k) == [target]
    plan = sa.check_shock(g, {"type": "shock", "shocks": [
        {"attackers": [k], "targets": [g.pos.units[enemy].hex]}]}, "usa")
    assert plan.shocks[0].attackers == (k,) and enemy in plan.shocks[0].defenders
    me = plan.unit(k)
    assert me.sp == g.counter(k).sp and me.side == "usa"


def test_refusals_11_12_11_31() -> None:
    g, k, enemy = active_gamble()
    with pytest.raises(RuleError) as e:
        sa.check_shock(g, {"type": "shock", "shocks": []}, "usa")
    assert e.value.rule == "11.31"
    with pytest.raises(RuleError) as e:
        sa.check_shock(g, {"type": "shock", "shocks": [
            {"attackers": [enemy], "targets": ["A3403"]}]}, "usa")
    assert e.value.rule == "11.12"
    with pytest.raises(RuleError) as e:  # nobody there
        sa.check_shock(g, {"type": "shock", "shocks": [
            {"attackers": [k], "targets": ["A3001"]}]}, "usa")
    assert e.value.rule.startswith("11.")
    other = g.brigade_units(ARCHER)[1]
    with pytest.raises(RuleError):  # an enemy that is not in the attacker's front
        sa.check_shock(g, {"type": "shock", "shocks": [
            {"attackers": [k], "targets": [g.pos.units[other].hex]}]}, "usa")


def test_dry_resolution_changes_nothing_11_4() -> None:
    g, k, enemy = active_gamble()
    assert g.orders_of(k) in ("advance", "attack")
    before = g.position_json()
    plan = sa.check_shock(g, {"type": "shock", "shocks": [
        {"attackers": [k], "targets": [g.pos.units[enemy].hex]}]}, "usa")
    g.dice = ScriptedDice([0] * 20, die="d10")
    reports = sa.resolve_shocks(g, plan)
    assert g.position_json() == before
    (r,) = reports
    assert r.pre_shock is not None and r.pre_shock.roll.roll == 0
    assert r.fight is not None and r.fight.roll.roll == 0
    events = sa.shock_events(reports)
    assert events[0].type == "shock_designated" and all(e.rule for e in events)
    with pytest.raises(RuleError) as e:
        sa.execute_shock(g, {"type": "shock", "shocks": [
            {"attackers": [k], "targets": [g.pos.units[enemy].hex]}]}, "usa")
    assert e.value.rule == "11.11"
