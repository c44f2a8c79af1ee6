"""Badges of Courage's first-game tutorial (issue 57), as data the web client follows.

The learner plays the Union's first player turn of ``boc/tutorial`` (a small piece of the
Day 1 morning on McPherson Ridge, data/scenarios/tutorial.yaml): activating Buford for
command (4.3), a fire by Calef's guns (5.x), a move and a melee declaration (6.x, 7.1), the
melee (7.2-7.9) and a supply activation that gives Gamble back a step (8.1-8.3). The seed
fixes the dice, so every run tells the same story; tests/test_boc_tutorial.py plays the
script through the engine and checks that story (a hit on Archer, the melee won, Gamble
supplied). The words of each step are in data/words.json (``tutorial.<id>.do`` and
``tutorial.<id>.after``), in the client's four languages.
"""

from __future__ import annotations

from gettysburg.core.canonical import JSONDict

SCENARIO = "tutorial"
SEED = "tutorial-7"
SEAT = "usa"
# The dice the seed gives the script, in order: Calef's fire (a 1: a hit, 5.2), then
# Gamble's two melee dice in round 1 (a 6 misses, a 1 hits, 7.2). A game hosted on the
# server rolls seeded dice only, so the seed is how the tutorial scripts them; the test
# plays the script with ScriptedDice of these values too and reaches the same position.
ROLLS = (1, 6, 1)
ZOOM = 2.2  # the map opens this much closer than whole: the ridge and its blocks fill it

_END = {"type": "end_phase"}
STEPS: list[JSONDict] = [
    {"id": "command", "allow": [{"type": "activate", "hq": "usa-buford", "to": None}],
     "done": {"event": "activate"}},
    {"id": "end_command", "allow": [_END], "done": {"phase": "fire"}},
    {"id": "fire", "allow": [{"type": "fire", "unit": "usa-calef", "target": "H11",
                              "through": "H11", "at": None}],
     "done": {"event": "fire"}},
    {"id": "end_fire", "allow": [_END], "done": {"phase": "movement"}},
    {"id": "move", "allow": [{"type": "move", "unit": "usa-devin", "path": ["G9", "G10"]}],
     "done": {"event": "move"}},
    {"id": "declare", "allow": [{"type": "melee", "unit": "usa-gamble", "target": "H11",
                                 "unsupported": None, "entry": None}],
     "done": {"event": "melee_declared"}},
    {"id": "end_move", "allow": [_END], "done": {"phase": "melee"}},
    {"id": "melee", "allow": [{"type": "melee_resolve"}, {"type": "melee_fight"},
                              {"type": "regroup"}, {"type": "regroup_done"}],
     "done": {"event": "melee_over"}},
    {"id": "end_melee", "allow": [_END], "done": {"phase": "supply"}},
    {"id": "supply_activate", "allow": [{"type": "supply_activate", "hq": "usa-buford",
                                         "to": None}],
     "done": {"event": "supply_activate"}},
    {"id": "supply", "allow": [{"type": "supply", "hq": "usa-buford", "unit": "usa-gamble"}],
     "done": {"event": "supply"}},
    {"id": "end_supply", "allow": [_END], "done": {"event": "player_turn"}},
]

# What the client sends for the Confederate seat when it must answer during the Union's
# turn (a melee it is drawn into): fight on, then let the turn go on.
OTHER = ["melee_fight", "casualty", "regroup_done", "end_phase"]


def tutorial() -> JSONDict:
    """The tutorial as :class:`gettysburg.core.system.RuleSystem` ``tutorial`` gives it."""
    return {"scenario": SCENARIO, "seed": SEED, "seat": SEAT, "other": list(OTHER),
            "zoom": ZOOM, "steps": [dict(s) for s in STEPS]}


def allowed(step: JSONDict, action: JSONDict) -> bool:
    """Whether ``action`` is one the learner may send at ``step`` (the client's rule, here
    for the tests): some pattern whose every key matches (a None value: the key absent)."""
    return any(all(action.get(k) == v for k, v in pattern.items())
               for pattern in step["allow"])
