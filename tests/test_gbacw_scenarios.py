"""GBACW scenario files (004 sc.2 Herr Ridge, 004 sc.3 Little Round Top): loading, names,
hexes, stacking, the placer's areas, and refusals naming file, record and field."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
import yaml

from gettysburg.core.hexes import line as hexline
from gettysburg.gbacw.board import Board, load_board
from gettysburg.gbacw.charts.datafile import DataError
from gettysburg.gbacw.deployment import (
    Placement,
    SetupError,
    _Piece,
    check_scenario,
    place_leaders,
    place_units,
    stack_ok,
)
from gettysburg.gbacw.oob import Oob, default_oob
from gettysburg.gbacw.scenario import DATA_DIR, Scenario, Seat, load_scenario, scenario_ids

MINE = ("herr-ridge", "little-round-top")


@pytest.fixture(scope="module")
def oob() -> Oob:
    return default_oob()


@pytest.fixture(scope="module")
def board() -> Board:
    return load_board()


SEATS: tuple[Seat, ...] = ("usa", "csa")


def _placed(scen: Scenario, oob: Oob, board: Board) -> dict[Seat, list[Placement]]:
    return {seat: place_units(scen, seat, oob, board) for seat in SEATS}


def test_ids_list_my_files() -> None:
    assert set(MINE) <= set(scenario_ids())


@pytest.mark.parametrize("sid", MINE)
def test_files_load_and_every_name_resolves(sid: str, oob: Oob, board: Board) -> None:
    scen = load_scenario(sid)
    assert scen.id == sid
    check_scenario(scen, oob, board)  # raises on any name that is not exactly one record


@pytest.mark.parametrize("sid", MINE)
def test_every_counter_once_and_on_the_maps(sid: str, oob: Oob, board: Board) -> None:
    scen = load_scenario(sid)
    ids = {c.id for c in oob.counters()}
    for seat, placed in _placed(scen, oob, board).items():
        counters = [p.counter for p in placed]
        assert len(counters) == len(set(counters)), f"{seat}: a counter placed twice"
        for p in placed:
            assert p.counter in ids
            info = board.hexes[board.parse(p.hex)]
            assert set(info.sheets) & set(scen.maps), f"{p.hex} off {scen.maps}"
            assert p.hex[0] in scen.maps
            for t in p.extension:  # a column's tail hexes too
                assert set(board.hexes[board.parse(t)].sheets) & set(scen.maps)
        for lp in place_leaders(scen, seat, oob, board):
            oob.leader(lp.leader)
            assert board.hexes[board.parse(lp.hex)].sheets


@pytest.mark.parametrize("sid", MINE)
def test_placements_respect_stacking(sid: str, oob: Oob, board: Board) -> None:
    """002 §8.12: every hex's pieces under their orders pass the limits."""
    scen = load_scenario(sid)
    by_counter = {c.id: c for c in oob.counters()}
    units = {(u.corps.id, u.unit.name): u for u in oob.units}
    for placed in _placed(scen, oob, board).values():
        per_hex: dict[str, dict[tuple[str, str], list[Any]]] = defaultdict(dict)
        orders: dict[str, set[str]] = defaultdict(set)
        for p in placed:
            c = by_counter[p.counter]
            key = (c.corps, c.unit) if c.arm in ("art", "horse_art") else (c.corps, c.id)
            per_hex[p.hex].setdefault(key, []).append(c)
            orders[p.hex].add(p.orders)
        for hid, groups in per_hex.items():
            pieces = [_Piece(units[(cs[0].corps, cs[0].unit)], cs) for cs in groups.values()]
            kind = "march" if "march" in orders[hid] else "advance"
            assert stack_ok(pieces, kind), f"{sid}: {hid} over-stacked"


