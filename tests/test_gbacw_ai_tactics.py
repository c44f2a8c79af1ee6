"""The GBACW general uses the rulebook's heavier tools where they pay (issue 54, session g5,
gbacw/ai/tactics.py): the artillery barrage (004 §10.92-10.93), continued shock (002 §11.47),
cavalry charges (§11.52-11.55), extended lines and columns (§8.41-8.53) and breastworks
(§15.11-15.14). Positions are hand-built views of one seat (the doctrine reads nothing
else); each test shows the tool chosen where it pays and declined where it does not."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gbacw_ai_views import away, hid
from gbacw_gunline import ARCHER, NAP1, NAP2, RESERVE, at, gunline, key_of, place
from gettysburg.ai.general import best_index
from gettysburg.core.dice import ScriptedDice
from gettysburg.core.hexes import Hex
from gettysburg.gbacw.ai.doctrine import GbacwDoctrine
from gettysburg.gbacw.ai.ground import objectives, parse
from gettysburg.gbacw.ai.memory import CHARGING, GbacwMemory
from gettysburg.gbacw.ai.situation import situation
from gettysburg.gbacw.ai.tactics import barrage_batteries_ready, charge_target
from gettysburg.gbacw.facing import Facing, front_hexes, rear_hexes
from gettysburg.gbacw.game import GbacwGame

JSON = dict[str, Any]
V0 = {"kind": "vertex", "index": 0}
BASE = parse("A2413")  # open ground on Herr Ridge's sheet
US_GUNS = ("US-XI:I/1 NY", "US-XI:13 NY Bty", "US-XI:I/1 OH")


def unit(seat: str, at: Hex | None, brigade: str, sp: int = 6, **more: Any) -> JSON:
    return {"seat": seat, "hex": None if at is None else hid(at), "facing": V0, "sp": sp,
            "brigade": brigade, "disordered": False, "arm": "inf", **more}


def view(units: dict[str, JSON], orders: dict[str, str] | None = None, seat: str = "usa",
         **more: Any) -> JSON:
    brigades = {b: {"seat": seat, "orders": o} for b, o in (orders or {}).items()}
    return {"system": "gbacw", "seat": seat, "scenario": "herr-ridge", "units": units,
            "brigades": brigades, "leaders": {}, "turn": "1-0900", "light": "day",
            "phase": "action", "current": None, "brigade": None, **more}


def best(v: JSON, legal: list[JSON]) -> JSON:
    return legal[best_index(GbacwDoctrine().scores(v, legal), legal)]


# --- barrage (004 §10.9) ---------------------------------------------------------------------
def _guns(n: int, seat: str = "usa") -> dict[str, JSON]:
    """``n`` batteries in a row next to the chief at BASE, an enemy 6 hexes off."""
    out = {k: {**unit(seat, away(BASE, 3, i + 1), "Art"), "arm": "art", "counter": k}
           for k, i in zip(US_GUNS[:n], range(n), strict=True)}
    out["foe"] = unit("csa" if seat == "usa" else "usa", away(BASE, 0, 6), "X", sp=8)
    return out


def test_barrage_is_declared_when_batteries_can_join() -> None:
    """004 §10.92: two batteries in Hunt's range with an enemy 6 hexes off (4+): the Union
    barrages rather than activate the reserve's brigade; with one battery it activates."""
    legal = [{"type": "activate", "brigade": "Art"}, {"type": "barrage"}]
    chief = {"hunt": {"hex": hid(BASE), "seat": "usa"}}
    two = view(_guns(2), leaders=chief, phase="action")
    assert len(barrage_batteries_ready(situation(two))) == 2
    assert best(two, legal)["type"] == "barrage"
    assert best(view(_guns(1), leaders=chief), legal)["type"] == "activate"
    # no chief on the map, no barrage (tdg.10.92)
    assert best(view(_guns(2)), legal)["type"] == "activate"


