"""BoC movement (6.x, 6.7, 9.72, 9.74, 2.4) on hand-built boards."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from boc_engine_boards import board_doc, merge_sides, road, road_line, write_position
from gettysburg.boc.board import BOC, Board, SideInfo, board_path, load_board
from gettysburg.boc.game import BocGame
from gettysburg.boc.movement import MoveRules, crossing_cost, path_cost, reachable
from gettysburg.boc.state import OFF_MAP, ON_MAP, WITHDRAWN
from gettysburg.core.dice import ScriptedDice
from gettysburg.core.hexes import Hexside
from gettysburg.core.protocol import RuleError

A, B = BOC.parse("K5"), BOC.parse("K6")


def side(*terrain: str, slope: str | None = None, uphill_to_b: bool = True) -> SideInfo:
    return SideInfo(Hexside.between(A, B), frozenset(terrain), slope,
                    (B if uphill_to_b else A) if slope else None)


@pytest.mark.parametrize(("terrain", "slope", "cost"), [
    ((), None, 2), (("woods",), None, 3), (("creek",), None, 3), (("river",), None, 4),
    (("marsh",), None, 5), ((), "rise", 3), ((), "hill", 5), (("woods", "creek"), None, 4),
    (("woods", "river"), None, 5), (("woods",), "rise", 4), (("woods",), "hill", 6),
    (("woods", "river"), "hill", 8), (("orchard",), None, 3), (("town",), None, 3),
])
def test_movement_cost_table_6_4(terrain: tuple[str, ...], slope: str | None,
                                 cost: int) -> None:
    assert crossing_cost(side(*terrain, slope=slope), True) == cost


def test_slopes_cost_only_uphill() -> None:
    assert crossing_cost(side(slope="hill"), False) == 2
    assert crossing_cost(side("woods", slope="rise"), False) == 3


def board(sides: list[dict[str, Any]] | None = None, **hexes: dict[str, Any]) -> Board:
    return Board.from_json(board_doc(hexes=hexes, sides=sides))


def test_cemetery_hill_road_change_costs_three() -> None:
    # de 6.5: enter J6 from J5 along one road, leave to J7 along another: 1 + 1 + 1.
    b = board(merge_sides([road("J5", "J6", "Baltimore Pike")],
                          [road("J6", "J7", "Taneytown Road")]))
    rules = MoveRules(budget=6)
    assert path_cost(b, ["J5", "J6", "J7"], rules) == 3
    assert reachable(b, "J5", rules).cost["J7"] == 3
    same = board(road_line(["J5", "J6", "J7"], "Baltimore Pike"))
    assert path_cost(same, ["J5", "J6", "J7"], rules) == 2


def test_roads_ignore_terrain_and_bridges_continue_them() -> None:
    river = {"a": "K5", "b": "K6", "terrain": ["river", "woods"]}
    creek = {"a": "K6", "b": "K7", "terrain": ["creek", "woods"]}
    b = board(merge_sides([river, creek], [road("K5", "K6", "Pike", crossing="bridge")],
                          road_line(["K6", "K7"], "Lane", "secondary")))
    rules = MoveRules(budget=6)
    assert path_cost(b, ["K5", "K6"], rules) == 1
    assert path_cost(b, ["K5", "K6", "K7"], rules) == 1 + 2 + 1  # secondary + road change
    rail = board([road("K5", "K6", "Railroad", rail=True)])
    assert path_cost(rail, ["K5", "K6"], rules) == 2


def test_artillery_pays_double_off_road_only() -> None:
    b = board(road_line(["K5", "K6", "K7"], "Pike"))
    art = MoveRules(budget=8, multiplier=2)
    assert path_cost(b, ["K5", "K6", "K7"], art) == 2
    assert path_cost(b, ["K5", "L5"], art) == 4
    assert reachable(b, "K5", art).cost["M5"] == 8
    assert "N5" not in reachable(b, "K5", art).cost


def test_a_unit_may_always_move_one_hex() -> None:
    b = board([{"a": n, "b": "K6", "terrain": ["woods", "river"], "slope": "hill",
                "uphill": "K6"} for n in ("K5", "K7", "J6", "L6", "J5", "L7")])
    rules = MoveRules(budget=6)
    assert reachable(b, "K5", rules).path["K6"] == ["K5", "K6"]
    assert path_cost(b, ["K5", "K6"], rules) == 8
    spent = MoveRules(budget=3, one_hex=False)
    assert "K6" not in reachable(b, "K5", spent).cost
    with pytest.raises(RuleError) as err:
        path_cost(b, ["K5", "K6"], spent)
    assert err.value.rule == "6.3"


def test_one_hex_move_in_line_is_priced_off_the_road() -> None:
    """6.4 one hex is always possible; a unit in line (column/line box) may not use the
    road, so the reach reports the off-road price, as the move itself is charged."""
    b = board(merge_sides([{"a": n, "b": "K6", "terrain": ["woods", "river"], "slope": "hill",
                            "uphill": "K6"} for n in ("K5", "K7", "J6", "L6", "J5", "L7")],
                          [road("K5", "K6", "Pike")]))
    line = MoveRules(budget=6, roads=False)
    assert path_cost(b, ["K5", "K6"], line) == 8
    assert reachable(b, "K5", line).cost["K6"] == 8  # old code: 1, the road's price
    assert reachable(b, "K5", MoveRules(budget=6)).cost["K6"] == 1


# --- positions ------------------------------------------------------------------------------
def make(tmp: Path, setup: dict[str, list[tuple[str, list[Any]]]], **kw: Any) -> BocGame:
    engine = {"phase": "movement", "active": "usa", "order": ["usa", "csa"],
              **kw.pop("engine", {})}
    options = kw.pop("options", [])
    dice = kw.pop("dice", [])
    path = write_position(tmp, setup, engine=engine, **kw)
    return BocGame(path, options, 0, ScriptedDice(dice))


def moves(g: BocGame, unit: str) -> dict[str, list[str]]:
    return {a["path"][-1]: a["path"] for a in g.legal_actions(g.state.active)
            if a["type"] == "move" and a["unit"] == unit}


def test_zoc_stops_movement(tmp_path: Path) -> None:
    g = make(tmp_path, {"usa": [("K5", ["usa-harrow"])], "csa": [("K9", ["csa-kemper"])]})
    dests = moves(g, "usa-harrow")
    assert "K8" in dests  # entering the enemy ZOC is allowed, the move ends there
    assert "K8" not in {h for p in dests.values() for h in p[:-1]}
    with pytest.raises(RuleError) as err:
        g.apply({"type": "move", "unit": "usa-harrow", "path": ["K5", "K6", "K7", "K8",
                                                                "L9"]}, "usa")
    assert err.value.rule == "6.3" or err.value.rule == "6.61"


def test_moving_from_zoc_to_zoc_stops(tmp_path: Path) -> None:
    g = make(tmp_path, {"usa": [("K8", ["usa-harrow"])], "csa": [("K9", ["csa-kemper"])]})
    dests = moves(g, "usa-harrow")
    # L9 is next to K9 too: the unit may step there but not go on.
    assert dests["L9"] == ["K8", "L9"]
    with pytest.raises(RuleError) as err:
        g.apply({"type": "move", "unit": "usa-harrow", "path": ["K8", "L9", "M10"]}, "usa")
    assert err.value.rule == "6.61"
    # Leaving the front line for a quiet hex lets it go on.
    assert "K5" in dests


def test_front_line_hexside_lets_two_units_through(tmp_path: Path) -> None:
    g = make(tmp_path, {"usa": [("K7", ["usa-harrow", "usa-webb", "usa-hall"])],
                        "csa": [("K9", ["csa-kemper"])]})
    for uid in ("usa-harrow", "usa-webb"):
        g.apply({"type": "move", "unit": uid, "path": ["K7", "K8"]}, "usa")
    before = g.state_hash()
    with pytest.raises(RuleError) as err:
        g.apply({"type": "move", "unit": "usa-hall", "path": ["K7", "K8"]}, "usa")
    assert err.value.rule == "6.62"
    assert g.state_hash() == before
    assert ["K7", "K8"] not in moves(g, "usa-hall").values()


def test_front_line_hexside_counts_moves_out_as_well_as_in(tmp_path: Path) -> None:
    """6.62: the two crossings of a front-line hexside may be one out and one in."""
    g = make(tmp_path, {"usa": [("K7", ["usa-harrow", "usa-webb"]), ("K8", ["usa-hall"])],
                        "csa": [("K9", ["csa-kemper"])]})
    g.apply({"type": "move", "unit": "usa-hall", "path": ["K8", "K7"]}, "usa")  # out
    g.apply({"type": "move", "unit": "usa-harrow", "path": ["K7", "K8"]}, "usa")  # in
    with pytest.raises(RuleError) as err:
        g.apply({"type": "move", "unit": "usa-webb", "path": ["K7", "K8"]}, "usa")
    assert err.value.rule == "6.62"


def test_units_that_commanded_or_fired_cannot_move(tmp_path: Path) -> None:
    g = make(tmp_path, {"usa": [("K5", ["usa-gibbon", "usa-harrow"])],
                        "csa": [("A14", ["csa-kemper"])]},
             engine={"phase": "command"})
    g.apply({"type": "activate", "hq": "usa-gibbon"}, "usa")
    g.apply({"type": "end_phase"}, "usa")
    g.apply({"type": "end_phase"}, "usa")
    assert g.state.phase == "movement"
    assert moves(g, "usa-gibbon") == {}
    assert moves(g, "usa-harrow")
    with pytest.raises(RuleError) as err:
        g.apply({"type": "move", "unit": "usa-gibbon", "path": ["K5", "K6"]}, "usa")
    assert err.value.rule == "6.1"


def test_stacking_excess_eliminated_at_phase_end(tmp_path: Path) -> None:
    g = make(tmp_path, {"usa": [("K5", ["usa-harrow", "usa-webb", "usa-hall", "usa-gibbon"]),
                                ("K6", ["usa-smyth"])],
                        "csa": [("A14", ["csa-kemper"])]})
    g.apply({"type": "move", "unit": "usa-smyth", "path": ["K6", "K5"]}, "usa")
    assert g.stacking_problems() == ["K5"]
    g.apply({"type": "end_phase"}, "usa")
    assert g.state.units["usa-smyth"].status == "eliminated"  # the last to come in
    assert g.state.losses["usa"] == 1
    assert g.stacking_problems() == []


def test_control_changes_only_at_end_of_player_turn(tmp_path: Path) -> None:
    g = make(tmp_path, {"usa": [("K5", ["usa-harrow"])], "csa": [("K9", ["csa-kemper"])]})
    assert g.state.control.get("K6") == "usa"
    g.apply({"type": "move", "unit": "usa-harrow", "path": ["K5", "L5", "M5"]}, "usa")
    assert g.state.control.get("K5") == "usa" and "M5" not in g.state.control
    g.apply({"type": "end_phase"}, "usa")  # movement -> melee
    g.apply({"type": "end_phase"}, "usa")  # melee -> supply
    assert g.state.control.get("K5") == "usa"
    g.apply({"type": "end_phase"}, "usa")  # end of the USA player turn
    assert g.state.control.get("M5") == "usa" and "K5" not in g.state.control


ENTRY_BOARD = dict(
    hexes={"L1": {"entries": ["Baltimore Pike"]}, "T5": {"entries": ["Taneytown Road"]},
           "A7": {"entries": ["Mummasburg Road"]}, "T9": {"entries": ["Emmitsburg Road"]}},
    sides=merge_sides(road_line(["L1", "L2", "L3", "L4"], "Baltimore Pike"),
                      road_line(["T5", "S5", "R5", "Q5"], "Taneytown Road", "secondary"),
                      road_line(["T9", "S9", "R9"], "Emmitsburg Road"),
                      road_line(["A7", "B7"], "Mummasburg Road")))


def entry_game(tmp: Path, units: list[str], entry: str = "Taneytown Road",
               hex_: str | None = None, **kw: Any) -> BocGame:
    arrival = {"time": "16:00", "side": "usa", "entry": entry, "units": units,
               "designed": True, "basis": "test"}
    if hex_:
        arrival["hex"] = hex_
    return make(tmp, {"usa": [("G2", ["usa-harrow"])], "csa": [("A14", ["csa-kemper"])]},
                board=board_doc(**ENTRY_BOARD), arrivals=[arrival], **kw)


def enters(g: BocGame, unit: str) -> list[dict[str, Any]]:
    return [a for a in g.legal_actions("usa") if a["type"] == "enter" and a["unit"] == unit]


def test_secondary_entry_road_costs_two(tmp_path: Path) -> None:
    g = entry_game(tmp_path, ["usa-cross"])
    opts = g.enter_options("usa-cross")
    assert opts[("T5", "T5")][0] == 2
    assert opts[("T5", "S5")][0] == 4
    assert opts[("T5", "R5")][0] == 6
    assert ("T5", "Q5") not in opts
    main = entry_game(tmp_path, ["usa-cross"], entry="Baltimore Pike", hex_="L1")
    assert main.enter_options("usa-cross")[("L1", "L4")][0] == 4


def test_entry_uses_named_or_adjacent_roads_and_division_integrity(tmp_path: Path) -> None:
    g = entry_game(tmp_path, ["usa-cross", "usa-kelly", "usa-caldwell"])
    used = {a["entry"] for a in enters(g, "usa-cross")}
    assert "T5" in used and "A7" not in used  # Mummasburg Road is not next to Taneytown
    assert used & {"T9", "L1"}  # an adjacent entry road
    other_road = next(e for e in sorted(used) if e != "T5")
    g.apply(next(a for a in enters(g, "usa-cross") if a["entry"] == "T5"), "usa")
    assert {a["entry"] for a in enters(g, "usa-kelly")} == {"T5"}
    bad = next(a for a in enters(g, "usa-kelly") if a["entry"] == "T5")
    with pytest.raises(RuleError) as err:
        g.apply({**bad, "entry": other_road, "path": [other_road]}, "usa")
    assert err.value.rule == "6.7"


def test_entry_into_the_front_line_stops_and_half_hexes_cost_by_terrain(tmp_path: Path
                                                                         ) -> None:
    """6.7: a unit that comes on at an entry hex next to the enemy stops there (the ZOC
    still binds at the edge), and one that comes on at a half hex beside the entry pays
    for that hex's own terrain (3 MP for woods)."""
    arrival = {"time": "16:00", "side": "usa", "entry": "Baltimore Pike", "hex": "L1",
               "units": ["usa-cross"], "designed": True, "basis": "test"}
    b = board_doc(hexes={**ENTRY_BOARD["hexes"], "K1": {"terrain": "woods"}},  # type: ignore[dict-item]
                  sides=ENTRY_BOARD["sides"])  # type: ignore[arg-type]
    quiet = make(tmp_path, {"usa": [("G2", ["usa-harrow"])], "csa": [("A14", ["csa-kemper"])]},
                 board=b, arrivals=[arrival])
    opts = quiet.enter_options("usa-cross")
    assert opts[("L1", "K1")] == (3, ["K1"]) and opts[("L1", "M1")] == (2, ["M1"])
    assert opts[("L1", "L4")][0] == 4  # along the pike: 1 MP a hexside
    near = make(tmp_path, {"usa": [("G2", ["usa-harrow"])], "csa": [("M2", ["csa-kemper"])]},
                board=b, arrivals=[arrival], name="near")
    paths = [p for (e, _), (_, p) in near.enter_options("usa-cross").items() if e == "L1"]
    assert ["L1"] in paths and not [p for p in paths if p[0] == "L1" and len(p) > 1]
    with pytest.raises(RuleError) as err:
        near.apply({"type": "enter", "unit": "usa-cross", "entry": "L1",
                    "path": ["L1", "L2"]}, "usa")
    assert err.value.rule == "6.61"


