"""GBACW movement (002 §7.2, §8.22, §9), command range (§4.15) and withdrawal (§9.54):
the seed's worked examples, positions on small hand-made boards, the derived board, and
properties of the (hex, facing) search."""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gettysburg.core.hexes import DIRECTIONS, Hex, Hexside
from gettysburg.core.protocol import RuleError
from gettysburg.gbacw.board import Board, HexInfo, RoadOnSide, SideInfo, load_board
from gettysburg.gbacw.charts import all_charts
from gettysburg.gbacw.command_range import enemy_adjacent_hexes, in_range, leader_distance
from gettysburg.gbacw.facing import Facing
from gettysburg.gbacw.movement import (
    FriendStack,
    Step,
    approach_ban,
    entry_cost,
    movement_allowance,
    pass_through,
    require_step,
    turn_cost,
)
from gettysburg.gbacw.paths import leader_costs, path_cost, reachable
from gettysburg.gbacw.withdrawal import withdrawals

O = Hex(0, 0)  # noqa: E741 - the origin
E, NE, NW, W, SW, SE = (O.neighbour(d) for d in range(6))  # the directions, 0..5


def board_of(terrain: dict[Hex, str] | None = None, *, radius: int = 6,
             features: dict[Hex, tuple[str, ...]] | None = None,
             levels: dict[Hex, int] | None = None,
             sides: Iterable[SideInfo] = ()) -> Board:
    """A hand-made board: open hexes within ``radius`` of O unless told otherwise."""
    real = load_board()
    terrain, features, levels = terrain or {}, features or {}, levels or {}
    hexes = {}
    for q in range(-radius, radius + 1):
        for r in range(-radius, radius + 1):
            h = Hex(q, r)
            if h.distance(O) > radius:
                continue
            hexes[h] = HexInfo(id=f"T{q},{r}", hex=h, level=levels.get(h, 0), height_ft=0.0,
                               terrain=terrain.get(h, "open"), features=features.get(h, ()),
                               sheets=("T",))
    return Board(codec=real.codec, layout=real.layout, hexes=hexes,
                 sides={s.side: s for s in sides})


def road(a: Hex, b: Hex, cls: str = "road", **kw: object) -> SideInfo:
    return SideInfo(side=Hexside.between(a, b), roads=(RoadOnSide(cls, "Test Road"),),
                    **kw)  # type: ignore[arg-type]


def road_line(hexes: list[Hex], cls: str = "road") -> list[SideInfo]:
    return [road(a, b, cls) for a, b in itertools.pairwise(hexes)]


def step(board: Board, a: Hex, b: Hex, unit_class: str = "infantry",
         orders: str | None = "advance", **kw: object) -> Step:
    return require_step(entry_cost(board, a, b, unit_class=unit_class,  # type: ignore[arg-type]
                                   orders=orders, **kw))  # type: ignore[arg-type]


# --- costs (002 §9.4, the Terrain Effects Chart) ------------------------------------------


def test_terrain_costs_by_class_and_disorder_codes() -> None:
    b = board_of({E: "woods", NE: "rough-woods", NW: "town", W: "marsh"})
    assert step(b, O, E).mp == 2 and step(b, O, E, "artillery").mp == 4
    rw = step(b, O, NE)
    assert (rw.mp, rw.disorder) == (3, "udd")
    assert step(b, O, NE, "mounted_cavalry").disorder == "auto"
    town = step(b, O, NW)
    assert (town.mp, town.disorder) == (3, "auto")
    assert step(b, O, NW, "leader", None).disorder == "none"
    marsh = entry_cost(b, O, W, unit_class="artillery", orders="advance")
    assert isinstance(marsh, RuleError) and marsh.rule == "9.41"
    assert step(b, O, SW).mp == 1 and step(b, O, SW, "artillery").mp == 2


def test_section_9_44_trail_halves_rounded_by_orders() -> None:
    """002 §9.44's example: woods costing artillery 5 MP on Advance cost 3 along a trail.
    Rough woods are 5 for artillery on this chart; the same hex under March is 2 (down)."""
    b = board_of({E: "rough-woods", NE: "woods"}, sides=[road(O, E, "trail"),
                                                        road(O, NE, "trail")])
    adv = step(b, O, E, "artillery", "advance")
    assert (adv.mp, adv.path, adv.disorder) == (3, "trail", "none")
    assert step(b, O, E, "artillery", "march").mp == 2
    assert step(b, O, NE, "artillery", "advance").mp == 2
    assert step(b, O, NE, "infantry", "march").mp == 1  # half of 2, minimum 1
    # Attack orders take no path rates (§9.24): the real terrain, D and all
    att = step(b, O, E, "infantry", "attack")
    assert (att.mp, att.path, att.disorder) == (3, None, "udd")


