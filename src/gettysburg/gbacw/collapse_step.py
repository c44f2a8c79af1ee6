"""Collapse as a unit state in the engine (002 §12.23, §13.1), whatever took the SP.

The fire code marks a collapse as its result lands (``fire_result``'s steps); shock, rally
and movement losses only lower ``UnitState.lost``. :func:`sweep`, run by the engine after
every action with the casualties, keeps the state true for every unit on the map: a
non-artillery unit below half its printed SP (``rally.collapsed``) is collapsed and
disordered; one that straggler recovery (§16.2) has brought back to half or more is no
longer collapsed (it stays disordered until it rallies, §13.1). The printed SP stays the
ceiling (§12.12): ``lost`` never goes below 0 here, and straggler recovery stops one short
of it (``night.straggler_cap``).

A unit already collapsed that loses more SP takes one final UDD and routs if it fails
(§12.23, §12.51). Fire and shock roll it themselves (``fire_result``'s collapse checks,
``shock.effects``); :func:`final_udds` rolls it for every other loss (movement checks,
reaction, broken wheels, events...): the game notes at the start of each action
(:func:`begin`) the dice counter and what each collapsed unit had lost, and the sweep rolls
for a unit whose loss grew when no UDD of §12.23/§11.58/§12.35/§12.51 was rolled for it
since. Rout recovery's loss (§13.5) is never of a unit on the map, so never checked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gettysburg.core.protocol import Event, dice_event

from .fire_action import stacked_leaders, target_keys, target_units
from .kinds import unit_class
from .rally import collapsed
from .udd import udd

if TYPE_CHECKING:
    from .engine_view import GameView as GbacwGame


BASE = "_collapse_base"  # the game's note for this action: (dice counter, SP lost by unit)
CHECK_RULES = ("12.23", "11.58", "12.35", "12.51")  # UDDs that are a collapsed unit's check


def begin(game: GbacwGame) -> None:
    """Note, as an action starts, the dice rolled so far and the SP each collapsed unit on
    the map has lost (002 §12.23; the game's ``execute`` calls this)."""
    lost = {k: u.lost for k, u in sorted(game.pos.units.items())
            if u.collapsed and u.hex is not None and not u.routed}
    setattr(game, BASE, (game.dice.counter, lost))


def final_udds(game: GbacwGame) -> list[Event]:
    """002 §12.23: each unit collapsed when the action began that has lost SP since, with no
    final check rolled for it (fire and shock roll their own), rolls one UDD (its disordered
    cohesion, half its brigade's fatigue, the stars of a leader stacked with it); failing,
    it routs (§12.51). The event ``collapse_udd``; the fatigue DRM shown to the owner only
    (§17.31)."""
    base = getattr(game, BASE, None)
    if base is None:
        return []
    first, lost = base
    checked = {r.purpose.rpartition(": ")[2] for r in game.dice.rolls_since(first)
               if r.rule in CHECK_RULES}
    ev: list[Event] = []
    for k in sorted(lost):
        u = game.pos.units[k]
        h = game.hex_of(u.hex)
        if h is None or u.routed or not u.collapsed or u.lost <= lost[k]:
            continue
        lost[k] = u.lost
        if k in checked:
            continue
        me = next((t for t in target_units(game, h) if t.unit == k), None)
        if me is None:
            continue
        stars = sum(ld.stars for ld in stacked_leaders(game, h, target_keys(game, h))
                    if k in ld.command)
        tired = -(-me.fatigue // 2)
        at = game.dice.counter
        r = udd(game.dice, unit=k, cohesion=me.current_cohesion, drm=tired,
                leader_stars=stars, purpose="collapsed unit lost SP", rule="12.23")
        if not r.passed:
            u.routed = True
        data = {"unit": k, "check": r.to_json(), "routed": not r.passed}
        ev.append(dice_event(game.dice.rolls_since(at)))
        if tired:
            hidden = {**data, "check": {**r.to_json(), "drm": r.drm - tired,
                                        "modified": r.modified - tired},
                      "hidden": ["fatigue (002 §17.31)"]}
            ev.append(Event("collapse_udd", "12.23", data, visible_to=(u.seat,),
                            redacted=hidden))
        else:
            ev.append(Event("collapse_udd", "12.23", data))
    return ev


def sweep(game: GbacwGame) -> list[Event]:
    """Mark the units that collapsed since the last sweep and clear those recovered
    (002 §12.23, §13.1, §16.2); events ``collapse`` and ``collapse_ended``; first the final
    UDDs of units already collapsed that lost SP outside fire and shock
    (:func:`final_udds`)."""
    ev: list[Event] = final_udds(game)
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
