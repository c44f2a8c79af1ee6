"""The map commands of the CLI: JSON on stdout, clear errors with a non-zero exit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gettysburg.cli import app

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    r = runner.invoke(app, list(args))
    return r.exit_code, r.stdout, r.stderr


def test_inspect_cone_q10_r11_lists_the_seven_targets() -> None:
    code, out, _ = run("inspect", "cone", "Q10", "R11", "--json")
    assert code == 0
    assert sorted(json.loads(out)["targets"]) == ["R11", "R12", "S11", "S12", "S13", "T12", "T13"]


def test_inspect_los_verdicts_and_reason() -> None:
    code, out, _ = run("inspect", "los", "Q10", "S13", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["visible"] is False and "5.33" in doc["reason"]
    assert doc["blocked_by"]
    code, out, _ = run("inspect", "los", "Q10", "S12", "--json")
    doc = json.loads(out)
    assert doc["visible"] is True and doc["target_double_defence"] is True


def test_inspect_hex_reports_terrain_and_six_hexsides() -> None:
    code, out, _ = run("inspect", "hex", "J6", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["id"] == "J6" and doc["victory"] == 2
    assert len(doc["hexsides"]) == 6


def test_bad_ids_fail_cleanly() -> None:
    for args in (["inspect", "hex", "ZZ99"], ["inspect", "hex", "Q0"],
                 ["inspect", "cone", "Q10", "S12"], ["inspect", "los", "Q10", "nope"],
                 ["inspect", "los", "Q10", "S13", "--through", "A1"],
                 ["inspect", "los", "Q10", "S13", "--through", "Q10"]):
        code, out, err = run(*args, "--json")
        assert code == 2, args
        assert "error" in json.loads(err)
        assert out == ""
        # Without --json the error is a line of text, not JSON.
        code, out, err = run(*args)
        assert code == 2 and out == "" and err.startswith("error: "), (args, err)
        assert not err[len("error: "):].startswith("{"), err


def test_map_render_writes_svg_and_png(tmp_path: Path) -> None:
    for name in ("m.svg", "m.png"):
        code, _, _ = run("map", "render", "--system", "boc", "--out", str(tmp_path / name))
        assert code == 0
        assert (tmp_path / name).stat().st_size > 10_000
    svg = (tmp_path / "m.svg").read_text()
    assert "<svg" in svg and "Q10" in svg
    code, _, err = run("map", "render", "--out", str(tmp_path / "m.gif"))
    assert code == 2 and ".svg or .png" in err


def test_map_render_ground_draws_the_battlefield_model(tmp_path: Path) -> None:
    out = tmp_path / "ground.svg"
    code, _, _ = run("map", "render", "--system", "ground", "--out", str(out))
    assert code == 0
    svg = out.read_text()
    assert "Culp" in svg and "Little Round Top" in svg and "Gettysburg" in svg
    code, _, err = run("map", "render", "--system", "gbacw", "--out", str(out))
    assert code == 2 and "unknown system" in err


def test_inspect_text_output_is_readable() -> None:
    """Without ``--json`` each field is a line, its value written as JSON (no Python
    reprs)."""
    code, out, _ = run("inspect", "los", "Q10", "S12")
    assert code == 0 and "visible: true" in out and "False" not in out and "'" not in out


def test_map_build_leaves_an_up_to_date_board_alone(tmp_path: Path) -> None:
    from gettysburg.boc.board import board_path

    if not board_path().exists():
        pytest.skip("boc/data/board.json is missing")
    target = tmp_path / "board.json"
    code, out, _ = run("map", "build", "--out", str(target))
    assert code == 0 and "unchanged" not in out
    assert target.read_text() == board_path().read_text()  # the package's board is current
    before = target.stat().st_mtime_ns
    code, out, _ = run("map", "build", "--out", str(target))
    assert code == 0 and "unchanged, not rewritten" in out
    assert target.stat().st_mtime_ns == before
    target.write_text("{}")  # a stale board is rewritten
    code, out, _ = run("map", "build", "--out", str(target))
    assert code == 0 and target.read_text() == board_path().read_text()
