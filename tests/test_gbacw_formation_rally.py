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
