"""``gettysburg serve``: host games for remote players (see docs/server.md, docs/storage.md)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:  # the server's modules load only when a server is started
    from gettysburg.server.limits import Limits
    from gettysburg.server.store import Store

DB_HELP = ("Where games are kept: a SQLite file (a path or sqlite:///PATH; default: the user "
           "data dir) or a PostgreSQL database (postgresql://USER@HOST:PORT/DBNAME)")


def default_db() -> Path:
    from platformdirs import user_data_dir

    return Path(user_data_dir("gettysburg")) / "games.db"


def db_target(db: str | None) -> Path | str:
    """The ``--db`` value as the store takes it: a URL stays text, a file path a Path; a
    URL of any other scheme (``mysql://x``) is refused with exit code 2, not taken for a
    folder name."""
    if db is None:
        return default_db()
    if db.startswith(("postgresql://", "postgres://", "sqlite://")):
        return db
    scheme, sep, _ = db.partition("://")
    if sep and scheme.replace("+", "").isalnum():
        typer.echo(f"error: --db: {scheme}:// is not a store here; give a SQLite file (a path "
                   "or sqlite:///PATH) or postgresql://...", err=True)
        raise typer.Exit(code=2)
    return Path(db)


def shown(target: Path | str) -> str:
    """The database as printed (a PostgreSQL URL without its password)."""
    if isinstance(target, str) and target.startswith(("postgresql://", "postgres://")):
        from gettysburg.server.store_postgres import redact

        return redact(target)
    return str(target)


def _open(target: Path | str) -> Store:
    """The store, or a one-line error and exit code 2 (never a traceback)."""
    from gettysburg.server.store import Store, StoreError

    try:
        return Store(target)
    except StoreError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(code=2) from None


RATE_HELP = ("Requests (HTTP and WebSocket connections) one address may make, e.g. "
             "1200/minute, or off")
NEW_GAMES_HELP = "Games one address may create, import or branch, e.g. 60/hour, or off"
#: The largest WebSocket message accepted: clients send only a short hello (uvicorn's own
#: default is 16 MiB).
WS_MAX_BYTES = 64 * 1024


def server_limits(rate: str, new_games: str) -> Limits:
    """The ``--rate-limit`` and ``--new-games`` values as :class:`Limits`, or a one-line
    error naming the option and exit code 2."""
    from gettysburg.server.limits import Limits

    try:
        return Limits(requests=rate, new_games=new_games)
    except ValueError as exc:
        option = "--new-games" if str(exc).startswith("new_games") else "--rate-limit"
        typer.echo(f"error: {option}: {str(exc).split(': ', 1)[1]}", err=True)
        raise typer.Exit(code=2) from None


def run_server(host: str, port: int, db: Path | str, ai_delay: float = 0.0,
               limits: Limits | None = None, ai_budget: float = 5.0,
               trusted_proxies: Sequence[str] = ()) -> None:
    import logging

    import uvicorn

    from gettysburg.server.app import create_app

    # Warnings from the server (e.g. a damaged game left out) as one line each on stderr.
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    store = _open(db)
    try:
        app = create_app(store, ai_budget=ai_budget, ai_delay=ai_delay, limits=limits)
        # X-Forwarded-For names the client only when the operator's own proxy sent it:
        # from anyone else (any local process included) it would dodge the limits.
        uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=WS_MAX_BYTES,
                    proxy_headers=bool(trusted_proxies),
                    forwarded_allow_ips=",".join(trusted_proxies) if trusted_proxies else None)
    finally:
        store.close()


def check_store(db: Path | str) -> None:
    """Open the store and replay every stored game; exit 1 naming each damaged one. A
    SQLite file that does not exist is an error (exit 2): checking must not create one."""
    from gettysburg.server.hosting import Host
    from gettysburg.server.store import StoreError, is_postgres, sqlite_path

    if not is_postgres(db):
        try:
            path = sqlite_path(db)
        except StoreError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(code=2) from None
        if path != ":memory:" and not Path(path).is_file():
            typer.echo(f"error: no database at {path} (nothing to check)", err=True)
            raise typer.Exit(code=2)
    store = _open(db)
    try:
        host = Host(store)
        total = len(store.game_ids())
        problems = host.check()
        damage = store.damage()  # the file's own check: a page may be damaged
    finally:
        store.close()
    if damage:
        typer.echo(f"damaged: the database file (SQLite integrity check: "
                   f"{'; '.join(damage)})", err=True)
    for game_id, problem in problems.items():
        typer.echo(f"damaged: game {game_id}: {problem}", err=True)
    typer.echo(f"{shown(db)}: {total} games, {total - len(problems)} replay exactly, "
               f"{len(problems)} damaged" + ("; the file itself is damaged" if damage else ""))
    if problems or damage:
        raise typer.Exit(code=1)


PROXY_HELP = ("Address of your reverse proxy (repeatable): only its X-Forwarded-For is "
              "believed for the per-address limits; without it the header is ignored")
AI_DELAY_HELP = ("Seconds the AI pauses before each of its actions, so a player can follow "
                 "its turn on the map (0: as fast as it thinks)")
AI_BUDGET_HELP = ("Seconds the AI may think over one decision (an opponent that searches "
                  "uses it all; less: a shorter wait and play closer to the general's)")


def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="Interface (0.0.0.0 for everyone)"),
    port: int = typer.Option(8863, "--port", help="TCP port"),
    db: str | None = typer.Option(None, "--db", help=DB_HELP),
    check: bool = typer.Option(False, "--check", help="Only check the database: open it, "
                               "replay every game, report damaged ones (exit 1) and stop"),
    rate_limit: str = typer.Option("1200/minute", "--rate-limit", help=RATE_HELP),
    new_games: str = typer.Option("60/hour", "--new-games", help=NEW_GAMES_HELP),
    ai_delay: float = typer.Option(0.3, "--ai-delay", min=0.0, max=10.0, help=AI_DELAY_HELP),
    ai_budget: float = typer.Option(5.0, "--ai-budget", min=0.0, max=60.0,
                                    help=AI_BUDGET_HELP),
    trusted_proxy: list[str] = typer.Option([], "--trusted-proxy", help=PROXY_HELP),
) -> None:
    """Host games: players join with the secret links the lobby shows."""
    target = db_target(db)
    if check:
        check_store(target)
        return
    limits = server_limits(rate_limit, new_games)
    typer.echo(f"Gettysburg server on http://{host}:{port}/  (games stored in {shown(target)})")
    run_server(host, port, target, ai_delay=ai_delay, limits=limits, ai_budget=ai_budget,
               trusted_proxies=trusted_proxy)
