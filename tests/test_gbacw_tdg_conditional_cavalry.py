"""Conditional cavalry of the campaign in the engine (004 §14.71-14.76; cavalry_step.py), on
the campaign's position with the turn set by hand (the hold-back choices, a withdrawal, the
settlement and the return with its d10 of losses)."""

from __future__ import annotations

import pytest

from gettysburg.core.protocol import RuleError
from gettysburg.gbacw import cavalry_step
from gettysburg.gbacw.game import GbacwGame
from gettysburg.gbacw.reinforcements import entry_area
from gettysburg.gbacw.setup import turn_index

JENKINS, HAMPTON = "CS-Jenkins/Cav", "CS-Hampton/Cav"


def _orders(g: GbacwGame, turn: str, seat: str) -> None:
    g.pos.turn = turn_index(turn)
    g.pos.phase = "orders"
    g.pos.orders_done = ["usa" if seat == "csa" else "csa"]
    g._memo.clear()
    assert g.to_move() == [seat]


def _jenkins_near_area_9(g: GbacwGame) -> list[str]:
    area = entry_area(g.cat.board, 9).direct
    spot = next(h for h in sorted(g.cat.board.hexes) if h.distance(area) == 3)
    keys = [k for k in g.pos.units if g.formation(k) == JENKINS]
    for k in keys:
        g.pos.units[k].hex = g.cat.board.hexes[spot].id
        g.pos.units[k].facing = g.pos.units[k].facing or __import__(
            "gettysburg.gbacw.facing", fromlist=["Facing"]).Facing("vertex", 0)
    g._memo.clear()
    return keys


def _arrived_before(g: GbacwGame, turn: str) -> None:
    """Every Confederate group due before ``turn`` has come, its units on the map (at one
    far hex: stacking is not what these tests look at)."""
    nine = entry_area(g.cat.board, 9).direct
    far = g.cat.board.hexes[max(sorted(g.cat.board.hexes), key=nine.distance)].id
    for i, arr in enumerate(g.scen.arrivals):
        if arr.seat == "csa" and arr.turn < turn_index(turn) and i not in g.pos.arrived:
            g.pos.arrived.append(i)
            g.pos.arrived_on[str(i)] = arr.turn
            for k, u in g.pos.units.items():
                if u.counter in arr.counters and g.formation(k) not in (JENKINS, HAMPTON):
                    u.hex = far


def test_hold_withdraw_settle_and_return_tdg_14_7() -> None:
    g = GbacwGame("battle", seed=1)
    _arrived_before(g, "3-0800")
    jenkins = _jenkins_near_area_9(g)
    _orders(g, "3-0800", "csa")
    hold = {"type": "hold_cavalry", "brigades": [JENKINS, HAMPTON],
            "batteries": ["Breathed", "Griffin"]}
    g.validate(hold, "csa")
    g.apply(hold, "csa")
    hampton = [k for k in g.pos.units if g.formation(k) == HAMPTON]
    assert all(cavalry_step.kept_off(g, k) and g.waiting(k) is None for k in hampton)
    assert not cavalry_step.kept_off(g, "CS-Cav:Breathed")  # on the map: it leaves with Jenkins
    # tdg.14.72: Jenkins is on the map: it leaves by a clear path to area 8 or 9
    act = {"type": "withdraw_cavalry", "brigade": JENKINS}
    assert act in g.legal_actions("csa")
    g.apply(act, "csa")
    assert all(g.pos.units[k].hex is None and g.waiting(k) is None for k in jenkins)
    assert cavalry_step.kept_off(g, "CS-Cav:Breathed")
    # Hampton never came, but Griffin (named with it) is on the map: it leaves alone
    g.apply({"type": "withdraw_cavalry", "brigade": HAMPTON}, "csa")
    assert g.pos.units["CS-Cav:Griffin"].hex is None
    assert cavalry_step.surplus(g) == ("csa", 2)
    # tdg.14.73: the Union holds one of its brigades due 1300-1500 at 1300
    _orders(g, "3-1300", "usa")
    union = [a for a in g.legal_actions("usa") if a["type"] == "hold_cavalry"]
    assert union
    g.apply(union[0], "usa")
    assert cavalry_step.surplus(g) == ("csa", 1)
    # tdg.14.75: from 1700 the Confederates bring one back by area 9 or 10
    _orders(g, "3-1600", "csa")
    assert not [a for a in g.legal_actions("csa") if a["type"] == "return_cavalry"]
    _orders(g, "3-1700", "csa")
    back = [a for a in g.legal_actions("csa") if a["type"] == "return_cavalry"]
    assert {a["area"] for a in back} == {"9", "10"} and all(len(a["brigades"]) == 1
                                                           for a in back)
    with pytest.raises(RuleError) as e:
        g.validate({"type": "return_cavalry", "brigades": [JENKINS, HAMPTON], "area": "9"},
                   "csa")
    assert e.value.rule == "tdg.14.75"
    ev = g.apply(back[0], "csa")
    done = next(e for e in ev if e.type == "return_cavalry")
    assert 1 <= done.data["loss"] <= 10  # tdg.14.76: a d10, 0 read as 10
    assert back[0]["brigades"] == [HAMPTON]
    # Griffin, named with Hampton, comes back too; its group (Beckham's) is due first
    # through that hex (002 §9.73), so Hampton's regiments wait for it
    assert g.waiting("CS-Cav:Griffin") == done.data["hex"]
    assert not cavalry_step.kept_off(g, "CS-Cav:Griffin")
    assert cavalry_step.kept_off(g, "CS-Cav:Breathed")  # Jenkins's stays away
    g.pos.units["CS-Cav:Griffin"].hex = done.data["hex"]
    g._memo.clear()
    returned = [k for k in g.pos.units if g.formation(k) == HAMPTON]
    assert all(g.waiting(k) == done.data["hex"] for k in returned)
    assert sum(g.pos.units[k].lost for k in returned) == done.data["loss"]


def test_choices_closed_outside_their_turns_tdg_14_71() -> None:
    g = GbacwGame("battle", seed=1)
    _orders(g, "3-1000", "csa")
    with pytest.raises(RuleError) as e:
        g.validate({"type": "hold_cavalry", "brigades": [HAMPTON], "batteries": ["Hart"]},
                   "csa")
    assert e.value.rule == "tdg.14.71"
    h = GbacwGame("second-day", seed=1)  # not the campaign: no conditional cavalry
    _orders(h, "2-0800", "csa")
    assert not [a for a in h.legal_actions("csa") if a["type"] == "hold_cavalry"]
