"""Who may fire at what (002 §10.1–§10.6): fire arc, range, LOS, orders, fire kinds, splits.

Pure functions over small records; the engine calls them at the moments the rules name
and turns a :class:`gettysburg.core.protocol.RuleError` into a refusal. The Fire Table
lookup, the DRMs and the results are in :mod:`gettysburg.gbacw.fire_result`.

Fire kinds (``FireKind``): ``phasing`` (§10.3) and the four non-phasing kinds of §10.4 —
``return`` (§10.42), ``pre_shock`` (§10.43), ``withdrawal`` (§10.44, infantry and
cavalry) and ``approach`` (§10.45, artillery).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Literal

from gettysburg.core.hexes import DIRECTIONS, Hex
from gettysburg.core.protocol import RuleError

from .board import Board
from .charts.fire import Ammo
from .charts.ranges import Light, RangeTable
from .facing import Facing, RefuseSide, flank_direction, front_directions
from .los import Sight, line_of_sight
from .stacking import Arm, StackEntry, check_artillery_fire, fire_allowances

FireKind = Literal["phasing", "return", "pre_shock", "withdrawal", "approach"]
NON_PHASING: tuple[FireKind, ...] = ("return", "pre_shock", "withdrawal", "approach")
Ammunition = Literal["small_arms", "canister", "shell"]

CANISTER_MAX = 3  # 002 §10.67: 1-3 hexes canister, 4+ shell
APPROACH_RANGE = 3  # 002 §10.45


@dataclass(frozen=True, slots=True)
class Firer:
    """What the fire rules need to know about one firing unit (or battery section).

    ``moved_mp``/``ma``: movement points spent this activation and the printed MA (for
    §10.33 and §10.61); ``became_top``: artillery that started the activation under a
    non-artillery unit and is now on top (§10.61); ``restacked``/``advanced``/
    ``retreated``/``extended_column``: what bars prepared fire (§10.52);
    ``refused``: the refused sides of a refusing stack (§7.34)."""

    unit: str
    arm: Arm
    hex: Hex
    facing: Facing
    weapon: str
    sp: int
    orders: str
    phasing: bool
    disordered: bool = False
    mounted: bool = False
    green: bool = False
    moved_mp: int = 0
    ma: int = 0
    became_top: bool = False
    restacked: bool = False
    advanced: bool = False
    retreated: bool = False
    extended_column: bool = False
    faced_in_attack_woods: bool = False
    refused: frozenset[str] = field(default_factory=frozenset)
    ammo: Ammo = "none"

    @property
    def artillery(self) -> bool:
        return self.arm in ("art", "horse_art")

    @property
    def infantry(self) -> bool:
        """Infantry or dismounted cavalry (the small-arms class of §8.31)."""
        return self.arm == "inf" or (self.arm == "cav" and not self.mounted)


# --- geometry: fire arc (002 §10.16, decision E-27) -------------------------------------


def _cross(a: Hex, b: Hex) -> int:
    # The axial plane maps linearly to the page, so signs of cross products are kept.
    return a.q * b.r - a.r * b.q


def _corner(d: int) -> Hex:
    """The direction from a hex's centre to the corner between sides d and d+1."""
    return DIRECTIONS[d % 6] + DIRECTIONS[(d + 1) % 6]


def _strictly_inside(a: Hex, b: Hex, p: Hex) -> bool:
    """``p`` lies strictly inside the cone from ``a`` to ``b`` (less than 180 degrees)."""
    turn = _cross(a, b)
    return _cross(a, p) * turn > 0 and _cross(p, b) * turn > 0


def exit_side(origin: Hex, target: Hex) -> int | None:
    """The hexside (direction 0..5) through which the line of centres leaves ``origin``;
    None when it leaves exactly through a corner (or ``target`` is ``origin``).
    (002 §10.16, §10.8's flank fire)."""
    delta = target - origin
    for d in range(6):
        if _strictly_inside(_corner(d - 1), _corner(d), delta):
            return d
    return None


