"""What the action and step modules (``fire_action``, ``shock_action``, ``orders_step``, ...)
may ask of a GBACW game, as a Protocol: they type their ``game`` argument with it, so they need
not import :mod:`gettysburg.gbacw.questions` or :mod:`gettysburg.gbacw.game`, which import
them (no import cycle; tests/test_architecture.py)."""

from __future__ import annotations

from typing import Any, Protocol

from gettysburg.core.dice import Dice
from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import GameSetup, Seat
from gettysburg.gbacw.catalog import Catalog
from gettysburg.gbacw.command_status import CommandTree
from gettysburg.gbacw.facing import Facing
from gettysburg.gbacw.movement import FriendStack
from gettysburg.gbacw.oob import Counter
from gettysburg.gbacw.paths import Reach
from gettysburg.gbacw.setup import EngineSetup
from gettysburg.gbacw.stacking import StackEntry
from gettysburg.gbacw.state import Position


class GameView(Protocol):
    """The engine's position, data and questions (see :class:`game.GbacwGame`)."""

    pos: Position
    cat: Catalog
    dice: Dice
    fatigue: bool
    setup: GameSetup
    scen: EngineSetup  # the scenario's set-up and special rules
    _memo: dict[Any, Any]  # answers for the position as it stands (cleared on change)

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

    # what the step modules (orders_step, end_segment, engineering_step) ask besides

    def on_map(self, key: str) -> bool: ...

    def in_play(self, brigade: str) -> bool: ...

    def divisions(self, seat: Seat) -> list[str]: ...

    def division_brigades(self, division: str) -> list[str]: ...

    def leader_hex(self, leader: str | None) -> Hex | None: ...

    def superior_of(self, leader: str, seat: Seat) -> str | None: ...

    def _command_tree(self, seat: Seat) -> CommandTree: ...

    def mp_of(self, key: str) -> int: ...

    def reach(self, key: str) -> dict[tuple[Hex, Facing], Reach]: ...

    def destinations(self, key: str) -> list[tuple[Hex, Facing]]: ...

    def active_units(self) -> list[str]: ...

    def may_move(self, brigade: str) -> bool: ...

    def _fired_instead(self, key: str) -> bool: ...

    def _light(self) -> str: ...

    def _sight(self, a: Hex, b: Hex) -> bool: ...
