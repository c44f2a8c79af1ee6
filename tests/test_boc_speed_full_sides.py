"""Issue 59, session 48: the kept movement list through a hexside newly used twice (6.62).

A full hexside closes for every unit, but ``move_listing.kept`` now searches again only
the units whose search stepped over it to a cheapest way (``movement.stands_with_full``)
and gives every unit rules with the new full hexsides; the lists must stay the lists
built afresh, and the kept rules the rules worked out afresh (``check_move`` takes
them)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gettysburg.ai import make_agent
from gettysburg.ai.general import best_index
from gettysburg.boc import move_listing, movement
from gettysburg.boc.ai.doctrine import BocDoctrine
from gettysburg.boc.board import load_board
from gettysburg.boc.control import front_line, index
from gettysburg.boc.game import BocGame
from gettysburg.boc.move_listing import MoveListing
from gettysburg.boc.movement import (
    MoveGraph,
    MoveRules,
    Reach,
    ReachPaths,
    graph,
    stands_with_full,
)
from gettysburg.core.protocol import Action, RuleError, new_game

Chooser = Callable[[BocGame, str], Action]


def _fresh(game: BocGame, seat: str) -> list[Action]:
    """The list built afresh, leaving the kept one as it was."""
    kept = game._listing_memo
    try:
        return game._legal(seat, reuse=False).to_list()
    finally:
        game._listing_memo = kept


def _rules_are_the_states(game: BocGame, seat: str) -> None:
    memo = game._listing_memo
    assert memo is not None
    front = front_line(game.board, game.state, seat)
    assert memo.front == front and memo.full == move_listing.full_sides(game.state)
    for uid, rules in memo.rules.items():
        assert rules == game.move_rules(game.state.units[uid], front), uid


def _play(scenario: str, seed: str, decisions: int, choose: Chooser,
          monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Play ``decisions`` decisions; at every movement decision the kept list is the list
    built afresh, and after a hexside filled every kept rule is the state's. Counts the
    hexsides filled, and the units kept and searched again when they did."""
    seen = {"closed": 0, "kept": 0, "searched": 0, "compared": 0}
    real = move_listing._close_sides

    def close(memo: MoveListing, game: Any, full: frozenset[str]) -> None:
        before = dict(memo.moves)
        real(memo, game, full)
        seen["closed"] += 1
        for uid, paths in memo.moves:
            seen["kept" if paths is before[uid] else "searched"] += 1

    monkeypatch.setattr(move_listing, "_close_sides", close)
    game = new_game(scenario, seed=seed)
    assert isinstance(game, BocGame)
    for _ in range(decisions):
        if game.is_terminal():
            break
        seat = game.to_move()[0]
        closed = seen["closed"]
        if game.state.phase == "movement":
            listed = game.legal_actions(seat)
            assert listed == _fresh(game, seat)
            seen["compared"] += 1
            if seen["closed"] > closed:
                _rules_are_the_states(game, seat)
        game.apply_unrecorded(dict(choose(game, seat)), seat)
    return seen


