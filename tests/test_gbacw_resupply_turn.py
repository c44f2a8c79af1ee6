"""The one-vertex turn after a resupply (002 §10.92, gbacw/resupply_turn.py): a battery low
on ammunition resupplies and turns one vertex either way, a second battery stacked with it
turning too; two vertices, a unit with nothing to resupply and one next to the enemy are
refused. Hand-made gun-line positions."""

from __future__ import annotations

import pytest

from gbacw_gunline import AL13, NAP1, NAP2, RESERVE, at, gunline, place
from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import RuleError
from gettysburg.gbacw.facing import Facing
from gettysburg.gbacw.game import GbacwGame


def nb(h: Hex, d: int, n: int = 1) -> Hex:
    for _ in range(n):
        h = h.neighbour(d % 6)
    return h


def battery(distance: int, ammo: str) -> GbacwGame:
    """Two Napoleon batteries stacked, facing vertex 0; Archer's 13th Alabama ``distance``
    hexes ahead; the top battery's ammunition ``ammo``."""
    g = gunline(RESERVE)
    c = at(g, (0, 0))
    place(g, NAP1, c, 0)
    place(g, NAP2, c, 0)
    place(g, AL13, nb(c, 0, distance), 3)
    g.pos.units[NAP1].ammo = ammo
    g._memo.clear()
    return g


def test_resupply_then_turn_one_vertex_10_92() -> None:
    g = battery(5, "low")
    turns = [a for a in g.legal_actions("usa") if a["type"] == "resupply_face"]
    assert {Facing.from_json(a["facing"]) for a in turns if a["unit"] == NAP1} == {
        Facing("vertex", 1), Facing("vertex", 5)}
    ev = g.apply({"type": "resupply_face", "unit": NAP1,
                  "facing": Facing("vertex", 1).to_json()}, "usa")
    assert [(e.type, e.rule) for e in ev] == [("resupply", "10.92"), ("resupply_turn", "10.92")]
    assert g.pos.units[NAP1].ammo == "none"
    assert g.pos.units[NAP1].facing == Facing("vertex", 1)
    assert g.pos.units[NAP2].facing == Facing("vertex", 1)  # the stack turns as one (§7.11)
    assert not any(a.get("unit") == NAP1 and a["type"].startswith("resupply")
                   for a in g.legal_actions("usa"))  # its action for the activation


def test_resupply_turn_refusals_10_92_10_93() -> None:
    g = battery(5, "low")
    with pytest.raises(RuleError) as e:  # two vertices
        g.validate({"type": "resupply_face", "unit": NAP1,
                    "facing": Facing("vertex", 2).to_json()}, "usa")
    assert e.value.rule == "10.92"
    g = battery(5, "none")
    with pytest.raises(RuleError) as e:  # nothing to resupply
        g.validate({"type": "resupply_face", "unit": NAP1,
                    "facing": Facing("vertex", 1).to_json()}, "usa")
    assert e.value.rule == "10.92"
    g = battery(1, "low")
    with pytest.raises(RuleError) as e:  # next to the enemy
        g.validate({"type": "resupply_face", "unit": NAP1,
                    "facing": Facing("vertex", 1).to_json()}, "usa")
    assert e.value.rule == "10.93"
    assert not any(a["type"] == "resupply_face" for a in g.legal_actions("usa"))
