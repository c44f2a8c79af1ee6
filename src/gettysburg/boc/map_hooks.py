"""BoC's answers to the ``map`` and ``inspect`` commands (:class:`MapHooks`): re-derive
the board, draw it, and say what the board holds about a hex, a firing cone (5.31) or a
line of sight (5.33). Imported only when a command asks, so the CLI stays quick."""

from __future__ import annotations

import json
from pathlib import Path

from gettysburg.boc.board import BOC, Board, board_path, load_board
from gettysburg.boc.los import cone_targets, line_of_sight
from gettysburg.core.canonical import JSONDict
from gettysburg.core.hexes import Hexside
from gettysburg.core.system import MapBuild


def build() -> MapBuild:
    from gettysburg.boc.mapgen import derive_board
    from gettysburg.core.battlefield import load_battlefield

    board = derive_board(load_battlefield())
    text = json.dumps(board.to_json(), indent=1, sort_keys=True) + "\n"
    return MapBuild(text, board_path(), f"{len(board.hexes)} hexes, {len(board.sides)} hexsides")


def render(out: Path, ids: bool, sheet: str | None) -> Path:
    if sheet is not None:
        raise ValueError(f"--sheet {sheet!r}: the Badges of Courage map is one sheet")
    from gettysburg.boc.render import render_board  # matplotlib: only when drawing

    return render_board(load_board(), out, ids=ids)


def _board() -> Board:
    return load_board()


def inspect_hex(hex_id: str) -> JSONDict:
    """Terrain, level, stacking and the six hexsides of one hex."""
    board = _board()
    info = board.hex(hex_id)
    sides = []
    for n in info.hex.neighbours():
        s = board.sides.get(Hexside.between(info.hex, n))
        sides.append({
            "to": BOC.format(n) if n.r <= -1 and n.q >= 1 else None,
            "on_map": n in board.hexes,
            "terrain": sorted(s.terrain) if s else [],
            "slope": s.slope if s else None,
            "uphill": BOC.format(s.uphill) if s and s.uphill else None,
            "roads": [{"name": r.name, "class": r.road_class, "crossing": r.crossing}
                      for r in (s.roads if s else ())],
        })
    return {
        "id": info.id,
        "terrain": info.terrain,
        "ground": info.ground,
        "level": info.level,
        "stacking": info.stacking,
        "double_defence": info.double_defence,
        "height_ft": round(info.height_ft),
        "names": list(info.names),
        "victory": info.victory,
        "entries": list(info.entries),
        "edge": info.edge,
        "hexsides": sides,
    }


def inspect_cone(origin: str, through: str) -> JSONDict:
    """The target hexes of artillery in ``origin`` firing through ``through`` (5.31)."""
    board = _board()
    o, t = board.parse(origin), board.parse(through)
    targets = cone_targets(board, o, t)
    return {"from": BOC.format(o), "through": BOC.format(t),
            "targets": [BOC.format(h) for h in targets], "rule": "5.31"}


def inspect_los(origin: str, target: str, through: str | None) -> JSONDict:
    """Long-range artillery line of sight from ``origin`` to ``target`` (5.33)."""
    board = _board()
    o, t = board.parse(origin), board.parse(target)
    thr = board.parse(through) if through else None
    return line_of_sight(board, o, t, thr).to_json()
