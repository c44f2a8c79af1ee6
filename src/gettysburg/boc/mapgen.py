"""Derive the Badges of Courage board from the battlefield model.

Deterministic: the same battlefield files and ``mapgen.yaml`` give the same
board, byte for byte (iteration is always in sorted hex order, and every
threshold lives in the YAML). Steps, each a small function below:

1. register the axial grid on the ground (least squares over landmark pairs);
2. choose the extent (numbers 1-14, a latitude band);
3. per hex: landcover shares -> hex terrain, sampled heights -> ground level;
4. per hexside: landcover in the diamond round the shared edge, streams crossing
   the centre-to-centre segment, slopes from the level difference;
5. roads traced hex by hex, with bridges/fords where they cross streams;
6. entry roads, victory hexes and names;
7. the rulebook-forced overrides, each with its rule section.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import yaml
from pydantic import BaseModel, ConfigDict, Field
from shapely import geometry as sg
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

from gettysburg.boc.board import (
    STACKING,
    Board,
    HexInfo,
    RoadOnSide,
    SideInfo,
)
from gettysburg.core.battlefield import Battlefield, BattlefieldError, Feature
from gettysburg.core.geo import GETTYSBURG, Registration, fit_hex_grid
from gettysburg.core.hexes import Hex, Hexside, Layout, disc
from gettysburg.core.hexids import BOC

# --- configuration ------------------------------------------------------------------


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RegPair(_Strict):
    hex: str
    label: str
    lat: float
    lon: float
    source: str


class Extent(_Strict):
    numbers: tuple[int, int]
    north_lat: float
    south_lat: float


class Thresholds(_Strict):
    woods_share: float
    marsh_share: float
    side_share: float
    rise_relief_ft: float
    hill_relief_ft: float
    relief_radius: int
    relief_base_percentile: float
    road_min_run_m: float


class HexOverride(_Strict):
    hex: str | None = None
    at: tuple[float, float] | None = None  # (lat, lon)
    terrain: str | None = None
    stacking: int | None = None
    d2: bool | None = None
    ground: int | None = Field(default=None, ge=0, le=2)
    clear_sides: bool = False
    name: str | None = None
    rule: str


class AddRoad(_Strict):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    road: str  # battlefield road name (or alias) the hexside carries
    road_class: str = Field(alias="class")


class SideOverride(_Strict):
    a: str
    b: str
    slope: str | None = None  # "rise" | "hill" | "none"
    uphill: str | None = None
    add_terrain: list[str] = Field(default_factory=list)
    remove_terrain: list[str] = Field(default_factory=list)
    add_road: AddRoad | None = None
    rule: str


class EntryRoad(_Strict):
    name: str
    road: str
    hex: str | None = None
    rule: str


class Victory(_Strict):
    name: str
    vp: int
    hex: str | None = None
    place: str | None = None


class MapgenConfig(_Strict):
    registration: list[RegPair]
    extent: Extent
    thresholds: Thresholds
    road_classes: dict[str, str]
    town_hexes: list[str]
    not_town_hexsides: list[tuple[str, str]]
    hex_overrides: list[HexOverride] = Field(default_factory=list)
    side_overrides: list[SideOverride] = Field(default_factory=list)
    entry_roads: list[EntryRoad]
    victory: list[Victory]


def config_path() -> Path:
    return Path(str(resources.files("gettysburg") / "boc" / "data" / "mapgen.yaml"))


def load_config(path: Path | None = None) -> MapgenConfig:
    p = path or config_path()
    return MapgenConfig.model_validate(yaml.safe_load(p.read_text(encoding="utf-8")))


# --- step 1-2: registration and extent ----------------------------------------------


def register(cfg: MapgenConfig) -> Registration:
    pairs = [
        (f"{p.hex} {p.label}", BOC.parse(p.hex), GETTYSBURG.to_xy(p.lon, p.lat))
        for p in cfg.registration
    ]
    return fit_hex_grid(pairs)


def extent_hexes(layout: Layout, ext: Extent) -> list[Hex]:
    """Hexes of numbers ``ext.numbers`` whose centre lies in the latitude band."""
    lo, hi = ext.numbers
    out: list[Hex] = []
    for number in range(lo, hi + 1):
        for q in range(1, 80):
            h = Hex(q, -number)
            _, lat = GETTYSBURG.to_lonlat(*layout.to_plane(h))
            if ext.south_lat <= lat <= ext.north_lat:
                out.append(h)
    return sorted(out)


# --- helpers ------------------------------------------------------------------------


def hex_polygon(layout: Layout, h: Hex) -> sg.Polygon:
    return sg.Polygon(layout.corners(h))


def side_diamond(layout: Layout, side: Hexside) -> sg.Polygon:
    """The quadrilateral of both hex centres and the shared edge's end points."""
    p, q = layout.hexside_segment(side)
    return sg.Polygon([layout.to_plane(side.a), p, layout.to_plane(side.b), q])


