"""One seat's routes: everything a join link's token opens in its game (state, view,
legal actions, log, acting, undo, save, replay, what-if branches, the game's map)."""

from __future__ import annotations

from fastapi import FastAPI, Header

from gettysburg import systems as registry
from gettysburg.core.canonical import JSONDict
from gettysburg.server.api_models import (
    SEAT,
    SEAT_BODY,
    ActionIn,
    BranchIn,
    LinkIn,
    created,
    token_of,
)
from gettysburg.server.hosting import ApiError, Host, seat_specs
from gettysburg.server.routes_lobby import map_or_404
from gettysburg.server.runner import Runner


def add_seat_routes(app: FastAPI, host: Host, runner: Runner) -> None:
    @app.get("/api/games/{game_id}", responses=SEAT)
    def game_state(game_id: str, authorization: str | None = Header(None)) -> JSONDict:
        """The seat's state: view, legal actions, who is to move, status."""
        live, seat = host.auth(game_id, token_of(authorization))
        return host.state(live, seat)

    @app.get("/api/games/{game_id}/view", responses=SEAT)
    def game_view(game_id: str, authorization: str | None = Header(None)) -> JSONDict:
        live, seat = host.auth(game_id, token_of(authorization))
        with live.lock:
            return live.game.view(seat)

    @app.get("/api/games/{game_id}/legal", responses=SEAT)
    def game_legal(game_id: str, authorization: str | None = Header(None)) -> JSONDict:
        live, seat = host.auth(game_id, token_of(authorization))
        with live.lock:
            return {"seat": seat, "step": live.step, "legal": live.game.legal_actions(seat)}

    @app.get("/api/games/{game_id}/events", responses=SEAT)
    def game_events(game_id: str, since: int = 0,
                    authorization: str | None = Header(None)) -> JSONDict:
        """The event log as this seat may see it, from log index ``since``."""
        live, seat = host.auth(game_id, token_of(authorization))
        return {"events": host.events(live, seat, since)}

    @app.get("/api/games/{game_id}/why", responses=SEAT)
    def game_why(game_id: str, unit: str, place: str,
                 authorization: str | None = Header(None)) -> JSONDict:
        """Why the seat's ``unit`` has no legal action at ``place`` now, in the rule system's
        words: ``{rule, message}``, both null when it gives no reason."""
        live, seat = host.auth(game_id, token_of(authorization))
        declared = registry.find(live.game.setup.system)
        explain = declared.explain if declared is not None else None
        with live.lock:
            why = explain(live.game, seat, unit, place) if explain is not None else None
        return why if why is not None else {"rule": None, "message": None}

    @app.get("/api/games/{game_id}/preview", responses=SEAT)
    def game_preview(game_id: str, unit: str,
                     authorization: str | None = Header(None)) -> JSONDict:
        """What selecting the seat's ``unit`` would set going, in the rule system's words
        (``lit``, ``out``, ``note``, ``warn``, ``warn_for``); ``{}`` when nothing."""
        live, seat = host.auth(game_id, token_of(authorization))
        declared = registry.find(live.game.setup.system)
        preview = declared.preview if declared is not None else None
        with live.lock:
            seen = preview(live.game, seat, unit) if preview is not None else None
        return seen if seen is not None else {}

    @app.get("/api/games/{game_id}/card", responses=SEAT)
    def game_card(game_id: str, authorization: str | None = Header(None)) -> JSONDict:
        """The scenario card as the seat may read it (the system's ``card``), else 404."""
        live, seat = host.auth(game_id, token_of(authorization))
        declared = registry.find(live.game.setup.system)
        if declared is None or declared.card is None:
            raise ApiError(404, "card", "this game's rule system gives no scenario card")
        with live.lock:
            view = live.game.view(seat)
        return declared.card(view, seat)

    @app.post("/api/games/{game_id}/actions", responses=SEAT_BODY)
    def game_act(game_id: str, body: ActionIn,
                 authorization: str | None = Header(None)) -> JSONDict:
        _live, seat = host.auth(game_id, token_of(authorization))
        if body.seat is not None and body.seat != seat:
            raise ApiError(403, "auth.seat", f"this link plays {seat}, not {body.seat}",
                           field="seat")
        return host.act(game_id, seat, body.action, body.action_id, body.step)

    @app.post("/api/games/{game_id}/undo", responses=SEAT)
    def game_undo(game_id: str, authorization: str | None = Header(None)) -> JSONDict:
        """Take back the seat's last action if that cannot reveal or re-roll anything."""
        live, seat = host.auth(game_id, token_of(authorization))
        host.undo(game_id, seat)
        return host.state(live, seat)

    @app.get("/api/games/{game_id}/save", responses=SEAT)
    def game_save(game_id: str, authorization: str | None = Header(None)) -> JSONDict:
        """The save file (core/savefile format); only once the game is over."""
        live, _seat = host.auth(game_id, token_of(authorization))
        return host.save(live)

    @app.get("/api/games/{game_id}/replay", responses=SEAT)
    def game_replay(game_id: str, step: int = 0,
                    authorization: str | None = Header(None)) -> JSONDict:
        """The game after ``step`` actions, as this seat saw it (referee once over)."""
        live, seat = host.auth(game_id, token_of(authorization))
        return host.replay(live, seat, step)

    @app.post("/api/games/{game_id}/branch", status_code=201, responses=SEAT_BODY)
    def game_branch(game_id: str, body: BranchIn,
                    authorization: str | None = Header(None)) -> JSONDict:
        """What-if: a new game from the first ``step`` actions of a finished game."""
        live, seat = host.auth(game_id, token_of(authorization))
        specs = None if body.seats is None else seat_specs(
            {k: v.model_dump() for k, v in body.seats.items()})
        new_id, tokens = host.branch(live, seat, body.step, specs)
        runner.kick(new_id)
        return created(new_id, tokens)

    @app.post("/api/games/{game_id}/link", responses=SEAT_BODY)
    def game_link(game_id: str, body: LinkIn | None = None,
                  authorization: str | None = Header(None)) -> JSONDict:
        """A new join link for your own seat (the old one stops working), or, with
        ``seat``, for another person's seat whose link nobody has used yet (take back a
        link sent to the wrong person); 409 ``seat.joined`` once its player has come."""
        live, seat = host.auth(game_id, token_of(authorization))
        target, token = host.new_link(live, seat, None if body is None else body.seat)
        return {"seat": target, **created(game_id, {target: token})["seats"][target]}

    @app.get("/api/games/{game_id}/map", responses=SEAT)
    def game_map(game_id: str, authorization: str | None = Header(None)) -> JSONDict:
        live, _seat = host.auth(game_id, token_of(authorization))
        return map_or_404(live.row.system)