def test_road_rates_by_orders_whatever_the_terrain() -> None:
    """§9.22-9.24, §9.44: ½ MP under March, 1 under Advance, none under Attack; the road's
    rate stands in town and over a steep slope, with no disorder (§9.47 note 1)."""
    b = board_of({E: "town"}, levels={E: 2},
                 sides=[SideInfo(Hexside.between(O, E), slope="steep", uphill=E,
                                 roads=(RoadOnSide("pike", "Pike"),))])
    assert step(b, O, E, orders="march").half_mp == 1
    adv = step(b, O, E, "artillery", "advance")
    assert (adv.mp, adv.disorder, adv.path) == (1, "none", "pike")
    att = step(b, O, E, "infantry", "attack")
    assert (att.mp, att.disorder) == (3 + 2, "auto")  # town 3 D, steep up +2 d
    assert isinstance(entry_cost(b, O, E, unit_class="artillery", orders="advance",
                                 use_paths=False), RuleError)  # §8.13: no rate, town P
    assert step(b, O, E, "leader", None).half_mp == 1  # the best rate (§9.31)


def test_road_rate_only_from_a_connected_hex() -> None:
    """§9.45: a road hex entered across a side the road does not cross costs its terrain."""
    b = board_of({E: "woods", NE: "woods"}, sides=road_line([E, NE]))
    assert step(b, O, E, orders="march").mp == 2
    assert step(b, E, NE, orders="march").mp == 0.5


def test_farm_run_creek_bridge_and_slopes() -> None:
    b = board_of({}, features={E: ("farm",), NE: ("run",), NW: ("farm",)},
                 levels={W: 1, SW: 1, SE: 1},
                 sides=[SideInfo(Hexside.between(O, SW), stream="creek"),
                        SideInfo(Hexside.between(O, SE), stream="creek", crossing="bridge",
                                 roads=(RoadOnSide("road", "R"),)),
                        SideInfo(Hexside.between(O, W), slope="steep", uphill=W),
                        road(O, NW)])
    assert step(b, O, E).mp == 2  # farm +1 (004 §9.87)
    assert step(b, O, NW).mp == 1  # not from a connected road (004 chart note [e])
    assert step(b, O, NE).mp == 1 and step(b, O, NE, "artillery").mp == 3  # run (004 §9.85)
    assert step(b, O, SW).mp == 2 and step(b, O, SW, "artillery").mp == 4  # creek
    bridge = step(b, O, SE, "artillery")
    assert (bridge.mp, bridge.bridge) == (1, True)
    assert step(b, O, SE, "infantry", "attack").mp == 2  # no bridges under Attack (§9.44)
    up = step(b, O, W)
    assert (up.mp, up.disorder) == (3, "udd")  # steep up +2 d
    down = step(b, W, O)
    assert (down.mp, down.disorder) == (2, "udd")  # steep down +1 d
    for cls in ("mounted_cavalry", "artillery"):
        assert isinstance(entry_cost(b, O, W, unit_class=cls, orders="advance"), RuleError)
    assert step(b, O, W, "leader", None).mp == 3


def test_railroad_cut_only_along_the_railroad() -> None:
    """004 §9.83: the cut is entered and left along the railroad bed, at 1 MP."""
    b = board_of({E: "woods"}, features={E: ("railroad-cut",)},
                 sides=[SideInfo(Hexside.between(O, E),
                                 roads=(RoadOnSide("trail", "Unfinished railroad bed"),))])
    assert step(b, O, E, orders="attack").mp == 1
    refused = entry_cost(b, E.neighbour(0), E, unit_class="infantry", orders="advance")
    assert isinstance(refused, RuleError) and refused.rule == "tdg.9.83"
    assert isinstance(entry_cost(b, E, E.neighbour(1), unit_class="infantry",
                                 orders="advance"), RuleError)


def test_movement_allowance_halved_under_attack() -> None:
    """§9.24: halved, rounded up; artillery moves as on Advance (§6.18)."""
    assert movement_allowance(7, "attack", "infantry") == 4
    assert movement_allowance(6, "attack", "infantry") == 3
    assert movement_allowance(8, "attack", "artillery") == 8
    assert movement_allowance(7, "advance", "infantry") == 7


