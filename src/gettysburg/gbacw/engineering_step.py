"""Engineering in the engine (002 §15, §17.34) through the pure :mod:`engineering`: the
Engineering phase's construction markers (II/F, played in the engine's ``orders`` phase),
what interrupts the work (§15.14), the markers that flip in the Replacement/Recovery phase
(IV/B/6, §15.13), crossing a guarded hexside (§15.17: it costs the Terrain chart's MP, paid
in :func:`paths.reachable` through ``breastwork_sides``, and removes the marker).

The position keeps ``constructions`` ({"unit", "hex", "vertex", "started", "night"}) and
``breastworks`` ({"hex", "vertex"}), both public (the markers stand on the map). Fire and
shock read the placed works from :func:`breastworks` and the DRMs from
:mod:`engineering` (``fire_out_drm``, ``fire_in_drm``, ``pre_shock_drm``,
``shock_defence_drm``).
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

from gettysburg.core.hexes import Hex, Hexside
from gettysburg.core.protocol import Action, Event, RuleError, Seat
from gettysburg.gbacw import engineering, setup_works
from gettysburg.gbacw.engineering import Breastwork, Builder, Construction
from gettysburg.gbacw.facing import Facing
from gettysburg.gbacw.kinds import unit_class

if TYPE_CHECKING:
    from gettysburg.gbacw.engine_view import GameView as GbacwGame

#: the actions a builder may take without ending its work (reaction facing is free, §15.14
#: counts only actions; §13.45 treats reaction facing the same way)
_OWN_ACTIONS = ("move", "face", "fire", "rally", "return_fire", "pre_shock_fire", "withdraw")


def breastworks(game: GbacwGame) -> tuple[Breastwork, ...]:
    """The breastworks built in play (each its hex and the vertex it guards, §15.21)."""
    board = game.cat.board
    return tuple(sorted(Breastwork(board.parse(str(b["hex"])), int(b["vertex"]))
                        for b in game.pos.breastworks))


def setup_breastworks(game: GbacwGame) -> list[Event]:
    """The scenario's ready-made works at set-up (004 sc.4.5, sc.5.5, decision E-18): the
    listed hexes must be the ones the board prints (``HexInfo.breastworks``); the markers
    then wait for their owner, who places and faces them in his first orders segment
    (:mod:`setup_works`; what he leaves the engine places when he ends it)."""
    scen = game.scen.scenario
    if scen is None:
        return []
    board = game.cat.board
    for record in scen.breastworks:
        if not record.hexes:
            continue
        listed = {board.parse(x): record.markers.get(x, 1) for x in record.hexes}
        printed = {h: info.breastworks for h, info in board.hexes.items() if info.breastworks}
        if listed != printed:
            raise ValueError("the scenario's breastworks are not those the board prints: "
                             f"{sorted(board.hexes[h].id for h in set(listed) ^ set(printed))}")
    return setup_works.open_pool(game)


def guarded(game: GbacwGame) -> frozenset[Hexside]:
    """The guarded hexsides, for movement's ``breastwork_sides`` (§15.22)."""
    return engineering.guarded_hexsides(breastworks(game))


def constructions(game: GbacwGame) -> list[Construction]:
    """The construction markers on the map (002 §15.13)."""
    board = game.cat.board
    return [Construction(str(c["unit"]), board.parse(str(c["hex"])), int(c["vertex"]),
                         int(c["started"]), bool(c["night"])) for c in game.pos.constructions]


def _builder(game: GbacwGame, key: str) -> Builder:
    p = game.pos
    n = game.formation(key)
    b = p.brigades[n]
    return Builder(key, unit_class(game.counter(key)), game.orders_of(key),
                   in_command=key not in p.command.get("units", []),
                   brigadier_may_change=n not in p.command.get("no_orders", []),
                   fatigue=b.fatigue if game.fatigue else 0)


def _markers_in(game: GbacwGame, hex_id: str) -> int:
    p = game.pos
    return sum(1 for b in p.breastworks if b["hex"] == hex_id) + sum(
        1 for c in p.constructions if c["hex"] == hex_id)


