"""The legal actions as a lazily built sequence (issue 59).

A movement phase offers some 400 moves a decision, one per (unit, destination); an agent
that draws one at random needs the count and one item, not 400 dicts and path lists.
:class:`LegalActions` holds the ready-made actions and, for each unit, the paths of its
moves as the reach already keeps them; an item is built into its own dict (with its own
path list) only when it is indexed or iterated, so a caller changing it changes nothing
else. ``list(seq)`` gives exactly the list ``BocGame.legal_actions`` returns.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Sequence
from typing import Any, overload

from gettysburg.core.protocol import Action

#: A chunk: ready actions (copied when handed out), or a unit's moves (unit id, paths).
Chunk = tuple[Sequence[Action], None] | tuple[str, Sequence[Sequence[str]]]


def _fresh(value: Any) -> Any:
    if isinstance(value, list):
        return [_fresh(v) for v in value]
    if isinstance(value, dict):
        return {k: _fresh(v) for k, v in value.items()}
    return value


def _copy(action: Action) -> Action:
    """A fresh copy of a listed action, all the way down (JSON values)."""
    return {k: _fresh(v) for k, v in action.items()}


class LegalActions(Sequence[Action]):
    """The legal actions in their listed order: ready actions and per-unit move chunks."""

    __slots__ = ("_chunks", "_handed", "_len", "_starts")

    def __init__(self) -> None:
        self._chunks: list[Chunk] = []
        self._starts: list[int] = []
        self._len = 0
        self._handed = False  # has any ready action been read (then only copies go out)

    def add(self, actions: Sequence[Action]) -> None:
        """Append ready actions, which the sequence then owns (nobody else may hold them):
        the first :meth:`to_list` hands them out as they are, every other read copies."""
        if actions:
            self._starts.append(self._len)
            self._chunks.append((actions, None))
            self._len += len(actions)

    def add_moves(self, unit: str, paths: Sequence[Sequence[str]]) -> None:
        """Append one ``move`` per path, in the paths' order (``paths`` is not copied:
        the caller must not change it)."""
        if paths:
            self._starts.append(self._len)
            self._chunks.append((unit, paths))
            self._len += len(paths)

    def __len__(self) -> int:
        return self._len

    def _item(self, i: int) -> Action:
        self._handed = True
        k = bisect_right(self._starts, i) - 1
        head, paths = self._chunks[k]
        j = i - self._starts[k]
        if paths is None:
            assert not isinstance(head, str)
            return _copy(head[j])
        assert isinstance(head, str)
        return {"type": "move", "unit": head, "path": list(paths[j])}

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

    def __iter__(self) -> Iterator[Action]:
        self._handed = True
        for head, paths in self._chunks:
            if paths is None:
                assert not isinstance(head, str)
                for a in head:
                    yield _copy(a)
            else:
                assert isinstance(head, str)
                for p in paths:
                    yield {"type": "move", "unit": head, "path": list(p)}

    def to_list(self) -> list[Action]:
        """All the actions, each the caller's own (a fresh dict and path list)."""
        out: list[Action] = []
        fresh, self._handed = not self._handed, True
        for head, paths in self._chunks:
            if paths is None:
                assert not isinstance(head, str)
                out += head if fresh else [_copy(a) for a in head]
            else:
                out += [{"type": "move", "unit": head, "path": list(p)} for p in paths]
        return out

    def __repr__(self) -> str:
        return f"LegalActions({self._len} actions)"
