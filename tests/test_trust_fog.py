"""Issue 58: the fog keeps a block that leaves the map (2.4) anonymous when it comes back,
and a seed a player chose fixes the dice, never the handles (docs/security.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gettysburg.boc.fog import unit_handle
from gettysburg.boc.game import BocGame
from test_boc_engine_movement import _leave_and_wait_for_the_night, enters


def _hidden_handles(g: BocGame, seat: str) -> set[str]:
    return {str(h["handle"]) for h in g.view(seat)["hidden"]}


def _redacted_units(g: BocGame, start: int) -> list[Any]:
    return [e.redacted.get("unit") for e in g.log[start:] if e.redacted]


def test_a_block_back_from_off_the_map_has_a_new_handle(tmp_path: Path) -> None:
    """On the table a block that comes back on shows the same back as its fellows: under
    its old handle the enemy would know which block returned where."""
    g = _leave_and_wait_for_the_night(tmp_path, {"last_day": 3})
    harrow = g.state.units["usa-harrow"]
    # The handle it showed before it left (the leave_map event's redacted unit).
    left = next(e for e in g.log if e.type == "leave_map")
    assert left.redacted is not None
    before = str(left.redacted["unit"])
    back = enters(g, "usa-harrow")
    assert back, "the block may come back in this night turn"
    start = len(g.log)
    g.apply(back[0], "usa")
    after = unit_handle(g.key, harrow)
    assert after != before
    assert before not in _hidden_handles(g, "csa") and after in _hidden_handles(g, "csa")
    assert before not in _redacted_units(g, start) and after in _redacted_units(g, start)


# --- a seed typed in the lobby ------------------------------------------------------------

def _lobby_game(client: Any, seed: str | None) -> tuple[str, dict[str, str]]:
    body: dict[str, Any] = {"system": "boc", "scenario": "day1",
                            "seats": {"usa": {"kind": "human"}, "csa": {"kind": "human"}}}
    if seed is not None:
        body["seed"] = seed
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()["game_id"], {s: r.json()["seats"][s]["token"] for s in ("usa", "csa")}


def _state(client: Any, gid: str, token: str) -> Any:
    r = client.get(f"/api/games/{gid}", headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text
    return r.json()


def test_a_lobby_seed_fixes_the_dice_never_the_fog(tmp_path: Path) -> None:
    """The seed's author could compute every handle from it if the fog key followed from
    the seed; now it fixes the dice (two games with one seed play alike) and nothing else,
    and both seats are told the dice were chosen."""
    import warnings

    from gettysburg.boc.fog import fog_key, handle
    from gettysburg.boc.oob import default_oob
    from gettysburg.server.app import create_app
    from gettysburg.server.store import Store

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    store = Store(tmp_path / "games.db")
    with TestClient(create_app(store)) as client:
        one, tokens = _lobby_game(client, "typed-by-usa")
        two, tokens2 = _lobby_game(client, "typed-by-usa")
        state = _state(client, one, tokens["usa"])
        hidden = {str(h["handle"]) for h in state["view"]["hidden"]}
        assert hidden, "Day 1 starts with hidden CSA blocks"
        guesses = {handle(fog_key("typed-by-usa"), uid, n)
                   for uid in default_oob().units for n in range(3)}
        assert not hidden & guesses
        # The other game with the same seed: other handles, the same dice and states.
        state2 = _state(client, two, tokens2["usa"])
        assert not hidden & {str(h["handle"]) for h in state2["view"]["hidden"]}
        for gid, toks in ((one, tokens), (two, tokens2)):
            for _ in range(6):
                st = _state(client, gid, toks["usa"])
                mover = st["to_move"][0]
                legal = _state(client, gid, toks[mover])["legal"]
                r = client.post(f"/api/games/{gid}/actions",
                                headers={"Authorization": f"Bearer {toks[mover]}"},
                                json={"action": legal[-1], "action_id": f"x{_}"})
                assert r.status_code == 200, r.text
        host = client.app.state.host  # type: ignore[attr-defined]
        h1 = [m.state_hash for m in host.load(one).game.history]
        h2 = [m.state_hash for m in host.load(two).game.history]
        assert h1 == h2 and len(h1) == 6
        # Both seats see that the dice were chosen; a game the server seeded says not.
        for seat in ("usa", "csa"):
            assert _state(client, one, tokens[seat])["dice_chosen"] is True
        drawn, tokens3 = _lobby_game(client, None)
        assert _state(client, drawn, tokens3["csa"])["dice_chosen"] is False
        # The handles hold across a restart: the game rebuilt from the store shows the
        # same ones (the secret is the store's, not the process's).
        before = {str(h["handle"]) for h in _state(client, two, tokens2["usa"])["view"]["hidden"]}
    store.close()
    store = Store(tmp_path / "games.db")
    with TestClient(create_app(store)) as client:
        again = {str(h["handle"]) for h in _state(client, two, tokens2["usa"])["view"]["hidden"]}
        assert again == before
    store.close()


def test_the_server_shows_a_block_back_from_off_the_map_under_a_new_handle(
        tmp_path: Path) -> None:
    """The same through the hosted game's traffic: the other seat follows a hidden block to
    the map edge (its leave_map entry) and sees it come back at night (its enter entry,
    rule 2.4) under a handle it has never seen that block under."""
    import warnings

    from gettysburg.server.app import create_app
    from gettysburg.server.store import Store

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fastapi.testclient import TestClient

    store = Store(tmp_path / "games.db")
    try:
        with TestClient(create_app(store)) as client:
            r = client.post("/api/games", json={
                "system": "boc", "scenario": "battle", "seed": "follow",
                "seats": {"usa": {"kind": "human"}, "csa": {"kind": "human"}}})
            assert r.status_code == 201, r.text
            gid = r.json()["game_id"]
            tokens = {s: r.json()["seats"][s]["token"] for s in ("usa", "csa")}
            left: str | None = None
            back = False
            for i in range(400):
                mover = _state(client, gid, tokens["usa"])["to_move"][0]
                legal = _state(client, gid, tokens[mover])["legal"]
                leave = [a for a in legal if a["type"] == "leave_map"] if left is None else []
                enter = [a for a in legal if a["type"] == "enter" and a["unit"] == left]
                action = (leave or enter or [a for a in legal if a["type"] == "end_phase"]
                          or legal)[0]
                r = client.post(f"/api/games/{gid}/actions", json={"action": action,
                                                                  "action_id": f"f{i}"},
                                headers={"Authorization": f"Bearer {tokens[mover]}"})
                assert r.status_code == 200, r.text
                if leave:
                    left, owner = str(action["unit"]), mover
                if enter:
                    back = True
                    break
            assert left is not None and back, "a block left the map and came back"
            enemy = next(s for s in ("usa", "csa") if s != owner)
            r = client.get(f"/api/games/{gid}/events", params={"since": 0},
                           headers={"Authorization": f"Bearer {tokens[enemy]}"})
            assert r.status_code == 200, r.text
            entries = r.json()["events"]
            gone = [e for e in entries if e["type"] == "leave_map"]
            came = [e for e in entries if e["type"] == "enter" and e["rule"] == "2.4"]
            assert len(gone) == 1 and came, (gone, came)
            old, new = gone[0]["data"]["unit"], came[-1]["data"]["unit"]
            assert old.startswith("b-") and new.startswith("b-")  # hidden both times
            assert new != old
            hidden = {h["handle"] for h in _state(client, gid, tokens[enemy])["view"]["hidden"]}
            assert new in hidden and old not in hidden
    finally:
        store.close()
