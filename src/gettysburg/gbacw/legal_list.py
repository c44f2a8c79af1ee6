"""The GBACW legal actions as a lazily built sequence (issue 59; the protocol's
``Game.legal_sequence``).

An activation on the big map lists 1,500-3,000 moves, one per (unit, hex, facing) of its
reach, and the leaders' moves; an agent that draws one at random needs the count and one
item, not thousands of dicts. :class:`LegalList` holds ready actions and, for the moves,
the items they are made of (a unit's destinations, a leader's hexes) with the function
that makes an action of one; an item is made into its own dict only when read, so a caller
changing it changes nothing else. ``list(seq)`` and :meth:`LegalList.to_list` give exactly
the list ``legal_actions`` returns, in its order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from gettysburg.core.lazy_actions import ChunkedActions, copy_action
from gettysburg.core.protocol import Action

#: A chunk: ready actions (``make`` None; copied when read, but for the first full list)
#: or items each made into an action by ``make``.
Chunk = tuple[list[Any], Callable[[Any], Action] | None]


class LegalList(ChunkedActions[Chunk]):
    """The legal actions in their listed order, built as the legal list adds them: ready
    actions (``+=``, :meth:`append`) and lazily made ones (:meth:`add_made`)."""

    __slots__ = ()

    def __iadd__(self, actions: Iterable[Action]) -> LegalList:
        """Append ready actions, which the sequence then owns: the first :meth:`to_list`
        hands them out as they are (as the legal list did), every other read copies."""
        got = list(actions)
        if not got:
            return self
        if self._chunks and self._chunks[-1][1] is None:  # one chunk for a run of ready
            self._chunks[-1][0].extend(got)
            self._len += len(got)
        else:
            self._open((got, None), len(got))
        return self

    def append(self, action: Action) -> None:
        """Append one ready action (see ``+=``)."""
        self += [action]

    def add_made(self, items: Sequence[Any], make: Callable[[Any], Action]) -> None:
        """Append one action per item, ``make(item)``, made only when read (``items`` is
        not copied: the caller must not change it)."""
        if items:
            self._open((list(items), make), len(items))

    def _built(self, chunk: Chunk, j: int) -> Action:
        items, make = chunk
        return copy_action(items[j]) if make is None else make(items[j])

    def __iter__(self) -> Iterator[Action]:
        self._handed = True
        for items, make in self._chunks:
            yield from ([copy_action(a) for a in items] if make is None
                        else map(make, items))

    def to_list(self) -> list[Action]:
        """All the actions, each the caller's own."""
        out: list[Action] = []
        fresh, self._handed = not self._handed, True
        for items, make in self._chunks:
            if make is None:
                out += items if fresh else [copy_action(a) for a in items]
            else:
                out += map(make, items)
        return out