def test_barrage_needs_an_enemy_at_four_hexes_or_more() -> None:
    """004 §10.93: barrage fire only at 4+ hexes: an enemy next to the guns is no reason."""
    units = _guns(2)
    units["foe"] = unit("csa", away(BASE, 0, 1), "X")
    chief = {"hunt": {"hex": hid(BASE), "seat": "usa"}}
    legal = [{"type": "activate", "brigade": "Art"}, {"type": "barrage"}]
    assert best(view(units, leaders=chief), legal)["type"] == "activate"


def test_barrage_fire_takes_the_biggest_group_at_the_richest_target() -> None:
    units = _guns(2)
    far = away(BASE, 0, 7)
    units["foe2"] = unit("csa", far, "X", sp=3)
    t1, t2 = units["foe"]["hex"], hid(far)
    legal = [{"type": "barrage_fire", "units": [US_GUNS[0]], "target": t1},
             {"type": "barrage_fire", "units": [US_GUNS[1]], "target": t1},
             {"type": "barrage_fire", "units": list(US_GUNS[:2]), "target": t1},
             {"type": "barrage_fire", "units": [US_GUNS[0]], "target": t2},
             {"type": "end_activation"}]
    assert best(view(units), legal) == legal[2]


# --- continued shock (002 §11.47) ------------------------------------------------------------
def _after_shock(foe_sp: int, disordered: bool, continued: int = 1) -> tuple[JSON, list[JSON]]:
    """Our 9-SP regiment has advanced to BASE; facing vertex 0 from the hex it may continue
    into, an enemy stands in a front hex."""
    to = away(BASE, 0, 1)
    front = front_hexes(to, Facing.vertex(0))[0]
    units = {"a": unit("csa", BASE, "B", sp=9),
             "e": unit("usa", front, "X", sp=foe_sp, disordered=disordered)}
    pending = {"kind": "after_shock", "seat": "usa", "decider": "csa", "attacker": "csa",
               "units": ["a"], "must": False, "continued": continued}
    legal: list[JSON] = [{"type": "continue_shock", "to": hid(to), "facing": V0},
                         {"type": "end_shock"}]
    return view(units, {"B": "attack"}, seat="csa", pending=pending), legal


def test_continued_shock_against_a_weak_disordered_defender() -> None:
    """002 §11.47: 9 SP against a disordered 3 (3:1, +1 for the disorder, -1 as the first
    continued shock) in the open: the general goes on."""
    v, legal = _after_shock(3, True)
    assert best(v, legal)["type"] == "continue_shock"


def test_continued_shock_declined_at_poor_odds() -> None:
    """Against 9 SP in good order (1:1 less the -1) it stops (end_shock), and a second
    continuation (-2) at the odds that paid for the first is declined too."""
    v, legal = _after_shock(9, False)
    assert best(v, legal)["type"] == "end_shock"
    v2, legal2 = _after_shock(5, False, continued=1)
    v3, _ = _after_shock(5, False, continued=3)
    d = GbacwDoctrine()
    assert d.scores(v3, legal2)[0] < d.scores(v2, legal2)[0]


# --- cavalry charges (002 §11.5) -------------------------------------------------------------
def _cavalry(foe: JSON) -> JSON:
    units = {"c": unit("csa", BASE, "Cav", sp=8, arm="cav", mode="mounted"), "e": foe}
    return view(units, {"Cav": "attack"}, seat="csa")


def test_charge_a_disordered_enemy_in_the_open() -> None:
    """002 §11.52-11.55: mounted cavalry on Attack charges a disordered enemy 4 hexes off in
    the open rather than just move."""
    foe = unit("usa", away(BASE, 0, 4), "X", sp=6, disordered=True)
    legal = [{"type": "charge", "unit": "c"},
             {"type": "move", "unit": "c", "to": hid(away(BASE, 0, 1)), "facing": V0},
             {"type": "end_brigade"}]
    assert best(_cavalry(foe), legal)["type"] == "charge"


