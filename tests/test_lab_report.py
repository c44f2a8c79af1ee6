"""``gettysburg report`` as a designer uses it: files mixing runs, other systems' seats,
malformed or damaged files and folders it cannot write, each refused by name."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from gettysburg.cli import app
from gettysburg.lab import report as report_mod
from gettysburg.lab.simulate import make_specs, run_local
from gettysburg.lab.store import append_rows, read_rows

BOC = {"usa": "general", "csa": "general"}


def _row(vp: int, winner: str | None, **extra: Any) -> dict[str, Any]:
    row: dict[str, Any] = {"scenario": "boc/day1", "agents": dict(BOC), "finished": True,
                           "winner": winner, "vp": vp, "seconds": 1.0, "options": [],
                           "budget_s": 1.0, "max_actions": 20000, "eliminated": {},
                           "vp_track": [["Day 1 8 AM", 0], ["Day 1 9 AM", vp]]}
    row.update(extra)
    return row


def _table(summary: str) -> list[list[str]]:
    """The summary's table rows (group lines only), as lists of stripped cells."""
    return [[c.strip() for c in line.strip("|").split("|")]
            for line in summary.splitlines()
            if line.startswith("| ") and not line.startswith("| group")]


def _report(tmp_path: Path, rows: list[dict[str, Any]]) -> tuple[Any, str]:
    src, out = tmp_path / "runs.jsonl", tmp_path / "rep"
    append_rows(src, rows)
    res = CliRunner().invoke(app, ["report", str(src), "--out", str(out)])
    summary = (out / "summary.md").read_text(encoding="utf-8") if res.exit_code == 0 else ""
    return res, summary


def test_report_keeps_runs_of_other_options_or_dice_apart(tmp_path: Path) -> None:
    """docs/balance.md keeps its option runs in one file
    (experiments/results/options_s12.jsonl): each option is its own group, never pooled
    with the games played without it."""
    rows = ([_row(4, "usa") for _ in range(3)]
            + [_row(12, "csa", options=["fixed_turn_order"]) for _ in range(2)]
            + [_row(7, None, dice="keyed")])
    res, summary = _report(tmp_path, rows)
    assert res.exit_code == 0, res.output
    table = {cells[0]: cells for cells in _table(summary)}
    assert set(table) == {
        "boc/day1: usa=general vs csa=general",
        "boc/day1 [fixed_turn_order]: usa=general vs csa=general",
        "boc/day1 [dice keyed]: usa=general vs csa=general"}, summary
    plain = table["boc/day1: usa=general vs csa=general"]
    assert plain[1] == "3" and plain[2].startswith("3 ") and plain[6].startswith("4.00")
    fixed = table["boc/day1 [fixed_turn_order]: usa=general vs csa=general"]
    assert fixed[1] == "2" and fixed[3].startswith("2 ") and fixed[6].startswith("12.00")


def test_report_counts_the_wins_of_seats_other_than_usa_and_csa(tmp_path: Path) -> None:
    """The toy's seats are red and blue: their wins are counted and named, in play order
    (red first, as its declaration lists them), the headers by the seats' titles. A file
    that mixes systems heads its columns by place, each cell naming its seat."""
    rows = run_local(make_specs("toy/standard", 8, {"red": "general", "blue": "random"},
                                seed=1))
    wins = {s: sum(1 for r in rows if r["winner"] == s) for s in ("red", "blue")}
    assert wins["red"] + wins["blue"] > 0
    res, summary = _report(tmp_path, rows)
    assert res.exit_code == 0, res.output
    assert "| Red wins (95% CI) | Blue wins (95% CI) |" in summary, summary
    [cells] = _table(summary)
    assert cells[0] == "toy/standard: red=general vs blue=random"
    assert cells[2].startswith(f"{wins['red']} (") and \
        cells[3].startswith(f"{wins['blue']} ("), summary
    res, summary = _report(tmp_path / "mixed", [*rows, _row(4, "usa")])
    assert res.exit_code == 0, res.output
    assert "| seat 1 wins (95% CI) | seat 2 wins (95% CI) |" in summary, summary
    table = {cells[0]: cells for cells in _table(summary)}
    toy = table["toy/standard: red=general vs blue=random"]
    assert toy[2].startswith(f"red {wins['red']} (") and \
        toy[3].startswith(f"blue {wins['blue']} ("), summary
    assert table["boc/day1: usa=general vs csa=general"][2].startswith("usa 1 ("), summary


