"""Badges of Courage scenarios (9.0): set-ups against the seeds, placement, errors, CLI."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import ClassVar

import pytest
import yaml
from typer.testing import CliRunner

from gettysburg.boc.board import Board, load_board
from gettysburg.boc.oob import DataError, default_oob
from gettysburg.boc.scenario import (
    SCENARIO_DIR,
    Scenario,
    SetupHex,
    list_scenarios,
    load_scenario,
    overflow_candidates,
    parse_hex,
    place_with_overflow,
)

OOB = default_oob()


# --- a small fake board built from the axial rules (boc-facts.md 1 and 3) ---------------------
class FakeBoard:
    """Letters A..W, numbers 1..16; neighbours by the axial rule; stacking per known hexes."""

    SPECIAL: ClassVar[dict[str, int]] = {
        "R7": 2,
        "S9": 2,  # Little Round Top, Devil's Den (2.2)
        **dict.fromkeys(["I6", "I7", "H6", "H7", "G5", "G6"], 3),  # town (2.2)
        **dict.fromkeys(["S12", "T12", "Q12", "I4", "J4", "J3", "I3", "J5"], 3),  # woods
    }

    def has_hex(self, hex_id: str) -> bool:
        m = re.fullmatch(r"([A-W])(\d{1,2})", hex_id)
        return bool(m) and 1 <= int(m.group(2)) <= 16  # type: ignore[union-attr]

    def stacking_limit(self, hex_id: str) -> int:
        return self.SPECIAL.get(hex_id, 4)

    def neighbours(self, hex_id: str) -> list[str]:
        letter, number = parse_hex(hex_id)
        out = []
        for dl, dn in ((0, -1), (0, 1), (-1, 0), (1, 0), (-1, -1), (1, 1)):
            h = f"{chr(65 + letter + dl)}{number + dn}" if 0 <= letter + dl < 26 else ""
            if h and self.has_hex(h):
                out.append(h)
        return out


@pytest.fixture
def board() -> Board:
    """The real, derived BoC map (boc/data/board.json)."""
    return load_board()


@pytest.fixture
def fake_board() -> FakeBoard:
    return FakeBoard()


def test_fake_board_axial_neighbours(fake_board: FakeBoard) -> None:
    assert sorted(fake_board.neighbours("J6")) == sorted(["J5", "J7", "I6", "K6", "I5", "K7"])


# --- the seeds, transcribed (es text; where de differs the spec decision is applied) -----------
# Section header = corps; '*' marks the artillery blocks (italics in de) where a name is shared.
SEED: dict[str, dict[str, list[tuple[str | None, str, str]]]] = {
    "boc/day2": {
        "usa": [
            (None, "L4", "MEADE 2, HUNT 2, PLEASANTON 1"),
            (None, "M4", "Ransom 3, Taft 2, Huntington 3, Fitzhugh 3"),
            ("I", "K4", "ROBINSON 1, Paul 2, Baxter 2"),
            ("I", "L5", "DOUBLEDAY 1, Stannard 4, Rowley 2, Stone 2"),
            ("I", "J5", "WADSWORTH 1, Wainwright 2, Cutler 2"),
            ("II", "M5", "HANCOCK 3, Hazard 3, Zook 2"),
            ("II", "L6", "HAYS 2, Carroll 2, Smyth 3, Willard 3"),
            ("II", "M6", "GIBBON 2, Harrow 3, Webb 3, Hall 2"),
            ("II", "N6", "CALDWELL 2, Cross 2, Kelly 1, Brooke 2"),
            ("III", "P9", "Sckles 2, HUMPHREYS 2, Brewster 4"),
            ("III", "O9", "Carr 4"),
            ("III", "P10", "Burling 3"),
            (None, "Q9", "BIRNEY 2, De Trobriand 3, McGilvrey 3"),
            ("III", "Q10", "Graham 3, Randolph 3"),
            ("III", "R9", "Ward 3"),
            ("III", "T9", "Berdan 2"),
            ("V", "L3", "SYKES 2, MARTIN 3"),
            ("V", "M3", "AYRES 2, Burbank 2, Day 3, Weed 3"),
            ("V", "M2", "CRAWFORD 2, Fisher 3, McCandless 3"),
            ("V", "L2", "BARNES 2, Tilton 2, Sweitzer 3, Vincent 3"),  # es: BARNES 1 (spec: 2)
            ("XI", "K6", "HOWARD 1, SCHURZ 1, Schimmelfennig 1, Krzyzanowski 1"),
            ("XI", "K5", "STEINWEHR 1, Smith 2"),
            ("XI", "J6", "BARLOW 1, Osborn 2, von Gilsa 1, Ames 1"),
            ("XII", "L3", "SLOCUM 2"),
            ("XII", "K3", "Muhlenburg 2, Lockwood 4"),
            ("XII", "J4", "WILLIAMS 2, McDougall 3, Kane 2"),
            ("XII", "J3", "Ruger 3"),
            ("XII", "I4", "GEARY 2, Candy 3, Greene 3"),
        ],
        "csa": [
            (None, "M11", "Lee 3"),
            ("I", "R12", "LONGSTREET 2, McLAWS 2, ALEXANDER 2, Alexander* 3"),
            ("I", "Q12", "Barksdale 3, Wofford 3, Eshleman 2"),
            ("I", "S12", "Semmes 3, Kershaw 4, Cabell 2"),
            ("I", "U12", "HOOD 3, Law 4, Benning 3"),
            ("I", "T12", "Henry 2, Anderson 4, Robertson 3"),
            ("II", "G6", "EWELL 2, Nelson 2"),
            ("II", "G4", "Jenkins 2"),
            ("II", "E2", "JOHNSON 2, Nicholls 2"),
            ("II", "F2", "Walker 3, Stuart 4"),  # de; es: Steuart 2 (spec: 4)
            ("II", "G2", "Jones 3, Latimer 2"),
            ("II", "G5", "EARLY 3, Hoke 3, Jones* 2"),
            ("II", "G4", "Smith 2"),
            ("II", "H6", "Hays 3, Gordon 3, Dance 3"),
            ("II", "G7", "RODES 1, Carter 2"),
            ("II", "H7", "Doles 3"),
            ("II", "I8", "O'Neal 2, Ramseur 2"),
            ("II", "H8", "Daniel 3"),
            ("III", "L11", "HILL 2, Pegram 2"),
            ("III", "K10", "PENDER 2, Garnett* 2"),
            ("III", "J9", "Perrin 3, Lane 2, Poague 2"),
            ("III", "K9", "Thomas 3, McIntosh 2"),  # es; de: L10 Scales 1, Thomas 3 (spec: es)
            ("III", "L10", "Scales 1"),
            ("III", "N11", "ANDERSON 2"),
            ("III", "M10", "Posey 3, Mahone 3, Lane* 2"),
            ("III", "N10", "Perry 1, Wright 3"),
            ("III", "O11", "Wilcox 3"),
            ("III", "J12", "HETH 1"),
            ("III", "I12", "Davis 2, Brockenbrough 1"),
            ("III", "K12", "Archer 2, Pettigrew 3"),
        ],
    },
    "boc/day3": {
        "usa": [
            (None, "L5", "MEADE 1, PLEASANTON 0"),
            (None, "N5", "Ransom 3, Taft 2, Huntington 3, Fitzhugh 3"),
            (None, "M4", "HUNT 2, McGilvrey 1"),
            ("I", "L4", "ROBINSON 1, Paul 2, Baxter 2"),
            ("I", "M6", "DOUBLEDAY 1, Stannard 4, Rowley 2, Stone 2"),
            ("I", "J5", "WADSWORTH 1, Wainwright 2, Cutler 2"),
            ("II", "M5", "HANCOCK 3, Hazard 3, Kelly 1"),
            ("II", "K6", "HAYS 2, Carroll 2, Smyth 3, Willard 3"),
            ("II", "L6", "GIBBON 2, Harrow 3, Webb 3, Hall 1"),
            ("II", "N6", "CALDWELL 1, Cross 1, Brooke 1, Zook 2"),
            ("III", "O6", "Brewster 2, Carr 2, Burling 2"),
            ("III", "P6", "De Trobriand 1, Graham 1, Randolph 2"),
            ("III", "O5", "BIRNEY 1, HUMPHREYS 1, Ward 2, Berdan 1"),
            ("V", "R7", "SYKES 1, MARTIN 2"),
            ("V", "Q7", "CRAWFORD 1, Fisher 2, McCandless 2"),
            ("V", "S8", "AYRES 1, Burbank 1, Day 2"),
            ("V", "T8", "Weed 2"),
            ("V", "P7", "BARNES 1, Tilton 2, Sweitzer 2, Vincent 2"),
            ("VI", "Q5", "SEDGEWICK 2, TOMKINS-1 3, TOMKINS-2 3"),
            ("VI", "P5", "WRIGHT 2, Torbert 2, Bartlett 3, Russell 3"),
            ("VI", "Q6", "NEWTON 2, Shaler 4, Eustis 3, Wheaton 3"),
            ("VI", "S6", "HOWE 1, Grant 4, Neill 4"),
            ("XI", "K5", "HOWARD 1, STEINWEHR 1, Smith 2"),
            ("XI", "K4", "SCHURZ 1, Krzyzanowski 1"),
            ("XI", "J6", "BARLOW 1, Osborn 2, von Gilsa 1, Ames 1"),
            ("XII", "L3", "SLOCUM 1, Lockwood 2"),
            ("XII", "K3", "WILLIAMS 1, Muhlenburg 2, McDougall 2, Ruger 2"),
            ("XII", "J4", "GEARY 1, Candy 2"),
            ("XII", "I4", "Kane 2, Greene 2"),
        ],
        "csa": [
            (None, "M11", "Lee 2"),
            ("I", "Q10", "LONGSTREET 2, ALEXANDER 2"),
            ("I", "P10", "Alexander* 3, Eshleman 2"),
            ("I", "Q9", "McLAWS 2, Cabell 2"),  # es; de prints O9 (spec: es)
            ("I", "O9", "Barksdale 2, Wofford 2"),
            ("I", "R9", "Semmes 2, Kershaw 3"),
            ("I", "N9", "PICKETT 2, Dearing 2"),
            ("I", "N10", "Kemper 3, Armistead 4, Garnett 3"),
            ("I", "T10", "HOOD 2"),
            ("I", "T9", "Law 3"),
            ("I", "S9", "Benning 2"),
            ("I", "U10", "Robertson 2"),
            ("I", "U12", "Anderson 3, Henry 2"),
            ("II", "G6", "EWELL 2, Jones* 2, Hays 2"),
            ("II", "G4", "Jenkins 2"),
            ("II", "H3", "Jones 2, Latimer 1"),
            ("II", "H2", "JOHNSON 1"),
            ("II", "I3", "O'Neal 2, Nicholls 1, Walker 2"),
            ("II", "J3", "Stuart 2, Daniel 2, Smith 1"),
            ("II", "G5", "EARLY 2, Hoke 2"),
            ("II", "H6", "Gordon 3, Dance 3, Nelson 2"),
            ("II", "I8", "RODES 1, Carter 2"),
            ("II", "I7", "Doles 2"),
            ("II", "J8", "Ramseur 1"),
            ("III", "L11", "HILL 2"),
            ("III", "M9", "Garnett* 2, Poague 2"),
            ("III", "J9", "Perrin 3, Thomas 3, McIntosh 2"),
            ("III", "K9", "Scales 2, Lane 3, Pegram 3"),
            ("III", "K10", "TRIMBLE 1"),
            ("III", "N11", "ANDERSON 1"),
            ("III", "M10", "Wright 1, Lane* 2, Posey 3, Mahone 3"),
            ("III", "O10", "Wilcox 2, Perry 1"),
            ("III", "L10", "HETH 1"),
            ("III", "L9", "Archer 2, Pettigrew 3, Davis 3, Brockenbrough 2"),
        ],
    },
}
SEED_ELIMINATED = {
    "boc/day2": {"csa": ["REYNOLDS", "Meredith", "Coster"], "usa": ["Iverson"]},
    "boc/day3": {
        "csa": ["REYNOLDS", "Sckles", "Meredith", "Coster", "Schimmelfennig"],
        "usa": ["IVERSON", "PENDER"],
    },
}
ART = {"artillery", "horse_artillery"}


def resolve(token: str, side: str, corps: str | None) -> str:
    """A printed name -> unit id, using side, corps section, capitals (HQ) and '*' (artillery)."""
    art = token.endswith("*")
    name = token.rstrip("*")
    cands = OOB.by_alias(name, side)  # type: ignore[arg-type]
    if len(cands) > 1:
        is_caps = name.upper() == name and any(c.isalpha() for c in name)
        cands = [u for u in cands if u.is_hq == is_caps] or cands
    if len(cands) > 1 and corps is not None:
        cands = [u for u in cands if u.corps == corps] or cands
    if len(cands) > 1:
        cands = [u for u in cands if (u.type in ART) == art]
    assert len(cands) == 1, (token, side, corps, [u.id for u in cands])
    return cands[0].id


def seed_setup(sid: str, side: str) -> dict[str, set[tuple[str, int]]]:
    out: dict[str, set[tuple[str, int]]] = {}
    for corps, hx, text in SEED[sid][side]:
        for item in text.split(", "):
            name, strength = item.rsplit(" ", 1)
            out.setdefault(hx, set()).add((resolve(name, side, corps), int(strength)))
    return out


def yaml_setup(sc: Scenario, side: str) -> dict[str, set[tuple[str, int]]]:
    out: dict[str, set[tuple[str, int]]] = {}
    for hx, p in sc.setup_units(side):  # type: ignore[arg-type]
        assert p.strength is not None, p.unit
        out.setdefault(hx, set()).add((p.unit, p.strength))
    return out


@pytest.mark.parametrize("sid", ["boc/day2", "boc/day3"])
@pytest.mark.parametrize("side", ["usa", "csa"])
def test_setup_equals_seed_hex_by_hex(sid: str, side: str) -> None:
    sc = load_scenario(sid)
    want, got = seed_setup(sid, side), yaml_setup(sc, side)
    assert sorted(got) == sorted(want)
    for hx in want:
        assert got[hx] == want[hx], hx


@pytest.mark.parametrize("sid", ["boc/day2", "boc/day3"])
def test_eliminated_equal_seed(sid: str) -> None:
    sc = load_scenario(sid)
    got = {(e.unit, e.counts_for) for e in sc.eliminated}
    want = {
        (resolve(n, "usa" if vp == "csa" else "csa", None), vp)
        for vp, names in SEED_ELIMINATED[sid].items()
        for n in names
    }
    assert got == want


def test_spec_decisions() -> None:
    d2, d3 = load_scenario("boc/day2"), load_scenario("boc/day3")
    p2, p3 = d2.placements(), d3.placements()
    assert p2["usa-barnes"] == ("L2", 2)
    assert p2["csa-steuart"] == ("F2", 4)
    assert p2["csa-mcintosh"] == ("K9", 2) and p2["csa-thomas"] == ("K9", 3)
    assert p2["csa-scales"] == ("L10", 1)
    assert p3["csa-mclaws"] == ("Q9", 2) and p3["csa-cabell"] == ("Q9", 2)
    assert p3["csa-steuart"] == ("J3", 2)
    vi = [a for a in d2.arrivals if a.side == "usa"]
    assert {a.hex for a in vi} == {"L1"} and min(a.time for a in vi) == "17:00"
    assert {p.unit for a in vi for p in a.units} == {
        u.id for u in OOB.side("usa") if u.corps == "VI"
    }
    pk = [a for a in d2.arrivals if a.side == "csa"]
    assert [(a.hex, a.time, a.entry) for a in pk] == [("H14", "17:00", "Chambersburg Pike")]
    assert {p.unit for p in pk[0].units} == {
        u.id for u in OOB.side("csa") if u.division == "Pickett" or u.attached_to == "Pickett"
    }
    acting2 = {(a.unit, a.role, a.corps) for a in d2.acting}
    acting3 = {(a.unit, a.role, a.corps) for a in d3.acting}
    assert ("usa-doubleday", "chq", "I") in acting2 and ("usa-doubleday", "chq", "I") in acting3
    assert ("usa-birney", "chq", "III") in acting3


@pytest.mark.parametrize("sid", ["boc/day1", "boc/day2", "boc/day3", "boc/battle"])
def test_setup_hexes_exist_and_placement_is_legal(sid: str, board: Board) -> None:
    sc = load_scenario(sid, board=board)  # validates every hex against the board
    res = place_with_overflow(board, sc.setup)
    placed = {p.unit for side in ("usa", "csa") for _, p in sc.setup_units(side)}  # type: ignore[arg-type]
    assert set(res.positions) == placed
    for hx in set(res.positions.values()):
        stack = res.stack(hx)
        assert board.has_hex(hx)
        assert len(stack) <= board.stacking_limit(hx), (hx, stack)
        assert len({OOB[u].side for u in stack}) == 1, (hx, stack)
    for m in res.moved:
        assert m.placed_hex in board.neighbours(m.named_hex)


@pytest.mark.parametrize("sid", ["boc/day1", "boc/day2", "boc/day3", "boc/battle"])
def test_strengths_within_maximum(sid: str) -> None:
    sc = load_scenario(sid)
    for side in ("usa", "csa"):
        for _, p in sc.setup_units(side):  # type: ignore[arg-type]
            assert p.strength is None or p.strength <= OOB[p.unit].max_strength


def test_day2_and_day3_account_for_every_block() -> None:
    d2, d3 = load_scenario("boc/day2"), load_scenario("boc/day3")
    out = {"usa-buford", "usa-gamble", "usa-devin", "usa-merritt", "usa-calef"}
    # cavalry is absent from both set-ups except Pleasonton (and Jenkins, a II Corps asset)
    cav = {u.id for u in OOB if u.corps == "cavalry"} - out - {"usa-pleasonton"}
    for sc, extra in ((d2, {"csa-trimble"}), (d3, set())):
        seen = {p.unit for side in ("usa", "csa") for _, p in sc.setup_units(side)}  # type: ignore[arg-type]
        seen |= {e.unit for e in sc.eliminated}
        seen |= {p.unit for a in sc.arrivals for p in a.units}
        missing = {u.id for u in OOB} - seen - out - cav - extra
        assert missing == set(), (sc.id, missing)


def test_battle_contains_day1_and_every_block() -> None:
    d1, bt = load_scenario("boc/day1"), load_scenario("boc/battle")
    assert bt.setup == d1.setup
    day1_arrivals = [
        a.model_copy(update={"day": None}) for a in bt.arrivals if a.day == 1 and a.time != "night"
    ]
    assert day1_arrivals == list(d1.arrivals)
    scheduled = {p.unit for side in ("usa", "csa") for _, p in bt.setup_units(side)}  # type: ignore[arg-type]
    scheduled |= {p.unit for a in bt.arrivals if a.option is None for p in a.units}
    not_scheduled = {u.id for u in OOB} - scheduled
    # only the 10.0 roll-to-join brigades and Trimble (replacement DHQ) are never scheduled
    assert not_scheduled == {
        "usa-huey",
        "csa-imboden",
        "csa-robertson-bh",
        "csa-jones-we",
        "csa-trimble",
    }
    ls = [a for a in bt.arrivals if a.option == "longstreet"]
    assert ls and not any(OOB[p.unit].division == "Pickett" for a in ls for p in a.units)
    assert bt.end == "day 3 20:00" and d1.end == "20:00"
    assert (d1.victory.usa_win_max, d1.victory.csa_win_min) == (4, 10)
    assert (bt.victory.usa_win_max, bt.victory.csa_win_min) == (-1, 10)
    assert d1.first_player == "csa" and d1.deploy_order == ("usa", "csa")
    night = [a for a in bt.arrivals if a.time == "night" and a.option is None]
    assert any("usa-hancock" in {p.unit for p in a.units} for a in night)
    for a in night:
        if "usa-gibbon" in {p.unit for p in a.units}:
            assert a.entry in {"Taneytown Road", "Emmitsburg Road", "Littlestown Road"}  # 9.74


def test_cavalry_battle_data() -> None:
    cb = load_scenario("boc/day3").cavalry_battle
    assert cb is not None and cb.optional and cb.deploy_time == "14:00"
    assert {(r.unit, r.min_roll) for r in cb.rolls} == {
        ("usa-huey", 5),
        ("csa-imboden", 6),
        ("csa-robertson-bh", 5),
        ("csa-jones-we", 5),
    }
    assert cb.custer_transfer["unit"] == "usa-custer" and cb.custer_transfer["to"] == "Gregg"
    assert {"usa-buford", "usa-gamble", "usa-devin"} <= set(cb.withdrawn)
    assert "usa-merritt" not in cb.withdrawn
    assert any(t["unit"] == "usa-merritt" and t["to"] == "Kilpatrick" for t in cb.transfers)
    assert "csa-jenkins" in cb.on_map
    off = set(cb.off_map["usa"]) | set(cb.off_map["csa"])
    cav = {u.id for u in OOB if u.type in {"cavalry", "horse_artillery", "cav_dhq"}}
    assert cav - off == {"usa-gamble", "usa-devin", "usa-buford", "usa-calef", "csa-jenkins"}
    fights = {f.name: f for f in cb.fights}
    assert fights["gregg"].unopposed.entry == "Hanover Road"
    assert fights["gregg"].csa_win.entry == "Baltimore Pike"
    assert fights["kilpatrick"].csa_win.entry == "Emmitsburg Road"
    assert fights["gregg"].unopposed.time == "15:00" and fights["gregg"].usa_win.time == "16:00"
    assert cb.rounds == 3 and cb.defender == "usa" and not cb.command_needed and cb.hqs_fire


# --- 9.2 overflow -------------------------------------------------------------------------
def test_overflow_is_deterministic_and_reported(board: Board) -> None:
    setup = {
        "usa": (
            SetupHex.model_validate(
                {"hex": "R7", "units": ["usa-sykes", "usa-martin", "usa-ayres", "usa-weed"]}
            ),
        ),
        "csa": (SetupHex.model_validate({"hex": "P7", "units": ["csa-law"]}),),
    }
    res = place_with_overflow(board, setup)  # type: ignore[arg-type]
    assert res.stack("R7") == ["usa-sykes", "usa-martin"]
    order = overflow_candidates(board, "R7")
    assert order == ["Q7", "Q6", "R6", "S7", "S8", "R8"]
    # Q7 (north) is free: both extra units go there; P7 is CSA and never used
    assert [(m.unit, m.placed_hex) for m in res.moved] == [
        ("usa-ayres", "Q7"),
        ("usa-weed", "Q7"),
    ]
    again = place_with_overflow(board, setup)  # type: ignore[arg-type]
    assert again.positions == res.positions


def test_overflow_skips_enemy_and_full_hexes(board: Board) -> None:
    setup = {
        "usa": (
            SetupHex.model_validate(
                {"hex": "S9", "units": ["usa-ward", "usa-berdan", "usa-graham"]}
            ),
            SetupHex.model_validate(
                {"hex": "R8", "units": ["usa-weed", "usa-day", "usa-burbank", "usa-ayres"]}
            ),
        ),
        "csa": (SetupHex.model_validate({"hex": "R9", "units": ["csa-law"]}),),
    }
    res = place_with_overflow(board, setup)  # type: ignore[arg-type]
    # S9 neighbours in order: R9 (csa), R8 (full), S8 -> S8
    assert res.moved[0].unit == "usa-graham" and res.moved[0].placed_hex == "S8"


# --- broken scenario files ------------------------------------------------------------------
def _raw(sid: str) -> dict:  # type: ignore[type-arg]
    return yaml.safe_load((SCENARIO_DIR / f"{sid}.yaml").read_text(encoding="utf-8"))


def _write(tmp_path: Path, raw: object) -> Path:
    p = tmp_path / "broken.yaml"
    p.write_text(yaml.safe_dump(raw, sort_keys=False), encoding="utf-8")
    return p


def test_unknown_unit_error(tmp_path: Path) -> None:
    raw = _raw("day2")
    raw["setup"]["usa"][0]["units"][0]["unit"] = "usa-custard"
    p = _write(tmp_path, raw)
    with pytest.raises(DataError) as ei:
        load_scenario(p)
    e = ei.value
    assert (e.file, e.entry, e.field) == (str(p), "usa-custard", "setup.usa[0].units[0].unit")
    assert str(p) in str(e) and "usa-custard" in str(e)


def test_unknown_hex_error(tmp_path: Path, board: Board) -> None:
    raw = _raw("day3")
    raw["setup"]["csa"][0]["hex"] = "Z99"
    p = _write(tmp_path, raw)
    with pytest.raises(DataError) as ei:
        load_scenario(p, board=board)
    assert ei.value.entry == "Z99" and ei.value.field == "setup.csa[0].hex"
    raw["setup"]["csa"][0]["hex"] = "W20"  # well-formed but off the board
    p = _write(tmp_path, raw)
    with pytest.raises(DataError) as ei:
        load_scenario(p, board=board)
    assert (ei.value.entry, ei.value.field) == ("W20", "setup.csa[0].hex")


def test_duplicate_unit_in_setup_error(tmp_path: Path) -> None:
    raw = _raw("day2")
    raw["setup"]["usa"][1]["units"].append({"unit": "usa-meade", "strength": 1})
    p = _write(tmp_path, raw)
    with pytest.raises(DataError) as ei:
        load_scenario(p)
    assert ei.value.entry == "usa-meade" and "duplicate" in str(ei.value)
    assert ei.value.field == "setup.usa[1].units[4].unit"


def test_strength_above_maximum_error(tmp_path: Path) -> None:
    raw = _raw("day3")
    raw["setup"]["usa"][0]["units"][0]["strength"] = 4  # Meade: max 3
    p = _write(tmp_path, raw)
    with pytest.raises(DataError) as ei:
        load_scenario(p)
    assert (ei.value.entry, ei.value.field) == ("usa-meade", "setup.usa[0].units[0].strength")


def test_bad_entry_road_error(tmp_path: Path) -> None:
    raw = _raw("day2")
    raw["arrivals"][0]["entry"] = "Yellow Brick Road"
    p = _write(tmp_path, raw)
    with pytest.raises(DataError) as ei:
        load_scenario(p)
    assert ei.value.field == "arrivals.0.entry" and str(p) in str(ei.value)


def test_wrong_side_error(tmp_path: Path) -> None:
    raw = _raw("day2")
    raw["setup"]["csa"][0]["units"][0]["unit"] = "usa-custer"
    p = _write(tmp_path, raw)
    with pytest.raises(DataError, match="usa-custer"):
        load_scenario(p)


# --- CLI ------------------------------------------------------------------------------------
def _app():  # type: ignore[no-untyped-def]
    try:
        from gettysburg.cli import app
    except ImportError:  # the top-level CLI may not be assembled yet
        from gettysburg.cli.scenario_cmd import app

        return app, []
    return app, ["scenario"]


def test_cli_list() -> None:
    app, pre = _app()
    r = CliRunner().invoke(app, [*pre, "list"])
    assert r.exit_code == 0, r.output
    for sid, _, _ in list_scenarios():
        assert sid in r.output


def test_cli_show_json() -> None:
    app, pre = _app()
    r = CliRunner().invoke(app, [*pre, "show", "boc/day2", "--json"])
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert doc["id"] == "boc/day2"
    by_unit = {u["unit"]: u for u in doc["units"]}
    assert by_unit["usa-berdan"]["hex"] == "T9" and by_unit["usa-berdan"]["strength"] == 2
    assert by_unit["usa-berdan"]["rating"] == "A3"
    assert by_unit["csa-alexander-art"]["rating"] in {"A3/1", "B3/1"}
    assert doc["arrivals"][0]["hex"] == "L1" and doc["arrivals"][0]["time"] == "17:00"


def test_cli_show_path_and_error(tmp_path: Path) -> None:
    app, pre = _app()
    r = CliRunner().invoke(app, [*pre, "show", str(SCENARIO_DIR / "day3.yaml"), "--json"])
    assert r.exit_code == 0 and json.loads(r.output)["id"] == "boc/day3"
    raw = _raw("day3")
    raw["setup"]["usa"][0]["units"][0]["unit"] = "usa-nobody"
    p = _write(tmp_path, raw)
    r = CliRunner().invoke(app, [*pre, "show", str(p)])
    assert r.exit_code == 1
    # A bare scenario name, as simulate and game new take it.
    r = CliRunner().invoke(app, [*pre, "show", "day2", "--json"])
    assert r.exit_code == 0 and json.loads(r.output)["id"] == "boc/day2"
    # What the user typed is never read as Rich markup (a traceback, or text dropped).
    for typed in ("boc/[/x]", "[red]y"):
        r = CliRunner().invoke(app, [*pre, "show", typed])
        assert r.exit_code == 1 and typed in r.output, r.output


def test_zero_strength_only_for_hqs(tmp_path: Path) -> None:
    raw = _raw("day3")
    raw["setup"]["usa"][1]["units"][0]["strength"] = 0  # Ransom's artillery at 0
    p = _write(tmp_path, raw)
    with pytest.raises(DataError) as ei:
        load_scenario(p)
    assert (ei.value.entry, ei.value.field) == ("usa-ransom", "setup.usa[1].units[0].strength")
    assert load_scenario("boc/day3").placements()["usa-pleasonton"] == ("L5", 0)


def test_a_new_game_takes_only_the_options_its_sheet_lists() -> None:
    """9.0: each sheet lists its optional rules. A new game with another one is refused by
    name (before, Hancock on Day 2 was accepted and did nothing), in any spelling; the
    engine itself still takes it, so games stored or saved before still load and replay."""
    from gettysburg.boc.game import BocGame
    from gettysburg.server.systems import options_problem

    for scenario, option in (("day2", "hancock"), ("day1", "longstreet"),
                             ("day1", "cavalry_battle"), ("day3", "hancock")):
        problem = options_problem("boc", scenario, [option])
        assert problem is not None and f"option {option!r} is not offered by scenario" \
            f" {scenario} (rule 9.0" in problem, problem
        assert len(BocGame(f"boc/{scenario}", [option]).state.options) == 1  # still taken
    # The spellings of the sheets and of the menu both pass where the sheet lists it.
    for scenario, options in (("day2", ["column_and_line"]),
                              ("day1", ["hancock", "fixed_sequence"]),
                              ("battle", ["longstreet", "cavalry_battle"]), ("day3", [])):
        assert options_problem("boc", scenario, options) is None, (scenario, options)
    # Custom files and systems without per-scenario lists are not second-guessed.
    assert options_problem("boc", "my/own.yaml", ["hancock"]) is None
    assert options_problem("toy", "standard", ["turns=3"]) is None


def test_the_command_line_refuses_a_new_game_with_an_option_its_sheet_lacks(
        tmp_path: Path) -> None:
    from gettysburg.cli import app

    out = tmp_path / "g.json"
    r = CliRunner().invoke(app, ["game", "new", "boc/day2", "--option", "hancock",
                                 "--out", str(out)])
    assert r.exit_code == 2 and "not offered by scenario day2" in r.stderr and not out.exists()
    r = CliRunner().invoke(app, ["simulate", "boc/day1", "--option", "longstreet",
                                 "--games", "1"])
    assert r.exit_code == 2 and "not offered by scenario day1" in r.stderr
