"""Issue 58: the fog keeps a block that leaves the map (2.4) anonymous when it comes back,
and a seed a player chose fixes the dice, never the handles (docs/security.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from test_boc_engine_movement import _leave_and_wait_for_the_night, enters

from gettysburg.boc.fog import unit_handle
from gettysburg.boc.game import BocGame


def _hidden_handles(g: BocGame, seat: str) -> set[str]:
    return {str(h["handle"]) for h in g.view(seat)["hidden"]}


def _redacted_units(g: BocGame, start: int) -> list[Any]:
    return [e.redacted.get("unit") for e in g.log[start:] if e.redacted]


def test_a_block_back_from_off_the_map_has_a_new_handle(tmp_path: Path) -> None:
    """On the table a block that comes back on shows the same back as its fellows: under
    its old handle the enemy would know which block returned where."""
    g = _leave_and_wait_for_the_night(tmp_path, {"last_day": 3})
    harrow = g.state.units["usa-harrow"]
    # The handle it showed before it left (the leave_map event's redacted unit).
    left = next(e for e in g.log if e.type == "leave_map")
    assert left.redacted is not None
    before = str(left.redacted["unit"])
    back = enters(g, "usa-harrow")
    assert back, "the block may come back in this night turn"
    start = len(g.log)
    g.apply(back[0], "usa")
    after = unit_handle(g.key, harrow)
    assert after != before
    assert before not in _hidden_handles(g, "csa") and after in _hidden_handles(g, "csa")
    assert before not in _redacted_units(g, start) and after in _redacted_units(g, start)
