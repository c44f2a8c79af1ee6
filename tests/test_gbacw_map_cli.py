"""The map commands reach the GBACW sheets through the registry once the system is in it
(added here for the test only: there is no GBACW game yet)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gettysburg import systems
from gettysburg.cli import app as cli_app
from gettysburg.gbacw.system import SYSTEM


@pytest.fixture
def registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(systems._DECLARATIONS, "gbacw", "gettysburg.gbacw.system")
    monkeypatch.delitem(systems._loaded, "gbacw", raising=False)
    yield
    # Loaded while registered: forget it, so later tests see an unregistered system again.
    systems._loaded.pop("gbacw", None)


def test_the_declaration_has_map_hooks_and_is_in_the_lobby() -> None:
    # registered for the command line, and offered to players since issue 54
    assert SYSTEM.name == "gbacw" and SYSTEM.listed
    assert {"herr-ridge", "little-round-top"} <= set(SYSTEM.menu().scenarios)
    assert SYSTEM.maps.build and SYSTEM.maps.render and SYSTEM.maps.inspect_hex


def test_inspect_hex_prints_place_level_terrain_and_hexsides(registered: None) -> None:
    got = CliRunner().invoke(cli_app, ["inspect", "hex", "B3821", "--system", "gbacw", "--json"])
    assert got.exit_code == 0, got.output
    doc = json.loads(got.output)
    assert doc["id"] == "B3821" and doc["terrain"] == "town"
    lon, lat = doc["center"]
    assert abs(lon - -77.2311) < 0.002 and abs(lat - 39.8309) < 0.002  # the Diamond
    assert isinstance(doc["level"], int)
    assert len(doc["hexsides"]) == 6
    for side in doc["hexsides"]:
        assert {"to", "slope", "stream", "road", "roads", "wall"} <= set(side)
    roads = {r["class"] for s in doc["hexsides"] for r in s["roads"]}
    assert "pike" in roads  # the pikes meet at the Diamond


def test_an_alias_id_of_an_overlap_answers_with_the_printed_id(registered: None) -> None:
    got = CliRunner().invoke(cli_app, ["inspect", "hex", "C1016", "--system", "gbacw", "--json"])
    assert got.exit_code == 0, got.output
    assert json.loads(got.output)["id"] == "B7021"
    assert json.loads(got.output)["sheets"] == ["B", "C"]


def test_a_bad_hex_id_is_a_one_line_error(registered: None) -> None:
    got = CliRunner().invoke(cli_app, ["inspect", "hex", "B9950", "--system", "gbacw", "--json"])
    assert got.exit_code == 2
    assert "B9950" in json.loads(got.output)["error"]


def test_map_render_draws_one_sheet(registered: None, tmp_path: Path) -> None:
    out = tmp_path / "b.png"
    got = CliRunner().invoke(cli_app, ["map", "render", "--system", "gbacw", "--sheet", "B",
                                       "--out", str(out)])
    assert got.exit_code == 0, got.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 100_000
    bad = CliRunner().invoke(cli_app, ["map", "render", "--system", "gbacw", "--sheet", "D",
                                       "--out", str(tmp_path / "d.png")])
    assert bad.exit_code == 2 and "'D'" in bad.output


def test_map_build_prints_the_residuals_and_leaves_the_board(registered: None) -> None:
    got = CliRunner().invoke(cli_app, ["map", "build", "--system", "gbacw"])
    assert got.exit_code == 0, got.output
    assert "unchanged, not rewritten" in got.output
    assert "C2118 Little Round Top |" in got.output and "(0, 32) (kept)" in got.output


def test_the_registration_page_holds_the_printed_residuals() -> None:
    from gettysburg.gbacw.board import load_board

    page = (Path(__file__).resolve().parents[1] / "docs" / "gbacw-map-registration.md").read_text(
        encoding="utf-8")
    for name, metres in load_board().meta["registration_residuals_m"].items():
        assert f"{name} | {metres} |" in page, name
