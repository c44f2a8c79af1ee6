"""Random Mundo Machango campaigns played to the end: invariants after every action,
the protocol's promises (legal actions validate, refusals change nothing), replay of the
save file, and no USA division's contents in the CSA's view before a battle shows them."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gettysburg.core import savefile
from gettysburg.core.canonical import canonical_json
from gettysburg.core.protocol import RuleError, new_game
from gettysburg.machango.game import DAYS, MachangoGame


def check_invariants(g: MachangoGame) -> None:
    f, b = g.forces, g.board
    sides_at: dict[str, set[str]] = {}
    for did, d in g.divisions.items():
        units = d["units"] or []
        assert len(units) <= f.capacity_of(did)
        for kind, figs in units:
            assert 0 <= figs <= f.figures[kind]
        if d["status"] == "board":
            assert d["at"] in b.lines
            sides_at.setdefault(d["at"], set()).add(d["side"])
            if d["moved"]:
                assert d["mp"] >= 0
        if d["battle"] is not None:
            assert d["status"] == "board"
    assert all(len(s) == 1 for s in sides_at.values())  # a line has one side's divisions
    lost = sum(1 for did, d in g.divisions.items() if d["side"] == "usa"
               and not f.divisions[did].cavalry for _, n in d["units"] or [] if n == 0)
    assert g.usa_lost == lost  # V1: cavalry never counts (D2)
    for battle in g.battles:
        assert 1 <= len(battle["attackers"]) <= 3  # MV4
    assert set(g.stars.values()) <= {"usa", "csa"}
    assert 1 <= g.day <= DAYS


def check_fog(g: MachangoGame, seen: int = 0) -> int:
    """D3: the CSA's view and log hold no unrevealed USA division's units (the log from
    its ``seen``-th event on: earlier ones were checked before); returns the log's length."""
    view = g.view("csa")
    for did, d in g.divisions.items():
        if d["side"] == "usa" and not d["revealed"] and not g.cavalry(did):
            assert view["divisions"][did]["units"] is None
    new = g.events("csa", seen)
    for e in new:
        if e["type"] == "compose" and e["data"]["division"].startswith("u_"):
            assert set(e["data"]) == {"division"}
        if e["type"] == "dice" and e.get("redacted"):
            assert "rolls" not in e["data"]
    return seen + len(new)


def play(seed: int, choices: random.Random, *, check_every: int = 1) -> MachangoGame:
    g = new_game("machango/campaign", seed=seed)
    assert isinstance(g, MachangoGame)
    n = seen = 0
    while not g.is_terminal():
        seat = g.to_move()[0]
        acts = g.legal_actions(seat)
        assert acts
        ends = [a for a in acts if a["type"] in ("end_turn", "night_pass")]
        act = ends[0] if ends and choices.random() < 0.25 else choices.choice(acts)
        if n % check_every == 0:
            g.validate(act, seat)
        g.apply(act, seat)
        n += 1
        if n % check_every == 0:
            check_invariants(g)
            seen = check_fog(g, seen)
    return g


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), pick=st.integers(0, 10**6))
def test_random_campaigns_end_and_replay(seed: int, pick: int) -> None:
    g = play(seed, random.Random(pick), check_every=3)
    result = g.result()
    assert result is not None and result["winner"] in ("usa", "csa")
    if result["winner"] == "usa":
        assert g.day == DAYS  # T3: the USA wins only at the end
    data = savefile.save(g)
    again = savefile.replay(data)
    assert again.state_hash() == g.state_hash()
    assert canonical_json(again.view("csa")) == canonical_json(g.view("csa"))


def test_refused_actions_change_nothing_and_views_carry_no_seed() -> None:
    g = new_game("machango/campaign", seed=5)
    before = g.state_hash()
    bad: list[dict[str, Any]] = [
        {"type": "move", "division": "u_doubleday", "to": "gettysburg"},
        {"type": "compose", "division": "u_doubleday", "artillery": -1},
        {"type": "compose", "division": "nope", "artillery": 0},
        {"type": "fly"}]
    for act in bad:
        try:
            g.apply(act, "usa")
        except RuleError as exc:
            assert exc.rule.startswith("D")
        else:
            raise AssertionError(f"{act} was accepted")
        assert g.state_hash() == before
    for seat in ("usa", "csa"):
        assert "seed" not in canonical_json(g.view(seat))


def test_same_seed_and_actions_same_game() -> None:
    a = play(11, random.Random(3), check_every=50)
    b = play(11, random.Random(3), check_every=50)
    assert a.state_hash() == b.state_hash()
    assert [m.state_hash for m in a.history] == [m.state_hash for m in b.history]


def _composed(artillery: str, seed: int) -> MachangoGame:
    """A campaign past the choice of units: the USA's divisions all infantry (``none``) or
    as much artillery as they hold (``all``); the CSA's 1 artillery each."""
    g = new_game("machango/campaign", seed=seed)
    assert isinstance(g, MachangoGame)
    while g.phase == "compose":
        seat = g.to_move()[0]
        acts = g.legal_actions(seat)
        first = acts[0]["division"]
        mine = [a for a in acts if a["division"] == first]
        pick = (mine[1] if seat == "csa" else mine[0] if artillery == "none" else mine[-1])
        g.apply(pick, seat)
    return g


def _under_fire(g: MachangoGame, act: dict[str, Any]) -> bool:
    if act["type"] != "move":
        return False
    link = g.board.link(g.divisions[act["division"]]["at"], act["to"])
    return link is not None and any(g.held_by(src) == "csa" for src in link["fire_from"])


def test_csa_sees_the_same_game_whatever_the_usa_put_in_its_divisions() -> None:
    """D3 as a leak test: two games differing only in the USA's hidden choices show the CSA
    the same view and log, action for action, until a battle or a bombardment of a USA
    division (whose losses the CSA may see) tells them apart."""
    for seed in (1, 2):
        a, b = _composed("none", seed), _composed("all", seed)
        assert a.view("usa") != b.view("usa")
        pick = random.Random(seed)
        steps = 0
        while not a.is_terminal() and steps < 400:
            assert canonical_json(a.view("csa")) == canonical_json(b.view("csa"))
            assert canonical_json(a.events("csa")) == canonical_json(b.events("csa"))
            seat = a.to_move()[0]
            acts = a.legal_actions(seat)
            assert acts == b.legal_actions(seat)
            if seat == "usa":  # keep the USA out of the guns' way, so the games run longer
                acts = [x for x in acts if x["type"] != "attack" and not _under_fire(a, x)]
            ends = [x for x in acts if x["type"] in ("end_turn", "night_pass")]
            act = ends[0] if ends and pick.random() < 0.3 else pick.choice(acts)
            a.apply(act, seat)
            b.apply(act, seat)
            steps += 1
            told = {e.type for e in a.log[-20:]}
            usa_hit = any(e.type == "bombardment" and e.data["division"].startswith("u_")
                          for e in a.log[-20:])
            if usa_hit or "battle_begins" in told:  # a battle shows the divisions (D3)
                break
        assert steps > 50 and (a.day, a.hour) > (1, 12)  # well into the first day
