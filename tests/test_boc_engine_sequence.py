"""BoC turn sequence (1.x), day ends (9.2-9.5), night turns (9.7) and victory (9.1)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from boc_engine_boards import board_doc, write_position
from gettysburg.boc.game import BocGame
from gettysburg.boc.victory import csa_total, verdict
from gettysburg.core.dice import ScriptedDice

FAR_USA = ("K5", ["usa-harrow"])
FAR_CSA = ("A14", ["csa-kemper"])


def make(tmp: Path, engine: dict[str, Any], dice: list[int] | None = None,
         options: list[str] | None = None, **kw: Any) -> BocGame:
    setup = kw.pop("setup", {"usa": [FAR_USA], "csa": [FAR_CSA]})
    path = write_position(tmp, setup, engine=engine, **kw)
    return BocGame(path, options or [], 0, ScriptedDice(dice or []))


LAST_PHASE = {"phase": "supply", "active": "csa", "order": ["usa", "csa"], "player_index": 1}


def test_initiative_ties_are_rolled_again(tmp_path: Path) -> None:
    g = make(tmp_path, LAST_PHASE, dice=[3, 3, 4, 2, 1, 2, 6, 5])
    g.apply({"type": "end_phase"}, "csa")
    assert (g.state.hour, g.state.order, g.state.active, g.state.phase) == \
        (17, ["csa", "usa"], "csa", "command")
    rolls = g.events("usa")
    dice = next(e for e in rolls if e["type"] == "dice")["data"]["rolls"]
    assert [r["value"] for r in dice] == [3, 3, 4, 2, 1, 2, 6, 5]
    assert all(r["rule"] == "1.1" for r in dice)
    assert g.history[-1].dice == (3, 3, 4, 2, 1, 2, 6, 5)


def test_fixed_order_option_rolls_nothing(tmp_path: Path) -> None:
    g = make(tmp_path, {**LAST_PHASE, "order": ["csa", "usa"], "active": "usa"},
             options=["fixed_turn_order"])
    g.apply({"type": "end_phase"}, "usa")
    assert g.state.order == ["csa", "usa"] and g.dice.counter == 0


def test_five_phases_and_combat_hooks(tmp_path: Path) -> None:
    g = make(tmp_path, {"active": "csa"})
    seen = []
    for _ in range(5):
        seen.append(g.state.phase)
        if g.state.phase in ("fire", "melee"):
            assert g.legal_actions("csa") == [{"type": "end_phase"}]  # issue 5
        g.apply({"type": "end_phase"}, "csa")
    assert seen == ["command", "fire", "movement", "melee", "supply"]
    assert (g.state.active, g.state.phase) == ("usa", "command")


def run_to_end(g: BocGame, limit: int = 500) -> None:
    for _ in range(limit):
        if g.is_terminal():
            return
        g.apply({"type": "end_phase"}, g.to_move()[0])
    raise AssertionError("did not end")


def test_day_1_ends_after_the_8_pm_turn(tmp_path: Path) -> None:
    g = make(tmp_path, {"hour": 20}, dice=[], day=1, start="08:00", end="20:00",
             bands=(10, 4))
    run_to_end(g)
    assert not any(e["data"].get("hour") == 21 for e in g.events("referee")
                   if e["type"] == "time")
    result = g.result()
    assert result is not None and result["winner"] == "usa" and result["csa_vp"] == 0


def test_day_2_ends_after_the_night_turn(tmp_path: Path) -> None:
    g = make(tmp_path, {"hour": 20}, dice=[6, 6, 1, 1])
    g.apply({"type": "end_phase"}, "csa")
    for _ in range(4):
        g.apply({"type": "end_phase"}, "csa")
    for _ in range(5):
        g.apply({"type": "end_phase"}, "usa")
    assert g.state.night and g.state.order == ["usa", "csa"]
    assert g.state.phase == "movement"
    # The new hour is given as data, not English text (docs/protocol.md, "event data").
    times = [e["data"] for e in g.events("usa") if e["type"] == "time"]
    assert times[-1] == {"day": 2, "hour": 21, "night": True}
    phases = []
    while not g.is_terminal():
        phases.append(g.state.phase)
        g.apply({"type": "end_phase"}, g.to_move()[0])
    assert phases == ["movement", "supply", "movement", "supply"]  # 9.71 no combat
    assert g.result() == {"winner": None, "csa_vp": 0, "day": 2,
                          "verdicts": g.state.verdicts}


def campaign(tmp: Path, day: int, hour: int, losses: dict[str, int], dice: list[int]
             ) -> BocGame:
    return make(tmp, {"hour": hour, "day": day, "campaign": True, "losses": losses,
                      **{k: v for k, v in LAST_PHASE.items()}}, dice=dice, day=day,
                start="08:00", end="day 3 20:00")


def test_full_battle_judges_each_day(tmp_path: Path) -> None:
    win = campaign(tmp_path, 1, 20, {"usa": 12, "csa": 0}, [])
    win.apply({"type": "end_phase"}, "csa")
    assert win.is_terminal() and win.result()["winner"] == "csa"  # type: ignore[index]
    draw = campaign(tmp_path, 1, 20, {"usa": 3, "csa": 0}, [6, 6, 1, 1])
    draw.apply({"type": "end_phase"}, "csa")
    assert not draw.is_terminal() and draw.state.night  # a draw goes on through the night
    last = campaign(tmp_path, 3, 20, {"usa": 3, "csa": 0}, [])
    last.apply({"type": "end_phase"}, "csa")
    assert last.is_terminal() and last.result()["winner"] is None  # type: ignore[index]
    assert not last.state.night  # no night after Day 3


def test_night_follows_into_next_day(tmp_path: Path) -> None:
    g = campaign(tmp_path, 1, 21, {"usa": 0, "csa": 0}, [2, 2, 5, 5])
    g.state.phase = "supply"
    g.apply({"type": "end_phase"}, "csa")
    assert (g.state.day, g.state.hour, g.state.phase) == (2, 8, "command")


def test_victory_points_9_12_example(tmp_path: Path) -> None:
    board = board_doc(hexes={"M11": {"victory": 1}, "H6": {"victory": 2}, "G2": {"victory": 1},
                             "J6": {"victory": 2}, "I4": {"victory": 2}})
    g = make(tmp_path, {"losses": {"usa": 8, "csa": 3}}, board=board,
             setup={"usa": [("J6", ["usa-harrow"]), ("I4", ["usa-webb"])],
                    "csa": [("M11", ["csa-kemper"]), ("H6", ["csa-armistead"]),
                            ("G2", ["csa-garnett-rb"])]})
    score = csa_total(g.board, g.state)
    assert score == {"terrain": 4, "usa_losses": 8, "csa_losses": 3, "total": 9}
    assert verdict(9, {"csa_win_min": 10, "usa_win_max": -1}) is None


@pytest.mark.parametrize(("total", "standard", "day1"), [
    (-1, "usa", "usa"), (0, None, "usa"), (4, None, "usa"), (5, None, None), (9, None, None),
    (10, "csa", "csa")])
def test_victory_bands(total: int, standard: str | None, day1: str | None) -> None:
    assert verdict(total, {"csa_win_min": 10, "usa_win_max": -1}) == standard
    assert verdict(total, {"csa_win_min": 10, "usa_win_max": 4}) == day1


def test_neutral_and_usa_victory_hexes_score_nothing(tmp_path: Path) -> None:
    board = board_doc(hexes={"K6": {"victory": 3}, "K8": {"victory": 2}})
    g = make(tmp_path, {}, board=board,
             setup={"usa": [("K5", ["usa-harrow"])], "csa": [("K7", ["csa-kemper"])]})
    # K6 touches both sides (neutral); K8 only the CSA unit (CSA-friendly).
    assert csa_total(g.board, g.state)["terrain"] == 2


def test_free_deployment_swaps_keep_hex_counts(tmp_path: Path) -> None:
    setup = {"usa": [("K5", ["usa-harrow", "usa-webb"]), ("M5", ["usa-hancock"])],
             "csa": [("A14", ["csa-kemper"]), ("B14", ["csa-armistead"])]}
    path = write_position(tmp_path, setup)
    g = BocGame(path, ["free_deployment"], 0, ScriptedDice([]))
    assert (g.state.phase, g.to_move()) == ("deploy", ["usa"])
    swaps = [a for a in g.legal_actions("usa") if a["type"] == "swap"]
    assert {"type": "swap", "units": ["usa-hancock", "usa-harrow"]} in swaps
    assert {"type": "swap", "units": ["usa-harrow", "usa-webb"]} not in swaps  # same hex
    g.apply({"type": "swap", "units": ["usa-hancock", "usa-harrow"]}, "usa")
    assert g.state.units["usa-hancock"].hex == "K5" and g.state.units["usa-harrow"].hex == "M5"
    assert "usa-hancock" not in json.dumps(g.events("csa"))
    g.apply({"type": "end_phase"}, "usa")
    assert g.to_move() == ["csa"] and g.state.phase == "deploy"
    g.apply({"type": "end_phase"}, "csa")
    assert (g.state.phase, g.to_move()) == ("command", ["csa"])
    assert g.state.control["M5"] == "usa"
