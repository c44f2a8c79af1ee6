"""GBACW in the lab (issue 54): its lab hooks (the turn, the victory margin as score, the
counters lost by brigade), `gettysburg simulate` on each of the six scenarios (random
against random; the long ones cut short by --max-actions), and `gettysburg report` with
GBACW's labels."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gettysburg import systems
from gettysburg.cli import app
from gettysburg.core.protocol import new_game
from gettysburg.gbacw import lab_hooks
from gettysburg.lab import report as report_mod
from gettysburg.lab.simulate import lab_hooks as declared_hooks

runner = CliRunner()
SCENARIOS = ("herr-ridge", "little-round-top", "first-day", "second-day", "third-day",
             "battle")
#: Actions a long scenario is played for (its first orders and activations: a whole day
#: of random play takes many minutes on a shared machine).
LONG_ACTIONS = 12


# --- the hooks ---------------------------------------------------------------------------------


def test_the_hooks_are_declared_through_the_registry() -> None:
    assert systems.get("gbacw").lab is lab_hooks.HOOKS
    assert declared_hooks("gbacw/herr-ridge") is lab_hooks.HOOKS
    assert "brigade" in lab_hooks.HOOKS.losses_label


def test_clock_names_the_turn_of_the_turn_record_track() -> None:
    game = new_game("gbacw/herr-ridge", seed=0)
    assert lab_hooks.clock(game.view("csa")) == "1-0700"
    assert lab_hooks.clock({}) is None


def test_score_is_the_confederate_margin() -> None:
    """VP scenarios (004 sc.4, sc.5): CSA points less the Union's; the others: +1/-1/0."""
    vp = {"winner": "usa", "draw": False, "points": {"csa": 7, "usa": 10}, "scored": True}
    assert lab_hooks.score(vp) == -3.0
    assert lab_hooks.score({"winner": "csa", "scored": True}) == 1.0
    assert lab_hooks.score({"winner": "usa", "scored": True}) == -1.0
    assert lab_hooks.score({"winner": None, "draw": True, "scored": True}) == 0.0
    assert lab_hooks.score({"winner": None, "scored": False}) is None


def test_losses_count_counters_with_every_strength_point_lost() -> None:
    game = new_game("gbacw/herr-ridge", seed=0)
    view = game.view("referee")
    assert lab_hooks.losses(view) == {}
    units = view["units"]
    first = next(k for k, u in units.items() if u["seat"] == "csa" and u["hex"])
    units[first].update(sp=0, lost=units[first]["sp"])
    other = next(k for k, u in units.items() if u["seat"] == "usa" and u["hex"])
    units[other].update(sp=1, lost=2)  # hurt, still standing
    assert lab_hooks.losses(view) == {"csa": [first]}


def test_formation_is_the_counters_brigade() -> None:
    assert lab_hooks.formation("CS-III:1 TN") == "CS-Archer/Heth"
    assert lab_hooks.formation("CS-XX:nobody") == "CS-XX"


# --- simulate and report -------------------------------------------------------------------


def _simulate(tmp_path: Path, scenario: str, max_actions: int) -> dict[str, object]:
    out = tmp_path / f"{scenario}.jsonl"
    res = runner.invoke(app, ["simulate", f"gbacw/{scenario}", "-n", "1", "--seed", "5",
                              "--max-actions", str(max_actions), "--out", str(out),
                              "--json"])
    assert res.exit_code == 0, res.output
    [row] = [json.loads(line) for line in out.read_text().splitlines()]
    assert row["error"] is None, row["error"]
    return dict(row)


@pytest.mark.parametrize("scenario", SCENARIOS[2:])
def test_simulate_plays_each_long_scenario_for_a_while(tmp_path: Path, scenario: str) -> None:
    row = _simulate(tmp_path, scenario, LONG_ACTIONS)
    assert row["actions"] == LONG_ACTIONS and row["finished"] is False and row["vp"] is None
    assert row["turns"] and row["turns"] >= 1  # type: ignore[operator]


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, object]]:
    """Herr Ridge and Little Round Top played to their end by random players."""
    tmp = tmp_path_factory.mktemp("gbacw_lab")
    return [_simulate(tmp, s, 20000) for s in SCENARIOS[:2]]


