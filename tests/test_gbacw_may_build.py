"""004 sc.5.5: on Third Day the Union places its 45 ready-made breastworks and builds no more
(the scenario's ``may_build: false``); on Second Day (sc.4.5) both sides build under the normal
rules (002 §15.11-15.13). engineering_step.builds_barred, build_options, check_build."""

from __future__ import annotations

import pytest

from gettysburg.core.protocol import RuleError
from gettysburg.gbacw import engineering_step
from gettysburg.gbacw.game import GbacwGame
from gettysburg.gbacw.kinds import unit_class


def _to_order(scenario: str, seat: str) -> GbacwGame:
    g = GbacwGame(scenario, seed=1)
    while g.to_move() != [seat]:
        g.apply({"type": "end_orders"}, g.to_move()[0])
    assert g.pos.phase == "orders"
    return g


def _an_infantry(g: GbacwGame, seat: str) -> str:
    return next(k for k, u in sorted(g.pos.units.items()) if u.seat == seat
                and u.hex is not None and unit_class(g.counter(k)) == "infantry")


def test_third_day_union_builds_no_more_sc_5_5() -> None:
    g = _to_order("third-day", "usa")
    assert engineering_step.builds_barred(g, "usa")
    assert not engineering_step.builds_barred(g, "csa")  # no such line for the Confederacy
    legal = g.legal_actions("usa")
    assert not [a for a in legal if a["type"] == "build"]
    assert [a for a in legal if a["type"] == "place_works"]  # its 45 markers, still to place
    act = {"type": "build", "unit": _an_infantry(g, "usa"),
           "facing": {"kind": "vertex", "index": 0}}
    with pytest.raises(RuleError) as e:
        g.validate(act, "usa")
    assert e.value.rule == "tdg.sc.5.5"


def test_second_day_union_builds_as_the_normal_rules_sc_4_5() -> None:
    g = _to_order("second-day", "usa")
    assert not engineering_step.builds_barred(g, "usa")
    built = [a for a in g.legal_actions("usa") if a["type"] == "build"]
    assert built
    g.apply(built[0], "usa")
    assert [c["unit"] for c in g.pos.constructions] == [built[0]["unit"]]
