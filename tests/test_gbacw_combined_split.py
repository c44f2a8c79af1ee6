"""Split fire of a stack that combines its small arms (the optional 002 §10.82 with §10.15;
engine: gbacw/fire_action.py ``combined_split``) on hand-made gun-line positions."""

from __future__ import annotations

import pytest

from gbacw_gunline import AL13, GAMBLE, IN3, TN1, at, gunline, hid, place, script
from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import Event, RuleError
from gettysburg.gbacw import fire_action as fa
from gettysburg.gbacw.game import GbacwGame

IL12 = "US-Cav:12 IL"


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
