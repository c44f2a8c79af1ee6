"""The GBACW general's lesser decisions (issue 54, gbacw/ai/minor_choices.py): attaching a
battery (002 §4.32), the Third Day's ready-made works (004 sc.5), leaving the map (004
§9.88), Rodes's entry area (004 chart c), counter-charge and breaking off a charge (002
§11.56-11.57), withdrawal moves (§9.54), a rally or resupply with a turn (§7.25, §10.92),
idle rally (§13.45) and the Hero policy (004 §18.0 P). Hand-built views of one seat: each
choice is taken where it pays and passed over where it does not."""

from __future__ import annotations

from typing import Any

from gbacw_ai_views import away, hid
from gettysburg.ai.general import best_index
from gettysburg.core.hexes import Hex
from gettysburg.gbacw.ai import minor_choices
from gettysburg.gbacw.ai.doctrine import GbacwDoctrine
from gettysburg.gbacw.ai.ground import mp_to, objectives, parse
from gettysburg.gbacw.ai.situation import situation

JSON = dict[str, Any]
V0 = {"kind": "vertex", "index": 0}  # front: neighbours 0 and 1
BASE = parse("A2430")  # open ground, well away from Herr Ridge's objectives


def unit(seat: str, at: Hex, brigade: str = "B", sp: int = 6, **more: Any) -> JSON:
    return {"seat": seat, "hex": hid(at), "facing": V0, "sp": sp, "brigade": brigade,
            "disordered": False, "arm": "inf", **more}


def view(units: dict[str, JSON], orders: dict[str, str] | None = None, seat: str = "usa",
         **more: Any) -> JSON:
    brigades = {b: {"seat": seat, "orders": o, "fatigue": 0}
                for b, o in (orders or {"B": "advance"}).items()}
    return {"system": "gbacw", "seat": seat, "scenario": "herr-ridge", "units": units,
            "brigades": brigades, "leaders": {}, "turn": "1-0900", "light": "day",
            "phase": "action", "current": None, "brigade": None, **more}


def best(v: JSON, legal: list[JSON]) -> JSON:
    return legal[best_index(GbacwDoctrine().scores(v, legal), legal)]


def test_a_battery_joins_the_brigade_it_stands_by() -> None:
    """002 §4.32: a divisional battery two hexes from brigade X joins X (not Y, six off);
    six hexes from both it stays with its battalion; once attached it does not hop to
    another brigade, and goes back to its battalion only when its brigade is far off."""
    legal: list[JSON] = [{"type": "end_orders"}, {"type": "attach", "unit": "g", "brigade": "Y"},
             {"type": "attach", "unit": "g", "brigade": "X"}]
    gun = {**unit("usa", BASE, "Bn", sp=3), "arm": "art"}
    near = {"g": gun, "x": unit("usa", away(BASE, 0, 2), "X"),
            "y": unit("usa", away(BASE, 3, 6), "Y")}
    assert best(view(near, phase="orders"), legal) == legal[2]
    far = {"g": gun, "x": unit("usa", away(BASE, 0, 6), "X"),
           "y": unit("usa", away(BASE, 3, 6), "Y")}
    assert best(view(far, phase="orders"), legal)["type"] == "end_orders"
    hop: list[JSON] = [legal[0], legal[1], {"type": "attach", "unit": "g", "brigade": "Bn"}]
    assert best(view(near, phase="orders", attached={"g": "X"}), hop)["type"] == "end_orders"
    assert best(view(far, phase="orders", attached={"g": "X"}), hop) == hop[2]


def test_ready_made_works_go_on_the_objectives_first() -> None:
    """004 sc.5: a ready-made breastworks on an objective hex before one far from it, and
    facing the enemy; all are placed (each beats ending the orders segment)."""
    goal = objectives("herr-ridge").hexes[0]
    foe = away(goal, 0, 4)
    legal: list[JSON] = [{"type": "end_orders"},
             {"type": "place_works", "hex": hid(BASE), "facing": V0},
             {"type": "place_works", "hex": hid(goal), "facing": {"kind": "vertex", "index": 3}},
             {"type": "place_works", "hex": hid(goal), "facing": V0}]
    v = view({"e": unit("csa", foe, "E")}, phase="orders")
    assert best(v, legal) == legal[3]
    assert best(v, legal[:2]) == legal[1]


def test_the_general_never_leaves_the_map_for_nothing() -> None:
    """004 §9.88: leaving by an off-map road takes a unit out of the fight for hours: with
    no road's end to compare (not an entry hex), it is declined."""
    legal: list[JSON] = [{"type": "leave_map", "unit": "a", "area": "2"}, {"type": "end_brigade"}]
    assert best(view({"a": unit("usa", BASE)}), legal)["type"] == "end_brigade"


