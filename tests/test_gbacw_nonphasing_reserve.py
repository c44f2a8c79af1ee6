"""The non-phasing reserve for every kind of non-phasing fire (002 §10.15, §10.41; engine:
gbacw/return_fire.py ``shot_plan``, ``book_reserve``, gbacw/nonphasing_fire.py): a unit
that splits fires the larger half now and keeps the rest for its next non-phasing shot of
any kind (return, pre-shock, withdrawal, approach) at another hex, then fires no more in
that enemy activation. Hand-made gun-line and skirmish positions, scripted d10s."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gbacw_gunline import AL5, AL13, ARCHER, GAMBLE, IN3, NAP1, TN1, at, gunline, hid, place, script
from gbacw_skirmish import active_gamble
from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import Action, Event, RuleError
from gettysburg.gbacw.game import GbacwGame
from gettysburg.gbacw.return_fire import held_back, shot_plan

IL8 = "US-Cav:8 IL"


def nb(h: Hex, d: int, n: int = 1) -> Hex:
    for _ in range(n):
        h = h.neighbour(d % 6)
    return h


def shots(ev: list[Event], unit: str) -> list[Event]:
    return [e for e in ev if e.type == "fire" and e.data["unit"] == unit]


def moves_of(g: GbacwGame, key: str, seat: str) -> list[Action]:
    return [a for a in g.legal_actions(seat) if a["type"] == "move" and a["unit"] == key]


def returned_with_reserve() -> tuple[GbacwGame, Hex, Hex, Hex]:
    """Archer's 3-SP 5th Alabama Battalion in C answers the 3rd Indiana (in A, its front)
    with 2 SP and keeps 1 (002 §10.15 example 2); the 8th Illinois stands in B, its other
    front hex."""
    g = gunline(GAMBLE)
    c = at(g, (0, 0))
    place(g, AL5, c, 0)
    a, b = nb(c, 0), nb(c, 1)
    place(g, IN3, a, 3)
    place(g, IL8, b, 4)
    g.apply({"type": "fire", "unit": IN3, "target": hid(g, c)}, "usa")
    script(g, [0, 0, 0, 0])
    ev = g.apply({"type": "return_fire_reserve", "unit": AL5}, "csa")
    assert [e.data["sp"] for e in shots(ev, AL5)] == [2]
    assert held_back(g, AL5) == (1, hid(g, a))
    return g, a, b, c


def test_a_return_fire_reserve_serves_withdrawal_fire_10_15() -> None:
    """The reserve kept from return fire is fired as withdrawal fire at another enemy
    leaving the unit's front (§10.15: any kind of non-phasing fire, §10.44), with the SP
    held back, not the unit's full SP; the split's second shot is its last."""
    g, _a, b, _c = returned_with_reserve()
    away = next(m for m in moves_of(g, IL8, "usa") if g.cat.board.parse(m["to"]) != b)
    ev = g.apply(away, "usa")
    assert [e.type for e in ev] == ["withdrawal_declared"]
    legal = g.legal_actions("csa")
    assert {"type": "withdrawal_fire", "unit": AL5} in legal
    # it holds a reserve: no second split
    assert {"type": "withdrawal_fire_reserve", "unit": AL5} not in legal
    script(g, [0, 0, 0, 0])
    ev = g.apply({"type": "withdrawal_fire", "unit": AL5}, "csa")
    assert [(e.data["sp"], e.data["target"]) for e in shots(ev, AL5)] == [(1, hid(g, b))]
    fired = g.pos.units[AL5].fired
    assert "reserve_used" in fired and held_back(g, AL5) is None
    assert "withdrawal" in fired


def test_after_the_reserve_no_more_non_phasing_fire_10_15() -> None:
    """Refusals: the reserve never goes at the first shot's hex; once it is fired the unit
    fires no more non-phasing fire of any kind this activation (two shots, §10.15)."""
    g, a, b, _c = returned_with_reserve()
    with pytest.raises(RuleError) as e:
        shot_plan(g, AL5, a, "withdrawal")
    assert e.value.rule == "10.15" and "twice at one hex" in str(e.value)
    assert shot_plan(g, AL5, b, "withdrawal").sp == 1
    away = next(m for m in moves_of(g, IL8, "usa") if g.cat.board.parse(m["to"]) != b)
    g.apply(away, "usa")
    with pytest.raises(RuleError) as e:  # not offered: the unit holds a reserve
        g.validate({"type": "withdrawal_fire_reserve", "unit": AL5}, "csa")
    assert e.value.rule == "10.44"
    with pytest.raises(RuleError) as e:  # a battery's kind, not this pending fire's
        g.validate({"type": "approach_fire_reserve", "unit": AL5}, "csa")
    assert e.value.rule == "10.44"
    script(g, [0, 0, 0, 0])
    g.apply({"type": "withdrawal_fire", "unit": AL5}, "csa")
    for kind in ("return", "pre_shock", "withdrawal"):
        with pytest.raises(RuleError) as e:
            shot_plan(g, AL5, a, kind)  # type: ignore[arg-type]
        assert e.value.rule == "10.15" and "both shots" in str(e.value)


def test_a_withdrawal_fire_reserve_serves_return_fire_10_15() -> None:
    """Withdrawal fire split: the 6-SP 13th Alabama fires 3 SP at the 3rd Indiana walking
    away and keeps 3; when the 8th Illinois then fires at it from another hex, it returns
    the fire with those 3 SP."""
    g = gunline(GAMBLE)
    c = at(g, (0, 0))
    place(g, IN3, c, 0)
    home = nb(c, 3)
    place(g, AL13, home, 0)  # its front hexes: C and the hex next to both
    other = nb(home, 1)
    assert other in (home.neighbour(0), home.neighbour(1)) and other != c
    place(g, IL8, other, 4)  # the Alabamians in its front hexes too
    away: Action = {"type": "move", "unit": IN3, "to": "B1504",
                    "facing": {"kind": "vertex", "index": 1}}
    ev = g.apply(away, "usa")
    assert [e.type for e in ev] == ["withdrawal_declared"]
    assert {"type": "withdrawal_fire_reserve", "unit": AL13} in g.legal_actions("csa")
    script(g, [0, 0, 0, 0])
    ev = g.apply({"type": "withdrawal_fire_reserve", "unit": AL13}, "csa")
    assert [(e.data["sp"], e.data["target"]) for e in shots(ev, AL13)] == [(3, hid(g, c))]
    reserved = [e for e in ev if e.type == "fire_reserved"]
    assert [(e.data["unit"], e.data["sp"], e.rule) for e in reserved] == [(AL13, 3, "10.15")]
    assert g.pos.units[IN3].hex == "B1504"  # a miss: the move went on
    # the Illinoisans fire from the other front hex: the reserve answers
    ev = g.apply({"type": "fire", "unit": IL8, "target": hid(g, home)}, "usa")
    assert [e.type for e in ev] == ["fire_declared"]
    legal = g.legal_actions("csa")
    assert {"type": "return_fire", "unit": AL13} in legal
    assert {"type": "return_fire_reserve", "unit": AL13} not in legal
    script(g, [0, 0, 0, 0])
    ev = g.apply({"type": "return_fire", "unit": AL13}, "csa")
    assert [(e.data["sp"], e.data["target"]) for e in shots(ev, AL13)] == [(3, hid(g, other))]
    assert "reserve_used" in g.pos.units[AL13].fired


def approaching_two() -> tuple[GbacwGame, Hex]:
    """A lone Union battery (6 Napoleons) with the 13th Alabama and the 1st Tennessee five
    hexes in front of it."""
    g = gunline(ARCHER)
    c = at(g, (0, 0))
    place(g, NAP1, c, 0)
    place(g, AL13, nb(c, 0, 5), 3)
    place(g, TN1, nb(c, 1, 5), 3)
    return g, c


def _approach(g: GbacwGame, key: str, c: Hex, d: int) -> list[Event]:
    """Move ``key`` to 3 hexes from ``c`` in direction ``d`` (in the battery's arc),
    answering any reaction with none."""
    move = next(m for m in moves_of(g, key, "csa") if m["to"] == hid(g, nb(c, d, 3)))
    ev = g.apply(move, "csa")
    if g.pos.pending is not None and g.pos.pending["kind"] == "reaction":
        ev += g.apply({"type": "no_reaction"}, "usa")
    return ev


def test_an_approach_fire_reserve_fires_at_a_second_approach_10_15() -> None:
    """Approach fire is once an enemy activation (§10.45), but a battery that split it
    fires its reserve at the next enemy to approach, in another hex."""
    g, c = approaching_two()
    ev = _approach(g, AL13, c, 0)
    assert ev[-1].type == "approach_offered"
    assert g.legal_actions("usa") == [{"type": "approach_fire", "unit": NAP1},
                                      {"type": "approach_fire_reserve", "unit": NAP1},
                                      {"type": "let_pass"}]
    script(g, [9, 9, 9, 9])
    ev = g.apply({"type": "approach_fire_reserve", "unit": NAP1}, "usa")
    first = shots(ev, NAP1)
    assert [e.data["sp"] for e in first] == [3]
    assert held_back(g, NAP1) == (3, first[0].data["target"])
    ev = _approach(g, TN1, c, 1)
    assert ev[-1].type == "approach_offered"
    assert g.legal_actions("usa") == [{"type": "approach_fire", "unit": NAP1},
                                      {"type": "let_pass"}]
    script(g, [9, 9, 9, 9])
    ev = g.apply({"type": "approach_fire", "unit": NAP1}, "usa")
    second = shots(ev, NAP1)
    assert [e.data["sp"] for e in second] == [3]
    assert second[0].data["target"] == g.pos.units[TN1].hex != first[0].data["target"]
    assert "reserve_used" in g.pos.units[NAP1].fired


def test_without_a_split_approach_fire_stays_once_10_45() -> None:
    """The control: a battery that fired in full has no second approach shot."""
    g, c = approaching_two()
    _approach(g, AL13, c, 0)
    script(g, [9, 9, 9, 9])
    g.apply({"type": "approach_fire", "unit": NAP1}, "usa")
    ev = _approach(g, TN1, c, 1)
    assert "approach_offered" not in [e.type for e in ev]


@pytest.mark.parametrize("same_hex", [False, True])
def test_a_reserve_serves_pre_shock_fire_10_15(same_hex: bool) -> None:
    """A shocked unit holding a reserve (a position built by hand: 2 SP kept from an
    earlier return shot) fires its pre-shock shot with those 2 SP (002 §10.43 with §10.15)
    and then has used its reserve; held back against the attacker's own hex, no pre-shock
    fire is offered (never twice at one hex)."""
    g, k, enemy = active_gamble()
    mine = [a for a in g.legal_actions("usa") if a["type"] == "shock"
            and a["shocks"][0]["attackers"] == [k]]
    g.apply(mine[0], "usa")
    attacker = str(g.pos.units[k].hex)
    elsewhere = g.cat.board.hexes[nb(g.cat.board.parse(attacker), 0, 4)].id
    u = g.pos.units[enemy]
    u.fired = ["return", f"reserve:2@{attacker if same_hex else elsewhere}"]
    g.apply({"type": "stand"}, "csa")
    fire = {"type": "pre_shock_fire", "unit": enemy, "target": attacker}
    if same_hex:
        assert fire not in g.legal_actions("csa")
        return
    assert fire in g.legal_actions("csa")
    ev = g.apply(fire, "csa")
    assert [e.data["sp"] for e in shots(ev, enemy)] == [2]
    assert "reserve_used" in g.pos.units[enemy].fired and held_back(g, enemy) is None


# --- random play around the reserve (hypothesis) ---------------------------------------------

ANSWER_TYPES = ("fire", "fire_split", "move", "return_fire", "return_fire_reserve", "hold",
                "withdrawal_fire", "withdrawal_fire_reserve", "let_pass", "no_reaction")


def skirmish_line(dice: list[int], option: bool) -> GbacwGame:
    """Gamble's 3rd Indiana, 8th and 12th Illinois in the front of Archer's 5th Alabama
    Battalion over the 13th Alabama, and of the 1st Tennessee beside them."""
    g = gunline(GAMBLE, dice=dice, options=("combined_small_arms",) if option else ())
    c = at(g, (0, 0))
    place(g, AL5, c, 0)
    place(g, AL13, c, 0)
    place(g, TN1, nb(c, 5), 0)
    place(g, IN3, nb(c, 0), 3)
    place(g, IL8, nb(c, 1), 4)
    place(g, "US-Cav:12 IL", nb(nb(c, 5), 0), 3)
    return g


def play(dice: list[int], picks: list[int], option: bool) -> tuple[GbacwGame, list[str]]:
    """Random fire, moves and answers; checks the reserve's invariants after each action
    and returns the game and a digest of its events."""
    g = skirmish_line(dice, option)
    log: list[str] = []
    for pick in picks:
        seat = g.to_move()[0]
        legal = [a for a in g.legal_actions(seat) if a["type"] in ANSWER_TYPES]
        if not legal:
            break
        before = {k: (held_back(g, k), "reserve_used" in u.fired) for k, u in g.pos.units.items()}
        ev = g.apply(legal[pick % len(legal)], seat)
        log += [f"{e.type}:{e.rule}:{sorted(e.data.items())}" for e in ev]
        for e in ev:
            assert e.rule, e
            if e.type != "fire":
                continue
            sp, units = int(e.data["sp"]), e.data.get("combined") or [e.data["unit"]]
            assert 1 <= sp <= 7, e.data  # 002 §8.31: a hex's small arms
            for k in units:
                held, used = before[str(k)]
                assert not used, (k, "fired after both shots of its split")  # §10.15
                if held is not None and held[0] and not e.data.get("second_round"):
                    assert sp <= held[0], (k, sp, held)  # the reserve, or less
        for k, u in g.pos.units.items():
            entries = [f for f in u.fired if f.startswith("reserve:")]
            assert len(entries) <= 1 and not (entries and "reserve_used" in u.fired), (k, u.fired)
    return g, log


@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
@given(dice=st.lists(st.integers(0, 9), min_size=40, max_size=40),
       picks=st.lists(st.integers(0, 60), min_size=1, max_size=8), option=st.booleans())
def test_the_reserve_under_random_play_10_15(dice: list[int], picks: list[int],
                                             option: bool) -> None:
    """Every shot within the hex limit, a reserve shot never above the reserve, nothing
    fired after both shots of a split, one reserve at a time; the same dice and choices
    replay to the same position and events."""
    g, log = play(dice, picks, option)
    again, log2 = play(dice, picks, option)
    assert again.state_hash() == g.state_hash() and log2 == log
