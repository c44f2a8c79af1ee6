"""Victory points (9.1, 9.11, 9.12) and the verdict bands.

The CSA player scores the victory hexes that are CSA-friendly in the 6.6 control snapshot
(neutral and USA hexes score nothing, 9.11), plus the difference of eliminated units
(USA losses minus CSA losses, 9.12). Losses include fallen leaders (4.61: every eliminated
HQ gives the enemy a "fallen" block even when rebuilt) and the units a scenario lists as
already eliminated. Units that left the map do not count (2.4).
"""

from __future__ import annotations

from gettysburg.boc.board import Board
from gettysburg.boc.state import BocState
from gettysburg.core.canonical import JSONDict

# 9.1 the standard bands; the Day 1 stand-alone bands (<= 4 USA, 5-9 draw, >= 10 CSA)
# come from the Day 1 scenario file.
STANDARD_BANDS = {"csa_win_min": 10, "usa_win_max": -1}


def terrain_points(board: Board, state: BocState) -> int:
    control = state.control
    total = 0
    for hx, points in _victory_points(board):  # a plain loop: every view asks (issue 59)
        if control.get(hx) == "csa":
            total += points
    return total


def _victory_points(board: Board) -> tuple[tuple[str, int], ...]:
    """(hex, VP) of the board's victory hexes, kept on the board (boards are not changed
    once loaded, as ``control.index`` holds): every view asks (issue 59)."""
    got = board.__dict__.get("_boc_victory_points")
    if not isinstance(got, tuple):
        got = tuple((info.id, info.victory) for info in board.victory_hexes())
        board.__dict__["_boc_victory_points"] = got
    return got


def csa_total(board: Board, state: BocState) -> JSONDict:
    terrain = terrain_points(board, state)
    usa, csa = state.losses["usa"], state.losses["csa"]
    return {"terrain": terrain, "usa_losses": usa, "csa_losses": csa,
            "total": terrain + usa - csa}


def verdict(total: int, bands: dict[str, int]) -> str | None:
    """The winner for a CSA total (``None`` = draw)."""
    if total >= bands["csa_win_min"]:
        return "csa"
    if total <= bands["usa_win_max"]:
        return "usa"
    return None
