"""The search variants that ``benchmarks/search_plan_trials.py`` measures are the agent
they vary with only the settings they name changed."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "benchmarks"))

from search_plan_trials import PAIRED, VARIANTS, variant

from gettysburg.ai.agent import make_agent, random_stream
from gettysburg.ai.search import FIRE, MoveSearchAgent, SearchAgent


def _settings(agent: Any) -> dict[str, Any]:
    assert isinstance(agent, SearchAgent)
    return agent.settings()


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_a_variant_changes_only_what_it_names(name: str) -> None:
    base, settings = VARIANTS[name]
    agent, plain = make_agent(name, 3), base("3")
    assert isinstance(agent, base) and agent.name == name
    mine, theirs = _settings(agent), _settings(plain)
    changed = {k for k in mine if mine[k] != theirs[k]}
    assert changed == {k for k, v in settings.items() if theirs[k] != v}
    assert all(mine[k] == v for k, v in settings.items())


def test_the_fire_and_endgame_variant_sets_both() -> None:
    agent = make_agent("search-move-fire-end", 1)
    assert isinstance(agent, MoveSearchAgent) and agent.move_plans
    assert agent.move_horizon == FIRE and agent.endgame


def test_a_misspelt_setting_is_refused() -> None:
    with pytest.raises(AttributeError, match="move_horizn"):
        variant("search-typo", MoveSearchAgent, {"move_horizn": FIRE})
    # a counter is no setting either: the variant would measure the base agent
    with pytest.raises(AttributeError, match="searched"):
        variant("search-typo", MoveSearchAgent, {"searched": 1})


@pytest.mark.parametrize("name", sorted(PAIRED))
def test_a_paired_variant_is_its_variant_on_the_base_agents_numbers(name: str) -> None:
    of = PAIRED[name]
    base, _ = VARIANTS[of]
    paired, plain = make_agent(name, 3), make_agent(of, 3)
    assert _settings(paired) == _settings(plain) and type(paired).__mro__[1] is base
    # the numbers the base draws (its own, or search-move's for search-move-still)
    assert random_stream(paired, name) == random_stream(base("3"), base.name) \
        == "search-move"
    assert random_stream(plain, of) == of
