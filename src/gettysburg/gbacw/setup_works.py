"""The scenarios' ready-made breastworks, placed by their owner (004 sc.4.5, sc.5.5; 002 §15.12,
§15.21; decision E-18). A step module (the game typed as :class:`engine_view.GameView`); its
choice reaches the engine through :mod:`scenario_step`'s orders-segment choices.

- Second Day (sc.4.5): the Union's works stand in the hexes the book lists (two in B5013,
  over the four sides of its corner), each facing as the Union likes; E-18 adds the one
  marker the book's total has over its list, placed freely.
- Third Day (sc.5.5): the Union places all 45 markers in hexes its infantry holds, within
  the usual rules, and builds no more (``may_build: false``, not this module's).
- A free marker goes in a hex the owner's infantry (dismounted cavalry counts) holds, and
  §15.12 applies as to a builder's site: not in town or marsh, not in or next to an enemy's
  hex, woods, an orchard, the town or a building within three hexes, at most two markers a
  hex. Two markers in one hex guard different vertices (a reading: a second marker on the
  same two hexsides would add nothing).

At set-up (:func:`open_pool`) the markers wait in ``Position.tdg["works"]`` ({"seat",
"listed": {hex: markers left}, "free": n}); in the owner's orders segment of the first turn
he places them one at a time (``place_works`` {hex, facing}: a vertex facing, the vertex
whose two hexsides the marker guards). When he ends that segment (:func:`finish`) the
engine places what is left as it did before this choice existed: a listed marker towards
the nearest enemy counter (:func:`engineering.setup_vertices`); a free one in the holder's
hex nearest the enemy that may take it, one a hex before any hex takes a second, facing the
enemy (a default, so an agent that only ends its segment still gets its works). A free
marker no hex can take is lost (said in the event).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import Action, Event, RuleError, Seat

from . import engineering
from .facing import Facing
from .kinds import unit_class

if TYPE_CHECKING:
    from .engine_view import GameView as GbacwGame

KIND = "place_works"
RULE_LISTED = "tdg.sc.4.5"
RULE_FREE = "tdg.sc.5.5"


def _pool(game: GbacwGame) -> dict[str, Any] | None:
    got = game.pos.tdg.get("works")
    return got if isinstance(got, dict) else None


def open_pool(game: GbacwGame) -> list[Event]:
    """At set-up: the scenario's breastwork records become the owner's markers to place
    (listed hexes must be on the board; the listed and free counts are announced).
    (004 sc.4.5, sc.5.5)"""
    scen = game.scen.scenario
    if scen is None:
        return []
    board = game.cat.board
    ev: list[Event] = []
    for record in scen.breastworks:
        listed = {x: record.markers.get(x, 1) for x in record.hexes}
        for x in listed:
            if board.parse(x) not in board.hexes:
                raise ValueError(f"the scenario's breastwork hex {x} is not on the board")
        if not listed and not record.free:
            continue
        game.pos.tdg["works"] = {"seat": record.seat, "listed": dict(sorted(listed.items())),
                                 "free": record.free}
        ev.append(Event("works_to_place", RULE_FREE if record.free and not listed
                        else RULE_LISTED, {"seat": record.seat, "listed": sum(listed.values()),
                                           "free": record.free}))
    return ev


def _open(game: GbacwGame, seat: str) -> dict[str, Any] | None:
    pool = _pool(game)
    p = game.pos
    if pool is None or pool.get("seat") != seat or p.phase != "orders" \
            or seat in p.orders_done:
        return None
    return pool


def _vertices_in(game: GbacwGame, hex_id: str) -> set[int]:
    p = game.pos
    return {int(b["vertex"]) for b in p.breastworks if b["hex"] == hex_id} | {
        int(c["vertex"]) for c in p.constructions if c["hex"] == hex_id}


def _markers_in(game: GbacwGame, hex_id: str) -> int:
    p = game.pos
    return sum(1 for b in p.breastworks if b["hex"] == hex_id) + sum(
        1 for c in p.constructions if c["hex"] == hex_id)


def _infantry_hexes(game: GbacwGame, seat: str) -> list[Hex]:
    out = {h for k, u in game.pos.units.items() if u.seat == seat
           and (h := game.hex_of(u.hex)) is not None
           and unit_class(game.counter(k)) == "infantry"}
    return sorted(out, key=lambda h: (h.q, h.r))


def _free_site_problem(game: GbacwGame, held: list[Hex], h: Hex,
                       enemy: frozenset[Hex]) -> RuleError | None:
    if h not in held:
        return RuleError(RULE_FREE, "a free breastwork goes in a hex your infantry holds")
    try:
        engineering.check_site(game.cat.board, h, enemy,
                               markers_here=_markers_in(game, game.cat.board.hexes[h].id))
    except RuleError as err:
        return err
    return None


#: (scenario, seat's infantry hexes, enemy hexes) -> the hexes §15.12 lets take a marker,
#: counts aside: nobody moves in an orders segment, so placing markers one by one reuses it
_SITES: dict[tuple[Any, ...], tuple[Hex, ...]] = {}


def _sites(game: GbacwGame, seat: str) -> tuple[list[Hex], tuple[Hex, ...]]:
    """The seat's infantry hexes, and those of them a free marker may go to (markers aside)."""
    held = _infantry_hexes(game, seat)
    enemy = frozenset(game.enemy_hexes(seat))
    sig = (game.scen.id, tuple(held), tuple(sorted(enemy, key=lambda h: (h.q, h.r))))
    got = _SITES.get(sig)
    if got is None:
        board = game.cat.board
        ok: list[Hex] = []
        for h in held:
            try:
                engineering.check_site(board, h, enemy, markers_here=0)
            except RuleError:
                continue
            ok.append(h)
        got = _SITES[sig] = tuple(ok)
        while len(_SITES) > 8:
            _SITES.pop(next(iter(_SITES)))
    return held, got


