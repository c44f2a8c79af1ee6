"""What search needs from a rule system (``SystemHooks``), so that
:mod:`gettysburg.ai.search` itself knows no rule system's internals. Each system supplies
its hooks from public knowledge only (BoC: :mod:`gettysburg.boc.ai.search_hooks`)."""

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
    may_melee: Callable[[str], bool]  # whether a unit may ever attack in melee
    final_hour: Callable[[JSONDict], bool]  # the scenario's last turn
    control_gain: Callable[[JSONDict, Sequence[Action]], list[float]]  # per action
    #: Hexes from the nearest of some hexes to the nearest enemy block the view shows
    #: (99: none).
    near_enemy: Callable[[JSONDict, Sequence[str]], int] = field(
        default=lambda _view, _hexes: 99)
    #: Doctrine variants by seat and name, the seat's incumbent first (the style
    #: search's portfolio).
    portfolio: dict[str, dict[str, Doctrine]] = field(default_factory=dict)
    #: Turns after the view's before the next verdict (0: this turn is judged at its end;
    #: None: no verdict this day).
    turns_left: Callable[[JSONDict], int | None] = field(default=lambda _view: None)
    #: Doctrines a search agent may play as its own besides the general's (its ``base``,
    #: by name; BoC: "tuned", the styles tuned against the general).
    bases: dict[str, Doctrine] = field(default_factory=dict)
