"""Issue 59, the research adapters without overhead: a Day 1 game through either adapter is
the engine's own game (same seed and actions, same state hash); each position's legal
actions are built once and shared by the mask, the observation and the step; the
shortcuts BoC's hooks take (a tensor without the whole view, a memory without the whole
view, the recall digest hashed only when asked) give what the long way gives."""

from __future__ import annotations

import random
from typing import Any

import pytest

from gettysburg.boc import observation
from gettysburg.boc.ai.belief import Sightings
from gettysburg.boc.game import BocGame
from gettysburg.boc.legal_list import LegalActions
from gettysburg.boc.research import hooks
from gettysburg.core.protocol import Action, Seat, new_game

HOOKS = hooks()


def _engine_line(scenario: str, seed: int, decisions: int, p_end: float = 0.4
                 ) -> tuple[BocGame, list[tuple[Seat, Action]]]:
    """The engine alone: a semi-random line (end the phase with ``p_end``)."""
    game = new_game(scenario, seed=seed)
    assert isinstance(game, BocGame)
    rng, moves = random.Random(seed), []
    for _ in range(decisions):
        if game.is_terminal():
            break
        seat = game.to_move()[0]
        legal = game.legal_actions(seat)
        action = legal[0] if rng.random() < p_end else rng.choice(legal)
        game.apply(action, seat)
        moves.append((seat, action))
    return game, moves


def _id_of(game: BocGame, seat: Seat, action: Action) -> int:
    legal = game.legal_actions(seat)
    return HOOKS.encode_actions(game, legal)[legal.index(action)]


def test_day1_through_pettingzoo_is_the_engines_game() -> None:
    pz = pytest.importorskip("gettysburg.interop.pettingzoo")
    alone, moves = _engine_line("boc/day1", 5, 150)
    e = pz.env("boc/day1")
    e.reset(seed=5)
    for seat, action in moves:
        assert e.agent_selection == seat
        e.step(_id_of(e.game, seat, action))
    assert e.game.state_hash() == alone.state_hash()
    assert [m.state_hash for m in e.game.history] == [m.state_hash for m in alone.history]


def test_day1_through_openspiel_is_the_engines_game() -> None:
    """Dice are chance outcomes there: fed the faces the engine rolled, the adapter's game
    reaches the same position, and its actions replayed by the engine alone with the same
    seed reach the same state hash."""
    bos = pytest.importorskip("gettysburg.interop.openspiel")
    alone, moves = _engine_line("boc/day1", 3, 150)
    rolls = [m.dice for m in alone.history]
    assert sum(map(len, rolls)) >= 5  # some actions needed dice
    s = bos.load("boc/day1", seed=3).new_initial_state()
    for (seat, action), dice in zip(moves, rolls, strict=True):
        s.apply_action(_id_of(s.engine, seat, action))
        for face in dice:
            assert s.is_chance_node()
            s.apply_action(face - 1)
        assert not s.is_chance_node()
    through = s.engine
    assert through.position_json() == alone.position_json()
    replay = new_game("boc/day1", seed=3)
    for m in through.history:
        replay.apply(m.action, m.seat)
    assert replay.state_hash() == alone.state_hash()