def test_reinforcements_wait_for_their_hour(tmp_path: Path) -> None:
    arrival = {"time": "17:00", "side": "usa", "entry": "Baltimore Pike", "hex": "L1",
               "units": ["usa-cross"], "designed": True, "basis": "test"}
    g = make(tmp_path, {"usa": [("G2", ["usa-harrow"])], "csa": [("A14", ["csa-kemper"])]},
             board=board_doc(**ENTRY_BOARD), arrivals=[arrival])
    assert enters(g, "usa-cross") == []
    with pytest.raises(RuleError) as err:
        g.apply({"type": "enter", "unit": "usa-cross", "entry": "L1", "path": ["L1"]}, "usa")
    assert err.value.rule == "6.7"


def night_game(tmp: Path, usa: list[tuple[str, list[Any]]], csa: list[tuple[str, list[Any]]],
               **kw: Any) -> BocGame:
    return make(tmp, {"usa": usa, "csa": csa}, board=board_doc(**ENTRY_BOARD),
                engine={"hour": 21, **kw.pop("engine", {})}, **kw)


def test_night_movement_limits(tmp_path: Path) -> None:
    g = night_game(tmp_path, [("K8", ["usa-harrow"]), ("K5", ["usa-webb"])],
                   [("K9", ["csa-kemper"])])
    assert g.state.night and g.state.phase == "movement"
    webb = moves(g, "usa-webb")
    assert "K7" in webb and "J8" not in webb and "L9" not in webb  # 9.72 no front line
    harrow = moves(g, "usa-harrow")
    assert "K7" in harrow  # may leave the front line
    assert "L9" not in harrow and "J8" not in harrow
    with pytest.raises(RuleError) as err:
        g.apply({"type": "move", "unit": "usa-harrow", "path": ["K8", "L9"]}, "usa")
    assert err.value.rule == "6.1"


