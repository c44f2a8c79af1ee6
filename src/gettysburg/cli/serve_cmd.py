"""``gettysburg serve``: host games for remote players (see docs/server.md)."""

from __future__ import annotations

from pathlib import Path

import typer


def default_db() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir("gettysburg")) / "games.db"


def run_server(host: str, port: int, db: Path, ai_delay: float = 0.0) -> None:
    import uvicorn

    from gettysburg.server.app import create_app
    from gettysburg.server.store import Store

    store = Store(db)
    try:
        uvicorn.run(create_app(store, ai_delay=ai_delay), host=host, port=port,
                    log_level="warning")
    finally:
        store.close()


def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="Interface (0.0.0.0 for everyone)"),
    port: int = typer.Option(8863, "--port", help="TCP port"),
    db: Path | None = typer.Option(None, "--db", help="SQLite file (default: user data dir)"),
) -> None:
    """Host games: players join with the secret links the lobby shows."""
    path = db or default_db()
    typer.echo(f"Gettysburg server on http://{host}:{port}/  (games stored in {path})")
    run_server(host, port, path, ai_delay=0.3)
