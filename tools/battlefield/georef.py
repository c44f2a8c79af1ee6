"""Georeference the CMH staff-ride maps (3, 4, 5) and the Sneden map.

Map 4 carries hand-measured ground control points (GCPs): pixel positions of landmarks
whose coordinates are in ../shared/spec/landmarks.md. Maps 3 and 5 are printings of the
same base drawing; their pixel positions for the same GCPs are obtained by registering
each image to map 4 (ORB features + RANSAC affine, fixed seed), and each map is then
fitted on its own by least squares (affine pixel -> local metres). Sneden's map is a
sketch with its own hand-measured GCPs and is used only as a cross-check.

Run: ``.venv/bin/python tools/battlefield/georef.py`` prints the fits and residuals and
writes ``tools/battlefield/georef_fits.json`` (used by extract_woods.py).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
from common import MAP_DIR, require_reference, to_latlon, to_xy
from numpy.typing import NDArray
from PIL import Image

HERE = Path(__file__).resolve().parent

MAP4 = "cmh-staffride-map4-2july1863.png"
MAP3 = "cmh-staffride-map3-1july1863.png"
MAP5 = "cmh-staffride-map5-3july1863.png"
SNEDEN = "sneden-1863-positions-july1-3.png"

# Map 4 GCPs: name -> ((px, py), (lat, lon), landmarks.md reference)
GCP_MAP4: dict[str, tuple[tuple[float, float], tuple[float, float], str]] = {
    "diamond": ((366, 402), (39.8309, -77.2311), "town square, R11"),
    "chambersburg_pike_x_willoughby_run": ((188, 806), (39.8400, -77.2565), "road table, DEM"),
    "fairfield_road_x_willoughby_run": ((505, 855), (39.8255, -77.2590), "road table, DEM"),
    "peach_orchard_junction": ((979, 704), (39.8020, -77.2508), "Emmitsburg/Wheatfield Rd"),
    "baltimore_pike_x_rock_creek": ((898, 95), (39.8053, -77.2120), "road table, DEM"),
    "wheatfield_road_x_plum_run": ((1043, 514), (39.7987, -77.2400), "road table, R25"),
    "powers_hill": ((874, 218), (39.8060, -77.2195), "R45, DEM summit"),
    "york_pike_x_rock_creek": ((283, 244), (39.8353, -77.2196), "road table, DEM"),
    "hanover_road_x_rock_creek": ((367, 206), (39.8305, -77.2182), "road table, DEM"),
    "codori_house": ((812, 563), (39.8113, -77.2401), "R19"),
    "seminary": ((357, 602), (39.8319, -77.2447), "R39"),
    "mcpherson_farm": ((239, 764), (39.8372, -77.2512), "R14"),
    "leister_house": ((739, 432), (39.8145, -77.2325), "R17"),
}

# Sneden (north up, a sketch): name -> ((px, py), (lat, lon))
GCP_SNEDEN: dict[str, tuple[tuple[float, float], tuple[float, float], str]] = {
    "seminary": ((415, 408), (39.8319, -77.2447), "R39 (cupola symbol)"),
    "york_pike_x_rock_creek": ((892, 392), (39.8353, -77.2196), "road table"),
    "hanover_road_x_rock_creek": ((900, 450), (39.8305, -77.2182), "road table"),
    "culps_hill": ((830, 753), (39.8201, -77.2204), "R1 (hachured summit)"),
    "powers_hill": ((814, 1032), (39.8060, -77.2195), "R45 (hachured summit)"),
    "rose_house": ((281, 1272), (39.7970, -77.2492), "R23"),
    "big_round_top": ((556, 1426), (39.7863, -77.2392), "R4 (Round Top Mountain)"),
    "sherfy_house": ((346, 1184), (39.8037, -77.2490), "R21"),
    "codori_house": ((472, 974), (39.8113, -77.2401), "R19"),
}


def fit_affine(px: NDArray[np.float64], xy: NDArray[np.float64]) -> NDArray[np.float64]:
    """Least-squares affine, rows [x, y, 1] @ coef -> metres. Returns a 3x2 matrix."""
    a = np.c_[px, np.ones(len(px))]
    coef, *_ = np.linalg.lstsq(a, xy, rcond=None)
    return np.asarray(coef)


def register_to_map4(name: str) -> NDArray[np.float64]:
    """Affine 3x3 taking map-4 pixels to pixels of ``name`` (ORB + RANSAC, fixed seed)."""
    from skimage.feature import ORB, match_descriptors
    from skimage.measure import ransac
    from skimage.transform import AffineTransform

    def load(f: str) -> NDArray[np.float64]:
        return np.asarray(Image.open(MAP_DIR / f).convert("L"), dtype=float) / 255.0

    a, b = load(MAP4), load(name)
    orb = ORB(n_keypoints=4000, fast_threshold=0.05)
    orb.detect_and_extract(a)
    ka, da = orb.keypoints, orb.descriptors
    orb.detect_and_extract(b)
    kb, db = orb.keypoints, orb.descriptors
    m = match_descriptors(da, db, cross_check=True, max_ratio=0.85)
    src = ka[m[:, 0]][:, ::-1]
    dst = kb[m[:, 1]][:, ::-1]
    model, inliers = ransac(
        (src, dst),
        AffineTransform,
        min_samples=3,
        residual_threshold=2.5,
        max_trials=5000,
        rng=0,
    )
    print(f"  {name}: {len(m)} matches, {int(inliers.sum())} inliers")
    return np.asarray(model.params)


def refine(name: str, h: NDArray[np.float64], p4: tuple[float, float]) -> tuple[float, float]:
    """Locate a map-4 GCP on another printing: predict with ``h``, then refine by
    normalised cross-correlation of a 61x61 map-4 patch within +-10 px."""
    from skimage.feature import match_template
    from skimage.transform import AffineTransform, warp

    a = np.asarray(Image.open(MAP_DIR / MAP4).convert("L"), dtype=float) / 255.0
    b = np.asarray(Image.open(MAP_DIR / name).convert("L"), dtype=float) / 255.0
    # bring b into map-4 pixel space so the patch scales agree
    bw = warp(b, AffineTransform(matrix=h), output_shape=a.shape, order=1, cval=1.0)
    x, y = round(p4[0]), round(p4[1])
    r, s = 30, 10
    patch = a[y - r : y + r + 1, x - r : x + r + 1]
    win = bw[y - r - s : y + r + s + 1, x - r - s : x + r + s + 1]
    cc = match_template(win, patch)
    dy, dx = np.unravel_index(int(np.argmax(cc)), cc.shape)
    q4 = (p4[0] + dx - s, p4[1] + dy - s)
    q = h @ np.array([q4[0], q4[1], 1.0])
    return (float(q[0]), float(q[1]))


def describe_fit(
    name: str, gcps: dict[str, tuple[tuple[float, float], tuple[float, float], str]]
) -> dict[str, Any]:
    px = np.array([g[0] for g in gcps.values()], dtype=float)
    xy = np.array([to_xy(*g[1]) for g in gcps.values()])
    coef = fit_affine(px, xy)
    res = np.c_[px, np.ones(len(px))] @ coef - xy
    dist = np.hypot(res[:, 0], res[:, 1])
    inv = fit_affine(xy, px)
    scale = float(np.sqrt(abs(np.linalg.det(coef[:2]))))
    return {
        "map": name,
        "px_to_metres": coef.round(6).tolist(),
        "metres_to_px": inv.round(8).tolist(),
        "metres_per_px": round(scale, 3),
        "rms_m": round(float(np.sqrt((dist**2).mean())), 1),
        "max_m": round(float(dist.max()), 1),
        "gcps": {
            k: {
                "px": [round(float(p), 1) for p in g[0]],
                "latlon": list(g[1]),
                "residual_m": round(float(d), 1),
            }
            for (k, g), d in zip(gcps.items(), dist, strict=True)
        },
    }


def px_to_latlon(fit: dict[str, Any], x: float, y: float) -> tuple[float, float]:
    c = np.array(fit["px_to_metres"])
    e, n = np.array([x, y, 1.0]) @ c
    return to_latlon(float(e), float(n))


def main() -> None:
    require_reference()
    fits: dict[str, Any] = {}
    fits["map4"] = describe_fit(MAP4, GCP_MAP4)
    for key, name in (("map3", MAP3), ("map5", MAP5)):
        h = register_to_map4(name)
        moved = {k: (refine(name, h, g[0]), g[1], g[2]) for k, g in GCP_MAP4.items()}
        fit = describe_fit(name, moved)  # type: ignore[arg-type]
        fit["map4_px_to_this_px"] = h.round(8).tolist()
        fits[key] = fit
    if len(GCP_SNEDEN) >= 8:
        fits["sneden"] = describe_fit(SNEDEN, GCP_SNEDEN)
    for key, fit in fits.items():
        print(f"{key}: {fit['metres_per_px']} m/px, rms {fit['rms_m']} m, max {fit['max_m']} m")
        for k, g in fit["gcps"].items():
            print(f"    {k:38s} {g['residual_m']:7.1f} m")
    (HERE / "georef_fits.json").write_text(json.dumps(fits, indent=1) + "\n")


if __name__ == "__main__":
    main()
