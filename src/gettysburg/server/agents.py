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

from gettysburg.ai import agent as ai
from gettysburg.core.protocol import Action

JSONDict = dict[str, Any]
UnknownAgentError = ai.UnknownAgentError

#: The agent a new AI seat gets unless the player picks another: the strongest that
#: answers quickly enough for play in the browser.
DEFAULT_AGENT = "general"


def agent_names() -> list[str]:
    """Registered agents, the default first (the lobby preselects the first)."""
    names = ai.agent_names()
    return sorted(names, key=lambda n: (n != DEFAULT_AGENT, n))


class SeatMind:
    """One AI seat's agent for the life of a live game (module docstring).

    Views reach it two ways: :meth:`see` queues the view of a step where its seat is to
    move (the host calls it after every action, under the game's lock, so cheaply), and
    :meth:`choose` takes in the queued views, in order, before deciding. The host drives a
    game from one thread at a time, but a human may act while the agent thinks."""

    def __init__(self, name: str, seed: str) -> None:
        self.name, self.seed = name, seed
        self.agent = ai.make_agent(name, seed)  # UnknownAgentError for a name not registered
        ai.bind_to_clock(self.agent)  # a person waits for it: the budget is kept on the clock
        #: Whether the agent keeps anything between decisions (has ``observe``): a mind
        #: that does not needs no views and no replay.
        self.remembers = ai.remembers(self.agent)
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
