"""Retreats, routs, advance after combat and abandoned guns (002 §12.4-12.6, §12.8).

Pure functions: :func:`retreat_options` lists the retreats the owner may choose from (or
the SP a blocked retreat costs); :func:`through_checks` and :func:`rout_chain` roll the
chain reactions with no double jeopardy; :func:`advance_order` and :func:`check_advance`
rule the advance after shock; :func:`abandoned_next` ages abandoned guns.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from gettysburg.core.dice import Dice
from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import RuleError

from .board import Board
from .charts.terrain import TerrainChart, UnitClass
from .combatant import Check, Combatant, Disorder, Orders, check, disorder
from .facing import Facing, vertex_steps
from .movement import FriendStack, entry_cost

# --- retreats (002 §12.41-12.47) ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Surroundings:
    """What a retreat must keep clear of (002 §12.44, §12.46):

    ``enemy`` hexes holding enemy units; ``enemy_front`` the front hexes of enemy units;
    ``causing`` the hexes of the units that caused the retreat and of those that
    designated the unit for a shock still to resolve; ``friends`` the hexes of friendly
    units (``can_stack`` False: the retreating unit may pass but not stop); ``pending``
    friendly hexes designated for a shock not yet resolved (never entered nor passed)."""

    enemy: frozenset[Hex]
    enemy_front: frozenset[Hex] = frozenset()
    causing: frozenset[Hex] = frozenset()
    friends: Mapping[Hex, FriendStack] = field(default_factory=dict)
    pending: frozenset[Hex] = frozenset()


@dataclass(frozen=True, slots=True)
class RetreatPath:
    """One way back: the hexes entered, the friendly hexes passed through (their units
    check after the retreat, §12.46) and the terrain disorder checks met (§12.44)."""

    hexes: tuple[Hex, ...]
    through: tuple[Hex, ...]
    checks: tuple[tuple[Hex, Literal["auto", "udd"]], ...]

    @property
    def end(self) -> Hex:
        return self.hexes[-1]

    def to_json(self) -> dict[str, object]:
        return {"hexes": [str(h) for h in self.hexes], "through": [str(h) for h in self.through],
                "checks": [[str(h), k] for h, k in self.checks]}


@dataclass(frozen=True, slots=True)
class RetreatOptions:
    """The retreats allowed (``paths``; empty when none), the SP the stack loses for the
    hexes it cannot retreat (§12.44), and whether artillery that cannot retreat is
    abandoned instead (§12.45)."""

    paths: tuple[RetreatPath, ...]
    lost_sp: int
    abandoned: bool

    def to_json(self) -> dict[str, object]:
        return {"rule": "12.44", "paths": [p.to_json() for p in self.paths],
                "lost_sp": self.lost_sp, "abandoned": self.abandoned}


def _near(h: Hex, hexes: Collection[Hex]) -> int:
    return min((h.distance(e) for e in hexes), default=99)


def _steps(board: Board, frm: Hex, to: Hex, *, unit_class: UnitClass, orders: Orders,
           sur: Surroundings, chart: TerrainChart | None) -> tuple[bool, Literal["none", "auto",
                                                                                "udd"]]:
    """Whether a retreat may enter ``to`` from ``frm``, and the disorder check it meets."""
    if to not in board.hexes or to in sur.enemy or to in sur.pending:
        return False, "none"
    friend = sur.friends.get(to)
    screened = friend is not None and friend.combat
    if to in sur.enemy_front and not screened:
        return False, "none"
    if any(to.distance(c) == 1 for c in sur.causing) and not screened:
        return False, "none"
    # §12.41: on Advance within March stacking the roads may be used; not on Attack
    step = entry_cost(board, frm, to, unit_class=unit_class, orders=orders,
                      use_paths=orders != "attack", chart=chart)
    if isinstance(step, RuleError):
        return False, "none"
    if unit_class == "artillery" and step.half_mp > 4:
        return False, "none"  # §12.45: artillery never retreats into a hex of more than 2 MP
    return True, step.disorder


def retreat_options(board: Board, start: Hex, need: tuple[int, int], *,
                    unit_class: UnitClass, orders: Orders, sur: Surroundings,
                    chart: TerrainChart | None = None) -> RetreatOptions:
    """The retreats of ``need`` = (least, most) hexes from ``start`` (002 §12.44-12.46).

    A path never leaves the map, enters an enemy hex or closed ground, nor a front hex of
    an enemy or a hex next to the causing units unless friends hold it. It may pass through
    friends it cannot stack with and goes on until it can stop (never through a hex with a
    shock still to resolve); a 1-2 hex retreat stops after one hex rather than pass through
    friends. If possible it ends farther from the nearest enemy, then farther from the
    causing units; if only two hexes achieve that, a 1-2 hex retreat goes two. What cannot
    be retreated costs 1 SP a hex; artillery that cannot retreat is abandoned."""
    low, high = need
    if not 1 <= low <= high <= 2:
        raise ValueError("a retreat is of 1, 2 or 1-2 hexes")
    ends: list[RetreatPath] = []  # every hex it could stop in, however far

    def walk(path: list[Hex], through: list[Hex], checks: list[tuple[Hex, Literal["auto",
                                                                                   "udd"]]]
             ) -> None:
        here = path[-1] if path else start
        for d in range(6):
            to = here.neighbour(d)
            if to == start or to in path:
                continue
            ok, dis = _steps(board, here, to, unit_class=unit_class, orders=orders, sur=sur,
                             chart=chart)
            if not ok:
                continue
            friend = sur.friends.get(to)
            passing = friend is not None and not friend.can_stack
            nxt = [*path, to]
            if passing:
                if low < high and path:
                    continue  # §12.46: a 1-2 hex retreat stops rather than pass through
                if len(nxt) < 5:  # on through the friends until a hex it may stop in
                    walk(nxt, [*through, to], checks)
                continue
            new_checks = [*checks, (to, dis)] if dis in ("auto", "udd") else checks
            ends.append(RetreatPath(tuple(nxt), tuple(through), tuple(new_checks)))
            if len(nxt) < high:
                walk(nxt, through, new_checks)

    walk([], [], [])
    full = [p for p in ends if len(p.hexes) >= low]
    if not full:
        if unit_class == "artillery":
            return RetreatOptions((), 0, True)  # §12.45
        most = max((len(p.hexes) for p in ends), default=0)
        part = tuple(sorted((p for p in ends if len(p.hexes) == most), key=lambda p: p.hexes))
        return RetreatOptions(part if most else (), low - most, False)
    d0 = _near(start, sur.enemy)
    pool = [p for p in full if _near(p.end, sur.enemy) > d0] or full
    if sur.causing:
        c0 = _near(start, sur.causing)
        pool = [p for p in pool if _near(p.end, sur.causing) > c0] or pool
    return RetreatOptions(tuple(sorted(pool, key=lambda p: p.hexes)), 0, False)


def check_retreat(options: RetreatOptions, chosen: Sequence[Hex]) -> RetreatPath:
    """The owner's choice among the allowed retreats (002 §12.41), or a RuleError."""
    for p in options.paths:
        if tuple(chosen) == p.hexes:
            return p
    allowed = "; ".join(" ".join(str(h) for h in p.hexes) for p in options.paths) or "none"
    raise RuleError("12.44", f"not an allowed retreat (allowed: {allowed})")


