"""What the engine's check of an action found is handed to its apply (issue 59): a shot
checked (5.2) is fired without checking it again, a melee answer (7.x) is taken against
the decision its check found. Here both ways are played from the same positions of
general and random play and must give the same events, dice and state. The melee state's
JSON (written back after every melee action) is made without ``asdict``: the same data,
key order and fresh containers."""

from __future__ import annotations

import json
import random
from dataclasses import asdict
from typing import Any

from gettysburg.ai import make_agent
from gettysburg.boc.combat import HitQueue
from gettysburg.boc.fire import FireLedger, check_fire, resolve_fire
from gettysburg.boc.game import BocGame
from gettysburg.boc.melee import (
    ENTRY,
    SUPPORTED,
    Attack,
    Battle,
    MeleeState,
    melee_act,
    melee_decision,
)
from gettysburg.core.protocol import Action, new_game


def _fire(game: BocGame, seat: str, action: Action, checked: bool) -> tuple[Any, ...]:
    st = game.state
    shot = check_fire(game.board, st, game.orders, seat, FireLedger.from_json(st.fire),
                      action) if checked else None
    led = FireLedger.from_json(st.fire)
    out = resolve_fire(game.board, st, game.orders, led, seat, action, game.dice, shot)
    st.fire = led.to_json()
    return ([e.to_json() for e in out.events], game.state_hash(), game.dice.counter)


def _melee(game: BocGame, seat: str, action: Action, checked: bool) -> tuple[Any, ...]:
    st = game.state
    decided = melee_decision(game.board, st, game.orders, MeleeState.from_json(st.melee),
                             st.active) if checked else None
    ms = MeleeState.from_json(st.melee)
    events = melee_act(game.board, st, game.orders, ms, seat, action, game.dice, decided)
    st.melee = ms.to_json()
    return ([e.to_json() for e in events], game.state_hash(), game.dice.counter)


def _same_melee_json(data: dict[str, Any]) -> None:
    """``MeleeState.to_json`` against the ``asdict`` way it was made before."""
    ms = MeleeState.from_json(data)
    want = {"attacks": [asdict(a) for a in ms.attacks], "resolved": list(ms.resolved),
            "battle": asdict(ms.battle) if ms.battle else None,
            "retreated": list(ms.retreated)}
    got = ms.to_json()
    assert json.dumps(got) == json.dumps(want)  # the same data, keys in the same order
    if ms.battle is not None:
        battle = got["battle"]
        for name, value in vars(ms.battle).items():
            if isinstance(value, list | dict):
                assert battle[name] is not value  # the caller's own
        if ms.battle.hits is not None:
            assert battle["hits"]["pool"] is not ms.battle.hits["pool"]


def _compare(scenario: str, agent: str, seed: int, decisions: int) -> tuple[int, int]:
    """Plays ``decisions``; at every shot and melee answer plays it both ways on copies.
    Returns how many of each were compared."""
    game = new_game(scenario, seed=seed)
    assert isinstance(game, BocGame)
    agents = {s: make_agent(agent, s) for s in game.seats()}
    rng, fires, melees = random.Random(seed), 0, 0
    for _ in range(decisions):
        if game.is_terminal():
            break
        seat = game.to_move()[0]
        view = game.view(seat)
        action = agents[seat].choose(view, view["legal_actions"], 0.0, rng)
        st = game.state
        if st.melee:
            _same_melee_json(st.melee)
        way = None
        if action["type"] == "fire":
            way, fires = _fire, fires + 1
        elif st.phase == "melee" and st.melee and not game.cavalry_active() \
                and action["type"] not in ("melee", "end_phase"):
            way, melees = _melee, melees + 1
        if way is not None:
            assert way(game.clone(), seat, action, True) == way(game.clone(), seat, action,
                                                               False)
        game.apply_unrecorded(action, seat)
    return fires, melees


def test_a_checked_shot_and_melee_answer_are_taken_as_before_in_general_play() -> None:
    fires, melees = _compare("boc/day1", "general", 11, 560)
    assert fires > 20 and melees > 10


def test_a_checked_shot_and_melee_answer_are_taken_as_before_in_random_play() -> None:
    fires, melees = _compare("boc/day2", "random", 5, 700)
    assert fires > 5 and melees > 2


def test_a_melee_with_hits_waiting_is_written_as_asdict_wrote_it() -> None:
    battle = Battle(hex="F4", attacker="csa", kind=SUPPORTED, attackers={"csa-a": "F5",
                    "csa-b": None}, defenders=["usa-c"], penalty={"csa-a": 1},
                    acted=["csa-a"], retreat_sides=["F4>F5"], winner=None,
                    hits=HitQueue(side="usa", hits=2, pool=["usa-c", "usa-d"], hex="F4",
                                  rule="7.2", half="usa-c").to_json())
    ms = MeleeState([Attack("csa-a", "F4", "F5", SUPPORTED), Attack("csa-b", "F4", None,
                                                                    ENTRY, "Hanover Road")],
                    ["G3"], battle, ["csa-e"])
    _same_melee_json(ms.to_json())
    assert MeleeState.from_json(ms.to_json()).to_json() == ms.to_json()
