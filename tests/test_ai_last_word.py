"""The last word (``Style.last_word``): the hour's second player, in the turn a verdict
follows, keeps its fire for a melee that takes a victory hex or destroys cornered blocks,
and declares its melees before it moves (1.1, 5.1, 7.1, 7.7, 9.1)."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from gettysburg.ai import make_agent
from gettysburg.boc.ai.doctrine import BocDoctrine, Style, turns_left, verdict_schedule
from gettysburg.core.protocol import new_game

LAST = Style(last_word=True)


@pytest.mark.parametrize(("scenario", "day", "hour", "night", "left"), [
    ("day1", 1, 20, False, 0),       # 9.2: Day 1 alone ends after its 8 PM turn
    ("day1", 1, 19, False, 1),
    ("battle", 1, 20, False, 0),     # 9.5: the battle is judged after each day
    ("battle", 2, 8, False, 12),
    ("battle", 1, 21, True, None),   # ... not after its nights
    ("day2", 2, 20, False, 1),       # 9.3: Days 2 and 3 end after the night turn
    ("day2", 2, 21, True, 0),
    ("day3", 3, 21, True, 0),
])
def test_turns_count_down_to_the_verdicts_the_scenario_is_judged_at(
        scenario: str, day: int, hour: int, night: bool, left: int | None) -> None:
    view = {"scenario": f"boc/{scenario}", "day": day, "hour": hour, "night": night}
    assert turns_left(view) == left


def test_an_unknown_scenario_is_judged_once_at_8_pm() -> None:
    assert verdict_schedule("no-such-scenario") == (False, False, 1)
    assert turns_left({"scenario": "no-such-scenario", "day": 1, "hour": 20}) == 0


def test_the_schedule_agrees_with_the_engine() -> None:
    """In a Day 1 game between random agents the game ends right after the one hour
    ``turns_left`` counts down to 0."""
    game = new_game("boc/day1", seed=3)
    agent, rng = make_agent("random"), random.Random(3)
    hours = set()
    while not game.is_terminal():
        seat = game.to_move()[0]
        view = game.view(seat)
        hours.add((view["day"], view["hour"]))
        assert turns_left(view) is not None
        game.apply(agent.choose(view, view["legal_actions"], 0.0, rng), seat)
    assert [h for h in sorted(hours) if turns_left({"scenario": "boc/day1", "day": h[0],
                                                    "hour": h[1]}) == 0] == [(1, 20)]
    assert max(hours) == (1, 20)


def _last_hour(order: list[str], active: str, hour: int = 20) -> dict[str, Any]:
    view = new_game("boc/day1", seed=5).view("csa")
    return dict(view, hour=hour, order=order, active=active, phase="fire")


@pytest.mark.parametrize(("order", "active", "hour", "last"), [
    (["usa", "csa"], "csa", 20, True),    # we play second, in our turn, before the count
    (["usa", "csa"], "usa", 20, False),   # the enemy's turn (we answer in a melee)
    (["csa", "usa"], "csa", 20, False),   # the enemy plays after us
    (["usa", "csa"], "csa", 19, False),   # another hour follows
])
def test_the_last_word_is_the_second_players_own_turn_before_a_verdict(
        order: list[str], active: str, hour: int, last: bool) -> None:
    assert BocDoctrine(LAST).situation(_last_hour(order, active, hour)).last_word is last


def _position(victory: bool, surround: bool) -> tuple[dict[str, Any], dict[str, Any]]:
    """The CSA's last word on Day 1: Davis (4 steps) and Archer (2) in command next to a
    worn Union block (1 step) in G6, the Gettysburg victory hex, or in H6, which is none;
    with ``surround`` every other hex around the target holds a CSA block. Davis's shot
    at it, and his melee."""
    target = "G6" if victory else "H6"
    view = _last_hour(["usa", "csa"], "csa")
    doctrine = BocDoctrine(LAST)
    around = list(doctrine.situation(view).facts.nbrs[target])
    units, spare = [], iter(["csa-heth", "csa-pegram"])
    for u in view["units"]:
        u = dict(u)
        if u["id"] in ("csa-davis", "csa-archer"):
            u.update(hex=around[0 if u["id"] == "csa-davis" else 1], status="on_map",
                     in_command=True, fired=False, moved=False, mp_used=0)
        units.append(u)
    if surround:  # the other four hexes: an HQ and a battery cannot attack, but they hold
        for hx in around[2:]:
            units.append({"id": next(spare, "csa-x") + hx, "side": "csa", "hex": hx,
                          "status": "on_map", "strength": 3, "type": "infantry"})
    units.append({"id": "usa-smith", "side": "usa", "hex": target, "status": "on_map",
                  "strength": 1, "revealed": True})
    view = dict(view, units=units, hidden=[])
    return view, {"type": "fire", "unit": "csa-davis", "target": target, "through": target}


def test_the_last_word_keeps_fire_for_a_melee_that_takes_a_victory_hex() -> None:
    view, fire = _position(victory=True, surround=False)
    plain, last = BocDoctrine(Style()), BocDoctrine(LAST)
    assert plain.scores(view, [fire])[0] > 0          # the general shoots
    sit = last.situation(view)
    assert last.melee_potential(sit, "G6") >= LAST.last_word_hold
    assert last.scores(view, [fire]) == [-1.0]         # the last word keeps it to attack
    # Not the last word (the enemy plays after us): it shoots.
    first = dict(view, order=["csa", "usa"])
    assert last.scores(first, [fire])[0] > 0
    # A melee not worth the hold: it shoots.
    assert BocDoctrine(replace(LAST, last_word_hold=99.0)).scores(view, [fire])[0] > 0


def test_cornered_blocks_keep_the_fire_of_the_blocks_that_would_attack_them() -> None:
    """Off a victory hex the last word shoots, unless the enemy there has no hex to
    retreat to (``last_word_cornered``)."""
    view, fire = _position(victory=False, surround=False)
    cornered = BocDoctrine(replace(LAST, last_word_cornered=True))
    assert BocDoctrine(LAST).scores(view, [fire])[0] > 0
    assert cornered.scores(view, [fire])[0] > 0        # it may retreat: shoot it
    walled, fire = _position(victory=False, surround=True)
    assert cornered._cornered(cornered.situation(walled), "H6")
    assert cornered.scores(walled, [fire]) == [-1.0]
    assert BocDoctrine(LAST).scores(walled, [fire])[0] > 0


def test_the_last_word_declares_its_melees_before_it_moves() -> None:
    view, _fire = _position(victory=True, surround=False)
    view = dict(view, phase="movement")
    melee = {"type": "melee", "unit": "csa-davis", "target": "G6"}
    plain = BocDoctrine(Style()).scores(view, [melee])[0]
    last = BocDoctrine(LAST).scores(view, [melee])[0]
    assert plain > 0 and last == pytest.approx(plain + LAST.last_word_melee)
    # The block that would attack with him, had he fired, is no attacker any more.
    fired = dict(view, units=[dict(u, fired=True) if u["id"] == "csa-davis" else u
                              for u in view["units"]])
    sit = BocDoctrine(LAST).situation(fired)
    assert BocDoctrine(LAST)._attackers_of(sit, "G6") == ["csa-archer"]


def test_a_melee_that_loses_in_expectation_is_not_hurried() -> None:
    """Behind late in the day the general gambles on melees worth a little less than
    nothing (``melee_min_behind``); the last word adds nothing to those."""
    view, _fire = _position(victory=True, surround=False)
    strong = [dict(u, strength=4) if u["id"] == "usa-smith" else u for u in view["units"]]
    view = dict(view, phase="movement", units=strong)
    melee = {"type": "melee", "unit": "csa-archer", "target": "G6", "unsupported": True}
    gamble = Style(melee_min_behind=-9.0)  # any melee is accepted: its worth shows
    plain = BocDoctrine(gamble).scores(view, [melee])[0]
    last = BocDoctrine(replace(gamble, last_word=True)).scores(view, [melee])[0]
    # Its score is 0.3 + worth + 0.02 a step (2) - 0.3 (unsupported): its worth is below 0.
    assert plain < 0.04
    assert last == plain


def _worn_hq(order: list[str], hour: int = 20) -> tuple[dict[str, Any], dict[str, Any]]:
    """Heth's HQ at its last step with Davis, beside Archer, both next to a Union block
    in G6; the CSA's command phase of ``hour``."""
    view, _fire = _position(victory=True, surround=False)
    davis = next(u["hex"] for u in view["units"] if u["id"] == "csa-davis")
    units = [dict(u, hex=davis, status="on_map", strength=1)
             if u["id"] == "csa-heth" else u for u in view["units"]]
    view = dict(view, units=units, phase="command", order=order, hour=hour)
    return view, {"type": "activate", "hq": "csa-heth"}