def _free_sites(game: GbacwGame, seat: str) -> list[Hex]:
    board = game.cat.board
    return [h for h in _sites(game, seat)[1]
            if _markers_in(game, board.hexes[h].id) < engineering.MAX_PER_HEX]


def options(game: GbacwGame, seat: Seat) -> list[Action]:
    """``place_works`` for each hex that may take one of the owner's markers now, once for
    each vertex not yet guarded there (a listed hex while it has markers left, then any hex
    a free marker may go to) (004 sc.4.5, sc.5.5; 002 §15.12)."""
    pool = _open(game, seat)
    if pool is None:
        return []
    memo = ("place_works", seat)
    if memo in game._memo:
        return [dict(a) for a in game._memo[memo]]
    board = game.cat.board
    sites: list[str] = [x for x, n in pool["listed"].items() if n > 0]
    if pool["free"] > 0:
        sites += [board.hexes[h].id for h in _free_sites(game, seat)
                  if board.hexes[h].id not in sites]
    out: list[Action] = [{"type": KIND, "hex": x, "facing": {"kind": "vertex", "index": v}}
                         for x in sites for v in range(6) if v not in _vertices_in(game, x)]
    game._memo[memo] = out
    return [dict(a) for a in out]


def check(game: GbacwGame, action: Action, seat: Seat) -> None:
    """Refuses a marker out of turn, a facing that is not a vertex, a vertex already
    guarded in that hex, or a hex neither listed (with markers left) nor fit for a free
    marker (004 sc.4.5, sc.5.5; 002 §15.12, §15.21)."""
    pool = _pool(game)
    if pool is None or pool.get("seat") != seat:
        raise RuleError(RULE_FREE, "you have no set-up breastworks to place")
    if _open(game, seat) is None:
        raise RuleError(RULE_FREE, "set-up breastworks go down in your orders segment of the "
                        "scenario's first turn")
    facing = Facing.from_json(action["facing"])
    if facing.kind != "vertex":
        raise RuleError("15.21", "a breastwork guards the two hexsides of a vertex: give a "
                        "vertex facing")
    hid = str(action["hex"])
    board = game.cat.board
    try:
        h = board.parse(hid)
    except ValueError as err:
        raise RuleError(RULE_FREE, f"hex: {err}") from err
    if h not in board.hexes:
        raise RuleError(RULE_FREE, f"{hid} is not on the map")
    hid = board.hexes[h].id
    if facing.index in _vertices_in(game, hid):
        raise RuleError("15.21", f"{hid} already has a breastwork on that vertex")
    if pool["listed"].get(hid, 0) > 0:
        return
    if hid in pool["listed"] and pool["free"] <= 0:
        raise RuleError(RULE_LISTED, f"{hid} holds all the markers the book lists for it")
    if pool["free"] <= 0:
        raise RuleError(RULE_LISTED, "your breastworks go in the hexes the book lists: "
                        f"{', '.join(x for x, n in pool['listed'].items() if n > 0)}")
    problem = _free_site_problem(game, _infantry_hexes(game, seat), h,
                                 frozenset(game.enemy_hexes(seat)))
    if problem is not None:
        raise problem


