"""Scenario special rules of 004 in the engine (scenario_step.py): McLaws's brigades in the
chain through Longstreet and the Artillery Reserve attachments (sc.3, Little Round Top),
Buford's withdrawal (the Union table's note [c], second day and campaign) and Rodes's entry
areas (the Confederate table's note [c], campaign). Positions from the scenarios, set by
hand where a test needs another turn."""

from __future__ import annotations

import pytest

from gettysburg.core.protocol import RuleError
from gettysburg.gbacw import scenario_step
from gettysburg.gbacw.game import GbacwGame
from gettysburg.gbacw.reinforcements import entry_area
from gettysburg.gbacw.setup import turn_index


# --- 004 sc.3: McLaws off the map -----------------------------------------------------------
def test_mclaws_brigades_in_command_through_longstreet() -> None:
    """004 sc.3: with McLaws off the map his brigadiers count in command when within
    Longstreet's range (the chain would otherwise break at the absent division leader)."""
    g = GbacwGame("little-round-top", seed=1)
    p = g.pos
    assert p.leaders["mclaws"] is None
    assert "CS-Kershaw/McLaws" not in p.command["brigadiers"]
    assert "CS-Kershaw/McLaws" not in p.command["no_orders"]
    p.leaders["kershaw"] = "C3010"  # far beyond Longstreet's 10
    g._memo.clear()
    g._chain()
    assert "CS-Kershaw/McLaws" in p.command["brigadiers"]
    assert "CS-Semmes/McLaws" not in p.command["brigadiers"]
    p.leaders["longstreet"] = None  # no stand-in on the map: all out
    g._memo.clear()
    g._chain()
    assert {"CS-Kershaw/McLaws", "CS-Semmes/McLaws"} <= set(p.command["brigadiers"])


# --- 004 sc.3: reserve batteries ------------------------------------------------------------
def _union_orders(g: GbacwGame) -> None:
    if g.to_move() == ["csa"]:
        g.apply({"type": "end_orders"}, "csa")
    assert g.to_move() == ["usa"] and g.pos.phase == "orders"


def test_reserve_battery_attaches_at_the_start() -> None:
    """004 sc.3: a reserve battery on the map at the start may join any Union brigade with
    no battery; it then acts with that brigade (002 §4.32's attachment)."""
    g = GbacwGame("little-round-top", seed=1)
    _union_orders(g)
    legal = [a for a in g.legal_actions("usa") if a["type"] == "attach"
             and a["unit"].startswith("US-AR:")]
    assert legal
    act = legal[0]
    g.apply(act, "usa")
    assert g.formation(act["unit"]) == act["brigade"]
    assert not [a for a in g.legal_actions("usa") if a["type"] == "attach"
                and a["unit"] == act["unit"]]


def test_reserve_attach_refused_elsewhere() -> None:
    """The rule is Little Round Top's: another scenario's reserve battery keeps §4.32's
    limits (only divisional batteries attach)."""
    g = GbacwGame("third-day", seed=1)
    _union_orders(g)
    with pytest.raises(RuleError) as e:
        g.validate({"type": "attach", "unit": "US-AR:5 MA Bty", "brigade": "US-1/1/II"},
                   "usa")
    assert e.value.rule == "4.32"


# --- note [c]: Buford's withdrawal ----------------------------------------------------------
def _at_2_1000(scenario: str) -> GbacwGame:
    g = GbacwGame(scenario, seed=1)
    g.pos.turn = turn_index("2-1000")
    g.pos.phase, g.pos.orders_done = "orders", ["csa"]
    g._memo.clear()
    return g


def test_buford_leaves_by_area_11_or_12() -> None:
    """Note [c]: at 2 July 1000 the Union takes Buford's division and A/2 US off the map
    when each unit has a clear path to area 11 or 12; not a loss."""
    g = _at_2_1000("second-day")
    assert {"type": "buford_leaves"} in g.legal_actions("usa")
    units = scenario_step._buford_units(g, "US-1/Cav")
    ev = g.apply({"type": "buford_leaves"}, "usa")
    assert ev[0].type == "buford_leaves" and ev[0].rule == "tdg.chart.c"
    assert all(g.pos.units[k].hex is None and not g.gone(k) for k in units)
    assert "US-Cav:A/2 US" in units
    assert g.pos.leaders["buford"] is None
    assert {"type": "buford_leaves"} not in g.legal_actions("usa")


def test_buford_cannot_leave_next_to_the_enemy() -> None:
    """Note [c]: a unit next to an enemy (or cut off from both areas) keeps the division on
    the map."""
    g = _at_2_1000("second-day")
    k = scenario_step._buford_units(g, "US-1/Cav")[0]
    here = g.hex_of(g.pos.units[k].hex)
    assert here is not None
    enemy = next(k2 for k2, u in g.pos.units.items() if u.seat == "csa" and u.hex is not None)
    spot = next(n for n in here.neighbours() if n in g.cat.board.hexes
                and n not in {g.hex_of(u.hex) for u in g.pos.units.values()})
    g.pos.units[enemy].hex = g.cat.board.hexes[spot].id
    g._memo.clear()
    assert not scenario_step.buford_can_leave(g)
    with pytest.raises(RuleError) as e:
        g.validate({"type": "buford_leaves"}, "usa")
    assert e.value.rule == "tdg.chart.c"


