"""The fast movement search gives exactly the answers of the search as first written
(002 §7.2, §8.22, §9; §4.15, §9.3 for leaders): the reference below is the step-at-a-time
Dijkstra over (Hex, Facing) objects that paths.reachable replaced (kept here, not in the
package), compared on random hand-made positions (hypothesis) and on the Second Day set-up."""

from __future__ import annotations

import heapq
import itertools
import random
from collections.abc import Callable, Collection, Mapping

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gettysburg.core.hexes import Hex, Hexside
from gettysburg.core.protocol import RuleError
from gettysburg.gbacw.board import Board, HexInfo, RoadOnSide, SideInfo, load_board
from gettysburg.gbacw.charts.terrain import TerrainChart, UnitClass
from gettysburg.gbacw.costgrid import grid_of
from gettysburg.gbacw.facing import Facing, front_hexes, turn, vertex_steps
from gettysburg.gbacw.movement import (
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
    march_may_move,
    pass_through,
    turn_cost,
)
from gettysburg.gbacw.paths import (
    Reach,
    _come_on,
    _leader_search,
    _Node,
    command_cost,
    disordered_approach_ban,
    leader_costs,
    reachable,
)

WOODS = ("woods", "rough-woods")


# --- the reference (the search as first written) ----------------------------------------


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


def reference_reachable(board: Board, start: Hex, facing: Facing, mp: int, *, unit_class: UnitClass,
              orders: Orders, enemy: Collection[Hex],
              friends: Mapping[Hex, FriendStack] | None = None,
              enemy_artillery: Collection[Hex] = (),
              sees: Callable[[Hex, Hex], bool] | None = None,
              full_ma: int | None = None, disordered: bool = False,
              mp_disordered: int | None = None, use_paths: bool = True,
              breastwork_sides: Collection[Hexside] = (), entering: bool = False,
              chart: TerrainChart | None = None) -> dict[tuple[Hex, Facing], Reach]:
    """The search as first written (before the numbered states of costgrid)."""
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
                found = RuleError("tdg.9.81", "an enemy on or beside the bridge closes it")
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


def reference_leader_search(board: Board, start: Hex, limit_half: int | None, *,
                   passable: Callable[[Hex], bool],
                   chart: TerrainChart | None) -> dict[Hex, int]:
    """The leader search as first written, a step at a time."""
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


# --- positions ----------------------------------------------------------------------------

O = Hex(0, 0)  # noqa: E741 - the origin
RADIUS = 5
CELLS = [Hex(q, r) for q in range(-RADIUS, RADIUS + 1) for r in range(-RADIUS, RADIUS + 1)
         if Hex(q, r).distance(O) <= RADIUS]
TERRAINS = ("open", "open", "woods", "rough-woods", "orchard", "marsh", "rocky", "town")
CLASSES: tuple[UnitClass, ...] = ("infantry", "mounted_cavalry", "artillery")
ORDERS: tuple[Orders, ...] = ("advance", "attack", "march")


def hand_board(terrain: dict[Hex, str], features: dict[Hex, tuple[str, ...]],
               levels: dict[Hex, int], sides: list[SideInfo]) -> Board:
    real = load_board()
    hexes = {h: HexInfo(id=f"T{h.q},{h.r}", hex=h, level=levels.get(h, 0), height_ft=0.0,
                        terrain=terrain.get(h, "open"), features=features.get(h, ()),
                        sheets=("T",)) for h in CELLS}
    merged: dict[Hexside, SideInfo] = {}
    for s in sides:
        merged.setdefault(s.side, s)
    return Board(codec=real.codec, layout=real.layout, hexes=hexes, sides=merged)


