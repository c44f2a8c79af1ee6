"""An extended column (and a line) in shock (002 §8.5, §8.51, §8.46; issue 52): one solid
unit shocked through any of its hexes, its whole strength defending, with one front hex ahead
of the lead and one rear hex behind the tail (every other hex a flank). Engine cases on the
hand-made position tests/data/gbacw/formations.yaml (Davis's 11 MS, 12 SP, on March;
Gamble's dismounted 8 IL attacks), pure cases with :func:`shock.position`."""

from __future__ import annotations

from gettysburg.core.dice import ScriptedDice
from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import Event
from gettysburg.gbacw.combatant import Combatant
from gettysburg.gbacw.facing import Facing
from gettysburg.gbacw.game import GbacwGame
from gettysburg.gbacw.shock import position
from test_gbacw_extended_combat import play_out
from test_gbacw_formation_engine import MS11, NC11, active, hid

IL8 = "US-Cav:8 IL"


def column_and_attacker(k: int) -> tuple[GbacwGame, Hex, Hex, Hex]:
    """11 MS in a March column: lead L facing side d, trail T behind it; 8 IL in A =
    T's neighbour in direction d + k, facing T (front hexes: T and one more)."""
    g = active("US-1/1/Cav", "usa/US-1/Cav", "usa")
    p = g.pos
    u = p.units[MS11]
    assert u.facing is not None and u.facing.kind == "side"
    d = u.facing.index
    lead = g.hex_of(u.hex)
    assert lead is not None
    tail = lead.neighbour((d + 3) % 6)
    u.extension, u.extends = "column", [hid(g, tail)]
    a = tail.neighbour((d + k) % 6)
    to_tail = (d + k + 3) % 6  # the direction from A to T
    e = p.units[IL8]
    e.hex, e.facing = hid(g, a), Facing.vertex(to_tail)
    g._memo.clear()
    return g, lead, tail, a


def resolved(ev: list[Event]) -> Event:
    return next(e for e in ev if e.type == "shock_resolved")


def test_a_column_s_trail_is_a_shock_target_8_5() -> None:
    """8 IL touches only the trail (behind it): the trail is listed as a target and the
    whole column defends (12 SP); through the tail's rear hex the position is rear."""
    g, lead, tail, a = column_and_attacker(3)
    assert a.distance(lead) == 2
    designations = [x for x in g.legal_actions("usa") if x["type"] == "shock"]
    assert designations == [{"type": "shock",
                             "shocks": [{"attackers": [IL8], "targets": [hid(g, tail)]}]}]
    g.dice = ScriptedDice([0] * 60, die="d10")
    ev = g.apply(designations[0], "usa") + play_out(g)
    assert not [e for e in ev if e.type == "shock_cancelled"]
    r = resolved(ev)
    assert r.data["defender_sp"] == "12"  # the column's full strength (§8.5)
    ids = [x["id"] for x in r.data["roll"]["drms"]]
    assert "rear" in ids and "flank" not in ids


def test_a_column_s_side_is_a_flank_8_51() -> None:
    """From beside the trail (direction d + 2: next to the trail only) the column is shocked
    in the flank."""
    g, lead, _tail, a = column_and_attacker(2)
    assert a.distance(lead) == 2
    shock = next(x for x in g.legal_actions("usa") if x["type"] == "shock")
    g.dice = ScriptedDice([0] * 60, die="d10")
    ev = g.apply(shock, "usa") + play_out(g)
    ids = [x["id"] for x in resolved(ev).data["roll"]["drms"]]
    assert "flank" in ids and "rear" not in ids


def _col(lead: Hex, v: int) -> Combatant:
    trail = lead.neighbour((v + 3) % 6)  # in one of the lead's two rear hexes
    return Combatant("C", "csa", (lead, trail), Facing.vertex(v), "infantry", 12, 6,
                     column=True)


def _att(h: Hex, to: Hex) -> Combatant:
    d = next(i for i in range(6) if h.neighbour(i) == to)
    return Combatant("A", "usa", (h,), Facing.vertex(d), "infantry", 6, 6)


def test_an_advance_column_s_free_rear_hex_is_a_flank_8_51() -> None:
    """A column on Advance (vertex facing): the lead's other rear hex, beside its trail,
    is a flank of the column (the lead's own facing would call it rear)."""
    lead, v = Hex(10, 10), 1
    col = _col(lead, v)
    free = lead.neighbour((v + 4) % 6)
    assert position([col], [_att(free, lead)]) == "flank"
    behind = col.hexes[1].neighbour((v + 3) % 6)  # the tail's own rear
    assert position([col], [_att(behind, col.hexes[1])]) == "rear"
    ahead = lead.neighbour(v)
    assert position([col], [_att(ahead, lead)]) is None  # the front: no position DRM
    assert position([col], [_att(ahead, lead), _att(free, lead)]) == "front-flank"


def test_a_column_s_front_is_its_lead_s_8_51() -> None:
    col = _col(Hex(10, 10), 1)
    assert col.fronts() == frozenset({Hex(10, 10).neighbour(1), Hex(10, 10).neighbour(2)})
    plain = Combatant("L", "csa", col.hexes, col.facing, "infantry", 12, 6)
    assert col.hexes[1].neighbour(2) in plain.fronts() - col.fronts()


def test_a_line_shocked_through_its_extension_alone_fights_8_46() -> None:
    """11 NC's two-hex line; 8 IL touches only its extension (two hexes from the counter):
    the shock is listed, fought against the whole line (12 SP), not cancelled."""
    g = active("US-1/1/Cav", "usa/US-1/Cav", "usa")
    u = g.pos.units[NC11]
    assert u.facing is not None
    v = u.facing.index
    left = g.hex_of(u.hex)
    assert left is not None
    right = left.neighbour((v - 1) % 6)
    d = right.neighbour((v - 1) % 6)
    u.extension, u.extends = "line", [hid(g, right)]
    e = g.pos.units[IL8]
    e.hex, e.facing = hid(g, d), Facing.vertex((v + 2) % 6)
    g._memo.clear()
    assert d.distance(left) == 2
    shock = {"type": "shock", "shocks": [{"attackers": [IL8], "targets": [hid(g, right)]}]}
    assert [x for x in g.legal_actions("usa") if x["type"] == "shock"] == [shock]
    g.dice = ScriptedDice([0] * 60, die="d10")
    ev = g.apply(shock, "usa") + play_out(g)
    assert not [x for x in ev if x.type == "shock_cancelled"]
    assert resolved(ev).data["defender_sp"] == "12"
