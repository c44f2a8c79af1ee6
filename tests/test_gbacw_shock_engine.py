"""Shock carried out by the GBACW engine (gbacw/shock_step.py, 002 §11-12) on the hand-made
skirmish (tests/data/gbacw/skirmish.yaml): designation by the active brigade, the defender's
turn to withdraw or stand (002 §11.33), the roll and its results written to the position."""

from __future__ import annotations

import pytest

from gbacw_skirmish import active_gamble
from gettysburg.core.dice import ScriptedDice
from gettysburg.core.protocol import Action, Event, RuleError
from gettysburg.gbacw import shock_step
from gettysburg.gbacw.game import GbacwGame
from gettysburg.gbacw.shock import Effects
from gettysburg.gbacw.shock_action import combatant_of


def shocks(g: GbacwGame) -> list[Action]:
    return [a for a in g.legal_actions("usa") if a["type"] == "shock"]


def stand(g: GbacwGame) -> list[Event]:
    """The defender stands, and fires no pre-shock shot (002 §11.33, §11.38); a retreat
    with more than one allowed path takes the first (its owner's choice, 002 §12.41)."""
    ev: list[Event] = []
    while g.pos.pending is not None and g.pos.pending["kind"] in ("shock", "retreat"):
        if g.pos.pending["kind"] == "shock":
            ev += g.apply({"type": "stand"}, "csa")
        else:
            seat = g.to_move()[0]
            ev += g.apply(g.legal_actions(seat)[0], seat)
    return ev


def designated(extra: list[int] | None = None) -> tuple[GbacwGame, str, str]:
    g, k, enemy = active_gamble(extra)
    mine = [a for a in shocks(g) if a["shocks"][0]["attackers"] == [k]]
    assert mine, "the unit with an enemy in its front hex may shock it (11.12)"
    g.apply(mine[0], "usa")
    return g, k, enemy


def test_designation_hands_the_move_to_the_defender_11_33() -> None:
    g, _k, enemy = designated()
    assert g.to_move() == ["csa"]
    legal = g.legal_actions("csa")
    assert {"type": "stand"} in legal
    assert any(a["type"] == "withdraw" and a["unit"] == enemy for a in legal)
    assert g.legal_actions("usa") == []
    for seat in ("usa", "csa"):  # the designation is announced to both
        view = g.view(seat)
        assert view["pending"]["kind"] == "shock" and view["to_move"] == ["csa"]
    with pytest.raises(RuleError) as e:  # the attacker waits for the decision
        g.validate({"type": "end_brigade"}, "csa")
    assert e.value.rule == "11.33"
    for a in legal:  # the list and the check agree
        g.validate(a, "csa")


def test_stand_rolls_and_writes_the_result_11_45() -> None:
    """Scripted d10s: pre-shock check 6 (passed against cohesion 7), shock roll 4 at 1:1.5
    (-1) with -1 no brigadier and -1 Advance orders: adjusted 1, the attacker retreats one hex
    disordered (the Shock table's row), and the automatic post-shock disorder."""
    g, k, _enemy = designated(extra=[6, 4])
    before = g.pos.units[k].hex
    ev = stand(g)
    kinds = [e.type for e in ev]
    assert "shock_resolved" in kinds and "shock_retreat" in kinds
    resolved = next(e for e in ev if e.type == "shock_resolved")
    assert resolved.data["roll"]["row"] == "attacker-retreats"
    u = g.pos.units[k]
    assert u.disordered and u.hex != before and u.hex is not None
    h0, h1 = g.hex_of(before), g.hex_of(u.hex)
    assert h0 is not None and h1 is not None and h0.distance(h1) == 1
    pend = g.pos.pending  # adjusted 1: the defender may counter-attack (§11.47); declines
    assert pend is not None and pend["kind"] == "after_shock" and g.to_move() == ["csa"]
    g.apply({"type": "end_shock"}, "csa")
    assert g.pos.pending is None and g.to_move() == ["usa"]
    # the brigade has shocked: no second designation, no fire after it (11.31, 11.11)
    assert shocks(g) == []
    assert not any(a["type"] == "fire" for a in g.legal_actions("usa"))


