"""A seat's blocks in its views, kept from one view to the next (issue 59).

``BocGame.view_shared`` is read by a reader that changes nothing in it (the general), so
its block dicts, and its two lists of blocks, may be the very objects an earlier shared
view handed out; ``BocGame.view`` hands out copies of them. :class:`SharedBlocks` keeps
one seat's: each block's dict (shown by identity, hidden by handle, or not in the view)
and the two lists ``fog.units_view`` gives, and looks again only at the blocks written to
since (``unit_edits``: every write to a unit is noted), not at all 180 of them. When
nothing the seat sees changed it hands out the same two lists.

What the log of writes does not say is checked here at every view: the same state object,
the same units dict holding the same (or equal) units under the same ids, the same fog key
and printed labels; otherwise everything is built again. The lists are never changed once
handed out: a change makes new ones.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable
from operator import itemgetter
from typing import TypeVar

from gettysburg.boc.fog import hidden_order, hidden_view
from gettysburg.boc.state import ON_MAP, BocState, UnitState
from gettysburg.boc.unit_edits import Watcher
from gettysburg.core.canonical import JSONDict
from gettysburg.core.protocol import REFEREE

#: A block's part of the view: True (shown by identity), False (hidden) and its dict,
#: or None (not in the seat's view).
Entry = tuple[bool, JSONDict] | None
#: (the block, full) -> its shown dict, shared (``BocGame._shown``).
Show = Callable[[UnitState, bool], JSONDict]
_T = TypeVar("_T")
_K = TypeVar("_K", str, tuple[str, str])


class SharedBlocks:
    """One seat's blocks, as its last view listed them."""

    def __init__(self, seat: str) -> None:
        self.seat = seat
        self.watcher = Watcher()
        self.state: BocState | None = None
        self.ids: list[str] = []  # the units dict's keys and values, as last seen
        self.units: list[UnitState] = []
        self.key = b""
        self.labels: object = None
        self.entries: dict[str, Entry] = {}
        self.shown: list[JSONDict] = []
        self.shown_ids: list[str] = []  # the shown blocks' ids, in the list's order
        self.hidden: list[JSONDict] = []
        self.hidden_keys: list[tuple[str, str]] = []  # ``hidden_order`` of each

    def blocks(self, state: BocState, key: bytes, labels: object, show: Show
               ) -> tuple[list[JSONDict], list[JSONDict]]:
        """``fog.units_view(key, state, seat)``'s two lists (equal to them), the same
        objects while nothing the seat sees changed. ``labels``: the printed labels'
        object (the order of battle), which the shown dicts read."""
        edited = self.watcher.edited()
        units = state.units
        if edited is None or state is not self.state or key != self.key \
                or labels is not self.labels or list(units) != self.ids \
                or list(units.values()) != self.units:
            return self._or_forget(lambda: self._afresh(state, key, labels, show))
        changed: set[str] = set()
        for u in edited:
            uid = u.id
            if units.get(uid) is u:
                changed.add(uid)
        if changed:
            self._or_forget(lambda: self._update(state, key, show, changed))
        return self.shown, self.hidden

    def _or_forget(self, work: Callable[[], _T]) -> _T:
        """``work()``; if it raises, everything kept is forgotten (the log's place has
        moved on, so the next call must not take half-made lists for this state's)."""
        try:
            return work()
        except BaseException:
            self.state = None
            raise

    def _entry(self, u: UnitState, key: bytes, show: Show) -> Entry:
        """What ``fog.units_view`` makes of the block for this seat."""
        if self.seat in (REFEREE, u.side):
            return True, show(u, True)
        if u.status != ON_MAP:
            return None
        if u.revealed:
            return True, show(u, False)
        return False, hidden_view(key, u)

    def _afresh(self, state: BocState, key: bytes, labels: object, show: Show
                ) -> tuple[list[JSONDict], list[JSONDict]]:
        units = state.units
        self.state, self.key, self.labels = state, key, labels
        self.ids, self.units = list(units), list(units.values())
        self.entries = {uid: self._entry(units[uid], key, show) for uid in sorted(units)}
        self._lists()
        return self.shown, self.hidden

    def _lists(self) -> None:
        """Both lists built from the kept dicts, as ``fog.units_view`` orders them."""
        shown: list[JSONDict] = []
        shown_ids: list[str] = []
        hidden: list[tuple[tuple[str, str], JSONDict]] = []
        for uid, e in self.entries.items():  # in id order
            if e is None:
                continue
            if e[0]:
                shown.append(e[1])
                shown_ids.append(uid)
            else:
                hidden.append((hidden_order(e[1]), e[1]))
        hidden.sort(key=itemgetter(0))  # stable, as units_view's sort
        self.shown, self.shown_ids = shown, shown_ids
        self.hidden = [d for _, d in hidden]
        self.hidden_keys = [k for k, _ in hidden]

    def _update(self, state: BocState, key: bytes, show: Show, changed: set[str]) -> None:
        """The ``changed`` blocks looked at again. The lists stay the same objects if
        none of their dicts changed; else new lists, each dict taken out of its place and
        put into its new one (both lists are sorted: the shown by id, the hidden by hex
        and handle, which no two blocks share)."""
        units, entries = state.units, self.entries
        shown: list[JSONDict] | None = None  # new lists, made at the first change
        shown_ids: list[str] = []
        hidden: list[JSONDict] | None = None
        hidden_keys: list[tuple[str, str]] = []
        again = False  # both lists to be built again from the dicts
        for uid in changed:
            old = entries[uid]
            new = self._entry(units[uid], key, show)
            if new == old:  # the same dict (or an equal one): keep the one handed out
                continue
            entries[uid] = new
            for e, put in ((old, False), (new, True)):
                if e is None:
                    continue
                if e[0]:
                    if shown is None:
                        shown, shown_ids = list(self.shown), list(self.shown_ids)
                    again |= not _place(shown, shown_ids, uid, e[1], put)
                else:
                    if hidden is None:
                        hidden, hidden_keys = list(self.hidden), list(self.hidden_keys)
                    again |= not _place(hidden, hidden_keys, hidden_order(e[1]), e[1], put)
        if again:
            self._lists()
            return
        if shown is not None:
            self.shown, self.shown_ids = shown, shown_ids
        if hidden is not None:
            self.hidden, self.hidden_keys = hidden, hidden_keys


def _place(items: list[JSONDict], keys: list[_K], key: _K, item: JSONDict, put: bool
           ) -> bool:
    """Put ``item`` into the sorted ``items`` at ``key`` (``put``) or take out the one
    there; False if the lists are not as kept (the key already there, or missing), which
    never happens: the shown blocks' ids are unique, and so are the hidden blocks' hex
    and handle."""
    at = bisect_left(keys, key)
    there = at < len(keys) and keys[at] == key
    if put and not there:
        items.insert(at, item)
        keys.insert(at, key)
        return True
    if not put and there:
        del items[at], keys[at]
        return True
    return False