@st.composite
def boards(draw: st.DrawFn) -> Board:
    """Random ground: terrain, farms and runs, levels, roads of every class along random
    walks, creeks with and without bridges or fords, steep and sheer slopes."""
    terrain = {h: draw(st.sampled_from(TERRAINS)) for h in CELLS if draw(st.booleans())}
    features = {h: draw(st.sampled_from((("farm",), ("run",), ("run", "bridge"))))
                for h in CELLS if draw(st.integers(0, 9)) == 0}
    levels = {h: draw(st.integers(0, 2)) for h in CELLS if draw(st.integers(0, 3)) == 0}
    sides: list[SideInfo] = []
    for _ in range(draw(st.integers(0, 3))):  # roads
        cls = draw(st.sampled_from(("pike", "road", "trail")))
        h = draw(st.sampled_from(CELLS))
        for _ in range(draw(st.integers(1, 8))):
            n = h.neighbour(draw(st.integers(0, 5)))
            if n.distance(O) > RADIUS:
                break
            sides.append(SideInfo(side=Hexside.between(h, n), roads=(RoadOnSide(cls, "R"),),
                                  stream=draw(st.sampled_from((None, None, "creek"))),
                                  crossing=draw(st.sampled_from((None, "bridge", "ford")))))
            h = n
    for _ in range(draw(st.integers(0, 6))):  # creeks and slopes off the roads
        h = draw(st.sampled_from(CELLS))
        n = h.neighbour(draw(st.integers(0, 5)))
        if n.distance(O) > RADIUS:
            continue
        if draw(st.booleans()):
            sides.append(SideInfo(side=Hexside.between(h, n), stream="creek"))
        else:
            levels.setdefault(h, 0)
            levels[n] = levels[h] + 1
            sides.append(SideInfo(side=Hexside.between(h, n),
                                  slope=draw(st.sampled_from(("steep", "sheer"))), uphill=n))
    return hand_board(terrain, features, levels, sides)


@st.composite
def searches(draw: st.DrawFn) -> tuple[Board, dict[str, object]]:
    """A board and every argument of reachable drawn: enemies (some artillery), friends of
    every kind, breastworks, sight, the §9.42 minimum, disorder, path use, entering."""
    board = draw(boards())
    start = draw(st.sampled_from(CELLS))
    others = [h for h in CELLS if h != start]
    enemy = set(draw(st.lists(st.sampled_from(others), max_size=4)))
    friends = {h: FriendStack(artillery_only=draw(st.booleans()), march=draw(st.booleans()),
                              combat=draw(st.booleans()), can_stack=draw(st.booleans()))
               for h in draw(st.lists(st.sampled_from(others), max_size=5)) if h not in enemy}
    orders = draw(st.sampled_from(ORDERS))
    kind = "side" if orders == "march" else "vertex"
    mp = draw(st.integers(0, 8))
    works = [Hexside.between(h, h.neighbour(d)) for h, d in draw(st.lists(
        st.tuples(st.sampled_from(CELLS), st.integers(0, 5)), max_size=3))]
    kw: dict[str, object] = {
        "start": start, "facing": Facing(kind, draw(st.integers(0, 5))),  # type: ignore[arg-type]
        "mp": mp, "unit_class": draw(st.sampled_from(CLASSES)), "orders": orders,
        "enemy": enemy, "friends": friends,
        "enemy_artillery": {e for e in enemy if draw(st.booleans())},
        "sees": draw(st.sampled_from((None, _sees_some))),
        "full_ma": draw(st.sampled_from((None, mp, mp + 2, 2 * mp))),
        "disordered": draw(st.booleans()),
        "mp_disordered": draw(st.sampled_from((None, 0, 1, 2, mp))),
        "use_paths": draw(st.integers(0, 4)) != 0,
        "breastwork_sides": works, "entering": draw(st.integers(0, 5)) == 0}
    return board, kw


def _sees_some(a: Hex, b: Hex) -> bool:
    """A fixed, lopsided line of sight (enough to exercise §6.13's four hexes and sight)."""
    return (a.q * 3 + b.r * 5 + a.r) % 4 != 0


def _same(board: Board, kw: dict[str, object]) -> None:
    try:
        ref = reference_reachable(board, **kw)  # type: ignore[arg-type]
        # 002 §12.34 is a filter on the end states, the same for both searches
        ref = disordered_approach_ban(ref, kw["start"], disordered=bool(kw["disordered"]))  # type: ignore[arg-type]
    except RuleError as err:
        try:
            reachable(board, **kw)  # type: ignore[arg-type]
        except RuleError as mine:
            assert mine.rule == err.rule
            return
        raise AssertionError(f"the reference refused ({err}), the fast search did not") from None
    fast = reachable(board, **kw)  # type: ignore[arg-type]
    assert list(fast.items()) == list(ref.items())  # the same states, paths, checks, order


# --- the fast search against the reference ------------------------------------------------


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(searches())
def test_reachable_equals_the_reference_on_random_positions(
        case: tuple[Board, dict[str, object]]) -> None:
    """002 §7.2, §8.22, §9: every state, its path, cost, checks, flags and the order of the
    answer are the reference's, whatever the ground, the friends, the enemy and the orders."""
    board, kw = case
    _same(board, kw)
    _same(board, kw)  # again, from the kept tables


