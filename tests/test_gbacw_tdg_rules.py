"""The battle book's own rules (004, ``tdg.*``): the artillery barrage (§10.9), Berdan
(§14.4), Warren (§14.5), Trimble (§14.6), §14.2, conditional cavalry (§14.7), Imboden
(§14.77), artillery AMs and transfer (§4.36), and the terrain specials of §9.83, §9.84, §9.88."""

from __future__ import annotations

import datetime as dt

import pytest

from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import RuleError
from gettysburg.gbacw import barrage
from gettysburg.gbacw import conditional_cavalry as cc
from gettysburg.gbacw import tdg_leaders as tl
from gettysburg.gbacw import tdg_terrain as tt
from gettysburg.gbacw.board import load_board

JUL1, JUL2 = dt.date(1863, 7, 1), dt.date(1863, 7, 2)


# --- tdg.10.9 barrage ----------------------------------------------------------------------------
def test_barrage_check_example_004_10_94_third_am_adds_3() -> None:
    """004 §10.94: barraging on the 3rd artillery AM adds +3: a Union 6 becomes 9 (disordered),
    a Confederate 4 becomes 7 (disordered), a Confederate 7 becomes 10 (removed)."""
    assert barrage.barrage_check("usa", 5, 3) == "fires-on"
    assert barrage.barrage_check("usa", 6, 3) == "disordered"
    assert barrage.barrage_check("usa", 9, 3) == "disordered"  # the Union is never removed
    assert barrage.barrage_check("csa", 3, 3) == "fires-on"
    assert barrage.barrage_check("csa", 4, 3) == "disordered"
    assert barrage.barrage_check("csa", 6, 3) == "disordered"  # 9: not above 9
    assert barrage.barrage_check("csa", 7, 3) == "removed"
    with pytest.raises(RuleError, match=r"tdg.10.94"):
        barrage.barrage_check("csa", 10, 1)


def test_barrage_declaration_tdg_10_92_and_10_95() -> None:
    barrage.check_declare("artillery", True, 5, None)
    barrage.check_declare("artillery", True, 5, 3)
    barrage.check_declare("artillery", True, 5, 5)  # another artillery AM the same turn
    with pytest.raises(RuleError, match=r"tdg.10.95"):
        barrage.check_declare("artillery", True, 5, 4)
    with pytest.raises(RuleError, match="artillery AM"):
        barrage.check_declare("division", True, 5, None)
    with pytest.raises(RuleError, match="not on the map"):
        barrage.check_declare("artillery", False, 5, None)


def test_barrage_batteries_in_range_or_chained() -> None:
    hunt = Hex(0, 0)
    bats = {"near": Hex(3, 0), "chained": Hex(4, 0), "chain2": Hex(5, 0), "far": Hex(8, 0)}
    assert barrage.barrage_batteries(hunt, 3, bats) == ["chain2", "chained", "near"]


def test_barrage_shot_tdg_10_93() -> None:
    ok = ["a", "b"]
    barrage.check_shot("a", 4, False, 1, ok)
    for args, match in ((("a", 3, False, 0, ok), "4\\+"), (("a", 5, True, 0, ok), "moved"),
                        (("a", 5, False, 2, ok), "2 barrage"), (("c", 5, False, 0, ok), "range")):
        with pytest.raises(RuleError, match=match):
            barrage.check_shot(*args)
    barrage.check_target(["B1", "B1"])
    with pytest.raises(RuleError):
        barrage.check_target(["B1", "B2"])


# --- leaders and units ---------------------------------------------------------------------------
def test_artillery_ams_take_no_transfer_tdg_4_36() -> None:
    tl.check_transfer_parties(["US-I", "US-II"], ["hunt"])
    with pytest.raises(RuleError, match=r"tdg.4.36"):
        tl.check_transfer_parties(["hunt", "US-II"], ["hunt"])


def test_confederate_cavalry_never_dismounts_tdg_14_2() -> None:
    tl.check_dismount("usa")
    with pytest.raises(RuleError, match=r"tdg.14.2"):
        tl.check_dismount("csa")


def test_berdan_tdg_14_4() -> None:
    attach = {"1 USSS": "US-1/III", "2 USSS": "US-2/II"}
    tl.check_berdan_attachments(attach, ["US-1/III", "US-2/II"])
    assert tl.berdan_activates("1 USSS", attach, "US-1/III")
    assert not tl.berdan_activates("1 USSS", attach, "US-2/II")
    assert tl.berdan_rallies_alone("2 USSS") and not tl.berdan_rallies_alone("20 ME")
    assert tl.BERDAN_ROUT_CORPS == "III"
    with pytest.raises(RuleError):
        tl.check_berdan_attachments({"20 ME": "US-1/III"}, ["US-1/III"])
    with pytest.raises(RuleError):
        tl.check_berdan_attachments({"1 USSS": "CS-Hood"}, ["US-1/III"])


def test_berdan_range_is_the_chart_unit_rule() -> None:
    from gettysburg.gbacw.charts import all_charts
    rng = all_charts().range
    rule = rng._rule(tl.BERDAN_RANGE_RULE)
    assert rule is not None and rule.max == 6


