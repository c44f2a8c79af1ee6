"""GBACW charts as data (issue 51): every chart loads, every cell the rules can reach exists,
every substitute is flagged with its basis, printed values and worked examples of the seeds
hold (002 = series rules 2023, 004 = Three Days of Gettysburg battle book), and a broken file
is refused naming the file, the record and the field."""

from __future__ import annotations

import datetime as dt
import re
import shutil
from pathlib import Path

import pytest
import yaml

from gettysburg.gbacw.charts import (
    CHART_FILES,
    CHARTS_DIR,
    ChartLookupError,
    DataError,
    all_charts,
    load_charts,
)
from gettysburg.gbacw.charts.datafile import SOURCE_RE
from gettysburg.gbacw.charts.fire import parse_cell
from gettysburg.gbacw.charts.ranges import parse_band
from gettysburg.gbacw.charts.terrain import UNIT_CLASSES

C = all_charts()


# --- loading and sources -----------------------------------------------------------------------
def test_every_chart_file_loads_and_is_listed() -> None:
    shipped = {p.name for p in CHARTS_DIR.glob("*.yaml")}
    assert shipped == {file_name for file_name, _ in CHART_FILES.values()}
    names = [name for name, _ in C.items()]
    assert names == list(CHART_FILES)
    for name, chart in C.items():
        assert chart.title, name


def test_every_cell_names_a_valid_source() -> None:
    seen = 0
    for chart, cell, prov in C.provenances():
        seen += 1
        assert SOURCE_RE.match(prov.source), (chart, cell, prov.source)
        assert prov.source.startswith(("002 §", "004 ", "substitute")), (chart, cell)
    assert seen > 500  # the fire grid alone has 12 x 15 cells


def test_every_substitute_is_flagged_with_its_basis() -> None:
    substitutes = [(c, cell, p) for c, cell, p in C.provenances() if p.substitute]
    for chart, cell, prov in substitutes:
        assert prov.source == "substitute", (chart, cell)
        assert prov.basis and len(prov.basis.split()) >= 8, (chart, cell, prov.basis)
    for chart, cell, prov in C.provenances():
        if prov.source == "substitute":
            assert prov.substitute, (chart, cell)
    flagged = {(c, cell.split(" roll ")[0]) for c, cell, _ in substitutes}
    # the values the seeds do not give (gbacw-facts.md, digest §B and §E)
    for expected in [
        ("fire", "cell art-1-3"),  # E-20
        ("fire", "beyond_printed_rows"),  # E-21
        ("range", "weapon B at 2"),  # E-22
        ("terrain", "terrain ford"),
        ("terrain", "terrain sunken-road"),
        ("shock", "position 0"),  # E-7 flank
        ("shock", "position 1"),  # E-7 rear
        ("second_disorder", "cell adjacent-rout x artillery"),
        ("turn_track", "(chart)"),  # E-14
        ("turn_track", "campaign_end"),
        ("efficiency_pools", "(chart)"),  # E-30
    ]:
        assert expected in flagged, expected


def test_every_decision_is_recorded_once() -> None:
    # docs/gbacw-decisions.md reads every E-item of the digest (E-1...E-31), then the project's
    # own readings numbered on from E-32, each once; each one the data cites is among them
    doc = (Path(__file__).resolve().parents[1] / "docs" / "gbacw-decisions.md").read_text("utf-8")
    rows = re.findall(r"^\| (E-\d+) \|", doc, flags=re.MULTILINE)
    assert len(rows) >= 31
    assert rows == [f"E-{n}" for n in range(1, len(rows) + 1)]
    cited = {p.decision for _, _, p in C.provenances() if p.decision}
    assert cited and cited <= set(rows)
    assert {"E-5", "E-6", "E-7", "E-8", "E-14", "E-20", "E-21", "E-22", "E-30"} <= cited


def test_substitute_fire_column_follows_its_formula() -> None:
    # E-20: cell(art-1-3, r) = cell(art-4-5, r - 1); no effect where r - 1 is off the table
    fire = C.fire
    for r in range(fire.roll_min, fire.roll_max + 1):
        weak = fire.cell("art-1-3", r)
        expected = "-" if r - 1 < fire.roll_min else fire.cell("art-4-5", r - 1).code
        assert weak.code == expected, r
        assert weak.provenance.substitute and weak.provenance.decision == "E-20"


