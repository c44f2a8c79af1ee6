"""GBACW command rules (issue 52): chain of command (002 §4.2), initiative (§5.1), efficiency
and activation markers (§5.2-5.28, §5.36), efficiency transfer (§5.4), brigade coordination
(§5.34), orders (§6), with the battle book's changes (004 §4.13, §4.35-4.36, §5.22-5.23).
Every worked example of the two seeds is here, checked against the seed text itself."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gettysburg.core.dice import ScriptedDice
from gettysburg.core.protocol import RuleError
from gettysburg.gbacw.chain import (
    chain_of_command,
    division_orders_allowed,
    leader_chains,
    orders_on_activation,
    out_of_command,
    units_in_command,
    within_range,
)
from gettysburg.gbacw.charts import ChartLookupError, all_charts
from gettysburg.gbacw.coordination import check_group, coordinate
from gettysburg.gbacw.efficiency import (
    DivisionStanding,
    alexander_swap,
    artillery_ams,
    brigade_activations,
    check_oc_bonus,
    corps_ams,
    corps_efficiency,
    division_ams,
    independent_division_ams,
    march_activations,
    transfer,
    unit_activations,
)
from gettysburg.gbacw.initiative import InitiativeSide, initiative, roll_initiative
from gettysburg.gbacw.oob import default_oob
from gettysburg.gbacw.orders import (
    ACTIONS,
    ReserveStanding,
    UnitSituation,
    activated_by,
    artillery_orders,
    changed_orders,
    check_march_move,
    check_march_orders,
    check_reserve,
    leave_reserve_orders,
    loose_cannon,
    march_after_combat,
    march_orders_change,
    near_enemy,
    orders_change,
    permits,
    reach_mp,
    reserve_broken,
    reserve_eligible,
    reserve_steps,
)


def ranges(
    costs: Mapping[tuple[str, str], int], command_range: Mapping[str, int]
) -> Callable[[str, str], bool]:
    """An in_range predicate from measured MP costs (superior, subordinate) -> MP."""
    def in_range(sup: str, sub: str) -> bool:
        return within_range(costs.get((sup, sub)), command_range[sup])
    return in_range


# --- chain of command (002 §4.2) -------------------------------------------------------------
def test_4_22_example_chain_intact() -> None:
    """002 §4.22: brigadier 3 MP from his division leader (range 5), who is 5 MP from his corps
    commander (range 6): the chain runs whole from the corps to the brigade."""
    superior = {"corps": None, "div": "corps", "brig": "div"}
    rng = {"corps": 6, "div": 5, "brig": 4}
    chains = leader_chains(superior, ranges({("corps", "div"): 5, ("div", "brig"): 3}, rng))
    assert chains["brig"].in_range and chains["brig"].chain == ("div", "corps")
    assert chains["div"].reaches("corps")
    # one MP more between the corps and the division breaks it above the division only
    chains = leader_chains(superior, ranges({("corps", "div"): 7, ("div", "brig"): 3}, rng))
    assert chains["brig"].in_range and chains["brig"].chain == ("div",)
    assert not chains["div"].in_range and not chains["brig"].reaches("corps")
    assert not chains["corps"].in_range and chains["corps"].chain == ()


def test_4_15_range_arithmetic() -> None:
    assert within_range(5, 5) and not within_range(6, 5)
    assert not within_range(None, 10)  # no legal path (impassable, enemy-adjacent hexes)
    assert within_range(None, 0, adjacent=True)  # next to its leader: always in command
    with pytest.raises(ValueError):
        within_range(1, -1)


def test_4_22_chain_of_units_exception() -> None:
    """002 §4.22 exception: a unit out of range is in command through a chain of adjacent units
    of its own brigade, one of which is in range; another brigade's unit doesn't carry it."""
    unit_leader = {"r1": "b1", "r2": "b1", "r3": "b1", "r4": "b1", "x1": "b2", "bat": "d1",
                   "bat2": "d1"}
    in_range_pairs = {("b1", "r1"), ("b2", "x1"), ("d1", "bat")}
    adjacent_pairs = {frozenset(p) for p in [("r1", "r2"), ("r2", "r3"), ("x1", "r4"),
                                             ("bat", "bat2")]}

    def in_range(sup: str, sub: str) -> bool:
        return (sup, sub) in in_range_pairs

    def adjacent(a: str, b: str) -> bool:
        return frozenset((a, b)) in adjacent_pairs

    units = units_in_command(unit_leader, in_range, adjacent)
    assert units["r1"].in_command and not units["r1"].via_units
    assert units["r2"].in_command and units["r2"].via_units
    assert units["r3"].in_command and units["r3"].via_units
    assert not units["r4"].in_command  # next to x1, but x1 is another brigade's
    assert units["bat2"].in_command  # a division's own batteries chain the same way
    assert out_of_command(units.values()) == {"r4"}


def test_4_2_report_and_division_orders() -> None:
    superior = {"oc": None, "c1": "oc", "d1": "c1", "b1": "d1", "b2": "d1"}
    ok = {("oc", "c1"), ("c1", "d1"), ("d1", "b1"), ("b1", "u1")}
    report = chain_of_command(superior, {"u1": "b1", "u2": "b2"},
                              lambda s, t: (s, t) in ok, lambda a, b: False)
    assert report.intact("b1", "oc") and report.intact("d1", "d1")
    assert not report.intact("b2", "c1")
    division_orders_allowed(report, "b1", "c1")
    with pytest.raises(RuleError) as err:
        division_orders_allowed(report, "b2", "c1")
    assert err.value.rule == "6.12"
    assert report.unit("u1").in_command and not report.unit("u2").in_command
    with pytest.raises(ValueError, match="no leader"):
        report.leader("nobody")
    with pytest.raises(ValueError, match="not a leader"):
        chain_of_command(superior, {"u9": "ghost"}, lambda s, t: True, lambda a, b: False)


def test_4_2_tree_errors() -> None:
    with pytest.raises(ValueError, match="loops"):
        leader_chains({"a": "b", "b": "a"}, lambda s, t: True)
    with pytest.raises(ValueError, match="not a leader"):
        leader_chains({"a": "zz"}, lambda s, t: True)


def test_4_23_orders_catch_up() -> None:
    """002 §4.23: out of command at the change, the unit keeps its orders until the brigade
    next activates with the unit in command."""
    assert orders_on_activation("advance", "attack", in_command=False) == "advance"
    assert orders_on_activation("advance", "attack", in_command=True) == "attack"


# --- initiative (002 §5.1) --------------------------------------------------------------------
SIDE = InitiativeSide(had_initiative=False, oc_rating=0, oc_mp_spent=0,
                      oc_has_corps_in_range=True)


def test_5_12_tie_means_nobody() -> None:
    assert initiative(5, 5, SIDE, SIDE).winner is None
    assert initiative(6, 5, SIDE, SIDE).winner == "usa"
    assert initiative(0, 9, SIDE, SIDE).winner == "csa"


def test_5_11_modifiers() -> None:
    last = InitiativeSide(True, 0, 0, True)
    assert initiative(4, 5, last, SIDE).winner is None  # 4 + 1 = 5
    lee = InitiativeSide(False, 1, 10, True)
    assert initiative(5, 5, SIDE, lee).winner == "csa"
    assert initiative(5, 5, SIDE, InitiativeSide(False, 1, 11, True)).winner is None  # §9.32
    assert initiative(5, 5, SIDE, InitiativeSide(False, 1, 0, False)).winner is None
    assert initiative(5, 4, SIDE, InitiativeSide(True, 1, 0, True)).csa_total == 6
    with pytest.raises(ValueError):
        initiative(10, 0, SIDE, SIDE)


def test_5_11_rolled_with_d10_and_fixed_first_turn() -> None:
    dice = ScriptedDice([7, 2], die="d10")
    result = roll_initiative(dice, SIDE, SIDE)
    assert (result.usa_total, result.csa_total, result.winner) == (7, 2, "usa")
    assert [r.rule for r in dice.rolls] == ["5.11", "5.11"]
    fixed = roll_initiative(ScriptedDice([], die="d10"), SIDE, SIDE, given_to="csa")
    assert fixed.winner == "csa" and fixed.fixed


# --- efficiency (002 §5.2; 004 §5.22-5.23) ----------------------------------------------------
def test_5_23_example() -> None:
    """002 §5.23: II Corps draws 3, its commander is rated +1; the leaders of 1/II and 2/II are
    rated 0 and of 3/II +1; 2/II and 3/II are in range, 1/II is not. The +1 goes to 2/II:
    1/II 2 AMs (out of range, -1), 2/II 4, 3/II 4 (its own +1)."""
    divs = [DivisionStanding("1/II", 0, in_corps_range=False), DivisionStanding("2/II", 0),
            DivisionStanding("3/II", 1)]
    got = corps_ams(3, 1, divs, shares={"2/II": 1})
    assert [got[d].ams for d in ("1/II", "2/II", "3/II")] == [2, 4, 4]
    assert got["1/II"].out_of_range == -1 and got["2/II"].corps_share == 1
    assert got["3/II"].raw == 4


def test_5_23_corps_shares() -> None:
    divs = [DivisionStanding("a"), DivisionStanding("b"), DivisionStanding("c"),
            DivisionStanding("far", in_corps_range=False)]
    two = corps_ams(2, 2, divs, shares={"a": 2})
    assert two["a"].ams == 4 and two["b"].ams == 2
    split = corps_ams(2, 2, divs, shares={"a": 1, "b": 1})
    assert (split["a"].ams, split["b"].ams, split["c"].ams) == (3, 3, 2)
    for bad in ({"a": 1, "b": 1, "c": 1}, {"far": 1}, {"a": 0}):
        with pytest.raises(RuleError) as err:
            corps_ams(2, 2, divs, shares=bad)
        assert err.value.rule == "5.23"
    with pytest.raises(RuleError):
        corps_ams(2, 1, divs, shares={"a": 2})
    with pytest.raises(RuleError):
        corps_ams(2, 0, divs, shares={"a": 1})
    # E-28: rated -1 takes one from each division in range; the far one only its own -1
    minus = corps_ams(3, -1, divs)
    assert (minus["a"].ams, minus["far"].ams) == (2, 2)
    with pytest.raises(ValueError, match="not a division"):
        corps_ams(3, 1, divs, shares={"zz": 1})


def test_5_24_5_25_13_32_limits() -> None:
    assert division_ams(4, 0, DivisionStanding("d", 2)).ams == 4  # 6 -> 4
    assert division_ams(1, -1, DivisionStanding("d", -2)).ams == 1  # -2 -> 1
    far = division_ams(4, 0, DivisionStanding("d", 2, in_corps_range=False))
    assert (far.raw, far.ams) == (5, 3)  # §5.25 cap
    assert division_ams(4, 0, DivisionStanding("d", 0, ineffective=True)).ams == 2
    # §5.23 3: a leader off the map adds nothing (and §5.23 2: is out of range)
    off = division_ams(3, 0, DivisionStanding("d", 1, leader_on_map=False, in_corps_range=False))
    assert off.ams == 2
    # reinforcements with a set number of AMs (§5.23 exception, §9.71)
    assert division_ams(1, -1, DivisionStanding("d", fixed_ams=3)).ams == 3
    # a scenario's ceiling: Herr Ridge caps Heth and Buford at 3 after 0700 (004 sc.2, E-17)
    assert division_ams(4, 0, DivisionStanding("d", 1, cap=3)).ams == 3


def test_5_22_oc_bonus_004_example() -> None:
    """004 §5.22: A.P. Hill and Longstreet both begin the turn in Lee's range; Lee, rated 1,
    raises one of the two corps by 1, not both. The OOB gives Lee that rating."""
    oob = default_oob()
    lee = oob.rating("lee", "initiative")
    assert lee == 1
    eligible = {"hill-ap", "longstreet"}
    check_oc_bonus(lee, eligible, {"longstreet"})
    with pytest.raises(RuleError) as err:
        check_oc_bonus(lee, eligible, {"hill-ap", "longstreet"})
    assert err.value.rule == "5.22"
    with pytest.raises(RuleError):
        check_oc_bonus(lee, eligible, {"ewell"})  # not in range
    with pytest.raises(RuleError) as err:
        check_oc_bonus(lee, eligible, {"longstreet"}, oc_mp_spent=11)
    assert err.value.rule == "9.32"
    assert corps_efficiency(2, True) == 3 and corps_efficiency(4, True) == 4
    with pytest.raises(ValueError):
        corps_efficiency(5)


def test_5_23_004_cavalry_example() -> None:
    """004 §5.23, 1 July 0800: Buford draws 3 and, rated +1 and needing no chain of command,
    has 4 AMs; Hill's corps draws 2 and Heth, rated 0 and out of Hill's range, has 1."""
    buford = independent_division_ams(3, DivisionStanding("buford", 1, independent=True,
                                                          in_corps_range=False))
    assert buford.ams == 4 and buford.out_of_range == 0
    heth = corps_ams(2, 0, [DivisionStanding("heth", 0, in_corps_range=False)])
    assert heth["heth"].ams == 1
    assert default_oob().rating("heth", "activation") == 0
    with pytest.raises(ValueError):
        independent_division_ams(3, DivisionStanding("heth"))


def test_5_26_example_brigade_skips_one() -> None:
    """002 §5.26: division 1/I has 3 AMs and brigade 1/1/I began the turn out of its division
    leader's range: it uses only 2 of them (the player skips it on the second)."""
    assert brigade_activations(3, brigadier_in_range=False) == 2
    assert brigade_activations(3) == 3
    assert brigade_activations(1, brigadier_in_range=False) == 1  # §5.27
    assert brigade_activations(4, ineffective=True) == 2  # §13.23
    assert unit_activations(2, in_command=False) == 1 and unit_activations(1, in_command=False) == 1
    with pytest.raises(ValueError):
        brigade_activations(0)


