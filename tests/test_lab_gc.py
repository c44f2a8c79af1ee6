"""The lab collects garbage less often while a game is played, and puts the collector's
thresholds back afterwards, even when an agent fails (``simulate._fewer_collections``)."""

from __future__ import annotations

import gc
import random
from typing import Any, ClassVar

import pytest

from gettysburg.ai import agent as agent_module
from gettysburg.ai.random_agent import RandomAgent
from gettysburg.lab.simulate import GC_FIRST_THRESHOLD, make_specs, play_game


class _Noting(RandomAgent):
    """The random agent that notes the collector's thresholds at each decision, and
    fails at its third when told to."""

    name = "random-noting"
    stream = "random"
    seen: ClassVar[list[tuple[int, int, int]]] = []
    fail = False

    def choose(self, view: dict[str, Any], legal_actions: Any, budget_s: float,
               rng: random.Random) -> dict[str, Any]:
        _Noting.seen.append(gc.get_threshold())
        if _Noting.fail and len(_Noting.seen) == 3:
            raise RuntimeError("agent fails")
        return super().choose(view, legal_actions, budget_s, rng)


@pytest.fixture(autouse=True)
def _agent(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(agent_module._AGENTS, "random-noting", lambda seed: _Noting(seed))
    _Noting.seen.clear()
    _Noting.fail = False


@pytest.mark.parametrize("fail", [False, True])
def test_thresholds_raised_while_playing_and_restored_after(fail: bool) -> None:
    before = gc.get_threshold()
    assert before[0] != GC_FIRST_THRESHOLD
    _Noting.fail = fail
    spec = make_specs("toy/standard", 1, {"red": "random-noting", "blue": "random-noting"},
                      seed=4, max_actions=6)[0]
    row = play_game(spec)
    assert (row["error"] is not None) == fail
    assert _Noting.seen and all(t[0] == GC_FIRST_THRESHOLD for t in _Noting.seen)
    assert gc.get_threshold() == before
