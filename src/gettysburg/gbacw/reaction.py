"""Reaction by the non-phasing player (002 §9.6): facing changes and refusals (§9.61-9.62)
and the reaction moves of mounted cavalry and artillery (§9.63).

Reaction facing. An enemy moving or advancing next to a non-phasing combat unit, or firing
at it from outside its front (after the fire's results, and not when the fire makes it
retreat), lets it refuse a flank or turn one vertex, once per enemy brigade activation, at
no MP; infantry and cavalry then take a UDD (artillery does not). Not for a unit already in
another enemy unit's front hex (each part of an extended line judged alone), nor under
March orders or in an extended column; an extended line may refuse but not turn; a turn is
not allowed to a refusing unit or one stacked with a unit that may not turn so. Artillery
that turned fires its first shot afterwards in that activation at -2 and not rapidly.

Reaction moves. Mounted cavalry and artillery, not on March orders and not in another
enemy's front hex, may answer enemy movement (not an advance after combat) within three
hexes by moving one or two hexes under the retreat rules (§12.44), announced before the
enemy enters the triggering hex and traced from where the unit stood; then a UDD (a second
disorder costs 1 SP or a gun; mounted cavalry adds the MP of the hexsides crossed and the
non-clear hexes entered). Artillery reacts once per enemy brigade activation, never into a
hex that would cost it more than 2 MP or within 4 hexes and LOS of an enemy, and not in an
activation in which it used approach fire. A unit hit first by the mover's fire (a lost UDD,
a D or a failed check) moves one hex only. At night only an enemy about to come adjacent
calls for a reaction move (§16.12). The phasing unit must still enter the triggering hex.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field
from typing import Literal

from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import RuleError

from .board import Board
from .charts.terrain import TerrainChart, UnitClass
from .charts.turns import Light
from .facing import Facing, front_hexes, vertex_steps
from .fire import in_fire_arc
from .movement import Orders, Step, entry_cost

REACTION_RANGE = 3  # §9.63
ARTILLERY_MAX_MP = 2  # §9.63: no hex that would cost more
ARTILLERY_SAFE_DISTANCE = 4  # §9.63: not within 4 hexes and LOS of an enemy
ARTILLERY_FIRE_DRM = -2  # §9.62

Kind = Literal["refuse", "face"]


@dataclass(frozen=True, slots=True)
class Reactor:
    """A non-phasing unit that might react."""

    unit: str
    hex: Hex
    facing: Facing
    unit_class: UnitClass  # "infantry", "mounted_cavalry", "artillery"
    orders: Orders
    extended_line: bool = False
    extended_column: bool = False
    refused: bool = False


@dataclass
class ActivationLog:
    """What non-phasing units did in one enemy brigade activation (reset at its end)."""

    faced: set[str] = field(default_factory=set)  # reaction facing or refusal (§9.62)
    moved: set[str] = field(default_factory=set)  # artillery reaction moves (§9.63)
    approach_fired: set[str] = field(default_factory=set)  # artillery approach fire (§10.45)
    fired_after_facing: set[str] = field(default_factory=set)  # artillery's -2 shot used


EnemyUnit = tuple[Hex, Facing]


def in_other_front(h: Hex, enemies: Iterable[EnemyUnit], trigger: Hex | None) -> bool:
    """Whether ``h`` is a front hex of an enemy unit other than the one in ``trigger``
    (002 §9.62, §9.63); an extended line's parts are asked one hex at a time."""
    return any(eh != trigger and h in front_hexes(eh, ef) for eh, ef in enemies)


# --- triggers (§9.61, §9.63) ----------------------------------------------------------------
def moved_adjacent(u: Reactor, entered: Hex) -> bool:
    """An enemy move or advance into a hex next to the unit (002 §9.61)."""
    return u.hex.distance(entered) == 1


def fired_from_outside_front(u: Reactor, firer: Hex, *, must_retreat: bool) -> bool:
    """Enemy fire from outside the unit's front, unless it makes the unit retreat (002 §9.61;
    the front is the fire arc, E-27)."""
    return not must_retreat and not in_fire_arc(u.hex, u.facing, firer)