# --- Fire Table (004 chart; 002 §10.17, §10.67-10.69) -------------------------------------------
@pytest.mark.parametrize(
    ("kind", "strength", "roll", "code"),
    [
        ("small_arms", 1, 4, "d-2"),  # the first result of the 1-SP column
        ("small_arms", 1, 11, "1d+2"),
        ("small_arms", 7, 9, "1D"),
        ("small_arms", 15, 12, "3D"),
        ("small_arms", 40, -2, "d-2"),  # 15+ is open-ended
        ("small_arms", 3, 3, "d-2"),
        ("shell", 4, 2, "d-3"),
        ("shell", 18, -2, "d-3"),
        ("shell", 12, 0, "d-3"),
        ("shell", 13, 7, "D"),
        ("shell", 6, 9, "D"),
    ],
)
def test_fire_cells_as_printed_in_004(kind: str, strength: int, roll: int, code: str) -> None:
    cell = C.fire.result(kind, strength, roll)  # type: ignore[arg-type]
    assert cell.code == code
    assert cell.provenance.source == "004 chart"


def test_fire_result_codes_parse() -> None:
    assert parse_cell("-") == (0, "none", 0)
    assert parse_cell("d") == (0, "udd", 0)
    assert parse_cell("d-3") == (0, "udd", -3)
    assert parse_cell("1d+2") == (1, "udd", 2)
    assert parse_cell("2D") == (2, "auto", 0)
    with pytest.raises(ValueError, match="not a fire result"):
        parse_cell("d+")


def test_shell_never_costs_sp_directly() -> None:
    # 004 grid: shell columns hold only disorder results (losses come through 2nd disorder)
    for col in [c for c in C.fire.columns if c.kind == "shell"]:
        for r in range(C.fire.roll_min, C.fire.roll_max + 1):
            assert C.fire.cell(col.id, r).sp_loss == 0


def test_every_fire_column_and_roll_is_reachable() -> None:
    # every strength from 1 to 60 and every modified roll (clamped beyond -2..12, E-21)
    for kind in ("small_arms", "shell"):
        for strength in range(1, 61):
            for roll in range(-25, 35):
                cell = C.fire.result(kind, strength, roll)
                clamped = min(max(roll, -2), 12)
                assert cell == C.fire.result(kind, strength, clamped)
    # results grow no weaker as the roll rises, in every column
    order = {"none": 0, "udd": 1, "auto": 2}
    for col in C.fire.columns:
        prev = (0, 0, -99)
        for r in range(C.fire.roll_min, C.fire.roll_max + 1):
            cell = C.fire.cell(col.id, r)
            key = (cell.sp_loss, order[cell.check], cell.udd_drm if cell.check == "udd" else 9)
            assert key >= prev, (col.id, r)
            prev = key


def test_fire_lookup_errors_name_the_problem() -> None:
    with pytest.raises(ChartLookupError, match="strength 0"):
        C.fire.result("small_arms", 0, 5)
    with pytest.raises(ChartLookupError, match="no column 'art-2'"):
        C.fire.cell("art-2", 5)
    with pytest.raises(ChartLookupError, match="no modifier 'sniper'"):
        C.fire.drm(["sniper"], kind="small_arms")
    with pytest.raises(ChartLookupError, match="shell fire only"):
        C.fire.drm(["massed-target"], kind="small_arms")
    with pytest.raises(ChartLookupError, match="canister"):
        C.fire.drm(["prepared"], kind="small_arms", canister=True)
    with pytest.raises(ChartLookupError, match="no fixed value"):
        C.fire.drm(["terrain"], kind="small_arms")


def test_fire_drms_002_10_81() -> None:
    assert C.fire.drm(["prepared", "flank"], kind="small_arms") == 2
    assert C.fire.drm(["massed-target", "artillery-moved"], kind="shell") == -1
    assert C.fire.drm(["disordered-firer", "green-infantry", "dawn-dusk"], kind="small_arms") == -4
    assert C.fire.artillery_target_udd_drm.value == 2  # 004 note [a]