def test_withdrawal_before_shock_cancels_it_11_33() -> None:
    """The withdrawal ends the shock; the attacking infantry (here dismounted cavalry) may
    then advance into the emptied hex, or not (002 §11.35); no post-shock disorder."""
    g, k, enemy = designated()
    target = g.pos.units[enemy].hex
    w = next(a for a in g.legal_actions("csa") if a["type"] == "withdraw")
    ev = g.apply(w, "csa")
    assert g.pos.units[enemy].hex == w["to"]
    ended = ev[-1]
    assert ended.type == "shock_ended" and ended.rule == "11.35"
    assert g.pos.pending is not None and g.pos.pending["kind"] == "after_shock"
    assert g.to_move() == ["usa"]
    legal = g.legal_actions("usa")
    assert {"type": "shock_advance", "unit": k, "to": target} in legal
    assert {"type": "end_shock"} in legal
    assert not any(a["type"] == "continue_shock" for a in legal)  # 11.35: no continuation
    g.apply({"type": "end_shock"}, "usa")
    assert g.pos.pending is None and g.to_move() == ["usa"]
    assert not g.pos.units[k].disordered  # the attacker is exempt (11.48)


def test_voluntary_advance_after_withdrawal_11_35() -> None:
    g, k, enemy = designated()
    target = g.pos.units[enemy].hex
    facing = g.pos.units[k].facing
    w = next(a for a in g.legal_actions("csa") if a["type"] == "withdraw")
    g.apply(w, "csa")
    ev = g.apply({"type": "shock_advance", "unit": k, "to": target}, "usa")
    adv = next(e for e in ev if e.type == "shock_advance")
    assert adv.rule == "11.35" and adv.data["to"] == target
    assert g.pos.units[k].hex == target and g.pos.units[k].facing == facing
    assert g.pos.pending is None and not g.pos.units[k].disordered
    with pytest.raises(RuleError) as e:  # nothing waits any more
        g.validate({"type": "end_shock"}, "usa")
    assert e.value.rule == "11.47"


def test_bad_withdrawal_is_refused_and_changes_nothing() -> None:
    g, k, enemy = designated()
    before = g.position_json()
    with pytest.raises(RuleError) as e:
        g.validate({"type": "withdraw", "unit": enemy, "to": "A3303"}, "csa")
    assert e.value.rule == "11.33"
    with pytest.raises(RuleError) as e:
        g.validate({"type": "shock", "shocks": [{"attackers": [k], "targets": ["A3502"]}]},
                   "usa")
    assert e.value.rule == "11.33"
    assert g.position_json() == before


def test_pending_shock_survives_json() -> None:
    g, _k, _enemy = designated()
    again = GbacwGame.__new__(GbacwGame)
    again.__dict__.update(g.__dict__)
    again.load_position(g.position_json())
    assert again.pos.pending == g.pos.pending and again.to_move() == ["csa"]


def test_attacker_advances_into_the_emptied_hex_11_46() -> None:
    """Scripted d10s: pre-shock check 0 (passed), shock roll 9: the defender retreats; the
    hex is empty, so the attacker must advance into it (002 §11.46), facing kept."""
    g, k, enemy = active_gamble()
    target = g.pos.units[enemy].hex
    facing = g.pos.units[k].facing
    g.dice = ScriptedDice([0, 9] + [0] * 30, die="d10")
    g.apply(next(a for a in shocks(g) if a["shocks"][0]["attackers"] == [k]), "usa")
    ev = stand(g)
    kinds = [e.type for e in ev]
    assert kinds.index("shock_retreat") < kinds.index("shock_advance")
    assert g.pos.units[enemy].hex != target
    assert g.pos.units[k].hex == target and g.pos.units[k].facing == facing
    adv = next(e for e in ev if e.type == "shock_advance")
    assert adv.rule == "11.46" and adv.data["to"] == target


