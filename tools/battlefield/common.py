"""Shared helpers for the battlefield authoring tools (not part of the package).

These tools read the reference material in ``../shared/reference`` (relative to the
repository root) and write the project's own data into
``src/gettysburg/data/battlefield``. They refuse to run when the reference is absent.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray
from PIL import Image

from gettysburg.core.battlefield import bilinear

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = (ROOT / ".." / "shared" / "reference").resolve()
DEM_DIR = REFERENCE / "dem"
MAP_DIR = REFERENCE / "maps"
OUT_DIR = ROOT / "src" / "gettysburg" / "data" / "battlefield"

ZOOM = 14
TILE_X = range(4675, 4678)
TILE_Y = range(6212, 6219)

# Model extent (WGS84 degrees).
WEST, EAST, SOUTH, NORTH = -77.290, -77.195, 39.763, 39.858

# Local equirectangular metres around the battlefield (for fitting and distances).
LAT0 = 39.81
LON0 = -77.24
KX = 111_320.0 * math.cos(math.radians(LAT0))
KY = 110_990.0
M_TO_FT = 1.0 / 0.3048


def require_reference() -> None:
    """Exit unless the reference material is present next to the repository."""
    if not DEM_DIR.is_dir() or not MAP_DIR.is_dir():
        sys.exit(f"reference material not found at {REFERENCE}; these tools only run beside it")


def to_xy(lat: float, lon: float) -> tuple[float, float]:
    """Local metres east/north of (LAT0, LON0)."""
    return (lon - LON0) * KX, (lat - LAT0) * KY


def to_latlon(x: float, y: float) -> tuple[float, float]:
    return LAT0 + y / KY, LON0 + x / KX


def tile_lonlat(tx: float, ty: float) -> tuple[float, float]:
    """Web-mercator tile coordinates (fractional) at ZOOM to lon/lat."""
    n = 2.0**ZOOM
    lon = tx / n * 360.0 - 180.0
    lat = math.degrees(math.atan(math.sinh(math.pi * (1.0 - 2.0 * ty / n))))
    return lon, lat


def lonlat_tile(lon: float, lat: float) -> tuple[float, float]:
    n = 2.0**ZOOM
    tx = (lon + 180.0) / 360.0 * n
    ty = (1.0 - math.asinh(math.tan(math.radians(lat))) / math.pi) / 2.0 * n
    return tx, ty


# Modern earthworks removed from the DEM before use (lat, lon polylines / points).
# US 15 (1960s four-lane bypass): cuts and fills across the south of the field,
# including a ~12 m embankment across the Plum Run valley. Traced on a DEM hillshade.
US15: list[tuple[float, float]] = [
    (39.75389, -77.26878),
    (39.75501, -77.26792),
    (39.76379, -77.26062),
    (39.76906, -77.24946),
    (39.77665, -77.22972),
    (39.78918, -77.21427),
    (39.79083, -77.21187),
]
US15_HALF_WIDTH_M = 75.0
# Modern quarry pit east of Rock Creek (about 17 m deep in the DEM).
QUARRY: tuple[float, float] = (39.8012, -77.2137)  # centre


def _harmonic_fill(z: NDArray[np.float64], mask: NDArray[np.bool_]) -> NDArray[np.float64]:
    """Replace z under mask by a smooth (Laplace) surface that meets the rim."""
    out = z.copy()
    idx = np.argwhere(mask)
    if len(idx) == 0:
        return out
    i0, j0 = idx.min(0) - 2
    i1, j1 = idx.max(0) + 3
    i0, j0 = max(i0, 0), max(j0, 0)
    sub = out[i0:i1, j0:j1]
    m = mask[i0:i1, j0:j1]
    # start from the mean of the rim
    from scipy import ndimage as ndi

    rim = ndi.binary_dilation(m, iterations=2) & ~m
    sub[m] = sub[rim].mean()
    for _ in range(3000):
        avg = 0.25 * (
            np.roll(sub, 1, 0) + np.roll(sub, -1, 0) + np.roll(sub, 1, 1) + np.roll(sub, -1, 1)
        )
        sub[m] = avg[m]
    out[i0:i1, j0:j1] = sub
    return out


class Dem:
    """Mosaic of the Terrarium tiles, elevations in metres (modern earthworks removed)."""

    def __init__(self, patch: bool = True) -> None:
        require_reference()
        rows = []
        for ty in TILE_Y:
            row = []
            for tx in TILE_X:
                im = np.asarray(
                    Image.open(DEM_DIR / f"t_{ZOOM}_{tx}_{ty}.png").convert("RGB"), dtype=float
                )
                row.append(im[:, :, 0] * 256.0 + im[:, :, 1] + im[:, :, 2] / 256.0 - 32768.0)
            rows.append(np.hstack(row))
        self.z: NDArray[np.float64] = np.vstack(rows)
        self.x0 = TILE_X.start
        self.y0 = TILE_Y.start
        self.west, self.north = tile_lonlat(TILE_X.start, TILE_Y.start)
        self.east, self.south = tile_lonlat(TILE_X.stop, TILE_Y.stop)
        if patch:
            self._remove_modern_works()

    def _remove_modern_works(self) -> None:
        from scipy import ndimage as ndi
        from shapely.geometry import LineString, Point

        h, w = self.z.shape
        jj, ii = np.meshgrid(np.arange(w), np.arange(h))
        # US 15 corridor
        line = LineString([self.pixel(lon, lat) for lat, lon in US15])
        px_m = 7.34  # metres per pixel at this latitude and zoom
        near = np.zeros(self.z.shape, dtype=bool)
        minx, miny, maxx, maxy = line.buffer(US15_HALF_WIDTH_M / px_m).bounds
        box = (ii >= miny) & (ii <= maxy) & (jj >= minx) & (jj <= maxx)
        corridor = line.buffer(US15_HALF_WIDTH_M / px_m)
        for i, j in np.argwhere(box):
            if corridor.contains(Point(j, i)):
                near[i, j] = True
        self.z = _harmonic_fill(self.z, near)
        # quarry: the closed depression around QUARRY, grown by 3 px
        qx, qy = self.pixel(QUARRY[1], QUARRY[0])
        r = 40
        i0, j0 = round(qy) - r, round(qx) - r
        sub = self.z[i0 : i0 + 2 * r, j0 : j0 + 2 * r]
        rim_level = float(np.percentile(sub, 60))
        pit = sub < rim_level - 2.0
        lab, _n = ndi.label(pit)
        k = lab[r, r]
        if k:
            m = np.zeros(self.z.shape, dtype=bool)
            m[i0 : i0 + 2 * r, j0 : j0 + 2 * r] = ndi.binary_dilation(lab == k, iterations=12)
            self.z = _harmonic_fill(self.z, m)

    def covers(self, lon: float, lat: float, margin_px: float = 1.0) -> bool:
        px, py = self.pixel(lon, lat)
        h, w = self.z.shape
        return margin_px <= px <= w - 1 - margin_px and margin_px <= py <= h - 1 - margin_px

    def pixel(self, lon: float, lat: float) -> tuple[float, float]:
        """Fractional pixel position (pixel centres at integer + 0.5 offsets removed)."""
        tx, ty = lonlat_tile(lon, lat)
        return (tx - self.x0) * 256.0 - 0.5, (ty - self.y0) * 256.0 - 0.5

    def pixel_lonlat(self, px: float, py: float) -> tuple[float, float]:
        return tile_lonlat(self.x0 + (px + 0.5) / 256.0, self.y0 + (py + 0.5) / 256.0)

    def sample(self, lon: float, lat: float) -> float:
        """Bilinear elevation in metres (caller checks coverage)."""
        px, py = self.pixel(lon, lat)
        return bilinear(self.z, px, py)


def r6(v: float) -> float:
    return round(v + 0.0, 6)


def dump_geojson(path: Path, features: list[dict[str, Any]]) -> None:
    """Write a FeatureCollection with one feature per line (diff-friendly)."""
    lines = ['{"type": "FeatureCollection", "features": [']
    for i, f in enumerate(features):
        sep = "," if i < len(features) - 1 else ""
        lines.append(json.dumps(f, ensure_ascii=False, separators=(", ", ": ")) + sep)
    lines.append("]}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def round_coords(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {k: round_coords(v) for k, v in obj.items()}
    if isinstance(obj, float):
        return r6(obj)
    if isinstance(obj, (list, tuple)):
        return [round_coords(v) for v in obj]
    return obj
