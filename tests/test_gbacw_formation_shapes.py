"""Extended columns changing shape (issue 52, gbacw/formation_step.py): the free line a
change to Advance allows a column (002 §7.26), three-hex columns forming a line and back
(§8.52, §8.44), and a three-hex line turning into a column on a change to March (§7.26),
on the hand-made position tests/data/gbacw/formations.yaml (Pettigrew's 26 NC has 17 SP:
two extensions; Davis's brigade on March)."""

from __future__ import annotations

import pytest

from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import RuleError
from gettysburg.gbacw import formation_step
from gettysburg.gbacw.extension import column_as_line, is_straight, line_as_column
from gettysburg.gbacw.facing import Facing, rear_hexes
from gettysburg.gbacw.game import GbacwGame
from gettysburg.gbacw.state import Position
from test_gbacw_formation_engine import (
    DAVIS,
    MS11,
    NC26,
    PETTIGREW,
    active,
    hid,
    of_type,
)


def column_on_advance() -> GbacwGame:
    """11 MS marched into a two-hex column; then its brigade's orders turn to Advance and
    the unit is fresh for a new activation (its move counters reset by hand)."""
    g = active(DAVIS, "csa/march")
    a = next(x for x in of_type(g, "move", MS11) if x["to"] != g.pos.units[MS11].hex)
    g.apply(a, "csa")
    assert g.pos.units[MS11].extension == "column"
    g.pos.brigades[DAVIS].orders = "advance"
    g._refacing(DAVIS)
    u = g.pos.units[MS11]
    u.moves = u.mp_spent = u.formation_mp = 0
    g._memo.clear()
    return g


def facings(g: GbacwGame, key: str) -> list[int]:
    return [int(a["facing"]["index"]) for a in of_type(g, "form", key)]  # type: ignore[index]


def test_a_change_to_advance_lets_a_column_form_line_free_7_26() -> None:
    """The column stays a column on Advance, but may form line for nothing, even turning
    two vertices (1 MP otherwise, §8.52), before it spends MP."""
    g = column_on_advance()
    u = g.pos.units[MS11]
    assert u.extension == "column" and u.form_free
    assert u.facing == Facing.vertex(2)
    assert facings(g, MS11) == [1, 4]  # vertex 4 is two vertices from 2
    ev = g.apply({"type": "form", "unit": MS11, "facing": Facing.vertex(4).to_json()}, "csa")
    assert ev[0].type == "form" and ev[0].data["mp"] == 0 and u.mp_spent == 0
    assert u.extension == "line" and not u.form_free
    assert formation_step.line_of(g, MS11) is not None


def test_the_free_line_goes_once_the_column_spends_mp_or_its_activation_ends_7_26() -> None:
    g = column_on_advance()
    u = g.pos.units[MS11]
    u.mp_spent = 1  # it moved first: §8.52's price again
    assert formation_step.form_cost(g, MS11, Facing.vertex(4)) == 1
    assert formation_step.form_cost(g, MS11, Facing.vertex(1)) == 0  # one vertex: free anyway
    u.mp_spent = 0
    data = g.pos.to_json()  # saved only while set
    assert data["units"][MS11]["form_free"] is True
    assert Position.from_json(data).units[MS11].form_free
    g.apply({"type": "end_brigade"}, "csa")
    assert not u.form_free and "form_free" not in g.pos.to_json()["units"][MS11]


def test_a_change_to_march_clears_the_free_line_7_26() -> None:
    g = column_on_advance()
    g.pos.brigades[DAVIS].orders = "march"
    g._refacing(DAVIS)
    assert not g.pos.units[MS11].form_free


def three_hex_column(bend: bool = False) -> tuple[GbacwGame, Hex, Hex, Hex]:
    """26 NC (17 SP) on Advance facing vertex 1 as a column of three: lead in its own
    hex, the trail straight behind (direction 4), or bent at the second hex."""
    g = active()
    u = g.pos.units[NC26]
    lead = g.hex_of(u.hex)
    assert lead is not None and u.facing == Facing.vertex(1)
    t1 = lead.neighbour(4)
    t2 = t1.neighbour(3 if bend else 4)
    u.extension, u.extends = "column", [hid(g, t1), hid(g, t2)]
    g._memo.clear()
    return g, lead, t1, t2


