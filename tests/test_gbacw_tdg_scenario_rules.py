"""Scenario special rules in the engine (004 sc.1-sc.3; gbacw/scenario_step.py)."""

from __future__ import annotations

from typing import Any

import pytest

from gettysburg.gbacw import efficiency, scenario_step
from gettysburg.gbacw.game import GbacwGame

NEXT_TO_LIMIT = "CS-I:2 SC"  # Kershaw's 2nd South Carolina starts one hex south of the line
ESHLEMAN = "CS-I:WA 1"  # the Washington Artillery starts north of it (004 sc.3)


def raw_reach(g: GbacwGame, key: str, monkeypatch: pytest.MonkeyPatch) -> set[Any]:
    with monkeypatch.context() as m:
        m.setattr(scenario_step, "filter_reach", lambda game, k, found: found)
        g._memo.clear()
        out = {h for h, _f in g.reach(key)}
    g._memo.clear()
    return out


def test_little_round_top_north_limit_tdg_sc3(monkeypatch: pytest.MonkeyPatch) -> None:
    """004 sc.3: no unit moves onto row 12 of sheet C or north of it."""
    g = GbacwGame("little-round-top", seed=1)
    bad = scenario_step.forbidden_hexes(g)
    assert len(bad) > 100
    assert all(g.cat.board.codec.local(h, "C") is not None for h in list(bad)[:20])
    raw = raw_reach(g, NEXT_TO_LIMIT, monkeypatch)
    assert raw & bad, "the test needs a unit that could reach the forbidden rows"
    kept = g.reach(NEXT_TO_LIMIT)
    assert kept
    assert not any(h in bad for h, _f in kept)
    assert not any(h in bad for r in kept.values() for h, _f in r.path)


def test_a_unit_starting_on_the_forbidden_ground_may_move_tdg_sc3(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """004 sc.3: Eshleman's battalion starts there and follows its road off it."""
    g = GbacwGame("little-round-top", seed=1)
    assert g.hex_of(g.pos.units[ESHLEMAN].hex) in scenario_step.forbidden_hexes(g)
    assert {h for h, _f in g.reach(ESHLEMAN)} == raw_reach(g, ESHLEMAN, monkeypatch)


def test_scenarios_without_the_rule_are_unchanged() -> None:
    g = GbacwGame("herr-ridge", seed=1)
    assert scenario_step.forbidden_hexes(g) == frozenset()


def test_third_west_virginia_may_neither_charge_nor_dismount_tdg_sc1() -> None:
    """004 sc.1: the 3rd West Virginia is flagged unfit in the OOB."""
    g = GbacwGame("herr-ridge", seed=1)
    wv = next(k for k in g.pos.units if k.endswith(":3 WV"))
    assert scenario_step.no_charge(g, wv) and scenario_step.no_dismount(g, wv)
    other = next(k for k in g.pos.units if k != wv and k.startswith("US-"))
    assert not scenario_step.no_charge(g, other)


def union_out_of_command(g: GbacwGame) -> list[str]:
    return [x for k in scenario_step.OUT_OF_COMMAND for x in g.pos.command.get(k, [])
            if x.startswith("US-")]


def test_little_round_top_every_union_unit_in_command_tdg_sc3(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """004 sc.3: no Union corps commander starts on the map, yet every Union unit counts as
    in command for the whole scenario."""
    g = GbacwGame("little-round-top", seed=1)
    assert scenario_step.all_in_command(g, "usa") and not scenario_step.all_in_command(g, "csa")
    assert union_out_of_command(g) == []
    with monkeypatch.context() as m:  # without the rule the chain would leave some out
        m.setattr(scenario_step, "command_status", lambda game, seat, mine: None)
        h = GbacwGame("little-round-top", seed=1)
        assert union_out_of_command(h) != []


def test_mclaws_off_map_counts_through_longstreets_range_tdg_sc3(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """004 sc.3: McLaws is off the map; with his units within Longstreet's command range his
    absence is ignored for his division's AMs (here 3 instead of 2 at the start)."""
    g = GbacwGame("little-round-top", seed=1)
    with monkeypatch.context() as m:
        m.setattr(scenario_step, "proxy_standing", lambda game, st: st)
        m.setattr(scenario_step, "proxy_chain", lambda game, seat, mine: None)
        h = GbacwGame("little-round-top", seed=1)
    assert g.pos.ams["CS-McLaws/I"] == 3 and h.pos.ams["CS-McLaws/I"] == 2
    st = efficiency.DivisionStanding("CS-McLaws/I", leader_on_map=False, in_corps_range=False)
    near = scenario_step.proxy_standing(g, st)
    assert near.leader_on_map and near.in_corps_range
    # Longstreet far away: McLaws counts as out of his range
    far = max(g.cat.board.hexes, key=lambda x: x.distance(
        g.hex_of(g.pos.leaders["longstreet"]) or x))
    g.pos.leaders["longstreet"] = g.cat.board.hexes[far].id
    g._memo.clear()
    out = scenario_step.proxy_standing(g, st)
    assert out.leader_on_map and not out.in_corps_range
    other = efficiency.DivisionStanding("CS-Hood/I")
    assert scenario_step.proxy_standing(g, other) == other
