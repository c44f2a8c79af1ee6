"""Collapse as a state the engine keeps (002 §12.23, §13.1, §16.2; gbacw/collapse_step.py)
and the printed SP as a ceiling (§12.12), on the hand-made skirmish with scripted d10s."""

from __future__ import annotations

from gbacw_skirmish import SKIRMISH
from gettysburg.core.dice import ScriptedDice
from gettysburg.gbacw.charts import all_charts
from gettysburg.gbacw.game import GbacwGame

GAMBLE = "US-1/1/Cav"


def game() -> tuple[GbacwGame, str]:
    g = GbacwGame(SKIRMISH, dice=ScriptedDice([7, 3, 0, 5, 4] + [0] * 60, die="d10"))
    return g, g.brigade_units(GAMBLE)[0]


def test_a_loss_outside_fire_below_half_collapses_and_disorders_12_23() -> None:
    """Example #1's arithmetic: 8 SP less 4 stays normal; the fifth loss collapses it."""
    g, unit = game()
    printed = g.counter(unit).sp
    u = g.pos.units[unit]
    u.lost = printed // 2  # exactly half left: still normal
    assert not [e for e in g._casualties() if e.type == "collapse"]
    assert not u.collapsed
    u.lost += 1  # e.g. a shock loss, a rally loss or moving through friends
    ev = [e for e in g._casualties() if e.type == "collapse"]
    assert [e.rule for e in ev] == ["12.23"] and ev[0].data["newly_disordered"] is True
    assert u.collapsed and u.disordered
    assert not [e for e in g._casualties() if e.type == "collapse"]  # once only


def test_straggler_recovery_ends_the_collapse_13_1_16_2() -> None:
    g, unit = game()
    p = g.pos
    printed = g.counter(unit).sp
    u = p.units[unit]
    u.lost = printed // 2 + 1
    g._casualties()
    assert u.collapsed
    p.brigades[GAMBLE].reserve = True
    p.turn = next(t.index for t in all_charts().turn_track.turns() if t.light == "dusk")
    g._stragglers(GAMBLE)  # a 0 passes: 1 SP back, half again
    assert 2 * (printed - u.lost) >= printed
    ev = [e for e in g._casualties() if e.type == "collapse_ended"]
    assert [e.rule for e in ev] == ["16.2"]
    assert not u.collapsed and u.disordered  # it still has to rally (13.1)


def test_the_printed_sp_is_the_ceiling_12_12() -> None:
    g, unit = game()
    printed = g.counter(unit).sp
    u = g.pos.units[unit]
    u.lost = 1
    p = g.pos
    p.brigades[GAMBLE].reserve = True
    p.turn = next(t.index for t in all_charts().turn_track.turns() if t.light == "dusk")
    assert not [e for e in g._stragglers(GAMBLE) if e.type == "stragglers"]
    u.lost = -2  # no state may carry more than the printed SP
    g._casualties()
    assert u.lost == 0 and printed - u.lost == printed
