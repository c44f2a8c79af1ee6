"""The Random Events table's effects in the engine (004 §18.0, optional rule
``random_events``; gbacw/battle_book_step.py): each of the 40 cells drawn through the engine
with scripted dice, and the letters the engine applies without a choice (A, F, I, M, R, S)
checked in the game (the choices: test_gbacw_random_event_choices.py)."""

from __future__ import annotations

from typing import Any

import pytest

from gettysburg.core.dice import Dice, ScriptedDice
from gettysburg.core.protocol import Action, Event
from gettysburg.gbacw import battle_book_step, event_choices, steps
from gettysburg.gbacw.charts import all_charts
from gettysburg.gbacw.game import GbacwGame
from gettysburg.gbacw.initiative import InitiativeSide, roll_initiative
from gettysburg.gbacw.kinds import unit_class
from gettysburg.gbacw.state import Position

PREFERRED = ("end_orders", "first_am", "end_orders_change", "end_activation",
             "end_commanders")
COLUMN_DIE = (0, 2, 5, 8)  # one first-die value per column of the table


def quick(g: GbacwGame) -> Action:
    legal = g.legal_actions(g.to_move()[0])
    return next((a for k in PREFERRED for a in legal if a["type"] == k), legal[0])


def activations(seed: int = 3, *, brigade_done: bool = False) -> tuple[GbacwGame, list[Event]]:
    """Herr Ridge with the option, played on until a marker is active with others still in
    the pool (and, if asked, after a brigade's activation has ended this turn)."""
    g = GbacwGame("herr-ridge", options=["random_events"], seed=seed)
    seen: list[Event] = []
    for _ in range(600):
        done = any(e.type == "brigade_done" for e in seen) if brigade_done else True
        if g.pos.current is not None and len(g.pos.pool) >= (1 if brigade_done else 3) \
                and done:
            return g, seen
        if g.is_terminal():
            break
        legal = g.legal_actions(g.to_move()[0])
        act = next((a for a in legal if a["type"] == "activate"), None) if brigade_done \
            else None
        seen += g.apply(act or quick(g), g.to_move()[0])
    raise AssertionError("no activation reached")


def draw(g: GbacwGame, who: int, first: int, second: int, *extra: int) -> list[Event]:
    g.dice = ScriptedDice([who, first, second, *extra] + [0] * 20, die="d10")
    g._memo.clear()
    return g._random_event()


def cells() -> list[tuple[int, int, str]]:
    chart = all_charts().random_events
    return [(col, row, chart.event(col, row).letter) for col in COLUMN_DIE for row in range(10)]


def test_the_table_has_40_cells_and_every_letter_is_handled() -> None:
    got = cells()
    assert len(got) == 40
    handled = set(battle_book_step.NEEDS) | set(event_choices.LETTERS) | {
        "A", "C", "F", "I", "J", "M", "P", "R", "S"}
    assert {letter for _, _, letter in got} <= handled


@pytest.mark.parametrize(("first", "second", "letter"), cells())
def test_each_cell_through_the_engine_tdg_18(first: int, second: int, letter: str) -> None:
    """004 §18.0: every cell of the table, drawn by the side it can apply to: the letter is
    logged, kept once-only where the chart says so, and either applied or announced with what
    it still needs from the players."""
    g, _ = activations()
    sides = next(e.sides for e in all_charts().random_events.events if e.letter == letter)
    who = 0 if "usa" in sides else 3
    ev = draw(g, who, first, second)
    main = next(e for e in ev if e.type == "random_event")
    assert main.data["letter"] == letter and main.rule == "tdg.18.0"
    assert letter in g.pos.events_happened
    if letter in battle_book_step.NEEDS:
        assert main.data["applied"] is False
        assert main.data["needs"] == battle_book_step.NEEDS[letter]
    elif letter in event_choices.LETTERS:  # a choice waits, or it applied, or cannot apply
        assert main.data["applied"] in ("pending", True, False)
        assert (g.pos.pending is not None) == (main.data["applied"] == "pending")
    else:
        effect = [e for e in ev if e.type == "random_event_effect"]
        assert effect and effect[0].data["letter"] == letter
        assert main.data["applied"] in (True, "partial", False)
    # the position still saves and loads unchanged
    assert Position.from_json(g.pos.to_json()).to_json() == g.pos.to_json()


def test_union_rolling_h_is_no_event_tdg_18() -> None:
    g, _ = activations()
    main = next(e for e in draw(g, 0, 0, 5) if e.type == "random_event")
    assert main.data["letter"] is None and "H" not in g.pos.events_happened


