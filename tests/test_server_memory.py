"""The host lets idle games go when it holds too many (hosting.Host, docs/security.md
"Limits"): nothing a player did is lost, a game in use stays."""

from __future__ import annotations

import threading

from gettysburg.core.canonical import canonical_json
from gettysburg.server.hosting import Host, SeatSpec
from gettysburg.server.store import Store

HUMANS = {"red": SeatSpec("human"), "blue": SeatSpec("human")}


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _new(host: Host, seed: str) -> str:
    game_id, _tokens = host.create("toy", "standard", [], seed, HUMANS)
    host.load(game_id)
    return game_id


def _move(host: Host, game_id: str, action_id: str) -> None:
    game = host.load(game_id).game
    seat = game.to_move()[0]
    host.act(game_id, seat, game.legal_actions(seat)[0], action_id)


def test_idle_games_go_least_recent_first_and_come_back_as_they_were(store: Store) -> None:
    clock = Clock()
    host = Host(store, max_live=2, idle_seconds=60, clock=clock)
    first = _new(host, "1")
    _move(host, first, "a1")
    _move(host, first, "a2")
    before = {s: canonical_json(host.load(first).game.view(s)) for s in ("red", "blue")}
    clock.now += 10
    second = _new(host, "2")
    clock.now += 61  # both idle now; the first the longer
    third = _new(host, "3")
    assert host.in_memory() == [second, third]
    # asked for again, the first is rebuilt from the store, as it was
    live = host.load(first)
    assert live.step == 2
    assert {s: canonical_json(live.game.view(s)) for s in ("red", "blue")} == before
    _move(host, first, "a3")  # and plays on
    assert len(store.actions(first)) == 3
    assert host.in_memory() == [third, first]  # the second went to make room


def test_games_in_use_stay_even_over_the_cap(store: Store) -> None:
    clock = Clock()
    host = Host(store, max_live=2, idle_seconds=60, clock=clock)
    first, second = _new(host, "1"), _new(host, "2")
    live = host.load(first)
    clock.now += 30
    third = _new(host, "3")  # nobody idle for 60 s yet: three in memory
    assert host.in_memory() == [first, second, third]
    clock.now += 61  # all three idle now
    # Another thread is in the middle of an action on the first game: it stays.
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with live.lock:
            held.set()
            release.wait(10)

    worker = threading.Thread(target=hold)
    worker.start()
    assert held.wait(10)
    try:
        fourth = _new(host, "4")
    finally:
        release.set()
        worker.join(10)
    assert host.in_memory() == [first, fourth]


def test_a_host_under_the_cap_keeps_everything(store: Store) -> None:
    clock = Clock()
    host = Host(store, max_live=10, idle_seconds=60, clock=clock)
    ids = []
    for i in range(5):
        ids.append(_new(host, str(i)))
        clock.now += 1000
    assert sorted(host.in_memory()) == sorted(ids)
