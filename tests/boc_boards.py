"""Small hand-built boards for rule tests (positions set up, not derived)."""

from __future__ import annotations

from gettysburg.boc.board import BOC, STACKING, Board, HexInfo
from gettysburg.core.hexes import Hex, Layout, disc


def make_board(
    cells: dict[str, tuple[str, int]], fill_radius: int = 0, centre: str = "Q10"
) -> Board:
    """A board of the given hexes: id -> (terrain, ground level).

    With ``fill_radius`` the disc around ``centre`` is filled with clear level-0
    hexes first, so neighbours exist.
    """
    hexes: dict[Hex, HexInfo] = {}
    base = [*disc(BOC.parse(centre), fill_radius)] if fill_radius else []
    for h in base:
        if h.q >= 1 and h.r <= -1:
            hexes[h] = _info(h, "clear", 0)
    for hid, (terrain, ground) in cells.items():
        h = BOC.parse(hid)
        hexes[h] = _info(h, terrain, ground)
    layout = Layout((0.0, -430.0), (372.4, -215.0), (0.0, 0.0))
    return Board(hexes=hexes, sides={}, layout=layout)


def _info(h: Hex, terrain: str, ground: int) -> HexInfo:
    return HexInfo(
        id=BOC.format(h),
        hex=h,
        terrain=terrain,  # type: ignore[arg-type]
        ground=ground,
        stacking=STACKING[terrain],
        double_defence=terrain in ("woods", "rocks"),
        height_ft=500.0 + 40 * ground,
    )
