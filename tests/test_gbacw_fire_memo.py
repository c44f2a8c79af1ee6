"""The fire part of the legal list is kept per position (questions.fire_targets' memo) and
built from one scene per firer (fire_action.scene_of): it never serves a stale answer.
Each step of a seeded game with much fire, the running game's answers equal those of a
fresh game loaded from the same position (002 §10.3, §10.12, §10.26, §10.66)."""

from __future__ import annotations

import random

from gbacw_skirmish import active_gamble
from gettysburg.gbacw import fire_action

WEIGHTS = {"fire": 8, "fire_split": 4, "return_fire": 6, "combined_fire": 4, "rapid_fire": 4,
           "end_activation": 1, "end_brigade": 1}


def test_fire_answers_equal_a_fresh_games() -> None:
    """From the skirmish with Archer's regiment in Gamble's front (fire at once), random
    play favouring fire: the listed fire and every unit's targets as a fresh game says."""
    r = random.Random(1)
    g, _, _ = active_gamble([6, 5] + [r.randrange(10) for _ in range(600)])
    fires = 0
    for _ in range(60):
        if g.is_terminal():
            break
        seat = g.to_move()[0]
        legal = g.legal_actions(seat)
        fresh = g.clone()
        assert fresh.legal_actions(seat) == legal
        for k in sorted(g.pos.units):
            if g.pos.units[k].seat == seat and g.on_map(k):
                assert g.fire_targets(k) == fire_action.fire_targets(fresh, k), k
        fires += sum(a["type"] == "fire" for a in legal)
        kinds = sorted({a["type"] for a in legal})
        kind = r.choice([k for k in kinds for _ in range(WEIGHTS.get(k, 2))])
        g.apply(r.choice([a for a in legal if a["type"] == kind]), seat)
    assert fires >= 5, fires  # the game did fire


def test_plan_at_with_a_scene_equals_without() -> None:
    """A scene built once answers as the position read afresh for every hex would."""
    r = random.Random(2)
    g, _, _ = active_gamble([6, 5] + [r.randrange(10) for _ in range(600)])
    checked = 0
    for _ in range(40):
        seat = g.to_move()[0]
        legal = g.legal_actions(seat)
        for a in legal:
            if a["type"] != "fire":
                continue
            key = str(a["unit"])
            firer = fire_action.firer_of(g, key, phasing=True)
            scene = fire_action.scene_of(g, key, seat, phasing=True)
            target = g.cat.board.parse(str(a["target"]))
            assert fire_action.plan_at(g, firer, target, seat, scene=scene) == \
                fire_action.plan_at(g, firer, target, seat)
            checked += 1
        kinds = sorted({a["type"] for a in legal})
        kind = r.choice([k for k in kinds for _ in range(WEIGHTS.get(k, 2))])
        g.apply(r.choice([a for a in legal if a["type"] == kind]), seat)
    assert checked > 0
