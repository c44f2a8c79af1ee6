"""Mundo Machango's declaration: what the outer layers will read once it is registered."""

from __future__ import annotations

from gettysburg.core.mapjson import map_problem
from gettysburg.core.protocol import get_system
from gettysburg.machango.game import MachangoGame
from gettysburg.machango.system import SYSTEM, scenario_doc, scenario_text


def test_declaration_names_seats_scenarios_and_options() -> None:
    assert SYSTEM.name == "machango" and list(SYSTEM.seats) == ["usa", "csa"]
    menu = SYSTEM.menu()
    assert "campaign" in menu.scenarios and "lrt_star" in menu.options
    assert get_system("machango").factory is MachangoGame


def test_map_json_is_a_graph_map() -> None:
    assert SYSTEM.map_json is not None
    doc = SYSTEM.map_json()
    assert map_problem(doc) is None and doc["topology"] == "graph"
    assert {p["id"] for p in doc["positions"]} >= {"the_angle", "gettysburg", "herr_ridge"}


def test_scenario_show_prints_the_set_up_with_lines_and_cards() -> None:
    doc = scenario_doc("campaign")
    assert doc["usa"]["cards"] == 6 and doc["csa"]["cards"] == 5
    assert len(doc["usa"]["divisions"]) == 6 and len(doc["csa"]["divisions"]) == 9
    text = scenario_text(doc)
    for name in ("The Angle", "Cemetery Hill", "Culp's Hill", "Stevens' Knoll", "Gettysburg",
                 "McPherson's Ridge", "Herr Ridge", "6 command cards", "5 command cards"):
        assert name in text


def test_map_build_hook_rederives_the_stored_board() -> None:
    assert SYSTEM.maps.build is not None
    built = SYSTEM.maps.build()
    assert built.text == built.path.read_text(encoding="utf-8")
    assert built.summary.startswith("60 positions")
