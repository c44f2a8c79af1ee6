"""Schemathesis against the server's published OpenAPI spec, in process (ASGI).

Every operation gets generated requests (valid and invalid by the schema); each is sent
as generated, then against a real game without a token, then with a real seat's token,
so the game endpoints are exercised past the token check too. No answer may be a 5xx,
use an undeclared status code, or break the response schema the spec declares.
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
import warnings
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis import checks as st_checks

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's notice about its httpx-based client
    from fastapi.testclient import TestClient

from gettysburg.server.app import create_app
from gettysburg.server.limits import Limits
from gettysburg.server.store import Store

_DB_DIR = Path(tempfile.mkdtemp(prefix="gettysburg-schemathesis-"))
atexit.register(shutil.rmtree, _DB_DIR, True)
# Thousands of generated requests from one address: the rate caps would answer most of
# them 429 and the routes behind would go untested (the caps: tests/test_server_limits.py).
APP = create_app(Store(_DB_DIR / "games.db"), limits=Limits.off())
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)

CHECKS = [st_checks.not_a_server_error, st_checks.status_code_conformance,
          st_checks.content_type_conformance, st_checks.response_schema_conformance]


def _real_game() -> tuple[str, str]:
    """A toy game with two human seats (so generated actions can be applied to it)."""
    with TestClient(APP) as client:
        r = client.post("/api/games", json={"system": "toy", "scenario": "standard",
                                             "options": ["turns=30"], "seed": "1",
                                             "seats": {"red": {"kind": "human"},
                                                       "blue": {"kind": "human"}}})
        assert r.status_code == 201, r.text
        body: dict[str, Any] = r.json()
    return str(body["game_id"]), str(body["seats"]["red"]["token"])


GAME_ID, TOKEN = _real_game()


@schema.parametrize()
@settings(max_examples=40, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
def test_no_server_error_and_answers_match_the_spec(case: Any) -> None:
    case.call_and_validate(checks=CHECKS)
    params = case.path_parameters or {}
    if "game_id" in params:
        params["game_id"] = GAME_ID
        case.call_and_validate(checks=CHECKS)
        case.headers = {**(case.headers or {}), "authorization": f"Bearer {TOKEN}"}
        case.call_and_validate(checks=CHECKS)


def test_the_spec_declares_the_error_shape() -> None:
    """The refusals the server sends are declared, so clients (and this test) can check."""
    with TestClient(APP) as client:
        spec = client.get("/openapi.json").json()
    act = spec["paths"]["/api/games/{game_id}/actions"]["post"]["responses"]
    for status in ("403", "404", "409", "422"):
        assert status in act, f"POST actions does not declare {status}"
    ref = act["422"]["content"]["application/json"]["schema"]["$ref"]
    assert ref.endswith("/ErrorOut")


if __name__ == "__main__":  # pragma: no cover
    pytest.main([__file__, "-q"])
