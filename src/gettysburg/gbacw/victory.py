"""Scoring a TDG scenario's end, or the campaign's sudden death (004 "Gli scenari": sc.1.7,
sc.2.7, sc.3.8, sc.4.7, sc.5.7, sc.6.7).

One function, :func:`score`, reads a scenario's ``victory`` block (``gbacw/scenario.py``)
against a :class:`Standing` -- a plain record of where the combat units stand, who last
occupied each objective, and how many brigades and divisions each side has combat-
ineffective -- and returns a :class:`Verdict`: the winner or a draw, a band for display and
the reasons (which hexes, which counts). The engine builds the standing; nothing here reads
a game.

Readings (see ``docs/gbacw-scenarios.md`` "Victory"):

- *control* (sc.1, sc.2, sc.6) = the side occupying the hex now, or, if nobody is there, the
  side that occupied it last; *occupy* (sc.3, sc.4, sc.5) = occupying it now.
- sc.4/sc.5 say only "the larger the margin, the larger the win"; the bands of
  :data:`VP_BANDS` are a substitute.
- sc.6 "after the 1400 turn of 3 July" is read strictly: from the 1500 turn on.
- sc.6's Emmitsburg Road test uses the road as the derived board draws it, for the rows
  (XX) between its two named hexes; "on or east" = in a row of that stretch, at or east of
  the road's westmost hex in that row (YY grows westward, 004 D.3).
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from gettysburg.core.canonical import JSONDict
from gettysburg.core.hexids import axial_to_offset
from gettysburg.core.protocol import RuleError

from .board import Board
from .scenario import (
    CiDifferential,
    Control,
    Outcome,
    Seat,
    SuddenDeath,
    Victory,
    VictoryPoints,
    turn_key,
)

Arm = Literal["inf", "cav", "art", "horse_art"]
ROAD_NAME = "Emmitsburg Road"  # the only road line a victory block names (004 sc.6.7)

#: (least margin, band) for a victory-point win, largest first (substitute: 004 gives none)
VP_BANDS: tuple[tuple[int, str], ...] = ((10, "decisive"), (5, "substantive"), (1, "marginal"))


def other(seat: Seat) -> Seat:
    """The opposing seat: the other side of a scenario's victory conditions (004 sc.1-6)."""
    return "csa" if seat == "usa" else "usa"


@dataclass(frozen=True)
class UnitAt:
    """A combat unit on the map, as the victory rules see it."""

    hex: str
    seat: Seat
    arm: Arm = "inf"
    in_command: bool = True


@dataclass(frozen=True)
class Standing:
    """What the victory rules look at, at the end of a turn.

    ``control``: hex id -> the side that last occupied it (kept by the engine for every
    objective); ``last_held``: hex id -> side -> the last turn ("d-hhmm") that side
    occupied it (for objectives "occupied at any time after"); ``ci_divisions`` counts a
    cavalry brigade as a division (sc.6.7); ``ci_brigades`` includes brigades that started
    the scenario combat-ineffective (sc.4.7 note)."""

    turn: str
    units: tuple[UnitAt, ...] = ()
    control: Mapping[str, Seat] = field(default_factory=dict)
    last_held: Mapping[str, Mapping[Seat, str]] = field(default_factory=dict)
    ci_divisions: Mapping[Seat, int] = field(default_factory=dict)
    ci_brigades: Mapping[Seat, int] = field(default_factory=dict)

    def occupants(self) -> dict[str, Seat]:
        """hex id -> the side with combat units there (two sides never share a hex)."""
        return {u.hex: u.seat for u in self.units}


@dataclass(frozen=True)
class Verdict:
    """``decided`` is False only for a sudden-death check that nobody has met yet."""

    decided: bool
    winner: Seat | None
    band: str  # "victory", "draw", or a VP band; "" while undecided
    reasons: tuple[str, ...]
    points: Mapping[Seat, int] = field(default_factory=dict)

    @property
    def draw(self) -> bool:
        return self.decided and self.winner is None

    def to_json(self) -> JSONDict:
        out: JSONDict = {"decided": self.decided, "winner": self.winner, "draw": self.draw,
                         "band": self.band, "reasons": list(self.reasons)}
        if self.points:
            out["points"] = dict(sorted(self.points.items()))
        return out


def _verdict(outcome: Outcome, band: str, reasons: list[str],
             points: Mapping[Seat, int] | None = None) -> Verdict:
    winner: Seat | None = None if outcome == "draw" else outcome
    return Verdict(True, winner, "draw" if winner is None else band, tuple(reasons),
                   dict(points or {}))


