"""002 §9.72 in the engine (entry_step.shock_barred): a unit that comes on by an entry hex next
to an enemy on Advance orders may not shock in that activation; on Attack it may. Little
Round Top's group a at C1015, an enemy placed by hand beside the hex."""

from __future__ import annotations

import pytest

from gettysburg.core.protocol import RuleError
from gettysburg.gbacw import entry_step
from gettysburg.gbacw.game import GbacwGame
from gettysburg.gbacw.state import unit_key


def _entered(orders: str) -> tuple[GbacwGame, str, str]:
    g = GbacwGame("little-round-top", seed=1)
    k = sorted({unit_key(c) for c in g.scen.arrivals[0].counters})[0]
    entry = g.cat.board.parse("C1015")
    foe = next(x for x, u in sorted(g.pos.units.items()) if u.seat == "csa" and u.hex)
    g.pos.units[foe].hex = g.cat.board.hexes[next(
        h for h in entry.neighbours() if h in g.cat.board.hexes)].id
    g.pos.brigades[g.formation(k)].orders = "attack"  # a path in by that hex
    g.pos.current = "usa/US-1/III"
    g._memo.clear()
    first = next(r for r in g.reach(k).values() if r.path[0][0] == entry)
    g.pos.brigades[g.formation(k)].orders = orders
    g._memo.clear()
    entry_step.note_entry(g, k, first)
    return g, k, foe


def test_advance_entry_next_to_the_enemy_bars_shock_9_72() -> None:
    g, k, foe = _entered("advance")
    assert entry_step.shock_barred(g, k)
    shock = {"type": "shock", "shocks": [{"attackers": [k], "targets": [g.pos.units[foe].hex]}]}
    assert not entry_step.shock_allowed(g, shock)
    with pytest.raises(RuleError) as e:
        entry_step.check_shock(g, shock)
    assert e.value.rule == "9.72"
    g.pos.current = "usa/US-2/III"  # its next activation marker
    assert not entry_step.shock_barred(g, k)


def test_attack_entry_may_shock_9_72() -> None:
    g, k, _ = _entered("attack")
    assert not entry_step.shock_barred(g, k)
