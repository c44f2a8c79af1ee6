"""``gettysburg play``: the main job.

Until the game server lands (issue: play in the browser), this draws the
Badges of Courage map, writes it next to the user's data and says what is coming.
"""

from __future__ import annotations

from pathlib import Path

import typer


def play(
    out: Path = typer.Option(
        Path("out/boc-map.png"), "--out", help="Where to draw the map (.png or .svg)"
    ),
) -> None:
    """Play Gettysburg: for now, draws the Badges of Courage map and reports progress."""
    from gettysburg.boc.board import load_board
    from gettysburg.boc.render import render_board

    board = load_board()
    render_board(board, out)
    typer.echo(f"Badges of Courage map: {len(board.hexes)} hexes -> {out}")
    typer.echo(
        "Coming next: the rules engine, then play in the browser against the AI or a "
        "friend (`gettysburg play` will serve it on 127.0.0.1)."
    )
