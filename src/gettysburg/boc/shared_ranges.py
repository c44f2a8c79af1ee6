"""A seat's command ranges in its shared views, kept while they stand (issue 59).

``BocGame._command_ranges`` already keeps its answer while the seat's HQs stand where they
stood, but it must look at every HQ with a range and at the control snapshot to know it
(about 30 us a view). For ``view_shared``, whose reader changes nothing, the same dict is
handed out again while no HQ with a range was written to (``unit_edits``), the HQs are the
same (or equal) objects in the same state, and the control snapshot and the printed labels
are the same.
"""

from __future__ import annotations

from collections.abc import Callable

from gettysburg.boc.state import BocState, UnitState
from gettysburg.boc.unit_edits import Watcher


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
        self.ranges: dict[str, list[str]] = {}

    def ranges_now(self, state: BocState, labels: object, ranged: tuple[str, ...],
                   work_out: Callable[[], dict[str, list[str]]]) -> dict[str, list[str]]:
        """The command ranges, ``work_out()`` again only when something they read may
        have changed: the state, the labels (``labels``: the order of battle, which
        gives the ranges), the HQs with a range (``ranged``) or the control snapshot."""
        edited = self.watcher.edited()
        units = state.units
        if ranged is not self.ranged:
            self.ranged, self.ranged_set = ranged, frozenset(ranged)
        hqs = list(map(units.get, ranged))
        if edited is None or state is not self.state or labels is not self.labels \
                or hqs != self.hqs or state.control != self.control \
                or any(u.id in self.ranged_set and units.get(u.id) is u for u in edited):
            self.state, self.labels, self.hqs = state, labels, hqs
            self.control = dict(state.control)
            self.ranges = work_out()
        return self.ranges
