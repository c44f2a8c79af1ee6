"""What only its owner sees of the battle book's set-up works and off-map roads (004 sc.4.5,
sc.5.5, §9.88): the view's hooks for them. A step module (the game typed as
:class:`engine_view.GameView`).

- ``works_to_place`` {"listed", "free"}: the set-up breastwork markers the seat still has to
  put down (:mod:`setup_works`' pool), the listed ones and those it places freely. The enemy
  sees none of it: a marker put down is a ``breastworks`` entry on the map for both seats
  (002 §15.21), a marker not yet placed is his opponent's business.
- a unit's ``away`` {"area", "hex", "back"}: a unit of the seat on an off-map road (left the
  map by one, not yet back on), the entry area it is bound for, that area's direct hex where
  it will come on and the turn from which it may (:mod:`off_map_step`). Only its owner's
  view holds the unit at all (a unit off the map is not in the enemy's view).
- ``place_hexes`` {"area": {area: hex}}: where each area a legal ``leave_map`` names lies on
  the map (its direct hex), for the client to draw it as a mark to click (public).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gettysburg.core.canonical import JSONDict
from gettysburg.core.protocol import Action

from .reinforcements import entry_area
from .setup import turn_label

if TYPE_CHECKING:
    from .engine_view import GameView as GbacwGame


def works_to_place(game: GbacwGame, seat: str, *, full: bool) -> dict[str, object]:
    """``{"works_to_place": {"listed": n, "free": m}}`` for the owner of set-up breastworks
    not yet placed (the referee too); empty for everyone else (004 sc.4.5, sc.5.5)."""
    pool: Any = game.pos.tdg.get("works")
    if not isinstance(pool, dict) or not (full or pool.get("seat") == seat):
        return {}
    listed = sum(int(n) for n in pool.get("listed", {}).values())
    return {"works_to_place": {"listed": listed, "free": int(pool.get("free", 0))}}


def add_away(game: GbacwGame, units: dict[str, JSONDict], seat: str, *, full: bool) -> None:
    """Marks each of the seat's units on an off-map road in its view's entry with ``away``
    (the area bound for, its direct hex, the turn it may come back from; 004 §9.88)."""
    record: Any = game.pos.tdg.get("off_map")
    if not isinstance(record, dict):
        return
    board = game.cat.board
    for key, rec in sorted(record.items()):
        u = game.pos.units.get(key)
        entry = units.get(key)
        if u is None or entry is None or u.hex is not None or game.gone(key) \
                or not (full or u.seat == seat):
            continue
        area = int(rec["to"])
        entry["away"] = {"area": area, "hex": board.hexes[entry_area(board, area).direct].id,
                         "back": turn_label(int(rec["back"]))}


def place_hexes(game: GbacwGame, legal: list[Action]) -> dict[str, object]:
    """``{"place_hexes": {"area": {area: hex id}}}``: for each entry area a ``leave_map`` of
    the seat's legal list names, the hex where that off-map road comes back on the map (the
    area's direct hex, 004 §9.88), so that a client draws it as a mark to click, the action
    naming an area and no hex. Public (the roads and areas are on the map); empty without
    such an action."""
    areas = sorted({str(a["area"]) for a in legal if a.get("type") == "leave_map"}, key=int)
    if not areas:
        return {}
    board = game.cat.board
    return {"place_hexes": {"area": {a: board.hexes[entry_area(board, int(a)).direct].id
                                     for a in areas}}}