def test_facing_costs() -> None:
    """§7.21 one vertex free, more 1 MP; §7.22 Attack in woods 1 a vertex or 1 for 180°."""
    kw: dict[str, object] = {"unit_class": "infantry", "orders": "advance", "in_woods": True}
    assert [turn_cost(k, **kw) for k in range(4)] == [0, 0, 1, 1]  # type: ignore[arg-type]
    kw["orders"] = "attack"
    assert [turn_cost(k, **kw) for k in range(4)] == [0, 1, 2, 1]  # type: ignore[arg-type]
    kw["in_woods"] = False
    assert [turn_cost(k, **kw) for k in range(4)] == [0, 0, 1, 1]  # type: ignore[arg-type]
    assert turn_cost(3, unit_class="leader", orders=None, in_woods=True) == 0


# --- friends (002 §8.22) ------------------------------------------------------------------


def test_section_8_22_passing_friends() -> None:
    b = board_of({E: "woods"}, sides=road_line([O, NE, NE.neighbour(1)]))
    woods = step(b, O, E)
    p = pass_through(woods, FriendStack(), unit_class="infantry")
    assert not isinstance(p, RuleError)
    assert (p.extra_half_mp, p.udd_drm) == (4, 2)  # +2 MP, UDD +2 in woods
    opn = pass_through(step(b, E, E.neighbour(0)), FriendStack(), unit_class="infantry")
    assert not isinstance(opn, RuleError) and (opn.extra_half_mp, opn.udd_drm) == (4, 0)
    free = pass_through(woods, FriendStack(artillery_only=True), unit_class="infantry")
    assert not isinstance(free, RuleError) and (free.extra_half_mp, free.udd_drm) == (0, None)
    assert isinstance(pass_through(woods, FriendStack(), unit_class="artillery"), RuleError)
    on_road = step(b, O, NE, orders="march")
    rd = pass_through(on_road, FriendStack(), unit_class="infantry")
    assert not isinstance(rd, RuleError) and (rd.extra_half_mp, rd.udd_drm) == (0, None)
    assert rd.exit_by_road
    blocked = pass_through(on_road, FriendStack(march=True), unit_class="infantry")
    assert not isinstance(blocked, RuleError)
    assert (blocked.extra_half_mp, blocked.udd_drm) == (1, None)  # real cost 1, not ½


def test_reachable_passing_through_a_friend_costs_two_and_a_check() -> None:
    rough = {Hex(q, r): "rough-woods" for q in range(-6, 7) for r in range(-6, 7)}
    b = board_of({**rough, O: "open", E: "woods", Hex(2, 0): "open"})  # around costs 7
    f = Facing.vertex(5)  # fronts: SE (5) and E (0)
    reach = reachable(b, O, f, 8, unit_class="infantry", orders="advance", enemy=(),
                      friends={E: FriendStack(can_stack=False)})
    assert (E, f) not in reach  # may not stay: stacking
    beyond = reach[(E.neighbour(0), f)]
    assert beyond.mp == 2 + 2 + 1
    assert [(c.hex, c.kind, c.drm) for c in beyond.checks] == [(E, "udd", 2)]


# --- the search (002 §7.13, §7.21, §9.42, §9.5) ------------------------------------------


def test_moves_only_through_front_hexes_and_pays_for_turns() -> None:
    b = board_of()
    f = Facing.vertex(0)  # fronts E and NE
    reach = reachable(b, O, f, 1, unit_class="infantry", orders="advance", enemy=())
    hexes = {h for h, _ in reach}
    assert hexes == {O, E, NE, NW, SE}  # a free vertex turn opens NW or SE
    assert (W, Facing.vertex(3)) not in reach  # 3 vertices cost 1, then 1 to enter
    assert reach[(O, Facing.vertex(3))].mp == 1
    two = reachable(b, O, f, 2, unit_class="infantry", orders="advance", enemy=())
    assert two[(W, Facing.vertex(3))].mp == 2


def test_section_9_53_stops_next_to_the_enemy_and_does_not_turn() -> None:
    b = board_of()
    enemy = {Hex(3, 0)}
    f = Facing.vertex(0)
    reach = reachable(b, O, f, 10, unit_class="infantry", orders="attack", enemy=enemy)
    stop = reach[(Hex(2, 0), f)]
    assert stop.stopped and stop.mp == 2
    assert (Hex(2, 0), Facing.vertex(1)) not in reach or reach[
        (Hex(2, 0), Facing.vertex(1))].path[-2][0] != Hex(2, 0)
    assert all(h not in enemy for h, _ in reach)
    for r in reach.values():  # nothing goes on from a hex next to the enemy
        for h, _ in r.path[1:-1]:
            assert not any(e.distance(h) == 1 for e in enemy) or h == r.hex