def test_night_reinforcements_march_along_roads_to_i6(tmp_path: Path) -> None:
    sides = merge_sides(ENTRY_BOARD["sides"],  # type: ignore[arg-type]
                        road_line(["T5", "S5", "R5", "Q5", "P5", "O5", "N5", "M5", "L5",
                                   "K5", "J5", "I5", "I6", "H6"], "Taneytown Road"))
    arrival = {"time": "night", "side": "usa", "entry": "Taneytown Road",
               "units": ["usa-cross"], "designed": True, "basis": "test", "day": 2}
    g = make(tmp_path, {"usa": [("G2", ["usa-harrow"])], "csa": [("A14", ["csa-kemper"])]},
             board=board_doc(hexes=ENTRY_BOARD["hexes"], sides=sides),  # type: ignore[arg-type]
             arrivals=[arrival], engine={"hour": 21})
    dests = {a["path"][-1] for a in enters(g, "usa-cross") if a["entry"] == "T5"}
    assert "I6" in dests and "H6" not in dests  # as far as I6, MPs not counted
    assert "J5" in dests


def test_night_reinforcements_keep_to_their_roads_9_74(tmp_path: Path) -> None:
    """9.74 (es and de alike): the night march follows the Taneytown, Emmitsburg or
    Littlestown roads; a farm lane branching off them is no way forward. The Littlestown
    Road may come on along a road the map names otherwise (here the Baltimore Pike)."""
    hexes = {"T5": {"entries": ["Taneytown Road"]},
             "L1": {"entries": ["Baltimore Pike", "Littlestown Road"]}}
    sides = merge_sides(road_line(["T5", "S5", "R5", "Q5", "P5"], "Taneytown Road"),
                        road_line(["Q5", "Q6", "Q7", "Q8"], "Farm Lane", "secondary"),
                        road_line(["L1", "L2", "L3", "L4"], "Baltimore Pike"),
                        road_line(["L3", "M3", "N3"], "Granite Lane", "secondary"))
    arrivals = [{"time": "night", "side": "usa", "entry": road_, "units": [uid],
                 "designed": True, "basis": "test", "day": 2}
                for road_, uid in (("Taneytown Road", "usa-cross"),
                                   ("Littlestown Road", "usa-kelly"))]
    g = make(tmp_path, {"usa": [("G2", ["usa-harrow"])], "csa": [("A14", ["csa-kemper"])]},
             board=board_doc(hexes=hexes, sides=sides), arrivals=arrivals,
             engine={"hour": 21})
    cross = {a["path"][-1] for a in enters(g, "usa-cross") if a["entry"] == "T5"}
    assert {"R5", "Q5", "P5"} <= cross
    assert not cross & {"Q6", "Q7", "Q8"}  # off the night road (old code: any road)
    kelly = {a["path"][-1] for a in enters(g, "usa-kelly") if a["entry"] == "L1"}
    assert {"L2", "L4"} <= kelly and not kelly & {"M3", "N3"}
    with pytest.raises(RuleError) as err:
        g.apply({"type": "enter", "unit": "usa-cross", "entry": "T5",
                 "path": ["T5", "S5", "R5", "Q5", "Q6"]}, "usa")
    assert err.value.rule == "9.74"


