"""The GBACW general scores a big move list cheaply without changing a score (issue 54:
"decides a player's activation in under a second"): each unit's destination hex is scored
once and each facing from a memo (``GbacwDoctrine._moves``), and the hex terms and move
bases are shared by the views that agree on what they are worked out from
(``situation._hex_terms``). These tests hold the fast path to the plain formula, and the
shared memos to their keys; no timing is asserted."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from gbacw_ai_views import away, hid
from gettysburg.core.hexes import Hex
from gettysburg.gbacw.ai import situation as sit
from gettysburg.gbacw.ai.doctrine import GbacwDoctrine
from gettysburg.gbacw.ai.ground import board, objectives, parse
from gettysburg.gbacw.ai.memory import GbacwMemory
from gettysburg.gbacw.ai.situation import Situation, facing_cos, situation

JSON = dict[str, Any]
BASE = parse("A2413")  # open ground on Herr Ridge's sheet, next to objective A2512
OBJ = objectives("herr-ridge").hexes[0]
FACINGS = [{"kind": k, "index": i} for k in ("vertex", "side") for i in range(6)]


@pytest.fixture(autouse=True)
def cold_memos() -> Iterator[None]:
    """Each test starts with no shared memo (they are kept across views by design)."""
    sit._ENEMY.clear()
    sit._GOAL.clear()
    yield
    sit._ENEMY.clear()
    sit._GOAL.clear()


def unit(seat: str, at: Hex, brigade: str, sp: int = 6, **more: Any) -> JSON:
    return {"seat": seat, "hex": hid(at), "facing": FACINGS[0], "sp": sp, "brigade": brigade,
            "disordered": False, "arm": "inf", **more}


def position(**moved: Hex) -> JSON:
    """The Confederacy (Herr Ridge's taker) with three units near an objective, one of them
    mounted cavalry, and four Union units around; ``moved`` puts a unit elsewhere."""
    units = {
        "a": unit("csa", away(BASE, 3, 3), "B1"),
        "b": unit("csa", away(BASE, 4, 3), "B1", sp=2),
        "c": unit("csa", away(BASE, 2, 4), "B1", sp=3, arm="cav", mode="mounted"),
        "x": unit("usa", away(BASE, 0, 2), "U1", sp=9),
        "y": unit("usa", away(BASE, 1, 3), "U1"),
        "z": unit("usa", away(BASE, 0, 6), "U1", sp=4),
        "w": unit("usa", away(BASE, 5, 5), "U2", sp=5),
    }
    for k, h in moved.items():
        units[k] = {**units[k], "hex": hid(h)}
    return {"system": "gbacw", "seat": "csa", "scenario": "herr-ridge", "units": units,
            "brigades": {"B1": {"seat": "csa", "orders": "advance"}}, "leaders": {},
            "turn": "1-0900", "light": "day", "phase": "action", "current": "csa",
            "brigade": "B1"}


def moves(v: JSON, reach: int = 3) -> list[JSON]:
    """Every own unit's moves to each hex within ``reach`` of it, in every facing (the
    engine's big lists look so: each unit's hexes times their facings), and a few others."""
    out: list[JSON] = []
    for k, u in v["units"].items():
        if u["seat"] != v["seat"]:
            continue
        here = parse(u["hex"])
        for dq in range(-reach, reach + 1):
            for dr in range(-reach, reach + 1):
                to = Hex(here.q + dq, here.r + dr)
                if here.distance(to) <= reach and to in board().hexes:
                    out += [{"type": "move", "unit": k, "to": hid(to), "facing": f}
                            for f in FACINGS]
    return [*out, {"type": "face", "unit": "a", "facing": FACINGS[3]}, {"type": "end_brigade"}]


def plain_move(s: Situation, a: JSON) -> float:
    """A move's score by the plain formula: its base for the (unit, hex), then 0.05 times
    the facing's cosine toward what to face there, less 0.4 next to a much stronger enemy."""
    to = parse(a["to"])
    base, target, crowded = GbacwDoctrine()._move_base(s, a["unit"], to)
    score = base
    if target is not None:
        score += 0.05 * facing_cos(a.get("facing"), to, target)
    if crowded:
        score -= 0.4
    return score


def test_move_scores_equal_the_plain_formula() -> None:
    """Issue 54: the written-out move loop (memos by (unit, hex) and by facing and offset)
    gives every move the same float as the plain formula, with fresh memos for each."""
    v = position()
    legal = moves(v)
    assert len(legal) > 1000
    got = GbacwDoctrine().scores(v, legal)
    for a, x in zip(legal, got, strict=True):
        if a["type"] == "move":
            sit._ENEMY.clear()
            sit._GOAL.clear()
            assert x == plain_move(situation(v), a), a
    # the terms are not all alike: the facing counts, and some moves are crowded
    assert len({x for a, x in zip(legal, got, strict=True) if a["type"] == "move"}) > 50


