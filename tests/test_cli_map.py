"""The map commands of the CLI: JSON on stdout, clear errors with a non-zero exit."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

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
    # A name no system is registered under (gbacw is registered now, issue 52).
    code, _, err = run("map", "render", "--system", "nosuch", "--out", str(out))
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


def test_map_commands_take_a_system_from_the_registry(tmp_path: Path) -> None:
    """``--system`` names any registered system; without it the first with a map answers
    (the old commands keep working); a system without the hook, an unknown one, or an id
    the system's map does not have is a clear error, exit 2."""
    code, out, _ = run("inspect", "hex", "J6", "--system", "boc", "--json")
    assert code == 0 and json.loads(out)["id"] == "J6"
    code, out2, _ = run("inspect", "hex", "J6", "--json")
    assert code == 0 and out2 == out
    code, out, _ = run("inspect", "cone", "Q10", "R11", "--system", "boc", "--json")
    assert code == 0 and len(json.loads(out)["targets"]) == 7
    from gettysburg import systems

    asks = [["inspect", "hex", "J6"], ["inspect", "cone", "Q10", "R11"],
            ["inspect", "los", "Q10", "S13"], ["map", "build"]]
    if systems.get("toy").map_json is None:  # with a map JSON it is drawn plainly
        asks.append(["map", "render", "--out", str(tmp_path / "t.svg")])
    for args in asks:
        code, out, err = run(*args, "--system", "toy")
        assert code == 2 and out == "" and "'toy'" in err and "no map" in err, (args, err)
        code, out, err = run(*args, "--system", "nosuch")
        assert code == 2 and "unknown system 'nosuch'" in err, (args, err)
    code, _, err = run("inspect", "hex", "Q10", "--system", "boc", "--json")
    assert code == 0
    code, _, err = run("inspect", "hex", "B3413", "--system", "boc", "--json")
    assert code == 2 and "B3413" in json.loads(err)["error"]
    code, _, err = run("map", "render", "--system", "boc", "--sheet", "C",
                       "--out", str(tmp_path / "c.svg"))
    assert code == 2 and "one sheet" in err and not (tmp_path / "c.svg").exists()


def test_a_system_with_only_a_map_json_is_drawn_plainly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A system that declares a map JSON and no drawing of its own: ``map render`` draws
    it with the core's plain renderer, either topology, one sheet at a time."""
    import dataclasses

    from gettysburg import systems

    corners = [[10, 0], [5, 8.66], [-5, 8.66], [-10, 0], [-5, -8.66], [5, -8.66]]
    hexes: dict[str, Any] = {
        "topology": "hex", "layout": {"corners": corners},
        "hexes": [{"id": "A0101", "xy": [0, 0], "sheet": "A", "terrain": "woods"},
                  {"id": "B0101", "xy": [15, 8.66], "sheet": "B", "victory": 1}],
        "hexsides": [{"a": "A0101", "b": "B0101", "seg": [[5, 8.66], [10, 0]],
                      "terrain": ["creek"]}]}
    graph: dict[str, Any] = {"topology": "graph",
             "positions": [{"id": "cem", "name": "Cemetery Hill", "xy": [0, 0]},
                           {"id": "culp", "name": "Culp's Hill", "xy": [800, 100]}],
             "links": [{"a": "cem", "b": "culp", "kind": "road"}]}
    toy = systems.get("toy")
    def serving(doc: dict[str, Any]) -> Any:
        return dataclasses.replace(toy, map_json=lambda: doc)

    for doc in (hexes, graph):
        monkeypatch.setitem(systems._loaded, "toy", serving(doc))
        out = tmp_path / f"{doc['topology']}.svg"
        code, _, err = run("map", "render", "--system", "toy", "--out", str(out))
        assert code == 0, err
        svg = out.read_text()
        assert "<svg" in svg and ("A0101" in svg or "Cemetery Hill" in svg)
    monkeypatch.setitem(systems._loaded, "toy", serving(hexes))
    out = tmp_path / "a.svg"
    code, _, err = run("map", "render", "--system", "toy", "--sheet", "A", "--out", str(out))
    assert code == 0 and "A0101" in out.read_text() and "B0101" not in out.read_text()
    code, _, err = run("map", "render", "--system", "toy", "--sheet", "Z", "--out", str(out))
    assert code == 2 and "no hex" in err and "'Z'" in err
    broken = {**hexes, "hexes": [{"id": "A0101"}]}
    monkeypatch.setitem(systems._loaded, "toy", serving(broken))
    code, _, err = run("map", "render", "--system", "toy", "--out", str(out))
    assert code == 2 and "'xy'" in err
