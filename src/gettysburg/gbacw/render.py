"""Draw one GBACW map sheet (or all three) to a PNG or SVG: hexes filled by the chart's
terrain and shaded by level, contour lines between levels (heavier every fifth level),
slopes, creeks and runs, roads by class, walls and fences, farms, railroad cuts, hex ids
and the names of places. Imported only when drawing (matplotlib)."""

from __future__ import annotations

from collections.abc import Collection
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # headless: files only

import matplotlib.pyplot as plt
from matplotlib.artist import Artist
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from gettysburg.core.hexes import Hex, Hexside
from gettysburg.gbacw.board import Board

FILL = {"open": "#efe8c8", "woods": "#8fba79", "rough-woods": "#5f9a55", "orchard": "#c9dd96",
        "marsh": "#a9d0c6", "rocky": "#b3ab9c", "town": "#c9a58e"}
ROAD = {"pike": ("#6e3518", 2.6, "-"), "road": ("#8a5a3a", 1.8, "-"),
        "trail": ("#8a5a3a", 1.2, (0, (3, 2))), "railroad": ("#222222", 1.4, (0, (5, 2)))}


def _shade(colour: str, level: int, top: int) -> tuple[float, float, float]:
    r, g, b = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    k = 0.35 * level / max(1, top)  # higher ground darker
    return (r * (1 - k) + 0.42 * k, g * (1 - k) + 0.29 * k, b * (1 - k) + 0.13 * k)


def draw_roads(ax: Any, board: Board, shown: Collection[Hex], *, zorder: int) -> None:
    """The roads between the ``shown`` hexes, one line style per class (E-9)."""
    lay = board.layout
    for cls, (colour, width, style) in ROAD.items():
        segs = [(lay.to_plane(s.side.a), lay.to_plane(s.side.b))
                for s in board.sides.values()
                if s.side.a in shown and s.side.b in shown
                and any(r.road_class == cls for r in s.roads)]
        ax.add_collection(LineCollection(segs, colors=colour, linewidths=width,
                                         linestyles=style, zorder=zorder))


