"""Cavalry charges in the GBACW engine (gbacw/charge_step.py, 002 §11.51-11.58, §16.12):
declaring a charge and its UDD, the charge's shock and benefits, the counter-charge as the
defender's decision, Blown cavalry's MA and its marker's removal, no charge at night. On
the hand-made skirmish (tests/data/gbacw/skirmish.yaml) with scripted d10s."""

from __future__ import annotations

import pytest

from gbacw_skirmish import active_gamble
from gettysburg.core.dice import ScriptedDice
from gettysburg.core.protocol import Action, RuleError
from gettysburg.gbacw import charge_step
from gettysburg.gbacw.facing import front_hexes
from gettysburg.gbacw.game import GbacwGame
from test_gbacw_shock_engine import stand


def mounted_on_attack(dice: list[int]) -> tuple[GbacwGame, str, str]:
    """Gamble's first regiment mounted, its brigade on Attack orders; Archer's first
    regiment three hexes ahead, in sight."""
    g, k, d1 = active_gamble()
    u = g.pos.units[k]
    u.counter = u.counter.replace(":dismounted", ":mounted")
    g.pos.brigades[g.formation(k)].orders = "attack"
    here = g.hex_of(u.hex)
    assert here is not None and u.facing is not None
    v = u.facing.index
    g.pos.units[d1].hex = g.cat.board.hexes[here.neighbour(v).neighbour(v).neighbour(v)].id
    g.dice = ScriptedDice(dice + [0] * 40, die="d10")
    g._memo.clear()
    return g, k, d1


def charge_move(g: GbacwGame, k: str, d1: str) -> Action:
    """A move of ``k`` ending with ``d1``'s hex in a front hex."""
    target = g.hex_of(g.pos.units[d1].hex)
    for a in g.legal_actions("usa"):
        if a["type"] != "move" or a["unit"] != k:
            continue
        h = g.hex_of(a["to"])
        f = g.pos.units[k].facing
        assert h is not None and f is not None
        if target in front_hexes(h, type(f).from_json(a["facing"])):
            return a
    raise AssertionError("no move brings the enemy into a front hex")


def test_charge_declared_before_moving_11_53() -> None:
    """The top unit's UDD (0: passed): the unit charges; it moves next to the enemy and
    must shock (§11.21); the shock has the charge's +1 and the defender's pre-shock check
    its +1 (§11.55)."""
    g, k, d1 = mounted_on_attack([0, 0, 5])
    assert {"type": "charge", "unit": k} in g.legal_actions("usa")
    ev = g.apply({"type": "charge", "unit": k}, "usa")
    charge = next(e for e in ev if e.type == "charge")
    assert charge.rule == "11.53" and charge.data["check"]["passed"]
    assert g.pos.units[k].charging
    assert {"type": "charge", "unit": k} not in g.legal_actions("usa")  # once
    g.apply(charge_move(g, k, d1), "usa")
    while g.pos.pending is not None and g.pos.pending["kind"] == "reaction":
        g.apply({"type": "no_reaction"}, "csa")  # 002 §9.61: the defender lets it pass
    legal = g.legal_actions("usa")
    assert {"type": "end_brigade"} not in legal  # a charge must shock (§11.21)
    shock = next(a for a in legal if a["type"] == "shock" and a["shocks"][0]["attackers"] == [k])
    ev = g.apply(shock, "usa")  # no withdrawal before mounted cavalry (§11.33): rolled
    ev += stand(g)
    pre = next(e for e in ev if e.type == "shock_pre_shock_check")
    assert "charged-by-cavalry" in str(pre.data["drms"])
    resolved = next(e for e in ev if e.type == "shock_resolved")
    drms = {d["id"]: d["value"] for d in resolved.data["roll"]["drms"]}
    assert drms.get("charge") == 1


def test_a_failed_charge_check_ends_the_stack_s_activation_11_53() -> None:
    g, k, _d1 = mounted_on_attack([9])
    ev = g.apply({"type": "charge", "unit": k}, "usa")
    assert not next(e for e in ev if e.type == "charge").data["check"]["passed"]
    assert not g.pos.units[k].charging
    legal = g.legal_actions("usa")
    assert not any(a.get("unit") == k and a["type"] in ("move", "fire", "charge")
                   for a in legal)
    assert not any(a["type"] == "shock" and k in a["shocks"][0]["attackers"] for a in legal)


