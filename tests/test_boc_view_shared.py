"""Issue 59, session 48: ``Game.view_shared``, the view for a reader that changes nothing in
it, whose move and entry dicts BoC hands out again while the kept movement list keeps the
unit's paths (``LegalActions.shared_list``).

At every decision the shared view must be the view built afresh (deep ``==``), the general
(which promises, ``shares_view``) must leave what it was given as it was and return an
action of its own, and the lab's games with it must be the games played on fresh views."""

from __future__ import annotations

import copy
import random
from typing import Any

from gettysburg.ai import make_agent
from gettysburg.ai.agent import shares_view
from gettysburg.ai.general import GeneralAgent
from gettysburg.boc.fog import units_view
from gettysburg.boc.game import BocGame
from gettysburg.core.protocol import Action, new_game
from gettysburg.lab.simulate import make_specs, play_game


def _game(scenario: str, seed: str) -> BocGame:
    game = new_game(scenario, seed=seed)
    assert isinstance(game, BocGame)
    return game


def _same_as_fresh(game: BocGame, seat: str, shared: dict[str, Any]) -> bool:
    """The shared view is the view, and its blocks are those of the plain definition
    (``view`` reads the seat's kept blocks too: comparing with it alone would not see a
    kept block that missed a write)."""
    units, hidden = units_view(game.key, game.state, seat, game._shown)
    return shared == game.view(seat) and shared["units"] == units \
        and shared["hidden"] == hidden


def _ids(legal: list[Action]) -> set[int]:
    return {id(a) for a in legal if a["type"] in ("move", "enter")}


def test_the_shared_view_is_the_view_in_random_play() -> None:
    game = _game("boc/day1", "shared-1")
    agent, rng = make_agent("random", 0), random.Random(5)
    reused = 0
    last: set[int] = set()
    for _ in range(300):
        if game.is_terminal():
            break
        seat = game.to_move()[0]
        shared = game.view_shared(seat)
        assert _same_as_fresh(game, seat, shared), (shared["day"], shared["hour"],
                                                     shared["phase"])
        now = _ids(shared["legal_actions"])
        reused += len(now & last)
        last = now
        action = agent.choose(shared, shared["legal_actions"], 1.0, rng)
        game.apply_unrecorded(copy.deepcopy(action), seat)
    assert reused > 1000  # the dicts were handed out again, not only built


def test_the_general_changes_nothing_it_is_given_and_returns_its_own_action() -> None:
    game = _game("boc/day1", "shared-2")
    generals = {seat: make_agent("general", seat, "boc") for seat in game.seats()}
    assert all(shares_view(g) for g in generals.values())
    rng = random.Random(0)
    reused = 0
    last: set[int] = set()
    for _ in range(160):
        if game.is_terminal():
            break
        seat = game.to_move()[0]
        shared = game.view_shared(seat)
        legal = game.legal_in_view(shared, seat)
        assert legal is shared["legal_actions"]
        given = copy.deepcopy(shared)
        action = generals[seat].choose(shared, legal, 1.0, rng)
        assert shared == given  # nothing in the view or its actions was changed
        assert all(action is not a for a in legal)
        assert "path" not in action or all(action["path"] is not a.get("path")
                                           for a in legal)
        now = _ids(legal)
        reused += len(now & last)
        last = now
        # The action is the caller's own: changing it changes no later view.
        played = copy.deepcopy(action)
        action["unit"] = "nobody"
        if isinstance(action.get("path"), list):
            action["path"].append("nowhere")
        game.apply_unrecorded(played, seat)
        assert _same_as_fresh(game, seat, game.view_shared(seat))
    assert reused > 500


def test_lapses_hand_out_a_copy_too() -> None:
    game = _game("boc/day1", "shared-3")
    general = GeneralAgent("0", lapses=1.0)
    rng = random.Random(1)
    for _ in range(60):
        seat = game.to_move()[0]
        shared = game.view_shared(seat)
        action = general.choose(shared, shared["legal_actions"], 1.0, rng)
        assert all(action is not a for a in shared["legal_actions"])
        assert "path" not in action or all(action["path"] is not a.get("path")
                                           for a in shared["legal_actions"])
        game.apply_unrecorded(action, seat)


def test_the_lab_plays_the_same_general_game_on_shared_views(monkeypatch: Any) -> None:
    spec = make_specs("boc/day1", 1, {"usa": "general", "csa": "general"}, seed="shared-4",
                      max_actions=250)[0]
    shared = dict(play_game(spec))
    # The same game with every view built afresh (the promise not taken up).
    monkeypatch.setattr(BocGame, "view_shared", BocGame.view)
    fresh = dict(play_game(spec))
    for row in (shared, fresh):
        row.pop("seconds")
    assert shared == fresh
    assert shared["actions"] == 250 and shared["error"] is None


def test_runs_found_again_by_identity_score_as_fresh_ones() -> None:
    """The doctrine's runs of moves handed out again by a shared view (``move_runs``) give
    the scores a doctrine scoring every fresh view from scratch gives, bit for bit."""
    from gettysburg.ai.general import best_index
    from gettysburg.boc.ai.doctrine import BocDoctrine
    from gettysburg.boc.ai.move_runs import plan_moves

    game = _game("boc/day1", "shared-5")
    kept, fresh = BocDoctrine(), BocDoctrine(keep=False)
    again = 0
    for _ in range(200):
        if game.is_terminal():
            break
        seat = game.to_move()[0]
        shared = game.view_shared(seat)
        legal = shared["legal_actions"]
        before = {id(run) for _, run in kept._runs.get(seat, {}).values()}
        got = kept.scores(shared, legal)
        again += sum(id(run) in before for _, run in kept._runs[seat].values())
        view = game.view(seat)
        assert got == fresh.scores(view, view["legal_actions"])
        # The runs as the list gives them, built afresh (no runs kept) or found again.
        assert plan_moves(legal, {})[0] == plan_moves(legal, kept._runs[seat])[0]
        game.apply_unrecorded(copy.deepcopy(legal[best_index(got, legal)]), seat)
    assert again > 500
