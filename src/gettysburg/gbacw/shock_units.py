"""Small questions the shock steps share about the units in a shock (002 §11.3, §12.6):
who is still in the fight, who defends the pending shocks, whether a unit may advance. A leaf
below :mod:`shock_step`, :mod:`continued_shock`, :mod:`charge_step` and :mod:`shock_after`,
so they share these without importing one another in a circle."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import RuleError

from .facing import Facing
from .fire_action import present_sp
from .retreat import check_advance
from .shock_action import combatant_of, enemy_hexes
from .stacking import stack_problem

if TYPE_CHECKING:
    from .engine_view import GameView as GbacwGame


def hex_id(game: GbacwGame, h: Hex) -> str:
    """A hex's printed id, as the shock steps' events and pending decisions carry it (002 §11.31's
    designations, §12.6's advances)."""
    return game.cat.board.hexes[h].id


def pending_shocks(game: GbacwGame) -> list[dict[str, Any]]:
    """The designated shocks of the pending decision, as copies (002 §11.31)."""
    p = game.pos.pending
    assert p is not None
    return [dict(s) for s in p["shocks"]]


def defenders(game: GbacwGame) -> list[tuple[str, list[str]]]:
    """Each defending unit still in a designated hex, with the attackers shocking it
    (002 §11.31, §11.33)."""
    p = game.pos
    out: list[tuple[str, list[str]]] = []
    seat = str(p.pending["seat"]) if p.pending else ""
    seen: set[str] = set()
    for s in pending_shocks(game):
        for t in s["targets"]:
            for k, u in sorted(p.units.items()):
                if u.hex == t and u.seat != seat and k not in seen:
                    seen.add(k)
                    attackers = [a for x in pending_shocks(game) if t in x["targets"]
                                 for a in x["attackers"] if p.units[a].hex is not None]
                    out.append((k, attackers))
    return out


def present(game: GbacwGame, key: str) -> bool:
    """Whether a unit is still in the fight: on the map, not routed, not gone, with SP left
    (002 §11.3, §12.1, §12.5)."""
    u = game.pos.units[key]
    return u.hex is not None and not u.routed and not game.gone(key) \
        and present_sp(game, key) > 0


def advance_need(game: GbacwGame, key: str, h: Hex, *, facing: Facing | None = None
                 ) -> str | None:
    """Whether ``key`` may advance into the adjacent hex ``h`` now (002 §12.6: open ground,
    no enemy still fighting there, stacking, at most one vertex of turn): the hex's D/d
    ("none", "auto", "udd"), or None when it may not. Changes nothing."""
    p = game.pos
    u = p.units[key]
    here = game.hex_of(u.hex)
    if here is None or u.facing is None or here.distance(h) != 1:
        return None
    seat = u.seat
    me = combatant_of(game, key)
    blockers = {x for k, w in p.units.items() if w.seat != seat and present(game, k)
                and w.abandoned is None and (x := game.hex_of(w.hex)) is not None}
    blockers |= enemy_hexes(game, seat) - game.enemy_hexes(seat)  # lines' parts (§8.46)
    try:
        need = check_advance(game.cat.board, me, h, new_facing=facing or u.facing,
                             enemy=blockers)
    except RuleError:
        return None
    hid = hex_id(game, h)
    entries = [game.stack_entry(k) for k, x in p.units.items()
               if x.hex == hid and x.seat == seat and x.abandoned is None and k != key]
    if stack_problem([*entries, game.stack_entry(key)], game.orders_of(key)) is not None:
        return None
    return str(need)
