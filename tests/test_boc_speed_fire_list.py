"""Issue 59, session 48: the fire phase's list (``fire.fire_options``) finds the enemy
blocks by hex once per list instead of once per unit and shot; the list must be the one
the per-unit way gives (``_lines`` and ``_shot`` asked without the map, as ``check_fire``
still asks them), at every fire decision of random and the general's play."""

from __future__ import annotations

import random

from gettysburg.ai import make_agent
from gettysburg.ai.general import best_index
from gettysburg.boc.ai.doctrine import BocDoctrine
from gettysburg.boc.control import front_line
from gettysburg.boc.fire import FireLedger, _lines, _shot, fire_options, fire_problem
from gettysburg.boc.game import BocGame
from gettysburg.core.protocol import Action, new_game


def _per_unit(game: BocGame, side: str) -> list[Action]:
    """``fire_options`` the way it was before: every unit's lines and every shot looked up
    on their own."""
    board, st, orders = game.board, game.state, game.orders
    ledger = FireLedger.from_json(st.fire)
    if ledger.pending is not None:
        return []
    acts: list[Action] = []
    for u in sorted(st.on_map(side), key=lambda x: x.id):
        if fire_problem(st, orders, u) is not None:
            continue
        for target, thr, rng in sorted(_lines(board, st, orders, u)):
            if f"{u.hex}>{thr}" in ledger.used:
                continue
            for at_art in (False, True):
                if _shot(board, st, orders, u, target, thr, rng, at_art) is None:
                    continue
                act: Action = {"type": "fire", "unit": u.id, "target": target,
                               "through": thr}
                if at_art:
                    act["at"] = "artillery"
                acts.append(act)
    return acts


def _compare(game: BocGame) -> int:
    """Compare the lists of both sides in this position; how many shots were listed."""
    listed = 0
    for side in ("usa", "csa"):
        got = fire_options(game.board, game.state, game.orders, side,
                           FireLedger.from_json(game.state.fire))
        assert got == _per_unit(game, side)
        listed += len(got)
    return listed


def test_fire_lists_as_before_in_random_play() -> None:
    """Random Day 1 play, most moves drawn among those into the front line (so that
    blocks meet and fire)."""
    rng = random.Random(8)
    agent = make_agent("random", 0)
    shots = positions = 0
    for seed in ("fire-list-1", "fire-list-2"):
        game = new_game("boc/day1", seed=seed)
        assert isinstance(game, BocGame)
        for _ in range(700):
            if game.is_terminal():
                break
            seat = game.to_move()[0]
            if game.state.phase == "fire":
                shots += _compare(game)
                positions += 1
            seq = game.legal_sequence(seat)
            action = agent.choose({}, seq, 1.0, rng)
            if game.state.phase == "movement" and rng.random() < 0.7:
                front = front_line(game.board, game.state, seat)
                near = [a for a in seq if a["type"] == "move" and a["path"][-1] in front]
                action = rng.choice(near) if near else action
            game.apply_unrecorded(action, seat)
    assert positions > 50 and shots > 30


def test_fire_lists_as_before_in_the_generals_play() -> None:
    doctrine = BocDoctrine()
    game = new_game("boc/day1", seed="fire-list-3")
    assert isinstance(game, BocGame)
    shots = positions = 0
    for _ in range(560):
        if game.is_terminal():
            break
        seat = game.to_move()[0]
        if game.state.phase == "fire":
            shots += _compare(game)
            positions += 1
        view = game.view(seat)
        legal: list[Action] = view["legal_actions"]
        game.apply_unrecorded(dict(legal[best_index(doctrine.scores(view, legal), legal)]),
                              seat)
    assert positions > 60 and shots > 200
