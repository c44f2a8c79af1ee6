"""The battle book's lasting effects as the combat code reads them (004 §18.0), from
``Position.tdg``: a leaf, so the fire and rally modules need not import
:mod:`battle_book_step` (which imports the results code, and so the fire code, back).
``battle_book_step`` writes these entries; it keeps its own copies of the readers."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gettysburg.core.protocol import Event, dice_event

from .kinds import unit_class
from .random_events import RULE, Rain, battery_jinx

if TYPE_CHECKING:
    from .engine_view import GameView as GbacwGame


def active(game: GbacwGame, key: str) -> bool:
    """Whether the lasting effect ``key`` ({"from", "to"} track indices) covers this turn."""
    got = game.pos.tdg.get(key)
    if not isinstance(got, dict) or "from" not in got:
        return False
    return int(got["from"]) <= game.pos.turn <= int(got["to"])


def rain_fire_drm(game: GbacwGame) -> int:
    """004 §18.0 M: the DRM on every Fire Table roll while the rain lasts (0 otherwise)."""
    return Rain(1).fire_drm if active(game, "rain") else 0


def rain_rally_drm(game: GbacwGame) -> int:
    """004 §18.0 M: the DRM on every rally roll while the rain lasts (0 otherwise)."""
    return Rain(1).rally_drm if active(game, "rain") else 0


def jinx_roll(game: GbacwGame, unit: str) -> list[Event]:
    """004 §18.0 J, called by the fire code as a battery's shot is carried out (not in a
    preview): when the battery's side owes J, its opponent rolls a d10; even: -2 to this
    shot's Fire Table roll (:func:`jinx_drm`) and a gun lost after it
    (``battle_book_step.after_action``). The mark is spent either way."""
    p = game.pos
    owed = p.tdg.get("jinx")
    u = p.units.get(unit)
    if not owed or u is None or u.seat not in owed \
            or unit_class(game.counter(unit)) != "artillery" or "jinx_shot" in p.tdg:
        return []
    first = game.dice.counter
    roll = game.dice.roll("random event J: the opponent's d10", RULE, die="d10")
    drm, guns = battery_jinx(roll)
    left = list(owed)
    left.remove(u.seat)
    if left:
        p.tdg["jinx"] = left
    else:
        del p.tdg["jinx"]
    p.tdg["jinx_shot"] = {"unit": unit, "drm": drm, "guns": guns}
    return [dice_event(game.dice.rolls_since(first)),
            Event("random_event_effect", RULE, {"letter": "J", "unit": unit, "roll": roll,
                                                 "drm": drm, "guns_lost": guns})]


def jinx_drm(game: GbacwGame, unit: str) -> int:
    """004 §18.0 J: the DRM on the jinxed battery's shot now being resolved (0 or -2)."""
    got = game.pos.tdg.get("jinx_shot")
    return int(got["drm"]) if isinstance(got, dict) and got.get("unit") == unit else 0


def removed(game: GbacwGame, key: str) -> bool:
    """004 §18.0 Q: a unit of a brigade sent scouting is out of play (not a loss)."""
    return key in game.pos.tdg.get("removed", ())
