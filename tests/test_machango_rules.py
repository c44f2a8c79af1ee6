"""Mundo Machango's campaign rules, one test (or a few) per digest rule, each from a
position set up as a scenario file, with scripted dice where dice are rolled."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from gettysburg.core.dice import ScriptedDice
from gettysburg.core.protocol import RuleError, new_game
from gettysburg.machango.forces import load_forces
from gettysburg.machango.game import MachangoGame

# d6 values for the battle dice faces (battle.FACES)
INF, CAV, ART, FLAG, SABRES = 1, 3, 4, 5, 6


def make(tmp_path: Path, divisions: dict[str, Any], dice: list[int] | None = None,
         **extra: Any) -> MachangoGame:
    """A day-phase game where only ``divisions`` (id -> overrides) are on the board, every
    division composed (1 artillery, the rest infantry), no arrivals unless given."""
    over: dict[str, Any] = {did: {"at": None} for did in load_forces().divisions}
    over.update(divisions)
    scenario = {"title": "test", "compose": "auto", "arrivals": "none",
                "start": {"day": 1, "hour": 8, "phase": "day", "active": "usa"},
                "divisions": over, **extra}
    path = tmp_path / "scenario.yaml"
    path.write_text(yaml.safe_dump(scenario), encoding="utf-8")
    return MachangoGame(str(path), (), 0, ScriptedDice(dice) if dice is not None else None)


def fight_out(game: MachangoGame) -> None:
    """Plays the battles being fought to their end: fire when it can, else order, else
    play the first card, else done (the battle's own rules are test_machango_battle*)."""
    rank = {"battle_fire": 0, "battle_order": 1, "battle_card": 2, "battle_ewell": 3}
    while game.phase == "battle":
        seat = game.to_move()[0]
        acts = game.legal_actions(seat)
        game.apply(min(acts, key=lambda a: rank.get(str(a["type"]), 9)), seat)


def refused(game: MachangoGame, action: dict[str, Any], seat: str, rule: str) -> None:
    before = game.state_hash()
    with pytest.raises(RuleError) as info:
        game.apply(action, seat)
    assert info.value.rule == rule, info.value
    assert game.state_hash() == before


def div(game: MachangoGame, did: str) -> dict[str, Any]:
    return game.divisions[did]


# --- set-up (S1, S2), composition (D1), turn (T1) -------------------------------------------


def test_set_up_matches_seed_003() -> None:
    g = new_game("machango/campaign")
    assert isinstance(g, MachangoGame)
    usa = Counter(g.divisions[d]["at"] for d in g.on_board("usa"))
    csa = Counter(g.divisions[d]["at"] for d in g.on_board("csa"))
    assert usa == {"the_angle": 1, "cemetery_hill": 2, "culps_hill": 2, "stevens_knoll": 1}
    assert csa == {"gettysburg": 5, "mcpherson_ridge": 2, "herr_ridge": 2}
    assert g.cards == {"usa": 6, "csa": 5}
    assert all(g.forces.capacity_of(d) == 3 for d in g.on_board("usa"))
    assert all(g.forces.capacity_of(d) == 4 for d in g.on_board("csa"))
    assert sum(1 for d in g.forces.divisions.values() if d.side == "usa") == 15
    assert sum(1 for d in g.forces.divisions.values() if d.side == "csa") == 19
    assert g.stars == {"the_angle": "usa", "cemetery_hill": "usa", "culps_hill": "usa"}  # V3
    assert g.phase == "compose" and g.to_move() == ["usa"]


def test_composition_choice_then_day_one_at_seven_with_the_usa() -> None:
    g = MachangoGame("campaign")
    acts = g.legal_actions("usa")
    assert {"type": "compose", "division": "u_doubleday", "artillery": 3} in acts
    assert {"type": "compose", "division": "u_doubleday", "artillery": 4} not in acts
    refused(g, {"type": "compose", "division": "u_doubleday", "artillery": 4}, "usa", "D1")
    refused(g, {"type": "compose", "division": "c_rodes_1", "artillery": 1}, "usa", "D1")
    while g.phase == "compose":
        seat = g.to_move()[0]
        g.apply(g.legal_actions(seat)[1], seat)  # 1 artillery each
    assert (g.day, g.hour, g.to_move()) == (1, 7, ["usa"])
    assert g.divisions["u_doubleday"]["units"] == [["infantry", 4], ["infantry", 4],
                                                    ["artillery", 2]]
    assert g.divisions["c_stuart"]["units"] == [["cavalry", 3]] * 3  # D2


def test_usa_compositions_hidden_from_the_csa(tmp_path: Path) -> None:
    g = new_game("machango/campaign")
    g.apply({"type": "compose", "division": "u_geary", "artillery": 2}, "usa")
    shown = [e for e in g.events("csa") if e["type"] == "compose"]
    assert shown and "artillery" not in shown[0]["data"]  # D3
    assert g.view("csa")["divisions"]["u_geary"]["units"] is None
    assert g.view("usa")["divisions"]["u_geary"]["units"] is not None
    assert g.view("csa")["divisions"]["c_rodes_1"]["units"] is None  # not chosen yet


def test_actions_have_exactly_their_fields(tmp_path: Path) -> None:
    g = make(tmp_path, {"u_doubleday": {"at": "the_angle"}})
    refused(g, {"type": "move", "division": "u_doubleday", "to": "cemetery_ridge", "x": 1},
            "usa", "MV1")
    refused(g, {"type": "move", "division": "u_doubleday"}, "usa", "MV1")
    refused(g, {"type": "end_turn", "now": True}, "usa", "T1")
    refused(g, {"type": "cards"}, "usa", "T1")  # a night choice in the day


def test_turn_order_usa_then_csa_each_hour(tmp_path: Path) -> None:
    g = make(tmp_path, {"u_doubleday": {"at": "the_angle"}})
    assert g.to_move() == ["usa"]
    g.apply({"type": "end_turn"}, "usa")
    assert g.to_move() == ["csa"] and g.hour == 8
    refused(g, {"type": "end_turn"}, "usa", "protocol.seat")
    g.apply({"type": "end_turn"}, "csa")
    assert g.to_move() == ["usa"] and g.hour == 9


# --- movement (MV1-MV3, TE4, TE5) -----------------------------------------------------------


def test_three_mp_for_infantry_five_for_cavalry(tmp_path: Path) -> None:
    # the_angle - cemetery_ridge - codori_farm are open links (1 MP each)
    g = make(tmp_path, {"u_doubleday": {"at": "the_angle"}, "u_custer": {"at": "the_angle"}})
    for to in ("cemetery_ridge", "codori_farm", "the_angle"):
        g.apply({"type": "move", "division": "u_doubleday", "to": to}, "usa")
    refused(g, {"type": "move", "division": "u_doubleday", "to": "cemetery_ridge"}, "usa", "MV1")
    for to in ("cemetery_ridge", "codori_farm", "the_angle", "cemetery_ridge", "codori_farm"):
        g.apply({"type": "move", "division": "u_custer", "to": to}, "usa")
    refused(g, {"type": "move", "division": "u_custer", "to": "the_angle"}, "usa", "MV1")


def test_obstructed_link_costs_an_extra_mp(tmp_path: Path) -> None:
    g = make(tmp_path, {"u_geary": {"at": "culps_hill"}})
    assert g.board.link("culps_hill", "stevens_knoll")["kind"] == "obstructed"  # type: ignore[index]
    g.apply({"type": "move", "division": "u_geary", "to": "stevens_knoll"}, "usa")
    assert div(g, "u_geary")["mp"] == 1  # TE4: 2 of 3 spent
    refused(g, {"type": "move", "division": "u_geary", "to": "culps_hill"}, "usa", "MV1")


def test_road_gives_one_more_mp(tmp_path: Path) -> None:
    g = make(tmp_path, {"c_heth_1": {"at": "herr_ridge"}},
             start={"day": 1, "hour": 8, "phase": "day", "active": "csa"})
    assert g.board.link("herr_ridge", "mcpherson_ridge")["kind"] == "road"  # type: ignore[index]
    g.apply({"type": "move", "division": "c_heth_1", "to": "mcpherson_ridge"}, "csa")
    assert div(g, "c_heth_1")["mp"] == 3  # TE5: 3 + 1 - 1
    g.apply({"type": "move", "division": "c_heth_1", "to": "herr_ridge"}, "csa")
    assert div(g, "c_heth_1")["mp"] == 2  # the bonus comes once a turn


def test_standard_rest_and_forced_march(tmp_path: Path) -> None:
    g = make(tmp_path, {"u_doubleday": {"at": "the_angle"}, "u_robinson": {"at": "the_angle"}})
    g.apply({"type": "move", "division": "u_doubleday", "to": "cemetery_ridge"}, "usa")
    assert div(g, "u_doubleday")["standard"] and div(g, "u_doubleday")["bangs"] == 0  # MV2
    g.apply({"type": "end_turn"}, "usa")
    g.apply({"type": "end_turn"}, "csa")
    # MV3: moving again with the standard on is a forced march
    g.apply({"type": "move", "division": "u_doubleday", "to": "the_angle"}, "usa")
    assert div(g, "u_doubleday")["bangs"] == 1
    g.apply({"type": "end_turn"}, "usa")
    g.apply({"type": "end_turn"}, "csa")
    g.apply({"type": "rest", "division": "u_doubleday"}, "usa")
    refused(g, {"type": "move", "division": "u_doubleday", "to": "cemetery_ridge"}, "usa", "MV2")
    refused(g, {"type": "rest", "division": "u_robinson"}, "usa", "MV2")  # nothing to rest off
    g.apply({"type": "end_turn"}, "usa")
    assert not div(g, "u_doubleday")["standard"] and div(g, "u_doubleday")["bangs"] == 0


def test_chamberlain_never_takes_a_bang(tmp_path: Path) -> None:
    g = make(tmp_path, {"u_barnes": {"at": "the_angle", "standard": True},
                        "u_gibbon": {"at": "the_angle", "standard": True}})
    g.apply({"type": "move", "division": "u_barnes", "to": "cemetery_ridge"}, "usa")
    g.apply({"type": "move", "division": "u_gibbon", "to": "cemetery_ridge"}, "usa")
    assert div(g, "u_barnes")["bangs"] == 0  # G-USA-1
    assert div(g, "u_gibbon")["bangs"] == 1  # MV3


def test_a_move_strikes_the_fortification(tmp_path: Path) -> None:
    g = make(tmp_path, {"u_doubleday": {"at": "the_angle", "fortified": True}})
    g.apply({"type": "move", "division": "u_doubleday", "to": "cemetery_ridge"}, "usa")
    assert not div(g, "u_doubleday")["fortified"]  # N5


# --- attacks, battles and their locks (MV4, MV6, MV7) --------------------------------------


def test_moving_onto_an_enemy_line_is_an_attack_and_locks_both(tmp_path: Path) -> None:
    g = make(tmp_path, {"u_doubleday": {"at": "codori_farm"},
                        "c_heth_1": {"at": "klingel_farm"}, "c_heth_2": {"at": "trostle_farm"}})
    refused(g, {"type": "move", "division": "u_doubleday", "to": "klingel_farm"}, "usa", "MV6")
    g.apply({"type": "attack", "division": "u_doubleday", "target": "klingel_farm"}, "usa")
    assert g.battles[0]["line"] == "klingel_farm" and g.battles[0]["defenders"] == ["c_heth_1"]
    refused(g, {"type": "move", "division": "u_doubleday", "to": "the_angle"}, "usa", "MV6")
    g.apply({"type": "end_turn"}, "usa")
    refused(g, {"type": "move", "division": "c_heth_1", "to": "peach_orchard"}, "csa", "MV6")
    # MV7: no one enters a line being fought over (nor starts another battle there)
    refused(g, {"type": "move", "division": "c_heth_2", "to": "klingel_farm"}, "csa", "MV7")


def test_pooled_attack_up_to_three_divisions(tmp_path: Path) -> None:
    g = make(tmp_path, {"c_heth_1": {"at": "the_angle"},
                        "u_doubleday": {"at": "cemetery_ridge"},
                        "u_robinson": {"at": "codori_farm"},
                        "u_schurz": {"at": "bliss_farm"},
                        "u_steinwehr": {"at": "zieglers_grove"}}, dice=[2] * 40)
    for did in ("u_doubleday", "u_robinson", "u_schurz"):
        g.apply({"type": "attack", "division": did, "target": "the_angle"}, "usa")
    assert len(g.battles) == 1 and len(g.battles[0]["attackers"]) == 3
    assert div(g, "u_robinson")["mp"] == 2  # MV4: 1 MP to join
    refused(g, {"type": "attack", "division": "u_steinwehr", "target": "the_angle"}, "usa",
            "MV4")
    g.apply({"type": "end_turn"}, "usa")
    g.apply({"type": "end_turn"}, "csa")
    # the next hour the battle is no longer joinable (MV7)
    refused(g, {"type": "attack", "division": "u_steinwehr", "target": "the_angle"}, "usa",
            "MV7")


# --- bombardment (TE1, TE2, TE6) ------------------------------------------------------------


def test_defended_guns_fire_on_each_attacking_unit(tmp_path: Path) -> None:
    # The Angle has 2 artillery symbols; the USA fires 2 dice at each CSA unit (TE1).
    g = make(tmp_path, {"u_doubleday": {"at": "the_angle"},
                        "c_heth_1": {"at": "codori_farm",
                                     "units": ["infantry", "artillery", "infantry"]}},
             dice=[INF, FLAG, ART, SABRES, CAV, FLAG],
             start={"day": 1, "hour": 8, "phase": "day", "active": "csa"})
    assert g.board.artillery("the_angle") == 2
    g.apply({"type": "attack", "division": "c_heth_1", "target": "the_angle"}, "csa")
    assert div(g, "c_heth_1")["units"] == [["infantry", 3], ["artillery", 0], ["infantry", 4]]
    bomb = next(e for e in g.events("usa") if e["type"] == "bombardment")
    assert bomb["rule"] == "TE1" and bomb["data"]["figures_lost"] == 3


def test_flags_hit_cavalry(tmp_path: Path) -> None:
    g = make(tmp_path, {"u_doubleday": {"at": "the_angle"}, "c_stuart": {"at": "codori_farm"}},
             dice=[FLAG, INF, FLAG, FLAG, CAV, INF],
             start={"day": 1, "hour": 8, "phase": "day", "active": "csa"})
    g.apply({"type": "attack", "division": "c_stuart", "target": "the_angle"}, "csa")
    assert [f for _, f in div(g, "c_stuart")["units"]] == [2, 1, 2]


def test_csa_bombards_blind_with_one_die(tmp_path: Path) -> None:
    # Lutheran Seminary has 2 symbols; the CSA fires 1 die a unit whatever the symbols (TE2)
    g = make(tmp_path, {"c_heth_1": {"at": "lutheran_seminary"},
                        "u_doubleday": {"at": "mcpherson_ridge"}}, dice=[INF, SABRES, ART])
    assert g.board.artillery("lutheran_seminary") == 2
    g.apply({"type": "attack", "division": "u_doubleday", "target": "lutheran_seminary"}, "usa")
    assert [f for _, f in div(g, "u_doubleday")["units"]] == [3, 3, 1]
    bomb = next(e for e in g.events("referee") if e["type"] == "bombardment")
    assert bomb["rule"] == "TE2" and bomb["data"]["dice_per_unit"] == 1
    assert g.dice.counter == 3  # one die for each of the three units


def test_crossing_a_field_of_fire_draws_the_guns(tmp_path: Path) -> None:
    g = make(tmp_path, {"u_doubleday": {"at": "the_angle"}, "c_heth_1": {"at": "bliss_farm"}},
             dice=[SABRES] + [FLAG] * 7,
             start={"day": 1, "hour": 8, "phase": "day", "active": "csa"})
    link = g.board.link("bliss_farm", "codori_farm")
    assert link is not None and "the_angle" in link["fire_from"]
    g.apply({"type": "move", "division": "c_heth_1", "to": "codori_farm"}, "csa")
    assert [f for _, f in div(g, "c_heth_1")["units"]] == [3, 4, 4, 2]  # TE6
    assert g.dice.counter == 8  # two dice for each of the four units


# --- nightfall, battles, night (T2, B3, B4, N1-N6) ------------------------------------------


def test_nightfall_fights_the_day_battles_then_night_csa_first(tmp_path: Path) -> None:
    # A battle begun at 19:00 has 2 battle turns (B3), fought move by move, attacker first.
    g = make(tmp_path, {"u_doubleday": {"at": "codori_farm", "units": ["infantry"]},
                        "c_heth_1": {"at": "klingel_farm", "units": ["infantry"],
                                     "figures": [1]}},
             dice=[FLAG] * 40, start={"day": 1, "hour": 19, "phase": "day", "active": "usa"})
    assert g.board.artillery("klingel_farm") == 1  # the first die: the CSA's guns (TE2)
    g.apply({"type": "attack", "division": "u_doubleday", "target": "klingel_farm"}, "usa")
    g.apply({"type": "end_turn"}, "usa")
    g.apply({"type": "end_turn"}, "csa")
    assert g.phase == "battle" and g.to_move() == ["usa"]  # B2: the attacker first
    assert div(g, "u_doubleday")["revealed"]  # D3: the battle shows it
    assert g.view("csa")["divisions"]["u_doubleday"]["units"] == [["infantry", 4]]
    fight_out(g)
    fought = next(e for e in g.events("csa") if e["type"] == "battle_fought")["data"]
    assert fought["turns"] == 2 and fought["losses"] == {"c_heth_1": [0], "u_doubleday": [0]}
    assert div(g, "c_heth_1")["at"] == "klingel_farm"  # B4: the defender keeps its line
    assert g.phase == "night" and g.to_move() == ["csa"]  # N1


def test_a_beaten_attack_leaves_the_attacker_where_it_was(tmp_path: Path) -> None:
    g = make(tmp_path, {"u_doubleday": {"at": "codori_farm", "units": ["infantry"]},
                        "c_heth_1": {"at": "klingel_farm", "units": ["infantry"]}},
             dice=[FLAG] * 3, start={"day": 1, "hour": 19, "phase": "day", "active": "usa"})
    g.apply({"type": "attack", "division": "u_doubleday", "target": "klingel_farm"}, "usa")
    g.apply({"type": "end_turn"}, "usa")
    g.apply({"type": "end_turn"}, "csa")
    fight_out(g)
    assert div(g, "u_doubleday")["at"] == "codori_farm" and div(g, "c_heth_1")["at"] == \
        "klingel_farm"
    assert div(g, "u_doubleday")["battle"] is None and not g.battles


def night(tmp_path: Path, divisions: dict[str, Any], dice: list[int]) -> MachangoGame:
    return make(tmp_path, divisions, dice,
                start={"day": 1, "hour": 20, "phase": "night", "night_step": 0})


def test_recover_restores_a_figure_per_face(tmp_path: Path) -> None:
    g = night(tmp_path, {"c_heth_1": {"at": "herr_ridge", "units": ["infantry", "artillery"],
                                      "figures": [2, 1]}}, [INF, ART, FLAG, SABRES, CAV])
    g.apply({"type": "recover"}, "csa")
    assert g.pending_faces == ["infantry", "artillery", "cavalry"]
    g.apply({"type": "restore", "division": "c_heth_1", "unit": 0}, "csa")
    refused(g, {"type": "restore", "division": "c_heth_1", "unit": 0}, "csa", "N2")
    g.apply({"type": "restore", "division": "c_heth_1", "unit": 1}, "csa")
    assert g.legal_actions("csa") == [{"type": "restore_skip"}]  # no cavalry to mend
    g.apply({"type": "restore_skip"}, "csa")
    assert [f for _, f in div(g, "c_heth_1")["units"]] == [3, 2]
    assert g.to_move() == ["usa"]


def test_one_command_card_a_night_on_four_or_more(tmp_path: Path) -> None:
    g = night(tmp_path, {"c_heth_1": {"at": "herr_ridge"}, "u_doubleday": {"at": "the_angle"}},
              [4, 3])
    g.apply({"type": "cards"}, "csa")
    assert g.cards["csa"] == 6
    g.apply({"type": "cards"}, "usa")
    assert g.cards["usa"] == 6  # a 3 fails
    refused(g, {"type": "cards"}, "csa", "N3")  # the CSA already gained its card tonight


def test_stealth_move_two_mp_never_onto_the_enemy(tmp_path: Path) -> None:
    g = night(tmp_path, {"c_heth_1": {"at": "codori_farm", "fortified": True},
                         "u_doubleday": {"at": "the_angle"}}, [])
    reach = {a["to"] for a in g.legal_actions("csa") if a["type"] == "stealth"}
    assert "the_angle" not in reach and "klingel_farm" in reach
    refused(g, {"type": "stealth", "division": "c_heth_1", "to": "the_angle"}, "csa", "N4")
    g.apply({"type": "stealth", "division": "c_heth_1", "to": "bliss_farm"}, "csa")
    assert div(g, "c_heth_1")["at"] == "bliss_farm" and not div(g, "c_heth_1")["fortified"]
    assert g.dice.counter == 0  # N4: no guns fire at night


def test_fortify_and_night_order_then_dawn(tmp_path: Path) -> None:
    g = night(tmp_path, {"c_heth_1": {"at": "herr_ridge"}, "u_doubleday": {"at": "the_angle"}},
              [])
    g.apply({"type": "fortify", "division": "c_heth_1"}, "csa")
    g.apply({"type": "night_pass"}, "usa")
    refused(g, {"type": "fortify", "division": "c_heth_1"}, "csa", "N5")
    g.apply({"type": "night_pass"}, "csa")
    g.apply({"type": "night_pass"}, "usa")
    assert (g.day, g.hour, g.phase, g.to_move()) == (2, 7, "day", ["usa"])
    assert div(g, "c_heth_1")["fortified"]


def test_free_generals_move_at_night_tied_ones_do_not(tmp_path: Path) -> None:
    g = night(tmp_path, {"c_early_1": {"at": "gettysburg"}, "c_heth_1": {"at": "herr_ridge"},
                         "c_stuart": {"at": "herr_ridge"}}, [])
    g.apply({"type": "general", "general": "ewell", "division": "c_heth_1"}, "csa")
    assert g.generals["ewell"]["division"] == "c_heth_1" and g.to_move() == ["csa"]  # N6
    refused(g, {"type": "general", "general": "stuart", "division": "c_heth_1"}, "csa", "N6")


# --- reinforcements (R1), cavalry (D2) ------------------------------------------------------


def test_reinforcements_arrive_on_their_triangle_or_wait(tmp_path: Path) -> None:
    arrivals = [{"division": "u_williams", "day": 1, "hour": 9, "entry": "entry_baltimore"},
                {"division": "c_hood_1", "day": 1, "hour": 9, "entry": "entry_chambersburg"}]
    g = make(tmp_path, {"c_heth_1": {"at": "entry_baltimore"}}, arrivals=arrivals)
    g.apply({"type": "end_turn"}, "usa")
    g.apply({"type": "end_turn"}, "csa")
    assert div(g, "u_williams")["status"] == "waiting"  # the CSA stands on its triangle
    g.apply({"type": "end_turn"}, "usa")
    assert div(g, "c_hood_1")["at"] == "entry_chambersburg"
    g.apply({"type": "move", "division": "c_heth_1", "to": "wolf_hill"}, "csa")
    g.apply({"type": "end_turn"}, "csa")
    assert div(g, "u_williams")["at"] == "entry_baltimore"


def test_destroyed_cavalry_returns_and_is_never_a_loss(tmp_path: Path) -> None:
    g = make(tmp_path, {"u_doubleday": {"at": "the_angle"},
                        "c_stuart": {"at": "codori_farm", "figures": [1, 1, 1]}},
             dice=[CAV, INF, FLAG, INF, SABRES, INF],
             start={"day": 1, "hour": 8, "phase": "day", "active": "csa"})
    g.apply({"type": "attack", "division": "c_stuart", "target": "the_angle"}, "csa")
    assert div(g, "c_stuart")["status"] == "waiting"
    assert g.arrivals[-1] == {"division": "c_stuart", "day": 2, "hour": 7,
                              "entry": "entry_hunterstown"}
    assert div(g, "c_stuart")["units"] == [["cavalry", 3]] * 3


# --- victory (V1, V2, V3), the end (T3) -----------------------------------------------------


def test_csa_wins_at_once_with_two_stars_and_eight_usa_units(tmp_path: Path) -> None:
    g = make(tmp_path, {"c_heth_1": {"at": "bliss_farm"}},
             stars={"cemetery_hill": "csa"}, usa_units_lost=8,
             start={"day": 1, "hour": 8, "phase": "day", "active": "csa"})
    assert not g.is_terminal()
    g.apply({"type": "move", "division": "c_heth_1", "to": "the_angle"}, "csa")
    assert g.stars["the_angle"] == "csa"  # V2
    assert g.is_terminal() and g.result()["winner"] == "csa"  # type: ignore[index]


def test_a_star_is_not_claimed_next_to_an_enemy(tmp_path: Path) -> None:
    g = make(tmp_path, {"c_heth_1": {"at": "bliss_farm"}, "u_doubleday": {"at": "leister_farm"}},
             stars={"cemetery_hill": "csa"}, usa_units_lost=8,
             start={"day": 1, "hour": 8, "phase": "day", "active": "csa"})
    g.apply({"type": "move", "division": "c_heth_1", "to": "the_angle"}, "csa")
    assert g.stars["the_angle"] == "usa" and not g.is_terminal()


def test_eight_losses_are_needed(tmp_path: Path) -> None:
    g = make(tmp_path, {"c_heth_1": {"at": "bliss_farm"}},
             stars={"cemetery_hill": "csa"}, usa_units_lost=7,
             start={"day": 1, "hour": 8, "phase": "day", "active": "csa"})
    g.apply({"type": "move", "division": "c_heth_1", "to": "the_angle"}, "csa")
    assert g.stars["the_angle"] == "csa" and not g.is_terminal()


def test_the_game_ends_after_the_third_day_for_the_usa(tmp_path: Path) -> None:
    g = make(tmp_path, {"u_doubleday": {"at": "the_angle"}},
             start={"day": 3, "hour": 19, "phase": "day", "active": "usa"})
    g.apply({"type": "end_turn"}, "usa")
    g.apply({"type": "end_turn"}, "csa")
    assert g.is_terminal() and g.result()["winner"] == "usa"  # type: ignore[index]
    refused(g, {"type": "end_turn"}, "usa", "protocol.over")


def test_little_round_top_option_replaces_the_angle() -> None:
    g = MachangoGame("campaign", ["lrt_star"])
    assert sorted(g.stars) == ["cemetery_hill", "culps_hill", "little_round_top"]
    with pytest.raises(ValueError, match="unknown machango option"):
        MachangoGame("campaign", ["nope"])


# --- generals and the battle interface (G-..., B5-B7) ---------------------------------------


def test_hancock_and_armistead_leave_when_they_meet(tmp_path: Path) -> None:
    g = make(tmp_path, {"u_steinwehr": {"at": "codori_farm"},
                        "c_pickett_2": {"at": "klingel_farm"}},
             dice=[FLAG] * 60, start={"day": 1, "hour": 19, "phase": "day", "active": "usa"})
    assert g.generals["hancock"]["division"] == "u_steinwehr"
    g.apply({"type": "attack", "division": "u_steinwehr", "target": "klingel_farm"}, "usa")
    g.apply({"type": "end_turn"}, "usa")
    g.apply({"type": "end_turn"}, "csa")
    assert g.generals["hancock"]["removed"] and g.generals["armistead"]["removed"]


def test_battle_force_cards_and_marks(tmp_path: Path) -> None:
    g = make(tmp_path, {"c_mclaws_1": {"at": "herr_ridge", "bangs": 2},
                        "c_early_1": {"at": "herr_ridge"}, "c_stuart": {"at": "herr_ridge"},
                        "c_pickett_1": {"at": "herr_ridge"},
                        "u_buford": {"at": "the_angle"}, "u_wadsworth": {"at": "the_angle"},
                        "u_barnes": {"at": "the_angle", "bangs": 3}})
    csa = g._force("csa", ["c_mclaws_1", "c_early_1", "c_stuart", "c_pickett_1"])
    assert csa.cards == 2  # 5 - 2 "!" (B5) - Longstreet (G-CSA-1); Ewell's is a choice
    bangs = g._force("csa", ["c_mclaws_1"] * 3)
    assert bangs.cards == 1  # 6 "!" and Longstreet: never below 1 (B5)
    by = {d.id: d for d in csa.divisions}
    assert by["c_stuart"].extra_die and by["c_pickett_1"].ignores_flags  # G-CSA-4, G-CSA-5
    usa = g._force("usa", ["u_buford", "u_wadsworth", "u_barnes"])
    assert usa.cards == 6  # Chamberlain's marks cost nothing (G-USA-1)
    ub = {d.id: d for d in usa.divisions}
    assert ub["u_buford"].fortified and ub["u_wadsworth"].elite  # G-USA-2, G-USA-3
    assert ub["u_wadsworth"].ignores_one_flag and not ub["u_buford"].ignores_one_flag
    g.divisions["u_custer"].update({"status": "board", "at": "the_angle"})
    assert g._force("usa", ["u_custer"]).divisions[0].ignores_one_flag  # G-USA-5
    g.day = 3
    assert all(d.ignores_flags for d in g._force("csa", ["c_early_1"]).divisions)  # B7


def test_the_guns_stopping_an_attack_leave_no_battle(tmp_path: Path) -> None:
    g = make(tmp_path, {"u_doubleday": {"at": "the_angle"},
                        "c_stuart": {"at": "codori_farm", "figures": [1, 1, 1]}},
             dice=[SABRES, INF] * 3, start={"day": 1, "hour": 8, "phase": "day", "active": "csa"})
    g.apply({"type": "attack", "division": "c_stuart", "target": "the_angle"}, "csa")
    assert not g.battles and div(g, "u_doubleday")["battle"] is None  # TE1 before MV6's lock


def test_lost_cavalry_units_are_back_at_dawn(tmp_path: Path) -> None:
    g = make(tmp_path, {"c_stuart": {"at": "herr_ridge", "figures": [0, 2, 3]}}, [],
             start={"day": 1, "hour": 20, "phase": "night", "night_step": 3})
    g.apply({"type": "night_pass"}, "usa")
    assert [f for _, f in div(g, "c_stuart")["units"]] == [3, 2, 3]  # D2


@pytest.mark.parametrize(("extra", "field"), [
    ({"start": {"phase": "lunch"}}, "start.phase"),
    ({"start": {"active": "rebels"}}, "start.active"),
    ({"start": {"day": 4}}, "start"),
    ({"stars": {"herr_ridge": "csa"}}, "stars"),
    ({"divisions": {"u_nobody": {"at": "the_angle"}}}, "divisions"),
    ({"divisions": {"u_doubleday": {"at": "the_moon"}}}, "at"),
    ({"divisions": {"u_doubleday": {"units": ["infantry"] * 4}}}, "units"),
    ({"divisions": {"u_doubleday": {"colour": "blue"}}}, "colour"),
])
def test_a_bad_scenario_names_its_field(tmp_path: Path, extra: dict[str, Any],
                                        field: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump({"title": "bad", **extra}), encoding="utf-8")
    with pytest.raises(ValueError, match=field.replace(".", r"\.")):
        MachangoGame(str(path))