def test_a_finishes_the_last_activated_brigade_tdg_18() -> None:
    g, seen = activations(brigade_done=True)
    last = [e.data["brigade"] for e in seen if e.type == "brigade_done"][-1]
    ev = draw(g, 0, 2, 0)  # column 2-4, row 0: A
    main = next(e for e in ev if e.type == "random_event")
    assert main.data["letter"] == "A" and main.data["applied"] is True
    assert next(e for e in ev if e.type == "random_event_effect").data["brigade"] == last
    assert battle_book_step.finished(g, last)
    # the brigade is no longer eligible whatever marker comes up this turn
    seat = g.pos.brigades[last].seat
    division = g.pos.brigades[last].division
    g.pos.current = f"{seat}:{division}" if g.pos.brigades[last].orders != "march" else \
        f"{seat}:march"
    g.pos.done_brigades = []
    g._memo.clear()
    assert last not in g.eligible_brigades()
    g.pos.turn += 1  # Finished lasts the turn only
    g._memo.clear()
    assert not battle_book_step.finished(g, last)


def test_a_with_no_brigade_activated_yet_is_no_change_tdg_18() -> None:
    g, _ = activations()
    g.pos.tdg.pop("last", None)
    main = next(e for e in draw(g, 0, 2, 0) if e.type == "random_event")
    assert main.data["applied"] is False and "finished" not in g.pos.tdg


def test_f_sets_two_markers_aside_tdg_18() -> None:
    g, _ = activations()
    before = list(g.pos.pool)
    ev = draw(g, 3, 0, 3, 0, 0)  # column 0-1, row 3: F; then two index draws
    eff = next(e for e in ev if e.type == "random_event_effect")
    assert len(eff.data["removed"]) == 2
    assert len(g.pos.pool) == len(before) - 2
    left = list(before)
    for m in eff.data["removed"]:
        left.remove(m)
    assert sorted(left) == sorted(g.pos.pool)


def test_m_heavy_rain_halves_the_ma_for_its_turns_tdg_18() -> None:
    g, _ = activations()
    key = next(k for k, u in g.pos.units.items() if u.hex is not None)
    ma = g.mp_of(key)
    ev = draw(g, 3, 5, 6, 5)  # column 5-7, row 6: M; d10 5 -> 2 turns
    eff = next(e for e in ev if e.type == "random_event_effect")
    assert eff.data["turns"] == 2
    assert next(e for e in ev if e.type == "random_event").data["applied"] == "partial"
    g._memo.clear()
    assert g.mp_of(key) == ma // 2
    assert battle_book_step.rain_fire_drm(g) == -3 and battle_book_step.rain_rally_drm(g) == 2
    g.pos.turn += 2  # the rain is over
    g._memo.clear()
    assert g.mp_of(key) == ma and battle_book_step.rain_fire_drm(g) == 0


def test_m_rain_lasts_at_least_a_turn_tdg_18() -> None:
    g, _ = activations()
    ev = draw(g, 3, 5, 6, 1)
    assert next(e for e in ev if e.type == "random_event_effect").data["turns"] == 1


def test_s_lee_paralysed_the_next_two_turns_tdg_18() -> None:
    g, _ = activations()
    t = g.pos.turn
    draw(g, 3, 0, 9)  # column 0-1, row 9: S
    assert g.pos.tdg["lee"] == {"from": t + 1, "to": t + 2}
    assert not battle_book_step.lee_paralysed(g, "csa")
    g.pos.turn = t + 1
    assert battle_book_step.lee_paralysed(g, "csa") and not battle_book_step.lee_paralysed(
        g, "usa")
    assert g._transfers("csa") == []
    g.pos.turn = t + 3
    assert not battle_book_step.lee_paralysed(g, "csa")


def test_s_lee_counts_zero_in_the_initiative_roll_tdg_18(
        monkeypatch: pytest.MonkeyPatch) -> None:
    g, _ = activations()
    g.pos.turn += 1  # a turn whose initiative is rolled, not given by the scenario
    if g.pos.leaders.get("lee") is None:  # Lee on the map, where a Confederate leader is
        g.pos.leaders["lee"] = next(h for ld, h in g.pos.leaders.items()
                                    if h is not None and g.pos.leader_seat.get(ld) == "csa")
        g.pos.leader_seat["lee"] = "csa"
    seen: list[tuple[InitiativeSide, InitiativeSide]] = []

    def spy(dice: Dice, usa: InitiativeSide, csa: InitiativeSide, **kw: Any) -> Any:
        seen.append((usa, csa))
        return roll_initiative(dice, usa, csa, **kw)

    monkeypatch.setattr(steps, "roll_initiative", spy)
    g.dice = ScriptedDice([4, 4] + [0] * 10, die="d10")
    g._initiative()
    g.pos.tdg["lee"] = {"from": g.pos.turn, "to": g.pos.turn}
    g.dice = ScriptedDice([4, 4] + [0] * 10, die="d10")
    g._initiative()
    assert seen[0][1].oc_rating == g.cat.rating("lee", "initiative") != 0
    assert seen[1][1].oc_rating == 0
    assert seen[1][0] == seen[0][0]  # the Union side is untouched


