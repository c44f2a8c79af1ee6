"""Combat through the engine (``BocGame.legal_actions`` / ``apply``) with scripted dice:
fire (5.2, 5.23), decisions routed to the owner's seat, melee declared in the movement
phase and fought in the melee phase (7.1, 7.2, 7.9), entry-road melee (6.7), the log's fog
for hits (5.23), losses from combat in the victory total (9.12) and the 10.0 cavalry
battles under their option."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from boc_engine_boards import write_position
from gettysburg.boc.board import board_path, load_board
from gettysburg.boc.control import index
from gettysburg.boc.fire import _sights
from gettysburg.boc.game import BocGame
from gettysburg.boc.state import ELIMINATED, ON_MAP, RESERVE, WITHDRAWN
from gettysburg.boc.victory import csa_total
from gettysburg.core import savefile
from gettysburg.core.dice import ScriptedDice
from gettysburg.core.protocol import RuleError

FIRE_AT_K6 = {"type": "fire", "unit": "csa-kemper", "target": "K6", "through": "K6"}


def make(tmp: Path, setup: dict[str, Any], dice: list[int], engine: dict[str, Any] | None = None,
         **kw: Any) -> BocGame:
    path = write_position(tmp, setup, engine=engine or {}, **kw)
    return BocGame(path, [], 0, ScriptedDice(dice))


def csa_fire_phase(tmp: Path, usa: list[Any], dice: list[int]) -> BocGame:
    """CSA to move in its command phase: Pickett (DHQ) and Kemper (A2, strength 3) in K7,
    the USA blocks ``usa`` next door in K6 (J6's neighbours are J5 J7 I6 K6 I5 K7)."""
    g = make(tmp, {"usa": [("K6", usa)],
                   "csa": [("K7", [("csa-pickett", 2), ("csa-kemper", 3)])]}, dice)
    g.apply({"type": "activate", "hq": "csa-pickett"}, "csa")
    assert g.state.units["csa-kemper"].in_command
    g.apply({"type": "end_phase"}, "csa")
    assert g.state.phase == "fire"
    return g


def test_fire_through_apply_5_2_example_numbers(tmp_path: Path) -> None:
    # 5.2: strength 3 rolls three dice; firepower 2 hits on 1 and 2 -> two hits.
    g = csa_fire_phase(tmp_path, [("usa-harrow", 3)], [1, 2, 3])
    legal = g.legal_actions("csa")
    assert FIRE_AT_K6 in legal
    assert legal[-1] == {"type": "end_phase"}
    events = g.apply(FIRE_AT_K6, "csa")
    fire = next(e for e in events if e.type == "fire")
    assert (fire.data["dice"], fire.data["firepower"], fire.data["hits"]) == ([1, 2, 3], 2, 2)
    assert g.state.units["usa-harrow"].strength == 1
    kemper = g.state.units["csa-kemper"]
    assert kemper.fired and kemper.revealed
    assert g.to_move() == ["csa"]
    assert FIRE_AT_K6 not in g.legal_actions("csa")  # once per phase (5.1) / hexside (5.21)
    with pytest.raises(RuleError) as err:
        g.apply(FIRE_AT_K6, "csa")
    assert err.value.rule == "5.1"
    # The firer is revealed to the enemy; the block it hit stays hidden.
    usa_view = g.view("usa")
    assert "csa-kemper" in {u["id"] for u in usa_view["units"]}
    assert "csa-pickett" in {u["id"] for u in usa_view["units"]}  # activated HQ (4.3)
    assert "usa-harrow" not in json.dumps(g.view("csa"))
    g.apply({"type": "end_phase"}, "csa")
    assert g.state.phase == "movement" and g.state.fire == {}
    again = savefile.replay(json.loads(json.dumps(savefile.save(g))), verify=True)
    assert again.state_hash() == g.state_hash()


def test_a_tie_goes_to_the_owner_and_the_enemy_log_names_only_the_hex(tmp_path: Path) -> None:
    g = csa_fire_phase(tmp_path, [("usa-harrow", 3), ("usa-webb", 3)], [1, 6, 6])
    g.apply(FIRE_AT_K6, "csa")
    # One hit, two equally strong blocks: the USA player picks (5.23).
    assert g.to_move() == ["usa"]
    assert g.legal_actions("csa") == []
    assert g.legal_actions("usa") == [{"type": "casualty", "unit": "usa-harrow"},
                                      {"type": "casualty", "unit": "usa-webb"}]
    assert g.view("usa")["combat"]["decision"]["kind"] == "casualty"
    assert "decision" not in g.view("csa")["combat"]
    assert g.view("csa")["combat"]["waiting"]["seat"] == "usa"
    with pytest.raises(RuleError):
        g.apply({"type": "end_phase"}, "csa")  # not CSA's move
    with pytest.raises(RuleError):
        g.apply({"type": "end_phase"}, "usa")  # the decision first
    with pytest.raises(RuleError):
        g.apply({"type": "casualty", "unit": "usa-hays"}, "usa")
    g.apply({"type": "casualty", "unit": "usa-webb"}, "usa")
    assert (g.state.units["usa-webb"].strength, g.state.units["usa-harrow"].strength) == (2, 3)
    assert g.to_move() == ["csa"]
    # The enemy's log: a hit landed in K6, on a USA block, not which one.
    csa_hits = [e for e in g.events("csa") if e["type"] == "hit"]
    assert len(csa_hits) == 1
    assert csa_hits[0]["data"]["hex"] == "K6" and csa_hits[0]["data"]["side"] == "usa"
    assert "usa-webb" not in json.dumps(g.events("csa"))
    assert "usa-harrow" not in json.dumps(g.events("csa"))
    usa_hits = [e for e in g.events("usa") if e["type"] == "hit"]
    assert usa_hits[0]["data"]["unit"] == "usa-webb"


def test_fire_elimination_counts_for_victory_9_12(tmp_path: Path) -> None:
    g = csa_fire_phase(tmp_path, [("usa-harrow", 1)], [2, 6, 6])
    before = csa_total(g.board, g.state)
    g.apply(FIRE_AT_K6, "csa")
    assert g.state.units["usa-harrow"].status == ELIMINATED
    after = csa_total(g.board, g.state)
    assert after["usa_losses"] == before["usa_losses"] + 1
    assert after["total"] == after["terrain"] + after["usa_losses"] - after["csa_losses"]
    assert g.view("csa")["victory"] == after
    # The enemy learns a USA block was lost in K6, not which (5.23).
    gone = [e for e in g.events("csa") if e["type"] == "eliminated"]
    assert gone and gone[0]["data"]["hex"] == "K6" and "unit" not in gone[0]["data"]


def usa_melee_game(tmp: Path, dice: list[int]) -> BocGame:
    """USA to move: Gibbon (DHQ) and Harrow (B2, 3) in J6, Kemper (A2, 3) alone in K6."""
    g = make(tmp, {"usa": [("J6", [("usa-gibbon", 2), ("usa-harrow", 3)])],
                   "csa": [("K6", [("csa-kemper", 3)]), ("M11", [("csa-pickett", 2)])]},
             dice, engine={"active": "usa", "order": ["usa", "csa"], "player_index": 0})
    g.apply({"type": "activate", "hq": "usa-gibbon"}, "usa")
    g.apply({"type": "end_phase"}, "usa")  # -> fire
    g.apply({"type": "end_phase"}, "usa")  # -> movement
    assert g.state.phase == "movement"
    return g


def test_melee_declared_in_movement_ends_in_a_round_3_attacker_retreat(tmp_path: Path) -> None:
    # 7.2: a B attacker against an A defender: in round 3 the defender fires, then the
    # attacker must leave. Every die misses (6), six turns of three dice.
    g = usa_melee_game(tmp_path, [6] * 18)
    declare = {"type": "melee", "unit": "usa-harrow", "target": "K6"}
    assert declare in g.legal_actions("usa")
    with pytest.raises(RuleError) as err:
        g.apply({"type": "melee", "unit": "usa-harrow", "target": "K6",
                 "unsupported": True}, "usa")
    assert err.value.rule == "7.8"  # under command: a supported melee
    g.apply(declare, "usa")
    assert not any(a.get("unit") == "usa-harrow" for a in g.legal_actions("usa"))
    # The enemy sees an attack on K6 from J6, not by whom.
    assert "usa-harrow" not in json.dumps(g.events("csa"))
    assert g.view("csa")["combat"]["melees"] == [{"side": "usa", "from": "J6",
                                                  "target": "K6", "kind": "supported"}]
    g.apply({"type": "end_phase"}, "usa")
    assert g.state.phase == "melee"
    assert g.legal_actions("usa") == [{"type": "melee_resolve", "hex": "K6"}]
    with pytest.raises(RuleError):
        g.apply({"type": "end_phase"}, "usa")  # 7.1: every declared melee is fought
    g.apply({"type": "melee_resolve", "hex": "K6"}, "usa")
    assert g.state.units["csa-kemper"].revealed and g.state.units["usa-harrow"].revealed
    # 7.1: both sides' melee blocks are shown by identity in the enemy's view.
    assert "csa-kemper" in {u["id"] for u in g.view("usa")["units"]}
    assert "usa-harrow" in {u["id"] for u in g.view("csa")["units"]}
    assert "csa-pickett" not in json.dumps(g.view("usa"))  # not in the melee: hidden
    assert g.view("csa")["combat"]["battle"]["round"] == 1
    for rnd in (1, 2, 3):
        # 7.2: A before B, so the defender's turn comes first in every round.
        assert g.to_move() == ["csa"], rnd
        assert {"type": "melee_fight", "unit": "csa-kemper"} in g.legal_actions("csa")
        events = g.apply({"type": "melee_fight", "unit": "csa-kemper"}, "csa")
        if rnd < 3:
            assert g.to_move() == ["usa"]
            assert g.legal_actions("usa")[0] == {"type": "melee_fight", "unit": "usa-harrow"}
            g.apply({"type": "melee_fight", "unit": "usa-harrow"}, "usa")
    retreat = next(e for e in events if e.type == "melee_retreat")
    assert retreat.data == {"unit": "usa-harrow", "side": "usa", "from": "K6", "to": "J6",
                            "forced": True}
    won = next(e for e in events if e.type == "melee_won")
    assert won.data["winner"] == "csa"
    # 7.9: the winner may regroup; it is CSA's choice although USA is the active player.
    assert g.to_move() == ["csa"]
    assert g.legal_actions("csa")[-1] == {"type": "regroup_done"}
    g.apply({"type": "regroup_done"}, "csa")
    assert g.to_move() == ["usa"] and {"type": "end_phase"} in g.legal_actions("usa")
    assert g.state.units["usa-harrow"].hex == "J6" and g.state.units["csa-kemper"].hex == "K6"
    assert (g.state.units["usa-harrow"].strength, g.state.units["csa-kemper"].strength) == (3, 3)
    g.apply({"type": "end_phase"}, "usa")
    assert g.state.phase == "supply" and g.state.melee == {}
    again = savefile.replay(json.loads(json.dumps(savefile.save(g))), verify=True)
    assert again.state_hash() == g.state_hash()


def test_melee_won_by_the_attacker_takes_the_hex(tmp_path: Path) -> None:
    # Kemper (defender, A) fires first and misses; Harrow hits three times: Kemper is gone.
    g = usa_melee_game(tmp_path, [6, 6, 6, 1, 1, 1])
    g.apply({"type": "melee", "unit": "usa-harrow", "target": "K6"}, "usa")
    g.apply({"type": "end_phase"}, "usa")
    g.apply({"type": "melee_resolve", "hex": "K6"}, "usa")
    g.apply({"type": "melee_fight", "unit": "csa-kemper"}, "csa")
    g.apply({"type": "melee_fight", "unit": "usa-harrow"}, "usa")
    assert g.state.units["csa-kemper"].status == ELIMINATED
    assert g.state.units["usa-harrow"].hex == "K6"
    assert g.to_move() == ["usa"]
    regroup = g.legal_actions("usa")
    assert {"type": "regroup", "unit": "usa-gibbon", "to": "K6"} in regroup
    g.apply({"type": "regroup", "unit": "usa-gibbon", "to": "K6"}, "usa")
    g.apply({"type": "regroup_done"}, "usa")
    assert g.state.units["usa-gibbon"].hex == "K6"
    assert g.state.losses["csa"] == 1


def test_entry_road_melee_6_7(tmp_path: Path) -> None:
    from boc_engine_boards import board_doc

    board = board_doc(hexes={"L1": {"entries": ["Baltimore Pike"]}})
    arrivals = [{"time": "16:00", "side": "usa", "entry": "Baltimore Pike", "hex": "L1",
                 "units": ["usa-harrow"], "designed": True, "basis": "test"}]
    g = make(tmp_path, {"usa": [("A1", [("usa-gibbon", 2)])],
                        "csa": [("L1", [("csa-kemper", 1)])]},
             [6, 1, 6, 6], engine={"active": "usa", "order": ["usa", "csa"],
                                   "player_index": 0, "phase": "movement"},
             board=board, arrivals=arrivals)
    act = {"type": "melee", "unit": "usa-harrow", "target": "L1", "entry": "Baltimore Pike"}
    assert act in g.legal_actions("usa")
    assert not any(a["type"] == "enter" and a["unit"] == "usa-harrow"
                   for a in g.legal_actions("usa"))
    g.apply(act, "usa")
    g.apply({"type": "end_phase"}, "usa")
    g.apply({"type": "melee_resolve", "hex": "L1"}, "usa")
    g.apply({"type": "melee_fight", "unit": "csa-kemper"}, "csa")  # one die: 6
    # Harrow (3 dice: 1, 6, 6) fights without command and without a terrain penalty.
    g.apply({"type": "melee_fight", "unit": "usa-harrow"}, "usa")
    harrow = g.state.units["usa-harrow"]
    assert g.state.units["csa-kemper"].status == ELIMINATED
    assert (harrow.status, harrow.hex, harrow.arrival_key) == (ON_MAP, "L1", None)


def test_cavalry_battles_option_through_the_engine(tmp_path: Path) -> None:
    """10.0 at Day 3 2 PM: rolls, Stuart's assignments, one fight, arrivals at 4 PM."""
    setup = {"usa": [("A1", [("usa-gibbon", 2)])], "csa": [("M11", [("csa-pickett", 2)])]}
    path = write_position(tmp_path, setup, day=3, start="13:00",
                          engine={"phase": "supply", "active": "usa", "order": ["csa", "usa"],
                                  "player_index": 1})
    # Initiative 2 PM (CSA 6+6 > USA 1+1), then rolls: Huey 1 (fails), Imboden 1,
    # Robertson 1, Jones 1 (all fail).
    g = BocGame(path, ["cavalry_battles"], 0, ScriptedDice([1, 1, 6, 6, 1, 1, 1, 1] + [6] * 200))
    assert g.state.units["csa-stuart"].status == RESERVE
    assert g.state.units["csa-stuart"].arrival_key is None
    g.apply({"type": "end_phase"}, "usa")
    assert (g.state.day, g.state.hour) == (3, 14)
    assert g.state.units["usa-huey"].status == WITHDRAWN
    # Huey failed: USA may send Custer to Gregg (10.0), before the CSA player's turn.
    assert g.to_move() == ["usa"]
    assert g.legal_actions("usa") == [{"type": "cavalry_custer", "move": True},
                                      {"type": "cavalry_custer", "move": False}]
    with pytest.raises(RuleError):
        g.apply({"type": "activate", "hq": "csa-pickett"}, "csa")
    g.apply({"type": "cavalry_custer", "move": False}, "usa")
    assert g.to_move() == ["csa"]
    for uid in ("csa-stuart", "csa-hampton", "csa-lee-fitz", "csa-chambliss", "csa-beckham"):
        g.apply({"type": "cavalry_assign", "unit": uid, "fight": "kilpatrick"}, "csa")
    g.apply({"type": "cavalry_assign_done"}, "csa")
    # Gregg is unopposed: his division arrives at 3 PM on the Hanover Road.
    gregg = g.state.units["usa-gregg"]
    assert (gregg.status, gregg.arrival_entry) == (RESERVE, "Hanover Road")
    # Kilpatrick's fight: all dice miss, three rounds, no forced retreat: stalemate.
    while g.state.cavalry.get("stage") != "done":
        seat = g.to_move()[0]
        legal = g.legal_actions(seat)
        fight = [a for a in legal if a["type"] == "melee_fight"]
        g.apply(fight[0] if fight else legal[0], seat)
    assert g.state.cavalry["outcomes"] == {"gregg": "unopposed", "kilpatrick": "stalemate"}
    assert g.state.units["csa-stuart"].status == WITHDRAWN
    assert g.state.units["usa-kilpatrick"].status == WITHDRAWN
    assert g.to_move() == ["csa"] and g.state.phase == "command"
    assert {"type": "end_phase"} in g.legal_actions("csa")
    again = savefile.replay(json.loads(json.dumps(savefile.save(g))), verify=True)
    assert again.state_hash() == g.state_hash()


def test_unsupported_melee_7_8_two_rounds(tmp_path: Path) -> None:
    # Harrow is not under command (Gibbon not activated): only the 7.8 form is offered, and
    # the attacker must leave in round 2. Every die misses.
    g = make(tmp_path, {"usa": [("J6", [("usa-gibbon", 2), ("usa-harrow", 3)])],
                        "csa": [("K6", [("csa-kemper", 3)]), ("M11", [("csa-pickett", 2)])]},
             [6] * 9, engine={"active": "usa", "order": ["usa", "csa"], "player_index": 0,
                              "phase": "movement"})
    legal = g.legal_actions("usa")
    assert {"type": "melee", "unit": "usa-harrow", "target": "K6", "unsupported": True} in legal
    assert {"type": "melee", "unit": "usa-harrow", "target": "K6"} not in legal
    with pytest.raises(RuleError) as err:
        g.apply({"type": "melee", "unit": "usa-harrow", "target": "K6"}, "usa")
    assert err.value.rule == "7.1"
    g.apply({"type": "melee", "unit": "usa-harrow", "target": "K6", "unsupported": True}, "usa")
    g.apply({"type": "end_phase"}, "usa")
    g.apply({"type": "melee_resolve", "hex": "K6"}, "usa")
    g.apply({"type": "melee_fight", "unit": "csa-kemper"}, "csa")
    g.apply({"type": "melee_fight", "unit": "usa-harrow"}, "usa")
    events = g.apply({"type": "melee_fight", "unit": "csa-kemper"}, "csa")
    assert any(e.type == "melee_retreat" and e.data["forced"] for e in events)
    assert g.state.units["usa-harrow"].hex == "J6"
    assert g.to_move() == ["csa"]  # the winner's regroup
    g.apply({"type": "regroup_done"}, "csa")
    assert g.legal_actions("usa")[-1] == {"type": "end_phase"}


def test_double_defence_half_hit_heals_at_the_end_of_the_fire_phase(tmp_path: Path) -> None:
    from boc_engine_boards import board_doc

    board = board_doc(hexes={"K6": {"d2": True}})
    g = make(tmp_path, {"usa": [("K6", [("usa-harrow", 3)])],
                        "csa": [("K7", [("csa-pickett", 2), ("csa-kemper", 3)])]},
             [1, 6, 6], board=board)
    g.apply({"type": "activate", "hq": "csa-pickett"}, "csa")
    g.apply({"type": "end_phase"}, "csa")
    events = g.apply(FIRE_AT_K6, "csa")
    hit = next(e for e in events if e.type == "hit")
    assert hit.data["half"] is True and g.state.units["usa-harrow"].strength == 3  # 5.24
    assert g.view("usa")["combat"]["half_hits"] == ["usa-harrow"]
    assert g.view("csa")["combat"]["half_hits"] == []
    g.apply({"type": "end_phase"}, "csa")
    assert g.state.units["usa-harrow"].strength == 3 and g.state.fire == {}
    assert any(e["type"] == "half_hit_healed" for e in g.events("usa"))
    assert not any(e["type"] == "half_hit_healed" for e in g.events("csa"))
    # The CSA's log is numbered without gaps, so it cannot count the hidden healing.
    csa_log = g.events("csa")
    assert [e["n"] for e in csa_log] == list(range(len(csa_log))) == \
        list(range(g.log_size("csa")))
    assert g.log_size("csa") < g.log_size("usa") == len(g.log)


def test_a_position_starting_at_day_3_2_pm_opens_with_the_cavalry_battles(tmp_path: Path
                                                                         ) -> None:
    setup = {"usa": [("A1", [("usa-gibbon", 2)])], "csa": [("M11", [("csa-pickett", 2)])]}
    path = write_position(tmp_path, setup, day=3, start="14:00")
    g = BocGame(path, ["cavalry_battles"], 0, ScriptedDice([6, 6, 6, 6]))
    assert [e.type for e in g.log][:3] == ["setup", "cavalry_battles", "cavalry_roll"]
    assert g.to_move() == ["csa"]  # Huey joined: no Custer choice; Stuart assigns
    assert {"type": "cavalry_assign", "unit": "csa-imboden", "fight": "gregg"} \
        in g.legal_actions("csa")
    plain = BocGame(path, [], 0, ScriptedDice([]))
    assert "csa-stuart" not in plain.state.units and plain.state.cavalry == {}


@pytest.mark.skipif(not board_path().exists(), reason="boc/data/board.json not generated yet")
def test_every_artillery_sightline_of_the_shipped_board_computes() -> None:
    """Fire paths near the map edge stay on the map (a path through an off-board hex of
    the cone used to fail); every hex, every hexside."""
    board = load_board()
    idx = index(board)
    total = 0
    for hx, nbrs in idx.nbrs.items():
        for thr in nbrs:
            rows = _sights(board, hx, thr)
            assert all(1 <= rng <= 3 for _, rng, _ in rows)
            total += len(rows)
    assert total > 0