def test_a_straight_three_hex_column_forms_line_round_its_middle_8_52() -> None:
    """The ends become both flanks; the counter goes to the middle hex; 1 MP for two
    vertices of turn (§8.52), none for one."""
    g, lead, t1, t2 = three_hex_column()
    assert facings(g, NC26) == [2, 5]
    assert formation_step.form_cost(g, NC26, Facing.vertex(2)) == 0
    assert formation_step.form_cost(g, NC26, Facing.vertex(5)) == 1
    g.apply({"type": "form", "unit": NC26, "facing": Facing.vertex(2).to_json()}, "csa")
    u = g.pos.units[NC26]
    assert u.extension == "line" and u.hex == hid(g, t1)
    line = formation_step.line_of(g, NC26)
    assert line is not None and set(line.hexes) == {lead, t1, t2} and line.counter == 1
    assert sorted(formation_step.part_strengths(g, NC26).values()) == [5, 6, 6]


def test_a_column_bent_by_its_road_cannot_form_line_8_52() -> None:
    g, *_ = three_hex_column(bend=True)
    assert facings(g, NC26) == []
    with pytest.raises(RuleError) as err:
        formation_step.form_cost(g, NC26, Facing.vertex(2))
    assert err.value.rule == "8.52"


def test_a_three_hex_line_forms_a_column_from_either_end_8_44_8_52() -> None:
    """26 NC extended both ways (left L, right R): on Advance the line forms a column led
    by L (the middle and R behind it) or by R; the counter goes to the leading end."""
    g = active()
    g.apply({"type": "extend", "unit": NC26, "sides": ["left", "right"]}, "csa")
    u = g.pos.units[NC26]
    here = g.hex_of(u.hex)
    assert here is not None
    left, right = here.neighbour(3), here.neighbour(0)
    assert set(u.extends) == {hid(g, left), hid(g, right)}
    assert facings(g, NC26) == [0, 2, 3, 5]
    spent = u.mp_spent
    g.apply({"type": "form", "unit": NC26, "facing": Facing.vertex(2).to_json()}, "csa")
    assert u.extension == "column" and u.hex == hid(g, left)
    assert u.extends == [hid(g, here), hid(g, right)] and u.mp_spent == spent
    assert here in rear_hexes(left, u.facing) and right in rear_hexes(here, u.facing)
    assert facings(g, NC26) == [1, 4]  # and back into the line, round the middle
    g.apply({"type": "form", "unit": NC26, "facing": Facing.vertex(1).to_json()}, "csa")
    assert u.extension == "line" and u.hex == hid(g, here)
    assert set(u.extends) == {hid(g, left), hid(g, right)}


def test_a_three_hex_line_becomes_a_column_on_march_orders_7_26() -> None:
    """A change to March turns 26 NC's line of three into its column of three where it
    stands, free: the counter to the right end, facing the hexside away from the rest."""
    g = active()
    g.apply({"type": "extend", "unit": NC26, "sides": ["left", "right"]}, "csa")
    u = g.pos.units[NC26]
    here = g.hex_of(u.hex)
    assert here is not None
    left, right = here.neighbour(3), here.neighbour(0)
    g.pos.brigades[PETTIGREW].orders = "march"
    g._refacing(PETTIGREW)
    assert u.extension == "column" and u.hex == hid(g, right)
    assert u.extends == [hid(g, here), hid(g, left)]
    assert u.facing == Facing("side", 0) and rear_hexes(right, u.facing) == (here,)


def test_column_and_line_shapes_as_pure_functions_8_52() -> None:
    h = Hex(10, 10)
    assert is_straight([h, h.neighbour(4), h.neighbour(4).neighbour(4)])
    assert not is_straight([h, h.neighbour(4), h.neighbour(4).neighbour(3)])
    column = (h, h.neighbour(4), h.neighbour(4).neighbour(4))
    line = column_as_line(column, Facing.vertex(2))
    assert line.hexes[line.counter] == column[1]
    assert line_as_column(line, Facing.vertex(1)) in (column, column[::-1])
    with pytest.raises(RuleError):
        column_as_line(column, Facing.vertex(1))  # its ends are not flanks of vertex 1
