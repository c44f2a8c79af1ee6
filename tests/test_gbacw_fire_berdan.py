"""Berdan's sharpshooters fire to 6 hexes with -2 there (004 §14.4): the range chart's unit
rule reaches the fire code's range checks and DRM (fire_action.unit_rule_of)."""

from __future__ import annotations

import pytest

from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import RuleError, new_game
from gettysburg.gbacw import fire_action as fa
from gettysburg.gbacw import return_fire as rf
from gettysburg.gbacw.facing import Facing
from gettysburg.gbacw.game import GbacwGame

USSS1 = "US-III:1 USSS"


def six_hexes_off(shooter: str | None = None) -> tuple[GbacwGame, str, Hex]:
    """``shooter`` (default the 1st USSS) at B2005 facing vertex 0, a Confederate unit six
    hexes straight ahead (open ground on sheet B)."""
    g = new_game("gbacw/little-round-top", seed=1)
    assert isinstance(g, GbacwGame)
    k = shooter or USSS1
    c = g.cat.board.parse("B2005")
    t = c
    for _ in range(6):
        t = t.neighbour(0)
    enemy = next(x for x, u in sorted(g.pos.units.items()) if u.seat == "csa")
    u = g.pos.units[k]
    u.hex, u.facing = g.cat.board.hexes[c].id, Facing("vertex", 0)
    g.pos.units[enemy].hex = g.cat.board.hexes[t].id
    g._memo.clear()
    return g, k, t


def test_sharpshooters_reach_six_hexes_at_minus_two_tdg_14_4() -> None:
    g, k, t = six_hexes_off()
    assert fa.unit_rule_of(g, k) == "berdan-sharpshooters"
    plan = fa.plan_at(g, fa.firer_of(g, k, phasing=True), t, "usa")
    assert plan.shot.hexes == 6
    ranges = [m for m in fa.fire_modifiers_of(g, plan) if m.source == "range"]
    assert [m.value for m in ranges] == [-2]
    back = rf.shot_plan(g, k, t, "return")  # non-phasing fire too
    assert back.shot.hexes == 6


def test_other_rifles_do_not_tdg_14_4() -> None:
    g0 = new_game("gbacw/little-round-top", seed=1)
    assert isinstance(g0, GbacwGame)
    rifle = next(k for k, u in sorted(g0.pos.units.items())
                 if u.seat == "usa" and g0.counter(k).weapon == "R"
                 and g0.counter(k).arm == "inf" and fa.unit_rule_of(g0, k) is None)
    g, k, t = six_hexes_off(rifle)
    with pytest.raises(RuleError) as err:
        fa.plan_at(g, fa.firer_of(g, k, phasing=True), t, "usa")
    assert err.value.rule.startswith("10.")
