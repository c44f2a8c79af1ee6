"""Stand-ins the engine uses until the pure rule modules of the other issue-52 tasks land
(command range, efficiency arithmetic, stacking, paths). Each is the least the engine needs,
cites its section, and is replaced by the real module's function when it is committed; the
engine calls them only through :mod:`gettysburg.gbacw.game`'s few call sites.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Collection, Mapping

from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import RuleError
from gettysburg.gbacw.board import Board
from gettysburg.gbacw.charts import all_charts

#: Stacking limits in SP by orders (002 §8.12; the orders chart of §6.11).
STACK_LIMIT = {"infantry": {"march": 7, "advance": 15, "attack": 15},
               "mounted_cavalry": {"march": 4, "advance": 7, "attack": 7}}


def hex_distance(a: Hex, b: Hex) -> int:
    return (abs(a.q - b.q) + abs(a.r - b.r) + abs(a.q + a.r - b.q - b.r)) // 2


def in_range(leader: Hex | None, other: Hex | None, command_range: int) -> bool:
    """002 §4.15, interim: range in hexes (each hex costs a leader at least 1 MP, so this
    is generous where terrain costs more); adjacent is always in range; off the map never."""
    if leader is None or other is None:
        return False
    d = hex_distance(leader, other)
    return d <= max(1, command_range)


def division_ams(em: int, *, corps_rating: int, in_corps_range: bool, bonus: int,
                 activation: int, has_corps_commander: bool) -> int:
    """002 §5.23-5.25: the corps' EM, the corps commander's bonus for this division, -1 out
    of his range, the division leader's activation rating; clamped to 1..4; 3 at most out of
    range."""
    value = em + activation
    if has_corps_commander:
        value += bonus
        if corps_rating < 0 and in_corps_range:
            value += corps_rating
        if not in_corps_range:
            value -= 1
    value = max(1, min(4, value))
    if has_corps_commander and not in_corps_range:
        value = min(3, value)
    return value


def stack_ok(unit_class: str, orders: str, sp_there: int, sp_moving: int) -> bool:
    """002 §8.12: a unit may end in a hex if the SP there (its own class) plus its own stay
    within its orders' limit; a unit alone is always allowed. Artillery is not limited here
    (the limit by guns is stacking.py's)."""
    limits = STACK_LIMIT.get(unit_class)
    if limits is None or sp_there == 0:
        return True
    return sp_there + sp_moving <= limits[orders]


def step_cost(board: Board, a: Hex, b: Hex, unit_class: str, orders: str) -> int | None:
    """MP x2 (half points, for March's ½ MP roads) to enter ``b`` from ``a`` (002 §9.4,
    interim): the road rate along a road hexside (March ½, Advance 1, Attack none), else the
    Terrain chart's cost of the hex (+1 climbing); None when prohibited."""
    side = board.side(a, b) if a != b else None
    if side is not None and side.roads and orders != "attack":
        return 1 if orders == "march" else 2
    info = board.hexes.get(b)
    if info is None:
        return None
    cost = all_charts().terrain.move_cost(info.terrain, unit_class)  # type: ignore[arg-type]
    if cost.kind != "enter" or cost.mp is None:
        return None
    mp = cost.mp + (1 if a != b and board.uphill(a, b) == b else 0)
    return 2 * mp


def reachable(board: Board, start: Hex, mp: int, *, unit_class: str, orders: str,
              blocked: Collection[Hex], stop: Callable[[Hex], bool],
              forbidden: Callable[[Hex], bool], entering: bool = False
              ) -> dict[Hex, tuple[int, tuple[Hex, ...]]]:
    """Every hex the unit may end in with its cost and path (002 §9.1-9.5, interim: facing
    is free while moving and set at the end; paths.py will replace this). ``blocked``: enemy
    hexes; ``stop``: entering it ends the move (next to an enemy, §9.53); ``forbidden``:
    may not be entered (the orders' bans, §6.13/§6.15). ``entering``: the unit stands off
    the map and pays for ``start`` first (a reinforcement, §9.7). A unit may always move one
    hex (§9.42). Deterministic: ties broken by the hex's (q, r)."""
    budget = 2 * mp
    out: dict[Hex, tuple[int, tuple[Hex, ...]]] = {}
    queue: list[tuple[int, int, int, tuple[Hex, ...]]] = []
    if entering:
        if start in blocked or forbidden(start):
            return {}
        first = step_cost(board, start, start, unit_class, orders) or 2
        queue.append((min(first, budget), start.q, start.r, (start,)))
    else:
        out[start] = (0, ())
        queue.append((0, start.q, start.r, ()))
    done: set[Hex] = set()
    while queue:
        cost, q, r, path = heapq.heappop(queue)
        here = Hex(q, r)
        if here in done:
            continue
        done.add(here)
        if path:
            out[here] = (cost, path)
        if path and stop(here):
            continue
        for d in range(6):
            nxt = here.neighbour(d)
            if nxt in done or nxt in blocked or nxt not in board.hexes or forbidden(nxt):
                continue
            step = step_cost(board, here, nxt, unit_class, orders)
            if step is None:
                continue
            total = cost + step
            if total > budget and path:  # the first hex is always allowed (9.42)
                continue
            heapq.heappush(queue, (total, nxt.q, nxt.r, (*path, nxt)))
    return out


def check_member(found: Mapping[Hex, object], to: Hex, rule: str, what: str) -> None:
    if to not in found:
        raise RuleError(rule, what)
