"""``gettysburg game`` on the toy system: what the play-by-e-mail commands refuse, and
what `show` prints for a system it has no special layout for."""

from __future__ import annotations

import json
import re
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


def test_a_bare_scenario_name_is_found_in_the_registry(tmp_path: Path) -> None:
    """A bare name is the scenario of the first system whose menu lists it: the toy's
    ``standard`` as BoC's ``day2`` (``game new day2``); a name no menu lists is refused,
    naming the scenarios there are, and nothing is written."""
    save = tmp_path / "toy.json"
    code, _, err = run("game", "new", "standard", "--out", str(save))
    assert code == 0, err
    assert json.loads(save.read_text())["system"] == "toy"
    save = tmp_path / "boc.json"
    code, _, err = run("game", "new", "day2", "--out", str(save))
    assert code == 0, err
    assert (json.loads(save.read_text())["system"], json.loads(save.read_text())["scenario"]) \
        == ("boc", "day2")
    code, _, err = run("game", "new", "nosuch", "--out", str(tmp_path / "x.json"))
    assert code == 2 and "'nosuch'" in err and "toy/standard" in err, err
    assert not (tmp_path / "x.json").exists()
    code, _, err = run("game", "new", "day2", "--option", "nosuch", "--out",
                       str(tmp_path / "y.json"))
    assert code == 2 and "'nosuch'" in err and not (tmp_path / "y.json").exists(), err


def test_show_prints_a_view_through_its_systems_picture(tmp_path: Path) -> None:
    """BoC declares its picture of a view (a header, then a line a block): `show` prints
    it, then who is to move; the toy declares none and gets the plain fields."""
    from gettysburg import systems

    save = tmp_path / "game.json"
    assert run("game", "new", "boc/day1", "--out", str(save))[0] == 0
    code, out, _ = run("game", "show", str(save), "--as", "usa")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("The First Day — Day 1 8 AM, command phase, csa active"), out
    assert lines[-1] == "To move: csa" and any("usa-buford" in line for line in lines), out
    assert systems.get("toy").view_text is None


def test_scenario_list_and_show_read_every_systems_menu() -> None:
    """`scenario list` lists every registered system's scenarios from its menu (the toy,
    hidden from the lobby, too); `show` prints what the scenario's system describes, and
    says so when the system describes none; a name no menu lists is refused by name."""
    from gettysburg import systems

    code, out, _ = run("scenario", "list")
    assert code == 0
    for declared in systems.all_systems():
        for name in declared.menu().scenarios:
            assert f"{declared.name}/{name}" in out, out
    code, out, _ = run("scenario", "show", "day1")
    assert code == 0 and "The First Day" in out.splitlines()[0] and "Buford" in out, out
    code, _, err = run("scenario", "show", "toy/standard")
    assert code == 1 and "describes no scenario" in err and "standard" in err, err
    code, _, err = run("scenario", "show", "nosuch")
    assert code == 1 and "nosuch" in err, err


def test_a_scenario_file_belongs_to_the_system_it_names(tmp_path: Path) -> None:
    """A file that names its system (an ``id`` SYSTEM/NAME, or ``system:``) is that
    system's; one that does not is --system's, else the first that sets it up; one that
    none sets up is refused, asking for --system."""
    from gettysburg.boc.scenario import SCENARIO_DIR
    from gettysburg.cli.specs import SpecError, default_scenario, scenario_spec

    shipped = tmp_path / "day3.yaml"
    shipped.write_text((SCENARIO_DIR / "day3.yaml").read_text("utf-8"), "utf-8")
    assert scenario_spec(str(shipped)) == f"boc/{shipped.resolve()}"
    try:
        scenario_spec(str(shipped), "toy")
    except SpecError as exc:
        assert "boc" in str(exc) and "--system toy" in str(exc)
    else:
        raise AssertionError("a file of one system was taken as another's")
    text = (SCENARIO_DIR / "day3.yaml").read_text("utf-8")
    unnamed = tmp_path / "mine.yaml"
    unnamed.write_text("\n".join("id: mine/day3" if line.startswith("id:") else line
                                 for line in text.splitlines()), "utf-8")  # no system
    assert scenario_spec(str(unnamed)) == f"boc/{unnamed.resolve()}"  # the first that loads
    assert scenario_spec(str(unnamed), "toy") == f"toy/{unnamed.resolve()}"
    junk = tmp_path / "junk.yaml"
    junk.write_text("just: words\n", "utf-8")
    try:
        scenario_spec(str(junk))
    except SpecError as exc:
        assert "--system" in str(exc) and str(junk) in str(exc)
    else:
        raise AssertionError("a file no system sets up was given a system")
    assert default_scenario() == "boc/day1"  # the first listed system's first scenario
    code, out, err = run("scenario", "show", str(unnamed), "--json")
    assert code == 0 and json.loads(out)["rule"] == "9.4", err