def test_5_28_march_activations() -> None:
    assert march_activations(1) == 4  # out of command or not (§5.25, §4.23 note)
    assert march_activations(2, ordered_this_turn=True) == 2  # §5.28 exception
    assert march_activations(4, fixed=1) == 1  # §5.28 example: a reinforcement set to 1 AM


def test_004_4_36_artillery_ams() -> None:
    cap = all_charts().efficiency_pools.artillery_am_cap.value
    assert cap == 3
    assert artillery_ams(4, 0, cap) == 3 and artillery_ams(1, -1, cap) == 1
    assert artillery_ams(2, 1, cap) == 3


def test_5_44_example_transfer() -> None:
    """002 §5.44: XV Corps draws 2, every leader in range, 2/XV's rated +1: 2/3/2. 1/XV and
    3/XV each give one AM and 2/XV gets one: 1/4/1."""
    got = corps_ams(2, 0, [DivisionStanding("1/XV"), DivisionStanding("2/XV", 1),
                           DivisionStanding("3/XV")])
    ams = {d: a.ams for d, a in got.items()}
    assert ams == {"1/XV": 2, "2/XV": 3, "3/XV": 2}
    after = transfer(ams, {"1/XV": 1, "3/XV": 1}, "2/XV", eligible=set(ams))
    assert after == {"1/XV": 1, "2/XV": 4, "3/XV": 1}
    assert ams == {"1/XV": 2, "2/XV": 3, "3/XV": 2}  # the input is left alone


