"""The end segment and engineering in the engine (002 §3.0 IV/B, §4.18, §12.74-12.76,
§13.45, §17.42, §6.35, §15.1), from the hand-made skirmish with scripted d10s."""

from __future__ import annotations

from pathlib import Path

import pytest

from gettysburg.core.dice import ScriptedDice
from gettysburg.core.protocol import Event, RuleError
from gettysburg.gbacw import end_segment, engineering_step
from gettysburg.gbacw.game import GbacwGame

SKIRMISH = str(Path(__file__).parent / "data" / "gbacw" / "skirmish.yaml")
GAMBLE, ARCHER, DAVIS = "US-1/1/Cav", "CS-Archer/Heth", "CS-Davis/Heth"
OPENING = [7, 3, 0, 5, 4]  # initiative and EM draws as in test_gbacw_game.py


def new_game(rest: int = 5) -> GbacwGame:
    return GbacwGame(SKIRMISH, dice=ScriptedDice(OPENING + [rest] * 400, die="d10"))


def quick(g: GbacwGame) -> list[Event]:
    """One of the quickest actions (end orders, first marker, no roll, end the marker, end
    the commanders' phase) for whoever moves."""
    seat = g.to_move()[0]
    legal = g.legal_actions(seat)
    pick = next((a for a in legal if a["type"] in (
        "end_orders", "first_am", "end_orders_change", "end_activation",
        "end_commanders", "no_reaction", "hold", "stand")), legal[-1])
    return g.apply(pick, seat)


def to_phase(g: GbacwGame, phase: str, limit: int = 200) -> list[Event]:
    seen: list[Event] = []
    for _ in range(limit):
        if g.pos.phase == phase:
            return seen
        seen += quick(g)
    raise AssertionError(f"never reached {phase}")


def next_turn(g: GbacwGame) -> list[Event]:
    """Play to the next turn's orders segment (or the end of the game)."""
    turn, seen = g.pos.turn, list[Event]()
    for _ in range(200):
        if g.pos.turn != turn or g.pos.phase == "over":
            return seen
        seen += quick(g)
    raise AssertionError("the turn never ended")


# --- leader replacement (002 §4.18, §12.74-12.76) ------------------------------------------


def test_a_fallen_brigadier_comes_back_as_his_counters_back_12_74() -> None:
    g = new_game()
    p = g.pos
    before = end_segment.on_map_leaders(g)
    p.leaders["archer"] = None  # killed by a shot (fire_action.write_outcome does this)
    end_segment.note_fallen(g, before)
    assert p.fallen == ["archer"]
    ev = next_turn(g)
    rep = next(e for e in ev if e.type == "leader_replaced")
    assert rep.rule == "12.74" and rep.data["successor"] == "fry-bd"
    assert p.acting["archer"] == "fry-bd" and p.fallen == []
    first = g.brigade_units(ARCHER)[0]
    assert p.leaders["archer"] == p.units[first].hex  # with a unit of his brigade
    assert "archer" in p.dead
    # killed again: the next on the chain (004's Shepard) takes the brigade
    p.leaders["archer"] = None
    p.fallen = ["archer"]
    ev = end_segment.replace_leaders(g)
    assert ev[0].data["successor"] == "shepard" and p.acting["archer"] == "shepard"


def test_the_engine_notes_a_leader_taken_off_the_map_by_an_action_12_71() -> None:
    g = new_game()
    p = g.pos
    g.apply({"type": "end_orders"}, "usa")

    # any action that removes a leader from the map (here by hand, inside the action)
    real = g._execute

    def killing(action: dict[str, object], seat: str) -> list[Event]:
        out = real(action, seat)
        p.leaders["heth"] = None
        return out

    g._execute = killing  # type: ignore[method-assign]
    g.apply({"type": "end_orders"}, "csa")
    assert p.fallen == ["heth"]


def test_a_division_leader_falls_and_his_brigadier_takes_over_12_74() -> None:
    g = new_game()
    p = g.pos
    p.leaders["buford"] = None
    p.fallen = ["buford"]
    ev = end_segment.replace_leaders(g)
    assert ev[0].type == "leader_replaced" and ev[0].data["successor"] == "gamble"
    assert p.acting == {"buford": "gamble"}
    assert p.leaders["buford"] in {p.units[k].hex for k in g.brigade_units(GAMBLE)}


def test_a_post_with_no_unit_left_stacks_with_the_superior_12_74() -> None:
    g = new_game()
    p = g.pos
    for k in g.brigade_units(ARCHER):
        p.units[k].hex = None
        p.units[k].lost = g.counter(k).sp
    p.leaders["archer"] = None
    p.fallen = ["archer"]
    end_segment.replace_leaders(g)
    assert p.leaders["archer"] == p.leaders["heth"]


