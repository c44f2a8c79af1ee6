"""GBACW shock (002 §11), retreats and routs (§12.4-12.6, §12.8), horse holders (§14.25):
the rulebook's worked examples with scripted d10s, and positions built by hand."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gettysburg.core.dice import DiceExhausted, ScriptedDice, SeededDice
from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import RuleError
from gettysburg.gbacw import retreat as rt
from gettysburg.gbacw import shock as sh
from gettysburg.gbacw.board import Board, load_board
from gettysburg.gbacw.charts import all_charts
from gettysburg.gbacw.combatant import Combatant, after_losses
from gettysburg.gbacw.facing import Facing
from gettysburg.gbacw.movement import FriendStack

NORTH = Facing.vertex(1)  # front hexes (q+1, r-1) and (q, r-1)
SOUTH = Facing.vertex(4)  # front hexes (q-1, r+1) and (q, r+1)


def unit(name: str, q: int, r: int, *, side: str = "usa", facing: Facing = NORTH,
         sp: int = 6, cohesion: int = 6, kind: str = "infantry", **kw: object) -> Combatant:
    return Combatant(name, side, (Hex(q, r),), facing, kind, sp, cohesion,  # type: ignore[arg-type]
                     **kw)  # type: ignore[arg-type]


def d10(*values: int) -> ScriptedDice:
    return ScriptedDice(values, die="d10")


# --- §11.32 Example 1: A1, A2, A3 against D1 and D2 ---------------------------------------


def example_1() -> list[Combatant]:
    # D1 and D2 side by side facing south; A1-A3 below them facing north: A1's front holds
    # D1, A2's both, A3's D2.
    return [unit("D1", 1, 0, side="csa", facing=SOUTH), unit("D2", 2, 0, side="csa",
                                                             facing=SOUTH),
            unit("A1", 0, 1), unit("A2", 1, 1), unit("A3", 2, 1)]


def test_11_32_example_1_one_attacking_or_one_defending_hex() -> None:
    units = example_1()
    with pytest.raises(RuleError) as e:
        sh.check_designation([sh.Shock(("A1", "A2", "A3"), ("D1", "D2"))], units)
    assert e.value.rule == "11.31"


def test_11_32_example_1_a2_alone_against_both() -> None:
    sh.check_designation([sh.Shock(("A2",), ("D1", "D2"))], example_1())


def test_11_32_example_1_a2_on_d2_obliges_a1_on_d1() -> None:
    units = example_1()
    for shocks in ([sh.Shock(("A2",), ("D2",))], [sh.Shock(("A2", "A3"), ("D2",))]):
        with pytest.raises(RuleError) as e:
            sh.check_designation(shocks, units)
        assert e.value.rule == "11.31" and "D1" in e.value.message
    sh.check_designation([sh.Shock(("A2", "A3"), ("D2",)), sh.Shock(("A1",), ("D1",))], units)


def test_11_32_example_1_a3_need_not_attack() -> None:
    sh.check_designation([sh.Shock(("A1",), ("D1",)), sh.Shock(("A2",), ("D2",))], example_1())


def test_11_32_adjacent_infantry_on_one_defender_must_combine() -> None:
    shocks = [sh.Shock(("A2",), ("D2",)), sh.Shock(("A3",), ("D2",)),
              sh.Shock(("A1",), ("D1",))]
    with pytest.raises(RuleError) as e:
        sh.check_designation(shocks, example_1())
    assert e.value.rule == "11.32"


def test_11_32_a_unit_never_splits_and_stacks_combine() -> None:
    units = [*example_1(), unit("D1b", 1, 0, side="csa", facing=SOUTH)]
    with pytest.raises(RuleError) as e:  # D1's hex holds D1b too
        sh.check_designation([sh.Shock(("A1",), ("D1",))], units)
    assert e.value.rule == "11.32"
    with pytest.raises(RuleError) as e:
        sh.check_designation([sh.Shock(("A1",), ("D1", "D1b")),
                              sh.Shock(("A1",), ("D1", "D1b"))], units)
    assert "splits" in e.value.message


def test_11_32_no_infantry_with_mounted_cavalry() -> None:
    units = [unit("D", 1, 0, side="csa", facing=SOUTH), unit("A", 0, 1),
             unit("C", 1, 1, kind="mounted_cavalry")]
    with pytest.raises(RuleError) as e:
        sh.check_designation([sh.Shock(("A", "C"), ("D",))], units)
    assert "mounted cavalry" in e.value.message


# --- §11.32 Examples 2-4: extended lines --------------------------------------------------


def extended(name: str, hexes: tuple[Hex, ...], *, side: str, facing: Facing,
             sp: int) -> Combatant:
    return Combatant(name, side, hexes, facing, "infantry", sp, 6)


def test_11_32_example_2_two_attackers_on_an_extended_line() -> None:
    c = extended("C", (Hex(1, 0), Hex(2, 0)), side="csa", facing=SOUTH, sp=12)
    a, b = unit("A", 0, 1), unit("B", 2, 1)  # not adjacent to each other
    units = [c, a, b]
    with pytest.raises(RuleError) as e:
        sh.check_designation([sh.Shock(("A", "B"), ("C",))], units)
    assert "not adjacent" in e.value.message
    sh.check_designation([sh.Shock(("A",), ("C",)), sh.Shock(("B",), ("C",))], units)
    assert sh.side_shock_sp([c], attacking=False) == 12  # each shock meets all 12 SP
    # C attacking must take both A and B in one shock: 12 against 6 + 6.
    att_c = Combatant("C", "csa", c.hexes, SOUTH, "infantry", 12, 6, moved=True)
    with pytest.raises(RuleError):
        sh.check_designation([sh.Shock(("C",), ("A",))], [att_c, a, b])
    sh.check_designation([sh.Shock(("C",), ("A", "B"))], [att_c, a, b])
    ratio = sh.shock_ratio(sh.side_shock_sp([att_c], attacking=True),
                           sh.side_shock_sp([a, b], attacking=False), favour_attacker=True)
    assert ratio.label == "1:1"


def test_11_32_example_3_extended_attacker_counts_whole() -> None:
    a = Combatant("A", "usa", (Hex(0, 1), Hex(1, 1)), NORTH, "infantry", 12, 6)
    b = unit("B", 0, 0, side="csa", facing=SOUTH)  # next to A's left hex only
    sh.check_designation([sh.Shock(("A",), ("B",))], [a, b])
    assert sh.side_shock_sp([a], attacking=True) == 12


def test_11_32_example_4_three_hex_line_takes_both() -> None:
    a = Combatant("A", "usa", (Hex(0, 1), Hex(1, 1), Hex(2, 1)), NORTH, "infantry", 18, 6)
    b = unit("B", 0, 0, side="csa", facing=SOUTH)
    c = unit("C", 3, 0, side="csa", facing=SOUTH)  # B and C are not adjacent
    units = [a, b, c]
    with pytest.raises(RuleError):
        sh.check_designation([sh.Shock(("A",), ("B",))], units)
    sh.check_designation([sh.Shock(("A",), ("B", "C"))], units)
    ratio = sh.shock_ratio(sh.side_shock_sp([a], attacking=True),
                           sh.side_shock_sp([b, c], attacking=False), favour_attacker=False)
    assert ratio.label == "1.5:1"  # 18 against 12
    bs = Combatant("B", "csa", (Hex(0, 0),), SOUTH, "infantry", 6, 6)
    cs = Combatant("C", "csa", (Hex(3, 0),), Facing.vertex(5), "infantry", 6, 6)
    with pytest.raises(RuleError) as e:  # B and C cannot combine against A
        sh.check_designation([sh.Shock(("B", "C"), ("A",))], [a, bs, cs])
    assert e.value.rule in ("11.31", "11.32")


# --- §11.43 ratio and its rounding --------------------------------------------------------


def test_11_43_five_against_three() -> None:
    movers = [unit("A", 0, 1, sp=5, moved=True)]
    stayers = [unit("A", 0, 1, sp=5)]
    five, three = Fraction(5), Fraction(3)
    up = sh.rounds_for_attacker(movers, terrain_drm=0, continued=False)
    assert sh.shock_ratio(five, three, favour_attacker=up).label == "2:1"
    for favour in (sh.rounds_for_attacker(stayers, terrain_drm=0, continued=False),
                   sh.rounds_for_attacker(movers, terrain_drm=-1, continued=False),  # woods
                   sh.rounds_for_attacker(movers, terrain_drm=0, continued=True)):
        assert sh.shock_ratio(five, three, favour_attacker=favour).label == "1.5:1"


def test_11_43_clamps_and_exact_thirds() -> None:
    assert sh.shock_ratio(Fraction(30), Fraction(1), favour_attacker=False).label == "5:1"
    assert sh.shock_ratio(Fraction(1), Fraction(30), favour_attacker=True).label == "1:4"
    assert sh.shock_ratio(Fraction(1), Fraction(3), favour_attacker=False).label == "1:3"
    assert sh.shock_ratio(Fraction(2), Fraction(3), favour_attacker=False).label == "1:1.5"
    with pytest.raises(RuleError):
        sh.shock_ratio(Fraction(0), Fraction(3), favour_attacker=True)


def test_11_43_cavalry_strength_and_11_63_artillery() -> None:
    cav = unit("C", 0, 1, kind="mounted_cavalry", sp=4, charging=True)
    assert sh.unit_shock_sp(cav, attacking=True, flank_or_rear=True) == 8
    assert sh.unit_shock_sp(cav, attacking=True, flank_or_rear=True, target_cover=True) == 4
    assert sh.unit_shock_sp(cav, attacking=False, cover={Hex(0, 1)}) == 2
    inf = unit("I", 0, 0, sp=5)
    gun = unit("G", 0, 0, kind="artillery", sp=6)
    assert sh.hex_shock_sp([gun, inf], attacking=False) == 6  # 5 + one per four guns
    assert sh.hex_shock_sp([inf, gun], attacking=False) == 5  # artillery below adds nothing
    assert sh.hex_shock_sp([gun], attacking=False) == 1  # at least 1
    assert sh.artillery_shock_sp(9) == 2


@pytest.mark.parametrize(("sp", "less"), [(4, 1), (7, 1), (8, 2), (3, 0)])
def test_14_25_horse_holders(sp: int, less: int) -> None:
    assert sh.horse_holders(sp) == less
    dis = unit("D", 0, 0, sp=sp, dismounted_cavalry=True)
    assert sh.unit_shock_sp(dis, attacking=True) == sp - less


# --- §11.44 position, E-7 -----------------------------------------------------------------


def test_11_44_position_rows() -> None:
    d = unit("D", 0, 0, side="csa", facing=Facing.vertex(0))  # front: dirs 0,1; rear 3,4
    front = unit("F", 1, 0)  # direction 0
    flank = unit("L", 0, 1)  # direction 5
    rear = unit("R", -1, 0)  # direction 3
    assert sh.position([d], [front]) is None
    assert sh.position([d], [flank]) == "flank"
    assert sh.position([d], [rear]) == "rear"
    assert sh.position([d], [front, flank]) == "front-flank"
    assert sh.position([d], [front, rear]) == "front-rear"
    chart = all_charts().shock
    assert chart.drm(["flank"]) == 2 and chart.drm(["rear"]) == 3  # E-7's substitute


def test_11_44_surrounded() -> None:
    d = unit("D", 0, 0, side="csa")
    # three attackers whose front hexes close the ring
    ring = [unit(f"A{i}", h.q, h.r, facing=Facing.vertex((2 * i + 3) % 6))
            for i, h in enumerate(Hex(0, 0).neighbour(k) for k in (0, 2, 4))]
    assert sh.is_surrounded(Hex(0, 0), ring)
    assert sh.position([d], ring) == "surrounded"
    assert not sh.is_surrounded(Hex(0, 0), ring[:2])


def test_11_44_front_hex_penalty() -> None:
    a = unit("A", 0, 1)
    other = unit("E", -1, 1, side="csa", facing=Facing.vertex(0))  # faces A's hex
    assert sh.front_hex_penalty([a], {"D"}, [other]) == 1
    assert sh.front_hex_penalty([a], {"E"}, [other]) == 0


# --- pre-shock check §11.37 ---------------------------------------------------------------


def test_11_37_march_defender_disordered_on_a_pass_routs_on_a_fail() -> None:
    inf = unit("D", 0, 0, side="csa", orders="march", cohesion=5, facing=SOUTH)
    gun = unit("G", 0, 0, side="csa", orders="march", kind="artillery", cohesion=5,
               facing=SOUTH)
    ids = sh.pre_shock_drm_ids(inf, [unit("A", 0, 1)])
    assert "march-orders" in ids
    held = sh.pre_shock_check(d10(3), [inf, gun], [ids])  # 3 + 2 <= 5
    assert held is not None and held.roll.passed
    assert all(r.disordered for r in held.results)
    broke = sh.pre_shock_check(d10(4), [inf, gun], [ids])  # 4 + 2 > 5
    assert broke is not None and not broke.roll.passed
    assert [(r.unit, r.rout, r.abandoned) for r in broke.results] == [
        ("D", True, False), ("G", False, True)]
    assert broke.vacated


def test_11_37_worst_drm_and_second_disorder() -> None:
    d = unit("D", 0, 0, side="csa", facing=Facing.vertex(0), disordered=True, cohesion=4)
    flank = sh.pre_shock_drm_ids(d, [unit("L", 0, 1)])
    front = sh.pre_shock_drm_ids(d, [unit("F", 1, 0)])
    assert "flank-or-rear" in flank and "flank-or-rear" not in front
    # roll 2: +2 disordered +1 flank = 5 > 4: fails; the 2nd disorder UDD rolls 0: passes
    r = sh.pre_shock_check(d10(2, 0), [d], [front, flank])
    assert r is not None and r.drm_ids == flank and not r.roll.passed
    (res,) = r.results
    assert res.second and not res.rout and res.sp_loss == 1 and res.retreat == (1, 2)
    assert r.losses == {"D": 1}
    assert sh.pre_shock_check(d10(), [d], [front], continued=True) is None


def test_11_73_leader_stars_help_the_check() -> None:
    d = unit("D", 0, 0, side="csa", cohesion=4, leader_stars=3)
    r = sh.pre_shock_check(d10(7), [d], [()])  # 7 - 3 <= 4
    assert r is not None and r.roll.passed and not r.results


# --- resolution and results §11.45, §11.64 ------------------------------------------------


def test_11_45_drms_listed_with_sources_and_the_roll() -> None:
    att = [unit("A", 0, 1, moved=True, charging=True, orders="attack", disordered=True)]
    dfn = [unit("D", 0, 0, side="csa", disordered=True)]
    ratio = sh.shock_ratio(Fraction(6), Fraction(3), favour_attacker=True)
    sit = sh.Situation(terrain_drm=-1, terrain_ids=("woods",), position="flank",
                       front_hex_penalty=1, no_brigadier=True)
    drms = sh.shock_drms(att, dfn, ratio, sit)
    got = {d.id: d.value for d in drms}
    assert got == {"ratio": 2, "flank": 2, "attacking-hex-in-other-front": -1, "terrain": -1,
                   "any-defender-disordered": 1, "any-attacker-disordered": -1, "charge": 1,
                   "no-brigadier": -1}
    assert all(d.source for d in drms)
    roll = sh.resolve(d10(6), ratio, drms)
    assert roll.modified == 6 + 2 and roll.result.id == "defender-retreats-continue"
    # continued shock: no charge, -1 per continued shock
    again = {d.id: d.value for d in sh.shock_drms(att, dfn, ratio, sh.Situation(continued=2))}
    assert "charge" not in again and again["successive-continued-shock"] == -2


def test_11_56_counter_charged_infantry_charge_turns_to_minus_one() -> None:
    att = [unit("A", 0, 1, charging=True, orders="attack")]
    ratio = sh.shock_ratio(Fraction(6), Fraction(6), favour_attacker=True)
    got = {d.id: d.value for d in sh.shock_drms(att, [], ratio,
                                                sh.Situation(counter_charged=True))}
    assert got.get("charge-counter-charged") == -1 and "charge" not in got


def test_bloody_standoff_highest_cohesion_and_guns() -> None:
    row = all_charts().shock.result(4)
    a1, a2 = unit("A1", 0, 1, cohesion=5), unit("A2", 0, 1, cohesion=7)
    eff = sh.apply_result(d10(), row, [a1, a2], defending=False)
    assert eff.losses == {"A2": 1}
    assert {d.unit for d in eff.disorders if d.disordered} == {"A1", "A2"}
    gun = unit("G", 0, 0, side="csa", kind="artillery")
    inf = unit("I", 0, 0, side="csa", cohesion=9)
    eff = sh.apply_result(d10(), row, [gun, inf], defending=True)
    assert eff.losses == {"G": 1}  # §11.64: artillery on top loses a gun


def test_ten_plus_defender_routs_or_goes_back_two_and_guns_abandoned() -> None:
    row = all_charts().shock.result(11)
    inf = unit("I", 0, 0, side="csa", cohesion=5)
    gun = unit("G", 0, 0, side="csa", kind="artillery")
    eff = sh.apply_result(d10(6), row, [gun, inf], defending=True)
    assert eff.abandoned == ("G",) and eff.routs == ("I",)
    eff = sh.apply_result(d10(5), row, [inf], defending=True)
    assert eff.routs == () and eff.retreats == {"I": (2, 2)}


def test_12_23_collapsed_checks_once_at_ten_plus() -> None:
    row = all_charts().shock.result(10)
    inf = unit("I", 0, 0, side="csa", cohesion=5, disordered=True, collapsed=True)
    # the 2nd disorder UDD passes (1 SP, 1-2 hexes), then one rout check only
    eff = sh.apply_result(d10(1, 2), row, [inf], defending=True)
    assert eff.losses == {"I": 1} and eff.retreats == {"I": (2, 2)}
    assert len(eff.checks) == 2


def test_attacker_retreat_and_counterattack() -> None:
    row = all_charts().shock.result(0)
    eff = sh.apply_result(d10(), row, [unit("A", 0, 1)], defending=False)
    assert eff.retreats == {"A": (1, 1)}
    assert sh.defender_may_counterattack(row, [unit("D", 0, 0, side="csa")])
    assert not sh.defender_may_counterattack(row, [unit("G", 0, 0, side="csa",
                                                        kind="artillery")])


def test_11_47_continuation() -> None:
    row8 = all_charts().shock.result(8)
    charger = [unit("C", 0, 1, kind="mounted_cavalry", charging=True)]
    plain = [unit("A", 0, 1)]
    assert sh.attacker_continuation(row8, charger) == "must"
    assert sh.attacker_continuation(row8, plain) == "may"
    assert sh.attacker_continuation(row8, charger, continued=1) == "may"
    assert sh.attacker_continuation(all_charts().shock.result(6), plain) == "none"
    assert sh.attacker_continuation(None, plain, pre_shock_vacated=True) == "may"
    assert sh.attacker_continuation(row8, plain, can_advance=False) == "none"


def test_11_48_post_shock_disorder() -> None:
    a_good = unit("A", 0, 1)
    a_dis = unit("B", 1, 1, disordered=True)
    a_top = unit("T", 1, 1)
    cav_att = unit("C", 2, 1, kind="mounted_cavalry")
    cav_def = unit("K", 0, 0, side="csa", kind="mounted_cavalry", disordered=True)
    post = sh.post_shock_disorder([a_good, a_top, a_dis, cav_att], [cav_def])
    assert set(post.disordered) == {"A", "T", "C"}
    assert post.blown == ("K",)
    assert post.losses == {"T": 1}  # the stack with a disordered unit; its top loses it
    exempt = sh.post_shock_disorder([a_good], [cav_def], exempt=True)
    assert exempt.disordered == () and exempt.blown == ("K",)


# --- cavalry §11.5, Blown §11.58 ----------------------------------------------------------


def test_11_52_to_11_54_charge() -> None:
    cav = unit("C", 0, 1, kind="mounted_cavalry", orders="attack")
    sh.check_charge(cav, enemy_in_los=True, mp_to_adjacent=5, started_in_command=True)
    with pytest.raises(RuleError):
        sh.check_charge(cav, enemy_in_los=True, mp_to_adjacent=6, started_in_command=True)
    with pytest.raises(RuleError):
        sh.check_charge(cav.with_(orders="advance"), enemy_in_los=True, mp_to_adjacent=3,
                        started_in_command=True)
    path = [Hex(0, 5), Hex(0, 4), Hex(0, 3), Hex(0, 2)]
    f = [Facing.side(2)] * 4
    sh.check_charge_path(path, f, [2, 1, 1, 1], friends=set())  # the first is not in the path
    with pytest.raises(RuleError):
        sh.check_charge_path(path, f, [1, 1, 2, 1], friends=set())
    with pytest.raises(RuleError):
        sh.check_charge_path(path, [*f[:3], Facing.side(1)], [1, 1, 1, 1], friends=set())
    with pytest.raises(RuleError):
        sh.check_charge_path(path, f, [1, 1, 1, 1], friends={Hex(0, 3)})
    assert not sh.charge_check(d10(8), cav).passed


def test_11_55_charge_adds_to_pre_shock_not_against_cavalry() -> None:
    charger = unit("C", 0, 1, kind="mounted_cavalry", charging=True)
    inf = unit("D", 0, 0, side="csa", facing=SOUTH)
    cav = unit("K", 0, 0, side="csa", facing=SOUTH, kind="mounted_cavalry")
    assert "charged-by-cavalry" in sh.pre_shock_drm_ids(inf, [charger])
    assert "charged-by-cavalry" not in sh.pre_shock_drm_ids(cav, [charger])
    assert "charged-by-cavalry" not in sh.pre_shock_drm_ids(inf, [charger],
                                                             favourable_terrain=True)


def test_11_56_counter_charge() -> None:
    charger = unit("C", 0, 1, kind="mounted_cavalry", charging=True)
    on_attack = unit("K", 0, 0, side="csa", facing=SOUTH, kind="mounted_cavalry",
                     orders="attack")
    assert sh.counter_charge(d10(), on_attack, [charger]).counter_charged
    on_advance = on_attack.with_(orders="advance", cohesion=5)
    assert sh.counter_charge(d10(5), on_advance, [charger]).counter_charged
    assert not sh.counter_charge(d10(6), on_advance, [charger]).counter_charged
    flanked = on_attack.with_(facing=Facing.vertex(0))
    with pytest.raises(RuleError):
        sh.counter_charge(d10(), flanked, [charger])


def test_11_58_blown_hampton() -> None:
    # Hampton's Legion is Blown in its first activation of the 1600 turn: the marker stays
    # through that activation and goes at the end of the next one.
    assert not sh.blown_ends(activations_since=0, shocked_again=False)
    assert sh.blown_ends(activations_since=1, shocked_again=False)
    assert not sh.blown_ends(activations_since=1, shocked_again=True)
    assert sh.blown_ma(5) == 3
    blown = unit("H", 0, 0, side="csa", kind="mounted_cavalry", disordered=True, blown=True,
                 cohesion=4)
    row = all_charts().shock.result(6)  # defender retreats, disordered
    # 2nd disorder UDD 1 (pass: 1 SP), Blown's extra SP and rout check 7 (fail)
    eff = sh.apply_result(d10(1, 7), row, [blown], defending=True)
    assert eff.losses == {"H": 2} and eff.routs == ("H",)


def test_11_33_withdrawal_before_shock() -> None:
    d = unit("D", 0, 0, side="csa")
    sh.check_withdrawal_before_shock(d, [unit("A", 0, 1)])
    for bad, att in ((d.with_(orders="attack"), unit("A", 0, 1)),
                     (d.with_(orders="march"), unit("A", 0, 1)),
                     (d.with_(kind="artillery"), unit("A", 0, 1)),
                     (d, unit("C", 0, 1, kind="mounted_cavalry"))):
        with pytest.raises(RuleError):
            sh.check_withdrawal_before_shock(bad, [att])
    assert sh.withdrawal_distance(d) == 1
    assert sh.withdrawal_distance(d.with_(kind="mounted_cavalry")) == 2
    assert sh.after_withdrawal(d10(), d) is None
    dis = sh.after_withdrawal(d10(9, 9), d.with_(disordered=True))
    assert dis is not None and dis.rout


def test_11_36_green_and_11_12_eligibility() -> None:
    g = unit("G", 0, 1, green=True, cohesion=5)
    check = sh.green_check(d10(6), g)
    assert check is not None and not check.passed
    assert sh.green_check(d10(), unit("V", 0, 1)) is None
    enemy = {Hex(0, 0)}
    sh.check_may_shock(unit("A", 0, 1, brigade="b"), active_brigade="b", enemy=enemy)
    with pytest.raises(RuleError):
        sh.check_may_shock(unit("A", 0, 1, brigade="b", orders="march"), active_brigade="b",
                           enemy=enemy)
    with pytest.raises(RuleError):
        sh.check_may_shock(unit("A", 0, 1, brigade="c"), active_brigade="b", enemy=enemy)
    with pytest.raises(RuleError) as e:
        sh.check_may_shock(unit("A", 0, 1, brigade="b", kind="artillery"),
                           active_brigade="b", enemy=enemy)
    assert e.value.rule == "11.61"
    assert sh.mandatory_shock(unit("A", 0, 1, orders="attack"), moved_adjacent=True) == \
        "infantry-charge"
    assert sh.mandatory_shock(unit("A", 0, 1, orders="attack", fired=True),
                              moved_adjacent=True) is None


# --- §12.54 the rout chain ----------------------------------------------------------------


def test_12_54_rout_chain_no_double_jeopardy() -> None:
    # A next to B, C and D; B and D next to C. A routs: B, C and D check once each. C, already
    # disordered, fails (a 2nd disorder: its UDD fails too) and routs; B and D, having checked
    # for A, do not check again for C.
    a = unit("A", 0, 0)
    b = unit("B", 1, 0, cohesion=5)
    c = unit("C", 1, -1, cohesion=5, disordered=True)
    d = unit("D", 0, -1, cohesion=5)
    assert b.hex.distance(c.hex) == 1 and d.hex.distance(c.hex) == 1
    chain = rt.rout_chain(d10(2, 8, 8, 3), ["A"], [a, b, c, d])
    assert chain.routed == ("A", "C")
    assert [x.unit for x in chain.checks] == ["B", "C", "D"]
    with pytest.raises(DiceExhausted):  # a second round of checks would need more dice
        rt.rout_chain(d10(2, 8, 8), ["A"], [a, b, c, d])


def test_12_54_stacked_counts_as_adjacent_and_artillery_never_checks() -> None:
    a = unit("A", 0, 0)
    b = unit("B", 0, 0)
    g = unit("G", 1, 0, kind="artillery")
    e = unit("E", 1, 0, side="csa")
    chain = rt.rout_chain(d10(0), ["A"], [a, b, g, e])
    assert [x.unit for x in chain.checks] == ["B"]
    with pytest.raises(RuleError):
        rt.rout_chain(d10(), ["G"], [g])


def test_12_52_both_sides_rout() -> None:
    a = unit("A", 0, 1, cohesion=6)
    d = unit("D", 0, 0, side="csa", cohesion=6)
    assert sh.both_rout_keeper([a], [d], {"A", "D"}) == "A"  # a tie: the defender routs
    assert sh.both_rout_keeper([a], [d.with_(cohesion=7)], {"A", "D"}) == "D"
    assert sh.both_rout_keeper([a], [d], {"A"}) is None


# --- retreats on the map §12.44-12.46 -----------------------------------------------------


@pytest.fixture(scope="module")
def board() -> Board:
    return load_board()


CENTRE = Hex(9, 2)  # B0906, open level ground two hexes round


def test_open_ground_for_retreats(board: Board) -> None:
    area = [h for h in board.hexes if h.distance(CENTRE) <= 2]
    assert len(area) == 19 and all(board.hexes[h].terrain == "open" for h in area)


def test_12_44_retreat_away_from_the_enemy(board: Board) -> None:
    enemy = CENTRE.neighbour(0)
    sur = rt.Surroundings(enemy=frozenset({enemy}), causing=frozenset({enemy}))
    opts = rt.retreat_options(board, CENTRE, (1, 1), unit_class="infantry", orders="advance",
                              sur=sur)
    assert opts.paths and opts.lost_sp == 0
    for p in opts.paths:
        assert p.end.distance(enemy) > 1
    two = rt.retreat_options(board, CENTRE, (2, 2), unit_class="infantry", orders="advance",
                             sur=sur)
    assert all(len(p.hexes) == 2 and p.end.distance(enemy) > CENTRE.distance(enemy)
               for p in two.paths)
    with pytest.raises(RuleError):
        rt.check_retreat(opts, [enemy])
    assert rt.check_retreat(opts, opts.paths[0].hexes) == opts.paths[0]


def test_12_44_blocked_retreat_costs_sp_and_abandons_guns(board: Board) -> None:
    ring = frozenset(CENTRE.neighbours())
    sur = rt.Surroundings(enemy=ring)
    opts = rt.retreat_options(board, CENTRE, (2, 2), unit_class="infantry", orders="advance",
                              sur=sur)
    assert opts.paths == () and opts.lost_sp == 2
    guns = rt.retreat_options(board, CENTRE, (1, 2), unit_class="artillery", orders="advance",
                              sur=sur)
    assert guns.abandoned


def test_12_46_through_friends_and_their_checks(board: Board) -> None:
    # enemies on three sides; the one way back is through a full friendly hex
    back = CENTRE.neighbour(3)
    enemy = frozenset(CENTRE.neighbour(d) for d in (0, 1, 5))
    walls = {CENTRE.neighbour(d): FriendStack(can_stack=False) for d in (2, 4)}
    sur = rt.Surroundings(enemy=enemy, friends={back: FriendStack(can_stack=False), **walls})
    opts = rt.retreat_options(board, CENTRE, (1, 1), unit_class="infantry", orders="advance",
                              sur=sur)
    assert opts.paths and all(p.through[:1] in ((back,), (CENTRE.neighbour(2),),
                                                (CENTRE.neighbour(4),)) for p in opts.paths)
    # a 1-2 hex retreat will not pass through friends after its first hex
    one_two = rt.retreat_options(board, CENTRE, (1, 2), unit_class="infantry",
                                 orders="advance", sur=sur)
    assert all(len(p.hexes) >= 2 for p in one_two.paths)
    stationary = [unit("S", back.q, back.r, cohesion=5)]
    checked: set[str] = {"R"}
    checks, results = rt.through_checks(d10(6), stationary, checked)
    assert not checks[0].passed and results[0].disordered
    again, _ = rt.through_checks(d10(), stationary, checked)  # no double jeopardy
    assert again == ()


def test_12_6_advance(board: Board) -> None:
    a = unit("A", CENTRE.q, CENTRE.r)
    to = CENTRE.neighbour(1)
    assert rt.check_advance(board, a, to, new_facing=Facing.vertex(2), enemy=set()) == "none"
    with pytest.raises(RuleError):
        rt.check_advance(board, a, to, new_facing=Facing.vertex(3), enemy=set())
    with pytest.raises(RuleError):
        rt.check_advance(board, a.with_(kind="artillery"), to, new_facing=NORTH, enemy=set())
    c = unit("C", 0, 0, kind="mounted_cavalry", charging=True)
    assert [u.unit for u in rt.advance_order([a, c])] == ["C", "A"]


def test_12_8_abandoned_guns() -> None:
    assert rt.abandoned_next("abandoned-1") == "abandoned-2"
    assert rt.abandoned_next("abandoned-2") == "eliminated"
    assert rt.recrewed(advanced_in=True) and not rt.recrewed()


def test_terrain_shock_drm_woods_and_downhill(board: Board) -> None:
    woods = next(h for h in sorted(board.hexes) if board.hexes[h].terrain == "woods"
                 and any(n in board.hexes and board.hexes[n].level == board.hexes[h].level
                         and board.side(n, h) is None for n in h.neighbours()))
    frm = next(n for n in woods.neighbours() if n in board.hexes
               and board.hexes[n].level == board.hexes[woods].level and board.side(n, woods)
               is None)
    drm, ids = sh.terrain_shock_drm(board, frm, woods)
    assert (drm, ids) == (-1, ("woods",))
    drm, ids = sh.terrain_shock_drm(board, frm, woods, breastworks=True)
    assert drm == -2 and "breastworks" in ids


# --- properties ---------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.integers(-6, 16), st.integers(0, 10_000), st.lists(
    st.tuples(st.integers(1, 12), st.integers(2, 8), st.booleans(), st.booleans()),
    min_size=1, max_size=3))
def test_results_replay_and_strength_stays_whole(modified: int, seed: int,
                                                 specs: list[tuple[int, int, bool, bool]]
                                                 ) -> None:
    row = all_charts().shock.result(modified)
    side = [unit(f"U{i}", 0, 0, sp=sp, cohesion=c, disordered=dis, collapsed=col)
            for i, (sp, c, dis, col) in enumerate(specs)]
    for defending in (True, False):
        first = sh.apply_result(SeededDice(seed), row, side, defending=defending)
        again = sh.apply_result(SeededDice(seed), row, side, defending=defending)
        assert first == again
        for u in side:
            after = after_losses(u, first.losses.get(u.unit, 0))
            assert after.sp >= 0
        assert sum(first.losses.values()) <= 2 + len(side)


# --- a whole shock through steps 6a-6b ------------------------------------------------------


def test_fight_flank_attack_from_the_move() -> None:
    # 5 SP that moved strike 3 SP through the flank: 2:1 (+2), flank +2; a roll of 4 gives 8
    d = unit("D", 0, 0, side="csa", sp=3, facing=Facing.vertex(0))
    a = unit("A", 0, 1, sp=5, moved=True, orders="attack")  # Advance would cost -1 (E-25)
    f = sh.fight(d10(4), [a], [d])
    assert (f.attacker_sp, f.defender_sp, f.roll.ratio) == (Fraction(5), Fraction(3), "2:1")
    assert {x.id: x.value for x in f.roll.drms} == {"ratio": 2, "flank": 2}
    assert f.roll.modified == 8 and f.roll.result.id == "defender-retreats-continue"
    assert f.defender.retreats == {"D": (1, 1)} and f.attacker.retreats == {}
    assert f.attacker_continues == "may" and not f.defender_counterattacks
    assert f == sh.fight(d10(4), [a], [d])  # same dice, same shock


def test_fight_in_woods_rounds_for_the_defender(board: Board) -> None:
    d = unit("D", 0, 0, side="csa", sp=3, facing=SOUTH)
    a = unit("A", 0, 1, sp=5, moved=True, orders="advance")
    f = sh.fight(d10(2), [a], [d], terrain=(-1, ("woods",)))
    assert f.roll.ratio == "1.5:1"
    assert {x.id: x.value for x in f.roll.drms} == {"ratio": 1, "terrain": -1,
                                                    "attacker-advance-orders": -1}
    assert f.roll.result.id == "attacker-retreats"
    assert f.attacker.retreats == {"A": (1, 1)} and f.defender_counterattacks


def test_shock_terrain_best_for_defender_and_withdrawal(board: Board) -> None:
    a = unit("A", CENTRE.q, CENTRE.r + 1)
    d = unit("D", CENTRE.q, CENTRE.r, side="csa", facing=SOUTH)
    assert sh.shock_terrain(board, [a], [d]) == (0, ())
    drm, ids = sh.shock_terrain(board, [a], [d], breastworks={(a.hex, d.hex)})
    assert drm == -1 and ids == ("breastworks",)
    sur = rt.Surroundings(enemy=frozenset({a.hex}), causing=frozenset({a.hex}))
    opts = sh.withdrawal_options(board, d, [a], sur=sur)
    assert opts.paths and all(len(p.hexes) == 1 and p.end.distance(a.hex) == 2
                              for p in opts.paths)
    cav = d.with_(kind="mounted_cavalry")
    assert any(len(p.hexes) == 2 for p in sh.withdrawal_options(board, cav, [a],
                                                                sur=sur).paths)


def test_11_72_no_brigadier() -> None:
    assert sh.no_brigadier([unit("A", 0, 1), unit("B", 1, 1)])
    assert not sh.no_brigadier([unit("A", 0, 1), unit("B", 1, 1, with_brigadier=True)])
    assert not sh.no_brigadier([unit("A", 0, 1)], first_had_it=False)


def test_12_71_leader_casualties_after_shock_losses() -> None:
    a = unit("A", 0, 1)
    ext = Combatant("E", "usa", (Hex(1, 1), Hex(2, 1)), NORTH, "infantry", 12, 6)
    leaders = {"meade": [Hex(0, 1)], "hancock": [Hex(2, 1)], "sickles": [Hex(5, 5)]}
    rolls = sh.leader_casualties(d10(0, 4), leaders, [a, ext], {"A": 1, "E": 1})
    assert [(r.leader, r.killed) for r in rolls] == [("hancock", True), ("meade", False)]
    assert sh.leader_casualties(d10(), leaders, [a], {"A": 1}, post_shock=True) == ()


_RING2 = sorted(h for h in (Hex(9 + dq, 2 + dr) for dq in range(-2, 3) for dr in range(-2, 3))
                if h.distance(CENTRE) in (1, 2))


@settings(max_examples=60, deadline=None)
@given(st.sets(st.sampled_from(_RING2), max_size=6), st.sets(st.sampled_from(_RING2),
                                                             max_size=5),
       st.sampled_from([(1, 1), (2, 2), (1, 2)]))
def test_retreat_paths_keep_the_rules(enemy: set[Hex], friends: set[Hex],
                                      need: tuple[int, int]) -> None:
    board = load_board()
    friends -= enemy
    causing = frozenset(h for h in enemy if h.distance(CENTRE) == 1)
    sur = rt.Surroundings(enemy=frozenset(enemy), causing=causing,
                          friends={h: FriendStack(can_stack=False) for h in friends})
    opts = rt.retreat_options(board, CENTRE, need, unit_class="infantry", orders="advance",
                              sur=sur)
    full = [p for p in opts.paths if len(p.hexes) >= need[0]]
    assert (opts.lost_sp == 0) == bool(full)
    for p in opts.paths:
        assert not set(p.hexes) & enemy
        assert p.end not in friends  # never stops among friends it cannot stack with
        for h in p.hexes:
            if h not in friends:
                assert all(h.distance(c) > 1 for c in causing)
        assert set(p.through) <= friends


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.booleans()), min_size=2,
                max_size=8, unique_by=lambda t: (t[0], t[1])), st.integers(0, 10_000))
def test_rout_chain_checks_each_unit_once(spots: list[tuple[int, int, bool]],
                                          seed: int) -> None:
    units = [unit(f"U{i}", q, r, disordered=dis, cohesion=4)
             for i, (q, r, dis) in enumerate(spots)]
    chain = rt.rout_chain(SeededDice(seed), ["U0"], units)
    checked = [c.unit for c in chain.checks]
    assert len(checked) == len(set(checked)) and "U0" not in checked
    assert chain.routed[0] == "U0" and len(set(chain.routed)) == len(chain.routed)
    assert chain == rt.rout_chain(SeededDice(seed), ["U0"], units)


def test_11_43_woods_cancelled_by_downhill_still_helps_the_defender() -> None:
    movers = [unit("A", 0, 1, moved=True)]
    assert not sh.rounds_for_attacker(movers, terrain_drm=0, continued=False,
                                      terrain_ids=("woods", "down-one-level"))
    assert sh.rounds_for_attacker(movers, terrain_drm=1, continued=False,
                                  terrain_ids=("down-one-level",))


def test_11_57_break_charge_and_12_47_done() -> None:
    cav = unit("C", 0, 1, kind="mounted_cavalry", cohesion=5)
    assert sh.break_charge(d10(5), cav).passed and not sh.break_charge(d10(6), cav).passed
    assert sh.done_for_activation(phasing=True, retreated=True)
    assert not sh.done_for_activation(phasing=False, retreated=True)


def test_12_31_rout_check_after_the_disorder_uses_the_back() -> None:
    row = all_charts().shock.result(10)
    good = unit("I", 0, 0, side="csa", cohesion=6, cohesion_disordered=3)
    eff = sh.apply_result(d10(5), row, [good], defending=True)  # 5 > 3: routs
    assert eff.routs == ("I",) and eff.checks[0].cohesion == 3


def test_12_54_rout_chain_with_b_and_c_stacked() -> None:
    # The seed's last sentence: the same holds if B and C are stacked. A routs; B, C and D
    # check once; C fails and routs; B (in C's hex) and D do not check again for C.
    a = unit("A", 0, 0)
    b = unit("B", 1, -1, cohesion=5)
    c = unit("C", 1, -1, cohesion=5, disordered=True)
    d = unit("D", 0, -1, cohesion=5)
    chain = rt.rout_chain(d10(2, 8, 8, 3), ["A"], [a, b, c, d])
    assert chain.routed == ("A", "C")
    assert [x.unit for x in chain.checks] == ["B", "C", "D"]
    with pytest.raises(DiceExhausted):
        rt.rout_chain(d10(2, 8, 8), ["A"], [a, b, c, d])


def test_12_23_shock_losses_collapse_and_the_disorder_is_a_second_one() -> None:
    """A Bloody Standoff's SP takes a 7-SP unit from 4 to 3, below half: it collapses at
    once (disordered), so the row's disorder falls on it as a second disorder (002 §12.21,
    §12.23 and its note); a unit already collapsed does not collapse again."""
    row = all_charts().shock.result(4)  # bloody standoff: 1 SP and disorder each side
    d = unit("D", 0, 0, side="csa", sp=4, cohesion=6, cohesion_disordered=4, printed_sp=7)
    eff = sh.apply_result(d10(0, 0, 0, 0), row, [d], defending=True)
    assert eff.collapsed == ("D",) and eff.to_json()["collapsed"] == ["D"]
    assert eff.disorders[0].second  # passed its UDD: 1 SP more (§12.35) and a retreat
    assert eff.losses == {"D": 1 + eff.disorders[0].sp_loss} and "D" in eff.retreats
    plain = sh.apply_result(d10(0, 0), row, [d.with_(printed_sp=0)], defending=True)
    assert plain.collapsed == () and plain.disorders[0].disordered
    assert "collapsed" not in plain.to_json()
    again = sh.apply_result(d10(0, 0, 0), row, [d.with_(collapsed=True, disordered=True)],
                            defending=True)
    assert again.collapsed == ()
    half = sh.apply_result(d10(0, 0), row, [d.with_(sp=5)], defending=True)
    assert half.collapsed == ()  # 4 of 7 is not below half
