"""Ammunition resupply in the GBACW engine (002 §10.92-10.94; §10.69 sends batteries here).

``{"type": "resupply", "unit"}``: a unit of the active brigade that is low on or out of
ammunition, has not yet moved, turned, fired or rallied this activation and is not next to
an enemy (§10.93) spends its action resupplying: out becomes low, low becomes none
(§10.92). No UDD, no fatigue. Batteries are low or out under the standard rules (§10.69);
infantry and dismounted cavalry only with the optional small-arms rule (game option
``small_arms_ammo``, §10.9).

Elsewhere: §10.92's one-vertex facing change after resupplying (``resupply_face``,
:mod:`resupply_turn`) and §10.94 (mounting resupplies dismounted cavalry, :mod:`mounting`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gettysburg.core.protocol import Action, Event, RuleError

if TYPE_CHECKING:
    from .engine_view import GameView as GbacwGame

STEP_UP = {"out": "low", "low": "none"}


def resupply_problem(game: GbacwGame, key: str) -> RuleError | None:
    """Why ``key`` may not resupply now (None: it may) (002 §10.92-10.93)."""
    p = game.pos
    u = p.units.get(key)
    if u is None or not game.in_activation(key):  # a coordinated group's too (§5.34)
        return RuleError("10.92", f"{key!r} is not a unit of the active brigade")
    here = game.hex_of(u.hex)
    if here is None:
        return RuleError("10.92", f"{key} is not on the map")
    if u.ammo not in STEP_UP:
        return RuleError("10.92", f"{key} is not low on or out of ammunition")
    if u.moves or u.fired or u.moved:
        return RuleError("10.92", f"{key} has acted this activation: resupply is its action")
    if any(here.distance(e) == 1 for e in game.enemy_hexes(u.seat)):
        return RuleError("10.93", f"{key} is next to an enemy unit: no resupply")
    return None


def resupply_options(game: GbacwGame) -> list[Action]:
    """The ``resupply`` actions open to the active brigade's low or out units (002 §10.92)."""
    p = game.pos
    if p.brigade is None:
        return []
    return [{"type": "resupply", "unit": k} for k in game.activation_units()
            if p.units[k].ammo in STEP_UP and resupply_problem(game, k) is None]


def check_resupply(game: GbacwGame, action: Action, seat: str) -> None:
    """Refuse a resupply by a unit that is not the seat's or may not resupply now
    (002 §10.92-10.93)."""
    key = str(action["unit"])
    if key not in game.pos.units or game.pos.units[key].seat != seat:
        raise RuleError("10.92", f"{key!r} is not one of your units")
    problem = resupply_problem(game, key)
    if problem is not None:
        raise problem


def resupply(game: GbacwGame, action: Action, seat: str) -> list[Event]:
    """One step of ammunition back (002 §10.92); the unit's action for this activation."""
    check_resupply(game, action, seat)
    key = str(action["unit"])
    u = game.pos.units[key]
    before = u.ammo
    u.ammo = STEP_UP[before]
    u.moves = game.moves_allowed(key)
    u.fired = [*u.fired, "resupply"]  # no fire after it (fire_action.check_fire)
    return [Event("resupply", "10.92", {"unit": key, "from": before, "ammo": u.ammo})]
