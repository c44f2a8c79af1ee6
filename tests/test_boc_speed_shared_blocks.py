"""Issue 59, session 48: the blocks of BoC's shared view (``boc/shared_blocks.py``), kept per
seat and looked at again only for the blocks written to since (``boc/unit_edits.py``), and
its command ranges (``boc/shared_ranges.py``).

Two games play the same actions: one keeps its blocks from one shared view to the next, the
other builds ``fog.units_view`` afresh with its memos forgotten. At every decision the kept
lists must equal the fresh ones, for every seat, in random play and in the general's (which
reads the shared dicts and must leave them as they were); a block changed by hand, a unit
put into the units dict, a new state, a log overrun, an HQ moved or the control changed
by hand must all show at once."""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import pytest

from gettysburg.ai import make_agent
from gettysburg.ai.general import best_index
from gettysburg.boc import unit_edits
from gettysburg.boc.ai.doctrine import BocDoctrine
from gettysburg.boc.fog import units_view
from gettysburg.boc.game import BocGame
from gettysburg.boc.state import ON_MAP, UnitState
from gettysburg.boc.unit_edits import Watcher
from gettysburg.core.protocol import REFEREE, new_game

Blocks = tuple[list[dict[str, Any]], list[dict[str, Any]]]
SEATS = ("usa", "csa", REFEREE)


def _game(scenario: str, seed: str) -> BocGame:
    game = new_game(scenario, seed=seed)
    assert isinstance(game, BocGame)
    return game


def _fresh(game: BocGame, seat: str) -> Blocks:
    game.forget_memos()
    return units_view(game.key, game.state, seat, game._shown)


def _same(kept: BocGame, fresh: BocGame, seat: str) -> Blocks:
    """The kept blocks (and command ranges) are the fresh ones."""
    got = kept._shared_blocks(seat)
    where = (kept.state.day, kept.state.hour, kept.state.phase, seat)
    assert got == _fresh(fresh, seat), where
    fresh.forget_memos()
    assert kept._shared_ranges(seat) == fresh._command_ranges(seat), where
    return got


def _play(scenario: str, seed: str, decisions: int, general: bool) -> dict[str, int]:
    """Lockstep play; how many views were compared and how many handed out both lists
    again (nothing the seat sees had changed)."""
    kept, fresh = _game(scenario, seed), _game(scenario, seed)
    rng = random.Random(seed)
    agent, doctrine = make_agent("random", 0), BocDoctrine()
    seen = {"views": 0, "again": 0}
    last: dict[str, Blocks] = {}
    for step in range(decisions):
        if kept.is_terminal():
            break
        seat = kept.to_move()[0]
        for other in SEATS if step % 5 == 0 else (seat,):
            got = _same(kept, fresh, other)
            seen["views"] += 1
            was = last.get(other)
            seen["again"] += was is not None and was[0] is got[0] and was[1] is got[1]
            last[other] = got
        if general:
            view = kept.view_shared(seat)
            before = copy.deepcopy((view["units"], view["hidden"]))
            legal = view["legal_actions"]
            action = dict(legal[best_index(doctrine.scores(view, legal), legal)])
            assert (view["units"], view["hidden"]) == before  # the doctrine wrote nothing
        else:
            action = agent.choose({}, kept.legal_sequence(seat), 1.0, rng)
        kept.apply_unrecorded(copy.deepcopy(action), seat)
        fresh.apply_unrecorded(copy.deepcopy(action), seat)
    assert kept.state_hash() == fresh.state_hash()
    return seen


def test_kept_blocks_are_the_fresh_blocks_in_random_play_of_the_battle() -> None:
    seen = _play("boc/battle", "blocks-1", 500, general=False)
    assert seen["views"] > 600
    assert seen["again"] > 20


def test_kept_blocks_are_the_fresh_blocks_in_random_play_of_day1() -> None:
    seen = _play("boc/day1", "blocks-2", 400, general=False)
    assert seen["views"] > 500


def test_kept_blocks_are_the_fresh_blocks_in_the_generals_play() -> None:
    seen = _play("boc/battle", "blocks-3", 160, general=True)
    assert seen["views"] > 200
    seen = _play("boc/day1", "blocks-4", 120, general=True)
    assert seen["views"] > 150