def _start(game: GbacwGame, key: str, vertex: int,
           enemy: frozenset[Hex] | None = None,
           building: list[Construction] | None = None) -> Construction:
    """002 §15.11-15.13, §15.15 for one unit and vertex (raises the rule it breaks);
    ``enemy``: the enemy's hexes, ``building``: the construction markers, when the caller
    has them."""
    p = game.pos
    u = p.units[key]
    here = game.hex_of(u.hex)
    if here is None:
        raise RuleError("15.11", f"{key} is not on the map")
    if p.brigades[game.formation(key)].reserve:
        raise RuleError("6.32", f"{key}: a formation in Reserve does nothing")
    if any(c["unit"] == key for c in p.constructions):
        raise RuleError("15.15", f"{key} is already building")
    builder = _builder(game, key)
    engineering.check_builder(builder)  # the cheap checks before the site's search
    return engineering.start(builder, game.cat.board, here, vertex,
                             game.enemy_hexes(u.seat) if enemy is None else enemy,
                             turn=p.turn, light=game._light(),  # type: ignore[arg-type]
                             markers_here=_markers_in(game, str(u.hex)),
                             building=constructions(game) if building is None
                             else building, sources=game.material_sources)


def builds_barred(game: GbacwGame, seat: Seat) -> bool:
    """004 sc.5.5: the scenario's breastworks record for the seat says it builds no more
    (``may_build: false``: Third Day's Union places its 45 markers and that is all)."""
    scen = game.scen.scenario
    return scen is not None and any(r.seat == seat and not r.may_build
                                    for r in scen.breastworks)


def build_options(game: GbacwGame, seat: Seat) -> list[Action]:
    """II/F (002 §15.11-15.13): each unit that may start a construction, once for each
    vertex its marker may guard (the unit turns to face it); none where the scenario bars
    building (004 sc.5.5)."""
    memo = ("build_options", seat)
    if memo in game._memo:
        return [dict(a) for a in game._memo[memo]]
    out: list[Action] = []
    if builds_barred(game, seat):
        game._memo[memo] = out
        return []
    enemy = frozenset(game.enemy_hexes(seat))
    building = constructions(game)  # read once: nothing changes while the list is built
    for k, u in sorted(game.pos.units.items()):
        if u.seat != seat or u.hex is None:
            continue
        try:
            _start(game, k, 0, enemy, building)
        except RuleError:
            continue
        out += [{"type": "build", "unit": k, "facing": {"kind": "vertex", "index": v}}
                for v in range(6)
                if not u.extends or u.facing is None or u.facing.index == v]  # 002 §8.44
    game._memo[memo] = out
    return [dict(a) for a in out]


def check_build(game: GbacwGame, action: Action, seat: Seat) -> Construction:
    """Refuses a ``build`` the unit may not start; the construction it would start
    (002 §15.11-15.13)."""
    key = str(action["unit"])
    u = game.pos.units.get(key)
    if u is None or u.seat != seat:
        raise RuleError("15.11", f"{key!r} is not one of your units")
    if builds_barred(game, seat):
        raise RuleError(setup_works.RULE_FREE, "this scenario's breastworks are all "
                        "you have: you may build no more")
    facing = Facing.from_json(action["facing"])
    if facing.kind != "vertex":
        raise RuleError("15.21", "a breastwork guards the two hexsides of a vertex: give a "
                        "vertex facing")
    if u.extends and u.facing is not None and facing != u.facing:
        # 002 §15.15 with §8.44: a line's parts build where they stand; turning would break it
        raise RuleError("15.15", f"{key} is extended: it builds facing as it stands")
    return _start(game, key, facing.index)


