"""Movement (6.x): hexside costs, roads, reachability, path checks, entry (6.7), night (9.72).

Reachability is a Dijkstra over (hex, road being followed) states: the road matters because
changing from one road to another inside a hex costs +1 MP (de 6.5; es only mentions it for
Cemetery Hill, the German revision makes it general: we follow de, boc-facts.md 4).
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import overload

from gettysburg.boc.board import Board, RoadOnSide, SideInfo
from gettysburg.boc.control import BoardIndex, index
from gettysburg.core.protocol import RuleError

# 6.4 / 2.2: what each hexside feature adds to the 2 MP of a clear hexside.
SIDE_TERRAIN_COST: dict[str, int] = {
    "woods": 1, "orchard": 1, "town": 1, "creek": 1, "river": 2, "marsh": 3,
}
# 2.2 slopes cost only when crossed uphill.
SLOPE_COST: dict[str, int] = {"rise": 1, "hill": 3}
# 6.7 half hexes on the map edge: entering them costs by the hex's own terrain.
HEX_TERRAIN_COST: dict[str, int] = {
    "clear": 0, "woods": 1, "orchard": 1, "town": 1, "marsh": 3, "rocks": 0,
}
BASE_COST = 2  # 6.4 a clear hexside
NO_ROAD = ""
NIGHT_MARCH_LIMIT = "I6"  # 9.74 night reinforcements march along roads no further than I6


def crossing_cost(side: SideInfo, to_hex_uphill: bool) -> int:
    """Off-road MP to cross ``side`` (6.4): 2 plus every feature; costs add up."""
    cost = BASE_COST + sum(SIDE_TERRAIN_COST.get(t, 0) for t in side.terrain)
    if side.slope is not None and to_hex_uphill:
        cost += SLOPE_COST[side.slope]
    return cost


def road_key(road: RoadOnSide) -> str:
    return road.name or road.road


def road_cost(road: RoadOnSide) -> int:
    """6.5: 1 MP along a main road, 2 along a secondary one; railroads are secondary (2.2);
    bridges and fords simply continue their road (2.2)."""
    return 1 if road.road_class == "main" and not road.rail else 2


@dataclass(frozen=True)
class Step:
    to: str
    side: str  # hexside key
    off_road: int  # off-road cost before the artillery multiplier
    roads: tuple[tuple[str, int], ...]  # (road key, MP)


#: One hex's steps as the search takes them (:meth:`MoveGraph.priced`).
HexSteps = tuple[tuple[tuple[int, int, int, int], ...],
                 tuple[tuple[int, int, tuple[tuple[int, int, int], ...]], ...]]


@dataclass
class MoveGraph:
    """The board's hexsides as movement steps, also compiled to integers for the search:
    hex ``i`` is ``hexes[i]`` (sorted ids), road ``k`` is ``roads[k]`` (0 = off road), a
    search state is ``hex * len(roads) + road``."""

    idx: BoardIndex
    steps: dict[str, tuple[Step, ...]]
    hexes: list[str] = field(default_factory=list)
    hex_no: dict[str, int] = field(default_factory=dict)
    roads: list[str] = field(default_factory=list)
    sides: list[str] = field(default_factory=list)
    side_no: dict[str, int] = field(default_factory=dict)
    # per hex: (to, side number, off-road MP, ((road number, MP), ...))
    fast: list[tuple[tuple[int, int, int, tuple[tuple[int, int], ...]], ...]] = \
        field(default_factory=list)
    #: Recent ``reachable`` answers by their arguments (``REACH_CACHE``): a movement phase
    #: asks for every unit's reach at every decision, and one unit's move rarely changes
    #: another's rules (the enemy, the front line and its MPs stay put).
    reach_cache: dict[tuple[str, MoveRules, str, int], Reach] = field(default_factory=dict)
    #: The latest ``reach_cache`` key per search shape (:func:`_shape`): the next phase's
    #: rules of a unit that has not moved differ only in the hexes the enemy left or took,
    #: and a search none of whose tests those touch is the same search (:func:`_reusable`).
    reach_last: dict[tuple[object, ...], tuple[str, MoveRules, str, int]] = \
        field(default_factory=dict)
    #: road key -> its number in :attr:`roads`.
    road_no: dict[str, int] = field(default_factory=dict)
    #: per hex number, its neighbours' numbers (``_reusable``).
    nbr_no: list[tuple[int, ...]] = field(default_factory=list)
    #: hex -> neighbour -> the step between them (``path_cost``).
    step_to: dict[str, dict[str, Step]] = field(default_factory=dict)
    #: multiplier -> :attr:`fast` laid out for the search (:meth:`priced`).
    priced_memo: dict[int, list[HexSteps]] = field(default_factory=dict)
    #: ``entry_cost``'s answers by its arguments (the board never changes once loaded).
    entry_costs: dict[tuple[str, str, str, int, bool], tuple[int, str]] = \
        field(default_factory=dict)
    #: id of a hex or hexside set -> (the set, its numbers): :func:`_numbers`.
    number_memo: dict[int, tuple[frozenset[str], set[int]]] = field(default_factory=dict)

    def priced(self, multiplier: int) -> list[HexSteps]:
        """Per hex, its steps as the search takes them (issue 59, session 47): the off-road
        steps as (MP times ``multiplier`` (3.24/3.25), hex, hexside, state), cheapest
        first, so that the search stops at the first it cannot pay; then the steps along
        roads as (hex, hexside, ((road, MP, state), ...)). Kept per multiplier."""
        got = self.priced_memo.get(multiplier)
        if got is None:
            nr = len(self.roads)
            got = []
            for steps in self.fast:
                offs = sorted(((off * multiplier, to, side, to * nr)
                               for to, side, off, _ in steps), key=lambda step: step[0])
                roads = tuple((to, side, tuple((rk, rc, to * nr + rk) for rk, rc in rs))
                              for to, side, _, rs in steps if rs)
                got.append((tuple(offs), roads))
            self.priced_memo[multiplier] = got
        return got

    def side_ends(self, key: str) -> tuple[str, str]:
        """The two hexes of a hexside key (``a|b``); none for a key not on the board."""
        if key not in self.side_no:
            return ("", "")
        a, _, b = key.partition("|")
        return (a, b)

    def compile(self) -> None:
        self.hexes = sorted(self.steps)
        self.hex_no = {h: i for i, h in enumerate(self.hexes)}
        self.roads = [NO_ROAD, *sorted({rk for sts in self.steps.values() for st in sts
                                        for rk, _ in st.roads})]
        self.road_no = road_no = {r: i for i, r in enumerate(self.roads)}
        self.sides = sorted({st.side for sts in self.steps.values() for st in sts})
        self.side_no = {k: i for i, k in enumerate(self.sides)}
        self.fast = [tuple((self.hex_no[st.to], self.side_no[st.side], st.off_road,
                            tuple((road_no[rk], rc) for rk, rc in st.roads))
                           for st in self.steps[h]) for h in self.hexes]
        self.nbr_no = [tuple(step[0] for step in steps) for steps in self.fast]
        self.step_to = {h: {st.to: st for st in sts} for h, sts in self.steps.items()}


def graph(board: Board) -> MoveGraph:
    """Per-board movement graph, cached on the board like the control index."""
    got = board.__dict__.get("_boc_move_graph")
    if isinstance(got, MoveGraph):
        return got
    idx = index(board)
    steps: dict[str, tuple[Step, ...]] = {}
    for a, nbrs in idx.nbrs.items():
        out = []
        for b in nbrs:
            side = board.side(idx.hex_of[a], idx.hex_of[b])
            uphill = side.uphill == idx.hex_of[b]
            roads: dict[str, int] = {}
            for r in side.roads:
                key, c = road_key(r), road_cost(r)
                roads[key] = min(c, roads.get(key, c))
            out.append(Step(b, idx.side_key(a, b), crossing_cost(side, uphill),
                            tuple(sorted(roads.items()))))
        steps[a] = tuple(out)
    got = MoveGraph(idx, steps)
    got.compile()
    board.__dict__["_boc_move_graph"] = got
    return got


@dataclass(frozen=True)
class MoveRules:
    """Everything that limits one unit's move this phase."""

    budget: int  # MPs left (allowance minus MPs already spent)
    multiplier: int = 1  # 3.24/3.25 artillery pays double off roads
    roads: bool = True  # column/line option: units in line may not use roads
    one_hex: bool = True  # 6.4 a unit may always move one hex (if it has spent nothing)
    stop: frozenset[str] = frozenset()  # entering these ends the move (6.61, 6.62)
    forbidden: frozenset[str] = frozenset()  # may not be entered at all
    full_sides: frozenset[str] = frozenset()  # 6.62 hexsides already used twice
    entered: bool = False  # the start hex was just entered (6.7): a stop there is final

    def __hash__(self) -> int:
        """The fields' hash, worked out once per object (session 47: the reach cache's keys
        hash their rules several times a search). Not pickled: str hashes differ between
        processes."""
        got = self.__dict__.get("_hash")
        if got is None:
            got = hash((self.budget, self.multiplier, self.roads, self.one_hex, self.stop,
                        self.forbidden, self.full_sides, self.entered))
            object.__setattr__(self, "_hash", got)
        return int(got)

    def __getstate__(self) -> dict[str, object]:
        return {k: v for k, v in self.__dict__.items() if k != "_hash"}