def fire_sides(facing: Facing, refused: Collection[str] = ()) -> tuple[int, ...]:
    """The hexsides a unit may fire through: its front hexsides and, for a refusing unit,
    the refused front (002 §7.34, §10.16)."""
    sides = list(front_directions(facing))
    for side in sorted(refused):
        if side not in ("left", "right"):
            raise ValueError(f"refused side must be 'left' or 'right', not {side!r}")
        sides.append(flank_direction(facing, side))  # type: ignore[arg-type]
    return tuple(sides)


def in_fire_arc(origin: Hex, facing: Facing, target: Hex, refused: Collection[str] = ()) -> bool:
    """002 §10.16 with E-27: the line of centres must leave the firer's hex through a
    fire hexside; a line exactly through a corner counts only when both hexsides at that
    corner are fire hexsides (the corner between two front hexsides)."""
    if target == origin:
        return False
    sides = set(fire_sides(facing, refused))
    d = exit_side(origin, target)
    if d is not None:
        return d in sides
    delta = target - origin
    for c in range(6):
        corner = _corner(c)
        if _cross(corner, delta) == 0 and corner.q * delta.q + corner.r * delta.r + \
                corner.s * delta.s > 0:
            return c in sides and (c + 1) % 6 in sides
    return False  # unreachable: a line that leaves through no side leaves through a corner


def refused_side_of(origin: Hex, facing: Facing, target: Hex,
                    refused: Collection[str]) -> RefuseSide | None:
    """Which refused front (if any) the fire at ``target`` goes through (for §7.34's split)."""
    d = exit_side(origin, target)
    sides: tuple[RefuseSide, ...] = ("left", "right")
    for side in sides:
        if side in refused and d == flank_direction(facing, side):
            return side
    return None


def entry_side(target: Hex, firer: Hex) -> int | None:
    """The target's hexside the fire enters through (None: exactly through a corner)
    (002 §10.8's flank fire)."""
    return exit_side(target, firer)


def flank_fire(target: Hex, target_facing: Facing, firer: Hex, *, target_orders: str,
               ammunition: Ammunition) -> bool:
    """002 §10.81: +1 when the fire enters through a flank hexside of the target; not
    against March orders nor for shell. A line through a corner between a flank and a
    non-flank hexside gives the target the benefit (the §10.81 terrain note), so no +1."""
    if target_orders == "march" or ammunition == "shell":
        return False
    d = entry_side(target, firer)
    if d is None:
        return False
    return d not in front_directions(target_facing) and d not in _rear(target_facing)


def _rear(f: Facing) -> tuple[int, ...]:
    if f.kind == "vertex":
        return ((f.index + 3) % 6, (f.index + 4) % 6)
    return ((f.index + 3) % 6,)


def slope_terrain(board: Board, firer: Hex, target: Hex) -> tuple[str, ...]:
    """The Terrain chart's steep-slope row protecting ``target`` from fire out of ``firer``
    (002 §10.81's notes): the target hexside the fire enters through is a steep (or sheer)
    slope; adjacent, the hexside decides up or down; farther, the firer's and the target's
    levels do, and equal levels give none. A line through a corner takes the hexside that
    helps the target."""
    d = entry_side(target, firer)
    delta = firer - target
    sides: list[int] = []
    if d is not None:
        sides = [d]
    else:
        for c in range(6):
            corner = _corner(c)
            if _cross(corner, delta) == 0 and (corner.q * delta.q + corner.r * delta.r
                                               + corner.s * delta.s) > 0:
                sides = [c, (c + 1) % 6]
    a, b = board.hexes.get(firer), board.hexes.get(target)
    if a is None or b is None:
        return ()
    for side in sides:
        info = board.side(target, target.neighbour(side))
        if info is None or info.slope not in ("steep", "sheer"):
            continue
        if firer.distance(target) == 1:
            up = info.uphill == target
        elif a.level == b.level:
            continue
        else:
            up = a.level < b.level
        return ("up-one-level-steep" if up else "down-one-level-steep",)
    return ()


# --- range and ammunition (002 §10.12, §10.16, §10.67) ---------------------------------


