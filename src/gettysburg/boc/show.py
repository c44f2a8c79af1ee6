"""Badges of Courage as the command line prints it: a seat's view (``game show``) and a
scenario's set-up and arrivals (``scenario show``, rule 9.0), as JSON and as text."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from gettysburg.core.canonical import JSONDict

# A hex's ground in one letter (clear ground shows its level: . low, : rise, ^ hill).
_TERRAIN_MARK = {"woods": "w", "orchard": "o", "town": "t", "marsh": "m", "rocks": "r"}
_LEVEL_MARK = {0: ".", 1: ":", 2: "^"}


def _stacks(view: JSONDict) -> dict[str, list[str]]:
    """Hex id -> the side of each block the view puts there ("?" for a hidden one's)."""
    out: dict[str, list[str]] = {}
    for u in view.get("units", []) or []:
        if u.get("hex") and u.get("status", "on_map") == "on_map":
            out.setdefault(str(u["hex"]), []).append(str(u.get("side", "?")))
    for h in view.get("hidden", []) or []:
        if h.get("hex"):
            out.setdefault(str(h["hex"]), []).append("?")
    return out


def map_text(view: JSONDict) -> list[str]:
    """The board as text, each hex a cell of its ground mark and the blocks in it (``U2``:
    two Union blocks, ``?1`` one hidden block), hexes staggered as on the map."""
    board = _board()
    if board is None:
        return []
    lay = board.layout
    sp = lay.spacing()
    at = {h: lay.to_plane(h) for h in board.hexes}
    x0 = min(x for x, _ in at.values())
    y1 = max(y for _, y in at.values())
    # A column of hexes every 0.87 spacing across, a half-hex row every 0.5 down.
    cells = {h: (round((x - x0) / (sp * 0.866)), round((y1 - y) / (sp * 0.5)))
             for h, (x, y) in at.items()}
    width = max(c for c, _ in cells.values()) + 1
    height = max(r for _, r in cells.values()) + 1
    grid = [[" " * 4 for _ in range(width)] for _ in range(height)]
    stacks = _stacks(view)
    for h, (c, r) in cells.items():
        info = board.hexes[h]
        ground = _TERRAIN_MARK.get(info.terrain, _LEVEL_MARK.get(info.ground, "."))
        if info.victory:
            ground = "*"
        here = stacks.get(info.id, [])
        blocks = ""
        if here:
            side = here[0] if len(set(here)) == 1 else "+"
            blocks = f"{side[0].upper()}{len(here)}"
        grid[r][c] = f"{ground}{blocks:<3}"
    lines = ["".join(row).rstrip() for row in grid]
    return [*lines, "", "key: . clear, : rise, ^ hill, w woods, o orchard, t town, m marsh, "
            "r rocks, * victory hex; U2 two Union blocks, C1 one Confederate, ?1 one hidden, "
            "+ both sides"]


def view_text(view: JSONDict) -> str:
    """A header line (title, time, phase, the side active), the map with the blocks on it,
    then a line per block the seat knows and per hidden block it sees."""
    lines = [f"{view.get('title')} — {view.get('time')}, {view.get('phase')} phase, "
             f"{view.get('active')} active", *map_text(view), ""]
    for u in view.get("units", []) or []:
        label = f"{u.get('strength')}/{u['max_strength']} {u.get('rating')} " \
                f"mp {u.get('movement')}" if "max_strength" in u else f"{u.get('strength')}"
        lines.append(f"  {u.get('id'):28} {u.get('status', 'on_map'):10} "
                     f"{u.get('hex')!s:5} {label}")
    for h in view.get("hidden", []) or []:
        lines.append(f"  {h.get('handle'):28} hidden     {h.get('hex')!s:5} ({h.get('side')})")
    return "\n".join(lines)


def _board() -> Any:
    """The real map if it is built; None otherwise (hexes are then checked for form only)."""
    try:
        from gettysburg.boc.board import load_board

        return load_board()
    except Exception:  # the board file may not exist yet
        return None


def scenario_doc(scenario: str) -> JSONDict:
    """Every placed block with hex, strength and rating, plus the arrivals, of a shipped
    scenario (``day2``) or a scenario file; a bad file raises DataError (a ValueError)
    naming its file, entry and field."""
    from gettysburg.boc.oob import SIDES, default_oob
    from gettysburg.boc.scenario import load_scenario

    sc = load_scenario(scenario, board=_board())
    oob = default_oob()

    def block(uid: str, strength: int | None) -> dict[str, Any]:
        u = oob[uid]
        return {"unit": u.id, "name": u.name, "side": u.side, "type": u.type,
                "corps": u.corps, "division": u.division,
                "strength": strength if strength is not None else u.max_strength,
                "max_strength": u.max_strength, "rating": u.rating,
                "command_range": u.command_range}

    placed = [{"hex": hx, **block(p.unit, p.strength)}
              for side in SIDES for hx, p in sc.setup_units(side)]
    arrivals = [{"day": a.day if a.day is not None else sc.day, "time": a.time,
                 "side": a.side, "entry": a.entry, "hex": a.hex, "option": a.option,
                 "unless_option": a.unless_option, "designed": a.designed,
                 "units": [block(p.unit, p.strength) for p in a.units]}
                for a in sc.arrivals]
    return {"id": sc.id, "title": sc.title, "rule": sc.rule, "day": sc.day,
            "start": sc.start, "end": sc.end, "first_player": sc.first_player,
            "deploy_order": list(sc.deploy_order), "victory": sc.victory.model_dump(),
            "units": placed, "eliminated": [e.model_dump() for e in sc.eliminated],
            "acting": [a.model_dump() for a in sc.acting], "arrivals": arrivals,
            "options": [o.name for o in sc.options]}


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """Plain columns, each as wide as its widest cell."""
    widths = [max(len(str(c)) for c in col) for col in zip(header, *rows, strict=True)]
    return ["  ".join(str(c).ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()
            for row in (header, *rows)]


def scenario_text(doc: JSONDict) -> str:
    """The title line, the set-up (side, hex, block, strength, rating) and the arrivals."""
    lines = [f"{doc['title']} ({doc['id']}, rule {doc['rule']}) day {doc['day']} "
             f"{doc['start']}-{doc['end']}, first player {doc['first_player']}", ""]
    lines += _table(("side", "hex", "unit", "strength", "rating"),
                    [(u["side"], u["hex"], u["name"], f"{u['strength']}/{u['max_strength']}",
                      u["rating"]) for u in doc["units"]])
    if doc["arrivals"]:
        rows = []
        for a in doc["arrivals"]:
            opt = a["option"] or (f"not {a['unless_option']}" if a["unless_option"] else "")
            rows.append((str(a["day"]), str(a["time"]), str(a["side"]), str(a["entry"]),
                         ", ".join(x["name"] for x in a["units"]), opt or ""))
        lines += ["", *_table(("day", "time", "side", "entry", "units", "option"), rows)]
    return "\n".join(lines)


# The blocks' colours on a picture of a view (a hidden block is drawn in its side's colour
# too: the side of a block on the map is no secret, 3.0).
_SIDE_COLOUR = {"usa": "#2c4f8f", "csa": "#8f8f8f"}


def view_picture(view: JSONDict, out: Path) -> Path:
    """The board as a .png or .svg file with the blocks the view puts on it: a square per
    block in its side's colour, with its strength (and rating when the view gives it; a
    hidden block is a blank square)."""
    import matplotlib.pyplot as plt
    from matplotlib.patches import Rectangle

    from gettysburg.boc import render  # sets the headless back end before pyplot draws

    board = _board()
    if board is None:
        raise ValueError("the Badges of Courage board is missing: no map to draw")
    if out.suffix.lower() not in (".svg", ".png"):
        raise ValueError(f"{out}: use a .svg or .png file name")
    lay = board.layout
    sp = lay.spacing()
    xs = [lay.to_plane(h)[0] for h in board.hexes]
    ys = [lay.to_plane(h)[1] for h in board.hexes]
    w_m, h_m = max(xs) - min(xs) + 2 * sp, max(ys) - min(ys) + 2 * sp
    fig, ax = plt.subplots(figsize=(13.0, 13.0 * h_m / w_m + 1.2))
    render._draw(board, ax, ids=True)
    stacks: dict[str, list[tuple[str, str]]] = {}
    for u in view.get("units", []) or []:
        if u.get("hex") and u.get("status", "on_map") == "on_map":
            text = str(u.get("strength"))
            if u.get("rating"):
                text = f"{u['rating']}\n{text}"
            stacks.setdefault(str(u["hex"]), []).append((str(u.get("side")), text))
    for h in view.get("hidden", []) or []:
        if h.get("hex"):
            stacks.setdefault(str(h["hex"]), []).append((str(h.get("side")), ""))
    side = sp * 0.3
    for hex_id in sorted(stacks):
        x, y = lay.to_plane(board.parse(hex_id))
        for i, (who, text) in enumerate(stacks[hex_id][:4]):
            cx = x + (i % 2 - 0.5) * side * 1.1 if len(stacks[hex_id]) > 1 else x
            cy = y + (0.5 - i // 2) * side * 1.1 if len(stacks[hex_id]) > 2 else y
            ax.add_patch(Rectangle((cx - side / 2, cy - side / 2), side, side, zorder=6,
                                   facecolor=_SIDE_COLOUR.get(who, "#7a3b2e"),
                                   edgecolor="black", linewidth=0.6))
            if text:
                ax.text(cx, cy, text, ha="center", va="center", color="white", fontsize=4.5,
                        zorder=7, linespacing=0.9)
    ax.set_title(f"{view.get('title')} — {view.get('time')}, {view.get('phase')} phase")
    out.parent.mkdir(parents=True, exist_ok=True)
    meta = {"Date": None} if out.suffix.lower() == ".svg" else {"Software": None}
    fig.savefig(out, dpi=130, bbox_inches="tight", metadata=meta)
    plt.close(fig)
    return out


def _clock(text: str, day: int) -> JSONDict:
    """A scenario sheet's time ("09:00", "night", "day 3 20:00") as events give a time of
    day (docs/protocol.md), so the client words it in the player's language."""
    from gettysburg.boc.state import NIGHT_HOUR

    words = str(text).split()
    if len(words) == 3 and words[0] == "day":
        day, words = int(words[1]), words[2:]
    if words == ["night"]:
        return {"day": day, "hour": NIGHT_HOUR, "night": True}
    return {"day": day, "hour": int(words[0].split(":")[0]), "night": False}


def card(view: JSONDict, seat: str) -> JSONDict:
    """The scenario card of the game a view shows, for ``seat``: when it starts and ends,
    the victory bands on the measure the view's ``victory`` gives, the options in force
    with their rules, and the arrivals by hour with their entry roads (those the options
    in force bring). The seat's own arrivals are named; the enemy's are counted only (a
    hidden block entering must not be named by the card that says when it comes)."""
    from gettysburg.boc.game import OPTION_ALIASES, OPTION_RULES

    doc = scenario_doc(str(view.get("source") or view.get("scenario")))
    in_force = {OPTION_ALIASES.get(o, o) for o in view.get("options", []) or []}

    def brings(a: JSONDict) -> bool:
        need, bar = a.get("option"), a.get("unless_option")
        return (need is None or OPTION_ALIASES.get(need, need) in in_force) and \
            (bar is None or OPTION_ALIASES.get(bar, bar) not in in_force)

    arrivals = []
    for a in doc["arrivals"]:
        if not brings(a):
            continue
        own = seat == "referee" or a["side"] == seat
        arrivals.append({"at": _clock(a["time"], int(a["day"])), "side": a["side"],
                         "entry": a["entry"], "hex": a["hex"], "count": len(a["units"]),
                         "pieces": [u["name"] for u in a["units"]] if own else None})
    arrivals.sort(key=lambda a: (a["at"]["day"], a["at"]["hour"]))
    v = doc["victory"]
    bands = [{"winner": "csa", "min": v["csa_win_min"]},
             {"winner": None, "min": v["usa_win_max"] + 1, "max": v["csa_win_min"] - 1},
             {"winner": "usa", "max": v["usa_win_max"]}]
    return {"title": doc["title"], "rule": doc["rule"],
            "start": _clock(doc["start"], int(doc["day"])),
            "end": _clock(doc["end"], int(doc["day"])),
            "first": doc["first_player"],
            "victory": {"rule": v["rule"], "measure": "total", "bands": bands},
            "options": [{"name": o, "rule": OPTION_RULES.get(o)} for o in sorted(in_force)],
            "arrivals": arrivals}
