"""``general``: a fast heuristic commander.

For each decision it asks the system's doctrine (:mod:`gettysburg.core.doctrine`) to score
every legal action from the seat's view and plays the best; ties go to the earliest action
in the legal list, so it is deterministic. When nothing scores above 0 it plays the
"done" action (``end_phase`` and the like), which ends phases once nothing useful is left.
What it decides from is its view plus what it remembers of earlier views (the system's
``Memory``, e.g. the strength a block had when last seen before it stood up again).

Its settings (an opponent preset's ``settings``):

* ``doctrine``: one of the system's named doctrine variants (``AIHooks.doctrines``, e.g.
  weights tuned against the general) played instead of its own; a game of a system
  without that variant is refused at the first decision, naming the variants it has;
* ``lapses``: the chance, at each decision, of playing a legal action drawn at random
  instead (a green commander, e.g. 0.25). The draw comes from the generator
  the host hands it, so its games replay; it remembers what it saw either way.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from math import isnan

from gettysburg.ai.agent import JSONDict
from gettysburg.ai.doctrines import doctrine_for, memory_for, named_doctrine
from gettysburg.core.doctrine import DONE_TYPES, Doctrine, Memory
from gettysburg.core.lazy_actions import copy_action
from gettysburg.core.protocol import Action


def best_index(scores: Sequence[float], legal: Sequence[Action]) -> int:
    """The highest score (first on ties); a done action when nothing beats 0."""
    if len(scores) == len(legal) and not isnan(sum(scores)):
        # No NaN among them (it would make the sum NaN): the first of the highest, as
        # below, without a key per action (issue 59: hundreds of moves a decision).
        best = list(scores).index(max(scores))
    else:
        best = max(range(len(legal)), key=lambda i: (scores[i], -i))
    if scores[best] <= 0.0:
        for i, a in enumerate(legal):
            if a.get("type") in DONE_TYPES:
                return i
    return best


def doctrine_choice(view: JSONDict, legal: Sequence[Action],
                    doctrine: Doctrine | None = None) -> Action:
    """The general's decision: the best action for the view (``best_index``) by
    ``doctrine``, by default the view's system's own. A copy all the way down: the listed
    action may be shared with later views (``Game.view_shared``)."""
    scores = (doctrine or doctrine_for(view)).scores(view, legal)
    return copy_action(legal[best_index(scores, legal)])


class Remembering:
    """One seat's memories, one per rule system, made on first use (``memory_for``)."""

    def __init__(self) -> None:
        self._memories: dict[str, Memory | None] = {}

    def get(self, view: JSONDict) -> Memory | None:
        """The memory of the view's system (``None`` if the system keeps none)."""
        system = str(view.get("system", ""))
        if system not in self._memories:
            self._memories[system] = memory_for(view)
        return self._memories[system]

    def recall(self, view: JSONDict) -> JSONDict:
        memory = self.get(view)
        return memory.recall(view) if memory is not None else view


class RememberingAgent:
    """An agent that keeps one memory per game and seat, fed every view it is shown."""

    def __init__(self, seed: str = "0") -> None:
        self.seed = seed
        self.memory = Remembering()

    def observe(self, view: JSONDict) -> None:
        """Remember ``view`` as if choosing from it (``agent.observe``)."""
        self.memory.recall(view)


class GeneralAgent(RememberingAgent):
    name = "general"
    #: It changes nothing in its views and returns a copy (``agent.shares_view``); its
    #: doctrines and memory read views without writing to them.
    shares_view = True

    def __init__(self, seed: str = "0", doctrine: str | None = None,
                 lapses: float = 0.0) -> None:
        super().__init__(seed)
        if doctrine is not None and (not isinstance(doctrine, str) or not doctrine):
            raise ValueError(f"general setting 'doctrine': a variant's name, not {doctrine!r}")
        if isinstance(lapses, bool) or not isinstance(lapses, int | float) \
                or not 0.0 <= lapses <= 1.0:
            raise ValueError(f"general setting 'lapses': a chance from 0 to 1, not {lapses!r}")
        self.doctrine = doctrine
        self.lapses = float(lapses)

    def choose(self, view: JSONDict, legal_actions: Sequence[Action], budget_s: float,
               rng: random.Random) -> Action:
        if not legal_actions:
            raise ValueError("no legal actions to choose from")
        # No draw at all without lapses: the general's games use no random numbers.
        if self.lapses and rng.random() < self.lapses:
            self.observe(view)  # it still takes in what it sees
            return copy_action(rng.choice(list(legal_actions)))
        view = self.memory.recall(view)
        own = named_doctrine(view, self.doctrine) if self.doctrine else None
        return doctrine_choice(view, legal_actions, own)


def build(seed: str, doctrine: str | None = None, lapses: float = 0.0) -> GeneralAgent:
    """The general with a preset's settings (module doc)."""
    return GeneralAgent(seed, doctrine, lapses)