def ammunition_kind(firer: Firer, hexes: int) -> Ammunition:
    """Small arms; artillery fires canister at 1-3 hexes and shell at 4+ (002 §10.67)."""
    if not firer.artillery:
        return "small_arms"
    return "canister" if hexes <= CANISTER_MAX else "shell"


def check_range(ranges: RangeTable, firer: Firer, hexes: int, light: Light = "day",
                unit_rule: str | None = None) -> None:
    """No fire beyond the weapon's maximum range (002 §10.16; halved in poor light §16.1)."""
    if hexes < 1:
        raise RuleError("10.12", "the target must be in another hex")
    top = ranges.max_range(firer.weapon, light, unit_rule)
    if hexes > top:
        raise RuleError("10.16", f"{firer.unit} ({firer.weapon}) reaches {top} hexes, "
                                 f"the target is {hexes} away")


def prepared_fire(ranges: RangeTable, firer: Firer, hexes: int, *, target_hex_sp: int = 0) -> bool:
    """002 §10.5: +1 for good-order infantry (phasing: not dismounted cavalry, and only if it
    has not moved), or non-phasing good-order infantry and dismounted cavalry, on Advance or
    Attack orders, within the weapon's prepared range, not after re-stacking, advancing,
    retreating or an extended column; a facing change keeps it except on Attack orders in
    woods (§7.22)."""
    del target_hex_sp
    if firer.disordered or firer.artillery or not firer.infantry:
        return False
    if firer.orders not in ("advance", "attack"):
        return False
    if firer.phasing and (firer.arm != "inf" or firer.moved_mp > 0):
        return False
    if firer.restacked or firer.advanced or firer.retreated or firer.extended_column:
        return False
    if firer.faced_in_attack_woods:
        return False
    return 1 <= hexes <= ranges.prepared_range(firer.weapon)


# --- who may fire now (002 §10.3, §10.4, §10.61, §10.68) -------------------------------


def check_may_fire(firer: Firer, kind: FireKind, *, fired_kinds: Collection[FireKind] = (),
                   rapid_fire: bool = False) -> None:
    """Whether ``firer`` may fire now with fire of ``kind``.

    * §10.33 / §10.41: never on March orders;
    * §10.31: phasing fire once per activation (rapid fire is its one double shot);
    * §10.32-10.33: Advance orders fire instead of moving (artillery excepted, §10.61);
    * §10.41: each non-phasing kind once per enemy brigade activation; phasing units
      never fire non-phasing (pre-shock fire against continued shock is the engine's
      exception, §10.4);
    * §10.44 withdrawal fire is for infantry and cavalry, §10.45 approach fire for
      artillery;
    * §10.61: disordered artillery never fires; a battery that spent more than half its
      MA cannot fire;
    * §10.69: a battery out of ammunition cannot fire.
    """
    if kind not in ("phasing", *NON_PHASING):
        raise RuleError("10.4", f"unknown fire kind {kind!r}")
    if firer.orders == "march":
        raise RuleError("10.33" if kind == "phasing" else "10.41",
                        f"{firer.unit} is on March orders and cannot fire")
    if firer.orders not in ("advance", "attack"):
        raise RuleError("10.11", f"{firer.unit}: unknown orders {firer.orders!r}")
    if firer.sp <= 0:
        raise RuleError("10.14", f"{firer.unit} has no SP to fire")
    if firer.ammo == "out":
        raise RuleError("10.69", f"{firer.unit} is out of ammunition")
    if firer.artillery and firer.disordered:
        raise RuleError("10.61", f"{firer.unit}: disordered artillery cannot fire")
    if kind == "phasing":
        if not firer.phasing:
            raise RuleError("10.3", f"{firer.unit} is not phasing")
        if "phasing" in fired_kinds:
            raise RuleError("10.31", f"{firer.unit} has already fired this activation")
        if firer.artillery:
            if 2 * firer.moved_mp > firer.ma:
                raise RuleError("10.61", f"{firer.unit} spent more than half its MA")
        elif firer.orders == "advance" and firer.moved_mp > 0:
            raise RuleError("10.33", f"{firer.unit} is on Advance orders and has moved")
    else:
        if firer.phasing and kind != "pre_shock":
            raise RuleError("10.4", f"{firer.unit} is phasing: no {kind} fire")
        if kind in fired_kinds:
            raise RuleError("10.41", f"{firer.unit} has used its {kind} fire this activation")
        if kind == "withdrawal" and firer.artillery:
            raise RuleError("10.44", "withdrawal fire is for infantry and cavalry")
        if kind == "approach" and not firer.artillery:
            raise RuleError("10.45", "approach fire is for artillery")
    if rapid_fire:
        raise RuleError("10.68", "check rapid fire with check_rapid_fire")