def test_each_unit_and_hex_is_scored_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Twelve facings of one (unit, hex) cost one base; the next view of the activation
    with nothing changed costs none, and a moved unit costs only its own hexes again."""
    calls: list[tuple[str, Hex]] = []
    plain = GbacwDoctrine._move_base

    def counted(self: GbacwDoctrine, s: Situation, k: str, to: Hex) -> Any:
        calls.append((k, to))
        return plain(self, s, k, to)

    monkeypatch.setattr(GbacwDoctrine, "_move_base", counted)
    d, v = GbacwDoctrine(), position()
    legal = moves(v)
    d.scores(v, legal)
    pairs = {(a["unit"], a["to"]) for a in legal if a["type"] == "move"}
    assert len(calls) == len(pairs) == len(set(calls))
    calls.clear()
    d.scores(position(), legal)  # the same position again, a new view
    assert calls == []
    moved = position(b=away(BASE, 4, 2))
    d.scores(moved, moves(moved))
    assert calls and {k for k, _ in calls} == {"b"}


def test_shared_memos_follow_what_they_are_worked_out_from() -> None:
    """The enemy terms are shared by views with the same enemy units (hexes and SP); the
    goal terms also need the same count of friends on each objective."""
    a = situation(position())
    moved = situation(position(a=away(BASE, 3, 2)))  # off the objectives: same terms
    assert moved._nearest is a._nearest and moved._goal is a._goal
    on_obj = situation(position(a=OBJ))  # a friend onto an objective: goals change
    assert on_obj._nearest is a._nearest and on_obj._goal is not a._goal
    v = position()
    v["units"]["x"] = {**v["units"]["x"], "sp": 8}  # an enemy lost SP: everything anew
    hurt = situation(v)
    assert hurt._nearest is not a._nearest and hurt._goal is not a._goal
    assert hurt.enemy_next_to(away(BASE, 0, 1)) != a.enemy_next_to(away(BASE, 0, 1))


def test_scores_do_not_hang_on_the_views_scored_before() -> None:
    """The same view scores the same after others (kept memos) as from cold."""
    d = GbacwDoctrine()
    first = position()
    legal = moves(first)
    cold = d.scores(first, legal)
    for other in (position(a=OBJ), position(b=away(BASE, 4, 2)), position(c=away(BASE, 1, 1))):
        d.scores(other, moves(other))
    assert d.scores(position(), legal) == cold
    sit._ENEMY.clear()
    sit._GOAL.clear()
    assert d.scores(position(), legal) == cold


def test_memos_are_bounded() -> None:
    """Only the last few keys' memos are kept (a long game meets thousands)."""
    for i in range(3 * sit._KEEP):
        v = position()
        v["units"]["x"] = {**v["units"]["x"], "sp": 20 + i}
        situation(v)
    assert len(sit._ENEMY) == len(sit._GOAL) == sit._KEEP


def test_cos_by_offset_is_facing_cos() -> None:
    """``Situation.cos_by`` (by facing and offset, kept for every view) is ``facing_cos``."""
    s = situation(position())
    for f in [*FACINGS, {}]:
        for dq in range(-7, 8):
            for dr in range(-7, 8):
                to = Hex(BASE.q + dq, BASE.r + dr)
                assert s.cos_by(f, dq, dr) == facing_cos(f, BASE, to)
                assert s.cos(f, BASE, to) == facing_cos(f, BASE, to)


def test_wanted_orders_once_a_brigade() -> None:
    """002 §6.2: the orders a brigade should have are worked out once a view, the same as
    from scratch; Attack for the taker's brigade near its objective."""
    d, s = GbacwDoctrine(), situation(position())
    assert d._wanted_orders(s, "B1") == d._orders_for(s, "B1") == "attack"
    assert s._wanted == {"B1": "attack"}


def test_memory_reads_shots_and_charges_in_one_pass() -> None:
    """The memory's one pass over the list finds a unit that stopped being offered a shot
    (002 §6.15: it fired) among thousands of moves."""
    m, v = GbacwMemory(), position()
    legal = moves(v)
    shot = {"type": "fire", "unit": "a", "target": v["units"]["x"]["hex"]}
    m.recall({**v, "legal_actions": [*legal, shot]})
    got = m.recall({**v, "legal_actions": legal})
    assert got["ai_fired"] == ["a"]
