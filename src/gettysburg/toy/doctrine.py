"""The toy system's doctrine: what the ``general`` plays in the fast tests."""

from __future__ import annotations

from collections.abc import Sequence

from gettysburg.core.canonical import JSONDict
from gettysburg.core.protocol import Action


class ToyDoctrine:
    """The toy system (:mod:`gettysburg.toy.game`): attack with the strongest block, take
    hits on the strongest block (it survives them best), keep blocks hidden."""

    def scores(self, view: JSONDict, legal: Sequence[Action]) -> list[float]:
        blocks = view.get("blocks") or {}

        def strength(a: Action) -> float:
            b = blocks.get(str(a.get("block", ""))) or {}
            return float(b.get("strength", 0))

        def score(a: Action) -> float:
            kind = a.get("type")
            if kind == "attack":
                return 1.0 + strength(a)
            if kind == "assign":
                return strength(a)
            return -1.0 if kind == "reveal" else 0.0

        return [score(a) for a in legal]

    def evaluate(self, view: JSONDict) -> float:
        seat = view.get("seat")
        return sum(float(b.get("strength", 0)) * (1 if b.get("side") == seat else -1)
                   for b in (view.get("blocks") or {}).values() if "strength" in b)
