"""What one step of movement costs a GBACW unit, and what the orders forbid (002 §7.2, §8.2, §9).

Costs are counted in half movement points (``half_mp``) so the March rate of ½ MP a pike or
road hex (002 §9.22) stays an integer; ``Step.mp`` gives the MP. A step that may not be taken
comes back as a :class:`RuleError` (not raised: the path search tries thousands of steps) naming
the section; :func:`require_step` raises it for a single action.

Readings (see docs/gbacw-rules.md, "Movement"):
- the road classes are E-9's: pike and road 1 MP (½ under March) whatever the terrain, elevation
  included; trail half the off-road cost; the working railroad gives no rate. Long Lane (the
  sunken road, drawn as a trail) counts as a road for movement (004 §9.84).
- a hexside's level change uses the chart's "one level" rows once per hexside, whatever the
  number of 20-ft levels: gradual and minor slopes cost nothing, steep ones the steep rows, a
  sheer one is closed to all.
- stone walls and fences have no row in either seed's chart: no movement effect.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from typing import Literal

from gettysburg.core.hexes import Hex, Hexside
from gettysburg.core.protocol import RuleError

from .board import Board, SideInfo
from .charts import all_charts
from .charts.terrain import Disorder, MoveCost, TerrainChart, UnitClass

Orders = Literal["march", "advance", "attack"]
ROAD_CLASSES = ("pike", "road")  # the full-rate paths (E-9)
PATH_CLASSES = ("pike", "road", "trail")  # the ones that carry a rate at all


@dataclass(frozen=True, slots=True)
class Check:
    """A disorder event met on the way: ``kind`` "auto" (the chart's D) or "udd" (d, a
    passage through friends, a withdrawal hex), with the UDD's DRM, at ``hex``."""

    hex: Hex
    kind: Literal["auto", "udd"]
    drm: int
    rule: str


@dataclass(frozen=True, slots=True)
class Step:
    """Entering ``to`` from ``frm``: the cost in half MP, the disorder it brings, the path
    rate used (pike/road/trail or None), whether a bridge or ford was used, whether the unit
    may end its move there, and the sections applied."""

    frm: Hex
    to: Hex
    half_mp: int
    disorder: Disorder
    path: str | None
    bridge: bool
    may_end: bool
    rules: tuple[str, ...]
    off_path_half_mp: int | None = None  # the cost without the path rate (for §8.22)

    @property
    def mp(self) -> float:
        return self.half_mp / 2


@dataclass(frozen=True, slots=True)
class FriendStack:
    """What a moving unit needs to know of a friendly hex (002 §8.22, §4.15)."""

    artillery_only: bool = False
    march: bool = False  # the stationary units are under March orders (§8.22 exception 2-3)
    combat: bool = True  # holds a combat unit (leaders alone do not)
    can_stack: bool = True  # the mover may end its move there (stacking limits, §8.12)


def movement_allowance(ma: int, orders: Orders, unit_class: UnitClass) -> int:
    """002 §9.24: Attack orders halve the MA, rounded up; artillery attached to a brigade on
    Attack moves as on Advance (§6.18), and leaders are never under orders (§6.19)."""
    if orders == "attack" and unit_class not in ("artillery", "leader"):
        return math.ceil(ma / 2)
    return ma


def effective_orders(orders: Orders | None, unit_class: UnitClass) -> Orders | None:
    """Artillery is always on Advance or March (002 §6.18, §9.43); leaders have none."""
    if unit_class == "leader":
        return None
    if unit_class == "artillery" and orders == "attack":
        return "advance"
    return orders


# --- the chart, parsed once --------------------------------------------------------------


_TABLES: dict[int, tuple[TerrainChart, dict[tuple[str, UnitClass], MoveCost]]] = {}


def _cost(chart: TerrainChart | None, terrain_id: str, unit_class: UnitClass) -> MoveCost:
    ch = chart if chart is not None else all_charts().terrain
    entry = _TABLES.get(id(ch))
    if entry is None or entry[0] is not ch:
        entry = (ch, {})
        _TABLES[id(ch)] = entry
    table = entry[1]
    key = (terrain_id, unit_class)
    found = table.get(key)
    if found is None:
        found = table[key] = ch.move_cost(terrain_id, unit_class)
    return found


def _worse(a: Disorder, b: Disorder) -> Disorder:
    order = ("none", "udd", "auto")
    return a if order.index(a) >= order.index(b) else b


