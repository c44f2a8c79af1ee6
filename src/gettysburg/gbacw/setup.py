"""A scenario as the engine plays it: counters on hexes, leaders, the turn span, the
initiative of turn 1 and the reinforcements by turn, resolved once from a
:class:`gettysburg.gbacw.scenario.Scenario` (004 "Gli scenari"; 002 §9.7).

The set-up comes from the scenario's placer (``Scenario.deployment``); a reinforcement group
(a :class:`~gettysburg.gbacw.scenario.Force`) becomes its counters here, entering on its
area's hex (each entry area 1..14 is one map-edge hex, ``HexInfo.entry``)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from gettysburg.core.protocol import Seat
from gettysburg.gbacw.board import Board
from gettysburg.gbacw.charts import all_charts
from gettysburg.gbacw.deployment import place_leaders, place_units
from gettysburg.gbacw.oob import Oob
from gettysburg.gbacw.scenario import Force, Scenario, load_scenario
from gettysburg.gbacw.state import SIDE_OF_SEAT

JULY = 7
YEAR = 1863


@dataclass(frozen=True)
class Piece:
    """A counter's place at the start or on arrival."""

    counter: str
    hex: str
    orders: str
    facing: int | None
    mounted: bool | None = None
    sp_lost: int = 0  # PL-n and named losses before the scenario (digest §D.2)


@dataclass(frozen=True)
class Arrival:
    """One reinforcement group (002 §9.7): its counters and leaders enter on ``turn``."""

    id: str
    seat: Seat
    turn: int  # turn-track index
    hex: str
    orders: str | None
    activations: int | None
    counters: tuple[str, ...]
    leaders: tuple[str, ...]
    roll: tuple[int, int] | None = None  # arrives on a d10 in lo..hi, else a later stage
    later: tuple[tuple[int, str, tuple[int, int] | None], ...] = ()  # (turn, hex, roll)


@dataclass
class EngineSetup:
    id: str
    title: str
    first_turn: int
    last_turn: int
    initiative: Seat | None
    fatigue: bool
    pieces: dict[Seat, list[Piece]] = field(default_factory=dict)
    leaders: dict[Seat, list[tuple[str, str]]] = field(default_factory=dict)
    arrivals: list[Arrival] = field(default_factory=list)
    scenario: Scenario | None = None


def turn_index(turn: str) -> int:
    """The turn-track index of a scenario turn written ``<July day>-<HHMM>`` (004 sc.1-6)."""
    day, _, hhmm = turn.partition("-")
    return all_charts().turn_track.turn(dt.date(YEAR, JULY, int(day)), int(hhmm[:2])).index


def turn_label(index: int) -> str:
    """The scenario form ``<July day>-<HHMM>`` of a turn-track index (002 §3.0; 004 sc.1-6)."""
    t = all_charts().turn_track.turns()[index]
    return f"{t.date.day}-{t.hour:02d}00"


def force_counters(force: Force, seat: str, oob: Oob) -> list[str]:
    """Every counter id a force brings (cavalry: both twins; the engine keeps one) (002 §9.7)."""
    side = SIDE_OF_SEAT[seat]
    counters = [c for c in oob.counters() if c.side == side]
    wanted: set[str] = set()
    for name in force.formations:
        hits = oob.resolve(name, side=side, kind="formation")  # type: ignore[arg-type]
        if len(hits) != 1:
            raise ValueError(f"formation {name!r} resolves to {hits}")
        fid = hits[0].split(":", 1)[1]
        wanted |= {c.id for c in counters if fid in (c.formation, c.division, c.corps)}
    for ref in force.units:
        wanted |= _unit_counters(ref.name, ref.within, side, oob, counters)
    for ref in force.less:
        wanted -= _unit_counters(ref.name, ref.within, side, oob, counters)
    return sorted(wanted)


def _unit_counters(name: str, within: str | None, side: str, oob: Oob,
                   counters: Iterable[object]) -> set[str]:
    hits = oob.resolve(name, side=side, kind="unit", within=within)  # type: ignore[arg-type]
    if len(hits) != 1:
        raise ValueError(f"unit {name!r} resolves to {hits}")
    _, corps, unit = hits[0].split(":", 2)
    return {c.id for c in counters  # type: ignore[attr-defined]
            if c.corps == corps and c.unit == unit}  # type: ignore[attr-defined]


def entry_hex(board: Board, area: int | None, hex_id: str | None) -> str:
    """A group's entry hex: the one named, else its area's direct hex (004 §9.76)."""
    if hex_id is not None:
        return hex_id
    for info in board.hexes.values():
        if info.entry == area:
            return info.id
    raise ValueError(f"no map hex holds entry area {area}")


def engine_setup(scenario: str | Scenario, oob: Oob, board: Board) -> EngineSetup:
    """The engine's set-up of a scenario: pieces, leaders, turns and arrival groups
    (004 sc.1-6; 002 §9.7)."""
    scen = scenario if isinstance(scenario, Scenario) else load_scenario(scenario)
    first = turn_index(scen.first_turn)
    last = turn_index(scen.last_turn) if scen.last_turn else len(
        all_charts().turn_track.turns()) - 1
    out = EngineSetup(scen.id, scen.title, first, last, scen.initiative,
                      scen.options.fatigue, scenario=scen)
    seat: Any
    for seat in ("usa", "csa"):
        out.pieces[seat] = [Piece(p.counter, p.hex, p.orders, p.facing, sp_lost=p.sp_lost)
                            for p in place_units(scen, seat, oob, board)]
        out.leaders[seat] = [(lp.leader, lp.hex)
                             for lp in place_leaders(scen, seat, oob, board)]
        for group in scen.reinforcements.get(seat, ()):
            if group.cold_start_only:
                continue
            out.arrivals.append(Arrival(
                group.id, seat, turn_index(group.turn),
                entry_hex(board, group.entry.area,
                          group.entry.hex or next(iter(group.entry.hexes or ()), None)),
                group.orders, group.activations, tuple(force_counters(group, seat, oob)),
                tuple(group.leaders), group.roll,
                tuple((turn_index(a.turn),
                       entry_hex(board, a.entry.area,
                                 a.entry.hex or next(iter(a.entry.hexes or ()), None)),
                       a.roll) for a in group.later)))
    return out
