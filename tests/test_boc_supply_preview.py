"""The supply preview (issue 57; 8.1-8.4): selecting an HQ in a supply phase lights the
blocks it would supply, says why its others are out, and warns before an activation that
supplies nobody; by night the pool's reach is shown instead."""

from __future__ import annotations

import json

from gettysburg.boc.explain import preview
from gettysburg.core.protocol import Game, new_game


def _supply_phase(seed: int = 1) -> tuple[Game, str]:
    g = new_game("boc/day1", seed=seed)
    for _ in range(30):
        if g.state.phase == "supply":  # type: ignore[attr-defined]
            return g, g.to_move()[0]
        g.apply({"type": "end_phase"}, g.to_move()[0])
    raise AssertionError("no supply phase")


def test_an_hq_whose_blocks_are_all_full_supplies_nobody_and_is_warned_8_3() -> None:
    g, seat = _supply_phase()
    assert seat == "csa"
    seen = preview(g, seat, "csa-heth")
    assert seen is not None
    assert seen["lit"] == []
    assert seen["out"] == {"csa-archer": "at full strength (8.3)",
                           "csa-davis": "at full strength (8.3)"}
    assert "Heth would lose a step and have 1 SP (8.1, 8.2)" in seen["note"]
    assert seen["warn"] and "supplies no block" in seen["warn"]
    assert seen["warn_for"] == [{"type": "supply_activate", "hq": "csa-heth"}]
    assert "usa-" not in json.dumps(seen)  # only the seat's own blocks are named


def test_a_block_below_strength_in_range_is_lit_and_stays_lit_once_active_8_2() -> None:
    g, seat = _supply_phase()
    g.state.units["csa-archer"].strength -= 1  # type: ignore[attr-defined]
    seen = preview(g, seat, "csa-heth")
    assert seen is not None and seen["lit"] == ["csa-archer"] and seen["warn"] is None
    assert "for Archer (8.3)" in seen["note"]
    g.apply({"type": "supply_activate", "hq": "csa-heth"}, seat)
    active = preview(g, seat, "csa-heth")
    assert active is not None
    assert active["lit"] == ["csa-archer"] and active["warn_for"] == []
    assert active["note"].startswith("Heth has 1 SP left and may supply Archer")
    # The preview agrees with the rules: the lit block is what the legal actions supply.
    legal = {a["unit"] for a in g.legal_actions(seat) if a["type"] == "supply"}
    assert legal == set(active["lit"])
    g.apply({"type": "supply", "hq": "csa-heth", "unit": "csa-archer", "steps": 1}, seat)
    spent = preview(g, seat, "csa-heth")
    assert spent is not None and spent["lit"] == []
    assert spent["out"]["csa-archer"] == "at full strength (8.3)"


def test_a_block_out_of_range_is_named_with_the_range_4_5() -> None:
    g, seat = _supply_phase()
    st = g.state  # type: ignore[attr-defined]
    st.units["csa-davis"].strength -= 1
    st.units["csa-davis"].hex = "A14"  # far from Heth, on the map's edge
    seen = preview(g, seat, "csa-heth")
    assert seen is not None and "csa-davis" not in seen["lit"]
    assert seen["out"]["csa-davis"] == "out of Heth's command range of 1 (4.5, 8.3)"


def test_no_preview_for_a_non_hq_another_seat_or_outside_the_supply_phase() -> None:
    g, seat = _supply_phase()
    assert preview(g, seat, "csa-archer") is None
    assert preview(g, "usa", "usa-buford") is None  # not the Union's decision
    fresh = new_game("boc/day1", seed=1)
    assert fresh.state.phase == "command"  # type: ignore[attr-defined]
    assert preview(fresh, "csa", "csa-archer") is None
