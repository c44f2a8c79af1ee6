"""The shipped BoC board: every anchor of spec/boc-facts.md section 3 holds, and the
board file is exactly what the derivation produces from the battlefield model."""

from __future__ import annotations

import itertools
import json

import pytest

from gettysburg.boc.board import BOC, Board, BoardError, load_board
from gettysburg.boc.los import line_of_sight
from gettysburg.boc.mapgen import derive_board
from gettysburg.core.battlefield import load_battlefield
from gettysburg.core.hexes import Hexside

P = BOC.parse


@pytest.fixture(scope="module")
def board() -> Board:
    return load_board()


def test_board_file_matches_the_derivation(board: Board) -> None:
    derived = derive_board(load_battlefield())
    assert json.dumps(derived.to_json(), sort_keys=True) == json.dumps(
        board.to_json(), sort_keys=True
    ), "board.json is stale: run `gettysburg map build --system boc`"


def test_extent_numbers_1_to_14_and_every_seed_hex_exists(board: Board) -> None:
    numbers = {-h.r for h in board.hexes}
    assert numbers == set(range(1, 15))
    seed_hexes = (
        "L4 M4 K4 L5 J5 M5 L6 M6 N6 P9 O9 P10 Q9 Q10 R9 T9 L3 M3 M2 L2 L1 K6 K5 J6 K3 J4 J3 I4 "
        "N5 O6 P6 O5 R7 Q7 S8 T8 P7 Q5 P5 Q6 S6 M11 R12 Q12 S12 U12 T12 H14 G6 G4 E2 F2 G2 G5 "
        "H6 G7 H7 I8 H8 L11 K10 J9 K9 L10 N11 M10 N10 O11 J12 I12 K12 P10 R9 N9 T10 S9 U10 H3 "
        "H2 I3 J3 I7 J8 M9 L9 O10 R11 S11 S13 T12 T13 D5"
    ).split()
    missing = [h for h in seed_hexes if not board.has_hex(h)]
    assert not missing


def test_town_hexes_exactly_and_excluded_hexsides(board: Board) -> None:
    towns = sorted(i.id for i in board.hexes.values() if i.terrain == "town")
    assert towns == ["G5", "G6", "H6", "H7", "I6", "I7"]
    assert "town" not in board.side("J7", "I7").terrain
    assert "town" not in board.side("H7", "G7").terrain
    assert all(board.stacking_limit(t) == 3 for t in towns)


def test_town_hexes_are_level_1(board: Board) -> None:
    """2.3: town buildings add a level, and the rulebooks make every Gettysburg town hex
    level 1: level-0 ground under the buildings (H6 needed an override), no slope between
    town hexes."""
    town = ("I6", "I7", "H6", "H7", "G5", "G6")
    assert {h: board.hex(h).level for h in town} == dict.fromkeys(town, 1)
    for a, b in itertools.combinations(town, 2):
        try:
            side = board.side(a, b)
        except BoardError:
            continue  # not adjacent
        assert side.slope is None, (a, b)


def test_little_round_top_and_devils_den(board: Board) -> None:
    r7, s9 = board.hex("R7"), board.hex("S9")
    assert (r7.terrain, r7.stacking, r7.double_defence) == ("clear", 2, False)
    assert (s9.terrain, s9.stacking, s9.double_defence) == ("rocks", 2, True)
    assert r7.ground == 2  # a hill: Little Round Top rises ~150 ft (2.2 box)


def test_peach_orchard_and_pennsylvania_college(board: Board) -> None:
    q10 = board.hex("Q10")
    assert q10.terrain == "orchard" and not q10.double_defence
    college = [i for i in board.hexes.values() if "Pennsylvania College" in i.names]
    assert len(college) == 1 and college[0].terrain == "woods" and college[0].double_defence
    for info in (q10, college[0]):
        for n in board.neighbours(info.id):
            assert not ({"woods", "orchard"} & board.side(info.id, n).terrain)