def test_stacking_limits_002_8_12(oob: Oob) -> None:
    by = {(c.corps, c.id): c for c in oob.counters()}
    units = {(u.corps.id, u.unit.name): u for u in oob.units}

    def piece(cid: str) -> _Piece:
        c = by[(cid.split(":")[0], cid)]
        return _Piece(units[(c.corps, c.unit)], [c])

    davis2, davis42 = piece("CS-III:2 MS"), piece("CS-III:42 MS")  # 10 and 12 SP
    tn1, tn7 = piece("CS-III:1 TN"), piece("CS-III:7 TN")  # 6 and 5 SP, one brigade
    assert stack_ok([davis2], "march")  # one unit of any size
    assert not stack_ok([davis2, davis42], "advance")  # 22 SP > 15
    assert stack_ok([tn1, tn7], "advance")  # 11 SP of one brigade
    assert not stack_ok([tn1, tn7], "march")  # 11 SP > 7 on March
    assert not stack_ok([tn1, davis2], "advance")  # two brigades
    pee_dee, purcell = piece("CS-III:Pee Dee"), piece("CS-III:Purcell")
    assert stack_ok([tn1, pee_dee], "advance")  # infantry plus one battery
    assert not stack_ok([tn1, pee_dee, purcell], "advance")
    assert not stack_ok([tn1, pee_dee], "march")  # no mixing on March
    assert stack_ok([pee_dee, purcell], "march")  # two batteries alone


def _rows(placed: list[Placement], line: str) -> list[Placement]:
    got = [p for p in placed if p.line == line]
    assert got, f"no placement for line {line}"
    return got


def test_herr_ridge_areas_004_sc1(oob: Oob, board: Board) -> None:
    """004 sc.1 set-up: 'within 1 of A3005' puts each counter within 1 hex; single hexes hold."""
    scen = load_scenario("herr-ridge")
    usa = place_units(scen, "usa", oob, board)
    a3005 = board.parse("A3005")
    for p in _rows(usa, "gamble") + _rows(usa, "3-wv"):
        assert board.parse(p.hex).distance(a3005) <= 1
    assert [p.hex for p in _rows(usa, "a-2-us")] == ["A3005"]
    assert [p.hex for p in _rows(usa, "3-in")] == ["A2703"]
    a2314 = board.parse("A2314")
    assert all(board.parse(p.hex).distance(a2314) <= 1 for p in _rows(usa, "8-il"))
    # Gamble's brigade mounted; 3 WV stacked with Buford
    assert all(p.counter.endswith(":mounted") for p in _rows(usa, "gamble"))
    buford = {lp.leader: lp.hex for lp in place_leaders(scen, "usa", oob, board)}["buford"]
    assert [p.hex for p in _rows(usa, "3-wv")] == [buford]
    # Devin's brigade is on sheet B: out of a map-A-only scenario
    assert not [p for p in usa if p.line == "devin"]
    csa = place_units(scen, "csa", oob, board)
    assert [p.hex for p in _rows(csa, "5-al")] == ["A1824"]
    assert all(p.orders == "advance" for p in csa if p.line != "davis")
    davis = _rows(csa, "davis")
    assert all(p.orders == "march" and p.extension for p in davis)  # extended column
    assert davis[0].hex == "A1330"
    assert not any(p.counter.endswith("11 MS") for p in csa)
    assert not any(p.counter.endswith("5 AL Bn") for p in _rows(csa, "archer"))


def test_herr_ridge_rules(oob: Oob, board: Board) -> None:
    scen = load_scenario("herr-ridge")
    assert scen.maps == ("A",) and scen.initiative == "csa"
    assert (scen.first_turn, scen.last_turn) == ("1-0700", "1-1000")
    assert scen.activation_cap("CS-Heth/III", "1-0700") == 2
    assert scen.activation_cap("US-1/Cav", "1-0900") == 3  # E-17
    assert scen.activation_cap("CS-Heth/III", "1-1100") is None
    assert "usa" not in scen.reinforcements
    (cond,) = scen.victory.conditions
    assert cond.kind == "control" and cond.hexes == ("A2512", "A3517")
    assert scen.victory.otherwise == "usa"


def test_little_round_top_north_limit_004_sc3(oob: Oob, board: Board) -> None:
    """Nothing on or north of row 12 of sheet C, except Eshleman's battalion, which the book
    itself sets up within 1 of C1141 (row 11) and lets march south by its road."""
    scen = load_scenario("little-round-top")
    for seat, placed in _placed(scen, oob, board).items():
        for p in placed:
            loc = board.codec.local(board.parse(p.hex), "C")
            assert loc is not None, p.hex
            if p.line == "eshleman":
                assert board.parse(p.hex).distance(board.parse("C1141")) <= 1
            else:
                assert loc[0] > 12, f"{seat} {p.counter} at {p.hex}"


