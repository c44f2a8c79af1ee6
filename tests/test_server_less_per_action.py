"""The server does less per action (issue 59) without changing what is stored or seen:
group commit of actions of different games (one transaction, each caller answered after
it, a bad row failing only its own action), no view built that nobody reads, and the
state's legal actions taken from the view's."""

from __future__ import annotations

import random
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from gettysburg.ai.agent import register_agent
from gettysburg.core.canonical import JSONDict
from gettysburg.server.hosting import Host, SeatSpec
from gettysburg.server.store import ActionRow, SeatRow, Store, StoreError, _Append


def _row(i: int, action_id: str | None = None) -> ActionRow:
    return ActionRow(i, "red", {"type": "go", "n": i}, action_id or f"id{i}", [i % 6],
                     f"h{i}")


def _store(tmp_path: Path, games: int) -> Store:
    store = Store(tmp_path / "g.db")
    for g in range(games):
        store.create_game(f"g{g}", "toy", "standard", [], "1",
                          [SeatRow("red", "human", None, None, "x")])
    return store


def _held_first_write(store: Store, monkeypatch: pytest.MonkeyPatch
                      ) -> tuple[threading.Event, threading.Event, list[int]]:
    """The store's first group write waits for ``release`` (after setting ``entered``), so
    other appends queue meanwhile; the size of every group written is recorded."""
    entered, release = threading.Event(), threading.Event()
    sizes: list[int] = []
    real = store._append_all

    def held(batch: Sequence[_Append]) -> None:
        sizes.append(len(batch))
        if len(sizes) == 1:
            entered.set()
            release.wait(30)
        real(batch)

    monkeypatch.setattr(store, "_append_all", held)
    return entered, release, sizes


def _append_in_threads(store: Store, rows: dict[str, ActionRow]
                       ) -> tuple[list[threading.Thread], dict[str, BaseException | None]]:
    outcome: dict[str, BaseException | None] = {}

    def append(game_id: str, row: ActionRow) -> None:
        try:
            store.append_action(game_id, row, "active", None)
            outcome[game_id] = None
        except BaseException as exc:  # recorded for the test to look at
            outcome[game_id] = exc

    threads = [threading.Thread(target=append, args=(g, r)) for g, r in rows.items()]
    for t in threads:
        t.start()
    return threads, outcome


def _wait_queued(store: Store, n: int) -> None:
    for _ in range(3000):
        with store._group:
            if len(store._queue) >= n:
                return
        threading.Event().wait(0.01)
    raise AssertionError("the appends did not queue")


