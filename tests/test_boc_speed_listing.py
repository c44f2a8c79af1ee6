"""Issue 59, session 46: the movement phase's list kept from one decision to the next
(``boc/move_listing.py``) and the search's bucket queue (``movement._search``).

The kept list must be, decision after decision, the list built afresh; the bucket queue
must make the search a heap of (cost, state) pairs made, step for step."""

from __future__ import annotations

import heapq
import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gettysburg.ai import make_agent
from gettysburg.boc import movement
from gettysburg.boc.board import load_board
from gettysburg.boc.control import index
from gettysburg.boc.game import BocGame
from gettysburg.boc.move_listing import MoveListing, Update
from gettysburg.boc.movement import MoveGraph, MoveRules, Reach, graph
from gettysburg.core.protocol import Action, new_game


def _day1(seed: str, options: tuple[str, ...] = ()) -> BocGame:
    game = new_game("boc/day1", seed=seed, options=options)
    assert isinstance(game, BocGame)
    return game


def _fresh(game: BocGame, seat: str) -> list[Action]:
    """The list built afresh, leaving the kept one as it was."""
    kept = game._listing_memo
    try:
        return game._legal(seat, reuse=False).to_list()
    finally:
        game._listing_memo = kept


def test_kept_movement_lists_are_the_lists_built_afresh(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Random Day 1 play from the lazy sequence: at every decision the sequence is the
    list built afresh; now and then two actions are taken from one list (the second
    another block's, still legal), so the kept list learns of two blocks at once. Entry
    roads fixed (6.7) and melees declared (7.1) mend the kept list in place."""
    mended: dict[str, int] = {"divisions": 0, "melee": 0}
    real_mend = BocGame._mend_listing

    def mend(game: BocGame, memo: MoveListing, update: Update, seat: str) -> None:
        mended["divisions"] += bool(update.divisions)
        mended["melee"] += update.melee and not update.divisions
        real_mend(game, memo, update, seat)

    monkeypatch.setattr(BocGame, "_mend_listing", mend)
    rng = random.Random(7)
    agent = make_agent("random", 0)
    compared = reused = 0
    for seed in ("listing-1", "listing-2"):
        game = _day1(seed)
        for _ in range(320):
            if game.is_terminal():
                break
            seat = game.to_move()[0]
            before = game._listing_memo
            seq = game.legal_sequence(seat)
            if game.state.phase == "movement":
                reused += before is not None and game._listing_memo is before
                assert list(seq) == _fresh(game, seat)
                compared += 1
            action = agent.choose({}, seq, 1.0, rng)
            game.apply_unrecorded(action, seat)
            if game.state.phase == "movement" and action["type"] == "move" \
                    and rng.random() < 0.3 and not game.is_terminal():
                fresh = _fresh(game, seat)
                other = [a for a in fresh if a["type"] == "move" and a["unit"] != action["unit"]]
                if other:
                    game.apply_unrecorded(rng.choice(other), seat)
    assert compared > 300
    assert reused > 150  # the kept list was used, not only rebuilt
    assert mended["divisions"] > 0


def _movement_game(seed: str = "listing-hand", options: tuple[str, ...] = ()) -> BocGame:
    """A Day 1 game played (first actions) until the active seat has two moves to make."""
    game = _day1(seed, options)
    while game.state.phase != "movement":
        game.apply_unrecorded({"type": "end_phase"}, game.to_move()[0])
    return game


def _a_move(game: BocGame, seat: str) -> Action:
    return next(a for a in game.legal_sequence(seat) if a["type"] == "move")


def test_a_move_takes_out_the_movers_actions_only() -> None:
    game = _movement_game()
    seat = game.to_move()[0]
    first = list(game.legal_sequence(seat))
    memo = game._listing_memo
    assert memo is not None
    move = _a_move(game, seat)
    game.apply(move, seat)
    after = list(game.legal_sequence(seat))
    assert game._listing_memo is memo  # kept, not rebuilt
    assert after == [a for a in first if a.get("unit") != move["unit"]]
    assert after == game.legal_actions(seat)


def test_a_loaded_position_or_forgotten_memos_build_the_list_afresh() -> None:
    game = _movement_game()
    seat = game.to_move()[0]
    game.legal_sequence(seat)
    memo = game._listing_memo
    game.load_position(game.position_json())  # a new state object
    game.legal_sequence(seat)
    assert game._listing_memo is not memo
    game.forget_memos()
    assert game._listing_memo is None


def test_a_changed_hand_or_other_action_types_drop_the_kept_list() -> None:
    """``end_phase`` (not a block's action) drops it."""
    game = _movement_game()
    seat = game.to_move()[0]
    game.legal_sequence(seat)
    assert game._listing_memo is not None
    game.apply({"type": "end_phase"}, seat)
    assert game._listing_memo is None


def test_the_column_line_option_never_keeps_a_list() -> None:
    """6.0 column/line: a block's formation limits its fellows' moves."""
    game = _movement_game(options=("column_line",))
    seat = game.to_move()[0]
    seq = game.legal_sequence(seat)
    assert len(seq) > 0 and game._listing_memo is None


def test_an_unknown_or_still_free_block_rebuilds_the_list() -> None:
    """A touched block that is gone, or still free to move, builds the list again, with a
    hexside newly full or not (session 48: a full hexside alone mends the kept list,
    ``test_boc_speed_full_sides.py``)."""
    game = _movement_game()
    seat = game.to_move()[0]
    game.legal_sequence(seat)
    memo = game._listing_memo
    assert memo is not None
    memo.touched.append(("no-such-block", None))  # as if an action had named one
    assert list(game.legal_sequence(seat)) == game.legal_actions(seat)
    game.legal_sequence(seat)
    memo = game._listing_memo
    assert memo is not None
    game.state.side_use["X|Y"] = 2
    memo.touched.append((memo.moves[0][0], None))
    game.legal_sequence(seat)
    assert game._listing_memo is not memo


# --- the bucket queue against the heap -------------------------------------------------------

def _heap_search(g: MoveGraph, start: str, rules: MoveRules, start_road: str,
                 start_cost: int) -> Reach:
    """The search as it was before session 46 (a heap of (cost, state) pairs): the
    reference the bucket queue must match state for state."""
    nr = len(g.roads)
    hex_no, fast = g.hex_no, g.fast
    forbidden = {hex_no[h] for h in rules.forbidden if h in hex_no}
    stop = {hex_no[h] for h in rules.stop if h in hex_no}
    full = {g.side_no[k] for k in rules.full_sides if k in g.side_no}
    s0 = hex_no[start]
    first = s0 * nr + (g.roads.index(start_road) if start_road in g.roads else 0)
    best: dict[int, int] = {first: start_cost}
    prev: dict[int, int] = {}
    heap = [(start_cost, first)]
    while heap:
        cost, state = heapq.heappop(heap)
        if best[state] != cost:
            continue
        hx, road = divmod(state, nr)
        if hx in stop and (hx != s0 or rules.entered):
            continue
        for to, side, off, roads in fast[hx]:
            if to in forbidden or side in full:
                continue
            steps = [(cost + off * rules.multiplier, to * nr)]
            if rules.roads:
                steps += [(cost + rc + (1 if road and road != rk else 0), to * nr + rk)
                          for rk, rc in roads]
            for nc, key in steps:
                if nc <= rules.budget and (key not in best or nc < best[key]):
                    best[key] = nc
                    prev[key] = state
                    heapq.heappush(heap, (nc, key))
    out = Reach()
    out.prev = prev
    for s, c in best.items():
        name = g.hexes[s // nr]
        if s // nr != s0 and c < out.cost.get(name, c + 1):
            out.cost[name] = c
    return out


def test_the_bucket_queue_searches_as_the_heap_did() -> None:
    """Every search of a stretch of random Day 1 play (the engine's own arguments), and
    a few with other budgets and start costs: the same costs and the same back-links."""
    calls: list[tuple[MoveGraph, str, MoveRules, str, int]] = []
    real = movement._search

    def recorded(g: MoveGraph, start: str, rules: MoveRules, start_road: str,
                 start_cost: int) -> Reach:
        calls.append((g, start, rules, start_road, start_cost))
        return real(g, start, rules, start_road, start_cost)

    movement._search = recorded
    try:
        game = _day1("buckets")
        graph(game.board).reach_cache.clear()
        rng = random.Random(3)
        agent = make_agent("random", 0)
        for _ in range(250):
            if game.is_terminal():
                break
            seat = game.to_move()[0]
            game.apply_unrecorded(agent.choose({}, game.legal_sequence(seat), 1.0, rng), seat)
    finally:
        movement._search = real
    assert len(calls) > 100
    g, start, rules, _, _ = calls[0]
    calls += [(g, start, MoveRules(b, m, r, stop=rules.stop, forbidden=rules.forbidden), "", c)
              for b in (0, 1, 5, 12) for m in (1, 2) for r in (True, False) for c in (0, 3)]
    for args in calls:
        got, want = real(*args), _heap_search(*args)
        assert got.prev == want.prev
        assert {h: c for h, c in got.cost.items() if h not in got.extra} == want.cost


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_the_search_matches_the_heap_under_any_rules(data: st.DataObject) -> None:
    """Session 47: the search takes a hex's off-road steps cheapest first (stopping at the
    first it cannot pay) and its road steps apart. Under rules drawn at random (hexes to
    stop at or keep out of, full hexsides, budgets, start roads and costs, artillery's
    multiplier, no roads), the same costs and back-links as the heap, and the one-hex
    moves (6.4) where the heap has no cheaper way."""
    g = graph(load_board())
    hexes = st.sampled_from(g.hexes)
    start = data.draw(hexes)
    rules = MoveRules(
        budget=data.draw(st.integers(0, 12)), multiplier=data.draw(st.sampled_from([1, 2])),
        roads=data.draw(st.booleans()), one_hex=data.draw(st.booleans()),
        stop=frozenset(data.draw(st.lists(hexes, max_size=60))),
        forbidden=frozenset(data.draw(st.lists(hexes, max_size=30))) - {start},
        full_sides=frozenset(data.draw(st.lists(st.sampled_from(g.sides), max_size=40))),
        entered=data.draw(st.booleans()))
    start_road = data.draw(st.sampled_from(g.roads))
    start_cost = data.draw(st.integers(0, 4))
    got = movement._search(g, start, rules, start_road, start_cost)
    want = _heap_search(g, start, rules, start_road, start_cost)
    assert got.prev == want.prev
    assert {h: c for h, c in got.cost.items() if h not in got.extra} == want.cost
    assert all(h not in want.cost and got.extra[h] == [start, h] for h in got.extra)
    assert all(got.trail(h)[-1] == h for h in got.cost)


def test_check_move_takes_the_kept_rules_only_while_they_are_the_states() -> None:
    """While no action was executed since the list was brought up to date, the kept rules
    are the rules worked out afresh; after an action, or once ``forget_memos`` dropped
    the kept list, nothing is taken from it."""
    from gettysburg.boc.control import front_line

    game = _movement_game()
    seat = game.to_move()[0]
    move = _a_move(game, seat)
    u = game.state.units[move["unit"]]
    got = game.kept_move(u)
    assert got is not None
    front = front_line(game.board, game.state, seat)
    assert got == (front, game.move_rules(u, front))
    other = next(a for a in game.legal_sequence(seat)
                 if a["type"] == "move" and a["unit"] != move["unit"])
    game.apply(move, seat)
    assert game.kept_move(game.state.units[other["unit"]]) is None
    game.legal_sequence(seat)
    assert game.kept_move(game.state.units[other["unit"]]) is not None
    game.legal_actions(seat)  # keeps the list too (the view lists it at every decision)
    assert game.kept_move(game.state.units[other["unit"]]) is not None
    game.forget_memos()
    assert game._listing_memo is None
    assert game.kept_move(game.state.units[other["unit"]]) is None


def test_entries_take_the_kept_rules_which_are_the_states() -> None:
    """Session 47: the kept list holds due units' rules too (``check_enter`` and
    ``apply_enter`` take them and the front line from it while it is current): in random
    Day 1 play, at every movement decision, every due unit's kept rules are the rules
    worked out afresh, and an entry applied with them leaves the state an entry applied
    after ``forget_memos`` leaves."""
    from gettysburg.boc.control import front_line

    game = _day1("kept-entries")
    rng = random.Random(5)
    agent = make_agent("random", 0)
    checked = entered = 0
    for _ in range(400):
        if game.is_terminal():
            break
        seat = game.to_move()[0]
        seq = game.legal_sequence(seat)
        enters = [a for a in seq if a["type"] == "enter"]
        for uid in {a["unit"] for a in enters}:
            u = game.state.units[uid]
            got = game.kept_move(u)
            assert got is not None
            front = front_line(game.board, game.state, seat)
            assert got == (front, game.move_rules(u, front))
            checked += 1
        if enters:
            act = rng.choice(enters)
            fresh = game.clone()
            fresh.forget_memos()
            fresh.apply_unrecorded(act, seat)
            game.apply_unrecorded(act, seat)
            assert game.state_hash() == fresh.state_hash()
            entered += 1
            continue
        game.apply_unrecorded(agent.choose({}, seq, 1.0, rng), seat)
    assert checked > 20 and entered > 5


def test_kept_board_answers_are_the_ones_worked_out() -> None:
    """``Board.hex`` by id (a table) is the hex's data as parsing finds it; ``entry_cost``
    (kept per board and arguments) is what it works out (6.7), asked again or not."""
    game = _day1("board-answers")
    board = game.board
    for h, info in board.hexes.items():
        assert board.hex(info.id) is info is board.hex(h)
    kept = graph(board).entry_costs
    kept.clear()  # worked out afresh, then kept
    for entry, names in index(board).entries:
        for first in (entry, *index(board).nbrs.get(entry, ())):
            for name in names:
                for mult in (1, 2):
                    for roads in (True, False):
                        want = movement._entry_cost(board, entry, first, name, mult, roads)
                        assert movement.entry_cost(board, entry, first, name, mult,
                                                   roads) == want
                        assert kept[(entry, first, name, mult, roads)] == want
                        assert movement.entry_cost(board, entry, first, name, mult,
                                                   roads) == want


def _path_cost_before(g: MoveGraph, path: list[str], rules: MoveRules, start_road: str,
                      start_cost: int) -> int:
    """``path_cost``'s road arithmetic as it was before session 47 (a list of options per
    state): the reference (the checks before it are unchanged)."""
    states: dict[str, int] = {start_road: start_cost}
    for a, b in itertools.pairwise(path):
        step = next(s for s in g.steps[a] if s.to == b)
        nxt: dict[str, int] = {}
        for road, cost in states.items():
            opts = [(cost + step.off_road * rules.multiplier, movement.NO_ROAD)]
            if rules.roads:
                opts += [(cost + rc + (1 if road and road != rk else 0), rk)
                         for rk, rc in step.roads]
            for c, r in opts:
                if c < nxt.get(r, c + 1):
                    nxt[r] = c
        states = nxt
    return min(states.values())


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_path_costs_as_before(data: st.DataObject) -> None:
    """Session 47: ``path_cost`` without a list of options per state gives the cost it
    gave, for random walks over the board along roads and off them, artillery's
    multiplier, no roads, any start road."""
    g = graph(load_board())
    path = [data.draw(st.sampled_from(g.hexes))]
    for _ in range(data.draw(st.integers(1, 7))):
        nxt = [n for n in g.idx.nbrs[path[-1]] if n not in path]
        if not nxt:
            break
        path.append(data.draw(st.sampled_from(sorted(nxt))))
    if len(path) < 2:
        return
    rules = MoveRules(budget=99, multiplier=data.draw(st.sampled_from([1, 2])),
                      roads=data.draw(st.booleans()))
    road = data.draw(st.sampled_from(g.roads))
    cost0 = data.draw(st.integers(0, 3))
    assert movement.path_cost(load_board(), path, rules, road, cost0) == \
        _path_cost_before(g, path, rules, road, cost0)
