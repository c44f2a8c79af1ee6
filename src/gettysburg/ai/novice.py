"""``novice``: the general with a green commander's lapses, an easier opponent for people.

At each decision the novice plays, with probability ``eps``, a legal action drawn
uniformly at random, else the general's choice; it remembers every view either way. The
draws come from the generator the host hands it (seeded by game, seat and step), so its
games replay. ``benchmarks/skill_ladder.py`` builds its rungs from the same class; at
``NOVICE_EPS`` = 0.25 the general wins most games against it and random play loses to it
(measured in docs/ai.md, "The novice").
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from gettysburg.ai.agent import JSONDict, register_agent
from gettysburg.ai.general import GeneralAgent
from gettysburg.core.protocol import Action

NOVICE_EPS = 0.25


class Blundering(GeneralAgent):
    """The general, except that with probability ``eps`` it plays a random legal action
    (in every phase, or only in ``phase``)."""

    name = "novice"
    eps = NOVICE_EPS
    phase: str | None = None  # lapses only in this phase (None: in every phase)

    def choose(self, view: JSONDict, legal_actions: Sequence[Action], budget_s: float,
               rng: random.Random) -> Action:
        if legal_actions and self.phase in (None, view.get("phase")) \
                and rng.random() < self.eps:
            self.observe(view)  # it still takes in what it sees
            return dict(rng.choice(list(legal_actions)))
        return super().choose(view, legal_actions, budget_s, rng)


register_agent("novice", Blundering)
