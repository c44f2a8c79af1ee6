"""Orders and command status in the engine (orders_step.py): Reserve broken by fire or
shock (002 §6.34), a March brigade's roll on the March AM (§6.25), late orders of a unit out
of command (§4.23) and its one activation fewer (§5.36). Positions on the hand-made skirmish
with scripted d10s."""

from __future__ import annotations

import pytest

from gbacw_skirmish import ARCHER, GAMBLE, SKIRMISH, active_gamble
from gettysburg.core.dice import ScriptedDice
from gettysburg.core.protocol import RuleError
from gettysburg.gbacw.game import GbacwGame

DAVIS = "CS-Davis/Heth"


def orders_phase() -> GbacwGame:
    return GbacwGame(SKIRMISH, dice=ScriptedDice([7, 3, 0, 5, 4] + [5] * 200, die="d10"))


# --- 002 §6.34 ------------------------------------------------------------------------------


def test_fire_at_four_hexes_or_less_breaks_reserve_before_the_shot_6_34() -> None:
    g, _, enemy = active_gamble()
    p = g.pos
    p.brigades[ARCHER].reserve = True
    p.brigades[ARCHER].orders = "attack"
    target = p.units[enemy].hex
    assert target is not None
    shot = next(a for a in g.legal_actions("usa") if a["type"] == "fire"
                and a["target"] == target)
    ev = g.apply(shot, "usa")
    broke = next(e for e in ev if e.type == "reserve_broken")
    assert ev[0] is broke  # before the shot is rolled
    assert broke.rule == "6.34" and broke.data["brigade"] == ARCHER
    b = p.brigades[ARCHER]
    assert not b.reserve and b.orders == "advance"
    # the shooter sees the disorder, not that it was a Reserve nor its orders
    seen = [e for e in g.events("usa", since=0) if e["type"] == "reserve_broken"]
    assert seen and "orders" not in seen[0]["data"] and "brigade" not in seen[0]["data"]
    assert all(p.units[u].disordered for u in g.brigade_units(ARCHER) if g.on_map(u))


def test_a_refused_shot_leaves_the_reserve_alone_6_34() -> None:
    g, k, enemy = active_gamble()
    p = g.pos
    p.brigades[ARCHER].reserve = True
    far = next(u for u in g.brigade_units(ARCHER) if u != enemy)
    with pytest.raises(RuleError):
        g.apply({"type": "fire", "unit": k, "target": p.units[far].hex}, "usa")
    assert p.brigades[ARCHER].reserve
    assert not any(p.units[u].disordered for u in g.brigade_units(ARCHER))


# --- 002 §6.25 ------------------------------------------------------------------------------


def march_am(g: GbacwGame, seat: str) -> None:
    """The side's March AM drawn by hand, in its orders-change phase."""
    g.pos.orders_done = ["usa", "csa"]
    g.pos.pool = []
    g._activate_marker(f"{seat}/march", chosen=True)
    assert g.pos.phase == "orders_change"


def test_change_and_stay_on_the_march_am_holds_the_brigade_on_its_first_division_am_6_25(
) -> None:
    g = orders_phase()
    p = g.pos
    p.leaders["heth"] = None  # nobody stacked with Davis: his roll is bare (rating 0)
    march_am(g, "csa")
    g.dice = ScriptedDice([5], die="d10")  # 5: Change & Stay
    ev = g.apply({"type": "roll_orders", "brigade": DAVIS, "orders": "attack"}, "csa")
    change = next(e for e in ev if e.type == "orders_change")
    assert change.data["result"] == "change-and-stay" and change.data["orders"] == "attack"
    b = p.brigades[DAVIS]
    assert not b.stay and p.stay_next == [DAVIS]  # not on this March AM
    assert DAVIS not in g.eligible_brigades()  # it halts: the March AM is no longer its
    g._activate_marker("csa/CS-Heth/III", chosen=True)
    assert b.stay and p.stay_next == []


def test_an_aggressive_loose_cannon_on_the_march_am_reads_as_retain_6_25() -> None:
    g = orders_phase()
    p = g.pos
    p.brigades[GAMBLE].orders = "march"
    p.leaders["buford"] = None
    march_am(g, "usa")
    g.dice = ScriptedDice([4], die="d10")  # 4: Loose Cannon; Gamble is aggressive
    ev = g.apply({"type": "roll_orders", "brigade": GAMBLE, "orders": "attack"}, "usa")
    change = next(e for e in ev if e.type == "orders_change")
    assert change.data["result"] == "retain" and change.data["profile"] is None
    assert p.brigades[GAMBLE].orders == "march"


