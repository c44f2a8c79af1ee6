"""A GBACW game by e-mail (issue 54): `gettysburg game new/legal/apply/replay` on save files
round-trips. Each move goes through the file (written, read back, applied, written again),
the replay verifies every state hash, and the file's game is the one played in memory with
the same seed and actions, byte for byte."""

from __future__ import annotations

import json
import random
from pathlib import Path

from typer.testing import CliRunner

from gettysburg.cli import app
from gettysburg.core import savefile
from gettysburg.core.canonical import canonical_json
from gettysburg.core.protocol import load_game, new_game

runner = CliRunner()
SPEC = "gbacw/herr-ridge"
MOVES = 15


def _run(*args: str) -> str:
    res = runner.invoke(app, list(args))
    assert res.exit_code == 0, res.output
    return res.stdout


def test_a_gbacw_save_round_trips_through_the_pbem_commands(tmp_path: Path) -> None:
    save = tmp_path / "herr-ridge.json"
    _run("game", "new", SPEC, "--out", str(save), "--seed", "11")
    rng, played = random.Random(11), []
    for _ in range(MOVES):
        legal = json.loads(_run("game", "legal", str(save), "--json"))
        assert legal, "the game ended before its moves"
        action = rng.choice(legal)
        played.append(action)
        _run("game", "apply", str(save), json.dumps(action), "--out", str(save))
    assert f"{MOVES} moves verified" in _run("game", "replay", str(save))
    from_file = savefile.replay(savefile.load(save), verify=True)
    direct = new_game(SPEC, seed="11")
    for action in played:
        direct.apply(action, direct.to_move()[0])
    assert from_file.state_hash() == direct.state_hash()
    assert canonical_json(from_file.view("usa")) == canonical_json(direct.view("usa"))
    # the save written again from the replayed game is the file; the state's JSON too
    assert canonical_json(savefile.save(from_file)) == canonical_json(
        json.loads(save.read_text("utf-8")))
    assert load_game(from_file.to_json()).state_hash() == direct.state_hash()


def test_a_tampered_gbacw_save_is_refused_by_replay(tmp_path: Path) -> None:
    save = tmp_path / "g.json"
    _run("game", "new", SPEC, "--out", str(save), "--seed", "12")
    legal = json.loads(_run("game", "legal", str(save), "--json"))
    _run("game", "apply", str(save), json.dumps(legal[0]), "--out", str(save))
    data = json.loads(save.read_text("utf-8"))
    other = next(a for a in legal[1:] if a != legal[0])
    data["moves"][0]["action"] = other  # another legal move under the recorded hashes
    save.write_text(json.dumps(data), encoding="utf-8")
    res = runner.invoke(app, ["game", "replay", str(save)])
    assert res.exit_code != 0