@pytest.mark.parametrize(("donors", "recipient", "rule"), [
    ({"a": 1, "b": 1}, "c", "5.43"),  # c would reach 5
    ({"a": 3}, "d", "5.43"),  # a would drop to 0
    ({"a": 1}, "d", "5.43"),  # odd
    ({"a": 1, "b": 1, "d": 1}, "e", "5.43"),  # three donors
    ({"a": 2}, "a", "5.43"),  # gives to itself
    ({"far": 2}, "d", "5.42"),
    ({"a": 2}, "far", "5.42"),
    ({}, "d", "5.43"),
])
def test_5_43_transfer_refusals(donors: dict[str, int], recipient: str, rule: str) -> None:
    ams = {"a": 3, "b": 2, "c": 4, "d": 1, "e": 1, "far": 3}
    with pytest.raises(RuleError) as err:
        transfer(ams, donors, recipient, eligible={"a", "b", "c", "d", "e"})
    assert err.value.rule == rule


def test_5_44_once_a_turn_and_004_4_35_swap() -> None:
    ams = {"a": 3, "b": 2}
    with pytest.raises(RuleError) as err:
        transfer(ams, {"a": 2}, "b", eligible=set(ams), used_this_turn=True)
    assert err.value.rule == "5.44"
    assert transfer(ams, {"a": 2}, "b", eligible=set(ams)) == {"a": 1, "b": 3}
    assert alexander_swap(ams, {"a": 1, "b": 1}, eligible=set(ams)) == {"a": 2, "b": 1}
    with pytest.raises(RuleError) as err:
        alexander_swap(ams, {"a": 1}, eligible=set(ams))
    assert err.value.rule == "tdg.4.35"


