"""An extended column's front, flank and rear as combat reads them (002 §8.51:
``formation_step.aspect``) and its fire from the lead only, never prepared (§8.52:
``formation_step.column_fire_problem``), on tests/data/gbacw/formations.yaml."""

from __future__ import annotations

from gettysburg.gbacw import formation_step
from gettysburg.gbacw.facing import aspect_of, front_hexes, rear_hexes
from test_gbacw_formation_engine import NC11, NC26, active, hid


def test_a_column_has_one_front_and_one_rear_the_rest_flanks_8_51() -> None:
    """11 NC in column on Advance (vertex facing), its extension in one rear hex of the
    lead: the lead's other rear hex is a flank of the column (its own facing alone would
    say rear); the hexes behind the tail are its rear; the lead's front hexes its front."""
    g = active()
    u = g.pos.units[NC11]
    lead = g.hex_of(u.hex)
    assert lead is not None and u.facing is not None
    tail, free = rear_hexes(lead, u.facing)
    u.extension, u.extends = "column", [hid(g, tail)]
    g._memo.clear()
    assert aspect_of(lead, u.facing, free) == "rear"
    assert formation_step.aspect(g, NC11, lead, free) == "flank"
    for h in front_hexes(lead, u.facing):
        assert formation_step.aspect(g, NC11, lead, h) == "front"
    behind = [h for h in rear_hexes(tail, u.facing) if h != lead]
    assert behind and all(formation_step.aspect(g, NC11, tail, h) == "rear" for h in behind)
    u.extension, u.extends = None, []  # a plain unit: its facing's own aspects
    assert formation_step.aspect(g, NC11, lead, free) == "rear"


def test_a_column_fires_from_its_lead_never_prepared_8_52() -> None:
    g = active()
    u = g.pos.units[NC11]
    lead = g.hex_of(u.hex)
    assert lead is not None and u.facing is not None
    assert formation_step.column_fire_problem(g, NC11, prepared=True) is None  # no column
    u.extension, u.extends = "column", [hid(g, rear_hexes(lead, u.facing)[0])]
    problem = formation_step.column_fire_problem(g, NC11, prepared=True)
    assert problem is not None and problem.rule == "8.52"
    assert formation_step.column_fire_problem(g, NC11, prepared=False) is None
    assert list(formation_step.part_strengths(g, NC11).values()) == [6, 6]  # 12 SP: lead 6


def test_the_engine_s_fire_by_a_column_8_52() -> None:
    """In the fire code: a 12 SP column fires with its lead's 6, and never as prepared fire
    (the same shot from the unit alone is prepared: it has not moved)."""
    from gettysburg.gbacw import fire_action

    g = active()
    u = g.pos.units[NC11]
    lead = g.hex_of(u.hex)
    assert lead is not None and u.facing is not None
    enemy = g.pos.units["US-Cav:12 IL"]
    target = front_hexes(lead, u.facing)[0].neighbour(u.facing.index)  # two hexes ahead
    enemy.hex = hid(g, target)
    g._memo.clear()
    action = {"type": "fire", "unit": NC11, "target": hid(g, target)}

    def prepared() -> bool:
        plan = fire_action.check_fire(g, action, "csa")
        return fire_action.situation(g, plan, "US-Cav:12 IL").prepared

    assert fire_action.firing_strength(g, NC11) == 12 and prepared()
    u.extension, u.extends = "column", [hid(g, rear_hexes(lead, u.facing)[0])]
    g._memo.clear()
    assert fire_action.firing_strength(g, NC11) == 6 and not prepared()


def test_a_three_hex_column_pays_its_second_extension_unless_it_gathers_in_its_centre_8_52(
) -> None:
    """26 NC (17 SP) in a straight column of three on open ground (1 MP a hex): into the
    lead 1 + 1 (the tail's step into the middle), into the middle 1."""
    g = active()
    u = g.pos.units[NC26]
    lead = g.hex_of(u.hex)
    assert lead is not None and u.facing is not None
    back = (u.facing.index + 3) % 6
    t1 = lead.neighbour(back)
    t2 = t1.neighbour(back)
    for k, v in g.pos.units.items():  # room behind it
        if k != NC26 and g.hex_of(v.hex) in (t1, t2):
            v.hex = None
    u.extension, u.extends = "column", [hid(g, t1), hid(g, t2)]
    g._memo.clear()
    assert all(g.cat.board.hexes[h].terrain == "open" for h in (lead, t1, t2))
    assert formation_step.retract_cost(g, NC26, lead) == 2
    assert formation_step.retract_cost(g, NC26, t1) == 1
    assert formation_step.retract_cost(g, NC26, t2) == 2


def test_an_advance_column_s_extension_has_one_mp_less_8_5() -> None:
    """11 MS (12 SP, MA 6) marched into a two-hex column along a road, then on
    Advance with 3 MP left (3 spent by hand on formation changes): its lead could go three
    road hexes to A1604 (3 MP), but its extension, one hex behind with 3 - 1 = 2 MP, would
    have to enter three hexes to follow: that end is not offered; two hexes on it is."""
    from gettysburg.gbacw.facing import Facing
    from test_gbacw_formation_engine import DAVIS, MS11, of_type

    g = active(DAVIS, "csa/march")
    a = next(x for x in of_type(g, "move", MS11) if x["to"] != g.pos.units[MS11].hex)
    g.apply(a, "csa")
    u = g.pos.units[MS11]
    assert u.hex == "A1802" and u.extends == ["A1902"] and g.counter(MS11).ma == 6
    g.pos.brigades[DAVIS].orders = "advance"
    g._refacing(DAVIS)
    u.moves = u.mp_spent = 0
    u.formation_mp = 3
    g._memo.clear()
    far = (g.cat.board.parse("A1604"), Facing.vertex(2))
    near = g.cat.board.parse("A1703")
    ends = g.reach(MS11)
    assert far not in ends and any(h == near for h, _ in ends)
    keep = formation_step._keeps_up
    try:  # the same reach without §8.5's penalty has it
        formation_step._keeps_up = lambda *args: True  # type: ignore[assignment]
        g._memo.clear()
        assert far in g.reach(MS11)
    finally:
        formation_step._keeps_up = keep