def move_trigger(u: Reactor, entering: Hex, *, light: Light = "day",
                 advance_after_combat: bool = False) -> bool:
    """Whether the enemy about to enter ``entering`` may be answered by a reaction move
    (002 §9.63; §16.12 at night: only one about to come adjacent)."""
    if advance_after_combat:
        return False
    d = u.hex.distance(entering)
    return d == 1 if light == "night" else d <= REACTION_RANGE


# --- reaction facing and refusal (§9.61-9.62) -------------------------------------------------
def check_facing(u: Reactor, kind: Kind, log: ActivationLog, *, enemies: Iterable[EnemyUnit],
                 trigger: Hex | None, new_facing: Facing | None = None,
                 stack_may_turn: bool = True) -> None:
    """Refuse every reaction facing change or refusal the rules forbid (002 §9.61-9.62).
    Refusal's own conditions (§7.31-7.32) are facing.check_refuse's, with ``reaction``."""
    if u.orders == "march" or u.extended_column:
        raise RuleError("9.61", f"{u.unit}: no reaction facing under March orders or in an "
                        "extended column")
    if u.unit in log.faced:
        raise RuleError("9.62", f"{u.unit} has already reacted in this enemy activation")
    if in_other_front(u.hex, enemies, trigger):
        raise RuleError("9.62", f"{u.unit} is in another enemy unit's front hex")
    if kind == "face":
        if u.extended_line:
            raise RuleError("9.61", f"{u.unit}: an extended line may refuse but not turn in "
                            "reaction")
        if u.refused:
            raise RuleError("9.62", f"{u.unit} is refusing a flank and may not turn")
        if not stack_may_turn:
            raise RuleError("9.62", f"{u.unit} is stacked with a unit that may not turn")
        if new_facing is None or new_facing.kind != u.facing.kind or \
                vertex_steps(u.facing, new_facing) != 1:
            raise RuleError("9.62", f"{u.unit}: a reaction turn is one vertex")


def facing_needs_udd(u: Reactor) -> bool:
    """Infantry and cavalry take a UDD after reacting; artillery does not (002 §9.62)."""
    return u.unit_class != "artillery"


def after_facing(u: Reactor, log: ActivationLog) -> None:
    """Record the reaction (once per enemy brigade activation, 002 §9.62)."""
    log.faced.add(u.unit)


def artillery_fire_drm(unit: str, log: ActivationLog) -> int:
    """-2 on an artillery unit's first non-phasing fire after its reaction turn in this
    enemy activation (002 §9.62); the caller records the shot in ``fired_after_facing``."""
    if unit in log.faced and unit not in log.fired_after_facing:
        return ARTILLERY_FIRE_DRM
    return 0


def check_rapid_fire(unit: str, log: ActivationLog) -> None:
    """No rapid fire for that first shot after a reaction turn (002 §9.62)."""
    if artillery_fire_drm(unit, log):
        raise RuleError("9.62", f"{unit}: no rapid fire for the first shot after a reaction "
                        "turn")


# --- reaction moves (§9.63) -----------------------------------------------------------------
def check_move(u: Reactor, log: ActivationLog, *, enemies: Iterable[EnemyUnit],
               trigger: Hex | None) -> None:
    """Who may make a reaction move (002 §9.63)."""
    if u.unit_class not in ("mounted_cavalry", "artillery"):
        raise RuleError("9.63", f"{u.unit}: only mounted cavalry and artillery move in "
                        "reaction")
    if u.orders == "march":
        raise RuleError("9.63", f"{u.unit}: no reaction move under March orders")
    if in_other_front(u.hex, enemies, trigger):
        raise RuleError("9.63", f"{u.unit} is in another enemy unit's front hex")
    if u.unit_class == "artillery":
        if u.unit in log.moved:
            raise RuleError("9.63", f"{u.unit} has already moved in reaction this enemy "
                            "activation")
        if u.unit in log.approach_fired:
            raise RuleError("9.63", f"{u.unit} used approach fire this enemy activation")


