"""``gettysburg scenario``: list every rule system's scenarios, and show one.

The list is read from each system's menu in the registry; ``show`` prints what the
scenario's system declares of it (``scenario_doc``, and ``scenario_text`` for people),
or says that the system describes none."""

from __future__ import annotations

import json
from typing import NoReturn

import typer

from gettysburg.cli.specs import scenario_spec, system_and_scenario

app = typer.Typer(help="Scenarios of every rule system: set-ups, arrivals and victory.")

def _refuse(message: str) -> NoReturn:
    from rich.console import Console  # rich: only when a command prints with it

    Console(stderr=True).print(message, style="red", markup=False)  # the user's text, never markup
    raise typer.Exit(1)


@app.command("list")
def list_cmd() -> None:
    """List every system's scenarios."""
    from rich.console import Console
    from rich.table import Table

    from gettysburg import systems as registry

    table = Table("id", "title", "system")
    for declared in registry.all_systems():
        for name, title in declared.menu().scenarios.items():
            table.add_row(f"{declared.name}/{name}", title, declared.title)
    Console().print(table)


@app.command("show")
def show(
    scenario: str = typer.Argument(..., help="SYSTEM/SCENARIO (e.g. toy/standard), a "
                                             "scenario name, or a scenario YAML path"),
    system: str | None = typer.Option(None, "--system", help="the rule system of a bare "
                                      "name or of a file that does not say"),
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of tables"),
) -> None:
    """Show a scenario's set-up and arrivals, as its rule system describes them."""
    from gettysburg import systems as registry

    try:
        name, scen = system_and_scenario(scenario_spec(scenario, system))
        declared = registry.get(name)
    except (ValueError, LookupError) as exc:
        _refuse(f"{scenario}: {exc}")
    if declared.scenario_doc is None:
        _refuse(f"{scenario}: {declared.title} describes no scenario for the command line; "
                f"its scenarios: {', '.join(declared.menu().scenarios)}")
    try:
        doc = declared.scenario_doc(scen)
    except (ValueError, OSError) as exc:
        message = str(exc)
        _refuse(message if scenario in message else f"{scenario}: {message}")
    if as_json:
        typer.echo(json.dumps(doc, indent=2, ensure_ascii=False))
    elif declared.scenario_text is not None:
        typer.echo(declared.scenario_text(doc))
    else:
        typer.echo(json.dumps(doc, indent=2, ensure_ascii=False))
