"""``gettysburg inspect``: ask a rule system's map about a hex, a cone or a line of sight,
through the map hooks each system declares in the registry."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, NoReturn

import typer

from gettysburg.cli.map_cmd import map_hook

app = typer.Typer(help="Query a rule system's map (a line per field; --json for JSON).")

SYSTEM_HELP = "Rule system whose map to ask (default: the first that answers)"


def _fail(msg: str, as_json: bool) -> NoReturn:
    """Exit 2 with ``msg`` on stderr: as ``{"error": ...}`` under --json, else a line."""
    typer.echo(json.dumps({"error": msg}) if as_json else f"error: {msg}", err=True)
    raise typer.Exit(2)


def _emit(doc: dict[str, Any], as_json: bool) -> None:
    if as_json:
        typer.echo(json.dumps(doc, indent=1, sort_keys=True))
    else:
        for k, v in doc.items():
            typer.echo(f"{k}: {v if isinstance(v, str) else json.dumps(v)}")


def _ask(system: str | None, hook: str, as_json: bool, *args: str | None) -> None:
    try:
        answer: Callable[..., dict[str, Any]] = map_hook(system, hook)
        doc = answer(*args)
    except (LookupError, ValueError) as exc:  # no such system or map; a bad hex id
        _fail(str(exc), as_json)
    _emit(doc, as_json)


@app.command("hex")
def hex_cmd(
    hex_id: str = typer.Argument(..., help="a hex id, e.g. Q10"),
    system: str | None = typer.Option(None, "--system", help=SYSTEM_HELP),
    as_json: bool = typer.Option(False, "--json", help="JSON instead of a line per field"),
) -> None:
    """Terrain, level, stacking and the six hexsides of one hex."""
    _ask(system, "inspect_hex", as_json, hex_id)


@app.command("cone")
def cone_cmd(
    origin: str = typer.Argument(..., help="the artillery's hex"),
    through: str = typer.Argument(..., help="the neighbouring hex it fires through"),
    system: str | None = typer.Option(None, "--system", help=SYSTEM_HELP),
    as_json: bool = typer.Option(False, "--json", help="JSON instead of a line per field"),
) -> None:
    """The target hexes of artillery in ORIGIN firing through its THROUGH hexside."""
    _ask(system, "inspect_cone", as_json, origin, through)


@app.command("los")
def los_cmd(
    origin: str = typer.Argument(..., help="the firing hex"),
    target: str = typer.Argument(..., help="the target hex"),
    through: str | None = typer.Option(None, "--through", help="Fired-through hexside"),
    system: str | None = typer.Option(None, "--system", help=SYSTEM_HELP),
    as_json: bool = typer.Option(False, "--json", help="JSON instead of a line per field"),
) -> None:
    """Line of sight from ORIGIN to TARGET, with the reason when it is blocked."""
    _ask(system, "inspect_los", as_json, origin, target, through)