def check_approach_fire(unit: str, log: ActivationLog) -> None:
    """Artillery that moved in reaction may not use approach fire in the same enemy
    activation (002 §9.63, §10.45)."""
    if unit in log.moved:
        raise RuleError("9.63", f"{unit} moved in reaction this enemy activation: no approach "
                        "fire")


@dataclass(frozen=True, slots=True)
class ReactionMove:
    hexes: tuple[Hex, ...]
    steps: tuple[Step, ...]
    udd_drm: int  # mounted cavalry's ground modifier; 0 for artillery


def _nearest(h: Hex, enemy: Collection[Hex]) -> int:
    return min((h.distance(e) for e in enemy), default=10**6)


def _cavalry_drm(board: Board, steps: Iterable[Step]) -> int:
    # The hexsides' MP and every non-clear hex's MP (§9.63); a clear hex costs nothing here.
    total = 0.0
    for s in steps:
        clear = board.hexes[s.to].terrain == "open"
        total += s.mp - 1 if clear else s.mp
    return max(0, int(total + 0.5))


def reaction_moves(board: Board, u: Reactor, *, enemy: Collection[Hex],
                   enemy_fronts: Collection[Hex], causing: Collection[Hex],
                   friendly_ok: Callable[[Hex], bool] | None = None,
                   seen_by_enemy: Callable[[Hex], bool] | None = None,
                   one_hex_only: bool = False, sp: int | None = None,
                   chart: TerrainChart | None = None) -> list[ReactionMove]:
    """Every legal reaction move of one or two hexes, in a fixed order (002 §9.63 under the
    retreat rules §12.44): on the map, never into an enemy's hex, an enemy front hex or a hex
    next to the units that set it off (``causing``); only hexes it could enter moving, and
    only friendly hexes ``friendly_ok`` allows (stacking); artillery at no more than 2 MP a
    hex (path rates allowed) and never within 4 hexes of an enemy that ``seen_by_enemy``
    says has LOS. Where some moves end farther from the nearest enemy than the unit stands,
    only those are offered (§12.44). ``one_hex_only`` after the mover's fire hurt it."""
    friendly_ok = friendly_ok or (lambda h: True)
    seen = seen_by_enemy or (lambda h: False)
    # small cavalry on Advance may count path rates for its modifier (§9.63, §8.13)
    paths = u.unit_class == "artillery" or (u.orders == "advance" and (sp or 99) <= 4)

    def enter(frm: Hex, to: Hex) -> Step | None:
        if to not in board.hexes or to in enemy or to in enemy_fronts or not friendly_ok(to):
            return None
        if any(to.distance(c) <= 1 for c in causing):
            return None
        s = entry_cost(board, frm, to, unit_class=u.unit_class, orders=u.orders,
                       use_paths=paths, chart=chart)
        if isinstance(s, RuleError) or not s.may_end:
            return None
        if u.unit_class == "artillery":
            if s.mp > ARTILLERY_MAX_MP:
                return None
            if any(to.distance(e) <= ARTILLERY_SAFE_DISTANCE for e in enemy) and seen(to):
                return None
        return s

    out: list[ReactionMove] = []
    for first in sorted(u.hex.neighbours()):
        s1 = enter(u.hex, first)
        if s1 is None:
            continue
        out.append(ReactionMove((first,), (s1,), 0))
        if one_hex_only:
            continue
        for second in sorted(first.neighbours()):
            if second == u.hex:
                continue
            s2 = enter(first, second)
            if s2 is not None:
                out.append(ReactionMove((first, second), (s1, s2), 0))
    if u.unit_class == "mounted_cavalry":
        out = [ReactionMove(m.hexes, m.steps, _cavalry_drm(board, m.steps)) for m in out]
    here = _nearest(u.hex, enemy)
    farther = [m for m in out if _nearest(m.hexes[-1], enemy) > here]
    return farther or out


def after_move(u: Reactor, log: ActivationLog) -> None:
    """Record an artillery reaction move (once per enemy brigade activation, 002 §9.63)."""
    if u.unit_class == "artillery":
        log.moved.add(u.unit)
