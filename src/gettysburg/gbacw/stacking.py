"""Stacking limits, order in a stack, fire limits and who takes results (002 §8.1–§8.3).

A stack is a sequence of :class:`StackEntry`, top of the stack first. A battery
of several sections is one unit (002 §8.37): give each section its own entry with
the battery's name as ``unit``; its ``sp`` is the section's guns. Leaders and
markers never count (§8.11), so they are not entries.

Extended lines and columns (§8.4, §8.5) are in :mod:`gettysburg.gbacw.extension`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from gettysburg.core.dice import Dice
from gettysburg.core.protocol import RuleError

Arm = Literal["inf", "cav", "art", "horse_art"]
StackClass = Literal["infantry", "mounted_cavalry", "artillery"]


@dataclass(frozen=True, slots=True)
class StackEntry:
    """One unit (or battery section) in a hex: its arm as the OOB spells it, SP (guns
    for artillery), brigade, and for cavalry whether it is mounted."""

    unit: str
    arm: Arm
    sp: int
    brigade: str
    mounted: bool = False

    @property
    def kind(self) -> StackClass:
        """Class for stacking and fire: dismounted cavalry counts as infantry."""
        if self.arm in ("art", "horse_art"):
            return "artillery"
        if self.arm == "cav" and self.mounted:
            return "mounted_cavalry"
        return "infantry"


def entry_name(key: str, *, corps: str, name: str, arm: Arm) -> str:
    """The ``unit`` a stack entry carries (002 §8.11-8.12, §8.37): every counter of
    infantry or cavalry is a unit of its own, named by its key, so two battalions of one
    regiment (the OOB's ``8 NY Cav#1`` and ``#2``, one name on two counters) are two units
    and not "one unit of any size"; the sections of a battery share the battery's name, as
    they stack and fire together."""
    return f"{corps}:{name}" if arm in ("art", "horse_art") else key


def units_of(entries: Sequence[StackEntry]) -> list[list[int]]:
    """Entry indexes grouped by unit (a battery's sections together, 002 §8.37), top
    first."""
    groups: list[list[int]] = []
    for i, e in enumerate(entries):
        if groups and entries[groups[-1][0]].unit == e.unit:
            groups[-1].append(i)
        else:
            groups.append([i])
    return groups


def _check_sections_together(entries: Sequence[StackEntry]) -> RuleError | None:
    seen: set[str] = set()
    for g in units_of(entries):
        name = entries[g[0]].unit
        if name in seen:
            return RuleError("8.37", f"the sections of battery {name} must stack together")
        seen.add(name)
    return None


# --- limits (002 §8.12) --------------------------------------------------------------


def stack_problem(entries: Sequence[StackEntry], orders: str) -> RuleError | None:
    """Why a hex's stack breaks the limits of 002 §8.12 under ``orders``, or None.

    March: one class only; infantry (with dismounted cavalry) up to 7 SP of one
    brigade, mounted cavalry up to 4 SP of one brigade, artillery two batteries
    or 12 guns. A single unit over the limit must form an extended column (§8.5):
    give the SP its part holds in this hex.
    Advance/Attack: infantry of one brigade up to 15 SP or one unit of any size,
    mounted cavalry of one brigade up to 7 SP or one unit, either with one battery
    or 6 guns; artillery alone two batteries or 12 guns.
    """
    if orders not in ("march", "advance", "attack"):
        return RuleError("8.12", f"orders must be march, advance or attack, not {orders!r}")
    for e in entries:
        if e.sp < 0:
            return RuleError("8.12", f"{e.unit}: SP must be >= 0")
    if (err := _check_sections_together(entries)) is not None:
        return err
    arty = [e for e in entries if e.kind == "artillery"]
    small = [e for e in entries if e.kind != "artillery"]
    batteries = len({e.unit for e in arty})
    guns = sum(e.sp for e in arty)
    kinds = {e.kind for e in small}
    if len(kinds) > 1:
        return RuleError("8.12", "infantry and mounted cavalry cannot stack together")
    brigades = {e.brigade for e in small}
    if len(brigades) > 1:
        return RuleError("8.12", f"different brigades cannot stack: {', '.join(sorted(brigades))}")
    units = {e.unit for e in small}
    sp = sum(e.sp for e in small)
    if orders == "march":
        if arty and small:
            return RuleError("8.12", "under March orders artillery cannot stack with other arms")
        if not small:
            return _artillery_alone(batteries, guns)
        limit = 7 if kinds == {"infantry"} else 4
        if sp > limit:
            what = "infantry" if limit == 7 else "mounted cavalry"
            if len(units) == 1:
                return RuleError(
                    "8.12", f"{sp} SP of {what} in a hex on March: extend the column (8.5)"
                )
            return RuleError("8.12", f"{sp} SP of {what} under March orders (limit {limit})")
        return None
    if not small:
        return _artillery_alone(batteries, guns)
    limit = 15 if kinds == {"infantry"} else 7
    if sp > limit and len(units) > 1:
        return RuleError("8.12", f"{sp} SP in one hex (limit {limit}, or one unit of any size)")
    if arty and batteries > 1 and guns > 6:
        return RuleError("8.12", "with infantry or cavalry only one battery or 6 guns may stack")
    return None


def _artillery_alone(batteries: int, guns: int) -> RuleError | None:
    if batteries > 2 and guns > 12:
        return RuleError("8.12", f"{batteries} batteries, {guns} guns (limit 2 or 12 guns)")
    return None


def check_road_stacking(entries: Sequence[StackEntry], orders: str) -> None:
    """Units under Advance orders using road rates must keep March stacking (002 §8.13)."""
    if orders == "advance":
        err = stack_problem(entries, "march")
        if err is not None:
            raise RuleError("8.13", f"road rates under Advance need March stacking: {err.message}")


# --- order in a stack (002 §8.23, §8.24) ----------------------------------------------


def entry_positions(
    stack: Sequence[StackEntry], mover: StackEntry, aspect: str
) -> tuple[int, ...]:
    """Where a unit entering (or retreating into) a hex may be placed, as indexes (0 = top).

    002 §8.23: through a front hexside of the stationary stack it goes on top,
    through a flank or rear hexside below the units already there. Infantry or
    cavalry entering a hex of artillery only may go above or below it; if a
    non-artillery unit is already under the artillery, a unit entering through a
    front hexside may go directly above or below the artillery.
    """
    if aspect not in ("front", "flank", "rear"):
        raise ValueError(f"aspect must be front, flank or rear, not {aspect!r}")
    n = len(stack)
    if not stack:
        return (0,)
    mover_art = mover.kind == "artillery"
    if not mover_art and all(e.kind == "artillery" for e in stack):
        return tuple(range(n + 1))
    if aspect == "front":
        if not mover_art and stack[0].kind == "artillery":
            arty = [i for i, e in enumerate(stack) if e.kind == "artillery"]
            return (arty[0], arty[-1] + 1)
        return (0,)
    return (n,)


def check_reorder(*, in_enemy_front: bool) -> None:
    """A phasing unit may reorder its stack instead of moving (002 §8.24), but not
    in the front hex of an enemy unit. Under Advance orders a unit that reorders
    may not fire (see :func:`may_fire_after_reorder`)."""
    if in_enemy_front:
        raise RuleError("8.24", "a stack in an enemy front hex cannot change its order")


def may_fire_after_reorder(orders: str) -> bool:
    """002 §8.24: under Advance orders a unit that changed the stacking order cannot fire."""
    return orders != "advance"


def reverse_stack(
    entries: Sequence[StackEntry], leaving: frozenset[str] = frozenset()
) -> list[StackEntry]:
    """The stack after a 180-degree turn (002 §7.21): the non-artillery units that stay
    reverse their order; artillery keeps its place (the non-artillery units may then
    choose above or below it, see :func:`entry_positions`). ``leaving`` names units
    that leave the hex this activation and keep their place."""
    movable = [i for i, e in enumerate(entries) if e.kind != "artillery" and e.unit not in leaving]
    out = list(entries)
    groups = units_of([entries[i] for i in movable])
    flipped = [movable[j] for g in reversed(groups) for j in g]
    for slot, src in zip(movable, flipped, strict=True):
        out[slot] = entries[src]
    return out


# --- fire (002 §8.31–§8.34) ----------------------------------------------------------


def fire_allowances(entries: Sequence[StackEntry], *, spent: int = 0) -> list[int]:
    """Most SP each entry may fire, top first (002 §8.31, §8.33).

    Limits per hex: 7 SP of infantry (with dismounted cavalry) or 4 of mounted
    cavalry; 12 SP of artillery alone. With artillery the hex fires 7 SP in all
    or one battery (which may exceed 7), mounted cavalry at most 4 of them, and
    the artillery fires only if it is the top unit. The top units fire first;
    units below may fire what is left (a top unit that does not fire still uses
    its share, §8.33, so the caller zeroes the units that do not fire).
    ``spent`` is what units that have since left the hex already fired from it
    this activation: the limits hold for the hex (§8.31).
    """
    arty = any(e.kind == "artillery" for e in entries)
    small = any(e.kind != "artillery" for e in entries)
    out = [0] * len(entries)
    if not entries:
        return out
    if arty and not small:
        left = max(0, 12 - spent)
        for i, e in enumerate(entries):
            out[i] = min(e.sp, left)
            left -= out[i]
        return out
    total_left = max(0, 7 - spent)
    cav_left = 4
    groups = units_of(entries)
    for rank, g in enumerate(groups):
        head = entries[g[0]]
        if head.kind == "artillery":
            if rank != 0:
                continue  # stacked artillery fires only from the top (§8.33)
            guns = sum(entries[i].sp for i in g)
            for i in g:
                out[i] = entries[i].sp
            total_left = max(0, total_left - guns)
            continue
        for i in g:
            cap = total_left
            if head.kind == "mounted_cavalry":
                cap = min(cap, cav_left)
            out[i] = min(entries[i].sp, cap)
            total_left -= out[i]
            if head.kind == "mounted_cavalry":
                cav_left -= out[i]
    return out


def hex_fire_limit(entries: Sequence[StackEntry]) -> int:
    """Most SP a hex can fire (002 §8.31)."""
    return sum(fire_allowances(entries))


def check_artillery_fire(entries: Sequence[StackEntry], index: int) -> None:
    """Artillery stacked with infantry or cavalry fires only from the top (002 §8.33)."""
    e = entries[index]
    if e.kind != "artillery":
        return
    if any(x.kind != "artillery" for x in entries) and entries[0].unit != e.unit:
        raise RuleError("8.33", f"{e.unit} is not the top unit: artillery fires only on top")


def target_density_drm(hex_sp: Sequence[StackEntry], *, shell: bool) -> int:
    """Massed (+1) or dispersed (-1) target for artillery fire at shell range (4+ hexes),
    002 §8.34: counted on the non-artillery SP in the hex (8 or more, 2 or fewer);
    a hex of artillery only gets neither. For an extended unit give the SP of the
    targeted part (§8.44)."""
    if not shell:
        return 0
    small = [e for e in hex_sp if e.kind != "artillery"]
    if not small:
        return 0
    sp = sum(e.sp for e in small)
    if sp >= 8:
        return 1
    if sp <= 2:
        return -1
    return 0


# --- who takes results (002 §8.35–§8.37) ---------------------------------------------


def hits_each_unit(range_hexes: int, *, artillery: bool) -> bool:
    """Whether a fire result falls on every unit of the target hex on its own: artillery
    fire at shell range, four hexes or more (002 §8.35, §10.67). Then a failed UDD of
    the top unit brings no further UDD on the others."""
    return artillery and range_hexes >= 4


@dataclass(frozen=True, slots=True)
class StackLosses:
    """Step losses per entry (same order as the stack), the entries eliminated, and the
    entries that must take a UDD because the top unit was eliminated or disordered."""

    losses: tuple[int, ...]
    eliminated: tuple[int, ...]
    udd: tuple[int, ...]


def _pick(dice: Dice, k: int) -> int:
    """0..k-1 from d6 rolls, rerolling the faces that would bias the draw (k <= 6)."""
    if not 1 <= k <= 6:
        raise ValueError(f"cannot draw one of {k} sections with a d6")
    top = 6 - 6 % k
    while True:
        face = dice.roll("battery section hit", rule="8.37", die="d6")
        if face <= top:
            return (face - 1) * k // top  # equal runs of faces: 1-3 / 4-6 for two


def _spread(
    entries: Sequence[StackEntry], steps: int, order: Sequence[int], dice: Dice | None
) -> tuple[list[int], list[int]]:
    """Take ``steps`` down the units in ``order`` (unit indexes into units_of);
    within a battery the section losing each step is drawn at random (§8.35, §8.37)."""
    groups = units_of(entries)
    losses = [0] * len(entries)
    eliminated: list[int] = []
    left = steps
    for u in order:
        if left <= 0:
            break
        g = groups[u]
        while left > 0:
            alive = [i for i in g if entries[i].sp - losses[i] > 0]
            if not alive:
                break
            if len(alive) == 1:
                pick = alive[0]
            else:
                if dice is None:
                    raise ValueError("several sections: dice are needed to pick the one hit")
                pick = alive[_pick(dice, len(alive))]
            losses[pick] += 1
            left -= 1
        if all(entries[i].sp - losses[i] <= 0 for i in g):
            eliminated.extend(g)
    return losses, eliminated


def fire_result_on_stack(
    entries: Sequence[StackEntry],
    steps: int,
    *,
    disorder: bool,
    dice: Dice | None = None,
    target_unit: int = 0,
    overflow: Sequence[int] | None = None,
) -> StackLosses:
    """How a Fire Table result falls on a stack (002 §8.35).

    The top unit (or ``target_unit``, the top shocking unit for pre-shock fire)
    takes it; step losses beyond its strength go to the next units (``overflow``,
    default the rest of the stack top down). If the target is eliminated or
    disordered every other surviving unit takes a UDD (without the result's
    modifier). Shell fire (4+ hexes) is not resolved here: it hits each unit on
    its own (§8.35, §10.67).
    """
    if steps < 0:
        raise ValueError("steps must be >= 0")
    groups = units_of(entries)
    if not 0 <= target_unit < len(groups):
        raise ValueError(f"target_unit {target_unit} is not a unit of the stack")
    rest = [u for u in range(len(groups)) if u != target_unit]
    order = [target_unit, *(overflow if overflow is not None else rest)]
    losses, eliminated = _spread(entries, steps, order, dice)
    hit = groups[target_unit]
    udd: tuple[int, ...] = ()
    if disorder or all(i in eliminated for i in hit):
        udd = tuple(i for i in range(len(entries)) if i not in hit and i not in eliminated)
    return StackLosses(tuple(losses), tuple(eliminated), udd)


def shock_loss_order(
    entries: Sequence[StackEntry],
    cohesion: Sequence[int],
    *,
    bloody: bool,
    participating: Sequence[bool] | None = None,
    defending: bool = False,
) -> list[int]:
    """The units (indexes into units_of) in the order they take shock step losses (002 §8.36).

    The top unit takes them, the excess going down the stack. A Bloody Engagement
    loss falls on the participating unit with the highest cohesion (the topmost
    of equals), unless artillery tops the defending stack, which then takes it.
    """
    groups = units_of(entries)
    if len(cohesion) != len(groups):
        raise ValueError("give one cohesion per unit")
    part = list(participating) if participating is not None else [True] * len(groups)
    order = list(range(len(groups)))
    if not bloody or (defending and entries[groups[0][0]].kind == "artillery"):
        return order
    eligible = [u for u in order if part[u]]
    if not eligible:
        return order
    first = max(eligible, key=lambda u: (cohesion[u], -u))
    return [first, *[u for u in order if u != first]]


def shock_result_on_stack(
    entries: Sequence[StackEntry], steps: int, order: Sequence[int], dice: Dice | None = None
) -> StackLosses:
    """Step losses of a shock result down ``order`` (from :func:`shock_loss_order`);
    retreats and disorders hit every unit of the stack (002 §8.36), so no UDD here."""
    losses, eliminated = _spread(entries, steps, order, dice)
    return StackLosses(tuple(losses), tuple(eliminated), ())
