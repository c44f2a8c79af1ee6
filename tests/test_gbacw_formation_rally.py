"""A rallied unit may turn one vertex (002 §7.25): the action ``rally_face`` {unit, facing}
rolls the rally (§13.41) and turns the unit only if it rallies; a retreating unit keeps its
facing (the results code never turns one; ``facing.check_retreat_facing``). Hand-made
position tests/data/gbacw/formations.yaml, scripted d10s."""

from __future__ import annotations

import pytest

from gettysburg.core.dice import ScriptedDice
from gettysburg.core.protocol import RuleError
from gettysburg.gbacw.facing import Facing, turn
from gettysburg.gbacw.game import GbacwGame
from test_gbacw_formation_engine import NC11, active


def rallying() -> tuple[GbacwGame, Facing]:
    g = active()
    u = g.pos.units[NC11]
    u.disordered = True
    g._memo.clear()
    assert u.facing is not None
    return g, u.facing


def test_a_rallied_unit_turns_one_vertex_7_25() -> None:
    g, was = rallying()
    options = [a["facing"] for a in g.legal_actions("csa")
               if a["type"] == "rally_face" and a["unit"] == NC11]
    assert options == [turn(was, -1).to_json(), turn(was, 1).to_json()]
    g.dice = ScriptedDice([0] * 10, die="d10")
    ev = g.apply({"type": "rally_face", "unit": NC11,
                  "facing": turn(was, 1).to_json()}, "csa")
    u = g.pos.units[NC11]
    assert not u.disordered and u.facing == turn(was, 1)
    assert [e.type for e in ev if e.type in ("rally", "rally_turn")] == ["rally", "rally_turn"]


def test_no_turn_when_the_rally_fails_or_more_than_one_vertex_7_25() -> None:
    g, was = rallying()
    with pytest.raises(RuleError) as err:
        g.apply({"type": "rally_face", "unit": NC11,
                 "facing": turn(was, 2).to_json()}, "csa")
    assert err.value.rule == "7.25"
    g.dice = ScriptedDice([9] * 10, die="d10")
    ev = g.apply({"type": "rally_face", "unit": NC11,
                  "facing": turn(was, 1).to_json()}, "csa")
    u = g.pos.units[NC11]
    assert u.disordered and u.facing == was
    assert not any(e.type == "rally_turn" for e in ev)


def test_a_unit_retreating_into_a_friend_takes_the_stack_s_facing_7_25_7_11_8_23() -> None:
    """The 12th Illinois (dismounted, 5 SP) retreats from 11 NC, ahead of it, into hexes
    where friends of its brigade stand facing the other way: it keeps its facing on the way
    (§7.25) but ends with the stack's (one facing a hex, §7.11; §8.47 names such a turn) and
    goes into the stack by the side it came through (§8.23)."""
    from gettysburg.gbacw import results_step
    from gettysburg.gbacw.retreat import retreat_options

    g, _ = rallying()
    il12, friends = "US-Cav:12 IL", ["US-Cav:3 IN", "US-Cav:8 NY Cav#1", "US-Cav:8 NY Cav#2"]
    nc = g.pos.units[NC11]
    here = g.hex_of(nc.hex)
    assert here is not None and nc.facing is not None
    at = here.neighbour(nc.facing.index)  # 11 NC's front hex
    u = g.pos.units[il12]
    u.hex, u.facing = g.cat.board.hexes[at].id, Facing.vertex(nc.facing.index + 3)
    g._memo.clear()
    opts = retreat_options(g.cat.board, at, (1, 1), unit_class="infantry", orders="advance",
                           sur=results_step.surroundings(g, il12, {here}))
    ends = sorted({p.end for p in opts.paths}, key=lambda h: (h.q, h.r))
    assert 0 < len(ends) <= len(friends)
    other = Facing.vertex(nc.facing.index)
    for k, h in zip(friends, ends, strict=False):
        g.pos.units[k].hex, g.pos.units[k].facing = g.cat.board.hexes[h].id, other
    g._memo.clear()
    ev = results_step.retreat(g, il12, (1, 1), {here})
    while g.pos.pending is not None and g.pos.pending.get("kind") == "retreat":
        ev += g.apply(next(a for a in g.legal_actions("usa") if a["type"] == "retreat"),
                      "usa")
    moved = next(e for e in ev if e.type == "retreat")
    assert u.facing == other and moved.data["facing"] == other.to_json()
    mates = [k for k in friends if g.pos.units[k].hex == u.hex]
    assert mates and all(g.pos.units[k].facing == other for k in mates)
