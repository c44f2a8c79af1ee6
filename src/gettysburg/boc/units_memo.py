"""A seat's blocks in its view, kept from one view to the next (issue 59, session 47).

``fog.units_view`` looks at every block at every view, though an action changes one
block or a few. :func:`kept_units_view` gives the same two lists, but keeps each block's
part (shown in full, shown as a revealed enemy, hidden under its handle, or absent) with
all it was made from: a copy of the block's fields (its instance dict: all that
``unit_view`` and ``hidden_view`` read of it; dicts compare at C speed, cheaper than
building ``fog.unit_values``' tuples), its printed label (the order of battle's
``Unit``) and the fog key. Only the blocks whose values changed are looked at again; the
lists are put together again only when a block's part changed kind (a shown block
changed is put in its place in the shown list). Every dict handed out is the
caller's own (a shallow copy: every value is a scalar).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import compress
from operator import ne

from gettysburg.boc.fog import hidden_view
from gettysburg.boc.oob import OrderOfBattle, Unit
from gettysburg.boc.state import ON_MAP, BocState, UnitState
from gettysburg.core.canonical import JSONDict
from gettysburg.core.protocol import REFEREE

#: A block's part in a view: absent (an enemy block off the map), shown, hidden.
ABSENT, SHOWN, HIDDEN = 0, 1, 2


@dataclass
class UnitsMemo:
    """One seat's blocks as its last view showed them, and what they were made from."""

    key: bytes
    oob: OrderOfBattle
    labels: list[Unit]  # the order of battle's printed labels, all of them, in its order
    raw: list[str]  # the state's unit ids in the state's order
    uids: list[str]  # sorted
    values: list[dict[str, object]]  # each block's fields, copied
    parts: list[tuple[int, JSONDict | None]]
    shown: list[JSONDict] = field(default_factory=list)
    hidden: list[JSONDict] = field(default_factory=list)
    where: list[int] = field(default_factory=list)  # a block's index in ``shown``, or -1

    def gather(self) -> None:
        """The two lists in ``fog.units_view``'s order, from the blocks' parts."""
        shown: list[JSONDict] = []
        where: list[int] = []
        for kind, d in self.parts:
            if kind == SHOWN and d is not None:
                where.append(len(shown))
                shown.append(d)
            else:
                where.append(-1)
        self.shown, self.where = shown, where
        self.gather_hidden()

    def gather_hidden(self) -> None:
        hidden = [d for kind, d in self.parts if kind == HIDDEN and d is not None]
        hidden.sort(key=_sort_key)
        self.hidden = hidden

    def update(self, changed: list[int], blocks: list[UnitState], now: list[dict[str, object]],
               seat: str, show: Callable[[UnitState, bool], JSONDict]) -> None:
        """Look again at the blocks at ``changed`` (indices in ``uids``)."""
        regather = hidden = False
        for i in changed:
            self.values[i] = dict(now[i])
            old = self.parts[i][0]
            part = self.parts[i] = _part(self.key, blocks[i], seat, show)
            if old != part[0]:
                regather = True
            elif old == SHOWN and part[1] is not None:
                self.shown[self.where[i]] = part[1]
            elif old == HIDDEN:
                hidden = True
        if regather:
            self.gather()
        elif hidden:
            self.gather_hidden()


def _sort_key(d: JSONDict) -> tuple[str, str]:
    return str(d["hex"]), str(d["handle"])


def _part(key: bytes, u: UnitState, seat: str,
          show: Callable[[UnitState, bool], JSONDict]) -> tuple[int, JSONDict | None]:
    """What ``fog.units_view`` makes of one block for ``seat``."""
    if seat in (REFEREE, u.side):
        return SHOWN, show(u, True)
    if u.status != ON_MAP:
        return ABSENT, None
    if u.revealed:
        return SHOWN, show(u, False)
    return HIDDEN, hidden_view(key, u)


def kept_units_view(memo: UnitsMemo | None, key: bytes, state: BocState, seat: str,
                    oob: OrderOfBattle, show: Callable[[UnitState, bool], JSONDict]
                    ) -> tuple[UnitsMemo, list[JSONDict], list[JSONDict]]:
    """``fog.units_view(key, state, seat, show)``'s two lists, from ``memo`` (the seat's
    last) where the blocks are as they were, with the memo to keep for the next view.
    ``show`` must give the same dict for the same values and label (``BocGame._shown``)."""
    units = state.units
    raw = list(units)
    labels = list(oob.units.values())  # a label replaced in the order of battle: afresh
    if memo is None or memo.key != key or memo.oob is not oob or memo.raw != raw \
            or memo.labels != labels:
        uids = sorted(raw)
        blocks = list(map(units.__getitem__, uids))
        now = list(map(vars, blocks))  # the live dicts, copied to be kept
        memo = UnitsMemo(key, oob, labels, raw, uids, list(map(dict, now)),
                         [_part(key, u, seat, show) for u in blocks])
        memo.gather()
    else:
        blocks = list(map(units.__getitem__, memo.uids))
        now = list(map(vars, blocks))  # compared at C speed; copied only when changed
        changed = list(compress(range(len(now)), map(ne, now, memo.values)))
        if changed:
            memo.update(changed, blocks, now, seat, show)
    return memo, list(map(dict, memo.shown)), list(map(dict, memo.hidden))
