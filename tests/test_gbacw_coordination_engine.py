"""Coordinated brigades in the engine (002 §5.34): after a result of two, three or all, a
group of the division's brigades takes one activation as if it were one brigade: its units
move, fire and shock together (one designation), and the group ends together. Positions are
built by hand on tests/data/gbacw/coordination.yaml (Buford's two brigades side by side)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gettysburg.core.dice import ScriptedDice
from gettysburg.core.protocol import RuleError, load_game
from gettysburg.gbacw import fatigue
from gettysburg.gbacw.coordination import active_brigades, group_limit, groups
from gettysburg.gbacw.facing import Facing, front_hexes
from gettysburg.gbacw.game import GbacwGame
from gettysburg.gbacw.shock_step import has_shocked

SCENARIO = str(Path(__file__).parent / "data" / "gbacw" / "coordination.yaml")
GAMBLE, DEVIN, ARCHER = "US-1/1/Cav", "US-2/1/Cav", "CS-Archer/Heth"
VERTICES = [Facing("vertex", v) for v in range(6)]
OPENING = [7, 3, 0, 5, 4]  # initiative and EM draws as in test_gbacw_game.py


def rolled(roll: int) -> tuple[GbacwGame, list[dict[str, object]]]:
    """Buford's marker first; the coordination d10 is ``roll`` (Buford rates 2)."""
    g = GbacwGame(SCENARIO, dice=ScriptedDice(OPENING + [0] * 80, die="d10"))
    g.apply({"type": "end_orders"}, "usa")
    g.apply({"type": "end_orders"}, "csa")
    g.apply({"type": "first_am", "marker": "usa/US-1/Cav"}, "usa")
    assert {"type": "coordinate"} in g.legal_actions("usa")
    g.dice.values[g.dice.counter] = roll  # type: ignore[attr-defined,unused-ignore]
    events = g.apply({"type": "coordinate"}, "usa")
    return g, [e.data for e in events if e.type == "coordination"]


def grouped() -> GbacwGame:
    g, _ = rolled(6)
    g.apply({"type": "activate_group", "brigades": [GAMBLE, DEVIN]}, "usa")
    return g


def shared_front(g: GbacwGame) -> tuple[str, str, str]:
    """A Gamble unit and a Devin unit next to a common empty hex, turned (by hand) to have
    it in front; that hex's id."""
    taken = {g.hex_of(u.hex) for u in g.pos.units.values()}
    for a in g.brigade_units(GAMBLE):
        for b in g.brigade_units(DEVIN):
            ha, hb = g.hex_of(g.pos.units[a].hex), g.hex_of(g.pos.units[b].hex)
            assert ha is not None and hb is not None
            common = sorted((h for h in g.cat.board.hexes if h not in taken
                             and h.distance(ha) == 1 and h.distance(hb) == 1),
                            key=lambda x: (x.q, x.r))
            for h in common:
                fa = [f for f in VERTICES if h in front_hexes(ha, f)]
                fb = [f for f in VERTICES if h in front_hexes(hb, f)]
                if fa and fb:
                    g.pos.units[a].facing, g.pos.units[b].facing = fa[0], fb[0]
                    g._memo.clear()
                    return a, b, g.cat.board.hexes[h].id
    raise AssertionError("no shared front hex in the hand-made position")


def test_pure_helpers_5_34() -> None:
    assert active_brigades(None, ["a", "b"]) == ()
    assert active_brigades("a", []) == ("a",)
    assert active_brigades("b", ["a", "b"]) == ("b", "a")  # the lead first
    assert active_brigades("c", ["a", "b"]) == ("c",)  # the group has acted: one by one
    assert [group_limit(r, 4) for r in (None, "confusion", "fail", "two", "three", "all")] \
        == [1, 1, 1, 2, 3, 4]
    assert group_limit("three", 2) == 2
    assert groups(["c", "a", "b"], 2) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert len(groups(["a", "b", "c", "d"], 4)) == 6 + 4 + 1
    assert groups(["a", "b"], 1) == []