def start_build(game: GbacwGame, action: Action, seat: Seat) -> list[Event]:
    """Place the construction marker; the builder faces the works (§15.13) and its brigade
    is no longer idle this turn (§13.45, §17.42)."""
    c = check_build(game, action, seat)
    p = game.pos
    hex_id = game.cat.board.hexes[c.hex].id
    p.constructions.append({"unit": c.unit, "hex": hex_id, "vertex": c.vertex,
                            "started": c.started, "night": c.night})
    p.units[c.unit].facing = Facing("vertex", c.vertex)
    me = p.units[c.unit]
    for k, v in sorted(p.units.items()):  # 002 §7.11, §8.26: the stack turns with it
        if k != c.unit and v.seat == me.seat and v.hex == me.hex and v.facing is not None \
                and v.facing.kind == "vertex":
            v.facing = me.facing
    p.brigades[game.formation(c.unit)].busy = True
    return [Event("construction", "15.13", {"unit": c.unit, "hex": hex_id,
                                            "vertex": c.vertex, "turns":
                                            1 if c.night else 2})]


def after_action(game: GbacwGame, action: Action) -> list[Event]:
    """002 §15.14: the work ends when the builder takes Attack orders, leaves its hex, does
    anything else (out-of-phase fire too), is shocked, or its brigade reaches Fatigue 2;
    going out of command does not end it."""
    p = game.pos
    if not p.constructions:
        return []
    kind = action.get("type")
    shocked_hexes = {str(h) for s in action.get("shocks", []) if isinstance(s, dict)
                     for h in s.get("targets", [])} if kind == "shock" else set()
    keep, ev = [], []
    for raw, c in zip(list(p.constructions), constructions(game), strict=True):
        u = p.units[c.unit]
        acted = kind in _OWN_ACTIONS and action.get("unit") == c.unit
        why = engineering.interruption(
            c, orders=game.orders_of(c.unit), hex_now=game.hex_of(u.hex),
            actions=("other",) if acted else (), shocked=raw["hex"] in shocked_hexes,
            fatigue=p.brigades[game.formation(c.unit)].fatigue if game.fatigue else 0)
        if why is None:
            keep.append(raw)
        else:
            # why may name the builder's orders: the owner's to know (the marker's removal
            # is public)
            ev.append(Event("construction_stopped", "15.14", {"unit": c.unit,
                                                              "hex": raw["hex"],
                                                              "why": why},
                            visible_to=(u.seat,),
                            redacted={"unit": c.unit, "hex": raw["hex"]}))
    p.constructions = keep
    return ev


def crossed(game: GbacwGame, path: list[str]) -> list[Event]:
    """002 §15.17: a combat unit that moved across a guarded hexside removes the marker."""
    if not game.pos.breastworks or len(path) < 2:
        return []
    board = game.cat.board
    works = breastworks(game)
    gone: set[Breastwork] = set()
    hexes = [board.parse(h) for h in path]
    for a, b in itertools.pairwise(hexes):
        gone |= set(engineering.crossed(works, a, b))
    if not gone:
        return []
    ids = {(board.hexes[w.hex].id, w.vertex) for w in gone}
    game.pos.breastworks = [w for w in game.pos.breastworks
                            if (w["hex"], w["vertex"]) not in ids]
    return [Event("breastworks_removed", "15.17", {"hex": h, "vertex": v})
            for h, v in sorted(ids)]


def complete(game: GbacwGame) -> list[Event]:
    """IV/B/6 (002 §15.13): a marker begun two turns ago (this turn at night) flips into
    breastworks, if its builder is still at work."""
    p = game.pos
    keep, ev = [], []
    for raw, c in zip(list(p.constructions), constructions(game), strict=True):
        u = p.units[c.unit]
        if game.hex_of(u.hex) != c.hex:
            ev.append(Event("construction_stopped", "15.14", {"unit": c.unit,
                                                              "hex": raw["hex"],
                                                              "why": "left_hex"}))
        elif engineering.completes(c, p.turn):
            p.breastworks.append({"hex": raw["hex"], "vertex": c.vertex})
            ev.append(Event("breastworks", "15.13", {"unit": c.unit, "hex": raw["hex"],
                                                     "vertex": c.vertex}))
        else:
            keep.append(raw)
    p.constructions = keep
    return ev


def sides_of(game: GbacwGame, h: Hex) -> list[int]:
    """The directions of ``h``'s guarded hexsides (for views and tests) (002 §15.21)."""
    return sorted({d for w in breastworks(game) if w.hex == h for d in w.sides()})