def test_who_may_charge_11_52_16_12() -> None:
    g, k, _d1 = mounted_on_attack([0])
    g.pos.brigades[g.formation(k)].orders = "advance"
    g._memo.clear()
    with pytest.raises(RuleError) as e:
        g.validate({"type": "charge", "unit": k}, "usa")
    assert e.value.rule == "11.52"
    g.pos.brigades[g.formation(k)].orders = "attack"
    g.pos.units[k].blown = True
    g._memo.clear()
    with pytest.raises(RuleError) as e:
        g.validate({"type": "charge", "unit": k}, "usa")
    assert e.value.rule == "11.58"
    g.pos.units[k].blown = False
    g._memo.clear()
    g._light = lambda: "night"  # type: ignore[method-assign]
    with pytest.raises(RuleError) as e:
        g.validate({"type": "charge", "unit": k}, "usa")
    assert e.value.rule == "16.12"
    assert not any(a["type"] == "charge" for a in g.legal_actions("usa"))


def counter_charge_position(orders: str) -> tuple[GbacwGame, str, str]:
    """Archer's first regiment, its brigade on Attack orders and active, has moved next to
    Gamble's first regiment (mounted, facing it): an infantry charge (§11.21) the Union
    cavalry may answer."""
    g, k, d1 = active_gamble()
    u = g.pos.units[k]
    u.counter = u.counter.replace(":dismounted", ":mounted")
    g.pos.brigades[g.formation(k)].orders = orders
    archer = g.formation(d1)
    g.pos.brigades[archer].orders = "attack"
    g.pos.brigade = archer
    g.pos.current = "csa/" + str(g.pos.brigades[archer].division)
    g.pos.units[d1].moves = 1
    g.pos.units["US-Cav:3 IN"].hex = "A4005"  # out of the way: one defender only
    here = g.hex_of(g.pos.units[d1].hex)
    there = g.hex_of(u.hex)
    assert here is not None and there is not None
    f = g.pos.units[d1].facing
    assert f is not None and there in front_hexes(here, f)
    g._memo.clear()
    return g, k, d1


def test_counter_charge_on_attack_orders_11_56() -> None:
    """On Attack orders the counter-charge is automatic: no pre-shock check, no pre-shock
    fire, and the charging infantry takes -1 instead of +1."""
    g, k, d1 = counter_charge_position("attack")
    g.dice = ScriptedDice([5] + [0] * 40, die="d10")
    shock = next(a for a in g.legal_actions("csa") if a["type"] == "shock")
    g.apply(shock, "csa")
    assert g.to_move() == ["usa"]
    cc = {"type": "counter_charge", "unit": k}
    assert cc in g.legal_actions("usa")
    ev = g.apply(cc, "usa")
    assert next(e for e in ev if e.type == "counter_charge").data["counter_charged"]
    assert cc not in g.legal_actions("usa")
    while g.pos.pending is not None and g.pos.pending["kind"] in ("shock", "retreat"):
        seat = g.to_move()[0]
        legal = g.legal_actions(seat)
        assert not any(a["type"] == "pre_shock_fire" and a.get("unit") == k for a in legal)
        ev += g.apply({"type": "stand"} if {"type": "stand"} in legal else legal[0], seat)
    assert "shock_pre_shock_check" not in [e.type for e in ev]
    resolved = next(e for e in ev if e.type == "shock_resolved")
    drms = {d["id"]: d["value"] for d in resolved.data["roll"]["drms"]}
    assert drms.get("charge-counter-charged") == -1 and "charge" not in drms
    assert d1 in resolved.data["attacker"]["disorders"][0]["unit"]


def test_counter_charge_on_advance_orders_rolls_11_56() -> None:
    """On Advance orders the top unit's UDD decides: a 9 fails, so the pre-shock check is
    taken after all, with the charge's benefits against it."""
    g, k, _d1 = counter_charge_position("advance")
    g.dice = ScriptedDice([9, 0, 5] + [0] * 40, die="d10")
    g.apply(next(a for a in g.legal_actions("csa") if a["type"] == "shock"), "csa")
    ev = g.apply({"type": "counter_charge", "unit": k}, "usa")
    cc = next(e for e in ev if e.type == "counter_charge")
    assert not cc.data["counter_charged"] and cc.data["roll"]["roll"] == 9
    ev = g.apply({"type": "stand"}, "usa")
    assert "shock_pre_shock_check" in [e.type for e in ev]