ROAD_ENDS = {"11": "C5312", "12": "C5345", "13": "C1245", "14": "C3045"}  # direct hexes


def road_view(scenario: str) -> JSON:
    """A Confederate regiment waiting at area 11's direct hex (the Taneytown Road, C5312),
    offered the off-map roads to areas 12, 13 and 14 (004 §9.88)."""
    v = view({"a": {**unit("csa", parse("C5312")), "hex": None, "waiting_at": "C5312"}},
             seat="csa", place_hexes={"area": {a: h for a, h in ROAD_ENDS.items()
                                               if a != "11"}})
    return {**v, "scenario": scenario}


def test_the_off_map_road_when_it_saves_the_march() -> None:
    """004 §9.88 (the Battle): from C5312, 32 MP from the nearest objective, the road to area
    12 (2 turns) comes back on at C5345, 7 MP from C4645: 32 > 7 + 2 x 8, so it is taken,
    and not the roads to areas 13 (5 turns) or 14 (4 turns); on the Second Day C5345 is 47
    MP from any objective: the road is declined."""
    legal: list[JSON] = [{"type": "end_brigade"},
                         *({"type": "leave_map", "unit": "a", "area": a}
                           for a in ("13", "12", "14"))]
    assert best(road_view("battle"), legal) == legal[2]
    assert best(road_view("battle"), [legal[0], legal[1], legal[3]])["type"] == "end_brigade"
    assert best(road_view("second-day"), legal)["type"] == "end_brigade"
    s = situation(road_view("battle"))
    assert minor_choices.road_saving(s, legal[2]) == 32.0 - (7.0 + 2 * minor_choices.TURN_MP)


def test_rodes_comes_on_by_the_area_nearest_the_objectives() -> None:
    """004 chart c: of areas 3, 4 and 5, the one whose hex is fewest MP from a First Day
    objective (Gettysburg, Culp's and Cemetery Hill) is chosen, whatever the list's order."""
    obj = objectives("first-day")
    from gettysburg.gbacw.ai.ground import board
    hexes = {a: next(h for h, i in board().hexes.items() if i.entry == a) for a in (3, 4, 5)}
    dist = {a: min(mp_to(g, h, obj.sheets) for g in obj.hexes) for a, h in hexes.items()}
    want = min(dist, key=lambda a: dist[a])
    assert len(set(dist.values())) == 3
    v = {**view({}, seat="csa"), "scenario": "first-day", "phase": "orders"}
    for order in ((3, 4, 5), (5, 4, 3)):
        legal = [{"type": "entry_area", "brigade": "R", "area": str(a)} for a in order]
        assert best(v, legal)["area"] == str(want)


def test_counter_charge_on_attack_orders_or_in_good_order() -> None:
    """002 §11.56: on Attack orders the counter-charge needs no check: taken; on Advance and
    disordered a failed check would leave it worse off: it stands."""
    legal: list[JSON] = [{"type": "stand"}, {"type": "counter_charge", "unit": "c"}]
    cav = {**unit("usa", BASE, "Cav", sp=4), "arm": "cav", "mode": "mounted"}
    foe = {"e": {**unit("csa", away(BASE, 0, 1), "E"), "arm": "cav", "mode": "mounted"}}
    assert best(view({"c": cav, **foe}, {"Cav": "attack"}), legal) == legal[1]
    shaken = {**cav, "disordered": True}
    assert best(view({"c": shaken, **foe}, {"Cav": "advance"}), legal) == legal[0]


def test_break_off_a_charge_that_met_a_stronger_enemy() -> None:
    """002 §11.57: after the enemy's reaction move, the 4-SP charger breaks off when 9 SP
    stand next to it, and rides on (its move toward the target) against 3."""
    cav = {**unit("usa", BASE, "Cav", sp=4), "arm": "cav", "mode": "mounted"}
    legal: list[JSON] = [{"type": "break_charge", "unit": "c"},
             {"type": "move", "unit": "c", "to": hid(away(BASE, 0, 1)), "facing": V0},
             {"type": "end_brigade"}]
    strong = view({"c": cav, "e": unit("csa", away(BASE, 0, 1), "E", sp=9)}, {"Cav": "attack"})
    assert best(strong, legal)["type"] == "break_charge"
    weak = view({"c": cav, "e": unit("csa", away(BASE, 0, 1), "E", sp=3)}, {"Cav": "attack"})
    assert best(weak, legal)["type"] != "break_charge"