def share(area: BaseGeometry, cover: BaseGeometry) -> float:
    if cover.is_empty or area.area == 0:
        return 0.0
    return float(area.intersection(cover).area / area.area)


def sample_points(layout: Layout, h: Hex) -> list[tuple[float, float]]:
    """37 points spread over a hex: its centre and three rings."""
    cx, cy = layout.to_plane(h)
    inr = layout.spacing() / 2
    pts = [(cx, cy)]
    for frac, n in ((0.3, 6), (0.6, 12), (0.9, 18)):
        for k in range(n):
            a = 2 * math.pi * k / n
            pts.append((cx + frac * inr * math.cos(a), cy + frac * inr * math.sin(a)))
    return pts


def _feature_by_name(bf: Battlefield, name: str, *kinds: str) -> Feature:
    return bf.find_named(name, *kinds)


# --- step 3: hexes ----------------------------------------------------------------


@dataclass
class _HexWork:
    hex: Hex
    poly: sg.Polygon
    shares: dict[str, float]
    height_ft: float
    p80_ft: float
    relief_ft: float = 0.0
    terrain: str = "clear"
    ground: int = 0
    stacking: int = 4
    d2: bool = False
    clear_sides: bool = False
    names: list[str] | None = None


def classify_hexes(
    bf: Battlefield, layout: Layout, hexes: list[Hex], cfg: MapgenConfig
) -> dict[Hex, _HexWork]:
    covers = bf.area_union
    town = {BOC.parse(x) for x in cfg.town_hexes}
    orchards = [f.geom.representative_point() for f in bf.of_kind("orchard")]
    th = cfg.thresholds
    work: dict[Hex, _HexWork] = {}
    for h in hexes:
        poly = hex_polygon(layout, h)
        shares = {k: share(poly, g) for k, g in covers.items()}
        heights = np.array([bf.height_xy(x, y) for x, y in sample_points(layout, h)])
        w = _HexWork(
            hex=h,
            poly=poly,
            shares=shares,
            height_ft=float(heights.mean()),
            p80_ft=float(np.percentile(heights, 80)),
        )
        # Rocks are never derived: the terrain chart allows them only in Devil's Den,
        # which an override sets (other boulder fields are scenery in BoC).
        if h in town:
            w.terrain = "town"  # 2.2: exactly the listed hexes
        elif shares["marsh"] >= th.marsh_share:
            w.terrain = "marsh"
        elif shares["woods"] >= th.woods_share:
            w.terrain = "woods"
        elif any(poly.contains(p) for p in orchards):
            w.terrain = "orchard"
        work[h] = w
    # Ground level (2.3) from local relief, not absolute height: the ground falls
    # ~150 ft from north-west to south-east, so a ridge is "high" only relative to
    # its surroundings. Relief = the hex's 80th-percentile height minus a low
    # percentile of mean heights within a few hexes.
    for h, w in work.items():
        around = [work[n].height_ft for n in disc(h, th.relief_radius) if n in work]
        w.relief_ft = w.p80_ft - float(np.percentile(around, th.relief_base_percentile))
        w.ground = (
            2 if w.relief_ft >= th.hill_relief_ft else 1 if w.relief_ft >= th.rise_relief_ft else 0
        )
    for w in work.values():
        w.stacking = STACKING[w.terrain]
        w.d2 = w.terrain in ("woods", "rocks")  # 2.2 / 5.24: woods and Devil's Den
    return work


