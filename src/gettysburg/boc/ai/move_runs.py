"""The legal list's moves in runs, one per unit and start hex, for the doctrine to score
a unit's moves together (issue 59).

A view from ``Game.view_shared`` hands out a unit's move dicts as the very objects of the
last decision while its moves stand (``boc/legal_list.py``). A run whose first dict is the
one a run of the last decision began with, followed by that run's other dicts (a list
comparison, by identity at C speed), is that run again: the same unit, hex and paths list,
with no per-move work in Python. A fresh view's dicts are never the kept ones (those are
alive, so no new dict has their id): its runs are all grouped afresh.
"""

from __future__ import annotations

from collections.abc import Sequence

from gettysburg.core.protocol import Action

#: A unit's moves from one hex: (unit id, start hex, the moves' paths in listed order).
Run = tuple[str, str, list[Sequence[str]]]
#: The id of a run's first move dict -> (the run's move dicts, the run).
Runs = dict[int, tuple[list[Action], Run]]


def plan_moves(legal: Sequence[Action], before: Runs) -> tuple[list[Action | Run], Runs]:
    """``legal`` in listed order, each run of moves of one unit from one hex as one
    :data:`Run`, the other actions as they are; and the runs to pass as ``before`` at the
    next decision (this list's only). A run of ``before`` found again is handed out as it
    was: its paths list must not be changed."""
    plan: list[Action | Run] = []
    now: Runs = {}
    # Only a list is compared by slices (a lazy sequence would build copies to compare).
    listed = legal if isinstance(legal, list) else None
    i, size = 0, len(legal)
    while i < size:
        a = legal[i]
        if a.get("type") != "move":
            plan.append(a)
            i += 1
            continue
        got = before.get(id(a)) if listed is not None else None
        if got is not None and listed is not None:
            dicts, run = got
            j = i + len(dicts)
            if dicts[0] is a and listed[i:j] == dicts and not _continues(legal, j, run):
                plan.append(run)
                now[id(a)] = got
                i = j
                continue
        path = a["path"]
        unit, here = a["unit"], path[0]
        paths = [path]
        j = i + 1
        while j < size:
            b = legal[j]
            if b.get("type") != "move" or b["unit"] != unit or b["path"][0] != here:
                break
            paths.append(b["path"])
            j += 1
        run = (str(unit), str(here), paths)
        plan.append(run)
        if listed is not None:
            now[id(a)] = (listed[i:j], run)
        i = j
    return plan, now


def _continues(legal: Sequence[Action], j: int, run: Run) -> bool:
    """Whether the action at ``j`` is a move of the same run (then it is not the run kept)."""
    if j >= len(legal):
        return False
    b = legal[j]
    return b.get("type") == "move" and b["unit"] == run[0] and b["path"][0] == run[1]
