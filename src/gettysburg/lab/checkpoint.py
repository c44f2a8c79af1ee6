"""Checkpoints of a lab game in play, so a long game survives an interrupted run.

A whole battle played by a searching agent can take over two hours of a core; a
run stopped in the middle of one (Ctrl-C, a session's time running out) would otherwise lose
all of it, since a row is stored only when its game ends. While a game is played with a
checkpoint file, :func:`save` pickles everything the game's course depends on (the game,
the agents with their memories, their random generators and the loop's counts) at most
every ``EVERY_S`` seconds, at the start of a turn (any decision, for a system that
declares no clock); ``gettysburg simulate --resume`` goes
on from there, and the game ends exactly as it would have played through (the lab's agents
never read the clock).

A checkpoint is continued only by the code that wrote it (:func:`code_fingerprint`) and
only for its own game (the spec's key); any other, or one that cannot be read, is ignored
and the game starts again from its seed. Checkpoints are pickles: load only your own.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import os
import pickle
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gettysburg.ai.agent import Agent
from gettysburg.core.protocol import Game

log = logging.getLogger(__name__)

#: Seconds of play between two saves of a game (checked as each turn starts).
EVERY_S = 60.0


@dataclass
class InPlay:
    """A game in play and the lab loop's state around it (``simulate.play_game``)."""

    key: str  # the spec's key (``simulate._spec_key``): whose checkpoint this is
    game: Game
    agents: dict[str, Agent]  # by seat, with whatever they remember
    rngs: dict[str, random.Random]  # by seat: the random numbers each agent draws
    at_start: dict[str, list[str]]  # pieces lost before the game began, by seat
    actions: int = 0
    clocks: set[str] = field(default_factory=set)  # the turns seen (LabHooks.clock)
    played: dict[str, int] = field(default_factory=dict)
    vp_track: list[list[Any]] = field(default_factory=list)
    seconds: float = 0.0  # time played before the last save
    code: str = ""  # code_fingerprint() of the code that saved it


#: Subpackages that never change the course of a lab game (the browser's server and its
#: web assets, the command line, the adapters): editing them leaves checkpoints valid.
NOT_PLAYED = frozenset({"server", "cli", "interop"})


def fingerprint_of(root: Path) -> str:
    """A digest of the files under package folder ``root`` (code and data) that a lab
    game's course can depend on: all but ``NOT_PLAYED`` and byte-code caches."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if path.is_file() and "__pycache__" not in rel.parts and rel.parts[0] not in NOT_PLAYED:
            digest.update(str(rel).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


@functools.cache
def code_fingerprint() -> str:
    """This package's :func:`fingerprint_of`: a checkpoint written by other code would
    finish its game as neither version would have played it."""
    return fingerprint_of(Path(__file__).resolve().parents[1])


def path_for(folder: Path, key: str) -> Path:
    """The checkpoint file of the game with spec key ``key`` in ``folder``."""
    return folder / f"{hashlib.sha256(key.encode()).hexdigest()[:24]}.pickle"


def save(path: Path, state: InPlay) -> bool:
    """Write ``state`` to ``path`` whole or not at all (a temporary file, then a rename).
    False when it cannot: the state does not pickle (e.g. an agent whose class a benchmark
    made on the fly) or the file cannot be written. The game goes on without checkpoints."""
    state.code = code_fingerprint()
    try:
        data = pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, AttributeError, TypeError) as exc:
        log.warning("game not checkpointed: %s", exc)
        return False
    tmp = path.with_name(path.name + ".tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(data)
        os.replace(tmp, path)
    except OSError as exc:  # a full or read-only disk: the game matters more
        log.warning("game not checkpointed: %s", exc)
        return False
    return True


def load(path: Path, key: str) -> InPlay | None:
    """The game in play saved at ``path`` for spec key ``key``, or None when there is none
    to go on from: no file, one that does not unpickle, another game's, or other code's."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    try:
        state = pickle.loads(data)
    except Exception as exc:  # truncated or foreign: start the game again
        log.warning("checkpoint %s ignored: %s", path, exc)
        return None
    if not isinstance(state, InPlay) or state.key != key or state.code != code_fingerprint():
        log.warning("checkpoint %s ignored: another game's, or saved by other code", path)
        return None
    return state


def discard(path: Path) -> None:
    """Remove a finished game's checkpoint."""
    path.unlink(missing_ok=True)