def test_charge_a_flank_but_not_a_front_in_good_order() -> None:
    """§11.55: a flank or rear doubles the chargers; a front in good order is not charged."""
    there = away(BASE, 0, 3)
    legal = [{"type": "charge", "unit": "c"}, {"type": "end_brigade"}]
    # an enemy whose rear faces the charger (BASE lies behind it)
    behind = next(v for v in range(6)
                  if any(r.distance(BASE) < there.distance(BASE)
                         for r in rear_hexes(there, Facing.vertex(v))))
    turned = unit("usa", there, "X", facing={"kind": "vertex", "index": behind})
    assert charge_target(situation(_cavalry(turned)), "c") == there
    assert best(_cavalry(turned), legal)["type"] == "charge"
    facing_us = next(v for v in range(6)
                     if any(f.distance(BASE) < there.distance(BASE)
                            for f in front_hexes(there, Facing.vertex(v)))
                     and all(r.distance(BASE) > there.distance(BASE)
                             for r in rear_hexes(there, Facing.vertex(v))))
    front = unit("usa", there, "X", facing={"kind": "vertex", "index": facing_us})
    assert best(_cavalry(front), legal)["type"] == "end_brigade"


def test_a_charging_unit_rides_to_its_target() -> None:
    """§11.54: once the memory has seen the charge go (offered, then gone while unmoved),
    the unit's move ending next to the target wins over one toward the objective."""
    foe = unit("usa", away(BASE, 0, 3), "X", disordered=True)
    v = _cavalry(foe)
    m = GbacwMemory()
    m.recall({**v, "legal_actions": [{"type": "charge", "unit": "c"}], "brigade": "Cav"})
    seen = m.recall({**v, "legal_actions": [], "brigade": "Cav"})
    assert seen[CHARGING] == ["c"]
    legal = [{"type": "move", "unit": "c", "to": hid(away(BASE, 0, 2)), "facing": V0},
             {"type": "move", "unit": "c", "to": hid(away(BASE, 5, 2)), "facing": V0},
             {"type": "end_brigade"}]
    assert best(seen, legal) == legal[0]


# --- extended lines and columns (002 §8.4-8.5) -----------------------------------------------
def test_a_holding_line_extends_near_the_enemy() -> None:
    """002 §8.41: the Union (holding Herr Ridge) extends a 9-SP regiment with an enemy 2
    hexes off, both flanks before one; with no enemy near it keeps its one hex."""
    legal = [{"type": "extend", "unit": "a", "sides": ["left"]},
             {"type": "extend", "unit": "a", "sides": ["left", "right"]},
             {"type": "end_brigade"}]
    near = view({"a": unit("usa", BASE, "B", sp=9), "e": unit("csa", away(BASE, 0, 2), "X")},
                {"B": "advance"})
    assert best(near, legal) == legal[1]
    far = view({"a": unit("usa", BASE, "B", sp=9), "e": unit("csa", away(BASE, 0, 7), "X")},
               {"B": "advance"})
    assert best(far, legal)["type"] == "end_brigade"
    small = view({"a": unit("usa", BASE, "B", sp=6), "e": unit("csa", away(BASE, 0, 2), "X")},
                 {"B": "advance"})
    assert best(small, legal)["type"] == "end_brigade"


def test_a_column_forms_line_facing_the_enemy_or_gathers_on_attack() -> None:
    """002 §8.52-8.53: a column near the enemy forms line facing it; a column on Attack
    orders (which may not move so) gathers when it cannot form."""
    col = unit("csa", BASE, "B", sp=9, extension="column", extends=[hid(away(BASE, 3, 1))])
    foe = unit("usa", away(BASE, 0, 2), "X")
    v = view({"a": col, "e": foe}, {"B": "advance"}, seat="csa")
    legal = [{"type": "form", "unit": "a", "facing": {"kind": "vertex", "index": 3}},
             {"type": "form", "unit": "a", "facing": V0},
             {"type": "retract", "unit": "a", "to": hid(BASE)},
             {"type": "end_brigade"}]
    assert best(v, legal) == legal[1]
    alone = view({"a": col}, {"B": "attack"}, seat="csa")
    assert best(alone, [legal[2], legal[3]])["type"] == "retract"
    marching = view({"a": col}, {"B": "march"}, seat="csa")
    assert best(marching, [legal[2], legal[3]])["type"] == "end_brigade"


