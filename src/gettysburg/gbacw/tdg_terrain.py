"""Terrain specials of Gettysburg still outside movement and line of sight (004 §9.83,
§9.84, §9.88; ``tdg.9.83`` etc.).

Already elsewhere: the Lott's Ridge bridge (§9.81), the unfinished railroad as a trail
(§9.82), entering a cut only along the bed and seeing into it (§9.83, ``movement``, ``los``),
creeks and farms for movement (§9.85, §9.87), town movement and sight (§9.86, §10.23). Here:
the fire modifiers of a cut, shock into or out of a cut, fire from and into the sunken road,
and the off-map roads of map C.
"""

from __future__ import annotations

from collections.abc import Collection

from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import RuleError

from .board import Board
from .charts import all_charts
from .los import along_road, ground, trace

CUT = "railroad-cut"
SUNKEN = "sunken-road"


def in_cut(board: Board, h: Hex) -> bool:
    """Whether ``h`` is a railroad cut hex (004 §9.83)."""
    return CUT in board.hexes[h].features


def cut_fire_drm(board: Board, firer: Hex, target: Hex) -> int:
    """tdg.9.83: +2 on fire into a railroad cut, -2 on fire out of one (the terrain chart's
    values). Whether the shot may be taken at all is line of sight's (``los.railroad_cut``)."""
    row = all_charts().terrain.get(CUT)
    drm = 0
    if in_cut(board, target):
        drm += row.fire_drm or 0
    if in_cut(board, firer):
        drm += row.fire_drm_firing_out or 0
    return drm


def _along_bed(board: Board, a: Hex, b: Hex) -> bool:
    side = board.side(a, b)
    return side is not None and any(
        r.road_class == "railroad" or "railroad" in r.name.lower() for r in side.roads)


def check_cut_shock(board: Board, attacker: Hex, defender: Hex) -> None:
    """tdg.9.83: a shock into or out of a railroad cut goes only along the railroad bed."""
    if (in_cut(board, attacker) or in_cut(board, defender)) and not _along_bed(
            board, attacker, defender):
        raise RuleError("tdg.9.83", "a shock into or out of a railroad cut goes along the "
                        "railroad bed only")


def _along_sunken_road(board: Board, a: Hex, b: Hex) -> bool:
    steps = trace(a, b)
    g = ground(board)
    if not along_road(g, steps):
        return False
    hexes = [s[0] for s in steps]
    return all(SUNKEN in board.hexes[h].features for h in hexes if h in board.hexes)


def check_sunken_road_artillery(board: Board, battery: Hex, target: Hex) -> None:
    """tdg.9.84: a battery in the sunken road fires only along the road at targets on it."""
    if SUNKEN not in board.hexes[battery].features:
        return
    if SUNKEN not in board.hexes[target].features or not _along_sunken_road(
            board, battery, target):
        raise RuleError("tdg.9.84", "artillery in the sunken road fires only along it, at "
                        "targets on it")


def sunken_road_fire_drm(board: Board, firer: Hex, target: Hex) -> int:
    """tdg.9.84: the sunken road's trench benefit (the terrain chart's substitute row) for a
    target in it, except against fire along the road."""
    if SUNKEN not in board.hexes[target].features or _along_sunken_road(board, firer, target):
        return 0
    return all_charts().terrain.get(SUNKEN).fire_drm or 0


def check_off_map_move(to: Hex, enemy_on_off_map_road: Collection[Hex]) -> None:
    """tdg.9.88: no unit moves next to an enemy unit that is using an off-map road of map C
    (the enemy's entry hexes where it left or will enter stand for its place)."""
    if any(to.distance(h) <= 1 for h in enemy_on_off_map_road):
        raise RuleError("tdg.9.88", "no unit may move next to an enemy unit on an off-map road")
