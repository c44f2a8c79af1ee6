"""The simulation lab: reproducible runs, unfinished games, the CLI and the report."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from gettysburg.ai.random_agent import RandomAgent
from gettysburg.cli import app
from gettysburg.lab.report import write_report
from gettysburg.lab.simulate import (
    game_seed,
    make_specs,
    play_game,
    run_local,
    run_ray,
    split_played,
    summarise,
    wilson,
)
from gettysburg.lab.store import append_rows, read_rows

TOY = {"red": "random", "blue": "general"}


def _stable(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k != "seconds"} for r in rows]


def test_same_seed_same_games_whatever_the_workers() -> None:
    specs = make_specs("toy/standard", 12, TOY, seed=3)
    one = run_local(specs, workers=1)
    two = run_local(specs, workers=2)
    assert _stable(one) == _stable(two)
    assert len({r["seed"] for r in one}) == 12
    other = run_local(make_specs("toy/standard", 12, TOY, seed=4))
    assert _stable(other) != _stable(one)


def test_game_seeds_are_stable() -> None:
    assert game_seed(0, 0) == game_seed("0", 0) != game_seed(0, 1)


def test_max_actions_gives_unfinished_games_not_draws() -> None:
    rows = run_local(make_specs("toy/standard", 5, TOY, seed=1, max_actions=2))
    assert all(not r["finished"] and r["actions"] == 2 and r["winner"] is None for r in rows)
    s = summarise(rows, ("red", "blue"))
    assert s["unfinished"] == 5 and s["draws"] == 0 and s["games"] == 5


def test_boc_row_records_vp_losses_and_turns() -> None:
    spec = make_specs("boc/day2", 1, {"usa": "general", "csa": "random"}, seed=2,
                      max_actions=30)[0]
    row = play_game(spec)
    assert row["actions"] == 30 and row["turns"] >= 1
    assert row["vp_track"] and isinstance(row["vp_track"][0][1], int)
    assert set(row["agents"]) == {"usa", "csa"}


def test_wilson_interval() -> None:
    lo, hi = wilson(95, 100)
    assert lo == pytest.approx(0.888, abs=1e-3) and hi == pytest.approx(0.978, abs=1e-3)
    assert wilson(0, 0) == (0.0, 1.0)


def test_store_round_trip_and_bad_line(tmp_path: Path) -> None:
    rows = run_local(make_specs("toy/standard", 3, TOY, seed=9))
    path = tmp_path / "r" / "runs.jsonl"
    assert append_rows(path, rows) == 3
    append_rows(path, rows[:1])
    assert read_rows(path) == rows + rows[:1]
    path.write_text("{}\nnot json\n", encoding="utf-8")
    with pytest.raises(ValueError, match=":2:"):
        read_rows(path)


def test_cli_simulate_json_and_report(tmp_path: Path) -> None:
    out = tmp_path / "runs.jsonl"
    runner = CliRunner()
    res = runner.invoke(app, ["simulate", "toy/standard", "--games", "6", "--red", "general",
                              "--blue", "random", "--seed", "1", "--json", "--out", str(out),
                              "--workers", "1"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert list(data) == ["games", "wins", "red_wins", "blue_wins", "draws", "unfinished",
                          "vp_mean", "vp_stdev", "seconds_per_game"]
    assert list(data["wins"]) == ["red", "blue"]
    assert data["games"] == 6 and sum(data["wins"].values()) + data["draws"] == 6
    assert (data["red_wins"], data["blue_wins"]) == (data["wins"]["red"], data["wins"]["blue"])
    # Without --json the summary names the toy's own seats and says why it gives no VP.
    res = runner.invoke(app, ["simulate", "toy/standard", "--games", "2", "--red", "general",
                              "--blue", "random", "--seed", "1", "--workers", "1"])
    assert res.exit_code == 0, res.output
    text = " ".join(res.stdout.split())
    assert "(red=general, blue=random): RED " in text and ", BLUE " in text, text
    assert "no VP (this system's results give none)" in text and "no game finished" not in text
    res = runner.invoke(app, ["simulate", "boc/day1", "--games", "2", "--usa", "general",
                              "--csa", "random", "--max-actions", "15", "--out", str(out),
                              "--workers", "2"])
    assert res.exit_code == 0, res.output
    assert "unfinished 2" in res.stdout and "VP – (no game finished)" in res.stdout
    assert "(usa=general, csa=random): USA 0 (" in " ".join(res.stdout.split())
    res = runner.invoke(app, ["report", str(out), "--out", str(tmp_path / "rep")])
    assert res.exit_code == 0, res.output
    summary = (tmp_path / "rep" / "summary.md").read_text(encoding="utf-8")
    assert "toy/standard" in summary and "boc/day1" in summary
    assert (tmp_path / "rep" / "win_rates.png").stat().st_size > 1000


def test_report_draws_a_clean_sweep_and_refuses_rows_it_cannot_read(tmp_path: Path) -> None:
    """A side that wins every game of a group (Wilson's upper bound at 1, where floating
    point put it a hair under the share) is drawn; rows that are no game rows, and an
    output folder that is a file, are refused by name, exit 2."""
    for n in (6, 11, 21, 22, 27, 31):
        lo, hi = wilson(n, n)
        assert lo <= 1.0 <= hi == 1.0 and wilson(0, n)[0] == 0.0
    rows = [{"scenario": "boc/day1", "agents": {"usa": "general", "csa": "random"},
             "finished": True, "winner": "usa", "vp": v, "seconds": 1.0,
             "eliminated": {}, "vp_track": []} for v in (0, 1, 2, 3, 4, 2)]
    good = tmp_path / "six.jsonl"
    append_rows(good, rows)
    runner = CliRunner()
    res = runner.invoke(app, ["report", str(good), "--out", str(tmp_path / "rep")])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "rep" / "summary.md").exists()
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"a": 1}\n', encoding="utf-8")
    res = runner.invoke(app, ["report", str(bad), "--out", str(tmp_path / "rep2")])
    assert res.exit_code == 2 and "row 1" in res.output and "'seconds'" in res.output
    assert not (tmp_path / "rep2").exists()
    afile = tmp_path / "afile"
    afile.write_text("x", encoding="utf-8")
    res = runner.invoke(app, ["report", str(good), "--out", str(afile)])
    assert res.exit_code == 2 and "is a file" in res.output


def test_losses_by_corps_leave_out_the_blocks_a_scenario_starts_without() -> None:
    """Day 2 opens with blocks already lost (Iverson, Reynolds...): a row records them
    apart, and the losses plot counts only what the game itself lost."""
    from gettysburg.lab import report as report_mod

    row = play_game(make_specs("boc/day2", 1, {"usa": "random", "csa": "random"}, seed=4,
                               max_actions=30)[0])
    before = row["eliminated_at_start"]
    assert "csa-iverson" in before["csa"] and "usa-reynolds" in before["usa"]
    assert set(before["csa"]) <= set(row["eliminated"]["csa"])
    lost = {u for ids in row["eliminated"].values() for u in ids} - \
        {u for ids in before.values() for u in ids}
    assert set(report_mod.losses_by_formation([row])) == \
        {report_mod.formation_of("boc/day2", u) for u in lost}
    older = {k: v for k, v in row.items() if k != "eliminated_at_start"}  # before session 12
    assert report_mod.losses_by_formation([older])["csa II"] >= 1.0  # Iverson, as counted


def test_cli_refuses_unknown_agent() -> None:
    res = CliRunner().invoke(app, ["simulate", "toy/standard", "--red", "nobody"])
    assert res.exit_code == 2 and "nobody" in res.output


def test_report_with_boc_rows(tmp_path: Path) -> None:
    rows = [{"scenario": "boc/day1", "agents": {"usa": "general", "csa": "random"},
             "finished": True, "winner": "usa", "vp": v, "seconds": 1.0,
             "eliminated": {"csa": ["csa-archer"]}, "vp_track": [["Day 1 8 AM", 0],
                                                                ["Day 1 9 AM", v]]}
            for v in (1, 3, 4)]
    files = write_report(rows, tmp_path)
    names = {f.name for f in files}
    assert {"vp_distribution.png", "losses_by_corps.png", "vp_over_time.png",
            "summary.md"} <= names


@pytest.mark.skipif(importlib.util.find_spec("ray") is None,
                    reason="ray is not installed (optional extra gettysburg[ray])")
def test_ray_run_matches_local() -> None:
    import ray

    specs = make_specs("toy/standard", 4, TOY, seed=2)
    try:
        assert _stable(run_ray(specs, "local")) == _stable(run_local(specs))
    finally:
        ray.shutdown()


class _Cheat:
    """Plays an action the rules refuse, to show a broken game does not stop a run."""

    name = "cheat"

    def __init__(self, seed: str) -> None:
        self.seed = seed

    def choose(self, view: Any, legal: Any, budget_s: float, rng: Any) -> dict[str, Any]:
        return {"type": "teleport"}


def test_lab_games_play_as_recorded_games_do() -> None:
    """The lab plays through ``apply_unrecorded`` for speed; the same game played
    through ``apply`` (history, hashes) describes itself identically."""
    for agents in ({"usa": "random", "csa": "random"}, {"usa": "general", "csa": "random"}):
        spec = make_specs("boc/day1", 1, agents, seed=9, max_actions=400)[0]
        fast, recorded = play_game(spec), play_game(spec, recorded=True)
        assert fast["actions"] > 100 and fast["played"]
        assert _stable([fast]) == _stable([recorded])


def test_a_failing_game_is_recorded_not_fatal() -> None:
    from gettysburg.ai.agent import register_agent

    register_agent("cheat", _Cheat)
    rows = run_local(make_specs("toy/standard", 3, {"red": "cheat", "blue": "random"}),
                     workers=2)
    assert len(rows) == 3
    assert all(not r["finished"] and "RuleError" in r["error"] for r in rows)
    s = summarise(rows, ("red", "blue"))
    assert s["errors"] == 3 and s["unfinished"] == 3 and s["draws"] == 0


def test_cli_simulate_stores_each_game_as_it_ends(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A long run that is interrupted (Ctrl-C) keeps the games it finished, exits 130 as a
    shell expects, and says what the file holds and that --resume plays the rest."""
    import gettysburg.lab.simulate as sim

    out = tmp_path / "runs.jsonl"
    real = sim.run_local

    def interrupted(specs: Any, workers: int = 1, progress: Any = None, **run: Any) -> Any:
        real(specs[:2], 1, progress)
        raise KeyboardInterrupt

    monkeypatch.setattr(sim, "run_local", interrupted)
    res = CliRunner().invoke(app, ["simulate", "toy/standard", "--games", "5", "--red",
                                   "general", "--blue", "random", "--out", str(out)])
    assert res.exit_code == 130, res.output
    text = " ".join(res.output.split())
    assert "interrupted" in text and "2 of 5" in text and "--resume" in text, text
    rows = read_rows(out)
    assert [r["index"] for r in rows] == [0, 1] and all(r["finished"] for r in rows)


