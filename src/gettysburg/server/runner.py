"""Drives AI seats: whenever an AI seat is to move, ask its agent and apply the answer.

Each game is driven by at most one worker at a time (a second kick while it runs just
asks it to look again), so an AI never races itself; agents think outside the game lock,
and their choice goes through the same :meth:`Host.act` path as a human's.
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import ThreadPoolExecutor

from gettysburg.server.hosting import ApiError, Host

log = logging.getLogger(__name__)


class Runner:
    def __init__(self, host: Host, budget: float = 5.0, delay: float = 0.0,
                 workers: int = 4) -> None:
        self.host, self.budget, self.delay = host, budget, delay
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="ai")
        self._lock = threading.Lock()
        self._busy: set[str] = set()
        self._again: set[str] = set()
        self._idle = threading.Condition(self._lock)
        self._closed = False
        host.listen(self.kick)

    def kick(self, game_id: str) -> None:
        """Make sure any AI seat to move in ``game_id`` gets to move."""
        with self._lock:
            if self._closed:
                return
            if game_id in self._busy:
                self._again.add(game_id)
                return
            self._busy.add(game_id)
        self._pool.submit(self._drive, game_id)

    def _drive(self, game_id: str) -> None:
        stop = threading.Event()
        try:
            while True:
                with self._lock:
                    self._again.discard(game_id)
                turns = self.host.ai_turns(game_id)
                for seat, mind, seed, view, legal, mark in turns:
                    if self.delay:
                        stop.wait(self.delay)  # a human-friendly pause before the AI moves
                    self.host.agent_move(game_id, seat, mind, seed, view, legal, mark,
                                         self.budget)
                with self._lock:
                    if not turns and game_id not in self._again:
                        self._busy.discard(game_id)
                        self._idle.notify_all()
                        return
        except (ApiError, Exception):
            log.exception("AI driver for game %s stopped", game_id)
            with self._lock:
                self._busy.discard(game_id)
                again = game_id in self._again
                self._again.discard(game_id)
                self._idle.notify_all()
            if again:  # the game changed meanwhile: that deserves a fresh look
                self.kick(game_id)

    def wait_idle(self, timeout: float = 10.0) -> bool:
        """Block until no game is being driven (tests use this)."""
        with self._lock:
            return self._idle.wait_for(lambda: not self._busy, timeout)

    def close(self) -> None:
        with self._lock:
            self._closed = True
        self._pool.shutdown(wait=True, cancel_futures=True)
