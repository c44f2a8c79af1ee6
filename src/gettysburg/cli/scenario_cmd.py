"""``gettysburg scenario``: list and show Badges of Courage scenarios (rule 9.0)."""

from __future__ import annotations

import json
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from gettysburg.boc.oob import SIDES, DataError, default_oob
from gettysburg.boc.scenario import BoardLike, Scenario, list_scenarios, load_scenario

app = typer.Typer(help="Badges of Courage scenarios: set-ups, arrivals and victory (9.0).")
err = Console(stderr=True)


def _board() -> BoardLike | None:
    """The real map if it is built; None otherwise (hexes are then checked for form only)."""
    try:
        from gettysburg.boc.board import load_board

        return load_board()
    except Exception:  # the board file may not exist yet
        return None


def scenario_json(sc: Scenario) -> dict[str, Any]:
    """JSON view: every placed unit with hex, strength and rating, plus the arrivals."""
    oob = default_oob()

    def unit_view(uid: str, strength: int | None) -> dict[str, Any]:
        u = oob[uid]
        return {
            "unit": u.id,
            "name": u.name,
            "side": u.side,
            "type": u.type,
            "corps": u.corps,
            "division": u.division,
            "strength": strength if strength is not None else u.max_strength,
            "max_strength": u.max_strength,
            "rating": u.rating,
            "command_range": u.command_range,
        }

    units = []
    for side in SIDES:
        for hx, p in sc.setup_units(side):
            units.append({"hex": hx, **unit_view(p.unit, p.strength)})
    arrivals = []
    for a in sc.arrivals:
        arrivals.append(
            {
                "day": a.day if a.day is not None else sc.day,
                "time": a.time,
                "side": a.side,
                "entry": a.entry,
                "hex": a.hex,
                "option": a.option,
                "unless_option": a.unless_option,
                "designed": a.designed,
                "units": [unit_view(p.unit, p.strength) for p in a.units],
            }
        )
    return {
        "id": sc.id,
        "title": sc.title,
        "rule": sc.rule,
        "day": sc.day,
        "start": sc.start,
        "end": sc.end,
        "first_player": sc.first_player,
        "deploy_order": list(sc.deploy_order),
        "victory": sc.victory.model_dump(),
        "units": units,
        "eliminated": [e.model_dump() for e in sc.eliminated],
        "acting": [a.model_dump() for a in sc.acting],
        "arrivals": arrivals,
        "options": [o.name for o in sc.options],
    }


@app.command("list")
def list_cmd() -> None:
    """List the shipped scenarios."""
    table = Table("id", "title", "file")
    for sid, title, path in list_scenarios():
        table.add_row(sid, title, path.name)
    Console().print(table)


@app.command("show")
def show(
    scenario: str = typer.Argument(..., help="Scenario id (e.g. boc/day2) or a scenario YAML path"),
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of tables"),
) -> None:
    """Show a scenario's set-up (hex, strength, rating) and arrival schedule."""
    try:
        sc = load_scenario(scenario, board=_board())
    except DataError as exc:
        err.print(str(exc), style="red", markup=False)  # the user's text, never markup
        raise typer.Exit(1) from None
    doc = scenario_json(sc)
    if as_json:
        typer.echo(json.dumps(doc, indent=2, ensure_ascii=False))
        return
    con = Console()
    con.print(
        f"[bold]{sc.title}[/bold] ({sc.id}, rule {sc.rule}) day {sc.day} "
        f"{sc.start}-{sc.end}, first player {sc.first_player}"
    )
    t = Table("side", "hex", "unit", "strength", "rating")
    for u in doc["units"]:
        t.add_row(
            u["side"], u["hex"], u["name"], f"{u['strength']}/{u['max_strength']}", u["rating"]
        )
    con.print(t)
    if doc["arrivals"]:
        a = Table("day", "time", "side", "entry", "units", "option")
        for row in doc["arrivals"]:
            opt = row["option"] or (f"not {row['unless_option']}" if row["unless_option"] else "")
            names = ", ".join(x["name"] for x in row["units"])
            a.add_row(str(row["day"]), row["time"], row["side"], row["entry"], names, opt)
        con.print(a)
