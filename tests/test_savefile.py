"""Save files: round trips, replay, and tamper detection with the exact location."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from gettysburg.core import savefile
from gettysburg.core.canonical import canonical_bytes, json_copy
from gettysburg.core.dice import CommitReveal, ScriptedDice, commitment
from gettysburg.core.protocol import Game, new_game
from gettysburg.core.savefile import Problem, ReplayError, SaveFileError, link_hash
from gettysburg.toy.game import ToyGame

PROFILE = settings(max_examples=40, deadline=None,
                   suppress_health_check=[HealthCheck.too_slow,
                                          HealthCheck.function_scoped_fixture])
choices = st.lists(st.integers(min_value=0, max_value=50), min_size=1, max_size=30)


def played(seed: int | str, picks: list[int], **kw: Any) -> Game:
    game = new_game("toy/standard", seed=seed, **kw)
    for c in picks:
        if game.is_terminal():
            break
        seat = game.to_move()[0]
        legal = game.legal_actions(seat)
        game.apply(legal[c % len(legal)], seat)
    return game


def fixed_game() -> Game:
    """A game of ten turns in which every turn is an attack (many dice, some hits)."""
    game = new_game("toy/strong", options=["turns=10"], seed=11)
    while not game.is_terminal():
        seat = game.to_move()[0]
        legal = game.legal_actions(seat)
        game.apply(next((a for a in legal if a["type"] in ("attack", "assign")), legal[0]),
                   seat)
    assert sum(1 for m in game.history if m.dice) >= 8
    assert any(m.action["type"] == "assign" for m in game.history)
    return game


def problem_of(data: dict[str, Any]) -> Problem:
    problem = savefile.check(data)
    assert problem is not None, "tampering went unnoticed"
    return problem


@PROFILE
@given(choices, st.integers(min_value=0, max_value=10**6))
def test_save_write_load_replay_gives_identical_state(tmp_path: Path, picks: list[int],
                                                      seed: int) -> None:
    game = played(seed, picks)
    path = tmp_path / "game.json"
    savefile.write(savefile.save(game, snapshot=True), path)
    loaded = savefile.load(path)
    again = savefile.replay(loaded)
    assert again.state_hash() == game.state_hash()
    assert again.to_json() == game.to_json()
    fast = savefile.replay(loaded, verify=False)
    assert fast.state_hash() == game.state_hash()
    assert savefile.save(again) == savefile.save(game)


def test_scripted_dice_game_round_trips() -> None:
    game = ToyGame(dice=ScriptedDice([6, 6, 1, 5, 2, 2, 4, 6, 6, 6]))
    for action, seat in [({"type": "attack", "block": "r1"}, "red"),
                         ({"type": "assign", "block": "b1"}, "blue"),
                         ({"type": "attack", "block": "b2"}, "blue")]:
        game.apply(action, seat)
    data = savefile.save(game)
    assert data["dice"] == {"kind": "scripted", "values": [6, 6, 1, 5, 2, 2, 4, 6, 6, 6]}
    assert savefile.replay(data).state_hash() == game.state_hash()
    data["moves"][2]["dice"][0] = 1
    assert (problem_of(data).index, problem_of(data).kind) == (2, "dice")


@PROFILE
@given(st.data())
def test_any_byte_flip_in_an_action_is_detected_and_located(data: st.DataObject) -> None:
    original = savefile.save(fixed_game())
    i = data.draw(st.integers(0, len(original["moves"]) - 1), label="move")
    raw = bytearray(canonical_bytes(original["moves"][i]["action"]))
    pos = data.draw(st.integers(0, len(raw) - 1), label="byte")
    raw[pos] ^= data.draw(st.integers(1, 255), label="xor")
    tampered = copy.deepcopy(original)
    try:
        action = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        return  # the file no longer parses: load() refuses it outright
    assume(action != original["moves"][i]["action"])
    tampered["moves"][i]["action"] = action
    try:
        problem = savefile.check(tampered)
    except SaveFileError:
        return  # no longer an action object: refused with the field named
    assert problem is not None and problem.index == i and problem.kind == "action"


@PROFILE
@given(st.data())
def test_any_changed_die_is_detected_and_located(data: st.DataObject) -> None:
    original = savefile.save(fixed_game())
    rolled = [i for i, m in enumerate(original["moves"]) if m["dice"]]
    i = data.draw(st.sampled_from(rolled), label="move")
    j = data.draw(st.integers(0, len(original["moves"][i]["dice"]) - 1), label="die")
    old = original["moves"][i]["dice"][j]
    new = data.draw(st.integers(1, 6).filter(lambda v: v != old), label="value")
    tampered = copy.deepcopy(original)
    tampered["moves"][i]["dice"][j] = new
    problem = problem_of(tampered)
    assert (problem.index, problem.kind) == (i, "dice")
    assert str(new) in problem.message


def test_forged_dice_with_recomputed_chain_still_caught() -> None:
    data = savefile.save(fixed_game())
    i = next(k for k, m in enumerate(data["moves"]) if m["dice"])
    data["moves"][i]["dice"] = [6] * len(data["moves"][i]["dice"])
    prev = data["genesis"]
    for m in data["moves"]:
        m["link"] = prev = link_hash(prev, m["seat"], m["action"], m["dice"], m["state_hash"])
    problem = problem_of(data)
    assert (problem.index, problem.kind) == (i, "dice") and "recomputed" in problem.message


def test_state_hash_link_and_seat_edits_are_named() -> None:
    good = savefile.save(fixed_game())
    bad = copy.deepcopy(good)
    bad["moves"][3]["state_hash"] = "f" * 64
    assert (problem_of(bad).index, problem_of(bad).kind) == (3, "state")
    bad = copy.deepcopy(good)
    bad["moves"][4]["link"] = "0" * 64
    assert (problem_of(bad).index, problem_of(bad).kind) == (4, "link")
    bad = copy.deepcopy(good)
    bad["moves"][5]["seat"] = "red" if bad["moves"][5]["seat"] == "blue" else "blue"
    assert (problem_of(bad).index, problem_of(bad).kind) == (5, "action")
    bad = copy.deepcopy(good)
    bad["moves"][1], bad["moves"][2] = bad["moves"][2], bad["moves"][1]
    assert problem_of(bad).index == 1
    bad = copy.deepcopy(good)
    del bad["moves"][-1]  # truncation keeps a valid prefix: compare the last link instead
    assert savefile.check(bad) is None and bad["moves"][-1]["link"] != good["moves"][-1]["link"]
    with pytest.raises(ReplayError) as err:
        savefile.replay(problem_free_copy_with_bad_state(good))
    assert err.value.problem.kind == "state"


def problem_free_copy_with_bad_state(good: dict[str, Any]) -> dict[str, Any]:
    bad = copy.deepcopy(good)
    bad["moves"][0]["state_hash"] = "a" * 64
    return bad


@pytest.mark.parametrize("field,value", [("seed", "12"), ("scenario", "standard"),
                                         ("options", ["turns=3"]),
                                         ("initial_state_hash", "b" * 64)])
def test_header_edits_are_detected(field: str, value: Any) -> None:
    data = savefile.save(fixed_game())
    data[field] = value
    problem = problem_of(data)
    assert problem.index is None and problem.kind == "header"
    # Even with a recomputed genesis the replay notices (dice, initial state).
    model = savefile.parse(data)
    data["genesis"] = savefile.genesis_hash(model.header())
    assert problem_of(data) is not None


def test_commit_reveal_record_is_saved_and_verified() -> None:
    record = CommitReveal(("blue", "red"))
    for seat in record.seats:
        record.commit(seat, commitment(seat, f"{seat}-s"))
    for seat in record.seats:
        record.reveal(seat, f"{seat}-s")
    game = played(0, [5, 0, 4, 1], commit_reveal=record)
    data = savefile.save(game)
    assert data["seed"] == record.seed() and data["commit_reveal"] == record.to_json()
    assert savefile.replay(data).state_hash() == game.state_hash()
    data["commit_reveal"]["reveals"]["red"] = "other"
    problem = problem_of(data)
    assert problem.kind == "header" and "'red'" in problem.message


def test_snapshot_trusted_without_verify_and_checked_with_verify() -> None:
    game = fixed_game()
    data = savefile.save(game, snapshot=True)
    assert data["snapshot"]["index"] == len(data["moves"])
    data["snapshot"]["state"]["position"]["turn"] = 1
    fast = savefile.replay(data, verify=False)
    assert fast.position_json()["turn"] == 1  # trusted: no re-derivation
    problem = problem_of(data)
    assert (problem.index, problem.kind) == (len(data["moves"]), "snapshot")


def test_load_names_the_bad_field(tmp_path: Path) -> None:
    data = savefile.save(fixed_game())
    path = tmp_path / "s.json"
    cases: list[tuple[Any, str]] = [
        (lambda d: d["moves"][2]["dice"].append(10), r"moves\.2\.dice\.\d+"),
        (lambda d: d.pop("seed"), "seed"),
        (lambda d: d["moves"][0].__setitem__("link", "xyz"), r"moves\.0\.link"),
        (lambda d: d.__setitem__("format", "other"), "format"),
        (lambda d: d.__setitem__("cheat", True), "cheat"),
    ]
    for edit, field in cases:
        bad = copy.deepcopy(data)
        edit(bad)
        path.write_text(json.dumps(bad))
        with pytest.raises(SaveFileError, match=rf"{field}(\.\d+)?: "):
            savefile.load(path)
    path.write_text("{not json")
    with pytest.raises(SaveFileError, match="not JSON"):
        savefile.load(path)
    with pytest.raises(SaveFileError, match="cannot read"):
        savefile.load(tmp_path / "missing.json")


def test_written_file_is_readable_json_and_save_is_canonical() -> None:
    data = savefile.save(fixed_game())
    assert json_copy(data) == data
    assert set(data) == {"format", "version", "system", "scenario", "options", "seed", "dice",
                         "commit_reveal", "initial_state_hash", "genesis", "moves", "snapshot"}


def test_a_game_of_d10s_saves_and_replays_with_faces_zero_to_nine() -> None:
    """A GBACW game rolls d10s (0..9): its save holds faces a d6 never shows, and replay
    re-derives them from the seed (seeded) or the script (scripted, with its die)."""
    from gettysburg.core.dice import ScriptedDice
    from gettysburg.core.savefile import replay, save

    game = new_game("gbacw/herr-ridge", seed="d10-save")
    while not any(r.die == "d10" and r.value in (0, 7, 8, 9) for r in game.dice.rolls):
        seat = game.to_move()[0]
        game.apply(game.legal_actions(seat)[0], seat)
    again = replay(json.loads(json.dumps(save(game))))
    assert again.state_hash() == game.state_hash()

    scripted = new_game("gbacw/herr-ridge", seed="s", dice=ScriptedDice([9, 0] * 40, die="d10"))
    seat = scripted.to_move()[0]
    scripted.apply(scripted.legal_actions(seat)[0], seat)
    data = json.loads(json.dumps(save(scripted)))
    assert data["dice"]["die"] == "d10"
    assert replay(data).state_hash() == scripted.state_hash()
