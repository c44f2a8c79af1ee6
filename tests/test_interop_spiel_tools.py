"""OpenSpiel's own tools on the adapter: the games pickle and pass OpenSpiel's
``games_sim_test`` (bounded), and ``generate_playthrough`` runs with the public and
private observers."""

from __future__ import annotations

import json
import pickle

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")
adapter = pytest.importorskip("gettysburg.interop.openspiel")

from open_spiel.python.algorithms import generate_playthrough  # type: ignore[import-untyped]  # noqa: E402
from open_spiel.python.observation import make_observation  # type: ignore[import-untyped]  # noqa: E402
from open_spiel.python.tests import games_sim_test  # type: ignore[import-untyped]  # noqa: E402

# Bounded so OpenSpiel's walk (serialising at every power of two) stays short.
BOUNDED = (("toy/standard", 200), ("boc/day1", 40))


@pytest.mark.parametrize(("spec", "decisions"), BOUNDED)
def test_games_pickle_with_their_parameters(spec: str, decisions: int) -> None:
    game = adapter.load(spec, max_decisions=decisions, seed=3)
    back = pickle.loads(pickle.dumps(game))
    assert str(back) == str(game) and f"max_decisions={decisions}" in str(back)
    assert back.num_distinct_actions() == game.num_distinct_actions()
    assert pickle.loads(pickle.dumps(game.get_type())) == game.get_type()
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    assert str(pickle.loads(pickle.dumps(state))) == str(state)


@pytest.mark.parametrize(("spec", "decisions"), BOUNDED)
def test_openspiels_games_sim_test(spec: str, decisions: int) -> None:
    game = adapter.load(spec, max_decisions=decisions)
    np.random.seed(4)  # the test draws with numpy's global generator
    case = games_sim_test.GamesSimTest("test_breakthrough")
    case.sim_game(game)  # raises (assertion) on any failure


def _split(lines: list[str], prefix: str) -> list[str]:
    return [line.split(" = ", 1)[1] for line in lines if line.startswith(prefix)]


def test_playthrough_runs_with_public_and_private_observers() -> None:
    lines = generate_playthrough.playthrough_lines("python_toy_standard", seed=7)
    public = _split(lines, "PublicObservationString()")
    private = [_split(lines, f"PrivateObservationString({p})") for p in (0, 1)]
    assert len(public) == len(private[0]) == len(private[1]) > 5
    # Red's labels are red's alone: in its private part, never in the public one.
    assert "Archer" in private[0][0] and "Archer" not in private[1][0]
    # A label turns public when its block is revealed, and not before.
    shown = [json.loads(p[1:-1])["blocks"] for p in public]
    assert not any("label" in b for b in shown[0].values())
    assert all(("label" in b) == b["revealed"] for blocks in shown for b in blocks.values())
    assert any(b["revealed"] for blocks in shown for b in blocks.values())
    assert any("terminated" in line or "IsTerminal() = True" in line for line in lines)


def test_factored_observers_take_one_seat_or_none_and_refuse_the_rest() -> None:
    game = adapter.load("toy/standard")
    kinds = pyspiel.PrivateInfoType
    with pytest.raises(ValueError, match="not all players"):
        make_observation(game, pyspiel.IIGObservationType(
            public_info=True, perfect_recall=False, private_info=kinds.ALL_PLAYERS))
    with pytest.raises(ValueError, match="perfect recall"):
        make_observation(game, pyspiel.IIGObservationType(
            public_info=True, perfect_recall=True, private_info=kinds.NONE))
    public = make_observation(game, pyspiel.IIGObservationType(
        public_info=True, perfect_recall=False, private_info=kinds.NONE))
    state = game.new_initial_state()
    assert public.tensor is None
    assert public.string_from(state, 0) == public.string_from(state, 1)
    assert '"seat"' not in public.string_from(state, 0)