def test_counter_charge_refusals_11_56() -> None:
    g, k, _d1 = counter_charge_position("attack")
    g.pos.units[k].fired = ["return"]
    g.apply(next(a for a in g.legal_actions("csa") if a["type"] == "shock"), "csa")
    with pytest.raises(RuleError) as e:
        g.validate({"type": "counter_charge", "unit": k}, "usa")
    assert e.value.rule == "11.56"


def test_blown_ma_and_its_marker_11_58() -> None:
    """Blown: half the printed disordered MA, rounded up; Blown in its own activation, the
    marker goes at the end of the next one (the Hampton example)."""
    g, k, _d1 = active_gamble()
    u = g.pos.units[k]
    u.counter = u.counter.replace(":dismounted", ":mounted")
    c = g.counter(k)
    charge_step.mark_blown(g, k)
    g._memo.clear()
    assert u.blown and u.disordered and u.blown_activation == 2
    assert charge_step.blown_ma_of(g, k) == -(-c.ma_disordered // 2)
    assert g.mp_of(k) <= -(-c.ma_disordered // 2)
    brigade = g.formation(k)
    g.apply({"type": "end_brigade"}, "usa")
    assert u.blown and u.blown_activation == 1  # the end of this activation
    ev = charge_step.blown_recovery(g, brigade)  # the end of its next one
    assert not u.blown and u.disordered
    assert [e.type for e in ev] == ["blown_removed"] and ev[0].rule == "11.58"


def test_a_charge_keeps_its_charge_path_11_54() -> None:
    """Once charging, the unit's moves keep the charge path: no facing change over the last
    three hexes entered, no friend there, 1 MP hexes (§11.54); a move it could make before
    declaring, turning on its last hexes, is refused after."""
    g, k, _d1 = mounted_on_attack([0])
    before = g.reach(k)
    g.apply({"type": "charge", "unit": k}, "usa")
    after = g.reach(k)
    assert after and set(after) < set(before)
    for r in after.values():
        path = list(r.path)
        entered = [i for i in range(1, len(path)) if path[i][0] != path[i - 1][0]]
        assert len({f for _h, f in path[entered[-3:][0]:]}) == 1 if entered else True
    (h, f), _r = next((s, r) for s, r in before.items() if s not in after)
    with pytest.raises(RuleError):
        g.validate({"type": "move", "unit": k, "to": g.cat.board.hexes[h].id,
                    "facing": f.to_json()}, "usa")


def test_breaking_off_a_charge_after_a_reaction_move_11_57() -> None:
    """After the defender's reaction move (noted by the hook the game calls after it), the
    charging stack may try to break off: a 0 passes, the stack stops, its activation over;
    a 9 fails and the charge goes on."""
    for roll, broken in ((0, True), (9, False)):
        g, k, d1 = mounted_on_attack([0, roll])
        g.apply({"type": "charge", "unit": k}, "usa")
        assert {"type": "break_charge", "unit": k} not in g.legal_actions("usa")
        g.apply(charge_move(g, k, d1), "usa")
        while g.pos.pending is not None and g.pos.pending["kind"] == "reaction":
            g.apply({"type": "no_reaction"}, "csa")
        charge_step.after_reaction(g, {"type": "react_move", "unit": d1, "path": []})
        g._memo.clear()
        assert {"type": "break_charge", "unit": k} in g.legal_actions("usa")
        ev = g.apply({"type": "break_charge", "unit": k}, "usa")
        done = next(e for e in ev if e.type == "break_charge")
        assert done.rule == "11.57" and done.data["broken"] is broken
        assert g.pos.units[k].charging is not broken
        assert {"type": "break_charge", "unit": k} not in g.legal_actions("usa")
        if broken:
            assert not any(a["type"] == "shock" for a in g.legal_actions("usa"))
    with pytest.raises(RuleError) as e:
        g.validate({"type": "break_charge", "unit": k}, "usa")
    assert e.value.rule == "11.57"


def test_blown_cavalry_is_on_advance_orders_11_58() -> None:
    g, k, _d1 = mounted_on_attack([0])
    assert g.orders_of(k) == "attack"
    charge_step.mark_blown(g, k)
    g._memo.clear()
    assert g.orders_of(k) == "advance"
    assert {"type": "charge", "unit": k} not in g.legal_actions("usa")
