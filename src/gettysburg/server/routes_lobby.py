"""The lobby's routes: the rule systems on offer (scenarios, seats, opponents, how to draw
them), the seats of a set-up, new games and imported saves, and each system's map."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import FastAPI, Query

from gettysburg.core.canonical import JSONDict
from gettysburg.server import systems
from gettysburg.server.api_models import BODY, LOBBY, CreateIn, created, refusals
from gettysburg.server.hosting import ApiError, Host, seat_specs
from gettysburg.server.runner import Runner


def add_lobby_routes(app: FastAPI, host: Host, runner: Runner) -> None:
    @app.get("/api/systems")
    def list_systems() -> JSONDict:
        """Every registered rule system: its scenarios and options, its seats, how the
        client draws it and the computer opponents it offers (``listed`` false: kept out
        of the lobby's menu, still playable through this API)."""
        return {"systems": systems.available_systems()}

    @app.get("/api/setup", responses=LOBBY)
    def setup_seats(system: Annotated[str, Query(examples=["toy"])],
                    scenario: Annotated[str, Query(examples=["standard"])],
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
        return created(game_id, tokens)

    @app.post("/api/import", status_code=201, responses=BODY)
    def import_save(save: dict[str, Any]) -> JSONDict:
        """Host a save file (core/savefile format) as a new game, e.g. to replay it or play
        on from where it stopped; returns a link for every seat."""
        game_id, tokens = host.import_save(save)
        runner.kick(game_id)
        return created(game_id, tokens)

    @app.get("/api/maps/{system}", responses=refusals(404, 422))
    def get_map(system: str) -> JSONDict:
        """The drawing data of a system's map (its ``topology``: hex or graph)."""
        return map_or_404(system)


def map_or_404(system: str) -> JSONDict:
    doc = systems.map_json(system)
    if doc is None:
        raise ApiError(404, "map", f"no map for system {system!r}", field="system")
    return doc
