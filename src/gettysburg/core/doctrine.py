"""Doctrines: what a rule system's good play looks like, read from a seat's view only.

A doctrine scores every legal action for the seat to move; the ``general`` agent plays the
best one and the ``search`` agent uses the scores to pick its candidates and to evaluate
positions. A rule system declares its doctrine (and the memory its players keep) in its
declaration (:mod:`gettysburg.core.system`); systems without one get
:class:`GenericDoctrine`. The agents that use them live in :mod:`gettysburg.ai`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from gettysburg.core.protocol import Action

JSONDict = dict[str, Any]

#: Action types that close a step of the game (end a phase, finish a regroup...).
DONE_TYPES = frozenset({"end_phase", "regroup_done", "cavalry_assign_done", "pass"})


class Doctrine(Protocol):
    def scores(self, view: JSONDict, legal: Sequence[Action]) -> list[float]:
        """One score per legal action; the best is played. Done actions score 0, so an
        action is worth taking only if it scores above 0. A doctrine may keep what it is
        handed (the actions, their paths, the view's parts) to score a later decision
        faster, so neither it nor its caller changes them after (the agent hands the host
        a copy of the action it picks)."""
        ...

    def evaluate(self, view: JSONDict) -> float:
        """How good the position is for ``view["seat"]`` (higher is better)."""
        ...


class GenericDoctrine:
    """For systems nobody has written a doctrine for: act rather than pass."""

    def scores(self, view: JSONDict, legal: Sequence[Action]) -> list[float]:
        return [0.0 if a.get("type") in DONE_TYPES else 0.1 for a in legal]

    def evaluate(self, view: JSONDict) -> float:
        return 0.0


class Memory(Protocol):
    """What one seat's agent remembers over a game, from the views it is given (a player
    at the table remembers the blocks it has seen). Fed only the seat's own views, so it
    knows nothing the seat was not shown."""

    def recall(self, view: JSONDict) -> JSONDict:
        """Take in ``view``; return it with what is remembered added (for the doctrine)."""
        ...
