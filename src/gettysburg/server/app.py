"""The game server: a FastAPI app over :class:`Host` (see docs/server.md).

Every game endpoint takes the seat's secret token as ``Authorization: Bearer <token>``
(the WebSocket takes it in its first message, since browsers cannot set headers there);
refusals are JSON ``{"error": {"rule", "message", "field"?}}`` with a 4xx status.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Header, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from gettysburg.core.canonical import JSONDict
from gettysburg.server import systems
from gettysburg.server.agents import agent_names
from gettysburg.server.hosting import ApiError, Host, seat_specs
from gettysburg.server.limits import Limits, LimitsMiddleware
from gettysburg.server.runner import Runner
from gettysburg.server.store import Store

log = logging.getLogger(__name__)

STATIC = Path(str(resources.files("gettysburg.server") / "static"))
I18N = Path(str(resources.files("gettysburg.server") / "i18n"))
LANGUAGES = ("en", "es", "de", "it")
#: A WebSocket that has not said who it is by then is closed (it would hold a connection
#: open for nothing; docs/security.md).
HELLO_SECONDS = 30.0


class ErrorDetail(BaseModel):
    rule: str = Field(description="the rule section or request rule that refused")
    message: str
    field: str | None = Field(None, description="the offending field, when there is one")


class ErrorOut(BaseModel):
    """Every refusal: ``{"error": {"rule", "message", "field"?}}`` (docs/server.md)."""

    error: ErrorDetail


def _refusals(*codes: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI ``responses`` entries declaring the refusals a route may answer with."""
    what = {400: "the body is not JSON", 403: "missing or wrong token, or another seat",
            404: "no such game or map", 409: "not now (turn, game over, undo, fog)",
            413: "the body is larger than the server accepts",
            422: "malformed request or illegal action",
            429: "too many requests or new games from this address (Retry-After says when)",
            500: "a stored game cannot be rebuilt"}
    return {code: {"model": ErrorOut, "description": what[code]} for code in codes}


# What each kind of route may refuse with (the 422 replaces FastAPI's own validation shape).
LOBBY = _refusals(422)
BODY = _refusals(400, 422)
SEAT = _refusals(403, 404, 409, 422, 500)
SEAT_BODY = _refusals(400, 403, 404, 409, 422, 500)
#: Any route may meet the limits (limits.py), so the app declares these for all of them.
LIMITED = _refusals(413, 429)


class SeatIn(BaseModel):
    kind: str = Field("human", description="human or ai")
    agent: str | None = Field(None, description="agent name for an AI seat (e.g. random)")


class CreateIn(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [
        {"system": "toy", "scenario": "standard", "options": ["turns=4"],
         "seats": {"red": {"kind": "human"}, "blue": {"kind": "ai", "agent": "random"}}}]})

    system: str
    scenario: str
    options: list[str] = Field(default_factory=list)
    seed: str | None = Field(None, description="omit for a fresh secret seed")
    seats: dict[str, SeatIn]


class ActionIn(BaseModel):
    model_config = ConfigDict(json_schema_extra={"examples": [
        {"action": {"type": "pass"}, "action_id": "0b7e0c1e-2f0a-4c55-9d0e-6c1f4a1b9e21"}]})

    action: dict[str, Any]
    action_id: str = Field(description="client-chosen id; a retry with the same id is "
                                       "applied once and returns the stored outcome")
    seat: str | None = Field(None, description="optional; must be the token's seat")
    step: int | None = Field(None, ge=0, description="optional: the step the action was "
                             "chosen at; refused (409 protocol.step) if the game has moved on")


class BranchIn(BaseModel):
    step: int = Field(ge=0)
    seats: dict[str, SeatIn] | None = None


def _token(authorization: str | None) -> str | None:
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip()
    return None


def _created(game_id: str, tokens: dict[str, str]) -> JSONDict:
    return {"game_id": game_id,
            "seats": {s: {"token": t, "link": f"/g/{game_id}#{t}"} for s, t in tokens.items()}}


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