def _path_class(side: SideInfo | None) -> str | None:
    """The best rate path along this hexside: pike or road beats trail (a sunken trail is a
    road, 004 §9.84); the working railroad carries none."""
    if side is None or not side.roads:
        return None
    best: str | None = None
    for r in side.roads:
        cls = "road" if r.sunken else r.road_class
        if cls in ROAD_CLASSES:
            return cls if cls == "pike" or best != "pike" else best
        if cls == "trail":
            best = best or "trail"
    return best


def _along_railroad(side: SideInfo | None) -> bool:
    """004 §9.83: the cut is entered and left only along the (unfinished) railroad."""
    return side is not None and any(
        r.road_class == "railroad" or "railroad" in r.name.lower() for r in side.roads)


#: 004 §9.81: Lott's Ridge bridge carries traffic over the railroad cut in A1623, only
#: between A1522 and A1723 (the book's ids).
LOTTS_RIDGE_BRIDGE = ("A1522", "A1623", "A1723")


def _bridge_hexes(board: Board) -> tuple[Hex, Hex, Hex] | None:
    try:
        a, mid, b = (board.parse(x) for x in LOTTS_RIDGE_BRIDGE)
    except ValueError:
        return None
    if "railroad-bridge" not in board.hexes[mid].features:
        return None
    return a, mid, b


def bridge_over_cut(board: Board, frm: Hex, to: Hex) -> Literal["on", "off"] | None:
    """004 §9.81: "on" for a step from an end of the Lott's Ridge bridge onto it, "off" for
    a step from it to an end; None if the step is not the bridge's."""
    hexes = _bridge_hexes(board)
    if hexes is None:
        return None
    a, mid, b = hexes
    if to == mid and frm in (a, b):
        return "on"
    if frm == mid and to in (a, b):
        return "off"
    return None


def bridge_steps_on(board: Board) -> frozenset[tuple[Hex, Hex]]:
    """004 §9.81: the steps :func:`bridge_over_cut` calls "on" (from an end of the Lott's
    Ridge bridge onto it), as (from, to) pairs; none on a board without the bridge. Read
    once a board by the movement tables, which ask it of every step they price."""
    hexes = _bridge_hexes(board)
    if hexes is None:
        return frozenset()
    a, mid, b = hexes
    return frozenset({(a, mid), (b, mid)})


def bridge_closers(board: Board) -> frozenset[Hex]:
    """004 §9.81: an enemy in the bridge hex or either hex beside it (neither an end nor on
    the railroad) closes the bridge."""
    hexes = _bridge_hexes(board)
    if hexes is None:
        return frozenset()
    a, mid, b = hexes
    return frozenset({mid, *(n for n in mid.neighbours() if n not in (a, b)
                             and not _along_railroad(board.side(mid, n)))})


def _off_path(board: Board, frm: Hex, to: Hex, unit_class: UnitClass,
              chart: TerrainChart | None, *, from_connected: bool,
              crossing_used: bool, side: SideInfo | None
              ) -> tuple[int, Disorder, list[str]] | RuleError:
    """The full MP and disorder of entering ``to`` off any path: hex terrain, features,
    hexside water and slope (002 §9.41, §9.46-9.47; 004 §9.83-9.87). ``side`` is
    ``board.side(frm, to)``, looked up once by the caller."""
    info = board.hexes[to]
    rules = ["9.41"]
    if "railroad-cut" in info.features:
        base = _cost(chart, "railroad-cut", unit_class)
        rules.append("tdg.9.83")
    else:
        base = _cost(chart, info.terrain, unit_class)
    if base.kind == "prohibited":
        return RuleError("9.41", f"{unit_class} may not enter {info.terrain} ({info.id})")
    mp, disorder = base.mp or 0, base.disorder
    for feature in ("farm", "run"):
        if feature not in info.features:
            continue
        if feature == "farm" and from_connected:
            continue  # 004 chart note [e]
        if feature == "run" and crossing_used and ("bridge" in info.features
                                                   or "ford" in info.features):
            continue  # the road's bridge or ford over the run
        c = _cost(chart, feature, unit_class)
        mp += c.mp or 0
        rules.append("tdg.9.87" if feature == "farm" else "tdg.9.85")
    if side is not None and side.stream and not (crossing_used and side.crossing):
        c = _cost(chart, side.stream, unit_class)
        if c.kind == "prohibited":
            return RuleError("9.41", f"{unit_class} may not cross the {side.stream} "
                                     f"({board.hexes[frm].id}-{info.id})")
        mp += c.mp or 0
        disorder = _worse(disorder, c.disorder)
        rules.append("9.41")
    # board.slope and board.uphill, from the side already in hand
    level_from = board.hexes[frm].level
    slope = side.slope if side is not None and side.slope else (
        "gradual" if level_from != info.level else None)
    if slope == "sheer":
        return RuleError("9.46", f"the sheer slope {board.hexes[frm].id}-{info.id} is closed")
    if slope == "steep":
        up = info.level > level_from
        c = _cost(chart, "up-one-level-steep" if up else "down-one-level-steep", unit_class)
        if c.kind == "prohibited":
            return RuleError("9.46", f"{unit_class} may not cross the steep slope "
                                     f"{board.hexes[frm].id}-{info.id}")
        mp += c.mp or 0
        disorder = _worse(disorder, c.disorder)
        rules.append("9.46")
    return mp, disorder, rules