def test_night_range_drm_002_16_12() -> None:
    # the example of 002 §16.12: 1 hex -1, 2 hexes -3 (-1 + -2), 4 hexes -10
    assert [C.fire.night_drm(r) for r in (1, 2, 3, 4, 9)] == [-1, -3, -6, -10, -10]
    with pytest.raises(ChartLookupError):
        C.fire.night_drm(0)


def test_ammunition_002_10_69() -> None:
    # E-5: an unmodified 5 -> Low Ammo; another while low -> out; rapid fire 0 or 5 -> out
    f = C.fire
    assert f.ammunition_after(5, rapid_fire=False, low=False) == "low"
    assert f.ammunition_after(5, rapid_fire=False, low=True) == "out"
    assert f.ammunition_after(0, rapid_fire=False, low=False) == "none"
    assert f.ammunition_after(0, rapid_fire=True, low=False) == "out"
    assert f.ammunition_after(7, rapid_fire=True, low=True) == "low"
    with pytest.raises(ChartLookupError):
        f.ammunition_after(10, rapid_fire=False, low=False)


def test_barrage_check_004_10_94() -> None:
    # the 3rd artillery AM used for a barrage gives +3 (004 §10.94's own example)
    assert C.fire.barrage_check("usa", 6, 3) == "disordered"  # 9 or more
    assert C.fire.barrage_check("usa", 5, 3) == "fires-on"
    assert C.fire.barrage_check("csa", 4, 3) == "disordered"  # 7 or more
    assert C.fire.barrage_check("csa", 8, 2) == "removed"  # above 9
    assert C.fire.barrage_check("csa", 7, 2) == "disordered"  # exactly 9


# --- Range Effects Table (004 chart; 002 §10.16) ------------------------------------------------
def test_range_bands_parse() -> None:
    assert parse_band("1") == (1, 1)
    assert parse_band("5-7") == (5, 7)
    assert parse_band("17+") == (17, None)


def test_range_values_as_printed_in_004() -> None:
    r = C.range
    assert r.drm("M", 1)[0] == 2 and r.drm("M", 2)[0] == -2
    assert [r.drm("R", h)[0] for h in range(1, 6)] == [1, 1, -2, -3, -5]
    assert [r.drm("N", h)[0] for h in (1, 2, 3, 4, 6, 10, 14)] == [4, 2, 1, 0, 0, -1, -3]
    assert r.drm("TC", 50)[0] == -2 and r.max_range("W") == 70
    assert r.weapon("N").rapid_fire and not r.weapon("TB").rapid_fire


def test_range_002_10_16_example_and_e6() -> None:
    # 002 §10.16: R reaches 5 and M 2 with prepared range 1; TDG's own chart gives R a
    # prepared range of 2, kept by decision E-6
    assert C.range.max_range("R") == 5 and C.range.max_range("M") == 2
    assert C.range.prepared_range("M") == 1
    assert C.range.prepared_range("R") == 2
    assert C.range.drm("R", 1)[1].decision == "E-6"
    assert C.range.prepared_range("S") == 0  # the shotgun has no prepared fire (004 note [c])


def test_every_weapon_range_is_reachable_and_beyond_is_refused() -> None:
    for w in C.range.weapons:
        for hexes in range(1, w.max + 1):
            value, prov = C.range.drm(w.code, hexes)
            assert isinstance(value, int) and prov.source
        with pytest.raises(ChartLookupError, match=f"{w.code} reaches {w.max} hexes"):
            C.range.drm(w.code, w.max + 1)
    with pytest.raises(ChartLookupError, match="no weapon code 'Q'"):
        C.range.drm("Q", 1)
    with pytest.raises(ChartLookupError, match="at least 1"):
        C.range.drm("R", 0)


def test_reduced_light_halves_ranges_rounding_up_002_16_11() -> None:
    assert C.range.max_range("R", "dusk") == 3
    assert C.range.max_range("N", "night") == 7
    assert C.range.max_range("R", "day") == 5
    with pytest.raises(ChartLookupError):
        C.range.drm("R", 4, "dawn")


