"""Reactions in the engine beyond a lone unit's turn (gbacw/reaction_step.py): a stack
turning together with a UDD each (002 §9.62), refusal as a reaction (§9.61), reaction to
fire from outside the front (§9.61), reaction moves of mounted cavalry (§9.63) and the
artillery's -2 (§9.62). Positions built by hand on the skirmish scenario; d10s scripted."""

from __future__ import annotations

from gbacw_skirmish import ARCHER
from gettysburg.core.dice import ScriptedDice
from gettysburg.core.protocol import Event
from gettysburg.gbacw import reaction_step
from gettysburg.gbacw.facing import Facing, front_hexes
from gettysburg.gbacw.game import GbacwGame
from test_gbacw_reaction_facing import beside


def stacked() -> tuple[GbacwGame, str, str, str]:
    """``beside()`` with a second Archer regiment ``f`` stacked on ``e``, same facing."""
    g, k, e = beside()
    f = next(x for x in g.brigade_units(ARCHER) if x != e)
    g.pos.units[f].hex = g.pos.units[e].hex
    g.pos.units[f].facing = g.pos.units[e].facing
    g._memo.clear()
    return g, k, e, f


def test_a_stack_turns_together_with_a_udd_each_9_62() -> None:
    g, k, e, f = stacked()
    reaction_step.after_move(g, k)
    turns = [a for a in g.legal_actions("csa") if a["type"] == "react"]
    assert {a["unit"] for a in turns} == {e, f}
    g.dice = ScriptedDice([9, 0] + [0] * 10, die="d10")  # e fails, f passes
    ev = g.apply({"type": "react", "unit": e, "facing": {"kind": "vertex", "index": 1}},
                 "csa")
    assert g.pos.units[e].facing == g.pos.units[f].facing == Facing("vertex", 1)
    check = next(x for x in ev if x.type == "reaction_check")
    assert [c["unit"] for c in check.data["checks"]] == sorted([e, f])
    assert g.pos.units[sorted([e, f])[0]].disordered
    assert not g.pos.units[sorted([e, f])[1]].disordered
    assert g.pos.pending is None  # both reacted: nobody left to ask


def test_a_stack_with_a_refusing_unit_does_not_turn_9_62() -> None:
    g, k, e, f = stacked()
    g.pos.units[f].refused = ["left"]
    here = g.hex_of(g.pos.units[k].hex)
    assert here is not None
    assert reaction_step.turns(g, e, here) == []


def test_refusing_a_flank_in_reaction_9_61() -> None:
    g, k, e = beside()
    reaction_step.after_move(g, k)
    refusals = [a for a in g.legal_actions("csa") if a["type"] == "react_refuse"]
    assert refusals and all(a["unit"] == e for a in refusals)
    side = refusals[0]["side"]
    g.dice = ScriptedDice([0] * 10, die="d10")
    ev = g.apply(refusals[0], "csa")
    assert g.pos.units[e].refused == [side]
    assert [x.type for x in ev] == ["reaction_refusal", "dice", "reaction_check"]
    assert g.pos.pending is None


def _facing_away(g: GbacwGame, e: str, k: str) -> None:
    """Turn ``e`` so that ``k``'s hex is out of its front."""
    eh, kh = g.hex_of(g.pos.units[e].hex), g.hex_of(g.pos.units[k].hex)
    assert eh is not None and kh is not None
    g.pos.units[e].facing = next(Facing("vertex", v) for v in range(6)
                                 if kh not in front_hexes(eh, Facing("vertex", v)))
    g._memo.clear()


def test_fire_from_outside_the_front_lets_the_target_react_9_61() -> None:
    g, k, e = beside()
    _facing_away(g, e, k)
    shot = [Event("fire", "10.17", {"unit": k, "target": g.pos.units[e].hex})]
    ev = reaction_step.after_fire(g, shot)
    assert [x.type for x in ev] == ["reaction_possible"]
    assert g.pos.pending is not None and g.pos.pending["cause"] == "fire"
    assert g.pos.pending["units"] == [e] and g.to_move() == ["csa"]


def test_no_reaction_to_fire_that_makes_the_target_retreat_9_61() -> None:
    g, k, e = beside()
    _facing_away(g, e, k)
    shot = [Event("fire", "10.17", {"unit": k, "target": g.pos.units[e].hex}),
            Event("fire_retreat", "12.35", {"unit": e})]
    assert reaction_step.after_fire(g, shot) == []
    assert g.pos.pending is None


def test_no_reaction_to_fire_from_the_front() -> None:
    g, k, e = beside()
    eh, kh = g.hex_of(g.pos.units[e].hex), g.hex_of(g.pos.units[k].hex)
    assert eh is not None and kh is not None
    g.pos.units[e].facing = next(Facing("vertex", v) for v in range(6)
                                 if kh in front_hexes(eh, Facing("vertex", v)))
    shot = [Event("fire", "10.17", {"unit": k, "target": g.pos.units[e].hex})]
    assert reaction_step.after_fire(g, shot) == []


