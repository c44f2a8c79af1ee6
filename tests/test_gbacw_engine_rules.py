"""The GBACW engine's own steps on hand-built positions (issue 52): the blind draw, the
efficiency transfer, leader moves, Confusion, fatigue after an activation, a reinforcement
coming on, night's command ranges. The skirmish (tests/data/gbacw/skirmish.yaml) is the
starting point; positions are then set by hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gettysburg.core.dice import ScriptedDice
from gettysburg.core.protocol import RuleError
from gettysburg.gbacw import fatigue
from gettysburg.gbacw.charts import all_charts
from gettysburg.gbacw.game import GbacwGame, catalog

SKIRMISH = str(Path(__file__).parent / "data" / "gbacw" / "skirmish.yaml")
GAMBLE = "US-1/1/Cav"


def gamble_active(extra: list[int] | None = None) -> GbacwGame:
    """Turn 1 of the skirmish with the Union's first marker chosen and Gamble active."""
    g = GbacwGame(SKIRMISH, dice=ScriptedDice([7, 3, 0, 5, 4] + (extra or [0] * 80),
                                              die="d10"))
    g.apply({"type": "end_orders"}, "usa")
    g.apply({"type": "end_orders"}, "csa")
    g.apply({"type": "first_am", "marker": "usa/US-1/Cav"}, "usa")
    g.apply({"type": "end_orders_change"}, "usa")
    g.apply({"type": "activate", "brigade": GAMBLE}, "usa")
    return g


def test_blind_draw_rejects_the_top_digits_5_3() -> None:
    """A uniform index in 0..n-1 from d10 digits: with 3 markers a 9 is rolled again (9 =
    10 - 10 mod 3), a 4 then gives index 1; with 12 markers two digits, 96-99 rejected."""
    g = GbacwGame(SKIRMISH, dice=ScriptedDice([7, 3, 0, 5, 4, 9, 4, 9, 7, 1, 3], die="d10"))
    assert g._uniform(3, "test", "5.3") == 1
    assert g._uniform(12, "test", "5.3") == 13 % 12  # 97 rejected, then 13
    draws = [r for r in g.dice.rolls if r.purpose == "test"]
    assert [r.value for r in draws] == [9, 4, 9, 7, 1, 3]


def test_transfer_follows_the_5_44_example() -> None:
    """002 §5.44: AMs 2/3/2 become 1/4/1; only divisions whose chain reaches the OC."""
    g = GbacwGame(SKIRMISH, dice=ScriptedDice([7, 3, 0, 5, 4] + [0] * 40, die="d10"))
    p = g.pos
    divisions = ["US-1/Cav", "US-2/Cav", "US-3/Cav"]
    p.ams.update(dict(zip(divisions, [2, 3, 2], strict=True)))
    p.command["transfer_ok"] = list(divisions)
    g.divisions = lambda seat: divisions if seat == "usa" else ["CS-Heth/III"]  # type: ignore[method-assign]
    legal = [a for a in g.legal_actions("usa") if a["type"] == "transfer"]
    move = {"type": "transfer", "from": ["US-1/Cav", "US-3/Cav"], "to": "US-2/Cav"}
    assert move in legal
    assert {"type": "transfer", "from": ["US-2/Cav", "US-2/Cav"], "to": "US-1/Cav"} in legal
    assert all(a["to"] != "US-2/Cav" or a["from"] != ["US-1/Cav", "US-1/Cav"] for a in legal)
    g.apply(move, "usa")
    assert [p.ams[d] for d in divisions] == [1, 4, 1]
    with pytest.raises(RuleError) as err:  # once a turn
        g.apply({"type": "transfer", "from": ["US-2/Cav", "US-2/Cav"], "to": "US-1/Cav"},
                "usa")
    assert err.value.rule == "5.4"