# --- 002 §4.23, §5.36 -----------------------------------------------------------------------


def test_a_unit_out_of_command_keeps_its_orders_until_back_in_range_4_23() -> None:
    g = orders_phase()
    p = g.pos
    lost, other = g.brigade_units(GAMBLE)[:2]
    p.command["units"] = [lost]  # out of command at II/A
    ev = g.apply({"type": "set_orders", "brigade": GAMBLE, "orders": "attack"}, "usa")
    late = next(e for e in ev if e.type == "late_orders")
    assert late.data["units"] == [lost]
    assert g.orders_of(lost) == "advance" and g.orders_of(other) == "attack"
    # at the brigade's next activation it is in Gamble's range, and takes Attack
    g.apply({"type": "end_orders"}, "usa")
    g.apply({"type": "end_orders"}, "csa")
    g.apply({"type": "first_am", "marker": "usa/US-1/Cav"}, "usa")
    g.apply({"type": "end_orders_change"}, "usa")
    ev = g.apply({"type": "activate", "brigade": GAMBLE}, "usa")
    taken = next(e for e in ev if e.type == "late_orders_taken")
    assert taken.data["units"] == [lost] and g.orders_of(lost) == "attack"
    assert p.unit_orders == {}


def test_a_unit_out_of_command_acts_one_activation_fewer_5_36() -> None:
    g, k, _ = active_gamble()
    p = g.pos
    p.command["units"] = [k]
    p.ams["US-1/Cav"] = 2  # so it acts in one activation only
    g._memo.clear()
    face = next(a for a in g.legal_actions("usa") if a["type"] == "face" and a["unit"] == k)
    g.apply(face, "usa")
    assert p.acted == {k: 1}
    g.apply({"type": "end_brigade"}, "usa")
    p.done_brigades = []  # the division's second AM, by hand
    g.apply({"type": "activate", "brigade": GAMBLE}, "usa")
    legal = g.legal_actions("usa")
    assert not [a for a in legal if a.get("unit") == k]
    assert [a for a in legal if a["type"] in ("move", "face")]  # the others may
    with pytest.raises(RuleError) as err:
        g.apply(face, "usa")
    assert err.value.rule == "5.36"


# --- 002 §6.18, §6.35; 004 §4.36 -------------------------------------------------------------


def test_artillery_is_on_advance_or_march_with_its_formation_6_18() -> None:
    g = GbacwGame("herr-ridge", seed=3)
    p = g.pos
    gun = next(k for k, u in sorted(p.units.items()) if g.counter(k).arm in ("art", "horse_art"))
    b = p.brigades[g.formation(gun)]
    b.orders = "attack"
    assert g.orders_of(gun) == "advance"
    b.orders = "march"
    assert g.orders_of(gun) == "march"


def test_a_formation_in_reserve_changes_orders_freely_but_not_to_march_6_35() -> None:
    g = orders_phase()
    p = g.pos
    p.brigades[GAMBLE].reserve = True
    p.command["no_orders"] = [GAMBLE]  # its chain is broken: no matter in Reserve
    assert {"type": "set_orders", "brigade": GAMBLE, "orders": "attack"} in \
        g.legal_actions("usa")
    with pytest.raises(RuleError) as err:
        g.apply({"type": "set_orders", "brigade": GAMBLE, "orders": "march"}, "usa")
    assert err.value.rule == "6.35"
    g.apply({"type": "set_orders", "brigade": GAMBLE, "orders": "attack"}, "usa")
    assert p.brigades[GAMBLE].orders == "attack" and p.brigades[GAMBLE].reserve


def test_hunts_artillery_ams_take_no_part_in_a_transfer_tdg_4_36() -> None:
    g = orders_phase()
    p = g.pos
    p.ams = {"US-AR": 3, "US-1/Cav": 2, "US-2/Cav": 3}
    p.command["transfer_ok"] = ["US-1/Cav", "US-2/Cav", "US-AR"]
    assert g._transfer_result("usa", ["US-AR", "US-AR"], "US-1/Cav") is None
    assert g._transfer_result("usa", ["US-2/Cav", "US-2/Cav"], "US-AR") is None
    assert g._transfer_result("usa", ["US-2/Cav", "US-2/Cav"], "US-1/Cav") == {
        "US-AR": 3, "US-1/Cav": 3, "US-2/Cav": 1}


