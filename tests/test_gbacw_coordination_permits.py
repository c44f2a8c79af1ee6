"""What each order allows in the engine now that the combat phases exist (002 §6.11's Orders
Summary, §6.13 March, §6.15 Advance, §6.16 Attack): positions built by hand on
tests/data/gbacw/coordination.yaml, Gamble's brigade active, one of Archer's regiments moved
into a front hex of a Gamble unit, the brigade's orders then set by hand."""

from __future__ import annotations

from pathlib import Path

import pytest

from gbacw_skirmish import ARCHER, GAMBLE, active_gamble
from gettysburg.core.protocol import RuleError
from gettysburg.gbacw.facing import front_hexes
from gettysburg.gbacw.game import GbacwGame
from gettysburg.gbacw.shock import check_withdrawal_before_shock, pre_shock_drm_ids
from gettysburg.gbacw.shock_action import combatant_of

SCENARIO = str(Path(__file__).parent / "data" / "gbacw" / "coordination.yaml")


def gamble_facing_archer(orders: str) -> tuple[GbacwGame, str, str, str]:
    """Gamble's brigade active with ``orders``; its first unit has an Archer regiment in a
    front hex. Returns the game, the unit, the enemy unit and the enemy's hex id."""
    # the shared opening, then zeros: the same d10s as [7, 3, 0, 5, 4] + [0] * 80
    g, k, enemy = active_gamble([0] * 20, scenario=SCENARIO)
    u = g.pos.units[k]
    here = g.hex_of(u.hex)
    assert here is not None
    g.pos.brigades[GAMBLE].orders = orders
    g._refacing(GAMBLE)  # a March unit faces a hexside (002 §7.1)
    assert u.facing is not None
    target = g.cat.board.hexes[front_hexes(here, u.facing)[0]].id
    g.pos.units[enemy].hex = target
    g._memo.clear()
    return g, k, enemy, target


def kinds_for(g: GbacwGame, unit: str) -> set[str]:
    return {str(a["type"]) for a in g.legal_actions("usa") if a.get("unit") == unit
            or unit in {x for s in a.get("shocks", []) for x in s.get("attackers", [])}}


def test_6_13_a_march_unit_neither_fires_nor_shocks_nor_rallies() -> None:
    """002 §6.13 (and the Orders Summary, §6.11): on March a unit only moves: no fire, no
    shock, no rally, no charge; the engine lists none and refuses each with its section."""
    g, k, _, target = gamble_facing_archer("march")
    assert not kinds_for(g, k) & {"fire", "shock", "rally", "charge", "fire_split"}
    g.pos.units[k].disordered = True
    g._memo.clear()
    assert "rally" not in kinds_for(g, k)
    refusals = {
        "fire": ({"type": "fire", "unit": k, "target": target}, {"10.33", "6.13"}),
        "shock": ({"type": "shock", "shocks": [{"attackers": [k], "targets": [target]}]},
                  {"11.12", "6.13"}),
        "rally": ({"type": "rally", "unit": k}, {"6.13"}),
    }
    for name, (action, rules) in refusals.items():
        before = g.state_hash()
        with pytest.raises(RuleError) as err:
            g.apply(action, "usa")
        assert err.value.rule in rules, (name, err.value.rule)
        assert g.state_hash() == before


def test_6_13_a_march_defender_takes_plus_two_and_does_not_withdraw() -> None:
    """002 §6.13: shocked on March orders, +2 on the pre-shock check; no withdrawal before
    shock (§11.33)."""
    g, k, enemy, _ = gamble_facing_archer("advance")
    g.pos.brigades[ARCHER].orders = "march"
    g._memo.clear()
    ids = pre_shock_drm_ids(combatant_of(g, enemy), [combatant_of(g, k)])
    assert "march-orders" in ids
    with pytest.raises(RuleError) as err:
        check_withdrawal_before_shock(combatant_of(g, enemy), [combatant_of(g, k)])
    assert err.value.rule == "11.33"
    g.pos.brigades[ARCHER].orders = "advance"  # the same defender on Advance may withdraw
    g._memo.clear()
    check_withdrawal_before_shock(combatant_of(g, enemy), [combatant_of(g, k)])


def test_6_15_advance_moves_or_fires_6_16_attack_both() -> None:
    """002 §6.15: on Advance a unit that fired may not move; §6.16: on Attack it may."""
    for orders, moves_after in (("advance", False), ("attack", True)):
        g, k, _, target = gamble_facing_archer(orders)
        fire = {"type": "fire", "unit": k, "target": target}
        assert fire in g.legal_actions("usa"), orders
        g.apply(fire, "usa")
        if g.pos.pending is not None:  # the defender's answer to the shot (002 §10.42)
            g.apply(next(a for a in g.legal_actions(g.to_move()[0])
                         if a["type"] in ("hold", "no_reaction")), g.to_move()[0])
        if k not in g.pos.units or g.pos.units[k].hex is None or g.pos.pending is not None:
            continue  # the answer took it off (not what this test is about)
        moved = [a for a in g.legal_actions("usa") if a["type"] == "move" and a["unit"] == k]
        assert bool(moved) == moves_after, orders


def test_6_11_shock_needs_advance_or_attack() -> None:
    """002 §6.11's summary: Advance and Attack units may shock (§11.12)."""
    for orders in ("advance", "attack"):
        g, k, _, target = gamble_facing_archer(orders)
        assert {"type": "shock", "shocks": [{"attackers": [k], "targets": [target]}]} \
            in g.legal_actions("usa"), orders