def test_berdan_sharpshooters_004_14_4() -> None:
    assert C.range.max_range("R", unit_rule="berdan-sharpshooters") == 6
    value, prov = C.range.drm("R", 6, unit_rule="berdan-sharpshooters")
    assert value == -2 and prov.source == "004 §14.4"
    assert C.range.drm("R", 5, unit_rule="berdan-sharpshooters")[0] == -5


def test_canister_is_artillery_at_one_to_three_hexes_002_10_67() -> None:
    assert C.range.is_canister("N", 3) and not C.range.is_canister("N", 4)
    assert not C.range.is_canister("R", 1)


# --- Terrain Effects Chart ---------------------------------------------------------------------
def test_every_terrain_has_a_cost_for_every_unit_class() -> None:
    for t in C.terrain.terrain:
        for cls in UNIT_CLASSES:
            cost = C.terrain.move_cost(t.id, cls)
            assert cost.kind in ("enter", "add", "prohibited", "other", "half")
            assert (cost.mp is None) == (cost.kind in ("prohibited", "other", "half"))


def test_terrain_values_as_printed_in_004() -> None:
    tec = C.terrain
    rough = tec.move_cost("rough-woods", "mounted_cavalry")
    assert (rough.kind, rough.mp, rough.disorder) == ("enter", 4, "auto")
    rocky = tec.move_cost("rocky", "artillery")
    assert (rocky.mp, rocky.disorder) == (3, "udd")
    assert tec.move_cost("town", "artillery").kind == "prohibited"
    river = tec.move_cost("river", "infantry")
    assert (river.kind, river.mp, river.disorder) == ("add", 4, "auto")
    assert tec.get("town").fire_drm == -2 and tec.get("town").shock_drm == -2
    cut = tec.get("railroad-cut")
    assert cut.fire_drm == 2 and cut.fire_drm_firing_out == -2  # 004 §9.83
    assert tec.get("down-one-level").shock_drm == 1
    assert tec.move_cost("trail", "artillery").kind == "half"  # E-9
    assert tec.move_cost("road", "infantry").provenance.decision == "E-9"
    with pytest.raises(ChartLookupError, match="no terrain 'lava'"):
        tec.get("lava")


# --- Shock (004 chart; 002 §11.43-11.48) -------------------------------------------------------
def test_shock_ratio_rounding_002_11_43_example() -> None:
    # 5 SP against 3: 2:1 if the attackers moved (and no terrain DRM), else 1.5:1
    assert C.shock.ratio(5, 3, favour_attacker=True).label == "2:1"
    assert C.shock.ratio(5, 3, favour_attacker=False).label == "1.5:1"
    assert C.shock.ratio(3, 5, favour_attacker=True).label == "1:1.5"
    assert C.shock.ratio(3, 5, favour_attacker=False).label == "1:2"
    # clamped to 1:4 ... 5:1
    assert C.shock.ratio(1, 9, favour_attacker=True).label == "1:4"
    assert C.shock.ratio(30, 2, favour_attacker=False).label == "5:1"
    assert C.shock.ratio(12, 12, favour_attacker=False).drm == 0
    with pytest.raises(ChartLookupError, match="above 0"):
        C.shock.ratio(4, 0, favour_attacker=True)


def test_shock_results_004() -> None:
    assert C.shock.result(-7).id == "attacker-retreats"
    assert C.shock.result(1).attacker.retreat == 1
    assert C.shock.result(4).attacker.sp_loss == 1 and C.shock.result(4).defender.sp_loss == 1
    assert C.shock.result(7).defender.retreat == 1
    assert C.shock.result(9).continued_shock == "attacker-may"
    top = C.shock.result(23)
    assert top.defender.retreat == 2 and top.defender.udd_or_rout


