"""Issue 59, session 47: the view's legal list (and ``legal_actions``) taken from the kept
movement list (``boc/move_listing.py``), and the view's other kept parts.

Two games play the same actions: one keeps its memos from one decision to the next, the
other forgets them before every view. At every decision both views must be the same, byte
for byte, under random play and under the general's."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from gettysburg.ai import make_agent
from gettysburg.ai.general import best_index
from gettysburg.boc.ai.doctrine import BocDoctrine
from gettysburg.boc.game import BocGame
from gettysburg.core.canonical import canonical_json
from gettysburg.core.protocol import Action, new_game

Chooser = Callable[[dict[str, Any], list[Action]], Action]


def _twins(scenario: str, seed: str) -> tuple[BocGame, BocGame]:
    kept, fresh = new_game(scenario, seed=seed), new_game(scenario, seed=seed)
    assert isinstance(kept, BocGame) and isinstance(fresh, BocGame)
    return kept, fresh


def _lockstep(scenario: str, seed: str, decisions: int, choose: Chooser) -> dict[str, int]:
    """Play ``decisions`` decisions; every view of the keeping game is the forgetting one's
    (both seats' and the referee's in a movement phase). How many views were compared,
    and how many of them in a movement phase with the kept list reused."""
    kept, fresh = _twins(scenario, seed)
    seen = {"views": 0, "reused": 0}
    for _ in range(decisions):
        if kept.is_terminal():
            break
        seat = kept.to_move()[0]
        before = kept._listing_memo
        view = kept.view(seat)
        fresh.forget_memos()
        assert canonical_json(view) == canonical_json(fresh.view(seat)), \
            (view["day"], view["hour"], view["phase"], seat)
        seen["views"] += 1
        if kept.state.phase == "movement":
            seen["reused"] += before is not None and kept._listing_memo is before
            for other in ("usa", "csa", "referee"):
                fresh.forget_memos()
                assert canonical_json(kept.view(other)) == canonical_json(fresh.view(other))
        action = choose(view, view["legal_actions"])
        kept.apply_unrecorded(dict(action), seat)
        fresh.apply_unrecorded(dict(action), seat)
    assert kept.state_hash() == fresh.state_hash()
    return seen


def test_views_with_memos_are_the_views_built_afresh_in_random_play() -> None:
    rng = random.Random(11)
    agent = make_agent("random", 0)
    seen = _lockstep("boc/day1", "view-1", 260,
                     lambda view, legal: agent.choose(view, legal, 1.0, rng))
    assert seen["views"] > 200
    assert seen["reused"] > 50  # the view took the kept list, not only a rebuilt one


def test_views_with_memos_are_the_views_built_afresh_in_the_generals_play() -> None:
    doctrine = BocDoctrine()

    def choose(view: dict[str, Any], legal: list[Action]) -> Action:
        return legal[best_index(doctrine.scores(view, legal), legal)]

    seen = _lockstep("boc/day1", "view-2", 140, choose)
    assert seen["views"] > 100
    assert seen["reused"] > 30


def test_a_hand_edit_after_forget_memos_is_seen() -> None:
    """A host that changes the state by hand calls ``forget_memos``; the next list is then
    the one built afresh (the kept list trusts ``execute``)."""
    kept, fresh = _twins("boc/day1", "view-3")
    rng = random.Random(3)
    agent = make_agent("random", 0)
    while kept.state.phase != "movement" and not kept.is_terminal():
        seat = kept.to_move()[0]
        action = agent.choose({}, kept.legal_sequence(seat), 1.0, rng)
        kept.apply_unrecorded(action, seat)
        fresh.apply_unrecorded(action, seat)
    seat = kept.to_move()[0]
    kept.legal_actions(seat)
    assert kept._listing_memo is not None
    for game in (kept, fresh):
        mover = next(u for u in game.state.on_map(seat) if game.move_problem(u) is None)
        mover.moved = True  # by hand
    kept.forget_memos()
    fresh.forget_memos()
    assert kept.legal_actions(seat) == fresh.legal_actions(seat)
    assert not any(a.get("unit") == mover.id and a["type"] == "move"
                   for a in kept.legal_actions(seat))
