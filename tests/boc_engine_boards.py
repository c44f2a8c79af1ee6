"""Hand-built boards and positions for the BoC rules-engine tests.

Positions are written as a scenario YAML (the scenario schema plus the engine's ``engine``
block) next to a board JSON file, so games built from them can be saved, cloned and
replayed exactly like the shipped scenarios.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import yaml

from gettysburg.boc.board import BOC, STACKING

LETTERS = "ABCDEFGHIJKLMNOPQRST"
NUMBERS = range(1, 15)


def board_doc(hexes: dict[str, dict[str, Any]] | None = None,
              sides: list[dict[str, Any]] | None = None,
              letters: str = LETTERS, numbers: range = NUMBERS) -> dict[str, Any]:
    """A clear level-0 board of ``letters`` x ``numbers`` with overrides.

    ``hexes`` maps an id to fields to change (terrain, victory, entries, ...);
    ``sides`` lists hexside rows in the board file format ({a, b, terrain, slope,
    uphill, roads}).
    """
    over = hexes or {}
    rows = []
    for letter in letters:
        for n in numbers:
            hid = f"{letter}{n}"
            terrain = over.get(hid, {}).get("terrain", "clear")
            row: dict[str, Any] = {"id": hid, "terrain": terrain, "ground": 0,
                                   "stacking": STACKING[terrain], "d2": terrain == "woods",
                                   "height_ft": 500.0}
            row.update(over.get(hid, {}))
            if letter in (letters[0], letters[-1]) or n in (numbers[0], numbers[-1]):
                row["edge"] = True
            rows.append(row)
    return {"system": "boc", "meta": {"test": True},
            "layout": {"basis_q": [0.0, -430.0], "basis_r": [372.4, -215.0],
                       "origin": [0.0, 0.0]},
            "hexes": rows, "hexsides": list(sides or [])}


def road(a: str, b: str, name: str, cls: str = "main", **extra: Any) -> dict[str, Any]:
    return {"a": a, "b": b, "roads": [{"road": name.lower().replace(" ", "-"), "name": name,
                                      "class": cls, **extra}]}


def road_line(hexes: list[str], name: str, cls: str = "main") -> list[dict[str, Any]]:
    return [road(hexes[i], hexes[i + 1], name, cls) for i in range(len(hexes) - 1)]


def merge_sides(*groups: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Combine side rows, merging roads and terrain of rows for the same hexside."""
    out: dict[tuple[str, str], dict[str, Any]] = {}
    for group in groups:
        for row in group:
            a, b = BOC.parse(row["a"]), BOC.parse(row["b"])
            key = (row["a"], row["b"]) if a < b else (row["b"], row["a"])
            cur = out.setdefault(key, {"a": key[0], "b": key[1]})
            for k, v in row.items():
                if k in ("a", "b"):
                    continue
                if k in ("roads", "terrain"):
                    cur[k] = [*cur.get(k, []), *v]
                else:
                    cur[k] = v
    return list(out.values())


def write_position(tmp: Path, setup: dict[str, list[tuple[str, list[Any]]]], *,
                   engine: dict[str, Any] | None = None,
                   board: dict[str, Any] | None = None,
                   arrivals: list[dict[str, Any]] | None = None,
                   eliminated: list[dict[str, Any]] | None = None,
                   acting: list[dict[str, Any]] | None = None,
                   day: int = 2, start: str = "16:00", end: str = "night",
                   first: str = "csa", bands: tuple[int, int] = (10, -1),
                   name: str = "pos") -> str:
    """Write board + scenario files; return the scenario path for ``BocGame``.

    ``setup`` maps a side to ``[(hex, [unit or (unit, strength), ...]), ...]``.
    """
    text = json.dumps(board or board_doc())
    # Named by content: boards are cached by path, so a changed board gets a new file.
    board_file = f"{name}-board-{hashlib.sha1(text.encode()).hexdigest()[:12]}.json"
    (tmp / board_file).write_text(text, encoding="utf-8")
    sides: dict[str, list[dict[str, Any]]] = {}
    for side, rows in setup.items():
        sides[side] = []
        for hx, units in rows:
            placed = [{"unit": u} if isinstance(u, str) else {"unit": u[0], "strength": u[1]}
                      for u in units]
            sides[side].append({"hex": hx, "units": placed})
    doc: dict[str, Any] = {
        "id": f"test/{name}", "title": f"test position {name}", "rule": "9.0", "day": day,
        "start": start, "end": end, "first_player": first,
        "victory": {"rule": "9.1", "csa_win_min": bands[0], "usa_win_max": bands[1]},
        "setup": sides, "eliminated": eliminated or [], "acting": acting or [],
        "arrivals": arrivals or [],
        "engine": {"board": board_file, **(engine or {})},
    }
    path = tmp / f"{name}.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    return str(path)