def apply_hex_overrides(
    work: dict[Hex, _HexWork], layout: Layout, cfg: MapgenConfig
) -> list[dict[str, Any]]:
    applied: list[dict[str, Any]] = []
    for o in cfg.hex_overrides:
        if o.hex:
            h = BOC.parse(o.hex)
        elif o.at:
            h = layout.hex_at(*GETTYSBURG.to_xy(o.at[1], o.at[0]))
        else:
            raise ValueError(f"mapgen.yaml hex_overrides: entry {o.rule!r} needs hex or at")
        if h not in work:
            raise ValueError(f"mapgen.yaml hex_overrides: {BOC.format(h)} is not on the map")
        w = work[h]
        if o.terrain:
            w.terrain = o.terrain
            w.stacking = STACKING[o.terrain]
            w.d2 = o.terrain in ("woods", "rocks")
        if o.stacking is not None:
            w.stacking = o.stacking
        if o.d2 is not None:
            w.d2 = o.d2
        if o.ground is not None:
            w.ground = o.ground
        w.clear_sides = w.clear_sides or o.clear_sides
        if o.name:
            w.names = [*(w.names or []), o.name]
        applied.append({"hex": BOC.format(h), "rule": o.rule})
    return applied


# --- step 4: hexsides ---------------------------------------------------------------


def all_sides(hexes: Iterable[Hex]) -> list[Hexside]:
    hs = set(hexes)
    out = {Hexside.between(h, n) for h in hs for n in h.neighbours() if n in hs}
    return sorted(out)


def classify_sides(
    bf: Battlefield, layout: Layout, work: dict[Hex, _HexWork], cfg: MapgenConfig
) -> dict[Hexside, dict[str, Any]]:
    covers = bf.area_union
    th = cfg.thresholds
    not_town = {Hexside.between(BOC.parse(a), BOC.parse(b)) for a, b in cfg.not_town_hexsides}
    streams = [(f, f.props.extra("class", "creek")) for f in bf.of_kind("stream")]
    sides: dict[Hexside, dict[str, Any]] = {}
    for side in all_sides(work):
        wa, wb = work[side.a], work[side.b]
        diamond = side_diamond(layout, side)
        terrain: set[str] = set()
        for kind in ("woods", "orchard", "marsh"):
            if share(diamond, covers[kind]) >= th.side_share:
                terrain.add(kind)
        # Town hexsides: between town hexes, or into a town hex across built-up
        # ground; never the sides the map note excludes (2.2).
        towns = (wa.terrain == "town") + (wb.terrain == "town")
        if side not in not_town and (
            towns == 2 or (towns == 1 and share(diamond, covers["town"]) >= th.side_share)
        ):
            terrain.add("town")
        if wa.clear_sides or wb.clear_sides:
            terrain -= {"woods", "orchard"}
        seg = sg.LineString([layout.to_plane(side.a), layout.to_plane(side.b)])
        for f, cls in streams:
            if f.geom.intersects(seg):
                terrain.add("river" if cls == "river" else "creek")
        if "river" in terrain:
            terrain.discard("creek")
        slope: str | None = None
        uphill: Hex | None = None
        diff = wb.ground - wa.ground
        if diff:
            slope = "rise" if abs(diff) == 1 else "hill"
            uphill = side.b if diff > 0 else side.a
        sides[side] = {"terrain": terrain, "slope": slope, "uphill": uphill, "roads": []}
    return sides


def apply_side_overrides(
    bf: Battlefield, sides: dict[Hexside, dict[str, Any]], cfg: MapgenConfig
) -> list[dict[str, Any]]:
    applied: list[dict[str, Any]] = []
    for o in cfg.side_overrides:
        key = Hexside.between(BOC.parse(o.a), BOC.parse(o.b))
        if key not in sides:
            raise ValueError(f"mapgen.yaml side_overrides: {o.a}/{o.b} is not on the map")
        s = sides[key]
        if o.slope == "none":
            s["slope"], s["uphill"] = None, None
        elif o.slope:
            s["slope"] = o.slope
            s["uphill"] = BOC.parse(o.uphill) if o.uphill else s["uphill"]
        s["terrain"] |= set(o.add_terrain)
        s["terrain"] -= set(o.remove_terrain)
        if o.add_road is not None:
            f = _feature_by_name(bf, o.add_road.road, "road", "railroad", "railroad_bed")
            if all(r.road != f.id for r in s["roads"]):
                s["roads"].append(
                    RoadOnSide(
                        road=f.id,
                        name=f.name or f.id,
                        road_class=o.add_road.road_class,  # type: ignore[arg-type]
                        rail=f.kind != "road",
                    )
                )
                s["roads"].sort(key=lambda r: (r.road_class != "main", r.road))
        applied.append({"hexside": f"{o.a}/{o.b}", "rule": o.rule})
    return applied


# --- step 5: roads ----------------------------------------------------------------