def test_buford_stays_two_conditional_groups_withheld() -> None:
    """Note [c] (campaign): keeping Buford, the Union names two of the conditional cavalry
    groups and ONE horse battery of theirs (the seed: two brigades "più una batteria"); the
    brigades never come on, nor that battery, but the other group's battery does, alone."""
    g = _at_2_1000("battle")
    act = {"type": "buford_stays", "groups": ["usa-3-1300-kilpatrick",
                                              "usa-3-1300-merritt"], "battery": "E/4 US"}
    assert act in g.legal_actions("usa")
    assert {**act, "battery": "K/1 US"} in g.legal_actions("usa")
    with pytest.raises(RuleError) as e:  # a battery of neither group
        g.validate({**act, "battery": "M/2 US"}, "usa")
    assert e.value.rule == "tdg.chart.c"
    g.apply(act, "usa")
    assert g.pos.tdg["withheld"] == ["usa-3-1300-kilpatrick", "usa-3-1300-merritt"]
    assert g.pos.tdg["released"] == ["K/1 US"]
    i = next(i for i, a in enumerate(g.scen.arrivals) if a.id == "usa-3-1300-kilpatrick")
    assert scenario_step.arrival_hex(g, i, g.scen.arrivals[i].hex) is None
    j = next(i for i, a in enumerate(g.scen.arrivals) if a.id == "usa-3-1500-custer")
    assert scenario_step.arrival_hex(g, j, "C5312") == "C5312"
    # on 3 July 1300 Merritt's group comes on for its battery only
    m = next(i for i, a in enumerate(g.scen.arrivals) if a.id == "usa-3-1300-merritt")
    g.pos.turn = turn_index("3-1300")
    g.pos.orders_done = []
    g._memo.clear()
    g._begin_turn()
    assert m in g.pos.arrived and i not in g.pos.arrived
    waiting = sorted(g.counter(k).unit for k, u in g.pos.units.items()
                     if u.hex is None and g.waiting(k) is not None
                     and k.startswith("US-Cav") and g.counter(k).arm == "horse_art")
    assert waiting == ["K/1 US"]
    merritt = [k for k in g.pos.units if g.pos.units[k].counter in g.scen.arrivals[m].counters
               and g.counter(k).arm == "cav"]
    assert merritt and all(g.waiting(k) is None for k in merritt)
    # the battery comes on alone: Merritt, its group's leader, stays off the map
    k1 = next(k for k in g.pos.units if g.counter(k).unit == "K/1 US")
    (to, _), reach = sorted(g.reach(k1).items(), key=lambda kv: kv[1].half_mp)[0]
    g._move({"type": "move", "unit": k1, "to": g.cat.board.hexes[to].id}, reach)
    assert g.pos.units[k1].hex is not None
    assert g.pos.leaders.get("merritt") is None


def test_buford_default_when_no_choice() -> None:
    """Ending 2 July 1000 with no choice keeps Buford; on 3 July the first two conditional
    groups stay away (our reading of a choice left unmade)."""
    g = _at_2_1000("battle")
    g.pos.turn = turn_index("3-1300")
    i = next(i for i, a in enumerate(g.scen.arrivals) if a.id == "usa-3-1300-kilpatrick")
    assert scenario_step.arrival_hex(g, i, g.scen.arrivals[i].hex) is None
    assert g.pos.tdg["buford"] == "stayed"
    assert g.pos.tdg["withheld"] == ["usa-3-1300-kilpatrick", "usa-3-1300-merritt"]
    assert g.pos.tdg["released"] == ["K/1 US"]  # Kilpatrick's E/4 US stays with them


# --- note [c]: Rodes's entry areas ----------------------------------------------------------
def test_rodes_writes_down_entry_areas() -> None:
    """The Confederate table's note [c]: in the 1 July 1100 orders segment each of Rodes's
    brigades may take area 3, 4 or 5; its group then comes on by that area's direct hex at
    its printed turn; the choice is hidden from the Union."""
    g = GbacwGame("battle", seed=1)
    g.pos.turn = turn_index("1-1100")
    g.pos.phase, g.pos.orders_done = "orders", ["usa"]
    g._memo.clear()
    act = {"type": "entry_area", "brigade": "CS-Iverson/Rodes", "area": "5"}
    assert act in g.legal_actions("csa")
    ev = g.apply(act, "csa")
    assert ev[0].visible_to == ("csa",)
    assert "tdg" not in g.view("usa") and "entry_choice" not in str(g.view("usa"))
    i = next(i for i, a in enumerate(g.scen.arrivals) if a.id == "csa-1-1200-iverson")
    want = g.cat.board.hexes[entry_area(g.cat.board, 5).direct].id
    assert scenario_step.arrival_hex(g, i, g.scen.arrivals[i].hex) == want
    g.pos.turn = turn_index("1-1200")
    g.pos.orders_done = []
    g._begin_turn()
    assert g.pos.entries[str(i)] == want
    with pytest.raises(RuleError):
        g.validate({"type": "entry_area", "brigade": "CS-Iverson/Rodes", "area": "6"}, "csa")
