"""The ``gettysburg`` command. Each command group lives in its own module."""

from __future__ import annotations

import typer

from gettysburg.cli import (
    game_cmd,
    inspect_cmd,
    lab_cmd,
    map_cmd,
    play_cmd,
    scenario_cmd,
    serve_cmd,
)

app = typer.Typer(
    help="Gettysburg wargames, by the rules of each game.",
    no_args_is_help=True,
    add_completion=False,
)
app.add_typer(map_cmd.app, name="map")
app.add_typer(inspect_cmd.app, name="inspect")
app.add_typer(game_cmd.app, name="game")
app.command("play")(play_cmd.play)
app.command("serve")(serve_cmd.serve)
app.add_typer(scenario_cmd.app, name="scenario")
# simulate reads --SEAT AGENT against the scenario's own seats: words it does not know
# reach it in ctx.args.
app.command("simulate", context_settings={"allow_extra_args": True,
                                          "ignore_unknown_options": True})(lab_cmd.simulate)
app.command("report")(lab_cmd.report)
