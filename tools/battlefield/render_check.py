"""Render the shipped battlefield data to a PNG for eyeballing (not committed).

Run: ``.venv/bin/python tools/battlefield/render_check.py [out.png] [w s e n]``
"""

from __future__ import annotations

import gzip
import json
import math
import sys
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
from common import OUT_DIR
from matplotlib.colors import LightSource


def load(name: str) -> list[dict[str, Any]]:
    p = OUT_DIR / name
    if not p.exists():
        return []
    return list(json.loads(p.read_text())["features"])


def rings(geom: dict[str, Any]) -> list[list[list[float]]]:
    t = geom["type"]
    if t == "Polygon":
        return [geom["coordinates"][0]]
    if t == "MultiPolygon":
        return [p[0] for p in geom["coordinates"]]
    return []


def lines(geom: dict[str, Any]) -> list[list[list[float]]]:
    t = geom["type"]
    if t == "LineString":
        return [geom["coordinates"]]
    if t == "MultiLineString":
        return list(geom["coordinates"])
    return []


def main() -> None:
    out = sys.argv[1] if len(sys.argv) > 1 else "/tmp/battlefield_check.png"
    box = [float(v) for v in sys.argv[2:6]] if len(sys.argv) >= 6 else None
    h = json.loads(gzip.decompress((OUT_DIR / "heights.json.gz").read_bytes()))
    z = np.array(h["rows"], dtype=float)
    w0, s0 = h["west"], h["south"]
    e0 = w0 + (h["ncols"] - 1) * h["dlon"]
    n0 = s0 + (h["nrows"] - 1) * h["dlat"]
    aspect = 1 / math.cos(math.radians(39.81))
    fig, ax = plt.subplots(figsize=(14, 14 * aspect * (n0 - s0) / (e0 - w0)), dpi=110)
    ls = LightSource(azdeg=315, altdeg=40)
    dx = h["dlon"] * 111320 * math.cos(math.radians(39.81))
    dy = h["dlat"] * 110990
    shade = ls.hillshade(z[::-1] * 0.3048, vert_exag=3, dx=dx, dy=dy)
    ax.imshow(shade, cmap="gray", extent=(w0, e0, s0, n0), alpha=0.9)
    ax.contour(
        np.linspace(w0, e0, h["ncols"]),
        np.linspace(s0, n0, h["nrows"]),
        z,
        levels=range(400, 800, 20),
        colors="#a0805080",
        linewidths=0.4,
    )
    colors = {
        "woods": "#2e8b2e",
        "town": "#888888",
        "orchard": "#e07090",
        "marsh": "#60c0e0",
        "rocks": "#553311",
        "field": "#e8d060",
    }
    for f in load("landcover.geojson"):
        k = f["properties"]["kind"]
        for r in rings(f["geometry"]):
            a = np.array(r)
            ax.fill(a[:, 0], a[:, 1], color=colors.get(k, "red"), alpha=0.55, lw=0.3)
    for f in load("streams.geojson"):
        for ln in lines(f["geometry"]):
            a = np.array(ln)
            lw = 2.2 if f["properties"].get("class") == "river" else 1.2
            ax.plot(a[:, 0], a[:, 1], color="#1060ff", lw=lw)
    for f in load("relief.geojson"):
        p = f["properties"]
        if p["kind"] == "ridge_line":
            for ln in lines(f["geometry"]):
                a = np.array(ln)
                ax.plot(a[:, 0], a[:, 1], color="#c04000", lw=1, ls=":")
        elif p["kind"] == "spot_height":
            x, y = f["geometry"]["coordinates"]
            ax.plot(x, y, "k^", ms=2)
            ax.annotate(str(p["elev_ft"]), (x, y), fontsize=4)
    for f in load("roads.geojson"):
        p = f["properties"]
        for ln in lines(f["geometry"]):
            a = np.array(ln)
            if p["kind"] == "road":
                style = {
                    "pike": ("#000000", 2.0, "-"),
                    "road": ("#6b3a10", 1.4, "-"),
                    "lane": ("#6b3a10", 0.8, "--"),
                }[p["class"]]
            else:
                style = ("#000000", 1.0, "-.")
            ax.plot(a[:, 0], a[:, 1], color=style[0], lw=style[1], ls=style[2])
    for f in load("crossings.geojson"):
        x, y = f["geometry"]["coordinates"]
        ax.plot(x, y, "s" if f["properties"]["kind"] == "bridge" else "o", color="orange", ms=3)
    for f in load("places.geojson"):
        p = f["properties"]
        x, y = f["geometry"]["coordinates"]
        c = {"landmark": "red", "farm": "purple", "place": "blue"}.get(p["kind"], "k")
        ax.plot(x, y, "o", color=c, ms=2)
        if p["kind"] != "landmark" or box:
            ax.annotate(p["name"], (x, y), fontsize=5, color=c)
    if box:
        ax.set_xlim(box[0], box[2])
        ax.set_ylim(box[1], box[3])
    else:
        ax.set_xlim(w0, e0)
        ax.set_ylim(s0, n0)
    ax.set_aspect(aspect)
    fig.tight_layout()
    fig.savefig(out)
    print("wrote", Path(out))


if __name__ == "__main__":
    main()