def test_report_labels_come_from_the_system(tmp_path: Path) -> None:
    """BoC's headers are its seats' titles, its score axis says what the score is; the
    toy, which declares no lab hooks, gets the generic words."""
    from gettysburg.lab.simulate import lab_hooks

    res, summary = _report(tmp_path, [_row(4, "usa"), _row(11, "csa")])
    assert res.exit_code == 0, res.output
    assert "| Union wins (95% CI) | Confederacy wins (95% CI) |" in summary, summary
    assert report_mod._score_label("boc/day1") == lab_hooks("boc/day1").score_label != "score"
    assert report_mod._score_label("toy/standard") == "score"
    assert report_mod.formation_of("toy/standard", "r1") == "r1"


BAD_ROWS = [
    ({"agents": "general"}, "agents"),
    ({"eliminated": ["usa-1"]}, "eliminated"),
    ({"vp": float("inf")}, "vp"),
    ({"vp": "ten"}, "vp"),
    ({"seconds": "slow"}, "seconds"),
    ({"vp_track": [[1]]}, "vp_track"),
    ({"finished": "yes"}, "finished"),
    ({"options": "hancock"}, "options"),
]


@pytest.mark.parametrize(("change", "field"), BAD_ROWS, ids=[f for _, f in BAD_ROWS])
def test_report_names_the_line_and_field_of_a_malformed_row(
        tmp_path: Path, change: dict[str, Any], field: str) -> None:
    """A row whose fields have the wrong form is refused naming its line and the field,
    exit 2, never a traceback nor a plot drawn from it."""
    src, out = tmp_path / "runs.jsonl", tmp_path / "rep"
    append_rows(src, [_row(3, "usa")])
    with src.open("a", encoding="utf-8") as fh:
        fh.write("\n" + json.dumps(_row(3, "usa") | change) + "\n")
    res = CliRunner().invoke(app, ["report", str(src), "--out", str(out)])
    assert res.exit_code == 2, res.output
    assert isinstance(res.exception, SystemExit), res.exception
    assert "line 3" in res.output and repr(field) in res.output, res.output
    assert not out.exists()


def test_report_names_the_file_once_and_the_line_of_bytes_not_utf8(tmp_path: Path) -> None:
    src = tmp_path / "runs.jsonl"
    src.write_bytes(json.dumps(_row(3, "usa")).encode() + b"\n\xff\xfe{}\n")
    res = CliRunner().invoke(app, ["report", str(src), "--out", str(tmp_path / "rep")])
    assert res.exit_code == 2 and isinstance(res.exception, SystemExit), res.output
    text = " ".join(res.output.split())
    assert f"{src}:2" in text and "UTF-8" in text, text
    assert len(re.findall(re.escape(str(src)), text)) == 1, text


def test_report_says_when_its_folder_cannot_be_written(tmp_path: Path) -> None:
    src = tmp_path / "runs.jsonl"
    append_rows(src, [_row(3, "usa")])
    afile = tmp_path / "afile"
    afile.write_text("x", encoding="utf-8")
    res = CliRunner().invoke(app, ["report", str(src), "--out", str(afile / "rep")])
    assert res.exit_code == 2 and isinstance(res.exception, SystemExit), res.output
    assert "cannot write" in res.output and "afile" in res.output, res.output


