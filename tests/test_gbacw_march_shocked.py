"""Who takes the UDD when a brigade is shocked on March orders (002 §11.48 step 6e, §6.26)
when its units are on different orders (§4.23: a unit out of command at an orders change
keeps its old orders). Reading (shock_after.march_shocked): the brigade is shocked "on
March" when its orders are March or a defender in the shock was on March of its own; the
UDD goes only to its other units that were on March themselves. Positions on the hand-made
skirmish (tests/data/gbacw/skirmish.yaml) with scripted d10s: 0, 0 for the pre-shock check
and the shock, then 9s, so every UDD fails."""

from __future__ import annotations

from gettysburg.core.dice import ScriptedDice
from gettysburg.core.protocol import Event
from gettysburg.gbacw.game import GbacwGame
from test_gbacw_orders_units import facings_agree
from test_gbacw_shock_continued import march_target
from test_gbacw_shock_engine import shocks, stand


def _shock(g: GbacwGame, k: str) -> Event:
    """Gamble's unit ``k`` shocks the regiment in its front; the defender stands."""
    g.dice = ScriptedDice([0, 0] + [9] * 40, die="d10")
    g.apply(next(a for a in shocks(g) if a["shocks"][0]["attackers"] == [k]), "usa")
    ev = stand(g)
    while g.pos.pending is not None:  # a retreat path, if any
        seat = g.to_move()[0]
        ev += g.apply(g.legal_actions(seat)[0], seat)
    return next(e for e in ev if e.type == "march_shocked")


def test_an_advance_brigade_s_units_take_no_udd_for_one_unit_on_its_own_march_11_48() -> None:
    """Davis's brigade is on Advance; the shocked regiment and one other kept March out of
    command. Only that other March unit takes the UDD (and fails it); the brigade's units on
    Advance were not caught in column and stay in good order (§11.48, §4.23)."""
    g, k, davis = march_target()
    brigade = g.formation(davis)
    others = [u for u in g.brigade_units(brigade) if u != davis]
    assert len(others) >= 2
    marcher, deployed = others[0], others[1:]
    g.pos.brigades[brigade].orders = "advance"
    g.pos.unit_orders[davis] = g.pos.unit_orders[marcher] = "march"
    g._refacing(brigade)
    g._memo.clear()
    assert not any(g.pos.units[u].disordered for u in others)
    march = _shock(g, k)
    assert march.rule == "11.48"
    assert [c["unit"] for c in march.data["checks"]] == [marcher]
    assert g.pos.units[marcher].disordered
    assert not any(g.pos.units[u].disordered for u in deployed)
    assert g.pos.brigades[brigade].orders == "advance" and not any(
        u in g.pos.unit_orders for u in g.brigade_units(brigade))
    facings_agree(g)


def test_a_march_brigade_s_unit_that_kept_advance_takes_no_udd_11_48() -> None:
    """Davis's brigade on March, one regiment kept Advance out of command (§4.23): the
    brigade goes to Advance (§6.26) and its other March units take the UDD; the one on
    Advance does not."""
    g, k, davis = march_target()
    brigade = g.formation(davis)
    others = [u for u in g.brigade_units(brigade) if u != davis]
    deployed, marchers = others[0], others[1:]
    assert marchers and g.pos.brigades[brigade].orders == "march"
    g.pos.unit_orders[deployed] = "advance"
    g._refacing(brigade)
    g._memo.clear()
    march = _shock(g, k)
    assert {c["unit"] for c in march.data["checks"]} == set(marchers)
    assert all(g.pos.units[u].disordered for u in marchers)
    assert not g.pos.units[deployed].disordered
    assert g.pos.brigades[brigade].orders == "advance"
    assert g.orders_of(deployed) == "advance"
    facings_agree(g)


def test_a_march_brigade_shocked_through_a_unit_on_its_own_advance_goes_to_advance_6_26() -> None:
    """Davis's brigade on March, the shocked regiment itself kept Advance: the brigade was
    still shocked on March orders (§6.26): it goes to Advance and its March units take the
    UDD (§11.48)."""
    g, k, davis = march_target()
    brigade = g.formation(davis)
    others = [u for u in g.brigade_units(brigade) if u != davis]
    g.pos.unit_orders[davis] = "advance"
    g._refacing(brigade)
    g._memo.clear()
    march = _shock(g, k)
    assert {c["unit"] for c in march.data["checks"]} == set(others)
    assert g.pos.brigades[brigade].orders == "advance"
    assert davis not in g.pos.unit_orders
    facings_agree(g)
