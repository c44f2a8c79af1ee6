"""Helpers for the GBACW general's tests on hand-built views (tests/test_gbacw_ai_*.py):
a hex's printed id and a hex some steps away in one direction."""

from __future__ import annotations

from gettysburg.core.hexes import Hex
from gettysburg.gbacw.ai.ground import board


def hid(h: Hex) -> str:
    """The printed id of ``h`` (e.g. "A2413")."""
    return board().hexes[h].id


def away(h: Hex, d: int, n: int) -> Hex:
    """The hex ``n`` steps from ``h`` in direction ``d``."""
    for _ in range(n):
        h = h.neighbour(d)
    return h
