"""The battle board sampled from the ground between two lines, and the project's own
command deck (docs/machango-battles.md)."""

from __future__ import annotations

from gettysburg.machango.battle_board import battle_board, picture
from gettysburg.machango.battle_data import cards, deck, rules
from gettysburg.machango.battle_hexes import COLS, ROWS


def test_the_board_is_13_by_9_with_known_terrain_and_deterministic() -> None:
    b = battle_board(("codori_farm",), "klingel_farm")
    assert len(b["hexes"]) == COLS * ROWS == 117
    assert {h["terrain"] for h in b["hexes"].values()} <= set(rules()["terrain"])
    cfg = rules()["board"]
    assert cfg["hex_m_min"] <= b["hex_m"] <= cfg["hex_m_max"]
    battle_board.cache_clear()
    assert battle_board(("codori_farm",), "klingel_farm") == b


def test_the_ground_shows_through() -> None:
    # From the town up to Cemetery Hill: houses at the attacker's end, the hill at the other.
    b = battle_board(("gettysburg",), "cemetery_hill")
    near = [b["hexes"][f"{c},{r}"]["terrain"] for r in range(3) for c in range(COLS)]
    far = [b["hexes"][f"{c},{r}"] for r in range(6, 9) for c in range(COLS)]
    assert "homestead" in near
    assert sum(h["height"] for h in far) / len(far) > \
        sum(b["hexes"][f"{c},0"]["height"] for c in range(COLS)) / COLS


def test_pooled_attackers_come_from_their_own_side_of_the_axis() -> None:
    b = battle_board(("gettysburg", "mcpherson_ridge"), "cemetery_hill")
    cols = b["columns"]
    assert set(cols) == {"gettysburg", "mcpherson_ridge"}
    assert cols["gettysburg"] != cols["mcpherson_ridge"]
    assert all(1 <= c <= COLS - 2 for c in cols.values())


def test_the_picture_draws_every_hex() -> None:
    b = battle_board(("codori_farm",), "klingel_farm")
    lines = picture(b, {"6,0": "U", "6,8": "C"}).splitlines()
    assert len(lines) == ROWS and lines[0].split()[6] == "C" and lines[-1].split()[6] == "U"
    assert all(len(line.split()) == COLS for line in lines)


def test_the_deck_is_the_projects_own() -> None:
    all_cards = cards()
    assert len(deck()) == 60
    assert len({c.name for c in all_cards.values()}) == len(all_cards)
    # Names seen in public for BattleCry's own deck are not used (machango-facts.md).
    for taken in ("probe", "assault", "attack", "recon", "counter-attack"):
        assert all(taken not in c.name.lower() for c in all_cards.values())
    for c in all_cards.values():
        assert set(c.sections) <= {"left", "centre", "right", "any"} and c.count > 0
        assert set(c.kinds) <= set(rules()["units"])
