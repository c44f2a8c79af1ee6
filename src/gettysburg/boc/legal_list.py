"""The legal actions as a lazily built sequence (issue 59).

A movement phase offers some 400 moves a decision, one per (unit, destination); an agent
that draws one at random needs the count and one item, not 400 dicts and path lists.
:class:`LegalActions` holds the ready-made actions and, for each unit, the paths of its
moves as the reach already keeps them; an item is built into its own dict (with its own
path list) only when it is indexed or iterated, so a caller changing it changes nothing
else. ``list(seq)`` gives exactly the list ``BocGame.legal_actions`` returns.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from gettysburg.core.lazy_actions import ChunkedActions, copy_action
from gettysburg.core.protocol import Action

#: A chunk: ready actions (copied when handed out), a unit's moves (unit id, paths) or a
#: due unit's entries (unit id, (entry hex, path) pairs; 6.7).
Chunk = tuple[Sequence[Action], None, None] | tuple[str, Sequence[Sequence[str]], None] \
    | tuple[str, None, Sequence[tuple[str, Sequence[str]]]]
#: (unit, id of its paths or entries object) -> (that object, the actions made of it): the
#: move and entry dicts a shared list handed out (:meth:`LegalActions.shared_list`). The
#: entry holds the object, so its id stays its own while the entry is kept.
SharedMoves = dict[tuple[str, int], tuple[object, list[Action]]]


class LegalActions(ChunkedActions[Chunk]):
    """The legal actions in their listed order: ready actions and per-unit move chunks."""

    __slots__ = ()

    def add(self, actions: Sequence[Action]) -> None:
        """Append ready actions, which the sequence then owns (nobody else may hold them):
        the first :meth:`to_list` hands them out as they are, every other read copies."""
        if actions:
            self._open((actions, None, None), len(actions))

    def add_moves(self, unit: str, paths: Sequence[Sequence[str]]) -> None:
        """Append one ``move`` per path, in the paths' order (``paths`` is not copied:
        the caller must not change it)."""
        if paths:
            self._open((unit, paths, None), len(paths))

    def add_entries(self, unit: str, entries: Sequence[tuple[str, Sequence[str]]]) -> None:
        """Append one ``enter`` per (entry hex, path), in that order (not copied: the
        caller must not change it)."""
        if entries:
            self._open((unit, None, entries), len(entries))

    def add_chunks(self, chunks: Sequence[tuple[Chunk, int]]) -> None:
        """Append chunks made ready by :func:`move_chunks` (each with its length, none
        empty; not copied: the caller must not change them)."""
        for chunk, size in chunks:
            self._open(chunk, size)

    def _built(self, chunk: Chunk, j: int) -> Action:
        return _one(chunk, j)

    def __iter__(self) -> Iterator[Action]:
        self._handed = True
        for chunk in self._chunks:
            yield from _all(chunk)

    def to_list(self) -> list[Action]:
        """All the actions, each the caller's own (a fresh dict and path list)."""
        return self._listed(None)[0]

    def shared_list(self, before: SharedMoves) -> tuple[list[Action], SharedMoves]:
        """:meth:`to_list` for a reader that changes none of the actions
        (``Game.view_shared``): a unit's moves or entries listed from the very paths
        object an earlier list was made of are that list's dicts again (the kept
        movement list keeps the object while the unit's moves stand; nobody changes it).
        Returns the list and what to pass as ``before`` next time (this list's only)."""
        return self._listed(before)

    def _listed(self, before: SharedMoves | None) -> tuple[list[Action], SharedMoves]:
        """The whole list; with ``before``, :meth:`shared_list`'s (and what it keeps)."""
        out: list[Action] = []
        now: SharedMoves = {}
        fresh, self._handed = not self._handed, True
        for chunk in self._chunks:
            head, paths, entries = chunk
            if paths is None and entries is None:
                assert not isinstance(head, str)
                out += head if fresh else [copy_action(a) for a in head]
            elif before is None:
                out += _all(chunk)
            else:
                assert isinstance(head, str)
                listed: object = paths if paths is not None else entries
                key = (head, id(listed))
                got = before.get(key)
                if got is None or got[0] is not listed:
                    got = (listed, _all(chunk))
                now[key] = got
                out += got[1]
        return out, now


def _one(chunk: Chunk, j: int) -> Action:
    """Item ``j`` of a chunk, the caller's own."""
    head, paths, entries = chunk
    if paths is not None:
        assert isinstance(head, str)
        return {"type": "move", "unit": head, "path": list(paths[j])}
    if entries is not None:
        assert isinstance(head, str)
        entry, path = entries[j]
        return {"type": "enter", "unit": head, "entry": entry, "path": list(path)}
    assert not isinstance(head, str)
    return copy_action(head[j])


def _all(chunk: Chunk) -> list[Action]:
    """Every item of a chunk, each the caller's own."""
    head, paths, entries = chunk
    if paths is not None:
        return [{"type": "move", "unit": head, "path": list(p)} for p in paths]
    if entries is not None:
        return [{"type": "enter", "unit": head, "entry": e, "path": list(p)}
                for e, p in entries]
    assert not isinstance(head, str)
    return [copy_action(a) for a in head]


def move_chunks(moves: Sequence[tuple[str, Sequence[Sequence[str]]]],
                entries: Sequence[tuple[str, Sequence[tuple[str, Sequence[str]]]]]
                ) -> list[tuple[Chunk, int]]:
    """The chunks :meth:`LegalActions.add_moves` and :meth:`LegalActions.add_entries`
    would append for ``moves`` then ``entries``, with their lengths, for
    :meth:`LegalActions.add_chunks` (a list kept from one decision to the next)."""
    out: list[tuple[Chunk, int]] = []
    for unit, paths in moves:
        if paths:
            out.append(((unit, paths, None), len(paths)))
    for unit, pairs in entries:
        if pairs:
            out.append(((unit, None, pairs), len(pairs)))
    return out
