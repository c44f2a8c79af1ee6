"""``gettysburg inspect``: ask the BoC map about a hex, a cone or a line of sight."""

from __future__ import annotations

import json
from typing import Any, NoReturn

import typer

from gettysburg.boc.board import BOC, Board, BoardError, load_board
from gettysburg.boc.los import cone_targets, line_of_sight
from gettysburg.core.hexes import Hexside

app = typer.Typer(help="Query the Badges of Courage map (a line per field; --json for JSON).")


def _fail(msg: str, as_json: bool) -> NoReturn:
    """Exit 2 with ``msg`` on stderr: as ``{"error": ...}`` under --json, else a line."""
    typer.echo(json.dumps({"error": msg}) if as_json else f"error: {msg}", err=True)
    raise typer.Exit(2)


def _board() -> Board:
    return load_board()


def _emit(doc: dict[str, Any], as_json: bool) -> None:
    if as_json:
        typer.echo(json.dumps(doc, indent=1, sort_keys=True))
    else:
        for k, v in doc.items():
            typer.echo(f"{k}: {v if isinstance(v, str) else json.dumps(v)}")


@app.command("hex")
def hex_cmd(
    hex_id: str = typer.Argument(..., help="a hex id, e.g. Q10"),
    as_json: bool = typer.Option(False, "--json", help="JSON instead of a line per field"),
) -> None:
    """Terrain, level, stacking and the six hexsides of one hex."""
    board = _board()
    try:
        info = board.hex(hex_id)
    except BoardError as exc:
        _fail(str(exc), as_json)
    sides = []
    for n in info.hex.neighbours():
        key = Hexside.between(info.hex, n)
        s = board.sides.get(key)
        sides.append(
            {
                "to": BOC.format(n) if n.r <= -1 and n.q >= 1 else None,
                "on_map": n in board.hexes,
                "terrain": sorted(s.terrain) if s else [],
                "slope": s.slope if s else None,
                "uphill": BOC.format(s.uphill) if s and s.uphill else None,
                "roads": [
                    {"name": r.name, "class": r.road_class, "crossing": r.crossing}
                    for r in (s.roads if s else ())
                ],
            }
        )
    _emit(
        {
            "id": info.id,
            "terrain": info.terrain,
            "ground": info.ground,
            "level": info.level,
            "stacking": info.stacking,
            "double_defence": info.double_defence,
            "height_ft": round(info.height_ft),
            "names": list(info.names),
            "victory": info.victory,
            "entries": list(info.entries),
            "edge": info.edge,
            "hexsides": sides,
        },
        as_json,
    )


@app.command("cone")
def cone_cmd(
    origin: str = typer.Argument(..., help="the artillery's hex"),
    through: str = typer.Argument(..., help="the neighbouring hex it fires through"),
    as_json: bool = typer.Option(False, "--json", help="JSON instead of a line per field")
) -> None:
    """The target hexes of artillery in ORIGIN firing through its THROUGH hexside (5.31)."""
    board = _board()
    try:
        o, t = board.parse(origin), board.parse(through)
        targets = cone_targets(board, o, t)
    except BoardError as exc:
        _fail(str(exc), as_json)
    _emit(
        {
            "from": BOC.format(o),
            "through": BOC.format(t),
            "targets": [BOC.format(h) for h in targets],
            "rule": "5.31",
        },
        as_json,
    )


@app.command("los")
def los_cmd(
    origin: str = typer.Argument(..., help="the firing hex"),
    target: str = typer.Argument(..., help="the target hex"),
    through: str | None = typer.Option(None, "--through", help="Fired-through hexside"),
    as_json: bool = typer.Option(False, "--json", help="JSON instead of a line per field"),
) -> None:
    """Long-range artillery line of sight from ORIGIN to TARGET (5.33), with the reason."""
    board = _board()
    try:
        o, t = board.parse(origin), board.parse(target)
        thr = board.parse(through) if through else None
        verdict = line_of_sight(board, o, t, thr)
    except BoardError as exc:
        _fail(str(exc), as_json)
    _emit(verdict.to_json(), as_json)
