"""Line of sight and cones (5.31, 5.33) on hand-built positions."""

from __future__ import annotations

import pytest

from boc_boards import make_board
from gettysburg.boc.board import BOC, BoardError
from gettysburg.boc.los import cone_targets, line_of_sight

P = BOC.parse

# The 5.3 diagram: Q10 (the Peach Orchard) fires through its R11 hexside.
# R12 same level, clear; S12 and T12 same level, woods; S11, S13, T13 lower.
DIAGRAM = {
    "Q10": ("orchard", 1),
    "R11": ("clear", 1),
    "R12": ("clear", 1),
    "S12": ("woods", 1),
    "T12": ("woods", 1),
    "S11": ("clear", 0),
    "S13": ("clear", 0),
    "T13": ("clear", 0),
    "R10": ("orchard", 1),  # the orchard north-east of S11 (5.3 fire-path box)
}


@pytest.fixture
def diagram():  # type: ignore[no-untyped-def]
    return make_board(DIAGRAM, fill_radius=4)


def test_cone_targets_are_the_seven_diagram_hexes(diagram) -> None:  # type: ignore[no-untyped-def]
    got = sorted(BOC.format(h) for h in cone_targets(diagram, P("Q10"), P("R11")))
    assert got == ["R11", "R12", "S11", "S12", "S13", "T12", "T13"]


@pytest.mark.parametrize(
    ("target", "visible", "d2"),
    [
        ("R11", True, False),  # short range: no LOS needed
        ("R12", True, False),  # same level, nothing in between
        ("S12", True, True),  # same level, woods: double defence
        ("T12", True, True),
        ("S11", True, False),  # lower, not hidden by the orchard NE of it
        ("S13", False, False),  # lower, behind R12 and S12
        ("T13", False, False),
    ],
)
def test_diagram_verdicts(diagram, target: str, visible: bool, d2: bool) -> None:  # type: ignore[no-untyped-def]
    s = line_of_sight(diagram, P("Q10"), P(target), P("R11"))
    assert s.visible is visible, s.reason
    assert s.target_double_defence is d2


def test_s13_is_blocked_by_the_higher_ground_of_r12_and_s12(diagram) -> None:  # type: ignore[no-untyped-def]
    s = line_of_sight(diagram, P("Q10"), P("S13"), P("R11"))
    assert set(s.blocked_by) == {"R12", "S12"}
    assert "5.33" in s.reason


def test_t12_is_seen_past_the_woods_of_s12_through_s11(diagram) -> None:  # type: ignore[no-untyped-def]
    s = line_of_sight(diagram, P("Q10"), P("T12"), P("R11"))
    assert s.path == ["R11", "S11", "T12"]


def test_target_higher_sees_over_an_obstacle_next_to_it() -> None:
    # Firer at base, target on a hill (2); a rise (1) hex right below the target
    # is nearer the higher end: LOS. Move the rise next to the firer: blocked.
    near_target = make_board(
        {"Q10": ("clear", 0), "R11": ("clear", 0), "S12": ("clear", 1), "T13": ("clear", 2)},
        fill_radius=4,
    )
    assert line_of_sight(near_target, P("Q10"), P("T13"), P("R11")).visible
    near_firer = make_board(
        {"Q10": ("clear", 0), "R11": ("clear", 1), "S12": ("clear", 0), "T13": ("clear", 2)},
        fill_radius=4,
    )
    s = line_of_sight(near_firer, P("Q10"), P("T13"), P("R11"))
    assert not s.visible and s.blocked_by == ["R11"]


def test_equidistant_obstacle_does_not_block() -> None:
    # Range 2: the front hex is 1 from both ends; rise between base and hill.
    b = make_board({"Q10": ("clear", 2), "R11": ("clear", 1), "S12": ("clear", 0)}, fill_radius=3)
    assert line_of_sight(b, P("Q10"), P("S12"), P("R11")).visible


def test_obstacle_above_both_ends_always_blocks() -> None:
    b = make_board({"Q10": ("clear", 1), "R11": ("woods", 1), "S12": ("clear", 0)}, fill_radius=3)
    s = line_of_sight(b, P("Q10"), P("S12"), P("R11"))
    assert not s.visible and s.blocked_by == ["R11"]


def test_out_of_range_and_out_of_cone(diagram) -> None:  # type: ignore[no-untyped-def]
    assert not line_of_sight(diagram, P("Q10"), P("U14")).visible
    s = line_of_sight(diagram, P("Q10"), P("S11"), P("Q11"))
    assert not s.visible and "cone" in s.reason


def test_cone_needs_an_adjacent_hexside(diagram) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(BoardError, match=r"5\.31"):
        cone_targets(diagram, P("Q10"), P("S12"))


def test_without_a_hexside_any_cone_holding_the_target_is_tried(diagram) -> None:  # type: ignore[no-untyped-def]
    s = line_of_sight(diagram, P("Q10"), P("S12"))
    assert s.visible and s.through == "R11"