def trace_line(layout: Layout, line: BaseGeometry, on_map: set[Hex], min_run: float) -> list[Hex]:
    """The on-map hexes a line passes through, in order, as an adjacent chain.

    Brief clips of a hex corner (shorter than ``min_run`` metres) are dropped
    when the hexes either side of them are adjacent, so roads run centre to
    centre as printed on a hex map.
    """
    parts = list(getattr(line, "geoms", [line]))
    chain: list[Hex] = []
    for part in parts:
        runs: list[tuple[Hex, float]] = []
        length = part.length
        n = max(2, int(length / 10.0) + 1)
        for i in range(n):
            x, y = part.interpolate(length * i / (n - 1)).coords[0]
            h = layout.hex_at(x, y)
            step = length / (n - 1)
            if runs and runs[-1][0] == h:
                runs[-1] = (h, runs[-1][1] + step)
            else:
                runs.append((h, step))
        # Drop short clips whose neighbours in the sequence touch each other.
        changed = True
        while changed:
            changed = False
            for i in range(1, len(runs) - 1):
                h, run = runs[i]
                prev, nxt = runs[i - 1][0], runs[i + 1][0]
                if run < min_run and (prev == nxt or prev.distance(nxt) == 1):
                    del runs[i]
                    changed = True
                    break
        seq: list[Hex] = []
        for h, _ in runs:
            if not seq or seq[-1] != h:
                seq.append(h)
        chain.extend(h for h in seq if h in on_map)
    # Keep only adjacent consecutive pairs (the line may leave and re-enter).
    return chain


def trace_roads(
    bf: Battlefield,
    layout: Layout,
    work: dict[Hex, _HexWork],
    sides: dict[Hexside, dict[str, Any]],
    cfg: MapgenConfig,
) -> dict[str, list[Hex]]:
    on_map = set(work)
    traces: dict[str, list[Hex]] = {}
    crossings = list(bf.of_kind("bridge", "ford"))
    for f in sorted(bf.of_kind("road", "railroad", "railroad_bed"), key=lambda f: f.id):
        cls_key = f.kind if f.kind != "road" else str(f.props.extra("class", "road"))
        road_class = cfg.road_classes.get(cls_key)
        if road_class is None:
            continue
        chain = trace_line(layout, f.geom, on_map, cfg.thresholds.road_min_run_m)
        traces[f.id] = chain
        for a, b in itertools.pairwise(chain):
            if a.distance(b) != 1:
                continue
            key = Hexside.between(a, b)
            s = sides[key]
            crossing: str | None = None
            if s["terrain"] & {"river", "creek"}:
                crossing = _crossing_kind(f, crossings, layout, key)
            road = RoadOnSide(
                road=f.id,
                name=f.name or f.id,
                road_class=road_class,  # type: ignore[arg-type]
                crossing=crossing,  # type: ignore[arg-type]
                rail=f.kind != "road",
            )
            if all(r.road != f.id for r in s["roads"]):
                s["roads"].append(road)
    for s in sides.values():
        s["roads"].sort(key=lambda r: (r.road_class != "main", r.road))
    return traces


def _crossing_kind(
    road: Feature, crossings: list[Feature], layout: Layout, side: Hexside
) -> str:
    """Bridge or ford recorded for this road near this hexside; bridge if none is."""
    mid = sg.LineString([layout.to_plane(side.a), layout.to_plane(side.b)]).centroid
    best: tuple[float, str] | None = None
    for c in crossings:
        if c.props.extra("road") != road.id:
            continue
        d = c.geom.distance(mid)
        if d <= layout.spacing() and (best is None or d < best[0]):
            best = (d, c.kind)
    return best[1] if best else "bridge"


# --- step 6: entries, victory hexes, names -------------------------------------------


