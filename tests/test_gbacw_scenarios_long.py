"""The four long GBACW scenarios of seed 004 as data: First Day (sc.1), Second Day (sc.4),
Third Day (sc.5, with the substitute 1300 deployment of E-13) and the whole battle (sc.6).

Each file loads; every unit, leader and battery named resolves to exactly one OOB record; every
set-up hex is on the scenario's maps and within stacking (002 §8.12); every reinforcement comes
inside the scenario's turns; every corps that fought appears; the substitutes carry their basis;
a bad name is refused naming the file's record and field."""

from __future__ import annotations

import re
import shutil
from collections import Counter as Tally
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
import yaml

from gettysburg.gbacw.board import Board, load_board
from gettysburg.gbacw.charts.datafile import DataError
from gettysburg.gbacw.deployment import (
    LeaderPlacement,
    Placement,
    SetupError,
    _Piece,
    check_scenario,
    place_leaders,
    place_units,
    sections_kept,
    stack_ok,
)
from gettysburg.gbacw.oob import Oob, default_oob
from gettysburg.gbacw.scenario import (
    DATA_DIR,
    SIDE_OF_SEAT,
    Force,
    Scenario,
    Seat,
    SetupLine,
    load_scenario,
    scenario_ids,
    turn_key,
)

LONG = ("first-day", "second-day", "third-day", "battle")
SEATS: tuple[Seat, ...] = ("usa", "csa")
ALL_CORPS = {"US-I", "US-II", "US-III", "US-V", "US-VI", "US-XI", "US-XII", "US-AR", "US-Cav",
             "CS-I", "CS-II", "CS-III", "CS-Cav"}


@pytest.fixture(scope="module")
def oob() -> Oob:
    return default_oob()


@pytest.fixture(scope="module")
def board() -> Board:
    return load_board()


@pytest.fixture(scope="module")
def placed(oob: Oob, board: Board) -> dict[str, dict[Seat, tuple[list[Placement],
                                                                   list[LeaderPlacement]]]]:
    """Every long scenario's set-up on concrete hexes (placed once for the module)."""
    out: dict[str, dict[Seat, tuple[list[Placement], list[LeaderPlacement]]]] = {}
    for sid in LONG:
        scen = load_scenario(sid)
        out[sid] = {seat: (place_units(scen, seat, oob, board),
                           place_leaders(scen, seat, oob, board)) for seat in SEATS}
    return out


# --- helpers -------------------------------------------------------------------------------
def _one(oob: Oob, name: str, seat: Seat, kind: str, within: str | None = None) -> str:
    hits = oob.resolve(name, side=SIDE_OF_SEAT[seat], kind=kind, within=within)
    assert len(hits) == 1, (name, kind, within, hits)
    return str(hits[0]).split(":", 1)[1]


def _units_of(oob: Oob, formation: str) -> set[str]:
    return {f"{u.corps.id}:{u.unit.name}" for u in oob.units
            if formation in (u.formation.id, u.division.id if u.division else "", u.corps.id)}


def _brings(oob: Oob, force: Force, seat: Seat) -> set[str]:
    """The units ('corps:name') a line or a group brings, each name resolved to one record."""
    scope = [_one(oob, f, seat, "formation") for f in force.formations]
    got: set[str] = set()
    for fid in scope:
        got |= _units_of(oob, fid)
    for ref in force.less:
        hits = {h for fid in scope for h in oob.resolve(
            ref.name, side=SIDE_OF_SEAT[seat], kind="unit", within=ref.within or fid)}
        assert len(hits) == 1, (force, ref, hits)
        got -= {h.split(":", 1)[1] for h in hits}
    for ref in force.units:
        got.add(_one(oob, ref.name, seat, "unit", ref.within))
    return got


def _forces(scen: Scenario, seat: Seat) -> list[tuple[str, Force]]:
    return ([(f"setup.{seat}[{ln.id}]", ln) for ln in scen.setup.get(seat, ())]
            + [(f"reinforcements.{seat}[{g.id}]", g) for g in scen.reinforcements.get(seat, ())])