def test_rows_carry_the_counts_of_agents_that_keep_them() -> None:
    """search reports what it searched; agents without counts are left out."""
    row = play_game(make_specs("toy/standard", 1, {"red": "search", "blue": "general"},
                               seed=4)[0])
    assert row["finished"]
    assert set(row["agent_stats"]) == {"red"}
    stats = row["agent_stats"]["red"]
    # The toy has no world builder: search plays its general, searching nothing.
    assert stats == {"searched": 0, "overrides": 0, "styles": {}, "cut_rollouts": 0,
                     "failed_rollouts": 0, "failures": {}}


def test_split_played_keeps_only_the_games_of_this_command() -> None:
    specs = make_specs("toy/standard", 4, TOY, seed=9)
    rows = [play_game(specs[1]), play_game(specs[3])]
    other = make_specs("toy/standard", 4, {"red": "general", "blue": "random"}, seed=9)
    rows.append(play_game(other[0]))  # same seed and index, other agents: not this run's
    rows.append(dict(rows[0]))  # stored twice: counted once
    rows.append({"kind": "benchmark row"})  # not a game row at all
    budget = make_specs("toy/standard", 4, TOY, seed=9, budget_s=2.0)
    done, todo = split_played(specs, rows)
    assert [r["index"] for r in done] == [1, 3]
    assert [s.index for s in todo] == [0, 2]
    done, todo = split_played(budget, rows)  # another budget: nothing is played yet
    assert done == [] and len(todo) == 4