# --- the pieces ----------------------------------------------------------------------------------
def holder(hex_id: str, cond: Control, st: Standing) -> Seat | None:
    """Who holds ``hex_id`` in ``cond``'s sense (004 sc.1.7 control; sc.3.8 occupation;
    sc.6.7 [a] occupation at any time after a turn)."""
    now = st.occupants().get(hex_id)
    if cond.since is not None:
        held = st.last_held.get(hex_id, {})
        after = turn_key(cond.since)
        if (now == cond.seat and turn_key(st.turn) > after) or (
                cond.seat in held and turn_key(held[cond.seat]) > after):
            return cond.seat
        return None if now == cond.seat else now  # there too early does not count
    if now is not None or cond.occupy:
        return now
    return st.control.get(hex_id)


def control_met(cond: Control, st: Standing, reasons: list[str]) -> bool:
    """004 sc.1.7 / sc.2.7 / sc.3.8: ``cond.seat`` holds every hex; names the ones missed."""
    verb = "occupies" if cond.occupy else "controls"
    missed = [h for h in cond.hexes if holder(h, cond, st) != cond.seat]
    if missed:
        reasons.append(f"{cond.seat} does not hold {', '.join(missed)}")
        return False
    reasons.append(f"{cond.seat} {verb} {', '.join(cond.hexes)}"
                   + (f" (after {cond.since})" if cond.since else ""))
    return True


def ci_step(cond: CiDifferential, st: Standing, reasons: list[str]) -> Outcome | None:
    """004 sc.1.7: the result set by how many more CI divisions ``cond.seat`` has."""
    mine = st.ci_divisions.get(cond.seat, 0)
    theirs = st.ci_divisions.get(other(cond.seat), 0)
    more = mine - theirs
    reasons.append(f"CI divisions: {cond.seat} {mine}, {other(cond.seat)} {theirs}")
    best: Outcome | None = None
    for step in sorted(cond.steps, key=lambda s: s.more):
        if more >= step.more:
            best = step.result
    return best


def vp_band(margin: int) -> str:
    """The level of victory a victory-point margin reaches (004 sc.4, sc.5 score by points and give
    no bands: :data:`VP_BANDS` is a substitute)."""
    for least, band in VP_BANDS:
        if margin >= least:
            return band
    return "draw"


def victory_points(cond: VictoryPoints, st: Standing,
                   reasons: list[str]) -> dict[Seat, int]:
    """004 sc.4.7 / sc.5.7: each objective scores for the side occupying all its hexes; each
    enemy CI brigade scores ``enemy_ci_brigade``."""
    occ = st.occupants()
    points: dict[Seat, int] = {"usa": 0, "csa": 0}
    for obj in cond.objectives:
        seats = {occ.get(h) for h in obj.hexes}
        first = occ.get(obj.hexes[0])
        if first is not None and seats == {first}:
            gain = obj.usa if first == "usa" else obj.csa
            points[first] += gain
            reasons.append(f"{first} occupies {obj.id} ({', '.join(obj.hexes)}): +{gain}")
    seat: Seat
    for seat in ("usa", "csa"):
        n = st.ci_brigades.get(other(seat), 0)
        if n:
            points[seat] += n * cond.enemy_ci_brigade
            reasons.append(f"{seat}: {n} enemy CI brigades: +{n * cond.enemy_ci_brigade}")
    return points


_LINES: dict[tuple[int, str, str, str], tuple[weakref.ref[Board], dict[int, int]]] = {}


def road_line(board: Board, start: str, end: str, name: str = ROAD_NAME) -> dict[int, int]:
    """Row XX -> the westmost YY of the named road in that row, for the rows between
    ``start`` and ``end`` (global sheet-B coordinates; 004 sc.6.7). Kept while the board
    lives."""
    key = (id(board), start, end, name)
    kept = _LINES.get(key)
    if kept is None or kept[0]() is not board:
        kept = (weakref.ref(board), _road_line(board, start, end, name))
        _LINES[key] = kept
    return kept[1]


def _road_line(board: Board, start: str, end: str, name: str) -> dict[int, int]:
    kind = board.codec.offset
    rows = sorted(axial_to_offset(board.parse(h), kind)[0] for h in (start, end))
    line: dict[int, int] = {}
    for side in board.sides.values():
        if any(r.name == name for r in side.roads):
            for h in side.side.hexes():
                col, row = axial_to_offset(h, kind)
                if rows[0] <= col <= rows[1]:
                    line[col] = max(line.get(col, row), row)
    if not line:
        raise RuleError("tdg.sc.6.7", f"no {name} between {start} and {end} on the board")
    return line