# --- breastworks (002 §15.1) -----------------------------------------------------------------
def _holder(foe_at: Hex, orders: str = "advance") -> JSON:
    obj = parse("A2512")
    return view({"a": unit("usa", obj, "B", sp=7), "e": unit("csa", foe_at, "X")},
                {"B": orders}, phase="orders")


def test_a_holder_on_advance_digs_in_away_from_the_enemy() -> None:
    """002 §15.11-15.13: the Union regiment on Herr Ridge's objective, on Advance, the enemy
    6 hexes off: it builds, facing the enemy; the enemy 3 hexes off (its fire would stop the
    work, §15.14) or Attack orders (§15.11): it does not."""
    obj = parse("A2512")
    foe_at = away(obj, 3, 6)
    legal = [{"type": "build", "unit": "a", "facing": {"kind": "vertex", "index": v}}
             for v in range(6)] + [{"type": "end_orders"}]
    got = best(_holder(foe_at), legal)
    assert got["type"] == "build"
    assert any(h.distance(foe_at) < obj.distance(foe_at)
               for h in front_hexes(obj, Facing.from_json(got["facing"])))
    assert best(_holder(away(obj, 3, 3)), legal)["type"] == "end_orders"
    assert best(_holder(foe_at, "attack"), legal)["type"] == "end_orders"


def test_a_builder_keeps_still() -> None:
    """002 §15.14: leaving the hex or turning stops the work, so a builder neither moves
    off nor faces about."""
    obj = parse("A2512")
    v = {**_holder(away(obj, 3, 6)), "phase": "action",
         "constructions": [{"unit": "a", "hex": hid(obj), "vertex": 3}]}
    legal = [{"type": "face", "unit": "a", "facing": {"kind": "vertex", "index": 3}},
             {"type": "move", "unit": "a", "to": hid(away(obj, 0, 1)), "facing": V0},
             {"type": "end_brigade"}]
    assert best(v, legal)["type"] == "end_brigade"


# --- in the engine ---------------------------------------------------------------------------
def test_the_general_extends_a_line_in_the_engine() -> None:
    """002 §8.41-8.43, through the engine: Pettigrew's brigade active on the hand-made
    formations position (tests/data/gbacw/formations.yaml), an enemy 3 hexes in front of
    the 17-SP 26th North Carolina: of everything legal the general's first choice is to
    extend it both ways, and the engine takes it."""
    g = GbacwGame(str(Path(__file__).parent / "data" / "gbacw" / "formations.yaml"),
                  dice=ScriptedDice([7, 3, 0, 5, 4] + [0] * 80, die="d10"))
    g.apply({"type": "end_orders"}, "usa")
    g.apply({"type": "end_orders"}, "csa")
    marker, nc26, foe = "csa/CS-Heth/III", "CS-III:26 NC", "US-Cav:12 IL"
    g.pos.pool.remove(marker)
    g.pos.current, g.pos.phase, g.pos.brigade = marker, "action", None
    g.apply({"type": "activate", "brigade": "CS-Pettigrew/Heth"}, "csa")
    u = g.pos.units[nc26]
    here = g.hex_of(u.hex)
    assert here is not None and u.facing is not None
    ahead = front_hexes(here, u.facing)[0]
    for _ in range(2):
        ahead = next(n for n in ahead.neighbours() if n.distance(here) > ahead.distance(here))
    g.pos.units[foe].hex = hid(ahead)
    v = g.view("csa")
    choice = best(v, v["legal_actions"])
    assert choice == {"type": "extend", "unit": nc26, "sides": ["left", "right"]}
    g.apply(choice, "csa")
    assert g.pos.units[nc26].extension == "line" and len(g.pos.units[nc26].extends) == 2