def test_cli_simulate_resume_plays_only_what_is_missing(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """An interrupted run, resumed, ends with each game once, as an uninterrupted one."""
    import gettysburg.lab.simulate as sim

    out, whole = tmp_path / "runs.jsonl", tmp_path / "whole.jsonl"
    args = ["simulate", "toy/standard", "--games", "5", "--red", "general", "--blue",
            "random", "--seed", "3", "--json"]
    real = sim.run_local
    played: list[int] = []

    def interrupted(specs: Any, workers: int = 1, progress: Any = None, **run: Any) -> Any:
        real(specs[:2], 1, progress)
        raise KeyboardInterrupt

    def counting(specs: Any, workers: int = 1, progress: Any = None, **run: Any) -> Any:
        played.extend(s.index for s in specs)
        return real(specs, workers, progress)

    runner = CliRunner()
    monkeypatch.setattr(sim, "run_local", interrupted)
    assert runner.invoke(app, [*args, "--out", str(out)]).exit_code != 0
    monkeypatch.setattr(sim, "run_local", counting)
    res = runner.invoke(app, [*args, "--out", str(out), "--resume"])
    assert res.exit_code == 0, res.output
    assert played == [2, 3, 4]
    assert json.loads(res.stdout)["games"] == 5
    res = runner.invoke(app, [*args, "--out", str(out), "--resume"])  # nothing left
    assert res.exit_code == 0 and played == [2, 3, 4]
    assert json.loads(res.stdout)["games"] == 5
    assert runner.invoke(app, [*args, "--out", str(whole)]).exit_code == 0
    assert _stable(read_rows(out)) == _stable(read_rows(whole))


def test_cli_simulate_resume_needs_a_file() -> None:
    res = CliRunner().invoke(app, ["simulate", "toy/standard", "--resume"])
    assert res.exit_code == 2 and "--resume needs --out" in res.output


def test_simulate_takes_a_scenario_file_as_game_new_does(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A scenario YAML, by absolute or relative path (``./day1.yaml``), or a bare name."""
    from gettysburg.boc.scenario import SCENARIO_DIR

    local = tmp_path / "day1.yaml"
    local.write_text((SCENARIO_DIR / "day1.yaml").read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    for scenario in (str(local), "./day1.yaml", "day1"):
        res = CliRunner().invoke(app, ["simulate", scenario, "--games", "1", "--usa", "random",
                                       "--csa", "random", "--max-actions", "10", "--json"])
        assert res.exit_code == 0, (scenario, res.output)
        assert json.loads(res.stdout)["games"] == 1


def test_keyed_dice_games_replay_and_are_told_apart_from_seeded_ones() -> None:
    """``dice="keyed"``: the row says so, the same spec gives the same row, and a resumed
    run never takes a seeded game for a keyed one (or the reverse)."""
    keyed = make_specs("boc/day2", 1, {"usa": "random", "csa": "random"}, seed=4,
                       max_actions=250, dice="keyed")
    seeded = make_specs("boc/day2", 1, {"usa": "random", "csa": "random"}, seed=4,
                        max_actions=250)
    first, again = play_game(keyed[0]), play_game(keyed[0])
    assert first["dice"] == "keyed" and first["error"] is None
    assert _stable([first]) == _stable([again])
    plain = play_game(seeded[0])
    assert plain["dice"] == "seeded"
    done, todo = split_played(keyed, [plain])
    assert done == [] and todo == keyed
    done, todo = split_played(seeded, [plain, first])
    assert [r["dice"] for r in done] == ["seeded"] and todo == []
    legacy = {k: v for k, v in plain.items() if k != "dice"}  # rows from before session 13
    assert split_played(seeded, [legacy])[0] == [legacy]
    with pytest.raises(ValueError, match="dice"):
        make_specs("boc/day2", 1, {"usa": "random", "csa": "random"}, dice="loaded")


def test_cli_simulate_refuses_unknown_dice() -> None:
    res = CliRunner().invoke(app, ["simulate", "toy/standard", "--games", "1",
                                   "--dice", "loaded"])
    assert res.exit_code == 2
    assert "--dice" in res.output and "keyed" in res.output


def test_cli_simulate_names_a_ray_address_nobody_answers_at() -> None:
    """``--ray HOST:PORT`` with no cluster there fails at once, naming the address
    (``ray.init`` alone waits for it without end)."""
    pytest.importorskip("ray")
    res = CliRunner().invoke(app, ["simulate", "toy/standard", "--games", "1",
                                   "--ray", "127.0.0.1:1"])
    assert res.exit_code == 2
    assert "no Ray cluster answers at 127.0.0.1:1" in res.output


def test_cli_simulate_refuses_an_out_it_cannot_write_before_playing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A folder, or a path under a file: refused by name, exit 2, before any game is
    played (a search game takes 11 minutes), with or without --resume."""
    import gettysburg.lab.simulate as sim

    played: list[int] = []
    real = sim.run_local

    def counting(specs: Any, workers: int = 1, progress: Any = None, **run: Any) -> Any:
        played.extend(s.index for s in specs)
        return real(specs, workers, progress)

    monkeypatch.setattr(sim, "run_local", counting)
    afile = tmp_path / "afile"
    afile.write_text("x", encoding="utf-8")
    for out, extra in ((tmp_path, []), (tmp_path, ["--resume"]), (afile / "runs.jsonl", [])):
        res = CliRunner().invoke(app, ["simulate", "toy/standard", "--games", "2",
                                       "--out", str(out), *extra])
        assert res.exit_code == 2 and isinstance(res.exception, SystemExit), res.output
        assert "--out" in res.output and str(out) in " ".join(res.output.split()), res.output
    assert played == []


def test_cli_simulate_stops_cleanly_when_out_fails_midway(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The disk fills up in the middle of a run: the error names the file and the games
    stored so far, exit 2, no traceback."""
    import gettysburg.cli.lab_cmd as lab_cmd

    out = tmp_path / "runs.jsonl"
    calls: list[int] = []
    real = lab_cmd.append_rows

    def filling(path: Any, rows: Any) -> int:
        calls.append(1)
        if len(calls) > 2:
            raise OSError(28, "No space left on device")
        return real(path, rows)

    monkeypatch.setattr(lab_cmd, "append_rows", filling)
    res = CliRunner().invoke(app, ["simulate", "toy/standard", "--games", "5", "--out",
                                   str(out)])
    assert res.exit_code == 2 and isinstance(res.exception, SystemExit), res.output
    text = " ".join(res.output.split())
    assert "No space left on device" in text and str(out) in text and "2 of 5" in text, text


def test_cli_simulate_names_the_toy_seats_and_gives_both_intervals() -> None:
    """The progress line names the seats (red/blue for the toy, not usa/csa); the summary
    gives the second seat's interval as well as the first's, and no spread for a system
    without VP."""
    runner = CliRunner()
    res = runner.invoke(app, ["simulate", "toy/standard", "--games", "4", "--red", "general",
                              "--blue", "random", "--seed", "1"])
    assert res.exit_code == 0, res.output
    assert "toy/standard red=general blue=random" in res.stderr, res.stderr
    text = " ".join(res.stdout.split())
    assert re.search(r"RED \d+ \(\d+%-\d+%\), BLUE \d+ \(\d+%-\d+%\)", text), text
    res = runner.invoke(app, ["simulate", "toy/standard", "--games", "2", "--json"])
    data = json.loads(res.stdout)
    assert data["vp_mean"] is None and data["vp_stdev"] is None


def test_cli_unknown_agent_lists_the_agents_once() -> None:
    res = CliRunner().invoke(app, ["simulate", "toy/standard", "--red", "nobody"])
    assert res.exit_code == 2
    assert res.output.count("random") == 1, res.output


def _sigint_row(spec: dict[str, Any], **run: Any) -> dict[str, Any]:
    """Stands in for a game in a pool worker: what the worker does on Ctrl-C."""
    import signal

    return {"index": spec["index"], "sigint": repr(signal.getsignal(signal.SIGINT))}


def test_pool_workers_leave_ctrl_c_to_the_parent(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C goes to the whole process group: the workers ignore it and the parent stops
    the pool, so no worker prints 'Process ForkPoolWorker-N:' and a traceback over the
    parent's 'interrupted: ... --resume' line."""
    import signal

    import gettysburg.lab.simulate as sim

    monkeypatch.setattr(sim, "_play_dict", _sigint_row)
    rows = run_local(make_specs("toy/standard", 2, TOY), workers=2)
    assert [r["sigint"] for r in rows] == [repr(signal.SIG_IGN)] * 2


class _RandomTwin(RandomAgent):
    """Random play on the random numbers of the agent named "random" (its ``stream``)."""

    name = "random-twin"
    stream = "random"


def _twin(seed: str) -> _RandomTwin:
    return _RandomTwin()


def _own(seed: str) -> RandomAgent:
    return RandomAgent()


def test_an_agent_may_draw_another_agents_random_numbers() -> None:
    """A variant that draws its base agent's numbers plays the base's game of the same
    seed (while their choices agree: here always); the row says whose numbers it drew.
    Under its own name the same play is another game."""
    from gettysburg.ai.agent import random_stream, register_agent

    register_agent("random-twin", _twin)  # module-level factories: registering again
    register_agent("random-own", _own)    # (the test run twice in one process) is allowed
    assert random_stream(_RandomTwin(), "random-twin") == "random"
    assert random_stream(RandomAgent(), "random-own") == "random-own"

    def game(red: str) -> dict[str, Any]:
        return play_game(make_specs("toy/standard", 1, {"red": red, "blue": "general"},
                                    seed=6)[0])

    base, twin, own = game("random"), game("random-twin"), game("random-own")
    assert twin["streams"] == {"red": "random", "blue": "general"}
    assert "streams" not in base and "streams" not in own
    same = ("played", "vp_track", "winner", "actions", "result")
    assert [twin[k] for k in same] == [base[k] for k in same]
    assert own["played"] != base["played"]


def test_cli_simulate_toy_json_wins_are_keyed_by_the_toy_seats() -> None:
    """Issue 49: ``gettysburg simulate toy/standard --games 4 --json`` prints a summary
    whose ``wins`` are keyed red and blue, and adds up with draws and unfinished games."""
    res = CliRunner().invoke(app, ["simulate", "toy/standard", "--games", "4", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert set(data["wins"]) == {"red", "blue"} and data["games"] == 4
    assert sum(data["wins"].values()) + data["draws"] + data["unfinished"] == 4
    assert "usa_wins" not in data and "csa_wins" not in data


def test_cli_simulate_reads_every_form_of_seat_and_agent() -> None:
    """``--seat SEAT=AGENT``, ``--SEAT AGENT`` and ``--SEAT=AGENT`` name the same pairing,
    even before the scenario; the games are the same games."""
    runner = CliRunner()
    forms = (["toy/standard", "--seat", "red=general", "--seat", "blue=random"],
             ["toy/standard", "--red", "general", "--blue=random"],
             ["--red", "general", "toy/standard", "--seat", "blue=random"])
    outs = []
    for form in forms:
        res = runner.invoke(app, ["simulate", *form, "--games", "3", "--seed", "5"])
        assert res.exit_code == 0, (form, res.output)
        outs.append(" ".join(res.stdout.split()).split(" s/game")[0].rsplit(";", 1)[0])
    assert outs[0] == outs[1] == outs[2] and "(red=general, blue=random)" in outs[0], outs
    # A seat not named plays random.
    res = runner.invoke(app, ["simulate", "toy/standard", "--blue", "general", "--games", "1"])
    assert res.exit_code == 0 and "(red=random, blue=general)" in " ".join(res.stdout.split())


@pytest.mark.parametrize(("args", "words"), [
    (["--usa", "general"], ["--usa", "toy/standard", "red, blue"]),
    (["--seat", "green=general"], ["--seat green", "not a seat", "red, blue"]),
    (["--seat", "red"], ["--seat takes SEAT=AGENT"]),
    (["--red", "general", "--seat", "red=random"], ["red", "twice"]),
    (["--red"], ["--red needs an agent"]),
    (["-x", "1"], ["no such option: -x"]),
    (["--gmaes", "3"], ["--gmaes", "no option of simulate"]),
])
def test_cli_simulate_refuses_seats_the_scenario_lacks(args: list[str],
                                                       words: list[str]) -> None:
    """A seat the scenario's system lacks (BoC's usa on the toy), a malformed pair, a seat
    named twice or an option nobody has: refused by name, exit 2, no game played."""
    res = CliRunner().invoke(app, ["simulate", "toy/standard", *args, "--games", "1"])
    assert res.exit_code == 2, res.output
    text = " ".join(res.output.split())
    assert all(w in text for w in words), text


def test_cli_simulate_refuses_a_scenario_no_system_lists() -> None:
    res = CliRunner().invoke(app, ["simulate", "nosuch", "--games", "1"])
    assert res.exit_code == 2
    text = " ".join(res.output.split())
    assert "'nosuch'" in text and "toy/standard" in text and "SYSTEM/SCENARIO" in text, text


def test_toy_rows_carry_no_reading_the_toy_does_not_declare() -> None:
    """The toy declares no lab hooks: its rows give the protocol's facts (winner, result,
    actions) and no score, turns or losses, rather than guessing at its view."""
    row = play_game(make_specs("toy/standard", 1, TOY, seed=2)[0])
    assert row["finished"] and row["winner"] in ("red", "blue")
    assert row["vp"] is None and row["turns"] is None and row["vp_track"] == []
    assert row["eliminated"] == {} and row["eliminated_at_start"] == {}
