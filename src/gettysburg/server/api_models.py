"""The shapes of the API's requests and refusals (its OpenAPI schema) and two helpers
every group of routes uses: the seat's token from its header, and the answer to a game
made (a join link per seat)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from gettysburg.core.canonical import JSONDict


class ErrorDetail(BaseModel):
    rule: str = Field(description="the rule section or request rule that refused")
    message: str
    field: str | None = Field(None, description="the offending field, when there is one")


class ErrorOut(BaseModel):
    """Every refusal: ``{"error": {"rule", "message", "field"?}}`` (docs/server.md)."""

    error: ErrorDetail


def refusals(*codes: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI ``responses`` entries declaring the refusals a route may answer with."""
    what = {400: "the body is not JSON", 403: "missing or wrong token, or another seat",
            404: "no such game or map", 409: "not now (turn, game over, undo, fog)",
            413: "the body is larger than the server accepts",
            422: "malformed request or illegal action",
            429: "too many requests or new games from this address (Retry-After says when)",
            500: "a stored game cannot be rebuilt"}
    return {code: {"model": ErrorOut, "description": what[code]} for code in codes}


# What each kind of route may refuse with (the 422 replaces FastAPI's own validation shape).
LOBBY = refusals(422)
BODY = refusals(400, 422)
SEAT = refusals(403, 404, 409, 422, 500)
SEAT_BODY = refusals(400, 403, 404, 409, 422, 500)
#: Any route may meet the limits (limits.py), so the app declares these for all of them.
LIMITED = refusals(413, 429)


class SeatIn(BaseModel):
    kind: str = Field("human", description="human or ai")
    agent: str | None = Field(None, description="an AI seat's opponent: one the system "
                                                "lists in GET /api/systems, or random")


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


class LinkIn(BaseModel):
    seat: str | None = Field(None, description="another person's seat whose unused link to "
                             "replace; omit for your own seat's link")


class BranchIn(BaseModel):
    step: int = Field(ge=0)
    seats: dict[str, SeatIn] | None = None


def token_of(authorization: str | None) -> str | None:
    """The seat's token from an ``Authorization: Bearer <token>`` header."""
    if authorization and authorization.lower().startswith("bearer "):
        return authorization[7:].strip()
    return None


def created(game_id: str, tokens: dict[str, str]) -> JSONDict:
    """A game just made: its id and, per seat a person plays, the token and join link."""
    return {"game_id": game_id,
            "seats": {s: {"token": t, "link": f"/g/{game_id}#{t}"} for s, t in tokens.items()}}
