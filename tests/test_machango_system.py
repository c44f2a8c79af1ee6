"""Mundo Machango's declaration: what the outer layers will read once it is registered."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from gettysburg import systems
from gettysburg.cli import app as cli_app
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


@pytest.fixture
def registered(monkeypatch: pytest.MonkeyPatch) -> None:
    """The registry with the one line that would add the system (the lead's call)."""
    monkeypatch.setitem(systems._DECLARATIONS, "machango", "gettysburg.machango.system")
    monkeypatch.delitem(systems._loaded, "machango", raising=False)


def test_once_registered_the_cli_shows_the_set_up_and_draws_the_board(
        registered: None, tmp_path: Path) -> None:
    runner = CliRunner()
    shown = runner.invoke(cli_app, ["scenario", "show", "machango/campaign"])
    assert shown.exit_code == 0, shown.output
    assert "Stevens' Knoll" in shown.output and "6 command cards" in shown.output
    out = tmp_path / "board.svg"
    drawn = runner.invoke(cli_app, ["map", "render", "--system", "machango", "--out", str(out)])
    assert drawn.exit_code == 0, drawn.output
    assert "Herr Ridge" in out.read_text(encoding="utf-8")
    save = tmp_path / "game.json"
    new = runner.invoke(cli_app, ["game", "new", "machango/campaign", "--out", str(save)])
    assert new.exit_code == 0, new.output
    legal = runner.invoke(cli_app, ["game", "legal", str(save)])
    assert legal.exit_code == 0 and "compose" in legal.output
