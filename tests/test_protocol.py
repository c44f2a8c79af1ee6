"""The game protocol, exercised through the toy rule system."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gettysburg.core.canonical import CanonicalError, canonical_json, hash_json
from gettysburg.core.dice import CommitReveal, DiceExhausted, ScriptedDice, commitment
from gettysburg.core.protocol import (
    REFEREE,
    Action,
    Event,
    Game,
    RuleError,
    UnknownSystemError,
    check_action,
    load_game,
    make_action,
    new_game,
    parse_spec,
    register_system,
    system_names,
)
from gettysburg.toy.game import ToyGame

SECRET_SEED = "seed-that-must-never-leak-9f3a"
PROFILE = settings(max_examples=60, deadline=None,
                   suppress_health_check=[HealthCheck.too_slow])


def play(game: Game, choices: list[int]) -> list[Action]:
    """Apply legal actions picked by ``choices`` (indices, wrapped); return them."""
    done: list[Action] = []
    for c in choices:
        if game.is_terminal():
            break
        seat = game.to_move()[0]
        legal = game.legal_actions(seat)
        action = legal[c % len(legal)]
        game.apply(action, seat)
        done.append(action)
    return done


choice_lists = st.lists(st.integers(min_value=0, max_value=50), max_size=40)


# --- canonical JSON and actions ------------------------------------------------------------


def test_canonical_json_is_sorted_compact_and_strict() -> None:
    assert canonical_json({"b": 1, "a": [1.5, None, "é"]}) == '{"a":[1.5,null,"é"],"b":1}'
    assert hash_json({"a": 1, "b": 2}) == hash_json({"b": 2, "a": 1})
    for bad in ({1: "x"}, {"x": float("nan")}, {"x": {1, 2}}, b"bytes"):
        with pytest.raises(CanonicalError):
            canonical_json(bad)


def test_check_action_shapes() -> None:
    assert make_action("move", block="b3", path=("R1", "R2")) == {
        "type": "move", "block": "b3", "path": ["R1", "R2"]}
    for bad in (["type", "x"], {"block": "r1"}, {"type": ""}, {"type": 3},
                {"type": "x", "v": float("inf")}):
        with pytest.raises(RuleError) as err:
            check_action(bad)
        assert err.value.rule == "protocol.action"


def test_rule_error_carries_rule() -> None:
    err = RuleError("6.62", "artillery may not fire twice")
    assert err.rule == "6.62" and "rule 6.62" in str(err)
    assert err.to_json() == {"rule": "6.62", "message": "artillery may not fire twice"}


# --- events -------------------------------------------------------------------------------


def test_event_visibility_and_redaction() -> None:
    secret = Event("hit", "6.62", {"hex": "R12", "block": "Iron Brigade"}, visible_to=("usa",),
                   redacted={"hex": "R12"})
    assert secret.for_seat("usa") == {"type": "hit", "rule": "6.62",
                                      "data": {"hex": "R12", "block": "Iron Brigade"}}
    assert secret.for_seat("csa") == {"type": "hit", "rule": "6.62", "data": {"hex": "R12"},
                                      "redacted": True}
    referee = secret.for_seat(REFEREE)
    assert referee is not None and referee["visible_to"] == ["usa"]
    hidden = Event("plan", "3.1", {"x": 1}, visible_to=("usa",))
    assert hidden.for_seat("csa") is None
    assert Event.from_json(json.loads(json.dumps(secret.to_json()))) == secret
    with pytest.raises(CanonicalError):
        Event("bad", data={"x": object()})


# --- registry -----------------------------------------------------------------------------


def test_registry_and_spec_parsing() -> None:
    assert "toy" in system_names()
    assert parse_spec("boc/day1") == ("boc", "day1")
    assert parse_spec("boc/scenarios/x.yaml") == ("boc", "scenarios/x.yaml")
    for bad in ("boc", "/day1", "boc/"):
        with pytest.raises(ValueError):
            parse_spec(bad)
    # The error offers every system shipped, imported yet or not.
    # (Other test modules register test-only systems, "memo" in test_server_undo.py, when
    # pytest collects them: the list may hold those too.)
    with pytest.raises(UnknownSystemError, match=r"known: \[.*'boc'.*'toy'.*\]"):
        new_game("nosuch/day1")
    register_system("toy", ToyGame)  # re-registering the same factory is harmless

    def other(scenario: str, options: Any, seed: int | str, dice: Any) -> Game:
        return ToyGame(scenario, options, seed, dice)

    with pytest.raises(ValueError, match="already registered"):
        register_system("toy", other, loader=ToyGame.from_json)
    with pytest.raises(ValueError, match="loader"):
        register_system("toy2", other)


def test_new_game_with_options_seed_and_commit_reveal() -> None:
    game = new_game("toy/strong", options=["turns=2"], seed=7)
    assert isinstance(game, ToyGame) and game.turns == 2 and game.setup.seed == "7"
    assert new_game("toy/strong", seed="7").state_hash() == new_game(
        "toy/strong", seed=7).state_hash()
    with pytest.raises(ValueError, match="option"):
        new_game("toy/standard", options=["fog=off"])
    record = CommitReveal(("blue", "red"))
    for seat in record.seats:
        record.commit(seat, commitment(seat, f"{seat}-secret"))
    for seat in record.seats:
        record.reveal(seat, f"{seat}-secret")
    pbem = new_game("toy/standard", commit_reveal=record)
    assert pbem.setup.seed == record.seed()
    assert pbem.setup.commit_reveal == record.to_json()


# --- protocol behaviour -------------------------------------------------------------------


def test_wrong_seat_and_finished_game_are_refused() -> None:
    game = ToyGame(options=["turns=1"])
    before = game.state_hash()
    with pytest.raises(RuleError) as err:
        game.apply({"type": "pass"}, "blue")
    assert err.value.rule == "protocol.seat" and game.state_hash() == before
    game.apply({"type": "pass"}, "red")
    assert game.is_terminal() and game.to_move() == []
    assert game.result() == {"winner": None, "strength": {"red": 6, "blue": 6}}
    with pytest.raises(RuleError) as err:
        game.apply({"type": "pass"}, "blue")
    assert err.value.rule == "protocol.over"


def test_non_active_seat_decides_where_hits_go() -> None:
    game = ToyGame(dice=ScriptedDice([6, 5, 1]))
    game.apply({"type": "attack", "block": "r1"}, "red")  # strength 3: dice 6, 5, 1 → 2 hits
    assert game.to_move() == ["blue"]
    assert game.legal_actions("red") == []
    with pytest.raises(RuleError) as err:
        game.apply({"type": "pass"}, "blue")
    assert err.value.rule == "T4"
    game.apply({"type": "assign", "block": "b2"}, "blue")
    assert game.blocks["b2"]["strength"] == 1
    assert game.to_move() == ["blue"] and game.turn == 2


def test_failed_execute_leaves_state_and_dice_untouched() -> None:
    class Broken(ToyGame):
        def execute(self, action: Action, seat: str) -> list[Event]:
            self.dice.roll_n(2, "doomed")
            self.blocks["r1"]["strength"] = 99
            self.turn = 42
            raise RuleError("T9", "discovered mid-way")

    game = Broken()
    before, counter, log = game.state_hash(), game.dice.counter, len(game.log)
    with pytest.raises(RuleError, match="mid-way"):
        game.apply({"type": "pass"}, "red")
    assert (game.state_hash(), game.dice.counter, len(game.log)) == (before, counter, log)
    assert game.history == ()
    # Nor is the start of the save's hash chain fixed by a refused first action (a copy,
    # which keeps no start without history, would disagree with the game about it).
    assert game._initial_hash is None


def test_running_out_of_scripted_dice_changes_nothing() -> None:
    game = ToyGame(dice=ScriptedDice([6]))
    before = game.state_hash()
    with pytest.raises(DiceExhausted):
        game.apply({"type": "attack", "block": "r1"}, "red")
    assert game.state_hash() == before and game.dice.counter == 0


@PROFILE
@given(choice_lists)
def test_random_legal_play_keeps_invariants(choices: list[int]) -> None:
    game = ToyGame(seed=SECRET_SEED)
    total = {s: game._total(s) for s in game.seats()}
    hashes = [game.state_hash()]
    for c in choices:
        if game.is_terminal():
            break
        action = play(game, [c])[0]
        movers = game.to_move()
        assert set(movers) <= set(game.seats())
        assert len(movers) == (0 if game.is_terminal() else 1)
        for seat in movers:
            assert game.legal_actions(seat)
        for b in game.blocks.values():
            assert 1 <= b["strength"] <= 4
        now = {s: game._total(s) for s in game.seats()}
        assert all(now[s] <= total[s] for s in now)
        total = now
        assert game.history[-1].action == action
        assert game.history[-1].state_hash == game.state_hash()
        hashes.append(game.state_hash())
    assert (game.result() is None) != game.is_terminal()
    # Full state survives JSON, and the same seed and actions give the same hashes.
    data = json.loads(json.dumps(game.to_json()))
    again = load_game(data)
    assert again.state_hash() == game.state_hash() and again.to_json() == game.to_json()
    clone = game.clone()
    if not clone.is_terminal():
        seat = clone.to_move()[0]
        clone.apply(clone.legal_actions(seat)[0], seat)
        assert clone.state_hash() != game.state_hash() == again.state_hash()
    twin = ToyGame(seed=SECRET_SEED)
    for move, h in zip(game.history, hashes[1:], strict=True):
        twin.apply(move.action, move.seat)
        assert twin.state_hash() == h


junk_actions = st.one_of(
    st.dictionaries(st.sampled_from(["type", "block", "x"]),
                    st.one_of(st.sampled_from(["reveal", "attack", "assign", "pass", "r1", "b1",
                                               "r9", ""]), st.integers(), st.none()),
                    max_size=3),
    st.sampled_from([{"type": "attack", "block": "b1"}, {"type": "reveal", "block": "b2"},
                     {"type": "assign", "block": "r1"}, {"type": "pass", "extra": 1},
                     {"type": "attack"}, {"type": "fly"}]),
    st.lists(st.integers(), max_size=2), st.text(max_size=5))


@PROFILE
@given(choice_lists, junk_actions, st.sampled_from(["red", "blue", REFEREE, "green"]))
def test_actions_outside_legal_actions_are_refused_without_change(
        choices: list[int], junk: Any, seat: str) -> None:
    game = ToyGame(seed=3)
    play(game, choices)
    legal = game.legal_actions(seat)
    if isinstance(junk, dict) and junk in legal:
        return
    before, log, counter = game.state_hash(), game.events(REFEREE), game.dice.counter
    with pytest.raises(RuleError) as err:
        game.apply(junk, seat)
    assert err.value.rule
    assert game.state_hash() == before
    assert game.events(REFEREE) == log and game.dice.counter == counter


def _hidden_labels(game: ToyGame, seat: str) -> list[str]:
    return [b["label"] for b in game.blocks.values()
            if b["side"] != seat and not b["revealed"]]


@PROFILE
@given(choice_lists)
def test_fog_views_and_logs_never_show_hidden_values(choices: list[int]) -> None:
    game = ToyGame(seed=SECRET_SEED)
    play(game, choices)
    for seat in game.seats():
        shown = json.dumps(game.view(seat)) + json.dumps(game.events(seat))
        for label in _hidden_labels(game, seat):
            assert label not in shown
        assert SECRET_SEED not in shown
        for bid, block in game.view(seat)["blocks"].items():
            if game.blocks[bid]["side"] != seat and not game.blocks[bid]["revealed"]:
                assert set(block) == {"side", "revealed"}
        # The attacker's dice count would reveal its strength: the defender never sees them.
        for ev in game.events(seat):
            if ev["type"] == "dice" and "rolls" in ev["data"]:
                assert all(seat[0] == r["purpose"][0] for r in ev["data"]["rolls"])
    everything = json.dumps(game.view(REFEREE)) + json.dumps(game.events(REFEREE))
    for b in game.blocks.values():
        assert b["label"] in everything


def test_events_since_and_indices() -> None:
    game = ToyGame(seed=1)
    game.apply({"type": "reveal", "block": "r1"}, "red")
    game.apply({"type": "pass"}, "blue")
    log = game.events("blue")
    assert [e["n"] for e in log] == list(range(len(log)))
    assert game.events("blue", since=2) == log[2:]
    assert game.log_size("blue") == len(log)
    assert log[1]["data"]["label"] == "Archer"  # revealed blocks are public


def test_each_seat_numbers_its_own_log_without_gaps() -> None:
    """A seat's ``n`` counts only what it may see: a gap would tell it how many events
    were kept from it. A host's per-action slices (``events_between``) add up to the
    seat's whole log."""
    game = ToyGame(seed=4)
    marks = [0, len(game.log)]  # the set-up, then one slice per action
    for _ in range(12):
        if game.is_terminal():
            break
        seat = game.to_move()[0]
        legal = game.legal_actions(seat)
        game.apply(legal[-1], seat)
        marks.append(len(game.log))
    # An event only red may see, with nothing shown to blue (as BoC's 5.24 healing).
    game._log.insert(marks[2], Event("secret", "T9", {"x": 1}, visible_to=("red",)))
    marks[2:] = [m + 1 for m in marks[2:]]
    assert game.log_size("blue") == game.log_size("red") - 1
    for seat in (*game.seats(), REFEREE):
        log = game.events(seat)
        assert [e["n"] for e in log] == list(range(game.log_size(seat)))
        sliced = [e for lo, hi in pairwise(marks)
                  for e in game.events_between(seat, lo, hi)]
        assert sliced == log
        assert game.events(seat, since=3) == log[3:]
    assert game.log_size(REFEREE) == len(game.log)


