"""Derive the Badges of Courage board from the battlefield model.

The generic steps (registration, hex and hexside sampling, tracing roads, names of
places) are the core's (:mod:`gettysburg.core.topology`, :mod:`gettysburg.core.mapderive`);
this module holds only BoC's choices: its config, thresholds, the classification into
BoC terrain and the rulebook-forced overrides. Deterministic: the same battlefield files
and ``mapgen.yaml`` give the same board, byte for byte. Steps, each a small function:

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

from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import yaml
from pydantic import BaseModel, ConfigDict, Field
from shapely import geometry as sg

from gettysburg.boc.board import (
    BOC,
    STACKING,
    Board,
    HexInfo,
    RoadOnSide,
    SideInfo,
)
from gettysburg.core.battlefield import Battlefield, BattlefieldError, Feature
from gettysburg.core.geo import GETTYSBURG, Registration
from gettysburg.core.hexes import Hex, Hexside, Layout, disc
from gettysburg.core.mapderive import (
    SideSample,
    chain_sides,
    crossing_near,
    exit_hex,
    footprint,
    hex_of_place,
    place_names,
    sample_hex,
    sample_sides,
    trace_line,
    within_latitudes,
)
from gettysburg.core.topology import register_grid

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
    return register_grid(BOC, [(p.label, p.hex, p.lon, p.lat) for p in cfg.registration])


def extent_hexes(layout: Layout, ext: Extent) -> list[Hex]:
    """Hexes of numbers ``ext.numbers`` whose centre lies in the latitude band."""
    lo, hi = ext.numbers
    candidates = [Hex(q, -number) for number in range(lo, hi + 1) for q in range(1, 80)]
    return within_latitudes(layout, candidates, ext.south_lat, ext.north_lat, GETTYSBURG)


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
    town = {BOC.parse(x) for x in cfg.town_hexes}
    orchards = [f.geom.representative_point() for f in bf.of_kind("orchard")]
    th = cfg.thresholds
    work: dict[Hex, _HexWork] = {}
    for h in hexes:
        got = sample_hex(bf, layout, h)
        poly, shares = got.poly, got.shares
        w = _HexWork(
            hex=h,
            poly=poly,
            shares=shares,
            height_ft=got.mean_ft,
            p80_ft=got.percentile_ft(80),
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


def classify_sides(
    bf: Battlefield, layout: Layout, work: dict[Hex, _HexWork], cfg: MapgenConfig
) -> dict[Hexside, dict[str, Any]]:
    th = cfg.thresholds
    not_town = {Hexside.between(BOC.parse(a), BOC.parse(b)) for a, b in cfg.not_town_hexsides}
    sides: dict[Hexside, dict[str, Any]] = {}
    for side, got in sample_sides(bf, layout, work).items():
        wa, wb = work[side.a], work[side.b]
        terrain: set[str] = set()
        for kind in ("woods", "orchard", "marsh"):
            if got.share(kind) >= th.side_share:
                terrain.add(kind)
        # Town hexsides: between town hexes, or into a town hex across built-up
        # ground; never the sides the map note excludes (2.2).
        towns = (wa.terrain == "town") + (wb.terrain == "town")
        if side not in not_town and (
            towns == 2 or (towns == 1 and got.share("town") >= th.side_share)
        ):
            terrain.add("town")
        if wa.clear_sides or wb.clear_sides:
            terrain -= {"woods", "orchard"}
        terrain |= _stream_terrain(got)
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


def _stream_terrain(got: SideSample) -> set[str]:
    """BoC's two stream hexsides: a river where the ground says so, else a creek."""
    return {"river" if f.props.extra("class", "creek") == "river" else "creek"
            for f in got.streams}


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
        for key in chain_sides(chain):
            s = sides[key]
            crossing: str | None = None
            if s["terrain"] & {"river", "creek"}:
                # A road over a stream crosses by the recorded bridge or ford (2.2).
                found = crossing_near(layout, key, f, crossings)
                crossing = found.kind if found else "bridge"
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


# --- step 6: entries, victory hexes, names -------------------------------------------


def find_entries(
    bf: Battlefield,
    layout: Layout,
    work: dict[Hex, _HexWork],
    traces: dict[str, list[Hex]],
    cfg: MapgenConfig,
) -> tuple[dict[Hex, list[str]], list[dict[str, Any]]]:
    """Edge hex where each entry road leaves the map (pinned hexes win)."""
    area = footprint(layout, work)
    out: dict[Hex, list[str]] = {}
    report: list[dict[str, Any]] = []
    for e in cfg.entry_roads:
        try:
            f = _feature_by_name(bf, e.road, "road")
        except BattlefieldError:
            f = None
        derived = exit_hex(f.geom, traces.get(f.id, []), area) if f is not None else None
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
            h = hex_of_place(bf, layout, v.place)
        if h not in work:
            raise ValueError(f"mapgen.yaml victory: {v.name} falls off the map at {h}")
        out[h] = (v.name, v.vp)
    return out


def hex_names(bf: Battlefield, layout: Layout, work: dict[Hex, _HexWork]) -> dict[Hex, list[str]]:
    return place_names(bf, layout, work)


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