def check_rapid_fire(ranges: RangeTable, firer: Firer, hexes: int) -> None:
    """002 §10.68: smoothbore guns marked RF, at 1-3 hexes, that spent (or will spend) no
    MP, and (§10.61) not a battery that became the top unit this activation."""
    if not firer.artillery or not ranges.weapon(firer.weapon).rapid_fire:
        raise RuleError("10.68", f"{firer.unit} ({firer.weapon}) has no rapid fire")
    if not 1 <= hexes <= CANISTER_MAX:
        raise RuleError("10.68", "rapid fire only at 1-3 hexes")
    if firer.moved_mp > 0:
        raise RuleError("10.68", f"{firer.unit} has spent MP: no rapid fire")
    if firer.became_top:
        raise RuleError("10.61", f"{firer.unit} became the top unit: no rapid fire")


@dataclass(frozen=True, slots=True)
class Shot:
    """The geometry of one shot found legal: range, ammunition, whether it goes through a
    refused front, flank fire, and the LOS verdict."""

    hexes: int
    ammunition: Ammunition
    refused_side: RefuseSide | None
    sight: Sight | None


def check_target(
    board: Board,
    ranges: RangeTable,
    firer: Firer,
    target: Hex,
    *,
    kind: FireKind = "phasing",
    blockers: Collection[Hex] = (),
    friends: Collection[Hex] | None = None,
    light: Light = "day",
    unit_rule: str | None = None,
) -> Shot:
    """May ``firer`` fire at ``target``: range (§10.12, §10.16), fire arc through its front
    or refused front (§10.16, §7.34, E-27), LOS for fire at 2+ hexes (§10.21, §10.26), and
    artillery not at an adjacent hex two or more levels up or down except pre-shock fire
    (§10.67)."""
    hexes = firer.hex.distance(target)
    check_range(ranges, firer, hexes, light, unit_rule)
    if not in_fire_arc(firer.hex, firer.facing, target, firer.refused):
        raise RuleError("10.16", f"{target} is not through a front hexside of {firer.unit}")
    ammunition = ammunition_kind(firer, hexes)
    sight: Sight | None = None
    if hexes >= 2:
        sight = line_of_sight(board, firer.hex, target, blockers=blockers, friends=friends,
                              fire=ammunition)
        if not sight.clear:
            raise RuleError(sight.rule, f"no line of sight to {target}: {sight.reason}")
    elif firer.artillery and kind != "pre_shock":
        a, b = board.hexes.get(firer.hex), board.hexes.get(target)
        if a is not None and b is not None and abs(a.level - b.level) >= 2:
            raise RuleError("10.67", "artillery cannot fire at an adjacent hex two or more "
                                     "levels up or down (pre-shock fire excepted)")
    return Shot(hexes, ammunition, refused_side_of(firer.hex, firer.facing, target,
                                                   firer.refused), sight)


def artillery_adjacent_steep(board: Board, firer: Firer, target: Hex) -> bool:
    """Pre-shock fire by artillery at an adjacent hex two or more levels away takes -2
    (002 §10.67)."""
    a, b = board.hexes.get(firer.hex), board.hexes.get(target)
    return (firer.artillery and firer.hex.distance(target) == 1 and a is not None
            and b is not None and abs(a.level - b.level) >= 2)


# --- per-hex limits (002 §10.14, §8.31-8.33) -------------------------------------------


