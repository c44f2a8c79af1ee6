"""The agent interface and the registry of agents by name.

``Agent.choose(view, legal_actions, budget_s, rng)`` returns one element of
``legal_actions`` (never empty). ``view`` is the seat's fogged ``Game.view(seat)``; the
agent must not see anything else of the game. ``rng`` is the only randomness an agent may
use, so a game played with the same seeds is the same game.

An agent that remembers (``general`` and ``search`` keep what they have seen of the
enemy) may also have ``observe(view)``: take in a view it is not asked to act on now.
:func:`observe` calls it when present. A host that keeps one agent for a whole game can
then rebuild the agent's memory from the game's history (the server does, after a
restart) by observing the seat's view at every step where the seat was to move, exactly
as the agent would have seen them while choosing.
"""

from __future__ import annotations

import hashlib
import importlib
import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from gettysburg.core.protocol import Action

JSONDict = dict[str, Any]


class Agent(Protocol):
    """Chooses an action for one seat."""

    name: str

    def choose(self, view: JSONDict, legal_actions: Sequence[Action], budget_s: float,
               rng: random.Random) -> Action:
        """Return one element of ``legal_actions`` within about ``budget_s`` seconds."""
        ...


AgentFactory = Callable[[str], Agent]


def random_stream(agent: Agent, name: str) -> str:
    """The name under which a host derives ``agent``'s random numbers: its own ``name``,
    unless the agent names another in ``stream``. A benchmark's variant of an agent may
    draw its base agent's numbers, so that a game of the variant is the base's game of the
    same seed until their decisions first differ (docs/ai.md, "Variants on the base's
    random numbers")."""
    return str(getattr(agent, "stream", None) or name)


_AGENTS: dict[str, AgentFactory] = {}
# Agents that live in their own module register on import (lazily: search is heavier).
_MODULES = {"random": "gettysburg.ai.random_agent", "general": "gettysburg.ai.general",
            "novice": "gettysburg.ai.novice", "search": "gettysburg.ai.search",
            "search-move": "gettysburg.ai.search", "search-move-still": "gettysburg.ai.search",
            "search-move-still-day1": "gettysburg.ai.search",
            "search-end-day1-tuned": "gettysburg.ai.search",
            "general-tuned": "gettysburg.ai.search"}


class UnknownAgentError(LookupError):
    """No agent is registered under that name."""


def register_agent(name: str, factory: AgentFactory) -> None:
    if not name or (name in _AGENTS and _AGENTS[name] is not factory):
        raise ValueError(f"agent name {name!r} is empty or taken")
    _AGENTS[name] = factory


def agent_names(system: str | None = None) -> list[str]:
    """The agents that may play ``system`` (any system when ``None``)."""
    return sorted(set(_AGENTS) | set(_MODULES))


def make_agent(name: str, seed: str | int = 0, system: str | None = None) -> Agent:
    """A fresh agent for a game of ``system``; ``seed`` fixes whatever private state it
    keeps. ``name`` is a generic agent or one of the system's opponent presets."""
    if name not in _AGENTS and name in _MODULES:
        importlib.import_module(_MODULES[name])
    try:
        factory = _AGENTS[name]
    except KeyError:
        raise UnknownAgentError(f"unknown agent {name!r}; have {agent_names()}") from None
    return factory(str(seed))


def remembers(agent: Agent) -> bool:
    """Whether ``agent`` keeps anything between decisions: it has an ``observe`` method."""
    return callable(getattr(agent, "observe", None))


def bind_to_clock(agent: Agent) -> None:
    """Ask ``agent`` to keep each decision within its budget by the wall clock, if it
    offers that (an optional ``clock_bound`` attribute: ``search``). The lab leaves it
    off, so an agent that measures its work by the budget plays the same game on any
    machine; a server records every action anyway, and nobody should wait longer than
    the budget for the computer's move."""
    if hasattr(agent, "clock_bound"):
        setattr(agent, "clock_bound", True)  # noqa: B010 - optional, not in the protocol


def observe(agent: Agent, view: JSONDict) -> None:
    """Let ``agent`` take in ``view`` without choosing; agents that remember nothing have
    no ``observe`` and ignore it. Observing the same view twice changes nothing."""
    see = getattr(agent, "observe", None)
    if callable(see):
        see(view)


def seeded_rng(*parts: object) -> random.Random:
    """A generator from text parts via SHA-256, identical on every platform and run."""
    text = "\x1f".join(str(p) for p in parts)
    digest = hashlib.sha256(("gettysburg.ai:" + text).encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))
