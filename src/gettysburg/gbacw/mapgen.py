"""Derive the three GBACW map sheets (A, B, C) from the one battlefield model.

The generic steps are the core's (:func:`~gettysburg.core.topology.register_grid`,
:func:`~gettysburg.core.topology.sheet_hexes`, and :mod:`gettysburg.core.mapderive`: hex and
hexside sampling, lines traced hex by hex, crossings, exits, place names); this module keeps
GBACW's choices, all read from ``gbacw/data/mapgen.yaml``. Deterministic: the same ground
and config give the same ``board.json``, byte for byte. Steps:

1. register the ``<sheet><XX><YY>`` grid on the ground (least squares over the hexes seed
   004 ties to a landmark) and keep every sheet hex whose centre lies on the ground model;
2. per hex: elevation level in 20-ft steps (minor patches dropped), terrain class of the
   Terrain Effects Chart, farms (two buildings), runs, railroad cuts;
3. per hexside: slope class where levels differ, creeks, walls and fences;
4. roads, pikes, trails and the railroad as hex-to-hex links, with bridges and fords;
5. the book-forced exceptions (town, sunken road, railroad bridge, breastworks), each
   citing its 004 section, entry areas 1-14 (substitutes) and names of places.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import yaml
from pydantic import BaseModel, ConfigDict, Field

from gettysburg.core.battlefield import Battlefield, Feature
from gettysburg.core.geo import GETTYSBURG, Registration
from gettysburg.core.hexes import Hex, Hexside
from gettysburg.core.hexids import HexCodec, HexIdError, SheetOffsetCodec
from gettysburg.core.mapderive import (
    centre_segment,
    chain_sides,
    crossing_near,
    exit_hex,
    footprint,
    place_names,
    sample_hex,
    sample_side,
    trace_line,
)
from gettysburg.core.topology import HexGrid, register_grid, sheet_hexes
from gettysburg.gbacw.board import board_from_json, codec_from

# --- configuration ------------------------------------------------------------------


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SheetCfg(_Strict):
    origin: tuple[int, int]
    columns: tuple[int, int]
    rows: tuple[int, int]
    source: str


class Extent(_Strict):
    west: float
    east: float
    south: float
    north: float


class GridCfg(_Strict):
    offset: str
    mirrored: bool
    sheets: dict[str, SheetCfg]
    extent: Extent
    hex_yards: float


class Anchor(_Strict):
    hex: str
    label: str
    lat: float
    lon: float
    cites: str
    source: str


class Levels(_Strict):
    datum_ft: float
    step_ft: float = Field(gt=0)
    drop_patch_hexes: int = Field(ge=0)


class TerrainCfg(_Strict):
    town_share: float
    woods_share: float
    marsh_share: float
    orchard_share: float
    rocks_share: float
    rough_relief_ft: float
    farm_buildings: int = Field(ge=1)


class Slopes(_Strict):
    minor_ft_per_hex: float
    steep_ft_per_hex: float
    sheer_ft_per_hex: float


class Forced(_Strict):
    hexes: list[str]
    rule: str


class SunkenRoad(_Strict):
    road: str
    sheet: str
    rule: str


class Breastworks(_Strict):
    hexes: dict[str, int]
    rule: str


class RailroadCut(_Strict):
    prominence_ft: float
    peak_m: float
    window_m: float
    book_hexes: list[str] = Field(default_factory=list)
    book_within: int = 4
    rule: str


class EntryArea(_Strict):
    area: int
    road: str | None = None
    hex: str | None = None
    substitute: bool
    reason: str


class MapgenConfig(_Strict):
    grid: GridCfg
    registration: list[Anchor]
    levels: Levels
    terrain: TerrainCfg
    slopes: Slopes
    streams: dict[str, str]
    road_classes: dict[str, str]
    road_min_run_m: float
    railroad_cut: RailroadCut
    town_hexes: Forced
    sunken_road: SunkenRoad
    railroad_bridge: Forced
    breastworks: Breastworks
    entry_areas: list[EntryArea]


def config_path() -> Path:
    return Path(str(resources.files("gettysburg") / "gbacw" / "data" / "mapgen.yaml"))


def load_config(path: Path | None = None) -> MapgenConfig:
    p = path or config_path()
    return MapgenConfig.model_validate(yaml.safe_load(p.read_text(encoding="utf-8")))


def codec_json(cfg: MapgenConfig) -> dict[str, Any]:
    g = cfg.grid
    return {"offset": g.offset, "mirrored": g.mirrored,
            "sheets": {k: list(s.origin) for k, s in sorted(g.sheets.items())},
            "sizes": {k: [s.columns[1], s.rows[1]] for k, s in sorted(g.sheets.items())}}


def make_codec(cfg: MapgenConfig) -> SheetOffsetCodec:
    return codec_from(codec_json(cfg))


#: The ground model's features only GBACW (and Machango) read: walls, fences and farm
#: buildings (walls.geojson, buildings.geojson; see docs/battlefield.md).
EXTRA_KINDS = ("stone_wall", "fence", "building")


def load_extras(bf: Battlefield) -> list[Feature]:
    return sorted(bf.of_kind(*EXTRA_KINDS), key=lambda f: f.id)


def parse_hex(codec: HexCodec, hex_id: str, where: str) -> Hex:
    """A hex id of the config, with an error naming the config entry if it is bad."""
    try:
        return codec.parse(hex_id)
    except HexIdError as exc:
        raise ValueError(f"mapgen.yaml {where}: {hex_id}: {exc}") from None


# --- step 1: registration and the sheets --------------------------------------------


def register(cfg: MapgenConfig, codec: SheetOffsetCodec | None = None) -> Registration:
    return register_grid(codec or make_codec(cfg),
                         [(a.label, a.hex, a.lon, a.lat) for a in cfg.registration])


def sheet_offset_fits(cfg: MapgenConfig, sheet: str = "A",
                      yy: Iterable[int] = range(28, 37),
                      xx: Iterable[int] = (-1, 0, 1)) -> list[tuple[float, int, int]]:
    """The registration's RMS (m) for each trial origin of ``sheet``, best first: the
    evidence for the offset the config keeps (004 does not state sheet A's)."""
    out = []
    base = codec_json(cfg)
    for dx in xx:
        for dy in yy:
            trial = {**base, "sheets": {**base["sheets"], sheet: [dx, dy]}}
            out.append((round(register(cfg, codec_from(trial)).rms_m, 1), dx, dy))
    return sorted(out)


def grid_of(cfg: MapgenConfig, reg: Registration) -> HexGrid:
    """Every hex of every sheet's kept range whose centre lies on the ground model."""
    codec = make_codec(cfg)
    ext = cfg.grid.extent
    per_sheet: dict[str, tuple[Hex, ...]] = {}
    for name, s in sorted(cfg.grid.sheets.items()):
        keep = []
        for h in sheet_hexes(codec, name, s.columns, s.rows):
            lon, lat = GETTYSBURG.to_lonlat(*reg.layout.to_plane(h))
            if ext.west <= lon <= ext.east and ext.south <= lat <= ext.north:
                keep.append(h)
        per_sheet[name] = tuple(keep)
    hexes = sorted({h for hs in per_sheet.values() for h in hs})
    return HexGrid(codec=codec, layout=reg.layout, hexes=tuple(hexes), sheets=per_sheet)


# --- step 2: hexes --------------------------------------------------------------------


@dataclass
class _Hex:
    hex: Hex
    mean_ft: float
    spread_ft: float
    shares: dict[str, float]
    level: int = 0
    terrain: str = "open"
    features: set[str] = field(default_factory=set)
    names: list[str] = field(default_factory=list)
    breastworks: int = 0
    entry: int | None = None


def _level(height_ft: float, lv: Levels) -> int:
    return max(0, math.floor((height_ft - lv.datum_ft) / lv.step_ft + 0.5))


def drop_minor_patches(levels: dict[Hex, int], max_hexes: int) -> int:
    """004 2.42 (3rd edition): a patch of at most ``max_hexes`` hexes of one level that
    stands one level above (or below) every hex round it takes their level. Returns how
    many hexes changed. Patches are visited in hex order, so the result is fixed."""
    changed = 0
    seen: set[Hex] = set()
    for start in sorted(levels):
        if start in seen:
            continue
        lvl = levels[start]
        patch, todo = {start}, [start]
        while todo and len(patch) <= max_hexes:
            h = todo.pop()
            for n in h.neighbours():
                if n in levels and n not in patch and levels[n] == lvl:
                    patch.add(n)
                    todo.append(n)
        seen |= patch
        if len(patch) > max_hexes:
            continue
        ring = {levels[n] for h in patch for n in h.neighbours() if n in levels and n not in patch}
        if len(ring) == 1 and abs(next(iter(ring)) - lvl) == 1:
            new = next(iter(ring))
            for h in patch:
                levels[h] = new
            changed += len(patch)
    return changed


def classify_hexes(bf: Battlefield, grid: HexGrid, cfg: MapgenConfig,
                   forced_town: set[Hex]) -> dict[Hex, _Hex]:
    th = cfg.terrain
    work: dict[Hex, _Hex] = {}
    for h in grid.hexes:
        got = sample_hex(bf, grid.layout, h)
        spread = got.percentile_ft(90) - got.percentile_ft(10)
        w = _Hex(hex=h, mean_ft=got.mean_ft, spread_ft=spread, shares=got.shares)
        sh = got.shares
        if h in forced_town or sh["town"] >= th.town_share:
            w.terrain = "town"
        elif sh["rocks"] >= th.rocks_share:
            w.terrain = "rocky"  # the boulder fields outrank the trees and wet ground round them
        elif sh["marsh"] >= th.marsh_share:
            w.terrain = "marsh"
        elif sh["woods"] >= th.woods_share:
            w.terrain = "rough-woods" if spread >= th.rough_relief_ft else "woods"
        elif sh["orchard"] >= th.orchard_share:
            w.terrain = "orchard"
        work[h] = w
    levels = {h: _level(w.mean_ft, cfg.levels) for h, w in work.items()}
    drop_minor_patches(levels, cfg.levels.drop_patch_hexes)
    for h, lvl in levels.items():
        work[h].level = lvl
    return work


def mark_farms(work: dict[Hex, _Hex], grid: HexGrid, extras: list[Feature],
               cfg: MapgenConfig) -> None:
    """004 9.87: a hex holding at least two farm buildings (town hexes excepted)."""
    count: dict[Hex, int] = {}
    for f in extras:
        if f.kind != "building":
            continue
        h = grid.layout.hex_at(f.geom.x, f.geom.y)
        if h in work:
            count[h] = count.get(h, 0) + 1
    for h, n in count.items():
        if n >= cfg.terrain.farm_buildings and work[h].terrain != "town":
            work[h].features.add("farm")


def mark_runs(bf: Battlefield, work: dict[Hex, _Hex], lines: dict[str, list[Hex]],
              cfg: MapgenConfig) -> None:
    """004 9.85: watercourses through the hex (the ground's creeks, by default)."""
    for f in sorted(bf.of_kind("stream"), key=lambda f: f.id):
        if cfg.streams.get(str(f.props.extra("class", "creek"))) != "run":
            continue
        for h in lines.get(f.id, []):
            work[h].features.add("run")


def mark_run_crossings(bf: Battlefield, work: dict[Hex, _Hex], grid: HexGrid,
                       cfg: MapgenConfig) -> None:
    """A run's bridge or ford (the ground's crossing points) in the hex where a road
    crosses it: the hex then carries ``bridge`` or ``ford`` beside ``run``."""
    runs = {f.id for f in bf.of_kind("stream")
            if cfg.streams.get(str(f.props.extra("class", "creek"))) == "run"}
    for c in sorted(bf.of_kind("bridge", "ford"), key=lambda f: f.id):
        if c.props.extra("stream") not in runs:
            continue
        h = grid.layout.hex_at(c.geom.x, c.geom.y)
        if h in work:
            work[h].features.add(c.kind)


def railroad_cut_points(bf: Battlefield, cut: RailroadCut) -> list[tuple[float, float]]:
    """Where the unfinished railroad bed crosses a crest (004 9.83: the cuts): the
    highest ground along the bed within ``peak_m`` either way, standing ``prominence_ft``
    over the lowest ground within ``window_m`` on both sides."""
    out: list[tuple[float, float]] = []
    for f in sorted(bf.of_kind("railroad_bed"), key=lambda f: f.id):
        for part in getattr(f.geom, "geoms", [f.geom]):
            n = max(3, int(part.length / 10.0) + 1)
            pts = [part.interpolate(part.length * i / (n - 1)).coords[0] for i in range(n)]
            hs = np.array([bf.height_xy(x, y) for x, y in pts])
            win = max(1, int(cut.window_m / 10.0))
            peak = max(1, int(cut.peak_m / 10.0))
            for i in range(1, n - 1):
                lo, hi = max(0, i - win), min(n, i + win + 1)
                if hs[i] < hs[max(0, i - peak):i + peak + 1].max():
                    continue
                if (hs[i] - hs[lo:i + 1].min() >= cut.prominence_ft
                        and hs[i] - hs[i:hi].min() >= cut.prominence_ft):
                    out.append(pts[i])
    return out


# --- step 3-4: hexsides and roads ------------------------------------------------------


def _steepest_ft_per_hex(profile: np.ndarray) -> float:
    return float(np.abs(np.diff(profile)).max() * (len(profile) - 1))


def classify_sides(bf: Battlefield, grid: HexGrid, work: dict[Hex, _Hex],
                   cfg: MapgenConfig) -> dict[Hexside, dict[str, Any]]:
    """Slope classes where levels differ (002 §10.23): the steepest stretch of ground
    between the two centres, in feet per hex."""
    sl = cfg.slopes
    sides: dict[Hexside, dict[str, Any]] = {}
    for side in grid.hexsides():
        la, lb = work[side.a].level, work[side.b].level
        if la == lb:
            continue
        steep = _steepest_ft_per_hex(sample_side(bf, grid.layout, side).profile_ft(7))
        cls = ("sheer" if steep >= sl.sheer_ft_per_hex else "steep"
               if steep >= sl.steep_ft_per_hex else "minor"
               if steep >= sl.minor_ft_per_hex else None)
        if cls:
            sides[side] = {"slope": cls, "uphill": side.b if lb > la else side.a}
    return sides


def _crossed_sides(grid: HexGrid, line: Any, chain: list[Hex]) -> list[Hexside]:
    """The hexsides whose centre-to-centre segment the line crosses (a creek, a wall:
    what stands between two hexes), looked for round the hexes the line runs through."""
    near = {n for h in chain for n in (h, *h.neighbours()) if n in grid.on_map}
    cand = {Hexside.between(h, n) for h in near for n in h.neighbours() if n in near}
    return sorted(s for s in cand if centre_segment(grid.layout, s).intersects(line))


def mark_streams(bf: Battlefield, grid: HexGrid, sides: dict[Hexside, dict[str, Any]],
                 lines: dict[str, list[Hex]], cfg: MapgenConfig) -> None:
    for f in sorted(bf.of_kind("stream"), key=lambda f: f.id):
        kind = cfg.streams.get(str(f.props.extra("class", "creek")))
        if kind not in ("creek", "river"):
            continue
        for s in _crossed_sides(grid, f.geom, lines.get(f.id, [])):
            sides.setdefault(s, {})["stream"] = kind


def mark_walls(grid: HexGrid, sides: dict[Hexside, dict[str, Any]], extras: list[Feature],
               cfg: MapgenConfig) -> None:
    for f in sorted(extras, key=lambda f: f.id):
        if f.kind not in ("stone_wall", "fence"):
            continue
        chain = trace_line(grid.layout, f.geom, grid.on_map, cfg.road_min_run_m)
        wall = "stone-wall" if f.kind == "stone_wall" else "fence"
        for s in _crossed_sides(grid, f.geom, chain):
            row = sides.setdefault(s, {})
            if row.get("wall") != "stone-wall":  # a stone wall outranks a fence
                row["wall"] = wall


def trace_roads(bf: Battlefield, grid: HexGrid, sides: dict[Hexside, dict[str, Any]],
                cfg: MapgenConfig) -> dict[str, list[Hex]]:
    """Each road as a chain of hex-to-hex links (E-9 classes), with the bridge or ford
    the ground records where a link crosses a creek hexside; Long Lane on sheet B is the
    sunken road (004 9.84)."""
    crossings = list(bf.of_kind("bridge", "ford"))
    sunken = bf.find_named(cfg.sunken_road.road, "road")
    sheet_b = set(grid.sheets.get(cfg.sunken_road.sheet, ()))
    traces: dict[str, list[Hex]] = {}
    for f in sorted(bf.of_kind("road", "railroad", "railroad_bed"), key=lambda f: f.id):
        key = str(f.props.extra("class", "road")) if f.kind == "road" else f.kind
        cls = cfg.road_classes.get(key)
        if cls is None:
            continue
        chain = trace_line(grid.layout, f.geom, grid.on_map, cfg.road_min_run_m)
        if f.kind == "railroad_bed":
            chain = _through_bridge(chain, grid, cfg)
        traces[f.id] = chain
        for s in chain_sides(chain):
            row = sides.setdefault(s, {})
            road: dict[str, Any] = {"class": cls, "name": f.name or f.id}
            if f.id == sunken.id and s.a in sheet_b and s.b in sheet_b:
                road["sunken"] = True
            roads = row.setdefault("roads", [])
            if all(r["name"] != road["name"] for r in roads):
                roads.append(road)
            if row.get("stream"):
                found = crossing_near(grid.layout, s, f, crossings)
                row["crossing"] = found.kind if found else "bridge"
    order = {"pike": 0, "road": 1, "trail": 2, "railroad": 3}
    for row in sides.values():
        if "roads" in row:
            row["roads"].sort(key=lambda r: (order.get(r["class"], 9), r["name"]))
    return traces


def _through_bridge(chain: list[Hex], grid: HexGrid, cfg: MapgenConfig) -> list[Hex]:
    """004 9.81 puts the bed under the Lott's Ridge bridge, in its middle hex: where the
    traced bed passes beside that hex (the bed's course there is an estimate, +-150 m),
    the hex next to it on the chain gives way to it."""
    ids = cfg.railroad_bridge.hexes
    mid = parse_hex(grid.codec, ids[len(ids) // 2], "railroad_bridge")
    if mid in chain:
        return chain
    for i in range(1, len(chain) - 1):
        if (chain[i].distance(mid) == 1 and chain[i - 1].distance(mid) == 1
                and chain[i + 1].distance(mid) == 1):
            return [*chain[:i], mid, *chain[i + 1:]]
    raise ValueError(f"mapgen.yaml railroad_bridge: the bed passes nowhere near {ids}")


# --- step 5: book-forced exceptions, entries, names ------------------------------------


def apply_book(bf: Battlefield, grid: HexGrid, work: dict[Hex, _Hex],
               sides: dict[Hexside, dict[str, Any]], traces: dict[str, list[Hex]],
               cfg: MapgenConfig) -> list[dict[str, Any]]:
    codec = grid.codec
    applied: list[dict[str, Any]] = []

    def on(hex_id: str, what: str) -> Hex:
        h = parse_hex(codec, hex_id, what)
        if h not in work:
            raise ValueError(f"mapgen.yaml {what}: {hex_id} is not on the sheets")
        return h

    for hid in cfg.town_hexes.hexes:
        on(hid, "town_hexes")
    applied.append({"what": "town", "hexes": cfg.town_hexes.hexes, "rule": cfg.town_hexes.rule})
    bridge = [on(x, "railroad_bridge") for x in cfg.railroad_bridge.hexes]
    work[bridge[len(bridge) // 2]].features.add("railroad-bridge")
    applied.append({"what": "railroad-bridge", "hexes": cfg.railroad_bridge.hexes,
                    "rule": cfg.railroad_bridge.rule})
    for hid, n in sorted(cfg.breastworks.hexes.items()):
        work[on(hid, "breastworks")].breastworks = n
    applied.append({"what": "breastworks", "hexes": sorted(cfg.breastworks.hexes),
                    "rule": cfg.breastworks.rule})
    sunken = bf.find_named(cfg.sunken_road.road, "road")
    sunk = sorted({h for s, row in sides.items()
                   for r in row.get("roads", []) if r.get("sunken") for h in (s.a, s.b)})
    for h in sunk:
        work[h].features.add("sunken-road")
    if not sunk:
        raise ValueError(f"mapgen.yaml sunken_road: {sunken.name} crosses no hexside of "
                         f"sheet {cfg.sunken_road.sheet}")
    applied.append({"what": "sunken-road", "hexes": [codec.format(h) for h in sunk],
                    "rule": cfg.sunken_road.rule})
    cut = [grid.layout.hex_at(x, y) for x, y in railroad_cut_points(bf, cfg.railroad_cut)]
    bed = {h for f in bf.of_kind("railroad_bed") for h in traces.get(f.id, [])}
    # Where the book places a cut (9.81: the bridge over it), its hex replaces a derived
    # one near it: on a broad crest the ground cannot say which hex the cut is in.
    book = [on(x, "railroad_cut") for x in cfg.railroad_cut.book_hexes]
    cut = [h for h in cut if all(h.distance(b) > cfg.railroad_cut.book_within for b in book)]
    cuts = sorted({h for h in cut if h in bed} | set(book))
    for h in cuts:
        work[h].features.add("railroad-cut")
    applied.append({"what": "railroad-cut", "hexes": [codec.format(h) for h in cuts],
                    "rule": cfg.railroad_cut.rule})
    return applied


def find_entries(bf: Battlefield, grid: HexGrid, work: dict[Hex, _Hex],
                 traces: dict[str, list[Hex]], cfg: MapgenConfig) -> list[dict[str, Any]]:
    """Entry areas 1-14 (004 9.76): the hex where each area's road leaves the sheets
    (its direct hex), or the pinned hex. Substitutes: the book's map of them is lost."""
    area = footprint(grid.layout, grid.hexes)
    report: list[dict[str, Any]] = []
    for e in cfg.entry_areas:
        h: Hex | None = None
        if e.hex:
            h = parse_hex(grid.codec, e.hex, f"entry_areas: area {e.area}")
        elif e.road:
            f = bf.find_named(e.road, "road", "railroad", "railroad_bed")
            chain = traces.get(f.id, [])
            h = exit_hex(f.geom, chain, area)
            # A road that ends on the ground model's edge leaves where its chain meets the
            # sheets' edge.
            if h is None and chain:
                h = next((x for x in (chain[-1], chain[0]) if grid.edge(x)), None)
        if h is None or h not in work:
            raise ValueError(f"mapgen.yaml entry_areas: area {e.area} ({e.road or e.hex}) "
                             "finds no edge hex")
        if work[h].entry is not None:
            raise ValueError(f"mapgen.yaml entry_areas: area {e.area} falls on area "
                             f"{work[h].entry}'s hex {grid.codec.format(h)}")
        work[h].entry = e.area
        report.append({"area": e.area, "hex": grid.codec.format(h), "road": e.road,
                       "substitute": e.substitute, "reason": e.reason})
    return report


# --- all together -----------------------------------------------------------------------


def _sheets_of(grid: HexGrid, h: Hex) -> list[str]:
    return sorted(name for name, hs in grid.sheets.items() if h in set(hs))


def derive(bf: Battlefield, cfg: MapgenConfig | None = None,
           extras: list[Feature] | None = None) -> dict[str, Any]:
    """The board document (what ``board.json`` holds)."""
    cfg = cfg or load_config()
    extras = load_extras(bf) if extras is None else extras
    reg = register(cfg)
    grid = grid_of(cfg, reg)
    codec = grid.codec
    forced_town = {parse_hex(codec, x, "town_hexes") for x in cfg.town_hexes.hexes}
    work = classify_hexes(bf, grid, cfg, forced_town)
    lines = {f.id: trace_line(grid.layout, f.geom, grid.on_map, cfg.road_min_run_m)
             for f in sorted(bf.of_kind("stream"), key=lambda f: f.id)}
    mark_farms(work, grid, extras, cfg)
    mark_runs(bf, work, lines, cfg)
    mark_run_crossings(bf, work, grid, cfg)
    sides = classify_sides(bf, grid, work, cfg)
    mark_streams(bf, grid, sides, lines, cfg)
    mark_walls(grid, sides, extras, cfg)
    traces = trace_roads(bf, grid, sides, cfg)
    applied = apply_book(bf, grid, work, sides, traces, cfg)
    entries = find_entries(bf, grid, work, traces, cfg)
    for h, names in place_names(bf, grid.layout, grid.hexes).items():
        work[h].names.extend(names)

    sheet_sets = {name: set(hs) for name, hs in grid.sheets.items()}
    hexes = []
    for h in grid.hexes:
        w = work[h]
        row: dict[str, Any] = {
            "id": codec.format(h), "level": w.level, "height_ft": round(w.mean_ft),
            "terrain": w.terrain,
            "sheets": sorted(n for n, hs in sheet_sets.items() if h in hs)}
        if w.features:
            row["features"] = sorted(w.features)
        if w.names:
            row["names"] = sorted(set(w.names))
        if w.breastworks:
            row["breastworks"] = w.breastworks
        if w.entry is not None:
            row["entry"] = w.entry
        hexes.append(row)
    side_rows = []
    for s in sorted(sides):
        row = {"a": codec.format(s.a), "b": codec.format(s.b), **sides[s]}
        if row.get("uphill") is not None:
            row["uphill"] = codec.format(row["uphill"])
        side_rows.append(row)
    lay = reg.layout
    meta = {
        "derived_from": "gettysburg/data/battlefield (see its README), gbacw/data/mapgen.yaml",
        "hex_spacing_m": round(lay.spacing(), 1),
        "hex_spacing_book_m": round(cfg.grid.hex_yards * 0.9144, 1),
        "registration_rms_m": round(reg.rms_m, 1),
        "registration_residuals_m": {k: round(v, 1) for k, v in sorted(reg.residuals_m.items())},
        "book": applied,
        "entry_areas": entries,
        "heights_source": bf.heights.source,
    }
    return {"codec": codec_json(cfg),
            "layout": {"basis_q": [round(v, 4) for v in lay.basis_q],
                       "basis_r": [round(v, 4) for v in lay.basis_r],
                       "origin": [round(v, 4) for v in lay.origin]},
            "meta": meta, "hexes": hexes, "hexsides": side_rows}


def board_text(doc: dict[str, Any]) -> str:
    """The file's text: one hex or hexside a line, keys sorted (diffs stay readable)."""
    head = {k: v for k, v in doc.items() if k not in ("hexes", "hexsides")}
    parts = [json.dumps(head, sort_keys=True, indent=1)[:-2] + ","]
    for key in ("hexes", "hexsides"):
        rows = ",\n".join(json.dumps(r, sort_keys=True) for r in doc[key])
        parts.append(f' "{key}": [\n{rows}\n ]' + ("," if key == "hexes" else ""))
    parts.append("}\n")
    text = "\n".join(parts)
    board_from_json(json.loads(text))  # what is written must load
    return text


def registration_report(doc: dict[str, Any], cfg: MapgenConfig | None = None) -> str:
    """The registration in words: scale, RMS, each anchor's residual (metres and hexes),
    and the fits of sheet A's offset that chose it. ``map build`` prints it."""
    cfg = cfg or load_config()
    meta = doc["meta"]
    spacing = float(meta["hex_spacing_m"])
    lines = [f"hex spacing {spacing} m (the book: {meta['hex_spacing_book_m']} m); "
             f"RMS {meta['registration_rms_m']} m over {len(cfg.registration)} anchors",
             "anchor | residual m | hexes"]
    for name, metres in sorted(meta["registration_residuals_m"].items(),
                               key=lambda kv: (-kv[1], kv[0])):
        lines.append(f"{name} | {metres} | {metres / spacing:.2f}")
    fits = sheet_offset_fits(cfg)
    kept = tuple(cfg.grid.sheets["A"].origin)
    lines.append("sheet A origin (XX, YY) | RMS m")
    for rms, dx, dy in fits[:5]:
        mark = " (kept)" if (dx, dy) == kept else ""
        lines.append(f"({dx}, {dy}){mark} | {rms}")
    return "\n".join(lines)
