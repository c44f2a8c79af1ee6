"""The GBACW general answers the decisions it used to leave to chance (issue 54, session
g5_general2, gbacw/ai/reactions.py): reaction refusals and moves (002 §9.61-9.63), refusing a
flank in its own activation (§7.3), restack and stack moves (§8.24-8.25), the non-phasing
reserve shot (§10.15), the Alexander swap (004 §4.35) and the conditional cavalry (004 §14.7).
Hand-built views of one seat; each choice is shown where it pays and where it does not."""

from __future__ import annotations

from typing import Any

from gbacw_ai_views import away, hid
from gettysburg.ai.general import best_index
from gettysburg.core.hexes import Hex
from gettysburg.gbacw.ai.doctrine import GbacwDoctrine
from gettysburg.gbacw.ai.ground import parse
from gettysburg.gbacw.ai.situation import situation

JSON = dict[str, Any]
V0 = {"kind": "vertex", "index": 0}  # front: neighbours 0 and 1; left flank 2, right 5
BASE = parse("A2413")  # open ground on Herr Ridge's sheet
FAR = parse("A2430")  # well away from Herr Ridge's objectives
GUN = "CS-I:Ashland/B"  # a 20-pounder Parrott battery (long reach)


def unit(seat: str, at: Hex, sp: int = 6, **more: Any) -> JSON:
    return {"seat": seat, "hex": hid(at), "facing": V0, "sp": sp, "brigade": "B",
            "disordered": False, "arm": "inf", **more}


def view(units: dict[str, JSON], seat: str = "usa", **more: Any) -> JSON:
    return {"system": "gbacw", "seat": seat, "scenario": "herr-ridge", "units": units,
            "brigades": {"B": {"seat": seat, "orders": "advance"}}, "leaders": {},
            "turn": "1-0900", "light": "day", "phase": "action", "current": None,
            "brigade": None, **more}


def best(v: JSON, legal: list[JSON]) -> JSON:
    return legal[best_index(GbacwDoctrine().scores(v, legal), legal)]


def reaction(trigger: Hex) -> JSON:
    return {"kind": "reaction", "seat": "csa", "trigger": hid(trigger), "cause": "move"}


# --- reaction refusal (002 §9.61-9.62) ------------------------------------------------------
def test_react_refuse_the_flank_the_enemy_came_to_when_no_turn_is_offered() -> None:
    """002 §9.61: an enemy came next to the left flank; with no turn offered the unit refuses
    that flank (not the other); offered a turn toward it, it turns (a refusal leaves the
    other flank open); an enemy come to its front draws no reaction."""
    left = BASE.neighbour(2)
    units = {"me": unit("usa", BASE), "foe": unit("csa", left)}
    refusals = [{"type": "no_reaction"},
                {"type": "react_refuse", "unit": "me", "side": "right"},
                {"type": "react_refuse", "unit": "me", "side": "left"}]
    v = view(units, pending=reaction(left))
    assert best(v, refusals) == refusals[2]
    turn = {"type": "react", "unit": "me", "facing": {"kind": "vertex", "index": 1}}
    assert best(v, [*refusals, turn]) == turn
    front = BASE.neighbour(0)
    v2 = view({"me": unit("usa", BASE), "foe": unit("csa", front)}, pending=reaction(front))
    assert best(v2, refusals)["type"] == "no_reaction"


# --- refusing in the unit's own activation (002 §7.32) --------------------------------------
def test_refuse_a_flank_an_enemy_stands_beyond_in_own_activation() -> None:
    """002 §7.32: an enemy two hexes beyond the left flank, none in front: the unit refuses
    its left (1 MP) rather than end; a turn toward the enemy is better still; with the enemy
    in its front too it does not refuse (it would fire)."""
    legal = [{"type": "end_brigade"}, {"type": "refuse", "unit": "me", "side": "right"},
             {"type": "refuse", "unit": "me", "side": "left"}]
    flank = view({"me": unit("usa", BASE), "foe": unit("csa", away(BASE, 2, 2))})
    assert best(flank, legal) == legal[2]
    face = {"type": "face", "unit": "me", "facing": {"kind": "vertex", "index": 1}}
    assert best(flank, [*legal, face]) == face
    both = view({"me": unit("usa", BASE), "foe": unit("csa", away(BASE, 2, 2)),
                 "foe2": unit("csa", away(BASE, 0, 2))})
    assert best(both, legal)["type"] == "end_brigade"


# --- reaction move (002 §9.63) --------------------------------------------------------------
def test_react_move_takes_guns_away_from_stronger_infantry() -> None:
    """002 §9.63: 8 SP of infantry came next to a 2-gun battery: it backs two hexes away
    (the path ending farthest from the enemy), above its approach shot; next to 1 SP it
    stays and fires."""
    guns = unit("usa", BASE, sp=2, arm="art")
    back1, back2 = BASE.neighbour(3), away(BASE, 3, 2)
    legal: list[JSON] = [{"type": "no_reaction"}, {"type": "approach_fire", "unit": "g"},
             {"type": "react_move", "unit": "g", "path": [hid(back1)]},
             {"type": "react_move", "unit": "g", "path": [hid(back1), hid(back2)]}]
    strong = view({"g": guns, "foe": unit("csa", BASE.neighbour(0), sp=8)},
                  pending=reaction(BASE.neighbour(0)))
    assert best(strong, legal) == legal[3]
    weak = view({"g": guns, "foe": unit("csa", BASE.neighbour(0), sp=1)},
                pending=reaction(BASE.neighbour(0)))
    assert best(weak, legal)["type"] == "approach_fire"


