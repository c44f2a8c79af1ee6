"""A legal-action list built lazily (the protocol's optional ``Game.legal_sequence``,
issue 59): chunks of actions whose items are made into their own dicts only when read, so
an agent that draws one action at random needs the count and one item, not thousands of
dicts. A rule system's list subclasses :class:`ChunkedActions`, adds its own kinds of
chunk and says how one item of a chunk is built (:meth:`ChunkedActions._built`).
"""

from __future__ import annotations

from abc import abstractmethod
from bisect import bisect_right
from collections.abc import Sequence
from typing import Any, Generic, TypeVar, overload

from gettysburg.core.protocol import Action

C = TypeVar("C")


def fresh(value: Any) -> Any:
    """A fresh copy of a JSON value, all the way down."""
    if isinstance(value, list):
        return [fresh(v) for v in value]
    if isinstance(value, dict):
        return {k: fresh(v) for k, v in value.items()}
    return value


def copy_action(action: Action) -> Action:
    """A fresh copy of a listed action, all the way down (JSON values)."""
    return {k: fresh(v) for k, v in action.items()}


class ChunkedActions(Sequence[Action], Generic[C]):
    """The legal actions in their listed order, as chunks of ``C``; indexing finds the
    chunk by its start. ``_handed`` records whether any item has gone out (a subclass
    hands its ready actions out uncopied only in a first full list)."""

    __slots__ = ("_chunks", "_handed", "_len", "_starts")

    def __init__(self) -> None:
        self._chunks: list[C] = []
        self._starts: list[int] = []
        self._len = 0
        self._handed = False

    def _open(self, chunk: C, size: int) -> None:
        """Append ``chunk`` of ``size`` (> 0) items."""
        self._starts.append(self._len)
        self._chunks.append(chunk)
        self._len += size

    @abstractmethod
    def _built(self, chunk: C, j: int) -> Action:
        """Item ``j`` of ``chunk``, the caller's own (each system's chunks are its own)."""

    @property
    def chunks(self) -> Sequence[C]:
        """The chunks in listed order, for a reader that works on them whole (a codec
        encoding a unit's moves without a dict each); not to be changed."""
        return self._chunks

    def __len__(self) -> int:
        return self._len

    def _item(self, i: int) -> Action:
        self._handed = True
        k = bisect_right(self._starts, i) - 1
        return self._built(self._chunks[k], i - self._starts[k])

    @overload
    def __getitem__(self, i: int) -> Action: ...

    @overload
    def __getitem__(self, i: slice) -> list[Action]: ...

    def __getitem__(self, i: int | slice) -> Action | list[Action]:
        if isinstance(i, slice):
            return [self._item(k) for k in range(*i.indices(self._len))]
        if i < 0:
            i += self._len
        if not 0 <= i < self._len:
            raise IndexError("legal action index out of range")
        return self._item(i)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._len} actions)"
