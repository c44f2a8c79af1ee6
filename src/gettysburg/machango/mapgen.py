"""Derive Mundo Machango's strategic board from the one battlefield model.

The choices live in ``data/mapgen.yaml`` (which named places are lines, the entry
roads, every threshold) and what the seed forces in ``data/overrides.yaml`` (the stars,
links to mend); everything else is read from the ground here and written
to ``data/board.json`` with the reason for each value. Re-run with
``python -m gettysburg.machango.mapgen`` after the model or the choices change; a test
derives the board again and compares it byte for byte.

Steps:

1. Lines: each chosen place at its feature's representative point; entry triangles where
   each entry road reaches the model's edge.
2. Links: the Gabriel graph of all of them (a and b are linked when no third point lies
   inside the circle with a-b as diameter) up to ``link_max_m``, so every line is joined
   to its natural neighbours and no link jumps over one.
3. Link kinds: ``road`` when a road follows the link; else ``obstructed`` when woods,
   marsh, rocks or town cover enough of its corridor or it fords a river without a road;
   else ``open``.
4. Heights at each line; artillery symbols from its command of the ground around it
   (height above the ring around it) and how open that ground is.
5. Fields of fire: the links a line's artillery overlooks (near enough for its symbols,
   lower, and open).
6. Entry hours: the arrivals of ``data/oob.yaml`` on each triangle.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ConfigDict
from shapely import geometry as sg

from gettysburg.core.battlefield import Battlefield, load_battlefield
from gettysburg.core.topology import Link, Position, PositionGraph
from gettysburg.machango.paths import DATA


def share(area: sg.base.BaseGeometry, cover: sg.base.BaseGeometry) -> float:
    """The fraction of ``area`` that ``cover`` covers."""
    if cover.is_empty or area.area == 0:
        return 0.0
    return float(area.intersection(cover).area / area.area)



class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class PositionChoice(_Strict):
    id: str
    feature: str
    name: str
    why: str


class EntryRoad(_Strict):
    id: str
    road: str
    name: str


class SymbolRule(_Strict):
    command_ft: float
    open_share: float


class Thresholds(_Strict):
    link_max_m: float
    entry_margin_m: float
    gabriel_shrink: float
    road_near_m: float
    road_near_share: float
    road_detour: float
    corridor_m: float
    obstructing: list[str]
    obstructed_share: float
    command_ring_m: float
    open_disc_m: float
    symbols_2: SymbolRule
    symbols_1: SymbolRule
    range_m_per_symbol: float
    min_drop_ft: float


class LinkOverride(_Strict):
    a: str
    b: str
    kind: str | None = None  # None removes the link
    rule: str


class StarAlternative(_Strict):
    option: str
    replaces: str
    by: str


class MapgenConfig(_Strict):
    positions: list[PositionChoice]
    stars: list[str]
    star_alternative: StarAlternative
    entry_roads: list[EntryRoad]
    thresholds: Thresholds
    link_overrides: list[LinkOverride] = []


def load_config(path: Path | None = None, overrides: Path | None = None) -> MapgenConfig:
    """The derivation's choices (``mapgen.yaml``) with what the seed forces
    (``overrides.yaml``)."""
    raw = yaml.safe_load((path or DATA / "mapgen.yaml").read_text(encoding="utf-8"))
    raw.update(yaml.safe_load((overrides or DATA / "overrides.yaml").read_text(encoding="utf-8")))
    return MapgenConfig.model_validate(raw)


def _lonlat(bf: Battlefield, fid: str) -> tuple[float, float]:
    pt = bf.get(fid).geom.representative_point()
    lon, lat = bf.projection.to_lonlat(pt.x, pt.y)
    return round(lon, 6), round(lat, 6)


def _edge_point(bf: Battlefield, road: str, frame: sg.Polygon) -> tuple[float, float]:
    """Where ``road`` leaves the board's frame, going out from town (the road's first
    crossing of the frame's edge counted from its town end), else its outer end."""
    line = bf.get(road).geom
    start = sg.Point(line.coords[0])
    if not frame.contains(start):
        line = sg.LineString(list(line.coords)[::-1])
    cut = line.intersection(frame.exterior)
    pts = [g for g in getattr(cut, "geoms", [cut]) if not g.is_empty]
    if pts:
        first = min(pts, key=lambda g: line.project(g))
        x, y = first.x, first.y
    else:
        x, y = line.coords[-1]
    lon, lat = bf.projection.to_lonlat(x, y)
    return round(lon, 6), round(lat, 6)