# --- restack and stack moves (002 §8.24-8.25) -----------------------------------------------
def test_restack_puts_the_battery_on_top_near_the_enemy() -> None:
    """002 §8.24, §8.33: a battery under 2 SP of infantry fires nothing; with an enemy 3
    hexes off it goes on top instead of the brigade ending; with none near it stays below."""
    units = {"inf": unit("usa", BASE, sp=2, stack=0),
             "g": unit("usa", BASE, sp=4, arm="art", stack=1),
             "foe": unit("csa", away(BASE, 0, 3))}
    legal = [{"type": "end_brigade"}, {"type": "restack", "unit": "inf"},
             {"type": "restack", "unit": "g"}]
    assert best(view(units), legal) == legal[2]
    quiet = {**units, "foe": unit("csa", away(BASE, 0, 9))}
    assert best(view(quiet), legal)["type"] == "end_brigade"


def test_move_stack_is_judged_as_its_top_units_move() -> None:
    """002 §8.25: the Confederates (Herr Ridge's takers) move a stack one hex nearer their
    objective rather than end; the same move alone is preferred (the others choose)."""
    s = situation(view({}, seat="csa"))
    to = min((FAR.neighbour(d) for d in range(6)), key=s.to_goal)
    assert s.to_goal(to) < s.to_goal(FAR)
    units = {"a": unit("csa", FAR, stack=0), "b": unit("csa", FAR, stack=1)}
    stack = {"type": "move_stack", "unit": "a", "to": hid(to), "facing": V0}
    v = view(units, seat="csa")
    assert best(v, [{"type": "end_brigade"}, stack]) == stack
    alone = {"type": "move", "unit": "a", "to": hid(to), "facing": V0}
    assert best(v, [stack, alone]) == alone
    back = max((FAR.neighbour(d) for d in range(6)), key=s.to_goal)
    assert best(v, [{"type": "end_brigade"}, {**stack, "to": hid(back)}])["type"] == \
        "end_brigade"


# --- the non-phasing reserve (002 §10.15) ---------------------------------------------------
def test_reserve_shot_only_with_a_second_target_in_reach() -> None:
    """002 §10.15: one enemy hex in front: the whole withdrawal shot; two in front within
    reach: half now, half kept for the other hex. The same for approach and return fire."""
    me = unit("usa", BASE)
    for kind in ("withdrawal_fire", "approach_fire", "return_fire"):
        legal = [{"type": kind, "unit": "me"}, {"type": f"{kind}_reserve", "unit": "me"}]
        one = view({"me": me, "foe": unit("csa", BASE.neighbour(0))})
        assert best(one, legal) == legal[0], kind
        two = view({"me": me, "foe": unit("csa", BASE.neighbour(0)),
                    "foe2": unit("csa", BASE.neighbour(1))})
        assert best(two, legal) == legal[1], kind


# --- the Alexander swap (004 §4.35) ---------------------------------------------------------
def test_alexander_swap_only_with_a_barrage_in_view() -> None:
    """004 §4.35: six Confederate long-range batteries with an enemy 6 hexes off: the swap
    (two AMs) is worth it; with two batteries the orders segment ends without it."""
    foe = {"foe": unit("usa", away(BASE, 0, 6), sp=8)}
    guns = {f"g{i}": unit("csa", away(BASE, 3, i), sp=2, arm="art", counter=GUN)
            for i in range(6)}
    legal: list[JSON] = [{"type": "end_orders"}, {"type": "alexander_swap", "from": ["CS-I:1"]}]
    assert best(view({**guns, **foe}, seat="csa", phase="orders"), legal) == legal[1]
    few = {k: guns[k] for k in ("g0", "g1")}
    assert best(view({**few, **foe}, seat="csa", phase="orders"), legal) == legal[0]


# --- conditional cavalry (004 §14.7) --------------------------------------------------------
def test_conditional_cavalry_kept_in_play_and_brought_back() -> None:
    """004 §14.71-14.75: the general holds back and withdraws no cavalry brigade (the orders
    segment ends instead) and brings a surplus back when the rule offers it."""
    v = view({}, seat="csa", phase="orders")
    hold: list[JSON] = [{"type": "end_orders"},
            {"type": "hold_cavalry", "brigades": ["CS-Jenkins"], "batteries": []},
            {"type": "withdraw_cavalry", "brigade": "CS-Jenkins"}]
    assert best(v, hold)["type"] == "end_orders"
    back: list[JSON] = [{"type": "end_orders"},
            {"type": "return_cavalry", "brigades": ["CS-Jenkins"], "area": "9"}]
    assert best(v, back)["type"] == "return_cavalry"
    buford: list[JSON] = [{"type": "buford_leaves"},
                          {"type": "buford_stays", "groups": ["g1", "g2"], "battery": "b"}]
    assert best(view({}, phase="orders"), [{"type": "end_orders"}, *buford]) == buford[1]
