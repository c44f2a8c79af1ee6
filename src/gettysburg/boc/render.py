"""Draw the Badges of Courage board (SVG or PNG, chosen by file extension).

Hex fill shows hex terrain and ground level; hexside features are drawn on the
edges they belong to: streams along the shared edge, slope lines inside the
uphill hex (one line a rise, two a hill, 2.2), roads from centre to centre.
"""

from __future__ import annotations

import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # headless: files only

import matplotlib.pyplot as plt
from matplotlib.axes import Axes
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Polygon

from gettysburg.boc.board import Board, HexInfo
from gettysburg.core.geo import GETTYSBURG
from gettysburg.core.hexes import Hex

GROUND_TINT = {0: "#efe8c8", 1: "#dccb94", 2: "#c2a66a"}
TERRAIN_FILL = {
    "woods": {0: "#9cc28a", 1: "#84b272", 2: "#6a9a5a"},
    "orchard": {0: "#cfe0a0", 1: "#bcd28c", 2: "#a9c078"},
    "town": {0: "#bba8a0", 1: "#a99690", 2: "#978480"},
    "marsh": {0: "#b8d6cc", 1: "#a8c6bc", 2: "#98b6ac"},
    "rocks": {0: "#a9a49a", 1: "#99948a", 2: "#89847a"},
}
ROAD_STYLE = {"main": ("#6b2d12", 2.6), "secondary": ("#8a5a3a", 1.3)}
STREAM_STYLE = {"river": ("#2f6fb3", 3.2), "creek": ("#4f93d6", 1.6)}
SLOPE_COLOUR = "#7b4a1c"


def _fill(info: HexInfo) -> str:
    if info.terrain == "clear":
        return GROUND_TINT[min(info.ground, 2)]
    return TERRAIN_FILL[info.terrain][min(info.ground, 2)]


def _lerp(
    p: tuple[float, float], q: tuple[float, float], t: float
) -> tuple[float, float]:
    return (p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t)


def render_board(board: Board, out: Path, *, ids: bool = True, dpi: int = 130) -> Path:
    """Write the board to ``out`` (.svg or .png)."""
    suffix = out.suffix.lower()
    if suffix not in (".svg", ".png"):
        raise ValueError(f"{out}: use a .svg or .png file name")
    lay = board.layout
    xs = [lay.to_plane(h)[0] for h in board.hexes]
    ys = [lay.to_plane(h)[1] for h in board.hexes]
    sp = lay.spacing()
    w_m, h_m = max(xs) - min(xs) + 2 * sp, max(ys) - min(ys) + 2 * sp
    fig_w = 13.0
    with matplotlib.rc_context({"svg.fonttype": "none"}):  # SVG text stays text (searchable)
        fig, ax = plt.subplots(figsize=(fig_w, fig_w * h_m / w_m + 1.2))
        _draw(board, ax, ids=ids)
        out.parent.mkdir(parents=True, exist_ok=True)
        # Fixed metadata keeps SVG/PNG output byte-identical from run to run.
        meta = {"Date": None} if suffix == ".svg" else {"Software": None}
        fig.savefig(out, dpi=dpi, bbox_inches="tight", metadata=meta)
        plt.close(fig)
    return out


