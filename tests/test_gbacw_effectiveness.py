"""Combat effectiveness in the engine (gbacw/effectiveness.py, 002 §13.2-13.3) on the hand-made
skirmish: brigade and division markers set and lifted at IV/C, their effects on activations
and coordination, and the counts victory reads."""

from __future__ import annotations

from pathlib import Path

from gettysburg.core.dice import ScriptedDice
from gettysburg.gbacw import effectiveness
from gettysburg.gbacw.game import GbacwGame
from gettysburg.gbacw.state import division_marker

SKIRMISH = str(Path(__file__).parent / "data" / "gbacw" / "skirmish.yaml")
GAMBLE, ARCHER, DAVIS = "US-1/1/Cav", "CS-Archer/Heth", "CS-Davis/Heth"


def game() -> GbacwGame:
    return GbacwGame(SKIRMISH, dice=ScriptedDice([7, 3, 0, 5, 4] + [0] * 40, die="d10"))


def waiting(g: GbacwGame) -> set[str]:
    return {k for k, u in g.pos.units.items() if u.hex is None and not g.gone(k)}


def test_all_regiments_disordered_make_the_brigade_ci_13_21() -> None:
    g = game()
    for k in g.brigade_units(GAMBLE):
        g.pos.units[k].disordered = True
    ev = effectiveness.phase(g, waiting(g))
    assert g.pos.ci_brigades == [GAMBLE]
    assert [e.type for e in ev] == ["combat_ineffective"] and ev[0].rule == "13.22"
    st = g.standing()
    assert st.ci_brigades == {"usa": 1}
    assert st.ci_divisions == {"usa": 1}  # a cavalry brigade counts as a division (004 sc.6.7)
    # the marker goes at the first IV/C at which the rule no longer holds (13.22)
    g.pos.units[g.brigade_units(GAMBLE)[0]].disordered = False
    ev = effectiveness.phase(g, waiting(g))
    assert g.pos.ci_brigades == [] and [e.type for e in ev] == ["combat_effective"]


def test_more_than_half_broken_13_21() -> None:
    g = game()
    regs = effectiveness.regiments(g, ARCHER)
    half = len(regs) // 2
    for k in regs[:half]:
        g.pos.units[k].routed = True
    effectiveness.phase(g, waiting(g))
    assert ARCHER not in g.pos.ci_brigades or 2 * half > len(regs)
    g.pos.units[regs[half]].collapsed = True
    effectiveness.phase(g, waiting(g))
    assert ARCHER in g.pos.ci_brigades


def test_not_arrived_regiments_are_left_out_13_21() -> None:
    g = game()
    devin = "US-2/1/Cav"
    assert all(g.pos.units[k].hex is None for k in g.brigade_units(devin))
    effectiveness.phase(g, waiting(g))
    assert devin not in g.pos.ci_brigades


def test_division_marker_keeps_until_most_recover_13_31_13_33() -> None:
    g = game()
    for n in (ARCHER, DAVIS):
        for k in effectiveness.regiments(g, n):
            g.pos.units[k].disordered = True
    ev = effectiveness.phase(g, waiting(g))
    heth = g.pos.brigades[ARCHER].division
    assert heth is not None and g.pos.ci_divisions == [heth]
    assert "division_ineffective" in [e.type for e in ev]
    for k in effectiveness.regiments(g, DAVIS):
        g.pos.units[k].disordered = False
    effectiveness.phase(g, waiting(g))
    # one of two brigades still CI: not most of them recovered, the marker stays (13.33)
    assert g.pos.ci_brigades == [ARCHER] and g.pos.ci_divisions == [heth]
    assert g.standing().ci_divisions == {"csa": 1} and g.standing().ci_brigades == {"csa": 1}
    # a CI division: at most two activations a turn (13.32), never coordination
    p = g.pos
    p.phase, p.current, p.brigade = "action", division_marker("csa", heth), None
    p.ams[heth] = 4
    p.brigades[ARCHER].activations = 2
    p.brigades[ARCHER].orders = "advance"
    assert ARCHER not in g.eligible_brigades()
    p.brigades[ARCHER].activations = 1
    assert ARCHER in g.eligible_brigades()
    p.phase = "orders_change"
    assert g.coordination_eligible() == []


def test_ci_markers_survive_json() -> None:
    g = game()
    for k in g.brigade_units(GAMBLE):
        g.pos.units[k].disordered = True
    effectiveness.phase(g, waiting(g))
    before = g.position_json()
    g.load_position(before)
    assert g.pos.ci_brigades == [GAMBLE] and g.position_json() == before


def test_abandoned_guns_age_at_recovery_12_82() -> None:
    """Abandoned-1 turns Abandoned-2 at a Recovery phase, and guns still abandoned at the
    next one are lost (002 §12.8, §12.82). (A regiment stands in for the guns here.)"""
    g = game()
    k = effectiveness.regiments(g, ARCHER)[0]
    g.pos.units[k].abandoned = "abandoned-1"
    seen: list[str] = []
    for _ in range(200):
        if g.is_terminal():
            break
        seat = g.to_move()[0]
        legal = g.legal_actions(seat)
        pick = next((a for t in ("end_orders", "first_am", "end_orders_change",
                                 "end_activation", "end_commanders")
                     for a in legal if a["type"] == t), legal[0])
        for e in g.apply(pick, seat):
            if e.type == "abandoned_guns":
                seen.append(str(e.data["now"]))
    assert seen == ["abandoned-2", "eliminated"]
    assert g.pos.units[k].hex is None and g.gone(k)
