"""``benchmarks/move_learning.py``: the features of a destination, the samples of
search-move's plans, the fit and the learned general."""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "benchmarks"))

import move_learning as ml

from gettysburg.ai.doctrines import doctrine_for
from gettysburg.ai.general import GeneralAgent
from gettysburg.boc.ai.doctrine import BocDoctrine
from gettysburg.boc.ai.search_hooks import hooks as boc_hooks
from gettysburg.core.protocol import Game, new_game


def _near_move_position() -> tuple[Game, GeneralAgent, dict[str, Any], dict[str, Any]]:
    """Day 1 played by two generals up to a move of a block the general makes next to
    the enemy: (game, the mover's general, its view with memory, the general's choice)."""
    game = new_game("boc/day1", seed=3)
    generals = {s: GeneralAgent(f"3:{s}") for s in ("usa", "csa")}
    hooks = boc_hooks(None)
    for _ in range(900):
        seat = game.to_move()[0]
        view = generals[seat].memory.recall(game.view(seat))
        choice = generals[seat].choose(view, view["legal_actions"], 0.0, random.Random(0))
        if choice["type"] == "move" and view["active"] == seat \
                and hooks.near_enemy(view, (choice["path"][-1],)) == 1:
            return game, generals[seat], view, choice
        game.apply_unrecorded(choice, seat)
    raise AssertionError("no move into the line")


@pytest.fixture(scope="module")
def position() -> tuple[Game, GeneralAgent, dict[str, Any], dict[str, Any]]:
    return _near_move_position()


def test_features_are_relative_to_staying_put(position: Any) -> None:
    _, _, view, choice = position
    doctrine = doctrine_for(view)
    assert isinstance(doctrine, BocDoctrine)
    sit = doctrine.situation(view)
    uid, here, dest = choice["unit"], choice["path"][0], choice["path"][-1]
    assert ml.features(sit, uid, here, here) == [0.0] * len(ml.FEATURES)
    got = dict(zip(ml.FEATURES, ml.features(sit, uid, here, dest), strict=True))
    assert got["moved"] == 1.0
    # The destination is next to a known enemy (the position's premise).
    assert got["front"] == (0.0 if here in sit.front else 1.0)
    assert got["near"] == (min(sit.nearest_enemy(dest), 4) - min(sit.nearest_enemy(here), 4)) / 4
    assert got["objective"] == pytest.approx(sit.objective(dest, here) - sit.objective(here, here))


def test_a_sample_plays_search_moves_plans_in_shared_worlds(position: Any) -> None:
    """The general's destination first, staying put last; each round one value a plan."""
    _, general, view, choice = position
    got = ml._sample(view, view["legal_actions"], choice, general, 2, random.Random(5))
    assert got is not None
    assert got["dests"][0] == choice["path"][-1] and got["dests"][-1] == choice["path"][0]
    assert got["scores"][-1] == 0.0 and got["scores"][0] == max(got["scores"])
    assert len(got["values"]) == 2 and all(len(v) == len(got["dests"]) for v in got["values"])
    assert got["features"][-1] == [0.0] * len(ml.FEATURES)


def _synthetic(n: int, rng: random.Random) -> list[dict[str, Any]]:
    """Samples whose gains are 2 x "front" + 0.5 x the doctrine score, plus noise."""
    k = ml.FEATURES.index("front")
    out = []
    for _ in range(n):
        feats = [[rng.uniform(-1, 1) for _ in ml.FEATURES] for _ in range(3)]
        scores = [rng.uniform(-1, 1) for _ in range(3)]
        truth = [2.0 * f[k] + 0.5 * s for f, s in zip(feats, scores, strict=True)]
        values = [[t + rng.gauss(0, 0.1) for t in truth] for _ in range(4)]
        out.append({"dests": ["A", "B", "C"], "features": feats, "scores": scores,
                    "values": values})
    return out


def test_the_fit_recovers_a_planted_correction() -> None:
    got = ml.fit(_synthetic(400, random.Random(1)), ridge=0.01)
    assert got["coef"]["doctrine_score"][0] == pytest.approx(0.5, abs=0.05)
    assert got["weights"]["front"] == pytest.approx(2.0, abs=0.1)
    others = [abs(w) for name, w in got["weights"].items() if name != "front"]
    assert max(others) < 0.1 and got["r2"] > 0.9


def test_without_weights_the_learned_general_is_the_general(
        position: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    _, _, view, choice = position
    legal = view["legal_actions"]
    monkeypatch.setattr(ml, "WEIGHTS", {})
    learned = ml.LearnedGeneral("3:x")
    assert learned.choose(view, legal, 0.0, random.Random(0)) == choice
    # A heavy price on the line keeps the block out of it.
    heavy = {"front": -50.0, "enemy_hexes": -50.0}
    other = "usa" if view["seat"] == "csa" else "csa"
    monkeypatch.setattr(ml, "WEIGHTS", {other: heavy})  # the other seat's: no change
    assert ml.LearnedGeneral("3:x").choose(view, legal, 0.0, random.Random(0)) == choice
    monkeypatch.setattr(ml, "WEIGHTS", {"*": heavy})
    shy = ml.LearnedGeneral("3:x").choose(view, legal, 0.0, random.Random(0))
    assert shy != choice
    hooks = boc_hooks(None)
    assert not (shy["type"] == "move" and hooks.near_enemy(view, (shy["path"][-1],)) == 1)


def test_weights_keep_the_clear_coefficients_scaled() -> None:
    fitted = {"coef": {"front": [2.0, 0.5], "crowd": [-0.3, 0.2], "doctrine_score": [1.0, 0.1]}}
    assert ml.weights(fitted) == {"front": 2.0, "crowd": -0.3}
    assert ml.weights(fitted, scale=2.0, min_z=2.0) == {"front": 4.0}


def test_the_fit_leaves_out_worlds_won_or_lost_within_the_horizon() -> None:
    samples = _synthetic(50, random.Random(2))
    decided = dict(samples[0], values=[[0.0, 100.0, 0.0]] * 4)
    x, _, _ = ml.design([*samples, decided])
    assert len(x) == 2 * len(samples)


def test_label_files_are_read_plain_or_gzipped_first_then_by_seat(tmp_path: Path) -> None:
    import gzip
    import json

    rows = [{"seat": s, "n": i} for i, s in enumerate(["usa", "csa", "usa", "csa"])]
    text = "".join(json.dumps(r) + "\n" for r in rows)
    (tmp_path / "a.jsonl").write_text(text)
    with gzip.open(tmp_path / "a.jsonl.gz", "wt") as f:
        f.write(text)
    for name in ("a.jsonl", "a.jsonl.gz"):
        path = str(tmp_path / name)
        assert ml.read_samples([path]) == rows
        assert [r["n"] for r in ml.read_samples([path], limit=3, seat="usa")] == [0, 2]
