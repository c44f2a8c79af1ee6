"""Stacking counts counters, not names (002 §8.12, §8.37; issue 52): the OOB splits the 8th
New York Cavalry into two battalions, ``8 NY Cav#1`` and ``#2``, one name on two counters.
Mounted, 6 SP each, the two together are 12 SP of mounted cavalry: over the Advance limit of
7, and not "one unit of any size". A battery's sections still stack as one battery. On the
hand-made position tests/data/gbacw/formations.yaml (Gamble's brigade)."""

from __future__ import annotations

from gettysburg.gbacw.game import GbacwGame
from gettysburg.gbacw.stacking import StackEntry, entry_name, stack_problem
from test_gbacw_formation_engine import active

NY8_1, NY8_2 = "US-Cav:8 NY Cav#1", "US-Cav:8 NY Cav#2"


def mounted_battalions() -> GbacwGame:
    """Gamble active, the two battalions of 8 NY mounted (A3603 and A3703, side by side)."""
    g = active("US-1/1/Cav", "usa/US-1/Cav", "usa")
    for k in (NY8_1, NY8_2):
        g.pos.units[k].counter = f"{k}:mounted"
    g._memo.clear()
    return g


def test_two_battalions_of_one_regiment_are_two_units_8_12() -> None:
    g = mounted_battalions()
    one, two = g.stack_entry(NY8_1), g.stack_entry(NY8_2)
    assert one.unit != two.unit and one.kind == two.kind == "mounted_cavalry"
    assert one.sp + two.sp == 12
    err = stack_problem([one, two], "advance")
    assert err is not None and err.rule == "8.12"
    assert stack_problem([one], "advance") is None  # one counter alone: any size


def test_the_engine_refuses_the_second_battalion_into_the_first_s_hex_8_12() -> None:
    g = mounted_battalions()
    target = g.pos.units[NY8_1].hex
    moves = [a for a in g.legal_actions("usa")
             if a["type"] == "move" and a.get("unit") == NY8_2]
    assert moves, "the battalion has somewhere to go"
    assert all(a["to"] != target for a in moves)
    # dismounted they are infantry for stacking: 6 + 6 <= 15 (§8.12), the move is offered
    for k in (NY8_1, NY8_2):
        g.pos.units[k].counter = f"{k}:dismounted"
    g._memo.clear()
    assert any(a["type"] == "move" and a.get("unit") == NY8_2 and a["to"] == target
               for a in g.legal_actions("usa"))


def test_a_battery_s_sections_keep_one_name_8_37() -> None:
    a = entry_name("CS-I:Pulaski/A", corps="CS-I", name="Pulaski", arm="art")
    b = entry_name("CS-I:Pulaski/B", corps="CS-I", name="Pulaski", arm="art")
    assert a == b == "CS-I:Pulaski"
    assert entry_name(NY8_1, corps="US-Cav", name="8 NY Cav", arm="cav") == NY8_1
    sections = [StackEntry(a, "art", 2, "Arty"), StackEntry(b, "art", 2, "Arty")]
    assert stack_problem(sections, "march") is None  # one battery, 4 guns
