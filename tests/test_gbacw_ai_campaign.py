"""The GBACW general's campaign terms (issue 54; 004 sc.6.7, gbacw/ai/campaign.py): the
Union's Emmitsburg Road test and both sides' combat-ineffective loss objective, on
hand-built views of the Battle. Each term changes a decision where it should and leaves
it alone where it should not."""

from __future__ import annotations

from typing import Any

from gbacw_ai_views import hid
from gettysburg.ai.general import best_index
from gettysburg.gbacw.ai import campaign
from gettysburg.gbacw.ai.doctrine import GbacwDoctrine
from gettysburg.gbacw.ai.ground import Campaign, parse
from gettysburg.gbacw.ai.ground import campaign as terms_of
from gettysburg.gbacw.ai.situation import situation

JSON = dict[str, Any]
V0 = {"kind": "vertex", "index": 0}
# Row 60 of sheet B: the road's westmost hex is B6028 (the zone "on or east" of it) and
# B6029 lies west of it; B6128 stands next to both.
EAST, WEST, FIRER = parse("B6028"), parse("B6029"), parse("B6128")


def unit(seat: str, at: Any, brigade: str, sp: int = 6, arm: str = "inf") -> JSON:
    return {"seat": seat, "hex": hid(at) if at is not None else None, "facing": V0, "sp": sp,
            "brigade": brigade, "disordered": False, "arm": arm, "mode": None}


def view(units: dict[str, JSON], seat: str = "usa", scenario: str = "battle",
         brigades: dict[str, JSON] | None = None, **more: Any) -> JSON:
    own = brigades if brigades is not None else {"B": {"seat": seat, "orders": "advance",
                                                       "division": "D0", "fatigue": 0}}
    return {"system": "gbacw", "seat": seat, "scenario": scenario, "units": units,
            "brigades": own, "leaders": {}, "turn": "2-0600", "light": "day",
            "phase": "action", "current": None, "brigade": "B", "ci_brigades": [],
            "ci_divisions": [], **more}


def best(v: JSON, legal: list[JSON]) -> JSON:
    return legal[best_index(GbacwDoctrine().scores(v, legal), legal)]


def shots(seat: str = "usa") -> list[JSON]:
    return [{"type": "end_brigade"},
            {"type": "fire", "unit": "f", "target": hid(WEST)},
            {"type": "fire", "unit": "f", "target": hid(EAST)}]


def road_view(seat: str = "usa", scenario: str = "battle", east_arm: str = "inf") -> JSON:
    foe = "csa" if seat == "usa" else "usa"
    return view({"f": unit(seat, FIRER, "B"),
                 "w": unit(foe, WEST, "E", sp=8),
                 "e": unit(foe, EAST, "E", sp=6, arm=east_arm)}, seat, scenario)


def test_campaign_terms_read_from_the_scenario_file() -> None:
    """004 sc.6.7: the Union needs the road clear; 12 Union or 6 Confederate CI divisions
    lose. Other scenarios have no such terms."""
    t = terms_of("battle")
    assert t.road_seat == "usa"
    assert EAST in t.road_zone and WEST not in t.road_zone
    assert t.limit("usa") == 12 and t.limit("csa") == 6
    assert terms_of("second-day") == Campaign() and terms_of("herr-ridge") == Campaign()


def test_union_shoots_confederates_east_of_the_emmitsburg_road() -> None:
    """004 sc.6.7: of two Confederate regiments next to it, the Union fires at the 6-SP one
    on the road's east side rather than the 8-SP one west of it (the doctrine alone takes
    the bigger target)."""
    assert best(road_view(), shots()) == shots()[2]
    # the doctrine's own choice, the term left out: the bigger target
    v = road_view()
    assert campaign.intruders(situation(v), terms_of("battle")) == frozenset({EAST})
    plain = [x for x in GbacwDoctrine().scores({**v, "scenario": "second-day"}, shots())]
    assert plain[1] > plain[2]


def test_no_road_term_for_artillery_the_confederacy_or_another_scenario() -> None:
    """The road test counts infantry and cavalry only, and only the Union needs it; in the
    Second Day nothing of it applies: the bigger target is taken each time."""
    assert best(road_view(east_arm="art"), shots()) == shots()[1]
    assert best(road_view(seat="csa"), shots("csa")) == shots("csa")[1]
    assert best(road_view(scenario="second-day"), shots()) == shots()[1]


def test_union_shocks_road_intruders_at_even_odds() -> None:
    """004 sc.6.7: at 6 SP against 6 on Attack orders (even odds) the doctrine alone does not
    shock; against a regiment east of the road the Union does (its chance of driving it
    back counts), and against the same west of it, or on the Second Day, it does not."""
    legal = [{"type": "end_shock"},
             {"type": "shock", "shocks": [{"attackers": ["f"], "targets": [hid(EAST)]}]},
             {"type": "shock", "shocks": [{"attackers": ["f"], "targets": [hid(WEST)]}]}]
    attack = {"B": {"seat": "usa", "orders": "attack", "division": "D0", "fatigue": 0}}
    east = view({"f": unit("usa", FIRER, "B"), "e": unit("csa", EAST, "E")}, brigades=attack)
    west = view({"f": unit("usa", FIRER, "B"), "w": unit("csa", WEST, "E")}, brigades=attack)
    assert best(east, legal[:2]) == legal[1]
    assert best(west, [legal[0], legal[2]]) == legal[0]
    assert best({**east, "scenario": "second-day"}, legal[:2]) == legal[0]


