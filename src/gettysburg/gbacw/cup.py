"""Drawing blind from a cup (the activation-marker pool, 002 §5.3; the efficiency markers,
§5.21; a random event's markers set aside, 004 §18.0) with the game's d10s."""

from __future__ import annotations

from gettysburg.core.dice import Dice


def uniform_index(dice: Dice, n: int, purpose: str, rule: str) -> int:
    """A uniform index in 0..n-1 from d10s read as the digits of a number, the top of the
    range rejected and rolled again, so that every index is equally likely; each roll is
    logged under ``purpose`` and ``rule``. The cup's order exists nowhere before the draw.
    (002 §5.3, §5.21; 004 §18.0)."""
    digits = len(str(max(0, n - 1)))
    span = 10 ** digits
    limit = span - span % n
    while True:
        v = 0
        for _ in range(digits):
            v = v * 10 + dice.roll(purpose, rule, die="d10")
        if v < limit:
            return v % n
