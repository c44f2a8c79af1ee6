"""What a seat's own action showed it of the enemy (the server's take-back rule,
docs/server.md "Undo"; :meth:`gettysburg.core.protocol.Game.learned_from`).

In GBACW every counter on the map stands face up (002 §2.2), so a move reveals nothing by
itself; what a seat may learn of the other side is in its view's enemy counters (where,
facing, strength, markers), the enemy's leaders, the marker drawn from the pool (002 §5.3),
a decision the enemy was handed (``pending``), the CI markers and the objectives' control.
Any change there after an action of the seat's own means it learned something, so that
action stays (a draw also rolls dice, which keeps it by itself)."""

from __future__ import annotations

from gettysburg.core.canonical import JSONDict, canonical_json

PUBLIC = ("current", "pending", "ci_brigades", "ci_divisions", "control", "result")


def enemy_part(seat: str, view: JSONDict) -> JSONDict:
    """The part of ``seat``'s view that tells it of the other side
    (the counters of 002 §2.2 as view.py's fog shows them)."""
    units = view.get("units") or {}
    leaders = view.get("leaders") or {}
    return {
        "units": {k: u for k, u in sorted(units.items()) if u.get("seat") != seat},
        "leaders": {k: v for k, v in sorted(leaders.items()) if v.get("seat") != seat},
        **{k: view.get(k) for k in PUBLIC},
    }


def learned_from(seat: str, before: JSONDict, after: JSONDict) -> bool:
    """Whether an action of ``seat`` showed it anything new of the enemy: its view's enemy part
    changed (view.py's fog over the counters of 002 §2.2)."""
    return canonical_json(enemy_part(seat, before)) != canonical_json(enemy_part(seat, after))
