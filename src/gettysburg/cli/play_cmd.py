"""``gettysburg play``: serve the game on this machine and open the lobby in a browser."""

from __future__ import annotations

import typer

from gettysburg.cli.serve_cmd import (
    AI_BUDGET_HELP,
    AI_DELAY_HELP,
    DB_HELP,
    db_target,
    run_server,
    shown,
)


def _port(host: str, wanted: int) -> int:
    """``wanted`` if it is free (0: any), else any free port, so a second copy still starts."""
    import socket  # here, not at the top: other commands never pay for it (issue 59)

    for candidate in (wanted, 0):
        with socket.socket() as s:
            try:
                s.bind((host, candidate))
            except OSError:
                continue
            port: int = s.getsockname()[1]
            return port
    raise typer.BadParameter(f"no free port on {host}")


def play(
    db: str | None = typer.Option(None, "--db", help=DB_HELP),
    port: int = typer.Option(8863, "--port", help="Port on 127.0.0.1 (taken or 0: any free one)"),
    no_browser: bool = typer.Option(False, "--no-browser", help="Only print the lobby URL"),
    ai_delay: float = typer.Option(0.3, "--ai-delay", min=0.0, max=10.0, help=AI_DELAY_HELP),
    ai_budget: float = typer.Option(5.0, "--ai-budget", min=0.0, max=60.0,
                                    help=AI_BUDGET_HELP),
) -> None:
    """Play Gettysburg in your browser against the AI or a friend."""
    import threading
    import webbrowser

    host = "127.0.0.1"  # local play: never reachable from the network
    port = _port(host, port)
    url = f"http://{host}:{port}/"
    target = db_target(db)
    typer.echo(f"Gettysburg lobby: {url}   (games stored in {shown(target)}; Ctrl-C to stop)")
    if not no_browser:
        # Open once the server had a moment to bind; failing to open is fine (URL printed).
        threading.Timer(1.0, lambda: webbrowser.open(url)).start()
    run_server(host, port, target, ai_delay=ai_delay, ai_budget=ai_budget)
