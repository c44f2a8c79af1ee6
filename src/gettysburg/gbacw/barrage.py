"""The artillery barrage of Three Days of Gettysburg (004 §10.9; ``tdg.10.91``-``tdg.10.95``;
not the series' §10.9, E-1).

A barrage is declared on a drawn artillery AM while the side's artillery commander (Hunt;
Pendleton or Alexander) is on the map. Every battery in his range -- or joined to one that is
by a chain of adjacent batteries, the §4.22 exception -- may take part: they combine freely on
one target, fire twice, only at 4 hexes or more, and do not move in that phase. After
barrage fire each battery rolls the barrage check (d10 + the activations it has used this
turn) instead of the Fire Table's ammunition results. No side barrages two turns running.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import RuleError

from .charts import all_charts
from .charts.fire import BarrageOutcome, Side

MIN_RANGE = 4  # tdg.10.93
SHOTS = 2  # tdg.10.93: each battery fires twice in the phase


def check_declare(am_kind: str, commander_on_map: bool, turn: int,
                  last_barrage_turn: int | None) -> None:
    """tdg.10.92 and tdg.10.95: only on an artillery AM, with the artillery commander on the
    map, and not in the turn after a turn with one (turn-track indices); several in one
    turn are allowed (the §10.94 example uses a third artillery AM)."""
    if am_kind != "artillery":
        raise RuleError("tdg.10.92", "a barrage is declared only on an artillery AM")
    if not commander_on_map:
        raise RuleError("tdg.10.92", "the artillery commander is not on the map")
    if last_barrage_turn is not None and turn - last_barrage_turn == 1:
        raise RuleError("tdg.10.95", "no barrage two turns running")


def barrage_batteries(commander: Hex, command_range: int,
                      batteries: Mapping[str, Hex]) -> list[str]:
    """tdg.10.92: the batteries that may join: in the commander's range, or linked to one that
    is through adjacent batteries (the note's §4.22 exception)."""
    reached = {b for b, h in batteries.items() if commander.distance(h) <= command_range}
    frontier = sorted(reached)
    while frontier:
        here = batteries[frontier.pop()]
        for b, h in sorted(batteries.items()):
            if b not in reached and here.distance(h) == 1:
                reached.add(b)
                frontier.append(b)
    return sorted(reached)


def check_shot(battery: str, distance: int, moved: bool, shots_fired: int,
               eligible: Sequence[str]) -> None:
    """tdg.10.93: an eligible battery that has not moved, at 4+ hexes, at most twice."""
    if battery not in eligible:
        raise RuleError("tdg.10.92", f"{battery} is not in the artillery commander's range")
    if moved:
        raise RuleError("tdg.10.93", f"{battery} moved in this phase")
    if distance < MIN_RANGE:
        raise RuleError("tdg.10.93", f"barrage fire is at {MIN_RANGE}+ hexes, not {distance}")
    if shots_fired >= SHOTS:
        raise RuleError("tdg.10.93", f"{battery} has fired its {SHOTS} barrage shots")


def check_target(targets: Sequence[str]) -> None:
    """tdg.10.93: combined barrage fire goes at one target hex."""
    if len(set(targets)) > 1:
        raise RuleError("tdg.10.93", "combined barrage fire has one target")


def barrage_check(seat: Side, roll: int, activations_used: int) -> BarrageOutcome:
    """tdg.10.94: d10 + the battery's activations this turn; Union 9+ disordered; Confederate
    7+ disordered, above 9 removed (the chart's data)."""
    try:
        return all_charts().fire.barrage_check(seat, roll, activations_used)
    except ValueError as exc:
        raise RuleError("tdg.10.94", str(exc)) from None