def gabriel_links(points: dict[str, tuple[float, float]], max_m: float,
                  shrink: float = 1.0) -> list[tuple[str, str]]:
    """Pairs (sorted ids) joined in the Gabriel graph of ``points`` (metres), no longer
    than ``max_m``. ``shrink`` < 1 narrows the empty circle a pair needs (its radius is
    ``shrink`` times half the pair's distance), so near-collinear neighbours stay linked."""
    ids = sorted(points)
    out: list[tuple[str, str]] = []
    for i, a in enumerate(ids):
        for b in ids[i + 1:]:
            (ax, ay), (bx, by) = points[a], points[b]
            d = math.hypot(bx - ax, by - ay)
            if d > max_m:
                continue
            mx, my, r2 = (ax + bx) / 2, (ay + by) / 2, (shrink * d / 2) ** 2
            if any((x - mx) ** 2 + (y - my) ** 2 < r2 - 1e-6
                   for c, (x, y) in points.items() if c not in (a, b)):
                continue
            out.append((a, b))
    return out


def planar(points: dict[str, tuple[float, float]], pairs: list[tuple[str, str]]
           ) -> list[tuple[str, str]]:
    """The pairs kept shortest first, dropping any whose segment crosses one already
    kept (a board's links do not cross), sorted."""
    def seg(p: tuple[str, str]) -> sg.LineString:
        return sg.LineString([points[p[0]], points[p[1]]])

    def length(p: tuple[str, str]) -> tuple[float, str, str]:
        return (seg(p).length, p[0], p[1])

    kept: list[tuple[str, str]] = []
    for p in sorted(pairs, key=length):
        s = seg(p)
        if any(set(p).isdisjoint(q) and s.intersects(seg(q)) for q in kept):
            continue
        kept.append(p)
    return sorted(kept)


def _roads_joining(bf: Battlefield, a: tuple[float, float], b: tuple[float, float],
                   th: Thresholds) -> list[str]:
    """Roads that pass near both ends (within ``road_near_m``, and within
    ``road_near_share`` of the link's length, so a short link needs the road close) and
    run between them no longer than ``road_detour`` times the straight distance."""
    out: list[str] = []
    pa, pb = sg.Point(a), sg.Point(b)
    straight = pa.distance(pb)
    near = min(th.road_near_m, th.road_near_share * straight)
    for f in sorted(bf.of_kind("road"), key=lambda f: f.id):
        line = f.geom
        if line.distance(pa) > near or line.distance(pb) > near:
            continue
        along = abs(line.project(pa) - line.project(pb))
        if straight and along <= th.road_detour * straight and along >= 0.5 * straight:
            out.append(f.id)
    return out


def _ring_mean(bf: Battlefield, x: float, y: float, r: float) -> float:
    pts = [(x + r * math.cos(2 * math.pi * k / 16), y + r * math.sin(2 * math.pi * k / 16))
           for k in range(16)]
    return sum(bf.height_xy(px, py) for px, py in pts) / len(pts)


