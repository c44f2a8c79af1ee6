"""Stacking counts a unit's present SP, not its printed SP (002 §8.12 with §12.13): the bug
seen in play (issue 52), where a 3 IN that had lost 3 SP could not join 12 IL and 8 NY #1
(5 + 6 + 3 = 14 SP, under the 15 of Advance orders). Position: tests/data/gbacw/formations.yaml,
Gamble's dismounted brigade on Advance."""

from __future__ import annotations

from gettysburg.gbacw.game import GbacwGame
from test_gbacw_formation_engine import active

IL12, IN3, NY8_1, NY8_2 = "US-Cav:12 IL", "US-Cav:3 IN", "US-Cav:8 NY Cav#1", "US-Cav:8 NY Cav#2"


def gamble(lost: int) -> GbacwGame:
    g = active("US-1/1/Cav", "usa/US-1/Cav", "usa")
    p = g.pos
    p.units[IL12].hex = "A3603"  # 12 IL (5 SP) joins 8 NY #1 (6 SP)
    p.units[NY8_2].hex = "A3709"  # out of the way
    p.units[IN3].lost = lost  # 3 IN prints 6 SP, next door in A3503
    return g


def targets(g: GbacwGame, unit: str) -> set[str]:
    return {str(a["to"]) for a in g.legal_actions("usa")
            if a["type"] == "move" and a.get("unit") == unit}


def test_present_sp_counts_for_the_advance_limit_8_12() -> None:
    assert "A3603" not in targets(gamble(0), IN3)  # 5 + 6 + 6 = 17 > 15
    g = gamble(3)
    assert "A3603" in targets(g, IN3)  # 5 + 6 + 3 = 14 <= 15
    move = next(a for a in g.legal_actions("usa") if a["type"] == "move"
                and a.get("unit") == IN3 and a["to"] == "A3603")
    g.apply(move, "usa")
    assert g.pos.units[IN3].hex == "A3603"


def test_stack_entry_is_the_present_strength_12_13() -> None:
    g = gamble(3)
    assert g.counter(IN3).sp == 6
    assert g.stack_entry(IN3).sp == 3
    g.pos.units[IN3].lost = 9  # never below zero
    assert g.stack_entry(IN3).sp == 0
