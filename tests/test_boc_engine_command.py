"""BoC command (4.x): activation, range, who commands whom, succession, Hancock option."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from boc_engine_boards import board_doc, write_position
from gettysburg.boc.command import (
    can_command,
    commanded_units,
    may_supply,
    needs_command,
    roles,
    supply_roles,
)
from gettysburg.boc.game import BocGame
from gettysburg.boc.sequence import eliminate
from gettysburg.boc.state import turn_key
from gettysburg.core.dice import ScriptedDice
from gettysburg.core.protocol import RuleError


def make(tmp: Path, setup: dict[str, list[tuple[str, list[Any]]]], **kw: Any) -> BocGame:
    engine = {"phase": "command", "active": "usa", "order": ["usa", "csa"],
              **kw.pop("engine", {})}
    options = kw.pop("options", [])
    path = write_position(tmp, setup, engine=engine, **kw)
    return BocGame(path, options, 0, ScriptedDice(kw.pop("dice", [])))


FAR = ("A14", ["csa-kemper"])


def test_command_range_is_blocked_by_enemy_hexes(tmp_path: Path) -> None:
    free = make(tmp_path, {"usa": [("K5", ["usa-gibbon"]), ("K7", ["usa-harrow"])],
                           "csa": [FAR]})
    assert commanded_units(free.board, free.state, free.orders, "usa-gibbon") == ["usa-harrow"]
    blocked = make(tmp_path, {"usa": [("K5", ["usa-gibbon"]), ("K7", ["usa-harrow"])],
                              "csa": [("K6", ["csa-kemper"])]}, name="blocked")
    assert commanded_units(blocked.board, blocked.state, blocked.orders, "usa-gibbon") == []
    blocked.apply({"type": "activate", "hq": "usa-gibbon"}, "usa")
    assert not blocked.state.units["usa-harrow"].in_command


def test_who_commands_whom(tmp_path: Path) -> None:
    g = make(tmp_path, {"usa": [("K5", ["usa-gibbon"])], "csa": [FAR]})
    o = g.orders.oob

    def cmd(hq: str, unit: str) -> bool:
        return can_command(g.orders, o[hq], o[unit])

    assert cmd("usa-gibbon", "usa-harrow") and not cmd("usa-gibbon", "usa-cross")
    assert cmd("usa-gibbon", "usa-hazard") and cmd("usa-hays", "usa-hazard")  # 4.4 asset
    assert not cmd("usa-wadsworth", "usa-hazard")
    assert cmd("usa-wadsworth", "usa-ransom") and cmd("usa-hunt", "usa-ransom")  # reserve
    assert cmd("usa-hunt", "usa-hazard") and not cmd("usa-hunt", "usa-calef")
    assert cmd("csa-alexander-hq", "csa-latimer") and cmd("csa-alexander-hq", "csa-cabell")
    assert not cmd("csa-alexander-hq", "csa-beckham")  # horse artillery: Stuart's
    assert not cmd("csa-alexander-hq", "csa-kemper")
    assert cmd("usa-pleasonton", "usa-gamble") and cmd("usa-pleasonton", "usa-calef")
    assert cmd("usa-buford", "usa-gamble") and not cmd("usa-buford", "usa-custer")
    assert not cmd("usa-hancock", "usa-harrow")  # CHQs supply, they do not command fire
    assert not needs_command(g.orders, "usa-berdan")  # 3.31
    assert needs_command(g.orders, "usa-harrow")


def test_activation_deploy_and_step_loss(tmp_path: Path) -> None:
    g = make(tmp_path, {"usa": [("K5", ["usa-gibbon", "usa-harrow"]),
                                ("K6", ["usa-webb", "usa-hall", "usa-hays", "usa-smyth"])],
                        "csa": [FAR]})
    acts = [a for a in g.legal_actions("usa") if a["type"] == "activate"
            and a["hq"] == "usa-gibbon"]
    targets = {a.get("to") for a in acts}
    assert None in targets and "K4" in targets and "K6" not in targets  # K6 is full
    with pytest.raises(RuleError) as err:
        g.apply({"type": "activate", "hq": "usa-gibbon", "to": "K6"}, "usa")
    assert err.value.rule == "4.3"
    with pytest.raises(RuleError) as err:
        g.apply({"type": "activate", "hq": "usa-harrow"}, "usa")
    assert err.value.rule == "4.3"
    g.apply({"type": "activate", "hq": "usa-gibbon", "to": "K4"}, "usa")
    gib = g.state.units["usa-gibbon"]
    assert gib.hex == "K4" and gib.revealed and gib.cmd_active
    assert g.state.units["usa-harrow"].in_command and g.state.units["usa-webb"].in_command
    assert "usa-gibbon" in {u["id"] for u in g.view("csa")["units"]}  # revealed by activation
    for _ in range(4):  # command, fire, movement, melee
        g.apply({"type": "end_phase"}, "usa")
    assert g.state.phase == "supply"
    assert gib.strength == 2 and not gib.cmd_active  # 4.3 the step after the melee phase
    assert not g.state.units["usa-harrow"].in_command


def test_zero_strength_hq_cannot_activate(tmp_path: Path) -> None:
    g = make(tmp_path, {"usa": [("K5", [("usa-gibbon", 0), "usa-harrow"])], "csa": [FAR]})
    assert not [a for a in g.legal_actions("usa") if a["type"] == "activate"]
    with pytest.raises(RuleError) as err:
        g.apply({"type": "activate", "hq": "usa-gibbon"}, "usa")
    assert err.value.rule == "4.3"


def test_fallen_dhq_rebuilt_at_zero_with_fallen_leader_vp(tmp_path: Path) -> None:
    g = make(tmp_path, {"usa": [("K5", ["usa-harrow", "usa-webb", "usa-hall", "usa-smyth"]),
                                ("K6", ["usa-gibbon"]), ("M5", ["usa-hancock"])],
                        "csa": [FAR]}, engine={"phase": "movement"})
    g.apply({"type": "move", "unit": "usa-gibbon", "path": ["K6", "K5"]}, "usa")
    g.apply({"type": "end_phase"}, "usa")  # 6.2: Gibbon came in last and is the excess
    assert g.state.units["usa-gibbon"].status == "eliminated"
    assert g.state.losses["usa"] == 1 and g.view("csa")["victory"]["total"] == 1
    g.apply({"type": "end_phase"}, "usa")  # melee -> supply: 4.61 rebuild
    gib = g.state.units["usa-gibbon"]
    assert (gib.status, gib.hex, gib.strength) == ("on_map", "M5", 0)
    assert g.state.losses["usa"] == 1  # the fallen-leader block stays with the CSA


def test_a_rebuilt_dhq_comes_back_under_a_new_handle(tmp_path: Path) -> None:
    """4.61 puts a fallen DHQ back on the map as a fresh block: the enemy must not find it
    under the handle it saw before the fall (with two returning together, the old handles
    would say which is which)."""
    from gettysburg.boc.fog import handle

    g = make(tmp_path, {"usa": [("K5", ["usa-harrow", "usa-webb", "usa-hall", "usa-smyth"]),
                                ("K6", ["usa-gibbon"]), ("M5", ["usa-hancock"])],
                        "csa": [FAR]}, engine={"phase": "movement"})
    key: bytes = g.key  # type: ignore[attr-defined]
    old = handle(key, "usa-gibbon")
    assert old in {h["handle"] for h in g.view("csa")["hidden"]}
    g.apply({"type": "move", "unit": "usa-gibbon", "path": ["K6", "K5"]}, "usa")
    g.apply({"type": "end_phase"}, "usa")
    g.apply({"type": "end_phase"}, "usa")  # the supply phase: Gibbon returns in M5
    at_m5 = {h["handle"] for h in g.view("csa")["hidden"] if h["hex"] == "M5"}
    assert old not in at_m5 and handle(key, "usa-gibbon", 1) in at_m5
    assert g.state.units["usa-gibbon"].returned == 1
    # The count is part of the state: a save and its reload show the same handle.
    again = type(g).from_json(g.to_json())
    assert again.view("csa")["hidden"] == g.view("csa")["hidden"]


def test_chq_and_ahq_succession(tmp_path: Path) -> None:
    g = make(tmp_path, {"usa": [("M5", ["usa-gibbon", "usa-hays"]), ("L3", ["usa-slocum"]),
                                ("K3", ["usa-williams"]), ("L4", ["usa-meade"])],
                        "csa": [FAR]},
             eliminated=[{"unit": "usa-hancock", "counts_for": "csa"}])
    r = roles(g.state, g.orders, "usa")
    assert r.chq["II"] == "usa-gibbon" and r.ahq == "usa-meade" and r.chq["XII"] == "usa-slocum"
    assert g.state.losses["usa"] == 1
    eliminate(g.state, g.orders, g.state.units["usa-meade"], "test", "fell")
    r = roles(g.state, g.orders, "usa")
    assert r.ahq == "usa-slocum"  # the most senior CHQ on the map leads the army
    assert r.chq["XII"] == "usa-williams"  # and his successor his corps (4.61)


def test_temporary_ahq_is_the_senior_chq_on_the_map(tmp_path: Path) -> None:
    arrival = {"time": "20:00", "side": "usa", "entry": "Baltimore Pike", "hex": "L1",
               "units": ["usa-meade", "usa-slocum"], "designed": True, "basis": "test"}
    g = make(tmp_path, {"usa": [("K5", ["usa-howard"]), ("K6", ["usa-reynolds"])],
                        "csa": [FAR]}, arrivals=[arrival])
    assert roles(g.state, g.orders, "usa").ahq == "usa-reynolds"  # rank 3 beats rank 4


def hancock_game(tmp: Path, options: list[str]) -> BocGame:
    arrival = {"time": "night", "side": "usa", "entry": "Taneytown Road",
               "units": ["usa-hancock"], "designed": True, "basis": "test", "day": 1}
    board = board_doc(hexes={"T5": {"entries": ["Taneytown Road"]}})
    return make(tmp, {"usa": [("K5", ["usa-reynolds"]), ("K6", ["usa-doubleday"]),
                              ("K8", ["usa-howard"])], "csa": [FAR]},
                arrivals=[arrival], board=board, options=options, day=1, start="10:00",
                end="20:00", bands=(10, 4))


def test_hancock_option(tmp_path: Path) -> None:
    g = hancock_game(tmp_path, ["hancock"])
    assert not [a for a in g.legal_actions("usa") if a["type"] == "hancock"]
    eliminate(g.state, g.orders, g.state.units["usa-reynolds"], "test", "sniper")
    assert roles(g.state, g.orders, "usa").chq["I"] == "usa-doubleday"
    assert roles(g.state, g.orders, "usa").ahq == "usa-howard"
    acts = [a for a in g.legal_actions("usa") if a["type"] == "hancock"]
    assert acts == [{"type": "hancock", "corps": "I"}]
    g.apply(acts[0], "usa")
    h = g.state.units["usa-hancock"]
    assert h.arrival_key == turn_key(1, 14) and h.arrival_entry == "Taneytown Road"
    assert "hancock" not in g.view("csa")  # a private USA decision
    with pytest.raises(RuleError) as err:
        g.apply({"type": "hancock", "corps": "I"}, "usa")
    assert err.value.rule == "4.6"
    h.status, h.hex = "on_map", "T5"
    r = roles(g.state, g.orders, "usa")
    assert r.chq["I"] == "usa-hancock" and r.ahq == "usa-hancock"


def test_hancock_needs_the_option(tmp_path: Path) -> None:
    g = hancock_game(tmp_path, [])
    eliminate(g.state, g.orders, g.state.units["usa-reynolds"], "test", "sniper")
    assert not [a for a in g.legal_actions("usa") if a["type"] == "hancock"]
    with pytest.raises(RuleError) as err:
        g.apply({"type": "hancock", "corps": "I"}, "usa")
    assert err.value.rule == "4.6"


def test_trimble_replaces_fallen_pender(tmp_path: Path) -> None:
    g = make(tmp_path, {"usa": [("A1", ["usa-harrow"])],
                        "csa": [("K10", ["csa-pender", "csa-perrin"]), ("L11", ["csa-hill"])]},
             engine={"phase": "melee", "active": "csa", "order": ["csa", "usa"]})
    assert "csa-trimble" not in g.state.units
    eliminate(g.state, g.orders, g.state.units["csa-pender"], "test", "mortally wounded")
    g.apply({"type": "end_phase"}, "csa")  # melee -> supply: 4.61 rebuild
    trimble = g.state.units["csa-trimble"]
    assert (trimble.status, trimble.hex, trimble.strength) == ("on_map", "L11", 0)
    assert g.state.units["csa-pender"].status == "eliminated"
    assert g.state.losses["csa"] == 1
    assert commanded_units(g.board, g.state, g.orders, "csa-trimble") == ["csa-perrin"]
    assert can_command(g.orders, g.orders.oob["csa-trimble"], g.orders.oob["csa-perrin"])


def test_williams_takes_over_a_fallen_slocum_4_6_box(tmp_path: Path) -> None:
    """The 4.6 seniority box's own example: with Slocum fallen, DHQ Williams runs XII Corps
    (4.61): he still commands fire for his own division only, supplies the whole corps
    (Geary's DHQ included) and is himself supplied by the AHQ alone."""
    g = make(tmp_path, {"usa": [("K3", [("usa-williams", 2), ("usa-mcdougall", 2)]),
                                ("J4", [("usa-geary", 1), ("usa-kane", 1)]),
                                ("L4", [("usa-meade", 2)]), ("M5", [("usa-hancock", 2)])],
                        "csa": [FAR]},
             eliminated=[{"unit": "usa-slocum", "counts_for": "csa"}])
    assert roles(g.state, g.orders, "usa").chq["XII"] == "usa-williams"
    assert commanded_units(g.board, g.state, g.orders, "usa-williams") == ["usa-mcdougall"]
    o = g.orders.oob
    williams = supply_roles(g.state, g.orders, "usa-williams")
    assert ("chq", "XII") in williams
    assert may_supply(g.orders, williams, o["usa-williams"], o["usa-geary"])
    assert may_supply(g.orders, williams, o["usa-williams"], o["usa-kane"])
    for hq, ok in (("usa-meade", True), ("usa-hancock", False), ("usa-geary", False)):
        got = may_supply(g.orders, supply_roles(g.state, g.orders, hq), o[hq],
                         o["usa-williams"])
        assert got is ok, hq


def test_day2_note_doubleday_is_also_the_i_corps_chq(tmp_path: Path) -> None:
    """Day 2 / Day 3 set-up note (4.61): Doubleday commands fire for his own division only
    (plus the I Corps asset, 4.4) but may supply any I Corps unit, Robinson's DHQ included,
    with his own small supply value; only the AHQ supplies him."""
    setup = {"usa": [("L5", [("usa-doubleday", 2), ("usa-stannard", 3)]),
                     ("L4", [("usa-robinson", 1), ("usa-paul", 2)]),
                     ("L6", [("usa-wainwright", 2)]), ("M6", [("usa-meade", 2)]),
                     ("M5", [("usa-hancock", 2)])],
             "csa": [FAR]}
    kw: dict[str, Any] = {
        "acting": [{"unit": "usa-doubleday", "role": "chq", "corps": "I", "note": "test"}],
        "eliminated": [{"unit": "usa-reynolds", "counts_for": "csa"}]}
    g = make(tmp_path, setup, **kw)
    assert roles(g.state, g.orders, "usa").chq["I"] == "usa-doubleday"
    assert commanded_units(g.board, g.state, g.orders, "usa-doubleday") == \
        ["usa-stannard", "usa-wainwright"]  # not Paul (Robinson's division)
    o = g.orders.oob
    for hq, ok in (("usa-meade", True), ("usa-hancock", False), ("usa-robinson", False)):
        got = may_supply(g.orders, supply_roles(g.state, g.orders, hq), o[hq],
                         o["usa-doubleday"])
        assert got is ok, hq
    s = make(tmp_path, setup, name="supply",
             engine={"phase": "supply", "active": "usa", "order": ["usa", "csa"]}, **kw)
    s.apply({"type": "supply_activate", "hq": "usa-doubleday"}, "usa")
    assert s.state.supply_points == {"usa-doubleday": 1}  # his range: 1 SP
    targets = {a["unit"] for a in s.legal_actions("usa") if a["type"] == "supply"}
    assert targets == {"usa-paul", "usa-robinson", "usa-stannard", "usa-wainwright"}
    s.apply({"type": "supply", "hq": "usa-doubleday", "unit": "usa-robinson", "steps": 1},
            "usa")
    assert s.state.units["usa-robinson"].strength == 2


def test_temporary_ahq_supplies_a_chq_with_its_own_value(tmp_path: Path) -> None:
    """4.6: before Meade arrives the senior CHQ on the map has the AHQ's powers (it may add
    a step to another CHQ, 8.2) with its own command range and supply value."""
    arrival = {"time": "20:00", "side": "usa", "entry": "Baltimore Pike", "hex": "L1",
               "units": ["usa-meade"], "designed": True, "basis": "test"}
    g = make(tmp_path, {"usa": [("K5", [("usa-howard", 2)]), ("K6", [("usa-sickles", 1)])],
                        "csa": [FAR]}, arrivals=[arrival],
             engine={"phase": "supply", "active": "usa", "order": ["usa", "csa"]})
    assert roles(g.state, g.orders, "usa").ahq == "usa-howard"  # rank 4 beats Sickles' 6
    g.apply({"type": "supply_activate", "hq": "usa-howard"}, "usa")
    assert g.state.supply_points == {"usa-howard": 2}  # Howard's own value, not Meade's 3
    g.apply({"type": "supply", "hq": "usa-howard", "unit": "usa-sickles", "steps": 1}, "usa")
    assert g.state.units["usa-sickles"].strength == 2
    o = g.orders.oob  # a CHQ that is not the acting AHQ never supplies another CHQ
    assert not may_supply(g.orders, supply_roles(g.state, g.orders, "usa-sickles"),
                          o["usa-sickles"], o["usa-howard"])