def entry_cost(board: Board, frm: Hex, to: Hex, *, unit_class: UnitClass,
               orders: Orders | None, use_paths: bool = True,
               breastwork_sides: Collection[Hexside] = (),
               chart: TerrainChart | None = None) -> Step | RuleError:
    """The cost of entering ``to`` from the adjacent ``frm`` (002 §9.4).

    Road rates (§9.43-9.45) apply only entering along the path from a connected hex: pike
    and road 1 MP, ½ under March, whatever the terrain; a trail half the off-path cost,
    rounded down (minimum 1) under March and up under Advance (§9.44); none under Attack
    (§9.24). ``use_paths`` False refuses the rates (an Advance unit over March stacking
    limits, §8.13). Leaders take the best rate (§9.31). D/d apply off the paths only
    (§9.47). Bridges and fords serve only the path's users (§9.44)."""
    if to not in board.hexes or frm not in board.hexes:
        return RuleError("9.13", "no such hex on the map")
    if frm.distance(to) != 1:
        return RuleError("9.13", "units move one adjacent hex at a time")
    orders = effective_orders(orders, unit_class)
    info = board.hexes[to]
    side = board.side(frm, to)
    cut_here = "railroad-cut" in info.features
    cut_there = "railroad-cut" in board.hexes[frm].features
    if (cut_here or cut_there) and not _along_railroad(side):
        over = bridge_over_cut(board, frm, to)
        if over is None:
            return RuleError("tdg.9.83",
                             "a railroad cut is entered and left only along the railroad")
        if effective_orders(orders, unit_class) == "attack":
            return RuleError("9.44", "units on Attack orders may not move over a bridge")
        if over == "on":  # on the bridge: the hex's own ground, and no stopping there
            c = _cost(chart, info.terrain, unit_class)
            if c.kind == "prohibited":
                return RuleError("9.41", f"{unit_class} may not enter {info.terrain}")
            return Step(frm, to, 2 * (c.mp or 0), "none", None, True, False,
                        ("tdg.9.81",), None)
    path = _path_class(side)
    rates = use_paths and orders != "attack" and path is not None
    bridge = rates and (bool(side and side.crossing)
                        or "bridge" in info.features or "ford" in info.features)
    may_end = True
    extra = 0
    rules: list[str] = []
    if breastwork_sides and Hexside.between(frm, to) in breastwork_sides:
        c = _cost(chart, "breastworks", unit_class)
        if c.kind == "prohibited":
            return RuleError("15.2", f"{unit_class} may not cross breastworks into {info.id}")
        extra += c.mp or 0
        rules.append("15.2")
    off = _off_path(board, frm, to, unit_class, chart,
                    from_connected=bool(rates), crossing_used=bool(rates), side=side)
    off_half: int | None = None
    if not isinstance(off, RuleError):
        off_half = 2 * (off[0] + extra)
    if rates and path in ROAD_CLASSES:
        # the road's rate stands whatever the terrain (§9.44), creeks not bridged excepted
        half = 1 if orders == "march" or unit_class == "leader" else 2
        if side is not None and side.stream and not side.crossing:
            half += 2 * (_cost(chart, side.stream, unit_class).mp or 0)
        return Step(frm, to, half + 2 * extra, "none", path, bridge, may_end,
                    ("9.43", "9.44", *rules), off_half)
    if isinstance(off, RuleError):
        if rates and path == "trail" and info.terrain == "town":
            # 004 chart note [j]: a trail through town is followed at the path's cost
            return Step(frm, to, 2 + 2 * extra, "none", path, bridge, may_end,
                        ("9.44", "tdg.9.86", *rules), None)
        return off
    mp, disorder, off_rules = off
    if rates and path == "trail":
        down = orders == "march" or unit_class == "leader"
        half_cost = mp // 2 if down else math.ceil(mp / 2)
        return Step(frm, to, 2 * (max(1, half_cost) + extra), "none", path, bridge, may_end,
                    ("9.44", *rules), off_half)
    return Step(frm, to, 2 * (mp + extra), disorder if unit_class != "leader" else "none",
                None, False, may_end, (*off_rules, *rules), off_half)


