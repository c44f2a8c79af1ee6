"""Tuned styles (``data/tuned_styles.yaml``, ``tuned_boc``): the file is checked field by
field, an entry plays only its seat and scenario, and a search agent with ``base="tuned"``
plays the tuned doctrine as its own."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from gettysburg.ai import doctrines, make_agent
from gettysburg.ai.general import GeneralAgent, best_index
from gettysburg.boc.ai.doctrine import BocDoctrine, Style, general_style
from gettysburg.boc.ai.tuned import (
    TUNED_FILE,
    TunedStylesError,
    load_tuned,
    parse_tuned,
    tuned_doctrine,
)
from gettysburg.core.protocol import new_game


def _doc(**weights: Any) -> dict[str, Any]:
    return {"styles": [{"seat": "csa", "scenario": "boc/day1", "weights": weights,
                        "source": "a test"}]}


def test_the_shipped_file_reads_and_every_entry_differs_from_the_general() -> None:
    tuned = load_tuned(TUNED_FILE)
    for key, style in tuned.items():
        seat, scenario = key[0], key[1]
        assert seat in ("usa", "csa") and scenario.startswith("boc/")
        assert style != general_style(seat, scenario)


def test_an_entry_is_the_generals_style_with_its_weights() -> None:
    tuned = parse_tuned(_doc(hunt=0.2, weak_steps=2))
    assert tuned == {("csa", "boc/day1"): replace(general_style("csa", "boc/day1"),
                                                  hunt=0.2, weak_steps=2)}
    assert isinstance(tuned[("csa", "boc/day1")].weak_steps, int)


def test_a_switch_is_set_true_or_false() -> None:
    """Switches (``final_turn_command``) take a YAML boolean, kept as one."""
    tuned = parse_tuned(_doc(final_turn_command=True, hunt=0.8))[("csa", "boc/day1")]
    assert tuned.final_turn_command is True and tuned.hunt == 0.8


@pytest.mark.parametrize(("doc", "names"), [
    (_doc(hunt="high"), "styles.0.weights.hunt"),
    (_doc(bravery=1.0), "weights.bravery: not a Style weight"),
    (_doc(formations=1.0), "weights.formations: not a Style weight"),
    (_doc(weak_steps=1.5), "weights.weak_steps: a whole number"),
    (_doc(final_turn_command=1.0), "weights.final_turn_command: true or false, not 1.0"),
    (_doc(hold=True), "weights.hold: a number, not True"),
    ({"styles": [{"seat": "rebels", "scenario": "boc/day1", "weights": {}, "source": ""}]},
     "styles.0.seat"),
    ({"styles": [{"seat": "csa", "scenario": "boc/day1", "weights": {}}]}, "styles.0.source"),
    ({"styles": _doc()["styles"] * 2}, "styles.1 (csa, boc/day1): seat and scenario given twice"),
    ({"styles": [dict(_doc()["styles"][0], scenario="boc/battle", days=[1, 2]),
                 dict(_doc()["styles"][0], scenario="boc/battle", days=[2])]},
     "styles.1 (csa, boc/battle): seat and scenario day 2 given twice"),
    ({"styles": [dict(_doc()["styles"][0], days=[4])]}, "styles.0.days.0"),
    ({"styles": [dict(_doc()["styles"][0], days=[3, 3])]},
     "styles.0 (csa, boc/day1): seat and scenario day 3 given twice"),
    ({"style": []}, "styles"),
])
def test_a_bad_file_is_refused_naming_the_entry_and_field(doc: object, names: str) -> None:
    with pytest.raises(TunedStylesError, match=re.escape(names)):
        parse_tuned(doc)


def test_an_unreadable_file_names_itself(tmp_path: Path) -> None:
    bad = tmp_path / "tuned.yaml"
    bad.write_text("styles: [\n", encoding="utf-8")
    with pytest.raises(TunedStylesError, match=re.escape("tuned.yaml")):
        load_tuned(bad)


def test_a_tuned_style_plays_only_its_seat_and_scenario(tmp_path: Path) -> None:
    path = tmp_path / "tuned.yaml"
    path.write_text("styles:\n  - {seat: csa, scenario: boc/day1, weights: {close_in: -1.0},"
                    " source: a test}\n", encoding="utf-8")
    doctrine = tuned_doctrine(path)
    game = new_game("boc/day1", seed=3)
    csa, usa = game.view("csa"), game.view("usa")
    assert doctrine.style_for(csa) == replace(general_style("csa", "boc/day1"), close_in=-1.0)
    assert doctrine.style_for(usa) == general_style("usa", "boc/day1")
    day2 = new_game("boc/day2", seed=3).view("csa")
    assert doctrine.style_for(day2) == general_style("csa", "boc/day2")


def test_a_day_entry_plays_its_days_and_comes_before_the_scenarios_own(
        tmp_path: Path) -> None:
    """In the battle an entry with ``days`` plays those days; on the others the entry of
    the same seat and scenario without days, else the general's style."""
    path = tmp_path / "tuned.yaml"
    path.write_text(
        "styles:\n"
        "  - {seat: csa, scenario: boc/battle, days: [1], weights: {decay: 0.55},"
        " source: a test}\n"
        "  - {seat: csa, scenario: boc/battle, weights: {hold: 0.2}, source: a test}\n"
        "  - {seat: usa, scenario: boc/battle, days: [2, 3], weights: {take: 0.4},"
        " source: a test}\n", encoding="utf-8")
    doctrine = tuned_doctrine(path)
    view = new_game("boc/battle", seed=3).view("csa")
    assert view["day"] == 1
    base = general_style("csa", "boc/battle")
    assert doctrine.style_for(view) == replace(base, decay=0.55)
    assert doctrine.style_for(dict(view, day=2)) == replace(base, hold=0.2)
    usa = dict(view, seat="usa")
    assert doctrine.style_for(usa) == general_style("usa", "boc/battle")
    assert doctrine.style_for(dict(usa, day=3)) == replace(general_style("usa", "boc/battle"),
                                                           take=0.4)


def test_general_tuned_plays_the_tuned_doctrine_without_searching(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``general-tuned`` is the general on the system's "tuned" doctrine: that doctrine's
    best action at every decision, even with a budget to search; a variant the system
    lacks is refused by name."""
    odd = BocDoctrine(Style(close_in=-3.0, shelter_weight=0.0))
    monkeypatch.setitem(doctrines._NAMED, ("boc", "tuned"), odd)
    agents = {seat: make_agent("general-tuned", "1", "boc") for seat in ("usa", "csa")}
    game = new_game("boc/day1", seed=4)
    rng = random.Random(0)
    for _ in range(150):
        seat = game.to_move()[0]
        view = game.view(seat)
        legal = view["legal_actions"]
        mine = agents[seat].choose(view, legal, 2.0, rng)
        assert mine == legal[best_index(odd.scores(view, legal), legal)]
        game.apply(mine, seat)
    for agent in agents.values():
        assert isinstance(agent, GeneralAgent) and agent.doctrine == "tuned"
    view = new_game("boc/day1", seed=3).view("csa")
    with pytest.raises(ValueError, match=r"doctrine='cunning'.*tuned"):
        GeneralAgent("1", doctrine="cunning").choose(view, view["legal_actions"], 0.0, rng)
