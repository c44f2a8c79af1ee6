"""Brigade fatigue kept out of the enemy's copy of shock events (002 §17.31; the fatigue
markers are hidden from the enemy, view.py).

A shock event may carry a brigade's fatigue in two ways: a ``fatigue-attacker`` /
``fatigue-defender`` DRM on the shock roll (``shock.shock_drms``), and the half level added to
a unit's UDD (``combatant.check``: green, pre-shock, charge and rout checks, the second
disorder). :func:`fog` strips both from the copy a seat reads when the fatigue is not its
own, taking the hidden part off the roll's DRM and modified total as the fire events do
(``fire_action._fog``) and naming what was hidden. The seat that owns all the fatigue in an
event sees it in full; an event with both sides' fatigue is shown in full to the referee
only, each seat reading the stripped copy. Events without fatigue are left as they are.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gettysburg.core.protocol import Event

from . import fatigue as fatigue_rule

if TYPE_CHECKING:
    from .engine_view import GameView as GbacwGame

HIDDEN = "fatigue (002 §17.31)"


def _part(game: GbacwGame, key: str) -> int:
    """The half level a unit's UDDs carry (what ``shock_action.combatant_of`` gives)."""
    u = game.pos.units.get(key)
    if u is None or not game.fatigue:
        return 0
    b = game.pos.brigades.get(game.counter(key).formation)
    return fatigue_rule.modifier(b.fatigue) if b is not None else 0


def _strip(game: GbacwGame, data: Any, seats: set[str]) -> Any:
    """``data`` without the fatigue parts, noting in ``seats`` whose they were."""
    if isinstance(data, list):
        return [_strip(game, x, seats) for x in data]
    if not isinstance(data, dict):
        return data
    out = {k: _strip(game, v, seats) for k, v in data.items()}
    if {"unit", "purpose", "drm", "modified", "passed"} <= set(out) \
            and isinstance(out["unit"], str):  # a UDD (udd.UddRoll)
        part = _part(game, out["unit"])
        if part:
            seats.add(game.pos.units[out["unit"]].seat)
            out["drm"] = int(out["drm"]) - part
            out["modified"] = int(out["modified"]) - part
            out["hidden"] = [HIDDEN]
    drms = out.get("drms")
    if isinstance(drms, list) and "modified" in out and any(
            isinstance(d, dict) and str(d.get("id", "")).startswith("fatigue-") for d in drms):
        tired = [d for d in drms if str(d.get("id", "")).startswith("fatigue-")]
        for d in tired:
            seats.add(str(d.get("seat", "")))
        out["drms"] = [d for d in drms if d not in tired]
        out["modified"] = int(out["modified"]) - sum(int(d["value"]) for d in tired)
        out["hidden"] = [HIDDEN]
    return out


def fog(game: GbacwGame, events: list[Event], attacker: str | None = None) -> list[Event]:
    """The events of a shock step with the fatigue kept from the seats it does not belong
    to; ``attacker`` names the seat that rolls the shock, whose fatigue the roll's
    ``fatigue-attacker`` DRM is. Call it as the events are made: it reads the brigades'
    fatigue as it stands (shock_after raises it only after the last shock) (002 §17.31)."""
    if not game.fatigue:
        return events
    out: list[Event] = []
    for e in events:
        if e.visible_to is not None:  # already its owner's (fire's own fog, §17.0 events)
            out.append(e)
            continue
        seats: set[str] = set()
        stripped = _strip(game, _sided(e.data, attacker), seats)
        seats.discard("")
        if stripped == _sided(e.data, attacker):
            out.append(e)
            continue
        stripped = _unsided(stripped)
        owners = tuple(sorted(seats))
        out.append(Event(e.type, e.rule, e.data,
                         visible_to=owners if len(owners) == 1 else (), redacted=stripped))
    return out


def _sided(data: Any, attacker: str | None) -> Any:
    """Tag the shock roll's fatigue DRMs with the seat they belong to (for :func:`_strip`)."""
    if isinstance(data, list):
        return [_sided(x, attacker) for x in data]
    if not isinstance(data, dict):
        return data
    out = {k: _sided(v, attacker) for k, v in data.items()}
    ident = str(out.get("id", ""))
    if ident in ("fatigue-attacker", "fatigue-defender") and attacker in ("usa", "csa"):
        defender = "csa" if attacker == "usa" else "usa"
        out["seat"] = attacker if ident == "fatigue-attacker" else defender
    return out


def _unsided(data: Any) -> Any:
    if isinstance(data, list):
        return [_unsided(x) for x in data]
    if not isinstance(data, dict):
        return data
    return {k: _unsided(v) for k, v in data.items()
            if not (k == "seat" and str(data.get("id", "")).startswith("fatigue-"))}
