"""``GET /api/games/{id}/why``: why a seat's block has no action at a hex, with the rule
(issue 57: a refusal explained in place), and never a word of what the seat cannot see."""

from __future__ import annotations

import re
import warnings
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's notice about its httpx-based client
    from fastapi.testclient import TestClient


SEATS = ("usa", "csa")


def _game(client: TestClient, scenario: str = "day2") -> tuple[str, dict[str, dict[str, str]]]:
    r = client.post("/api/games", json={"system": "boc", "scenario": scenario, "seed": "why",
                                        "seats": {s: {"kind": "human"} for s in SEATS}})
    assert r.status_code == 201, r.text
    return r.json()["game_id"], {s: {"Authorization": f"Bearer {t['token']}"}
                                 for s, t in r.json()["seats"].items()}


def _end_phases_until(client: TestClient, gid: str, auth: dict[str, Any], phase: str) -> str:
    """End phases until ``phase`` comes; the seat then to move."""
    for _ in range(20):
        state = client.get(f"/api/games/{gid}", headers=auth["usa"]).json()
        mover = state["to_move"][0]
        if state["view"]["phase"] == phase:
            return str(mover)
        r = client.post(f"/api/games/{gid}/actions", headers=auth[mover],
                        json={"action": {"type": "end_phase"}, "action_id": f"e{state['step']}"})
        assert r.status_code == 200, r.text
    raise AssertionError(f"no {phase} phase came")


def test_a_hex_out_of_reach_is_explained_with_its_rule(client: TestClient) -> None:
    gid, auth = _game(client)
    mover = _end_phases_until(client, gid, auth, "movement")
    state = client.get(f"/api/games/{gid}", headers=auth[mover]).json()
    lit: dict[str, set[str]] = {}
    for a in state["legal"]:
        if a["type"] == "move":
            lit.setdefault(a["unit"], set()).add(a["path"][-1])
    unit = next(u for u in state["view"]["units"] if u["id"] in lit and u["hex"])
    far = "A1" if "A1" not in lit[unit["id"]] else "Y14"
    r = client.get(f"/api/games/{gid}/why", headers=auth[mover],
                   params={"unit": unit["id"], "place": far})
    assert r.status_code == 200, r.text
    why = r.json()
    assert why["rule"].startswith("6.") and why["message"].startswith(unit["name"]), why
    assert re.search(r"\d+ MP|must stop|path", why["message"]), why
    # The other seat, and a block not one's own, a place not on the map: no answer.
    other = next(s for s in SEATS if s != mover)
    r = client.get(f"/api/games/{gid}/why", headers=auth[other],
                   params={"unit": unit["id"], "place": far})
    assert r.json() == {"rule": None, "message": None}
    theirs = client.get(f"/api/games/{gid}/view", headers=auth[other]).json()
    own = next(u for u in theirs["units"] if u["side"] == other and u["hex"])
    r = client.get(f"/api/games/{gid}/why", headers=auth[other],
                   params={"unit": own["id"], "place": far})
    assert r.json() == {"rule": "1.2", "message": "it is not your decision now"}
    for place in ("Z99", "", "../etc"):
        r = client.get(f"/api/games/{gid}/why", headers=auth[mover],
                       params={"unit": unit["id"], "place": place})
        assert r.status_code == 200 and r.json() == {"rule": None, "message": None}, place
    r = client.get(f"/api/games/{gid}/why", params={"unit": unit["id"], "place": far})
    assert r.status_code == 403 and r.json()["error"]["rule"] == "auth.token"


def test_no_answer_names_a_hidden_enemy_block(client: TestClient) -> None:
    """Every own block asked about every hex beside a hidden enemy block, in each phase:
    the answers name no hidden block by id or printed name."""
    from gettysburg.boc.oob import default_oob

    oob = default_oob()
    gid, auth = _game(client)
    asked = 0
    for phase in ("command", "fire", "movement", "melee"):
        mover = _end_phases_until(client, gid, auth, phase)
        view = client.get(f"/api/games/{gid}/view", headers=auth[mover]).json()
        hidden_hexes = sorted({h["hex"] for h in view["hidden"]})
        seen = {u["id"] for u in view["units"]}
        secret = [(uid, u.name) for uid, u in oob.units.items()
                  if u.side != mover and uid not in seen]
        own = [u for u in view["units"] if u["side"] == mover and u["hex"]][:8]
        for u in own:
            for place in hidden_hexes[:6]:
                why = client.get(f"/api/games/{gid}/why", headers=auth[mover],
                                 params={"unit": u["id"], "place": place}).json()
                text = str(why["message"])
                asked += why["message"] is not None
                for uid, name in secret:
                    assert uid not in text and not re.search(
                        rf"(?<![\w.']){re.escape(name)}(?![\w'])", text), (why, uid)
    assert asked > 50


def test_an_hqs_command_is_previewed(client: TestClient) -> None:
    """Selecting an HQ in the command phase: the blocks its activation would command where
    it stands, in its rule's words; nothing for another seat, a block, or out of phase."""
    gid, auth = _game(client, "day1")
    r = client.get(f"/api/games/{gid}/preview", headers=auth["csa"],
                   params={"unit": "csa-heth"})
    assert r.status_code == 200, r.text
    seen = r.json()
    assert seen["lit"] == ["csa-archer", "csa-davis", "csa-pegram"], seen
    assert seen["note"] == "Heth would command Archer, Davis, Pegram (4.3)"
    assert seen["warn"] is None and seen["out"] == {}
    for seat, unit in (("usa", "csa-heth"), ("csa", "csa-archer"), ("csa", "nosuch")):
        r = client.get(f"/api/games/{gid}/preview", headers=auth[seat], params={"unit": unit})
        assert r.status_code == 200 and r.json() == {}, (seat, unit, r.text)
    _end_phases_until(client, gid, auth, "fire")
    r = client.get(f"/api/games/{gid}/preview", headers=auth["csa"],
                   params={"unit": "csa-heth"})
    assert r.json() == {}


def test_an_activation_that_commands_nobody_is_warned_of() -> None:
    from gettysburg.boc.explain import preview
    from gettysburg.core.protocol import new_game

    game = new_game("boc/day1", seed="warn")
    state = game.state  # type: ignore[attr-defined]
    for uid in ("csa-archer", "csa-davis", "csa-pegram"):  # Heth's brigades leave
        state.units[uid].hex, state.units[uid].status = None, "reserve"
    seen = preview(game, "csa", "csa-heth")
    assert seen is not None and seen["lit"] == [] and seen["out"] == {}
    assert seen["warn"] and "commands no block" in seen["warn"] and "(4.3)" in seen["warn"]
    assert seen["warn_for"] == [{"type": "activate", "hq": "csa-heth"}]
    assert seen["warn_for"][0] in game.legal_actions("csa")