def _place(game: GbacwGame, hid: str, vertex: int, seat: str, default: bool) -> Event:
    pool = _pool(game)
    assert pool is not None
    if pool["listed"].get(hid, 0) > 0:
        pool["listed"][hid] -= 1
    else:
        pool["free"] -= 1
    game.pos.breastworks.append({"hex": hid, "vertex": vertex})
    game._memo.clear()
    return Event("breastworks", "15.21", {"hex": hid, "vertex": vertex, "seat": seat,
                                          "setup": True, "default": default})


def apply(game: GbacwGame, action: Action, seat: Seat) -> list[Event]:
    """Places one checked marker; the pool closes with the last (004 sc.4.5, sc.5.5)."""
    hid = game.cat.board.hexes[game.cat.board.parse(str(action["hex"]))].id
    ev = _place(game, hid, Facing.from_json(action["facing"]).index, seat, False)
    pool = _pool(game)
    if pool is not None and pool["free"] <= 0 and not any(pool["listed"].values()):
        del game.pos.tdg["works"]  # all down: nothing left for the end of the segment
    return [ev]


def _default_vertex(h: Hex, used: set[int], enemies: list[Hex]) -> int | None:
    """Towards the nearest enemy; beside a marker already there, the vertex either side of
    it, so that the two guard the four sides round the enemy's direction (as sc.4.5 asks of
    B5013's pair)."""
    w = engineering.towards_vertex(h, enemies)
    for v in (w, (w - 1) % 6, (w + 1) % 6, (w - 2) % 6, (w + 2) % 6, (w + 3) % 6):
        if v not in used:
            return v
    return None


def finish(game: GbacwGame, seat: Seat) -> list[Event]:
    """The owner ends his first orders segment: the engine places the markers he left (the
    module's defaults) and the pool closes (004 sc.4.5, sc.5.5)."""
    pool = _open(game, seat)
    if pool is None:
        return []
    board = game.cat.board
    enemies = sorted(game.enemy_hexes(seat), key=lambda h: (h.q, h.r))
    ev: list[Event] = []
    for hid, n in list(pool["listed"].items()):
        h = board.parse(hid)
        if n == 2 and not _vertices_in(game, hid):
            for v in engineering.setup_vertices(h, 2, enemies):
                ev.append(_place(game, hid, v, seat, True))
            continue
        for _ in range(n):
            got = _default_vertex(h, _vertices_in(game, hid), enemies)
            if got is None:
                break
            ev.append(_place(game, hid, got, seat, True))
    def near(h: Hex) -> tuple[int, int, int]:
        return (min((h.distance(e) for e in enemies), default=0), h.q, h.r)

    ranked = sorted(_free_sites(game, seat), key=near)
    for level in range(engineering.MAX_PER_HEX):  # one a hex before any hex takes two
        for h in ranked:
            hid = board.hexes[h].id
            if pool["free"] <= 0 or _markers_in(game, hid) != level:
                continue
            got = _default_vertex(h, _vertices_in(game, hid), enemies)
            if got is not None:
                ev.append(_place(game, hid, got, seat, True))
    lost = pool["free"] + sum(pool["listed"].values())
    del game.pos.tdg["works"]
    game._memo.clear()
    if lost:
        ev.append(Event("works_lost", RULE_FREE, {"seat": seat, "markers": lost}))
    return ev
