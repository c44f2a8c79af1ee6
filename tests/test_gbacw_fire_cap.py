"""The hex fire limit over an activation (002 §8.31, §8.33): the SP a unit was allowed when
it fired from a hex stay counted for that hex for the rest of the activation, whether the
unit loses SP to return fire since or leaves the hex. Archer's brigade active with the 13th
Alabama (6 SP) over the 5th Alabama Battalion (3) and the 1st Tennessee (6) in one hex, a
Union battery in range (the stack of tests/test_gbacw_combat_props.py)."""

from __future__ import annotations

from gbacw_gunline import AL5, AL13, TN1, key_of
from gettysburg.gbacw.fire_action import fire_sp
from gettysburg.gbacw.game import GbacwGame
from test_gbacw_combat_props import stacked_fire

TARGET = "B1804"  # the Union battery


def top_fires_and_is_hit() -> tuple[GbacwGame, str, str]:
    """The 13th Alabama fires its 6 SP; the battery's return fire takes 1 SP off it (the
    stored hypothesis example of test_phasing_fire_keeps_the_hex_cap_over_the_activation)."""
    g = stacked_fire([0, 0, 0, 0, 0, 6] + [0] * 24)
    top, under = key_of(g, AL13), key_of(g, AL5)
    assert fire_sp(g, top) == 6 and fire_sp(g, under) == 1
    g.apply({"type": "fire", "unit": top, "target": TARGET}, "csa")
    answer = next(a for a in g.legal_actions("usa") if a["type"] == "return_fire")
    ev = g.apply(answer, "usa")
    assert any(e.type == "fire_loss" and e.data["unit"] == top for e in ev)
    assert g.pos.units[top].lost == 1
    return g, top, under


def test_return_fire_losses_free_no_sp_for_the_units_below_8_31() -> None:
    """6 SP fired from the hex: the unit below may fire 1, not 2, though the top one now has
    5 SP (002 §8.31: 7 SP from a hex; §8.33)."""
    g, _top, under = top_fires_and_is_hit()
    assert fire_sp(g, under) == 1
    ev = g.apply({"type": "fire", "unit": under, "target": TARGET}, "csa")
    fired = [e for e in ev if e.type == "fire" and e.data["unit"] == under]
    assert [e.data["sp"] for e in fired] == [1]
    assert fire_sp(g, key_of(g, TN1)) == 0  # the hex's 7 are used


def test_a_unit_that_fired_and_left_still_counts_8_31() -> None:
    """The top unit gone from the hex after its shot (moved off by hand, as a retreat
    would): the 5th Alabama Battalion, now on top, may still fire only 1 SP."""
    g, top, under = top_fires_and_is_hit()
    g.pos.units[top].hex = "B2105" if g.pos.units[top].hex != "B2105" else "B2006"
    g._memo.clear()
    assert fire_sp(g, under) == 1


def test_the_limit_is_for_one_activation_8_31() -> None:
    """The note is the activation's: at the next activation the stack fires afresh."""
    g, top, under = top_fires_and_is_hit()
    for u in g.pos.units.values():  # what the engine does at an activation (game.py)
        u.fired = []
    assert fire_sp(g, top) == 5 and fire_sp(g, under) == 2
