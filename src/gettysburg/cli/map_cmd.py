"""``gettysburg map``: build and draw a rule system's map."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from rich.console import Console

app = typer.Typer(help="Build and draw game maps derived from the battlefield model.")
err = Console(stderr=True)

SYSTEMS = ("boc",)
DRAWABLE = (*SYSTEMS, "ground")  # "ground": the battlefield model itself, no grid


def _check_system(system: str) -> None:
    if system not in SYSTEMS:
        err.print(f"unknown system {system!r}; known: {', '.join(SYSTEMS)}", style="red",
                  markup=False)
        raise typer.Exit(2)


@app.command("render")
def render(
    out: Path = typer.Option(..., "--out", help="Output file: .svg or .png"),
    system: str = typer.Option(
        "boc", "--system", help="Rule system whose map to draw, or 'ground' for the model"
    ),
    ids: bool = typer.Option(True, "--ids/--no-ids", help="Print hex ids"),
) -> None:
    """Draw the map (terrain, roads, streams, slopes, ids, victory hexes, entries)."""
    if system not in DRAWABLE:
        err.print(f"unknown system {system!r}; known: {', '.join(DRAWABLE)}", style="red",
                  markup=False)
        raise typer.Exit(2)
    if out.suffix.lower() not in (".svg", ".png"):
        err.print(f"{out}: the file name must end in .svg or .png", style="red", markup=False)
        raise typer.Exit(2)
    if system == "ground":
        from gettysburg.core.battlefield import load_battlefield
        from gettysburg.core.groundmap import render_ground

        render_ground(load_battlefield(), out)
    else:
        from gettysburg.boc.board import load_board
        from gettysburg.boc.render import render_board

        render_board(load_board(), out, ids=ids)
    typer.echo(str(out))


@app.command("build")
def build(
    system: str = typer.Option("boc", "--system", help="Rule system whose map to derive"),
    out: Path | None = typer.Option(
        None, "--out", help="Where to write (default: the package's own board, which is "
        "rewritten only when the derivation changed it)"),
) -> None:
    """Re-derive the map from the battlefield model and write it as JSON."""
    _check_system(system)
    from gettysburg.boc.board import board_path
    from gettysburg.boc.mapgen import derive_board
    from gettysburg.core.battlefield import load_battlefield

    board = derive_board(load_battlefield())
    target = out or board_path()
    text = json.dumps(board.to_json(), indent=1, sort_keys=True) + "\n"
    size = f"{len(board.hexes)} hexes, {len(board.sides)} hexsides"
    # The package's board is what every game plays on: leave the file alone (its date,
    # a read-only install) when the derivation gives it back byte for byte.
    if target.exists() and target.read_text() == text:
        typer.echo(f"{target}: {size}; unchanged, not rewritten")
        return
    target.write_text(text)
    typer.echo(f"{target}: {size}")
