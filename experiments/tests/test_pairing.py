"""How ``experiments/search_vs_general.py`` pairs games: with the general's own game of the
same seed, and with a rival agent's game of the same seed and seat (``--rival``)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parents[1]))  # the experiments folder

from search_vs_general import rival_table, split_table, table


def _row(seed: int, usa: str, csa: str, vp: int, winner: str | None) -> dict[str, Any]:
    return {"scenario": "boc/day1", "seed": str(seed), "agents": {"usa": usa, "csa": csa},
            "vp": vp, "winner": winner, "finished": True, "seconds": 10.0}


def test_the_gain_is_signed_for_the_seat_and_paired_by_seed() -> None:
    # VP are the CSA's total: the USA gains when it falls.
    base = [_row(1, "general", "general", 5, None), _row(2, "general", "general", 8, "csa")]
    rows = [_row(1, "probe", "general", 3, "usa"),   # USA: 2 points better than the general
            _row(2, "probe", "general", 8, "csa"),   # USA: the same
            _row(1, "general", "probe", 9, "csa"),   # CSA: 4 better
            _row(3, "general", "probe", 0, None)]    # no general game of seed 3: unpaired
    head, _, usa, csa, both = table(rows, base, "boc/day1", "probe")
    # The columns name the agent measured, not "search" whatever it is.
    assert head.startswith("| probe plays | games | probe wins | draws | probe losses |")
    assert "| +1.00 ± 1.00 |" in usa and "| 0 of 2 |" in usa
    assert "| +4.00 ± 0.00 |" in csa and "| 0 of 1 |" in csa
    assert both.startswith("| both | 4 |") and "| +2.00 ± 1.15 |" in both


def test_a_rival_pairs_on_the_same_seed_and_seat_only() -> None:
    rows = [_row(1, "new", "general", 3, "usa"), _row(2, "new", "general", 6, None),
            _row(1, "general", "new", 7, None)]
    rivals = [_row(1, "old", "general", 5, None), _row(2, "old", "general", 2, "usa"),
              _row(1, "general", "old", 4, None),
              _row(1, "general", "other", 0, "usa")]  # another agent: ignored
    lines = rival_table(rows, rivals, "boc/day1", "new", "old")
    assert lines[2] == "| USA | 2 | 0 | -1.00 ± 3.00 | 1, 1 |"   # +2 on seed 1, -4 on seed 2
    assert lines[3] == "| CSA | 1 | 0 | +3.00 ± 0.00 | 0, 0 |"
    assert lines[4] == "| both | 3 | 0 | +0.33 ± 2.19 | 1, 1 |"


def test_a_seat_without_games_says_so() -> None:
    lines = rival_table([_row(1, "new", "general", 3, "usa")], [], "boc/day1", "new", "old")
    assert lines[2] == "| USA | 0 | 0 | – | 0, 0 |"


def test_a_rival_game_played_alike_is_counted() -> None:
    """A paired variant that never decided otherwise plays the rival's very game."""
    mine, theirs = _row(1, "new", "general", 3, "usa"), _row(1, "old", "general", 3, "usa")
    for row in (mine, theirs):
        row["played"], row["vp_track"] = {"usa:move": 9}, [["8 AM", 0], ["9 AM", 3]]
    other = dict(theirs, vp_track=[["8 AM", 0], ["9 AM", 2]])
    assert rival_table([mine], [theirs], "boc/day1", "new", "old")[4] == \
        "| both | 1 | 1 | +0.00 ± 0.00 | 1, 1 |"
    assert rival_table([mine], [other], "boc/day1", "new", "old")[4] == \
        "| both | 1 | 0 | +0.00 ± 0.00 | 1, 1 |"


def test_a_seat_may_read_another_agents_rows() -> None:
    """``--seat-agent usa=old``: the USA games are ``old``'s, the CSA games ``new``'s (an
    agent that plays as another from one seat)."""
    base = [_row(1, "general", "general", 5, None)]
    rows = [_row(1, "old", "general", 3, "usa"), _row(1, "new", "general", 0, "usa"),
            _row(1, "general", "new", 6, None), _row(1, "general", "old", 9, "csa")]
    usa, csa, both = table(rows, base, "boc/day1", "new", {"usa": "old"})[2:]
    assert "| +2.00 ± 0.00 |" in usa   # old's USA game, not new's (+5)
    assert "| +1.00 ± 0.00 |" in csa   # new's CSA game, not old's (+4)
    assert both.startswith("| both | 2 |")


def _split_row(seed: int, usa: str, csa: str, terrain: int, usa_lost: int,
               csa_lost: int) -> dict[str, Any]:
    total = terrain + usa_lost - csa_lost
    row = _row(seed, usa, csa, total, None)
    row["result"] = {"verdicts": [{"terrain": 0, "usa_losses": 0, "csa_losses": 0},
                                  {"terrain": terrain, "usa_losses": usa_lost,
                                   "csa_losses": csa_lost, "total": total}]}
    return row


def test_the_gain_splits_into_hexes_kills_and_blocks_kept_for_the_seat() -> None:
    """Each part is signed for the searching seat, read at the last verdict, and the parts
    add up to the paired gain."""
    base = [_split_row(1, "general", "general", 5, 4, 3),
            _split_row(2, "general", "general", 6, 2, 2)]
    rows = [_split_row(1, "probe", "general", 4, 2, 4),   # USA: 1 hex, 1 kill, 2 kept
            _split_row(1, "general", "probe", 7, 5, 1),   # CSA: 2 hexes, 1 kill, 2 kept
            _split_row(2, "general", "probe", 6, 1, 2),   # CSA: 0, -1 kill, 0 kept
            _split_row(3, "general", "probe", 9, 9, 0)]   # no general game: left out
    head, _, usa, csa, both = split_table(rows, base, "boc/day1", "probe")
    assert head.startswith("| probe plays | games split |")
    assert usa == "| USA | 1 | +1.00 ± 0.00 | +1.00 ± 0.00 | +2.00 ± 0.00 | +4.00 ± 0.00 |"
    assert csa == "| CSA | 2 | +1.00 ± 1.00 | +0.00 ± 1.00 | +1.00 ± 1.00 | +2.00 ± 3.00 |"
    assert both.startswith("| both | 3 | ")
    assert both.endswith("| +2.67 ± 1.86 |")  # 4, 5 and -1
    # The same pairs in the main table give the same total gain.
    assert "| +4.00 ± 0.00 |" in table(rows, base, "boc/day1", "probe")[2]


def test_a_rival_may_read_another_agents_rows_for_a_seat() -> None:
    """``--rival-seat-agent``: a rival that played as two agents, one a seat."""
    rows = [_row(1, "new", "general", 3, "usa"), _row(1, "general", "new", 7, None)]
    rivals = [_row(1, "a", "general", 5, None), _row(1, "general", "b", 4, None),
              _row(1, "b", "general", 0, "usa"), _row(1, "general", "a", 9, "csa")]
    lines = rival_table(rows, rivals, "boc/day1", "new", "a", None, {"csa": "b"})
    assert lines[2] == "| USA | 1 | 0 | +2.00 ± 0.00 | 1, 0 |"   # a's USA game, not b's
    assert lines[3] == "| CSA | 1 | 0 | +3.00 ± 0.00 | 0, 0 |"   # b's CSA game, not a's
