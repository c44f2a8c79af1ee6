"""The GBACW general's public ground (gbacw/ai/ground.py, issue 54): the distance fields
over integer-numbered hexes give, hex for hex, the MP of a plain Dijkstra over the hexes
themselves (the search as first written), on the Battle's three sheets and on one."""

from __future__ import annotations

import heapq
import math

import pytest

from gettysburg.core.hexes import DIRECTIONS, Hex
from gettysburg.gbacw.ai.ground import _grid, distance_field, objectives, parse


def plain_field(goal: Hex, sheets: tuple[str, ...]) -> dict[Hex, float]:
    """The reference: Dijkstra keyed by Hex, each step priced when it is walked."""
    enter, sides = _grid(sheets)
    out: dict[Hex, float] = {goal: 0.0}
    todo: list[tuple[float, int, int]] = [(0.0, goal.q, goal.r)]
    while todo:
        d, q, r = heapq.heappop(todo)
        here = Hex(q, r)
        if d > out.get(here, math.inf):
            continue
        for dv in DIRECTIONS:
            n = here + dv
            if n not in enter:
                continue
            step = enter[here]
            found = sides.get((n, here))
            if found is not None:
                step = (min(step, 1.0) if found[0] else step) + found[1]
            if d + step < out.get(n, math.inf):
                out[n] = d + step
                heapq.heappush(todo, (d + step, n.q, n.r))
    return out


@pytest.mark.parametrize(("scenario", "goal"), [("battle", "C2118"), ("battle", "B3821"),
                                                ("herr-ridge", None)])
def test_distance_field_matches_the_plain_search(scenario: str, goal: str | None) -> None:
    obj = objectives(scenario)
    g = parse(goal) if goal else obj.hexes[0]
    assert distance_field(g, obj.sheets) == plain_field(g, obj.sheets)


def test_a_goal_off_the_sheets_has_no_field() -> None:
    with pytest.raises(KeyError):
        distance_field(parse("C2118"), ("A",))
