"""The opponent presets make exactly the decisions the agents they replaced made.

The fixture ``data/ai_preset_decisions.json`` was recorded from the agents as they were
before issue 49 rebuilt them as presets (``python tests/test_ai_presets_replay.py``
rewrites it: only do so on purpose, after a change of play that was measured): for each
preset, a seeded Badges of Courage Day 1 game against the general, played as the lab
plays it (the same agent seeds and random streams, budget-not-clock), up to a fixed
number of the preset's own decisions. Search is slow, so its games are short and its
budget small; they still cover style search, move plans and still plans.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from gettysburg.ai.agent import make_agent, random_stream, seeded_rng
from gettysburg.core.protocol import new_game

FIXTURE = Path(__file__).resolve().parent / "data" / "ai_preset_decisions.json"
SEED = 7
Case = tuple[str, str, str, int, float]
#: (preset, scenario, its seat, its decisions, budget): the general's opponents in full
#: turns, the searching ones only as far as a test can afford. The tuned Confederacy has
#: weights of its own only in the battle.
CASES: list[Case] = [
    ("general", "boc/day1", "usa", 150, 0.1), ("general", "boc/day1", "csa", 150, 0.1),
    ("novice", "boc/day1", "usa", 150, 0.1), ("novice", "boc/day1", "csa", 150, 0.1),
    ("general-tuned", "boc/day1", "usa", 150, 0.1),
    ("general-tuned", "boc/battle", "csa", 200, 0.1),
    ("search-move-still", "boc/day1", "csa", 60, 0.1),
    ("search-move-still", "boc/day1", "usa", 30, 0.1),
    ("search", "boc/day1", "csa", 60, 0.1),
]


def play(preset: str, scenario: str, seat: str, decisions: int, budget: float
         ) -> dict[str, Any]:
    """The actions of a lab-style game, ``preset`` at ``seat`` against the general, until
    the preset has decided ``decisions`` times; and, for an agent that searched, its
    counts of searches, overrides and styles."""
    game = new_game(scenario, seed=SEED)
    other = next(s for s in ("usa", "csa") if s != seat)
    names = {seat: preset, other: "general"}
    agents = {s: make_agent(n, f"{SEED}:{s}") for s, n in names.items()}
    rngs = {s: seeded_rng("lab", SEED, s, random_stream(agents[s], n)) for s, n in names.items()}
    actions: list[list[Any]] = []
    mine = 0
    while not game.is_terminal() and mine < decisions:
        mover = game.to_move()[0]
        view = game.view(mover)
        legal = view.get("legal_actions") or game.legal_actions(mover)
        action = agents[mover].choose(view, legal, budget, rngs[mover])
        game.apply_unrecorded(action, mover)
        actions.append([mover, action])
        mine += mover == seat
    stats = getattr(agents[seat], "stats", None)
    counts = stats() if callable(stats) else {}
    kept = {k: counts[k] for k in ("searched", "overrides", "styles")} \
        if counts.get("searched") else {}
    return {"actions": actions, "stats": kept}


def _key(case: Case) -> str:
    return f"{case[0]}@{case[1]}:{case[2]}x{case[3]}b{case[4]}"


def _recorded() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(FIXTURE.read_text("utf-8"))
    return data


@pytest.mark.parametrize("case", CASES, ids=_key)
def test_preset_replays_the_recorded_decisions(case: Case) -> None:
    want = _recorded()[_key(case)]
    got = json.loads(json.dumps(play(*case)))
    assert len(got["actions"]) == len(want["actions"])
    for k, (g, w) in enumerate(zip(got["actions"], want["actions"], strict=True)):
        assert g == w, f"decision {k} differs"
    assert got["stats"] == want["stats"]


if __name__ == "__main__":
    out = {_key(case): play(*case) for case in CASES
           if len(sys.argv) < 2 or case[0] in sys.argv[1:]}
    FIXTURE.write_text(json.dumps(out, sort_keys=True, indent=0) + "\n", "utf-8")
    print({k: len(v["actions"]) for k, v in out.items()})