# --- loading and names -----------------------------------------------------------------------
def test_the_four_files_are_listed() -> None:
    assert set(LONG) <= set(scenario_ids())


@pytest.mark.parametrize("sid", LONG)
def test_loads_and_checks_against_oob_and_board(sid: str, oob: Oob, board: Board) -> None:
    scen = load_scenario(sid)
    assert scen.id == sid and scen.source is not None
    check_scenario(scen, oob, board)


@pytest.mark.parametrize("sid", LONG)
def test_every_name_resolves_to_exactly_one_record(sid: str, oob: Oob) -> None:
    """Formations, units (with 'within' where two share a name), units left out, named losses
    and eliminations, leaders and the leaders whose replacement commands."""
    scen = load_scenario(sid)
    for seat in SEATS:
        for label, force in _forces(scen, seat):
            brought = _brings(oob, force, seat)
            for ref in force.eliminated:
                assert _one(oob, ref.name, seat, "unit", ref.within) in brought, label
            for name in force.losses:
                hits = [u for u in brought if u.split(":", 1)[1] == name]
                assert len(hits) == 1, (label, name, hits)
            for lid in force.leaders:
                assert oob.leader(lid), label
            for lid in force.replacement:
                assert lid in force.leaders, (label, lid)
                assert oob.leader(lid).replacement is not None, (label, lid)


# --- set-up: hexes, stacking, areas ------------------------------------------------------------
@pytest.mark.parametrize("sid", LONG)
def test_every_counter_once_on_the_maps(sid: str, oob: Oob, board: Board,
                                        placed: dict[str, Any]) -> None:
    scen = load_scenario(sid)
    ids = {c.id for c in oob.counters()}
    for seat in SEATS:
        units, leaders = placed[sid][seat]
        counters = [p.counter for p in units]
        assert len(counters) == len(set(counters)), f"{seat}: a counter placed twice"
        for p in units:
            assert p.counter in ids
            assert set(board.hexes[board.parse(p.hex)].sheets) & set(scen.maps), p.hex
        names = [lp.leader for lp in leaders]
        assert len(names) == len(set(names)), f"{seat}: a leader placed twice"
        for lp in leaders:
            oob.leader(lp.leader)
            assert set(board.hexes[board.parse(lp.hex)].sheets) & set(scen.maps), lp.hex


@pytest.mark.parametrize("sid", LONG)
def test_placements_respect_stacking_002_8_12(sid: str, oob: Oob, placed: dict[str, Any]) -> None:
    by_counter = {c.id: c for c in oob.counters()}
    units = {(u.corps.id, u.unit.name): u for u in oob.units}
    for seat in SEATS:
        per_hex: dict[str, dict[tuple[str, str], list[Any]]] = defaultdict(dict)
        orders: dict[str, set[str]] = defaultdict(set)
        for p in placed[sid][seat][0]:
            c = by_counter[p.counter]
            key = (c.corps, c.unit) if c.arm in ("art", "horse_art") else (c.corps, c.id)
            per_hex[p.hex].setdefault(key, []).append(c)
            orders[p.hex].add(p.orders)
        for hid, groups in per_hex.items():
            pieces = [_Piece(units[(cs[0].corps, cs[0].unit)], cs) for cs in groups.values()]
            kind = "march" if "march" in orders[hid] else "advance"
            assert stack_ok(pieces, kind), f"{sid} {seat}: {hid} over-stacked"


def _area_ok(line: SetupLine, hid: str, board: Board) -> bool:
    w = line.where
    h = board.parse(hid)
    if w.hex is not None:
        return bool(h == board.parse(w.hex))
    if w.hexes is not None:
        return h in {board.parse(x) for x in w.hexes}
    if w.within is not None:
        return bool(min(h.distance(board.parse(x)) for x in w.within.of) <= w.within.radius)
    return True  # road and line stretches: the placer's own tests cover them