def test_every_shock_ratio_and_roll_resolves() -> None:
    ids = [p.id for p in C.shock.position] + [m.id for m in C.shock.modifiers if m.drm is not None]
    for ratio in C.shock.ratios:
        for roll in range(10):
            for extra in range(-12, 13):
                out = C.shock.resolve(ratio.label, roll, extra=extra)
                assert out.modified_roll == roll + ratio.drm + extra
                assert out.result.contains(out.modified_roll)
            assert C.shock.resolve(ratio, roll, ids).result  # every DRM at once
    with pytest.raises(ChartLookupError, match="no ratio '7:1'"):
        C.shock.resolve("7:1", 5)
    with pytest.raises(ChartLookupError, match="0-9"):
        C.shock.resolve("1:1", 10)
    with pytest.raises(ChartLookupError, match="pass it as extra"):
        C.shock.resolve("1:1", 5, ["terrain"])


def test_shock_drms_and_decisions() -> None:
    # E-7: flank +2, rear +3 (004 prints them the other way round), two sides +4, surrounded +5
    assert C.shock.drm(["flank"]) == 2 and C.shock.drm(["rear"]) == 3
    assert C.shock.drm(["front-flank"]) == 4 and C.shock.drm(["surrounded"]) == 5
    # E-8: breastworks -1 in shock once, as terrain (004's -2 not used), -1 on the pre-shock check
    assert C.terrain.get("breastworks").shock_drm == -1
    assert C.terrain.get("breastworks").provenance(C.terrain.root()).decision == "E-8"
    with pytest.raises(ChartLookupError, match="no modifier 'breastworks'"):
        C.shock.drm(["breastworks"])
    assert C.shock.pre_shock_drm(["breastworks"]) == -1
    # 004 lists "+1 downhill" under the attacker's DRMs: the TEC's down-one-level, counted once
    assert C.terrain.get("down-one-level").shock_drm == 1
    assert all("downhill" not in m.id for m in C.shock.modifiers)
    # E-25: the attacker under Advance orders -1 stays
    assert C.shock.drm(["attacker-advance-orders"]) == -1
    # a charge at 2:1 with the aggressive brigadier, roll 4: 4 + 2 + 1 + 1 = 8
    out = C.shock.resolve("2:1", 4, ["charge", "aggressive-brigadier"])
    assert out.modified_roll == 8 and out.result.id == "defender-retreats-continue"


def test_pre_shock_check_e10() -> None:
    # 002 §11.73: minus the stars of every stacked leader (a corps commander gives -3), not 004's -2
    assert C.shock.pre_shock_drm(["disordered"], leader_stars=3) == -1
    assert C.shock.pre_shock_drm(["march-orders", "flank-or-rear"]) == 3
    assert C.shock.pre_shock_drm([], fatigue=3) == 2  # half of 3 rounded up (002 §17.31)
    with pytest.raises(ChartLookupError):
        C.shock.pre_shock_drm(["leader-stars"])


# --- Rally (002 §13.41-13.42) ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("cohesion", "roll", "rallied", "sp_loss"),
    [
        (5, 4, True, 0),  # 002 §13.41 example #1
        (5, 8, False, 0),
        (5, 9, False, 1),
        (4, 4, True, 0),  # example #2
        (4, 5, False, 0),
        (4, 8, False, 1),
    ],
)
def test_rally_examples_002_13_41(cohesion: int, roll: int, rallied: bool, sp_loss: int) -> None:
    res = C.rally.result(roll, cohesion)
    assert (res.rallied, res.sp_loss) == (rallied, sp_loss)


def test_rally_modifiers_and_every_cell() -> None:
    # 002 §11.73's example: a corps commander (three stars) gives -3 to a rally roll
    assert C.rally.result(7, 4, leader_stars=3).rallied
    assert C.rally.result(8, 4, ["adjacent-enemy"]).modified_roll == 9
    # an adjusted 9 or more loses a SP whatever the cohesion (2023 reading of 004's natural 9)
    assert C.rally.result(8, 7, ["adjacent-enemy"]).sp_loss == 1
    for cohesion in range(1, 10):
        for roll in range(10):
            res = C.rally.result(roll, cohesion)
            assert res.rallied == (roll <= cohesion)
    with pytest.raises(ChartLookupError):
        C.rally.result(10, 5)