def _draw(board: Board, ax: Axes, *, ids: bool) -> None:
    lay = board.layout
    xs = [lay.to_plane(h)[0] for h in board.hexes]
    ys = [lay.to_plane(h)[1] for h in board.hexes]
    sp = lay.spacing()
    ax.set_aspect("equal")
    ax.axis("off")

    for h in sorted(board.hexes):
        info = board.hexes[h]
        ax.add_patch(
            Polygon(lay.corners(h), closed=True, facecolor=_fill(info), edgecolor="#8c8c7a",
                    linewidth=0.4, hatch="..." if info.terrain == "orchard" else None)
        )

    # Hexside features, in a fixed order so the files are deterministic.
    for key in sorted(board.sides):
        s = board.sides[key]
        p, q = lay.hexside_segment(key)
        for kind in ("river", "creek"):
            if kind in s.terrain:
                col, lw = STREAM_STYLE[kind]
                ax.add_line(Line2D([p[0], q[0]], [p[1], q[1]], color=col, lw=lw, zorder=3))
        if s.slope and s.uphill is not None:
            c = lay.to_plane(s.uphill)
            offsets = (0.08,) if s.slope == "rise" else (0.08, 0.17)
            for t in offsets:
                a, b = _lerp(p, c, t), _lerp(q, c, t)
                a, b = _lerp(a, b, 0.1), _lerp(a, b, 0.9)
                ax.add_line(Line2D([a[0], b[0]], [a[1], b[1]], color=SLOPE_COLOUR, lw=1.4,
                                   zorder=3))
    for key in sorted(board.sides):
        s = board.sides[key]
        if not s.roads:
            continue
        a, b = lay.to_plane(key.a), lay.to_plane(key.b)
        road = s.roads[0]
        col, lw = ROAD_STYLE[road.road_class]
        rail = road.rail
        ax.add_line(Line2D([a[0], b[0]], [a[1], b[1]], color="#222222" if rail else col,
                           lw=lw, ls=(0, (3, 2)) if rail else "-", zorder=4,
                           solid_capstyle="round"))
        if road.crossing:
            m = _lerp(a, b, 0.5)
            ax.plot([m[0]], [m[1]], marker="s", ms=4, color="#333333", zorder=5)

    for h in sorted(board.hexes):
        info = board.hexes[h]
        cx, cy = lay.to_plane(h)
        if ids:
            ax.text(cx, cy + sp * 0.30, info.id, ha="center", va="center", fontsize=4.6,
                    color="#55553f", zorder=6)
        if info.victory:
            ax.text(cx, cy - sp * 0.02, str(info.victory), ha="center", va="center",
                    fontsize=15, fontweight="bold", color="#e07b00", zorder=7)
        if info.names:
            ax.text(cx, cy - sp * 0.30, _short(info.names), ha="center", va="center",
                    fontsize=4.2, style="italic", color="#2a2a2a", zorder=6)
        for name in info.entries:
            _entry_arrow(ax, board, h, name)

    ax.set_xlim(min(xs) - sp, max(xs) + sp)
    ax.set_ylim(min(ys) - sp, max(ys) + sp)
    ax.legend(handles=_legend(), loc="lower left", fontsize=7, framealpha=0.92,
              bbox_to_anchor=(0.0, -0.06), ncol=5)
    lon0, lat0 = GETTYSBURG.to_lonlat(min(xs), min(ys))
    ax.set_title(
        "Gettysburg: Badges of Courage board, derived from the 1863 battlefield model\n"
        f"hex spacing {sp:.0f} m; north up; south-west corner near {lat0:.3f}, {lon0:.3f}",
        fontsize=10,
    )


def _short(names: tuple[str, ...]) -> str:
    return min(names, key=len) if len(names) > 1 else names[0]


def _entry_arrow(ax: Axes, board: Board, h: Hex, name: str) -> None:
    lay = board.layout
    cx, cy = lay.to_plane(h)
    off = [n for n in h.neighbours() if n not in board.hexes]
    if off:
        ox = sum(lay.to_plane(n)[0] for n in off) / len(off)
        oy = sum(lay.to_plane(n)[1] for n in off) / len(off)
    else:
        ox, oy = cx, cy + lay.spacing()
    dx, dy = ox - cx, oy - cy
    d = math.hypot(dx, dy) or 1.0
    sx, sy = cx + dx / d * lay.spacing() * 0.9, cy + dy / d * lay.spacing() * 0.9
    ax.annotate("", xy=(cx + dx / d * 60, cy + dy / d * 60), xytext=(sx, sy),
                arrowprops={"arrowstyle": "-|>", "color": "#b00020", "lw": 1.6}, zorder=8)
    ax.text(sx, sy, name, fontsize=5.5, color="#b00020", ha="center", va="center",
            fontweight="bold", zorder=8,
            bbox={"boxstyle": "round,pad=0.15", "fc": "white", "ec": "none", "alpha": 0.8})


def _legend() -> list[Patch | Line2D]:
    return [
        Patch(facecolor=GROUND_TINT[0], edgecolor="#888", label="clear, base"),
        Patch(facecolor=GROUND_TINT[1], edgecolor="#888", label="clear, rise"),
        Patch(facecolor=GROUND_TINT[2], edgecolor="#888", label="clear, hill"),
        Patch(facecolor=TERRAIN_FILL["woods"][1], edgecolor="#888", label="woods (D2)"),
        Patch(facecolor=TERRAIN_FILL["orchard"][1], edgecolor="#888", hatch="...",
              label="orchard"),
        Patch(facecolor=TERRAIN_FILL["town"][0], edgecolor="#888", label="town"),
        Patch(facecolor=TERRAIN_FILL["marsh"][0], edgecolor="#888", label="marsh"),
        Patch(facecolor=TERRAIN_FILL["rocks"][0], edgecolor="#888", label="rocks (D2)"),
        Line2D([], [], color=ROAD_STYLE["main"][0], lw=2.6, label="main road"),
        Line2D([], [], color=ROAD_STYLE["secondary"][0], lw=1.3, label="secondary road"),
        Line2D([], [], color="#222222", lw=1.3, ls=(0, (3, 2)), label="railroad"),
        Line2D([], [], color=STREAM_STYLE["river"][0], lw=3.2, label="river"),
        Line2D([], [], color=STREAM_STYLE["creek"][0], lw=1.6, label="creek"),
        Line2D([], [], color=SLOPE_COLOUR, lw=1.4, label="slope (uphill side)"),
        Line2D([], [], color="#e07b00", marker="$2$", ls="", ms=9, label="victory VP"),
    ]
