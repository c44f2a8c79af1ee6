"""Withdrawal fire (002 §10.44) and artillery approach fire (§10.45) in the engine
(gbacw/nonphasing_fire.py) on hand-made gun-line positions with scripted d10s."""

from __future__ import annotations

import pytest

from gbacw_gunline import AL13, ARCHER, IN3, MI5, NAP1, at, gunline, hid, key_of, place, script
from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import Action, RuleError
from gettysburg.gbacw.game import GbacwGame

GAMBLE = "US-1/1/Cav"
AWAY: Action = {"type": "move", "unit": IN3, "to": "B1504",
                "facing": {"kind": "vertex", "index": 1}}


def nb(h: Hex, d: int, n: int = 1) -> Hex:
    for _ in range(n):
        h = h.neighbour(d % 6)
    return h


def leaving(mover: str = IN3) -> GbacwGame:
    """Gamble's 3rd Indiana in the front of Archer's 13th Alabama, about to walk away."""
    g = gunline(GAMBLE)
    c = at(g, (0, 0))
    place(g, mover, c, 0)
    place(g, AL13, nb(c, 3), 0)  # its front hexes hold the Indianans' hex
    return g


def test_a_move_out_of_an_enemy_front_waits_for_withdrawal_fire_10_44() -> None:
    g = leaving()
    start = g.pos.units[IN3].hex
    assert AWAY in g.legal_actions("usa")
    ev = g.apply(AWAY, "usa")
    assert [e.type for e in ev] == ["withdrawal_declared"] and ev[0].rule == "10.44"
    assert g.pos.units[IN3].hex == start  # not moved yet
    assert g.to_move() == ["csa"]
    assert g.legal_actions("csa") == [{"type": "withdrawal_fire", "unit": AL13},
                                      {"type": "withdrawal_fire_reserve", "unit": AL13},
                                      {"type": "let_pass"}]  # the split: 002 §10.15
    with pytest.raises(RuleError):
        g.validate({"type": "end_brigade"}, "usa")


def test_let_pass_moves_on_in_full_10_44() -> None:
    g = leaving()
    g.apply(AWAY, "usa")
    ev = g.apply({"type": "let_pass"}, "csa")
    assert [e.type for e in ev][:2] == ["withdrawal_goes_on", "move"]
    assert g.pos.units[IN3].hex == "B1504" and g.pos.pending is None


def test_a_miss_lets_the_whole_move_go_on_10_44() -> None:
    """A d-1 result the unit passes: nothing limits the move."""
    g = leaving()
    g.apply(AWAY, "usa")
    script(g, [0, 0])
    ev = g.apply({"type": "withdrawal_fire", "unit": AL13}, "csa")
    shot = next(e for e in ev if e.type == "fire")
    assert shot.data["unit"] == AL13 and shot.data["target"] == hid(g, at(g, (0, 0)))
    assert g.pos.units[IN3].hex == "B1504"
    assert "withdrawal" in g.pos.units[AL13].fired


def test_a_loss_cuts_the_move_to_one_hex_10_44() -> None:
    g = leaving()
    g.apply(AWAY, "usa")
    first = g.pos.pending["first"]  # type: ignore[index]
    script(g, [9, 9, 9])
    ev = g.apply({"type": "withdrawal_fire", "unit": AL13}, "csa")
    assert any(e.type == "fire_loss" for e in ev)
    goes = next(e for e in ev if e.type == "withdrawal_goes_on")
    assert goes.data["limit"] == "one_hex"
    assert g.pos.units[IN3].hex == first["to"]
    assert g.cat.board.parse(first["to"]).distance(at(g, (0, 0))) == 1


def test_withdrawal_fire_once_an_activation_10_41() -> None:
    g = leaving()
    g.apply(AWAY, "usa")
    g.apply({"type": "let_pass"}, "csa")
    assert g.pos.pending is None
    g2 = leaving()
    g2.apply(AWAY, "usa")
    script(g2, [0, 0])
    g2.apply({"type": "withdrawal_fire", "unit": AL13}, "csa")
    assert g2.pos.units[AL13].fired == ["withdrawal"]


def test_a_spencer_fires_twice_at_a_withdrawing_enemy_14_35() -> None:
    g = gunline(ARCHER)
    c = at(g, (0, 0))
    k = key_of(g, MI5)
    place(g, AL13, c, 0)
    place(g, k, nb(c, 3), 0)
    moves = [a for a in g.legal_actions("csa") if a["type"] == "move" and a["unit"] == AL13
             and g.cat.board.parse(a["to"]).distance(c) >= 2]
    ev = g.apply(moves[0], "csa")
    assert [e.type for e in ev] == ["withdrawal_declared"]
    script(g, [0, 0, 0, 0])
    ev = g.apply({"type": "withdrawal_fire", "unit": k}, "usa")
    rounds = [e.data.get("second_round", False) for e in ev if e.type == "fire"]
    assert rounds == [False, True]


def approaching() -> GbacwGame:
    """Archer's 13th Alabama walks to three hexes in front of a lone Union battery."""
    g = gunline(ARCHER)
    c = at(g, (0, 0))
    place(g, NAP1, c, 0)
    place(g, AL13, nb(c, 0, 5), 3)
    return g


TO3: Action = {"type": "move", "unit": AL13, "to": "B2306",
               "facing": {"kind": "vertex", "index": 3}}


def test_approach_fire_after_the_reaction_answer_10_45() -> None:
    g = approaching()
    assert g.cat.board.parse("B2306").distance(at(g, (0, 0))) == 3
    ev = g.apply(TO3, "csa")
    assert "reaction_possible" in [e.type for e in ev]  # 9.63 comes first
    ev = g.apply({"type": "no_reaction"}, "usa")
    assert ev[-1].type == "approach_offered" and ev[-1].rule == "10.45"
    assert g.legal_actions("usa") == [{"type": "approach_fire", "unit": NAP1},
                                      {"type": "approach_fire_reserve", "unit": NAP1},
                                      {"type": "let_pass"}]  # the split: 002 §10.15
    script(g, [9, 9, 9])
    ev = g.apply({"type": "approach_fire", "unit": NAP1}, "usa")
    shot = next(e for e in ev if e.type == "fire")
    assert shot.data["ammunition"] == "canister" and shot.data["target"] == "B2306"
    assert g.pos.units[NAP1].fired == ["approach"]
    assert g.pos.pending is None and g.to_move() == ["csa"]


def test_let_pass_declines_approach_fire_10_45() -> None:
    g = approaching()
    g.apply(TO3, "csa")
    g.apply({"type": "no_reaction"}, "usa")
    ev = g.apply({"type": "let_pass"}, "usa")
    assert not [e for e in ev if e.type == "fire"]
    assert g.pos.units[NAP1].fired == [] and g.pos.pending is None


def test_same_dice_same_withdrawal_result() -> None:
    hashes = []
    for _ in range(2):
        g = leaving()
        g.apply(AWAY, "usa")
        script(g, [9, 4, 7])
        g.apply({"type": "withdrawal_fire", "unit": AL13}, "csa")
        hashes.append(g.state_hash())
    assert hashes[0] == hashes[1]
