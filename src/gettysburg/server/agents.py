"""The agent interface: how an AI plays a seat.

An agent sees exactly what a human in its seat would see: its seat's view and its legal
actions (never the hidden truth, never the dice seed), plus a time budget in seconds. It
returns one of the legal actions. Agents are registered by name so that stronger ones
(``general``, ``search``) plug in without touching the server.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from gettysburg.core.protocol import Action

JSONDict = dict[str, Any]


class Agent(Protocol):
    """Chooses an action for one seat."""

    name: str

    def choose(self, view: JSONDict, legal: Sequence[Action], budget: float) -> Action:
        """Return one element of ``legal`` (which is never empty) within ``budget`` s."""
        ...


#: Builds an agent for one decision; ``seed`` is fixed per game, seat and move number so a
#: restarted server makes the same choices.
AgentFactory = Callable[[str], Agent]

_AGENTS: dict[str, AgentFactory] = {}


class UnknownAgentError(LookupError):
    pass


def register_agent(name: str, factory: AgentFactory) -> None:
    if not name or (name in _AGENTS and _AGENTS[name] is not factory):
        raise ValueError(f"agent name {name!r} is empty or taken")
    _AGENTS[name] = factory


def agent_names() -> list[str]:
    return sorted(_AGENTS)


def make_agent(name: str, seed: str) -> Agent:
    try:
        factory = _AGENTS[name]
    except KeyError:
        raise UnknownAgentError(f"unknown agent {name!r}; have {agent_names()}") from None
    return factory(seed)


class RandomAgent:
    """Uniform over the legal actions, from a seeded generator (reproducible)."""

    name = "random"

    def __init__(self, seed: str) -> None:
        digest = hashlib.sha256(("gettysburg.agent.random:" + seed).encode()).digest()
        self._rng = random.Random(int.from_bytes(digest[:8], "big"))

    def choose(self, view: JSONDict, legal: Sequence[Action], budget: float) -> Action:
        return dict(legal[self._rng.randrange(len(legal))])


register_agent("random", RandomAgent)