@pytest.mark.parametrize(("order", "hour", "last_word", "final_turn"), [
    (["usa", "csa"], 20, True, True),     # the last word: nothing answers before the count
    (["csa", "usa"], 20, False, True),    # the Union plays after us, then the count
    (["usa", "csa"], 19, False, False),   # another hour follows: the HQ keeps its step
])
def test_an_hq_at_its_last_step_commands_its_troops_in_the_turn_before_a_verdict(
        order: list[str], hour: int, last_word: bool, final_turn: bool) -> None:
    """4.3: activating costs the HQ a step after the melee phase. The general keeps an
    HQ at 1 step idle; in the turn a verdict follows, ``last_word_command`` (the last
    word only) and ``final_turn_command`` (either player's turn) let it activate, scored
    as any activation: 0.4 a block of its corps in the line (Davis, Archer) less 0.7."""
    view, activate = _worn_hq(order, hour)
    assert BocDoctrine(Style()).situation(view).front_troops_in_range("csa-heth") == 2
    assert BocDoctrine(Style()).scores(view, [activate]) == [-1.0]
    spend = 2 * Style().activate_per - Style().activate_cost
    on_word = BocDoctrine(Style(last_word_command=True)).scores(view, [activate])[0]
    on_final = BocDoctrine(Style(final_turn_command=True)).scores(view, [activate])[0]
    assert on_word == (pytest.approx(spend) if last_word else -1.0)
    assert on_final == (pytest.approx(spend) if final_turn else -1.0)
    # An HQ at 0 never activates (4.3); nor does any HQ at night (9.71).
    spent = dict(view, units=[dict(u, strength=0) if u["id"] == "csa-heth" else u
                              for u in view["units"]])
    assert BocDoctrine(Style(final_turn_command=True)).scores(spent, [activate]) == [-1.0]