def test_section_9_52_orders_bans() -> None:
    b = board_of()
    enemy = {Hex(3, 0)}
    f = Facing.vertex(0)
    adv = reachable(b, O, f, 10, unit_class="infantry", orders="advance", enemy=enemy)
    assert all(h.distance(Hex(3, 0)) > 1 for h, _ in adv)
    arty = reachable(b, O, f, 10, unit_class="infantry", orders="advance", enemy=enemy,
                     enemy_artillery=enemy)
    assert (Hex(2, 0), f) in arty  # Advance may close on artillery
    guns = reachable(b, O, f, 10, unit_class="artillery", orders="attack", enemy=enemy,
                     enemy_artillery=enemy)
    assert all(h.distance(Hex(3, 0)) > 1 for h, _ in guns)


def test_section_9_23_advance_next_to_the_enemy_across_a_bridge() -> None:
    b = board_of(sides=[SideInfo(Hexside.between(O, E), stream="creek", crossing="bridge",
                                 roads=(RoadOnSide("road", "R"),))])
    s = step(b, O, E)
    assert approach_ban(b, E, s, unit_class="infantry", orders="advance",
                        enemy={Hex(2, -1)}) is None
    off = step(b, O, NE)
    ban = approach_ban(b, NE, off, unit_class="infantry", orders="advance", enemy={Hex(2, -1)})
    assert ban is not None and ban.rule == "6.15"


def test_section_6_13_march_keeps_four_hexes_out_of_sight() -> None:
    b = board_of(radius=8)
    enemy = {Hex(7, 0)}
    line_of = [Hex(q, 0) for q in range(0, 8)]
    b = board_of(radius=8, sides=road_line(line_of))
    f = Facing.side(0)

    def sees(a: Hex, t: Hex) -> bool:
        return True

    reach = reachable(b, O, f, 10, unit_class="infantry", orders="march", enemy=enemy,
                      sees=sees)
    assert max(h.distance(Hex(7, 0)) for h, _ in reach) >= 5
    assert all(h.distance(Hex(7, 0)) > 4 for h, _ in reach)
    blind = reachable(b, O, f, 10, unit_class="infantry", orders="march", enemy=enemy,
                      sees=lambda a, t: False)
    assert all(h.distance(Hex(7, 0)) > 1 for h, _ in blind)
    assert (Hex(5, 0), f) in blind  # ½ MP a road hex
    assert blind[(Hex(5, 0), f)].mp == 2.5
    near = reachable(b, Hex(4, 0), f, 10, unit_class="infantry", orders="march",
                     enemy=enemy, sees=sees)
    assert list(near) == [(Hex(4, 0), f)]  # §6.13: must change orders to move


def test_section_9_42_one_hex_always() -> None:
    """Exception 1: one hex whatever the MP left, if the full good-order MA pays it;
    exception 2: Attack orders may so move next to the enemy (then no fire or shock)."""
    b = board_of({E: "rough-woods", NE: "rough-woods"})
    f = Facing.vertex(0)
    ma = 3
    mp = movement_allowance(ma, "attack", "infantry")  # 2
    reach = reachable(b, O, f, mp, unit_class="infantry", orders="attack", enemy=(),
                      full_ma=ma)
    assert reach[(E, f)].minimum_move and reach[(E, f)].mp == 3
    assert not any(h == E.neighbour(0) for h, _ in reach)
    none = reachable(b, O, f, mp, unit_class="infantry", orders="attack", enemy=())
    assert (E, f) not in none
    near = reachable(b, O, f, mp, unit_class="infantry", orders="attack",
                     enemy={E.neighbour(0)}, full_ma=ma)
    assert near[(E, f)].minimum_move and near[(E, f)].stopped
    adv = reachable(b, O, f, 2, unit_class="infantry", orders="advance",
                    enemy={Hex(3, -1)}, enemy_artillery={Hex(3, -1)}, full_ma=3)
    assert (NE, f) in adv


def test_auto_disorder_caps_the_move_at_the_disordered_allowance() -> None:
    b = board_of({E: "town"})
    f = Facing.vertex(0)
    reach = reachable(b, O, f, 8, unit_class="infantry", orders="advance", enemy=(),
                      mp_disordered=4)
    town = reach[(E, f)]
    assert town.disordered and [c.kind for c in town.checks] == ["auto"]
    assert all(r.mp <= 4 for r in reach.values() if r.disordered)
    assert (Hex(3, 0), f) not in reach or reach[(Hex(3, 0), f)].path[1][0] != E