def _in_play(seed: str) -> tuple[BocGame, BocGame]:
    """Two games a few random decisions into Day 1, each seat's blocks kept once."""
    kept, fresh = _game("boc/day1", seed), _game("boc/day1", seed)
    rng, agent = random.Random(1), make_agent("random", 0)
    for _ in range(40):
        seat = kept.to_move()[0]
        action = agent.choose({}, kept.legal_sequence(seat), 1.0, rng)
        kept.apply_unrecorded(copy.deepcopy(action), seat)
        fresh.apply_unrecorded(copy.deepcopy(action), seat)
    for seat in SEATS:
        _same(kept, fresh, seat)
    return kept, fresh


def _both(games: tuple[BocGame, BocGame], uid: str) -> list[UnitState]:
    return [g.state.units[uid] for g in games]


def test_a_block_changed_by_hand_shows_at_once() -> None:
    games = _in_play("blocks-5")
    kept, fresh = games
    unchanged = kept._shared_blocks("usa")
    assert kept._shared_blocks("usa")[0] is unchanged[0]  # nothing written: same list
    mover = next(u for u in kept.state.on_map("csa") if not u.revealed)
    for u in _both(games, mover.id):
        u.hex = "K10" if u.hex != "K10" else "K11"  # a hidden block moved
    for u in _both(games, next(iter(kept.state.on_map("usa"))).id):
        u.strength, u.column = u.strength - 1, not u.column  # an own block worn
    for u in _both(games, next(u.id for u in kept.state.on_map("csa") if u.id != mover.id)):
        u.revealed = not u.revealed  # a block revealed or hidden: it changes lists
    for seat in SEATS:
        _same(kept, fresh, seat)


def test_units_put_in_replaced_or_a_new_state_show_at_once() -> None:
    games = _in_play("blocks-6")
    kept, fresh = games
    uid = next(iter(kept.state.on_map("csa"))).id
    for g in games:  # a new object in its place, with another hex
        u = copy.copy(g.state.units[uid])
        u.__dict__["hex"] = "K10"  # not through __setattr__: the log never hears of it
        g.state.units[uid] = u
    for seat in SEATS:
        _same(kept, fresh, seat)
    extra = next(u.id for u in kept.orders.oob if u.side == "csa"
                 and u.id not in kept.state.units)
    for g in games:  # a unit put in (as a replacement leader is, 4.61)
        g.state.units[extra] = UnitState(extra, "csa", ON_MAP, "K12", 2)
    for seat in SEATS:
        _same(kept, fresh, seat)
    for g in games:
        del g.state.units[extra]
    for seat in SEATS:
        _same(kept, fresh, seat)
    position = fresh.position_json()
    for g in games:  # a position loaded
        g.load_position(position)
        g.state.units[uid].__dict__["strength"] = 1  # unlogged, in the new state only
    for seat in SEATS:
        _same(kept, fresh, seat)


def test_a_log_overrun_builds_the_blocks_afresh() -> None:
    games = _in_play("blocks-7")
    kept, fresh = games
    stranger = UnitState("x", "usa", ON_MAP, "K10", 1)
    for u in _both(games, next(iter(kept.state.on_map("csa"))).id):
        u.hex = "K11"
    for _ in range(unit_edits.EDIT_LOG + 1):
        stranger.strength = 2  # another game's writes push the first out of the log
    for seat in SEATS:
        _same(kept, fresh, seat)


def test_the_watcher_names_the_units_written_to() -> None:
    watcher = Watcher()
    a, b = UnitState("a", "usa", ON_MAP, "K10", 3), UnitState("b", "csa", ON_MAP, "K11", 2)
    assert watcher.edited() is None  # the first look: everything
    assert watcher.edited() == []
    a.hex = "K12"
    b.moved = True
    a.strength = 2
    assert [u.id for u in watcher.edited() or ()] == ["a", "b", "a"]  # newest first
    other = Watcher()
    other.edited()
    b.fired = True
    assert [u.id for u in watcher.edited() or ()] == ["b"]  # the other's mark is skipped
    for _ in range(unit_edits.EDIT_LOG):
        a.fired = True
    assert watcher.edited() is None  # its mark left the log


def test_units_copied_and_pickled_are_equal_and_their_writes_noted() -> None:
    unit = UnitState("a", "usa", ON_MAP, "K10", 3, moved=True, mp_used=2, returned=1)
    watcher = Watcher()
    watcher.edited()
    for twin in (copy.copy(unit), copy.deepcopy(unit), pickle.loads(pickle.dumps(unit))):
        assert twin == unit and twin is not unit
        assert twin.to_json(full=False) == unit.to_json(full=False)
        twin.hex = "K11"
        assert unit.hex == "K10"
        edited = watcher.edited()
        assert edited is not None and edited[0] is twin