def test_little_round_top_areas_004_sc3(oob: Oob, board: Board) -> None:
    scen = load_scenario("little-round-top")
    csa = place_units(scen, "csa", oob, board)
    for line_id, ends in (("mclaws", ("C1437", "C1935")), ("hood", ("C2035", "C2833"))):
        edge = hexline(board.parse(ends[0]), board.parse(ends[1]))
        for p in _rows(csa, line_id):
            h = board.parse(p.hex)
            assert min(h.distance(e) for e in edge) <= 3
            assert h not in edge  # west of the wood, not in it
    assert not any("1 Richmond How" in p.counter for p in csa)  # less one Richmond battery
    assert len(_rows(csa, "eshleman")) == 6  # "6 units"
    usa = place_units(scen, "usa", oob, board)
    assert {p.hex for p in _rows(usa, "2-1-iii")} == {"C1924", "C2024", "C2122", "C2123",
                                                     "C2124"}
    assert [p.hex for p in _rows(usa, "2-usss")] == ["C2624"]
    assert all(board.parse(p.hex).distance(board.parse("C1627")) <= 1
               for p in _rows(usa, "3-1-iii"))
    assert not scen.options.fatigue


def test_little_round_top_reinforcements(oob: Oob, board: Board) -> None:
    scen = load_scenario("little-round-top")
    groups = {g.id: g for g in scen.reinforcements["usa"]}
    assert (groups["a"].turn, groups["a"].activations) == ("2-1600", 2)
    assert (groups["b"].turn, groups["b"].activations) == ("2-1600", 1)
    assert groups["e"].after == "c"
    assert (groups["f"].turn, groups["f"].printed_time) == ("2-1800", "1840")  # E-19
    assert groups["d"].entry.hex == "C1006"
    assert "csa" not in scen.reinforcements


def test_deployment_is_deterministic(oob: Oob, board: Board) -> None:
    scen = load_scenario("little-round-top")
    assert place_units(scen, "csa", oob, board) == place_units(scen, "csa", oob, board)


# --- refusals ------------------------------------------------------------------------------
def _write(tmp_path: Path, doc: dict[str, Any], name: str = "herr-ridge") -> Path:
    path = tmp_path / f"{name}.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    return path


def _doc() -> dict[str, Any]:
    raw = yaml.safe_load((DATA_DIR / "herr-ridge.yaml").read_text(encoding="utf-8"))
    assert isinstance(raw, dict)
    return raw


def _refused(tmp_path: Path, doc: dict[str, Any]) -> DataError:
    with pytest.raises(DataError) as info:
        load_scenario(_write(tmp_path, doc))
    return info.value


def test_bad_turn_names_field(tmp_path: Path) -> None:
    doc = _doc()
    doc["last_turn"] = "1-25:00"
    err = _refused(tmp_path, doc)
    assert err.file.endswith("herr-ridge.yaml") and err.field == "last_turn"


def test_bad_orders_names_line_and_field(tmp_path: Path) -> None:
    doc = _doc()
    doc["setup"]["csa"][2]["orders"] = "charge"
    err = _refused(tmp_path, doc)
    assert "id=archer" in err.record and err.field == "orders"


def test_two_wheres_refused(tmp_path: Path) -> None:
    doc = _doc()
    doc["setup"]["usa"][2]["where"] = {"hex": "A3005", "hexes": ["A3006"]}
    err = _refused(tmp_path, doc)
    assert "id=a-2-us" in err.record and "where" in err.field


def test_bad_hex_id_refused(tmp_path: Path) -> None:
    doc = _doc()
    doc["victory"]["conditions"][0]["hexes"] = ["A2512", "Z99"]
    err = _refused(tmp_path, doc)
    assert "victory" in err.record or "victory" in err.field


