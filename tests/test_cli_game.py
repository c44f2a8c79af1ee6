"""``gettysburg game`` on the toy system: what the play-by-e-mail commands refuse, and
what `show` prints for a system it has no special layout for."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from gettysburg.cli import app

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    r = runner.invoke(app, list(args))
    return r.exit_code, r.stdout, r.stderr


def test_new_never_replaces_a_save_unless_forced(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    assert run("game", "new", "toy/standard", "--out", str(save))[0] == 0
    code, _, _ = run("game", "apply", str(save), json.dumps({"type": "pass"}), "--out", str(save))
    assert code == 0
    played = save.read_bytes()
    code, _, err = run("game", "new", "toy/strong", "--out", str(save))
    assert code == 2 and "already exists" in err and "--force" in err
    assert save.read_bytes() == played  # the game in progress is untouched
    code, _, _ = run("game", "new", "toy/strong", "--out", str(save), "--force")
    assert code == 0 and json.loads(save.read_text())["scenario"] == "strong"


def test_commit_refuses_a_seat_the_game_lacks_and_writes_no_secret(tmp_path: Path) -> None:
    key = tmp_path / "blue.key"
    code, _, err = run("game", "commit", "--as", "blue", "--secret-out", str(key))
    assert code == 2 and "'blue' is not a seat of boc/day1" in err and "usa, csa" in err
    assert not key.exists()
    code, out, _ = run("game", "commit", "--as", "blue", "--secret-out", str(key),
                       "--scenario", "toy/standard")
    assert code == 0 and out.startswith("commitment for blue: ") and key.exists()
    code, _, err = run("game", "commit", "--as", "usa", "--secret-out", str(tmp_path / "k"),
                       "--scenario", "toy/nosuch")
    assert code == 2 and err.startswith("error: --scenario:") and "nosuch" in err


def test_show_prints_a_toy_game_as_its_seat_sees_it(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    run("game", "new", "toy/standard", "--out", str(save))
    code, out, _ = run("game", "show", str(save), "--as", "red")
    assert code == 0
    assert "None" not in out.splitlines()[0]  # no BoC header with empty fields
    assert "turn 1" in out and "active red" in out and "To move: red" in out
    lines = {line.split()[0]: line for line in out.splitlines() if line.startswith("  ")}
    assert "label Archer" in lines["r1"] and "strength 3" in lines["r1"]
    assert "label" not in lines["b1"] and "strength" not in lines["b1"]  # blue's are hidden
    code, out, _ = run("game", "show", str(save), "--as", "referee")
    assert "label Davis" in out


def test_a_scripted_game_asks_for_the_dice_of_an_action_that_rolls(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    run("game", "new", "toy/standard", "--scripted", "--out", str(save))
    before = save.read_bytes()
    attack = json.dumps({"type": "attack", "block": "r1"})  # Archer, strength 3: 3 dice
    code, _, err = run("game", "apply", str(save), attack, "--out", str(save))
    assert code == 2 and "give this action's dice with --dice" in err, err
    assert save.read_bytes() == before
    code, _, err = run("game", "apply", str(save), attack, "--out", str(save),
                       "--dice", "5,6,1")
    assert code == 0, err
    assert json.loads(save.read_text())["dice"]["values"] == [5, 6, 1]


def test_every_command_line_option_and_argument_says_what_it_is() -> None:
    """`--help` lists each option and argument with a line of help (none bare)."""
    import typer

    bare: list[str] = []
    seen = 0

    def walk(command: Any, path: list[str]) -> None:
        nonlocal seen
        if hasattr(command, "commands"):  # a group (typer carries its own click classes)
            for name, sub in command.commands.items():
                walk(sub, [*path, name])
            return
        for param in command.params:
            seen += 1
            if param.name != "help" and not getattr(param, "help", None):
                bare.append(f"{' '.join(path)} {param.name}")

    walk(typer.main.get_command(app), [])
    assert seen > 50 and not bare, (seen, bare)


def test_every_command_has_a_one_line_summary_for_its_groups_help() -> None:
    """A group's `--help` lists each command with the first paragraph of its help, line
    breaks kept: a summary that runs over two source lines broke mid-sentence there
    (`game commit`, `game new`)."""
    import inspect

    import typer

    broken: list[str] = []

    def walk(command: Any, path: list[str]) -> None:
        for name, sub in getattr(command, "commands", {}).items():
            summary = sub.short_help or inspect.cleandoc(sub.help or "").split("\n\n")[0]
            if "\n" in summary:
                broken.append(" ".join([*path, name]))
            walk(sub, [*path, name])

    walk(typer.main.get_command(app), [])
    assert not broken, broken
