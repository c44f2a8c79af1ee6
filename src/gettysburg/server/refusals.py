"""Every refusal in one JSON shape, ``{"error": {"rule", "message", "field"?}}``: the
app's handlers for the host's refusals, Starlette's own (unknown path, body not JSON,
body too large) and FastAPI's validation errors."""

from __future__ import annotations

import json

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from gettysburg.server.hosting import ApiError


class Refusal(JSONResponse):
    """A refusal's JSON. A refusal may quote what the client sent, and JSON may carry a lone
    UTF-16 surrogate (``"\\ud800"``) that no UTF-8 body can hold (it made the answer a
    500): such a refusal goes out with every character beyond ASCII escaped."""

    def render(self, content: object) -> bytes:
        try:
            return super().render(content)
        except UnicodeEncodeError:
            return json.dumps(content, ensure_ascii=True, separators=(",", ":")).encode()


async def api_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ApiError)
    return Refusal({"error": exc.to_json()}, status_code=exc.status)


async def http_error(request: Request, exc: Exception) -> JSONResponse:
    # e.g. a body that is not JSON (400), an unknown path (404), a chunked body over the
    # size cap (413, limits.BodyTooLarge): same shape as the rest
    assert isinstance(exc, StarletteHTTPException)
    rule = getattr(exc, "rule", "request")
    return Refusal({"error": {"rule": rule, "message": str(exc.detail)}},
                        status_code=exc.status_code, headers=exc.headers)


async def bad_request(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    first = exc.errors()[0] if exc.errors() else {}
    if first.get("type") == "json_invalid":  # not a malformed field: not JSON at all
        at = first.get("loc", ("body", "?"))[-1]
        return Refusal({"error": {"rule": "request", "field": "body",
                                       "message": f"the body is not valid JSON (at "
                                                  f"character {at}): "
                                                  f"{first.get('msg', 'invalid')}"}},
                            status_code=400)
    where = ".".join(str(p) for p in first.get("loc", ()))
    return Refusal({"error": {"rule": "request", "field": where,
                                   "message": f"{where}: {first.get('msg', 'invalid')}"}},
                        status_code=422)


def add_refusal_handlers(app: FastAPI) -> None:
    app.add_exception_handler(ApiError, api_error)
    app.add_exception_handler(StarletteHTTPException, http_error)
    app.add_exception_handler(RequestValidationError, bad_request)
