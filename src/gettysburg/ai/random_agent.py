"""``random``: uniform over the legal actions (the baseline every agent must beat)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from gettysburg.ai.agent import JSONDict
from gettysburg.core.protocol import Action


class RandomAgent:
    name = "random"
    #: It reads only the count of the legal actions and the one it draws: a host may give
    #: it the view's summary and a lazily built sequence (``Game.view_summary``,
    #: ``Game.legal_sequence``; the lab does).
    reads_view = False

    def __init__(self, seed: str = "0") -> None:
        self.seed = seed

    def choose(self, view: JSONDict, legal_actions: Sequence[Action], budget_s: float,
               rng: random.Random) -> Action:
        if not legal_actions:
            raise ValueError("no legal actions to choose from")
        return dict(legal_actions[rng.randrange(len(legal_actions))])


def build(seed: str) -> RandomAgent:
    """``random`` takes no settings."""
    return RandomAgent(seed)