def check_fire_sp(entries: Sequence[StackEntry], index: int, sp: int) -> None:
    """Entry ``index`` of a stack (top first) may fire ``sp``: 7 SP of infantry a hex, 4 of
    mounted cavalry, 12 of artillery, 7 or one battery mixed, artillery only from the top
    (002 §10.14, §8.31-8.33); the units above keep their shares whether or not they fire
    (§8.33)."""
    if not 0 <= index < len(entries):
        raise RuleError("8.31", f"no entry {index} in the stack")
    check_artillery_fire(entries, index)
    allowed = fire_allowances(entries)[index]
    if sp < 1:
        raise RuleError("10.14", "fire at least 1 SP")
    if sp > allowed:
        raise RuleError("8.31", f"{entries[index].unit} may fire at most {allowed} SP from "
                                "its hex")


# --- splitting and combining (002 §10.14, §10.15, §10.63-10.66) ------------------------


def even_split(sp: int, parts: int) -> list[int]:
    """The one way to split ``sp`` as evenly as possible, larger shares first (§10.15)."""
    if parts < 1 or sp < parts:
        raise RuleError("10.15", f"{sp} SP cannot be split {parts} ways")
    base, extra = divmod(sp, parts)
    return [base + 1] * extra + [base] * (parts - extra)


def check_phasing_split(sp: int, shares: Sequence[int], targets: Sequence[Hex],
                        adjacent_front: Collection[Hex]) -> None:
    """002 §10.15: a phasing unit fires all its SP at one target, or splits them as evenly
    as possible among enemy hexes adjacent in its front, never twice at one hex.
    (Artillery splitting is §10.65: see :func:`check_battery_split`.)"""
    if len(shares) != len(targets) or not shares:
        raise RuleError("10.15", "give one share per target")
    if sum(shares) != sp:
        raise RuleError("10.15", f"the shares {list(shares)} must add up to {sp} SP")
    if len(shares) == 1:
        return
    if len(set(targets)) != len(targets):
        raise RuleError("10.15", "a unit may not split its fire against one hex")
    if any(t not in adjacent_front for t in targets):
        raise RuleError("10.15", "split fire goes only at adjacent enemies in front hexes")
    if sorted(shares, reverse=True) != even_split(sp, len(shares)):
        raise RuleError("10.15", f"split {sp} SP as evenly as possible: "
                                 f"{even_split(sp, len(shares))}")


def check_reserve(sp: int, now: int, reserved: int) -> None:
    """002 §10.15 (non-phasing): fire ``now`` SP and hold ``reserved`` back for one later
    shot at another hex; the two parts as even as possible (a 3 SP unit: 2 and 1)."""
    if now < 1 or reserved < 0 or now + reserved != sp:
        raise RuleError("10.15", f"{now} now and {reserved} held back must make {sp} SP")
    if reserved and abs(now - reserved) > 1:
        raise RuleError("10.15", f"split {sp} SP as evenly as possible: "
                                 f"{even_split(sp, 2)}")


def reserved_shot(reserved: int, sp_left: int) -> int:
    """The second non-phasing shot fires what was held back, or what is left if fewer
    (002 §10.15, example #2)."""
    return max(0, min(reserved, sp_left))


def check_second_shot(first_target: Hex, second_target: Hex, shots_taken: int) -> None:
    """002 §10.15: at most two non-phasing shots, never twice at the same hex."""
    if shots_taken >= 2:
        raise RuleError("10.15", "a non-phasing unit fires at most twice")
    if first_target == second_target:
        raise RuleError("10.15", "a non-phasing unit may not fire twice at one hex")


@dataclass(frozen=True, slots=True)
class Battery:
    """One battery or section firing: its unit (the battery), weapon code, guns."""

    unit: str
    weapon: str
    guns: int


def combine_artillery(ranges: RangeTable, batteries: Sequence[Battery], hexes: int,
                      light: Light = "day") -> tuple[int, int]:
    """Guns and range DRM of batteries firing together (002 §10.63-10.64): stacked batteries
    combine at 4+ hexes; at 1-3 (canister) only sections of one battery combine; mixed
    weapons take the worst range DRM."""
    if not batteries:
        raise RuleError("10.63", "no battery fires")
    if hexes <= CANISTER_MAX and len({b.unit for b in batteries}) > 1:
        raise RuleError("10.63", "different batteries do not combine at canister range")
    worst = min(ranges.drm(b.weapon, hexes, light)[0] for b in batteries)
    return sum(b.guns for b in batteries), worst


