"""Imboden's command in the engine (004 §14.77, through random event H, 004 §18.0): not in
any scenario's forces, it comes only when the Confederates roll H, by entry area 1 or 2 on
the next turn, on Advance orders.

When H is applied (:func:`bring`), Imboden's counters join the position off the map (his
brigade on Advance, his leader off the map) and ``Position.tdg["imboden"]`` records
``{"turn", "area", "hex"}``. The game's reinforcement schedule (``scen.arrivals``, shared by
every game of the scenario) is then extended *for this game only* by one group
(:func:`extend`): the engine's usual arrival steps bring it on. A loaded position is
extended again the same way (:func:`restore`), so saves replay.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from gettysburg.core.protocol import Event

from .setup import Arrival
from .state import BrigadeState, UnitState, unit_key

if TYPE_CHECKING:
    from .engine_view import GameView as GbacwGame

RULE = "tdg.14.77"
GROUP = "imboden"  # the group's id in the schedule
FORMATION = "CS-Imboden/Cav"
LEADER = "imboden"
SEAT = "csa"


def in_play(game: GbacwGame) -> bool:
    """The scenario has Imboden's rule (004 §14.77: the whole battle)."""
    scen = game.scen.scenario
    return scen is not None and any(r.id == "imboden" for r in scen.special_rules)


def areas(game: GbacwGame) -> list[int]:
    """The entry areas Imboden may use (the scenario's rule; 1 and 2) that the map has
    (004 §14.77, §18.0 H)."""
    scen = game.scen.scenario
    rule = next((r for r in scen.special_rules if r.id == "imboden"), None) if scen else None
    got = rule.params.get("areas", [1, 2]) if rule is not None else []
    wanted = [int(a) for a in got] if isinstance(got, list) else []
    have = {info.entry for info in game.cat.board.hexes.values()}
    return [a for a in wanted if a in have]


def counters(game: GbacwGame) -> list[str]:
    """Imboden's counters, one per unit (cavalry mounted) (004 §14.77)."""
    chosen: dict[str, str] = {}
    for cid, c in sorted(game.cat.counters.items()):
        if c.formation != FORMATION:
            continue
        key = unit_key(cid)
        if key not in chosen or cid.endswith(":mounted"):
            chosen[key] = cid
    return sorted(chosen.values())


def arrived(game: GbacwGame) -> bool:
    """Whether Imboden's command is in the game, rolled by event H (004 §14.77, §18.0 H)."""
    return any(unit_key(cid) in game.pos.units for cid in counters(game))


def _hex(game: GbacwGame, area: int) -> str:
    return next(info.id for info in game.cat.board.hexes.values() if info.entry == area)


def bring(game: GbacwGame, area: int) -> list[Event]:
    """004 §18.0 H: Imboden's units off the map, due next turn by ``area``."""
    p = game.pos
    for cid in counters(game):
        c = game.cat.counters[cid]
        p.units[unit_key(cid)] = UnitState(cid, SEAT, None, None)
        if c.formation not in p.brigades:
            p.brigades[c.formation] = BrigadeState(SEAT, c.division or c.corps, c.corps,
                                                   orders="advance")
    p.leaders.setdefault(LEADER, None)
    p.leader_seat[LEADER] = SEAT
    p.tdg["imboden"] = {"turn": p.turn + 1, "area": area, "hex": _hex(game, area)}
    restore(game)
    # hidden like any reinforcement not yet on the map (002 §9.7): the enemy sees the letter
    return [Event("random_event_effect", "tdg.18.0",
                  {"letter": "H", "area": area, "turn": p.turn + 1,
                   "units": [unit_key(c) for c in counters(game)]},
                  visible_to=(SEAT,), redacted={"letter": "H"})]


def group(game: GbacwGame) -> Arrival | None:
    """The schedule's group for Imboden, as recorded in the position (None: not rolled)
    (004 §14.77, §18.0 H)."""
    got = game.pos.tdg.get("imboden")
    if not isinstance(got, dict):
        return None
    return Arrival(GROUP, SEAT, int(got["turn"]), str(got["hex"]), "advance", None,
                   tuple(counters(game)), (LEADER,))


def restore(game: GbacwGame) -> None:
    """Extend this game's schedule by Imboden's group when the position has it
    (004 §14.77, §18.0 H)."""
    arr = group(game)
    if arr is None or any(a.id == GROUP for a in game.scen.arrivals):
        return
    game.scen = replace(game.scen, arrivals=[*game.scen.arrivals, arr])
    table: Any = game._arrival_of  # type: ignore[attr-defined]
    index = len(game.scen.arrivals) - 1
    for cid in arr.counters:
        table[cid] = (index, arr.hex)
    game._memo.clear()
