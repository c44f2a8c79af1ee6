"""The battle book's lasting effects as the combat code reads them (004 §18.0), from
``Position.tdg``: a leaf, so the fire and rally modules need not import
:mod:`battle_book_step` (which imports the results code, and so the fire code, back).
``battle_book_step`` writes these entries; it keeps its own copies of the readers."""

from __future__ import annotations

import dataclasses
from contextvars import Token
from typing import TYPE_CHECKING

from gettysburg.core.dice import Dice
from gettysburg.core.protocol import Event, dice_event

from .kinds import unit_class
from .random_events import HERO_DRM, RULE, Rain, battery_jinx
from .udd import HeroPlay, UddRoll, bind_hero, unbind_hero

if TYPE_CHECKING:
    from .engine_view import GameView as GbacwGame


def active(game: GbacwGame, key: str) -> bool:
    """Whether the lasting effect ``key`` ({"from", "to"} track indices) covers this turn
    (004 §18.0 M, R, S)."""
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


# --- P: the Hero marker (decision E-33) -----------------------------------------------------------
#: when a holder plays a Hero marker: "save" (the default) on his own unit's failed UDD that
#: 2 less turns into a pass; "spoil" on an enemy unit's passed UDD that 2 more turns into a
#: fail; "both"; "never" (the markers kept). ``tdg["hero_policy"]``: seat -> one of these.
HERO_POLICIES = ("save", "spoil", "both", "never")


def hero_policy(game: GbacwGame, seat: str) -> str:
    """004 §18.0 P: the seat's standing choice of when its Hero markers are played."""
    return str(game.pos.tdg.get("hero_policy", {}).get(seat, "save"))


def hero_play(game: GbacwGame, r: UddRoll) -> UddRoll:
    """004 §18.0 P: one Hero marker, at most, on this UDD (one per roll): the unit's owner
    plays one to save a failed roll that -2 passes, or else the enemy plays one to make a
    passed roll that +2 fails, each as his policy allows (:data:`HERO_POLICIES`). The
    marker is spent (``tdg["heroes"]``) and noted for :func:`hero_events`."""
    p = game.pos
    heroes = p.tdg.get("heroes")
    u = p.units.get(r.unit)
    if not heroes or u is None:
        return r
    if r.passed:
        seat = next((s for s in sorted(heroes) if s != u.seat), None)
        shift, wants = HERO_DRM, ("spoil", "both")
    else:
        seat, shift, wants = u.seat, -HERO_DRM, ("save", "both")
    if seat is None or int(heroes.get(seat, 0)) < 1 or hero_policy(game, seat) not in wants:
        return r
    played = dataclasses.replace(r, hero=shift, hero_seat=seat)
    played = dataclasses.replace(played, passed=played.modified <= r.cohesion)
    if played.passed == r.passed:
        return r  # 2 would not change the outcome: the marker is kept
    left = dict(heroes)
    left[seat] = int(left[seat]) - 1
    if not left[seat]:
        del left[seat]
    if left:
        p.tdg["heroes"] = left
    else:
        del p.tdg["heroes"]
    p.tdg.setdefault("hero_played", []).append(
        {"seat": seat, "unit": r.unit, "purpose": r.purpose, "udd_rule": r.rule,
         "roll": r.roll, "shift": shift, "passed": played.passed,
         "held": int(left.get(seat, 0))})
    return played


def hero_on(game: GbacwGame) -> Token[tuple[Dice, HeroPlay] | None]:
    """004 §18.0 P: the game's UDDs are offered to the Hero markers while it carries out
    an action (undone with :func:`hero_off`)."""
    return bind_hero(game.dice, lambda r: hero_play(game, r))


def hero_off(token: Token[tuple[Dice, HeroPlay] | None]) -> None:
    """Unbind the Hero markers bound for an action's UDDs (004 §18.0 P)."""
    unbind_hero(token)


def hero_events(game: GbacwGame) -> list[Event]:
    """004 §18.0 P: one event per Hero marker played during the action just carried out."""
    played = game.pos.tdg.pop("hero_played", [])
    return [Event("random_event_effect", RULE, {"letter": "P", "played": True, **rec})
            for rec in played]


def hero_view(game: GbacwGame, seat: str, *, full: bool) -> dict[str, object]:
    """004 §18.0 P: the Hero markers a seat holds and its policy, in its own view (every
    seat's in a full one); nothing when none are held, so views without them read as before."""
    held = game.pos.tdg.get("heroes", {})
    seats = sorted(held) if full else [seat] if seat in held else []
    if not seats:
        return {}
    return {"heroes": {s: {"held": int(held[s]), "policy": hero_policy(game, s)}
                       for s in seats}}