def test_an_hq_moved_or_the_control_changed_by_hand_shows_at_once() -> None:
    games = _in_play("blocks-8")
    kept, fresh = games
    ranges = kept._shared_ranges("usa")
    assert kept._shared_ranges("usa") is ranges  # nothing written: the same dict
    hq = next(u.id for u in kept.state.on_map("usa") if u.id in kept._ranged_hqs())
    for u in _both(games, hq):
        u.hex = "K10" if u.hex != "K10" else "K11"
    _same(kept, fresh, "usa")
    before = len(kept._shared_ranges("usa")[hq])
    for g in games:  # hexes turned over in place, not a new snapshot: the trace stops
        for hx in g._command_ranges("usa")[hq]:
            if hx != g.state.units[hq].hex:
                g.state.control[hx] = "csa"
    _same(kept, fresh, "usa")
    assert len(kept._shared_ranges("usa")[hq]) < before


def test_a_view_hands_out_its_own_block_dicts() -> None:
    """``view``'s blocks are copies of the kept ones: a caller changing them changes no
    later view, shared or not."""
    kept, fresh = _in_play("blocks-9")
    for seat in SEATS:
        view = kept.view(seat)
        for block in view["units"][:3] + view["hidden"][:3]:
            block["hex"] = "changed"
        view["units"].clear()
        assert kept.view(seat)["units"] == _fresh(fresh, seat)[0]
        assert kept.view_shared(seat)["hidden"] == _fresh(fresh, seat)[1]


def test_a_new_fog_key_renames_the_hidden_blocks_at_once() -> None:
    kept, fresh = _in_play("blocks-10")
    before = kept._shared_blocks("usa")[1]
    for g in (kept, fresh):
        g.use_secret(b"the server's own secret")
    after = _same(kept, fresh, "usa")[1]
    assert before and {h["handle"] for h in after}.isdisjoint(h["handle"] for h in before)


def test_a_write_made_while_the_watcher_reads_the_log_is_reported_next_time(
        monkeypatch: Any) -> None:
    # Another thread's write landing while ``edited`` works (here: just before it puts
    # its new mark in) must be reported, by this call or the next, not lost for good.
    game = _game("boc/day1", "race")
    seat = "usa"
    game.view_shared(seat)
    unit = next(u for u in game.state.units.values() if u.side == seat and u.hex)
    real = unit_edits.note_edit
    done: list[bool] = []

    def meanwhile(item: Any) -> None:
        if type(item) is unit_edits._Mark and not done:
            done.append(True)
            unit.strength = max(0, unit.strength - 1)
        real(item)

    monkeypatch.setattr(unit_edits, "note_edit", meanwhile)
    game.view_shared(seat)
    monkeypatch.setattr(unit_edits, "note_edit", real)
    assert done
    for _ in range(2):
        assert game.view_shared(seat)["units"] == \
            units_view(game.key, game.state, seat, game._shown)[0]


def test_kept_lists_and_ranges_are_not_trusted_after_a_failed_build() -> None:
    # A build that raises half-way (a bug, an interrupt) leaves nothing taken for this
    # state's: the next call builds again.
    from gettysburg.boc.shared_ranges import SharedRanges

    game = _game("boc/day1", "raise")
    seat = "usa"
    kept = SharedRanges()
    ranged = game._ranged_hqs()
    first = kept.ranges_now(game.state, game.orders.oob, ranged,
                            lambda: game._command_ranges(seat))
    hq = next(h for h in first if len(first[h]) > 3)
    here = game.state.units[hq].hex
    game.state.control = {**game.state.control,
                          **{h: "csa" for h in first[hq][:5] if h != here}}

    def fails() -> dict[str, list[str]]:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        kept.ranges_now(game.state, game.orders.oob, ranged, fails)
    again = kept.ranges_now(game.state, game.orders.oob, ranged,
                            lambda: game._command_ranges(seat))
    game.forget_memos()
    assert again == game._command_ranges(seat)

    from gettysburg.boc.shared_blocks import SharedBlocks

    shared = SharedBlocks(seat)
    shared.blocks(game.state, game.key, game.orders.oob, game._shown)
    unit = next(u for u in game.state.units.values() if u.side == seat and u.hex)
    unit.strength = max(0, unit.strength - 1)

    def broken(u: UnitState, full: bool) -> dict[str, Any]:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        shared.blocks(game.state, game.key, game.orders.oob, broken)
    got = shared.blocks(game.state, game.key, game.orders.oob, game._shown)
    assert got == units_view(game.key, game.state, seat, game._shown)