def test_a_charging_unit_must_shock_before_the_brigade_ends_11_21() -> None:
    """Infantry (here dismounted cavalry) on Attack that moved next to an enemy without
    firing is charging: the brigade may not end before it shocks (002 §11.21)."""
    g, k, _enemy = active_gamble()
    g.pos.brigades[g.formation(k)].orders = "attack"
    g.pos.units[k].moves = 1
    g._memo.clear()
    legal = g.legal_actions("usa")
    assert {"type": "end_brigade"} not in legal and {"type": "end_activation"} not in legal
    assert any(a["type"] == "shock" for a in legal)
    with pytest.raises(RuleError) as e:
        g.validate({"type": "end_brigade"}, "usa")
    assert e.value.rule == "11.21"
    g.apply(next(a for a in legal if a["type"] == "shock"), "usa")
    stand(g)
    assert {"type": "end_brigade"} in g.legal_actions("usa")


def test_pre_shock_fire_after_the_checks_11_38() -> None:
    """Standing rolls steps 3-4 (the pre-shock check is written at once); then the shocked
    unit may fire at its attacker's hex before the roll, once (002 §11.38, §10.43)."""
    g, k, enemy = designated()
    ev = g.apply({"type": "stand"}, "csa")
    assert "shock_pre_shock_check" in [e.type for e in ev]
    assert g.pos.pending is not None and g.pos.pending["stage"] == "fire"
    fire = {"type": "pre_shock_fire", "unit": enemy, "target": g.pos.units[k].hex}
    legal = g.legal_actions("csa")
    assert fire in legal and {"type": "withdraw"} not in [{"type": a["type"]} for a in legal]
    ev = g.apply(fire, "csa")
    assert [e.type for e in ev][:2] == ["pre_shock_fire", "fire"]
    assert "pre_shock" in g.pos.units[enemy].fired
    assert fire not in g.legal_actions("csa")  # once per enemy brigade activation
    ev = stand(g)
    if g.pos.pending is not None:  # an adjusted 1 or less: no counter-attack (§11.47)
        assert g.pos.pending["kind"] == "after_shock" and g.pos.pending["counter"]
        ev += g.apply({"type": "end_shock"}, "csa")
    assert g.pos.pending is None and g.to_move() == ["usa"]


def test_a_shock_collapse_is_written_12_23() -> None:
    """The collapse a shock result reports (shock.apply_result) goes on the position: the
    marker and the disordered face (002 §12.23)."""
    g, _k, enemy = designated()
    eff = Effects({}, (), {}, (), (), (), collapsed=(enemy,))
    shock_step._write_effects(g, eff, set(), set())
    u = g.pos.units[enemy]
    assert u.collapsed and u.disordered
    assert combatant_of(g, enemy).printed_sp == g.counter(enemy).sp


def test_a_failed_pre_shock_check_costs_the_stack_one_sp_12_35e() -> None:
    """Two disordered regiments stacked fail the pre-shock check: each takes the second
    disorder (its UDD passed: 1 SP and a retreat), but the stack loses one SP in all, from
    its top unit (002 §11.37, §12.35e), not one each and the top unit twice."""
    g, _k, enemy = designated()
    mate = "CS-III:13 AL"
    g.pos.units[mate].hex = g.pos.units[enemy].hex
    g.pos.units[mate].facing = g.pos.units[enemy].facing
    for key in (enemy, mate):
        g.pos.units[key].disordered = True
    g.dice = ScriptedDice([9] + [0] * 40, die="d10")  # the check fails; the UDDs pass
    g._memo.clear()
    ev = g.apply({"type": "stand"}, "csa")
    pre = next(e for e in ev if e.type == "shock_pre_shock_check")
    assert not pre.data["roll"]["passed"]
    assert sum(1 for r in pre.data["results"] if r["sp_loss"]) == 2
    assert sum(g.pos.units[x].lost for x in (enemy, mate)) == 1
    assert list(pre.data["losses"].values()) == [1]
