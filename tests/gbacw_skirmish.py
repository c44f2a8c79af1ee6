"""Positions on the hand-made skirmish (tests/data/gbacw/skirmish.yaml) that several GBACW
test files start from."""

from __future__ import annotations

from pathlib import Path

from gettysburg.core.dice import ScriptedDice
from gettysburg.gbacw.facing import front_hexes
from gettysburg.gbacw.game import GbacwGame

SKIRMISH = str(Path(__file__).parent / "data" / "gbacw" / "skirmish.yaml")
GAMBLE, ARCHER = "US-1/1/Cav", "CS-Archer/Heth"
OPENING = [7, 3, 0, 5, 4]  # initiative and EM draws as in test_gbacw_game.py


def active_gamble(extra: list[int] | None = None,
                  scenario: str = SKIRMISH) -> tuple[GbacwGame, str, str]:
    """Gamble's brigade active; Archer's first regiment moved into a front hex of Gamble's
    first unit (a position built by hand). ``extra``: the next d10s after the opening;
    ``scenario``: another hand-made file with the same two brigades (e.g. coordination.yaml)."""
    g = GbacwGame(scenario, dice=ScriptedDice(OPENING + (extra or [6, 5]) + [0] * 60,
                                              die="d10"))
    g.apply({"type": "end_orders"}, "usa")
    g.apply({"type": "end_orders"}, "csa")
    g.apply({"type": "first_am", "marker": "usa/US-1/Cav"}, "usa")
    g.apply({"type": "end_orders_change"}, "usa")
    g.apply({"type": "activate", "brigade": GAMBLE}, "usa")
    k, enemy = g.brigade_units(GAMBLE)[0], g.brigade_units(ARCHER)[0]
    u = g.pos.units[k]
    here = g.hex_of(u.hex)
    assert here is not None and u.facing is not None
    g.pos.units[enemy].hex = g.cat.board.hexes[front_hexes(here, u.facing)[0]].id
    return g, k, enemy
