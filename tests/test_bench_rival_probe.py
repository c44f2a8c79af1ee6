"""``benchmarks/rival_probe.py``: a style's rival destination judged at the decision, on
the same worlds and dice as the doctrine's."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "benchmarks"))

from rival_probe import probe


def test_the_probe_finds_a_style_rival_and_judges_it_on_common_worlds() -> None:
    found = probe("hunter", "csa", games=1, per_game=1, worlds=3, seed=20000,
                  horizons=("reply",))
    assert len(found) == 1
    where, gains = found[0].where, found[0].gains
    assert where.startswith("game 0 ") and "csa-" in where and " -> " in where
    doctrine_hex, rival_hex = where.rsplit(" ", 3)[1], where.rsplit(" ", 1)[1]
    assert doctrine_hex != rival_hex
    mean, se = gains["reply"]
    assert se >= 0.0 and abs(mean) < 100.0  # no world won or lost the game outright
    # The same position and worlds give the same figures (seeded, clock-free).
    again = probe("hunter", "csa", games=1, per_game=1, worlds=3, seed=20000,
                  horizons=("reply",))
    assert again[0].gains == gains
    # A style the portfolio lacks is never a rival.
    assert probe("no-such-style", "csa", games=1, per_game=1, worlds=1, seed=20000,
                 horizons=("reply",)) == []
