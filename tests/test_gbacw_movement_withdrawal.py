"""The withdrawal move in the engine (gbacw/withdrawal_step.py, 002 §9.54): one or two rear
hexes, facing kept, a UDD for each hex dearer than 1 MP (+1 per MP above one), a disordered
unit that fails going no further. Positions built by hand on the skirmish scenario (map B's
woods, as in §9.54's example of two woods hexes), the d10s scripted."""

from __future__ import annotations

import pytest

from gbacw_skirmish import active_gamble
from gettysburg.core.dice import ScriptedDice
from gettysburg.core.protocol import RuleError
from gettysburg.gbacw import withdrawal_step
from gettysburg.gbacw.facing import Facing
from gettysburg.gbacw.game import GbacwGame

WOODS = ["B4611", "B4510"]  # from B4711 facing vertex 0: 3 MP then 2 MP (UDD +2, +1)


def at_the_wood_edge(*, disordered: bool = False) -> tuple[GbacwGame, str]:
    g, k, _ = active_gamble()
    for x, u in g.pos.units.items():
        if x != k:
            u.hex = None
    u = g.pos.units[k]
    u.hex, u.facing, u.disordered = "B4711", Facing("vertex", 0), disordered
    g._memo.clear()
    return g, k


def withdraw(g: GbacwGame, k: str, path: list[str], dice: list[int]) -> dict[str, object]:
    g.dice = ScriptedDice(dice + [0] * 10, die="d10")
    ev = g.apply({"type": "withdrawal_move", "unit": k, "path": path}, "usa")
    return next(e.data for e in ev if e.type == "withdrawal_move")


def test_listed_with_the_checks_of_the_example_9_54() -> None:
    g, k = at_the_wood_edge()
    assert {"type": "withdrawal_move", "unit": k, "path": WOODS} in g.legal_actions("usa")
    w = next(w for w in withdrawal_step.choices(g, k)
             if [g.cat.board.hexes[h].id for h in w.hexes] == WOODS)
    assert [c.drm for c in w.checks if c is not None] == [2, 1]


def test_two_passes_back_two_hexes_facing_kept() -> None:
    g, k = at_the_wood_edge()
    data = withdraw(g, k, WOODS, [3, 3])
    u = g.pos.units[k]
    assert (u.hex, u.facing, u.disordered) == ("B4510", Facing("vertex", 0), False)
    assert [c["drm"] for c in data["checks"]] == [2, 1]  # type: ignore[attr-defined]
    # its move is spent, and it may not fire after it
    assert k not in g.active_units()
    assert not [a for a in g.legal_actions("usa") if a.get("unit") == k]


def test_a_failure_disorders_and_the_unit_goes_on() -> None:
    g, k = at_the_wood_edge()
    withdraw(g, k, WOODS, [9, 3])  # 9+2 > 7: disordered; 3+1 <= 5 passes
    u = g.pos.units[k]
    assert (u.hex, u.disordered) == ("B4510", True)


def test_disordered_in_the_first_hex_and_failing_again_goes_back_to_it() -> None:
    g, k = at_the_wood_edge()
    withdraw(g, k, WOODS, [9, 9])
    u = g.pos.units[k]
    assert (u.hex, u.disordered) == ("B4611", True)


def test_a_disordered_unit_failing_the_first_stays_there() -> None:
    g, k = at_the_wood_edge(disordered=True)
    data = withdraw(g, k, WOODS, [9, 0])
    assert len(data["checks"]) == 1  # type: ignore[arg-type]
    assert g.pos.units[k].hex == "B4611"


def test_a_front_hex_is_no_withdrawal() -> None:
    g, k = at_the_wood_edge()
    with pytest.raises(RuleError) as err:
        g.validate({"type": "withdrawal_move", "unit": k, "path": ["B4811"]}, "usa")
    assert err.value.rule == "9.54"


def test_march_orders_do_not_withdraw() -> None:
    g, k = at_the_wood_edge()
    g.pos.brigades[g.formation(k)].orders = "march"
    g.pos.units[k].facing = Facing("side", 0)
    g._memo.clear()
    assert withdrawal_step.choices(g, k) == []


def test_in_the_skirmish_a_unit_backs_out_of_an_enemy_front() -> None:
    g, k, enemy = active_gamble()
    options = [a for a in g.legal_actions("usa")
               if a["type"] == "withdrawal_move" and a["unit"] == k]
    assert options
    before = g.pos.units[k].facing
    g.dice = ScriptedDice([0] * 10, die="d10")
    g.apply(options[0], "usa")
    assert g.pos.units[k].hex == options[0]["path"][-1]
    assert g.pos.units[k].facing == before and enemy in g.pos.units


def test_a_withdrawal_ends_a_refusal_9_54() -> None:
    g, k = at_the_wood_edge()
    g.pos.units[k].refused = ["left"]
    withdraw(g, k, WOODS[:1], [0])
    assert g.pos.units[k].refused == []