@pytest.mark.skipif(not board_path().exists(), reason="boc/data/board.json not generated yet")
def test_the_night_march_heads_for_i6_and_is_the_ii_corps_alone_9_74() -> None:
    """9.74 on the shipped board: from each entry the march keeps to the road route to I6
    (it may stop short), never down another night road away from it; and only the II
    Corps marches so (Humphreys' III Corps division, also due in the night, does not)."""
    from gettysburg.boc.movement import road_march
    from gettysburg.boc.sequence import NIGHT_ROADS

    board = load_board()
    taneytown = road_march(board, "U6", [], NIGHT_ROADS)
    assert {"T6", "N6", "J6", "I6"} <= set(taneytown)
    assert not set(taneytown) & {"X13", "Q10", "R11", "L1", "H6"}
    assert taneytown["I6"][0] == "U6" and len(taneytown["I6"]) == 13
    emmitsburg = road_march(board, "X13", [], NIGHT_ROADS)
    assert "I6" in emmitsburg and not set(emmitsburg) & {"U6", "L1", "N6"}
    # A forbidden hex (enemy next to the road) cuts the march short, it finds no way round.
    cut = road_march(board, "U6", ["N6"], NIGHT_ROADS)
    assert "O6" in cut and not set(cut) & {"N6", "J6", "I6"}
    battle = BocGame("boc/battle", [], 1)
    marching = {uid for uid, u in battle.state.units.items() if u.night_road}
    assert {"usa-hancock", "usa-gibbon", "usa-cross"} <= marching
    assert not marching & {"usa-humphreys", "usa-brewster", "usa-meade"}