@dataclass
class Reach:
    """Cheapest MP cost per reachable hex; the paths are rebuilt only when asked for."""

    cost: dict[str, int] = field(default_factory=dict)
    end: dict[str, int] = field(default_factory=dict)  # hex -> best search state
    prev: dict[int, int] = field(default_factory=dict)
    names: list[str] = field(default_factory=list)
    nr: int = 1
    extra: dict[str, list[str]] = field(default_factory=dict)  # one-hex moves (6.4)
    start: str = ""
    #: hex number -> the cost of its first state taken, for every hex the search reached
    #: (the start's too); left empty by a reach not made by ``_search``.
    taken: dict[int, int] = field(default_factory=dict)
    _paths: dict[str, list[str]] | None = None
    _path_list: ReachPaths | None = None
    _reached: frozenset[str] | None = None
    _went_on: frozenset[str] | None = None

    def reached(self) -> frozenset[str]:
        """The hexes of every state the search reached (the start's too): each was taken
        from the heap and tested against the stops."""
        if self._reached is None:
            nr, names = self.nr, self.names
            if self.taken:  # the same hexes: every state reached was taken (session 47)
                self._reached = frozenset(names[h] for h in self.taken)
            else:
                self._reached = frozenset({names[s // nr] for s in self.prev} | {self.start})
        return self._reached

    def went_on(self, rules: MoveRules) -> frozenset[str]:
        """The reached hexes the search went on from under ``rules`` (the rules it was
        made by, or rules that stop at the same reached hexes): those not stopped at."""
        if self._went_on is None:
            start, entered = self.start, rules.entered
            self._went_on = frozenset(h for h in self.reached() if h not in rules.stop
                                      or (h == start and not entered))
        return self._went_on

    @property
    def path_list(self) -> ReachPaths:
        """The paths of :attr:`path` in its order (sorted by destination), each traced
        back only when asked for (a legal-action list hands out few of them)."""
        if self._path_list is None:
            self._path_list = ReachPaths(self)
        return self._path_list

    def trail(self, hx: str) -> list[str]:
        """The path to ``hx`` (a reachable hex), traced back from the search."""
        state = self.end.get(hx)
        if state is None:
            return self.extra[hx]
        trail = [hx]
        key = state
        while key in self.prev:
            key = self.prev[key]
            trail.append(self.names[key // self.nr])
        trail.reverse()
        return trail

    @property
    def path(self) -> dict[str, list[str]]:
        if self._paths is None:
            self._paths = {h: self.trail(h) for h in sorted(self.extra.keys() | self.end)}
        return self._paths


class ReachPaths(Sequence[list[str]]):
    """A :class:`Reach`'s paths by destination order, built when indexed (issue 59).
    Callers must not change the lists they get (they may be the reach's own)."""

    __slots__ = ("_dests", "_reach")

    def __init__(self, reach: Reach) -> None:
        self._reach = reach
        self._dests = sorted(reach.extra.keys() | reach.end)

    @property
    def reach(self) -> Reach:
        """The reach these paths are traced from (the kept movement list asks it which
        hexes its search went on from)."""
        return self._reach

    def __len__(self) -> int:
        return len(self._dests)

    @overload
    def __getitem__(self, i: int) -> list[str]: ...

    @overload
    def __getitem__(self, i: slice) -> list[list[str]]: ...

    def __getitem__(self, i: int | slice) -> list[str] | list[list[str]]:
        r = self._reach
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self._dests)))]
        if r._paths is not None:
            return r._paths[self._dests[i]]
        return r.trail(self._dests[i])

    def __iter__(self) -> Iterator[list[str]]:
        """All of them: traced once and kept in the reach (:attr:`Reach.path`)."""
        return iter(self._reach.path.values())


#: ``reachable`` answers kept per board; the oldest go first beyond this many. A random
#: Day 1 game makes about 700 searches with 256 kept, 645 with 512, 605 with 1,024
#: (session 47: more of the last searches of a shape are still there to be reused,
#: ``_reusable``); but kept reaches hold their traced paths (lists the cyclic collector
#: walks), and with 1,024 a game played through full views and lists under the default
#: collector thresholds lost more to the collector (about 0.04 s a Day 1 game) than the
#: searches saved: 512 is the middle.
REACH_CACHE = 512
#: Hex sets kept as numbers (``_numbers``) before that memo starts afresh.
NUMBER_MEMO = 256
_REACH_LOCK = threading.Lock()


def reachable(board: Board, start: str, rules: MoveRules, start_road: str = NO_ROAD,
              start_cost: int = 0) -> Reach:
    """Cheapest path to every hex ``start`` can reach this phase (start excluded).

    Ties are broken deterministically (lowest cost, then hex id, then road key), so the
    canonical path of a destination never depends on dict order. The answer depends on the
    arguments alone, so recent ones are kept (``MoveGraph.reach_cache``); callers must not
    change the returned ``Reach`` or its paths.
    """
    g = graph(board)
    key = (start, rules, start_road, start_cost)
    got = g.reach_cache.get(key)
    if got is None:
        shape = _shape(key)
        last = g.reach_last.get(shape)
        kept = g.reach_cache.get(last) if last is not None else None
        if kept is not None and last is not None and _reusable(g, kept, last[1], rules):
            got = kept  # issue 59: the same search, step for step
        else:
            got = _search(g, start, rules, start_road, start_cost)
        with _REACH_LOCK:  # the server's threads share the board
            if len(g.reach_cache) >= REACH_CACHE:
                del g.reach_cache[next(iter(g.reach_cache))]
            g.reach_cache[key] = got
            if len(g.reach_last) >= REACH_CACHE:
                del g.reach_last[next(iter(g.reach_last))]
            g.reach_last[shape] = key
    return got


def _shape(key: tuple[str, MoveRules, str, int]) -> tuple[object, ...]:
    """A search's arguments but the three hex sets of its rules (stop, forbidden, full
    hexsides): searches of one shape differ only in those."""
    start, r, start_road, start_cost = key
    return (start, start_road, start_cost, r.budget, r.multiplier, r.roads, r.one_hex,
            r.entered)


def _reusable(g: MoveGraph, reach: Reach, old: MoveRules, new: MoveRules) -> bool:
    """Whether a search under ``new`` would make every test it made under ``old`` (a
    search of the same shape, answered by ``reach``) with the same outcome, and so find
    the same reach. The search tests a hex against the stops when it takes one of its
    states from the heap (every hex of a state it reached), and each neighbour and hexside
    of a hex it goes on from against the forbidden hexes and the full hexsides; the
    one-hex move (6.4) tests the start's, which it went on from. So the hexes whose
    membership changed must lie outside those."""
    stop = old.stop ^ new.stop if old.stop is not new.stop else frozenset()
    forbidden = old.forbidden ^ new.forbidden if old.forbidden is not new.forbidden \
        else frozenset()
    full = old.full_sides ^ new.full_sides if old.full_sides is not new.full_sides \
        else frozenset()
    if not (stop or forbidden or full):
        return True
    if reach.taken:
        return _reusable_made(g, reach, old, stop, forbidden, full)
    reached = reach.reached()
    if not stop.isdisjoint(reached):
        return False
    went_on = reach.went_on(old)
    nbrs = g.idx.nbrs
    if any(not went_on.isdisjoint(nbrs.get(h, ())) for h in forbidden):
        return False
    return all(a not in went_on and b not in went_on for a, b in map(g.side_ends, full))


def _reusable_made(g: MoveGraph, reach: Reach, old: MoveRules, stop: frozenset[str],
                   forbidden: frozenset[str], full: frozenset[str]) -> bool:
    """:func:`_reusable` for a reach made by ``_search`` (session 47), the same answer
    sooner: the hexes it took are its start and its paths' ends (:attr:`Reach.end`), so
    the changed stops are looked up among them at C speed; the hexes it went on from are
    the few of those it did not stop at, and each is asked whether a changed forbidden
    hex is next to it (the front line and the enemy's hexes move by dozens of hexes
    between phases, more than the hexes a search goes on from)."""
    start = reach.start
    if start in stop or not stop.isdisjoint(reach.end):
        return False
    if not (forbidden or full):
        return True
    stops = old.stop
    went_on = [h for h in reach.end if h not in stops]
    if start not in stops or not old.entered:
        went_on.append(start)
    nbrs = g.idx.nbrs
    if forbidden and any(not forbidden.isdisjoint(nbrs[h]) for h in went_on):
        return False
    if full:
        on = set(went_on)
        return all(a not in on and b not in on for a, b in map(g.side_ends, full))
    return True


def stands_with_full(g: MoveGraph, reach: Reach, rules: MoveRules,
                     full: frozenset[str]) -> bool:
    """Whether a search under ``rules`` with ``full`` as its full hexsides (6.62) would
    find ``reach``, made under ``rules`` (session 48: the kept movement list after a
    hexside fills). A hexside that closed matters only if one of its steps is the
    back-link of a state the search reached, or it is the start's hexside to a one-hex
    move (6.4): a search keeps, for each state, the cheapest cost offered and the first
    step that offered it, and takes the states in (cost, state) order, so a step whose
    offer never stood changes nothing when it is left out. A hexside that opened matters
    if the search stepped from one of its hexes (:func:`_reusable`'s reasoning)."""
    if full is rules.full_sides:
        return True
    closed, opened = full - rules.full_sides, rules.full_sides - full
    start, end, extra = reach.start, reach.end, reach.extra
    if opened:
        stops = rules.stop
        for key in opened:
            for h in g.side_ends(key):
                if h == start or (h in end and h not in stops):
                    return False
    if not closed:
        return True
    if not reach.taken:
        return False  # not made by the search: no back-links to read
    nr, prev, taken, hex_no = reach.nr, reach.prev, reach.taken, g.hex_no
    for key in closed:
        a, b = g.side_ends(key)
        if not a:
            continue  # no hexside of the board: no search steps over it
        for x, y in ((a, b), (b, a)):
            if x == start and y in extra:
                return False
            xn, yn = hex_no[x], hex_no[y]
            if xn not in taken or yn not in taken:
                continue  # no step from x taken, or none into y that stood
            # The states of y a step from x offers: off road, and along its roads.
            roads = next(rs for to, _, _, rs in g.fast[xn] if to == yn)
            for state in (yn * nr, *(yn * nr + rk for rk, _ in roads)):
                link = prev.get(state)
                if link is not None and link // nr == xn:
                    return False
    return True


def _numbers(g: MoveGraph, names: frozenset[str], numbering: dict[str, int]) -> set[int]:
    """``names`` as the graph's numbers (hexes or hexsides), kept per set object: the
    rules of every unit listed at one decision share their sets (issue 59)."""
    memo = g.number_memo
    got = memo.get(id(names))
    if got is not None and got[0] is names:
        return got[1]
    out = {numbering[k] for k in names if k in numbering}
    if len(memo) >= NUMBER_MEMO:
        memo.clear()
    memo[id(names)] = (names, out)
    return out


def _search(g: MoveGraph, start: str, rules: MoveRules, start_road: str,
            start_cost: int) -> Reach:
    """Dijkstra over (hex, road) states for :func:`reachable`.

    Every step costs at least 1 MP and no state costs more than the budget, so the queue
    is one bucket per MP total (Dial's form of the search): a bucket's states are taken
    in state order, all of them pushed before it is reached, which is the order a heap
    of (cost, state) pairs pops them in (issue 59: the same search, step for step).
    Within one state's steps the order does not matter (each step leads to other states),
    so a hex's off-road steps are taken cheapest first and stop at the first the MPs left
    cannot pay, and its road steps are a list apart (session 47: the same search)."""
    nr = len(g.roads)
    hex_no, steps = g.hex_no, g.priced(rules.multiplier)
    budget, use_roads = rules.budget, rules.roads
    forbidden = _numbers(g, rules.forbidden, hex_no)
    stop = _numbers(g, rules.stop, hex_no)
    full = _numbers(g, rules.full_sides, g.side_no)
    s0 = hex_no[start]
    first = s0 * nr + g.road_no.get(start_road, 0)
    best: dict[int, int] = {first: start_cost}
    seen = best.get
    prev: dict[int, int] = {}
    stop_at_start = rules.entered
    top = max(budget, start_cost)
    buckets: list[list[int]] = [[] for _ in range(top + 1)]
    buckets[start_cost].append(first)
    # hex -> the cost of its first state taken. A later state of that hex costs as much
    # or more and its steps lead to the same states: off road at the same price, so they
    # improve nothing; along a road they may improve only at the same cost (no +1 MP for
    # changing roads, de 6.5). The search is the same without those steps.
    first_cost: dict[int, int] = {}
    ends: list[int] = []  # the cheapest state of each hex but the start's, as taken
    for cost in range(start_cost, top + 1):
        bucket = buckets[cost]
        if not bucket:
            continue
        bucket.sort()
        room = budget - cost
        for state in bucket:
            if best[state] != cost:
                continue  # reached more cheaply since
            hx, road = divmod(state, nr)
            again = first_cost.get(hx)
            if again is None:
                # The first state of a hex taken is its cheapest (states are taken in
                # (cost, state) order): the hex's cost and the end of its path.
                first_cost[hx] = cost
                if hx != s0:
                    ends.append(state)
            if hx in stop and (hx != s0 or stop_at_start):
                continue
            offs, roads = steps[hx]
            if again is None:
                for off, to, side, key in offs:
                    if off > room:
                        break  # the rest cost as much or more
                    if to in forbidden or side in full:
                        continue
                    nc = cost + off
                    old = seen(key)
                    if old is None or nc < old:
                        best[key] = nc
                        prev[key] = state
                        buckets[nc].append(key)
            elif again < cost or not use_roads:
                continue
            if use_roads:
                for to, side, along in roads:
                    if to in forbidden or side in full:
                        continue
                    for rk, rc, key in along:
                        nc = cost + rc + (1 if road and road != rk else 0)  # de 6.5
                        if nc <= budget:
                            old = seen(key)
                            if old is None or nc < old:
                                best[key] = nc
                                prev[key] = state
                                buckets[nc].append(key)
    out = Reach()
    names = g.hexes
    for state in ends:
        name = names[state // nr]
        out.cost[name] = best[state]
        out.end[name] = state
    out.prev, out.names, out.nr, out.start, out.taken = prev, names, nr, start, first_cost
    mult = rules.multiplier
    if rules.one_hex and not (s0 in stop and stop_at_start):
        # 6.4: one hex is always possible whatever it costs.
        for st in g.steps.get(start, ()):
            if st.to in out.cost or st.to in rules.forbidden or st.side in rules.full_sides:
                continue
            # A unit in line may not take the road (column/line box), so only its
            # off-road price counts for it.
            road_mps = [rc for _, rc in st.roads] if use_roads else []
            out.cost[st.to] = min([st.off_road * mult, *road_mps])
            out.extra[st.to] = [start, st.to]
    return out


def path_cost(board: Board, path: list[str], rules: MoveRules, start_road: str = NO_ROAD,
              start_cost: int = 0) -> int:
    """Check a full path (first element = where the move starts) and return its MP cost,
    choosing the cheapest road use along it. Raises :class:`RuleError` naming the rule."""
    g = graph(board)
    if len(set(path)) != len(path):
        raise RuleError("6.3", "a path may not visit a hex twice")
    states: dict[str, int] = {start_road: start_cost}
    for i in range(1, len(path)):
        a, b = path[i - 1], path[i]
        step = g.step_to.get(a, {}).get(b)
        if step is None:
            raise RuleError("6.3", f"{b} is not a map hex next to {a}")
        if a in rules.stop and (i > 1 or rules.entered):
            raise RuleError("6.61", f"the move must stop in {a}: it is next to enemy units "
                                    "(enemy zone of control / front line)")
        if b in rules.forbidden:
            raise RuleError("6.1", f"{b} may not be entered now")
        if step.side in rules.full_sides:
            raise RuleError("6.62", f"two units have already crossed the front-line hexside "
                                    f"{a}/{b} this phase")
        # The cheapest cost of arriving in b off the road and along each road (de 6.5).
        off = step.off_road * rules.multiplier
        along = step.roads if rules.roads else ()
        nxt: dict[str, int] = {}
        for road, cost in states.items():
            c = cost + off
            if c < nxt.get(NO_ROAD, c + 1):
                nxt[NO_ROAD] = c
            for rk, rc in along:
                c = cost + rc + (1 if road and road != rk else 0)
                if c < nxt.get(rk, c + 1):
                    nxt[rk] = c
        states = nxt
    total = min(states.values())
    if total > rules.budget and not (rules.one_hex and len(path) == 2):
        raise RuleError("6.3", f"the path costs {total} MP but only {rules.budget} are left")
    return total


def entry_cost(board: Board, entry_hex: str, first: str, road_name: str,
               multiplier: int, roads: bool = True) -> tuple[int, str]:
    """6.7: MPs to come on at ``first`` for a unit using the entry road ending at
    ``entry_hex``, and the road it is then on. The entry hex itself costs 1 MP on a main
    road and 2 on a secondary one; a half hex beside it costs by its own terrain (as does
    the entry hex for a unit that may not use roads: infantry in line, column/line box).
    Kept per board and arguments in the board's move graph (``MoveGraph.entry_costs``;
    issue 59: asked for every due unit's entries)."""
    memo = graph(board).entry_costs
    key = (entry_hex, first, road_name, multiplier, roads)
    got = memo.get(key)
    if got is None:
        got = memo[key] = _entry_cost(board, entry_hex, first, road_name, multiplier, roads)
    return got


def _entry_cost(board: Board, entry_hex: str, first: str, road_name: str,
                multiplier: int, roads: bool) -> tuple[int, str]:
    """:func:`entry_cost` worked out."""
    if first == entry_hex and roads:
        idx = index(board)
        best: tuple[int, str] | None = None
        want = road_name.casefold()
        for n in idx.nbrs.get(entry_hex, ()):
            for r in board.side(idx.hex_of[entry_hex], idx.hex_of[n]).roads:
                cand = (road_cost(r), road_key(r))
                if r.name.casefold() == want and (best is None or cand < best):
                    best = cand
        return best if best is not None else (2, NO_ROAD)
    terrain = board.hex(first).terrain
    return (BASE_COST + HEX_TERRAIN_COST.get(terrain, 0)) * multiplier, NO_ROAD


def march_roads(board: Board, names: Iterable[str]) -> frozenset[str]:
    """9.74: the road keys a night reinforcement may follow, given the names of its entry
    roads (compared without case): the map roads of those names, and where no map road of
    that name leaves an entry hex of the name (the Littlestown Road comes on along the
    Baltimore Pike), the roads leaving that entry hex. Cached on the board."""
    wanted = frozenset(n.casefold() for n in names)
    cache = board.__dict__.setdefault("_boc_march_roads", {})
    got = cache.get(wanted)
    if isinstance(got, frozenset):
        return got
    idx = index(board)
    keys: set[str] = set()
    out_of: dict[str, set[tuple[str, str]]] = {}  # hex -> (name, key) of roads leaving it
    for a, nbrs in idx.nbrs.items():
        for b in nbrs:
            for r in board.side(idx.hex_of[a], idx.hex_of[b]).roads:
                out_of.setdefault(a, set()).add((r.name.casefold(), road_key(r)))
                if r.name.casefold() in wanted:
                    keys.add(road_key(r))
    for hx, entries in idx.entries:
        leaving = out_of.get(hx, set())
        for name in entries:
            if name.casefold() in wanted and not any(n == name.casefold() for n, _ in leaving):
                keys |= {k for _, k in leaving}
    got = frozenset(keys)
    cache[wanted] = got
    return got


def road_march(board: Board, start: str, forbidden: Iterable[str], roads: Iterable[str],
               limit: str = NIGHT_MARCH_LIMIT) -> dict[str, list[str]]:
    """9.74: hexes a night reinforcement can reach from its entry hex along the roads named
    ``roads`` (:func:`march_roads`), MPs not counted, never entering a forbidden hex. Both
    rulebooks keep the march on the three night roads (a lane branching off them is no way
    forward) and let it go as far as ``limit`` (I6) at most: so it keeps to the hexes of
    the shortest road routes from the entry to I6 and may stop at any of them, rather
    than wander down another of the roads away from I6. An entry with no road to I6 may
    go anywhere along its roads."""
    keys = march_roads(board, roads)
    g = graph(board)

    def along(hx: str) -> Iterator[str]:
        for st in g.steps.get(hx, ()):
            if any(rk in keys for rk, _ in st.roads):
                yield st.to

    def spread(origin: str, blocked: frozenset[str], stop: str | None,
               keep: Callable[[str], bool]) -> dict[str, list[str]]:
        paths: dict[str, list[str]] = {origin: [origin]}
        queue = deque([origin])
        while queue:
            hx = queue.popleft()
            if hx == stop:
                continue
            for to in along(hx):
                if to not in paths and to not in blocked and keep(to):
                    paths[to] = [*paths[hx], to]
                    queue.append(to)
        return paths

    # The road geometry alone (no hex forbidden): how far each hex is from the entry and
    # from I6; a hex on a shortest route has the two adding up to the route's length.
    out = spread(start, frozenset(), limit, lambda _: True)
    back = spread(limit, frozenset(), None, lambda _: True)
    if limit in out:
        length = len(out[limit])
        route = {hx for hx in out if hx in back and len(out[hx]) + len(back[hx]) - 1 == length}
    else:
        route = set(out)
    return spread(start, frozenset(forbidden), limit, route.__contains__)
