"""Reaction facing in the engine (gbacw/reaction_step.py, 002 §9.61-9.62) on the hand-made
skirmish: an enemy ending its move next to a unit lets the unit's owner turn it one vertex,
once per enemy brigade activation, with a UDD for infantry and cavalry."""

from __future__ import annotations

import pytest

from gbacw_skirmish import ARCHER, active_gamble
from gettysburg.core.dice import ScriptedDice
from gettysburg.core.protocol import RuleError
from gettysburg.gbacw import reaction_step
from gettysburg.gbacw.facing import Facing, front_hexes
from gettysburg.gbacw.game import GbacwGame


def beside() -> tuple[GbacwGame, str, str]:
    """Gamble's first unit ``k`` just moved; an Archer regiment ``e`` stands next to it, in
    nobody else's front hex (a position built by hand)."""
    g, k, _ = active_gamble()
    here = g.hex_of(g.pos.units[k].hex)
    assert here is not None
    fronts = set()
    for x, u in g.pos.units.items():
        h = g.hex_of(u.hex)
        if x != k and u.seat == "usa" and h is not None and u.facing is not None:
            fronts |= set(front_hexes(h, u.facing))
    taken = {u.hex for u in g.pos.units.values()}
    spot = next(h for h in (here.neighbour(d) for d in range(6))
                if h in g.cat.board.hexes and h not in fronts
                and g.cat.board.hexes[h].id not in taken)
    e = g.brigade_units(ARCHER)[0]
    for x in g.brigade_units(ARCHER):  # the rest of Archer's brigade out of the way
        if x != e:
            g.pos.units[x].hex = None
    g.pos.units[e].hex = g.cat.board.hexes[spot].id
    g.pos.units[e].facing = Facing("vertex", 0)
    return g, k, e


def test_a_move_next_to_the_unit_asks_its_owner_9_61() -> None:
    g, k, e = beside()
    ev = reaction_step.after_move(g, k)
    assert [x.type for x in ev] == ["reaction_possible"] and g.to_move() == ["csa"]
    legal = g.legal_actions("csa")
    turns = [a for a in legal if a["type"] == "react"]
    assert {a["unit"] for a in turns} == {e} and len(turns) == 2  # one vertex either way
    assert {"type": "no_reaction"} in legal
    for a in legal:
        g.validate(a, "csa")
    with pytest.raises(RuleError) as err:  # two vertices: refused
        g.validate({"type": "react", "unit": e, "facing": {"kind": "vertex", "index": 2}},
                   "csa")
    assert err.value.rule == "9.62"


def test_react_turns_and_checks_9_62() -> None:
    g, k, e = beside()
    reaction_step.after_move(g, k)
    g.dice = ScriptedDice([9], die="d10")  # the UDD fails (9 > cohesion)
    ev = g.apply({"type": "react", "unit": e, "facing": {"kind": "vertex", "index": 1}}, "csa")
    assert g.pos.units[e].facing == Facing("vertex", 1)
    assert [x.type for x in ev] == ["reaction_facing", "dice", "reaction_check"]
    assert g.pos.units[e].disordered
    assert g.pos.pending is None and g.to_move() == ["usa"]
    # once per enemy brigade activation
    assert reaction_step.after_move(g, k) == []


def test_no_reaction_goes_on() -> None:
    g, k, e = beside()
    reaction_step.after_move(g, k)
    before = g.pos.units[e].facing
    g.apply({"type": "no_reaction"}, "csa")
    assert g.pos.units[e].facing == before and g.to_move() == ["usa"]