@pytest.mark.parametrize("sid", ("second-day", "third-day"))
def test_every_line_keeps_to_its_area(sid: str, board: Board, placed: dict[str, Any]) -> None:
    """004 sc.4-5: 'within N of HEX' puts every regiment of the brigade within N hexes."""
    scen = load_scenario(sid)
    for seat in SEATS:
        lines = {ln.id: ln for ln in scen.setup[seat]}
        for p in placed[sid][seat][0]:
            assert _area_ok(lines[p.line], p.hex, board), (sid, p.line, p.counter, p.hex)


def test_deployment_is_deterministic(oob: Oob, board: Board, placed: dict[str, Any]) -> None:
    scen = load_scenario("third-day")
    for seat in SEATS:
        assert place_units(scen, seat, oob, board) == placed["third-day"][seat][0]


# --- reinforcements ------------------------------------------------------------------------------
@pytest.mark.parametrize("sid", LONG)
def test_every_reinforcement_turn_is_inside_the_scenario(sid: str) -> None:
    scen = load_scenario(sid)
    lo = turn_key(scen.first_turn)
    hi = turn_key(scen.last_turn) if scen.last_turn else (9, 0)
    for seat in SEATS:
        for g in scen.reinforcements.get(seat, ()):
            for turn in (g.turn, *(a.turn for a in g.later)):
                assert lo <= turn_key(turn) <= hi, (sid, g.id, turn)


@pytest.mark.parametrize(("sid", "day"), [("first-day", 1), ("second-day", 2)])
def test_day_schedules_are_the_campaign_table_for_their_day(sid: str, day: int) -> None:
    """The tables are written once per scenario; a day's groups are the campaign's groups of
    that day within the day's turns (the conditional cavalry of §14.7 is campaign-only)."""
    scen, battle = load_scenario(sid), load_scenario("battle")
    assert scen.last_turn is not None
    lo, hi = turn_key(scen.first_turn), turn_key(scen.last_turn)
    for seat in SEATS:
        mine = {g.id: g.model_dump(exclude={"conditional"}) for g in scen.reinforcements[seat]}
        campaign = {g.id: g.model_dump(exclude={"conditional"})
                    for g in battle.reinforcements[seat] if lo <= turn_key(g.turn) <= hi}
        assert mine == campaign, seat
        assert all(int(g.turn[0]) == day for g in scen.reinforcements[seat])


def test_campaign_table_order_and_conditional_cavalry() -> None:
    battle = load_scenario("battle")
    for seat in SEATS:
        turns = [turn_key(g.turn) for g in battle.reinforcements[seat]]
        assert turns == sorted(turns), seat
    cond = {g.id for seat in SEATS for g in battle.reinforcements[seat] if g.conditional}
    # 004 §14.71 and §14.73: Jenkins, Fitz Lee + Chambliss, Hampton; the Union's 3 July brigades
    assert cond == {"csa-1-1900-jenkins", "csa-2-1600-beckham", "csa-3-0700-hampton",
                    "usa-3-1300-kilpatrick", "usa-3-1300-merritt", "usa-3-1400-gregg",
                    "usa-3-1500-custer"}


def test_cold_start_rows_flagged_e15() -> None:
    for sid in ("first-day", "battle"):
        cold = {g.id for g in load_scenario(sid).reinforcements["csa"] if g.cold_start_only}
        assert cold == {"csa-1-0700-davis-archer", "csa-1-0800-heth"}, sid


def test_rowley_arrival_rolls_004_table_note_b() -> None:
    g = next(g for g in load_scenario("first-day").reinforcements["usa"]
             if g.id == "usa-1-0800-rowley")
    assert g.entry.area == 14 and g.roll == (0, 1) and g.activations == 1
    assert [(a.turn, a.entry.area, a.roll) for a in g.later] == [
        ("1-0900", 13, (0, 4)), ("1-1000", 12, None)]


# --- every corps that fought ---------------------------------------------------------------------
def _engaged(oob: Oob, seat: Seat) -> set[str]:
    return {f"{u.corps.id}:{u.unit.name}" for u in oob.units
            if u.side == SIDE_OF_SEAT[seat] and u.unit.engaged}


