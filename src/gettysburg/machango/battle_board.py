"""The battle board: 13 x 9 hexes laid on the ground between the attacker's line(s) and
the defender's, each hex's terrain sampled from the one battlefield model (B1, MV6).

Row 0 is the attacker's baseline, row 8 the defender's; the axis runs from the attackers'
mean position to the defender's line; a hex is a ninth of the gap (8 row steps), kept
within ``hex_m_min``-``hex_m_max`` of ``data/battle.yaml`` and centred between the two.
Each hex's terrain, first match wins: a river or stream crossing it makes a *waterway*
(a *bridge* where a road or a bridge of the model crosses too); a farm or enough town a
*homestead*; enough woods *woods*; enough rocks *rough*; marsh a *waterway*; orchard or
field an *orchard*; else *hill* when it stands ``hill_ft`` above the board's median
height, else *clear*. The model has no fences, so no fence hex is ever made (decision).
Pooled attackers from several lines each get the column their line lies across the axis.
Deterministic: the same lines give the same board.
"""

from __future__ import annotations

import math
from functools import cache
from typing import Any

from shapely import geometry as sg

from gettysburg.core.battlefield import Battlefield, load_battlefield
from gettysburg.machango.battle_data import rules
from gettysburg.machango.battle_hexes import COLS, ROWS, all_hexes, xy
from gettysburg.machango.board import load_board
from gettysburg.machango.mapgen import share

ROW_STEP = math.sqrt(3) / 2  # rows are this many hex widths apart


def _line_xy(bf: Battlefield, line: str) -> tuple[float, float]:
    p = load_board().lines[line]
    return bf.projection.to_xy(float(p["lon"]), float(p["lat"]))


def _terrain(bf: Battlefield, centre: tuple[float, float], radius: float,
             cfg: dict[str, Any]) -> str:
    disc = sg.Point(centre).buffer(radius, 12)
    covers = bf.area_union
    if any(f.geom.intersects(disc) for f in bf.of_kind("stream")):
        crossed = any(f.geom.intersects(disc) for f in bf.of_kind("road", "bridge"))
        return "bridge" if crossed else "waterway"
    if (any(f.geom.intersects(disc) for f in bf.of_kind("farm"))
            or share(disc, covers["town"]) >= cfg["town_share"]):
        return "homestead"
    if share(disc, covers["woods"]) >= cfg["sample_share"]:
        return "woods"
    if share(disc, covers["rocks"]) >= cfg["sample_share"]:
        return "rough"
    if share(disc, covers["marsh"]) >= cfg["sample_share"]:
        return "waterway"
    fields = [f.geom for f in bf.of_kind("orchard", "field")]
    if any(share(disc, g) >= cfg["sample_share"] for g in fields):
        return "orchard"
    return "clear"


@cache
def battle_board(attack_from: tuple[str, ...], line: str) -> dict[str, Any]:
    """The board for attackers standing on ``attack_from`` against ``line``: hexes with
    terrain and height (ft), the hex size, and each attacking line's column."""
    bf = load_battlefield()
    cfg = rules()["board"]
    froms = [_line_xy(bf, a) for a in attack_from]
    ax = sum(x for x, _ in froms) / len(froms)
    ay = sum(y for _, y in froms) / len(froms)
    dx, dy = _line_xy(bf, line)
    gap = math.hypot(dx - ax, dy - ay) or 1.0
    ux, uy = (dx - ax) / gap, (dy - ay) / gap  # along the axis, attacker to defender
    vx, vy = uy, -ux  # across: the attacker's right
    width = min(max(gap / (ROWS - 1) / ROW_STEP, cfg["hex_m_min"]), cfg["hex_m_max"])
    mx, my = (ax + dx) / 2, (ay + dy) / 2
    hexes: dict[str, dict[str, Any]] = {}
    for h in all_hexes():
        across, along = xy(h)
        along -= (ROWS - 1) * ROW_STEP / 2
        cx = mx + (along * ux + across * vx) * width
        cy = my + (along * uy + across * vy) * width
        hexes[h] = {"terrain": _terrain(bf, (cx, cy), width / 2, cfg),
                    "height": round(bf.height_xy(cx, cy), 1)}
    heights = sorted(v["height"] for v in hexes.values())
    median = heights[len(heights) // 2]
    for v in hexes.values():
        if v["terrain"] == "clear" and v["height"] >= median + cfg["hill_ft"]:
            v["terrain"] = "hill"
    columns = {}
    for a, (fx, fy) in zip(attack_from, froms, strict=True):
        off = ((fx - ax) * vx + (fy - ay) * vy) / width
        columns[a] = max(1, min(COLS - 2, round((COLS - 1) / 2 + off)))
    return {"hexes": hexes, "hex_m": round(width, 1), "columns": columns}


def picture(board: dict[str, Any], units: dict[str, str] | None = None) -> str:
    """The board as text, defender's baseline on top: one letter a hex (terrain), or a
    unit's mark where ``units`` (hex -> mark) puts one."""
    letters = {"clear": ".", "woods": "W", "orchard": "o", "hill": "^", "fence": "f",
               "homestead": "H", "waterway": "~", "bridge": "=", "rough": "#"}
    rows = []
    for r in reversed(range(ROWS)):
        cells = [(units or {}).get(f"{c},{r}") or letters[board["hexes"][f"{c},{r}"]["terrain"]]
                 for c in range(COLS)]
        rows.append((" " if r & 1 else "") + " ".join(cells))
    return "\n".join(rows)
