"""Agents on a custom scenario file (a scenario YAML with its own ``engine:`` board): they
read that scenario's board, victory bands and set-up, never the shipped ones."""

from __future__ import annotations

import random
from pathlib import Path

from boc_engine_boards import board_doc, write_position
from gettysburg.ai import make_agent
from gettysburg.ai.search import SearchAgent
from gettysburg.boc.ai.belief import scenario_start
from gettysburg.boc.ai.doctrine import scenario_bands, strength_mix
from gettysburg.boc.ai.facts import facts_for, map_facts, scenario_source
from gettysburg.core.protocol import Game, new_game


def _custom(tmp: Path) -> Game:
    """USA Harrow at K5 and CSA Kemper at K9 on a clear board whose only victory hex is
    K7 (3 points), the USA to move in its movement phase; bands 4 and 0."""
    path = write_position(tmp, {"usa": [("K5", ["usa-harrow"])],
                                "csa": [("K9", [("csa-kemper", 2)])]},
                          board=board_doc({"K7": {"victory": 3}}), bands=(4, 0),
                          engine={"phase": "movement", "active": "usa",
                                  "order": ["usa", "csa"]}, name="custom")
    return new_game(f"boc/{path}", seed="custom")


def test_the_view_names_its_source_and_the_agents_read_that_scenario(tmp_path: Path) -> None:
    game = _custom(tmp_path)
    view = game.view("usa")
    assert view["scenario"] == "test/custom"  # the file's id names no file ...
    assert scenario_source(view) == str(tmp_path / "custom.yaml")  # ... its source does
    assert new_game("boc/day1", seed=1).view("usa")["source"] == "day1"
    facts = facts_for(view)
    assert facts.victory == {"K7": 3} and facts is not map_facts()
    assert facts is facts_for(game.view("csa"))  # made once per board
    assert facts_for(new_game("boc/day1", seed=1).view("usa")) is map_facts()
    assert scenario_bands(scenario_source(view)) == (0, 4)
    assert strength_mix(scenario_source(view), "csa") == ((2, 1.0),)
    start = scenario_start(view)["position"]["units"]
    assert {u for u, s in start.items() if s.get("status") == "on_map"} == {
        "usa-harrow", "csa-kemper"}


def test_the_general_heads_for_the_custom_boards_victory_hex(tmp_path: Path) -> None:
    """On the shipped board K7 is no objective; here it is the only one."""
    game = _custom(tmp_path)
    view = game.view("usa")
    choice = make_agent("general").choose(view, game.legal_actions("usa"), 0.0,
                                          random.Random(0))
    assert choice["type"] == "move" and choice["unit"] == "usa-harrow", choice
    assert choice["path"][-1] in ("K6", "K7"), choice  # towards K7 (ZOC of K9 at K8)


def test_search_plays_worlds_of_the_custom_scenario(tmp_path: Path) -> None:
    game = _custom(tmp_path)
    agent = SearchAgent("1")
    for _ in range(6):
        seat = game.to_move()[0]
        view = game.view(seat)
        choice = agent.choose(view, game.legal_actions(seat), 0.3, random.Random(1)) \
            if seat == "usa" else make_agent("general").choose(
                view, game.legal_actions(seat), 0.0, random.Random(1))
        game.apply(choice, seat)
    assert agent.styles and agent.stats()["failed_rollouts"] == 0, agent.stats()


def test_facts_are_kept_for_the_boards_used_last_only(tmp_path: Path) -> None:
    import gettysburg.boc.ai.facts as facts_mod

    shipped = map_facts()
    boards = []
    for k in range(facts_mod.FACTS_KEPT + 2):
        doc = board_doc({f"K{k + 2}": {"victory": 1}})
        path = write_position(tmp_path, {"usa": [("K5", ["usa-harrow"])]}, board=doc,
                              name=f"b{k}")
        boards.append(facts_for(new_game(f"boc/{path}", seed=1).view("usa")))
        assert map_facts() is shipped  # used at every turn: never dropped
    assert len(facts_mod._FACTS) <= facts_mod.FACTS_KEPT
    assert boards[-1].victory == {f"K{facts_mod.FACTS_KEPT + 3}": 1}
    assert map_facts(boards[-1].board) is boards[-1]  # still kept
    assert map_facts(boards[0].board) is not boards[0]  # dropped, made again
