"""``facts_for``: a shipped scenario's board facts kept by its name (the doctrine asks at
every decision, issue 59); a scenario file's looked up through its file as before."""

from __future__ import annotations

from pathlib import Path

from boc_engine_boards import board_doc, write_position
from gettysburg.boc.ai import facts
from gettysburg.boc.ai.facts import facts_for, map_facts
from gettysburg.boc.game import board_for


def test_a_shipped_scenario_gives_the_facts_of_its_board_each_time() -> None:
    got = facts_for({"source": "day1"})
    assert got is facts_for({"source": "day1"}) is facts_for({"scenario": "boc/day1"})
    assert got.board is board_for("day1")
    assert got is map_facts(board_for("day1"))
    assert facts_for({"source": "battle"}).board is board_for("battle")


def test_a_scenario_file_is_read_through_its_file(tmp_path: Path) -> None:
    path = write_position(tmp_path, {"usa": [("K5", ["usa-harrow"])],
                                     "csa": [("K9", [("csa-kemper", 2)])]},
                          board=board_doc({"K7": {"victory": 3}}), bands=(4, 0),
                          engine={"phase": "movement", "active": "usa",
                                  "order": ["usa", "csa"]}, name="custom")
    got = facts_for({"source": str(path)})
    assert got.board is board_for(str(path))
    assert got.victory == {"K7": 3}
    assert str(path) not in facts._SHIPPED  # its file may change: asked each time


def test_an_unknown_scenario_gives_the_shipped_board() -> None:
    assert facts_for({"source": "no-such-scenario"}) is map_facts()