def _brought_once(oob: Oob, scen: Scenario, seat: Seat) -> Tally[str]:
    """How often each unit comes; a battery split over lines by ``section`` (004 sc.5's
    Hardaway) counts once when each of its sections comes once."""
    tally: Tally[str] = Tally()
    parts: dict[str, Tally[str]] = defaultdict(Tally)
    forces = [*scen.setup.get(seat, ()),
              *(g for g in scen.reinforcements.get(seat, ()) if not g.cold_start_only)]
    for force in forces:
        split = {_one(oob, r.name, seat, "unit", r.within): r.section
                 for r in force.units if r.section is not None}
        for u in _brings(oob, force, seat):
            if u in split:
                parts[u][str(split[u])] += 1
            else:
                tally[u] += 1
    modes: dict[str, set[str]] = defaultdict(set)
    for c in oob.counters():
        modes[f"{c.corps}:{c.unit}"].add(c.mode)
    for u, secs in parts.items():
        tally[u] += max(secs.values()) if set(secs) == modes[u] else 0
    return tally


def test_campaign_brings_every_engaged_unit_exactly_once(oob: Oob) -> None:
    scen = load_scenario("battle")
    for seat in SEATS:
        tally = _brought_once(oob, scen, seat)
        assert [u for u, n in tally.items() if n > 1] == [], seat
        assert _engaged(oob, seat) - set(tally) == set(), seat
    corps = {u.split(":")[0] for seat in SEATS for u in _brought_once(oob, scen, seat)}
    assert corps == ALL_CORPS


@pytest.mark.parametrize("sid", ("second-day", "third-day"))
def test_day_scenarios_bring_every_corps_and_miss_only_absent_units(sid: str, oob: Oob) -> None:
    """Second Day: all but the units due after its last turn; Third Day: all but the cavalry
    fighting off the map (004 sc.5.5)."""
    scen = load_scenario(sid)
    battle = load_scenario("battle")
    assert scen.last_turn is not None
    later: set[str] = set()
    for seat in SEATS:
        for g in battle.reinforcements[seat]:
            if turn_key(g.turn) > turn_key(scen.last_turn):
                later |= _brings(oob, g, seat)
    for seat in SEATS:
        tally = _brought_once(oob, scen, seat)
        assert [u for u, n in tally.items() if n > 1] == [], (sid, seat)
        missing = _engaged(oob, seat) - set(tally)
        if sid == "second-day":
            assert missing <= later, sorted(missing - later)
        else:
            assert all(u.startswith(("US-Cav:", "CS-Cav:")) for u in missing), sorted(missing)
    corps = {u.split(":")[0] for seat in SEATS for u in _brought_once(oob, scen, seat)}
    assert corps == ALL_CORPS


# --- substitutes -------------------------------------------------------------------------------
CITATION = re.compile(r"00[24] (?:sc\.\d|§)|OR 27|SHSP|Seminar Papers"
                      r"|\b[\w-]+\.(?:com|org|net|gov|edu|is)\b")


@pytest.mark.parametrize("sid", LONG)
def test_every_substitute_is_flagged_with_its_basis(sid: str) -> None:
    scen = load_scenario(sid)
    records: list[Any] = [*scen.special_rules]
    for seat in SEATS:
        records += [f for _, f in _forces(scen, seat)]
    for rec in records:
        if rec.substitute or rec.source == "substitute":
            assert rec.substitute and rec.source == "substitute", rec.id
            assert rec.basis and CITATION.search(rec.basis), (sid, rec.id, rec.basis)


def test_third_day_keeps_the_book_lines_and_substitutes_the_lost_ones(oob: Oob) -> None:
    """E-13: the book's lines are the Confederate guns and the surviving Union lines; every
    Confederate infantry brigade, and the Union I and II Corps, come from the substitute."""
    scen = load_scenario("third-day")
    arms = {f"{u.corps.id}:{u.unit.name}": u.arm for u in oob.units}
    corps_of = {f"{u.corps.id}:{u.unit.name}": u.corps.id for u in oob.units}
    for ln in scen.setup["csa"]:
        brought = _brings(oob, ln, "csa")
        if ln.source == "004 sc.5":
            assert brought and all(arms[u] in ("art", "horse_art") for u in brought), ln.id
        elif any(arms[u] == "inf" for u in brought):
            assert ln.substitute, ln.id
    for ln in scen.setup["usa"]:
        brought = _brings(oob, ln, "usa")
        if any(corps_of[u] in ("US-I", "US-II", "US-AR") for u in brought):
            assert ln.substitute, ln.id
    book = [ln for seat in SEATS for ln in scen.setup[seat] if not ln.substitute]
    subs = [ln for seat in SEATS for ln in scen.setup[seat] if ln.substitute]
    assert len(book) >= 80 and len(subs) >= 80