def test_systems_are_imported_on_first_use() -> None:
    # A fresh interpreter has not imported the toy module; new_game finds it anyway.
    code = ("from gettysburg.core.protocol import new_game, system_names\n"
            "assert system_names() == []\n"
            "print(new_game('toy/standard', seed=5).system)")
    src = Path(__file__).resolve().parents[1] / "src"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (str(src), os.environ.get("PYTHONPATH", "")) if p)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env=env, check=True)
    assert out.stdout.strip() == "toy"


@given(st.lists(st.integers(min_value=0, max_value=50), min_size=1, max_size=40))
@settings(PROFILE)
def test_unrecorded_play_reaches_the_same_position_without_history(choices: list[int]
                                                                   ) -> None:
    """``apply_unrecorded`` (search rollouts) follows the rules and dice of ``apply`` but
    keeps no history; it refuses actions the rules refuse."""
    kept, quick = new_game("toy/standard", seed=7), new_game("toy/standard", seed=7)
    for c in choices:
        if kept.is_terminal():
            with pytest.raises(RuleError):
                quick.apply_unrecorded({"type": "pass"}, quick.seats()[0])
            break
        seat = kept.to_move()[0]
        legal = kept.legal_actions(seat)
        action = legal[c % len(legal)]
        kept.apply(action, seat)
        quick.apply_unrecorded(action, seat)
        assert quick.position_json() == kept.position_json()
    assert quick.history == () and len(kept.history) > 0
    assert quick.state_hash() == kept.state_hash()
    if not quick.is_terminal():
        other = next(s for s in quick.seats() if s not in quick.to_move())
        with pytest.raises(RuleError):
            quick.apply_unrecorded(quick.legal_actions(quick.to_move()[0])[0], other)
        # The toy's execute trusts validate(), so apply_unrecorded must validate first.
        before = quick.position_json()
        with pytest.raises(RuleError):
            quick.apply_unrecorded({"type": "teleport"}, quick.to_move()[0])
        with pytest.raises(RuleError):
            quick.apply_unrecorded({"type": ""}, quick.to_move()[0])
        assert quick.position_json() == before


def test_legal_in_view_reads_the_views_list_else_asks() -> None:
    """A host that built the view takes its list (the same object, built once); a view
    without one (a summary) sends it to ``legal_actions``."""
    game = new_game("toy/standard", seed=5)
    seat = game.to_move()[0]
    view = game.view(seat)
    assert game.legal_in_view(view, seat) is view["legal_actions"]
    assert game.legal_in_view({}, seat) == game.legal_actions(seat)
