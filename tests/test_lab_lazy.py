"""Issue 59: the lab plays an agent that reads no view (the random agent) from the view's
summary and the lazily built legal actions (``Game.view_summary``, ``Game.legal_sequence``),
and plays the same games as when it handed it the whole view and list."""

from __future__ import annotations

import random
from typing import Any, ClassVar

import pytest

from gettysburg.ai import agent as agent_module
from gettysburg.ai import make_agent
from gettysburg.ai.random_agent import RandomAgent
from gettysburg.boc.lab_hooks import HOOKS as BOC_HOOKS
from gettysburg.core.protocol import new_game
from gettysburg.lab.simulate import make_specs, play_game, reads_view


class _ViewingRandom(RandomAgent):
    """The random agent on the random numbers of "random", taking the whole view and list
    (the lab's loop before issue 59's summary and sequence)."""

    name = "random-viewing"
    stream = "random"
    reads_view = True


def _viewing(seed: str) -> _ViewingRandom:
    return _ViewingRandom(seed)


class _Spy(RandomAgent):
    """The random agent that notes what it was handed."""

    name = "random-spy"
    stream = "random"
    seen: ClassVar[list[tuple[frozenset[str], str]]] = []

    def choose(self, view: dict[str, Any], legal_actions: Any, budget_s: float,
               rng: random.Random) -> dict[str, Any]:
        _Spy.seen.append((frozenset(view), type(legal_actions).__name__))
        return super().choose(view, legal_actions, budget_s, rng)


def _spy(seed: str) -> _Spy:
    return _Spy(seed)


@pytest.fixture(autouse=True)
def _agents(monkeypatch: pytest.MonkeyPatch) -> None:
    """The two test agents, registered for this module's tests only (a name left in the
    registry would show in other tests' lists of agents)."""
    monkeypatch.setitem(agent_module._AGENTS, "random-viewing", _viewing)
    monkeypatch.setitem(agent_module._AGENTS, "random-spy", _spy)


def _same_play(row: dict[str, Any]) -> dict[str, Any]:
    """A row without what names the agents or times the game."""
    return {k: v for k, v in row.items() if k not in ("seconds", "agents", "streams")}


def test_only_agents_that_say_so_skip_the_view() -> None:
    assert not reads_view(RandomAgent())
    assert not reads_view(make_agent("random", 0, system="boc"))
    assert reads_view(make_agent("general", 0, system="toy"))
    assert reads_view(_ViewingRandom()) and reads_view(object())


def test_protocol_defaults_are_the_list_and_the_view() -> None:
    """A system that offers neither (the toy game) answers with its list and full view."""
    game = new_game("toy/standard", seed=3)
    seat = game.to_move()[0]
    assert list(game.legal_sequence(seat)) == game.legal_actions(seat)
    assert game.view_summary(seat) == game.view(seat)


def test_boc_lab_games_are_the_same_from_the_summary_and_the_sequence() -> None:
    """Day 1, random against random and random against the general, recorded or not: the
    lab's rows are those of the same games played from the whole view and list."""
    for agents, viewing, limit in (({"usa": "random", "csa": "random"},
                                    {"usa": "random-viewing", "csa": "random-viewing"}, 300),
                                   ({"usa": "general", "csa": "random"},
                                    {"usa": "general", "csa": "random-viewing"}, 80)):
        lazy = play_game(make_specs("boc/day1", 1, agents, seed=59, max_actions=limit)[0])
        full = play_game(make_specs("boc/day1", 1, viewing, seed=59, max_actions=limit)[0],
                         recorded=True)
        assert lazy["error"] is None and lazy["actions"] == limit
        assert _same_play(lazy) == _same_play(full)


def test_the_random_agent_gets_the_summary_and_the_sequence() -> None:
    _Spy.seen.clear()
    play_game(make_specs("boc/day1", 1, {"usa": "random-spy", "csa": "random"}, seed=5,
                         max_actions=40)[0])
    assert _Spy.seen
    for keys, kind in _Spy.seen:
        assert "legal_actions" not in keys and "units" not in keys and "time" in keys
        assert kind == "LegalActions"


def test_boc_summary_is_part_of_the_view_and_tells_the_lab_the_same() -> None:
    """Position after position of a random Day 1 game (every fifth), for both seats and
    the referee: every key of the summary has the view's value, and the lab's hooks read
    the same clock and score from either."""
    game = new_game("boc/day1", seed="summary")
    agent, rng = RandomAgent(), random.Random(1)
    checked = 0
    for step in range(400):
        if game.is_terminal():
            break
        seat = game.to_move()[0]
        if step % 5 == 0:
            for who in (*game.seats(), "referee"):
                summary, view = game.view_summary(who), game.view(who)
                assert {k: view[k] for k in summary} == summary, (step, who)
                assert not {"units", "hidden", "legal_actions"} & set(summary)
                assert BOC_HOOKS.clock is not None and BOC_HOOKS.standing is not None
                assert BOC_HOOKS.clock(summary) == BOC_HOOKS.clock(view)
                assert BOC_HOOKS.standing(summary) == BOC_HOOKS.standing(view)
            checked += 1
        game.apply_unrecorded(agent.choose({}, game.legal_sequence(seat), 1.0, rng), seat)
    assert checked >= 60
