"""The Badges of Courage board: every hex and hexside with what the rules need.

The board is *derived* from the battlefield model by :mod:`gettysburg.boc.mapgen`
and stored as ``boc/data/board.json`` (regenerate with ``gettysburg map build
--system boc``; a test keeps the file in step with the derivation). This module
only holds and queries it; it knows nothing of GeoJSON.

Terrain vocabulary follows the rulebook's terrain chart (2.2, 2.3):
hex terrain ``clear | woods | orchard | town | marsh | rocks``; hexside terrain
any of ``woods orchard town marsh river creek``, a slope ``rise | hill`` with the
uphill hex, and roads ``main | secondary`` (railroads count as secondary, 2.2)
with an optional ``bridge | ford`` where a road crosses a stream.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache, cached_property
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from gettysburg.core.hexes import Hex, Hexside, Layout
from gettysburg.core.hexids import HexIdError, LettersNumberCodec

#: BoC's hex ids: a letter and a number on an axial grid (``Q10``; letter = q from A=1,
#: number = -r), so (letter+1, number+1) is a neighbour (spec/boc-facts.md section 1).
BOC = LettersNumberCodec(label="Badges of Courage")

HexTerrain = Literal["clear", "woods", "orchard", "town", "marsh", "rocks"]
SideTerrain = Literal["woods", "orchard", "town", "marsh", "river", "creek"]
Slope = Literal["rise", "hill"]
RoadClass = Literal["main", "secondary"]

# Stacking by hex terrain (2.2 terrain chart; R7 is an override).
STACKING: dict[str, int] = {
    "clear": 4,
    "woods": 3,
    "orchard": 3,
    "town": 3,
    "marsh": 2,
    "rocks": 2,
}
# Terrain that raises a hex by one level for line of sight (2.3, chart "LOS").
TALL_TERRAIN = frozenset({"woods", "orchard", "town", "rocks"})


class BoardError(ValueError):
    """A hex id that is not on the board, or a malformed board file."""


@dataclass(frozen=True)
class RoadOnSide:
    road: str  # battlefield feature id
    name: str
    road_class: RoadClass
    crossing: Literal["bridge", "ford"] | None = None
    rail: bool = False  # railroad or unfinished bed: secondary road for movement (2.2)


@dataclass(frozen=True)
class HexInfo:
    id: str
    hex: Hex
    terrain: HexTerrain
    ground: int  # 0 base, 1 rise, 2 hill (2.3)
    stacking: int
    double_defence: bool
    height_ft: float
    names: tuple[str, ...] = ()
    victory: int = 0
    entries: tuple[str, ...] = ()  # entry roads that start here (6.7)
    edge: bool = False

    @property
    def level(self) -> int:
        """Level as an obstacle to line of sight: ground + 1 for trees/town/rocks."""
        return self.ground + (1 if self.terrain in TALL_TERRAIN else 0)


@dataclass(frozen=True)
class SideInfo:
    side: Hexside
    terrain: frozenset[str] = frozenset()
    slope: Slope | None = None
    uphill: Hex | None = None  # the higher hex, if there is a slope
    roads: tuple[RoadOnSide, ...] = ()

    def is_uphill(self, from_hex: Hex, to_hex: Hex) -> bool:
        return self.slope is not None and self.uphill == to_hex


@dataclass
class Board:
    """The derived BoC board."""

    hexes: dict[Hex, HexInfo]
    sides: dict[Hexside, SideInfo]
    layout: Layout  # axial -> local metres (see gettysburg.core.geo)
    meta: dict[str, Any] = field(default_factory=dict)

    # -- ids -------------------------------------------------------------------------
    @cached_property
    def _ids(self) -> dict[str, Hex]:
        # The rules look up tens of thousands of ids a game, and boards are not changed
        # once loaded (``control.index``).
        return {info.id: h for h, info in self.hexes.items()}

    def parse(self, hex_id: str) -> Hex:
        got = self._ids.get(hex_id)  # the board's own ids, from a table
        if got is not None:
            return got
        try:
            h = BOC.parse(hex_id)
        except HexIdError as exc:
            raise BoardError(str(exc)) from None
        if h not in self.hexes:
            raise BoardError(f"{hex_id!r} is not a hex of the Badges of Courage map")
        return h

    @cached_property
    def _infos(self) -> dict[str, HexInfo]:
        # Hex id -> its data: the rules ask for a hex's data by id thousands of times a
        # game (stacking limits, terrain); issue 59.
        return {info.id: info for info in self.hexes.values()}

    def hex(self, key: str | Hex) -> HexInfo:
        if isinstance(key, str):
            got = self._infos.get(key)
            if got is not None:
                return got
        h = self.parse(key) if isinstance(key, str) else key
        try:
            return self.hexes[h]
        except KeyError:
            raise BoardError(f"{h} is not a hex of the Badges of Courage map") from None

    def side(self, a: str | Hex, b: str | Hex) -> SideInfo:
        ha = self.parse(a) if isinstance(a, str) else a
        hb = self.parse(b) if isinstance(b, str) else b
        try:
            key = Hexside.between(ha, hb)
        except ValueError:
            raise BoardError(f"{BOC.format(ha)} and {BOC.format(hb)} are not adjacent") from None
        return self.sides.get(key, SideInfo(side=key))

    # -- the BoardLike protocol used by scenario loading -----------------------------
    def has_hex(self, hex_id: str) -> bool:
        try:
            self.parse(hex_id)
        except BoardError:
            return False
        return True

    def stacking_limit(self, hex_id: str) -> int:
        return self.hex(hex_id).stacking

    def neighbours(self, hex_id: str) -> list[str]:
        h = self.parse(hex_id)
        return [BOC.format(n) for n in h.neighbours() if n in self.hexes]

    def on_map_neighbours(self, h: Hex) -> Iterator[Hex]:
        for n in h.neighbours():
            if n in self.hexes:
                yield n

    def entry_hexes(self, road_name: str) -> list[HexInfo]:
        key = road_name.lower()
        return [info for info in self.hexes.values() if any(e.lower() == key for e in info.entries)]

    def victory_hexes(self) -> list[HexInfo]:
        return sorted((i for i in self.hexes.values() if i.victory), key=lambda i: i.hex)

    # -- serialisation -----------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        hexes = []
        for h in sorted(self.hexes):
            i = self.hexes[h]
            row: dict[str, Any] = {
                "id": i.id,
                "terrain": i.terrain,
                "ground": i.ground,
                "stacking": i.stacking,
                "d2": i.double_defence,
                "height_ft": round(i.height_ft, 1),
            }
            if i.names:
                row["names"] = list(i.names)
            if i.victory:
                row["victory"] = i.victory
            if i.entries:
                row["entries"] = list(i.entries)
            if i.edge:
                row["edge"] = True
            hexes.append(row)
        sides = []
        for key in sorted(self.sides):
            s = self.sides[key]
            if not (s.terrain or s.slope or s.roads):
                continue
            srow: dict[str, Any] = {"a": BOC.format(key.a), "b": BOC.format(key.b)}
            if s.terrain:
                srow["terrain"] = sorted(s.terrain)
            if s.slope:
                srow["slope"] = s.slope
                srow["uphill"] = BOC.format(s.uphill) if s.uphill else None
            if s.roads:
                srow["roads"] = [
                    {
                        "road": r.road,
                        "name": r.name,
                        "class": r.road_class,
                        **({"crossing": r.crossing} if r.crossing else {}),
                        **({"rail": True} if r.rail else {}),
                    }
                    for r in s.roads
                ]
            sides.append(srow)
        lay = self.layout
        return {
            "system": "boc",
            "meta": self.meta,
            "layout": {
                "basis_q": [round(v, 4) for v in lay.basis_q],
                "basis_r": [round(v, 4) for v in lay.basis_r],
                "origin": [round(v, 4) for v in lay.origin],
            },
            "hexes": hexes,
            "hexsides": sides,
        }

    @staticmethod
    def from_json(doc: dict[str, Any]) -> Board:
        try:
            lay = doc["layout"]
            layout = Layout(
                basis_q=(float(lay["basis_q"][0]), float(lay["basis_q"][1])),
                basis_r=(float(lay["basis_r"][0]), float(lay["basis_r"][1])),
                origin=(float(lay["origin"][0]), float(lay["origin"][1])),
            )
            hexes: dict[Hex, HexInfo] = {}
            for row in doc["hexes"]:
                h = BOC.parse(row["id"])
                hexes[h] = HexInfo(
                    id=row["id"],
                    hex=h,
                    terrain=row["terrain"],
                    ground=int(row["ground"]),
                    stacking=int(row["stacking"]),
                    double_defence=bool(row["d2"]),
                    height_ft=float(row["height_ft"]),
                    names=tuple(row.get("names", ())),
                    victory=int(row.get("victory", 0)),
                    entries=tuple(row.get("entries", ())),
                    edge=bool(row.get("edge", False)),
                )
            sides: dict[Hexside, SideInfo] = {}
            for row in doc["hexsides"]:
                a, b = BOC.parse(row["a"]), BOC.parse(row["b"])
                key = Hexside.between(a, b)
                uphill = BOC.parse(row["uphill"]) if row.get("uphill") else None
                sides[key] = SideInfo(
                    side=key,
                    terrain=frozenset(row.get("terrain", ())),
                    slope=row.get("slope"),
                    uphill=uphill,
                    roads=tuple(
                        RoadOnSide(
                            road=r["road"],
                            name=r["name"],
                            road_class=r["class"],
                            crossing=r.get("crossing"),
                            rail=bool(r.get("rail", False)),
                        )
                        for r in row.get("roads", ())
                    ),
                )
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise BoardError(f"board file: malformed ({type(exc).__name__}: {exc})") from exc
        return Board(hexes=hexes, sides=sides, layout=layout, meta=dict(doc.get("meta", {})))


def board_path() -> Path:
    return Path(str(resources.files("gettysburg") / "boc" / "data" / "board.json"))


@cache
def load_board(path: str | None = None) -> Board:
    """The shipped board (cached: it is immutable)."""
    p = Path(path) if path else board_path()
    try:
        doc = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise BoardError(f"{p}: cannot read board: {exc}") from exc
    return Board.from_json(doc)