# --- command charts ----------------------------------------------------------------------------
def test_orders_change_002_6_23_example() -> None:
    # Hackenbush: orders rating -1, roll 4 -> 3 -> Retain
    assert C.orders_change.result(4, orders_rating=-1).id == "retain"
    assert C.orders_change.result(0, orders_rating=0).id == "retain-and-stay"
    assert C.orders_change.result(3, orders_rating=0, modifiers=["with-division-leader"]).id == (
        "loose-cannon"
    )
    assert C.orders_change.result(9, orders_rating=3).id == "change"
    assert C.orders_change.change_to == ("attack", "advance")  # E-3
    for rating in range(-3, 4):
        for roll in range(10):
            C.orders_change.result(
                roll, orders_rating=rating,
                modifiers=["with-division-leader", "with-corps-commander-or-oc"],
            )
    with pytest.raises(ChartLookupError):
        C.orders_change.result(-1, orders_rating=0)


def test_loose_cannon_002_6_24() -> None:
    lc = C.loose_cannon
    reach = lc.resolve("A").reach_mp
    assert reach is not None and (reach.infantry, reach.mounted_cavalry) == (3, 5)
    assert lc.resolve("C").artillery_retreats is False  # E-4: artillery stays (2023)
    assert [lc.resolve("U", r).profile for r in range(10)] == list("AAANNNNCCC")
    with pytest.raises(ChartLookupError, match="needs a d10"):
        lc.resolve("U")
    with pytest.raises(ChartLookupError, match="rolls no die"):
        lc.resolve("N", 3)


def test_brigade_coordination_002_5_34_example() -> None:
    # Smith: coordination rating 2, roll 6 -> 8 -> two brigades
    assert C.coordination.result(6, coordination_rating=2).brigades == 2
    assert C.coordination.result(0, coordination_rating=2).id == "confusion"
    assert C.coordination.result(9, coordination_rating=3).brigades is None  # 12: all
    for rating in range(4):
        for roll in range(10):
            C.coordination.result(roll, coordination_rating=rating)
    with pytest.raises(ChartLookupError, match="0-3"):
        C.coordination.result(5, coordination_rating=4)


def test_orders_summary_002_6_11() -> None:
    march, advance, attack = (C.orders.get(o) for o in ("march", "advance", "attack"))
    assert (march.road_cost, advance.road_cost, attack.road_cost) == ("1/2", "1", "none")
    assert march.stacking.infantry_sp == 7 and attack.stacking.infantry_sp == 15
    assert march.stacking.mounted_cavalry_sp == 4 and advance.stacking.mounted_cavalry_sp == 7
    assert not march.fire and advance.fire and not advance.move_and_fire and attack.move_and_fire
    assert advance.construction and not attack.construction and not march.construction
    # 002 §8.5: extended columns on March, or on Advance along a road; Attack uses no roads
    columns = [o.extended_column for o in (march, advance, attack)]
    assert columns == ["required", "on-roads", "never"]
    assert march.pre_shock_drm == C.shock.pre_shock_drm(["march-orders"])
    with pytest.raises(ChartLookupError):
        C.orders.get("reserve")


# --- Random Events (004 §18.0) -----------------------------------------------------------------
def test_random_events_grid_004() -> None:
    ev = C.random_events
    assert [ev.event(0, r).letter for r in range(10)] == list("BCEFGHIKPS")
    assert [ev.event(9, r).letter for r in range(10)] == list("ACDFJKLNQR")
    assert ev.event(3, 6).letter == "G" and ev.event(6, 6).letter == "M"
    assert {e.letter for e in ev.events} == set("ABCDEFGHIJKLMNOPQRS")
    once = {e.letter for e in ev.events if not e.repeatable}
    assert once == set("CHJMQR")
    assert next(e for e in ev.events if e.letter == "H").sides == ("csa",)
    for first in range(10):
        for second in range(10):
            assert ev.event(first, second).text
    with pytest.raises(ChartLookupError):
        ev.event(10, 0)


def test_random_event_marker_004_18() -> None:
    ev = C.random_events
    assert [ev.who_rolls_for(r) for r in (0, 2, 3, 5, 6, 9)] == ["usa", "usa", "csa", "csa",
                                                                  None, None]
    day1 = dt.date(1863, 7, 1)
    assert not ev.in_pool(day1, 9, "day") and ev.in_pool(day1, 10, "day")
    assert not ev.in_pool(dt.date(1863, 7, 2), 1, "night")


