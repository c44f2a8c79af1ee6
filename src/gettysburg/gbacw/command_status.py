"""Step II/A (002 §4.2, §4.23): the command tree of one side in play and its chain measured
on the board, with the pure chain rules of :mod:`gettysburg.gbacw.chain` and the leader-MP
command costs of :mod:`gettysburg.gbacw.paths` (002 §4.15).

The tree: a brigadier answers to his division leader (a brigade straight under a corps, to
the corps commander); a division leader to his corps commander, except TDG's cavalry
divisions, which answer to the OC (004 §4.13); a corps commander (and Hunt, 004 §4.3) to the
OC. A leader whose superior is not in play answers to nobody, so his chain stops with him.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from gettysburg.core.hexes import Hex
from gettysburg.gbacw.board import Board
from gettysburg.gbacw.chain import ChainReport, chain_of_command
from gettysburg.gbacw.paths import command_cost

#: TDG's independent cavalry divisions (004 §4.13, §5.23; the pools chart's commands).
INDEPENDENT = frozenset({"US-1/Cav", "US-2/Cav", "US-3/Cav"})


@dataclass(frozen=True)
class CommandTree:
    superior: dict[str, str | None]  # leader -> his superior in play
    unit_leader: dict[str, str]  # combat unit -> its direct leader
    ranges: dict[str, int]  # leader -> command range in leader MP


def measure(board: Board, tree: CommandTree, where: Mapping[str, Hex | None],
            enemy: set[Hex], friendly_combat: set[Hex]) -> ChainReport:
    """The chain report of one side (002 §4.22): ``where`` gives every leader's and unit's
    hex (None off the map, in nobody's range). Command costs are searched once a leader,
    within his range (002 §4.15)."""
    adjacent_enemy = frozenset(n for e in enemy for n in (e, *e.neighbours()))
    costs: dict[str, dict[Hex, int]] = {}

    def cost_from(leader: str, origin: Hex) -> dict[Hex, int]:
        found = costs.get(leader)
        if found is None:
            found = command_cost(board, origin,
                                 enemy_adjacent=lambda h: h in adjacent_enemy,
                                 friendly_combat=lambda h: h in friendly_combat,
                                 limit_half=2 * tree.ranges.get(leader, 0))
            costs[leader] = found
        return found

    def in_range(sup: str, sub: str) -> bool:
        a, b = where.get(sup), where.get(sub)
        if a is None or b is None:
            return False
        if a.distance(b) <= 1:
            return True  # stacked or adjacent: always in range (002 §4.15)
        half = cost_from(sup, a).get(b)
        return half is not None and half <= 2 * tree.ranges.get(sup, 0)

    def adjacent(u: str, v: str) -> bool:
        a, b = where.get(u), where.get(v)
        return a is not None and b is not None and a.distance(b) <= 1

    return chain_of_command(tree.superior, tree.unit_leader, in_range, adjacent)
