"""Badges of Courage as the command line prints it: a seat's view (``game show``) and a
scenario's set-up and arrivals (``scenario show``, rule 9.0), as JSON and as text."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gettysburg.core.canonical import JSONDict


def view_text(view: JSONDict) -> str:
    """A header line (title, time, phase, the side active), then a line per block the seat
    knows and per hidden block it sees."""
    lines = [f"{view.get('title')} — {view.get('time')}, {view.get('phase')} phase, "
             f"{view.get('active')} active"]
    for u in view.get("units", []) or []:
        lines.append(f"  {u.get('id'):28} {u.get('status', 'on_map'):10} "
                     f"{u.get('hex')!s:5} {u.get('strength')}")
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