def test_withdrawal_move_from_an_enemy_of_more_than_twice_the_sp() -> None:
    """002 §9.54: a 4-SP regiment next to 12 enemy SP backs two hexes away (the farther
    path); next to 6 SP it stays (ends the brigade)."""
    rear = [hid(away(BASE, 3, 1)), hid(away(BASE, 3, 2))]
    legal: list[JSON] = [{"type": "end_brigade"},
             {"type": "withdrawal_move", "unit": "a", "path": rear[:1]},
             {"type": "withdrawal_move", "unit": "a", "path": rear}]
    big = view({"a": unit("usa", BASE, sp=4), "e": unit("csa", away(BASE, 0, 1), "E", sp=12)})
    assert best(big, legal) == legal[2]
    even = view({"a": unit("usa", BASE, sp=4), "e": unit("csa", away(BASE, 0, 1), "E", sp=6)})
    assert best(even, legal)["type"] == "end_brigade"


def test_rally_with_a_turn_only_toward_the_enemy() -> None:
    """002 §7.25: with the enemy beyond the left flank (neighbour 2), rallying with a turn
    to vertex 1 (front: neighbours 1 and 2) beats the plain rally; a turn away from it
    (vertex 5) does not."""
    units = {"a": {**unit("usa", BASE), "disordered": True},
             "e": unit("csa", away(BASE, 2, 2), "E")}
    toward = {"type": "rally_face", "unit": "a", "facing": {"kind": "vertex", "index": 1}}
    off = {"type": "rally_face", "unit": "a", "facing": {"kind": "vertex", "index": 5}}
    plain = {"type": "rally", "unit": "a"}
    assert best(view(units), [plain, off, toward]) == toward
    assert best(view(units), [plain, off]) == plain


def test_resupply_with_a_turn_only_toward_the_enemy() -> None:
    """002 §10.92 with §7.25: out of ammunition, resupplying with a turn toward the enemy
    beats the plain resupply; a turn away does not."""
    units = {"a": {**unit("usa", BASE), "ammo": "out"}, "e": unit("csa", away(BASE, 2, 3), "E")}
    toward = {"type": "resupply_face", "unit": "a", "facing": {"kind": "vertex", "index": 1}}
    off = {"type": "resupply_face", "unit": "a", "facing": {"kind": "vertex", "index": 4}}
    plain = {"type": "resupply", "unit": "a"}
    assert best(view(units), [plain, off, toward]) == toward
    assert best(view(units), [plain, off]) == plain


def test_idle_rally_when_disorder_outweighs_fatigue() -> None:
    """002 §13.45: a fresh idle brigade with two disordered units rallies; one at fatigue 3
    with one disordered unit rests (the engine's default: the choice is declined)."""
    legal: list[JSON] = [{"type": "end_commanders"},
                         {"type": "idle_rally", "brigade": "B", "on": True}]
    two = {"a": {**unit("usa", BASE), "disordered": True},
           "b": {**unit("usa", away(BASE, 0, 1)), "disordered": True}}
    v = view(two, phase="commanders")
    assert best(v, legal) == legal[1]
    tired = view({"a": two["a"], "b": {**two["b"], "disordered": False}}, phase="commanders")
    tired["brigades"]["B"]["fatigue"] = 3
    assert best(tired, legal) == legal[0]
    back: list[JSON] = [{"type": "end_commanders"},
                        {"type": "idle_rally", "brigade": "B", "on": False}]
    assert best(v, back) == back[0]
    assert best(tired, back) == back[1]


def test_the_hero_policy_both_with_a_spare_marker() -> None:
    """004 §18.0 P (E-33): with one Hero marker the default (save) stands; with two the
    general sets "both" (the spare one also spoils an enemy's passed check); back to one,
    it returns to "save"."""
    legal: list[JSON] = [{"type": "hero_policy", "use": u} for u in ("spoil", "both", "never")]
    done: JSON = {"type": "end_brigade"}
    units = {"a": unit("usa", BASE)}
    one = view(units, heroes={"usa": {"held": 1, "policy": "save"}})
    assert best(one, [*legal, done]) == done
    two = view(units, heroes={"usa": {"held": 2, "policy": "save"}})
    assert best(two, [*legal, done]) == legal[1]
    spent = view(units, heroes={"usa": {"held": 1, "policy": "both"}})
    back: list[JSON] = [{"type": "hero_policy", "use": u} for u in ("save", "spoil", "never")]
    assert best(spent, [*back, done]) == back[0]
    # the enemy's markers are not ours
    theirs = view(units, heroes={"csa": {"held": 3, "policy": "save"}})
    assert best(theirs, [*legal, done]) == done