def test_kept_lists_through_full_hexsides_in_the_generals_play(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The general's Day 1 (its moves close in on the enemy and fill hexsides)."""
    doctrine = BocDoctrine()

    def choose(game: BocGame, seat: str) -> Action:
        view = game.view(seat)
        legal: list[Action] = view["legal_actions"]
        return legal[best_index(doctrine.scores(view, legal), legal)]

    seen = _play("boc/day1", "full-sides-1", 560, choose, monkeypatch)
    assert seen["compared"] > 250
    assert seen["closed"] > 20
    assert seen["kept"] > 3 * seen["searched"] > 0


def test_kept_lists_through_full_hexsides_in_random_play(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Random Day 1 play, most moves drawn among those into or out of the front line
    (so that hexsides fill), from the lazy sequence."""
    rng = random.Random(4)
    agent = make_agent("random", 0)

    def choose(game: BocGame, seat: str) -> Action:
        seq = game.legal_sequence(seat)
        if game.state.phase == "movement" and rng.random() < 0.7:
            front = front_line(game.board, game.state, seat)
            near = [a for a in seq if a["type"] == "move"
                    and (a["path"][0] in front or a["path"][-1] in front)]
            if near:
                return rng.choice(near)
        return agent.choose({}, seq, 1.0, rng)

    seen = _play("boc/day1", "full-sides-2", 600, choose, monkeypatch)
    assert seen["compared"] > 300
    assert seen["closed"] > 20
    assert seen["kept"] > seen["searched"] > 0


# --- a hexside filled by hand ---------------------------------------------------------------

def _crossing(game: BocGame, seat: str, memo: MoveListing
              ) -> tuple[str, list[str], str, str, str] | None:
    """A unit's listed move over a front-line hexside none has crossed yet, a unit with a
    listed path over that hexside and a unit whose search took neither of its hexes:
    (mover, path, hexside, the near unit, the far unit), if this position has them."""
    board, st_ = game.board, game.state
    front, idx, g = front_line(board, st_, seat), index(board), graph(board)
    reaches = {uid: paths.reach for uid, paths in memo.moves
               if isinstance(paths, ReachPaths)}

    def sides(path: Sequence[str]) -> set[str]:
        return {idx.side_key(a, b) for a, b in itertools.pairwise(path)}

    for mover, paths in memo.moves:
        for path in paths:
            for a, b in itertools.pairwise(path):
                key = idx.side_key(a, b)
                if not (a in front or b in front) or st_.side_use.get(key, 0):
                    continue
                near = [uid for uid, paths2 in memo.moves if uid != mover
                        and any(key in sides(p) for p in paths2)]
                far = [uid for uid, r in reaches.items() if uid != mover
                       and r.start not in (a, b) and a not in r.end and b not in r.end]
                if near and far:
                    assert g.side_ends(key) in ((a, b), (b, a))
                    return mover, list(path), key, near[0], far[0]
    return None


def test_a_filled_hexside_keeps_far_units_and_closes_it_for_near_ones() -> None:
    """A hexside crossed once by hand; a move over it fills it. The kept list is kept (the
    same object): a unit whose search went nowhere near keeps its very paths; one with a
    path over the hexside has every such path gone; the list is the list built afresh
    and the kept rules are the state's."""
    rng = random.Random(9)
    agent = make_agent("random", 0)
    game = new_game("boc/day1", seed="full-sides-hand")
    assert isinstance(game, BocGame)
    found = None
    for _ in range(400):
        seat = game.to_move()[0]
        seq = game.legal_sequence(seat)
        if game.state.phase == "movement" and game._listing_memo is not None:
            found = _crossing(game, seat, game._listing_memo)
            if found:
                break
        game.apply_unrecorded(agent.choose({}, seq, 1.0, rng), seat)
    assert found is not None
    mover, path, key, near, far = found
    game.state.side_use[key] = 1  # by hand, then the memos forgotten
    game.forget_memos()
    game.legal_actions(seat)
    memo = game._listing_memo
    assert memo is not None
    before = dict(memo.moves)
    game.apply({"type": "move", "unit": mover, "path": path}, seat)
    assert game.state.side_use[key] == 2
    listed = game.legal_actions(seat)
    assert game._listing_memo is memo  # mended, not built again
    assert listed == _fresh(game, seat)
    after = dict(memo.moves)
    assert after[far] is before[far]
    idx = index(game.board)
    crossing = [p for p in before[near]
                if key in {idx.side_key(a, b) for a, b in itertools.pairwise(p)}]
    assert crossing and not any(p in list(after[near]) for p in crossing)
    _rules_are_the_states(game, seat)
    # check_move takes the kept rules: a path over the full hexside is refused (6.62).
    with pytest.raises(RuleError) as refused:
        game.apply({"type": "move", "unit": near, "path": crossing[0]}, seat)
    assert refused.value.rule == "6.62"


# --- the test itself against the search ------------------------------------------------------

def _same_search(got: Reach, want: Reach) -> None:
    assert list(got.cost.items()) == list(want.cost.items())
    assert list(got.end.items()) == list(want.end.items())
    assert got.prev == want.prev and got.extra == want.extra and got.taken == want.taken
    assert list(got.path_list) == list(want.path_list)


def _sides_at(g: MoveGraph, reach: Reach) -> list[str]:
    """The hexsides of every hex the search took."""
    idx = g.idx
    return sorted({idx.side_key(h, n) for h in (reach.start, *reach.end) for n in idx.nbrs[h]})


def test_a_reach_that_stands_is_the_search_in_day1_play() -> None:
    """Searches of random Day 1 play (the engine's arguments), each hexside of the hexes
    they took closed in turn: wherever ``stands_with_full`` says the reach stands, a
    search with that hexside full finds it, and some stand and some do not."""
    calls: list[tuple[str, MoveRules, str, int]] = []
    real = movement._search

    def recorded(g: MoveGraph, start: str, rules: MoveRules, start_road: str,
                 start_cost: int) -> Reach:
        calls.append((start, rules, start_road, start_cost))
        return real(g, start, rules, start_road, start_cost)

    movement._search = recorded
    try:
        game = new_game("boc/day1", seed="full-sides-search")
        rng = random.Random(2)
        agent = make_agent("random", 0)
        for _ in range(200):
            seat = game.to_move()[0]
            game.apply_unrecorded(agent.choose({}, game.legal_sequence(seat), 1.0, rng), seat)
    finally:
        movement._search = real
    g = graph(load_board())
    stands = falls = 0
    for start, rules, road, cost in calls[:60]:
        reach = real(g, start, rules, road, cost)
        for key in _sides_at(g, reach):
            full = rules.full_sides | {key}
            if stands_with_full(g, reach, rules, full):
                stands += 1
                _same_search(real(g, start, replace(rules, full_sides=full), road, cost),
                             reach)
            else:
                falls += 1
    assert stands > 100 and falls > 10


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_a_reach_that_stands_is_the_search_under_any_rules(data: st.DataObject) -> None:
    """Under rules drawn at random (as in ``test_boc_speed_listing``), hexsides of the
    hexes the search took closed and full ones opened: wherever the reach stands, a
    search with the new full hexsides finds it, state for state."""
    g = graph(load_board())
    hexes = st.sampled_from(g.hexes)
    start = data.draw(hexes)
    rules = MoveRules(
        budget=data.draw(st.integers(0, 12)), multiplier=data.draw(st.sampled_from([1, 2])),
        roads=data.draw(st.booleans()), one_hex=data.draw(st.booleans()),
        stop=frozenset(data.draw(st.lists(hexes, max_size=40))),
        forbidden=frozenset(data.draw(st.lists(hexes, max_size=20))) - {start},
        full_sides=frozenset(data.draw(st.lists(st.sampled_from(g.sides), max_size=20))),
        entered=data.draw(st.booleans()))
    road = data.draw(st.sampled_from(g.roads))
    cost = data.draw(st.integers(0, 4))
    reach = movement._search(g, start, rules, road, cost)
    closing = data.draw(st.lists(st.sampled_from(_sides_at(g, reach)), max_size=3))
    opening = data.draw(st.lists(st.sampled_from(sorted(rules.full_sides)), max_size=2)) \
        if rules.full_sides else []
    full = (rules.full_sides | set(closing)) - set(opening)
    if stands_with_full(g, reach, rules, full):
        _same_search(movement._search(g, start, replace(rules, full_sides=full), road,
                                      cost), reach)
