"""Reinforcements coming on in the GBACW engine (002 §9.73, 004 §9.76, through
:mod:`reinforcements`).

- 002 §9.73 (:func:`held_up`): groups due through one entry hex come on in their scheduled
  order. A group the player holds back (or whose arrival roll failed and came good later)
  must be on before the next group through the same hex: while any unit of an earlier group
  through that hex still waits off the map, a later group's units do not come on (they are
  not ``waiting`` yet). Within a group, any order.
- 004 §9.76 (:func:`area_reach`): a group due at an entry area's direct hex may come on by
  the area's adjacent edge hexes too, when on Attack or Advance orders (March only by the
  direct hex). Its moves from each of those hexes join the ones from the direct hex, the
  cheaper kept for each end state. The adjacent hexes are :func:`reinforcements.entry_area`'s
  substitute (the map-edge hexes within two of the direct hex).

- 002 §9.72 (:func:`queue_filter`, :func:`note_entry`, :func:`barred_entries`): no unit
  enters an enemy entry hex while enemy groups due through it have not had their chance; a
  group on March does not come on by a hex next to an enemy; stacks coming on one after another
  by the same hex in one activation marker pay cumulative costs: each unit that comes on adds
  what the units before it paid to enter that hex (``Position.entering``: the marker's stamp
  and, per entry hex, the half MP each paid; :func:`reinforcements.cumulative_costs` is the
  arithmetic). A reading: the engine moves one unit at a time, so each unit is a stack.

- 002 §9.72 (:func:`shock_barred`): a unit that came on in this activation marker on Advance
  by an entry hex next to an enemy may not shock until its next activation (its shock
  designations are left out of the legal list and refused; it owes no shock meanwhile).

- 004 §9.88 (:mod:`off_map_step`): a unit back from an off-map road waits at its area's
  direct hex (``questions.waiting``) and comes on by that hex only, as any unit entering.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import chain
from typing import TYPE_CHECKING, Any

from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import RuleError

from . import off_map_step
from .cavalry_step import kept_off as _held_away
from .facing import Facing
from .movement import entry_from_off_map
from .paths import Reach
from .reinforcements import Group, check_group_order, entry_area, may_shock_on_entry

if TYPE_CHECKING:
    from .charts.terrain import UnitClass

_CACHE: dict[tuple[Any, ...], dict[tuple[Hex, Facing], Reach]] = {}
_CACHE_SIZE = 256


def kept_off(game: Any, key: str) -> bool:
    """Whether ``key`` stays off the map although its group is due (questions.waiting):
    held away by 004 §14.72-14.73 (:func:`cavalry_step.kept_off`); on an off-map road (004
    §9.88: it comes on elsewhere, so its group does not hold up the next); or a unit of a
    group withheld for Buford (the Union table's note [c]) other than the horse battery
    that still comes (``Position.tdg["released"]``: two brigades stay away with one
    battery)."""
    if _held_away(game, key) or off_map_step.travelling(game, key):  # 004 §9.88: on a road
        return True
    p = game.pos
    withheld = p.tdg.get("withheld")
    if not withheld:
        return False
    counter = p.units[key].counter
    found = game._arrival_of.get(counter)
    if found is None or game.scen.arrivals[found[0]].id not in withheld:
        return False
    return game.cat.counters[counter].unit not in p.tdg.get("released", [])


def _entry_of(game: Any, index: int) -> str:
    return str(game.pos.entries.get(str(index), game.scen.arrivals[index].hex))


def held_up(game: Any, index: int) -> bool:
    """Whether arrival group ``index`` must wait for an earlier group through its entry hex
    that still has units off the map (002 §9.73)."""
    memo = ("held_up", index)
    if memo in game._memo:
        return bool(game._memo[memo])
    p = game.pos
    arrivals = game.scen.arrivals
    hex_id = _entry_of(game, index)
    queue = []
    for j in p.arrived:
        if _entry_of(game, j) != hex_id:
            continue
        counters = set(arrivals[j].counters)
        waiting = any(u.hex is None and u.counter in counters and not game.gone(k)
                      and not kept_off(game, k)  # 004 §14.72-14.73: held away
                      for k, u in p.units.items())
        queue.append(Group(f"{j:04d}", arrivals[j].turn, entered=not waiting or j == index))
    try:
        check_group_order(queue, f"{index:04d}")
        game._memo[memo] = False
    except RuleError:
        game._memo[memo] = True
    return bool(game._memo[memo])


def _better(a: Reach, b: Reach) -> bool:
    return a.rank() < b.rank()


def area_reach(game: Any, key: str,
               found: dict[tuple[Hex, Facing], Reach]) -> dict[tuple[Hex, Facing], Reach]:
    """``found`` (the moves of a waiting reinforcement from its entry hex) with the moves
    from the area's adjacent edge hexes added, on Attack or Advance (004 §9.76)."""
    p = game.pos
    u = p.units[key]
    if u.hex is not None or game.orders_of(key) not in ("attack", "advance") \
            or off_map_step.travelling(game, key):  # 004 §9.88: back by its road's hex only
        return found
    entry = game.waiting(key)
    if entry is None:
        return found
    board = game.cat.board
    h = board.parse(entry)
    area_no = board.hexes[h].entry
    if area_no is None:
        return found
    try:
        area = entry_area(board, area_no)
    except RuleError:
        return found
    if area.direct != h:
        return found
    arrival = game._arrival_of.get(u.counter)
    if arrival is None:  # not a reinforcement's unit
        return found
    index = arrival[0]
    slot = str(index)
    had = slot in p.entries
    old = p.entries.get(slot)
    merged = dict(found)
    for alt in area.adjacent:
        alt_id = board.hexes[alt].id
        p.entries[slot] = alt_id  # the search starts from the entry hex the group has
        try:
            sig = (game._reach_signature(key), alt_id)
            extra = _CACHE.get(sig)
            if extra is None:
                extra = game._reach(key)
                _CACHE[sig] = extra
                while len(_CACHE) > _CACHE_SIZE:
                    _CACHE.pop(next(iter(_CACHE)))
        finally:
            if had:
                p.entries[slot] = old
            else:
                del p.entries[slot]
        for k, r in extra.items():
            if k not in merged or _better(r, merged[k]):
                merged[k] = r
    return merged


def _stamp(game: Any) -> str:
    return f"{game.pos.turn}:{game.pos.current}"


def queued(game: Any, entry: str) -> int:
    """Half MP the units already come on by ``entry`` in this activation marker paid to
    enter it: what the next one adds to its own cost (002 §9.72)."""
    e = game.pos.entering
    if e.get("stamp") != _stamp(game):
        return 0
    return sum(int(x) for x in e.get("hexes", {}).get(entry, []))


def queue_filter(game: Any, key: str,
                 found: dict[tuple[Hex, Facing], Reach]) -> dict[tuple[Hex, Facing], Reach]:
    """002 §9.72 on a unit's moves: no path into an enemy entry hex while enemy groups due
    through it have not all had their chance (:func:`barred_entries`); a waiting unit on
    March orders does not come on by a hex next to an enemy; and a waiting unit pays the
    queue's cost at its entry hex, a move it can no longer pay for dropped (the §9.42
    one-hex minimum kept)."""
    p = game.pos
    u = p.units[key]
    board = game.cat.board
    barred = barred_entries(game, u.seat)
    here = game.hex_of(u.hex if u.hex is not None else game.waiting(key))
    reach = 2 * game.mp_of(key) + 2  # road steps of ½ MP: twice the MA in hexes at most
    if here is not None:  # only the barred hexes the unit could get to matter
        barred = frozenset(b for b in barred if here.distance(b) <= reach)
    if u.hex is not None and not barred:
        return found
    enemy = game.enemy_hexes(u.seat) if u.hex is None else set()
    march = u.hex is None and game.orders_of(key) == "march"
    budget = 2 * game.mp_of(key)
    out: dict[tuple[Hex, Facing], Reach] = {}
    crosses = _crossing(found, barred) if barred else {}
    if u.hex is not None and not crosses:
        return found  # on the map and no path through a barred hex: every move stays
    for k, r in found.items():
        if crosses and crosses[k]:
            continue
        if u.hex is not None:
            out[k] = r
            continue
        entry = r.path[0][0]
        if march and any(entry.distance(e) == 1 for e in enemy):
            continue
        extra = queued(game, board.hexes[entry].id) if p.entering else 0
        total = r.half_mp + extra
        if extra and total > budget and not (r.minimum_move or len(
                {h for h, _ in r.path}) == 1):
            continue
        out[k] = r if not extra else replace(r, half_mp=total)
    return out


def _crossing(found: dict[tuple[Hex, Facing], Reach],
              barred: frozenset[Hex]) -> dict[tuple[Hex, Facing], bool]:
    """Whether each move's path goes through one of ``barred`` (002 §9.72). The paths share
    their steps (the same (hex, facing) objects, from the search's tables), so each distinct
    step is asked once and the paths are then read by the steps' ids, without hashing a
    hex a step; a step met in another object is asked on its own. Same answers as reading
    every path's hexes."""
    steps = chain.from_iterable(r.path for r in found.values())
    again = chain.from_iterable(r.path for r in found.values())
    distinct = dict(zip(map(id, steps), again, strict=True))  # found keeps them alive
    bad = {i for i, st in distinct.items() if st[0] in barred}
    if not bad:
        return {}
    return {k: not bad.isdisjoint(map(id, r.path)) for k, r in found.items()}


def barred_entries(game: Any, seat: str) -> frozenset[Hex]:
    """The enemy's entry hexes ``seat``'s units may not enter now (002 §9.72): those with an
    enemy group due through them on a later turn, or due and with units still off the map
    (a reading of "have come on, or could have")."""
    memo = ("barred_entries", seat)
    if memo in game._memo:
        return frozenset(game._memo[memo])
    p = game.pos
    board = game.cat.board
    out: set[Hex] = set()
    for j, arr in enumerate(game.scen.arrivals):
        if arr.seat == seat:
            continue
        if j in p.arrived:
            counters = set(arr.counters)
            if not any(v.hex is None and v.counter in counters and not game.gone(k)
                       and not kept_off(game, k) for k, v in p.units.items()):
                continue
        elif arr.turn < p.turn and not arr.later:
            continue  # its time is past
        for hid in {_entry_of(game, j), *(h for _, h, _ in arr.later)}:
            try:
                out.add(board.parse(hid))
            except ValueError:
                continue
    game._memo[memo] = frozenset(out)
    return frozenset(out)


def _entry_cost(game: Any, key: str, entry: Hex) -> int:
    """Half MP ``key`` pays to come on at ``entry`` (002 §9.71)."""
    c = game.counter(key)
    cls: UnitClass = ("artillery" if c.arm in ("art", "horse_art")
           else "mounted_cavalry" if c.arm == "cav" and c.mode == "mounted" else "infantry")
    step = entry_from_off_map(game.cat.board, entry, unit_class=cls,
                              orders=game.orders_of(key))
    return 0 if isinstance(step, RuleError) else step.half_mp


def note_entry(game: Any, key: str, reach: Reach) -> None:
    """Record that ``key`` came on by the first hex of ``reach``, paying that hex's cost
    (002 §9.72)."""
    entry = reach.path[0][0]
    e = game.pos.entering
    if e.get("stamp") != _stamp(game):
        e.clear()
        e.update({"stamp": _stamp(game), "hexes": {}})
    e["hexes"].setdefault(game.cat.board.hexes[entry].id, []).append(
        _entry_cost(game, key, entry))
    enemy = game.enemy_hexes(game.pos.units[key].seat)
    if not may_shock_on_entry(game.orders_of(key), enemy_adjacent_on_entry=any(
            entry.distance(h) == 1 for h in enemy)):
        e.setdefault("no_shock", []).append(key)


def shock_barred(game: Any, key: str) -> bool:
    """002 §9.72 (:func:`reinforcements.may_shock_on_entry`): a unit that came on in this
    activation marker on Advance orders by an entry hex next to an enemy may not shock
    until its next activation."""
    e = game.pos.entering
    return e.get("stamp") == _stamp(game) and key in e.get("no_shock", [])


def shock_allowed(game: Any, action: Any) -> bool:
    """Whether a ``shock`` designation names no attacker :func:`shock_barred` holds back.
    (002 §9.72)"""
    return not any(shock_barred(game, str(k)) for s in action.get("shocks") or []
                   if isinstance(s, dict) for k in s.get("attackers") or [])


def check_shock(game: Any, action: Any) -> None:
    """Refuses a ``shock`` that names an attacker :func:`shock_barred` holds back (002 §9.72)."""
    if not shock_allowed(game, action):
        raise RuleError("9.72", "a unit that came on this activation on Advance next to an "
                        "enemy may not shock until its next activation")