def derive_board(bf: Battlefield | None = None, cfg: MapgenConfig | None = None
                 ) -> dict[str, Any]:
    """The board as JSON data (see the module doc for the steps)."""
    bf = bf or load_battlefield()
    cfg = cfg or load_config()
    th = cfg.thresholds
    oob = yaml.safe_load((DATA / "oob.yaml").read_text(encoding="utf-8"))
    positions: list[Position] = []
    reasons: dict[str, str] = {}
    for choice in cfg.positions:
        lon, lat = _lonlat(bf, choice.feature)
        positions.append(Position(choice.id, choice.name, lon, lat,
                                  {"feature": choice.feature}))
        reasons[choice.id] = choice.why
    # The board's frame: the lines' bounding box grown by entry_margin_m (GoG's board,
    # like BoC's map, shows less than the whole ground model).
    core = [bf.projection.to_xy(q.lon, q.lat) for q in positions]
    frame = sg.box(min(x for x, _ in core), min(y for _, y in core),
                   max(x for x, _ in core), max(y for _, y in core)).buffer(
                       th.entry_margin_m, join_style="mitre")
    for e in cfg.entry_roads:
        lon, lat = _edge_point(bf, e.road, frame)
        positions.append(Position(e.id, e.name, lon, lat, {"feature": e.road}))
        reasons[e.id] = f"R1: where {e.name} reaches the edge of the ground model"
    xy = {p.id: bf.projection.to_xy(p.lon, p.lat) for p in positions}
    pairs = planar(xy, gabriel_links(xy, th.link_max_m, th.gabriel_shrink))
    overrides = {frozenset((o.a, o.b)): o for o in cfg.link_overrides}
    probe = PositionGraph(tuple(positions), tuple(Link(a, b) for a, b in pairs))
    links: list[dict[str, Any]] = []
    covers = bf.area_union
    for a, b in pairs:
        seg = sg.LineString([xy[a], xy[b]])
        corridor = seg.buffer(th.corridor_m / 2, cap_style="flat")
        blocked = round(min(1.0, sum(share(corridor, covers[k]) for k in th.obstructing)), 4)
        rivers = sorted(f.id for f in bf.of_kind("stream")
                        if f.props.extra("class") == "river" and f.geom.intersects(seg))
        roads = _roads_joining(bf, xy[a], xy[b], th)
        if roads:
            kind, why = "road", f"TE5: {', '.join(roads)} joins its ends"
        elif blocked >= th.obstructed_share:
            kind = "obstructed"
            why = f"TE4: {blocked:.0%} of its corridor is woods/marsh/rocks/town"
        elif rivers:
            kind, why = "obstructed", f"TE4: it fords {', '.join(rivers)} with no road"
        else:
            kind, why = "open", f"{blocked:.0%} obstructing cover, no road"
        o = overrides.pop(frozenset((a, b)), None)
        if o is not None:
            if o.kind is None:
                continue
            kind, why = o.kind, f"override ({o.rule})"
        links.append({"a": a, "b": b, "kind": kind, "length_m": round(seg.length, 1),
                      "obstructing_share": blocked, "why": why, "fire_from": []})
    for o in overrides.values():  # links the derivation missed that the rules need
        if o.kind is not None:
            links.append({"a": min(o.a, o.b), "b": max(o.a, o.b), "kind": o.kind,
                          "length_m": round(probe.length_m(o.a, o.b), 1),
                          "obstructing_share": 0.0, "why": f"override ({o.rule})",
                          "fire_from": []})
    links.sort(key=lambda k: (k["a"], k["b"]))
    entries = {e.id for e in cfg.entry_roads}
    nodes: list[dict[str, Any]] = []
    open_cover = [covers[k] for k in ("woods", "town") if not covers[k].is_empty]
    for p in positions:
        x, y = xy[p.id]
        height = bf.height_xy(x, y)
        under = next((k for k in ("woods", "orchard", "town", "marsh", "rocks")
                      if covers[k].contains(sg.Point(x, y))), None)
        command = height - _ring_mean(bf, x, y, th.command_ring_m)
        disc = sg.Point(x, y).buffer(th.open_disc_m)
        opened = 1.0 - min(1.0, sum(share(disc, c) for c in open_cover))
        symbols = 0
        if p.id not in entries:
            for n, rule in ((2, th.symbols_2), (1, th.symbols_1)):
                if command >= rule.command_ft and opened >= rule.open_share:
                    symbols = n
                    break
        nodes.append({
            "id": p.id, "name": p.name, "lon": p.lon, "lat": p.lat,
            "feature": p.attrs["feature"], "kind": "entry" if p.id in entries else "line",
            "height_ft": round(height, 1), "cover": under,
            "command_ft": round(command, 1), "open_share": round(opened, 3),
            "artillery": symbols, "star": p.id in cfg.stars, "why": reasons[p.id],
            "entry_hours": [],
        })
    by_id = {node["id"]: node for node in nodes}
    # Fields of fire (TE6): links the line's guns overlook.
    for node in nodes:
        if not node["artillery"]:
            continue
        reach = th.range_m_per_symbol * node["artillery"]
        nx, ny = xy[node["id"]]
        for k in links:
            if node["id"] in (k["a"], k["b"]) or k["obstructing_share"] >= th.obstructed_share:
                continue
            (ax, ay), (bx, by) = xy[k["a"]], xy[k["b"]]
            mx, my = (ax + bx) / 2, (ay + by) / 2
            if math.hypot(mx - nx, my - ny) > reach:
                continue
            if node["height_ft"] - bf.height_xy(mx, my) < th.min_drop_ft:
                continue
            k["fire_from"].append(node["id"])
    for arr in oob["arrivals"]:
        by_id[arr["entry"]]["entry_hours"].append(
            {"day": arr["day"], "hour": arr["hour"], "side": arr["side"],
             "division": arr["division"]})
    for node in nodes:
        node["entry_hours"].sort(key=lambda e: (e["day"], e["hour"], e["side"], e["division"]))
    return {
        "format": "machango-board", "version": 1,
        "derived_from": "gettysburg/data/battlefield (core/battlefield.py) by machango/mapgen.py",
        "stars": list(cfg.stars),
        "star_alternative": cfg.star_alternative.model_dump(),
        "positions": nodes, "links": links,
    }


def board_text(board: dict[str, Any]) -> str:
    """The board file's exact text (what the re-derivation test compares)."""
    return json.dumps(board, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def main() -> None:
    path = DATA / "board.json"
    path.write_text(board_text(derive_board()), encoding="utf-8")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