def test_third_day_puts_the_assault_where_the_record_does(board: Board,
                                                          placed: dict[str, Any]) -> None:
    """Pickett's front line stood about 1,400 yards (11 hexes of 125 yd) from the copse of trees
    (SHSP vol. 37 p. 134); Pettigrew's and Trimble's lines on his left, north of him; Webb at
    the angle; Hays's division nearer the cemetery than Gibbon's."""
    copse = board.parse("B5824")
    at: dict[str, list[Any]] = defaultdict(list)
    for seat in SEATS:
        for p in placed["third-day"][seat][0]:
            at[p.line].append(board.parse(p.hex))
    for line in ("s-garnett", "s-kemper"):
        d = sorted(h.distance(copse) for h in at[line])
        assert d[0] >= 8 and d[-1] <= 14, (line, d)
    pickett_rows = [h.q for h in at["s-garnett"] + at["s-kemper"]]
    for line in ("s-archer", "s-pettigrew", "s-davis", "s-brockenbrough", "s-lane", "s-scales"):
        assert max(h.q for h in at[line]) < min(pickett_rows), line  # XX grows southward
    assert min(h.distance(copse) for h in at["s-webb"]) <= 1
    ziegler = board.parse("B5323")
    assert (min(h.distance(ziegler) for h in at["s-smyth"])
            < min(h.distance(ziegler) for h in at["s-harrow"]))


# --- the books' specifics ----------------------------------------------------------------------
def test_first_day_victory_and_rules_004_sc1() -> None:
    scen = load_scenario("first-day")
    control, ci = scen.victory.conditions
    assert control.kind == "control" and control.seat == "csa"
    assert set(control.hexes) == {"B3821", "B3827", "B3818", "B5013", "B5014", "B4721", "B5020"}
    assert ci.kind == "ci_differential" and [(s.more, s.result) for s in ci.steps] == [
        (1, "draw"), (2, "usa")]
    assert scen.victory.otherwise == "usa" and scen.initiative == "csa"
    assert scen.activation_cap("CS-Heth/III", "1-0700") == 2
    assert scen.activation_cap("US-1/Cav", "1-0700") == 2
    assert any(r.no_events_before == "1-1000" for r in scen.special_rules)


def test_battle_uses_day_one_and_sudden_death_004_sc6() -> None:
    scen, day1 = load_scenario("battle"), load_scenario("first-day")
    assert scen.setup == day1.setup and scen.victory.check == "every_turn"
    csa, usa = scen.victory.conditions
    assert csa.kind == "sudden_death" and csa.enemy_ci_divisions == 12
    last = csa.geographic[-1]
    assert last.hexes == ("C4645",) and last.since == "3-1400"
    assert usa.kind == "sudden_death" and usa.enemy_ci_divisions == 6
    assert usa.from_turn == "2-0500" and usa.clear_road == ("B4721", "C4645")
    assert scen.last_turn == "4-2000" and scen.victory.otherwise == "draw"  # E-14


def test_second_day_breastworks_e18_and_prior_losses(placed: dict[str, Any]) -> None:
    scen = load_scenario("second-day")
    (works,) = scen.breastworks
    assert len(works.hexes) == 19 and works.markers == {"B5013": 2} and works.free == 1
    lines = {ln.id: ln for ln in scen.setup["usa"]}
    # note [a]: PL-23, six of them on the 24 MI (the format adds pl and the named losses)
    assert lines["iron-brigade"].pl == 17 and lines["iron-brigade"].losses == {"24 MI": 6}
    assert lines["ames"].eliminated[0].name == "25 OH" and lines["ames"].ci
    lost = {p.counter: p.sp_lost for p in placed["second-day"]["usa"][0]
            if p.line == "iron-brigade"}
    assert sum(lost.values()) == 23 and lost["US-I:24 MI"] >= 6


