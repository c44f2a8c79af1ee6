"""002 §9.55 Option 2's retreat after a failed check (gbacw/artillery_near.py): Herr Ridge with
Crenshaw's battery and one Union regiment placed by hand; d10s scripted."""

from __future__ import annotations

from gettysburg.core.dice import ScriptedDice
from gettysburg.gbacw import artillery_near
from gettysburg.gbacw.game import GbacwGame
from gettysburg.gbacw.los import line_of_sight

KEY, FOE = "CS-III:Crenshaw/A", "US-Cav:8 IL"


def close_to_foe(roll: int) -> tuple[GbacwGame, list[object]]:
    g = GbacwGame("herr-ridge", options=[artillery_near.CLOSE], seed=1)
    for k, v in g.pos.units.items():
        if v.seat == "usa" and k != FOE:
            v.hex = None
    g.pos.units[FOE].hex = "A1028"
    foe = g.cat.board.parse("A1028")
    spot = next(h for h in sorted(g.cat.board.hexes) if h.distance(foe) == 2
                and line_of_sight(g.cat.board, foe, h).clear
                and not any(v.hex == g.cat.board.hexes[h].id for v in g.pos.units.values()))
    g.pos.units[KEY].hex = g.cat.board.hexes[spot].id
    g._memo.clear()
    g.dice = ScriptedDice([roll], die="d10")
    return g, list(artillery_near.close_check(g, KEY, None))


def test_a_failed_check_sends_the_battery_out_of_sight_or_range_9_55() -> None:
    """A 5 +3 (one enemy within two hexes) fails cohesion 7 by one: disordered, no gun lost,
    and back out of the enemy's three hexes or sight."""
    g, ev = close_to_foe(5)
    data = ev[-1].data  # type: ignore[attr-defined]
    assert data["disordered"] is True
    path = data["retreat"]
    assert path, data
    u = g.pos.units[KEY]
    assert u.hex == path[-1]
    board = g.cat.board
    end, foe = board.parse(path[-1]), board.parse("A1028")
    assert end.distance(foe) > 3 or not line_of_sight(board, foe, end).clear
    # each hex entered is next to the one before, none of them the enemy's
    hexes = [g.hex_of(x) for x in path]
    assert all(h is not None for h in hexes)
    assert foe not in hexes


def test_a_passed_check_stays_put_9_55() -> None:
    _g, ev = close_to_foe(0)
    data = ev[-1].data  # type: ignore[attr-defined]
    assert data["check"]["passed"] is True and "retreat" not in data


def test_the_retreat_is_deterministic_9_55() -> None:
    a, ea = close_to_foe(5)
    b, eb = close_to_foe(5)
    assert ea[-1].data == eb[-1].data  # type: ignore[attr-defined]
    assert a.pos.units[KEY].hex == b.pos.units[KEY].hex


def test_9_55_example_cohesion_7_rolls_10_loses_one_gun() -> None:
    """002 §9.55's example: a battery of cohesion 7 whose check comes to 10 fails by three
    and loses half of that in guns, rounded down: one. Here a 7 with the +3 of one enemy
    within two hexes makes the 10."""
    g, ev = close_to_foe(7)
    data = ev[-1].data  # type: ignore[attr-defined]
    assert g.counter(KEY).cohesion == 7
    assert data["check"]["modified"] == 10 and data["check"]["passed"] is False
    assert data["guns_lost"] == 1 and g.pos.units[KEY].lost == 1
    assert g.pos.units[KEY].disordered and data["retreat"]
