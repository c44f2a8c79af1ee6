"""Split fire of a stack that combines its small arms (the optional 002 §10.82 with §10.15;
engine: gbacw/fire_action.py ``combined_split``) on hand-made gun-line positions."""

from __future__ import annotations

import pytest

from gbacw_gunline import AL5, AL13, GAMBLE, IN3, TN1, at, gunline, hid, place, script
from gbacw_skirmish import ARCHER, OPENING, SKIRMISH
from gettysburg.core.dice import ScriptedDice
from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import Event, RuleError
from gettysburg.gbacw import fire_action as fa
from gettysburg.gbacw.facing import front_hexes
from gettysburg.gbacw.game import GbacwGame

IL12, IL8 = "US-Cav:12 IL", "US-Cav:8 IL"


def nb(h: Hex, d: int, n: int = 1) -> Hex:
    for _ in range(n):
        h = h.neighbour(d % 6)
    return h


def two_targets(option: bool) -> tuple[GbacwGame, Hex, Hex]:
    """The 3rd Indiana over the 12th Illinois in C (5 and 2 SP may fire from the hex, each
    less its horse holders, the second capped by the front of the stack, 002 §8.33, §14.25);
    an enemy in each front hex, both facing away (no return fire)."""
    g = gunline(GAMBLE, options=("combined_small_arms",) if option else ())
    c = at(g, (0, 0))
    place(g, IN3, c, 0)
    place(g, IL12, c, 0)
    a, b = nb(c, 0), nb(c, 1)
    place(g, AL13, a, 0)
    place(g, TN1, b, 0)
    return g, a, b


def shots(ev: list[Event]) -> list[Event]:
    return [e for e in ev if e.type == "fire"]


@pytest.mark.parametrize("option", [False, True])
def test_a_combining_stack_splits_as_one_unit_10_82(option: bool) -> None:
    """With the option the stack's 7 SP split 4 and 3, each share fired by both units
    (§10.82: the stack is one firing unit for §10.15); without it the Indianans split their
    own 5 SP, 3 and 2, and the Illinoisans keep their fire."""
    g, a, b = two_targets(option)
    first, second = sorted((hid(g, a), hid(g, b)))
    split = {"type": "fire_split", "unit": IN3, "targets": [first, second]}
    assert split in g.legal_actions("usa")
    script(g, [0, 0, 0, 0])
    fired = shots(g.apply(split, "usa"))
    if option:
        assert [(e.data["sp"], e.data["target"], e.data["combined"]) for e in fired] == [
            (4, first, [IN3, IL12]), (3, second, [IN3, IL12])]
        assert "phasing" in g.pos.units[IL12].fired
    else:
        assert [(e.data["sp"], "combined" in e.data) for e in fired] == [(3, False), (2, False)]
        assert g.pos.units[IL12].fired == []
    assert "phasing" in g.pos.units[IN3].fired


def test_a_stack_splits_only_where_all_may_fire_10_82(monkeypatch: pytest.MonkeyPatch) -> None:
    """Refusals (a reading): when one unit of the combination cannot fire at one of the
    split's hexes (made so here by leaving it out of the combination at that hex), the
    stack's split is refused under §10.82; a split at one hex twice stays refused (§10.15).
    A unit of the stack that has fired leaves the others to split alone."""
    g, a, b = two_targets(True)
    split = {"type": "fire_split", "unit": IN3, "targets": [hid(g, a), hid(g, b)]}
    real = fa.combined_small_arms

    def without_il12_at_b(game: GbacwGame, first: fa.FirePlan, seat: str) -> fa.FirePlan:
        plan = real(game, first, seat)
        return fa.replace(plan, units=(IN3,)) if plan.target == b else plan

    monkeypatch.setattr(fa, "combined_small_arms", without_il12_at_b)
    with pytest.raises(RuleError) as e:
        g.validate(split, "usa")
    assert e.value.rule == "10.82"
    monkeypatch.undo()
    with pytest.raises(RuleError) as e:
        g.validate({**split, "targets": [hid(g, a), hid(g, a)]}, "usa")
    assert e.value.rule == "10.15"
    g.pos.units[IL12].fired = ["phasing"]  # it has fired: the Indianans split alone
    order = fa.check_order(g, split, "usa")
    assert [(p.sp, p.shooters) for p in order.plans] == [(3, (IN3,)), (2, (IN3,))]


def stack_under_fire(option: bool) -> tuple[GbacwGame, Hex, Hex]:
    """Archer's 5th Alabama Battalion (3 SP) over the 13th Alabama (6 SP, 4 of them may fire
    under the 7-SP hex limit, 002 §8.31-8.33) in C; the 3rd Indiana in A fires at them, the
    8th Illinois stands in B, their other front hex."""
    g = gunline(GAMBLE, options=("combined_small_arms",) if option else ())
    c = at(g, (0, 0))
    a, b = nb(c, 0), nb(c, 1)
    place(g, AL5, c, 0)
    place(g, AL13, c, 0)
    place(g, IN3, a, 3)
    place(g, IL8, b, 4)
    g.apply({"type": "fire", "unit": IN3, "target": hid(g, c)}, "usa")
    return g, a, b


