"""``GET /api/games/{id}/card``: the scenario card as a seat may read it (issue 57):
arrivals by hour with entry roads (the seat's own named, the enemy's counted), victory
bands, start and end, the options in force."""

from __future__ import annotations

import warnings
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's notice about its httpx-based client
    from fastapi.testclient import TestClient


SEATS = ("usa", "csa")


def _cards(client: TestClient, scenario: str, options: list[str]) -> dict[str, Any]:
    r = client.post("/api/games", json={"system": "boc", "scenario": scenario,
                                        "options": options,
                                        "seats": {s: {"kind": "human"} for s in SEATS}})
    assert r.status_code == 201, r.text
    out = {}
    for seat, link in r.json()["seats"].items():
        got = client.get(f"/api/games/{r.json()['game_id']}/card",
                         headers={"Authorization": f"Bearer {link['token']}"})
        assert got.status_code == 200, got.text
        out[seat] = got.json()
    return out


def test_the_card_names_own_arrivals_and_counts_the_enemys(client: TestClient) -> None:
    from gettysburg.boc.oob import default_oob
    from gettysburg.boc.show import scenario_doc

    oob = default_oob()
    sheet = scenario_doc("day1")
    cards = _cards(client, "day1", [])
    for seat, card in cards.items():
        assert card["title"] == "The First Day" and card["rule"].startswith("9.2")
        assert card["start"] == {"day": 1, "hour": 8, "night": False}
        assert card["end"] == {"day": 1, "hour": 20, "night": False}
        bands = card["victory"]["bands"]
        assert bands[0] == {"winner": "csa", "min": sheet["victory"]["csa_win_min"]}
        assert bands[-1] == {"winner": "usa", "max": sheet["victory"]["usa_win_max"]}
        assert card["options"] == []
        assert len(card["arrivals"]) == len(sheet["arrivals"]) > 5
        hours = [(a["at"]["day"], a["at"]["hour"]) for a in card["arrivals"]]
        assert hours == sorted(hours)
        assert all(a["entry"] for a in card["arrivals"])
        own_names = {u.name for u in oob.units.values() if u.side == seat}
        for a in card["arrivals"]:
            if a["side"] == seat:
                assert a["pieces"] and len(a["pieces"]) == a["count"], a
                assert set(a["pieces"]) <= own_names, a
            else:
                assert a["pieces"] is None and a["count"] > 0, a
        # Nothing else in the card is a name: its words are times, seats, roads, rules.
        assert set(card) == {"title", "rule", "start", "end", "first", "victory", "options",
                             "arrivals"}
        assert all(set(a) == {"at", "side", "entry", "hex", "count", "pieces"}
                   for a in card["arrivals"])


def test_the_options_in_force_choose_the_arrivals(client: TestClient) -> None:
    plain = _cards(client, "battle", [])["csa"]
    longstreet = _cards(client, "battle", ["longstreet", "hidden_hits"])["csa"]
    assert [o["name"] for o in longstreet["options"]] == ["hidden_hits", "longstreet"]
    assert all(o["rule"] for o in longstreet["options"])
    assert plain["end"] == {"day": 3, "hour": 20, "night": False}
    assert plain["arrivals"] != longstreet["arrivals"]


def test_a_system_without_a_card_answers_404(client: TestClient) -> None:
    r = client.post("/api/games", json={"system": "toy", "scenario": "standard",
                                        "seats": {"red": {"kind": "human"},
                                                  "blue": {"kind": "human"}}})
    assert r.status_code == 201, r.text
    token = r.json()["seats"]["red"]["token"]
    got = client.get(f"/api/games/{r.json()['game_id']}/card",
                     headers={"Authorization": f"Bearer {token}"})
    assert got.status_code == 404 and got.json()["error"]["rule"] == "card"
