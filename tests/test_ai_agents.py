"""Agents: legal, deterministic, fog-honest; the general beats random on the toy game."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from gettysburg.ai import agent_names, make_agent
from gettysburg.ai.agent import UnknownAgentError, seeded_rng
from gettysburg.ai.doctrine import DONE_TYPES, doctrine_for
from gettysburg.ai.general import best_index
from gettysburg.core.protocol import Game, new_game
from gettysburg.lab.simulate import make_specs, run_local, summarise


def _strip_handles(view: dict[str, Any]) -> str:
    out = dict(view)
    out["hidden"] = sorted((h["side"], h["hex"], h["column"]) for h in view["hidden"])
    return json.dumps(out, sort_keys=True)


def test_registry_names_and_unknown() -> None:
    assert {"random", "general", "search"} <= set(agent_names())
    with pytest.raises(UnknownAgentError):
        make_agent("nobody", 1)


@pytest.mark.parametrize("name", ["random", "general"])
def test_agents_play_legal_toy_games_deterministically(name: str) -> None:
    def play(seed: int) -> list[str]:
        game = new_game("toy/standard", seed=seed)
        agent, rng, moves = make_agent(name, seed), seeded_rng(seed), []
        while not game.is_terminal():
            seat = game.to_move()[0]
            legal = game.legal_actions(seat)
            action = agent.choose(game.view(seat), legal, 0.1, rng)
            assert action in legal
            game.apply(action, seat)
            moves.append(json.dumps(action, sort_keys=True))
        return moves

    assert play(3) == play(3)


def test_general_beats_random_on_toy_from_both_seats() -> None:
    for agents in ({"red": "general", "blue": "random"}, {"red": "random", "blue": "general"}):
        rows = run_local(make_specs("toy/standard", 60, agents, seed=5))
        general = next(s for s, n in agents.items() if n == "general")
        wins = summarise(rows, ("red", "blue"))["wins"]
        assert wins.get(general, 0) > 2 * wins.get("blue" if general == "red" else "red", 0)


def test_best_index_prefers_done_when_nothing_is_worth_it() -> None:
    legal = [{"type": "move", "unit": "u"}, {"type": "end_phase"}]
    assert best_index([-0.5, 0.0], legal) == 1
    assert best_index([0.2, 0.0], legal) == 0


def _deploy_game(swap: bool) -> Game:
    """Day 2 with free deployment: USA either swaps two blocks in different hexes or not.
    The CSA seat sees the same board either way, only the opaque handles differ."""
    game = new_game("boc/day2", options=["free_deployment"], seed=11)
    if swap:
        swaps = [a for a in game.legal_actions("usa") if a["type"] == "swap"]
        game.apply(swaps[len(swaps) // 2], "usa")
    game.apply({"type": "end_phase"}, "usa")
    return game


def test_general_decides_the_same_whatever_the_hidden_identities() -> None:
    a, b = _deploy_game(False), _deploy_game(True)
    assert a.state_hash() != b.state_hash()  # the truth differs ...
    general = make_agent("general", 1)
    steps = 0
    while steps < 25 and not a.is_terminal():
        seat = a.to_move()[0]
        assert b.to_move() == [seat]
        if seat != "csa":
            break
        va, vb = a.view(seat), b.view(seat)
        assert _strip_handles(va) == _strip_handles(vb)  # ... the CSA view does not
        ca = general.choose(va, va["legal_actions"], 0.1, random.Random(0))
        cb = general.choose(vb, vb["legal_actions"], 0.1, random.Random(0))
        assert ca == cb
        a.apply(ca, seat)
        b.apply(cb, seat)
        steps += 1
    assert steps > 3


def test_boc_doctrine_scores_every_action_and_ends_phases() -> None:
    game = new_game("boc/day1", seed=2)
    seat = game.to_move()[0]
    view = game.view(seat)
    legal = view["legal_actions"]
    scores = doctrine_for(view).scores(view, legal)
    assert len(scores) == len(legal)
    for s, a in zip(scores, legal, strict=True):
        if a["type"] in DONE_TYPES:
            assert s == 0.0


def test_general_never_overstacks_in_a_day1_turn() -> None:
    game = new_game("boc/day1", seed=4)
    general, rng = make_agent("general", 4), random.Random(0)
    for _ in range(120):
        seat = game.to_move()[0]
        view = game.view(seat)
        action = general.choose(view, view["legal_actions"], 0.1, rng)
        events = game.apply(action, seat)
        assert not [e for e in events if e.type == "eliminated" and e.rule == "6.2"
                    and e.data.get("side") == seat]


def _front_pair(view: dict[str, Any]) -> tuple[dict[str, Any], str]:
    from gettysburg.ai.doctrine_boc import map_facts

    facts = map_facts()
    enemy = {h["hex"] for h in view["hidden"]}
    for u in view["units"]:
        if u["side"] == view["seat"] and u["status"] == "on_map" and u["id"].count("-") == 1:
            for n in facts.nbrs[u["hex"]]:
                if n in enemy:
                    return u, n
    raise AssertionError("no own block next to an enemy")


def test_boc_doctrine_scores_combat_actions_by_expected_hits_and_odds() -> None:
    from gettysburg.ai.doctrine_boc import BocDoctrine, expected_hits

    game = new_game("boc/day3", seed=1)
    seat = game.to_move()[0]
    view = game.view(seat)
    unit, target = _front_pair(view)
    doctrine = BocDoctrine()
    fire = {"type": "fire", "unit": unit["id"], "target": target, "through": target}
    assert doctrine.scores(view, [fire])[0] > 0.0
    assert expected_hits(3, 2, False) == 1.0 and expected_hits(3, 2, True) == 0.5
    # A lone block against a stacked hex is bad odds: no melee; night: no melee at all.
    melee = {"type": "melee", "unit": unit["id"], "target": target}
    crowded = dict(view, hidden=view["hidden"] + [{"handle": f"x{k}", "side": "usa" if seat
                                                   == "csa" else "csa", "hex": target,
                                                   "column": False} for k in range(4)])
    assert doctrine.scores(crowded, [melee])[0] < 0.0
    assert doctrine.scores(dict(view, night=True), [melee])[0] < 0.0


def test_night_pulls_back_from_the_line_but_keeps_objective_garrisons() -> None:
    from gettysburg.ai.doctrine_boc import BocDoctrine

    game = new_game("boc/day3", seed=1)
    view = game.view(game.to_move()[0])
    unit, _ = _front_pair(view)
    doctrine = BocDoctrine()
    day, night = doctrine.situation(view), doctrine.situation(dict(view, night=True))
    here = unit["hex"]
    assert here in night.front
    drop = day.hex_value(unit["id"], here, here) - night.hex_value(unit["id"], here, here)
    if here in night.facts.victory:
        assert drop < 2.0
    else:
        assert drop >= 2.0
    victory_front = [v for v in night.facts.victory if v in night.front]
    for v in victory_front:
        assert night.hex_value(unit["id"], v, here) > -1.0
