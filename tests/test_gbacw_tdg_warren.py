"""Warren's extra activation in the engine (004 §14.5, E-16; battle_book_step.py): once in
the game, as a Union activation ends, one brigade is activated at once, without fatigue."""

from __future__ import annotations

import pytest

from gettysburg.core.protocol import Action, Event, RuleError
from gettysburg.gbacw import battle_book_step
from gettysburg.gbacw.game import GbacwGame

PREFERRED = ("end_orders", "first_am", "end_orders_change", "end_activation",
             "end_commanders")


def quick(g: GbacwGame) -> Action:
    legal = g.legal_actions(g.to_move()[0])
    return next((a for k in PREFERRED for a in legal if a["type"] == k), legal[0])


def to_warren(scenario: str = "little-round-top", seed: int = 2) -> tuple[GbacwGame, list[Action]]:
    g = GbacwGame(scenario, seed=seed)
    for _ in range(400):
        if g.is_terminal():
            break
        seat = g.to_move()[0]
        offered = [a for a in g.legal_actions(seat) if a["type"] == "warren"]
        if offered:
            return g, offered
        g.apply(quick(g), seat)
    raise AssertionError("Warren was never offered")


def test_warren_is_offered_as_a_union_activation_ends_tdg_14_5() -> None:
    g, offered = to_warren()
    assert g.to_move() == ["usa"] and g.pos.brigade is None and g.pos.phase == "action"
    assert all(g.pos.brigades[str(a["brigade"])].seat == "usa" for a in offered)
    assert any(a["type"] == "end_activation" for a in g.legal_actions("usa"))


def test_warren_activates_one_brigade_once_without_fatigue_tdg_14_5() -> None:
    g, offered = to_warren()
    brigade = str(offered[0]["brigade"])
    fatigue = g.pos.brigades[brigade].fatigue
    ev: list[Event] = g.apply(offered[0], "usa")
    assert next(e for e in ev if e.type == "warren").data["brigade"] == brigade
    assert g.pos.tdg["warren"]["brigade"] == brigade
    assert battle_book_step.warren_active(g) and g.pos.phase == "orders_change"
    assert g.eligible_brigades() == [brigade]
    # once in the game: never offered again, and a call is refused with the state untouched
    for _ in range(200):
        if g.is_terminal() or not g.to_move():
            break
        seat = g.to_move()[0]
        assert not any(a["type"] == "warren" for a in g.legal_actions(seat))
        legal = g.legal_actions(seat)
        act = next((a for a in legal if a["type"] == "activate" and a.get("brigade") == brigade),
                   None) if battle_book_step.warren_active(g) else None
        g.apply(act or quick(g), seat)
        if not battle_book_step.warren_active(g):
            break
    assert g.pos.brigades[brigade].fatigue == fatigue
    assert not battle_book_step.warren_active(g)
    before = g.pos.to_json()
    with pytest.raises(RuleError):
        g.apply({"type": "warren", "brigade": brigade}, "usa")
    assert g.pos.to_json() == before


def test_no_warren_before_2_july_or_without_the_rule_tdg_14_5() -> None:
    g = GbacwGame("herr-ridge", seed=2)  # 1 July, and no Warren rule
    assert not battle_book_step.warren_in_play(g)
    for _ in range(150):
        if g.is_terminal():
            break
        seat = g.to_move()[0]
        assert not any(a["type"] == "warren" for a in g.legal_actions(seat))
        g.apply(quick(g), seat)


def test_warren_refused_for_a_confederate_brigade_tdg_14_5() -> None:
    g, _ = to_warren()
    csa = next(n for n, b in g.pos.brigades.items() if b.seat == "csa")
    before = g.pos.to_json()
    with pytest.raises(RuleError) as err:
        g.apply({"type": "warren", "brigade": csa}, "usa")
    assert err.value.rule == "tdg.14.5"
    assert g.pos.to_json() == before
