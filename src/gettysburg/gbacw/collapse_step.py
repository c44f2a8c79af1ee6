"""Collapse as a unit state in the engine (002 §12.23, §13.1), whatever took the SP.

The fire code marks a collapse as its result lands (``fire_result``'s steps); shock, rally
and movement losses only lower ``UnitState.lost``. :func:`sweep`, run by the engine after
every action with the casualties, keeps the state true for every unit on the map: a
non-artillery unit below half its printed SP (``rally.collapsed``) is collapsed and
disordered; one that straggler recovery (§16.2) has brought back to half or more is no
longer collapsed (it stays disordered until it rallies, §13.1). The printed SP stays the
ceiling (§12.12): ``lost`` never goes below 0 here, and straggler recovery stops one short
of it (``night.straggler_cap``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gettysburg.core.protocol import Event

from .kinds import unit_class
from .rally import collapsed

if TYPE_CHECKING:
    from .engine_view import GameView as GbacwGame


def sweep(game: GbacwGame) -> list[Event]:
    """Mark the units that collapsed since the last sweep and clear those recovered
    (002 §12.23, §13.1, §16.2); events ``collapse`` and ``collapse_ended``."""
    ev: list[Event] = []
    for k, u in sorted(game.pos.units.items()):
        c = game.counter(k)
        if u.hex is None or unit_class(c) == "artillery":
            continue
        u.lost = max(0, u.lost)  # 002 §12.12: never above the printed SP
        sp = c.sp - u.lost
        if sp <= 0:
            continue
        now = collapsed(sp, c.sp)
        if now and not u.collapsed:
            ev.append(Event("collapse", "12.23", {"unit": k, "sp": sp, "printed_sp": c.sp,
                                                  "newly_disordered": not u.disordered}))
            u.collapsed, u.disordered = True, True
        elif u.collapsed and not now:
            ev.append(Event("collapse_ended", "16.2", {"unit": k, "sp": sp,
                                                       "printed_sp": c.sp}))
            u.collapsed = False
    return ev