def _leave_and_wait_for_the_night(tmp_path: Path, engine: dict[str, Any]) -> BocGame:
    """Harrow leaves by L1 at 8 PM on Day 2; the game then plays on to the USA's night
    movement phase."""
    g = night_game(tmp_path, [("L1", ["usa-harrow"])], [("A14", ["csa-kemper"])],
                   engine={"hour": 20, **engine}, dice=[6, 6, 1, 1])
    g.apply({"type": "leave_map", "unit": "usa-harrow"}, "usa")
    assert g.state.units["usa-harrow"].status == OFF_MAP
    assert g.state.losses["usa"] == 0  # 2.4 leaving is not a loss
    while not g.state.night:
        g.apply({"type": "end_phase"}, g.to_move()[0])
    while g.state.active != "usa" or g.state.phase != "movement":
        g.apply({"type": "end_phase"}, g.to_move()[0])
    return g


def test_a_unit_that_left_does_not_return_in_a_one_day_scenario(tmp_path: Path) -> None:
    """2.4 (es, the only book with the rule): in a one-day scenario a unit that left the
    map stays off, though a night turn closes the day (9.3); it is withdrawn, not lost."""
    g = _leave_and_wait_for_the_night(tmp_path, {})
    assert enters(g, "usa-harrow") == []
    while not g.is_terminal():
        g.apply({"type": "end_phase"}, g.to_move()[0])
    assert g.state.units["usa-harrow"].status == WITHDRAWN
    assert g.state.losses["usa"] == 0