def test_a_corps_successor_leaves_his_division_to_his_own_back_12_75() -> None:
    g = new_game()
    p = g.pos
    p.leaders["hill-ap"] = "A2813"  # A.P. Hill on the map, by hand
    p.leaders["hill-ap"] = None
    p.fallen = ["hill-ap"]
    ev = end_segment.replace_leaders(g)
    assert ev[0].data["successor"] == "heth" and p.acting["hill-ap"] == "heth"
    assert "heth" in p.acting  # Heth's division counter now shows his own replacement
    assert p.acting["heth"] != "heth"


# --- the idle brigade's choice (002 §13.45, §17.42) ----------------------------------------


def test_an_idle_brigade_rallies_or_rests_at_its_owners_choice_13_45() -> None:
    g = new_game()
    p = g.pos
    unit = g.brigade_units(DAVIS)[0]
    p.units[unit].disordered = True
    p.brigades[DAVIS].fatigue = 3
    to_phase(g, "commanders")
    # neither side has a commander on the map, yet the Confederates have a choice to make
    assert g.to_move() == ["csa"] or "csa" not in p.commanders_done
    if g.to_move() == ["usa"]:
        g.apply({"type": "end_commanders"}, "usa")
    legal = g.legal_actions("csa")
    assert {"type": "idle_rally", "brigade": DAVIS, "on": True} in legal
    with pytest.raises(RuleError) as err:
        g.apply({"type": "idle_rally", "brigade": GAMBLE, "on": True}, "csa")
    assert err.value.rule == "13.45"
    g.apply({"type": "idle_rally", "brigade": DAVIS, "on": True}, "csa")
    ev = g.apply({"type": "end_commanders"}, "csa")
    assert not p.units[unit].disordered  # rallied without a roll
    assert p.brigades[DAVIS].fatigue == 3  # and no rest
    assert any(e.type == "idle_rally" and e.data["rallied"] == [unit] for e in ev)


def test_an_idle_brigade_rests_a_level_by_default_17_42() -> None:
    g = new_game()
    p = g.pos
    unit = g.brigade_units(DAVIS)[0]
    p.units[unit].disordered = True
    p.brigades[DAVIS].fatigue = 3
    next_turn(g)
    assert p.units[unit].disordered and p.brigades[DAVIS].fatigue == 2


def test_a_reserve_formation_keeps_a_collapsed_unit_disordered_6_35() -> None:
    g = new_game()
    p = g.pos
    a, b = g.brigade_units(DAVIS)[:2]
    p.brigades[DAVIS].reserve = True
    p.units[a].disordered = p.units[b].disordered = True
    p.units[b].collapsed = True
    next_turn(g)
    assert not p.units[a].disordered and p.units[b].disordered


# --- engineering (002 §15.1, §15.14, §15.17) -----------------------------------------------


def builder(g: GbacwGame) -> tuple[str, dict[str, object]]:
    options = engineering_step.build_options(g, "usa")
    assert options, "some dismounted trooper of Gamble's may build"
    act = options[0]
    return str(act["unit"]), act


def test_breastworks_take_two_turns_and_then_guard_two_hexsides_15_13() -> None:
    g = new_game()
    p = g.pos
    key, act = builder(g)
    ev = g.apply(act, "usa")
    assert ev[0].type == "construction" and ev[0].data["turns"] == 2
    facing = p.units[key].facing
    assert facing is not None and facing.to_json() == act["facing"]
    assert p.brigades[GAMBLE].busy  # building is not idling (13.45)
    # a second marker for the same unit is refused
    with pytest.raises(RuleError) as err:
        g.apply(act, "usa")
    assert err.value.rule == "15.15"
    next_turn(g)
    assert p.constructions and not p.breastworks  # one turn done, one to go
    ev = next_turn(g)  # the last turn's IV/B flips the marker
    done = next(e for e in ev if e.type == "breastworks")
    assert done.data["unit"] == key and p.breastworks and not p.constructions
    here = g.hex_of(p.units[key].hex)
    assert here is not None and len(engineering_step.sides_of(g, here)) == 2


def test_a_builder_that_moves_stops_its_work_15_14() -> None:
    g = new_game()
    p = g.pos
    key, act = builder(g)
    g.apply(act, "usa")
    to_phase(g, "first_am")
    g.apply({"type": "first_am", "marker": "usa/US-1/Cav"}, "usa")
    g.apply({"type": "end_orders_change"}, "usa")
    g.apply({"type": "activate", "brigade": GAMBLE}, "usa")
    move = next(a for a in g.legal_actions("usa") if a["type"] == "move"
                and a["unit"] == key)
    ev = g.apply(move, "usa")
    stop = next(e for e in ev if e.type == "construction_stopped")
    assert stop.data["why"] in ("left_hex", "other_action") and p.constructions == []


