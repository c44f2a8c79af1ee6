"""The general's kept move parts (issue 59, ``boc/ai/move_memo.py``): a doctrine that keeps
terms, objectives' pulls, control gains and units' move parts across decisions scores every
decision exactly as one that scores each from scratch (``keep=False``)."""

from __future__ import annotations

import pickle
import threading
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gettysburg.ai.general import best_index
from gettysburg.boc.ai.doctrine import BocDoctrine, Style, _style_key
from gettysburg.boc.ai.move_memo import CONTEXTS_KEPT, LastUsed
from gettysburg.core.protocol import new_game


def _play(scenario: str, decisions: int, seed: str,
          style: Style | None = None) -> tuple[BocDoctrine, int]:
    """General against general for ``decisions`` decisions, each scored by a keeping and a
    fresh doctrine (the same numbers, bit for bit, or the test fails); the keeping one and
    how many move decisions there were."""
    game = new_game(scenario, seed=seed)
    kept, fresh = BocDoctrine(style), BocDoctrine(style, keep=False)
    moves = 0
    for _ in range(decisions):
        if game.is_terminal():
            break
        seat = game.to_move()[0]
        view: dict[str, Any] = game.view(seat)
        legal = view["legal_actions"]
        got, want = kept.scores(view, legal), fresh.scores(view, legal)
        assert got == want, (view.get("day"), view.get("hour"), view.get("phase"))
        moves += any(a.get("type") == "move" for a in legal)
        game.apply_unrecorded(dict(legal[best_index(got, legal)]), seat)
    return kept, moves


@pytest.mark.parametrize("scenario,decisions", [("boc/day1", 220), ("boc/battle", 160)])
def test_kept_move_parts_score_as_fresh_ones_through_a_game(scenario: str,
                                                            decisions: int) -> None:
    kept, moves = _play(scenario, decisions, "memo")
    assert moves > 50
    memo = kept.memo
    # The memo was used, both ways: units found kept, units taken over by a new context.
    assert memo.hits > 100 and memo.misses > 0 and memo.carried > 0, \
        (memo.hits, memo.misses, memo.carried)


def test_a_style_that_keeps_room_keeps_no_move_parts_and_scores_as_fresh() -> None:
    """``keep_room`` (5.32) reads own blocks anywhere: no move context, so no unit's move
    parts are kept (the hex terms still are), and the scores are the fresh ones."""
    kept, moves = _play("boc/day2", 100, "room", Style(keep_room=1.0))
    assert moves > 20
    assert kept.memo.hits == kept.memo.misses == kept.memo.carried == 0


def test_equal_styles_share_a_key_and_different_ones_do_not() -> None:
    a, b, c = Style(decay=0.55), Style(decay=0.55), Style(decay=0.85)
    assert _style_key(a) == _style_key(b) == _style_key(a)
    assert _style_key(a) != _style_key(c)


def test_last_used_keeps_the_contexts_used_last() -> None:
    made: list[int] = []

    def make() -> list[int]:
        made.append(1)
        return []

    kept: LastUsed[list[int]] = LastUsed(make)
    first = kept.get("a")
    for i in range(CONTEXTS_KEPT - 1):
        kept.get(i)
    assert kept.get("a") is first  # still kept, now the latest used
    for i in range(CONTEXTS_KEPT):
        kept.get(("b", i))
    assert kept.get("a") is not first  # pushed out by as many newer ones
    assert len(made) == 1 + (CONTEXTS_KEPT - 1) + CONTEXTS_KEPT + 1


@given(st.lists(st.sampled_from([-1.5, -0.0, 0.0, 0.3, 0.3000000000000001, 2.0,
                                 float("nan"), float("inf"), -float("inf")]),
                min_size=1, max_size=12))
def test_best_index_is_the_first_of_the_highest_nan_or_not(scores: list[float]) -> None:
    """``best_index`` without a key per action picks what the key-per-action rule picks
    (the first of the highest score; a done action when nothing beats 0)."""
    legal = [{"type": "move"}] * (len(scores) - 1) + [{"type": "end_phase"}]
    best = max(range(len(legal)), key=lambda i: (scores[i], -i))
    if scores[best] <= 0.0:
        best = len(legal) - 1
    assert best_index(scores, legal) == best


def test_a_doctrine_keeps_one_memo_per_thread_and_pickles_without_it() -> None:
    """A server asks one doctrine from several threads (its AI pool): each keeps its own;
    a player's checkpoint pickles the doctrine, which comes back with nothing kept."""
    doctrine = BocDoctrine()
    doctrine.memo.hits = 3
    seen: list[object] = []
    worker = threading.Thread(target=lambda: seen.append(doctrine.memo))
    worker.start()
    worker.join()
    assert seen[0] is not doctrine.memo and doctrine.memo.hits == 3
    back = pickle.loads(pickle.dumps(doctrine))
    assert back.memo.hits == 0 and back.keep and back.styles == doctrine.styles
