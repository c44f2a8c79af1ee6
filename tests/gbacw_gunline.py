"""Positions built by hand on the gun-line test scenario (tests/data/gbacw/gunline.yaml) for the
fire tests: open level ground around B2005, every unit off the map until a test places it."""

from __future__ import annotations

from pathlib import Path

from gettysburg.core.dice import ScriptedDice
from gettysburg.core.hexes import Hex
from gettysburg.gbacw.facing import Facing
from gettysburg.gbacw.game import GbacwGame

GUNLINE = str(Path(__file__).parent / "data" / "gbacw" / "gunline.yaml")
OPENING = [7, 3, 0, 5, 4]  # initiative and EM draws as in the skirmish
CENTRE = "B2005"  # open and level for four hexes around

GAMBLE, CUSTER, RESERVE = "US-1/1/Cav", "US-2/3/Cav", "US-1R/AR"
ARCHER, GARNETT = "CS-Archer/Heth", "CS-Garnett/Heth"
IN3 = "US-Cav:3 IN"  # 5 SP of carbines (C)
MI5 = "US-Cav:5 MI Cav#1"  # 5 SP of Spencer rifles (SR)
NAP1, NAP2 = "US-AR:H/1 US", "US-AR:F-K/3 US"  # 6 Napoleons each (N)
AL13, AL5, TN1 = "CS-III:13 AL", "CS-III:5 AL Bn", "CS-III:1 TN"  # 6, 3 and 6 SP (R)
PITT_A, PITT_B = "CS-III:Pittsylvania/A", "CS-III:Pittsylvania/B"  # 2 TB, 2 N
HUGER_C = "CS-III:Huger/C"  # 1 Napoleon


def key_of(g: GbacwGame, counter_start: str) -> str:
    """The position's key of a unit (cavalry keys carry no mode)."""
    for k in g.pos.units:
        if k == counter_start or g.pos.units[k].counter.startswith(counter_start):
            return k
    raise KeyError(counter_start)


def at(g: GbacwGame, offset: tuple[int, int]) -> Hex:
    """The hex ``offset`` (dq, dr) from the centre."""
    c = g.cat.board.parse(CENTRE)
    return Hex(c.q + offset[0], c.r + offset[1])


def hid(g: GbacwGame, h: Hex) -> str:
    return g.cat.board.hexes[h].id


def place(g: GbacwGame, key: str, h: Hex, facing: int) -> None:
    """Put a unit in ``h`` at the bottom of the stack there (the order placed is the stack's
    order, 002 §8.23)."""
    k = key_of(g, key)
    u = g.pos.units[k]
    u.hex = hid(g, h)
    u.facing = Facing("vertex", facing)
    below = [v.stack for o, v in g.pos.units.items() if o != k and v.hex == u.hex]
    u.stack = max(below) + 1 if below else 0


def gunline(active: str, dice: list[int] | None = None, options: tuple[str, ...] = ()
            ) -> GbacwGame:
    """The action phase with ``active`` the active brigade (set by hand after Gamble's real
    activation) and every unit off the map; ``dice``: the d10s after the opening."""
    g = GbacwGame(GUNLINE, dice=ScriptedDice(OPENING + (dice or []) + [0] * 80, die="d10"),
                  options=options)
    g.apply({"type": "end_orders"}, "usa")
    g.apply({"type": "end_orders"}, "csa")
    g.apply({"type": "first_am", "marker": "usa/US-1/Cav"}, "usa")
    g.apply({"type": "end_orders_change"}, "usa")
    g.apply({"type": "activate", "brigade": GAMBLE}, "usa")
    g.pos.brigade = active
    seat = g.pos.brigades[active].seat
    if seat != "usa":  # the active brigade's marker (by hand)
        g.pos.current = f"{seat}/{g.pos.brigades[active].division}"
    for u in g.pos.units.values():
        u.hex = None
    return g


def script(g: GbacwGame, dice: list[int]) -> None:
    """The next d10s (then zeros)."""
    g.dice = ScriptedDice(dice + [0] * 80, die="d10")
