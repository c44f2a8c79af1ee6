"""Which blocks were written to since a reader last looked (issue 59).

Every field written on a :class:`~gettysburg.boc.state.UnitState` (its ``__setattr__``,
the dataclass's own ``__init__`` included) is noted here, in one short log shared by every
game of the process. A reader (a seat's kept blocks, ``boc/shared_blocks.py``) keeps its
place in the log with a :class:`Watcher` and asks which objects were written to since; it
must still check that an object is one of its own state's. No rule module has to say what
it changed, so a write by any route (an action, a phase's end, a test's hand edit) is seen;
what the log cannot see (a new state object, a unit put into or taken out of the units
dict) the reader checks itself.
"""

from __future__ import annotations

from collections import deque
from typing import Protocol


class Written(Protocol):
    """What a reader reads of a noted unit (``state.UnitState``, which imports this
    module: named by its shape so the two modules do not import each other)."""

    @property
    def id(self) -> str: ...

#: How many writes the log remembers; a reader further behind looks at every block again.
#: A phase's end writes some flags of every block (about 1,300 writes in the battle), an
#: action a few.
EDIT_LOG = 2048


class _Mark:
    """A reader's place in the log."""

    __slots__ = ()


_LOG: deque[Written | _Mark] = deque(maxlen=EDIT_LOG)
#: Called with the unit for every field written (``UnitState.__setattr__``).
note_edit = _LOG.append


class Watcher:
    """One reader's place in the log of writes."""

    __slots__ = ("_mark",)

    def __init__(self) -> None:
        self._mark: _Mark | None = None

    def edited(self) -> list[Written] | None:
        """The units written to since the last call (any game's; one may come more than
        once), or None on the first call and when the log no longer reaches back that far
        (then the reader looks at everything)."""
        # The new mark goes in first, then the log is read back from it to the old one:
        # a write that lands meanwhile is after the new mark, so the next call reports it
        # (read first and marked after, such a write would be lost for good).
        mark, new = self._mark, _Mark()
        self._mark = new
        note_edit(new)
        if mark is None:
            return None
        out: list[Written] = []
        found = started = False
        try:
            for item in reversed(_LOG):
                if not started:
                    started = item is new  # later writes are the next call's
                    continue
                if item is mark:
                    found = True
                    break
                if type(item) is not _Mark:
                    out.append(item)  # type: ignore[arg-type]
        except RuntimeError:  # another thread wrote meanwhile: look at everything
            found = False
        return out if found else None
