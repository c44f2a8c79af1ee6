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

Speed: the searches run over numbered states, not Hex and Facing objects. The board's hexes,
their neighbours and every mover's step costs come from :mod:`gettysburg.gbacw.costgrid`,
worked out once a board and kept; the heap holds plain ints; a path is a tuple of ints built
only when a state keeps it, and the Reach objects are made once, at the end. The answers are
those of the step-at-a-time search first written (kept as the reference in
``tests/test_gbacw_paths_speed.py``); ``benchmarks/bench_gbacw_movement.py`` measures both.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass

from gettysburg.core.hexes import Hex, Hexside
from gettysburg.core.protocol import RuleError

from .board import Board
from .charts.terrain import TerrainChart, UnitClass
from .costgrid import AUTO, PATH_CODES, UDD, EnemyContext, Entry, Grid, StepTable, grid_of
from .facing import Facing
from .movement import (
    Check,
    FriendStack,
    Orders,
    PassThrough,
    Step,
    approach_ban,
    effective_orders,
    entry_cost,
    entry_from_off_map,
    march_may_move,
    pass_through,
    turn_cost,
)


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
              chart: TerrainChart | None = None, approach_ban: bool = True
              ) -> dict[tuple[Hex, Facing], Reach]:
    """Every (hex, facing) the unit can end its move in with ``mp`` MP (its allowance for
    the orders: see :func:`movement.movement_allowance`), cheapest path first.

    ``enemy``: hexes with enemy combat units (``enemy_artillery`` those holding artillery
    only); ``friends``: friendly hexes. ``full_ma``: the good-order, unhalved MA the
    minimum move of §9.42 is measured against (None: no minimum). ``mp_disordered``: the
    disordered MA that caps the move once a D is met (002 §9.47, §12.33). ``entering``: the
    unit stands off the map and comes on at ``start``, paying for it (a reinforcement,
    §9.71; a stack's cumulative cost, §9.72, is the caller's). ``approach_ban``: False for
    charging cavalry, which completes its charge disordered (§11.52), so
    :func:`disordered_approach_ban` is not applied."""
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
    grid = grid_of(board)
    foes = grid.enemy_context(enemy)
    if not entering and orders_e == "march":
        # only enemies within four hexes can hold a March unit (§6.13)
        near_start = foes.within4().get(grid.index[start], ()) if sees is not None else [
            e for e in start.neighbours() if e in foes.enemy_hexes]
        if march_may_move(start, near_start, sees) is not None:
            return {(start, facing): Reach(start, facing, 0, ((start, facing),), (),
                                           disordered, False, False)}
    table = grid.table(board, unit_class, orders_e, use_paths, breastwork_sides, chart)
    search = _Search(board, grid, table, foes, start, facing, mp, unit_class=unit_class,
                     orders=orders, orders_e=orders_e, enemy=enemy, friends=friends,
                     enemy_artillery=enemy_artillery, sees=sees, full_ma=full_ma,
                     disordered=disordered, mp_disordered=mp_disordered, use_paths=use_paths,
                     breastwork_sides=breastwork_sides, entering=entering, chart=chart)
    found = search.run()
    return disordered_approach_ban(found, start, disordered=disordered) if approach_ban \
        else found


def disordered_approach_ban(found: dict[tuple[Hex, Facing], Reach], start: Hex, *,
                            disordered: bool) -> dict[tuple[Hex, Facing], Reach]:
    """002 §12.34: a disordered unit never moves next to an enemy of its own will. Such a
    move can only end there (§9.53), so the ban drops the end states next to the enemy
    (``stopped``) away from the start that a unit reached disordered: disordered from the
    start, or by a D met before its last hex (§9.47). A D in the last hex itself came after
    the choice to go there. (A charging cavalry's exception, §11.55, is the charge's.)"""
    def barred(r: Reach) -> bool:
        if not r.stopped or r.hex == start:
            return False
        return disordered or any(c.kind == "auto" and c.hex != r.hex for c in r.checks)

    if not any(barred(r) for r in found.values()):
        return found
    return {k: r for k, r in found.items() if not barred(r)}


