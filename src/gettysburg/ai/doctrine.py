"""Doctrines: what a rule system's good play looks like, read from a seat's view only.

A doctrine scores every legal action for the seat to move; the ``general`` agent plays the
best one and the ``search`` agent uses the scores to pick its candidates and to evaluate
positions. Doctrines are registered by system name (``view["system"]``), so another rule
system adds its own without touching the agents; systems without one get
:class:`GenericDoctrine`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from gettysburg.core.protocol import Action

JSONDict = dict[str, Any]

#: Action types that close a step of the game (end a phase, finish a regroup...).
DONE_TYPES = frozenset({"end_phase", "regroup_done", "cavalry_assign_done", "pass"})


class Doctrine(Protocol):
    def scores(self, view: JSONDict, legal: Sequence[Action]) -> list[float]:
        """One score per legal action; the best is played. Done actions score 0, so an
        action is worth taking only if it scores above 0."""
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


class ToyDoctrine:
    """The toy system (``gettysburg.core.toygame``): attack with the strongest block, take
    hits on the strongest block (it survives them best), keep blocks hidden."""

    def scores(self, view: JSONDict, legal: Sequence[Action]) -> list[float]:
        blocks = view.get("blocks") or {}

        def strength(a: Action) -> float:
            b = blocks.get(str(a.get("block", ""))) or {}
            return float(b.get("strength", 0))

        def score(a: Action) -> float:
            kind = a.get("type")
            if kind == "attack":
                return 1.0 + strength(a)
            if kind == "assign":
                return strength(a)
            return -1.0 if kind == "reveal" else 0.0

        return [score(a) for a in legal]

    def evaluate(self, view: JSONDict) -> float:
        seat = view.get("seat")
        return sum(float(b.get("strength", 0)) * (1 if b.get("side") == seat else -1)
                   for b in (view.get("blocks") or {}).values() if "strength" in b)


class Memory(Protocol):
    """What one seat's agent remembers over a game, from the views it is given (a player
    at the table remembers the blocks it has seen). Fed only the seat's own views, so it
    knows nothing the seat was not shown."""

    def recall(self, view: JSONDict) -> JSONDict:
        """Take in ``view``; return it with what is remembered added (for the doctrine)."""
        ...


_DOCTRINES: dict[str, Callable[[], Doctrine]] = {"toy": ToyDoctrine}
_MEMORIES: dict[str, Callable[[], Memory]] = {}
_MODULES = {"boc": "gettysburg.ai.doctrine_boc"}
_CACHE: dict[str, Doctrine] = {}


def register_doctrine(system: str, factory: Callable[[], Doctrine],
                      memory: Callable[[], Memory] | None = None) -> None:
    """The system's doctrine and, if its players have something to remember, a maker of
    one seat's memory."""
    _DOCTRINES[system] = factory
    _CACHE.pop(system, None)
    if memory is not None:
        _MEMORIES[system] = memory


def memory_for(view: JSONDict) -> Memory | None:
    """A fresh memory for the view's system, or ``None`` if it keeps none."""
    doctrine_for(view)  # imports the system's doctrine module, which registers both
    maker = _MEMORIES.get(str(view.get("system", "")))
    return maker() if maker is not None else None


def doctrine_for(view: JSONDict) -> Doctrine:
    """The doctrine of the view's rule system (``view["system"]``), else the generic one."""
    system = str(view.get("system", ""))
    if not system and "blocks" in view and "pending_hits" in view:
        system = "toy"  # the toy's view does not name its system
    got = _CACHE.get(system)
    if got is not None:
        return got
    if system not in _DOCTRINES and system in _MODULES:
        importlib.import_module(_MODULES[system])
    factory = _DOCTRINES.get(system)
    doctrine: Doctrine = factory() if factory is not None else GenericDoctrine()
    _CACHE[system] = doctrine
    return doctrine