def test_r_hill_recorded_tdg_18() -> None:
    g, _ = activations()
    ev = draw(g, 0, 8, 9, 3)  # column 8-9, row 9: R
    eff = next(e for e in ev if e.type == "random_event_effect")
    on_map = g.pos.leaders.get("hill-ap") is not None
    assert eff.data["on_map"] is on_map
    if on_map:
        assert eff.data["replaced_turns"] == 3
    else:
        assert eff.data["delay"] == 1  # odd d10
    assert g.pos.tdg["hill"]["on_map"] is on_map


def test_once_only_letter_is_no_event_the_second_time_tdg_18() -> None:
    g, _ = activations()
    draw(g, 3, 0, 1)  # column 0-1, row 1: C, once only
    main = next(e for e in draw(g, 3, 0, 1) if e.type == "random_event")
    assert main.data["letter"] is None


def test_random_events_game_replays_byte_for_byte() -> None:
    g = GbacwGame("herr-ridge", options=["random_events"], seed=11)
    actions = []
    for _ in range(250):
        if g.is_terminal():
            break
        a, seat = quick(g), g.to_move()[0]
        actions.append((a, seat))
        g.apply(a, seat)
    h = GbacwGame("herr-ridge", options=["random_events"], seed=11)
    for a, seat in actions:
        h.apply(a, seat)
    assert h.pos.to_json() == g.pos.to_json()


def test_i_the_rollers_next_battery_to_move_loses_a_gun_tdg_18() -> None:
    g, _ = activations()
    ev = draw(g, 3, 0, 6)  # column 0-1, row 6: I, rolled by the Confederates
    assert next(e for e in ev if e.type == "random_event").data["applied"] is True
    assert g.pos.tdg["lose_gun"] == ["csa"]
    kinds = {k: g.counter(k) for k in g.pos.units}
    arty = {k for k, c in kinds.items() if unit_class(c) == "artillery"}
    usa_gun = next(k for k in sorted(arty) if g.pos.units[k].seat == "usa")
    csa_foot = next(k for k in sorted(kinds) if g.pos.units[k].seat == "csa" and k not in arty)
    csa_gun = next(k for k in sorted(arty) if g.pos.units[k].seat == "csa" and kinds[k].sp >= 2)
    assert battle_book_step.after_action(g, {"type": "move", "unit": usa_gun}) == []
    assert battle_book_step.after_action(g, {"type": "move", "unit": csa_foot}) == []
    assert battle_book_step.after_action(g, {"type": "fire", "unit": csa_gun}) == []
    lost = g.pos.units[csa_gun].lost
    got = battle_book_step.after_action(g, {"type": "move", "unit": csa_gun})
    assert got[0].data["unit"] == csa_gun
    assert g.pos.units[csa_gun].lost == lost + 1 and "lose_gun" not in g.pos.tdg
    assert battle_book_step.after_action(g, {"type": "move", "unit": csa_gun}) == []  # once


def test_m_rain_tires_every_activation_tdg_18() -> None:
    """004 §18.0 M: while it rains every activation (that counts) adds a fatigue level,
    where dry weather lets a brigade's first two activations of the turn go free."""
    g, _ = activations()
    assert g.fatigue
    brigade = sorted(g.pos.brigades)[0]
    b = g.pos.brigades[brigade]
    b.did, b.tally = ["move"], {}
    before = b.fatigue
    g._tire(brigade)
    assert b.fatigue == before  # dry: a first activation is free
    draw(g, 3, 5, 6, 5)  # M: two turns of rain
    assert battle_book_step.rain_fatigue(g, 0) == 1
    b.did, b.tally = ["move"], {}
    g._tire(brigade)
    assert b.fatigue > before


def test_m_no_fatigue_recovery_in_the_rain_tdg_18() -> None:
    """004 §18.0 M: an idle brigade that would rest a level off keeps it while it rains."""
    g, _ = activations()
    brigade = sorted(g.pos.brigades)[0]
    b = g.pos.brigades[brigade]
    b.fatigue = 3
    dry = [Event("fatigue", "17.42", {"brigade": brigade, "before": 3, "after": 2})]
    b.fatigue = 2  # as the end segment left it
    assert battle_book_step.no_rain_recovery(g, brigade, 3, dry) == dry and b.fatigue == 2
    draw(g, 3, 5, 6, 5)  # M
    assert battle_book_step.no_rain_recovery(g, brigade, 3, dry) == [] and b.fatigue == 3