def test_start_adjacent_one_vertex_and_leave_or_more_and_stay() -> None:
    """§7.24 / §9.53."""
    b = board_of()
    enemy = {Hex(1, -1)}  # NE of O
    f = Facing.vertex(0)
    reach = reachable(b, O, f, 6, unit_class="infantry", orders="attack", enemy=enemy)
    assert (O, Facing.vertex(3)) in reach
    assert not any(r.path[1:2] and r.path[1] == (O, Facing.vertex(3))
                   and len(r.path) > 2 for r in reach.values())
    assert any(r.path[1][1] == Facing.vertex(5) for r in reach.values() if len(r.path) > 2)


# --- leaders and command range (002 §4.15, §9.3) -----------------------------------------


def test_leader_best_rate_and_adjacency() -> None:
    b = board_of({E: "woods"}, sides=road_line([O, NE, Hex(2, -2)]))
    costs = leader_costs(b, O)
    assert costs[E] == 4 and costs[NE] == 1 and costs[Hex(2, -2)] == 2
    assert path_cost(b, O, Hex(2, -2)) == 1.0
    near = leader_costs(b, O, enemy={Hex(2, 0)})
    assert E not in near  # §9.33
    assert E in leader_costs(b, O, enemy={Hex(2, 0)}, friends={E: FriendStack()})


def test_section_4_22_chain_of_command_distances() -> None:
    """§4.22's example: a brigadier 3 MP from his division leader (range 5), who is 5 MP
    from his corps commander (range 6): both links hold."""
    b = board_of({Hex(q, 0): "woods" for q in range(1, 6)}, radius=9)
    corps, division, brigadier = Hex(-5, 0), O, Hex(3, 0)
    assert leader_distance(b, corps, division, enemy_adjacent=(), friendly_combat=()) == 5
    assert in_range(b, corps, division, 6, enemy_adjacent=(), friendly_combat=())
    brig = Hex(0, 3)
    assert leader_distance(b, division, brig, enemy_adjacent=(), friendly_combat=()) == 3
    assert in_range(b, division, brig, 5, enemy_adjacent=(), friendly_combat=())
    # round the woods by the open row above, the woods hex itself last: 1 + 1 + 1 + 2
    assert leader_distance(b, division, brigadier, enemy_adjacent=(), friendly_combat=()) == 5
    assert not in_range(b, division, brigadier, 4, enemy_adjacent=(), friendly_combat=())


def test_section_4_15_enemy_adjacent_hexes_block_unless_friends() -> None:
    b = board_of(radius=8)
    leader, unit = O, Hex(4, 0)
    wall = {Hex(2, q) for q in range(-8, 9)}  # a line of enemy-adjacent hexes across
    assert leader_distance(b, leader, unit, enemy_adjacent=wall, friendly_combat=()) is None
    assert leader_distance(b, leader, unit, enemy_adjacent=wall,
                           friendly_combat={Hex(2, 0)}) == 4
    # the unit's own hex next to the enemy still counts (it holds a friendly unit)
    assert leader_distance(b, leader, unit, enemy_adjacent={unit}, friendly_combat=()) == 4
    assert in_range(b, leader, E, 0, enemy_adjacent={E}, friendly_combat=())  # adjacent
    assert enemy_adjacent_hexes({O}) == frozenset({O, *O.neighbours()})


# --- withdrawal (002 §9.54) ----------------------------------------------------------------


def test_section_9_54_two_woods_hexes() -> None:
    """§9.54's example: two woods hexes backwards, a UDD at +1 for each."""
    f = Facing.vertex(0)  # rear: W (3) and SW (4)
    b = board_of({W: "woods", Hex(-2, 0): "woods"})
    opts = withdrawals(b, O, f, unit_class="infantry", orders="advance", enemy=())
    two = [w for w in opts if w.hexes == (W, Hex(-2, 0))]
    assert len(two) == 1
    assert [(c.hex, c.drm) for c in two[0].checks if c] == [(W, 1), (Hex(-2, 0), 1)]
    assert [w.hexes for w in opts if len(w.hexes) == 1] == [(W,), (SW,)]
    assert [w.checks for w in opts if w.hexes == (SW,)] == [(None,)]
    with pytest.raises(RuleError) as err:
        withdrawals(b, O, f, unit_class="infantry", orders="march", enemy=())
    assert err.value.rule == "9.54"
    rough = board_of({W: "rough-woods"})
    opts = withdrawals(rough, O, f, unit_class="mounted_cavalry", orders="advance", enemy=())
    back = next(w for w in opts if w.hexes == (W,))
    assert back.checks[0] is not None and back.checks[0].drm == 3  # 4 MP: +3
    assert [(c.hex, c.kind) for c in back.terrain] == [(W, "auto")]  # and the D (§9.47)
    stop = withdrawals(b, O, f, unit_class="infantry", orders="advance", enemy={Hex(-2, 1)})
    assert all(len(w.hexes) == 1 or w.hexes[0] != W for w in stop)