divisions = st.builds(
    DivisionStanding,
    division=st.just("d"),
    activation=st.integers(-2, 2),
    leader_on_map=st.booleans(),
    in_corps_range=st.booleans(),
    independent=st.booleans(),
    ineffective=st.booleans(),
)


@given(st.integers(1, 4), st.integers(-1, 2), st.booleans(), divisions, st.integers(0, 2))
def test_property_ams_always_1_to_4(marker: int, rating: int, oc: bool,
                                    div: DivisionStanding, share: int) -> None:
    share = min(share, max(0, rating))
    got = division_ams(corps_efficiency(marker, oc), rating, div, share)
    assert 1 <= got.ams <= 4
    if not div.in_corps_range and not div.independent:
        assert got.ams <= 3
    if div.ineffective:
        assert got.ams <= 2


@settings(max_examples=300)
@given(st.lists(st.integers(1, 4), min_size=3, max_size=6),
       st.dictionaries(st.integers(0, 5), st.integers(-1, 4), max_size=3),
       st.integers(0, 5))
def test_property_transfer_keeps_two_for_one(values: list[int], donors_by_index: dict[int, int],
                                             recipient_index: int) -> None:
    ams = {f"d{i}": v for i, v in enumerate(values)}
    donors = {f"d{i}": n for i, n in donors_by_index.items()}
    recipient = f"d{recipient_index}"
    before = dict(ams)
    try:
        after = transfer(ams, donors, recipient, eligible=set(ams))
    except (RuleError, ValueError):
        assert ams == before
        return
    taken = sum(before[d] - after[d] for d in donors)
    assert taken == 2 * (after[recipient] - before[recipient]) > 0
    assert all(1 <= v <= 4 for v in after.values())
    assert {d for d in ams if after[d] != before[d]} <= set(donors) | {recipient}


