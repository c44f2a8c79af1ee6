"""What the action modules (``fire_action``, ``shock_action``) may ask of a GBACW game, as a
Protocol: they type their ``game`` argument with it, so they need not import
:mod:`gettysburg.gbacw.game`, which imports them (no import cycle)."""

from __future__ import annotations

from typing import Protocol

from gettysburg.core.dice import Dice
from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import GameSetup, Seat
from gettysburg.gbacw.catalog import Catalog
from gettysburg.gbacw.movement import FriendStack
from gettysburg.gbacw.oob import Counter
from gettysburg.gbacw.stacking import StackEntry
from gettysburg.gbacw.state import Position


class GameView(Protocol):
    """The engine's position, data and questions (see :class:`game.GbacwGame`)."""

    pos: Position
    cat: Catalog
    dice: Dice
    fatigue: bool
    setup: GameSetup

    def counter(self, key: str) -> Counter: ...

    def hex_of(self, hex_id: str | None) -> Hex | None: ...

    def enemy_hexes(self, seat: Seat) -> set[Hex]: ...

    def orders_of(self, key: str) -> str: ...

    def formation(self, key: str) -> str: ...

    def stack_entry(self, key: str) -> StackEntry: ...

    def brigade_units(self, brigade: str) -> list[str]: ...

    def friends_of(self, key: str) -> dict[Hex, FriendStack]: ...

    def moves_allowed(self, key: str) -> int: ...

    def gone(self, key: str) -> bool: ...
