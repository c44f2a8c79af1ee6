"""Issue 59: a unit's reach found under one phase's rules is reused under the next's when
the hexes that changed (stops, forbidden hexes, full hexsides) lie outside what the search
tested (``movement._reusable``), and is then the reach a fresh search finds."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gettysburg.ai import make_agent
from gettysburg.boc import movement
from gettysburg.boc.board import load_board
from gettysburg.boc.game import BocGame
from gettysburg.boc.movement import MoveRules, Reach, _search, graph, reachable
from gettysburg.core.protocol import new_game


def _same(a: Reach, b: Reach) -> bool:
    return (a.cost, a.path, a.extra) == (b.cost, b.path, b.extra)


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, int]]:
    """Every answer of ``reachable`` while the test runs is compared with a fresh search;
    counts the answers and the reuses."""
    counts = {"answers": 0, "reused": 0}
    real_reachable, real_reusable = movement.reachable, movement._reusable

    def reusable(g: movement.MoveGraph, reach: Reach, old: MoveRules,
                 new: MoveRules) -> bool:
        ok = real_reusable(g, reach, old, new)
        counts["reused"] += ok and not (old.stop == new.stop and old.forbidden ==
                                        new.forbidden and old.full_sides == new.full_sides)
        return ok

    def compared(board: movement.Board, start: str, rules: MoveRules,
                 start_road: str = movement.NO_ROAD, start_cost: int = 0) -> Reach:
        got = real_reachable(board, start, rules, start_road, start_cost)
        assert _same(got, _search(graph(board), start, rules, start_road, start_cost)), \
            (start, rules)
        counts["answers"] += 1
        return got

    monkeypatch.setattr(movement, "_reusable", reusable)
    for module in ("gettysburg.boc.game", "gettysburg.boc.position"):
        monkeypatch.setattr(f"{module}.reachable", compared)
    yield counts


def test_reused_reaches_are_fresh_searches_through_random_day1_play(
        checked: dict[str, int]) -> None:
    """Moves and entries of two random Day 1 games, position after position, for as many
    decisions as keep the test short: every reach handed out (the reused ones among them)
    is the one a fresh search finds."""
    for seed in ("reuse-1", "reuse-2"):
        game = new_game("boc/day1", seed=seed)
        assert isinstance(game, BocGame)
        graph(game.board).reach_cache.clear()
        agents = {s: make_agent("random", 0) for s in game.seats()}
        rng = random.Random(seed)
        for _ in range(450):
            if game.is_terminal():
                break
            seat = game.to_move()[0]
            game.apply_unrecorded(agents[seat].choose({}, game.legal_sequence(seat), 1.0,
                                                      rng), seat)
    # The kept movement list (move_listing) asks for reaches only where they may differ:
    # some 2,000 answers in these decisions, all searched or reused (3,000 before it);
    # some 1,200 since due units of one division share their entry answers (session 47).
    assert checked["answers"] > 1000
    assert checked["reused"] > 50  # the reuse was tried and taken, not only skipped


def _fresh_board_reach(budget: int) -> tuple[movement.Board, str, MoveRules, Reach]:
    game = new_game("boc/day1", seed="reuse-hand")
    assert isinstance(game, BocGame)
    graph(game.board).reach_cache.clear()
    start = next(u.hex for u in game.state.on_map("csa") if u.hex is not None)
    rules = MoveRules(budget=budget)
    return game.board, start, rules, reachable(game.board, start, rules)


def test_a_change_far_away_keeps_the_reach_one_next_to_it_does_not() -> None:
    """By hand, around a Day 1 block: a forbidden hex or full hexside away from every hex
    the search went on from keeps the reach (the same object); forbidding a hex it reached,
    a full hexside next to one it went on from, or a stop on a hex it reached makes a new
    search."""
    board, start, rules, reach = _fresh_board_reach(6)
    g = graph(board)
    went_on = reach.went_on(rules)
    assert start in went_on and len(went_on) > 3
    nbrs = g.idx.nbrs
    near = {n for h in went_on for n in nbrs[h]}
    far = next(h for h in sorted(g.hexes) if h not in near and h not in went_on)
    beside = next(h for h in sorted(reach.cost) if h in near and h != start)
    far_side = next(k for k in g.sides if not set(g.side_ends(k)) & went_on)
    near_side = next(k for k in g.sides if set(g.side_ends(k)) & went_on)

    kept = reachable(board, start, MoveRules(budget=6, forbidden=frozenset({far}),
                                             full_sides=frozenset({far_side})))
    assert kept is reach
    for changed in (MoveRules(budget=6, forbidden=frozenset({beside})),
                    MoveRules(budget=6, full_sides=frozenset({near_side})),
                    MoveRules(budget=6, stop=frozenset({beside}))):
        got = reachable(board, start, changed)
        assert got is not reach
        assert _same(got, _search(g, start, changed, movement.NO_ROAD, 0))
    assert beside not in reachable(board, start, MoveRules(
        budget=6, forbidden=frozenset({beside}))).cost


def test_emptied_cache_means_a_fresh_search() -> None:
    """Emptying ``reach_cache`` (as tests and benchmarks do) leaves nothing to reuse."""
    board, start, rules, reach = _fresh_board_reach(5)
    graph(board).reach_cache.clear()
    assert reachable(board, start, rules) is not reach


@settings(max_examples=120, deadline=None)
@given(st.data())
def test_the_quick_test_answers_as_the_set_one(data: st.DataObject) -> None:
    """Session 47: ``_reusable`` tests a reach made by the search by its start and path
    ends (``_reusable_made``); a reach without the search's record (``taken`` empty) is
    tested by the sets of its reached hexes and of those it went on from, as before.
    Under rules changed at random around a search (stops, forbidden hexes, full hexsides,
    mostly among the hexes it reached and next to them), both give the same answer, and
    the reached hexes are the same either way."""
    g = graph(load_board())
    start = data.draw(st.sampled_from(g.hexes))
    old = MoveRules(budget=data.draw(st.integers(0, 10)), roads=data.draw(st.booleans()),
                    stop=frozenset(data.draw(st.lists(st.sampled_from(g.hexes), max_size=40))),
                    entered=data.draw(st.booleans()))
    reach = _search(g, start, old, movement.NO_ROAD, 0)
    named = dataclasses.replace(reach, taken={})
    assert reach.taken and reach.reached() == named.reached()
    near = sorted({n for h in reach.reached() for n in g.idx.nbrs[h]} | reach.reached())
    hexes = st.sampled_from(near)
    sides = st.sampled_from([k for k in g.sides if set(g.side_ends(k)) & set(near)])
    new = MoveRules(budget=old.budget, roads=old.roads, entered=old.entered,
                    stop=old.stop ^ frozenset(data.draw(st.lists(hexes, max_size=3))),
                    forbidden=frozenset(data.draw(st.lists(hexes, max_size=3))),
                    full_sides=frozenset(data.draw(st.lists(sides, max_size=3))))
    assert movement._reusable(g, reach, old, new) == movement._reusable(g, named, old, new)


def test_move_rules_hash_is_kept_but_not_pickled() -> None:
    """Session 47: a ``MoveRules`` keeps its hash (the reach cache hashes its keys several
    times a search); equal rules hash alike, and a pickle (a board's caches go with a
    checkpoint) leaves the kept hash out: str hashes differ between processes."""
    import pickle

    a = MoveRules(6, stop=frozenset({"A1", "B2"}), forbidden=frozenset({"C3"}))
    b = MoveRules(6, stop=frozenset({"B2", "A1"}), forbidden=frozenset({"C3"}))
    assert a == b and hash(a) == hash(b) == hash(a)
    assert hash(a) == hash((6, 1, True, True, a.stop, a.forbidden, a.full_sides, False))
    assert a != MoveRules(7, stop=a.stop, forbidden=a.forbidden)
    back = pickle.loads(pickle.dumps(a))
    assert "_hash" in a.__dict__ and "_hash" not in back.__dict__
    assert back == a and hash(back) == hash(a) and {a: 1}[back] == 1
