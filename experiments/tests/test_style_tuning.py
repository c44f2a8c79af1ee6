"""``experiments/style_tuning.py``: the tuner's coordinates, its score, and a generation
played and logged (and resumed) end to end."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import replace
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1]))  # the experiments folder

from style_tuning import TUNABLE, compare, compare_player, run, soft_win, style_at, summarise

from gettysburg.boc.ai.doctrine import BocDoctrine, Style, general_style
from gettysburg.core.protocol import new_game


def test_coordinates_map_to_weights_within_bounds() -> None:
    base = general_style("usa", "boc/day1")
    names = list(TUNABLE)
    assert style_at(base, names, [0.0] * len(names)) == base  # the start is the general
    far = style_at(base, names, [100.0] * len(names))
    low = style_at(base, names, [-100.0] * len(names))
    for name, knob in TUNABLE.items():
        assert getattr(far, name) == pytest.approx(knob.high), name
        assert getattr(low, name) == pytest.approx(knob.low), name
        assert name in Style.__dataclass_fields__
    # Whole-number weights stay whole: weak_steps 2 + 0.5 x 1.4 = 2.7 rounds to 3.
    step = style_at(base, ["weak_steps"], [1.4])
    assert step.weak_steps == 3 and isinstance(step.weak_steps, int)
    assert style_at(base, ["decay"], [1.0]).decay == pytest.approx(base.decay + 0.1)


def test_the_soft_win_is_half_at_the_bands_edge_and_rises_with_the_seats_margin() -> None:
    bands = (4, 10)  # Day 1 (9.2): the USA wins at 4 or less, the CSA at 10 or more
    assert soft_win(9.5, "csa", bands, 1.5) == pytest.approx(0.5)
    assert soft_win(4.5, "usa", bands, 1.5) == pytest.approx(0.5)
    assert soft_win(10, "csa", bands, 1.5) > 0.5 > soft_win(9, "csa", bands, 1.5)
    assert soft_win(4, "usa", bands, 1.5) > 0.5 > soft_win(5, "usa", bands, 1.5)
    csa = [soft_win(v, "csa", bands, 1.5) for v in range(-5, 20)]
    assert csa == sorted(csa) and soft_win(None, "csa", bands, 1.5) == 0.0


def test_a_generation_is_played_logged_and_resumed(tmp_path: Path) -> None:
    out = tmp_path / "tune.jsonl"
    args = argparse.Namespace(seat="csa", scenario="boc/day1", params=["hunt", "decay"],
                              out=str(out), resume=False, sigma=0.5, popsize=2,
                              cma_seed=1, generations=1, games=1, seed=5, workers=1,
                              temperature=1.5)
    run(args)
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["candidate"] for r in rows] == [0, 1, "mean"]
    for r in rows:
        assert r["generation"] == 0 and r["games"] == 1 and set(r["style"]) == {
            "hunt", "decay"}
        assert 0.0 <= r["score"] <= 1.0 and r["errors"] == 0
    # The mean of generation 0 is the general itself: its game is the general's.
    assert rows[-1]["vps"] == rows[-1]["general_vps"] and rows[-1]["gain"] == 0.0
    run(argparse.Namespace(**{**vars(args), "resume": True, "generations": 2}))
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["generation"] for r in rows] == [0, 0, 0, 1, 1, 1]
    assert rows[3]["seed"] == 6  # fresh seeds each generation


def test_compare_plays_hand_chosen_styles_beside_the_general(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "compare.jsonl"
    compare(argparse.Namespace(seat="usa", scenario="boc/day1", games=1, seed=5, workers=1,
                               temperature=1.5, out=str(out),
                               compare='[{}, {"hold": 0.2, "threat": 1.0}]'))
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["candidate"] for r in rows] == [{}, {"hold": 0.2, "threat": 1.0}]
    assert all(r["generation"] == "compare" and r["seat"] == "usa" for r in rows)
    # No overrides is the general itself: its game is the general's own.
    assert rows[0]["vps"] == rows[0]["general_vps"] and rows[0]["gain"] == 0.0
    assert rows[1]["style"] == {"hold": 0.2, "threat": 1.0}
    printed = capsys.readouterr().out
    assert "general: " in printed and "None" not in printed  # one game: no spread printed
    summarise(str(out))  # compare rows are no generation: said so, nothing summarised
    assert "no generations (only --compare rows?)" in capsys.readouterr().out


def test_a_compare_entry_with_days_plays_each_day_its_own_weights() -> None:
    """``"days"`` weights play their day of the battle, the entry's other weights the
    rest; an entry without days is a plain style."""
    base = general_style("csa", "boc/battle")
    style, player = compare_player("csa", "boc/battle",
                                   {"hold": 0.2, "days": {"1": {"decay": 0.55}}})
    assert style == replace(base, hold=0.2)
    assert isinstance(player, BocDoctrine)
    view = new_game("boc/battle", seed=1).view("csa")
    assert player.style_for(view) == replace(base, decay=0.55)
    assert player.style_for(dict(view, day=2)) == replace(base, hold=0.2)
    assert compare_player("csa", "boc/battle", {"hold": 0.2}) == (style, style)


def test_compare_refuses_an_unknown_weight(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="--compare"):
        compare(argparse.Namespace(seat="usa", scenario="boc/day1", games=1, seed=5,
                                   workers=1, temperature=1.5, out=None,
                                   compare='[{"boldness": 2}]'))
