"""Build roads, streams, crossings, places and relief GeoJSON from the tables.

Run: ``.venv/bin/python tools/battlefield/build_vectors.py`` (after georef.py; needs
../shared/reference for the DEM and the map-4 fit).
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any

import flow
import numpy as np
from common import (
    EAST,
    M_TO_FT,
    NORTH,
    OUT_DIR,
    SOUTH,
    WEST,
    Dem,
    dump_geojson,
    require_reference,
    round_coords,
    to_latlon,
    to_xy,
)
from estimates import EST_POINTS
from places_tables import FARMS, LANDMARKS, PLACES, RIDGES, SPOTS
from scipy import ndimage as ndi
from shapely.geometry import LineString, MultiPoint, Point, mapping
from shapely.ops import nearest_points
from tables import RAILROADS, ROADS, STREAMS

HERE = Path(__file__).resolve().parent
EXT_NOTE = "; est.: extended along its bearing to the model extent's edge"

LatLon = tuple[float, float]


def map4_to_latlon(fit: dict[str, Any], px: float, py: float) -> LatLon:
    c = np.array(fit["px_to_metres"])
    e, n = np.array([px, py, 1.0]) @ c
    return to_latlon(float(e), float(n))


def metres_line(pts: list[LatLon]) -> LineString:
    return LineString([to_xy(*p) for p in pts])


def latlon_of(line: LineString) -> list[LatLon]:
    return [to_latlon(x, y) for x, y in line.coords]


def extend_to_edge(a: LatLon, b: LatLon) -> LatLon | None:
    """Continue the ray a->b to the extent box; None if b is already outside."""
    lat, lon = b
    if not (SOUTH <= lat <= NORTH and WEST <= lon <= EAST):
        return None
    dlat, dlon = b[0] - a[0], b[1] - a[1]
    ts = []
    if dlon > 0:
        ts.append((EAST - lon) / dlon)
    if dlon < 0:
        ts.append((WEST - lon) / dlon)
    if dlat > 0:
        ts.append((NORTH - lat) / dlat)
    if dlat < 0:
        ts.append((SOUTH - lat) / dlat)
    t = min(ts)
    if t <= 1e-9:
        return None
    return (lat + t * dlat, lon + t * dlon)


def clip_to_extent(pts: list[LatLon]) -> list[LatLon]:
    """Cut a polyline where it leaves the extent (points outside are dropped, the
    boundary crossing is kept)."""
    from shapely.geometry import box

    ln = LineString([(lon, lat) for lat, lon in pts])
    cl = ln.intersection(box(WEST, SOUTH, EAST, NORTH))
    if cl.geom_type == "MultiLineString":
        cl = max(cl.geoms, key=lambda g: g.length)
    return [(y, x) for x, y in cl.coords]


def feature(props: dict[str, Any], geom: Any) -> dict[str, Any]:
    return {"type": "Feature", "properties": props, "geometry": round_coords(mapping(geom))}


def line_geom(pts: list[LatLon]) -> LineString:
    return LineString([(lon, lat) for lat, lon in pts])


def dedupe(pts: list[LatLon]) -> list[LatLon]:
    out: list[LatLon] = []
    for p in pts:
        if not out or (round(p[0], 6), round(p[1], 6)) != (
            round(out[-1][0], 6),
            round(out[-1][1], 6),
        ):
            out.append(p)
    return out


# ------------------------------------------------------------------ roads
SNAP_M = 80.0


def snap_ends(pts: list[LatLon], others: dict[str, list[LatLon]]) -> list[LatLon]:
    """Move each end point onto the nearest earlier road if it lies within SNAP_M, so
    lanes and streets join the network (ends already on the extent edge stay put)."""
    out = list(pts)
    for k in (0, -1):
        lat, lon = out[k]
        if lat in (SOUTH, NORTH) or lon in (WEST, EAST):
            continue
        p = Point(to_xy(lat, lon))
        best: tuple[float, Point] | None = None
        for opts in others.values():
            ln = metres_line(opts)
            d = ln.distance(p)
            if 0.01 < d < SNAP_M and (best is None or d < best[0]):
                best = (d, nearest_points(ln, p)[0])
        if best:
            out[k] = to_latlon(best[1].x, best[1].y)
    return out


def build_roads(fit: dict[str, Any]) -> tuple[list[dict[str, Any]], dict[str, list[LatLon]]]:
    geoms: dict[str, list[LatLon]] = {}
    feats: list[dict[str, Any]] = []
    for spec in ROADS + RAILROADS:
        pts: list[LatLon] = list(spec.get("pts", []))
        pts += [map4_to_latlon(fit, x, y) for x, y in spec.get("map4", [])]
        pts += list(spec.get("pts_end", []))
        if "snap_start" in spec:
            host = metres_line(geoms[spec["snap_start"]])
            p = nearest_points(host, Point(to_xy(*pts[0])))[0]
            pts.insert(0, to_latlon(p.x, p.y))
        source = spec["source"]
        ext = spec.get("extend")
        if ext in ("end", "both"):
            q = extend_to_edge(pts[-2], pts[-1])
            if q:
                pts.append(q)
                source += EXT_NOTE
        if ext in ("start", "both"):
            q = extend_to_edge(pts[1], pts[0])
            if q:
                pts.insert(0, q)
                source += EXT_NOTE
        pts = dedupe(clip_to_extent(pts))
        pts = snap_ends(pts, geoms)
        geoms[spec["id"]] = pts
        props: dict[str, Any] = {
            "id": spec["id"],
            "kind": spec.get("kind", "road"),
            "name": spec["name"],
        }
        if props["kind"] == "road":
            props["class"] = spec["class"]
        props["aliases"] = list(spec.get("aliases", []))
        props["source"] = source
        if spec.get("note"):
            props["note"] = spec["note"]
        feats.append(feature(props, line_geom(pts)))
    return feats, geoms


# ------------------------------------------------------------------ streams
def trace_to_receiver(
    head: LatLon, receivers: dict[str, list[LatLon]]
) -> tuple[list[LatLon], str | None]:
    path = flow.trace(*head)
    lines = {k: metres_line(v) for k, v in receivers.items()}
    out: list[LatLon] = []
    for i, p in enumerate(path):
        xy = Point(to_xy(*p))
        hit = [(ln.distance(xy), k) for k, ln in lines.items()]
        d, k = min(hit)
        out.append(p)
        if i > 10 and d < 25.0:
            q = nearest_points(lines[k], xy)[0]
            out.append(to_latlon(q.x, q.y))
            return out, k
    return out, None


def simplify_latlon(pts: list[LatLon], tol_m: float) -> list[LatLon]:
    return latlon_of(metres_line(pts).simplify(tol_m))


def build_streams() -> tuple[list[dict[str, Any]], dict[str, list[LatLon]]]:
    geoms: dict[str, list[LatLon]] = {}
    feats: list[dict[str, Any]] = []
    joins = {
        "stream_willoughby_run": "stream_marsh_creek",
        "stream_pitzer_run": "stream_willoughby_run",
        "stream_blochers_run": "stream_rock_creek",
        "stream_stevens_run": "stream_rock_creek",
    }
    for spec in STREAMS:
        source = spec["source"]
        if "trace" in spec:
            raw, _recv = trace_to_receiver(spec["trace"], dict(geoms))
            pts = simplify_latlon(raw, 6.0)
        else:
            pts = list(spec["pts"])
        if spec["id"] in joins and joins[spec["id"]] in geoms:
            host = metres_line(geoms[joins[spec["id"]]])
            q = nearest_points(host, Point(to_xy(*pts[-1])))[0]
            pts.append(to_latlon(q.x, q.y))
        if spec.get("extend") == "end":
            q2 = extend_to_edge(pts[-2], pts[-1])
            if q2:
                pts.append(q2)
                source += EXT_NOTE
        pts = dedupe(clip_to_extent(pts))
        pts = snap_ends(pts, geoms)
        geoms[spec["id"]] = pts
        props: dict[str, Any] = {
            "id": spec["id"],
            "kind": "stream",
            "name": spec["name"],
            "class": spec["class"],
            "aliases": spec.get("aliases", []),
            "source": source,
        }
        if spec.get("note"):
            props["note"] = spec["note"]
        feats.append(feature(props, line_geom(pts)))
    return feats, geoms


# ------------------------------------------------------------------ crossings
KNOWN_CROSSINGS: dict[tuple[str, str], tuple[str, str]] = {
    ("road_baltimore_pike", "stream_rock_creek"): ("bridge", "1863 stone bridge"),
    ("road_york_pike", "stream_rock_creek"): ("bridge", "1863 bridge"),
    ("road_hanover_road", "stream_rock_creek"): ("bridge", "1863 bridge"),
    ("road_harrisburg_road", "stream_rock_creek"): ("bridge", "1863 bridge"),
    ("road_chambersburg_pike", "stream_willoughby_run"): ("bridge", "1863 bridge"),
    ("road_fairfield_road", "stream_willoughby_run"): ("bridge", "1863 bridge"),
    ("road_millerstown_road", "stream_willoughby_run"): ("bridge", "1863 bridge"),
    ("road_millerstown_road", "stream_plum_run"): ("bridge", "culvert (landmarks.md R25)"),
    ("road_chambersburg_pike", "stream_marsh_creek"): ("bridge", "Marsh Creek bridge"),
    ("road_fairfield_road", "stream_marsh_creek"): ("bridge", "bridge at Black Horse Tavern"),
    ("road_emmitsburg_road", "stream_marsh_creek"): ("bridge", "bridge at Greenmount"),
    ("railroad_gettysburg", "stream_rock_creek"): ("bridge", "trestle, burned 27 June 1863"),
    ("lane_trostle_lane", "stream_plum_run"): ("ford", "ford (today's US Ave bridge)"),
}


def short(i: str) -> str:
    return re.sub(r"^(road|lane|railroad|stream)_", "", i)


def build_crossings(
    roads: dict[str, list[LatLon]], streams: dict[str, list[LatLon]], road_class: dict[str, str]
) -> list[dict[str, Any]]:
    feats: list[dict[str, Any]] = []
    for rid, rpts in roads.items():
        rl = line_geom(rpts)
        for sid, spts in streams.items():
            inter = rl.intersection(line_geom(spts))
            if inter.is_empty:
                continue
            pts = list(inter.geoms) if isinstance(inter, MultiPoint) else [inter]
            pts = [p for p in pts if p.geom_type == "Point"]
            pts.sort(key=lambda p: (-p.y, p.x))
            for n, p in enumerate(pts):
                cls = road_class.get(rid, "rail")
                known = KNOWN_CROSSINGS.get((rid, sid))
                if known:
                    kind, note = known
                    source = "landmarks.md road/stream tables (1863 crossings)"
                elif cls in ("pike", "rail", "road") and not rid.startswith("railroad_bed"):
                    kind, note = "bridge", "est.: bridge or culvert assumed on a main road"
                    source = "est.: computed road/stream intersection"
                elif rid.startswith("railroad_bed"):
                    kind, note = "bridge", "est.: culvert/fill of the unfinished railroad bed"
                    source = "est.: computed road/stream intersection"
                else:
                    kind, note = "ford", "est.: farm lane ford"
                    source = "est.: computed road/stream intersection"
                cid = f"{kind}_{short(rid)}_{short(sid)}" + (f"_{n + 1}" if len(pts) > 1 else "")
                props = {
                    "id": cid,
                    "kind": kind,
                    "name": f"{feats_name(rid, roads_names)} over {feats_name(sid, stream_names)}",
                    "road": rid,
                    "stream": sid,
                    "source": source,
                    "note": note,
                }
                feats.append(feature(props, p))
    return feats


roads_names: dict[str, str] = {}
stream_names: dict[str, str] = {}


def feats_name(i: str, names: dict[str, str]) -> str:
    return names.get(i, i)


# ------------------------------------------------------------------ places
def dem_ft(dem: Dem, lat: float, lon: float) -> int | None:
    if not dem.covers(lon, lat):
        return None
    return round(dem.sample(lon, lat) * M_TO_FT)


def build_places(dem: Dem) -> list[dict[str, Any]]:
    feats: list[dict[str, Any]] = []
    for lid, name, aliases, lat, lon, elev, source in LANDMARKS:
        props: dict[str, Any] = {
            "id": lid,
            "kind": "landmark",
            "name": name,
            "aliases": aliases,
            "source": source,
        }
        e = elev if elev is not None else dem_ft(dem, lat, lon)
        props["elev_ft"] = e
        if elev is None and e is not None:
            props["source"] = source + "; elev_ft DEM sample"
        if not (WEST <= lon <= EAST and SOUTH <= lat <= NORTH):
            props["note"] = "outside the model extent"
        feats.append(feature(props, Point(lon, lat)))
    for fid, name, aliases, lat, lon, source in FARMS:
        props = {
            "id": fid,
            "kind": "farm",
            "name": name,
            "aliases": aliases,
            "source": source,
            "elev_ft": dem_ft(dem, lat, lon),
        }
        feats.append(feature(props, Point(lon, lat)))
    for pid, name, aliases, lat, lon, tags, source in PLACES:
        props = {
            "id": pid,
            "kind": "place",
            "name": name,
            "aliases": aliases,
            "source": source,
            "tags": tags,
            "elev_ft": dem_ft(dem, lat, lon),
        }
        feats.append(feature(props, Point(lon, lat)))
    return feats


# ------------------------------------------------------------------ relief
def search(
    dem: Dem, lat: float, lon: float, mode: str, radius: float
) -> tuple[float, float, float]:
    best = (lat, lon, dem.sample(lon, lat))
    if mode == "at" or radius <= 0:
        return best
    step = 5.0
    n = int(radius // step)
    x0, y0 = to_xy(lat, lon)
    for i in range(-n, n + 1):
        for j in range(-n, n + 1):
            if math.hypot(i, j) * step > radius:
                continue
            la, lo = to_latlon(x0 + i * step, y0 + j * step)
            if not dem.covers(lo, la):
                continue
            z = dem.sample(lo, la)
            if (mode == "max" and z > best[2] + 1e-9) or (mode == "min" and z < best[2] - 1e-9):
                best = (la, lo, z)
    return best


def snap_ridge(dem: Dem, pts: list[LatLon]) -> list[LatLon]:
    out: list[LatLon] = []
    xy = [to_xy(*p) for p in pts]
    for k, (x, y) in enumerate(xy):
        a = xy[max(k - 1, 0)]
        b = xy[min(k + 1, len(xy) - 1)]
        dx, dy = b[0] - a[0], b[1] - a[1]
        ln = math.hypot(dx, dy)
        nx, ny = -dy / ln, dx / ln
        best: tuple[float, float, float] | None = None
        for s in range(-150, 151, 5):
            la, lo = to_latlon(x + nx * s, y + ny * s)
            if not dem.covers(lo, la):
                continue
            z = dem.sample(lo, la) - abs(s) * 0.01  # mild preference for the guide
            if best is None or z > best[2]:
                best = (la, lo, z)
        out.append((best[0], best[1]) if best else pts[k])
    return out


def build_relief(dem: Dem, streams: dict[str, list[LatLon]]) -> list[dict[str, Any]]:
    feats: list[dict[str, Any]] = []
    seen: set[str] = set()
    for sid, name, lat, lon, mode, radius in SPOTS:
        la, lo, z = search(dem, lat, lon, mode, radius)
        feats.append(
            feature(
                {
                    "id": sid,
                    "kind": "spot_height",
                    "name": name,
                    "elev_ft": round(z * M_TO_FT),
                    "source": f"DEM sample (AWS Terrain Tiles), {mode} within "
                    f"{radius:g} m of landmarks.md point",
                },
                Point(lo, la),
            )
        )
        seen.add(sid)
    # automatic summits: local maxima of the DEM over ~600 m windows
    z = dem.z
    zs = ndi.gaussian_filter(z, 2)
    mx = ndi.maximum_filter(zs, size=81)
    peaks = np.argwhere((zs == mx) & (zs > ndi.minimum_filter(zs, size=81) + 6))
    n = 0
    for i, j in sorted(peaks.tolist()):
        lo, la = dem.pixel_lonlat(j, i)
        if not (WEST <= lo <= EAST and SOUTH <= la <= NORTH) or not dem.covers(lo, la, 8):
            continue
        n += 1
        feats.append(
            feature(
                {
                    "id": f"spot_summit_{n:02d}",
                    "kind": "spot_height",
                    "name": None,
                    "elev_ft": round(dem.sample(lo, la) * M_TO_FT),
                    "source": "DEM local maximum (AWS Terrain Tiles)",
                },
                Point(lo, la),
            )
        )
    # valley floors along the streams, every ~600 m
    for sid, pts in streams.items():
        ln = metres_line(pts)
        k = 0
        d = 300.0
        while d < ln.length:
            p = ln.interpolate(d)
            la, lo = to_latlon(p.x, p.y)
            if dem.covers(lo, la):
                la2, lo2, zz = search(dem, la, lo, "min", 20)
                k += 1
                feats.append(
                    feature(
                        {
                            "id": f"spot_{short(sid)}_{k:02d}",
                            "kind": "spot_height",
                            "name": None,
                            "elev_ft": round(zz * M_TO_FT),
                            "source": "DEM valley-floor sample along the stream",
                        },
                        Point(lo2, la2),
                    )
                )
            d += 600.0
    for eid, name, lat, lon, elev, note in EST_POINTS:
        if dem.covers(lon, lat):
            continue
        feats.append(
            feature(
                {
                    "id": f"spot_est_{eid}",
                    "kind": "spot_height",
                    "name": name,
                    "elev_ft": elev,
                    "source": "est.: outside the DEM coverage",
                    "note": note,
                },
                Point(lon, lat),
            )
        )
    for r in RIDGES:
        pts = snap_ridge(dem, r["pts"])
        feats.append(
            feature(
                {
                    "id": r["id"],
                    "kind": "ridge_line",
                    "name": r["name"],
                    "source": "landmarks.md points, snapped to the DEM crest",
                },
                line_geom(pts),
            )
        )
    for sid, pts in streams.items():
        nm = stream_names[sid]
        feats.append(
            feature(
                {
                    "id": f"valley_{short(sid)}",
                    "kind": "valley_line",
                    "name": f"{nm} valley",
                    "stream": sid,
                    "source": "follows the stream line (streams.geojson)",
                },
                line_geom(pts),
            )
        )
    return feats


def main() -> None:
    require_reference()
    fits = json.loads((HERE / "georef_fits.json").read_text())
    dem = flow.dem()
    road_feats, road_geoms = build_roads(fits["map4"])
    for f in road_feats:
        roads_names[f["properties"]["id"]] = f["properties"]["name"]
    stream_feats, stream_geoms = build_streams()
    for f in stream_feats:
        stream_names[f["properties"]["id"]] = f["properties"]["name"]
    road_class = {f["properties"]["id"]: f["properties"].get("class", "rail") for f in road_feats}
    crossings = build_crossings(road_geoms, stream_geoms, road_class)
    dump_geojson(OUT_DIR / "roads.geojson", road_feats)
    dump_geojson(OUT_DIR / "streams.geojson", stream_feats)
    dump_geojson(OUT_DIR / "crossings.geojson", crossings)
    dump_geojson(OUT_DIR / "places.geojson", build_places(dem))
    dump_geojson(OUT_DIR / "relief.geojson", build_relief(dem, stream_geoms))
    print(f"roads {len(road_feats)}, streams {len(stream_feats)}, crossings {len(crossings)}")


if __name__ == "__main__":
    main()