def test_actions_of_several_games_share_one_commit(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    store = _store(tmp_path, 5)
    entered, release, sizes = _held_first_write(store, monkeypatch)
    first, out0 = _append_in_threads(store, {"g0": _row(0)})
    assert entered.wait(30)
    rest, out = _append_in_threads(store, {f"g{g}": _row(0) for g in range(1, 5)})
    _wait_queued(store, 4)
    # Nobody is answered before the commit that holds their action.
    assert not out0 and not out
    release.set()
    for t in first + rest:
        t.join(30)
    assert out0 == {"g0": None} and out == {f"g{g}": None for g in range(1, 5)}
    assert sizes == [1, 4]  # the four that waited went in one transaction
    for g in range(5):
        assert [a.action_id for a in store.actions(f"g{g}")] == ["id0"]


def test_a_bad_row_in_a_group_fails_only_its_own_action(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    store = _store(tmp_path, 4)
    store.append_action("g2", _row(0), "active", None)
    entered, release, sizes = _held_first_write(store, monkeypatch)
    first, _ = _append_in_threads(store, {"g0": _row(0)})
    assert entered.wait(30)
    # g2's action 0 is stored already: its second action 0 clashes with it.
    rest, out = _append_in_threads(store, {"g1": _row(0), "g2": _row(0, "other"),
                                           "g3": _row(0)})
    _wait_queued(store, 3)
    release.set()
    for t in first + rest:
        t.join(30)
    assert out["g1"] is None and out["g3"] is None
    assert isinstance(out["g2"], StoreError)
    assert sizes[:2] == [1, 3]  # the group failed, then each was written alone
    assert [a.action_id for a in store.actions("g1")] == ["id0"]
    assert [a.action_id for a in store.actions("g2")] == ["id0"]
    assert [a.action_id for a in store.actions("g3")] == ["id0"]
    store.append_action("g2", _row(1), "finished", {"winner": "red"})  # writes go on
    assert store.game("g2").status == "finished"  # type: ignore[union-attr]


def _counting_views(host: Host, gid: str) -> dict[str, int]:
    """Count the game's ``view`` calls per seat (the live game's own method, wrapped)."""
    live = host.load(gid)
    calls: dict[str, int] = {}
    real = live.game.view

    def view(seat: str) -> JSONDict:
        calls[seat] = calls.get(seat, 0) + 1
        return real(seat)

    live.game.view = view  # type: ignore[method-assign]
    return calls


def _play(host: Host, gid: str, person: str, token: str, n: int) -> None:
    for i in range(n):
        live, _ = host.auth(gid, token)
        state = host.state(live, person)
        if person in state["to_move"]:
            moves = [a for a in state["legal"] if a["type"] != "end_phase"] or state["legal"]
            host.act(gid, person, moves[0], f"a{i}")
        for seat, mind, seed, view, legal, mark in host.ai_turns(gid):
            host.agent_move(gid, seat, mind, seed, view, legal, mark, 0.5)


def test_a_random_computer_seat_is_never_shown_a_full_view(tmp_path: Path) -> None:
    """The random agent reads only the legal actions: the host gives it the view's summary
    and builds no view of its seat, neither for it nor to compare before and after an
    action (BoC says what an action showed its player, so a computer does not watch)."""
    host = Host(Store(tmp_path / "g.db"))
    gid, tokens = host.create("boc", "day1", [], "7", {"csa": SeatSpec("human"),
                                                        "usa": SeatSpec("ai", "random")})
    calls = _counting_views(host, gid)
    _play(host, gid, "csa", tokens["csa"], 30)
    live = host.load(gid)
    assert live.step > 30 and any(m.seat == "usa" for m in live.game.history)
    assert calls.get("usa", 0) == 0 and calls["csa"] > 0
    # The person's view: once per position at most (the state, the push, the undo check).
    assert calls["csa"] <= live.step + 1


def test_the_states_legal_actions_are_the_views(tmp_path: Path) -> None:
    host = Host(Store(tmp_path / "g.db"))
    gid, tokens = host.create("boc", "day1", [], "7", {"csa": SeatSpec("human"),
                                                        "usa": SeatSpec("human")})
    live, _ = host.auth(gid, tokens["csa"])
    state: dict[str, Any] = host.state(live, "csa")
    assert state["legal"] == live.game.legal_actions("csa") and state["legal"]
    assert state["legal"] is state["view"]["legal_actions"]  # one list, built once


def test_the_seats_log_read_from_what_is_new_matches_the_games(tmp_path: Path) -> None:
    """``Live.log_size``/``events_between`` follow the log as it grows (and after an undo
    replaces the game) and give what the game's own methods give, for every mark."""
    host = Host(Store(tmp_path / "g.db"))
    gid, tokens = host.create("boc", "day1", [], "7", {"csa": SeatSpec("human"),
                                                        "usa": SeatSpec("ai", "random")})
    undone = False
    for i in range(40):
        live, _ = host.auth(gid, tokens["csa"])
        game = live.game
        for seat in ("csa", "usa"):
            assert live.log_size(seat) == game.log_size(seat)
            for since in (0, 3, live.log_size(seat) - 1, live.log_size(seat) + 5):
                assert live.events_between(seat, 0, game.log_length, since) == \
                    game.events(seat, since)
            for k in range(max(0, live.step - 3), live.step):
                lo, hi = live.marks[k], live.marks[k + 1]
                assert live.events_between(seat, lo, hi) == game.events_between(seat, lo, hi)
        state = host.state(live, "csa")
        if "csa" in state["to_move"]:
            moves = [a for a in state["legal"] if a["type"] != "end_phase"] or state["legal"]
            host.act(gid, "csa", moves[0], f"a{i}")
            if not undone and host.state(host.load(gid), "csa")["undo"]:
                host.undo(gid, "csa")
                undone = True
        for seat, mind, seed, view, legal, mark in host.ai_turns(gid):
            host.agent_move(gid, seat, mind, seed, view, legal, mark, 0.5)
    assert undone and host.load(gid).game.log_length > 40


class BlindBroken:
    """Reads no view (as random) and answers an action that is not legal."""

    name = "blind_broken"
    reads_view = False

    def __init__(self, seed: str) -> None:
        self.given: list[JSONDict] = []

    def choose(self, view: JSONDict, legal: Sequence[Any], budget: float,
               rng: random.Random) -> Any:
        self.given.append(view)
        assert len(legal) > 0
        return {"type": "teleport", "block": "r1"}


register_agent("blind_broken", BlindBroken)


def test_an_agent_reading_no_view_answering_nonsense_plays_the_first_action(
        tmp_path: Path) -> None:
    """Its choice is checked by applying it (the lazy list is not built whole to look it
    up): refused, the first legal action is played instead, and nothing else changed."""
    host = Host(Store(tmp_path / "g.db"), agents=("blind_broken",))
    gid, tokens = host.create("toy", "standard", [], "4",
                              {"red": SeatSpec("human"), "blue": SeatSpec("ai", "blind_broken")})
    live, _ = host.auth(gid, tokens["red"])
    host.act(gid, "red", {"type": "pass"}, "x")
    [(seat, mind, seed, view, legal, mark)] = host.ai_turns(gid)
    first = dict(legal[0])
    host.agent_move(gid, seat, mind, seed, view, legal, mark, 0.5)
    live = host.load(gid)
    assert live.step == 2 and live.game.history[-1].action == first
    assert live.action_ids == ["x", "ai:1"]
