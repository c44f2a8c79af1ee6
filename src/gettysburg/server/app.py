"""The game server: a FastAPI app over :class:`Host` (see docs/server.md).

Every game endpoint takes the seat's secret token as ``Authorization: Bearer <token>``
(the WebSocket takes it in its first message, since browsers cannot set headers there);
refusals are JSON ``{"error": {"rule", "message", "field"?}}`` with a 4xx status.
The routes live in modules named for what they serve: the lobby (``routes_lobby``), one
seat (``routes_seat``), the push channel (``push``) and the web client (``client``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager

from fastapi import FastAPI

from gettysburg.server.api_models import LIMITED
from gettysburg.server.client import add_client_routes
from gettysburg.server.hosting import Host
from gettysburg.server.limits import Limits, LimitsMiddleware
from gettysburg.server.push import Hub, add_push_route
from gettysburg.server.refusals import add_refusal_handlers
from gettysburg.server.routes_lobby import add_lobby_routes
from gettysburg.server.routes_seat import add_seat_routes
from gettysburg.server.runner import Runner
from gettysburg.server.store import Store

log = logging.getLogger(__name__)


def create_app(store: Store, *, ai_budget: float = 5.0, ai_delay: float = 0.0,
               limits: Limits | None = None, agents: Sequence[str] = ()) -> FastAPI:
    """The server app over ``store``. ``ai_delay`` pauses before AI moves (for humans);
    ``limits`` caps body sizes and request rates per client address (default
    :class:`Limits`; ``Limits.off()`` for none); ``agents`` are agents a new game may
    seat besides each system's own (registered by the program embedding the server)."""
    host = Host(store, agents=agents)
    hub = Hub()
    host.listen(hub.notify)
    runner = Runner(host, budget=ai_budget, delay=ai_delay)
    app = FastAPI(title="Gettysburg game server", version="1", responses=LIMITED,
                  lifespan=_lifespan(host, hub, runner))
    app.state.host, app.state.runner, app.state.store = host, runner, store
    app.add_middleware(LimitsMiddleware, limits=Limits() if limits is None else limits)
    add_refusal_handlers(app)
    add_lobby_routes(app, host, runner)
    add_seat_routes(app, host, runner)
    add_push_route(app, host, hub)
    add_client_routes(app)
    return app


def _lifespan(host: Host, hub: Hub, runner: Runner
              ) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """On start, resume every active game (replay it, then let its AIs move); on stop,
    let the AI workers finish."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub.loop = asyncio.get_running_loop()
        for game_id in host.active_games():
            try:
                host.load(game_id)
            except Exception:
                log.exception("cannot resume game %s", game_id)
                continue
            runner.kick(game_id)
        yield
        runner.close()

    return lifespan
