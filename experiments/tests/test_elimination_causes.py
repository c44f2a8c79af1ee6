"""``experiments/elimination_causes.py``: every block a game loses has its cause, and a last
step lost says whether fire (5.23) or a melee (7.2) took it."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1]))  # the experiments folder

from elimination_causes import causes

from gettysburg.lab.simulate import make_specs, play_game


def test_the_causes_add_up_to_the_losses_the_verdict_counts() -> None:
    agents = {"usa": "general", "csa": "general"}
    lost = causes("boc/day1", 1, 700, agents)
    row = play_game(make_specs("boc/day1", 1, agents, 700)[0])
    verdict = row["result"]["verdicts"][-1]
    for side in ("usa", "csa"):
        assert sum(n for (s, _), n in lost.items() if s == side) == verdict[f"{side}_losses"]
    whys = {why for _, why in lost}
    assert "lost its last step" not in whys  # always with its rule
    assert "lost its last step (5.23)" in whys  # fire kills on Day 1 between generals
