"""GBACW rally and combat effectiveness (002 §13): the §13.41 examples
with scripted d10s and hand-built cases."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gettysburg.core.dice import ScriptedDice, SeededDice
from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import RuleError
from gettysburg.gbacw import fatigue
from gettysburg.gbacw import rally as ry
from gettysburg.gbacw.combatant import Combatant
from gettysburg.gbacw.facing import Facing


def unit(name: str = "U", *, cohesion: int = 5, sp: int = 6, kind: str = "infantry",
         **kw: object) -> Combatant:
    return Combatant(name, "usa", (Hex(0, 0),), Facing.vertex(0), kind,  # type: ignore[arg-type]
                     sp, cohesion, **kw)  # type: ignore[arg-type]


def d10(*values: int) -> ScriptedDice:
    return ScriptedDice(values, die="d10")


@pytest.mark.parametrize(("roll", "rallied", "loss"), [(4, True, 0), (8, False, 0),
                                                        (9, False, 1)])
def test_13_41_example_1_cohesion_5(roll: int, rallied: bool, loss: int) -> None:
    r = ry.rally(d10(roll), unit(disordered=True, cohesion=5), adjacent_enemy=False)
    assert (r.rallied, r.sp_loss) == (rallied, loss)


@pytest.mark.parametrize(("roll", "rallied", "loss"), [(4, True, 0), (5, False, 0),
                                                        (8, False, 1)])
def test_13_41_example_2_cohesion_4(roll: int, rallied: bool, loss: int) -> None:
    r = ry.rally(d10(roll), unit(disordered=True, cohesion=4), adjacent_enemy=False)
    assert (r.rallied, r.sp_loss) == (rallied, loss)


def test_13_42_modifiers_and_11_73_corps_commander() -> None:
    cav = unit(kind="mounted_cavalry", disordered=True, cohesion=4)
    r = ry.rally(d10(5), cav, adjacent_enemy=True)  # 5 + 1 - 1 = 5 > 4
    assert r.drm_ids == ("adjacent-enemy", "mounted-cavalry") and r.modified == 5
    assert not r.rallied
    # a corps commander's three stars: 7 - 3 = 4 rallies a cohesion-4 unit
    r = ry.rally(d10(7), unit(disordered=True, cohesion=4, leader_stars=3),
                 adjacent_enemy=False)
    assert r.modified == 4 and r.rallied
    # §13.43: a leader still moving does not count
    r = ry.rally(d10(7), unit(disordered=True, cohesion=4, leader_stars=3),
                 adjacent_enemy=False, leader_stars_after_move=0)
    assert not r.rallied


def test_13_41_only_disordered_units_and_not_collapsed() -> None:
    with pytest.raises(RuleError):
        ry.rally(d10(0), unit(), adjacent_enemy=False)
    with pytest.raises(RuleError) as e:
        ry.rally(d10(0), unit(disordered=True, collapsed=True), adjacent_enemy=False)
    assert e.value.rule == "12.23"
    with pytest.raises(RuleError) as e:
        ry.rally(d10(0), unit(disordered=True, orders="march"), adjacent_enemy=False)
    assert e.value.rule == "6.13"
    assert ry.rally_may_turn(refused=False, extended=False, stacked=False,
                             turned_after_resupply=False)
    assert not ry.rally_may_turn(refused=False, extended=True, stacked=False,
                                 turned_after_resupply=False)


def test_13_45_idle_brigade() -> None:
    assert fatigue.idle([]) and not fatigue.idle(["move"])
    units = [unit("A", disordered=True), unit("B", disordered=True), unit("C"),
             unit("D", disordered=True, collapsed=True)]
    rallied = ry.idle_rally(was_idle=True, units=units, in_range=[True, False, True, True])
    assert rallied == ("A",)
    with pytest.raises(RuleError):
        ry.idle_rally(was_idle=False, units=units, in_range=[True] * 4)


def test_13_52_rout_recovery() -> None:
    back = ry.rout_recovery(d10(3), "U", disordered_cohesion=4, reserve_all_turn=True)
    assert back.returned and back.sp_loss == 1 and not back.eliminated
    stays = ry.rout_recovery(d10(5), "U", disordered_cohesion=4, reserve_all_turn=True)
    assert not stays.returned and stays.sp_loss == 1
    gone = ry.rout_recovery(d10(9), "U", disordered_cohesion=9, reserve_all_turn=True)
    assert gone.eliminated and not gone.returned
    with pytest.raises(RuleError):
        ry.rout_recovery(d10(0), "U", disordered_cohesion=4, reserve_all_turn=False)


def test_12_23_collapse_examples() -> None:
    # an 8-SP unit that lost 4 is still whole; losing its fifth collapses it
    assert not ry.collapsed(4, 8)
    assert ry.collapsed(3, 8)


def test_13_21_brigade_and_13_31_division_ineffective() -> None:
    assert ry.brigade_ineffective(["disordered", "collapsed", "routed"])
    assert not ry.brigade_ineffective(["good", "disordered", "collapsed"])
    assert ry.brigade_ineffective(["good", "eliminated", "routed"])
    assert not ry.brigade_ineffective(["good", "routed", "not-arrived", "not-arrived"])
    assert not ry.brigade_ineffective(["not-arrived"])
    assert ry.division_ineffective([True, True, False])
    assert not ry.division_ineffective([True, False])
    assert ry.activation_cap(brigade_ci=False, division_ci=True) == 2
    assert ry.activation_cap(brigade_ci=False, division_ci=False) is None


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 9), st.integers(0, 3), st.booleans())
def test_rally_replays(seed: int, cohesion: int, stars: int, adjacent: bool) -> None:
    u = unit(disordered=True, cohesion=cohesion, leader_stars=stars)
    a = ry.rally(SeededDice(seed), u, adjacent_enemy=adjacent)
    b = ry.rally(SeededDice(seed), u, adjacent_enemy=adjacent)
    assert a == b
    assert a.sp_loss in (0, 1) and not (a.rallied and a.sp_loss)