# --- coordination (002 §5.34) -----------------------------------------------------------------
def test_5_34_example_two_brigades() -> None:
    """002 §5.34: Smith's three brigades are all in his range; rated 2, he rolls 6: 8, two of
    them (the player's pick) act as one, the third on its own."""
    out = coordinate(6, 2, {"b1", "b2", "b3"})
    assert (out.total, out.result, out.may_combine) == (8, "two", 2)
    check_group(out, {"b1", "b3"})
    with pytest.raises(RuleError):
        check_group(out, {"b1", "b2", "b3"})
    with pytest.raises(RuleError):
        check_group(out, {"b1", "b9"})


def test_5_34_bands() -> None:
    eligible = {"b1", "b2", "b3", "b4"}
    confusion = coordinate(2, 0, eligible)
    assert confusion.confusion and confusion.confused == eligible
    with pytest.raises(RuleError):
        check_group(confusion, {"b1"})
    assert coordinate(3, 0, eligible).may_combine == 1
    assert coordinate(8, 2, eligible).may_combine == 3
    assert coordinate(9, 3, eligible).may_combine == 4  # 12: all
    assert coordinate(9, 1, {"b1", "b2"}).may_combine == 2  # 3 allowed, only 2 there
    with pytest.raises(RuleError) as err:
        coordinate(5, 1, {"b1"})
    assert err.value.rule == "5.34"
    with pytest.raises(RuleError) as err:
        coordinate(5, 1, eligible, ineffective=True)
    assert err.value.rule == "13.32"
    with pytest.raises(ChartLookupError):
        coordinate(5, 4, eligible)


# --- orders (002 §6) --------------------------------------------------------------------------
@pytest.mark.parametrize(("orders", "action", "rule"), [
    ("march", "fire", "6.13"), ("march", "shock", "6.13"), ("march", "rally", "6.13"),
    ("march", "reaction_move", "6.13"), ("march", "reaction_facing", "6.13"),
    ("march", "construct", "6.13"), ("march", "move_adjacent_enemy_artillery", "6.13"),
    ("advance", "move_and_fire", "6.15"), ("advance", "charge", "6.15"),
    ("advance", "move_adjacent_enemy", "6.15"),
    ("attack", "construct", "6.16"), ("attack", "withdraw_before_shock", "6.16"),
    ("attack", "road_rate", "6.16"),
    ("march", "move", None), ("march", "road_rate", None),
    ("advance", "move_adjacent_enemy_artillery", None), ("advance", "construct", None),
    ("advance", "withdraw_before_shock", None), ("advance", "refuse_flank", None),
    ("attack", "move_and_fire", None), ("attack", "charge", None),
    ("attack", "move_adjacent_enemy", None),
])
def test_6_1_permits(orders: str, action: str, rule: str | None) -> None:
    refusal = permits(orders, action)
    assert (refusal.rule if refusal else None) == rule


