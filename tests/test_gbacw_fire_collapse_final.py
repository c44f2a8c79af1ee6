"""002 §12.23: a unit already collapsed that loses SP outside fire and shock (movement
checks, reaction, events...) takes one final UDD and routs if it fails (§12.51);
collapse_step.final_udds through the sweep, on the gun-line test map."""

from __future__ import annotations

import pytest

from gbacw_gunline import GAMBLE, IN3, at, gunline, key_of, place, script
from gettysburg.gbacw import collapse_step
from gettysburg.gbacw.game import GbacwGame
from gettysburg.gbacw.udd import udd


def collapsed_in3() -> tuple[GbacwGame, str]:
    """IN3 on the map with 2 SP left (below half its printed SP): collapsed, disordered."""
    g = gunline(GAMBLE)
    place(g, IN3, at(g, (0, 0)), 0)
    k = key_of(g, IN3)
    u = g.pos.units[k]
    u.lost, u.collapsed, u.disordered = g.counter(k).sp - 2, True, True
    return g, k


@pytest.mark.parametrize(("roll", "routs"), [(0, False), (9, True)])
def test_a_collapsed_unit_losing_sp_rolls_a_final_udd_12_23(roll: int, routs: bool) -> None:
    g, k = collapsed_in3()
    script(g, [roll])
    collapse_step.begin(g)
    g.pos.units[k].lost += 1  # e.g. a second disorder on a movement check (§12.33)
    ev = collapse_step.sweep(g)
    checks = [e for e in ev if e.type == "collapse_udd"]
    assert len(checks) == 1 and checks[0].rule == "12.23"
    assert checks[0].data["check"]["roll"] == roll  # type: ignore[index]
    assert g.pos.units[k].routed is routs and checks[0].data["routed"] is routs
    assert collapse_step.sweep(g) == []  # once for that loss


def test_no_udd_without_a_new_loss_nor_outside_an_action_12_23() -> None:
    g, _ = collapsed_in3()
    collapse_step.begin(g)
    assert collapse_step.sweep(g) == []
    g2, k2 = collapsed_in3()
    g2.pos.units[k2].lost += 1
    setattr(g2, collapse_step.BASE, None)
    assert [e for e in collapse_step.sweep(g2) if e.type == "collapse_udd"] == []


def test_a_loss_fire_or_shock_already_checked_is_not_checked_again_12_23() -> None:
    g, k = collapsed_in3()
    script(g, [9])
    collapse_step.begin(g)
    g.pos.units[k].lost += 1
    udd(g.dice, unit=k, cohesion=3, purpose="collapsed unit lost SP", rule="12.23")
    assert [e for e in collapse_step.sweep(g) if e.type == "collapse_udd"] == []
    assert not g.pos.units[k].routed


def test_a_unit_collapsing_now_takes_no_final_udd_12_23() -> None:
    """The loss that collapses a unit is not a loss after the collapse."""
    g = gunline(GAMBLE)
    place(g, IN3, at(g, (0, 0)), 0)
    k = key_of(g, IN3)
    collapse_step.begin(g)
    g.pos.units[k].lost = g.counter(k).sp - 2
    ev = collapse_step.sweep(g)
    assert [e.type for e in ev] == ["collapse"]


def test_an_action_runs_the_check_through_the_game_12_23() -> None:
    """The game notes the base at every action: after one, it is that action's."""
    g, k = collapsed_in3()
    g.apply({"type": "end_activation"}, "usa")
    base = getattr(g, collapse_step.BASE)
    assert base is not None and k in base[1]