def test_5_34_example_two_act_as_one_in_the_engine() -> None:
    """002 §5.34's example in play: rating 2, roll 6 -> 8 -> two brigades (the player's pick)
    act as one; the group is offered, taken, and its units of both brigades may move."""
    g, coord = rolled(6)
    assert coord[0]["total"] == 8 and coord[0]["result"] == "two"
    legal = g.legal_actions("usa")
    assert {"type": "activate_group", "brigades": [GAMBLE, DEVIN]} in legal
    assert {"type": "activate", "brigade": GAMBLE} in legal  # alone is still allowed
    before = {n: g.pos.brigades[n].activations for n in (GAMBLE, DEVIN)}
    events = g.apply({"type": "activate_group", "brigades": [DEVIN, GAMBLE]}, "usa")
    act = next(e for e in events if e.type == "activate")
    assert act.rule == "5.34" and act.data["group"] == [DEVIN, GAMBLE]
    p = g.pos
    assert p.brigade == DEVIN and p.coordinated == [DEVIN, GAMBLE]
    assert g.active_brigades() == (DEVIN, GAMBLE)
    assert {n: p.brigades[n].activations for n in (GAMBLE, DEVIN)} == \
        {n: v + 1 for n, v in before.items()}
    movers = {g.formation(str(a["unit"])) for a in g.legal_actions("usa")
              if a["type"] == "move"}
    assert movers == {GAMBLE, DEVIN}
    leaders = {a["leader"] for a in g.legal_actions("usa") if a["type"] == "move_leader"}
    assert {"gamble", "devin", "buford"} <= leaders
    for n in (GAMBLE, DEVIN):  # one unit of each moves in the same activation
        move = next(a for a in g.legal_actions("usa")
                    if a["type"] == "move" and g.formation(str(a["unit"])) == n)
        g.apply(move, "usa")
        assert p.units[str(move["unit"])].hex == move["to"]
    assert g.view("csa")["coordinated"] == [DEVIN, GAMBLE]  # announced, like an activation


def test_the_group_ends_together_and_one_group_a_marker_5_34() -> None:
    g = grouped()
    events = g.apply({"type": "end_brigade"}, "usa")
    assert [e.data["brigade"] for e in events if e.type == "brigade_done"] == [GAMBLE, DEVIN]
    p = g.pos
    assert p.brigade is None and set(p.done_brigades) == {GAMBLE, DEVIN}
    assert not [a for a in g.legal_actions("usa") if a["type"].startswith("activate")]
    p.done_brigades = [DEVIN]  # by hand: Gamble could still act, but not as a group again
    g._memo.clear()
    with pytest.raises(RuleError) as err:
        g.apply({"type": "activate_group", "brigades": [GAMBLE, DEVIN]}, "usa")
    assert err.value.rule == "5.34"


@pytest.mark.parametrize(("roll", "result"), [(0, "confusion"), (3, "fail")])
def test_no_group_without_a_result_of_two_or_more_5_34(roll: int, result: str) -> None:
    g, coord = rolled(roll)
    assert coord[0]["result"] == result
    assert not [a for a in g.legal_actions("usa") if a["type"] == "activate_group"]
    before = g.state_hash()
    with pytest.raises(RuleError) as err:
        g.apply({"type": "activate_group", "brigades": [GAMBLE, DEVIN]}, "usa")
    assert err.value.rule == "5.34" and g.state_hash() == before


def test_a_group_is_checked_5_34() -> None:
    g, _ = rolled(6)
    for bad in ([GAMBLE], [GAMBLE, GAMBLE], [GAMBLE, ARCHER]):
        with pytest.raises(RuleError):
            g.apply({"type": "activate_group", "brigades": bad}, "usa")
    with pytest.raises(RuleError) as err:  # protocol.action: the field must be a list
        g.apply({"type": "activate_group", "brigades": GAMBLE}, "usa")
    assert err.value.rule == "protocol.action"
    g.pos.command["brigadiers"] = [DEVIN]  # Devin's brigadier out of Buford's range
    g._memo.clear()
    with pytest.raises(RuleError) as err:
        g.apply({"type": "activate_group", "brigades": [GAMBLE, DEVIN]}, "usa")
    assert err.value.rule == "5.34" and "not eligible" in str(err.value)


def test_a_group_fires_with_both_brigades_5_34() -> None:
    g = grouped()
    a, b, target = shared_front(g)
    enemy = g.brigade_units(ARCHER)[0]
    g.pos.units[enemy].hex = target
    g._memo.clear()
    firers = {str(x["unit"]) for x in g.legal_actions("usa")
              if x["type"] == "fire" and x["target"] == target}
    assert {a, b} <= firers
    g.apply({"type": "fire", "unit": b, "target": target}, "usa")  # Devin's: not the lead's
    assert "phasing" in g.pos.units[b].fired