def test_leaving_the_map_and_returning_at_night(tmp_path: Path) -> None:
    g = night_game(tmp_path, [("L2", ["usa-harrow"])], [("A14", ["csa-kemper"])],
                   engine={"hour": 20})
    g.apply({"type": "move", "unit": "usa-harrow", "path": ["L2", "L1"]}, "usa")
    assert g.state.units["usa-harrow"].hex == "L1"
    # Another day follows this night (last_day 3), so the unit comes back (2.4).
    g2 = _leave_and_wait_for_the_night(tmp_path, {"last_day": 3})
    back = enters(g2, "usa-harrow")
    assert back and {a["entry"] for a in back} == {"L1"}
    g2.apply(back[0], "usa")
    assert g2.state.units["usa-harrow"].status == ON_MAP


def test_units_off_map_when_the_battle_ends_are_withdrawn(tmp_path: Path) -> None:
    g = night_game(tmp_path, [("L1", ["usa-harrow"])], [("A14", ["csa-kemper"])],
                   engine={"hour": 20}, end="20:00", day=1, start="08:00",
                   bands=(10, 4))
    g.apply({"type": "leave_map", "unit": "usa-harrow"}, "usa")
    while not g.is_terminal():
        g.apply({"type": "end_phase"}, g.to_move()[0])
    assert g.state.units["usa-harrow"].status == WITHDRAWN
    assert g.state.losses["usa"] == 0


