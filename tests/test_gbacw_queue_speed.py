"""002 §9.72's barred entry hexes read by step ids (entry_step._crossing, a speed-up) answer
as reading every path's hexes, also when a path's steps are equal objects not shared with
the other paths."""

from __future__ import annotations

import random

from gettysburg.core.hexes import Hex
from gettysburg.gbacw import entry_step
from gettysburg.gbacw.facing import Facing
from gettysburg.gbacw.paths import Reach


def _reach(path: tuple[tuple[Hex, Facing], ...]) -> Reach:
    h, f = path[-1]
    return Reach(h, f, len(path), path, (), False, False, False)


def _plain(found: dict[tuple[Hex, Facing], Reach], barred: frozenset[Hex]) -> dict[
        tuple[Hex, Facing], bool]:
    return {k: any(h in barred for h, _ in r.path) for k, r in found.items()}


def test_crossing_answers_as_the_whole_paths_9_72() -> None:
    rng = random.Random(3)
    for trial in range(40):
        steps = [(Hex(q, r), Facing("side", d)) for q in range(6) for r in range(6)
                 for d in range(2)]
        found: dict[tuple[Hex, Facing], Reach] = {}
        for _ in range(30):
            path = tuple(rng.sample(steps, rng.randint(1, 8)))
            if rng.random() < 0.3:  # equal steps in new objects, not the shared ones
                path = tuple((Hex(h.q, h.r), Facing(f.kind, f.index)) for h, f in path)
            found[path[-1]] = _reach(path)
        barred = frozenset(Hex(rng.randrange(6), rng.randrange(6))
                           for _ in range(rng.randint(1, 3)))
        got = entry_step._crossing(found, barred)
        want = _plain(found, barred)
        if not any(want.values()):
            assert got == {}, trial
        else:
            assert got == want, trial
    # a barred hex off every path: nothing crosses
    one = (Hex(0, 0), Facing("side", 0))
    assert entry_step._crossing({one: _reach((one,))}, frozenset({Hex(9, 9)})) == {}
    assert entry_step._crossing({one: _reach((one,))}, frozenset({Hex(0, 0)})) == {one: True}