def test_leader_moves_with_his_brigade_9_3() -> None:
    g = gamble_active()
    legal = [a for a in g.legal_actions("usa") if a["type"] == "move_leader"]
    assert {a["leader"] for a in legal} == {"buford", "gamble"}
    go = legal[0]
    g.apply(go, "usa")
    assert g.pos.leaders[go["leader"]] == go["to"]
    with pytest.raises(RuleError) as err:  # once an activation
        g.apply(dict(go), "usa")
    assert err.value.rule == "9.3"
    with pytest.raises(RuleError):
        g.apply({"type": "move_leader", "leader": "archer", "to": go["to"]}, "usa")


def test_confusion_stops_moves_and_allows_one_vertex_5_34() -> None:
    g = gamble_active()
    g.pos.coordination = "confusion"
    g._memo.clear()
    legal = g.legal_actions("usa")
    assert not [a for a in legal if a["type"] in ("move", "fire")]
    unit = g.brigade_units(GAMBLE)[0]
    here = g.pos.units[unit].facing
    assert here is not None
    turns = [a["facing"]["index"] for a in legal if a["type"] == "face" and a["unit"] == unit]
    assert sorted(turns) == sorted({(here.index + 1) % 6, (here.index - 1) % 6})


def test_a_third_counted_activation_tires_the_brigade_17_22() -> None:
    g = gamble_active()
    b = g.pos.brigades[GAMBLE]
    b.tally = fatigue.TurnTally(equivalents=2, off_road=True).to_json()
    move = next(a for a in g.legal_actions("usa") if a["type"] == "move")
    g.apply(move, "usa")
    events = g.apply({"type": "end_brigade"}, "usa")
    tired = [e for e in events if e.type == "fatigue"]
    assert tired and tired[0].data["after"] == 1 and b.fatigue == 1  # "Fatigue OK"
    assert tired[0].visible_to == ("usa",)


def test_a_reinforcement_comes_on_at_its_entry_hex_9_7() -> None:
    g = GbacwGame(SKIRMISH, dice=ScriptedDice([7, 3, 0, 5, 4] + [5] * 200, die="d10"))
    p = g.pos
    turn = p.turn
    while p.turn == turn:  # end everything in turn 1
        seat = g.to_move()[0]
        legal = g.legal_actions(seat)
        pick = next((a for a in legal if a["type"] in ("end_orders", "end_orders_change",
                                                       "end_activation", "first_am")), legal[0])
        g.apply(pick, seat)
    devin = g.brigade_units("US-2/1/Cav")
    assert all(g.waiting(k) == "A3801" for k in devin)
    assert "US-2/1/Cav" not in p.command["brigadiers"]  # in command on entry (9.71)
    # the Union's markers come up; when Buford's division acts, Devin's units may enter
    for _ in range(40):
        seat = g.to_move()[0]
        legal = g.legal_actions(seat)
        act = [a for a in legal if a["type"] == "activate" and a["brigade"] == "US-2/1/Cav"]
        if act:
            g.apply(act[0], seat)
            break
        pick = next((a for a in legal if a["type"] in ("end_orders", "first_am",
                                                       "end_orders_change")), None)
        g.apply(pick or next(a for a in legal if a["type"] == "end_activation"), seat)
    else:
        pytest.fail("Devin's brigade never activated")
    enter = next(a for a in g.legal_actions("usa") if a["type"] == "move")
    events = g.apply(enter, "usa")
    moved = next(e for e in events if e.type == "move")
    assert moved.data["entered"] and moved.data["path"][0] == "A3801"
    assert p.leaders["devin"] == enter["to"]  # the brigadier comes on with his first unit


def test_night_halves_command_ranges_16_12() -> None:
    g = GbacwGame(SKIRMISH, dice=ScriptedDice([7, 3, 0, 5, 4] + [0] * 40, die="d10"))
    day = g._command_tree("usa").ranges["buford"]
    night = next(t.index for t in all_charts().turn_track.turns() if t.light == "night")
    g.pos.turn = night
    assert g._command_tree("usa").ranges["buford"] == (day + 1) // 2
    assert day == catalog().rating("buford", "command_range")