@pytest.mark.parametrize("option", [False, True])
def test_a_stack_returns_fire_as_one_10_82(option: bool) -> None:
    """With the option the stack's return fire is one shot of 3 + 4 SP, both units having
    fired; without it the battalion returns its own 3 SP."""
    g, a, _b = stack_under_fire(option)
    script(g, [0, 0, 0, 0])
    back = [e for e in shots(g.apply({"type": "return_fire", "unit": AL5}, "csa"))
            if e.data["unit"] == AL5]
    assert [(e.data["sp"], e.data["target"]) for e in back] == [(7 if option else 3, hid(g, a))]
    assert back[0].data.get("combined") == ([AL5, AL13] if option else None)
    assert ("return" in g.pos.units[AL13].fired) is option


def test_a_combined_stack_reserves_as_one_10_82() -> None:
    """§10.82 with §10.15: the stack answers with the larger half of its 7 SP (4) and keeps 3
    as one reserve; the second phasing shot, from B, is answered by that reserve, fired by
    both units; the 13th Alabama is not offered a shot of its own, and both have then used
    their split."""
    g, _a, b = stack_under_fire(True)
    script(g, [0, 0, 0, 0])
    ev = g.apply({"type": "return_fire_reserve", "unit": AL5}, "csa")
    assert [(e.data["sp"], e.data["combined"]) for e in shots(ev)
            if e.data["unit"] == AL5] == [(4, [AL5, AL13])]
    kept = [e.data for e in ev if e.type == "fire_reserved"]
    assert kept == [{"unit": AL5, "sp": 3, "with": [AL13]}]
    ev = g.apply({"type": "fire", "unit": IL8, "target": g.pos.units[AL5].hex}, "usa")
    assert [e.type for e in ev] == ["fire_declared"]
    assert g.legal_actions("csa") == [{"type": "return_fire", "unit": AL5}, {"type": "hold"}]
    with pytest.raises(RuleError):  # its share of the split is in the stack's reserve
        g.validate({"type": "return_fire", "unit": AL13}, "csa")
    script(g, [0, 0, 0, 0])
    ev = g.apply({"type": "return_fire", "unit": AL5}, "csa")
    assert [(e.data["sp"], e.data["target"], e.data["combined"]) for e in shots(ev)
            if e.data["unit"] == AL5] == [(3, hid(g, b), [AL5, AL13])]
    for k in (AL5, AL13):
        assert "reserve_used" in g.pos.units[k].fired


def test_a_shocked_stack_fires_pre_shock_as_one_10_82() -> None:
    """Pre-shock fire (002 §10.43, §11.38) by a stack under the option: the 1st Tennessee and
    the 13th Alabama (6 SP each; a position built by hand on the skirmish) fire 7 SP as one
    shot at the attacker's hex, and both have used their pre-shock fire."""
    g = GbacwGame(SKIRMISH, dice=ScriptedDice(OPENING + [6, 5] + [0] * 60, die="d10"),
                  options=("combined_small_arms",))
    g.apply({"type": "end_orders"}, "usa")
    g.apply({"type": "end_orders"}, "csa")
    g.apply({"type": "first_am", "marker": "usa/US-1/Cav"}, "usa")
    g.apply({"type": "end_orders_change"}, "usa")
    g.apply({"type": "activate", "brigade": GAMBLE}, "usa")
    k = g.brigade_units(GAMBLE)[0]
    first, second = g.brigade_units(ARCHER)[:2]
    u = g.pos.units[k]
    here = g.hex_of(u.hex)
    assert here is not None and u.facing is not None
    front = g.cat.board.hexes[front_hexes(here, u.facing)[0]].id
    for n, key in enumerate((first, second)):
        g.pos.units[key].hex = front
        g.pos.units[key].facing = g.pos.units[first].facing
        g.pos.units[key].stack = n
    shock = next(a for a in g.legal_actions("usa") if a["type"] == "shock"
                 and a["shocks"][0]["attackers"] == [k])
    g.apply(shock, "usa")
    g.apply({"type": "stand"}, "csa")
    ev = g.apply({"type": "pre_shock_fire", "unit": first, "target": u.hex}, "csa")
    assert [(e.data["sp"], e.data["combined"]) for e in shots(ev)
            if e.data["unit"] == first] == [(7, [first, second])]
    assert "pre_shock" in g.pos.units[second].fired
    assert not [a for a in g.legal_actions("csa") if a["type"] == "pre_shock_fire"]