def _count_legal(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the legal lists built, as a list or as the lazy sequence (the adapters
    read the sequence since session 48; neither method calls the other)."""
    calls: list[int] = []
    real, real_seq = BocGame.legal_actions, BocGame.legal_sequence

    def counting(self: BocGame, seat: Seat) -> list[Action]:
        calls.append(1)
        return real(self, seat)

    def counting_seq(self: BocGame, seat: Seat) -> LegalActions:
        calls.append(1)
        return real_seq(self, seat)

    monkeypatch.setattr(BocGame, "legal_actions", counting)
    monkeypatch.setattr(BocGame, "legal_sequence", counting_seq)
    return calls


def test_pettingzoo_builds_each_positions_legal_actions_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Mask, observation, info and step share one legal list a position (before issue 59
    the observation built BoC's whole view, which listed them again)."""
    pz = pytest.importorskip("gettysburg.interop.pettingzoo")
    import numpy as np

    e = pz.env("boc/day1", max_decisions=40)
    calls = _count_legal(monkeypatch)
    e.reset(seed=2)
    steps = 0
    for _agent in e.agent_iter(200):
        obs, _r, term, trunc, info = e.last()
        if term or trunc:
            e.step(None)
            continue
        assert calls == [1] * (steps + 1)
        for seat in e.agents:  # both agents' observations: no legal list built
            e.observe(seat)
        assert np.array_equal(np.flatnonzero(obs["action_mask"]), info["legal_ids"])
        e.step(int(info["legal_ids"][steps % len(info["legal_ids"])]))
        steps += 1
    assert steps == 40 and len(calls) == 40


def test_openspiel_builds_each_positions_legal_actions_once_and_hashes_no_recall(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """One legal list a decision for legal_actions, the observation tensor and the step;
    the seats' recall digests wait until an information state string is asked for, and
    are then what a fresh replay gives."""
    bos = pytest.importorskip("gettysburg.interop.openspiel")
    game = bos.load("boc/day1", max_decisions=60)
    calls = _count_legal(monkeypatch)
    s = game.new_initial_state()
    rng = random.Random(8)
    obs = game.make_py_observer()
    decided = 0
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(rng.randrange(6))
            continue
        legal = s.legal_actions()
        obs.set_from(s, s.current_player())
        assert len(calls) == decided + 1
        s.apply_action(legal[0] if rng.random() < 0.4 else rng.choice(legal))
        decided += 1
    assert decided == 60
    node, steps = s._recall, 0
    while node is not None:
        assert not node.digests  # nothing hashed yet
        node, steps = node.parent, steps + 1
    assert steps >= decided
    text = s.information_state_string(0)
    twin = game.new_initial_state()
    for a in s.history():
        twin.apply_action(a)
    assert twin.information_state_string(0) == text
    assert s.information_state_string(1) != text


def _positions(scenarios: tuple[tuple[str, int], ...], decisions: int) -> Any:
    for scenario, seed in scenarios:
        game = new_game(scenario, seed=seed)
        assert isinstance(game, BocGame)
        rng = random.Random(seed)
        for _ in range(decisions):
            if game.is_terminal():
                break
            yield game
            seat = game.to_move()[0]
            legal = game.legal_actions(seat)
            game.apply(legal[0] if rng.random() < 0.3 else rng.choice(legal), seat)


def test_the_tensor_without_the_view_is_the_tensor_of_the_view() -> None:
    """BoC's tensor read straight from the state equals the one read from the
    seat's whole observation, at positions with hidden and revealed enemy blocks and with
    combat decisions waiting."""
    met = {"decision": 0, "revealed": 0, "hidden": 0}
    for game in _positions((("boc/day1", 1), ("boc/day3", 2)), 160):
        hexes = HOOKS.board_hexes(game)
        for seat in ("usa", "csa"):
            whole = observation.observation_json(game, seat)
            assert observation.observation_tensor(game, seat, hexes) == \
                observation.observation_tensor(game, seat, hexes, whole)
            met["decision"] += "decision" in whole.get("combat", {})
            met["revealed"] += any(u["side"] != seat for u in whole["units"])
            met["hidden"] += bool(whole["hidden"])
    assert all(n > 0 for n in met.values()), met


def test_remember_gives_the_sightings_of_the_whole_views() -> None:
    """``remember`` builds only what ``Sightings.update`` reads (fallen leaders included):
    the same memory as the seat's whole views give, position after position."""
    memory: dict[Seat, object | None] = {"usa": None, "csa": None}
    whole = {"usa": Sightings(), "csa": Sightings()}
    fallen = 0
    for game in _positions((("boc/day3", 5),), 300):
        for seat in ("usa", "csa"):
            memory[seat] = HOOKS.remember(game, seat, memory[seat])
            view = game.view(seat)
            whole[seat].update(view)
            fallen += bool(view["fallen"])
            assert vars(memory[seat]) == vars(whole[seat])
    assert fallen > 0


def test_the_codecs_one_pass_runs_agree_with_one_action_at_a_time() -> None:
    """Moves and entries are encoded a run at a time by plain look-ups; a value not in the
    plain form (a hex in lower case) sends the run the general way, with the same ids, and
    a value the codec cannot number is still refused."""
    from gettysburg.boc import action_codec
    from gettysburg.core.protocol import RuleError

    seen: set[str] = set()
    for game in _positions((("boc/day1", 4),), 60):
        seat = game.to_move()[0]
        legal = game.legal_actions(seat)
        ids = action_codec.encode_actions(game, legal)
        enc = action_codec._Encoder(game, legal)
        assert ids == [enc.encode(a) for a in legal]
        lower = [{**a, "path": [h.lower() for h in a["path"]]} if "path" in a else a
                 for a in legal]
        assert action_codec.encode_actions(game, lower) == ids
        seen |= {a["type"] for a in legal}
        moves = [a for a in legal if a["type"] in ("move", "enter")]
        if moves:
            with pytest.raises(RuleError):
                action_codec.encode_actions(game, [{**moves[0], "unit": "nobody"}])
    assert {"move", "enter"} <= seen


def test_the_lazy_list_encodes_as_its_whole_list() -> None:
    """The codec reads a lazy legal list (``legal_sequence``) from its chunks, a unit's
    moves and entries without a dict each (session 48): the same ids as the list
    ``legal_actions`` gives, in movement phases with moves and entries and in the others;
    and the adapters' chosen action, built from the sequence, is the listed one."""
    from gettysburg.boc import action_codec

    met: set[str] = set()
    kept = 0  # chunks whose ids were kept from an earlier list
    action_codec._CHUNK_IDS.clear()
    for game in _positions((("boc/day1", 4), ("boc/day2", 3), ("boc/day3", 6)), 150):
        seat = game.to_move()[0]
        seq = game.legal_sequence(seat)
        legal = game.legal_actions(seat)
        before = {k: v[1] for k, v in action_codec._CHUNK_IDS.items()}
        ids = action_codec.encode_actions(game, seq)
        assert ids == action_codec.encode_actions(game, legal)
        kept += sum(before.get(k) is v[1] for k, v in action_codec._CHUNK_IDS.items())
        assert [seq[j] for j in range(len(seq))] == legal
        met |= {a["type"] for a in legal}
    assert {"move", "enter", "end_phase"} <= met, met
    assert kept > 100
