"""What the lab reads of a GBACW game (:class:`gettysburg.core.system.LabHooks`): the turn a
view is in, a finished game's victory measure, the counters each side has lost and the
brigade (or artillery battalion) of a counter. Views and results only: nothing here plays.

The score is the Confederate margin of the scenario's victory measure (004, the scenario
notes): for the victory-point scenarios (the second and third days) the CSA's points less
the Union's; for the others, which name a winner by control, occupation, the CI
differential or sudden death, +1 for a Confederate win, -1 for a Union win, 0 for a draw.
"""

from __future__ import annotations

from functools import lru_cache

from gettysburg.core.canonical import JSONDict
from gettysburg.core.system import LabHooks


def clock(view: JSONDict) -> str | None:
    """The game turn a view is in, as the turn record track names it ("1-0700": day 1,
    7 AM; 002 §3.0)."""
    turn = view.get("turn")
    return str(turn) if turn is not None else None


def score(result: JSONDict) -> float | None:
    """A finished game's Confederate margin (see the module's docstring); None for a game
    the scenario does not score (the victory conditions of 004 sc.1-6)."""
    if not result.get("scored", True):
        return None
    points = result.get("points")
    if isinstance(points, dict) and points:
        csa, usa = points.get("csa", 0), points.get("usa", 0)
        if isinstance(csa, int | float) and isinstance(usa, int | float):
            return float(csa) - float(usa)
    winner = result.get("winner")
    return 1.0 if winner == "csa" else -1.0 if winner == "usa" else 0.0


def losses(view: JSONDict) -> dict[str, list[str]]:
    """Counters eliminated (every strength point lost, 002 §12.13) by seat, from the
    referee's view (sorted, for stable rows)."""
    out: dict[str, list[str]] = {}
    units = view.get("units") or []
    rows = units.items() if isinstance(units, dict) else enumerate(units)
    for _, u in rows:
        if not isinstance(u, dict):
            continue
        sp, lost = u.get("sp"), u.get("lost")
        if isinstance(sp, int) and isinstance(lost, int) and lost > 0 and sp <= 0:
            out.setdefault(str(u.get("seat")), []).append(str(u.get("counter")))
    return {k: sorted(v) for k, v in sorted(out.items())}


@lru_cache(maxsize=1)
def _formations() -> dict[str, str]:
    from gettysburg.gbacw.oob import default_oob  # the printed order of battle only

    return {c.id: c.formation for c in default_oob().counters()}


def formation(counter: str) -> str:
    """The brigade or artillery battalion of a counter ("CS-Archer/Heth"); an id the order
    of battle lacks gives its corps prefix ("CS-III").
    (the brigades and battalions of the command levels, 002 §4.1)."""
    return _formations().get(counter) or counter.split(":")[0]


HOOKS = LabHooks(clock=clock, score=score, losses=losses, formation=formation,
                 score_label="CSA victory margin (VP difference, or +1 win / -1 loss)",
                 losses_label="counters eliminated per game, by brigade")