def road_intruders(board: Board, line: Mapping[int, int], units: Sequence[UnitAt],
                   seat: Seat) -> list[str]:
    """Hexes of ``seat``'s in-command infantry or cavalry on or east of ``line``
    (004 sc.6.7, the Union's geographic objective)."""
    kind = board.codec.offset
    out: list[str] = []
    for u in units:
        if u.seat != seat or not u.in_command or u.arm not in ("inf", "cav"):
            continue
        col, row = axial_to_offset(board.parse(u.hex), kind)
        if col in line and row <= line[col]:
            out.append(u.hex)
    return sorted(set(out))


def sudden_death_met(cond: SuddenDeath, st: Standing, board: Board | None,
                     reasons: list[str]) -> bool:
    """004 sc.6.7: ``cond.seat`` wins on all its geographic objectives (from ``from_turn``)
    or on the enemy's count of CI divisions."""
    enemy = other(cond.seat)
    if cond.enemy_ci_divisions is not None:
        n = st.ci_divisions.get(enemy, 0)
        if n >= cond.enemy_ci_divisions:
            reasons.append(f"{cond.seat}: {enemy} has {n} CI divisions "
                           f"(>= {cond.enemy_ci_divisions})")
            return True
    if cond.from_turn is not None and turn_key(st.turn) < turn_key(cond.from_turn):
        return False
    geo: list[str] = []
    ok = all([control_met(c, st, geo) for c in cond.geographic])
    if ok and cond.clear_road is not None:
        if board is None:
            raise RuleError("tdg.sc.6.7", "the Emmitsburg Road test needs the board")
        line = road_line(board, *cond.clear_road)
        bad = road_intruders(board, line, st.units, enemy)
        if bad:
            geo.append(f"in-command {enemy} units on or east of the {ROAD_NAME}: "
                       f"{', '.join(bad)}")
            ok = False
        else:
            geo.append(f"no in-command {enemy} infantry or cavalry on or east of the "
                       f"{ROAD_NAME} ({cond.clear_road[0]}-{cond.clear_road[1]})")
    if ok:
        reasons.extend(geo)
    return ok


# --- the one entry point -------------------------------------------------------------------------
def score(victory: Victory, st: Standing, *, final: bool = True,
          board: Board | None = None) -> Verdict:
    """The scenario's verdict for ``st`` (004 sc.1.7-6.7).

    ``final``: the scenario's last turn is over (for the campaign: its E-14 end); a sudden-
    death block checked mid-campaign with ``final=False`` returns ``decided=False`` when
    neither side has met its objectives."""
    reasons: list[str] = []
    deaths = [c for c in victory.conditions if isinstance(c, SuddenDeath)]
    if deaths:
        won = sorted({c.seat for c in deaths if sudden_death_met(c, st, board, reasons)})
        if len(won) == 2:
            return _verdict("draw", "draw", [*reasons, "both sides met an objective this turn"])
        if won:
            return _verdict(won[0], "victory", reasons)
        if not final:
            return Verdict(False, None, "", ("no side has met its objectives",))
        return _verdict(victory.otherwise or "draw", "victory",
                        ["no side met its objectives by the end"])
    vps = [c for c in victory.conditions if isinstance(c, VictoryPoints)]
    if vps:
        points: dict[Seat, int] = {"usa": 0, "csa": 0}
        for c in vps:
            for seat, n in victory_points(c, st, reasons).items():
                points[seat] += n
        margin = abs(points["usa"] - points["csa"])
        reasons.append(f"points: usa {points['usa']}, csa {points['csa']}")
        if margin == 0:
            return _verdict("draw", "draw", reasons, points)
        lead: Seat = "usa" if points["usa"] > points["csa"] else "csa"
        return _verdict(lead, vp_band(margin), reasons, points)
    outcome: Outcome | None = None
    for cond in victory.conditions:
        if isinstance(cond, Control):
            if not control_met(cond, st, reasons):
                outcome = None
                break
            outcome = cond.seat
        elif isinstance(cond, CiDifferential) and outcome == cond.seat:
            step = ci_step(cond, st, reasons)
            if step is not None:
                outcome = step
                reasons.append("the CI differential makes it "
                               + ("a draw" if step == "draw" else f"a {step} win"))
    if outcome is None:
        outcome = victory.otherwise or "draw"
    return _verdict(outcome, "victory", reasons)
