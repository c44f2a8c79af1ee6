"""Artillery cones and long-range line of sight (5.31, 5.33).

How the rule is read (a decision, written down because the text is short):

* An artillery unit fires through one hexside of its hex; the seven hexes of
  that hexside's cone (range 1-3) are its only possible targets (5.31 diagram).
* Range 1 is short range: no line of sight needed (5.3 diagram, R11).
* Long range (2-3): trace from the firing hex into the hex across the chosen
  hexside, then hex by hex, each step one hex further out, to the target,
  staying inside the cone (the "fire path" box of 5.3). There is line of sight
  if at least one such path has no blocking hex. Ties along hexsides need no
  extra rule: every path is tried.
* Firer and target are at their ground level (0 base, 1 rise, 2 hill). A hex on
  the path is an obstacle at its ground level plus one for woods, orchard, town
  or rocks (2.3: trees and buildings count +1). Units never block (5.33).
* Same level: an obstacle blocks only if higher than both (5.33).
* Different levels: an obstacle above the higher end blocks; one at or below
  the lower end does not; one in between blocks unless it is at least as near
  the higher end as the lower end (5.33: a higher target must be nearer, or
  equally near, the obstacle; a lower one farther, or equally far).

With this reading the 5.3 diagram from Q10 holds exactly (tests/test_boc_los.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from gettysburg.boc.board import BOC, Board, BoardError
from gettysburg.core.hexes import Hex, are_adjacent, cone, distance


@lru_cache(maxsize=4096)
def _cone(origin: Hex, through: Hex) -> tuple[Hex, ...]:
    """``core.hexes.cone`` kept per hexside (session 47: a battery's sights test every
    hex of a cone, and each test worked the cone out again; it is geometry alone)."""
    return tuple(cone(origin, through))


@dataclass(frozen=True)
class Sightline:
    """Verdict of a line-of-sight check from one hex to another."""

    origin: str
    target: str
    range: int
    visible: bool
    reason: str
    through: str | None = None  # the hex across the fired-through hexside
    path: list[str] = field(default_factory=list)  # a clear path, if any
    blocked_by: list[str] = field(default_factory=list)
    target_double_defence: bool = False

    def to_json(self) -> dict[str, object]:
        return {
            "from": self.origin,
            "to": self.target,
            "range": self.range,
            "visible": self.visible,
            "long_range": self.range >= 2,
            "reason": self.reason,
            "through": self.through,
            "path": self.path,
            "blocked_by": self.blocked_by,
            "target_double_defence": self.target_double_defence,
            "rule": "5.33",
        }


def cone_targets(board: Board, origin: Hex, through: Hex) -> list[Hex]:
    """The on-map hexes of the cone through the hexside origin/through (5.31)."""
    if not are_adjacent(origin, through):
        raise BoardError(
            f"{BOC.format(through)} is not adjacent to {BOC.format(origin)}: "
            "artillery fires through one of its own hexsides (5.31)"
        )
    return [h for h in _cone(origin, through) if h in board.hexes]


def _blocks(board: Board, x: Hex, origin: Hex, target: Hex) -> bool:
    lf = board.hexes[origin].ground
    lt = board.hexes[target].ground
    hx = board.hexes[x].level
    if lf == lt:
        return hx > lf
    lo, hi = min(lf, lt), max(lf, lt)
    if hx > hi:
        return True
    if hx <= lo:
        return False
    high_end, low_end = (origin, target) if lf > lt else (target, origin)
    return distance(x, high_end) > distance(x, low_end)


def _paths(origin: Hex, through: Hex, target: Hex, in_cone: set[Hex]) -> list[list[Hex]]:
    """Every fire path origin -> through -> ... -> target inside the cone."""
    rng = distance(origin, target)
    paths: list[list[Hex]] = [[through]]
    for step in range(2, rng + 1):
        grown: list[list[Hex]] = []
        for p in paths:
            for n in p[-1].neighbours():
                onward = distance(origin, n) == step and distance(n, target) == rng - step
                if n in in_cone and onward:
                    grown.append([*p, n])
        paths = grown
    return [p for p in paths if p and p[-1] == target]


def line_of_sight(board: Board, origin: Hex, target: Hex, through: Hex | None = None) -> Sightline:
    """Line of sight for artillery fire from ``origin`` to ``target`` (5.33).

    ``through`` picks the fired-through hexside; if omitted, every hexside whose
    cone holds the target is tried and the first clear one is reported.
    """
    for h in (origin, target):
        if h not in board.hexes:
            raise BoardError(f"{h} is not on the map")
    if through is not None and not are_adjacent(origin, through):
        raise BoardError(
            f"{BOC.format(through)} is not adjacent to {BOC.format(origin)}: "
            "artillery fires through one of its own hexsides (5.31)"
        )
    o, t = BOC.format(origin), BOC.format(target)
    rng = distance(origin, target)
    if rng == 0:
        return Sightline(o, t, 0, False, "target is the firing hex")
    if rng > 3:
        return Sightline(o, t, rng, False, f"range {rng}: artillery reaches 3 hexes (5.31)")
    candidates = [through] if through is not None else list(board.on_map_neighbours(origin))
    best_block: Sightline | None = None
    for thr in candidates:
        cone_hexes = _cone(origin, thr)
        if target not in cone_hexes:
            continue
        d2 = board.hexes[target].double_defence
        if rng == 1:
            return Sightline(
                o, t, 1, True, "short range: no line of sight needed (5.3)", BOC.format(thr),
                [t], [], d2,
            )
        blockers: set[Hex] = set()
        # Fire paths run over map hexes only: near the edge a path through a hex that is
        # not on the board cannot be judged (no terrain), so it does not count.
        on_map = {h for h in cone_hexes if h in board.hexes}
        for path in _paths(origin, thr, target, on_map):
            bad = [x for x in path[:-1] if _blocks(board, x, origin, target)]
            if not bad:
                return Sightline(
                    o, t, rng, True, _clear_reason(board, origin, target), BOC.format(thr),
                    [BOC.format(x) for x in path], [], d2,
                )
            blockers.update(bad)
        verdict = Sightline(
            o, t, rng, False, _blocked_reason(board, origin, target, sorted(blockers)),
            BOC.format(thr), [], [BOC.format(x) for x in sorted(blockers)], d2,
        )
        best_block = best_block or verdict
    if best_block is not None:
        return best_block
    return Sightline(o, t, rng, False, "not in the cone of the fired-through hexside (5.31)",
                     BOC.format(through) if through else None)


def _clear_reason(board: Board, origin: Hex, target: Hex) -> str:
    lf, lt = board.hexes[origin].ground, board.hexes[target].ground
    rel = "same level" if lf == lt else ("target higher" if lt > lf else "target lower")
    return f"{rel}; no blocking terrain on a fire path"


def _blocked_reason(board: Board, origin: Hex, target: Hex, blockers: list[Hex]) -> str:
    lf, lt = board.hexes[origin].ground, board.hexes[target].ground
    rel = "same level" if lf == lt else ("target higher" if lt > lf else "target lower")
    what = ", ".join(
        f"{BOC.format(b)} (level {board.hexes[b].level}, {board.hexes[b].terrain})"
        for b in blockers
    )
    return f"{rel}; every fire path is blocked by {what} (5.33)"
