"""How the server plays an AI seat: through the one agent registry, ``gettysburg.ai``.

An agent sees exactly what a human in its seat would see: its seat's view and its legal
actions (never the hidden truth, never the dice seed), plus a time budget in seconds. The
server builds a fresh agent per decision from a seed fixed per game, seat and move number,
so a restarted server makes the same choices.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from gettysburg.ai import agent as ai
from gettysburg.core.protocol import Action

JSONDict = dict[str, Any]
UnknownAgentError = ai.UnknownAgentError

#: The agent a new AI seat gets unless the player picks another: the strongest that
#: answers quickly enough for play in the browser.
DEFAULT_AGENT = "general"


class SeatAgent(Protocol):
    name: str

    def choose(self, view: JSONDict, legal: Sequence[Action], budget: float) -> Action: ...


class _Seeded:
    """An ``ai`` agent bound to the random generator of one decision."""

    def __init__(self, name: str, seed: str) -> None:
        self.name = name
        self._agent = ai.make_agent(name, seed)
        self._rng = ai.seeded_rng("server", name, seed)

    def choose(self, view: JSONDict, legal: Sequence[Action], budget: float) -> Action:
        return dict(self._agent.choose(view, legal, budget, self._rng))


def agent_names() -> list[str]:
    """Registered agents, the default first (the lobby preselects the first)."""
    names = ai.agent_names()
    return sorted(names, key=lambda n: (n != DEFAULT_AGENT, n))


def make_agent(name: str, seed: str) -> SeatAgent:
    return _Seeded(name, seed)