def test_victory_points_004_sc4_sc5() -> None:
    for sid in ("second-day", "third-day"):
        (vp,) = load_scenario(sid).victory.conditions
        assert vp.kind == "victory_points"
        got = {o.id: (o.hexes, o.usa, o.csa) for o in vp.objectives}
        assert got["cemetery-hill"] == (("B4720", "B5020", "B5323"), 5, 7)
        assert got["little-round-top"] == (("C2118", "C2219"), 4, 6)
        assert vp.enemy_ci_brigade == 1


# --- refusals ------------------------------------------------------------------------------------
def _copy(tmp_path: Path, sid: str) -> dict[str, Any]:
    shutil.copy(DATA_DIR / f"{sid}.yaml", tmp_path / f"{sid}.yaml")
    doc = yaml.safe_load((tmp_path / f"{sid}.yaml").read_text(encoding="utf-8"))
    assert isinstance(doc, dict)
    return doc


def _write(tmp_path: Path, sid: str, doc: dict[str, Any]) -> Path:
    path = tmp_path / f"{sid}.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    return path


def _line(doc: dict[str, Any], seat: str, ident: str) -> dict[str, Any]:
    line = next(ln for ln in doc["setup"][seat] if ln["id"] == ident)
    assert isinstance(line, dict)
    return line


def test_unknown_formation_names_the_line(tmp_path: Path, oob: Oob, board: Board) -> None:
    doc = _copy(tmp_path, "third-day")
    _line(doc, "csa", "s-garnett")["formations"] = ["Corse's Brigade"]  # stayed in Virginia
    scen = load_scenario(_write(tmp_path, "third-day", doc))
    with pytest.raises(SetupError) as info:
        place_units(scen, "csa", oob, board)
    assert "id=s-garnett" in info.value.record and "formations" in info.value.field
    assert "Corse" in str(info.value)


def test_shared_battery_name_needs_within(tmp_path: Path, oob: Oob, board: Board) -> None:
    """Two batteries are called Madison (Alexander's and Poague's): the bare name is refused."""
    doc = _copy(tmp_path, "third-day")
    _line(doc, "csa", "g-B5733")["units"] = ["Madison"]
    scen = load_scenario(_write(tmp_path, "third-day", doc))
    with pytest.raises(SetupError) as info:
        place_units(scen, "csa", oob, board)
    assert "id=g-B5733" in info.value.record and info.value.field == "units[0]"


def test_unknown_leader_in_a_reinforcement_names_the_group(tmp_path: Path, oob: Oob,
                                                           board: Board) -> None:
    doc = _copy(tmp_path, "second-day")
    group = next(g for g in doc["reinforcements"]["usa"] if g["id"] == "usa-2-1500-sedgwick")
    group["leaders"][0] = "sedgewick"  # the book's spelling is not an OOB id
    scen = load_scenario(_write(tmp_path, "second-day", doc))
    with pytest.raises(SetupError) as info:
        check_scenario(scen, oob, board)
    assert "usa-2-1500-sedgwick" in info.value.record and info.value.field == "leaders[0]"


def test_unit_left_out_of_the_wrong_brigade_is_refused(tmp_path: Path, oob: Oob,
                                                       board: Board) -> None:
    doc = _copy(tmp_path, "first-day")
    _line(doc, "csa", "archer")["less"] = ["11 MS"]  # Davis's regiment, not Archer's
    scen = load_scenario(_write(tmp_path, "first-day", doc))
    with pytest.raises(SetupError) as info:
        place_units(scen, "csa", oob, board)
    assert "id=archer" in info.value.record and "less" in info.value.field