def test_apply_takes_the_number_legal_prints(tmp_path: Path) -> None:
    """`game legal` numbers each action; `game apply F N` plays action N of that list (the
    same as its JSON), and a number past the list is refused, nothing written."""
    save = tmp_path / "game.json"
    assert run("game", "new", "boc/day1", "--out", str(save))[0] == 0
    code, out, _ = run("game", "legal", str(save))
    assert code == 0
    lines = out.splitlines()
    number, listed = lines[2].split(None, 1)
    by_json = tmp_path / "by_json.json"
    assert run("game", "apply", str(save), listed, "--out", str(by_json))[0] == 0
    by_number = tmp_path / "by_number.json"
    code, _, err = run("game", "apply", str(save), number, "--out", str(by_number))
    assert code == 0, err
    played = json.loads(by_number.read_text())["moves"]
    assert played[-1]["action"] == json.loads(listed) != json.loads(lines[0].split(None, 1)[1])
    assert played == json.loads(by_json.read_text())["moves"]
    before = save.read_bytes()
    code, _, err = run("game", "apply", str(save), str(len(lines)), "--out", str(save))
    assert code == 2 and f"numbered 0 to {len(lines) - 1}" in err, err
    assert save.read_bytes() == before


def test_show_draws_the_map_as_text_and_as_a_picture(tmp_path: Path) -> None:
    """`game show` draws the board with the blocks on it (own ones by side and count,
    hidden ones as ?), each own block with its label; --out writes a picture of it."""
    save = tmp_path / "game.json"
    assert run("game", "new", "boc/day2", "--out", str(save))[0] == 0
    code, out, _ = run("game", "show", str(save), "--as", "usa")
    assert code == 0
    lines = out.splitlines()
    grid = lines[1:lines.index("")]
    assert len(grid) > 20 and any("U" in row for row in grid) and any("?" in row for row in grid)
    assert not any("C" in row for row in grid)  # no Confederate block is revealed on Day 2
    seen = sum(int(m) for row in grid for m in re.findall(r"U(\d)", row))
    code, raw, _ = run("game", "show", str(save), "--as", "usa", "--json")
    view = json.loads(raw)
    on_map = [u for u in view["units"] if u["status"] == "on_map"]
    assert seen == len(on_map)
    assert sum(int(m) for row in grid for m in re.findall(r"\?(\d)", row)) == len(view["hidden"])
    brewster = next(line for line in lines if "usa-brewster" in line)
    assert "4/4 B2 mp 6" in brewster, brewster
    picture = tmp_path / "day2.png"
    code, out, err = run("game", "show", str(save), "--as", "usa", "--out", str(picture))
    assert code == 0 and picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", err
    code, _, err = run("game", "show", str(save), "--as", "usa", "--out", str(tmp_path / "x.gif"))
    assert code == 2 and "x.gif" in err and ".png" in err
    toy = tmp_path / "toy.json"
    assert run("game", "new", "toy/standard", "--out", str(toy))[0] == 0
    code, _, err = run("game", "show", str(toy), "--as", "red", "--out", str(picture))
    assert code == 2 and "no picture" in err


def test_new_draws_a_fresh_seed_and_new_and_show_say_whom_file_play_is_for(
        tmp_path: Path) -> None:
    """E-mail play (issue 58): a save holds the seed, so without a seed `game new` must not
    use one everybody knows; and both commands say that file play needs trust."""
    seeds = []
    for name in ("a.json", "b.json"):
        code, _, err = run("game", "new", "toy/standard", "--out", str(tmp_path / name))
        assert code == 0 and "trust each other" in err and "gettysburg serve" in err
        seeds.append(json.loads((tmp_path / name).read_text())["seed"])
    assert seeds[0] != seeds[1] and "0" not in seeds and all(len(s) >= 16 for s in seeds)
    code, out, err = run("game", "show", str(tmp_path / "a.json"), "--as", "red")
    assert code == 0 and "trust each other" in err and "trust" not in out
    code, out, _ = run("game", "show", str(tmp_path / "a.json"), "--as", "red", "--json")
    assert code == 0 and json.loads(out)  # for programs: the view alone
    code, _, _ = run("game", "new", "toy/standard", "--out", str(tmp_path / "c.json"),
                     "--seed", "7")
    assert code == 0 and json.loads((tmp_path / "c.json").read_text())["seed"] == "7"