def test_the_last_word_counts_the_control_a_move_leaves_at_its_own_weight() -> None:
    """``last_word_control``: in the last word a move's victory points in projected
    control (6.61) weigh ``last_word_control`` instead of ``control_weight``, and for the
    USA a hex made neutral is worth as much as one held (9.11: the CSA scores neither).
    A Union block steps next to G6 (2 points), empty and held by a lone CSA block."""
    view = new_game("boc/day1", seed=5).view("usa")
    facts = BocDoctrine(Style()).situation(view).facts
    around = list(facts.nbrs["G6"])
    dest = around[3]
    here = next(n for n in facts.nbrs[dest] if n != "G6" and n not in around)
    units = [u for u in view["units"] if u.get("status") != "on_map"]
    units += [{"id": "csa-davis", "side": "csa", "hex": around[0], "status": "on_map",
               "strength": 4, "revealed": True},
              {"id": "usa-iron", "side": "usa", "hex": here, "status": "on_map",
               "strength": 4, "type": "infantry", "revealed": True}]
    view = dict(view, units=units, hidden=[], hour=20, order=["csa", "usa"], active="usa",
                phase="movement")
    move = {"type": "move", "unit": "usa-iron", "path": [here, dest]}
    plain = BocDoctrine(Style()).scores(view, [move])[0]
    counted = BocDoctrine(Style(last_word_control=5.0)).scores(view, [move])[0]
    # 2 points made neutral: 0.5 x 2 x 0.7 before, 5 x 2 x 1.0 in the last word.
    assert counted - plain == pytest.approx(5.0 * 2 - 0.5 * 2 * 0.7)
    # Not the last word (the CSA plays after us): as before.
    first = dict(view, order=["usa", "csa"])
    assert BocDoctrine(Style(last_word_control=5.0)).scores(first, [move])[0] == plain
