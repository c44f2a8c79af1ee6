"""Checkpoints of lab games in play: an interrupted game goes on and ends as it would have."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import gettysburg.ai.agent as agent_module
import gettysburg.lab.simulate as sim
from gettysburg.ai.random_agent import RandomAgent
from gettysburg.cli import app
from gettysburg.lab import checkpoint
from gettysburg.lab.simulate import GameSpec, make_specs, play_game, spec_key
from gettysburg.lab.store import read_rows


def _stable(row: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in row.items() if k != "seconds"}


class _Stop(BaseException):
    """Stands in for Ctrl-C or a killed run (no ``Exception``: play_game must not catch
    it as an agent's or the engine's error)."""


def _stop_after_saves(monkeypatch: pytest.MonkeyPatch, saves: int) -> list[int]:
    """Save at every turn, and stop the game in play right after its ``saves``-th save;
    returns the actions played at each save."""
    monkeypatch.setattr(checkpoint, "EVERY_S", 0.0)
    real, at = checkpoint.save, []

    def saving(path: Path, state: checkpoint.InPlay) -> bool:
        assert real(path, state)
        at.append(state.actions)
        if len(at) == saves:
            raise _Stop
        return True

    monkeypatch.setattr(checkpoint, "save", saving)
    return at


def _resumed_from(monkeypatch: pytest.MonkeyPatch) -> list[int | None]:
    """Record what each ``checkpoint.load`` gave: the actions already played, or None."""
    real, got = checkpoint.load, []

    def loading(path: Path, key: str) -> checkpoint.InPlay | None:
        state = real(path, key)
        got.append(None if state is None else state.actions)
        return state

    monkeypatch.setattr(checkpoint, "load", loading)
    return got


@pytest.mark.parametrize(("scenario", "agents", "actions"), [
    ("toy/standard", {"red": "search", "blue": "general"}, 20000),
    # The general's memory of what it saw, and the BoC engine mid-turn, survive the pickle.
    ("boc/day1", {"usa": "general", "csa": "general"}, 600),
])
def test_a_game_resumed_from_its_checkpoint_ends_as_it_would_have(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, scenario: str,
        agents: dict[str, str], actions: int) -> None:
    spec = make_specs(scenario, 1, agents, seed=11, max_actions=actions, budget_s=0.05)[0]
    whole = play_game(spec)
    at = _stop_after_saves(monkeypatch, 3)
    with pytest.raises(_Stop):
        play_game(spec, checkpoints=tmp_path)
    saved = checkpoint.path_for(tmp_path, spec_key(spec))
    assert saved.exists() and at[-1] > 0
    monkeypatch.undo()
    got = _resumed_from(monkeypatch)
    again = play_game(spec, checkpoints=tmp_path, resume=True)
    assert got == [at[-1]]  # it went on from the third save, not from the start
    assert _stable(again) == _stable(whole)
    assert not saved.exists()  # the row holds the game now


def test_without_resume_a_checkpoint_is_not_read(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    spec = make_specs("toy/standard", 1, {"red": "random", "blue": "general"}, seed=2)[0]
    _stop_after_saves(monkeypatch, 2)
    with pytest.raises(_Stop):
        play_game(spec, checkpoints=tmp_path)
    monkeypatch.undo()
    got = _resumed_from(monkeypatch)
    row = play_game(spec, checkpoints=tmp_path)
    assert got == [] and _stable(row) == _stable(play_game(spec))


def test_a_checkpoint_of_another_game_other_code_or_torn_is_ignored(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spec, other = make_specs("toy/standard", 2, {"red": "random", "blue": "general"}, seed=4)
    whole = play_game(spec)
    saved = checkpoint.path_for(tmp_path, spec_key(spec))
    _stop_after_saves(monkeypatch, 1)
    with pytest.raises(_Stop):
        play_game(other, checkpoints=tmp_path)
    monkeypatch.undo()
    theirs = checkpoint.path_for(tmp_path, spec_key(other)).read_bytes()
    got = _resumed_from(monkeypatch)
    for planted in (theirs, theirs[: len(theirs) // 2], b"not a pickle"):
        saved.write_bytes(planted)  # another game's state under this game's name; torn
        assert _stable(play_game(spec, checkpoints=tmp_path, resume=True)) == _stable(whole)
    assert got == [None, None, None]
    state = checkpoint.load(checkpoint.path_for(tmp_path, spec_key(other)), spec_key(other))
    assert state is not None
    state.code = "written by other code"
    monkeypatch.setattr(checkpoint, "code_fingerprint", lambda: "this code")
    checkpoint.path_for(tmp_path, spec_key(other)).write_bytes(
        __import__("pickle").dumps(state))
    assert checkpoint.load(checkpoint.path_for(tmp_path, spec_key(other)),
                           spec_key(other)) is None


class _Unpicklable(RandomAgent):
    """An agent holding a lambda: it does not pickle, so its games are not checkpointed."""

    name = "random-unpicklable"

    def __init__(self) -> None:
        super().__init__()
        self.note = lambda: None


def _unpicklable(seed: str) -> _Unpicklable:
    return _Unpicklable()


def test_a_game_that_will_not_pickle_plays_on_without_checkpoints(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Registered for this test only: other tests list the registry.
    monkeypatch.setitem(agent_module._AGENTS, "random-unpicklable", _unpicklable)
    monkeypatch.setattr(checkpoint, "EVERY_S", 0.0)
    spec = GameSpec("toy/standard", "5", {"red": "random-unpicklable", "blue": "general"})
    row = play_game(spec, checkpoints=tmp_path)
    assert row["finished"] and row["error"] is None
    assert list(tmp_path.iterdir()) == []


def test_a_save_that_fails_later_leaves_no_checkpoint_behind(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game saved once, whose next save fails (a full disk), plays on unsaved, and its
    first checkpoint goes when its row is made."""
    monkeypatch.setattr(checkpoint, "EVERY_S", 0.0)
    real, calls = checkpoint.save, []

    def first_only(path: Path, state: checkpoint.InPlay) -> bool:
        calls.append(state.actions)
        return real(path, state) if len(calls) == 1 else False

    monkeypatch.setattr(checkpoint, "save", first_only)
    spec = GameSpec("toy/standard", "5", {"red": "general", "blue": "general"})
    row = play_game(spec, checkpoints=tmp_path)
    assert row["finished"] and row["error"] is None
    assert len(calls) == 2  # no more tries after the failure
    assert list(tmp_path.iterdir()) == []


