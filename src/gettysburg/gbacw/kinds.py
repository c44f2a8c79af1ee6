"""Small shared answers about counters and orders that the engine's layers and its step
modules both use: a leaf module (it imports only the OOB), so a step module can take them
without importing :mod:`gettysburg.gbacw.questions`, which imports the step modules."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gettysburg.gbacw.oob import Counter

if TYPE_CHECKING:
    from gettysburg.gbacw.charts.terrain import UnitClass

#: TDG's artillery commands with AMs of their own, kept out of transfers (004 §4.36)
ARTILLERY_COMMANDS = ("US-AR", "CS-Art")  # CS-Art: Pendleton's own AMs (barrage_step)
EVENT_MARKER = "event"  # the Random Event marker in the AM pool (004 §18.0): no seat
LEADER_MA = 10  # brigade and division leaders (002 §4.16)
COMMANDER_MA = 40  # corps commanders and the OC (002 §4.16); more than 10 tires (§9.32)


def unit_class(c: Counter) -> UnitClass:
    """The Terrain chart's class of a counter (preamble conventions)
    (002 §9.41's chart; dismounted cavalry moves as infantry, §9.1)."""
    if c.arm in ("art", "horse_art"):
        return "artillery"
    if c.arm == "cav" and c.mode == "mounted":
        return "mounted_cavalry"
    return "infantry"


def facing_kind(orders: str) -> str:
    """March units face a hexside, the others a vertex (002 §7.1)."""
    return "side" if orders == "march" else "vertex"
