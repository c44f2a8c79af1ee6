"""``experiments/tuned_variants.py``: the tuned doctrine with knobs set everywhere, and its
games paired with ``general-tuned``'s by seed."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parents[1]))  # the experiments folder

from tuned_variants import base_rows, paired, reaching, variant_doctrine

from gettysburg.boc.ai.tuned import load_tuned


def test_the_knobs_go_into_every_tuned_style_and_nothing_else_changes() -> None:
    doctrine = variant_doctrine({"final_turn_command": True, "hunt": 0.7})
    tuned = load_tuned()
    assert set(doctrine.styles) == set(tuned) and len(tuned) >= 3
    for key, style in doctrine.styles.items():
        assert style.final_turn_command and style.hunt == 0.7
        assert style.hold == tuned[key].hold and style.decay == tuned[key].decay
    with pytest.raises(TypeError):  # a misspelt weight measures nothing: refused
        variant_doctrine({"last_wrod": True})


def _row(seed: str, seat: str, winner: str | None, vp: int, day1: int,
         played: dict[str, int] | None = None) -> dict[str, Any]:
    agents = {"usa": "general", "csa": "general", seat: "general-tuned"}
    return {"seed": seed, "scenario": "boc/battle", "agents": agents, "finished": True,
            "winner": winner, "vp": vp, "played": played or {"csa:move": 1},
            "vp_track": [[1, vp]], "result": {"verdicts": [{"total": day1}]}}


def test_games_pair_by_seed_and_the_gain_is_the_seats() -> None:
    base = {"a": _row("a", "usa", "usa", -3, 2), "b": _row("b", "usa", None, 4, 5),
            "c": _row("c", "usa", "csa", 10, 10)}
    rows = [_row("a", "usa", "usa", -3, 2),            # the very same game
            _row("b", "usa", "usa", -1, 4, {"csa:move": 2}),   # 5 better for the USA
            _row("c", "usa", "csa", 12, 11, {"x": 1}),  # 2 worse
            _row("z", "usa", "usa", -9, 0)]             # no base game: left out
    got = paired(rows, base, "usa")
    assert got["games"] == 3 and got["same_game"] == 1
    assert got["variant"] == [2, 0, 1] and got["base"] == [1, 1, 1]
    assert got["gain"][0] == pytest.approx(1.0)        # (0 + 5 - 2) / 3
    assert got["day1_gain"][0] == pytest.approx(0.0)   # (0 + 1 - 1) / 3
    # From the CSA seat the same totals count the other way.
    assert paired(rows, base, "csa")["gain"][0] == pytest.approx(-1.0)


def test_base_rows_are_general_tuneds_from_the_seat(tmp_path: Path) -> None:
    rows = [_row("a", "usa", "usa", -3, 2), _row("b", "csa", "csa", 10, 10),
            dict(_row("c", "usa", None, 4, 4), scenario="boc/day1")]
    path = tmp_path / "rows.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    assert set(base_rows(str(path), "usa", "boc/battle")) == {"a"}
    assert set(base_rows(str(path), "csa", "boc/battle")) == {"b"}


def test_day_knobs_change_only_that_days_style_of_the_seat() -> None:
    """``--days``: the knobs go into the style the seat plays on those days (the day's
    tuned entry, else the scenario's), every other style as tuned."""
    tuned = load_tuned()
    doctrine = variant_doctrine({"take": 1.3}, [3], "usa", "boc/battle")
    assert doctrine.styles[("usa", "boc/battle", 3)] == replace(
        tuned[("usa", "boc/battle")], take=1.3)
    assert doctrine.styles[("usa", "boc/battle")] == tuned[("usa", "boc/battle")]
    assert {k: v for k, v in doctrine.styles.items() if k != ("usa", "boc/battle", 3)} \
        == dict(tuned)
    # The CSA's Day 2 has its own tuned entry: that one is the one changed.
    csa = variant_doctrine({"decay": 0.9}, [2], "csa", "boc/battle")
    assert csa.styles[("csa", "boc/battle", 2)] == replace(
        tuned[("csa", "boc/battle", 2)], decay=0.9)
    assert csa.styles[("csa", "boc/battle", 1)] == tuned[("csa", "boc/battle", 1)]


def test_reaching_keeps_the_seeds_whose_game_went_on_to_that_day() -> None:
    base = {seed: dict(_row(seed, "usa", None, 0, 0), result={"day": day})
            for seed, day in (("a", 1), ("b", 2), ("c", 3))}
    assert reaching(base, 3) == {"c"}
    assert reaching(base, 2) == {"b", "c"}
    assert reaching(base, 1) == {"a", "b", "c"}
