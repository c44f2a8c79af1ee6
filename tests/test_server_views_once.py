"""The per-position caches of the server (issue 59): a seat's view and state are built
once per position and must follow every change (an action, a link used, an undo)."""

from __future__ import annotations

import json
from pathlib import Path

from gettysburg.server.hosting import Host, SeatSpec
from gettysburg.server.store import Store


def _game(tmp_path: Path) -> tuple[Host, str, dict[str, str]]:
    host = Host(Store(tmp_path / "g.db"))
    gid, tokens = host.create("boc", "day1", [], "7", {"usa": SeatSpec("human"),
                                                        "csa": SeatSpec("human")})
    return host, gid, tokens


def test_state_follows_each_action_and_matches_a_fresh_build(tmp_path: Path) -> None:
    host, gid, tokens = _game(tmp_path)
    for i in range(6):
        live = host.load(gid)
        seat = live.game.to_move()[0]
        live, _ = host.auth(gid, tokens[seat])
        state = host.state(live, seat)
        # The cached state is the one a fresh build gives, and its text is that state.
        assert state == host._build_state(live, seat)
        assert json.loads(host.state_json(live, seat)) == state
        assert state["view"] == live.game.view(seat)
        assert state["step"] == i
        host.act(gid, seat, state["legal"][-1], f"a{i}")
    live = host.load(gid)
    assert host.state(live, "usa")["step"] == 6


def test_a_seat_joining_changes_the_cached_state(tmp_path: Path) -> None:
    host, gid, tokens = _game(tmp_path)
    live = host.load(gid)
    before = host.state(live, "usa")
    assert [s["joined"] for s in before["seats"]] == [False, False]
    host.auth(gid, tokens["csa"])
    after = host.state(live, "usa")
    assert [s["joined"] for s in after["seats"]] == [False, True]


def test_a_repeated_action_id_is_still_answered_once(tmp_path: Path) -> None:
    """The id is first looked for in memory; a repeat still finds the stored action."""
    host, gid, _tokens = _game(tmp_path)
    live = host.load(gid)
    seat = live.game.to_move()[0]
    action = host.state(live, seat)["legal"][-1]
    first = host.act(gid, seat, action, "same")
    again = host.act(gid, seat, action, "same")
    assert not first["duplicate"] and again["duplicate"]
    assert again["index"] == first["index"] and host.load(gid).step == 1


def test_undo_brings_back_the_state_before(tmp_path: Path) -> None:
    host = Host(Store(tmp_path / "g.db"))
    gid, tokens = host.create("boc", "day1", [], "7", {"csa": SeatSpec("human"),
                                                        "usa": SeatSpec("ai", "random")})
    live, seat = host.auth(gid, tokens["csa"])  # the Confederates move first on Day 1
    for n in range(20):
        live = host.load(gid)
        before = host.state(live, seat)
        moves = [a for a in before["legal"] if a["type"] != "end_phase"]
        if seat not in before["to_move"] or not moves:
            break
        host.act(gid, seat, moves[0], f"m{n}")
        if host.state(host.load(gid), seat)["undo"]:
            host.undo(gid, seat)
            live = host.load(gid)
            again = host.state(live, seat)
            assert again == before and again == host._build_state(live, seat)
            return
    raise AssertionError("no action could be taken back")