def test_simulate_plays_the_short_scenarios_to_their_end(
        finished: list[dict[str, object]]) -> None:
    for row in finished:
        assert row["finished"] is True
        assert row["vp"] in (-1.0, 0.0, 1.0)  # 004 sc.2, sc.3: control names the winner
        assert row["winner"] in ("usa", "csa", None)
        assert row["vp"] == {"usa": -1.0, "csa": 1.0, None: 0.0}[row["winner"]]  # type: ignore[index]
        assert row["turns"] and row["turns"] >= 2  # type: ignore[operator]


def test_report_draws_gbacw_labels(tmp_path: Path,
                                   finished: list[dict[str, object]]) -> None:
    """The score axis and the losses plot say GBACW's words; the losses are by brigade (a
    lost counter is written into one row by hand: random play seldom destroys one)."""
    rows = [dict(r) for r in finished]
    rows[0]["eliminated"] = {"csa": ["CS-III:1 TN"]}
    written = report_mod.write_report(rows, tmp_path / "report")
    names = {p.name for p in written}
    assert {"vp_distribution.png", "win_rates.png", "losses_by_corps.png",
            "summary.md"} <= names
    assert report_mod._score_label("gbacw/herr-ridge") == lab_hooks.HOOKS.score_label
    assert report_mod.losses_by_formation(rows[:1]) == {"CS-Archer/Heth": 1.0}
    keys = list(report_mod.losses_by_group(rows))
    assert keys and report_mod._losses_label(rows, keys) == lab_hooks.HOOKS.losses_label
    summary = (tmp_path / "report" / "summary.md").read_text()
    assert "Union wins" in summary and "Confederacy wins" in summary


def test_a_game_in_play_pickles_and_plays_on_alike() -> None:
    """The lab's checkpoints (``--resume``) and Ray workers pickle games in play: a GBACW
    game must pickle, and the copy must read its leaders' ratings from its own position."""
    import pickle
    import random

    game = new_game("gbacw/herr-ridge", seed=2)
    rng = random.Random(2)

    def step(*games: object) -> None:
        seat = game.to_move()[0]
        action = rng.choice(game.legal_actions(seat))
        for g in games:
            g.apply_unrecorded(action, seat)  # type: ignore[attr-defined]

    for _ in range(30):
        step(game)
    copy = pickle.loads(pickle.dumps(game))
    assert copy.state_hash() == game.state_hash()
    assert copy.cat.acting() is copy.pos.acting  # type: ignore[attr-defined]
    for _ in range(30):
        step(game, copy)
    assert copy.state_hash() == game.state_hash()


#: Actions of the replay check below: a long scenario's first activations, a few seconds.
REPLAY_ACTIONS = 150


def test_a_long_scenario_replays_from_its_save_to_the_same_hash(tmp_path: Path) -> None:
    """Issue 54's "replay verified", cheaply: First Day's first actions between random
    players, played through `Game.apply` (recorded), written as a save and replayed with
    every die and state hash checked (what `gettysburg game replay` runs) to the played
    game's hash;
    the same actions applied unrecorded (as the lab plays) reach the same hash too. Whole
    games of the four long scenarios: experiments/gbacw_replay_check.py."""
    import random

    from gettysburg.core import savefile

    game = new_game("gbacw/first-day", seed="54")
    quick = new_game("gbacw/first-day", seed="54")
    rng = random.Random(54)
    for _ in range(REPLAY_ACTIONS):
        seat = game.to_move()[0]
        action = rng.choice(game.legal_actions(seat))
        game.apply(action, seat)
        quick.apply_unrecorded(action, seat)  # type: ignore[attr-defined]
    assert quick.state_hash() == game.state_hash()
    save = tmp_path / "first-day.json"
    savefile.write(savefile.save(game), save)
    again = savefile.replay(savefile.load(save), verify=True)
    assert len(again.history) == REPLAY_ACTIONS
    assert again.state_hash() == game.state_hash()
