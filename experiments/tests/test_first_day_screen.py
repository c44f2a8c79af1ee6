"""``experiments/first_day_screen.py``: battles played to Day 1's verdict only, and the
summary that compares variants with ``general-tuned`` game by game."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1]))  # the experiments folder

from first_day_screen import first_day_total, summary

from gettysburg.lab.simulate import make_specs


def test_a_game_stops_at_day_1s_count_with_the_total_the_verdict_reads() -> None:
    """Game 0 of seeds 320000 between two generals: its Day 1 verdict in the stored
    battle (experiments/results/general_vs_general_battle_s38.jsonl) was a CSA total of 4."""
    spec = make_specs("boc/battle", 1, {"usa": "general", "csa": "general"}, "320000")[0]
    assert first_day_total(spec) == ("general", 0, 4)


def test_the_summary_counts_each_seats_wins_by_the_battles_bands() -> None:
    totals = {"general-tuned": {0: 9, 1: 4, 2: -1, 3: 10},
              "v": {0: 10, 1: 4, 2: 0, 3: 12}}
    csa = {line["agent"]: line for line in summary(totals, "csa")}
    assert csa["general-tuned"]["wins"] == 1 and csa["general-tuned"]["losses"] == 1
    assert csa["v"]["wins"] == 2 and csa["v"]["losses"] == 0
    assert csa["v"]["gain"][0] == 1.0 and csa["v"]["same"] == 1   # +1, 0, +1, +2
    assert csa["v"]["mean_total"] == 6.5
    usa = {line["agent"]: line for line in summary(totals, "usa")}
    assert usa["general-tuned"]["wins"] == 1 and usa["general-tuned"]["losses"] == 1
    assert usa["v"]["wins"] == 0 and usa["v"]["gain"][0] == -1.0