def test_warren_tdg_14_5_once_per_game_from_2_july() -> None:
    tl.check_warren("usa", JUL2, used=False, brigade_activations=3)
    for kwargs, match in (({"seat": "csa"}, "Union"), ({"date": JUL1}, "2 July"),
                          ({"used": True}, "once per game"),
                          ({"brigade_activations": 4}, "5th"),
                          ({"enabled": False}, "not in play")):
        args = {"seat": "usa", "date": JUL2, "used": False, "brigade_activations": 0} | kwargs
        with pytest.raises(RuleError, match=match):
            tl.check_warren(**args)  # type: ignore[arg-type]
    assert tl.WARREN_FATIGUE is False


def test_trimble_tdg_14_6() -> None:
    assert tl.trimble_side("corps") == "front" and tl.trimble_side("division") == "back"
    with pytest.raises(RuleError):
        tl.trimble_side("brigade")
    with pytest.raises(RuleError, match="already"):
        tl.trimble_side("corps", used=True)


def test_imboden_tdg_14_77() -> None:
    tl.check_imboden_orders("advance")
    with pytest.raises(RuleError, match=r"tdg.14.77"):
        tl.check_imboden_orders("attack")


# --- tdg.14.7 conditional cavalry ----------------------------------------------------------------
def test_confederate_choice_tdg_14_71() -> None:
    cc.check_csa_choice("3-0900", ["jenkins", "hampton"], ["Hart", "Breathed"])
    with pytest.raises(RuleError, match="by 3-0900"):
        cc.check_csa_choice("3-1000", ["jenkins"], ["Hart"])
    with pytest.raises(RuleError, match="not one of"):
        cc.check_csa_choice("3-0700", ["imboden"], ["Hart"])
    with pytest.raises(RuleError, match="one horse battery"):
        cc.check_csa_choice("3-0700", ["jenkins", "hampton"], ["Hart"])


def test_withdrawal_tdg_14_72() -> None:
    cc.check_withdrawal("3-1200", "jenkins", False, True)
    with pytest.raises(RuleError):
        cc.check_withdrawal("3-1300", "jenkins", False, True)
    with pytest.raises(RuleError, match="next to"):
        cc.check_withdrawal("3-1000", "jenkins", True, True)
    with pytest.raises(RuleError, match="path"):
        cc.check_withdrawal("3-1000", "jenkins", False, False)


def test_union_choice_tdg_14_73() -> None:
    due = {"custer": "3-1300", "mcintosh-jb": "3-1400", "gamble": "3-1300", "x": "3-1600"}
    cc.check_usa_choice("3-1300", ["custer", "mcintosh-jb"], due, ["M/2 US", "A/2 US"])
    with pytest.raises(RuleError, match="during"):
        cc.check_usa_choice("3-1200", ["custer"], due, ["M/2 US"])
    with pytest.raises(RuleError, match="Buford"):
        cc.check_usa_choice("3-1300", ["gamble"], due, ["M/2 US"])
    with pytest.raises(RuleError, match="not due"):
        cc.check_usa_choice("3-1300", ["x"], due, ["M/2 US"])


def test_settle_return_and_losses_tdg_14_74_to_76() -> None:
    assert cc.settle(2, 2) == (None, 0)
    assert cc.settle(3, 1) == ("csa", 2) and cc.settle(0, 2) == ("usa", 2)
    assert cc.check_return("csa", "3-1700", [10, 10]) == 10
    assert cc.check_return("usa", "3-1800", [8]) == 8
    with pytest.raises(RuleError, match="from 3-1700"):
        cc.check_return("usa", "3-1600", [8])
    with pytest.raises(RuleError, match="same area"):
        cc.check_return("usa", "3-1700", [8, 9])
    with pytest.raises(RuleError, match="not 8"):
        cc.check_return("csa", "3-1700", [8])
    assert [cc.return_losses(r) for r in (0, 1, 9)] == [10, 1, 9]


# --- terrain -------------------------------------------------------------------------------------
def test_railroad_cut_fire_and_shock_tdg_9_83() -> None:
    b = load_board()
    cut, outside = b.parse("A1623"), b.parse("A1522")
    assert tt.cut_fire_drm(b, outside, cut) == 2
    assert tt.cut_fire_drm(b, cut, outside) == -2
    assert tt.cut_fire_drm(b, outside, b.parse("A1722")) == 0
    tt.check_cut_shock(b, b.parse("A1722"), cut)  # along the bed
    with pytest.raises(RuleError, match=r"tdg.9.83"):
        tt.check_cut_shock(b, outside, cut)
    tt.check_cut_shock(b, outside, b.parse("A1523"))  # no cut: nothing to check


def test_sunken_road_tdg_9_84() -> None:
    b = load_board()
    tt.check_sunken_road_artillery(b, b.parse("B4425"), b.parse("B4726"))
    with pytest.raises(RuleError, match=r"tdg.9.84"):
        tt.check_sunken_road_artillery(b, b.parse("B4425"), b.parse("B4930"))
    tt.check_sunken_road_artillery(b, b.parse("B4930"), b.parse("B4425"))  # not in the road
    assert tt.sunken_road_fire_drm(b, b.parse("B4425"), b.parse("B4726")) == 0  # along it
    assert tt.sunken_road_fire_drm(b, b.parse("B4930"), b.parse("B4726")) == -1


def test_off_map_roads_tdg_9_88() -> None:
    tt.check_off_map_move(Hex(0, 0), [Hex(3, 0)])
    with pytest.raises(RuleError, match=r"tdg.9.88"):
        tt.check_off_map_move(Hex(0, 0), [Hex(1, 0)])