def test_vp_histogram_bins_stay_few_whatever_the_spread(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """One bin per point is kept for the usual spread; a row with a VP far from the rest
    (a damaged or foreign file) no longer asks matplotlib for 100,000 bins (a minute and a
    gigabyte)."""
    import matplotlib.axes

    seen: list[int] = []
    real = matplotlib.axes.Axes.hist

    def counting(self: Any, x: Any, bins: Any = None, **kw: Any) -> Any:
        seen.append(len(list(bins)) if not isinstance(bins, int) else bins)
        return real(self, x, bins=bins, **kw)

    monkeypatch.setattr(matplotlib.axes.Axes, "hist", counting)
    assert report_mod.plot_vp([_row(0, "usa"), _row(100_000, "csa")], tmp_path)
    assert seen and max(seen) <= 101, seen
    seen.clear()
    report_mod.plot_vp([_row(v, None) for v in (-3, 0, 5)], tmp_path)
    assert seen == [10], seen  # -3..5 and one past the end: a bin per point


def test_report_splits_vp_and_losses_by_group_not_by_file(tmp_path: Path) -> None:
    """Losses per game are averaged over each group's own games: a file that also holds
    toy games (no blocks) or another pairing does not dilute them."""
    lost = _row(3, "usa", eliminated={"csa": ["csa-archer"]})
    toy = run_local(make_specs("toy/standard", 2, {"red": "random", "blue": "random"}))
    rows = [lost, lost, *toy]
    table = report_mod.losses_by_group(rows)
    assert table == {"boc/day1: usa=general vs csa=general":
                     {report_mod.formation_of("boc/day1", "csa-archer"): 1.0}}
    assert report_mod.formation_of("boc/day1", "csa-archer").startswith("csa ")


def test_read_rows_says_a_cut_last_line_is_cut(tmp_path: Path) -> None:
    """A run killed while writing (power cut, SIGKILL) leaves a last line without its end:
    the error says so and what to do, rather than only 'not JSON'."""
    path = tmp_path / "runs.jsonl"
    append_rows(path, [_row(3, "usa"), _row(4, "usa")])
    path.write_bytes(path.read_bytes()[:-30])
    with pytest.raises(ValueError, match=r":2: .*cut short.*delete"):
        read_rows(path)


def test_appending_to_a_file_without_a_final_newline_keeps_rows_apart(tmp_path: Path) -> None:
    """A results file saved by an editor without the last newline: the next run's rows
    start on a line of their own instead of being glued to the last row."""
    path = tmp_path / "runs.jsonl"
    path.write_text(json.dumps(_row(3, "usa")), encoding="utf-8")
    append_rows(path, [_row(4, "csa")])
    assert [r["vp"] for r in read_rows(path)] == [3, 4]


def test_one_group_vp_histogram_is_split_by_result_in_play_order(tmp_path: Path) -> None:
    """A designer reads a scenario's bands of victory off one run's histogram: its games
    split by result, the first seat's wins first, unfinished games left out."""
    rows = [_row(3, "usa"), _row(4, "usa"), _row(6, None), _row(9, None), _row(11, "csa"),
            _row(20, None, finished=False)]
    split = report_mod.vp_by_result(rows)
    assert list(split) == ["usa wins", "csa wins", "draws"]
    assert split == {"usa wins": [3.0, 4.0], "csa wins": [11.0], "draws": [6.0, 9.0]}
    # The toy's seats read red first, as `simulate` names them.
    toy = [{**r, "scenario": "toy/standard", "agents": {"blue": "random", "red": "general"},
            "winner": {"usa": "red", "csa": "blue"}.get(str(r["winner"]))} for r in rows[:5]]
    assert list(report_mod.vp_by_result(toy))[:2] == ["red wins", "blue wins"]
    res, _ = _report(tmp_path, rows)
    assert res.exit_code == 0, res.output
    assert (tmp_path / "rep" / "vp_distribution.png").stat().st_size > 0