def find_entries(
    bf: Battlefield,
    layout: Layout,
    work: dict[Hex, _HexWork],
    traces: dict[str, list[Hex]],
    cfg: MapgenConfig,
) -> tuple[dict[Hex, list[str]], list[dict[str, Any]]]:
    """Edge hex where each entry road leaves the map (pinned hexes win)."""
    footprint = unary_union([w.poly for w in work.values()])
    out: dict[Hex, list[str]] = {}
    report: list[dict[str, Any]] = []
    for e in cfg.entry_roads:
        try:
            f = _feature_by_name(bf, e.road, "road")
        except BattlefieldError:
            f = None
        derived: Hex | None = None
        if f is not None and traces.get(f.id):
            chain = traces[f.id]
            line = f.geom
            coords = list(getattr(line, "geoms", [line])[0].coords)
            first_out = not footprint.contains(sg.Point(coords[0]))
            last_coords = list(getattr(line, "geoms", [line])[-1].coords)
            last_out = not footprint.contains(sg.Point(last_coords[-1]))
            if last_out:
                derived = chain[-1]
            elif first_out:
                derived = chain[0]
        pinned = BOC.parse(e.hex) if e.hex else None
        chosen = pinned or derived
        if chosen is None:
            report.append({"entry": e.name, "hex": None, "note": "road not found leaving the map"})
            continue
        out.setdefault(chosen, []).append(e.name)
        report.append(
            {
                "entry": e.name,
                "hex": BOC.format(chosen),
                "derived": BOC.format(derived) if derived else None,
                "rule": e.rule,
            }
        )
    return out, report


def find_victory(
    bf: Battlefield, layout: Layout, work: dict[Hex, _HexWork], cfg: MapgenConfig
) -> dict[Hex, tuple[str, int]]:
    out: dict[Hex, tuple[str, int]] = {}
    for v in cfg.victory:
        if v.hex:
            h = BOC.parse(v.hex)
        else:
            assert v.place is not None
            f = _feature_by_name(bf, v.place, "landmark", "place")
            pt = f.geom.representative_point()
            h = layout.hex_at(pt.x, pt.y)
        if h not in work:
            raise ValueError(f"mapgen.yaml victory: {v.name} falls off the map at {h}")
        out[h] = (v.name, v.vp)
    return out


def hex_names(bf: Battlefield, layout: Layout, work: dict[Hex, _HexWork]) -> dict[Hex, list[str]]:
    out: dict[Hex, list[str]] = {}
    for f in sorted(bf.of_kind("place", "landmark"), key=lambda f: f.id):
        if not f.name or f.geom.geom_type != "Point":
            continue
        h = layout.hex_at(f.geom.x, f.geom.y)
        if h in work:
            out.setdefault(h, []).append(f.name)
    return out


# --- all together -----------------------------------------------------------------


def derive_board(bf: Battlefield, cfg: MapgenConfig | None = None) -> Board:
    cfg = cfg or load_config()
    reg = register(cfg)
    layout = reg.layout
    hexes = extent_hexes(layout, cfg.extent)
    work = classify_hexes(bf, layout, hexes, cfg)
    overrides = apply_hex_overrides(work, layout, cfg)
    sides = classify_sides(bf, layout, work, cfg)
    traces = trace_roads(bf, layout, work, sides, cfg)
    side_overrides = apply_side_overrides(bf, sides, cfg)
    entries, entry_report = find_entries(bf, layout, work, traces, cfg)
    victory = find_victory(bf, layout, work, cfg)
    names = hex_names(bf, layout, work)
    on_map = set(work)

    infos: dict[Hex, HexInfo] = {}
    for h in sorted(work):
        w = work[h]
        vname, vp = victory.get(h, (None, 0))
        hn = sorted(set((w.names or []) + names.get(h, []) + ([vname] if vname else [])))
        infos[h] = HexInfo(
            id=BOC.format(h),
            hex=h,
            terrain=w.terrain,  # type: ignore[arg-type]
            ground=w.ground,
            stacking=w.stacking,
            double_defence=w.d2,
            height_ft=w.height_ft,
            names=tuple(hn),
            victory=vp,
            entries=tuple(entries.get(h, [])),
            edge=any(n not in on_map for n in h.neighbours()),
        )
    side_infos = {
        key: SideInfo(
            side=key,
            terrain=frozenset(s["terrain"]),
            slope=s["slope"],
            uphill=s["uphill"],
            roads=tuple(s["roads"]),
        )
        for key, s in sides.items()
    }
    meta = {
        "derived_from": "gettysburg/data/battlefield (see its README), boc/data/mapgen.yaml",
        "hex_spacing_m": round(layout.spacing(), 1),
        "registration_rms_m": round(reg.rms_m, 1),
        "registration_residuals_m": {k: round(v, 1) for k, v in reg.residuals_m.items()},
        "hex_overrides": overrides,
        "side_overrides": side_overrides,
        "entries": entry_report,
        "heights_source": bf.heights.source,
    }
    return Board(hexes=infos, sides=side_infos, layout=layout, meta=meta)
