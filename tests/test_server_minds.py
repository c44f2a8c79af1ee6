"""An AI seat keeps one agent for the game (``SeatMind``), and a restart rebuilds it.

The general remembers the enemy blocks it has seen (``belief_boc.BocMemory``). In the
server that memory must survive from one decision to the next, and a server restarted
mid-game must rebuild it from the game's history so that the AI decides as it would have.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from gettysburg.ai import make_agent
from gettysburg.server.hosting import Host, SeatSpec
from gettysburg.server.store import Store

STEPS = 230  # by then the Confederate general recalls blocks it saw revealed (Day 1)


def _play(host: Host, gid: str, steps: int) -> None:
    """Drive a game: the CSA seat by the host's AI, the USA seat by a general as a
    human would, through the same ``act`` path; stop at ``steps`` or after, when the CSA
    is to move."""
    union, rng = make_agent("general", "union"), random.Random(5)
    for _ in range(10 * steps):
        live = host.load(gid)
        if live.step >= steps and "csa" in live.game.to_move():
            return
        turns = host.ai_turns(gid)
        for seat, mind, seed, view, legal, step in turns:
            host.agent_move(gid, seat, mind, seed, view, legal, step, 1.0)
        if not turns:
            view = live.game.view("usa")
            action = union.choose(view, view["legal_actions"], 1.0, rng)
            host.act(gid, "usa", action, f"u{live.step}")
    raise AssertionError("the game did not advance")


def _recall(host: Host, gid: str) -> dict[str, Any]:
    live = host.load(gid)
    mind = live.minds["csa"]
    assert mind is not None
    mind.catch_up()
    agent: Any = mind.agent
    out: dict[str, Any] = agent.memory.recall(live.game.view("csa"))
    return out


def test_the_ai_seat_remembers_and_a_restart_rebuilds_the_same_memory(tmp_path: Path) -> None:
    store = Store(tmp_path / "g.db")
    host = Host(store)
    gid, _ = host.create("boc", "day1", [], "minds", {"usa": SeatSpec("human"),
                                                      "csa": SeatSpec("ai", "general")})
    _play(host, gid, 40)
    first = host.load(gid).minds["csa"]
    _play(host, gid, STEPS)
    live = host.load(gid)
    assert live.minds["csa"] is first  # one agent all game, not one per decision
    kept = _recall(host, gid)
    assert kept["recalled"], "by now the general should recall blocks it saw revealed"

    # What a fresh agent would make of the same view: it never saw those blocks revealed.
    fresh: Any = make_agent("general")
    assert not fresh.memory.recall(live.game.view("csa")).get("recalled")

    # A restart: a new host over the same store replays the game and rebuilds the mind.
    again = Host(store)
    turns_before = host.ai_turns(gid)
    turns_after = again.ai_turns(gid)
    rebuilt = _recall(again, gid)
    assert json.dumps(rebuilt, sort_keys=True) == json.dumps(kept, sort_keys=True)
    # ... and it decides as the mind that watched the game live (if it is to move).
    assert turns_before and [t[2:] for t in turns_before] == [t[2:] for t in turns_after]
    for (_, mind, seed, view, legal, _), (_, mind2, _, _, _, _) in zip(
            turns_before, turns_after, strict=True):
        assert mind is not None and mind2 is not None
        assert mind.choose(view, legal, 1.0, seed) == mind2.choose(view, legal, 1.0, seed)
    store.close()


def test_a_retired_agent_is_played_by_the_stand_in_and_the_game_goes_on(
        tmp_path: Path) -> None:
    """A stored game whose AI seat names an agent this server no longer builds (a name
    retired since) is played on by the system's stand-in, under the stored name."""
    store = Store(tmp_path / "g.db")
    host = Host(store)
    gid, _ = host.create("toy", "standard", [], "4", {"red": SeatSpec("human"),
                                                      "blue": SeatSpec("ai", "general")})
    live = host.load(gid)
    # As if the seat's agent were not installed on this server.
    live.seats = [replace(s, agent="nobody-registered") if s.seat == "blue" else s
                  for s in live.seats]
    view = live.game.view("red")
    host.act(gid, "red", next(a for a in view["legal_actions"] if a["type"] == "pass"), "p")
    turns = host.ai_turns(gid)
    assert [t[0] for t in turns] == ["blue"]
    for seat, mind, seed, view, legal, step in turns:
        assert mind is not None and (mind.name, mind.asked) == ("general", "nobody-registered")
        host.agent_move(gid, seat, mind, seed, view, legal, step, 1.0)
    assert host.load(gid).step == 2  # blue played
    assert host.load(gid).minds["blue"] is turns[0][1]  # kept, not made again each decision
    assert host.state(host.load(gid), "red")["seats"][1]["agent"] == "nobody-registered"
    store.close()


def test_with_no_stand_in_a_seat_plays_its_first_legal_action(tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch
                                                               ) -> None:
    from gettysburg.server import hosting

    monkeypatch.setattr(hosting, "stand_in", lambda system: None)
    store = Store(tmp_path / "g.db")
    host = Host(store)
    gid, _ = host.create("toy", "standard", [], "4", {"red": SeatSpec("human"),
                                                      "blue": SeatSpec("ai", "general")})
    live = host.load(gid)
    live.seats = [replace(s, agent="nobody-registered") if s.seat == "blue" else s
                  for s in live.seats]
    view = live.game.view("red")
    host.act(gid, "red", next(a for a in view["legal_actions"] if a["type"] == "pass"), "p")
    for seat, mind, seed, view, legal, step in host.ai_turns(gid):
        assert seat == "blue" and mind is None
        host.agent_move(gid, seat, mind, seed, view, legal, step, 1.0)
    assert host.load(gid).step == 2  # blue played its first legal action
    store.close()



def test_an_ai_choice_is_applied_only_to_the_position_it_was_made_for(tmp_path: Path) -> None:
    """The agent thinks outside the game lock. If meanwhile a player takes moves back and
    plays others, the game can be at the same step again in another position: a choice
    made for the old one must be dropped (the runner then asks afresh), so the guard
    compares the state reached, not the step count."""
    store = Store(tmp_path / "g.db")
    host = Host(store)
    gid, _ = host.create("toy", "standard", [], "undo-race", {"red": SeatSpec("human"),
                                                              "blue": SeatSpec("ai", "random")})
    host.act(gid, "red", {"type": "pass"}, "p1")
    [(seat, mind, seed, view, legal, mark)] = host.ai_turns(gid)
    assert seat == "blue" and mark == (1, host.load(gid).game.history[-1].state_hash)
    elsewhere = (mark[0], "another position at the same step")
    host.agent_move(gid, seat, mind, seed, view, legal, elsewhere, 1.0)
    assert host.load(gid).step == 1  # dropped, not played
    host.agent_move(gid, seat, mind, seed, view, legal, mark, 1.0)
    assert host.load(gid).step == 2 and host.load(gid).game.history[-1].seat == "blue"
    store.close()