def test_coordination_roll_5_34_example() -> None:
    """002 §5.34's example: rating 2 (Buford), roll 6 -> 8 -> two brigades act as one; the
    roll is the player's to try (002 §3.0 III/C/2) once two brigadiers are in range."""
    g = GbacwGame(SKIRMISH, dice=ScriptedDice([7, 3, 0, 5, 4] + [0] * 200, die="d10"))
    p = g.pos
    turn = p.turn
    while p.turn == turn:
        seat = g.to_move()[0]
        legal = g.legal_actions(seat)
        pick = next((a for a in legal if a["type"] in ("end_orders", "end_orders_change",
                                                       "end_activation", "first_am")), legal[0])
        g.apply(pick, seat)
    for _ in range(40):
        seat = g.to_move()[0]
        legal = g.legal_actions(seat)
        if {"type": "coordinate"} in legal:
            break
        pick = next((a for a in legal if a["type"] in ("end_orders", "first_am",
                                                       "end_orders_change")), None)
        g.apply(pick or next(a for a in legal if a["type"] == "end_activation"), seat)
    else:
        pytest.fail("Buford's division never had two brigades to coordinate")
    assert p.current == "usa/US-1/Cav"
    n = g.dice.counter
    g.dice.values[n] = 6  # the next die is the coordination roll
    events = g.apply({"type": "coordinate"}, "usa")
    coord = next(e for e in events if e.type == "coordination")
    assert coord.data["roll"] == 6 and coord.data["rating"] == 2
    assert coord.data["total"] == 8 and coord.data["result"] == "two"
    assert coord.data["may_combine"] == 2 and p.phase == "action"


def test_a_disordered_unit_rallies_instead_of_acting_13_41() -> None:
    g = gamble_active([0] * 80)  # the rally roll is a 0: at or below any cohesion
    unit = g.brigade_units(GAMBLE)[0]
    assert {"type": "rally", "unit": unit} not in g.legal_actions("usa")  # in good order
    g.pos.units[unit].disordered = True
    g._memo.clear()
    assert {"type": "rally", "unit": unit} in g.legal_actions("usa")
    events = g.apply({"type": "rally", "unit": unit}, "usa")
    done = next(e for e in events if e.type == "rally")
    assert done.data["roll"] == 0 and not g.pos.units[unit].disordered
    assert not [a for a in g.legal_actions("usa") if a.get("unit") == unit]  # its action


def test_commanders_move_in_iv_a_and_tire_past_10_mp_9_32() -> None:
    g = GbacwGame(SKIRMISH, dice=ScriptedDice([7, 3, 0, 5, 4] + [5] * 200, die="d10"))
    p = g.pos
    p.leaders["pleasonton"] = "A3503"  # the Union's cavalry corps commander, by hand
    for _ in range(60):
        seat = g.to_move()[0]
        if p.phase == "commanders":
            break
        legal = g.legal_actions(seat)
        pick = next((a for a in legal if a["type"] in ("end_orders", "first_am",
                                                       "end_orders_change")), None)
        g.apply(pick or next(a for a in legal if a["type"] == "end_activation"), seat)
    assert p.phase == "commanders" and g.to_move() == ["usa"]  # initiative player first
    assert g.commanders("csa") == []  # Hill is off the map: the Confederates pass
    legs = 0
    while True:
        moves = g.commander_moves("pleasonton")
        if not moves:
            break
        far = max(moves, key=lambda h: (moves[h], h.q, h.r))
        g.apply({"type": "move_commander", "leader": "pleasonton",
                 "to": g.cat.board.hexes[far].id}, "usa")
        legs += 1
    assert legs >= 4 and 2 * 30 < p.commander_mp["pleasonton"] <= 2 * 40
    with pytest.raises(RuleError) as err:
        g.apply({"type": "move_commander", "leader": "gamble", "to": "A3503"}, "usa")
    assert err.value.rule == "9.32"
    g.apply({"type": "end_commanders"}, "usa")
    assert p.phase == "orders" and p.tired == ["pleasonton"]
    assert g._command_tree("usa").ranges["pleasonton"] == 0  # 9.32: no range this turn