def test_6_1_permits_context() -> None:
    stay = permits("attack", "move", stay=True)
    assert stay is not None and stay.rule == "6.23"
    assert permits("attack", "fire", stay=True) is None  # Stay still fires, shocks, rallies
    assert permits("advance", "shock", stay=True) is None
    for action in ACTIONS:
        refusal = permits("advance", action, reserve=True)
        assert refusal is not None and refusal.rule == "6.32"
    confused = permits("attack", "fire", confusion=True)
    assert confused is not None and confused.rule == "5.34"
    assert permits("attack", "rally", confusion=True) is None
    with pytest.raises(ValueError):
        permits("charge", "move")
    with pytest.raises(ValueError):
        permits("attack", "teleport")


def test_6_13_6_18_march_and_artillery() -> None:
    assert activated_by("march") == "march-am" and activated_by("attack") == "division-am"
    assert artillery_orders("attack") == "advance" and artillery_orders("march") == "march"
    assert near_enemy(4, True) and not near_enemy(4, False) and not near_enemy(5, True)
    check_march_move(starts_near=False, enters_near=False, enters_adjacent=False)
    for kw in ({"starts_near": True}, {"enters_near": True}, {"enters_adjacent": True}):
        args = {"starts_near": False, "enters_near": False, "enters_adjacent": False, **kw}
        with pytest.raises(RuleError):
            check_march_move(**args)


def test_6_14_march_orders() -> None:
    check_march_orders("division_orders")
    check_march_orders("reinforcement_orders", reinforcement=True, entry="direct")
    cases = [
        ({"phase": "division_orders", "any_unit_near_enemy": True}, "6.14"),
        ({"phase": "activation"}, "6.14"),
        ({"phase": "recovery"}, "6.14"),
        ({"phase": "division_orders", "reinforcement": True}, "6.14"),
        ({"phase": "reinforcement_orders", "reinforcement": True, "entry": "adjacent"},
         "tdg.9.76"),
    ]
    for kw, rule in cases:
        with pytest.raises(RuleError) as err:
            check_march_orders(**kw)  # type: ignore[arg-type]
        assert err.value.rule == rule


def test_6_23_example_retain() -> None:
    """002 §6.23: Hackenbush, orders rating -1, rolls 4: 3, Retain; his brigade keeps its
    orders for this activation."""
    out = orders_change(4, -1)
    assert (out.total, out.result, out.change, out.stay) == (3, "retain", False, False)
    with pytest.raises(RuleError) as err:
        changed_orders(out, "attack")
    assert err.value.rule == "6.23"


def test_6_2_table_and_modifiers() -> None:
    assert orders_change(1, 0).result == "retain-and-stay"
    assert orders_change(0, -2).result == "retain-and-stay"
    assert orders_change(4, 0).loose_cannon
    assert orders_change(2, 0, with_division_leader=True, with_corps_or_oc=True).total == 5
    assert orders_change(2, 0, with_division_leader=True, with_corps_or_oc=True).result == \
        "change-and-stay"
    change = orders_change(9, 0)
    assert change.result == "change" and changed_orders(change, "advance") == "advance"
    with pytest.raises(RuleError):
        changed_orders(change, "march")  # E-3
    with pytest.raises(RuleError) as err:
        orders_change(5, 0, brigadier_on_map=False)
    assert err.value.rule == "6.21"


