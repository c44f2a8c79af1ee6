"""The Universal Disorder Die (002 §2.6) with its modifiers (§12.32, §11.73; decision E-10).

A unit passes when the d10 (0..9), plus any DRM the result names (``d+2``) and less the
stars of the leaders stacked with it over its command, is at most its cohesion — the
disordered cohesion when the unit is already disordered (§12.31).

A Hero marker (004 §18.0 P; decision E-33) may move a UDD by 2: every UDD goes through
:func:`udd`, so the game binds a player of the markers to its dice while it carries out an
action (:func:`bind_hero`, from ``lasting``), and only rolls of those dice are offered to it
(a preview on other dice spends nothing).
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar, Token
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
    hero: int = 0  # 004 §18.0 P: the played Hero marker's shift (-2 or +2), 0 when none
    hero_seat: str | None = None  # who played it

    @property
    def modified(self) -> int:
        return self.roll + self.drm - self.leader_stars + self.hero

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "unit": self.unit, "purpose": self.purpose, "rule": self.rule,
            "roll": self.roll, "drm": self.drm, "leader_stars": self.leader_stars,
            "modified": self.modified, "cohesion": self.cohesion, "passed": self.passed}
        if self.hero:  # only when played, so records without one read as before
            out["hero"] = {"seat": self.hero_seat, "shift": self.hero, "rule": "tdg.18.0"}
        return out


#: what may change a UDD once rolled: a Hero marker's player (004 §18.0 P)
HeroPlay = Callable[[UddRoll], UddRoll]
_HERO: ContextVar[tuple[Dice, HeroPlay] | None] = ContextVar("gbacw_udd_hero", default=None)


def bind_hero(dice: Dice, play: HeroPlay) -> Token[tuple[Dice, HeroPlay] | None]:
    """004 §18.0 P: offer every UDD rolled with ``dice`` to ``play`` until
    :func:`unbind_hero` (the game does so around each action it carries out)."""
    return _HERO.set((dice, play))


def unbind_hero(token: Token[tuple[Dice, HeroPlay] | None]) -> None:
    """Unbind the Hero markers bound for an action's UDDs (004 §18.0 P)."""
    _HERO.reset(token)


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
    r = UddRoll(unit, purpose, rule, roll, drm, leader_stars, cohesion,
                udd_passes(roll, cohesion, drm, leader_stars))
    bound = _HERO.get()
    return bound[1](r) if bound is not None and bound[0] is dice else r