# --- 2nd Disorder Table (002 §12.35-12.36) -----------------------------------------------------
def test_second_disorder_002_12_35() -> None:
    sd = C.second_disorder
    fire_inf, prov = sd.outcome("fire", "infantry")
    assert (fire_inf.sp_loss, fire_inf.retreat) == (1, (1, 2)) and prov.source == "002 §12.35a"
    shock_cav, _ = sd.outcome("shock-result", "mounted-cavalry")
    assert shock_cav.check == "udd" and shock_cav.on_check_fail == "rout"
    assert sd.outcome("terrain", "infantry")[0].stop
    assert sd.outcome("post-shock", "mounted-cavalry")[0].blown
    assert sd.outcome("post-shock", "infantry")[0].sp_loss == 1
    art_fire, _ = sd.outcome("fire", "artillery")  # 002 §12.36: a gun, no retreat
    assert art_fire.sp_loss == 1 and art_fire.retreat is None
    assert sd.outcome("shock-result", "artillery")[0].abandoned
    with pytest.raises(ChartLookupError, match="cannot give artillery"):
        sd.outcome("withdrawal-before-shock", "artillery")
    with pytest.raises(ChartLookupError, match="no cell"):
        sd.outcome("boredom", "infantry")


def test_every_second_disorder_cell_exists() -> None:
    sd = C.second_disorder
    assert len(sd.cells) == len(sd.causes) * len(sd.arms)
    for cause in sd.causes:
        for arm in sd.arms:
            cell = next(c for c in sd.cells if c.cause == cause and c.arm == arm)
            if not cell.not_applicable:
                sd.outcome(cause, arm)


# --- turn track (E-14) and efficiency pools (E-30) ---------------------------------------------
def test_turn_track_fits_every_scenario_of_004() -> None:
    track = C.turn_track
    spans = {s.id: (s.date, s.first_hour, s.last_hour, s.turns) for s in track.scenarios}
    # 004 sc.1-5: 14, 4, 4, 15 and 7 turns
    assert spans["first-day"] == (dt.date(1863, 7, 1), 7, 20, 14)
    assert spans["second-day"] == (dt.date(1863, 7, 2), 5, 19, 15)
    assert spans["third-day"] == (dt.date(1863, 7, 3), 13, 19, 7)
    turns = track.turns()
    assert turns[0].label == "01 Jul 0700"  # 004 sc.6 begins at 0700 on 1 July
    assert track.turn(dt.date(1863, 7, 1), 23).light == "night"  # Meade arrives at 2300
    assert track.turn(dt.date(1863, 7, 2), 5).light == "dawn"
    assert track.turn(dt.date(1863, 7, 1), 20).light == "dusk"
    assert [t.index for t in turns] == list(range(len(turns)))
    assert turns[-1].date == track.campaign_end.date and turns[-1].hour == track.campaign_end.hour
    with pytest.raises(ChartLookupError):
        track.turn(dt.date(1863, 7, 1), 6)


def test_efficiency_pools_cover_every_command() -> None:
    pools = C.efficiency_pools
    for side in pools.sides:
        pool = pools.pool(side.side)
        assert len(pool) >= len(side.commands)
        assert set(pool) <= {1, 2, 3, 4}
        assert pool == tuple(sorted(pool))
    usa = next(s for s in pools.sides if s.side == "usa")
    assert {"buford", "gregg", "kilpatrick", "hunt"} <= {c.id for c in usa.commands}  # 004 §4.13
    assert pools.artillery_am_cap.value == 3  # 004 §4.36
    with pytest.raises(ChartLookupError):
        pools.pool("france")


