"""Artillery near the enemy (002 §9.55) as the two exclusive game options
(gbacw/artillery_near.py): Option 1 (artillery_caution) keeps a battery out of three hexes
of an enemy that sees the hex; Option 2 (artillery_close) keeps it out of three hexes of
enemy mounted cavalry and rolls a UDD after a move into the enemy's sight. Herr Ridge with
Crenshaw's battery and one Union regiment placed by hand; d10s scripted."""

from __future__ import annotations

import pytest

from gettysburg.core.dice import ScriptedDice
from gettysburg.core.hexes import Hex
from gettysburg.gbacw import artillery_near
from gettysburg.gbacw.game import GbacwGame
from gettysburg.gbacw.los import line_of_sight

KEY, FOE = "CS-III:Crenshaw/A", "US-Cav:8 IL"  # a battery; a mounted regiment


def placed(options: list[str], spot: str) -> GbacwGame:
    g = GbacwGame("herr-ridge", options=options, seed=1)
    for k, v in g.pos.units.items():
        if v.seat == "usa" and k != FOE:
            v.hex = None
    g.pos.units[FOE].hex = spot
    g._memo.clear()
    return g


def near(g: GbacwGame, spot: str) -> list[Hex]:
    s = g.cat.board.parse(spot)
    return [h for h, _ in g.reach(KEY) if h.distance(s) <= 3]


def test_without_the_options_the_battery_may_close_in() -> None:
    assert near(placed([], "A1028"), "A1028")


def test_option_1_keeps_the_battery_out_of_three_hexes_in_sight_9_55() -> None:
    g = placed([artillery_near.CAUTION], "A1028")
    assert near(g, "A1028") == []
    g = placed([artillery_near.CAUTION], "A1027")  # some hexes there are out of its sight
    foe = g.cat.board.parse("A1027")
    left = near(g, "A1027")
    assert left and len(left) < len(near(placed([], "A1027"), "A1027"))
    for h in left:
        assert not line_of_sight(g.cat.board, foe, h).clear


def test_option_1_a_battery_starting_close_may_only_draw_back_9_55() -> None:
    g = placed([artillery_near.CAUTION], "A1028")
    here = g.hex_of(g.pos.units[KEY].hex)
    assert here is not None
    g.pos.units[FOE].hex = g.cat.board.hexes[next(
        h for h in sorted(g.cat.board.hexes) if h.distance(here) == 3)].id
    g._memo.clear()
    foe = g.hex_of(g.pos.units[FOE].hex)
    assert foe is not None
    assert all(h.distance(foe) >= 3 for h, _ in g.reach(KEY))


def test_option_2_keeps_a_lone_battery_from_mounted_cavalry_9_55() -> None:
    assert near(placed([], "A1829"), "A1829")
    assert near(placed([artillery_near.CLOSE], "A1829"), "A1829") == []


def test_option_2_the_udd_after_closing_in_9_55() -> None:
    g = placed([artillery_near.CLOSE], "A1028")
    foe = g.cat.board.parse("A1028")
    spot = next(h for h in sorted(g.cat.board.hexes) if h.distance(foe) == 2
                and line_of_sight(g.cat.board, foe, h).clear)
    g.pos.units[KEY].hex = g.cat.board.hexes[spot].id
    c = g.counter(KEY)
    g.dice = ScriptedDice([9], die="d10")
    ev = artillery_near.close_check(g, KEY, None)
    data = ev[-1].data
    assert data["check"]["drm"] == 1 + 2  # one enemy in sight within 3, and within 2
    margin = 9 + 3 - c.cohesion
    assert data["guns_lost"] == (margin // 2 if margin > 2 else 0)
    assert g.pos.units[KEY].disordered and g.pos.units[KEY].lost == data["guns_lost"]
    g = placed([artillery_near.CLOSE], "A1028")
    g.pos.units[KEY].hex = g.cat.board.hexes[spot].id
    g.dice = ScriptedDice([0], die="d10")
    assert artillery_near.close_check(g, KEY, None)[-1].data["check"]["passed"] is True
    assert not g.pos.units[KEY].disordered


def test_the_options_exclude_each_other() -> None:
    with pytest.raises(ValueError, match=r"9\.55"):
        GbacwGame("herr-ridge", options=[artillery_near.CAUTION, artillery_near.CLOSE])