# --- battery sections (004 sc.5) --------------------------------------------------------------
def test_hardaway_sections_stand_apart_004_sc5(placed: dict[str, Any], oob: Oob) -> None:
    """004 sc.5 lists Hardaway's section A at B4232 and section B (its Whitworths) at B2129."""
    units, _ = placed["third-day"]["csa"]
    got = {p.counter: p.hex for p in units if p.counter.startswith("CS-III:Hardaway")}
    assert got == {"CS-III:Hardaway/A": "B4232", "CS-III:Hardaway/B": "B2129"}
    weapons = {c.id: c.weapon for c in oob.counters() if c.id in got}
    assert weapons["CS-III:Hardaway/B"] == "W"


def test_section_left_out_of_a_formation_keeps_the_rest(oob: Oob) -> None:
    line = SetupLine.model_validate({
        "id": "mcintosh", "formations": ["CS-McIntosh/III"],
        "less": [{"name": "Hardaway", "section": "B"}], "where": {"hex": "B4232"}})
    assert sections_kept(line, "csa", oob, "t:setup.csa[id=mcintosh]") == {
        ("CS-III", "Hardaway"): frozenset({"A"})}
    whole = SetupLine.model_validate({"id": "x", "units": ["Hardaway"], "where": {"hex": "B4232"}})
    assert sections_kept(whole, "csa", oob, "t:setup.csa[id=x]") == {}


@pytest.mark.parametrize(("unit", "section", "why"), [
    ("Hardaway", "C", "its sections are A, B"),
    ("Danville", "A", "not a battery of several sections"),
])
def test_unknown_section_names_the_line_and_field(tmp_path: Path, oob: Oob, board: Board,
                                                  unit: str, section: str, why: str) -> None:
    doc = _copy(tmp_path, "third-day")
    _line(doc, "csa", "g-B2129")["units"] = [{"name": unit, "section": section}]
    scen = load_scenario(_write(tmp_path, "third-day", doc))
    with pytest.raises(SetupError) as info:
        place_units(scen, "csa", oob, board)
    assert "id=g-B2129" in info.value.record and info.value.field == "units[0].section"
    assert why in str(info.value)


def test_reinforcements_bring_batteries_whole(tmp_path: Path) -> None:
    doc = _copy(tmp_path, "second-day")
    group = doc["reinforcements"]["usa"][0]
    group["units"] = [*group.get("units", []), {"name": "B/1 RI", "section": "A"}]
    with pytest.raises(DataError) as info:
        load_scenario(_write(tmp_path, "second-day", doc))
    assert "units[" in info.value.field and info.value.field.endswith(".section")
    assert str(group["id"]) in info.value.record


# --- successors without counters (OOB inline replacements) -----------------------------------
@pytest.mark.parametrize(("sid", "line"), [("second-day", "von-gilsa"), ("third-day", "von-gilsa")])
def test_von_gilsas_brigade_under_his_replacement_004_sc4_sc5(sid: str, line: str, oob: Oob,
                                                              placed: dict[str, Any]) -> None:
    """004 prints "v.Gilsa (Rimpiazzo)" with 1/1/XI while von Gilsa has Barlow's division:
    von Gilsa's counter is placed flipped with his brigade (Bourry in command), Barlow's
    flipped at the corps headquarters."""
    ln = next(x for x in load_scenario(sid).setup["usa"] if x.id == line)
    assert ln.leaders == ("von-gilsa",) and ln.replacement == ("von-gilsa",)
    assert oob.replacement_chain("von-gilsa")[1] == "bourry"
    leaders = {lp.leader: lp.line for lp in placed[sid]["usa"][1]}
    assert leaders["von-gilsa"] == line and "barlow" in leaders


def test_latimers_battalion_under_raine_on_3_july(oob: Oob, placed: dict[str, Any]) -> None:
    """Latimer fell on 2 July; the 1300, 3 July substitute puts his battalion under Raine."""
    ln = next(x for x in load_scenario("third-day").setup["csa"] if x.id == "s-latimer")
    assert ln.replacement == ("latimer",) and ln.substitute
    assert oob.replacement_chain("latimer")[1] == "raine"
    second = next(x for x in load_scenario("second-day").setup["csa"] if x.id == "latimer")
    assert second.replacement == ()  # at 0500, 2 July, he still commands