def test_seed_stacks_fit_without_overflow_where_the_spec_says(board: Board) -> None:
    # spec section 3: R12 holds four (clear); S12, T12, Q12, I4 three (woods); G5 H6 G6 three.
    assert board.stacking_limit("R12") == 4
    for h in ("S12", "T12", "Q12", "I4"):
        assert board.hex(h).terrain == "woods", h
    for h in ("M4", "L5"):
        assert board.stacking_limit(h) == 4


def test_cemetery_hill_road_change(board: Board) -> None:
    # de 6.5: entering J6 from J5 and leaving to J7 changes road (two main roads).
    a = board.side("J5", "J6").roads
    b = board.side("J6", "J7").roads
    assert a and b
    assert a[0].road_class == b[0].road_class == "main"
    assert {r.road for r in a}.isdisjoint({r.road for r in b})


def test_supply_and_entry_hexes(board: Board) -> None:
    assert "Cashtown Pike" in board.hex("H14").entries
    assert "Baltimore Pike" in board.hex("L1").entries
    for name in ("Taneytown Road", "Emmitsburg Road", "Hanover Road", "Littlestown Road"):
        hexes = board.entry_hexes(name)
        assert len(hexes) == 1 and hexes[0].edge, name


def test_victory_hexes_total_15(board: Board) -> None:
    vh = {i.id: i.victory for i in board.victory_hexes()}
    assert sum(vh.values()) == 15
    assert vh["J6"] == 2 and vh["L3"] == 3 and vh["R7"] == 2 and vh["Q10"] == 1
    assert board.hex("L3").ground == 1  # Powers Hill is a rise, not a hill (2.2 note)
    # Benner Hill is the spec's G2 anchor, where the Day 2 set-up puts the Benner's Hill guns
    # (Jones, Latimer), not the hex the fitted grid gives the crest point (F2).
    assert vh["G2"] == 1 and "F2" not in vh


def test_blochers_knoll_is_a_rise_with_two_flat_hexsides(board: Board) -> None:
    d5 = board.hex("D5")
    assert d5.ground == 1
    flat = [n for n in board.neighbours("D5") if board.side("D5", n).slope is None]
    assert len(flat) == 2


def test_culps_hill_is_a_wooded_hill_level_3(board: Board) -> None:
    assert board.hex("I4").level == 3


@pytest.mark.parametrize(
    ("target", "visible", "d2"),
    [("R12", True, False), ("S12", True, True), ("T12", True, True), ("S11", True, False),
     ("S13", False, False), ("T13", False, False)],
)
def test_line_of_sight_diagram_on_the_real_map(
    board: Board, target: str, visible: bool, d2: bool
) -> None:
    s = line_of_sight(board, P("Q10"), P(target), P("R11"))
    assert (s.visible, s.target_double_defence) == (visible, d2), s.reason


def test_rivers_and_creeks(board: Board) -> None:
    rivers = [k for k, s in board.sides.items() if "river" in s.terrain]
    creeks = [k for k, s in board.sides.items() if "creek" in s.terrain]
    assert len(rivers) >= 10 and len(creeks) >= 10
    # Rock Creek runs east of Culp's Hill: some river hexside touches column 1-3.
    assert any(min(-k.a.r, -k.b.r) <= 3 for k in rivers)


def test_every_road_hexside_joins_adjacent_on_map_hexes(board: Board) -> None:
    for key, s in board.sides.items():
        if s.roads:
            assert key.a in board.hexes and key.b in board.hexes
            assert Hexside.between(key.a, key.b) == key


def test_parse_reads_the_boards_ids_and_still_checks_any_other(board: Board) -> None:
    """``Board.parse`` looks the board's own ids up in a table; other spellings of a hex
    are parsed as before, and ids off the board are still refused."""
    for h, info in board.hexes.items():
        assert board.parse(info.id) == h == P(info.id)
    assert board.parse(" q10 ") == board.parse("Q10")
    for bad in ("A99", "Q0", "10Q", ""):
        with pytest.raises(BoardError):
            board.parse(bad)