def test_column_line_option(tmp_path: Path) -> None:
    b = board_doc(sides=road_line(["K5", "K6", "K7", "K8", "K9", "K10", "K11", "K12"], "Pike"))
    g = make(tmp_path, {"usa": [("K5", ["usa-harrow"]), ("K7", ["usa-webb"])],
                        "csa": [("A14", ["csa-kemper"])]}, board=b, options=["column_line"])
    # In line the road is no use: 6 MP of clear hexsides.
    assert max(len(p) for p in moves(g, "usa-harrow").values()) <= 4
    g.apply({"type": "formation", "unit": "usa-harrow", "column": True}, "usa")
    dests = moves(g, "usa-harrow")
    assert "K7" not in dests  # a column may not enter a hex with another friendly unit
    assert "K6" in dests


def test_reinforcements_may_enter_in_column(tmp_path: Path) -> None:
    g = entry_game(tmp_path, ["usa-cross"], entry="Baltimore Pike", hex_="L1",
                   options=["column_line"])
    line = g.enter_options("usa-cross")
    assert ("L1", "L4") not in line  # in line the road does not help: 2 MP a hexside
    assert {"type": "formation", "unit": "usa-cross", "column": True} in g.legal_actions("usa")
    g.apply({"type": "formation", "unit": "usa-cross", "column": True}, "usa")
    assert g.state.units["usa-cross"].mp_used == 0
    assert g.enter_options("usa-cross")[("L1", "L4")][0] == 4


def test_column_box_front_line_cost_and_who_may_share_a_hex(tmp_path: Path) -> None:
    """Column/line box (6.0): changing formation in a front-line hex takes the whole
    allowance; a unit in line may neither enter nor cross a hex holding a column; a hex
    with a column holds one unit at the end of the phase (6.2)."""
    b = board_doc(sides=road_line(["K5", "K6", "K7", "K8", "K9"], "Pike"))
    g = make(tmp_path, {"usa": [("K5", ["usa-harrow"]), ("K7", ["usa-webb"]),
                                ("J11", ["usa-hall"]), ("L6", ["usa-gibbon"])],
                        "csa": [("J12", ["csa-kemper"])]}, board=b, options=["column_line"])
    g.apply({"type": "formation", "unit": "usa-hall", "column": True}, "usa")
    assert g.state.units["usa-hall"].mp_used == 6 and moves(g, "usa-hall") == {}
    g.apply({"type": "formation", "unit": "usa-webb", "column": True}, "usa")
    assert g.state.units["usa-webb"].mp_used == 3
    harrow = moves(g, "usa-harrow")
    assert "K7" not in harrow and not [p for p in harrow.values() if "K7" in p]
    g.apply({"type": "move", "unit": "usa-gibbon", "path": ["L6", "K6", "K7"]}, "usa")
    assert g.stacking_problems() == ["K7"]  # the HQ walked into the column's hex
    g.apply({"type": "end_phase"}, "usa")
    assert g.state.units["usa-gibbon"].status == "eliminated"  # the later arrival goes
    assert g.state.units["usa-webb"].hex == "K7"