def test_6_24_loose_cannon_aggressive() -> None:
    units = [
        UnitSituation("adj", adjacent_enemy=True, green=True),
        UnitSituation("near", mp_to_enemy=3),
        UnitSituation("far", mp_to_enemy=4),
        UnitSituation("dis", mp_to_enemy=1, disordered=True),
        UnitSituation("cav", mounted_cavalry=True, mp_to_enemy=5),
        UnitSituation("gun", artillery=True, adjacent_enemy=True),
    ]
    out = loose_cannon("A", units)
    assert out.orders == "attack" and out.acts_as == "A"
    assert dict(out.tasks) == {"adj": "shock_no_bonus", "near": "charge", "far": "close_in",
                               "dis": "close_in", "cav": "shock_without_fire", "gun": "none"}
    assert out.green_checks == {"adj"}
    assert reach_mp(False) == 3 and reach_mp(True) == 5
    # nobody within reach: Advance, every unit heads for the nearest enemy
    away = loose_cannon("A", [UnitSituation("r1", mp_to_enemy=4),
                              UnitSituation("g", artillery=True, adjacent_enemy=True)])
    assert away.orders == "advance" and away.tasks["r1"] == "advance_toward_enemy"
    # on its March AM an aggressive brigadier's Loose Cannon is a Retain (§6.25)
    assert loose_cannon("A", units, on_march_am=True).orders is None


def test_6_24_loose_cannon_other_profiles() -> None:
    units = [UnitSituation("r1", mp_to_enemy=1), UnitSituation("g", artillery=True)]
    assert loose_cannon("N", units).orders is None
    cautious = loose_cannon("C", units)
    assert cautious.orders == "advance" and cautious.no_other_actions
    assert dict(cautious.tasks) == {"r1": "step_back", "g": "none"}  # E-4: guns stay
    for roll, acts in ((0, "A"), (2, "A"), (3, "N"), (6, "N"), (7, "C"), (9, "C")):
        out = loose_cannon("U", units, unreliable_roll=roll)
        assert out.acts_as == acts and out.profile == "U" and out.unreliable_roll == roll
    with pytest.raises(ChartLookupError):
        loose_cannon("U", units)
    with pytest.raises(ChartLookupError):
        loose_cannon("N", units, unreliable_roll=3)
    with pytest.raises(ValueError):
        loose_cannon("X", units)


def test_6_25_march_brigade_roll() -> None:
    aggressive = march_orders_change(orders_change(4, 0), "A")
    assert aggressive.result == "retain" and not aggressive.may_change
    normal = march_orders_change(orders_change(4, 0), "N")
    assert normal.result == "loose-cannon"
    cs = march_orders_change(orders_change(5, 0), "N")
    assert cs.may_change and cs.stay_on == "first_division_am"
    rs = march_orders_change(orders_change(0, 0), "C")
    assert not rs.may_change and rs.stay_on == "march_am"
    assert march_orders_change(orders_change(9, 0), "C").stay_on is None


def test_6_26_march_under_fire() -> None:
    assert march_after_combat("march", fired_on={"shell"}) == "march"
    assert march_after_combat("march", fired_on={"shell", "canister"}) == "advance"
    assert march_after_combat("march", shocked=True) == "advance"
    assert march_after_combat("attack", shocked=True) == "attack"
    with pytest.raises(ValueError):
        march_after_combat("march", fired_on={"arrows"})


def test_6_31_reserve_eligibility() -> None:
    hidden5 = ReserveStanding("a", 5, False)
    seen9 = ReserveStanding("b", 9, True)
    seen10 = ReserveStanding("c", 10, True)
    assert reserve_eligible([hidden5])
    assert not reserve_eligible([ReserveStanding("a", 4, False)])
    assert not reserve_eligible([seen9])
    assert reserve_eligible([seen10])
    assert not reserve_eligible([hidden5, seen9])  # neither test holds for every unit
    assert reserve_eligible([ReserveStanding("n", 5, True)], night=True)
    assert not reserve_eligible([ReserveStanding("n", 4, False)], night=True)
    assert reserve_eligible([ReserveStanding("x", None, True)])
    with pytest.raises(RuleError) as err:
        check_reserve([seen9])
    assert err.value.rule == "6.31"
    with pytest.raises(RuleError) as err:
        check_reserve([seen10], phase="activation")
    assert err.value.rule == "6.32"
    with pytest.raises(ValueError):
        check_reserve([])


def test_6_34_6_35_leaving_reserve() -> None:
    assert reserve_broken(shocked=True) and reserve_broken(fire_range=4)
    assert not reserve_broken(fire_range=5) and not reserve_broken()
    steps = [s.id for s in reserve_steps()]
    assert steps == ["fatigue", "undisorder", "stragglers", "rout-recovery", "orders"]
    assert "ammunition" in [s.id for s in reserve_steps(ammunition_rule=True)]
    assert leave_reserve_orders("attack") == "attack"
    with pytest.raises(RuleError):
        leave_reserve_orders("march")