def shock_legal(attackers: list[str]) -> list[JSON]:
    return [{"type": "end_shock"},
            {"type": "shock", "shocks": [{"attackers": attackers, "targets": [hid(WEST)]}]}]


def loss_view(ci_own: int, sp: int = 9, brigade_division: str = "D0") -> JSON:
    """A Union regiment of ``sp`` SP next to a 6-SP Confederate one west of the road
    (no road term), with ``ci_own`` of the Union's other divisions combat-ineffective."""
    brigades = {"B": {"seat": "usa", "orders": "attack", "division": brigade_division,
                      "fatigue": 0}}
    brigades |= {f"X{i}": {"seat": "usa", "orders": "advance", "division": f"D{i + 1}",
                           "fatigue": 0} for i in range(ci_own)}
    return view({"a": unit("usa", FIRER, "B", sp=sp), "w": unit("csa", WEST, "E", sp=6)},
                brigades=brigades, ci_divisions=[f"D{i + 1}" for i in range(ci_own)])


def test_near_the_loss_limit_no_shock_at_middling_odds() -> None:
    """004 sc.6.7 (12 Union CI divisions lose): 9 SP against 6 shock when the Union has no
    CI division, and also with 9 (three short); with 11 (one short) the brigade is kept
    out of it; with 10 (two short, half the caution) it still goes, barely."""
    legal = shock_legal(["a"])
    assert best(loss_view(0), legal)["type"] == "shock"
    assert best(loss_view(9), legal)["type"] == "shock"
    assert best(loss_view(11), legal)["type"] == "end_shock"
    assert best(loss_view(10), legal)["type"] == "shock"
    s = situation(loss_view(11))
    assert campaign.own_ci_divisions(s) == 11 and campaign.caution(s, terms_of("battle")) == 1.0


def test_near_the_loss_limit_good_odds_and_spent_divisions_still_shock() -> None:
    """Caution is no veto: 18 SP against 6 (3:1) still shocks one division short; and a
    brigade of a division already CI adds nothing to the count by more losses: it shocks."""
    legal = shock_legal(["a"])
    assert best(loss_view(11, sp=18), legal)["type"] == "shock"
    assert best(loss_view(11, brigade_division="D1"), legal)["type"] == "shock"


def test_a_cavalry_brigade_counts_as_a_division() -> None:
    """004 sc.6.7: a CI cavalry brigade counts as a division; a CI infantry brigade in a
    division that is not CI does not."""
    v = loss_view(10)
    v["units"] |= {"c": unit("usa", None, "K", arm="cav"), "i": unit("usa", None, "I")}
    v["brigades"] |= {"K": {"seat": "usa", "division": "DK", "orders": "advance"},
                      "I": {"seat": "usa", "division": "DI", "orders": "advance"}}
    assert campaign.own_ci_divisions(situation(v)) == 10
    v["ci_brigades"] = ["I"]
    assert campaign.own_ci_divisions(situation(v)) == 10
    v["ci_brigades"] = ["I", "K"]
    assert campaign.own_ci_divisions(situation(v)) == 11
    assert best(v, shock_legal(["a"]))["type"] == "end_shock"


def test_near_the_loss_limit_no_move_next_to_a_stronger_enemy() -> None:
    """The Confederacy (6 CI divisions lose) one short: a 6-SP regiment does not take the
    step toward its objective that ends next to 8 enemy SP (the doctrine's own penalty waits
    for twice its SP) but one that keeps clear and loses no ground; with no CI division it
    takes that step."""
    frm = parse("B5030")
    moves = [{"type": "move", "unit": "a", "to": hid(frm.neighbour(d)), "facing": V0}
             for d in range(6)]
    brigades = {"B": {"seat": "csa", "orders": "advance", "division": "D0", "fatigue": 0}}
    brigades |= {f"X{i}": {"seat": "csa", "orders": "advance", "division": f"D{i + 1}",
                           "fatigue": 0} for i in range(5)}
    s0 = situation(view({"a": unit("csa", frm, "B")}, "csa", brigades=brigades))
    gain = {d: s0.to_goal(frm) - s0.to_goal(frm.neighbour(d)) for d in range(6)}
    tops = [frm.neighbour(d) for d in range(6) if gain[d] == max(gain.values())]
    # the enemy two hexes off, next to every step that gains most
    foe = next(x for d in range(6) for e in range(6)
               if (x := frm.neighbour(d).neighbour(e)).distance(frm) == 2
               and all(x.distance(t) == 1 for t in tops))
    units = {"a": unit("csa", frm, "B"), "e": unit("usa", foe, "E", sp=8)}
    bold = view(units, "csa", brigades=brigades)
    wary = view(units, "csa", brigades=brigades, ci_divisions=[f"D{i + 1}" for i in range(5)])
    assert parse(best(bold, moves)["to"]) in tops
    careful = parse(best(wary, moves)["to"])
    assert careful.distance(foe) > 1
    assert s0.to_goal(careful) <= s0.to_goal(frm)  # and loses no ground for it