def test_the_owner_chooses_the_am_a_brigade_out_of_range_skips_5_26() -> None:
    """002 §5.26's example: a division with 3 AMs, a brigadier out of range at II/A: the
    player lets the second AM pass without the brigade and uses the third."""
    g, _, _ = active_gamble()
    p = g.pos
    p.ams["US-1/Cav"] = 3
    p.command["brigadiers"] = [GAMBLE]
    g.apply({"type": "end_brigade"}, "usa")  # the first AM used
    p.done_brigades = []  # the second AM: eligible, and the owner passes
    assert GAMBLE in g.eligible_brigades()
    g.apply({"type": "end_activation"}, "usa")
    g._activate_marker("usa/US-1/Cav", chosen=True)  # the third AM
    g.apply({"type": "end_orders_change"}, "usa")
    assert GAMBLE in g.eligible_brigades()
    g.apply({"type": "activate", "brigade": GAMBLE}, "usa")
    g.apply({"type": "end_brigade"}, "usa")
    p.done_brigades = []
    assert GAMBLE not in g.eligible_brigades()  # two of three: its one skipped AM is spent


# --- 002 §4.32 ------------------------------------------------------------------------------


def test_a_divisional_battery_joins_one_brigade_of_its_division_4_32() -> None:
    g = orders_phase()
    p = g.pos
    # two sections of Garnett's battalion (Heth's division) placed by hand beside Archer
    from gettysburg.gbacw.state import UnitState

    guns = ["CS-III:Donaldsonville/A", "CS-III:Huger/A"]
    for cid, hex_id in zip(guns, ["A2813", "A2913"], strict=True):
        p.units[cid] = UnitState(cid, "csa", hex_id, p.units[g.brigade_units(ARCHER)[0]].facing)
        g._brigade(p, g.cat.counters[cid], "csa")
    g._memo.clear()
    g.apply({"type": "end_orders"}, "usa")
    legal = g.legal_actions("csa")
    assert {"type": "attach", "unit": guns[0], "brigade": ARCHER} in legal
    assert not [a for a in legal if a["type"] == "attach" and a["brigade"] == GAMBLE]
    g.apply({"type": "attach", "unit": guns[0], "brigade": ARCHER}, "csa")
    assert g.formation(guns[0]) == ARCHER and guns[0] in g.brigade_units(ARCHER)
    # one battery a brigade
    with pytest.raises(RuleError) as err:
        g.apply({"type": "attach", "unit": guns[1], "brigade": ARCHER}, "csa")
    assert err.value.rule == "4.32"
    # one choice a turn (assigned in II/C at the turn's start): not back again now...
    back = {"type": "attach", "unit": guns[0], "brigade": "CS-Garnett/Heth"}
    assert back not in g.legal_actions("csa")
    with pytest.raises(RuleError) as err:
        g.apply(back, "csa")
    assert err.value.rule == "4.32" and g.formation(guns[0]) == ARCHER
    # ...but back to its battalion in a later turn's II/C
    p.attach_done = []
    g._memo.clear()
    g.apply(back, "csa")
    assert g.formation(guns[0]) == "CS-Garnett/Heth" and p.attached == {}


# --- 004 §4.35 ------------------------------------------------------------------------------


def test_porter_alexander_replaces_pendleton_for_the_turns_transfer_tdg_4_35() -> None:
    g = orders_phase()
    p = g.pos
    g.apply({"type": "end_orders"}, "usa")
    heth = "CS-Heth/III"
    p.ams[heth] = 3
    p.command["transfer_ok"] = [heth]
    assert not [a for a in g.legal_actions("csa") if a["type"] == "alexander_swap"]
    for ld, hex_id in (("pendleton", "A2820"), ("alexander", "A2821")):
        p.leaders[ld], p.leader_seat[ld] = hex_id, "csa"
    swap = {"type": "alexander_swap", "from": [heth, heth]}
    assert swap in g.legal_actions("csa")
    ev = g.apply(swap, "csa")
    assert ev[0].rule == "tdg.4.35" and p.ams[heth] == 1 and "csa" in p.transferred
    assert p.acting["pendleton"] == "alexander" and p.acting["alexander"] != "alexander"
    with pytest.raises(RuleError) as err:
        g.apply(swap, "csa")  # once: the flip is made and the transfer spent
    assert err.value.rule == "tdg.4.35"


# --- 002 §6.24 ------------------------------------------------------------------------------