def through_checks(dice: Dice, stationary: Sequence[Combatant], checked: set[str]) -> tuple[
        tuple[Check, ...], tuple[Disorder, ...]]:
    """002 §12.46: every stationary unit a retreat passed through takes a UDD after the
    retreat; failing disorders it (a second disorder from retreat-through if it already
    was). An extended unit checks once, and in one chain reaction no unit checks twice
    (``checked`` collects them; the first retreating units belong in it too)."""
    checks: list[Check] = []
    results: list[Disorder] = []
    for u in stationary:
        if u.unit in checked:
            continue
        checked.add(u.unit)
        c = check(dice, u, "retreat through friends", "12.46")
        checks.append(c)
        if not c.passed:
            results.append(disorder(dice, u, "retreat-through"))
    return tuple(checks), tuple(results)


def retreat_order(attackers: Sequence[Combatant], defenders: Sequence[Combatant]) -> str:
    """002 §12.48: when both sides retreat the side holding the highest cohesion (less half
    its fatigue, rounded up) goes last; on a tie the defenders retreat first. Returns the
    side that retreats first: "attacker" or "defender"."""
    def best(side: Sequence[Combatant]) -> int:
        return max((u.cohesion - -(-u.fatigue // 2) for u in side), default=-99)

    # the higher side goes last, so the other goes first; a tie sends the defenders first
    return "defender" if best(attackers) >= best(defenders) else "attacker"


# --- routs (002 §12.5) --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RoutChain:
    """A rout and what followed: every unit routed (in order; to its Division box, §12.53),
    every UDD rolled by a neighbour and each disorder it caused (§12.54)."""

    routed: tuple[str, ...]
    checks: tuple[Check, ...]
    disorders: tuple[Disorder, ...]

    def to_json(self) -> dict[str, object]:
        return {"rule": "12.54", "routed": list(self.routed),
                "checks": [c.to_json() for c in self.checks],
                "disorders": [d.to_json() for d in self.disorders]}


def _touching(a: Combatant, b: Combatant) -> bool:
    return any(x.distance(y) <= 1 for x in a.hexes for y in b.hexes)


def rout_chain(dice: Dice, first: Sequence[str], units: Sequence[Combatant]) -> RoutChain:
    """002 §12.53-12.54: each routing unit makes every friendly infantry or cavalry unit
    adjacent to or stacked with it take a UDD; failing is a disorder result (so a unit
    already disordered takes the second disorder of an adjacent rout and may rout in turn).
    No double jeopardy: a unit checks once per chain. Artillery never routs nor checks."""
    by_id = {u.unit: u for u in units}
    for name in first:
        if name not in by_id:
            raise ValueError(f"no unit {name!r}")
        if by_id[name].kind == "artillery":
            raise RuleError("12.53", f"{name}: artillery never routs (it is abandoned)")
    routed = list(first)
    checked = set(first)
    checks: list[Check] = []
    disorders: list[Disorder] = []
    i = 0
    while i < len(routed):
        r = by_id[routed[i]]
        i += 1
        for u in units:
            if (u.unit in checked or u.side != r.side or u.kind == "artillery"
                    or u.abandoned or not _touching(u, r)):
                continue
            checked.add(u.unit)
            c = check(dice, u, f"adjacent rout of {r.unit}", "12.54")
            checks.append(c)
            if c.passed:
                continue
            d = disorder(dice, u, "adjacent-rout")
            disorders.append(d)
            if d.rout:
                routed.append(u.unit)
    return RoutChain(tuple(routed), tuple(checks), tuple(disorders))


# --- advance after combat (002 §11.46, §12.6) ---------------------------------------------


def advance_order(attackers: Sequence[Combatant]) -> list[Combatant]:
    """002 §11.46: into the emptied hex go the charging units first, then the others, each
    stack's upper units before lower ones (``attackers`` in stack order); artillery never
    advances."""
    movers = [a for a in attackers if a.kind != "artillery"]
    return [a for a in movers if a.charging] + [a for a in movers if not a.charging]


def check_advance(board: Board, u: Combatant, to: Hex, *, new_facing: Facing,
                  enemy: Collection[Hex], chart: TerrainChart | None = None
                  ) -> Literal["none", "auto", "udd"]:
    """002 §12.6: an advance enters an adjacent empty hex (abandoned guns may stay there)
    across ground open to movement, may turn one vertex, and meets the hex's D or d (the
    caller rolls it; a failed check stops a disordered unit). Artillery never advances."""
    if u.kind == "artillery":
        raise RuleError("12.6", f"{u.unit}: artillery never advances")
    if to in enemy:
        raise RuleError("12.6", f"{to} is not empty")
    if u.hex.distance(to) != 1:
        raise RuleError("12.6", f"{to} is not next to {u.hex}")
    step = entry_cost(board, u.hex, to, unit_class=u.kind, orders=u.orders, use_paths=False,
                      chart=chart)
    if isinstance(step, RuleError):
        raise RuleError("12.6", f"{u.unit} may not advance into {to}: {step.message}")
    if new_facing.kind != u.facing.kind or vertex_steps(u.facing, new_facing) > 1:
        raise RuleError("12.6", "an advancing unit may turn one vertex at most")
    return step.disorder


# --- abandoned guns (002 §11.62, §12.8) ---------------------------------------------------

Abandoned = Literal["abandoned-1", "abandoned-2"]


def abandoned_next(state: Abandoned) -> Abandoned | Literal["eliminated"]:
    """002 §12.8, §12.82: in the Recovery phase Abandoned-1 turns to Abandoned-2, and guns
    still Abandoned-2 at the next one are eliminated."""
    return "abandoned-2" if state == "abandoned-1" else "eliminated"


def recrewed(*, good_order_friend_entered: bool = False, advanced_in: bool = False,
             friend_rallied_in_hex: bool = False) -> bool:
    """002 §12.81: the guns are manned again when a friendly unit in good order enters or
    crosses the hex, a friendly unit advances into it after combat (even disordered), or a
    friendly unit in the hex rallies. The battery comes back disordered, one at a time."""
    return good_order_friend_entered or advanced_in or friend_rallied_in_hex


def spared_by_friend(*, friend_good_order: bool, friend_passed_udd: bool) -> bool:
    """002 §12.8: a friendly unit in the battery's hex in good order that passes its UDD
    for friendly fire or a retreat through it keeps the guns from being abandoned."""
    return friend_good_order and friend_passed_udd