def test_the_general_barrages_in_the_engine() -> None:
    """004 §10.92-10.93, through the engine: the Union's artillery AM drawn, the two reserve
    Napoleons by Hunt, Archer's regiment six hexes off (tests/gbacw_gunline.py): the
    general declares the barrage, then fires both batteries together at the regiment."""
    g = gunline(RESERVE)
    p = g.pos
    p.brigade, p.current, p.done_brigades, p.phase = None, "usa/US-AR", [], "action"
    place(g, NAP1, at(g, (0, 0)), 0)
    place(g, NAP2, at(g, (0, 1)), 0)
    p.leaders["hunt"] = g.cat.board.hexes[at(g, (-1, 0))].id
    place(g, next(k for k in p.units if g.formation(k) == ARCHER), at(g, (6, 0)), 3)
    g._memo.clear()
    v = g.view("usa")
    assert {"type": "barrage"} in v["legal_actions"]
    choice = best(v, v["legal_actions"])
    assert choice == {"type": "barrage"}
    g.apply(choice, "usa")
    v = g.view("usa")
    shot = best(v, v["legal_actions"])
    assert shot["type"] == "barrage_fire"
    assert sorted(shot["units"]) == sorted([key_of(g, NAP1), key_of(g, NAP2)])


def test_victory_point_hexes_are_held_by_both_and_dug_in() -> None:
    """004 sc.4: the Second Day scores objectives either side occupies at the end, so the
    general reads them as objectives with no taker; a Union regiment on Culp's Hill
    (B5013), on Advance with no enemy within 4 hexes, builds breastworks there."""
    obj = objectives("second-day")
    assert obj.taker is None
    assert {parse("B5013"), parse("C2118"), parse("B5020")} <= set(obj.hexes)
    hill = parse("B5013")
    v = {**view({"a": unit("usa", hill, "B", sp=7), "e": unit("csa", away(hill, 3, 6), "X")},
                {"B": "advance"}, phase="orders"), "scenario": "second-day", "turn": "2-0500"}
    legal = [{"type": "build", "unit": "a", "facing": {"kind": "vertex", "index": i}}
             for i in range(6)] + [{"type": "end_orders"}]
    assert best(v, legal)["type"] == "build"


def test_a_compulsory_shock_is_designated_not_stalled() -> None:
    """002 §11.21: with a shock the brigade must make (no end_brigade listed), the general
    designates it rather than turn or refuse flanks while it may (the Battle, seed 14:
    refuse and unrefuse 21 times each)."""
    foe = unit("csa", away(BASE, 0, 1), "X", sp=12)
    v = view({"c": unit("usa", BASE, "Cav", sp=4, arm="cav", mode="mounted"), "e": foe},
             {"Cav": "advance"})
    legal = [{"type": "face", "unit": "c", "facing": {"kind": "vertex", "index": 1}},
             {"type": "refuse", "unit": "c", "side": "left"},
             {"type": "shock", "shocks": [{"attackers": ["c"], "targets": [foe["hex"]]}]}]
    assert best(v, legal)["type"] == "shock"
    assert best(v, [*legal, {"type": "end_brigade"}])["type"] == "end_brigade"


def test_mounted_cavalry_keeps_off_the_enemy_unless_charging() -> None:
    """002 §11.21: mounted cavalry ending next to an enemy must shock it, so the general
    stops short of the enemy instead (one hex back), unless it charges."""
    foe = unit("csa", away(BASE, 0, 3), "X")
    v = view({"c": unit("usa", BASE, "Cav", sp=6, arm="cav", mode="mounted"), "e": foe},
             {"Cav": "advance"}, scenario="no-such-scenario")
    legal = [{"type": "move", "unit": "c", "to": hid(away(BASE, 0, 2)), "facing": V0},
             {"type": "move", "unit": "c", "to": hid(away(BASE, 0, 1)), "facing": V0}]
    assert best(v, legal) == legal[1]
    inf = {**v, "units": {**v["units"], "c": {**v["units"]["c"], "mode": "", "arm": "inf"}}}
    assert best(inf, legal) == legal[0]