def test_stragglers_come_back_to_a_brigade_in_reserve_at_dusk_16_2() -> None:
    g = GbacwGame(SKIRMISH, dice=ScriptedDice([7, 3, 0, 5, 4] + [0] * 60, die="d10"))
    p = g.pos
    unit = g.brigade_units(GAMBLE)[0]
    printed = g.counter(unit).sp
    p.units[unit].lost = 3
    p.brigades[GAMBLE].reserve = True
    p.turn = next(t.index for t in all_charts().turn_track.turns() if t.light == "dusk")
    events = g._stragglers(GAMBLE)
    back = next(e for e in events if e.type == "stragglers")
    assert back.data["passed"] and p.units[unit].lost == 2  # a 0 passes any UDD
    assert back.visible_to == ("usa",)
    p.units[unit].lost = 1  # one below printed: nothing more to recover (16.23)
    assert not [e for e in g._stragglers(GAMBLE) if e.type == "stragglers"]
    assert printed - p.units[unit].lost == printed - 1


def test_herr_ridge_victory_by_control_004_sc2() -> None:
    """004 sc.2: the Confederates win holding A2512 and A3517 (occupied, or last entered
    with nobody there now); otherwise the Union. Little Round Top needs them occupied."""
    from gettysburg.core.protocol import new_game

    g = new_game("gbacw/herr-ridge", seed=2)
    assert isinstance(g, GbacwGame)
    p = g.pos
    for h in ("A2512", "A3517"):
        for u in p.units.values():
            if u.hex == h:
                u.hex = None
    p.phase = "over"
    p.control = {"A2512": "csa", "A3517": "csa"}
    result = g.result()
    assert result is not None and result["winner"] == "csa" and result["scored"]
    assert result["band"] == "victory" and result["decided"]
    union = next(k for k, u in p.units.items() if u.seat == "usa" and u.hex is not None)
    p.units[union].hex = "A3517"  # a Union unit there now
    assert g.result()["winner"] == "usa"  # type: ignore[index]
    lrt = new_game("gbacw/little-round-top", seed=2)
    assert isinstance(lrt, GbacwGame)
    lrt.pos.phase = "over"
    lrt.pos.control = {"C2118": "csa", "C2219": "csa"}
    for u in lrt.pos.units.values():
        if u.hex in ("C2118", "C2219"):
            u.hex = None
    assert lrt.result()["winner"] == "usa"  # type: ignore[index]  # entered is not enough


def test_a_reinforcement_on_a_roll_comes_later_when_it_fails_9_7() -> None:
    """004's schedule: a group arrives on a d10 in its range, else at its next stage."""
    g = GbacwGame(str(Path(SKIRMISH).with_name("arrival.yaml")),
                  dice=ScriptedDice([7, 3, 0, 5, 4] + [0] * 300, die="d10"))
    p = g.pos

    def end_turn() -> None:
        turn = p.turn
        while p.turn == turn and not g.is_terminal():
            seat = g.to_move()[0]
            legal = g.legal_actions(seat)
            g.apply(next((a for a in legal if a["type"] in (
                "end_orders", "end_orders_change", "end_activation", "first_am",
                "end_commanders")), legal[0]), seat)

    end_turn()
    assert p.arrived == []  # rolled a 0, needed 2-3
    delayed = [e for e in g.events("usa") if e["type"] == "reinforcements_delayed"]
    assert delayed and delayed[0]["data"]["roll"] == 0
    assert not [e for e in g.events("csa") if e["type"].startswith("reinforcements")]
    end_turn()
    assert p.arrived == [0] and p.entries == {"0": "A3802"}
    assert all(g.waiting(k) == "A3802" for k in g.brigade_units("US-2/1/Cav"))
    # one AM for the group on its entry turn (9.74), Gamble's brigade unlimited
    assert g.entry_limit("US-2/1/Cav") == 1 and g.entry_limit(GAMBLE) is None
    p.brigades["US-2/1/Cav"].activations = 1
    p.current, p.phase = "usa/US-1/Cav", "action"
    assert "US-2/1/Cav" not in g.eligible_brigades()