def test_a_group_shocks_together_in_one_designation_5_34() -> None:
    g = grouped()
    a, b, target = shared_front(g)
    enemy = g.brigade_units(ARCHER)[0]
    g.pos.units[enemy].hex = target
    g._memo.clear()
    listed = {k for x in g.legal_actions("usa") if x["type"] == "shock"
              for s in x["shocks"] for k in s["attackers"]}
    assert {a, b} <= listed  # the lead's unit and the other brigade's
    events = g.apply({"type": "shock", "shocks": [{"attackers": [a, b],
                                                   "targets": [target]}]}, "usa")
    assert any(e.type == "shock_designation" for e in events)
    assert has_shocked(g, GAMBLE) and has_shocked(g, DEVIN)  # one designation for the group


def test_alone_the_other_brigade_stays_out_5_34() -> None:
    """Without the group, Devin's units may not act in Gamble's activation (002 §5.32)."""
    g, _ = rolled(6)
    g.apply({"type": "activate", "brigade": GAMBLE}, "usa")
    assert g.active_brigades() == (GAMBLE,) and not g.pos.coordinated
    unit = g.brigade_units(DEVIN)[0]
    assert not [x for x in g.legal_actions("usa") if x.get("unit") == unit]
    with pytest.raises(RuleError) as err:
        g.apply({"type": "face", "unit": unit, "facing": {"kind": "vertex", "index": 2}},
                "usa")
    assert err.value.rule == "5.3"


def test_the_group_is_saved_only_when_set_and_replays() -> None:
    g, _ = rolled(6)
    assert "coordinated" not in g.pos.to_json()
    g.apply({"type": "activate_group", "brigades": [GAMBLE, DEVIN]}, "usa")
    assert g.pos.to_json()["coordinated"] == [GAMBLE, DEVIN]
    copy = load_game(json.loads(json.dumps(g.to_json())))
    assert copy.state_hash() == g.state_hash()
    assert copy.legal_actions("usa") == g.legal_actions("usa")
    g.apply({"type": "end_activation"}, "usa")
    assert not g.pos.coordinated and "coordinated" not in g.pos.to_json()


def test_each_brigade_of_the_group_takes_its_own_fatigue_17_22() -> None:
    """The group's activation counts for each of its brigades (002 §5.34 with §17.22): both
    were at their turn's second counted activation, both move, both tire at the end."""
    g = grouped()
    for n in (GAMBLE, DEVIN):
        g.pos.brigades[n].tally = fatigue.TurnTally(equivalents=2, off_road=True).to_json()
        move = next(a for a in g.legal_actions("usa")
                    if a["type"] == "move" and g.formation(str(a["unit"])) == n)
        g.apply(move, "usa")
    events = g.apply({"type": "end_brigade"}, "usa")
    assert sorted(e.data["brigade"] for e in events if e.type == "fatigue") == [GAMBLE, DEVIN]


def test_without_the_group_the_other_brigade_does_not_shock_11_12() -> None:
    g, _ = rolled(6)
    g.apply({"type": "activate", "brigade": GAMBLE}, "usa")
    a, b, target = shared_front(g)
    g.pos.units[g.brigade_units(ARCHER)[0]].hex = target
    g._memo.clear()
    with pytest.raises(RuleError) as err:
        g.apply({"type": "shock", "shocks": [{"attackers": [a, b], "targets": [target]}]},
                "usa")
    assert err.value.rule == "11.12"


@settings(max_examples=4, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_random_play_of_a_coordinated_group_5_34(data: st.DataObject) -> None:
    """Random legal actions from a coordinated group's activation to the end of the marker:
    every listed action is accepted, only the group's units act while it is active, and when
    it ends both brigades are done together (after which no group is offered again)."""
    g = grouped()
    for _ in range(16):
        seat = g.to_move()[0]
        legal = g.legal_actions(seat)
        assert legal
        g.validate(legal[data.draw(st.integers(0, len(legal) - 1))], seat)
        action = legal[data.draw(st.integers(0, len(legal) - 1))]
        if seat == "usa" and g.pos.brigade is not None and "unit" in action \
                and g.pos.pending is None:
            assert g.formation(str(action["unit"])) in (GAMBLE, DEVIN)
        group_on = g.pos.brigade is not None
        g.apply(action, seat)
        if group_on and g.pos.brigade is None and g.pos.current == "usa/US-1/Cav":
            assert {GAMBLE, DEVIN} <= set(g.pos.done_brigades)
            assert not [a for a in g.legal_actions("usa") if a["type"] == "activate_group"]
        if g.pos.current != "usa/US-1/Cav":
            break
    end = {"type": "end_brigade"}
    if g.pos.brigade is not None and "usa" in g.to_move() and end in g.legal_actions("usa"):
        g.apply(end, "usa")
        assert {GAMBLE, DEVIN} <= set(g.pos.done_brigades) and g.pos.brigade is None