def test_cli_simulate_resume_goes_on_from_the_game_in_play(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Interrupted in the middle of its second game, a run keeps its first game's row and
    the second game's checkpoint beside --out; --resume finishes that game from there."""
    out, whole = tmp_path / "runs.jsonl", tmp_path / "whole.jsonl"
    args = ["simulate", "boc/day1", "--games", "2", "--usa", "general", "--csa", "random",
            "--seed", "3", "--max-actions", "300", "--json"]
    runner = CliRunner()
    assert runner.invoke(app, [*args, "--out", str(whole)]).exit_code == 0
    real_play = sim.play_game
    specs = make_specs("boc/day1", 2, {"usa": "general", "csa": "random"}, seed=3,
                       max_actions=300)

    def second_stops(spec: GameSpec, *a: Any, **kw: Any) -> dict[str, Any]:
        if spec.index == 1:
            _stop_after_saves(monkeypatch, 2)
        return real_play(spec, *a, **kw)

    monkeypatch.setattr(sim, "play_game", second_stops)
    with pytest.raises(_Stop):  # CliRunner hands back what the command raised
        runner.invoke(app, [*args, "--out", str(out)], catch_exceptions=False)
    monkeypatch.undo()
    folder = out.with_name(out.name + ".checkpoints")
    assert [p.name for p in folder.iterdir()] == \
        [checkpoint.path_for(folder, spec_key(specs[1])).name]
    assert [r["index"] for r in read_rows(out)] == [0]
    got = _resumed_from(monkeypatch)
    res = runner.invoke(app, [*args, "--out", str(out), "--resume"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["games"] == 2
    assert len(got) == 1 and got[0] is not None and got[0] > 0
    assert [_stable(r) for r in read_rows(out)] == [_stable(r) for r in read_rows(whole)]
    assert list(folder.iterdir()) == []


def test_cli_interrupt_names_the_checkpoints(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "runs.jsonl"

    def interrupted(*a: Any, **kw: Any) -> Any:
        assert kw["checkpoints"] == out.with_name("runs.jsonl.checkpoints")
        raise KeyboardInterrupt

    monkeypatch.setattr(sim, "run_local", interrupted)
    res = CliRunner().invoke(app, ["simulate", "toy/standard", "--out", str(out)])
    assert res.exit_code == 130
    assert "runs.jsonl.checkpoints" in res.output.replace("\n", "")


def test_the_fingerprint_follows_what_plays_a_game_and_not_the_server(tmp_path: Path) -> None:
    """A checkpoint stays valid when only the server, its web assets or the command line
    change, and is dropped when the rules, the agents or the data do."""
    root = tmp_path / "pkg"
    for rel, text in {"__init__.py": "", "ai/search.py": "A = 1\n",
                      "boc/data/units.yaml": "- a\n", "server/static/app.js": "x()\n",
                      "server/app.py": "", "cli/main.py": ""}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    before = checkpoint.fingerprint_of(root)
    for rel in ("server/static/app.js", "server/app.py", "cli/main.py"):
        (root / rel).write_text("changed()\n")
    (root / "server/static/__pycache__").mkdir()
    assert checkpoint.fingerprint_of(root) == before
    for rel in ("ai/search.py", "boc/data/units.yaml"):
        kept = (root / rel).read_text()
        (root / rel).write_text(kept + "# edited\n")
        assert checkpoint.fingerprint_of(root) != before, rel
        (root / rel).write_text(kept)
    assert checkpoint.fingerprint_of(root) == before
    (root / "ai/new_module.py").write_text("")
    assert checkpoint.fingerprint_of(root) != before
