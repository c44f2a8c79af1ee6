"""Off-map movement in the engine (004 §9.88, ``tdg.9.88``), over :mod:`off_map`'s links. A step
module (the game typed as :class:`engine_view.GameView`).

- ``leave_map`` {unit, area}: a unit of the active brigade standing on the direct hex of a
  linked entry area leaves the map by its road, for ``area``, a linked area (the links may
  chain). A reinforcement waiting to come on at such a hex may take the road the same way
  (the book: the roads serve to enter as reinforcements too). Our readings, since the book
  says only that players may use these roads to come on or to leave: leaving is the unit's
  move for the activation (it has not moved, fired instead of moving, nor spent MP; its
  brigade may move; not part of an extended line), and a unit next to an enemy unit may not
  slip away by the road.
- The unit is off the map for the journey's turns (``Position.tdg["off_map"]``: key ->
  {"from", "to", "back"}, "back" the turn index it may come on from; "arriving" for a
  reinforcement that never came on, whose group's leaders still come on with it). From that turn it
  waits at the direct hex of its area as a reinforcement does (``questions.waiting`` asks
  :func:`entry_hex`) and comes on by an ordinary move, paying the hex's entry cost
  (002 §9.71-9.72), in an activation of its brigade.
- While a unit is on an off-map road (left and not yet back on the map), no enemy unit may
  move next to it (:func:`filter_reach` through :func:`tdg_terrain.check_off_map_move`): on
  the map it is next to the hex where its road comes on, so no enemy move may enter or pass
  through that hex or the hexes next to it (a reading of where an off-map unit stands).
- The enemy sees the unit leave and where it is bound (the roads are drawn on the map); the
  record itself is in ``tdg``, which no seat's view shows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import Action, Event, RuleError, Seat

from .facing import Facing
from .off_map import RULE, destinations, load_links
from .paths import Reach
from .reinforcements import entry_area
from .setup import turn_label
from .tdg_terrain import check_off_map_move

if TYPE_CHECKING:
    from .engine_view import GameView as GbacwGame

KIND = "leave_map"


def _record(game: GbacwGame) -> dict[str, Any]:
    got = game.pos.tdg.get("off_map")
    return got if isinstance(got, dict) else {}


def _area_at(game: GbacwGame, h: Hex) -> int | None:
    """The linked entry area whose direct hex ``h`` is, if any."""
    area = game.cat.board.hexes[h].entry
    if area is None or not destinations(load_links(), area):
        return None
    try:
        return area if entry_area(game.cat.board, area).direct == h else None
    except RuleError:
        return None


def _start(game: GbacwGame, key: str) -> Hex | None:
    """Where ``key`` takes the road: its hex, or the entry hex it waits at off the map."""
    u = game.pos.units[key]
    if u.hex is not None:
        return game.hex_of(u.hex)
    waiting = game.waiting(key)
    return game.cat.board.parse(waiting) if waiting is not None else None


def _problem(game: GbacwGame, key: str) -> str | None:
    """Why ``key`` may not leave by an off-map road now (None: it may)."""
    p = game.pos
    u = p.units.get(key)
    if u is None or key not in game.active_units():
        return "only a unit of the active brigade leaves the map"
    here = _start(game, key)
    if here is None or _area_at(game, here) is None:
        return "a unit leaves by an off-map road from the direct hex of a linked entry area"
    if u.moved or u.mp_spent or u.extension is not None or not game.may_move(
            game.formation(key)) or game._fired_instead(key):
        return "leaving the map is the unit's move: it must not have moved or fired, its " \
               "brigade must be free to move, and it must not be part of an extended line"
    if any(n in game.enemy_hexes(u.seat) for n in here.neighbours()):
        return "a unit next to an enemy unit may not leave by an off-map road"
    return None


def options(game: GbacwGame, seat: Seat) -> list[Action]:
    """``leave_map`` for each active unit that may leave, once per area it may go to (tdg.9.88)."""
    p = game.pos
    if p.brigade is None or p.pending is not None:
        return []
    out: list[Action] = []
    for k in game.active_units():
        u = p.units[k]
        here = _start(game, k)
        if u.seat != seat or here is None or _area_at(game, here) is None \
                or _problem(game, k) is not None:
            continue
        area = game.cat.board.hexes[here].entry
        assert area is not None
        out += [{"type": KIND, "unit": k, "area": str(a)}
                for a in destinations(load_links(), area)]
    return out


def check(game: GbacwGame, action: Action, seat: Seat) -> None:
    """Refuses a ``leave_map`` the unit may not make now, saying why (tdg.9.88)."""
    key = str(action["unit"])
    u = game.pos.units.get(key)
    if u is None or u.seat != seat:
        raise RuleError(RULE, f"{key!r} is not one of your units")
    problem = _problem(game, key)
    if problem is not None:
        raise RuleError(RULE, f"{key}: {problem}")
    here = _start(game, key)
    assert here is not None
    area = game.cat.board.hexes[here].entry
    assert area is not None
    if not str(action["area"]).isdigit() or int(str(action["area"])) not in destinations(
            load_links(), area):
        raise RuleError(RULE, f"area: the off-map roads from area {area} lead to "
                        f"{sorted(destinations(load_links(), area))}, not {action['area']}")


def apply(game: GbacwGame, action: Action, seat: Seat) -> list[Event]:
    """The unit leaves the map by the road for its area (tdg.9.88)."""
    p = game.pos
    key = str(action["unit"])
    u = p.units[key]
    here = _start(game, key)
    assert here is not None
    frm = game.cat.board.hexes[here].entry
    assert frm is not None
    to = int(str(action["area"]))
    back = p.turn + destinations(load_links(), frm)[to]
    record = dict(_record(game))
    record[key] = {"from": frm, "to": to, "back": back}
    if u.hex is None:  # a reinforcement taking the road before it ever came on
        record[key]["arriving"] = True
    p.tdg["off_map"] = dict(sorted(record.items()))
    left = u.hex or game.cat.board.hexes[here].id
    u.hex, u.facing = None, None
    u.moved = True
    u.mp_spent = game.mp_of(key)
    game._memo.clear()
    return [Event("leave_map", RULE, {"unit": key, "seat": seat, "hex": left, "from": frm,
                                      "to": to, "back": turn_label(back)})]


def entry_hex(game: GbacwGame, key: str) -> str | None:
    """The hex a unit on an off-map road waits at once its journey is over (its area's direct
    hex), or None while it is still on the way or gone (tdg.9.88)."""
    rec = _record(game).get(key)
    if rec is None or game.pos.turn < int(rec["back"]) or game.gone(key):
        return None
    board = game.cat.board
    return board.hexes[entry_area(board, int(rec["to"])).direct].id


def travelling(game: GbacwGame, key: str) -> bool:
    """Whether ``key`` is on an off-map road (tdg.9.88: left the map by one, not yet back on)."""
    return key in _record(game) and game.pos.units[key].hex is None


def came_back(game: GbacwGame, key: str) -> bool:
    """Called as a unit comes on the map: True (and its journey's record dropped) when it
    comes back from an off-map road after leaving the map, so that nothing treats it as a
    reinforcement's first unit; a reinforcement that took the road before it ever came on
    still brings its group's leaders (tdg.9.88)."""
    record = _record(game)
    if key not in record:
        return False
    rest = {k: v for k, v in record.items() if k != key}
    if rest:
        game.pos.tdg["off_map"] = rest
    else:
        del game.pos.tdg["off_map"]
    return not record[key].get("arriving", False)


def road_ends(game: GbacwGame, seat: str) -> list[Hex]:
    """The hexes where the enemy's units on off-map roads come on (tdg.9.88; see the module)."""
    board = game.cat.board
    out: list[Hex] = []
    for k, rec in sorted(_record(game).items()):
        u = game.pos.units[k]
        if u.seat != seat and u.hex is None and not game.gone(k):
            out.append(entry_area(board, int(rec["to"])).direct)
    return out


def filter_reach(game: GbacwGame, key: str,
                 found: dict[tuple[Hex, Facing], Reach]) -> dict[tuple[Hex, Facing], Reach]:
    """tdg.9.88: no move of ``key`` that enters a hex next to an enemy unit on an off-map
    road (:func:`road_ends`)."""
    if not _record(game):
        return found
    ends = road_ends(game, game.pos.units[key].seat)
    if not ends:
        return found
    start = game.hex_of(game.pos.units[key].hex)  # where it stands is not a move
    out: dict[tuple[Hex, Facing], Reach] = {}
    for k, r in found.items():
        try:
            for h, _ in r.path:
                if h != start:
                    check_off_map_move(h, ends)
        except RuleError:
            continue
        out[k] = r
    return out
