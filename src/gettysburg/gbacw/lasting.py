"""The battle book's lasting effects as the combat code reads them (004 §18.0), from
``Position.tdg``: a leaf, so the fire and rally modules need not import
:mod:`battle_book_step` (which imports the results code, and so the fire code, back).
``battle_book_step`` writes these entries; it keeps its own copies of the readers."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .random_events import Rain

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