# --- the derived board --------------------------------------------------------------------


def test_derived_board_chambersburg_pike_under_march() -> None:
    """Sheet A: the Chambersburg Pike crosses the run at A2809 by a bridge; March moves
    along it at ½ MP a hex, facing changes free on the road."""
    b = load_board()
    a, mid, c = b.parse("A2810"), b.parse("A2809"), b.parse("A2908")
    s = step(b, a, mid, "artillery", "march")
    assert (s.half_mp, s.path, s.bridge) == (1, "pike", True)
    d = next(d for d in range(6) if a.neighbour(d) == mid)
    reach = reachable(b, a, Facing.side(d), 6, unit_class="artillery", orders="march",
                      enemy=())
    assert (c, Facing.side(next(k for k in range(6) if mid.neighbour(k) == c))) in reach
    assert min(r.mp for (h, _), r in reach.items() if h == c) == 1.0
    assert reach[(c, Facing.side(next(k for k in range(6) if mid.neighbour(k) == c)))].road_only


def test_derived_board_march_column_along_the_pike_turns_free() -> None:
    """§9.45, §17.22: a column on March follows the Chambersburg Pike's bends at ½ MP a hex,
    the turns free, the whole way by road."""
    b = load_board()
    pike = [s for s in b.sides.values() if any(r.name == "Chambersburg Pike" for r in s.roads)]
    graph: dict[Hex, list[Hex]] = {}
    for s in pike:
        graph.setdefault(s.side.a, []).append(s.side.b)
        graph.setdefault(s.side.b, []).append(s.side.a)
    start = b.parse("A2810")
    route, prev = [start], None
    while len(route) < 9:  # walk the pike eight hexes from A2810
        nxt = [n for n in sorted(graph[route[-1]]) if n != prev and n not in route]
        prev = route[-1]
        route.append(nxt[0])
    d0 = next(d for d in range(6) if start.neighbour(d) == route[1])
    reach = reachable(b, start, Facing.side(d0), 4, unit_class="infantry", orders="march",
                      enemy=())
    end = [r for (h, _), r in reach.items() if h == route[-1]]
    assert end and min(r.mp for r in end) == 4.0
    best = min(end, key=lambda r: r.rank())
    assert best.road_only and best.hex == route[-1]
    bends = {f for _, f in best.path}
    assert len(bends) > 1  # the pike bends, and the turns cost nothing
    adv = reachable(b, start, Facing.vertex(d0), 8, unit_class="infantry", orders="advance",
                    enemy=())
    assert min(r.mp for (h, _), r in adv.items() if h == route[-1]) == 8.0  # 1 MP a hex


def test_derived_board_town_by_street_or_across() -> None:
    b = load_board()
    town = [h for h, i in b.hexes.items() if i.terrain == "town"]
    streets = [(h, n) for h in town for n in b.road_neighbours(h)
               if n in b.hexes and b.hexes[n].terrain == "town"
               and any(r.road_class in ("pike", "road") for r in b.side(h, n).roads)]  # type: ignore[union-attr]
    h, n = streets[0]
    assert step(b, h, n, "artillery").mp == 1
    across = [m for m in n.neighbours() if m in b.hexes and m not in b.road_neighbours(n)
              and b.hexes[m].terrain == "town"]
    if across:
        assert isinstance(entry_cost(b, across[0], n, unit_class="artillery",
                                     orders="advance"), RuleError)


