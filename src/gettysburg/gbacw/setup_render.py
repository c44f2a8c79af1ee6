"""Draw a scenario's set-up on the derived map (issue 51's pictures): the ground around the
placed counters, as ``render.py`` colours it, with each counter, leader and victory hex.
Imported only when drawing (matplotlib)."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # headless: files only

import matplotlib.pyplot as plt
from matplotlib.collections import PolyCollection
from matplotlib.lines import Line2D

from gettysburg.core.hexes import Hex
from gettysburg.gbacw.board import Board
from gettysburg.gbacw.deployment import _victory_hexes, place_leaders, place_units
from gettysburg.gbacw.oob import Oob
from gettysburg.gbacw.render import FILL, _shade, draw_roads
from gettysburg.gbacw.scenario import Scenario, Seat

SEAT_COLOUR = {"usa": "#2b4c9b", "csa": "#8e8e8e"}
SEATS: tuple[Seat, ...] = ("usa", "csa")


def render_setup(scen: Scenario, oob: Oob, board: Board, out: Path, *, margin: int = 2,
                 dpi: int = 170) -> Path:
    """A PNG of the scenario's set-up: every counter a labelled square in its hex (several
    in one hex are listed), leaders as stars, victory hexes ringed in red."""
    lay = board.layout
    counters: dict[Hex, list[tuple[Seat, str]]] = defaultdict(list)
    leaders: dict[Hex, list[tuple[Seat, str]]] = defaultdict(list)
    for seat in SEATS:
        for p in place_units(scen, seat, oob, board):
            label = p.counter.split(":", 1)[1].replace(":mounted", "").replace(":dismounted", "")
            counters[board.parse(p.hex)].append((seat, label))
        for lp in place_leaders(scen, seat, oob, board):
            leaders[board.parse(lp.hex)].append((seat, lp.leader))
    goals = [board.parse(h) for c in scen.victory.conditions for h in _victory_hexes(c)]
    used = set(counters) | set(leaders) | set(goals)
    pts = [lay.to_plane(u) for u in used]
    pad = margin * lay.spacing()
    x0, x1 = min(p[0] for p in pts) - pad, max(p[0] for p in pts) + pad
    y0, y1 = min(p[1] for p in pts) - pad, max(p[1] for p in pts) + pad
    shown = {h for h in board.hexes if set(board.hexes[h].sheets) & set(scen.maps)
             and x0 <= lay.to_plane(h)[0] <= x1 and y0 <= lay.to_plane(h)[1] <= y1}
    order = sorted(shown)
    xs = [lay.to_plane(h)[0] for h in order]
    ys = [lay.to_plane(h)[1] for h in order]
    w, hgt = max(xs) - min(xs), max(ys) - min(ys)
    scale = 1 / 160.0
    fig, ax = plt.subplots(figsize=(max(7, w * scale), max(6, hgt * scale)))
    ax.set_aspect("equal")
    ax.axis("off")
    top = max(i.level for i in board.hexes.values())
    ax.add_collection(PolyCollection(
        [lay.corners(h) for h in order],
        facecolors=[_shade(FILL.get(board.hexes[h].terrain, "#eeeeee"), board.hexes[h].level,
                           top) for h in order],
        edgecolors="#a09478", linewidths=0.2, zorder=1))
    draw_roads(ax, board, shown, zorder=2)
    spacing = lay.spacing()
    for h in order:
        x, y = lay.to_plane(h)
        ax.text(x, y - spacing * 0.36, board.hexes[h].id, fontsize=2.4, ha="center",
                va="center", color="#5d5040", zorder=3)
    for h in goals:
        x, y = lay.to_plane(h)
        ax.plot([x], [y], marker="o", ms=16, mfc="none", mec="#c0392b", mew=1.6, zorder=4)
    for h, items in counters.items():
        x, y = lay.to_plane(h)
        seat = items[0][0]
        ax.plot([x], [y], marker="s", ms=7, color=SEAT_COLOUR[seat], mec="black", mew=0.4,
                zorder=5)
        ax.text(x, y + spacing * 0.22, "\n".join(lbl for _, lbl in items), fontsize=2.8,
                ha="center", va="bottom", color="black", zorder=6,
                bbox={"boxstyle": "round,pad=0.1", "fc": "white", "ec": "none", "alpha": 0.7})
    for h, items in leaders.items():
        x, y = lay.to_plane(h)
        ax.plot([x + spacing * 0.25], [y], marker="*", ms=6, color="#d4a017", mec="black",
                mew=0.3, zorder=7)
        ax.text(x + spacing * 0.25, y - spacing * 0.18, ", ".join(n for _, n in items),
                fontsize=2.6, ha="left", va="top", color="#4a3500", zorder=7)
    ax.autoscale_view()
    key = [Line2D([], [], marker="s", ls="", color=SEAT_COLOUR["usa"], label="Union counter"),
           Line2D([], [], marker="s", ls="", color=SEAT_COLOUR["csa"],
                  label="Confederate counter"),
           Line2D([], [], marker="*", ls="", color="#d4a017", label="leader"),
           Line2D([], [], marker="o", ls="", mfc="none", mec="#c0392b", label="victory hex")]
    ax.legend(handles=key, loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=6)
    ax.set_title(f"{scen.title} ({scen.source}): set-up at {scen.first_turn} on the derived "
                 f"map, sheet{'s' if len(scen.maps) > 1 else ''} {', '.join(scen.maps)}",
                 fontsize=9)
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=dpi, bbox_inches="tight", metadata={"Software": None})
    plt.close(fig)
    return out
