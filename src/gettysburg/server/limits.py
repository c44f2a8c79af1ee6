"""Request limits for a server that strangers can reach (docs/security.md, "Limits").

Three caps, each per client address (the connection's, or the ``X-Forwarded-For`` of a
proxy the operator named with ``serve --trusted-proxy``; from anyone else the header is
ignored, or any local process could pick its own address):

* the size of a request body (a save file is the largest thing a client sends: a whole
  battle played at random is about 1.4 MB);
* how many requests (HTTP, and WebSocket connections) an address may make in a moving
  window;
* how many games it may create, import or branch in a moving window (each one costs a
  replay and memory on the server).

Refusals have the API's JSON shape ``{"error": {"rule", "message"}}``: 413 with rule
``request.size``, 429 with rule ``request.rate`` and a ``Retry-After`` header. The counting
is done by the ``limits`` library (moving windows, kept in memory), so a restart forgets it.
"""

from __future__ import annotations

import json
import math
import re
import time
from dataclasses import dataclass
from typing import Any

from fastapi import HTTPException
from limits import RateLimitItem, parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: Requests that make a new game on the server.
NEW_GAME = re.compile(r"^/api/(games|import|games/[^/]+/branch)/?$")


@dataclass(frozen=True)
class Limits:
    """The caps; ``None`` turns one off. Rates are ``limits`` strings: ``"1200/minute"``,
    ``"60/hour"``, ``"10 per second"``..."""

    max_body_bytes: int | None = 8 * 1024 * 1024
    requests: str | None = "1200/minute"
    new_games: str | None = "60/hour"

    def __post_init__(self) -> None:
        if self.max_body_bytes is not None and self.max_body_bytes < 1:
            raise ValueError(f"max_body_bytes: must be at least 1, not {self.max_body_bytes}")
        for name in ("requests", "new_games"):
            rate_item(name, getattr(self, name))

    @classmethod
    def off(cls) -> Limits:
        """No caps at all (tests that hammer one app, load benchmarks)."""
        return cls(None, None, None)


def rate_item(name: str, text: str | None) -> RateLimitItem | None:
    """A rate string as the ``limits`` library takes it; ValueError naming ``name``."""
    if text is None or text.strip().lower() == "off":
        return None
    try:
        return parse(text)
    except ValueError:
        raise ValueError(f"{name}: {text!r} is not a rate such as '1200/minute' or "
                         "'60/hour' (or 'off')") from None


class BodyTooLarge(HTTPException):
    """Raised from inside ``receive`` when a body without Content-Length runs over the cap.
    FastAPI lets an HTTPException through its body parsing, so the client gets a 413."""

    rule = "request.size"


def _error(rule: str, message: str) -> bytes:
    return json.dumps({"error": {"rule": rule, "message": message}}).encode()


class LimitsMiddleware:
    """Plain ASGI middleware, so it sees WebSocket connections as well as HTTP requests."""

    def __init__(self, app: ASGIApp, limits: Limits) -> None:
        self.app = app
        self.limits = limits
        self.limiter = MovingWindowRateLimiter(MemoryStorage())
        self.every = rate_item("requests", limits.requests)
        self.creating = rate_item("new_games", limits.new_games)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        who = str((scope.get("client") or ("unknown", 0))[0])
        refusal = self._over_rate(scope, who)
        if refusal is not None:
            message, wait = refusal
            if scope["type"] == "websocket":
                # Closing before accepting answers the handshake with 403.
                await send({"type": "websocket.close", "code": 1008})
                return
            await _respond(send, 429, _error("request.rate", message),
                           [(b"retry-after", str(wait).encode())])
            return
        cap = self.limits.max_body_bytes
        if scope["type"] != "http" or cap is None:
            await self.app(scope, receive, send)
            return
        declared = _content_length(scope)
        if declared is not None and declared > cap:
            await _respond(send, 413, _error("request.size", _too_large(cap)))
            return
        await self.app(scope, _counting(receive, cap), send)

    def _over_rate(self, scope: Scope, who: str) -> tuple[str, int] | None:
        """Count the request; (message, seconds to wait) when a cap is exceeded."""
        checks: list[tuple[RateLimitItem, str, str]] = []
        if self.every is not None:
            checks.append((self.every, "requests", f"requests ({self.every})"))
        if (self.creating is not None and scope["type"] == "http"
                and scope.get("method") == "POST" and NEW_GAME.match(scope.get("path", ""))):
            checks.append((self.creating, "new_games", f"new games ({self.creating})"))
        for item, key, what in checks:
            if not self.limiter.hit(item, key, who):
                reset = self.limiter.get_window_stats(item, key, who).reset_time
                wait = max(1, math.ceil(reset - time.time()))
                return (f"too many {what} from this address; try again in {wait} s", wait)
        return None


def _too_large(cap: int) -> str:
    return f"the request body is larger than the server accepts ({cap} bytes)"


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


def _counting(receive: Receive, cap: int) -> Receive:
    """``receive`` that raises :class:`BodyTooLarge` once more than ``cap`` bytes came in
    (a chunked body declares no length up front)."""
    seen = 0

    async def wrapped() -> Message:
        nonlocal seen
        message = await receive()
        if message["type"] == "http.request":
            seen += len(message.get("body", b""))
            if seen > cap:
                raise BodyTooLarge(413, _too_large(cap))
        return message

    return wrapped


async def _respond(send: Send, status: int, body: bytes,
                   headers: list[tuple[bytes, bytes]] | None = None) -> None:
    head: list[Any] = [(b"content-type", b"application/json"),
                       (b"content-length", str(len(body)).encode()), *(headers or [])]
    await send({"type": "http.response.start", "status": status, "headers": head})
    await send({"type": "http.response.body", "body": body})