def test_reachable_speed_on_the_derived_board(capsys: pytest.CaptureFixture[str]) -> None:
    """Measured, not asserted: an 8-MA regiment on Advance and on March in the open."""
    b = load_board()
    all_charts()  # loaded once, outside the timing
    start = b.parse("A2810")
    for orders, mp in (("advance", 8), ("march", 8), ("attack", 4)):
        t0 = time.perf_counter()
        reach = reachable(b, start, Facing.vertex(0) if orders != "march" else Facing.side(0),
                          mp, unit_class="infantry", orders=orders, enemy=())  # type: ignore[arg-type]
        ms = (time.perf_counter() - t0) * 1000
        with capsys.disabled():
            print(f"\nreachable {orders} {mp} MP: {len(reach)} states in {ms:.1f} ms")
        assert reach


# --- properties -------------------------------------------------------------------------------

TERRAINS = ("open", "woods", "rough-woods", "orchard", "marsh", "rocky", "town")
CLASSES = ("infantry", "mounted_cavalry", "artillery")


@st.composite
def positions(draw: st.DrawFn) -> tuple[Board, set[Hex], Facing, str, str]:
    cells = [Hex(q, r) for q in range(-4, 5) for r in range(-4, 5) if Hex(q, r).distance(O) <= 4]
    terrain = {h: draw(st.sampled_from(TERRAINS)) for h in cells if draw(st.booleans())}
    terrain[O] = "open"
    enemy = set(draw(st.lists(st.sampled_from(cells[1:]), max_size=3)))
    enemy.discard(O)
    orders = draw(st.sampled_from(("advance", "attack", "march")))
    kind = "side" if orders == "march" else "vertex"
    facing = Facing(kind, draw(st.integers(0, 5)))  # type: ignore[arg-type]
    return (board_of(terrain, radius=4), enemy, facing, orders,
            draw(st.sampled_from(CLASSES)))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.integers(0, 6))
def test_properties_of_the_search(pos: tuple[Board, set[Hex], Facing, str, str],
                                  mp: int) -> None:
    b, enemy, facing, orders, cls = pos
    kw: dict[str, object] = {"unit_class": cls, "orders": orders, "enemy": enemy}
    small = reachable(b, O, facing, mp, **kw)  # type: ignore[arg-type]
    big = reachable(b, O, facing, mp + 1, **kw)  # type: ignore[arg-type]
    assert set(small) <= set(big)  # monotone in MP
    assert small == reachable(b, O, facing, mp, **kw)  # type: ignore[arg-type]
    for (h, f), r in big.items():
        assert 0 <= r.half_mp <= 2 * (mp + 1)
        assert h not in enemy and all(p not in enemy for p, _ in r.path)
        assert r.path[0] == (O, facing) and r.path[-1] == (h, f)
        for (a, _), (c, _) in zip(r.path, r.path[1:], strict=False):
            assert a == c or a.distance(c) == 1
    for a in b.hexes:
        for d in range(6):
            n = a + DIRECTIONS[d]
            if n in b.hexes:
                s = entry_cost(b, a, n, unit_class=cls, orders=orders)  # type: ignore[arg-type]
                assert isinstance(s, RuleError) or s.half_mp >= 1


def test_section_8_22_march_units_close_a_bridge() -> None:
    """§8.22 exception 3: a unit on March at either end of a bridge keeps others off it;
    the creek is then crossed at its own cost."""
    b = board_of(sides=[SideInfo(Hexside.between(O, E), stream="creek", crossing="bridge",
                                 roads=(RoadOnSide("road", "R"),))])
    f = Facing.vertex(0)
    free = reachable(b, O, f, 4, unit_class="artillery", orders="advance", enemy=())
    assert free[(E, f)].mp == 1
    shut = reachable(b, O, f, 4, unit_class="artillery", orders="advance", enemy=(),
                     friends={E: FriendStack(march=True)})
    assert shut[(E, f)].mp == 2 + 2  # open ground 2, creek +2 for artillery


def test_004_9_81_lotts_ridge_bridge_over_the_cut() -> None:
    """The bridge in A1623 takes units over the cut only between A1522 and A1723, never
    stopping on it, closed by an enemy in A1622, A1623 or A1523; the cut itself is entered
    along the railroad bed as any cut is."""
    b = load_board()
    a, mid, c = b.parse("A1522"), b.parse("A1623"), b.parse("A1723")
    on = step(b, a, mid)
    assert on.bridge and not on.may_end
    assert isinstance(entry_cost(b, b.parse("A1622"), mid, unit_class="infantry",
                                 orders="advance"), RuleError)
    assert isinstance(entry_cost(b, a, mid, unit_class="infantry", orders="attack"),
                      RuleError)
    assert step(b, b.parse("A1722"), mid).may_end  # along the railroad, into the cut
    f = Facing.vertex(5)  # fronts: directions 5 and 0 (A1723 is mid's direction 0)
    reach = reachable(b, a, f, 3, unit_class="infantry", orders="advance", enemy=())
    assert [h for h, _ in reach[(c, f)].path] == [a, mid, c]
    for (h, _), r in reach.items():  # stopping in the cut only when come along the railroad
        if h == mid:
            assert [p for p, _ in r.path if p != mid][-1] not in (a, c)
    shut = reachable(b, a, f, 3, unit_class="infantry", orders="advance",
                     enemy={b.parse("A1523")}, full_ma=3)
    assert all(r.path[1][0] != mid for r in shut.values() if len(r.path) > 1)