def test_a_cautious_loose_cannon_steps_back_and_is_done_6_24() -> None:
    g = orders_phase()
    p = g.pos
    p.brigades[DAVIS].orders = "advance"  # so the division's AM activates it
    g._refacing(DAVIS)
    p.leaders["heth"] = None  # a bare roll
    g.apply({"type": "end_orders"}, "usa")
    g.apply({"type": "end_orders"}, "csa")
    p.pool = []
    g._activate_marker("csa/CS-Heth/III", chosen=True)
    before = {k: p.units[k].hex for k in g.brigade_units(DAVIS)}
    facing = {k: p.units[k].facing for k in before}
    g.dice = ScriptedDice([4, 8], die="d10")  # Loose Cannon; Davis (U) rolls 8: cautious
    ev = g.apply({"type": "roll_orders", "brigade": DAVIS, "orders": "attack"}, "csa")
    lc = next(e for e in ev if e.type == "loose_cannon")
    assert lc.data["acts_as"] == "C" and p.brigades[DAVIS].orders == "advance"
    steps = [e for e in ev if e.type == "loose_cannon_step_back"]
    assert {e.data["unit"] for e in steps} == set(before)
    for e in steps:
        if e.data["to"] is not None:  # straight back: one of the two rear hexes
            frm, to = g.hex_of(e.data["from"]), g.hex_of(e.data["to"])
            f = facing[e.data["unit"]]
            assert frm is not None and to is not None and f is not None
            assert to in (frm.neighbour((f.index + 3) % 6), frm.neighbour((f.index + 4) % 6))
            assert p.units[e.data["unit"]].facing == f
    assert any(e.data["to"] is not None for e in steps)
    assert DAVIS in p.done_brigades and DAVIS not in g.eligible_brigades()


def test_an_aggressive_loose_cannon_marches_on_the_enemy_without_firing_6_24() -> None:
    g = orders_phase()
    p = g.pos
    p.leaders["buford"] = None
    g.apply({"type": "end_orders"}, "usa")
    g.apply({"type": "end_orders"}, "csa")
    p.pool = []
    g._activate_marker("usa/US-1/Cav", chosen=True)
    g.dice = ScriptedDice([4] + [5] * 50, die="d10")  # Loose Cannon; Gamble is aggressive
    ev = g.apply({"type": "roll_orders", "brigade": GAMBLE, "orders": "attack"}, "usa")
    lc = next(e for e in ev if e.type == "loose_cannon")
    assert lc.data["acts_as"] == "A"
    g.apply({"type": "end_orders_change"}, "usa")
    g.apply({"type": "activate", "brigade": GAMBLE}, "usa")
    legal = g.legal_actions("usa")
    assert not [a for a in legal if a["type"] in ("fire", "end_brigade", "end_activation")]
    owed = [k for k, t in p.lc_tasks.items() if t in ("advance_toward_enemy", "charge",
                                                       "close_in")]
    assert owed
    k = owed[0]
    moves = [a for a in legal if a["type"] == "move" and a["unit"] == k]
    assert moves
    enemy = g.enemy_hexes("usa")
    best = {min(g.cat.board.parse(a["to"]).distance(e) for e in enemy) for a in moves}
    assert len(best) == 1  # only the closest reachable hexes to the enemy
    with pytest.raises(RuleError) as err:
        g.apply({"type": "end_brigade"}, "usa")
    assert err.value.rule == "6.24"


# --- 002 §6.26 ------------------------------------------------------------------------------


def test_a_march_brigade_fired_on_takes_advance_at_the_end_of_the_activation_6_26() -> None:
    g, _, enemy = active_gamble()
    p = g.pos
    p.brigades[ARCHER].orders = "march"
    g._refacing(ARCHER)
    g._memo.clear()
    target = p.units[enemy].hex
    shot = next(a for a in g.legal_actions("usa") if a["type"] == "fire"
                and a["target"] == target)
    ev = g.apply(shot, "usa")
    while g.pos.pending is not None:  # the defender's answer, if one is asked
        seat = g.to_move()[0]
        ev += g.apply(g.legal_actions(seat)[-1], seat)
    assert any(e.type == "fire" for e in ev)
    assert p.fired_on == [ARCHER] and p.brigades[ARCHER].orders == "march"
    ev = g.apply({"type": "end_brigade"}, "usa")
    turn = next(e for e in ev if e.type == "march_fired_on")
    assert turn.rule == "6.26" and p.brigades[ARCHER].orders == "advance"
    assert p.fired_on == []
    facings = [p.units[k].facing for k in g.brigade_units(ARCHER)]
    assert all(f is None or f.kind == "vertex" for f in facings)
