"""A seat's command ranges in its shared views, kept while they stand (issue 59).

``BocGame._command_ranges`` already keeps its answer while the seat's HQs stand where they
stood, but it must look at every HQ with a range and at the control snapshot to know it
(about 30 us a view). For ``view_shared``, whose reader changes nothing, the same dict is
handed out again while the HQs with a range are the same (or equal) objects in the same
state, none of those written to since (``unit_edits``) changed its status, hex or side, and
the control snapshot and the printed labels are the same.
"""

from __future__ import annotations

from collections.abc import Callable

from gettysburg.boc.state import BocState, UnitState
from gettysburg.boc.unit_edits import Watcher, Written


class SharedRanges:
    """One seat's command ranges, as its last shared view gave them."""

    def __init__(self) -> None:
        self.watcher = Watcher()
        self.state: BocState | None = None
        self.labels: object = None
        self.ranged: tuple[str, ...] = ()
        self.ranged_set: frozenset[str] = frozenset()
        self.hqs: list[UnitState | None] = []  # the HQs with a range, as last seen
        self.control: dict[str, str] = {}
        self.places: dict[str, tuple[str, str | None, str]] = {}  # an HQ's status, hex, side
        self.ranges: dict[str, list[str]] = {}

    def ranges_now(self, state: BocState, labels: object, ranged: tuple[str, ...],
                   work_out: Callable[[], dict[str, list[str]]]) -> dict[str, list[str]]:
        """The command ranges, ``work_out()`` again only when something they read may
        have changed: the state, the labels (``labels``: the order of battle, which
        gives the ranges), the control snapshot, or the status, hex or side of an HQ with
        a range (``ranged``; only those written to are looked at)."""
        edited = self.watcher.edited()
        units = state.units
        if ranged is not self.ranged:
            self.ranged, self.ranged_set = ranged, frozenset(ranged)
        hqs = list(map(units.get, ranged))
        if edited is None or state is not self.state or labels is not self.labels \
                or hqs != self.hqs or state.control != self.control \
                or any(u.id in self.ranged_set and units.get(u.id) is u
                       and self.places.get(u.id) != _place(u) for u in edited):
            # Worked out before anything is recorded: if it raises, the next call must
            # not take the old ranges for those of this state.
            ranges = work_out()
            self.state, self.labels, self.hqs = state, labels, hqs
            self.control = dict(state.control)
            self.places = {u.id: _place(u) for u in hqs if u is not None}
            self.ranges = ranges
        return self.ranges


def _place(u: Written) -> tuple[str, str | None, str]:
    """What the command ranges read of an HQ (``BocGame._command_ranges``)."""
    assert isinstance(u, UnitState)
    return u.status, u.hex, u.side
