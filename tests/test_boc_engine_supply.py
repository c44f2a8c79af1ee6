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
