"""GBACW's answers to the ``map`` and ``inspect`` commands (:class:`MapHooks`) and its map
JSON for the web client: re-derive the three sheets, draw one, say what the board holds
about a hex. Imported only when asked, so the command line stays quick."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from gettysburg.core.canonical import JSONDict
from gettysburg.core.geo import GETTYSBURG
from gettysburg.core.hexes import Hexside
from gettysburg.core.mapjson import hex_map_json
from gettysburg.core.system import MapBuild
from gettysburg.gbacw.board import Board, board_path, load_board

#: The web client's drawing classes for the chart's terrains (it colours these).
DRAWN_AS = {"open": "clear", "woods": "woods", "rough-woods": "woods", "orchard": "orchard",
            "marsh": "marsh", "rocky": "rocks", "town": "town"}


def build() -> MapBuild:
    from gettysburg.core.battlefield import load_battlefield
    from gettysburg.gbacw.mapgen import board_text, derive, registration_report

    doc = derive(load_battlefield())
    # The residuals are printed with the counts (docs/gbacw-map-registration.md keeps them).
    return MapBuild(board_text(doc), board_path(),
                    f"{len(doc['hexes'])} hexes, {len(doc['hexsides'])} hexsides\n"
                    + registration_report(doc))


def render(out: Path, ids: bool, sheet: str | None) -> Path:
    from gettysburg.gbacw.render import render_sheet  # matplotlib: only when drawing

    return render_sheet(load_board(), out, sheet=sheet, ids=ids)


def inspect_hex(hex_id: str) -> JSONDict:
    """Where a hex lies, its level, terrain and features, and its six hexsides."""
    board = load_board()
    info = board.hex(hex_id)
    lon, lat = GETTYSBURG.to_lonlat(*board.layout.to_plane(info.hex))
    sides = []
    for n in info.hex.neighbours():
        s = board.sides.get(Hexside.between(info.hex, n))
        other = board.hexes.get(n)
        sides.append({
            "to": other.id if other else None,
            "on_map": other is not None,
            "slope": board.slope(info.hex, n),
            "uphill": board.hexes[up].id if (up := board.uphill(info.hex, n)) else None,
            "stream": s.stream if s else None,
            "crossing": s.crossing if s else None,
            "road": s.roads[0].road_class if s and s.roads else None,  # the best class
            "roads": [{"class": r.road_class, "name": r.name, "sunken": r.sunken}
                      for r in (s.roads if s else ())],
            "wall": s.wall if s else None,
        })
    return {
        "id": info.id,
        "sheets": list(info.sheets),
        "center": [round(lon, 6), round(lat, 6)],
        "level": info.level,
        "height_ft": round(info.height_ft),
        "terrain": info.terrain,
        "features": list(info.features),
        "names": list(info.names),
        "breastworks": info.breastworks,
        "entry_area": info.entry,
        "hexsides": sides,
    }


def inspect_los(origin: str, target: str, through: str | None) -> JSONDict:
    """Line of sight from ``origin`` to ``target`` (002 §10.2, 004 §10.23, §9.83): the
    verdict, the rule and reason, and the hexes the line crosses. GBACW traces sight all
    round (002 §10.21), so there is no fired-through hexside to give."""
    from gettysburg.gbacw.los import line_of_sight, sight_json

    if through is not None:
        raise ValueError("--through: GBACW's line of sight has no fired-through hexside "
                         "(002 §10.21: the firer's front is checked apart)")
    board = load_board()
    o, t = board.parse(origin), board.parse(target)
    doc: JSONDict = {"system": "gbacw"}
    doc.update(sight_json(board, o, t, line_of_sight(board, o, t)))
    return doc


def map_json(board: Board | None = None) -> JSONDict:
    """All three sheets as one hex map for the web client (docs/maps.md): each hex with
    its chart terrain and the client's drawing class, its level (also as ``ground``, the
    field the client shades and names) and its first sheet;
    hexsides with creeks, slopes other than gradual, roads and walls."""
    b = board or load_board()
    doc = json.loads(board_path().read_text(encoding="utf-8")) if board is None else None
    layout = (doc or {}).get("layout") or {
        "basis_q": list(b.layout.basis_q), "basis_r": list(b.layout.basis_r),
        "origin": list(b.layout.origin)}
    hexes: list[dict[str, Any]] = []
    for h in sorted(b.hexes):
        i = b.hexes[h]
        row: dict[str, Any] = {"id": i.id, "terrain": DRAWN_AS.get(i.terrain, "clear"),
                               "chart_terrain": i.terrain, "level": i.level,
                               "ground": i.level, "sheet": i.sheets[0]}
        if i.features:
            row["features"] = list(i.features)
        if i.names:
            row["names"] = list(i.names)
        hexes.append(row)
    sides: list[dict[str, Any]] = []
    for key in sorted(b.sides):
        s = b.sides[key]
        row = {"a": b.codec.format(key.a), "b": b.codec.format(key.b)}
        if s.stream:
            row["terrain"] = [s.stream]
        if s.slope:
            row["slope"] = s.slope
        if s.roads:
            row["roads"] = [{"class": r.road_class, "name": r.name,
                             "rail": r.road_class == "railroad"} for r in s.roads]
        if s.wall:
            row["wall"] = s.wall
        sides.append(row)
    return hex_map_json({"layout": layout, "hexes": hexes, "hexsides": sides,
                         "sheets": sorted({x for i in b.hexes.values() for x in i.sheets})},
                        b.codec)
