"""Property tests of the engine's fire (issue 53) on a gun-line position: whatever fire order
the phasing seat picks and whatever the d10s, strength never goes negative, the per-hex fire
caps hold (002 §8.31, §10.14), every event cites a rule and the same dice give the same
position."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gbacw_gunline import AL5, AL13, IN3, NAP1, NAP2, RESERVE, TN1, at, gunline, key_of, place
from gettysburg.core.hexes import Hex
from gettysburg.gbacw.fire_action import ORDER_TYPES
from gettysburg.gbacw.game import GbacwGame
from gettysburg.gbacw.nonphasing_fire import ACTION_KINDS

FIRE_TYPES = (*ORDER_TYPES, "return_fire", "hold", *ACTION_KINDS)


def nb(h: Hex, d: int, n: int = 1) -> Hex:
    for _ in range(n):
        h = h.neighbour(d % 6)
    return h


def position(dice: list[int]) -> GbacwGame:
    """Two Napoleon batteries and the 3rd Indiana against three of Archer's regiments."""
    g = gunline(RESERVE, dice=dice)
    c = at(g, (0, 0))
    place(g, NAP1, c, 0)
    place(g, NAP2, c, 0)
    place(g, IN3, nb(c, 5), 0)
    place(g, AL13, nb(c, 0, 2), 3)
    place(g, AL5, nb(c, 1, 2), 3)
    place(g, TN1, nb(c, 0, 5), 3)
    return g


def run(dice: list[int], picks: list[int]) -> tuple[GbacwGame, list[dict[str, object]]]:
    g = position(dice)
    events: list[dict[str, object]] = []
    for pick in picks:
        seat = g.to_move()[0]
        legal = [a for a in g.legal_actions(seat) if a["type"] in FIRE_TYPES]
        if not legal:
            break
        action = legal[pick % len(legal)]
        events += [{"type": e.type, "rule": e.rule, "data": e.data}
                   for e in g.apply(action, seat)]
    return g, events


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(dice=st.lists(st.integers(0, 9), min_size=30, max_size=30),
       picks=st.lists(st.integers(0, 50), min_size=1, max_size=4))
def test_fire_properties(dice: list[int], picks: list[int]) -> None:
    g, events = run(dice, picks)
    for k, u in g.pos.units.items():
        assert 0 <= u.lost <= g.counter(k).sp, (k, u.lost)
    for e in events:
        assert e["rule"], e
        if e["type"] == "fire":
            data = e["data"]
            assert isinstance(data, dict)
            cap = 12 if data["unit"] in (NAP1, NAP2) else 7
            assert 1 <= int(data["sp"]) <= cap, data
            assert data["rule"] == "10.17"
    again, events2 = run(dice, picks)
    assert again.state_hash() == g.state_hash()
    assert events2 == events
    assert key_of(g, IN3) == IN3


def seen_by(e: object, seat: str) -> dict[str, object] | None:
    """What ``seat`` reads of an event (the full data, the redacted copy, or nothing)."""
    from gettysburg.core.protocol import Event
    assert isinstance(e, Event)
    if e.visible_to is None or seat in e.visible_to:
        return dict(e.data)
    return None if e.redacted is None else dict(e.redacted)


@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(dice=st.lists(st.integers(0, 9), min_size=30, max_size=30),
       picks=st.lists(st.integers(0, 50), min_size=1, max_size=4))
def test_no_hidden_fatigue_reaches_the_other_seat_through_fire(dice: list[int],
                                                                picks: list[int]) -> None:
    """Brigade fatigue is hidden from the enemy (002 §17.0): with both sides tired, no fire
    event a seat reads shows the other side's fatigue DRM; the owner sees it in full."""
    g = position(dice)
    g.fatigue = True
    for b in g.pos.brigades.values():
        b.fatigue = 3
    for pick in picks:
        seat = g.to_move()[0]
        legal = [a for a in g.legal_actions(seat) if a["type"] in FIRE_TYPES]
        if not legal:
            break
        for e in g.apply(legal[pick % len(legal)], seat):
            assert e.rule, e
            owner = None
            if e.type == "fire" or (e.type == "fire_udd"
                                    and str(e.data.get("unit")) in g.pos.units):
                owner = g.pos.units[str(e.data["unit"])].seat
            if owner is None:
                continue
            for s in ("usa", "csa"):
                data = seen_by(e, s)
                if data is None or s == owner:
                    continue
                mods = data.get("modifiers") or []
                assert isinstance(mods, list)
                assert not any(isinstance(m, dict) and m.get("source") == "fatigue"
                               for m in mods), (s, e)
