"""Return fire in the GBACW engine (gbacw/return_fire.py, 002 §10.42, §10.17) on the hand-made
skirmish: the phasing shot waits for the defender's answer, then both are rolled on the
position as it stood and applied together."""

from __future__ import annotations

import pytest

from gettysburg.core.protocol import RuleError
from gettysburg.gbacw.fire_action import fire_sp
from gettysburg.gbacw.game import GbacwGame
from test_gbacw_shock_action import active_gamble


def fired_at_archer() -> tuple[GbacwGame, str, str]:
    g, k, enemy = active_gamble()
    target = g.pos.units[enemy].hex
    assert {"type": "fire", "unit": k, "target": target} in g.legal_actions("usa")
    ev = g.apply({"type": "fire", "unit": k, "target": target}, "usa")
    assert [e.type for e in ev] == ["fire_declared"]
    return g, k, enemy


def test_the_target_may_answer_10_42() -> None:
    g, _k, enemy = fired_at_archer()
    assert g.to_move() == ["csa"]
    legal = g.legal_actions("csa")
    assert {"type": "return_fire", "unit": enemy} in legal and {"type": "hold"} in legal
    for a in legal:
        g.validate(a, "csa")
    with pytest.raises(RuleError) as e:  # the phasing player waits
        g.validate({"type": "end_brigade"}, "usa")
    assert e.value.rule == "11.33"


def test_return_fire_is_simultaneous_10_17() -> None:
    """Both shots are rolled before either applies: the answer fires the SP the target had
    before the phasing shot, whatever that shot did."""
    g, k, enemy = fired_at_archer()
    sp_before = fire_sp(g, enemy)
    ev = g.apply({"type": "return_fire", "unit": enemy}, "csa")
    shots = [e for e in ev if e.type == "fire"]
    assert [s.data["unit"] for s in shots] == [k, enemy]
    assert shots[1].data["sp"] == sp_before
    assert shots[1].data["target"] == g.pos.units[k].hex or g.pos.units[k].hex is None
    assert "return" in g.pos.units[enemy].fired
    assert "phasing" in g.pos.units[k].fired
    assert g.pos.pending is None and g.to_move() == ["usa"]


def test_hold_rolls_the_phasing_shot_alone() -> None:
    g, k, enemy = fired_at_archer()
    ev = g.apply({"type": "hold"}, "csa")
    assert [e.data["unit"] for e in ev if e.type == "fire"] == [k]
    assert g.pos.units[enemy].fired == []


def test_a_unit_that_may_not_answer_is_refused() -> None:
    g, _k, _enemy = fired_at_archer()
    before = g.position_json()
    other = next(x for x in g.brigade_units("CS-Davis/Heth"))
    with pytest.raises(RuleError) as e:
        g.validate({"type": "return_fire", "unit": other}, "csa")
    assert e.value.rule == "10.42"
    assert g.position_json() == before
