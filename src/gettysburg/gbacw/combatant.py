"""What shock, retreat, rout and rally need to know of a unit: a small record and the
disorder check they all roll (002 §2.6, §11.73, §12.31-12.36).

These modules are pure: the engine builds :class:`Combatant` records from its state,
calls the rule functions, and applies the records they return.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from gettysburg.core.dice import Dice
from gettysburg.core.hexes import Hex

from .charts import all_charts
from .extension import column_aspect
from .facing import Aspect, Facing, aspect_of, front_hexes
from .udd import UddRoll, udd

ShockClass = Literal["infantry", "mounted_cavalry", "artillery"]
Orders = Literal["march", "advance", "attack"]


@dataclass(frozen=True, slots=True)
class Combatant:
    """One unit as combat sees it.

    ``hexes`` holds one hex, or two or three for an extended line (002 §8.4), left to
    right. ``sp`` is the present strength (guns for artillery); ``cohesion`` the value of
    the face it shows (the disordered one when ``disordered``). ``leader_stars`` sums the
    stars of the leaders of its command stacked with it (002 §11.73, decision E-10);
    ``fatigue`` the number on its brigade's fatigue marker (``fatigue.level``; half of it,
    rounded up, is the DRM of §17.31).
    """

    unit: str
    side: str
    hexes: tuple[Hex, ...]
    facing: Facing
    kind: ShockClass
    sp: int
    cohesion: int
    brigade: str = ""
    orders: Orders = "advance"
    disordered: bool = False
    dismounted_cavalry: bool = False
    green: bool = False
    moved: bool = False  # moved in this action phase (002 §11.21, §11.43)
    fired: bool = False
    charging: bool = False  # a cavalry charge under way (002 §11.53)
    blown: bool = False  # 002 §11.58
    collapsed: bool = False  # 002 §12.23
    abandoned: bool = False  # artillery: abandoned guns (002 §12.8)
    leader_stars: int = 0
    with_brigadier: bool = False
    aggressive_brigadier: bool = False
    fatigue: int = 0
    cohesion_disordered: int | None = None  # the back's value, for checks after a disorder
    printed_sp: int = 0  # the counter's strength, for collapse (§12.23); 0: not known
    # an extended column (002 §8.5): ``hexes`` holds its lead, then its trail; one solid
    # unit in shock, with one front and one rear hex (§8.51)
    column: bool = False

    def __post_init__(self) -> None:
        if not 1 <= len(self.hexes) <= 3:
            raise ValueError(f"{self.unit}: a unit holds one hex, or two or three extended")
        if self.sp < 0:
            raise ValueError(f"{self.unit}: sp cannot be negative")
        if self.leader_stars < 0 or self.fatigue < 0:
            raise ValueError(f"{self.unit}: leader stars and fatigue cannot be negative")

    @property
    def hex(self) -> Hex:
        """The hex of the counter (the first for an extended line)."""
        return self.hexes[0]

    @property
    def extended(self) -> bool:
        return len(self.hexes) > 1

    @property
    def mounted(self) -> bool:
        return self.kind == "mounted_cavalry"

    def fronts(self) -> frozenset[Hex]:
        """The unit's front hexes (002 §7.11): every part's, less its own hexes; a column's
        are its lead's alone (002 §8.51)."""
        if self.column:
            return frozenset(front_hexes(self.hexes[0], self.facing)) - set(self.hexes)
        out: set[Hex] = set()
        for h in self.hexes:
            out.update(front_hexes(h, self.facing))
        return frozenset(out - set(self.hexes))

    def aspect(self, part: Hex, other: Hex) -> Aspect:
        """Front, flank or rear of the unit for the hex ``other`` next to its ``part``
        (002 §7.11); for a column 002 §8.51's (``extension.column_aspect``)."""
        if self.column and len(self.hexes) > 1 and other not in self.hexes:
            return column_aspect([(h, self.facing) for h in self.hexes], other)
        return aspect_of(part, self.facing, other)

    def with_(self, **changes: object) -> Combatant:
        return replace(self, **changes)  # type: ignore[arg-type]


