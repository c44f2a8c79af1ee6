"""BoC supply (8.x) by day and by night."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from boc_engine_boards import write_position
from gettysburg.boc.game import BocGame
from gettysburg.core.dice import ScriptedDice
from gettysburg.core.protocol import RuleError


def make(tmp: Path, setup: dict[str, list[tuple[str, list[Any]]]], **kw: Any) -> BocGame:
    engine = {"phase": "supply", "active": "usa", "order": ["usa", "csa"],
              **kw.pop("engine", {})}
    path = write_position(tmp, setup, engine=engine, **kw)
    return BocGame(path, [], 0, ScriptedDice([]))


FAR = ("A14", ["csa-kemper"])


def test_meade_supply_example_8_0(tmp_path: Path) -> None:
    g = make(tmp_path, {"usa": [("L4", [("usa-meade", 1)]), ("M5", [("usa-hancock", 2)]),
                                ("L3", [("usa-slocum", 1)]), ("M6", [("usa-gibbon", 1)])],
                        "csa": [FAR]})
    g.apply({"type": "supply_activate", "hq": "usa-meade"}, "usa")
    meade = g.state.units["usa-meade"]
    assert meade.strength == 0 and g.state.supply_points["usa-meade"] == 3
    for unit in ("usa-hancock", "usa-slocum", "usa-gibbon"):
        g.apply({"type": "supply", "hq": "usa-meade", "unit": unit, "steps": 1}, "usa")
    s = g.state.units
    assert (s["usa-hancock"].strength, s["usa-slocum"].strength, s["usa-gibbon"].strength) \
        == (3, 2, 2)
    assert g.state.supply_points["usa-meade"] == 0
    assert not [a for a in g.legal_actions("usa") if a["type"] == "supply"]
    g.apply({"type": "end_phase"}, "usa")
    g.state.phase, g.state.active = "supply", "usa"  # a later supply phase that day
    assert not [a for a in g.legal_actions("usa")
                if a["type"] == "supply_activate" and a["hq"] == "usa-meade"]
    with pytest.raises(RuleError) as err:
        g.apply({"type": "supply_activate", "hq": "usa-meade"}, "usa")
    assert err.value.rule == "8.1"


def test_day_supply_limits(tmp_path: Path) -> None:
    g = make(tmp_path, {"usa": [("L4", ["usa-meade"]), ("M5", [("usa-hancock", 2)]),
                                ("M6", [("usa-gibbon", 2), ("usa-harrow", 1), ("usa-cross", 1),
                                        ("usa-hays", 1)])],
                        "csa": [FAR]})
    g.apply({"type": "supply_activate", "hq": "usa-gibbon"}, "usa")
    g.apply({"type": "supply_activate", "hq": "usa-hancock"}, "usa")
    legal = {(a["hq"], a["unit"]) for a in g.legal_actions("usa") if a["type"] == "supply"}
    assert ("usa-gibbon", "usa-harrow") in legal
    assert ("usa-gibbon", "usa-cross") not in legal  # not his division
    assert ("usa-gibbon", "usa-hays") not in legal  # a DHQ never supplies a DHQ
    assert ("usa-hancock", "usa-hays") in legal  # the CHQ does
    assert ("usa-hancock", "usa-gibbon") not in legal  # active HQs receive nothing
    for hq, unit, rule in [("usa-gibbon", "usa-cross", "8.2"), ("usa-gibbon", "usa-hays", "8.2"),
                           ("usa-hancock", "usa-gibbon", "8.3")]:
        with pytest.raises(RuleError) as err:
            g.apply({"type": "supply", "hq": hq, "unit": unit, "steps": 1}, "usa")
        assert err.value.rule == rule
    g.apply({"type": "supply", "hq": "usa-gibbon", "unit": "usa-harrow", "steps": 1}, "usa")
    with pytest.raises(RuleError) as err:  # one step per unit per day supply phase
        g.apply({"type": "supply", "hq": "usa-hancock", "unit": "usa-harrow", "steps": 1}, "usa")
    assert err.value.rule == "8.3"
    with pytest.raises(RuleError) as err:
        g.apply({"type": "supply", "hq": "usa-hancock", "unit": "usa-cross", "steps": 2}, "usa")
    assert err.value.rule == "8.3"


def test_front_line_steps_cost_two(tmp_path: Path) -> None:
    g = make(tmp_path, {"usa": [("K5", [("usa-gibbon", 2), ("usa-harrow", 1)])],
                        "csa": [("K6", ["csa-kemper"])]})
    g.apply({"type": "supply_activate", "hq": "usa-gibbon"}, "usa")
    assert g.state.supply_points["usa-gibbon"] == 2
    g.apply({"type": "supply", "hq": "usa-gibbon", "unit": "usa-harrow", "steps": 1}, "usa")
    assert g.state.supply_points["usa-gibbon"] == 0


def test_ahq_only_rebuilt_at_night(tmp_path: Path) -> None:
    g = make(tmp_path, {"usa": [("L4", [("usa-meade", 1), ("usa-hunt", 2)])], "csa": [FAR]})
    g.apply({"type": "supply_activate", "hq": "usa-hunt"}, "usa")
    with pytest.raises(RuleError) as err:
        g.apply({"type": "supply", "hq": "usa-hunt", "unit": "usa-meade", "steps": 1}, "usa")
    assert err.value.rule == "8.2"


def night(tmp: Path, usa: list[tuple[str, list[Any]]], csa: list[tuple[str, list[Any]]],
          active: str = "usa") -> BocGame:
    return make(tmp, {"usa": usa, "csa": csa},
                engine={"hour": 21, "active": active, "order": [active, "usa" if active ==
                                                                 "csa" else "csa"]})


def test_night_supply_pool_and_several_steps(tmp_path: Path) -> None:
    g = night(tmp_path, [("K5", [("usa-harrow", 1), ("usa-meade", 0)])], [FAR])
    assert g.state.night_points == {"usa": 16}
    assert g.view("usa")["night_points"] == {"usa": 16} and g.view("csa")["night_points"] == {}
    acts = [a for a in g.legal_actions("usa") if a["type"] == "night_supply"]
    assert {"type": "night_supply", "unit": "usa-harrow", "steps": 2} in acts
    assert {"type": "night_supply", "unit": "usa-meade", "steps": 3} in acts  # AHQ at night
    g.apply({"type": "night_supply", "unit": "usa-harrow", "steps": 2}, "usa")
    g.apply({"type": "night_supply", "unit": "usa-meade", "steps": 3}, "usa")
    assert g.state.units["usa-harrow"].strength == 3 and g.state.night_points["usa"] == 11
    with pytest.raises(RuleError) as err:
        g.apply({"type": "supply_activate", "hq": "usa-meade"}, "usa")
    assert err.value.rule == "8.1"


def test_night_supply_pool_sizes(tmp_path: Path) -> None:
    g = night(tmp_path, [("K5", [("usa-harrow", 1)])], [("A14", [("csa-kemper", 1)])],
              active="csa")
    g.apply({"type": "end_phase"}, "csa")  # night supply -> usa's night movement
    g.apply({"type": "end_phase"}, "usa")  # -> usa's night supply phase
    assert g.state.night_points == {"usa": 16}


def test_night_supply_line_blocked(tmp_path: Path) -> None:
    g = night(tmp_path, [("A1", [("usa-harrow", 1)]), ("K5", [("usa-webb", 1)])],
              [("A3", ["csa-kemper"]), ("B3", ["csa-armistead"]), ("C1", ["csa-garnett-rb"]),
               ("C2", ["csa-pickett"]), ("C3", ["csa-dearing"])])
    g.state.night_points["usa"] = 16
    units = {a["unit"] for a in g.legal_actions("usa") if a["type"] == "night_supply"}
    assert units == {"usa-webb"}
    with pytest.raises(RuleError) as err:
        g.apply({"type": "night_supply", "unit": "usa-harrow", "steps": 1}, "usa")
    assert err.value.rule == "8.4" and "L1" in err.value.message


def test_supply_deploy_step_8_1(tmp_path: Path) -> None:
    """8.1: an HQ may first step into an adjacent friendly hex with room, and its range is
    then counted from there."""
    g = make(tmp_path, {"usa": [("K5", [("usa-gibbon", 2)]), ("K8", [("usa-harrow", 1)]),
                                ("K4", ["usa-webb", "usa-hall", "usa-hays", "usa-smyth"])],
                        "csa": [("A14", ["csa-kemper"]), ("I5", ["csa-armistead"])]})
    steps = {a.get("to") for a in g.legal_actions("usa")
             if a["type"] == "supply_activate" and a["hq"] == "usa-gibbon"}
    assert "K6" in steps and "K4" not in steps  # K4 is full
    assert "J5" not in steps  # next to both sides: neutral, and the step needs a friendly hex
    with pytest.raises(RuleError) as err:
        g.apply({"type": "supply_activate", "hq": "usa-gibbon", "to": "J5"}, "usa")
    assert err.value.rule == "8.1"
    g.apply({"type": "supply_activate", "hq": "usa-gibbon", "to": "K6"}, "usa")
    assert g.state.units["usa-gibbon"].hex == "K6"
    g.apply({"type": "supply", "hq": "usa-gibbon", "unit": "usa-harrow", "steps": 1}, "usa")
    assert g.state.units["usa-harrow"].strength == 2  # K8 is two hexes from K6


def test_command_and_supply_activation_each_cost_a_step(tmp_path: Path) -> None:
    """8.1 / 4.3: one HQ may be activated in the command and the supply phase of the same
    turn, paying a step each time."""
    g = make(tmp_path, {"usa": [("K5", [("usa-gibbon", 3), ("usa-harrow", 1)])],
                        "csa": [FAR]}, engine={"phase": "command"})
    g.apply({"type": "activate", "hq": "usa-gibbon"}, "usa")
    for _ in range(4):  # command, fire, movement, melee
        g.apply({"type": "end_phase"}, "usa")
    assert g.state.phase == "supply" and g.state.units["usa-gibbon"].strength == 2
    g.apply({"type": "supply_activate", "hq": "usa-gibbon"}, "usa")
    assert g.state.units["usa-gibbon"].strength == 1
    assert g.state.supply_points == {"usa-gibbon": 2}


def test_artillery_cavalry_hqs_and_corps_assets_8_2(tmp_path: Path) -> None:
    """4.24: the artillery HQ rebuilds any artillery (corps and reserve batteries) but not
    horse artillery, and only the AHQ rebuilds it; 4.25: the cavalry CHQ rebuilds cavalry
    and horse artillery; 4.4: a corps asset is rebuilt by its CHQ or the AHQ, never by a
    DHQ."""
    from gettysburg.boc.command import may_supply, supply_roles

    g = make(tmp_path, {"usa": [("L4", ["usa-meade", "usa-hunt", "usa-pleasonton"]),
                                ("M5", ["usa-hancock", "usa-gibbon"])],
                        "csa": [FAR]})
    o = g.orders.oob

    def supplies(hq: str, unit: str) -> bool:
        return may_supply(g.orders, supply_roles(g.state, g.orders, hq), o[hq], o[unit])

    assert supplies("usa-hunt", "usa-hazard") and supplies("usa-hunt", "usa-ransom")
    assert not supplies("usa-hunt", "usa-calef") and not supplies("usa-hunt", "usa-harrow")
    assert supplies("usa-pleasonton", "usa-calef") and supplies("usa-pleasonton", "usa-gamble")
    assert supplies("usa-pleasonton", "usa-buford")  # a cavalry DHQ of his corps
    assert supplies("usa-hancock", "usa-hazard") and not supplies("usa-gibbon", "usa-hazard")
    assert not supplies("usa-gibbon", "usa-ransom")  # reserve artillery: Hunt or the AHQ
    for hq in ("usa-hancock", "usa-pleasonton"):
        assert not supplies(hq, "usa-hunt")
    assert supplies("usa-meade", "usa-hunt") and supplies("usa-meade", "usa-pleasonton")
    assert not supplies("usa-hunt", "usa-pleasonton")


def test_day_supply_range_is_not_traced_through_enemy_hexes(tmp_path: Path) -> None:
    """8.3 / 4.5: the supplying HQ's range runs through friendly or neutral hexes only."""
    free = make(tmp_path, {"usa": [("K5", [("usa-gibbon", 2)]), ("K7", [("usa-harrow", 1)])],
                           "csa": [FAR]})
    free.apply({"type": "supply_activate", "hq": "usa-gibbon"}, "usa")
    free.apply({"type": "supply", "hq": "usa-gibbon", "unit": "usa-harrow", "steps": 1}, "usa")
    # K6 is the only hex between K5 and K7; an enemy block there makes it an enemy hex.
    blocked = make(tmp_path, {"usa": [("K5", [("usa-gibbon", 2)]), ("K7", [("usa-harrow", 1)])],
                              "csa": [("K6", ["csa-kemper"])]}, name="blocked")
    blocked.apply({"type": "supply_activate", "hq": "usa-gibbon"}, "usa")
    assert not [a for a in blocked.legal_actions("usa") if a["type"] == "supply"]
    with pytest.raises(RuleError) as err:
        blocked.apply({"type": "supply", "hq": "usa-gibbon", "unit": "usa-harrow", "steps": 1},
                      "usa")
    assert err.value.rule == "8.3" and "range" in err.value.message
