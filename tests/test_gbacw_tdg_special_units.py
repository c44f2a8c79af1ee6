"""Berdan's sharpshooters (004 §14.4) and Trimble (§14.6) in the engine (special_units.py),
on Little Round Top's and Third Day's opening positions, set by hand where needed."""

from __future__ import annotations

import pytest

from gettysburg.core.protocol import RuleError
from gettysburg.gbacw import special_units
from gettysburg.gbacw.game import GbacwGame

USSS1, USSS2 = "US-III:1 USSS", "US-III:2 USSS"


def _union_orders(g: GbacwGame) -> None:
    if g.to_move() == ["csa"]:
        g.apply({"type": "end_orders"}, "csa")
    assert g.to_move() == ["usa"] and g.pos.phase == "orders"


def test_berdan_picks_a_division_at_the_turn_start() -> None:
    """tdg.14.4: each sharpshooter unit picks the division whose AMs it uses this turn
    (joined to the division's first brigade in play); once a turn."""
    g = GbacwGame("little-round-top", seed=1)
    _union_orders(g)
    picks = [a for a in g.legal_actions("usa") if a["type"] == "attach"
             and a["unit"] == USSS1]
    assert picks and all(a["brigade"] != "US-2/1/III" for a in picks)
    act = picks[-1]
    g.apply(act, "usa")
    assert g.formation(USSS1) == act["brigade"]
    assert USSS1 in g.brigade_units(act["brigade"])
    assert not [a for a in g.legal_actions("usa") if a["type"] == "attach"
                and a["unit"] == USSS1]
    with pytest.raises(RuleError) as e:
        g.validate({"type": "attach", "unit": USSS2, "brigade": "US-2/1/III"}, "usa")
    assert e.value.rule == "tdg.14.4"  # its own brigade already: not a pick


def test_berdan_range_rule() -> None:
    """tdg.14.4: the sharpshooters' counters carry the range chart's unit rule (6 hexes,
    -2 at 6)."""
    g = GbacwGame("little-round-top", seed=1)
    assert special_units.range_rule(g.counter(USSS1).flags) == "berdan-sharpshooters"
    assert special_units.range_rule(()) is None
    from gettysburg.gbacw.charts import all_charts
    assert all_charts().range.max_range("R", unit_rule="berdan-sharpshooters") == 6


def test_trimble_takes_a_fallen_post_once() -> None:
    """tdg.14.6: a Confederate division post held by its replacement may go to Trimble
    (the back of his counter); then no more."""
    g = GbacwGame("third-day", seed=1)
    p = g.pos
    if g.to_move() == ["csa"]:
        pass
    else:
        g.apply({"type": "end_orders"}, "usa")
    assert g.to_move() == ["csa"]
    assert not [a for a in g.legal_actions("csa") if a["type"] == "trimble"]
    p.acting["heth"] = "pettigrew"  # Heth fell; Pettigrew took the division
    p.dead.append("heth")
    g._memo.clear()
    act = {"type": "trimble", "post": "heth"}
    assert act in g.legal_actions("csa")
    ev = g.apply(act, "csa")
    assert ev[0].data == {"post": "heth", "side": "back", "instead_of": "pettigrew"}
    assert p.acting["heth"] == "trimble"
    p.acting["longstreet"] = "mclaws"
    g._memo.clear()
    with pytest.raises(RuleError) as e:
        g.validate({"type": "trimble", "post": "longstreet"}, "csa")
    assert e.value.rule == "tdg.14.6"


def test_imboden_keeps_advance_orders_tdg_14_77() -> None:
    """tdg.14.77: Imboden's brigade (brought by random event H) never changes its orders:
    no Division Orders change, no orders-change roll."""
    from gettysburg.gbacw import imboden, scenario_step

    g = GbacwGame("battle", seed=1)
    g.pos.turn += 1
    imboden.bring(g, 1)
    g._memo.clear()
    brigade = "CS-Imboden/Cav"
    assert brigade in g.pos.brigades
    err = scenario_step.fixed_orders(g, brigade, "march")
    assert err is not None and err.rule == "tdg.14.77"
    assert scenario_step.fixed_orders(g, brigade, "advance") is None
    assert g._orders_problem(brigade, "attack") is not None
    assert g._roll_problem(brigade) is not None
    assert scenario_step.fixed_orders(g, "CS-Archer/Heth", "march") is None