def test_bad_input_is_refused_with_the_rule() -> None:
    b = board_of()
    with pytest.raises(RuleError) as err:
        reachable(b, O, Facing.vertex(0), 4, unit_class="infantry", orders="march", enemy=())
    assert err.value.rule == "7.11"
    with pytest.raises(RuleError):
        reachable(b, Hex(40, 40), Facing.vertex(0), 4, unit_class="infantry",
                  orders="advance", enemy=())
    with pytest.raises(ValueError, match="mp"):
        reachable(b, O, Facing.vertex(0), -1, unit_class="infantry", orders="advance",
                  enemy=())
    far = entry_cost(b, O, Hex(2, 0), unit_class="infantry", orders="advance")
    assert isinstance(far, RuleError) and far.rule == "9.13"
    with pytest.raises(RuleError):
        require_step(far)


def test_farm_cost_waived_only_when_the_road_is_used() -> None:
    """004 chart note [e]: the farm's +1 is not paid entering from a connected road; under
    Attack the road is not used (§9.24), so the farm is paid."""
    b = board_of(features={E: ("farm",)}, sides=[road(O, E)])
    assert step(b, O, E, orders="advance").mp == 1
    assert step(b, O, E, orders="attack").mp == 2


def test_section_9_71_reinforcement_comes_on_paying_the_edge_hex() -> None:
    """A unit off the map enters at its edge hex paying the hex's cost (§9.71): the road's
    rate where a road leaves the hex, the terrain's otherwise; it is not on the map before."""
    b = board_of({O: "woods"}, sides=road_line([E, Hex(2, 0), Hex(3, 0)]))
    f = Facing.vertex(0)
    on = reachable(b, O, f, 4, unit_class="infantry", orders="advance", enemy=(),
                   entering=True)
    assert on[(O, f)].mp == 2 and on[(O, Facing.vertex(3))].mp == 3  # 2 + 1 for the turn
    assert on[(E, f)].mp == 3
    col = reachable(b, E, Facing.side(0), 2, unit_class="infantry", orders="march", enemy=(),
                    entering=True)
    assert col[(E, Facing.side(0))].mp == 0.5 and col[(Hex(3, 0), Facing.side(0))].mp == 1.5
    assert reachable(b, O, f, 4, unit_class="infantry", orders="advance", enemy={O},
                     entering=True) == {}
    near = reachable(b, O, f, 4, unit_class="infantry", orders="attack", enemy={Hex(-1, 0)},
                     entering=True)
    assert list(near) == [(O, f)] and near[(O, f)].stopped


def test_section_9_52_exception_uncrossable_hexside() -> None:
    """Advance infantry may close on enemy infantry across a hexside it could not cross
    (a sheer slope here); the move still stops there (§9.53)."""
    enemy = Hex(2, 0)
    b = board_of(levels={enemy: 5},
                 sides=[SideInfo(Hexside.between(E, enemy), slope="sheer", uphill=enemy)])
    f = Facing.vertex(0)
    reach = reachable(b, O, f, 6, unit_class="infantry", orders="advance", enemy={enemy})
    assert reach[(E, f)].stopped
    assert not any(h == Hex(2, -1) for h, _ in reach)  # touches it across a gradual side


def test_same_answer_every_time_on_the_derived_board() -> None:
    b = load_board()
    start = b.parse("B3821")
    enemy = {b.parse("B3518"), b.parse("B4124")}
    friends = {b.parse("B3822"): FriendStack(), b.parse("B3720"): FriendStack(march=True)}
    runs = [list(reachable(b, start, Facing.vertex(2), 6, unit_class="infantry",
                           orders="attack", enemy=enemy, friends=friends,
                           full_ma=6).items()) for _ in range(2)]
    assert runs[0] == runs[1] and len(runs[0]) > 6
    assert all(h not in enemy for (h, _), _r in runs[0])