def create_app(store: Store, *, ai_budget: float = 5.0, ai_delay: float = 0.0,
               limits: Limits | None = None) -> FastAPI:
    """The server app over ``store``. ``ai_delay`` pauses before AI moves (for humans);
    ``limits`` caps body sizes and request rates per client address (default
    :class:`Limits`; ``Limits.off()`` for none)."""
    host = Host(store)
    hub = Hub()
    host.listen(hub.notify)
    runner = Runner(host, budget=ai_budget, delay=ai_delay)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        hub.loop = asyncio.get_running_loop()
        for game_id in host.active_games():  # resume: replay, then let AIs move
            try:
                host.load(game_id)
            except Exception:
                log.exception("cannot resume game %s", game_id)
                continue
            runner.kick(game_id)
        yield
        runner.close()

    app = FastAPI(title="Gettysburg game server", version="1", lifespan=lifespan,
                  responses=LIMITED)
    app.state.host, app.state.runner, app.state.store = host, runner, store
    app.add_middleware(LimitsMiddleware, limits=Limits() if limits is None else limits)

    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse({"error": exc.to_json()}, status_code=exc.status)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        # e.g. a body that is not JSON (400), an unknown path (404), a chunked body over the
        # size cap (413, limits.BodyTooLarge): same shape as the rest
        rule = getattr(exc, "rule", "request")
        return JSONResponse({"error": {"rule": rule, "message": str(exc.detail)}},
                            status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        if first.get("type") == "json_invalid":  # not a malformed field: not JSON at all
            at = first.get("loc", ("body", "?"))[-1]
            return JSONResponse({"error": {"rule": "request", "field": "body",
                                           "message": f"the body is not valid JSON (at "
                                                      f"character {at}): "
                                                      f"{first.get('msg', 'invalid')}"}},
                                status_code=400)
        where = ".".join(str(p) for p in first.get("loc", ()))
        return JSONResponse({"error": {"rule": "request", "field": where,
                                       "message": f"{where}: {first.get('msg', 'invalid')}"}},
                            status_code=422)

    # --- lobby ------------------------------------------------------------------------------

    @app.get("/api/systems")
    def list_systems() -> JSONDict:
        """Rule systems, their scenarios, and the AI agents available."""
        return {"systems": systems.available_systems(), "agents": agent_names()}

    @app.get("/api/setup", responses=LOBBY)
    def setup_seats(system: Annotated[str, Query(examples=["boc"])],
                    scenario: Annotated[str, Query(examples=["day1"])],
                    options: Annotated[list[str] | None, Query()] = None) -> JSONDict:
        """The seats of a set-up (so the lobby can ask who plays each)."""
        # An empty value (`options=`, as a blank form field sends) is no option.
        chosen = tuple(o for o in options or () if o)
        problem = systems.options_problem(system, scenario, chosen)
        if problem is not None:
            raise ApiError(422, "setup.options", f"{system}/{scenario}: {problem}",
                           field="options")
        try:
            return {"seats": systems.seats_of(system, scenario, chosen)}
        except Exception as exc:
            if systems.blames_options(system, scenario, chosen):
                raise ApiError(422, "setup.options", f"{system}/{scenario}: {exc}",
                               field="options") from None
            raise ApiError(422, "setup.scenario", f"{system}/{scenario}: {exc}",
                           field="scenario") from None

    @app.post("/api/games", status_code=201, responses=BODY)
    def create_game(body: CreateIn) -> JSONDict:
        """Create a game; returns a secret join link per human seat."""
        specs = seat_specs({k: v.model_dump() for k, v in body.seats.items()})
        game_id, tokens = host.create(body.system, body.scenario, body.options, body.seed,
                                      specs)
        runner.kick(game_id)
        return _created(game_id, tokens)

    @app.post("/api/import", status_code=201, responses=BODY)
    def import_save(save: dict[str, Any]) -> JSONDict:
        """Host a save file (core/savefile format) as a new game, e.g. to replay it or play
        on from where it stopped; returns a link for every seat."""
        game_id, tokens = host.import_save(save)
        runner.kick(game_id)
        return _created(game_id, tokens)

    @app.get("/api/maps/{system}", responses=_refusals(404, 422))
    def get_map(system: str) -> JSONDict:
        doc = systems.map_json(system)
        if doc is None:
            raise ApiError(404, "map", f"no map for system {system!r}", field="system")
        return doc

    # --- one seat --------------------------------------------------------------------------

    @app.get("/api/games/{game_id}", responses=SEAT)
    def game_state(game_id: str, authorization: str | None = Header(None)) -> JSONDict:
        """The seat's state: view, legal actions, who is to move, status."""
        live, seat = host.auth(game_id, _token(authorization))
        return host.state(live, seat)

    @app.get("/api/games/{game_id}/view", responses=SEAT)
    def game_view(game_id: str, authorization: str | None = Header(None)) -> JSONDict:
        live, seat = host.auth(game_id, _token(authorization))
        with live.lock:
            return live.game.view(seat)

    @app.get("/api/games/{game_id}/legal", responses=SEAT)
    def game_legal(game_id: str, authorization: str | None = Header(None)) -> JSONDict:
        live, seat = host.auth(game_id, _token(authorization))
        with live.lock:
            return {"seat": seat, "step": live.step, "legal": live.game.legal_actions(seat)}

    @app.get("/api/games/{game_id}/events", responses=SEAT)
    def game_events(game_id: str, since: int = 0,
                    authorization: str | None = Header(None)) -> JSONDict:
        """The event log as this seat may see it, from log index ``since``."""
        live, seat = host.auth(game_id, _token(authorization))
        return {"events": host.events(live, seat, since)}

    @app.post("/api/games/{game_id}/actions", responses=SEAT_BODY)
    def game_act(game_id: str, body: ActionIn,
                 authorization: str | None = Header(None)) -> JSONDict:
        _live, seat = host.auth(game_id, _token(authorization))
        if body.seat is not None and body.seat != seat:
            raise ApiError(403, "auth.seat", f"this link plays {seat}, not {body.seat}",
                           field="seat")
        return host.act(game_id, seat, body.action, body.action_id, body.step)

    @app.post("/api/games/{game_id}/undo", responses=SEAT)
    def game_undo(game_id: str, authorization: str | None = Header(None)) -> JSONDict:
        """Take back the seat's last action if that cannot reveal or re-roll anything."""
        live, seat = host.auth(game_id, _token(authorization))
        host.undo(game_id, seat)
        return host.state(live, seat)

    @app.get("/api/games/{game_id}/save", responses=SEAT)
    def game_save(game_id: str, authorization: str | None = Header(None)) -> JSONDict:
        """The save file (core/savefile format); only once the game is over."""
        live, _seat = host.auth(game_id, _token(authorization))
        return host.save(live)

    @app.get("/api/games/{game_id}/replay", responses=SEAT)
    def game_replay(game_id: str, step: int = 0,
                    authorization: str | None = Header(None)) -> JSONDict:
        """The game after ``step`` actions, as this seat saw it (referee once over)."""
        live, seat = host.auth(game_id, _token(authorization))
        return host.replay(live, seat, step)

    @app.post("/api/games/{game_id}/branch", status_code=201,
               responses=SEAT_BODY)
    def game_branch(game_id: str, body: BranchIn,
                    authorization: str | None = Header(None)) -> JSONDict:
        """What-if: a new game from the first ``step`` actions of a finished game."""
        live, seat = host.auth(game_id, _token(authorization))
        specs = None if body.seats is None else seat_specs(
            {k: v.model_dump() for k, v in body.seats.items()})
        new_id, tokens = host.branch(live, seat, body.step, specs)
        runner.kick(new_id)
        return _created(new_id, tokens)

    @app.get("/api/games/{game_id}/map", responses=SEAT)
    def game_map(game_id: str, authorization: str | None = Header(None)) -> JSONDict:
        live, _seat = host.auth(game_id, _token(authorization))
        return get_map(live.row.system)

    @app.websocket("/api/games/{game_id}/ws")
    async def game_ws(ws: WebSocket, game_id: str) -> None:
        """Push the seat's state (and new log entries) after every change. The first
        client message is ``{"token": ..., "since": <log index>}``."""
        await ws.accept()
        try:
            hello = json.loads(await asyncio.wait_for(ws.receive_text(), HELLO_SECONDS))
            _live, seat = await asyncio.to_thread(host.auth, game_id, str(hello.get("token")))
            since = int(hello.get("since", 0))
        except ApiError as exc:
            await ws.send_json({"type": "error", "error": exc.to_json()})
            await ws.close(code=4403)
            return
        except (ValueError, TypeError, AttributeError, WebSocketDisconnect, TimeoutError):
            with contextlib.suppress(Exception):  # the client may be gone already
                await ws.close(code=4400)
            return
        wake = asyncio.Event()
        hub.subs.setdefault(game_id, set()).add(wake)
        reader = asyncio.create_task(_drain(ws))
        try:
            while True:
                wake.clear()
                state = await asyncio.to_thread(host.state, host.load(game_id), seat)
                events = await asyncio.to_thread(host.events, host.load(game_id), seat, since)
                if events:
                    since = int(events[-1]["n"]) + 1
                since = min(since, int(state["log_size"]))  # after an undo the log shrinks
                await ws.send_json({"type": "state", "state": state, "events": events})
                waiter = asyncio.create_task(wake.wait())
                done, _ = await asyncio.wait({waiter, reader},
                                             return_when=asyncio.FIRST_COMPLETED)
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

    # --- the web client ------------------------------------------------------------------

    @app.get("/api/i18n/{lang}", responses=_refusals(404, 422))
    def catalogue(lang: str) -> JSONDict:
        if lang not in LANGUAGES:
            raise ApiError(404, "i18n", f"no catalogue {lang!r}; have {list(LANGUAGES)}",
                           field="lang")
        data: JSONDict = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
        return data

    def index() -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    app.get("/", include_in_schema=False)(index)
    app.get("/g/{game_id}", include_in_schema=False)(lambda game_id: index())
    app.get("/g/{game_id}/replay", include_in_schema=False)(lambda game_id: index())
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


async def _drain(ws: WebSocket) -> None:
    """Read (and ignore) client messages until it goes away."""
    while True:
        await ws.receive_text()
