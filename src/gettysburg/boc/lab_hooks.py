"""What the lab reads of a Badges of Courage game (:class:`gettysburg.core.system.LabHooks`):
the clock of a view, the CSA's running VP total, a finished game's VP, the blocks each side
has lost and the corps of a block. Views and results only: nothing here plays."""

from __future__ import annotations

from functools import lru_cache

from gettysburg.core.canonical import JSONDict
from gettysburg.core.system import LabHooks


def clock(view: JSONDict) -> str | None:
    """The game turn a view is in, as the map's turn track names it ("Day 1 8 AM")."""
    time = view.get("time")
    return str(time) if time is not None else None


def standing(view: JSONDict) -> float | None:
    """The CSA's VP total the view shows (9.0: the one number a result is read from)."""
    victory = view.get("victory")
    if isinstance(victory, dict) and "total" in victory:
        total = victory["total"]
        return total if isinstance(total, int | float) else None
    return None


def score(result: JSONDict) -> float | None:
    """A finished game's CSA VP total (its result's ``csa_vp``)."""
    vp = result.get("csa_vp")
    return vp if isinstance(vp, int | float) and not isinstance(vp, bool) else None


def losses(view: JSONDict) -> dict[str, list[str]]:
    """Eliminated blocks by side, from the referee's view (sorted, for stable rows)."""
    out: dict[str, list[str]] = {}
    for u in view.get("units", []) or []:
        if isinstance(u, dict) and u.get("status") == "eliminated":
            out.setdefault(str(u.get("side")), []).append(str(u.get("id")))
    return {k: sorted(v) for k, v in sorted(out.items())}


@lru_cache(maxsize=1)
def _corps() -> dict[str, str]:
    from gettysburg.boc.oob import default_oob  # the public order of battle only

    return {uid: f"{u.side} {u.corps}" for uid, u in default_oob().units.items()}


def formation(block: str) -> str:
    """The side and corps of a block ("csa II"); an id the order of battle lacks gives
    its prefix."""
    return _corps().get(block) or block.split("-")[0]


HOOKS = LabHooks(clock=clock, standing=standing, score=score, losses=losses,
                 formation=formation, score_label="CSA victory points",
                 losses_label="blocks eliminated per game, by corps")
