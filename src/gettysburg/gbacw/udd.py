"""The Universal Disorder Die (002 §2.6) with its modifiers (§12.32, §11.73; decision E-10).

A unit passes when the d10 (0..9), plus any DRM the result names (``d+2``) and less the
stars of the leaders stacked with it over its command, is at most its cohesion — the
disordered cohesion when the unit is already disordered (§12.31).
"""

from __future__ import annotations

from dataclasses import dataclass

from gettysburg.core.dice import Dice


@dataclass(frozen=True, slots=True)
class UddRoll:
    """One UDD: who rolled, why, the die, the DRMs, the cohesion it was compared with."""

    unit: str
    purpose: str
    rule: str
    roll: int
    drm: int
    leader_stars: int
    cohesion: int
    passed: bool

    @property
    def modified(self) -> int:
        return self.roll + self.drm - self.leader_stars

    def to_json(self) -> dict[str, object]:
        return {"unit": self.unit, "purpose": self.purpose, "rule": self.rule,
                "roll": self.roll, "drm": self.drm, "leader_stars": self.leader_stars,
                "modified": self.modified, "cohesion": self.cohesion, "passed": self.passed}


def udd_passes(roll: int, cohesion: int, drm: int = 0, leader_stars: int = 0) -> bool:
    """002 §2.6: a modified roll equal to or below the cohesion passes."""
    if not 0 <= roll <= 9:
        raise ValueError(f"a d10 reads 0..9, not {roll}")
    if leader_stars < 0:
        raise ValueError("leader stars are >= 0")
    return roll + drm - leader_stars <= cohesion


def udd(
    dice: Dice,
    *,
    unit: str,
    cohesion: int,
    drm: int = 0,
    leader_stars: int = 0,
    purpose: str = "UDD",
    rule: str = "2.6",
) -> UddRoll:
    """Roll one UDD for ``unit`` (002 §2.6); ``rule`` names the section that called for it."""
    roll = dice.roll(f"{purpose}: {unit}", rule=rule, die="d10")
    return UddRoll(unit, purpose, rule, roll, drm, leader_stars, cohesion,
                   udd_passes(roll, cohesion, drm, leader_stars))
