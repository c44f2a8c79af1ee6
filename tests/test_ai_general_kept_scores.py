"""The general's kept scores, session 47 (issue 59, ``boc/ai/move_keeping.py``): a unit's
move scores handed out as kept while its paths are the same, a unit taken over by a new
context with only the destinations the change reached found again (``stale``), melee
declarations' scores kept under all they read; every decision scored exactly as a doctrine
that scores each from scratch (``keep=False``) scores it."""

from __future__ import annotations

from typing import Any

from gettysburg.ai.general import best_index
from gettysburg.boc.ai.doctrine import BocDoctrine
from gettysburg.core.protocol import new_game


def _play(scenario: str, decisions: int, seed: str) -> tuple[BocDoctrine, dict[str, int]]:
    """General against general, each decision scored by a keeping and a fresh doctrine
    (the same floats or the test fails); the keeping doctrine and counts of what the
    decisions offered."""
    game = new_game(scenario, seed=seed)
    kept, fresh = BocDoctrine(), BocDoctrine(keep=False)
    seen = {"moves": 0, "melees": 0}
    for _ in range(decisions):
        if game.is_terminal():
            break
        seat = game.to_move()[0]
        view: dict[str, Any] = game.view(seat)
        legal = view["legal_actions"]
        got = kept.scores(view, legal)
        assert got == fresh.scores(view, legal), (view.get("day"), view.get("hour"),
                                                  view.get("phase"))
        # Scoring the same decision again gives the same list (the kept lists are handed
        # out, never changed by the scores built from them).
        assert kept.scores(view, legal) == got
        seen["moves"] += any(a.get("type") == "move" for a in legal)
        seen["melees"] += any(a.get("type") == "melee" for a in legal)
        game.apply_unrecorded(dict(legal[best_index(got, legal)]), seat)
    return kept, seen


def test_kept_scores_stale_destinations_and_melees_score_as_fresh_ones() -> None:
    kept, seen = _play("boc/battle", 260, "kept47")
    assert seen["moves"] > 80 and seen["melees"] > 5, seen
    memo = kept.memo
    # Units found kept (their scores handed out), made, taken over by a new context, and
    # taken over with some destinations found again.
    assert memo.hits > 1000 and memo.misses > 0 and memo.carried > 0, \
        (memo.hits, memo.misses, memo.carried)
    assert memo.refreshed > 0, memo.refreshed
    assert memo.melee, "no melee declaration's score was kept"


def test_moves_into_full_hexes_score_as_fresh_on_day_one() -> None:
    """Day 1's lines fill hexes to their stacking limit (6.2): the kept scores of moves
    into a hex that became full are the overstacked ones, as a fresh doctrine finds."""
    kept, seen = _play("boc/day1", 200, "full47")
    assert seen["moves"] > 50
    assert kept.memo.hits > 300


def test_earlier_decisions_scored_again_after_later_ones_score_as_fresh_ones() -> None:
    """Session 48: a new move context takes the last one's tables over, leaving that one
    empty; going back to an earlier decision (its context met again) must still give
    the fresh scores."""
    game = new_game("boc/battle", seed="revisit48")
    kept, fresh = BocDoctrine(), BocDoctrine(keep=False)
    earlier: list[tuple[dict[str, Any], Any, list[float]]] = []
    for _ in range(150):
        if game.is_terminal():
            break
        seat = game.to_move()[0]
        view: dict[str, Any] = game.view(seat)
        legal = view["legal_actions"]
        got = kept.scores(view, legal)
        assert got == fresh.scores(view, legal)
        for old_view, old_legal, old_got in earlier[-2:]:
            assert kept.scores(old_view, old_legal) == old_got
        assert kept.scores(view, legal) == got
        earlier.append((view, legal, got))
        game.apply_unrecorded(dict(legal[best_index(got, legal)]), seat)
    assert kept.memo.carried > 0 and kept.memo.refreshed > 0