#: the turns tried in a hex, in order: (vertices turned, new facing index), by facing index
_TURNS = tuple(tuple(((k if k >= 0 else -k), (f + k) % 6) for k in (0, 1, -1, 2, -2, 3))
               for f in range(6))


class _Search:
    """One :func:`reachable` search over numbered states (see :mod:`costgrid`).

    A state is ``4 * (6 * hex + facing) + 2 * by_path + disordered``; the heap holds
    ``cost * SPAN + state``, so it pops by cost alone. That gives the same answers as ranking
    ties any other way: every step costs at least ½ MP, so all the ways into a state are
    offered before it is taken off the heap, and each state keeps the best of them by (cost,
    checks, path length, path), comparing paths as tuples of ``6 * hex + facing`` numbers,
    which order as the (Hex, Facing) pairs do."""

    def __init__(self, board: Board, grid: Grid, table: StepTable, foes: EnemyContext,
                 start: Hex, facing: Facing, mp: int, *, unit_class: UnitClass,
                 orders: Orders, orders_e: Orders | None, enemy: Collection[Hex],
                 friends: Mapping[Hex, FriendStack], enemy_artillery: Collection[Hex],
                 sees: Callable[[Hex, Hex], bool] | None, full_ma: int | None,
                 disordered: bool, mp_disordered: int | None, use_paths: bool,
                 breastwork_sides: Collection[Hexside], entering: bool,
                 chart: TerrainChart | None) -> None:
        self.board, self.grid, self.table, self.foes = board, grid, table, foes
        self.start, self.facing, self.mp = start, facing, mp
        self.unit_class, self.orders, self.orders_e = unit_class, orders, orders_e
        self.enemy, self.friends, self.enemy_artillery = enemy, friends, enemy_artillery
        self.sees, self.full_ma, self.disordered = sees, full_ma, disordered
        self.mp_disordered, self.use_paths = mp_disordered, use_paths
        self.breastwork_sides, self.entering, self.chart = breastwork_sides, entering, chart
        self.bans: dict[tuple[int, bool], bool] = {}
        self.specials: dict[tuple[int, int], Entry | None] = {}
        self.bridge_shut = not grid.bridge_closers.isdisjoint(enemy)
        if orders_e == "march" and sees is not None:
            self.ban_zone: Collection[int] = foes.within4().keys()
        else:
            self.ban_zone = foes.near

    def limit(self, dis: bool) -> int:
        mp = self.mp
        cap = mp if not dis or self.mp_disordered is None else min(mp, self.mp_disordered)
        return 2 * cap

    def banned(self, j: int, step: Step) -> bool:
        """Whether the orders forbid entering hex ``j`` for its enemies (cached per call)."""
        key = (j, step.bridge)
        found = self.bans.get(key)
        if found is None:
            n = self.grid.hexes[j]
            enemy = (self.foes.within4().get(j, ()) if self.orders_e == "march"
                     and self.sees is not None else self.enemy)
            found = self.bans[key] = approach_ban(
                self.board, n, step, unit_class=self.unit_class, orders=self.orders,
                enemy=enemy, enemy_artillery=self.enemy_artillery, friends=self.friends,
                sees=self.sees, chart=self.chart) is not None
        return found

    def special(self, i: int, e: Entry) -> Entry | None:
        """A bridge step as this position leaves it (002 §8.22 exception 3, 004 §9.81)."""
        key = (i, e[0])
        if key in self.specials:
            return self.specials[key]
        g, friends = self.grid, self.friends
        h, n = g.hexes[i], g.hexes[e[0]]
        found: Entry | None = e
        if e[4].bridge and any(x in friends and friends[x].march for x in (h, n)):
            step = entry_cost(self.board, h, n, unit_class=self.unit_class,
                              orders=self.orders, use_paths=False,
                              breastwork_sides=self.breastwork_sides, chart=self.chart)
            if isinstance(step, RuleError):
                found = None
            else:
                dis = UDD if step.disorder == "udd" else AUTO if step.disorder == "auto" else 0
                # the step's own answer now: not special again
                found = (e[0], step.half_mp, dis, PATH_CODES[step.path], step, False)
        if self.bridge_shut and (h, n) in g.bridge_on:  # bridge_over_cut's "on"
            found = None
        self.specials[key] = found
        return found

    def run(self) -> dict[tuple[Hex, Facing], Reach]:
        g, start, facing = self.grid, self.start, self.facing
        hexes, friends, kind = g.hexes, self.friends, facing.kind
        si, fi0 = g.index[start], facing.index
        near, enemy_i = self.foes.near, self.foes.enemy
        span = 24 * len(hexes)
        full_ma, attack = self.full_ma, self.orders_e == "attack"
        full_half = -1 if full_ma is None else 2 * full_ma
        lim = (self.limit(False), self.limit(True))
        tcs = tuple(tuple(2 * turn_cost(k, unit_class=self.unit_class, orders=self.orders,
                                        in_woods=w) for k in range(4)) for w in (False, True))
        fronts_of, woods = self.table.fronts, g.woods
        ban_zone, banned, special = self.ban_zone, self.banned, self.special
        on_map_start = -1 if self.entering else si
        start_adjacent = si in near and not self.entering
        best: dict[int, _Best] = {}  # by 6 * hex + facing
        index = g.index
        friends_i = {index[x]: fs for x, fs in friends.items() if x in index}
        dis0 = int(self.disordered)
        first: _State
        if self.entering:
            came = _come_on(self.board, start, unit_class=self.unit_class, orders=self.orders,
                            enemy=self.enemy, enemy_artillery=self.enemy_artillery,
                            friends=friends, sees=self.sees, disordered=self.disordered,
                            cap=self.limit, full_ma=full_ma, use_paths=self.use_paths,
                            chart=self.chart, facing=facing,
                            near_enemy=self.foes.hexes_near)
            if came is None:
                return {}
            dis0 = int(came.disordered)
            first = (came.cost, len(came.checks), 1, (6 * si + fi0,), came.checks, came.entry,
                     came.terminal, came.minimum, came.road_only)
        else:
            first = (0, 0, 1, (6 * si + fi0,), (), None, False, False, True)
            best[6 * si + fi0] = (0, dis0, 0, 1, (6 * si + fi0,), (), False, False, True)
        key0 = 4 * (6 * si + fi0) + 2 + dis0  # the start counts as entered by path
        nodes: dict[int, _State] = {key0: first}
        heap = [first[0] * span + key0]
        pop, push = heapq.heappop, heapq.heappush
        while heap:
            cost, key = divmod(pop(heap), span)
            node = nodes[key]
            if node[0] != cost:
                continue  # a dearer way in, since bettered (each cost is pushed once)
            _, nck, plen, path, checks, entry, terminal, minimum0, road_only = node
            dis, by_path = key & 1, key & 2
            st = key >> 2
            i, fi = divmod(st, 6)
            h = hexes[i]
            fs = friends_i.get(i) if friends_i else None
            may_end = (entry is None or entry.may_end) and (
                i == on_map_start or fs is None or fs.can_stack)
            if terminal:
                if may_end:
                    old_b = best.get(st)
                    mine = (cost, dis, nck, plen, path)
                    if old_b is None or mine < old_b[:5]:
                        best[st] = (*mine, checks, i in near, minimum0, road_only)
                continue
            tc_here = tcs[woods[i]]
            lim_here = lim[dis]
            fronts = fronts_of(i, kind)
            # leaving friends (§8.22): by pike or road, and off them (the only difference)
            passes: tuple[PassThrough | RuleError, PassThrough | RuleError] | None = None
            if fs is not None and i != on_map_start and entry is not None:
                passes = (_pass(h, entry, fs, False, self.unit_class),
                          _pass(h, entry, fs, True, self.unit_class))
            stay_if_turned = i == si and start_adjacent
            base = 6 * i
            for k, f2 in _TURNS[fi]:
                tc = tc_here[k]
                code = base + f2
                # the path with the turn is built only when a state keeps it
                tpath: tuple[int, ...] | None = path if k == 0 else None
                tplen = plen if k == 0 else plen + 1
                here = cost + tc
                if may_end and here <= lim_here:
                    old_b = best.get(code)
                    if old_b is None or here < old_b[0] or (
                            here == old_b[0] and (dis, nck, tplen) <= old_b[1:4]):
                        tpath = tpath or (*path, code)
                        mine = (here, dis, nck, tplen, tpath)
                        if old_b is None or mine < old_b[:5]:
                            best[code] = (*mine, checks, False, False, road_only)
                if stay_if_turned and k >= 2:
                    continue  # §7.24: turning more than a vertex there means staying
                for e in fronts[f2]:
                    j, half, dcode, pcode, step, odd = e
                    if j in enemy_i:
                        continue  # §9.51
                    if odd:
                        e2 = special(i, e)
                        if e2 is None:
                            continue
                        j, half, dcode, pcode, step, odd = e2
                    spend = (0 if by_path and pcode else tc) + half  # §7.23, §9.45
                    through: PassThrough | RuleError | None = None
                    if passes is not None:
                        through = passes[pcode == 1 or pcode == 2]
                        if isinstance(through, RuleError):
                            continue
                        spend += through.extra_half_mp
                    total = cost + spend
                    ndis = 1 if dcode == AUTO else dis
                    nkey = 4 * (6 * j + f2) + (2 if pcode else 0) + ndis
                    old = nodes.get(nkey)
                    if old is not None and total > old[0]:
                        continue  # a cheaper way in is known (also every state taken off)
                    if j in ban_zone and banned(j, step):
                        continue
                    minimum = False
                    if total > lim[ndis]:
                        # §9.42: one hex always, if the full good-order MA could pay it
                        if not (i == si and total <= full_half and (attack or j not in near)):
                            continue
                        minimum = True
                    nchecks = checks
                    if isinstance(through, PassThrough) and through.udd_drm is not None:
                        nchecks = (*nchecks, Check(h, "udd", through.udd_drm, "8.22"))
                    if dcode:
                        nchecks = (*nchecks, Check(hexes[j], "auto" if dcode == AUTO else "udd",
                                                   0, "9.47"))
                    n_nck = len(nchecks)
                    if old is not None:
                        mine_n = (total, n_nck, tplen + 1)
                        old_n = old[:3]
                        if mine_n > old_n:
                            continue
                        tpath = tpath or (*path, code)
                        npath = (*tpath, 6 * j + f2)
                        if mine_n == old_n and npath >= old[3]:
                            continue
                    else:
                        tpath = tpath or (*path, code)
                        npath = (*tpath, 6 * j + f2)
                    nodes[nkey] = (total, n_nck, tplen + 1, npath, nchecks, step,
                                   minimum or j in near, minimum,
                                   road_only and (pcode == 1 or pcode == 2))
                    if old is None or total < old[0]:
                        push(heap, total * span + nkey)
        pairs, facings = g.pair_list(kind), g.facing_list(kind)
        out: dict[tuple[Hex, Facing], Reach] = {}
        # by Reach.rank, then (hex, facing): the path ends in the state itself, so two
        # states never tie on the first five fields and the sort never compares checks
        for b in sorted(best.values()):
            code = b[4][-1]
            out[pairs[code]] = Reach(hexes[code // 6], facings[code % 6], b[0],
                                     tuple([pairs[c] for c in b[4]]), b[5], bool(b[1]), b[6],
                                     b[7], b[8])
        return out


#: a search state: cost, checks count, path length, path (as 6 * hex + facing numbers), the
#: checks, the step that entered it, terminal, minimum move only, road only
_State = tuple[int, int, int, tuple[int, ...], tuple[Check, ...], Step | None, bool, bool, bool]
#: an end state: half MP, disordered, checks count, path length, path, the checks, stopped,
#: minimum move only, road only (its first five fields are Reach.rank's)
_Best = tuple[int, int, int, int, tuple[int, ...], tuple[Check, ...], bool, bool, bool]


def _pass(h: Hex, entry: Step, friend: FriendStack, by_road: bool,
          unit_class: UnitClass) -> PassThrough | RuleError:
    """The cost of leaving the friendly hex ``h`` entered by ``entry`` (002 §8.22), by a
    pike or road step (``by_road``) or another."""
    p = pass_through(entry, friend, unit_class=unit_class)
    if isinstance(p, RuleError) or not p.exit_by_road or by_road:
        return p
    # entered along the road but leaving it: the pass costs what leaving the road would
    off = entry.off_path_half_mp
    if off is None:
        return RuleError("8.22", "the hex may be passed only along the road")
    return PassThrough(4 + off - entry.half_mp, off // 2 if off >= 4 else 0, False, "8.22")


def _leader_search(board: Board, start: Hex, limit_half: int | None, *,
                   passable: Callable[[Hex], bool],
                   chart: TerrainChart | None) -> dict[Hex, int]:
    """Cheapest half-MP cost from ``start`` to every hex for a leader (best rate, §9.31)."""
    grid = grid_of(board)
    si = grid.index.get(start)
    if si is None:
        return _leader_search_slow(board, start, limit_half, passable=passable, chart=chart)
    hexes = grid.hexes
    dist = _leader_numbers(board, grid, si, limit_half, lambda i: passable(hexes[i]), chart)
    return {hexes[i]: c for i, c in dist.items()}


def _leader_numbers(board: Board, grid: Grid, si: int, limit_half: int | None,
                    passable: Callable[[int], bool],
                    chart: TerrainChart | None) -> dict[int, int]:
    """:func:`_leader_search` over the board's numbered hexes and the leader's kept step
    costs (:mod:`costgrid`); the heap pops by (cost, hex number), the (cost, Hex) order, so
    the answer comes out in the same order as a search over Hex objects."""
    row = grid.table(board, "leader", None, True, (), chart).row
    span = len(grid.hexes)
    dist: dict[int, int] = {si: 0}
    heap = [si]
    done: set[int] = set()
    pop, push = heapq.heappop, heapq.heappush
    while heap:
        cost, i = divmod(pop(heap), span)
        if i in done:
            continue
        done.add(i)
        if i != si and not passable(i):
            continue  # reached, but nothing is traced on through it
        for e in row(i):
            if e is None or e[0] in done:
                continue
            j, total = e[0], cost + e[1]
            if limit_half is not None and total > limit_half:
                continue
            if total < dist.get(j, total + 1):
                dist[j] = total
                push(heap, total * span + j)
    return dist


def _leader_search_slow(board: Board, start: Hex, limit_half: int | None, *,
                        passable: Callable[[Hex], bool],
                        chart: TerrainChart | None) -> dict[Hex, int]:
    """:func:`_leader_search` from a hex off the board's numbering (the step at a time)."""
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

    grid = grid_of(board)
    si = grid.index.get(start)
    limit = None if mp is None else 2 * mp
    if si is None:
        dist = _leader_search_slow(board, start, limit, passable=ok, chart=chart)
        return {h: c for h, c in sorted(dist.items()) if h == start or ok(h)}
    # ok() by hex number: the enemy's hexes and those next to them, from the kept sets
    foes, index = grid.enemy_context(enemy), grid.index
    held = {index[h] for h, f in friends.items() if f.combat and h in index}
    enemy_i, near = foes.enemy, foes.near

    def ok_i(i: int) -> bool:
        return i not in enemy_i and (i not in near or i in held)

    found = _leader_numbers(board, grid, si, limit, ok_i, chart)
    hexes = grid.hexes
    return {hexes[i]: found[i] for i in sorted(found) if i == si or ok_i(i)}


def path_cost(board: Board, start: Hex, goal: Hex, *, enemy: Collection[Hex] = (),
              friends: Mapping[Hex, FriendStack] | None = None,
              chart: TerrainChart | None = None) -> float | None:
    """A leader's MP from ``start`` to ``goal`` (None: no way), by :func:`leader_costs`
    (002 §4.15, §9.3)."""
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
