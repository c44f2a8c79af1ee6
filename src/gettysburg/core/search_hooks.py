"""What search needs from a rule system (``SystemHooks``), so that
:mod:`gettysburg.ai.search` itself knows no rule system's internals. Each system supplies
its hooks from public knowledge only, in its own package."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from gettysburg.core.canonical import JSONDict
from gettysburg.core.doctrine import Doctrine
from gettysburg.core.protocol import Action, Game

#: Draws a world consistent with a seat's view: hidden enemy blocks sampled, fresh dice.
WorldBuilder = Callable[[JSONDict, random.Random], Game]


@dataclass(frozen=True)
class SystemHooks:
    """What search needs from a rule system, read from public knowledge only."""

    build: WorldBuilder  # a world consistent with a view
    value: Callable[[Game, str], float]  # how good a world is for a seat
    final_hour: Callable[[JSONDict], bool]  # the scenario's last turn
    control_gain: Callable[[JSONDict, Sequence[Action]], list[float]]  # per action
    #: Hexes from the nearest of some hexes to the nearest enemy block the view shows
    #: (99: none).
    near_enemy: Callable[[JSONDict, Sequence[str]], int] = field(
        default=lambda _view, _hexes: 99)
    #: Doctrine variants by seat and name, the seat's incumbent first (the style
    #: search's portfolio).
    portfolio: dict[str, dict[str, Doctrine]] = field(default_factory=dict)