# --- a malformed file is refused naming the file, the record and the field -----------------------
def _broken_copy(tmp_path: Path, file_name: str, edit: object) -> Path:
    target = tmp_path / "charts"
    shutil.copytree(CHARTS_DIR, target)
    path = target / file_name
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    edit(raw)  # type: ignore[operator]
    path.write_text(yaml.safe_dump(raw, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return target


def _refused(directory: Path) -> DataError:
    with pytest.raises(DataError) as info:
        load_charts(directory)
    return info.value


def test_unknown_field_is_refused(tmp_path: Path) -> None:
    def edit(raw: dict) -> None:  # type: ignore[type-arg]
        raw["rows"][3]["bogus"] = 1

    err = _refused(_broken_copy(tmp_path, "fire.yaml", edit))
    assert err.file.endswith("fire.yaml")
    assert err.record == "rows[roll=1]" and err.field == "bogus"


def test_bad_cell_is_refused(tmp_path: Path) -> None:
    def edit(raw: dict) -> None:  # type: ignore[type-arg]
        raw["rows"][7]["cells"][2] = "x+1"

    err = _refused(_broken_copy(tmp_path, "fire.yaml", edit))
    assert (err.record, err.field) == ("rows[roll=5]", "cells.2")
    assert "not a fire result" in str(err)


def test_substitute_without_basis_is_refused(tmp_path: Path) -> None:
    def edit(raw: dict) -> None:  # type: ignore[type-arg]
        b = next(w for w in raw["weapons"] if w["code"] == "B")
        del b["cells"][0]["basis"]

    err = _refused(_broken_copy(tmp_path, "range.yaml", edit))
    assert err.file.endswith("range.yaml")
    assert err.record == "weapons[code=B].cells[0]" and err.field == "basis"


def test_missing_cell_is_refused(tmp_path: Path) -> None:
    def edit(raw: dict) -> None:  # type: ignore[type-arg]
        raw["cells"] = [c for c in raw["cells"]
                        if not (c["cause"] == "terrain" and c["arm"] == "artillery")]

    err = _refused(_broken_copy(tmp_path, "second_disorder.yaml", edit))
    assert (err.record, err.field) == ("(chart)", "cells")
    assert "terrain x artillery" in str(err)


def test_gap_in_a_roll_table_is_refused(tmp_path: Path) -> None:
    def edit(raw: dict) -> None:  # type: ignore[type-arg]
        raw["results"][2]["min"] = 6  # 5 no longer covered

    err = _refused(_broken_copy(tmp_path, "orders_change.yaml", edit))
    assert err.file.endswith("orders_change.yaml")
    assert (err.record, err.field) == ("results[2]", "min")


def test_bad_source_wrong_chart_and_bad_yaml_are_refused(tmp_path: Path) -> None:
    def edit(raw: dict) -> None:  # type: ignore[type-arg]
        raw["terrain"][1]["source"] = "the rulebook"

    err = _refused(_broken_copy(tmp_path, "terrain.yaml", edit))
    assert (err.record, err.field) == ("terrain[id=rocky]", "source")

    other = tmp_path / "other"
    shutil.copytree(CHARTS_DIR, other)
    shutil.copy(other / "rally.yaml", other / "shock.yaml")
    err = _refused(other)
    assert err.file.endswith("shock.yaml") and err.field in ("results", "chart", "ratios")

    bad = tmp_path / "bad"
    shutil.copytree(CHARTS_DIR, bad)
    (bad / "coordination.yaml").write_text("chart: [unclosed\n", encoding="utf-8")
    err = _refused(bad)
    assert err.file.endswith("coordination.yaml") and err.field == "(yaml)"


def test_a_key_given_twice_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "charts"
    shutil.copytree(CHARTS_DIR, target)
    path = target / "rally.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("sp_loss_at_or_above_roll: 9\n",
                                 "sp_loss_at_or_above_roll: 9\nsp_loss_at_or_above_roll: 8\n"),
                    encoding="utf-8")
    err = _refused(target)
    assert err.file.endswith("rally.yaml") and err.field == "sp_loss_at_or_above_roll"
    assert err.record.startswith("(line ") and "twice" in str(err)


def test_a_refused_file_leaves_the_loaded_charts_alone(tmp_path: Path) -> None:
    def edit(raw: dict) -> None:  # type: ignore[type-arg]
        raw["ratios"].reverse()

    _refused(_broken_copy(tmp_path, "shock.yaml", edit))
    assert all_charts() is C and C.shock.ratios[0].label == "1:4"