def entry_from_off_map(board: Board, h: Hex, *, unit_class: UnitClass, orders: Orders | None,
                       use_paths: bool = True,
                       chart: TerrainChart | None = None) -> Step | RuleError:
    """Entering the edge hex ``h`` from off the map (a reinforcement, 002 §9.71): the hex's
    cost; a road, pike or trail leaving the hex is taken to come on from off the map, so its
    rate applies as for any connected step (§9.45)."""
    if h not in board.hexes:
        return RuleError("9.71", "the entry hex is not on the map")
    orders = effective_orders(orders, unit_class)
    info = board.hexes[h]
    classes = {_path_class(board.side(h, n)) for n in h.neighbours()}
    path = next((c for c in ("pike", "road", "trail") if c in classes), None)
    rates = use_paths and orders != "attack" and path is not None
    if "railroad-cut" in info.features and not rates:
        return RuleError("tdg.9.83", "a railroad cut is entered only along the railroad")
    if rates and path in ROAD_CLASSES:
        half = 1 if orders == "march" or unit_class == "leader" else 2
        return Step(h, h, half, "none", path, False, True, ("9.71", "9.44"), None)
    base = _cost(chart, "railroad-cut" if "railroad-cut" in info.features else info.terrain,
                 unit_class)
    if base.kind == "prohibited":
        if rates and info.terrain == "town":
            return Step(h, h, 2, "none", path, False, True, ("9.71", "tdg.9.86"), None)
        return RuleError("9.41", f"{unit_class} may not enter {info.terrain} ({info.id})")
    mp = base.mp or 0
    for feature in ("farm", "run"):
        if feature in info.features and not (feature == "farm" and rates):
            mp += _cost(chart, feature, unit_class).mp or 0
    if rates:
        down = orders == "march" or unit_class == "leader"
        return Step(h, h, 2 * max(1, mp // 2 if down else math.ceil(mp / 2)), "none", path,
                    False, True, ("9.71", "9.44"), 2 * mp)
    return Step(h, h, 2 * mp, base.disorder if unit_class != "leader" else "none", None,
                False, True, ("9.71", "9.41"), 2 * mp)


def require_step(step: Step | RuleError) -> Step:
    """The step, or its refusal raised (the refusals of 002 §9.2-9.5)."""
    if isinstance(step, RuleError):
        raise step
    return step


# --- facing changes (002 §7.21-7.23) ------------------------------------------------------


def turn_cost(steps: int, *, unit_class: UnitClass, orders: Orders | None,
              in_woods: bool, free: bool = False) -> int:
    """MP for turning ``steps`` vertices in one hex: one vertex free, more 1 MP (§7.21);
    under Attack orders in woods 1 MP a vertex, or 1 MP for an about-face (§7.22); leaders
    nothing; ``free`` for the cases of §7.23 (road movement, change of orders...)."""
    if steps == 0 or free or unit_class == "leader":
        return 0
    if effective_orders(orders, unit_class) == "attack" and in_woods:
        return 1 if steps == 3 else steps
    return 0 if steps == 1 else 1


# --- friends and enemies (002 §6.13, §6.15, §8.22, §9.3, §9.5) ----------------------------


@dataclass(frozen=True, slots=True)
class PassThrough:
    """Passing through a friendly hex (002 §8.22): the extra half MP, the UDD's DRM on
    leaving (None: no check), and whether the exit must follow a pike or road."""

    extra_half_mp: int
    udd_drm: int | None
    exit_by_road: bool
    rule: str


def pass_through(entry: Step, friend: FriendStack, *,
                 unit_class: UnitClass) -> PassThrough | RuleError:
    """002 §8.22: +2 MP and a UDD on leaving with the hex's own entry cost as DRM when that
    is 2 or more; infantry and cavalry pass artillery freely (artillery may not pass other
    arms); along a pike or road the road's rate stands unless the friends are on March, when
    the hex's real cost is paid instead (in both cases no check)."""
    if unit_class == "artillery" and not friend.artillery_only:
        return RuleError("8.22", "artillery may not move through infantry or cavalry")
    if friend.artillery_only and unit_class != "artillery":
        return PassThrough(0, None, False, "8.22")
    if entry.path in ROAD_CLASSES:
        if friend.march:
            if entry.off_path_half_mp is None:
                return RuleError("8.22", "the road is blocked by units on March and the "
                                         "ground beside it is closed to this unit")
            return PassThrough(max(0, entry.off_path_half_mp - entry.half_mp), None, False,
                               "8.22")
        return PassThrough(0, None, True, "8.22")
    own = entry.off_path_half_mp if entry.off_path_half_mp is not None else entry.half_mp
    return PassThrough(4, own // 2 if own >= 4 else 0, False, "8.22")


def adjacent_enemies(h: Hex, enemy: Collection[Hex]) -> list[Hex]:
    """The enemy hexes next to ``h``: where a move must stop, or may not go (002 §9.52-9.53)."""
    return [n for n in h.neighbours() if n in enemy]


def _side_closed(board: Board, a: Hex, b: Hex, chart: TerrainChart | None) -> bool:
    """Whether infantry could not cross a-b at all (a sheer slope, a cut's side): the
    exception of §9.52 for Advance units."""
    step = entry_cost(board, a, b, unit_class="infantry", orders="attack", chart=chart)
    return isinstance(step, RuleError) and step.rule in ("9.46", "tdg.9.83")


def approach_ban(board: Board, to: Hex, step: Step, *, unit_class: UnitClass,
                 orders: Orders | None, enemy: Collection[Hex],
                 enemy_artillery: Collection[Hex] = (),
                 friends: Mapping[Hex, FriendStack] | None = None,
                 sees: Callable[[Hex, Hex], bool] | None = None,
                 chart: TerrainChart | None = None) -> RuleError | None:
    """Whether the orders forbid entering ``to`` for its enemies (None: allowed).

    March (§6.13, §9.22): never adjacent to an enemy, nor within 4 hexes and sight of an
    enemy combat unit. Advance (§6.15, §9.23, §9.52): not adjacent to enemy infantry or
    cavalry unless crossing a bridge or ford, or the hexside between is one they could not
    cross. Artillery never adjacent (§9.52). Leaders only where friends stand (§9.33)."""
    orders = effective_orders(orders, unit_class)
    near = adjacent_enemies(to, enemy)
    if unit_class == "leader":
        if near and not (friends and to in friends and friends[to].combat):
            return RuleError("9.33", "a leader moves next to the enemy only onto friends")
        return None
    if orders == "march":
        if near:
            return RuleError("6.13", "units on March may not move next to the enemy")
        if sees is not None:
            for e in enemy:
                if to.distance(e) <= 4 and sees(e, to):
                    return RuleError("6.13", "units on March keep out of 4 hexes and sight "
                                             "of enemy combat units")
        return None
    if not near:
        return None
    if unit_class == "artillery":
        return RuleError("9.52", "artillery never moves next to the enemy")
    if orders == "advance":
        foot = [e for e in near if e not in enemy_artillery]
        if step.bridge:
            return None
        blocking = [e for e in foot if not _side_closed(board, to, e, chart)]
        if blocking:
            return RuleError("6.15", "units on Advance may not move next to enemy infantry "
                                     "or cavalry")
    return None


def march_may_move(start: Hex, enemy: Collection[Hex],
                   sees: Callable[[Hex, Hex], bool] | None) -> RuleError | None:
    """002 §6.13: a March unit starting within 4 hexes and sight of an enemy combat unit
    may not move (it must change orders first)."""
    for e in enemy:
        d = start.distance(e)
        if d == 1 or (d <= 4 and sees is not None and sees(e, start)):
            return RuleError("6.13", "a March unit within 4 hexes and sight of the enemy "
                                     "must change orders to move")
    return None
