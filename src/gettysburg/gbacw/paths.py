"""Where a GBACW unit can go this activation, and by which path (002 §7.13, §7.2, §8.2, §9).

:func:`reachable` is a Dijkstra over (hex, facing) states. A unit steps only into a front
hex (§7.13) and keeps its facing as it goes; in each hex it starts in or enters it may turn
before going on or stopping, one vertex free and more for 1 MP (§7.21; §7.22 under Attack
in woods), free between two path hexes followed at the path's rate (§7.23, §9.45). It stops
on entering a hex next to an enemy and may not turn there (§9.53); a unit that starts next
to the enemy may turn one vertex and leave, or two or three and stay (§7.24). Every state
keeps its path and the disorder checks met on it; ties go to the lower cost, then fewer
disorders and checks, then the shorter path, then the smaller (hex, facing) order, so the
legal moves come out in the same order every time.

:func:`leader_costs` is the same search for a leader, who has no facing and takes the best
rate (§9.31), and :func:`command_cost` the command-range variant of it (§4.15), used by
:mod:`gettysburg.gbacw.command_range`.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass

from gettysburg.core.hexes import Hex, Hexside
from gettysburg.core.protocol import RuleError

from .board import Board
from .charts.terrain import TerrainChart, UnitClass
from .facing import Facing, front_hexes, turn, vertex_steps
from .movement import (
    PATH_CLASSES,
    Check,
    FriendStack,
    Orders,
    PassThrough,
    Step,
    approach_ban,
    bridge_closers,
    bridge_over_cut,
    effective_orders,
    entry_cost,
    entry_from_off_map,
    march_may_move,
    pass_through,
    turn_cost,
)

WOODS = ("woods", "rough-woods")


@dataclass(frozen=True, slots=True)
class Reach:
    """A state the unit can end its move in: ``half_mp`` spent, the (hex, facing) states
    passed through from the start, the disorder checks met, whether an automatic disorder
    (D) was met, whether the move stopped next to the enemy (§9.53), whether only the
    one-hex minimum of §9.42 allowed it (an Attack unit so moved may not fire or shock), and
    whether the kept path went by pike and road alone (March fatigue, 002 §17.22)."""

    hex: Hex
    facing: Facing
    half_mp: int
    path: tuple[tuple[Hex, Facing], ...]
    checks: tuple[Check, ...]
    disordered: bool
    stopped: bool
    minimum_move: bool
    road_only: bool = True  # every step taken at a pike's or road's rate (002 §17.22)

    @property
    def mp(self) -> float:
        return self.half_mp / 2

    def rank(self) -> tuple[int, bool, int, int, tuple[tuple[Hex, Facing], ...]]:
        return (self.half_mp, self.disordered, len(self.checks), len(self.path), self.path)


@dataclass(frozen=True, slots=True)
class _Node:
    cost: int
    hex: Hex
    facing: Facing
    by_path: bool  # entered along a path at its rate
    disordered: bool
    path: tuple[tuple[Hex, Facing], ...]
    checks: tuple[Check, ...]
    entry: Step | None
    terminal: bool  # stopped next to the enemy, or moved by the §9.42 minimum only
    minimum: bool
    road_only: bool = True


def _facings_like(f: Facing) -> list[Facing]:
    return [turn(f, k) for k in (0, 1, -1, 2, -2, 3)]


def _through(node: _Node, friends: Mapping[Hex, FriendStack], start: Hex | None, step: Step,
             unit_class: UnitClass) -> PassThrough | RuleError | None:
    """The cost of leaving a friendly hex the unit passed through (002 §8.22); None when
    there are no friends or the unit started there (the note to §8.22)."""
    if node.hex == start or node.hex not in friends or node.entry is None:
        return None
    p = pass_through(node.entry, friends[node.hex], unit_class=unit_class)
    if isinstance(p, RuleError) or not p.exit_by_road or step.path in ("pike", "road"):
        return p
    # entered along the road but leaving it: the pass costs what leaving the road would
    off = node.entry.off_path_half_mp
    if off is None:
        return RuleError("8.22", "the hex may be passed only along the road")
    return PassThrough(4 + off - node.entry.half_mp, off // 2 if off >= 4 else 0, False, "8.22")


def _come_on(board: Board, start: Hex, *, unit_class: UnitClass, orders: Orders,
             enemy: Collection[Hex], enemy_artillery: Collection[Hex],
             friends: Mapping[Hex, FriendStack], sees: Callable[[Hex, Hex], bool] | None,
             disordered: bool, cap: Callable[[bool], int], full_ma: int | None,
             use_paths: bool, chart: TerrainChart | None, facing: Facing,
             near_enemy: frozenset[Hex]) -> _Node | None:
    """The first state of a reinforcement entering at ``start`` (002 §9.71), or None."""
    step = entry_from_off_map(board, start, unit_class=unit_class, orders=orders,
                              use_paths=use_paths, chart=chart)
    if isinstance(step, RuleError) or start in enemy:
        return None
    if approach_ban(board, start, step, unit_class=unit_class, orders=orders, enemy=enemy,
                    enemy_artillery=enemy_artillery, friends=friends, sees=sees,
                    chart=chart) is not None:
        return None
    dis = disordered
    checks: tuple[Check, ...] = ()
    if step.disorder == "auto":
        dis, checks = True, (Check(start, "auto", 0, "9.47"),)
    elif step.disorder == "udd":
        checks = (Check(start, "udd", 0, "9.47"),)
    adjacent = start in near_enemy
    minimum = step.half_mp > cap(dis)
    if minimum and not (full_ma is not None and step.half_mp <= 2 * full_ma
                        and (not adjacent or effective_orders(orders, unit_class) == "attack")):
        return None
    return _Node(step.half_mp, start, facing, step.path is not None, dis, ((start, facing),),
                 checks, step, adjacent or minimum, minimum, step.path in ("pike", "road"))


def reachable(board: Board, start: Hex, facing: Facing, mp: int, *, unit_class: UnitClass,
              orders: Orders, enemy: Collection[Hex],
              friends: Mapping[Hex, FriendStack] | None = None,
              enemy_artillery: Collection[Hex] = (),
              sees: Callable[[Hex, Hex], bool] | None = None,
              full_ma: int | None = None, disordered: bool = False,
              mp_disordered: int | None = None, use_paths: bool = True,
              breastwork_sides: Collection[Hexside] = (), entering: bool = False,
              chart: TerrainChart | None = None) -> dict[tuple[Hex, Facing], Reach]:
    """Every (hex, facing) the unit can end its move in with ``mp`` MP (its allowance for
    the orders: see :func:`movement.movement_allowance`), cheapest path first.

    ``enemy``: hexes with enemy combat units (``enemy_artillery`` those holding artillery
    only); ``friends``: friendly hexes. ``full_ma``: the good-order, unhalved MA the
    minimum move of §9.42 is measured against (None: no minimum). ``mp_disordered``: the
    disordered MA that caps the move once a D is met (002 §9.47, §12.33). ``entering``: the
    unit stands off the map and comes on at ``start``, paying for it (a reinforcement,
    §9.71; a stack's cumulative cost, §9.72, is the caller's)."""
    friends = friends or {}
    orders_e = effective_orders(orders, unit_class)
    if start not in board.hexes:
        raise RuleError("9.13", "the unit's hex is not on the map")
    if mp < 0:
        raise ValueError(f"mp must be 0 or more, not {mp}")
    want = "side" if orders_e == "march" else "vertex"
    if facing.kind != want:
        raise RuleError("7.11", f"a unit on {orders_e} orders faces a {want}, not a "
                                f"{facing.kind}")
    best: dict[tuple[Hex, Facing], Reach] = {}
    if not entering:
        best[(start, facing)] = Reach(start, facing, 0, ((start, facing),), (), disordered,
                                      False, False)
        if orders_e == "march" and march_may_move(start, enemy, sees) is not None:
            return best
    near_enemy = frozenset(n for e in enemy for n in e.neighbours())
    start_adjacent = start in near_enemy and not entering
    on_map_start = None if entering else start
    bridge_shut = not bridge_closers(board).isdisjoint(enemy)
    steps: dict[tuple[Hex, Hex], Step | RuleError] = {}  # the same step from every facing
    bans: dict[tuple[Hex, bool], bool] = {}

    def step_of(h: Hex, n: Hex) -> Step | RuleError:
        found = steps.get((h, n))
        if found is None:
            found = entry_cost(board, h, n, unit_class=unit_class, orders=orders,
                               use_paths=use_paths, breastwork_sides=breastwork_sides,
                               chart=chart)
            if (not isinstance(found, RuleError) and found.bridge
                    and any(x in friends and friends[x].march for x in (h, n))):
                # §8.22 exception 3: units on March at either end close the bridge or ford
                found = entry_cost(board, h, n, unit_class=unit_class, orders=orders,
                                   use_paths=False, breastwork_sides=breastwork_sides,
                                   chart=chart)
            if bridge_shut and bridge_over_cut(board, h, n) == "on":
                found = RuleError("004 9.81", "an enemy on or beside the bridge closes it")
            steps[(h, n)] = found
        return found

    def banned(n: Hex, step: Step) -> bool:
        key = (n, step.bridge)
        found = bans.get(key)
        if found is None:
            found = bans[key] = approach_ban(
                board, n, step, unit_class=unit_class, orders=orders, enemy=enemy,
                enemy_artillery=enemy_artillery, friends=friends, sees=sees,
                chart=chart) is not None
        return found

    def limit(dis: bool) -> int:
        cap = mp if not dis or mp_disordered is None else min(mp, mp_disordered)
        return 2 * cap

    def offer(r: Reach) -> None:
        key = (r.hex, r.facing)
        old = best.get(key)
        if old is None or r.rank() < old.rank():
            best[key] = r

    def may_end(h: Hex, entry: Step | None) -> bool:
        if entry is not None and not entry.may_end:
            return False
        return h == on_map_start or h not in friends or friends[h].can_stack

    first = _Node(0, start, facing, True, disordered, ((start, facing),), (), None, False, False)
    if entering:
        came = _come_on(board, start, unit_class=unit_class, orders=orders, enemy=enemy,
                        enemy_artillery=enemy_artillery, friends=friends, sees=sees,
                        disordered=disordered, cap=limit, full_ma=full_ma,
                        use_paths=use_paths, chart=chart, facing=facing,
                        near_enemy=near_enemy)
        if came is None:
            return best
        first = came
    heap: list[tuple[int, bool, int, Hex, Facing, bool]] = [
        (first.cost, first.disordered, len(first.checks), start, facing, True)]
    nodes: dict[tuple[Hex, Facing, bool, bool], _Node] = {
        (start, facing, True, first.disordered): first}
    done: set[tuple[Hex, Facing, bool, bool]] = set()
    while heap:
        cost, dis, _, h, f, by_path = heapq.heappop(heap)
        key = (h, f, by_path, dis)
        if key in done:
            continue
        done.add(key)
        node = nodes[key]
        if node.terminal:
            if may_end(h, node.entry):
                stopped = h in near_enemy
                offer(Reach(h, f, cost, node.path, node.checks, dis, stopped, node.minimum,
                            node.road_only))
            continue
        in_woods = board.hexes[h].terrain in WOODS
        for f2 in _facings_like(f):
            k = vertex_steps(f, f2)
            tc = 2 * turn_cost(k, unit_class=unit_class, orders=orders, in_woods=in_woods)
            turned = node.path if k == 0 else (*node.path, (h, f2))
            if cost + tc <= limit(dis) and may_end(h, node.entry):
                offer(Reach(h, f2, cost + tc, turned, node.checks, dis, False, False,
                            node.road_only))
            if h == start and start_adjacent and k >= 2:
                continue  # §7.24: turning more than a vertex there means staying
            for n in front_hexes(h, f2):
                if n in enemy or n not in board.hexes:
                    continue  # §9.51
                step = step_of(h, n)
                if isinstance(step, RuleError):
                    continue
                free_turn = by_path and step.path in PATH_CLASSES  # §7.23, §9.45
                spend = (0 if free_turn else tc) + step.half_mp
                checks = node.checks
                through = _through(node, friends, on_map_start, step, unit_class)
                if isinstance(through, RuleError):
                    continue
                if through is not None:
                    spend += through.extra_half_mp
                    if through.udd_drm is not None:
                        checks = (*checks, Check(h, "udd", through.udd_drm, "8.22"))
                if banned(n, step):
                    continue
                ndis = dis
                if step.disorder == "auto":
                    ndis = True
                    checks = (*checks, Check(n, "auto", 0, "9.47"))
                elif step.disorder == "udd":
                    checks = (*checks, Check(n, "udd", 0, "9.47"))
                total = cost + spend
                adjacent = n in near_enemy
                minimum = False
                if total > limit(ndis):
                    # §9.42: one hex always, if the full good-order MA could pay it
                    if not (h == start and full_ma is not None and total <= 2 * full_ma
                            and (not adjacent or orders_e == "attack")):
                        continue
                    minimum = True
                nkey = (n, f2, step.path is not None, ndis)
                if nkey in done:
                    continue
                old = nodes.get(nkey)
                new = _Node(total, n, f2, step.path is not None, ndis,
                            (*turned, (n, f2)), checks, step, adjacent or minimum, minimum,
                            node.road_only and step.path in ("pike", "road"))
                if old is None or (new.cost, len(new.checks), len(new.path), new.path) < (
                        old.cost, len(old.checks), len(old.path), old.path):
                    nodes[nkey] = new
                    heapq.heappush(heap, (total, ndis, len(checks), n, f2, nkey[2]))
    return dict(sorted(best.items(), key=lambda kv: (kv[1].rank(), kv[0])))


def _leader_search(board: Board, start: Hex, limit_half: int | None, *,
                   passable: Callable[[Hex], bool],
                   chart: TerrainChart | None) -> dict[Hex, int]:
    """Cheapest half-MP cost from ``start`` to every hex for a leader (best rate, §9.31)."""
    dist: dict[Hex, int] = {start: 0}
    heap: list[tuple[int, Hex]] = [(0, start)]
    done: set[Hex] = set()
    while heap:
        cost, h = heapq.heappop(heap)
        if h in done:
            continue
        done.add(h)
        if h != start and not passable(h):
            continue  # reached, but nothing is traced on through it
        for n in h.neighbours():
            if n not in board.hexes or n in done:
                continue
            step = entry_cost(board, h, n, unit_class="leader", orders=None, chart=chart)
            if isinstance(step, RuleError):
                continue
            total = cost + step.half_mp
            if limit_half is not None and total > limit_half:
                continue
            if total < dist.get(n, total + 1):
                dist[n] = total
                heapq.heappush(heap, (total, n))
    return dist


def leader_costs(board: Board, start: Hex, mp: int | None = None, *,
                 enemy: Collection[Hex] = (),
                 friends: Mapping[Hex, FriendStack] | None = None,
                 chart: TerrainChart | None = None) -> dict[Hex, int]:
    """Half-MP cost for a leader moving alone from ``start`` (002 §9.3): any direction, the
    best rate (March's on pikes and roads), never next to the enemy unless onto friends
    (§9.33), never into an enemy hex."""
    friends = friends or {}

    def ok(h: Hex) -> bool:
        return h not in enemy and not (any(n in enemy for n in h.neighbours())
                                       and not (h in friends and friends[h].combat))

    dist = _leader_search(board, start, None if mp is None else 2 * mp, passable=ok,
                          chart=chart)
    return {h: c for h, c in sorted(dist.items()) if h == start or ok(h)}


def path_cost(board: Board, start: Hex, goal: Hex, *, enemy: Collection[Hex] = (),
              friends: Mapping[Hex, FriendStack] | None = None,
              chart: TerrainChart | None = None) -> float | None:
    """A leader's MP from ``start`` to ``goal`` (None: no way), by :func:`leader_costs`."""
    half = leader_costs(board, start, enemy=enemy, friends=friends, chart=chart).get(goal)
    return None if half is None else half / 2


def command_cost(board: Board, leader: Hex, *, enemy_adjacent: Callable[[Hex], bool],
                 friendly_combat: Callable[[Hex], bool], limit_half: int | None = None,
                 chart: TerrainChart | None = None) -> dict[Hex, int]:
    """Half-MP command distances from a leader's hex (002 §4.15): the leader's costs, the
    subordinate's hex counted and the leader's not, traced neither into hexes a leader may
    not enter nor on through a hex next to an enemy unless a friendly combat unit holds it.
    A hex next to an enemy may still be the subordinate's own (it holds him)."""

    def ok(h: Hex) -> bool:
        return not enemy_adjacent(h) or friendly_combat(h)

    return _leader_search(board, leader, limit_half, passable=ok, chart=chart)
