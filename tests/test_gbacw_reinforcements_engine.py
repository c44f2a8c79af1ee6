"""Reinforcements coming on in the engine (gbacw/entry_step.py): groups through one entry hex
keep their order (002 §9.73, Little Round Top's groups a and b at C1015) and a group on
Attack or Advance may come on by its entry area's adjacent edge hexes (004 §9.76, Herr
Ridge's Pettigrew and Brockenbrough at area 2)."""

from __future__ import annotations

from gettysburg.gbacw import entry_step
from gettysburg.gbacw.game import GbacwGame
from gettysburg.gbacw.reinforcements import entry_area
from gettysburg.gbacw.state import unit_key


def group_keys(g: GbacwGame, index: int) -> list[str]:
    return sorted({unit_key(c) for c in g.scen.arrivals[index].counters})


def test_a_later_group_waits_for_the_earlier_one_through_its_hex_9_73() -> None:
    g = GbacwGame("little-round-top", seed=1)
    assert [a.hex for a in g.scen.arrivals[:2]] == ["C1015", "C1015"]
    assert {0, 1} <= set(g.pos.arrived)
    a, b = group_keys(g, 0), group_keys(g, 1)
    assert all(g.waiting(k) == "C1015" for k in a)
    assert all(g.waiting(k) is None for k in b) and entry_step.held_up(g, 1)
    for k in a[:-1]:  # all but one of group a come on: b still waits
        g.pos.units[k].hex = "C1114"
    g._memo.clear()
    assert entry_step.held_up(g, 1)
    g.pos.units[a[-1]].hex = "C1114"
    g._memo.clear()
    assert not entry_step.held_up(g, 1)
    assert all(g.waiting(k) == "C1015" for k in b)


def arriving(orders: str) -> tuple[GbacwGame, str]:
    """Herr Ridge with group 0 (Pettigrew, Brockenbrough) due at area 2's direct hex."""
    g = GbacwGame("herr-ridge", seed=1)
    if 0 not in g.pos.arrived:
        g.pos.arrived.append(0)
        g.pos.entries["0"] = g.scen.arrivals[0].hex
        g.pos.arrived_on["0"] = g.pos.turn
    key = group_keys(g, 0)[0]
    g.pos.brigades[g.formation(key)].orders = orders
    g._memo.clear()
    return g, key


def test_advance_orders_come_on_by_the_area_s_adjacent_hexes_tdg_9_76() -> None:
    g, key = arriving("advance")
    area = entry_area(g.cat.board, 2)
    assert g.waiting(key) == "A1234" and g.cat.board.hexes[area.direct].id == "A1234"
    starts = {r.path[0][0] for r in g.reach(key).values()}
    assert area.direct in starts and starts - {area.direct}
    assert starts <= {area.direct, *area.adjacent}
    # a move that enters by an adjacent hex is legal and lands there first
    h, f = next((h, f) for (h, f), r in g.reach(key).items() if r.path[0][0] != area.direct)
    assert g.reach(key)[(h, f)].path[0][0] in area.adjacent


def test_march_orders_come_on_by_the_direct_hex_only_tdg_9_76() -> None:
    g, key = arriving("march")
    area = entry_area(g.cat.board, 2)
    assert {r.path[0][0] for r in g.reach(key).values()} <= {area.direct}


def test_a_second_unit_by_the_same_hex_pays_the_first_one_s_cost_too_9_72() -> None:
    g = GbacwGame("little-round-top", seed=1)
    a = group_keys(g, 0)
    k1, k2 = a[0], a[1]
    before = g.reach(k2)
    first = min(g.reach(k1).values(), key=lambda r: (r.half_mp, len(r.path)))
    entry = g.cat.board.parse("C1015")  # printed on two sheets: its board id may differ
    assert first.path[0][0] == entry
    hid = g.cat.board.hexes[entry].id
    entry_step.note_entry(g, k1, first)
    paid = entry_step.queued(g, hid)
    assert paid > 0
    far = next(h for h in sorted(g.cat.board.hexes) if h.distance(entry) > 30)
    g.pos.units[k1].hex = g.cat.board.hexes[far].id  # on the map, out of k2's way
    g._memo.clear()
    after = g.reach(k2)
    budget = 2 * g.mp_of(k2)
    for state, r in after.items():
        assert r.half_mp == before[state].half_mp + paid
    dropped = [s for s, r in before.items() if s not in after]
    assert all(before[s].half_mp + paid > budget for s in dropped)
    # a new activation marker starts a new queue
    g.pos.current = "usa/march"
    assert entry_step.queued(g, hid) == 0


def test_no_unit_enters_an_enemy_entry_hex_still_due_9_72() -> None:
    g = GbacwGame("herr-ridge", seed=1)
    entry = g.cat.board.parse("A1234")  # Hill's group is due there on a later turn
    assert entry in entry_step.barred_entries(g, "usa")
    assert entry not in entry_step.barred_entries(g, "csa")
    key = "US-Cav:8 IL"  # a mounted regiment placed by hand two hexes off it
    spot = next(h for h in sorted(g.cat.board.hexes) if h.distance(entry) == 2
                and g.cat.board.hexes[h].terrain == "open")
    g.pos.units[key].hex = g.cat.board.hexes[spot].id
    g._memo.clear()
    assert g.reach(key)
    assert not any(h == entry for r in g.reach(key).values() for h, _ in r.path)


def test_march_orders_do_not_come_on_next_to_an_enemy_9_72() -> None:
    g = GbacwGame("little-round-top", seed=1)
    k = group_keys(g, 0)[0]
    entry = g.cat.board.parse("C1015")
    foe = next(x for x, u in sorted(g.pos.units.items()) if u.seat == "csa" and u.hex)
    g.pos.units[foe].hex = g.cat.board.hexes[next(
        h for h in entry.neighbours() if h in g.cat.board.hexes)].id
    g.pos.brigades[g.formation(k)].orders = "attack"
    g._memo.clear()
    coming = g.reach(k)  # on Attack it may come on there (002 §9.72)
    assert [r for r in coming.values() if r.path[0][0] == entry]
    g.pos.brigades[g.formation(k)].orders = "march"
    g._memo.clear()
    # the same moves under March are dropped (§6.13's search ban says so too)
    assert entry_step.queue_filter(g, k, coming) == {}
    assert not [r for r in g.reach(k).values() if r.path[0][0] == entry]