def test_reachable_equals_the_reference_on_the_derived_board() -> None:
    """Dense positions on the derived board: around the Chambersburg Pike bridge (A2810),
    in and near Gettysburg (B3821), Lott's Ridge bridge over the cut (A1522, 004 §9.81)."""
    board = load_board()
    rng = random.Random(52)
    for hid in ("A2810", "B3821", "A1522", "C2010"):
        start = board.parse(hid)
        around = [h for h in board.hexes if 1 <= h.distance(start) <= 7]
        for orders, cls in itertools.product(ORDERS, CLASSES):
            enemy = set(rng.sample(around, 6))
            friends = {h: FriendStack(artillery_only=rng.random() < 0.3,
                                      march=rng.random() < 0.3, can_stack=rng.random() < 0.8)
                       for h in rng.sample(around, 12) if h not in enemy}
            kind = "side" if orders == "march" else "vertex"
            _same(board, {"start": start, "facing": Facing(kind, rng.randrange(6)),  # type: ignore[arg-type]
                          "mp": 8 if orders != "attack" else 4, "unit_class": cls,
                          "orders": orders, "enemy": enemy, "friends": friends,
                          "enemy_artillery": set(list(enemy)[:2]), "full_ma": 8,
                          "mp_disordered": 4, "disordered": rng.random() < 0.2})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards(), st.sampled_from(CELLS), st.sets(st.sampled_from(CELLS), max_size=4),
       st.dictionaries(st.sampled_from(CELLS), st.booleans(), max_size=6),
       st.sampled_from((None, 0, 3, 10)))
def test_leader_search_equals_the_reference(board: Board, start: Hex, enemy: set[Hex],
                                            held: dict[Hex, bool], limit: int | None) -> None:
    """002 §9.3, §9.33, §4.15: the leader's and command-range costs, and their order, as
    before; friends with a combat unit let a leader stop next to the enemy."""
    friends = {h: FriendStack(combat=c) for h, c in held.items()}

    def ok(h: Hex) -> bool:  # §9.33, as leader_costs reads it
        return h not in enemy and not (any(n in enemy for n in h.neighbours())
                                       and not (h in friends and friends[h].combat))

    half = None if limit is None else 2 * limit
    fast = _leader_search(board, start, half, passable=ok, chart=None)
    ref = reference_leader_search(board, start, half, passable=ok, chart=None)
    assert list(fast.items()) == list(ref.items())
    assert list(leader_costs(board, start, limit, enemy=enemy, friends=friends).items()) == [
        (h, c) for h, c in sorted(ref.items()) if h == start or ok(h)]
    near = {n for e in enemy for n in (e, *e.neighbours())}
    both = reference_leader_search(board, start, half, passable=lambda h: h not in near,
                                   chart=None)
    assert list(command_cost(board, start, enemy_adjacent=lambda h: h in near,
                             friendly_combat=lambda h: False,
                             limit_half=half).items()) == list(both.items())


def test_tables_keyed_by_mover_and_breastworks() -> None:
    """The kept step costs belong to one kind of mover: breastworks (002 §15.2) and path use
    (§8.13) key their own tables, so one search never reads another's costs."""
    board = hand_board({}, {}, {}, [SideInfo(side=Hexside.between(O, O.neighbour(0)),
                                             roads=(RoadOnSide("road", "R"),))])
    f = Facing.vertex(0)
    kw: dict[str, object] = {"unit_class": "infantry", "orders": "advance", "enemy": ()}
    e = O.neighbour(0)
    assert reachable(board, O, f, 4, **kw)[(e, f)].half_mp == 2  # type: ignore[arg-type]
    walled = reachable(board, O, f, 4, breastwork_sides=[Hexside.between(O, e)], **kw)  # type: ignore[arg-type]
    assert walled[(e, f)].half_mp > 2
    off_road = reachable(board, O, f, 4, use_paths=False, **kw)  # type: ignore[arg-type]
    assert off_road[(e, f)].half_mp == 2 and not off_road[(e, f)].road_only
    assert reachable(board, O, f, 4, **kw)[(e, f)].road_only  # type: ignore[arg-type]
    assert len(grid_of(board).tables) == 3


def test_every_step_costs_something() -> None:
    """The fast search pops by cost alone, which gives the reference's answers only because
    no step is free: every step of the derived board costs at least ½ MP for every mover."""
    board = load_board()
    grid = grid_of(board)
    for cls, orders in itertools.product((*CLASSES, "leader"), ORDERS):
        table = grid.table(board, cls, effective_orders(orders, cls), True, (), None)
        for i in range(0, len(grid.hexes), 7):
            assert all(e is None or e[1] >= 1 for e in table.row(i))