def after_losses(u: Combatant, steps: int) -> Combatant:
    """``u`` after losing ``steps`` SP (002 §12.13): strength stops at 0, elimination."""
    if steps < 0:
        raise ValueError("steps lost cannot be negative")
    return replace(u, sp=max(0, u.sp - steps))


# A disorder check as rolled (002 §2.6): the shared UDD record.
Check = UddRoll


def check(dice: Dice, u: Combatant, purpose: str, rule: str, *, drm: int = 0,
          cohesion: int | None = None) -> Check:
    """Roll a UDD for ``u`` against its present cohesion (002 §2.6), its stacked leaders'
    stars subtracted (002 §11.73) and half its fatigue added, rounded up (002 §17.31)."""
    c = u.cohesion if cohesion is None else cohesion
    return udd(dice, unit=u.unit, cohesion=c, drm=drm + -(-u.fatigue // 2),
               leader_stars=u.leader_stars, purpose=purpose, rule=rule)


# --- disorder and the second disorder (002 §12.32, §12.35-12.36) -------------------------
Cause = Literal["fire", "friendly-fire", "pre-shock-check", "shock-result",
                "withdrawal-before-shock", "reaction-facing", "adjacent-rout",
                "retreat-through", "terrain", "post-shock"]


@dataclass(frozen=True, slots=True)
class Disorder:
    """What a disorder result did to one unit: newly ``disordered``, or a second disorder
    with its SP loss, retreat range, rout, abandonment or Blown marker (002 §12.35-12.36)."""

    unit: str
    cause: str
    rule: str
    disordered: bool = False
    second: bool = False
    sp_loss: int = 0
    retreat: tuple[int, int] | None = None
    rout: bool = False
    abandoned: bool = False
    blown: bool = False
    stop: bool = False
    checks: tuple[Check, ...] = ()

    def to_json(self) -> dict[str, object]:
        return {"unit": self.unit, "cause": self.cause, "rule": self.rule,
                "disordered": self.disordered, "second": self.second, "sp_loss": self.sp_loss,
                "retreat": list(self.retreat) if self.retreat else None, "rout": self.rout,
                "abandoned": self.abandoned, "blown": self.blown, "stop": self.stop,
                "checks": [c.to_json() for c in self.checks]}


def _arm(u: Combatant) -> str:
    return {"infantry": "infantry", "mounted_cavalry": "mounted-cavalry",
            "artillery": "artillery"}[u.kind]


def disorder(dice: Dice, u: Combatant, cause: Cause) -> Disorder:
    """A disorder result on ``u`` (002 §12.31): a unit in good order turns to its disordered
    face; a disordered one takes the second disorder of the cause from the 2nd Disorder
    Table (002 §12.35 a-d, §12.36), its UDD rolled here when the table calls for one.
    The one-SP-per-stack limit (§12.35e) is :func:`stack_losses`' business."""
    if not u.disordered:
        return Disorder(u.unit, cause, "12.31", disordered=True)
    cell, _ = all_charts().second_disorder.outcome(cause, _arm(u))
    rule = "12.36" if u.kind == "artillery" else "12.35"
    checks: tuple[Check, ...] = ()
    if cell.check == "udd":
        c = check(dice, u, f"2nd disorder ({cause})", "12.35")
        checks = (c,)
        if not c.passed:
            return Disorder(u.unit, cause, rule, second=True, rout=True, checks=checks)
    return Disorder(u.unit, cause, rule, second=True, sp_loss=cell.sp_loss,
                    retreat=cell.retreat, abandoned=cell.abandoned, blown=cell.blown,
                    stop=cell.stop, checks=checks)


def stack_losses(stack: tuple[Combatant, ...], results: tuple[Disorder, ...]) -> dict[str, int]:
    """002 §12.35e: stacked non-artillery units losing 1 SP each to second disorders of one
    event lose 1 SP in all, taken by the unit on top (``stack`` top first)."""
    losing = {d.unit for d in results if d.sp_loss and not d.abandoned}
    for u in stack:
        if u.unit in losing and u.kind != "artillery":
            return {u.unit: 1}
    return {}