def test_artillery_in_the_front_line_is_revealed_6_63(tmp_path: Path) -> None:
    g = make(tmp_path, {"usa": [("K5", ["usa-ransom"]), ("K3", ["usa-taft"])],
                        "csa": [("K9", ["csa-kemper"]), ("K7", ["csa-cabell"]),
                                ("A14", ["csa-dearing"])]})
    # K7 is already next to... nothing of the USA: the CSA battery is hidden.
    assert not g.state.units["csa-cabell"].revealed
    g.apply({"type": "move", "unit": "usa-ransom", "path": ["K5", "K6"]}, "usa")
    assert g.state.units["usa-ransom"].revealed  # the mover shows at once
    assert not g.state.units["csa-cabell"].revealed  # the passive side after all movement
    assert "csa-cabell" not in json.dumps(g.view("usa"))
    g.apply({"type": "end_phase"}, "usa")
    assert g.state.units["csa-cabell"].revealed
    assert "csa-cabell" in {u["id"] for u in g.view("usa")["units"]}
    g.apply({"type": "end_phase"}, "usa")  # melee -> supply: both stay revealed in the line
    assert g.state.units["usa-ransom"].revealed and g.state.units["csa-cabell"].revealed
    g.state.units["usa-ransom"].hex = "K3"  # out of the front line ...
    g.apply({"type": "end_phase"}, "usa")
    for _ in range(4):  # ... hidden again at the start of the next supply phase
        g.apply({"type": "end_phase"}, "csa")
    assert g.state.phase == "supply"
    assert not g.state.units["usa-ransom"].revealed


def test_artillery_set_up_in_the_front_line_is_revealed_from_the_start_6_63(
        tmp_path: Path) -> None:
    """6.63 (and the first-turn note of 8.1): a battery set up next to the enemy stands
    revealed at once, so the enemy's first fire may aim at it; one out of the line stays
    hidden. Day 3 opens with the two batteries facing each other in K3 and H3."""
    g = make(tmp_path, {"usa": [("K6", ["usa-ransom"]), ("K3", ["usa-taft"])],
                        "csa": [("K7", ["csa-cabell"]), ("A14", ["csa-dearing"])]})
    assert g.state.units["csa-cabell"].revealed and g.state.units["usa-ransom"].revealed
    assert not g.state.units["usa-taft"].revealed
    assert not g.state.units["csa-dearing"].revealed
    assert [e.data["unit"] for e in g.log if e.type == "revealed"] == ["usa-ransom",
                                                                       "csa-cabell"]
    from gettysburg.core.protocol import new_game

    day3 = new_game("boc/day3", seed=1)
    assert "csa-latimer" in {u["id"] for u in day3.view("usa")["units"]}
    assert "usa-muhlenberg" in {u["id"] for u in day3.view("csa")["units"]}


def test_artillery_retreating_into_the_front_line_in_a_melee_is_revealed_after_it(
        tmp_path: Path) -> None:
    """6.63 after the melee phase, not only after movement: a battery that a melee's
    retreat or regroup leaves in the front line is revealed when the phase ends."""
    g = make(tmp_path, {"usa": [("K3", ["usa-taft"])], "csa": [("A14", ["csa-dearing"])]},
             engine={"phase": "melee"})
    g.state.units["csa-dearing"].hex = "K4"  # as a melee retreat would put it
    assert not g.state.units["csa-dearing"].revealed
    g.apply({"type": "end_phase"}, "usa")
    assert g.state.units["csa-dearing"].revealed and g.state.units["usa-taft"].revealed


def test_kept_reach_answers_equal_a_fresh_search_and_actions_do_not_share_paths() -> None:
    """``reachable`` keeps recent answers (a movement phase asks for every unit's reach
    at every decision): a kept answer must equal a fresh search, and the paths handed out
    in legal actions must be copies, so a caller that changes one cannot corrupt it."""
    from gettysburg.boc.movement import _search, graph
    from gettysburg.core.protocol import new_game

    game = new_game("boc/day1", seed="reach-cache")
    assert isinstance(game, BocGame)
    while game.state.phase != "movement":
        seat = game.to_move()[0]
        game.apply(next(a for a in game.legal_actions(seat) if a["type"] == "end_phase"), seat)
    seat = game.to_move()[0]
    first = game.legal_actions(seat)
    moves = [a for a in first if a["type"] == "move"]
    assert moves
    g = graph(game.board)
    for key, kept in list(g.reach_cache.items()):
        fresh = _search(g, *key)
        assert (kept.cost, kept.path) == (fresh.cost, fresh.path)
    i = first.index(moves[0])
    path = list(moves[0]["path"])
    moves[0]["path"].append("Z99")  # a careless caller
    assert game.legal_actions(seat)[i]["path"] == path
