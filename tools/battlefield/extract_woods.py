"""Trace 1863 woodlots from the CMH staff-ride maps and write landcover.geojson.

Method (all in map-4 pixel space):
1. On each printing (maps 3, 4, 5) find the woods stipple: the structure tensor of the
   grey image (sigma 5 px) has high energy (many edges) but low coherence (the little
   tree symbols point every way, while hachures, roads and creeks are oriented).
   Thick strokes (unit bars, large lettering) are masked out first.
2. Maps 3 and 5 are warped into map 4's pixel frame (affine from georef.py) and a pixel
   is woods where at least two of the three printings say so (troop bars differ from
   map to map, so the vote fills the woods they hide and drops their outlines).
3. Morphological clean-up, the town and the legend are removed, contours become
   polygons, transformed to WGS84 with the map-4 least-squares fit, simplified (~12 m).
4. Polygons are named from the woodlot anchors in tables.WOODS_NAMES.
Hand-drawn polygons (town, orchard, marsh, rocks, field, woods outside the maps) come
from tables.LANDCOVER.

Run: ``.venv/bin/python tools/battlefield/extract_woods.py`` (after georef.py).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
from common import MAP_DIR, OUT_DIR, dump_geojson, require_reference, round_coords, to_latlon, to_xy
from georef import MAP3, MAP4, MAP5
from numpy.typing import NDArray
from PIL import Image
from scipy import ndimage as ndi
from shapely.geometry import MultiPoint, MultiPolygon, Point, Polygon, mapping, shape
from shapely.ops import unary_union, voronoi_diagram
from skimage import measure, morphology
from skimage.transform import AffineTransform, warp
from tables import LANDCOVER, TOWN_POLYGON, WOODS_NAMES, WOODS_REMOVE

HERE = Path(__file__).resolve().parent
NAME_RADIUS_M = 700.0

# Map-4 pixel boxes (x0, y0, x1, y1) where lettering or troop bars printed identically on
# maps 4 and 5 fool the texture filter (checked by eye: no woods drawn there).
MAP4_EXCLUDE: list[tuple[int, int, int, int]] = [
    (395, 445, 560, 560),  # "Rodes" bar and lettering south-west of town
    (295, 170, 350, 345),  # "Early" bar and lettering east of town
    (945, 670, 1010, 725),  # III Corps bar at the Peach Orchard (orchard, not woods)
]


def stipple_mask(g: NDArray[np.float64]) -> tuple[NDArray[np.bool_], NDArray[np.bool_]]:
    """(woods, known): woods stipple, and where the printing can be read at all (not
    under unit bars or big lettering)."""
    gs = ndi.gaussian_filter(g, 0.7)
    gx = ndi.sobel(gs, 1)
    gy = ndi.sobel(gs, 0)
    s = 5.0
    jxx = ndi.gaussian_filter(gx * gx, s)
    jyy = ndi.gaussian_filter(gy * gy, s)
    jxy = ndi.gaussian_filter(gx * gy, s)
    tr = jxx + jyy
    coh = np.sqrt((jxx - jyy) ** 2 + 4 * jxy**2) / (tr + 1e-9)
    thick = morphology.opening(g < 0.45, morphology.disk(2))
    thick = morphology.remove_small_objects(thick, max_size=8)
    thick = morphology.dilation(thick, morphology.disk(7))
    m = (tr > 1.2) & (coh < 0.42) & ~thick
    m = morphology.opening(m, morphology.disk(3))
    known = ~morphology.dilation(thick, morphology.disk(4))
    return np.asarray(m, dtype=bool), np.asarray(known, dtype=bool)


def load(name: str) -> NDArray[np.float64]:
    return np.asarray(Image.open(MAP_DIR / name).convert("L"), dtype=float) / 255.0


def woods_mask_map4(fits: dict[str, Any]) -> NDArray[np.bool_]:
    a = load(MAP4)
    w4, k4 = stipple_mask(a)
    votes = w4.astype(np.int8)
    known = k4.astype(np.int8)
    for key, name in (("map3", MAP3), ("map5", MAP5)):
        h = np.array(fits[key]["map4_px_to_this_px"])
        tf = AffineTransform(matrix=h)
        wb, kb = stipple_mask(load(name))
        wbw = warp(wb.astype(float), tf, output_shape=a.shape, order=0, cval=0.0) > 0.5
        kbw = warp(kb.astype(float), tf, output_shape=a.shape, order=0, cval=0.0) > 0.5
        votes += wbw.astype(np.int8)
        known += kbw.astype(np.int8)
    # woods where at least half of the printings that can be read there show stipple
    # (and at least two when all three are readable)
    strong = votes >= 2
    m = strong | ((votes >= 1) & (known <= 2) & (2 * votes >= known))
    # drop patches carried by a single printing only (troop-bar outlines, lettering)
    lab, n = ndi.label(m)
    if n:
        frac = ndi.mean(strong.astype(float), lab, index=np.arange(1, n + 1))
        keep = np.r_[False, np.asarray(frac) >= 0.3]
        m = keep[lab]
    m = morphology.closing(m, morphology.disk(7))
    m = morphology.opening(m, morphology.disk(3))
    h_, w_ = m.shape
    m[:22, :] = False
    m[h_ - 16 :, :] = False
    m[:, :22] = False
    m[:, w_ - 40 :] = False
    m[:325, 1120:] = False  # legend box
    for x0, y0, x1, y1 in MAP4_EXCLUDE:
        m[y0:y1, x0:x1] = False
    m = morphology.remove_small_objects(m, max_size=350)
    m = ndi.binary_fill_holes(m)
    return np.asarray(m, dtype=bool)


def mask_to_polygons(m: NDArray[np.bool_], fit: dict[str, Any]) -> list[Polygon]:
    coef = np.array(fit["px_to_metres"])
    padded = np.pad(m.astype(float), 1)
    polys: list[Polygon] = []
    for c in measure.find_contours(padded, 0.5):
        if len(c) < 8:
            continue
        px = np.c_[c[:, 1] - 1, c[:, 0] - 1, np.ones(len(c))]
        en = px @ coef
        p = Polygon(en).buffer(0)
        if p.is_empty:
            continue
        polys.append(p)
    # contours of holes come back as separate rings; holes were filled, so just union
    merged = unary_union(polys)
    geoms = list(merged.geoms) if isinstance(merged, MultiPolygon) else [merged]
    return [g.simplify(8.0).buffer(0) for g in geoms if g.area > 12_000]  # >1.2 ha


def to_lonlat_poly(p: Polygon) -> Polygon:
    def conv(ring: Any) -> list[tuple[float, float]]:
        out = []
        for x, y in ring.coords:
            lat, lon = to_latlon(x, y)
            out.append((lon, lat))
        return out

    return Polygon(conv(p.exterior), [conv(r) for r in p.interiors])


def _parts(g: Any) -> list[Polygon]:
    if g.is_empty:
        return []
    if isinstance(g, Polygon):
        return [g]
    return [q for q in getattr(g, "geoms", []) if isinstance(q, Polygon)]


def to_lonlat_any(g: Any) -> Polygon | MultiPolygon:
    parts = _parts(g)
    if len(parts) == 1:
        return to_lonlat_poly(parts[0])
    return MultiPolygon([to_lonlat_poly(q) for q in parts])


def hand_polygon(entry: dict[str, Any]) -> Polygon:
    """Polygon in local metres from a LANDCOVER entry: a ring ("coords") or a buffered
    centre line ("line" + "buffer_m")."""
    if "line" in entry:
        from shapely.geometry import LineString

        ln = LineString([to_xy(lat, lon) for lat, lon in entry["line"]])
        return Polygon(ln.buffer(float(entry["buffer_m"])).simplify(3.0).exterior)
    return metres_poly(entry["coords"])


def metres_poly(coords: list[tuple[float, float]]) -> Polygon:
    """(lat, lon) list -> polygon in local metres."""
    return Polygon([to_xy(lat, lon) for lat, lon in coords]).buffer(0)


def main() -> None:
    require_reference()
    fits = json.loads((HERE / "georef_fits.json").read_text())
    m = woods_mask_map4(fits)
    polys = mask_to_polygons(m, fits["map4"])
    town = metres_poly(TOWN_POLYGON)
    removals = [metres_poly(r[1]) for r in WOODS_REMOVE]
    # open ground drawn by hand (fields, orchards) and estimated woods are not traced woods
    removals += [hand_polygon(e) for e in LANDCOVER if e["kind"] in ("field", "orchard", "woods")]
    cleaned: list[Polygon] = []
    for p in polys:
        q = p.difference(town.buffer(30))
        for r in removals:
            q = q.difference(r)
        q = q.buffer(0)
        parts = list(q.geoms) if isinstance(q, MultiPolygon) else [q]
        cleaned.extend(g for g in parts if isinstance(g, Polygon) and g.area > 12_000)
    # name the traced woodlots: a traced patch holding several woodlot anchors is split
    # between them (Voronoi cells, each limited to NAME_RADIUS_M around its anchor);
    # what is left over stays anonymous.
    anchors = [
        (wid, name, aliases, Point(to_xy(lat, lon))) for wid, name, aliases, lat, lon in WOODS_NAMES
    ]
    named: dict[str, tuple[str, list[str], list[Polygon]]] = {}
    anonymous: list[Polygon] = []
    for g in cleaned:
        hits = [a for a in anchors if g.buffer(200).contains(a[3])]
        if not hits:
            anonymous.append(g)
            continue
        if len(hits) == 1:
            cells = {hits[0][0]: g.buffer(2 * NAME_RADIUS_M)}
        else:
            vor = voronoi_diagram(MultiPoint([a[3] for a in hits]), envelope=g.buffer(5000))
            cells = {}
            for cell in vor.geoms:
                for a in hits:
                    if cell.contains(a[3]):
                        cells[a[0]] = cell
        rest = g
        for a in hits:
            part = g.intersection(cells[a[0]]).intersection(a[3].buffer(NAME_RADIUS_M))
            rest = rest.difference(part)
            polys_a = [q for q in _parts(part) if q.area > 3_000]
            if polys_a:
                entry = named.setdefault(a[0], (a[1], list(a[2]), []))
                entry[2].extend(polys_a)
        anonymous.extend(q for q in _parts(rest.buffer(0)) if q.area > 5_000)
    features: list[dict[str, Any]] = []
    src = "CMH staff-ride maps 3/4/5 (georeferenced), stipple traced, 2-of-3 vote"
    order = {a[0]: k for k, a in enumerate(anchors)}
    for wid in sorted(named, key=lambda w: order[w]):
        name, aliases, parts = named[wid]
        u = unary_union(parts)
        geom = to_lonlat_any(u)
        props: dict[str, Any] = {"id": wid, "kind": "woods", "name": name}
        if aliases:
            props["aliases"] = aliases
        props["source"] = src
        features.append(
            {"type": "Feature", "properties": props, "geometry": round_coords(mapping(geom))}
        )
    anonymous.sort(key=lambda g: (-round(g.centroid.y), round(g.centroid.x)))
    for k, g in enumerate(anonymous, start=1):
        props = {"id": f"woods_traced_{k:02d}", "kind": "woods", "name": None, "source": src}
        features.append(
            {
                "type": "Feature",
                "properties": props,
                "geometry": round_coords(mapping(to_lonlat_poly(g))),
            }
        )
    used = set(named)
    missing = [a[1] for a in anchors if a[0] not in used]
    print("woods traced:", len(features), "named anchors not matched:", missing)
    for entry in LANDCOVER:
        geom = to_lonlat_poly(hand_polygon(entry))
        props = {k: v for k, v in entry.items() if k not in ("coords", "line", "buffer_m")}
        features.append(
            {"type": "Feature", "properties": props, "geometry": round_coords(mapping(geom))}
        )
    # sanity: every geometry valid
    for f in features:
        assert shape(f["geometry"]).is_valid, f["properties"]["id"]
    dump_geojson(OUT_DIR / "landcover.geojson", features)
    print("wrote landcover.geojson:", len(features), "features")


if __name__ == "__main__":
    main()