def render_sheet(board: Board, out: Path, *, sheet: str | None = None, ids: bool = True,
                 dpi: int = 170) -> Path:
    if out.suffix.lower() not in (".svg", ".png"):
        raise ValueError(f"{out}: use a .svg or .png file name")
    sheets = sorted({s for i in board.hexes.values() for s in i.sheets})
    if sheet is not None and sheet.upper() not in sheets:
        raise ValueError(f"--sheet {sheet!r}: the GBACW sheets are {sheets}")
    shown = set(board.sheet_hexes(sheet.upper())) if sheet else set(board.hexes)
    lay = board.layout
    top = max(i.level for i in board.hexes.values())
    xs = [lay.to_plane(h)[0] for h in shown]
    ys = [lay.to_plane(h)[1] for h in shown]
    w, hgt = max(xs) - min(xs), max(ys) - min(ys)
    scale = 1 / 260.0 if sheet else 1 / 520.0  # inches per metre
    fig, ax = plt.subplots(figsize=(max(6, w * scale), max(6, hgt * scale)))
    ax.set_aspect("equal")
    ax.axis("off")
    order = sorted(shown)
    polys = [lay.corners(h) for h in order]
    faces = [_shade(FILL.get(board.hexes[h].terrain, "#eeeeee"), board.hexes[h].level, top)
             for h in order]
    ax.add_collection(PolyCollection(polys, facecolors=faces, edgecolors="#a09478",
                                     linewidths=0.15, zorder=1))
    Seg = tuple[tuple[float, float], tuple[float, float]]
    contour: list[Seg] = []
    contour5: list[Seg] = []
    slopes: list[Seg] = []
    creeks: list[Seg] = []
    walls: list[Seg] = []
    fences: list[Seg] = []
    for h in order:
        for n in h.neighbours():
            if n not in shown or n < h:
                continue
            seg = lay.hexside_segment(Hexside.between(h, n))
            la, lb = board.hexes[h].level, board.hexes[n].level
            if la != lb:
                (contour5 if max(la, lb) % 5 == 0 else contour).append(seg)
            s = board.side(h, n)
            if s is None:
                continue
            if s.slope in ("steep", "sheer"):
                slopes.append(seg)
            if s.stream:
                creeks.append(seg)
            if s.wall == "stone-wall":
                walls.append(seg)
            elif s.wall == "fence":
                fences.append(seg)
    ax.add_collection(LineCollection(contour, colors="#8c6a3c", linewidths=0.5, zorder=2))
    ax.add_collection(LineCollection(contour5, colors="#6b4a22", linewidths=1.0, zorder=2))
    ax.add_collection(LineCollection(slopes, colors="#5a3412", linewidths=2.2, zorder=3,
                                     linestyles=(0, (2, 1))))
    ax.add_collection(LineCollection(creeks, colors="#3f79b5", linewidths=2.4, zorder=3))
    ax.add_collection(LineCollection(walls, colors="#555555", linewidths=2.0, zorder=4))
    ax.add_collection(LineCollection(fences, colors="#7a6a50", linewidths=1.2, zorder=4,
                                     linestyles=(0, (1, 1))))
    draw_roads(ax, board, shown, zorder=5)
    for h in order:
        i = board.hexes[h]
        x, y = lay.to_plane(h)
        if "run" in i.features:
            ax.plot([x], [y], marker="o", ms=1.6, color="#3f79b5", zorder=6)
        if "farm" in i.features:
            ax.plot([x], [y], marker="s", ms=2.6, color="#7a2e1e", zorder=6)
        if "railroad-cut" in i.features or "sunken-road" in i.features:
            ax.plot([x], [y], marker="x", ms=4, color="#222222", zorder=6)
        if i.breastworks:
            ax.plot([x], [y], marker="^", ms=3, color="#333399", zorder=6)
        if i.entry is not None:
            ax.text(x, y, str(i.entry), fontsize=7, ha="center", va="center", color="white",
                    bbox={"boxstyle": "circle", "fc": "#a4322b", "ec": "none"}, zorder=8)
        if ids:
            ax.text(x, y - lay.spacing() * 0.32, i.id[1:] if sheet else i.id, fontsize=2.2,
                    ha="center", va="center", color="#5d5040", zorder=7)
        if i.names:
            ax.text(x, y + lay.spacing() * 0.25, i.names[0], fontsize=3.2, ha="center",
                    va="center", color="#1d1d1d", zorder=9)
    ax.autoscale_view()
    key: list[Artist] = [Patch(facecolor=c, edgecolor="#a09478", label=t) for t, c in FILL.items()]
    key += [Line2D([], [], color=c, lw=lw, ls=ls, label=k) for k, (c, lw, ls) in ROAD.items()]
    key += [Line2D([], [], color="#3f79b5", lw=2.4, label="creek"),
            Line2D([], [], color="#5a3412", lw=2.2, ls=(0, (2, 1)), label="steep slope"),
            Line2D([], [], color="#8c6a3c", lw=0.5, label="contour (20 ft level)"),
            Line2D([], [], color="#555555", lw=2.0, label="stone wall"),
            Line2D([], [], color="#7a6a50", lw=1.2, ls=(0, (1, 1)), label="fence")]
    ax.legend(handles=key, loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=6,
              framealpha=0.9)
    ax.set_title(f"GBACW map sheet {sheet.upper()}" if sheet else "GBACW map sheets A, B, C",
                 fontsize=10)
    out.parent.mkdir(parents=True, exist_ok=True)
    meta = {"Date": None} if out.suffix.lower() == ".svg" else {"Software": None}
    fig.savefig(out, dpi=dpi, bbox_inches="tight", metadata=meta)
    plt.close(fig)
    return out
