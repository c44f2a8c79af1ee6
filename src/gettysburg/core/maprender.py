"""Draw any map JSON (either topology, ``docs/maps.md``) to an SVG or PNG file.

A plain picture for a system that declares a map but no drawing of its own: hexes
outlined (filled by their ``terrain`` if they have one) with ids, the roads and streams
of hexsides, victory hexes; or positions as dots with their names and links drawn by
kind. Imported only when drawing (matplotlib).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # headless: files only

import matplotlib.pyplot as plt
from matplotlib.patches import Polygon

from gettysburg.core.mapjson import map_problem

FILL = {"clear": "#efe8c8", "woods": "#9cc28a", "orchard": "#cfe0a0", "town": "#bba8a0",
        "marsh": "#b8d6cc", "rocks": "#a9a49a"}
LINK = {"road": ("#8a4a22", 2.0, "-"), "open": ("#666666", 1.0, "-"),
        "obstructed": ("#5f9a4e", 1.0, "--")}


def render_map(doc: dict[str, Any], out: Path, *, ids: bool = True,
               only: set[str] | None = None, title: str = "", dpi: int = 130) -> Path:
    """Draw ``doc`` to ``out`` (.svg or .png); ``only`` limits a hex map to those ids."""
    if out.suffix.lower() not in (".svg", ".png"):
        raise ValueError(f"{out}: use a .svg or .png file name")
    problem = map_problem(doc)
    if problem is not None:
        raise ValueError(problem)
    fig, ax = plt.subplots(figsize=(10, 10))
    ax.set_aspect("equal")
    ax.axis("off")
    if doc["topology"] == "hex":
        _hexes(ax, doc, ids, only)
    else:
        _graph(ax, doc)
    ax.autoscale_view()
    if title:
        ax.set_title(title, fontsize=10)
    out.parent.mkdir(parents=True, exist_ok=True)
    meta = {"Date": None} if out.suffix.lower() == ".svg" else {"Software": None}
    fig.savefig(out, dpi=dpi, bbox_inches="tight", metadata=meta)
    plt.close(fig)
    return out


def _hexes(ax: Any, doc: dict[str, Any], ids: bool, only: set[str] | None) -> None:
    corners = doc["layout"]["corners"]
    shown = set()
    for row in doc["hexes"]:
        if only is not None and row["id"] not in only:
            continue
        shown.add(row["id"])
        x, y = row["xy"]
        fill = FILL.get(str(row.get("terrain", "clear")), "#eeeeee")
        ax.add_patch(Polygon([(x + dx, y + dy) for dx, dy in corners], closed=True,
                             facecolor=fill, edgecolor="#9a9080", lw=0.3, zorder=1))
        if row.get("victory"):
            ax.plot([x], [y], marker="*", color="#b22222", ms=8, zorder=5)
        if ids:
            ax.text(x, y, row["id"], fontsize=4, ha="center", va="center", zorder=6)
    centre = {r["id"]: r["xy"] for r in doc["hexes"]}
    for side in doc.get("hexsides", []):
        if side["a"] not in shown or side["b"] not in shown:
            continue
        (x1, y1), (x2, y2) = side["seg"]
        terrain = set(side.get("terrain", ()))
        if terrain & {"river", "creek", "stream"}:
            ax.plot([x1, x2], [y1, y2], color="#4f93d6", lw=1.6, zorder=3)
        if side.get("roads"):
            (ax_, ay), (bx, by) = centre[side["a"]], centre[side["b"]]
            ax.plot([ax_, bx], [ay, by], color="#8a4a22", lw=1.4, zorder=4)


#: The ground under a graph map (its optional ``ground`` layer), pale.
GROUND_FILL = {"field": "#ece4c4", "woods": "#a9c48c", "orchard": "#c9d9a4", "town": "#d6bfae",
               "marsh": "#bcd4cc", "rocks": "#c4bcac"}


def _ground(ax: Any, ground: dict[str, Any]) -> None:
    for area in ground.get("areas", []):
        xs, ys = zip(*area["points"], strict=True)
        ax.fill(xs, ys, color=GROUND_FILL.get(area["kind"], "#ece4c4"), lw=0, zorder=0)
    for line in ground.get("lines", []):
        xs, ys = zip(*line["points"], strict=True)
        water = line["kind"] == "stream"
        ax.plot(xs, ys, color="#7fa6cf" if water else "#c4a68a", lw=0.8 if water else 0.6,
                zorder=1)


def _graph(ax: Any, doc: dict[str, Any]) -> None:
    if isinstance(doc.get("ground"), dict):
        _ground(ax, doc["ground"])
    at = {p["id"]: p["xy"] for p in doc["positions"]}
    for link in doc["links"]:
        colour, lw, ls = LINK.get(link["kind"], ("#333333", 1.0, ":"))
        (x1, y1), (x2, y2) = at[link["a"]], at[link["b"]]
        ax.plot([x1, x2], [y1, y2], color=colour, lw=lw, ls=ls, zorder=2)
    for p in doc["positions"]:
        x, y = p["xy"]
        ax.plot([x], [y], marker="o", color="#1d1d1d", ms=5, zorder=4)
        ax.text(x, y, f" {p['name']}", fontsize=6, ha="left", va="center", zorder=5)
