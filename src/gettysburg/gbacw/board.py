"""The GBACW map (Three Days of Gettysburg's sheets A, B and C) as the game reads it.

``gbacw/data/board.json`` is derived from the ground model by :mod:`gettysburg.gbacw.mapgen`
and only read here: one JSON file, one row per hex and per hexside that carries something,
loaded once (a fraction of a second) and kept. Hex ids are ``<sheet><XX><YY>``; the codec
(the sheets' origins and sizes) is stored in the file, so the board and its ids never
disagree. A hexside between two hexes of different levels that the file does not list with
a slope class is ``gradual`` (002 §10.23).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from gettysburg.core.hexes import Hex, Hexside, Layout
from gettysburg.core.hexids import HexIdError, SheetOffsetCodec
from gettysburg.core.mapjson import layout_of


class BoardError(ValueError):
    """A malformed board file, or a hex id that is not on the sheets."""


def board_path() -> Path:
    return Path(str(resources.files("gettysburg") / "gbacw" / "data" / "board.json"))


def codec_from(doc: dict[str, Any]) -> SheetOffsetCodec:
    """The sheets' codec a board or config stores (``offset``, ``mirrored``, ``sheets``
    {name: [XX, YY] origin}, ``sizes`` {name: [last XX, last YY]})."""
    try:
        return SheetOffsetCodec(
            sheets={k: (int(v[0]), int(v[1])) for k, v in doc["sheets"].items()},
            sizes={k: (int(v[0]), int(v[1])) for k, v in doc.get("sizes", {}).items()},
            offset=doc["offset"], mirrored=bool(doc["mirrored"]), label="GBACW")
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise BoardError(f"board: field 'codec' is malformed ({exc})") from None


@dataclass(frozen=True)
class HexInfo:
    id: str
    hex: Hex
    level: int
    height_ft: float
    terrain: str  # open, woods, rough-woods, orchard, marsh, rocky, town (the chart's ids)
    # farm, railroad-cut, run (and a road's bridge or ford over it), sunken-road,
    # railroad-bridge
    features: tuple[str, ...]
    sheets: tuple[str, ...]  # every printed sheet the hex is on
    names: tuple[str, ...] = ()
    breastworks: int = 0
    entry: int | None = None


@dataclass(frozen=True)
class RoadOnSide:
    road_class: str  # pike, road, trail, railroad (E-9)
    name: str
    sunken: bool = False


@dataclass(frozen=True)
class SideInfo:
    side: Hexside
    slope: str | None = None  # minor, steep, sheer (None: gradual or level)
    uphill: Hex | None = None
    stream: str | None = None  # creek
    crossing: str | None = None  # bridge, ford (of a road over the stream)
    roads: tuple[RoadOnSide, ...] = ()
    wall: str | None = None  # stone-wall, fence


@dataclass
class Board:
    codec: SheetOffsetCodec
    layout: Layout
    hexes: dict[Hex, HexInfo]
    sides: dict[Hexside, SideInfo]
    meta: dict[str, Any] = field(default_factory=dict)

    def parse(self, hex_id: str) -> Hex:
        """The hex of ``hex_id`` (on any sheet that prints it); an error naming the id if
        it is malformed or off the sheets."""
        try:
            h = self.codec.parse(hex_id)
        except HexIdError as exc:
            raise BoardError(str(exc)) from None
        if h not in self.hexes:
            raise BoardError(f"{hex_id!r} is not a hex of the GBACW sheets")
        return h

    def hex(self, hex_id: str) -> HexInfo:
        return self.hexes[self.parse(hex_id)]

    def side(self, a: Hex, b: Hex) -> SideInfo | None:
        return self.sides.get(Hexside.between(a, b))

    def slope(self, a: Hex, b: Hex) -> str | None:
        """The slope class of the hexside a-b: the listed one, else ``gradual`` where the
        levels differ, else None."""
        s = self.side(a, b)
        if s is not None and s.slope:
            return s.slope
        if a in self.hexes and b in self.hexes and self.hexes[a].level != self.hexes[b].level:
            return "gradual"
        return None

    def uphill(self, a: Hex, b: Hex) -> Hex | None:
        """The higher of two neighbouring hexes (None when level or off the sheets)."""
        if a not in self.hexes or b not in self.hexes:
            return None
        la, lb = self.hexes[a].level, self.hexes[b].level
        return None if la == lb else a if la > lb else b

    def sheet_hexes(self, sheet: str) -> list[Hex]:
        return sorted(h for h, i in self.hexes.items() if sheet in i.sheets)

    def road_neighbours(self, h: Hex) -> list[Hex]:
        """Hexes joined to ``h`` by a road, pike, trail or railroad hexside."""
        return sorted(n for n in h.neighbours()
                      if (s := self.side(h, n)) is not None and s.roads)


def _side_from(row: dict[str, Any], codec: SheetOffsetCodec) -> SideInfo:
    a, b = codec.parse(row["a"]), codec.parse(row["b"])
    return SideInfo(
        side=Hexside.between(a, b),
        slope=row.get("slope"),
        uphill=codec.parse(row["uphill"]) if row.get("uphill") else None,
        stream=row.get("stream"),
        crossing=row.get("crossing"),
        roads=tuple(RoadOnSide(road_class=r["class"], name=r["name"],
                               sunken=bool(r.get("sunken", False)))
                    for r in row.get("roads", [])),
        wall=row.get("wall"),
    )


def board_from_json(doc: dict[str, Any]) -> Board:
    codec = codec_from(doc.get("codec", {}))
    layout = layout_of(doc)
    hexes: dict[Hex, HexInfo] = {}
    for row in doc.get("hexes", []):
        try:
            h = codec.parse(row["id"])
            hexes[h] = HexInfo(
                id=row["id"], hex=h, level=int(row["level"]), height_ft=float(row["height_ft"]),
                terrain=str(row["terrain"]), features=tuple(row.get("features", [])),
                sheets=tuple(row["sheets"]), names=tuple(row.get("names", [])),
                breastworks=int(row.get("breastworks", 0)), entry=row.get("entry"))
        except (KeyError, TypeError, ValueError, HexIdError) as exc:
            raise BoardError(f"board: hex {row.get('id')!r}: {exc}") from None
    sides: dict[Hexside, SideInfo] = {}
    for row in doc.get("hexsides", []):
        try:
            s = _side_from(row, codec)
        except (KeyError, TypeError, ValueError, HexIdError) as exc:
            raise BoardError(f"board: hexside {row.get('a')}/{row.get('b')}: {exc}") from None
        sides[s.side] = s
    return Board(codec=codec, layout=layout, hexes=hexes, sides=sides,
                 meta=dict(doc.get("meta", {})))


@cache
def _load_default() -> Board:
    return board_from_json(json.loads(board_path().read_text(encoding="utf-8")))


def load_board(path: Path | None = None) -> Board:
    """The board (the package's file, read once; or ``path``)."""
    if path is None:
        return _load_default()
    return board_from_json(json.loads(path.read_text(encoding="utf-8")))