def test_attack_orders_stop_the_work_15_14() -> None:
    g = new_game()
    p = g.pos
    _, act = builder(g)
    g.apply(act, "usa")
    ev = g.apply({"type": "set_orders", "brigade": GAMBLE, "orders": "attack"}, "usa")
    assert any(e.type == "construction_stopped" and e.data["why"] == "attack_orders"
               for e in ev)
    assert p.constructions == []


def test_a_unit_crossing_a_breastwork_hexside_removes_it_15_17() -> None:
    g = new_game()
    p = g.pos
    key = g.brigade_units(GAMBLE)[0]
    here = g.hex_of(p.units[key].hex)
    assert here is not None
    # works in every neighbour, guarding the hexsides towards the unit's hex
    for d in range(6):
        n = here.neighbour(d)
        if n in g.cat.board.hexes:
            p.breastworks.append({"hex": g.cat.board.hexes[n].id, "vertex": (d + 3) % 6})
    to_phase(g, "first_am")
    g.apply({"type": "first_am", "marker": "usa/US-1/Cav"}, "usa")
    g.apply({"type": "end_orders_change"}, "usa")
    g.apply({"type": "activate", "brigade": GAMBLE}, "usa")
    before = len(p.breastworks)
    move = next((a for a in g.legal_actions("usa") if a["type"] == "move"
                 and a["unit"] == key), None)
    assert move is not None
    ev = g.apply(move, "usa")
    assert any(e.type == "breastworks_removed" for e in ev)
    assert len(p.breastworks) == before - 1


def test_a_reserve_formation_refills_small_arms_ammunition_with_10_9_6_35() -> None:
    g = GbacwGame(SKIRMISH, options=["small_arms_ammo"],
                  dice=ScriptedDice(OPENING + [5] * 400, die="d10"))
    p = g.pos
    a, b = g.brigade_units(DAVIS)[:2]
    p.brigades[DAVIS].reserve = True
    p.units[a].ammo, p.units[b].ammo = "low", "out"
    ev = next_turn(g)
    assert p.units[a].ammo == "none" and p.units[b].ammo == "none"
    assert any(e.type == "resupply" and e.rule == "6.35" for e in ev)
    plain = new_game()  # without the optional rule nothing is refilled
    plain.pos.brigades[DAVIS].reserve = True
    plain.pos.units[a].ammo = "low"
    next_turn(plain)
    assert plain.pos.units[a].ammo == "low"


def test_a_brigade_shocked_or_moving_in_reaction_is_not_idle_13_45() -> None:
    g = new_game()
    p = g.pos
    a = g.brigade_units(DAVIS)[0]
    end_segment.note_not_idle(g, {"type": "shock", "shocks": [
        {"attackers": ["x"], "targets": [p.units[a].hex]}]})
    assert p.brigades[DAVIS].busy and not p.brigades[ARCHER].busy
    end_segment.note_not_idle(g, {"type": "react_move", "unit": g.brigade_units(ARCHER)[0],
                                  "path": []})
    assert p.brigades[ARCHER].busy


def test_views_show_works_to_both_and_orders_like_state_to_its_owner() -> None:
    g = new_game()
    p = g.pos
    mine, theirs = g.brigade_units(GAMBLE)[0], g.brigade_units(ARCHER)[0]
    p.unit_orders = {mine: "advance", theirs: "march"}
    p.lc_tasks = {theirs: "charge"}
    p.breastworks = [{"hex": "A3303", "vertex": 1}]
    p.acting = {"archer": "fry-bd"}
    usa, csa = g.view("usa"), g.view("csa")
    assert usa["unit_orders"] == {mine: "advance"} and csa["unit_orders"] == {theirs: "march"}
    assert usa["lc_tasks"] == {} and csa["lc_tasks"] == {theirs: "charge"}
    assert usa["breastworks"] == csa["breastworks"] == [{"hex": "A3303", "vertex": 1}]
    assert usa["acting"] == csa["acting"] == {"archer": "fry-bd"}


def test_a_post_takes_its_new_holders_ratings_12_74() -> None:
    g = new_game()
    p = g.pos
    assert g.cat.rating("buford", "activation") == 1  # 004 §5.23's Buford
    p.leaders["buford"] = None
    p.fallen = ["buford"]
    end_segment.replace_leaders(g)
    assert p.acting["buford"] == "gamble"
    # Gamble, a brigadier, has no activation rating of his own: 0, not Buford's +1
    assert g.cat.rating("buford", "activation") == 0
    fresh = new_game()  # another game's catalogue is not touched
    assert fresh.cat.rating("buford", "activation") == 1
