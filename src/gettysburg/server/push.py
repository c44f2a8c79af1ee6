"""The push channel: a WebSocket per seat that sends the seat's state (and its new log
entries) after every change to its game. Browsers cannot set headers on a WebSocket, so
the token comes in the client's first message."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging

from fastapi import FastAPI, WebSocket, WebSocketDisconnect

from gettysburg.server.hosting import ApiError, Host

log = logging.getLogger(__name__)

#: A WebSocket that has not said who it is by then is closed (it would hold a connection
#: open for nothing; docs/security.md).
HELLO_SECONDS = 30.0


class Hub:
    """WebSocket subscribers per game; woken (thread-safely) when the game changes."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.subs: dict[str, set[asyncio.Event]] = {}

    def notify(self, game_id: str) -> None:
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        for ev in list(self.subs.get(game_id, ())):
            loop.call_soon_threadsafe(ev.set)


def add_push_route(app: FastAPI, host: Host, hub: Hub) -> None:
    @app.websocket("/api/games/{game_id}/ws")
    async def game_ws(ws: WebSocket, game_id: str) -> None:
        """Push the seat's state (and new log entries) after every change. The first
        client message is ``{"token": ..., "since": <log index>}``."""
        await ws.accept()
        try:
            hello = json.loads(await asyncio.wait_for(ws.receive_text(), HELLO_SECONDS))
            if not isinstance(hello, dict):
                raise ApiError(422, "request.hello", "the first message is a JSON object "
                                                     '{"token": ..., "since": ...}')
            since = hello_since(hello.get("since", 0))
            _live, seat = await asyncio.to_thread(host.auth, game_id, str(hello.get("token")))
        except ApiError as exc:
            await ws.send_json({"type": "error", "error": exc.to_json()})
            await ws.close(code=4400 if exc.status == 422 else 4403)
            return
        except (ValueError, TypeError, AttributeError, WebSocketDisconnect, TimeoutError):
            with contextlib.suppress(Exception):  # the client may be gone already
                await ws.close(code=4400)
            return
        await _serve(ws, host, hub, game_id, str(hello.get("token")), seat, since)


def hello_since(value: object) -> int:
    """The log index a hello asks to start from: a whole number >= 0 (JSON also carries
    ``1e999``, which is infinity, and ``true``)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ApiError(422, "request.since", "since must be a whole number >= 0 (a log "
                                             "index)", field="since")
    return value


async def _serve(ws: WebSocket, host: Host, hub: Hub, game_id: str, token: str, seat: str,
                 since: int) -> None:
    """Send the seat's state now and after every change, until the client goes away."""
    wake = asyncio.Event()
    hub.subs.setdefault(game_id, set()).add(wake)
    reader = asyncio.create_task(_drain(ws))
    try:
        while True:
            wake.clear()
            try:  # a link replaced since (POST /link) stops here, as on every other route
                text, since = await asyncio.to_thread(push_message, host, game_id, token,
                                                      seat, since)
            except ApiError as exc:
                await ws.send_json({"type": "error", "error": exc.to_json()})
                return
            await ws.send_text(text)
            waiter = asyncio.create_task(wake.wait())
            done, _ = await asyncio.wait({waiter, reader}, return_when=asyncio.FIRST_COMPLETED)
            if reader in done:
                waiter.cancel()
                return
    except Exception:  # the client went away mid-send (the exception type varies by server)
        log.debug("websocket for %s/%s closed", game_id, seat, exc_info=True)
        return
    finally:
        hub.subs.get(game_id, set()).discard(wake)
        reader.cancel()
        with contextlib.suppress(Exception):
            await ws.close()


def push_message(host: Host, game_id: str, token: str, seat: str, since: int
                 ) -> tuple[str, int]:
    """The push for ``seat`` now, as JSON text, and the log index the next one starts
    from. One trip off the event loop per push: the token is checked, and the state comes
    as the text :meth:`Host.state_json` serialised once for its position, so only the new
    log entries are serialised here."""
    live, _seat = host.auth(game_id, token)
    with live.lock:  # state and events of one position
        state = host.state_json(live, seat)
        log_size = live.log_size(seat)
        events = host.events(live, seat, since)
    if events:
        since = int(events[-1]["n"]) + 1
    since = min(since, log_size)  # after an undo the log shrinks
    text = ('{"type":"state","state":' + state + ',"events":'
            + json.dumps(events, separators=(",", ":"), ensure_ascii=False) + "}")
    return text, since


async def _drain(ws: WebSocket) -> None:
    """Read (and ignore) client messages until it goes away."""
    while True:
        await ws.receive_text()
