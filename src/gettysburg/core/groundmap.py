"""Draw the battlefield model itself (no game grid): hillshade, landcover, water, roads.

This is how anyone can check that the one geography looks like Gettysburg before
any rule system's map is derived from it (``gettysburg map render --system ground``).
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # headless: files only

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes
from matplotlib.colors import LightSource
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from shapely.geometry.base import BaseGeometry

from gettysburg.core.battlefield import Battlefield

FILL = {
    "woods": "#5f9a4e",
    "orchard": "#b4d07a",
    "town": "#9c8f88",
    "marsh": "#8fc1b5",
    "rocks": "#8a8a8a",
    "field": "#e8d98f",
}
ROAD = {"pike": ("#6b2d12", 2.2), "road": ("#8a4a22", 1.4), "lane": ("#a87a55", 0.7)}
WATER = {"river": ("#2f6fb3", 2.4), "creek": ("#4f93d6", 1.1)}


def _polys(ax: Axes, geom: BaseGeometry, colour: str) -> None:
    for g in getattr(geom, "geoms", [geom]):
        if g.geom_type != "Polygon":
            continue
        x, y = g.exterior.xy
        ax.fill(x, y, color=colour, alpha=0.85, lw=0, zorder=2)


def _line(ax: Axes, geom: BaseGeometry, colour: str, lw: float, ls: str = "-") -> None:
    for g in getattr(geom, "geoms", [geom]):
        x, y = g.xy
        ax.plot(x, y, color=colour, lw=lw, ls=ls, zorder=4, solid_capstyle="round")


def render_ground(bf: Battlefield, out: Path, *, dpi: int = 130) -> Path:
    """Write the ground model to ``out`` (.png or .svg), in lon/lat, north up."""
    if out.suffix.lower() not in (".svg", ".png"):
        raise ValueError(f"{out}: use a .svg or .png file name")
    hf = bf.heights
    lat_mid = (hf.south + hf.north) / 2
    fig, ax = plt.subplots(figsize=(11, 11 * (hf.north - hf.south) / (hf.east - hf.west)
                                    / np.cos(np.radians(lat_mid)) * 0.9))
    ax.set_aspect(1 / np.cos(np.radians(lat_mid)))
    shade = LightSource(azdeg=315, altdeg=40).hillshade(
        hf.heights, vert_exag=0.06, dx=1.0, dy=1.0
    )
    ax.imshow(shade, cmap="gray", origin="lower", alpha=0.55, zorder=0,
              extent=(hf.west, hf.east, hf.south, hf.north))
    ax.contour(np.linspace(hf.west, hf.east, hf.heights.shape[1]),
               np.linspace(hf.south, hf.north, hf.heights.shape[0]), hf.heights,
               levels=list(range(400, 800, 20)), colors="#8b6b3d", linewidths=0.25, zorder=1)
    for kind in ("field", "woods", "orchard", "marsh", "rocks", "town"):
        for f in bf.of_kind(kind):
            _polys(ax, f.lonlat, FILL[kind])
    for f in bf.of_kind("stream"):
        col, lw = WATER["river" if f.props.extra("class") == "river" else "creek"]
        _line(ax, f.lonlat, col, lw)
    for f in sorted(bf.of_kind("road", "railroad", "railroad_bed"), key=lambda f: f.id):
        if f.kind == "road":
            col, lw = ROAD.get(str(f.props.extra("class", "road")), ROAD["road"])
            _line(ax, f.lonlat, col, lw)
        else:
            _line(ax, f.lonlat, "#222222", 1.0, "--" if f.kind == "railroad_bed" else "-")
    for f in sorted(bf.of_kind("place"), key=lambda f: f.id):
        if f.lonlat.geom_type == "Point" and f.name:
            ax.text(f.lonlat.x, f.lonlat.y, f.name, fontsize=6, style="italic", zorder=6,
                    ha="center", va="center", color="#1d1d1d",
                    bbox={"boxstyle": "round,pad=0.1", "fc": "white", "ec": "none",
                          "alpha": 0.6})
    ax.set_xlim(hf.west, hf.east)
    ax.set_ylim(hf.south, hf.north)
    ax.tick_params(labelsize=6)
    ax.set_title("Gettysburg, July 1863: the battlefield model (roads, streams, woods, "
                 "town; 20 ft contours)", fontsize=10)
    ax.legend(handles=[
        Patch(color=FILL["woods"], label="woods (1863)"),
        Patch(color=FILL["orchard"], label="orchard"),
        Patch(color=FILL["town"], label="town"),
        Patch(color=FILL["marsh"], label="marsh"),
        Line2D([], [], color=ROAD["pike"][0], lw=2.2, label="pike"),
        Line2D([], [], color=ROAD["road"][0], lw=1.4, label="road"),
        Line2D([], [], color=ROAD["lane"][0], lw=0.7, label="lane"),
        Line2D([], [], color="#222222", lw=1.0, label="railroad"),
        Line2D([], [], color="#222222", lw=1.0, ls="--", label="unfinished railroad"),
        Line2D([], [], color=WATER["river"][0], lw=2.4, label="river"),
        Line2D([], [], color=WATER["creek"][0], lw=1.1, label="creek"),
    ], loc="lower left", fontsize=7, framealpha=0.9)
    out.parent.mkdir(parents=True, exist_ok=True)
    meta = {"Date": None} if out.suffix.lower() == ".svg" else {"Software": None}
    fig.savefig(out, dpi=dpi, bbox_inches="tight", metadata=meta)
    plt.close(fig)
    return out
