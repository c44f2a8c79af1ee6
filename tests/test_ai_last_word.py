"""The turn before a verdict: when the scenario's verdicts come (9.1-9.5), and an HQ at its
last step commanding in that turn (``Style.final_turn_command``, 4.3)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from gettysburg.ai import make_agent
from gettysburg.boc.ai.doctrine import BocDoctrine, Style, turns_left, verdict_schedule
from gettysburg.core.protocol import new_game


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


def _position(victory: bool, surround: bool) -> tuple[dict[str, Any], dict[str, Any]]:
    """The CSA's turn before Day 1's verdict, as the hour's second player: Davis (4 steps) and
    Archer (2) in command next to a worn Union block (1 step) in G6, the Gettysburg victory
    hex, or in H6, which is none; with ``surround`` every other hex around the target holds
    a CSA block. Davis's shot at it, and his melee."""
    target = "G6" if victory else "H6"
    view = _last_hour(["usa", "csa"], "csa")
    doctrine = BocDoctrine(Style())
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


def _worn_hq(order: list[str], hour: int = 20) -> tuple[dict[str, Any], dict[str, Any]]:
    """Heth's HQ at its last step with Davis, beside Archer, both next to a Union block
    in G6; the CSA's command phase of ``hour``."""
    view, _fire = _position(victory=True, surround=False)
    davis = next(u["hex"] for u in view["units"] if u["id"] == "csa-davis")
    units = [dict(u, hex=davis, status="on_map", strength=1)
             if u["id"] == "csa-heth" else u for u in view["units"]]
    view = dict(view, units=units, phase="command", order=order, hour=hour)
    return view, {"type": "activate", "hq": "csa-heth"}


@pytest.mark.parametrize(("order", "hour", "final_turn"), [
    (["usa", "csa"], 20, True),     # nothing answers before the count
    (["csa", "usa"], 20, True),     # the Union plays after us, then the count
    (["usa", "csa"], 19, False),    # another hour follows: the HQ keeps its step
])
def test_an_hq_at_its_last_step_commands_its_troops_in_the_turn_before_a_verdict(
        order: list[str], hour: int, final_turn: bool) -> None:
    """4.3: activating costs the HQ a step after the melee phase. The general keeps an
    HQ at 1 step idle; in the turn a verdict follows (either player's),
    ``final_turn_command`` lets it activate, scored as any activation: 0.4 a block of its
    corps in the line (Davis, Archer) less 0.7."""
    view, activate = _worn_hq(order, hour)
    assert BocDoctrine(Style()).situation(view).front_troops_in_range("csa-heth") == 2
    assert BocDoctrine(Style()).scores(view, [activate]) == [-1.0]
    spend = 2 * Style().activate_per - Style().activate_cost
    on_final = BocDoctrine(Style(final_turn_command=True)).scores(view, [activate])[0]
    assert on_final == (pytest.approx(spend) if final_turn else -1.0)
    # An HQ at 0 never activates (4.3); nor does any HQ at night (9.71).
    spent = dict(view, units=[dict(u, strength=0) if u["id"] == "csa-heth" else u
                              for u in view["units"]])
    assert BocDoctrine(Style(final_turn_command=True)).scores(spent, [activate]) == [-1.0]

