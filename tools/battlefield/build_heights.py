"""Sample the DEM onto the project's height grid and estimate the ground outside it.

Writes ``src/gettysburg/data/battlefield/heights.json.gz``.
Run: ``.venv/bin/python tools/battlefield/build_heights.py`` (needs ../shared/reference).
"""

from __future__ import annotations

import gzip
import json

import numpy as np
from common import EAST, M_TO_FT, NORTH, OUT_DIR, SOUTH, WEST, Dem, to_xy
from estimates import EST_POINTS
from scipy.interpolate import RBFInterpolator

DLON = 0.0004
DLAT = 0.0003


def grid_shape() -> tuple[int, int]:
    ncols = round((EAST - WEST) / DLON) + 1
    nrows = round((NORTH - SOUTH) / DLAT) + 1
    return ncols, nrows


def build() -> dict[str, object]:
    dem = Dem()
    ncols, nrows = grid_shape()
    lons = [round(WEST + i * DLON, 6) for i in range(ncols)]
    lats = [round(SOUTH + j * DLAT, 6) for j in range(nrows)]
    z = np.full((nrows, ncols), np.nan)
    for j, lat in enumerate(lats):
        for i, lon in enumerate(lons):
            if dem.covers(lon, lat):
                z[j, i] = dem.sample(lon, lat) * M_TO_FT
    inside = ~np.isnan(z)

    # Control points for the estimate: DEM nodes near its edge (thinned), plus estimates.
    from scipy.ndimage import binary_erosion

    core = binary_erosion(inside, iterations=6)
    band = inside & ~core
    jj, ii = np.nonzero(band)
    keep = ((jj % 3) == 0) & ((ii % 3) == 0)
    jj, ii = jj[keep], ii[keep]
    pts = [to_xy(lats[j], lons[i]) for j, i in zip(jj, ii, strict=True)]
    vals = [float(z[j, i]) for j, i in zip(jj, ii, strict=True)]
    for _id, _name, lat, lon, elev, _note in EST_POINTS:
        if not dem.covers(lon, lat):
            pts.append(to_xy(lat, lon))
            vals.append(float(elev))
    rbf = RBFInterpolator(np.array(pts), np.array(vals), kernel="thin_plate_spline", smoothing=50.0)
    oj, oi = np.nonzero(~inside)
    q = np.array([to_xy(lats[j], lons[i]) for j, i in zip(oj, oi, strict=True)])
    est = rbf(q)
    z[oj, oi] = np.clip(est, 380.0, 800.0)
    rows = [[round(float(v)) for v in row] for row in z]
    return {
        "crs": "EPSG:4326",
        "units": "ft",
        "west": WEST,
        "south": SOUTH,
        "dlon": DLON,
        "dlat": DLAT,
        "ncols": ncols,
        "nrows": nrows,
        "origin": "south-west, rows run northward",
        "source": (
            "AWS Terrain Tiles (Terrarium, zoom 14, x 4675-4677, y 6212-6218; built from USGS "
            "3DEP), bilinear samples at each node, metres converted to feet"
        ),
        "dem_coverage": {
            "west": round(dem.west, 6),
            "east": round(dem.east, 6),
            "south": round(dem.south, 6),
            "north": round(dem.north, 6),
        },
        "estimated_note": (
            f"Nodes outside the DEM coverage (west of lon {dem.west:.4f}, east of lon "
            f"{dem.east:.4f}, north of lat {dem.north:.4f}) are ESTIMATES: a thin-plate-spline "
            "fit through the DEM edge and the estimated spot heights in relief.geojson "
            "(source 'est.'); expect errors of 20-40 ft there."
        ),
        "rows": rows,
    }


def main() -> None:
    data = build()
    raw = json.dumps(data, separators=(",", ":")).encode()
    out = OUT_DIR / "heights.json.gz"
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("wb") as fh, gzip.GzipFile(fileobj=fh, mode="wb", mtime=0, filename="") as gz:
        gz.write(raw)
    print(f"wrote {out} ({out.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
