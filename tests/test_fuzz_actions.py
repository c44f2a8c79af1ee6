"""Fuzzed actions against Badges of Courage (docs/security.md, "bad input").

Random JSON, wrong types, out-of-range values and mutated legal actions go through
``Game.apply`` at several real positions (the deployment, mid-game, a pending combat
decision) and through the server's action endpoint. Each must be either applied (and then it
was one of the legal actions: ``validate`` accepts exactly what ``legal_actions`` lists) or
refused with a :class:`RuleError` naming a rule, leaving the state, the dice and the log
exactly as they were. Any other exception is a bug.
"""

from __future__ import annotations

import json
import random
import warnings
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gettysburg.boc.game import ACTION_ORDER
from gettysburg.core.protocol import Game, RuleError, action_key, check_action, load_game, new_game

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's notice about its httpx-based client
    from fastapi.testclient import TestClient

FUZZ = settings(max_examples=60, deadline=None, derandomize=True, database=None,
                suppress_health_check=list(HealthCheck))


def _play(scenario: str, seed: int, until: Any, limit: int = 600) -> Game:
    """A seeded random game, stopped when ``until(game)`` holds."""
    game = new_game(f"boc/{scenario}", seed=seed)
    rng = random.Random(seed)
    for _ in range(limit):
        if game.is_terminal() or until(game):
            break
        seat = game.to_move()[0]
        legal = game.legal_actions(seat)
        weights = [20 if a["type"] in ("fire", "melee") else
                   max(1, len(legal) // 6) if a["type"] == "end_phase" else 1 for a in legal]
        game.apply(rng.choices(legal, weights)[0], seat)
    return game


def _decision_pending(game: Game) -> bool:
    return game.view("referee")["combat"].get("waiting") is not None


@cache
def positions() -> dict[str, dict[str, Any]]:
    """Saved positions (as ``to_json``) to fuzz at: fresh, moving, fighting."""
    out = {"day1-start": new_game("boc/day1", seed=1).to_json(),
           "day1-moves": _play("day1", 2, lambda g: len(g.history) >= 40).to_json(),
           "day3-decision": _play("day3", 3, _decision_pending).to_json()}
    return out


def test_the_positions_cover_a_combat_decision() -> None:
    game = load_game(positions()["day3-decision"])
    assert _decision_pending(game), "no combat decision reached: the fuzz misses that code"


# -- strategies ---------------------------------------------------------------------------

JSON_SCALARS = (st.none() | st.booleans() | st.integers(-10**20, 10**20)
                | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=12))
JSON = st.recursive(JSON_SCALARS, lambda c: st.lists(c, max_size=4)
                    | st.dictionaries(st.text(max_size=8), c, max_size=4), max_leaves=12)

#: Values that mean something to BoC: unit ids of both sides, made-up ones, hexes on and
#: off the map, entry roads, numbers at and beyond the ranges the rules use.
WORDS = ["usa-meade", "usa-buford", "usa-reynolds", "csa-heth", "csa-lee", "csa-archer",
         "usa-nobody", "", " ", "Q10", "R11", "A1", "Z99", "q10", "Q", "10", "Chambersburg Pike",
         "Cashtown Pike", "artillery", "hex", "../x", "usa", "csa", "referee", "\u0000", "é"]
MEANINGFUL = (st.sampled_from(WORDS) | st.integers(-3, 12) | st.booleans() | st.none()
              | st.lists(st.sampled_from(WORDS), max_size=5))
FIELDS = ["unit", "hq", "target", "through", "to", "path", "entry", "steps", "at", "block",
          "unsupported", "hex", "formation", "column", "choice", "units", "side"]


def actions() -> st.SearchStrategy[Any]:
    typed = st.fixed_dictionaries(
        {"type": st.sampled_from([*ACTION_ORDER, "nope", ""])},
        optional={f: MEANINGFUL | JSON for f in FIELDS})
    return typed | JSON | st.dictionaries(st.text(max_size=6), JSON, max_size=3)


def _mutate(action: dict[str, Any], how: int, value: Any) -> dict[str, Any]:
    out = dict(action)
    keys = sorted(k for k in out if k != "type")
    if how == 0 and keys:
        del out[keys[0]]  # a field missing
    elif how == 1 and keys:
        out[keys[-1]] = value  # a field of another type or value
    elif how == 2 and isinstance(out.get("path"), list) and out["path"]:
        out["path"] = [*out["path"][:-1], value]  # a path that ends elsewhere
    elif how == 3:
        out["extra"] = value  # a field nobody asked for
    else:
        out["type"] = value if isinstance(value, str) else "end_phase"
    return out


# -- the property ---------------------------------------------------------------------------

def _fingerprint(game: Game) -> tuple[str, int, int, int]:
    return (game.state_hash(), game.dice.counter, len(game.log), len(game.history))


def check_one(game: Game, seat: str, action: Any) -> bool:
    """Apply ``action``; True if applied. Refusals must name a rule and change nothing."""
    legal = {action_key(a) for a in game.legal_actions(seat)}
    before = _fingerprint(game)
    try:
        game.apply(action, seat)
    except RuleError as exc:
        assert exc.rule and str(exc.message), "a refusal must name the rule and say why"
        assert _fingerprint(game) == before, f"refused {action!r} but the state changed"
        try:
            key = action_key(check_action(action))
        except RuleError:
            return False
        assert key not in legal, f"{action!r} is listed as legal but refused: {exc}"
        return False
    assert action_key(check_action(action)) in legal, f"applied {action!r}, not in legal"
    return True


@pytest.fixture(scope="module", params=sorted(positions()))
def position(request: pytest.FixtureRequest) -> Iterator[tuple[dict[str, Any], Game]]:
    data = positions()[request.param]
    yield data, load_game(data)



@FUZZ
@given(action=actions(), as_other=st.booleans())
def test_random_actions_are_refused_cleanly(position: tuple[dict[str, Any], Game],
                                            action: Any, as_other: bool) -> None:
    data, game = position
    mover = game.to_move()[0]
    seat = next(s for s in game.seats() if s != mover) if as_other else mover
    if check_one(game, seat, action):  # legal by chance: put the position back
        position[1].__dict__.update(load_game(data).__dict__)


@FUZZ
@given(pick=st.integers(0, 10**6), how=st.integers(0, 4), value=MEANINGFUL | JSON)
def test_mutated_legal_actions_are_applied_only_if_legal(
        position: tuple[dict[str, Any], Game], pick: int, how: int, value: Any) -> None:
    data, game = position
    mover = game.to_move()[0]
    legal = game.legal_actions(mover)
    action = _mutate(legal[pick % len(legal)], how, value)
    if check_one(game, mover, action):
        position[1].__dict__.update(load_game(data).__dict__)


def test_every_legal_action_is_accepted_at_each_position() -> None:
    """The other half of the contract: nothing listed as legal is refused."""
    for name, data in positions().items():
        game = load_game(data)
        mover = game.to_move()[0]
        legal = game.legal_actions(mover)
        for action in legal[:: max(1, len(legal) // 40)]:
            probe = load_game(data)
            probe.apply(action, mover)  # raises if validate and legal_actions disagree
        assert legal, name


def test_the_property_catches_a_lenient_validator(monkeypatch: pytest.MonkeyPatch) -> None:
    """If ``validate`` let through something ``legal_actions`` does not list (as it did for
    padded actions before the table of action types listed each type's fields), the
    property says so."""
    from dataclasses import replace

    from gettysburg.boc import actions

    game = load_game(positions()["day1-moves"])
    mover = game.to_move()[0]
    assert not check_one(game, mover, {"type": "end_phase", "extra": 1})
    padded = replace(actions.BY_NAME["end_phase"],
                     fields=(actions.Field("extra", "steps", optional=True),))
    monkeypatch.setitem(actions.BY_NAME, "end_phase", padded)
    with pytest.raises(AssertionError, match="not in legal"):
        check_one(game, mover, {"type": "end_phase", "extra": 1})


# -- through the server -----------------------------------------------------------------

@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, str, str]]:
    from gettysburg.server.app import create_app
    from gettysburg.server.store import Store

    store = Store(Path(tmp_path_factory.mktemp("fuzz")) / "games.db")
    with TestClient(create_app(store)) as client:
        r = client.post("/api/games", json={"system": "boc", "scenario": "day1",
                                            "seed": "fuzz", "seats": {
                                                "usa": {"kind": "human"},
                                                "csa": {"kind": "human"}}})
        assert r.status_code == 201, r.text
        g = r.json()
        mover = client.get(f"/api/games/{g['game_id']}", headers={
            "Authorization": "Bearer " + g["seats"]["usa"]["token"]}).json()["to_move"][0]
        yield client, g["game_id"], g["seats"][mover]["token"]
    store.close()


@settings(max_examples=40, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
@given(body=st.fixed_dictionaries({"action": actions(), "action_id": st.text(max_size=8)},
                                  optional={"seat": JSON}) | JSON)
def test_fuzzed_action_requests_get_a_named_refusal(served: tuple[TestClient, str, str],
                                                    body: Any) -> None:
    client, gid, token = served
    host = client.app.state.host  # type: ignore[attr-defined]
    before = host.load(gid).game.state_hash()
    try:
        payload = json.dumps(body, allow_nan=True)
    except (TypeError, ValueError):
        return
    r = client.post(f"/api/games/{gid}/actions", content=payload,
                    headers={"Authorization": f"Bearer {token}",
                             "Content-Type": "application/json"})
    if r.status_code == 200:  # legal by chance (e.g. end_phase): it was applied once
        return
    assert 400 <= r.status_code < 500, r.text
    err = r.json()["error"]
    assert err["rule"] and err["message"]
    assert host.load(gid).game.state_hash() == before