def extended_line_shot(ranges: RangeTable, weapon: str, parts: Sequence[tuple[int, int]],
                       light: Light = "day") -> tuple[int, int]:
    """SP and range DRM of the parts of an extended line firing at one hex (002 §8.45): parts
    that fire at the same hex must combine (each must be able to fire at it, the caller's
    :func:`check_target` per part); ``parts`` holds each part's (SP, range). **Reading**:
    the worst range DRM of the parts, as for combined batteries (§10.64) and combined small
    arms (§10.82)."""
    if not parts:
        raise RuleError("8.45", "no part of the line fires")
    if any(sp < 1 for sp, _ in parts):
        raise RuleError("8.45", "each firing part needs at least 1 SP")
    worst = min(ranges.drm(weapon, hexes, light)[0] for _, hexes in parts)
    return sum(sp for sp, _ in parts), worst


def check_lone_battery_target(*, phasing: bool, alone: bool, enemy_front: Collection[Hex],
                              targets: Collection[Hex]) -> None:
    """002 §10.66: a phasing battery alone in its hex with an enemy in a front hex must fire
    at an enemy in a front hex, if it fires."""
    if phasing and alone and enemy_front and not set(targets) <= set(enemy_front):
        raise RuleError("10.66", "a lone battery with an enemy in its front must fire at it")


# --- the non-phasing triggers (002 §10.42-10.45) ---------------------------------------


def may_return_fire(unit_hex: Hex, *, target_hex: Hex, firer_hex: Hex,
                    enemy_front_of_other: bool) -> bool:
    """002 §10.42: the target of phasing fire may fire back at the hex the fire came from;
    so may units adjacent to the target or to the firer, unless they already stand in the
    front hex of an enemy in another hex. (Arc, range and LOS: :func:`check_target`.)"""
    if unit_hex == target_hex:
        return True
    near = unit_hex.distance(target_hex) == 1 or unit_hex.distance(firer_hex) == 1
    return near and not enemy_front_of_other


def return_fire_first(*, phasing_shell: bool, reaction_facing: bool) -> bool:
    """Whether the phasing shot's results apply before return fire is rolled (002 §10.17,
    §10.42 exceptions): artillery fire at shell range, or fire that also caused a reaction
    facing change or refusal. Otherwise both are rolled before either applies."""
    return phasing_shell or reaction_facing


def may_pre_shock_fire(unit_hex: Hex, *, attacked: bool, attacker_hexes: Collection[Hex],
                       front: Collection[Hex], enemy_front_of_other: bool,
                       used_this_activation: bool) -> bool:
    """002 §10.43 (and §11.38): a defender fires at its attackers' hexes; a friend with an
    attacker in its front hex may too, unless it stands in another enemy's front hex;
    against continued shock only if pre-shock fire is unused this activation."""
    if used_this_activation:
        return False
    if attacked:
        return True
    return bool(set(attacker_hexes) & set(front)) and not enemy_front_of_other


def may_withdrawal_fire(firer: Firer, *, leaving: Hex, front: Collection[Hex],
                        voluntary_move: bool) -> bool:
    """002 §10.44: non-phasing infantry or cavalry may fire at an enemy leaving one of its
    adjacent front hexes during voluntary movement (not an advance or a retreat)."""
    return (not firer.artillery and not firer.phasing and voluntary_move
            and leaving in front and firer.hex.distance(leaving) == 1)


def may_approach_fire(firer: Firer, *, entered: Hex) -> bool:
    """002 §10.45: artillery may fire at an enemy that enters a hex within 3 hexes during
    movement (arc and LOS by :func:`check_target`), once per enemy brigade activation."""
    return firer.artillery and not firer.phasing and \
        1 <= firer.hex.distance(entered) <= APPROACH_RANGE