def mounted_enemy(distance: int, *, disordered: bool = False) -> tuple[GbacwGame, str, str]:
    """Gamble's unit ``k`` has moved; a mounted cavalry regiment ``x`` stands ``distance``
    hexes off it on the other side (a Union counter handed to the Confederate seat, for a
    mounted regiment the skirmish lacks), everyone else of that side off the map."""
    g, k, _e = beside()
    for _y, u in g.pos.units.items():
        if u.seat == "csa":
            u.hex = None
    x = "US-Cav:9 NY Cav"
    here = g.hex_of(g.pos.units[k].hex)
    assert here is not None
    taken = {u.hex for u in g.pos.units.values()}
    spot = next(h for h in sorted(g.cat.board.hexes) if h.distance(here) == distance
                and g.cat.board.hexes[h].id not in taken
                and g.cat.board.hexes[h].terrain == "open")
    u = g.pos.units[x]
    u.seat, u.hex, u.disordered = "csa", g.cat.board.hexes[spot].id, disordered
    u.facing = Facing("vertex", 0)
    g._memo.clear()
    return g, k, x


def test_mounted_cavalry_moves_in_reaction_9_63() -> None:
    g, k, x = mounted_enemy(2)
    ev = reaction_step.after_move(g, k)
    assert ev and g.pos.pending is not None and g.pos.pending["movers"] == [x]
    moves = [a for a in g.legal_actions("csa") if a["type"] == "react_move"]
    assert moves and all(a["unit"] == x for a in moves)
    here = g.hex_of(g.pos.units[k].hex)
    before = g.hex_of(g.pos.units[x].hex)
    assert here is not None and before is not None
    g.dice = ScriptedDice([0] * 10, die="d10")
    out = g.apply(moves[-1], "csa")
    after = g.hex_of(g.pos.units[x].hex)
    assert after is not None and after.distance(here) > before.distance(here)  # away (12.44)
    assert [y.type for y in out][:2] == ["reaction_move", "dice"]
    assert not g.pos.units[x].disordered and g.pos.pending is None


def test_a_disordered_reactor_failing_loses_a_step_9_63() -> None:
    g, k, x = mounted_enemy(2, disordered=True)
    reaction_step.after_move(g, k)
    move = next(a for a in g.legal_actions("csa") if a["type"] == "react_move")
    g.dice = ScriptedDice([9] * 10, die="d10")
    g.apply(move, "csa")
    assert g.pos.units[x].lost == 1 and g.pos.units[x].disordered


def test_a_reactor_losing_its_last_sp_leaves_the_map_9_63_12_13() -> None:
    """A disordered mounted regiment down to its last SP fails its reaction move's check:
    the second disorder's SP loss eliminates it (§12.13), so it leaves the map at once and is
    never offered another reaction (random play once moved such a unit again and crashed
    on negative SP)."""
    g, k, x = mounted_enemy(2, disordered=True)
    g.pos.units[x].lost = g.counter(x).sp - 1
    reaction_step.after_move(g, k)
    move = next(a for a in g.legal_actions("csa") if a["type"] == "react_move")
    g.dice = ScriptedDice([9] * 10, die="d10")
    ev = g.apply(move, "csa")
    assert g.pos.units[x].hex is None
    assert any(e.type == "eliminated" and e.data["unit"] == x for e in ev)
    assert not any(a.get("unit") == x for a in g.legal_actions("csa"))


def test_too_far_or_on_march_no_reaction_move_9_63() -> None:
    g, k, x = mounted_enemy(4)
    reaction_step.after_move(g, k)
    assert g.pos.pending is None or x not in g.pos.pending.get("movers", [])
    g, k, x = mounted_enemy(2)
    g.pos.brigades[g.formation(x)].orders = "march"
    g.pos.units[x].facing = Facing("side", 0)
    g._memo.clear()
    here = g.hex_of(g.pos.units[k].hex)
    assert here is not None and reaction_step.moves(g, x, here) == []


def test_artillery_fires_at_minus_two_after_a_reaction_turn_9_62() -> None:
    g, _k, e = beside()
    g.pos.reacted = [e]
    assert reaction_step.artillery_fire_drm(g, e) == 0  # infantry: no such DRM
    g2 = GbacwGame("herr-ridge", seed=1)
    battery = next(b for b in sorted(g2.pos.units) if g2.counter(b).arm == "art")
    assert reaction_step.artillery_fire_drm(g2, battery) == 0
    g2.pos.reacted = [battery]
    assert reaction_step.artillery_fire_drm(g2, battery) == -2
    g2.pos.units[battery].fired = ["return"]  # its first non-phasing shot is used
    assert reaction_step.artillery_fire_drm(g2, battery) == 0
