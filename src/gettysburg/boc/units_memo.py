"""A seat's blocks in its view, kept from one view to the next (issue 59, session 47).

``fog.units_view`` looks at every block at every view, though an action changes one
block or a few. :func:`kept_units_view` gives the same two lists, but keeps each block's
part (shown in full, shown as a revealed enemy, hidden under its handle, or absent) with
all it was made from: a copy of the block's fields (its instance dict: all that
``unit_view`` and ``hidden_view`` read of it; dicts compare at C speed, cheaper than
building ``fog.unit_values``' tuples), its printed label (the order of battle's
``Unit``) and the fog key. Only the blocks whose values changed are looked at again; the
lists are put together again only when one of them did. Every dict handed out is the
caller's own (a shallow copy: every value is a scalar).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

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
    uids: list[str]
    values: list[dict[str, object]]  # each block's fields, copied
    printed: list[Unit]
    parts: list[tuple[int, JSONDict | None]]
    shown: list[JSONDict] = field(default_factory=list)
    hidden: list[JSONDict] = field(default_factory=list)

    def gather(self) -> None:
        """The two lists in ``fog.units_view``'s order, from the blocks' parts."""
        self.shown = [d for kind, d in self.parts if kind == SHOWN and d is not None]
        hidden = [d for kind, d in self.parts if kind == HIDDEN and d is not None]
        hidden.sort(key=_sort_key)
        self.hidden = hidden


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
    uids = sorted(units)
    blocks = list(map(units.__getitem__, uids))
    now = list(map(vars, blocks))  # the live dicts: compared, copied only when kept
    printed = list(map(oob.units.__getitem__, uids))
    if memo is None or memo.key != key or memo.oob is not oob or memo.uids != uids \
            or memo.printed != printed:
        memo = UnitsMemo(key, oob, uids, list(map(dict, now)), printed,
                         [_part(key, u, seat, show) for u in blocks])
        memo.gather()
    elif memo.values != now:
        kept = memo.values
        for i in [i for i, a, b in zip(range(len(now)), now, kept, strict=True) if a != b]:
            kept[i] = dict(now[i])
            memo.parts[i] = _part(key, blocks[i], seat, show)
        memo.gather()
    return memo, list(map(dict, memo.shown)), list(map(dict, memo.hidden))
