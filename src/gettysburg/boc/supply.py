"""Supply (8.x) by day and by night (8.4, 9.73).

By day an HQ activated for supply (it may first step one hex) loses a step at once and has
supply points equal to its command range (8.2; the Meade example beside 8.0: activated at
strength 1, three SP spent, Meade ends at 0). Each SP adds a step to one unit in range
(2 SP in a front-line hex), at most one step per unit per day supply phase (8.3). By night
each side has a pool (USA 16, CSA 12) and units need a line of non-enemy hexes to their
supply hex instead of an HQ (8.4).
"""

from __future__ import annotations

from dataclasses import dataclass

from gettysburg.boc.board import Board
from gettysburg.boc.command import Orders, Roles, command_range, may_supply, roles, supply_roles
from gettysburg.boc.control import connected, enemy_hexes, front_line
from gettysburg.boc.state import ON_MAP, BocState, UnitState
from gettysburg.core.protocol import RuleError

NIGHT_POINTS = {"usa": 16, "csa": 12}  # 8.4
# 8.4: supply-line hexes. Both rulebooks print L10 for the Baltimore Pike, which lies in
# the Confederate line; boc-facts.md 3 settles it as L1.
SUPPLY_HEX = {"usa": "L1", "csa": "H14"}


def step_cost(board: Board, state: BocState, unit: UnitState) -> int:
    """8.3 / 8.4: 1 SP a step, 2 in a front-line hex."""
    assert unit.hex is not None
    return 2 if unit.hex in front_line(board, state, unit.side) else 1


def check_day_supply(board: Board, state: BocState, orders: Orders, hq_id: str,
                     unit_id: str, steps: int) -> int:
    """Refuse an illegal day supply; return its SP cost."""
    hq = state.units[hq_id]
    target = state.units[unit_id]
    if not hq.sup_active:
        raise RuleError("8.1", "the HQ must first be activated for supply this phase")
    if steps != 1:
        raise RuleError("8.3", "by day a unit receives at most one step per supply phase")
    if target.status != ON_MAP or target.hex is None:
        raise RuleError("8.3", "only units on the map can be supplied")
    if target.supplied:
        raise RuleError("8.3", "this unit has already received a step this supply phase")
    if target.sup_active:
        raise RuleError("8.3", "an HQ active for supply cannot receive supply this phase")
    if target.strength >= orders.oob[unit_id].max_strength:
        raise RuleError("8.3", "the unit is already at full strength")
    if not may_supply(orders, supply_roles(state, orders, hq_id), orders.oob[hq_id],
                      orders.oob[unit_id]):
        raise RuleError("8.2", "this HQ may not supply that unit (DHQ: its division; CHQ: "
                               "its corps; only a CHQ or the AHQ supplies a DHQ; only the "
                               "AHQ supplies a CHQ, artillery or cavalry HQ)")
    if target.hex not in command_range(board, state, orders, hq_id):
        raise RuleError("8.3", "the unit is out of the HQ's command range (traced through "
                               "friendly or neutral hexes, 4.5)")
    cost = step_cost(board, state, target)
    if state.supply_points.get(hq_id, 0) < cost:
        raise RuleError("8.3", f"the HQ has {state.supply_points.get(hq_id, 0)} SP left, the "
                               f"step costs {cost}")
    return cost


def check_night_supply(board: Board, state: BocState, orders: Orders, unit_id: str,
                       steps: int) -> int:
    """Refuse an illegal night supply; return its SP cost."""
    target = state.units[unit_id]
    if steps < 1:
        raise RuleError("8.4", "steps must be at least 1")
    if target.status != ON_MAP or target.hex is None:
        raise RuleError("8.4", "only units on the map can be supplied")
    if target.strength + steps > orders.oob[unit_id].max_strength:
        raise RuleError("8.4", "that would take the unit above its full strength")
    if not connected(board, target.hex, SUPPLY_HEX[target.side],
                     enemy_hexes(state, target.side)):
        raise RuleError("8.4", f"no supply line of non-enemy hexes to "
                               f"{SUPPLY_HEX[target.side]}")
    cost = step_cost(board, state, target) * steps
    left = state.night_points.get(target.side, 0)
    if left < cost:
        raise RuleError("8.4", f"{left} night SP left, {steps} step(s) cost {cost}")
    return cost


@dataclass(frozen=True)
class SideNow:
    """What :func:`day_targets` reads of an HQ's side, the same for every HQ of the side
    in one position (a legal list asks for all of them: session 47)."""

    front: frozenset[str]  # 6.62
    enemy: frozenset[str]  # the 6.6 snapshot's enemy hexes (4.5)
    roles: Roles  # 4.6


def side_now(board: Board, state: BocState, orders: Orders, side: str) -> SideNow:
    return SideNow(front_line(board, state, side), enemy_hexes(state, side),
                   roles(state, orders, side))


def day_targets(board: Board, state: BocState, orders: Orders, hq_id: str,
                side: SideNow | None = None) -> list[tuple[str, int]]:
    """(unit, SP cost) for every step the active HQ could hand out now (legal actions;
    ``side``: :func:`side_now` of its side in this position, if the caller has it)."""
    hq = state.units[hq_id]
    left = state.supply_points.get(hq_id, 0)
    if not hq.sup_active or left <= 0:
        return []
    if side is None:
        side = side_now(board, state, orders, hq.side)
    reach = command_range(board, state, orders, hq_id, side.enemy)
    hq_roles = supply_roles(state, orders, hq_id, side.roles)
    front = side.front
    out = []
    for u in state.on_map(hq.side):
        if u.hex not in reach or u.supplied or u.sup_active:
            continue
        if u.strength >= orders.oob[u.id].max_strength:
            continue
        if not may_supply(orders, hq_roles, orders.oob[hq_id], orders.oob[u.id]):
            continue
        cost = 2 if u.hex in front else 1
        if cost <= left:
            out.append((u.id, cost))
    return sorted(out)


def night_targets(board: Board, state: BocState, orders: Orders, side: str
                  ) -> list[tuple[str, int, int]]:
    """(unit, most steps affordable, SP per step) for night supply (legal actions)."""
    from gettysburg.boc.control import index

    idx = index(board)
    blocked = enemy_hexes(state, side)
    goal = SUPPLY_HEX[side]
    # One search from the supply hex instead of one per unit.
    reach: set[str] = set()
    if goal in idx.nbrs and goal not in blocked:
        reach.add(goal)
        stack = [goal]
        while stack:
            hx = stack.pop()
            for n in idx.nbrs[hx]:
                if n not in reach and n not in blocked:
                    reach.add(n)
                    stack.append(n)
    front = front_line(board, state, side)
    left = state.night_points.get(side, 0)
    out = []
    for u in state.on_map(side):
        assert u.hex is not None
        room = orders.oob[u.id].max_strength - u.strength
        if room <= 0:
            continue
        if u.hex not in reach and not any(n in reach for n in idx.nbrs.get(u.hex, ())):
            continue
        per = 2 if u.hex in front else 1
        steps = min(room, left // per)
        if steps >= 1:
            out.append((u.id, steps, per))
    return sorted(out)