def test_an_advance_unit_that_fired_is_not_offered_a_move_10_32() -> None:
    g = gamble_active()
    unit = g.brigade_units(GAMBLE)[0]
    g.pos.brigades[GAMBLE].orders = "advance"
    g.pos.units[unit].fired = ["phasing"]
    g._memo.clear()
    legal = g.legal_actions("usa")
    assert not [a for a in legal if a["type"] == "move" and a["unit"] == unit]
    assert [a for a in legal if a["type"] == "move"]  # the others still may
    assert g.view("usa")["units"][unit]["fired"] is True
    assert g.view("usa")["units"][unit]["fire_kinds"] == ["phasing"]
    assert "fired" not in g.view("csa")["units"][unit]


def test_a_brigadier_out_of_range_costs_his_brigade_one_am_5_26() -> None:
    g = gamble_active()
    p = g.pos
    g.apply({"type": "end_brigade"}, "usa")
    p.ams["US-1/Cav"] = 3
    p.done_brigades = []
    p.brigades[GAMBLE].activations = 2
    assert GAMBLE in g.eligible_brigades()  # 2 of 3 used
    p.command["brigadiers"] = [GAMBLE]  # began the turn out of Buford's range
    assert GAMBLE not in g.eligible_brigades()  # 3 - 1 = 2 used up (5.26)
    p.ams["US-1/Cav"], p.brigades[GAMBLE].activations = 1, 0
    assert GAMBLE in g.eligible_brigades()  # never below one (5.27)


def test_the_corps_commanders_share_is_the_players_choice_5_23() -> None:
    """002 §5.23: Longstreet (+1) gives +1 to one division in his range; the engine starts
    with the first and the player may move it before any transfer."""
    from gettysburg.core.protocol import new_game

    g = new_game("gbacw/little-round-top", seed=2)
    assert isinstance(g, GbacwGame)
    p = g.pos
    p.command["divisions"] = []  # both of Longstreet's division leaders in his range
    g._division_ams("CS-I", ["CS-Hood/I", "CS-McLaws/I"], p.em["CS-I"])
    before = dict(p.ams)
    options = [a for a in g.legal_actions("csa") if a["type"] == "share"]
    assert options == [{"type": "share", "corps": "CS-I", "to": ["CS-McLaws/I"]}]
    g.apply(options[0], "csa")
    assert p.shares == {"CS-I": {"CS-McLaws/I": 1}}
    assert p.ams["CS-McLaws/I"] == min(4, before["CS-McLaws/I"] + 1)
    assert p.ams["CS-Hood/I"] == max(1, before["CS-Hood/I"] - 1)
    assert "CS-I" not in json.dumps(g.view("usa")["ams"])
    assert not [e for e in g.events("usa") if e["type"] == "share"]


def test_the_oc_raises_a_corps_of_his_choice_5_22() -> None:
    """002 §5.22, 004 §5.22: Lee (initiative 1) raises one corps in his range by one."""
    from gettysburg.core.protocol import new_game

    g = new_game("gbacw/little-round-top", seed=2)
    assert isinstance(g, GbacwGame)
    p = g.pos
    assert catalog().rating("lee", "initiative") == 1
    p.leaders["lee"] = p.leaders["longstreet"]
    p.command["oc_linked"], p.command["oc_bonus"] = ["CS-I"], []
    before = dict(p.ams)
    assert {"type": "raise", "corps": ["CS-I"]} in g.legal_actions("csa")
    g.apply({"type": "raise", "corps": ["CS-I"]}, "csa")
    assert p.command["oc_bonus"] == ["CS-I"]
    assert all(p.ams[d] >= before[d] for d in ("CS-Hood/I", "CS-McLaws/I"))
    if before["CS-Hood/I"] < 4 and p.em["CS-I"] < 4:  # Hood is in Longstreet's range: +1
        assert p.ams["CS-Hood/I"] == before["CS-Hood/I"] + 1
    assert not [a for a in g.legal_actions("csa") if a["type"] == "raise"]  # as chosen now
    assert not [e for e in g.events("usa") if e["type"] == "raise"]
