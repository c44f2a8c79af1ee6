"""GBACW line of sight (002 §10.2, 004 §10.23, §9.83): the rulebook's worked examples on
small hand-made boards, the battle book's town example on the derived board, reciprocity and
determinism as properties, and the ``inspect los`` command."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from gettysburg import systems
from gettysburg.cli import app as cli_app
from gettysburg.core.hexes import DIRECTIONS, Hex, Hexside, disc
from gettysburg.gbacw.board import (
    Board,
    BoardError,
    HexInfo,
    RoadOnSide,
    SideInfo,
    board_from_json,
    board_path,
    load_board,
)
from gettysburg.gbacw.los import Sight, line_of_sight, sight_json, trace

BOARD = load_board()
#: Hand-made boards sit on real hexes (round the Diamond) so their ids print.
BASE = Hex(38, 2)
E = DIRECTIONS[0]  # the profiles run along direction 0


def at(k: int, j: int = 0) -> Hex:
    """The hex ``k`` steps along direction 0 and ``j`` along direction 1 from BASE."""
    return BASE + E.scale(k) + DIRECTIONS[1].scale(j)


def make_board(levels: Mapping[Hex, int], terrain: Mapping[Hex, str] | None = None,
               slopes: Mapping[tuple[Hex, Hex], str] | None = None,
               features: Mapping[Hex, tuple[str, ...]] | None = None,
               roads: Mapping[tuple[Hex, Hex], str] | None = None) -> Board:
    """A board of just these hexes; ``slopes`` maps (upper, lower) to a slope class and
    ``roads`` (a, b) to a road class."""
    terrain = terrain or {}
    hexes = {h: HexInfo(id=BOARD.codec.format(h), hex=h, level=lv, height_ft=400.0 + 20 * lv,
                        terrain=terrain.get(h, "open"), features=(features or {}).get(h, ()),
                        sheets=("B",))
             for h, lv in levels.items()}
    sides: dict[Hexside, SideInfo] = {}
    for (up, down), cls in (slopes or {}).items():
        sides[Hexside.between(up, down)] = SideInfo(Hexside.between(up, down), slope=cls,
                                                    uphill=up)
    for (a, b), road in (roads or {}).items():
        key = Hexside.between(a, b)
        name = "Unfinished railroad bed" if road == "bed" else "Test Road"
        old = sides.get(key, SideInfo(key))
        sides[key] = SideInfo(key, slope=old.slope, uphill=old.uphill,
                              roads=(RoadOnSide("trail" if road == "bed" else road, name),))
    return Board(codec=BOARD.codec, layout=BOARD.layout, hexes=hexes, sides=sides)


def los(board: Board, a: Hex, b: Hex, **kw: object) -> Sight:
    s = line_of_sight(board, a, b, **kw)  # type: ignore[arg-type]
    back = line_of_sight(board, b, a, **kw)  # type: ignore[arg-type]
    if not kw:
        assert back.clear == s.clear, "terrain sight is reciprocal (002 §10.25)"
    return s


# --- 002 §10.24: the slope examples (profile D C B A W X Y Z) ---------------------------

# The example's levels, read from its sentences: A 5, W 3 (below the 3.5 average of A and
# X), X 2, Y and Z 1; B, C and D at 6 (B-W averages 4.5, C-X 4), one, two and three hexes
# behind A. The A/W hexside is the non-gradual slope "of height 4" and steep (B-W is also
# blocked by the shadow exception). E, F, G carry the ridge on behind D.
PROFILE = {"G": -6, "F": -5, "E": -4, "D": -3, "C": -2, "B": -1, "A": 0,
           "W": 1, "X": 2, "Y": 3, "Z": 4}
LEVELS = {"G": 6, "F": 6, "E": 6, "D": 6, "C": 6, "B": 6, "A": 5,
          "W": 3, "X": 2, "Y": 1, "Z": 1}
P = {k: at(v) for k, v in PROFILE.items()}
SLOPES = make_board({P[k]: LEVELS[k] for k in P}, slopes={(P["A"], P["W"]): "steep"})


@pytest.mark.parametrize(("firer", "target", "clear", "why"), [
    ("A", "W", True, ""), ("A", "X", True, ""), ("A", "Y", True, ""), ("A", "Z", True, ""),
    ("B", "W", False, "slopes"),  # A (5) midway, above 4.5, steep side towards W
    ("B", "X", True, ""),  # A above 4 but nearer B; the slope midway is 4, not above 4
    ("B", "Y", True, ""), ("B", "Z", True, ""),
    ("C", "W", False, "slopes"),  # A above 4.5 and nearer W
    ("C", "X", False, "slopes"),  # A midway with its steep side towards X
    ("C", "Y", False, "slopes"),  # the A/W hexside midway at 4 > 3.5
    ("C", "Z", True, ""),  # the hexside is nearer C than Z
    ("D", "W", False, "slopes"), ("D", "X", False, "slopes"),
    ("D", "Y", False, "slopes"),  # A midway, non-gradual side towards Y
    ("D", "Z", False, "slopes"),  # the A/W hexside midway at 4 > 3.5
])
def test_slope_examples_of_002_10_24(firer: str, target: str, clear: bool, why: str) -> None:
    s = los(SLOPES, P[firer], P[target])
    assert s.clear is clear, s.reason
    if not clear:
        assert s.rule == "10.24" and why in s.reason


def test_slope_midway_hexside_names_its_height_and_the_average() -> None:
    s = los(SLOPES, P["C"], P["Y"])
    assert "stands at 4" in s.reason and "average level 3.5" in s.reason
    assert s.blocked_at == P["A"]


def test_b_to_w_is_also_a_shadow_case() -> None:
    # 002 §10.24 says B-W is blocked by the slope rule "and also" by the shadow exception:
    # the shadow check alone, with the slope rule out of the way, must agree.
    from gettysburg.gbacw import los as mod

    s = mod.line_of_sight(SLOPES, P["B"], P["W"])
    line = mod._Line(mod.ground(SLOPES), P["B"], P["W"], trace(P["B"], P["W"]), 6, 3,
                     lambda h: SLOPES.hexes[h].level)
    assert not s.clear
    got = mod.shadow(line, lambda h: SLOPES.hexes[h].id)
    assert got is not None and "shadow b" in got[1]


def test_a_midway_hex_counts_as_nearer_only_through_a_non_gradual_slope() -> None:
    # 002 §10.24: U(4) m(3) L(1), m midway above the average 2.5.
    u, m, low = at(0), at(1), at(2)
    levels = {u: 4, m: 3, low: 1}
    s = los(make_board(levels, slopes={(m, low): "minor"}), u, low)
    assert not s.clear and "slopes" in s.reason and s.blocked_at == m
    assert los(make_board(levels), u, low).clear  # gradual: not nearer


def test_a_slope_one_level_above_the_lower_unit_counts_as_gradual() -> None:
    # 002 §10.24 notes: U(3) m(3) L(2), m midway above 2.5 with a minor slope down to L;
    # m is only one level above the lower unit, so the slope is gradual and m not nearer.
    u, m, low = at(0), at(1), at(2)
    assert los(make_board({u: 3, m: 3, low: 2}, slopes={(m, low): "minor"}), u, low).clear
    # Two levels above it the slope counts.
    s = los(make_board({u: 3, m: 3, low: 1}, slopes={(m, low): "minor"}), u, low)
    assert not s.clear and s.blocked_at == m


# --- higher ground, woods, town, orchards (002 §10.23-10.24) -----------------------------

@pytest.mark.parametrize(("terrain", "clear"), [
    ("open", True), ("orchard", True), ("marsh", True),
    ("woods", False), ("rough-woods", False), ("town", False)])
def test_cover_adds_a_level_between_units_on_one_level(terrain: str, clear: bool) -> None:
    a, m, b = at(0), at(1), at(2)
    board = make_board({a: 5, m: 5, b: 5}, terrain={m: terrain})
    s = los(board, a, b)
    assert s.clear is clear
    if not clear:
        assert s.blocked_at == m and "higher ground" in s.reason


def test_higher_ground_between_blocks_and_the_units_stand_on_their_base_level() -> None:
    a, m, b = at(0), at(1), at(2)
    assert not los(make_board({a: 4, m: 6, b: 5}), a, b).clear
    # Woods at the ends do not raise the units (002 §10.23 note 1).
    board = make_board({a: 4, m: 5, b: 4}, terrain={a: "woods", b: "woods"})
    assert not los(board, a, b).clear


def test_canopy_of_002_10_24() -> None:
    a, m, n, b = at(0), at(1), at(2), at(3)
    levels = {a: 3, m: 2, n: 2, b: 3}
    woods = {a: "woods", m: "woods"}
    s = los(make_board(levels, terrain=woods), a, b)
    assert not s.clear and "canopy" in s.reason and s.blocked_at == m
    # Lower than both ends and a non-gradual step down into it: seen over the canopy.
    assert los(make_board(levels, terrain=woods, slopes={(a, m): "minor"}), a, b).clear
    # The firer not in woods: no canopy rule.
    assert los(make_board(levels, terrain={m: "woods"}), a, b).clear


def test_shadow_a_town_next_to_the_lower_unit() -> None:
    u, m, x, low = at(0), at(1), at(2), at(3)
    levels = {u: 5, m: 4, x: 3, low: 3}
    assert los(make_board(levels), u, low).clear
    s = los(make_board(levels, terrain={x: "town"}), u, low)
    assert not s.clear and "shadow a" in s.reason and s.blocked_at == x


def test_shadow_b_steep_drop_to_the_lower_unit() -> None:
    u, x, low = at(0), at(1), at(2)
    levels = {u: 6, x: 5, low: 4}
    s = los(make_board(levels, slopes={(x, low): "steep"}), u, low)
    assert not s.clear and "shadow b" in s.reason and s.blocked_at == x
    # Every hexside from x up to the upper unit equally steep: the cliff is seen down.
    cliff = make_board(levels, slopes={(x, low): "steep", (u, x): "sheer"})
    assert los(cliff, u, low).clear
    # A minor slope casts no shadow.
    assert los(make_board(levels, slopes={(x, low): "minor"}), u, low).clear


def test_intermediate_hill_exception() -> None:
    u, a, b, c, d, low = (at(k) for k in range(6))
    levels = {u: 6, a: 5, b: 6, c: 4, d: 3, low: 2}
    s = los(make_board(levels), u, low, crests=False)
    assert not s.clear and "intermediate hill" in s.reason and s.blocked_at == b
    assert los(make_board({**levels, b: 5}), u, low).clear


# --- crests (002 §10.24 exception 3, the 4406/4505 example) ------------------------------

def _crest_board(behind: tuple[int, ...]) -> tuple[Board, Hex, Hex, Hex]:
    """A on a level-4 top; towards Y (direction 0) the top runs on two hexes, then drops;
    towards Z (direction 1) one hex. ``behind`` gives the levels behind A, direction 3."""
    a = at(0)
    levels = {a: 4, at(1): 4, at(2): 4, at(3): 2, at(4): 1, at(5): 1,  # ... Y at(5)
              at(0, 1): 4, at(0, 2): 3, at(0, 3): 2, at(0, 4): 1}  # Z at(0, 4)
    for k, lv in enumerate(behind, start=1):
        levels[at(-k)] = lv
        levels[at(0, -k)] = lv
    return make_board(levels), a, at(5), at(0, 4)


def test_crest_example_of_002_10_24() -> None:
    board, a, y, z = _crest_board((4, 3, 3))
    s = los(board, a, y)
    assert not s.clear and "crest" in s.reason and s.blocked_at == a
    assert los(board, a, z).clear  # as many level hexes behind A as ahead of it
    assert los(board, a, y, crests=False).clear  # the rule is optional


def test_no_crest_when_the_top_runs_on_behind_or_rises() -> None:
    board, a, y, _ = _crest_board((4, 4, 3))
    assert los(board, a, y).clear
    board, a, y, _ = _crest_board((4, 5, 3))
    assert los(board, a, y).clear


# --- along a hexside (002 §10.27) --------------------------------------------------------

def test_a_line_along_a_hexside_is_blocked_by_either_hex() -> None:
    o = BASE
    t = o + DIRECTIONS[0] + DIRECTIONS[1]
    left, right = o.neighbour(0), o.neighbour(1)
    assert trace(o, t)[1] == tuple(sorted((left, right)))
    levels = {o: 5, left: 5, right: 5, t: 5}
    assert los(make_board(levels), o, t).clear
    for side in (left, right):
        s = los(make_board(levels, terrain={side: "woods"}), o, t)
        assert not s.clear and s.rule == "10.27" and s.blocked_at == side


# --- 004's battle rules ------------------------------------------------------------------

def test_town_does_not_block_along_a_road_004_10_23() -> None:
    row = [at(k) for k in range(4)]
    levels = dict.fromkeys(row, 6)
    town = dict.fromkeys(row, "town")
    assert not los(make_board(levels, terrain=town), row[0], row[3]).clear
    roads = {(row[k], row[k + 1]): "road" for k in range(3)}
    s = los(make_board(levels, terrain=town, roads=roads), row[0], row[3])
    assert s.clear and s.rule == "tdg.10.23"
    # A road broken at one step: the town blocks again.
    del roads[(row[1], row[2])]
    assert not los(make_board(levels, terrain=town, roads=roads), row[0], row[3]).clear
    # Woods still block along a road.
    mixed = {**town, row[1]: "woods"}
    roads = {(row[k], row[k + 1]): "trail" for k in range(3)}
    assert not los(make_board(levels, terrain=mixed, roads=roads), row[0], row[3]).clear


@pytest.mark.parametrize(("a", "b", "clear"), [
    ("B3617", "B3916", False), ("B3619", "B3919", True)])
def test_town_example_of_004_10_23_on_the_derived_board(a: str, b: str, clear: bool) -> None:
    s = los(BOARD, BOARD.parse(a), BOARD.parse(b))
    assert s.clear is clear, s.reason
    if clear:
        assert s.rule == "tdg.10.23"  # seen only thanks to Stratton Street
    else:
        assert s.blocked_at == BOARD.parse("B3817") and BOARD.hex("B3817").terrain == "town"


def test_railroad_cut_004_9_83() -> None:
    row = [at(k) for k in range(4)]
    levels = {row[0]: 5, row[1]: 5, row[2]: 5, row[3]: 5}
    cut = {row[2]: ("railroad-cut",)}
    bed = {(row[k], row[k + 1]): "bed" for k in range(3)}
    off_bed = make_board(levels, features=cut)
    s = los(off_bed, row[0], row[2])
    assert not s.clear and s.rule == "tdg.9.83" and s.blocked_at == row[2]
    assert los(off_bed, row[1], row[2]).clear  # adjacent
    assert los(make_board(levels, features=cut, roads=bed), row[0], row[2]).clear


def test_a_unit_in_a_railroad_cut_stands_a_level_below_its_hex_004_9_83() -> None:
    # O(7) m(6) c(5): from a plain hex at 5, m is not above the average 6; from the cut the
    # unit stands at 4, the average is 5.5 and m (midway, a minor slope two levels above
    # the unit) hides it.
    o, m, c = at(0), at(1), at(2)
    levels = {o: 7, m: 6, c: 5}
    bed = {(o, m): "bed", (m, c): "bed"}
    slope = {(m, c): "minor"}
    assert los(make_board(levels, slopes=slope, roads=bed), o, c).clear
    s = los(make_board(levels, slopes=slope, roads=bed, features={c: ("railroad-cut",)}), o, c)
    assert not s.clear and "slopes" in s.reason and s.blocked_at == m


# --- units in the way (002 §10.26) -------------------------------------------------------

def test_units_block_small_arms_unless_lower_than_both() -> None:
    row = [at(k) for k in range(4)]
    board = make_board(dict.fromkeys(row, 5))
    assert los(board, row[0], row[3]).clear
    s = line_of_sight(board, row[0], row[3], blockers={row[1]}, fire="small_arms")
    assert not s.clear and s.rule == "10.26" and s.blocked_at == row[1]
    valley = make_board({row[0]: 5, row[1]: 3, row[2]: 4, row[3]: 5})
    assert line_of_sight(valley, row[0], row[3], blockers={row[1]}).clear


def test_units_two_levels_apart_and_the_canister_exception() -> None:
    row = [at(k) for k in range(5)]
    board = make_board({row[0]: 7, row[1]: 7, row[2]: 5, row[3]: 5, row[4]: 5})
    # Ends 7 and 5: a unit at the lower level that is not nearer the lower unit is seen
    # over; one nearer it is not.
    assert line_of_sight(board, row[0], row[4], blockers={row[2]}).clear
    assert not line_of_sight(board, row[0], row[4], blockers={row[3]}).clear
    # Artillery two levels above an adjacent unit fires canister over it.
    steep = make_board({row[0]: 7, row[1]: 5, row[2]: 4, row[3]: 4})
    assert line_of_sight(steep, row[0], row[3], blockers={row[1]}, fire="canister").clear
    assert not line_of_sight(steep, row[0], row[3], blockers={row[1]},
                             fire="small_arms").clear


def test_enemies_the_firer_cannot_see_do_not_block_002_10_26() -> None:
    # An enemy in a railroad cut is hidden from the firer (004 §9.83) but the target beyond
    # is in sight: with no friend in the way, the hidden enemy does not block.
    row = [at(k) for k in range(5)]
    board = make_board(dict.fromkeys(row, 5), features={row[2]: ("railroad-cut",)})
    assert not line_of_sight(board, row[0], row[2]).clear
    assert line_of_sight(board, row[0], row[4], blockers={row[2]}, friends=set()).clear
    assert not line_of_sight(board, row[0], row[4], blockers={row[2]},
                             friends={row[2]}).clear
    # A seen enemy blocks.
    assert not line_of_sight(board, row[0], row[4], blockers={row[1]}, friends=set()).clear


def test_shell_fire_is_blocked_only_by_friends_near_the_target() -> None:
    row = [at(k) for k in range(9)]
    board = make_board(dict.fromkeys(row, 5))
    o, t = row[0], row[5]
    for k, blocked in ((2, False), (3, True), (4, True), (6, True), (7, True), (8, False)):
        s = line_of_sight(board, o, t, blockers={row[k]}, fire="shell")
        assert s.clear is not blocked, (k, s.reason)
    # Enemies never block shell fire.
    assert line_of_sight(board, o, t, blockers={row[4]}, friends=set(), fire="shell").clear


# --- properties, determinism, speed-independent checks ------------------------------------

HEXES = sorted(BOARD.hexes)


@st.composite
def board_pairs(draw: st.DrawFn) -> tuple[Hex, Hex]:
    a = draw(st.sampled_from(HEXES))
    b = draw(st.sampled_from([h for h in disc(a, 9) if h in BOARD.hexes]))
    return a, b


@settings(max_examples=300, deadline=None)
@given(board_pairs(), st.booleans())
def test_reciprocal_on_the_derived_board_002_10_25(pair: tuple[Hex, Hex], crests: bool) -> None:
    a, b = pair
    there = line_of_sight(BOARD, a, b, crests=crests)
    back = line_of_sight(BOARD, b, a, crests=crests)
    assert there.clear == back.clear
    assert there.path == tuple(reversed(back.path)) or set(there.path) == set(back.path)


@st.composite
def hand_boards(draw: st.DrawFn) -> tuple[Board, Hex, Hex]:
    cells = [h for h in disc(BASE, 3)]
    levels = {h: draw(st.integers(0, 4)) for h in cells}
    terrain = {h: draw(st.sampled_from(["open", "open", "woods", "town", "orchard"]))
               for h in cells}
    slopes: dict[tuple[Hex, Hex], str] = {}
    for h in cells:
        for n in h.neighbours():
            if n in levels and levels[h] > levels[n] and draw(st.booleans()):
                slopes[(h, n)] = draw(st.sampled_from(["minor", "steep", "sheer"]))
    a = draw(st.sampled_from(cells))
    b = draw(st.sampled_from(cells))
    return make_board(levels, terrain=terrain, slopes=slopes), a, b


@settings(max_examples=300, deadline=None)
@given(hand_boards())
def test_reciprocal_on_random_ground_002_10_25(case: tuple[Board, Hex, Hex]) -> None:
    board, a, b = case
    there, back = line_of_sight(board, a, b), line_of_sight(board, b, a)
    assert there.clear == back.clear, (there.reason, back.reason)


FRESH = board_from_json(json.loads(board_path().read_text(encoding="utf-8")))


@settings(max_examples=100, deadline=None)
@given(board_pairs())
def test_deterministic_and_independent_of_the_cache(pair: tuple[Hex, Hex]) -> None:
    a, b = pair
    assert line_of_sight(BOARD, a, b) == line_of_sight(BOARD, a, b) == line_of_sight(FRESH, a, b)


def test_bad_input_names_the_field() -> None:
    with pytest.raises(BoardError, match="target"):
        line_of_sight(BOARD, BASE, Hex(999, 999))
    with pytest.raises(BoardError, match="fire"):
        line_of_sight(BOARD, BASE, BASE + E, fire="mortar")  # type: ignore[arg-type]


def test_json_of_a_verdict() -> None:
    a, b = BOARD.parse("B3617"), BOARD.parse("B3916")
    doc = sight_json(BOARD, a, b, line_of_sight(BOARD, a, b))
    assert doc["path"] == ["B3617", "B3716", "B3817", "B3916"]
    assert doc["blocked_at"] == "B3817" and doc["clear"] is False and doc["range"] == 3


# --- the command line ---------------------------------------------------------------------

@pytest.fixture
def registered(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(systems._DECLARATIONS, "gbacw", "gettysburg.gbacw.system")
    monkeypatch.delitem(systems._loaded, "gbacw", raising=False)
    yield
    systems._loaded.pop("gbacw", None)


def test_inspect_los_json(registered: None) -> None:
    got = CliRunner().invoke(cli_app, ["inspect", "los", "--system", "gbacw", "B3619", "B3919",
                                       "--json"])
    assert got.exit_code == 0, got.output
    doc = json.loads(got.output)
    assert doc["clear"] is True and doc["rule"] == "tdg.10.23"
    assert doc["path"] == ["B3619", "B3719", "B3819", "B3919"] and "road" in doc["reason"]
    got = CliRunner().invoke(cli_app, ["inspect", "los", "--system", "gbacw", "B3617", "B3916",
                                       "--json"])
    doc = json.loads(got.output)
    assert doc["clear"] is False and doc["rule"] == "10.24" and doc["blocked_at"] == "B3817"


def test_inspect_los_bad_id_and_through(registered: None) -> None:
    got = CliRunner().invoke(cli_app, ["inspect", "los", "--system", "gbacw", "B3619", "B9950",
                                       "--json"])
    assert got.exit_code == 2 and "B9950" in json.loads(got.output)["error"]
    got = CliRunner().invoke(cli_app, ["inspect", "los", "--system", "gbacw", "B3619", "B3919",
                                       "--through", "B3719", "--json"])
    assert got.exit_code == 2 and "--through" in json.loads(got.output)["error"]