def test_unknown_field_refused(tmp_path: Path) -> None:
    doc = _doc()
    doc["reinforcements"]["csa"][2]["colour"] = "grey"
    err = _refused(tmp_path, doc)
    assert "id=pettigrew-brockenbrough" in err.record and err.field == "colour"


def test_duplicate_line_id_refused(tmp_path: Path) -> None:
    doc = _doc()
    doc["setup"]["csa"][1]["id"] = "pegram"
    err = _refused(tmp_path, doc)
    assert err.field == "id" and "setup.csa" in err.record


def test_substitute_needs_basis(tmp_path: Path) -> None:
    doc = _doc()
    doc["setup"]["usa"][1].update(source="substitute", substitute=True)
    err = _refused(tmp_path, doc)
    assert "id=8-il" in err.record and err.field == "basis"


def test_file_name_must_match_id(tmp_path: Path) -> None:
    with pytest.raises(DataError) as info:
        load_scenario(_write(tmp_path, _doc(), name="other"))
    assert info.value.field == "id"


def test_unknown_unit_names_the_line(tmp_path: Path, oob: Oob, board: Board) -> None:
    doc = _doc()
    doc["setup"]["usa"][3]["units"] = ["99 XX"]
    scen = load_scenario(_write(tmp_path, doc))
    with pytest.raises(SetupError) as info:
        place_units(scen, "usa", oob, board)
    assert "id=3-in" in info.value.record and info.value.field == "units[0]"


def test_ambiguous_name_refused(tmp_path: Path, oob: Oob, board: Board) -> None:
    """A name that means two records (a division and its general) is refused, naming the line."""
    doc = _doc()
    doc["setup"]["csa"][1]["units"] = ["Hood"]  # a division and a leader: not one unit
    scen = load_scenario(_write(tmp_path, doc))
    with pytest.raises(SetupError) as info:
        place_units(scen, "csa", oob, board)
    assert "id=5-al" in info.value.record


def test_area_too_small_refused(tmp_path: Path, oob: Oob, board: Board) -> None:
    doc = _doc()
    doc["setup"]["csa"][2]["where"] = {"hex": "A1627"}  # four regiments, one hex
    scen = load_scenario(_write(tmp_path, doc))
    with pytest.raises(SetupError) as info:
        place_units(scen, "csa", oob, board)
    assert "id=archer" in info.value.record and info.value.field == "where"


def test_off_map_hex_refused(tmp_path: Path, oob: Oob, board: Board) -> None:
    doc = _doc()
    doc["setup"]["usa"][2]["where"] = {"hex": "B3424"}  # sheet B; the scenario uses A only
    scen = load_scenario(_write(tmp_path, doc))
    with pytest.raises(SetupError):
        place_units(scen, "usa", oob, board)




@pytest.mark.parametrize("sid", MINE)
def test_every_line_keeps_to_its_area(sid: str, oob: Oob, board: Board) -> None:
    """Each counter of a line is where the book's instruction puts it."""
    scen = load_scenario(sid)
    for seat, placed in _placed(scen, oob, board).items():
        leaders = place_leaders(scen, seat, oob, board)
        for ln in scen.setup[seat]:
            if ln.id in scen.leave_out.get(seat, ()) or ln.stack_with:
                continue
            hexes = {board.parse(p.hex) for p in placed if p.line == ln.id}
            hexes |= {board.parse(lp.hex) for lp in leaders if lp.line == ln.id}
            assert hexes, f"line {ln.id} placed nothing"
            w = ln.where
            if w.hex is not None:
                assert hexes == {board.parse(w.hex)}
            elif w.hexes is not None:
                assert hexes <= {board.parse(h) for h in w.hexes}
            elif w.within is not None:
                of = [board.parse(h) for h in w.within.of]
                if w.within.line:
                    of = hexline(of[0], of[1])
                assert all(min(h.distance(c) for c in of) <= w.within.radius for h in hexes)
            else:
                ends = w.road or w.line
                assert ends is not None
                a, b = board.parse(ends[0]), board.parse(ends[1])
                assert all(h.distance(a) + h.distance(b) <= a.distance(b) + 2 for h in hexes)


