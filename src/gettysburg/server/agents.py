"""How the server plays an AI seat: through the one agent registry, ``gettysburg.ai``.

An agent sees exactly what a human in its seat would see: its seat's view and its legal
actions (never the hidden truth, never the dice seed), plus a time budget in seconds.

Each AI seat of a live game has one :class:`SeatMind`: the agent, kept for the game, so
that it remembers what it has seen (``general`` and ``search`` recall enemy blocks they
saw earlier) and ``search`` keeps its plan for a player turn. The mind observes the seat's
view at every step where the seat is to move, whoever moves next, and each decision draws
from a generator seeded by game, seat and step. After a restart (or after the game was let
go from memory) the host rebuilds the mind by replaying the game and showing it the same
views, so ``general`` makes the same choices as if the server had never stopped; only
``search``'s plan for the player turn in progress is made afresh.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

from gettysburg import systems as registry
from gettysburg.ai import agent as ai
from gettysburg.core.protocol import Action
from gettysburg.core.system import Opponent

JSONDict = dict[str, Any]
UnknownAgentError = ai.UnknownAgentError

#: The generic agents every system may be played by, whatever presets it lists: any legal
#: action at random, and the general on the system's doctrine.
GENERIC = ("random", "general")
#: The agent an AI seat gets when the request names none.
DEFAULT_AGENT = "random"
#: The most opponents the lobby offers for one system (issue 49: a player must be able to
#: tell them apart).
LOBBY_MAX = 4


def presets(system: str) -> list[Opponent]:
    """Every opponent preset the system declares (easiest first); none for a system this
    server does not know."""
    declared = registry.find(system)
    return [] if declared is None else list(declared.ai.opponents())


def offered(system: str) -> list[Opponent]:
    """The opponents the lobby offers for ``system``: its presets marked for the lobby,
    at most :data:`LOBBY_MAX`, easiest first."""
    return [o for o in presets(system) if o.lobby][:LOBBY_MAX]


def agent_names(system: str, extra: Sequence[str] = ()) -> list[str]:
    """The agents a new game of ``system`` may seat: its presets, the generic agents and
    ``extra`` (agents the program embedding the server registered itself). Names a stored
    game used that are none of these are not refused on load (:func:`stand_in`)."""
    names = [o.name for o in presets(system)]
    return [*names, *(n for n in (*GENERIC, *extra) if n not in names)]


def stand_in(system: str) -> str | None:
    """The agent that plays a stored game's AI seat whose agent this server no longer
    builds (a name retired since the game began): the general if the system has a
    doctrine for it, else its first preset, else random play."""
    declared = registry.find(system)
    if declared is None:
        return None
    if declared.ai.doctrine is not None:
        return "general"
    listed = presets(system)
    return listed[0].name if listed else "random"


class SeatMind:
    """One AI seat's agent for the life of a live game (module docstring).

    Views reach it two ways: :meth:`see` queues the view of a step where its seat is to
    move (the host calls it after every action, under the game's lock, so cheaply), and
    :meth:`choose` takes in the queued views, in order, before deciding. The host drives a
    game from one thread at a time, but a human may act while the agent thinks."""

    def __init__(self, name: str, seed: str, system: str | None = None,
                 asked: str | None = None) -> None:
        #: ``name`` builds the agent (its random numbers are drawn under it); ``asked`` is
        #: the seat's stored agent, which ``name`` stands in for when this server no longer
        #: builds it (:func:`stand_in`).
        self.name, self.seed, self.asked = name, seed, asked or name
        # UnknownAgentError for a name this server does not build
        self.agent = ai.make_agent(name, seed, system=system)
        ai.bind_to_clock(self.agent)  # a person waits for it: the budget is kept on the clock
        #: Whether the agent keeps anything between decisions (has ``observe``): a mind
        #: that does not needs no views and no replay.
        self.remembers = ai.remembers(self.agent)
        #: Whether the agent reads its view: one that does not is given the view's summary.
        self.reads_view = ai.reads_view(self.agent)
        self.seen_step = -1  # the last step whose view was queued
        self._latest: JSONDict | None = None  # that view (``view_at``)
        self._queue: list[JSONDict] = []
        self._queue_lock = threading.Lock()
        self._think = threading.Lock()

    def see(self, step: int, view: JSONDict) -> None:
        """Queue the seat's view at ``step`` (steps only go forward)."""
        with self._queue_lock:
            if step > self.seen_step:
                self._queue.append(view)
                self.seen_step, self._latest = step, view

    def view_at(self, step: int) -> JSONDict | None:
        """The view last queued, if it is of ``step`` (so the host need not make it again
        for the decision)."""
        with self._queue_lock:
            return self._latest if self.seen_step == step else None

    def catch_up(self) -> None:
        """Take in the queued views now (``choose`` does so first)."""
        with self._queue_lock:
            views, self._queue = self._queue, []
        for view in views:
            ai.observe(self.agent, view)

    def choose(self, view: JSONDict, legal: Sequence[Action], budget: float,
               seed: str) -> Action:
        """The agent's choice, from a generator seeded by ``seed`` (game, seat, step)."""
        with self._think:
            self.catch_up()
            rng = ai.seeded_rng("server", self.name, seed)
            return dict(self.agent.choose(view, legal, budget, rng))
