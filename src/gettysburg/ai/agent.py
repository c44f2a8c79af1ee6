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

from gettysburg import systems
from gettysburg.core.protocol import Action
from gettysburg.core.system import Opponent, RuleSystem

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
    unless the agent names another in ``stream`` (a preset's setting: a preset may draw
    the numbers of the agent it grew from, so the games recorded of that agent replay; an
    experiment's variant may draw its base agent's)."""
    return str(getattr(agent, "stream", None) or name)


#: Agents registered by code (tests, experiments), by name: they come before presets.
_AGENTS: dict[str, AgentFactory] = {}
#: The generic agents and their modules (imported on first use: search is heavier).
_KINDS = {"random": "gettysburg.ai.random_agent", "general": "gettysburg.ai.general",
          "search": "gettysburg.ai.search"}


class UnknownAgentError(LookupError):
    """No agent or preset goes by that name."""


def register_agent(name: str, factory: AgentFactory) -> None:
    if not name or (name in _AGENTS and _AGENTS[name] is not factory):
        raise ValueError(f"agent name {name!r} is empty or taken")
    _AGENTS[name] = factory


def _declared(system: str | None) -> list[RuleSystem]:
    """The systems whose presets a name may refer to: ``system``, or every one."""
    if system is None:
        return list(systems.all_systems())
    return [systems.get(system)]  # a clear error for a system nobody registered


def agent_names(system: str | None = None) -> list[str]:
    """The names ``make_agent`` takes for ``system``: its opponent presets, easiest
    first, then the generic agents they do not shadow (for any system, when ``None``:
    every name, sorted). Registered agents come last; aliases of presets are not listed."""
    if system is None:
        names = set(_KINDS) | set(_AGENTS)
        for declared in _declared(None):
            names.update(o.name for o in declared.ai.opponents())
        return sorted(names)
    out = [o.name for o in _declared(system)[0].ai.opponents()]
    out += [n for n in (*_KINDS, *sorted(_AGENTS)) if n not in out]
    return out


def _preset(name: str, system: str | None) -> Opponent | None:
    """The opponent preset called ``name`` (or by one of its aliases) in ``system``, or in
    the one system that declares it when ``system`` is ``None``."""
    found: list[Opponent] = []
    for declared in _declared(system):
        found += [o for o in declared.ai.opponents() if name in (o.name, *o.aliases)]
    if len({(o.agent, repr(sorted(o.settings.items()))) for o in found}) > 1:
        raise UnknownAgentError(f"agent {name!r} is a preset of several systems that "
                                "differ; say which system")
    return found[0] if found else None


def make_agent(name: str, seed: str | int = 0, system: str | None = None) -> Agent:
    """A fresh agent for a game of ``system``; ``seed`` fixes whatever private state it
    keeps. ``name`` is a registered agent, one of the system's opponent presets (or a
    retired name one of them keeps as an alias), or a generic agent (``random``,
    ``general``, ``search``) with its default settings. Without ``system`` a preset is
    looked up in every system (refused if two systems' presets of that name differ)."""
    if name in _AGENTS:
        return _AGENTS[name](str(seed))
    # Without a system a generic name is the generic agent, whatever a system's preset of
    # that name may add (a lab or host that knows the system passes it).
    preset = None if system is None and name in _KINDS else _preset(name, system)
    kind, settings = (preset.agent, dict(preset.settings)) if preset is not None \
        else (name, {})
    if kind not in _KINDS:
        raise UnknownAgentError(f"unknown agent {name!r}; choose one of "
                                f"{agent_names(system)}")
    # A preset may draw another name's random numbers (``random_stream``).
    stream = settings.pop("stream", None)
    build = importlib.import_module(_KINDS[kind]).build
    try:
        agent: Agent = build(str(seed), **settings)
    except TypeError as exc:  # a setting the agent does not take
        raise ValueError(f"agent {name!r}: {kind} takes no such setting ({exc})") from None
    if stream is not None:
        agent.stream = str(stream)  # type: ignore[attr-defined]
    agent.name = preset.name if preset is not None else kind
    return agent


def remembers(agent: Agent) -> bool:
    """Whether ``agent`` keeps anything between decisions: it has an ``observe`` method."""
    return callable(getattr(agent, "observe", None))


def reads_view(agent: object) -> bool:
    """Whether ``agent`` reads its view (and wants the legal actions as a list): every
    agent does unless it says otherwise with ``reads_view = False`` (the random agent),
    and is then given the view's summary and the lazy legal sequence (issue 59)."""
    return getattr(agent, "reads_view", True) is not False


def shares_view(agent: object) -> bool:
    """Whether ``agent`` promises to change nothing in the view and legal actions it is
    given, nor to keep or return them uncopied (``shares_view = True``, the general): a
    host may then give it ``Game.view_shared``, whose parts a system may hand out again
    from one decision to the next (issue 59). Without the promise, a fresh ``view``."""
    return getattr(agent, "shares_view", False) is True


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
