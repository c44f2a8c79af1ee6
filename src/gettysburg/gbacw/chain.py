"""The chain of command (002 §4.2): which leaders are linked to their superiors, and which
combat units are in command.

Pure functions over the command tree and two predicates the engine measures on the board:

* ``in_range(superior, subordinate)`` — the subordinate (a leader or a combat unit) is within
  the superior's command range (002 §4.15): counted in the superior's leader MP, the
  subordinate's hex counted and the superior's not, never into or through ground a leader
  cannot enter, nor through a hex next to an enemy unit unless a friendly combat unit holds
  it; a combat unit next to its own leader is always in range whatever the hexside; a leader
  off the map is in nobody's range and has nobody in his. A corps commander who spent more
  than 10 MP last turn has range 0 this turn (002 §9.32): only leaders stacked with him.
  :func:`within_range` does the arithmetic for one measured cost.
* ``adjacent(unit_a, unit_b)`` — the two combat units are in adjacent hexes.

When the status counts (002 §4.23): for activation and engineering it is fixed once, in step
II/A of the turn; for orders it is taken at II/A and again at each brigade orders-change roll
(§6.2). A unit out of command at those moments keeps its orders; it picks up its brigade's
orders the next time the brigade activates with the unit in command
(:func:`orders_on_activation`). Reinforcements count as in command for activation on the turn
they enter (002 §9.71).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from gettysburg.core.protocol import RuleError

InRange = Callable[[str, str], bool]
Adjacent = Callable[[str, str], bool]


def within_range(cost_mp: int | None, command_range: int, *, adjacent: bool = False) -> bool:
    """002 §4.15: a subordinate is in range when the cheapest legal path from the superior
    costs no more than his range (``cost_mp`` None: no legal path at all); a combat unit next
    to its own leader is in range regardless (pass ``adjacent``)."""
    if command_range < 0:
        raise ValueError(f"command_range must be >= 0, not {command_range}")
    if adjacent:
        return True
    return cost_mp is not None and cost_mp <= command_range


@dataclass(frozen=True)
class LeaderChain:
    """002 §4.21-4.22: a leader's link to his direct superior and the leaders above him that
    an unbroken run of links reaches (nearest first)."""

    leader: str
    superior: str | None
    in_range: bool  # of his direct superior; False when he has none
    chain: tuple[str, ...]

    def reaches(self, leader: str) -> bool:
        return leader in self.chain


def leader_chains(
    superior: Mapping[str, str | None], in_range: InRange
) -> dict[str, LeaderChain]:
    """002 §4.22: the chain holds through every leader who is in his superior's range.

    ``superior`` maps each leader to his direct superior (the OC and leaders under nobody map
    to None). Battle-book trees fit: TDG's cavalry division leaders answer straight to the OC
    (004 §4.13), Hunt and the artillery chiefs are corps-level (004 §4.3)."""
    for leader, boss in superior.items():
        if boss is not None and boss not in superior:
            raise ValueError(f"superior: {leader!r} answers to {boss!r}, who is not a leader")
    out: dict[str, LeaderChain] = {}
    for leader in sorted(superior):
        chain: list[str] = []
        seen = {leader}
        here = leader
        boss = superior[leader]
        linked = boss is not None and in_range(boss, leader)
        while boss is not None and in_range(boss, here):
            if boss in seen:
                raise ValueError(f"superior: the command tree loops through {boss!r}")
            seen.add(boss)
            chain.append(boss)
            here, boss = boss, superior[boss]
        out[leader] = LeaderChain(leader, superior[leader], linked, tuple(chain))
    return out


@dataclass(frozen=True)
class UnitCommand:
    """002 §4.22: a combat unit's command status under its direct leader."""

    unit: str
    leader: str
    in_command: bool
    via_units: bool  # in command only through a chain of adjacent units of its formation


def units_in_command(
    unit_leader: Mapping[str, str], in_range: InRange, adjacent: Adjacent
) -> dict[str, UnitCommand]:
    """002 §4.22 and its exception: a unit in its direct leader's range is in command, and so
    is every unit joined to it by a chain of adjacent units under the same direct leader (a
    brigade's regiments under their brigadier; a division's own batteries under the division
    leader). ``unit_leader`` maps each combat unit to its direct leader."""
    by_leader: dict[str, list[str]] = {}
    for unit in sorted(unit_leader):
        by_leader.setdefault(unit_leader[unit], []).append(unit)
    out: dict[str, UnitCommand] = {}
    for leader, units in by_leader.items():
        direct = {u for u in units if in_range(leader, u)}
        reached = set(direct)
        frontier = sorted(direct)
        while frontier:  # flood through adjacent units of the same formation
            here = frontier.pop()
            for other in units:
                if other not in reached and adjacent(here, other):
                    reached.add(other)
                    frontier.append(other)
        for u in units:
            out[u] = UnitCommand(u, leader, u in reached, u in reached and u not in direct)
    return out


@dataclass(frozen=True)
class ChainReport:
    """Step II/A (002 §4.23): every leader's chain and every combat unit's status."""

    leaders: Mapping[str, LeaderChain]
    units: Mapping[str, UnitCommand]

    def leader(self, ident: str) -> LeaderChain:
        try:
            return self.leaders[ident]
        except KeyError:
            raise ValueError(f"chain: no leader {ident!r}") from None

    def unit(self, ident: str) -> UnitCommand:
        try:
            return self.units[ident]
        except KeyError:
            raise ValueError(f"chain: no combat unit {ident!r}") from None

    def intact(self, leader: str, up_to: str) -> bool:
        """The chain runs unbroken from ``leader`` up to ``up_to`` (002 §4.22)."""
        return leader == up_to or self.leader(leader).reaches(up_to)


def chain_of_command(
    superior: Mapping[str, str | None],
    unit_leader: Mapping[str, str],
    in_range: InRange,
    adjacent: Adjacent,
) -> ChainReport:
    """002 §4.2, taken at step II/A: the whole side's chain."""
    for unit, leader in unit_leader.items():
        if leader not in superior:
            raise ValueError(f"unit_leader: {unit!r} answers to {leader!r}, who is not a leader")
    return ChainReport(leader_chains(superior, in_range),
                       units_in_command(unit_leader, in_range, adjacent))


def division_orders_allowed(report: ChainReport, brigadier: str, corps_commander: str) -> None:
    """002 §6.12 and step II/C: a brigade's orders change freely in Division Orders only when
    the chain runs from its brigadier through his division leader to the corps commander.
    A TDG cavalry division has no corps commander (004 §4.13): the engine passes the leader
    its tree puts above the division (the OC), or the division leader himself if it reads
    the book as needing no chain for orders either."""
    if not report.intact(brigadier, corps_commander):
        raise RuleError("6.12", f"{brigadier}'s chain of command to {corps_commander} is broken;"
                        " the brigade must roll to change orders when it activates (6.2)")


def orders_on_activation(
    unit_orders: str, brigade_orders: str, in_command: bool
) -> str:
    """002 §4.23: a unit that was out of command when its brigade changed orders keeps its own
    until the brigade next activates with the unit in command, then takes the brigade's."""
    return brigade_orders if in_command else unit_orders


def out_of_command(units: Iterable[UnitCommand]) -> frozenset[str]:
    """The units of ``units`` that are out of command (002 §4.2)."""
    return frozenset(u.unit for u in units if not u.in_command)