def test_pl_losses_spread_evenly(oob: Oob, board: Board, tmp_path: Path) -> None:
    """Digest §D.2 convention: PL-n spread evenly, the remainder to the biggest, none below
    1 SP; named losses come on top."""
    doc = _doc()
    archer = doc["setup"]["csa"][2]
    archer["pl"] = 6  # 13 AL 6, 1 TN 6, 7 TN 5, 14 TN 4 SP
    archer["losses"] = {"14 TN": 1}
    scen = load_scenario(_write(tmp_path, doc))
    lost = {p.counter.split(":")[1]: p.sp_lost for p in place_units(scen, "csa", oob, board)
            if p.line == "archer"}
    assert lost == {"13 AL": 2, "1 TN": 2, "7 TN": 1, "14 TN": 2}
    archer["pl"] = 40  # more than the brigade has: each keeps 1 SP
    archer["losses"] = {}
    scen = load_scenario(_write(tmp_path, doc))
    by = {c.id: c.sp for c in oob.counters()}
    for p in place_units(scen, "csa", oob, board):
        if p.line == "archer":
            assert by[p.counter] - p.sp_lost == 1


def test_setup_from_follows_and_loops_refused(tmp_path: Path) -> None:
    base = _doc()
    _write(tmp_path, base)
    child = {k: v for k, v in base.items() if k not in ("setup", "leave_out")}
    child.update(id="child", setup_from="herr-ridge")
    scen = load_scenario(_write(tmp_path, child, name="child"))
    assert [ln.id for ln in scen.setup["csa"]][:2] == ["pegram", "5-al"]
    loop = dict(child, id="loop", setup_from="loop")
    with pytest.raises(DataError) as info:
        load_scenario(_write(tmp_path, loop, name="loop"))
    assert info.value.field == "setup_from"


def test_arrival_roll_needs_a_later_chance(tmp_path: Path) -> None:
    doc = _doc()
    group = doc["reinforcements"]["csa"][2]
    group["roll"] = [0, 1]
    err = _refused(tmp_path, doc)
    assert "id=pettigrew-brockenbrough" in err.record and err.field == "later"
    group["later"] = [{"turn": "1-0700", "entry": {"area": 2}}]
    err = _refused(tmp_path, doc)
    assert err.field == "later[0].turn"
    group["later"] = [{"turn": "1-0900", "entry": {"area": 13}, "roll": [0, 4]},
                      {"turn": "1-1000", "entry": {"area": 12}, "activations": 2}]
    scen = load_scenario(_write(tmp_path, doc))
    assert scen.reinforcements["csa"][2].later[1].activations == 2


def test_west_side_of_a_wood(board: Board, oob: Oob) -> None:
    """'within 3 of, and west of, the woods between C1437 and C1935': YY grows westward."""
    scen = load_scenario("little-round-top")
    for p in place_units(scen, "csa", oob, board):
        if p.line == "mclaws":
            assert int(p.hex[3:]) > 35, p.hex


def test_scenario_doc_for_the_command_line() -> None:
    """Issue 51: 'scenario show gbacw/...' gives names, strengths, hexes and times."""
    import json

    from gettysburg.gbacw.scenario_show import scenario_doc, scenario_text

    doc = scenario_doc("little-round-top")
    json.dumps(doc)  # plain JSON
    usa = doc["setup"]["usa"]
    assert {"counter": "US-III:4 NY Bty", "hex": "C2124"}.items() <= next(
        u for u in usa["units"] if u["unit"] == "4 NY Bty").items()
    assert all(u["sp"] >= 1 for u in usa["units"])
    groups = {g["id"]: g for g in doc["reinforcements"]["usa"]}
    assert groups["f"]["turn"] == "2-1800" and groups["f"]["printed_time"] == "1840"
    assert [u["unit"] for u in groups["f"]["units"]] == ["6 ME Bty"]
    assert "C2124" in scenario_text(doc)
    with pytest.raises(ValueError, match="no-such"):
        scenario_doc("no-such")


def test_after_names_a_group_of_the_same_seat(tmp_path: Path) -> None:
    doc = _doc()
    doc["reinforcements"]["csa"][3]["after"] = "nobody"
    err = _refused(tmp_path, doc)
    assert "id=hill" in err.record and err.field == "after"
