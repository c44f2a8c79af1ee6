"""Badges of Courage scenarios (rule 9.0): set-ups, arrivals, victory, options.

Scenario files live in ``boc/data/scenarios/``; ids are ``boc/day1``, ``boc/day2``,
``boc/day3`` and ``boc/battle``. Loading validates every unit id, strength and hex;
any problem raises :class:`~gettysburg.boc.oob.DataError` naming file, entry and field.

Hexes are checked against an injected :class:`BoardLike` (the real map lives in
``gettysburg.boc.board``); :func:`place_with_overflow` applies the 9.2 set-up rule
(fill the named hex to its stacking limit, then adjacent hexes).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol, Self

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from gettysburg.boc.oob import (
    DATA_DIR,
    SIDES,
    DataError,
    OrderOfBattle,
    Side,
    default_oob,
    read_yaml,
)

SCENARIO_DIR = DATA_DIR / "scenarios"
SCENARIO_FILES: Mapping[str, str] = {
    "boc/day1": "day1.yaml",
    "boc/day2": "day2.yaml",
    "boc/day3": "day3.yaml",
    "boc/battle": "battle.yaml",
    "boc/tutorial": "tutorial.yaml",  # the web client's first-game tutorial (boc/tutorial.py)
}

#: Entry roads (6.7). The seeds name the first six; the Day 1 arrivals need the rest.
#: "Chambersburg Pike" is the seeds' "Cashtown Pike"; "Littlestown Road" is their
#: "Littleton"/"Littletown" road (9.74).
EntryRoad = Literal[
    "Chambersburg Pike",
    "Baltimore Pike",
    "Taneytown Road",
    "Emmitsburg Road",
    "Hanover Road",
    "Littlestown Road",
    "Mummasburg Road",
    "Carlisle Road",
    "Harrisburg Road",
    "York Pike",
    "Fairfield Road",
    "Hunterstown Road",
]
ENTRY_ROAD_ALIASES: Mapping[str, str] = {
    "Cashtown Pike": "Chambersburg Pike",
    "Littleton Road": "Littlestown Road",
    "Littletown Road": "Littlestown Road",
}

HEX_RE = re.compile(r"^([A-Z])(\d{1,2})$")
TIME_RE = re.compile(r"^(?:[01]\d|2[0-3]):00$")
#: A game turn is an hour (1.0); "night" is the 9.7 night turn between two days.
Time = str


class BoardLike(Protocol):
    """What scenarios need from a map (the real one is ``gettysburg.boc.board``)."""

    def has_hex(self, hex_id: str) -> bool: ...

    def stacking_limit(self, hex_id: str) -> int: ...  # 4 clear, 3 woods/orchard/town, 2 ...

    def neighbours(self, hex_id: str) -> list[str]: ...  # on-map neighbour ids


def parse_hex(hex_id: str) -> tuple[int, int]:
    """``Q10`` -> (letter index A=0, number)."""
    m = HEX_RE.match(hex_id)
    if not m:
        raise ValueError(f"{hex_id!r} is not a hex id (letter + number)")
    return ord(m.group(1)) - ord("A"), int(m.group(2))


def format_hex(letter: int, number: int) -> str:
    return f"{chr(ord('A') + letter)}{number}"


#: Fixed overflow order (9.2): the six axial directions (letter step, number step),
#: clockwise from north on the registered map: N, NE, ESE, S, SW, WNW
#: (a letter step points south, a number step west-north-west; boc-facts.md 1).
OVERFLOW_DIRECTIONS: tuple[tuple[int, int], ...] = (
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, 0),
    (1, 1),
    (0, 1),
)


# --- models ------------------------------------------------------------------------------
class _Strict(BaseModel):
    # Validators built on first use, not at import (issue 59): most commands read one
    # scenario, and those that read none never build them.
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class Placement(_Strict):
    unit: str
    strength: int | None = Field(default=None, ge=0, le=4)  # None = full (max) strength

    @model_validator(mode="before")
    @classmethod
    def _from_str(cls, v: Any) -> Any:
        return {"unit": v} if isinstance(v, str) else v


class SetupHex(_Strict):
    hex: str
    units: tuple[Placement, ...]
    note: str | None = None

    @model_validator(mode="after")
    def _hex_ok(self) -> Self:
        parse_hex(self.hex)
        if not self.units:
            raise ValueError("a set-up hex needs at least one unit")
        return self


class Eliminated(_Strict):
    unit: str
    counts_for: Side  # the side credited with the VP (9.12)
    note: str | None = None


class Acting(_Strict):
    """An HQ acting in a higher role (4.61): e.g. Doubleday as I Corps CHQ."""

    unit: str
    role: Literal["chq", "ahq", "dhq"]
    corps: str
    division: str | None = None
    note: str


class Arrival(_Strict):
    day: int | None = Field(default=None, ge=1, le=3)  # None = the scenario's day
    time: Time
    side: Side
    entry: EntryRoad
    hex: str | None = None  # entry hex when the seeds print it
    units: tuple[Placement, ...]
    option: str | None = None  # only when this option is in play
    unless_option: str | None = None  # not when this option is in play
    designed: bool = True
    basis: str
    note: str | None = None

    @model_validator(mode="before")
    @classmethod
    def _road_alias(cls, v: Any) -> Any:
        if isinstance(v, dict) and v.get("entry") in ENTRY_ROAD_ALIASES:
            v = {**v, "entry": ENTRY_ROAD_ALIASES[v["entry"]]}
        return v

    @model_validator(mode="after")
    def _ok(self) -> Self:
        if self.time != "night" and not TIME_RE.match(self.time):
            raise ValueError(f"time {self.time!r} is not 'HH:00' or 'night'")
        if self.hex is not None:
            parse_hex(self.hex)
        return self


class VictoryBands(_Strict):
    """9.1: the CSA total (terrain VPs + enemy units eliminated - own units eliminated)."""

    rule: str
    csa_win_min: int  # CSA wins at this total or more
    usa_win_max: int  # USA wins at this total or less; in between is a draw
    note: str | None = None


class Option(_Strict):
    name: str
    rule: str
    summary: str


class DesignedPart(_Strict):
    part: str
    designed: bool
    basis: str


class RollToJoin(_Strict):
    unit: str
    side: Side
    min_roll: int = Field(ge=1, le=6)
    joins: str  # division / group joined
    note: str | None = None


class Outcome(_Strict):
    time: Time
    entry: EntryRoad
    who: str


class CavalryFight(_Strict):
    name: str
    usa_group: tuple[str, ...]  # the defending USA division (10.0: USA defends)
    unopposed: Outcome
    usa_win: Outcome
    csa_win: Outcome
    stalemate: str


class CavalryBattle(_Strict):
    """10.0 optional off-map cavalry battles (Day 3)."""

    rule: str
    optional: bool
    day: int
    deploy_time: Time
    off_map: dict[Side, tuple[str, ...]]
    on_map: tuple[str, ...]
    withdrawn: tuple[str, ...]
    transfers: tuple[dict[str, str], ...]
    rolls: tuple[RollToJoin, ...]
    custer_transfer: dict[str, str]
    csa_pool: tuple[str, ...]
    fights: tuple[CavalryFight, ...]
    rounds: int
    defender: Side
    command_needed: bool
    hqs_fire: bool
    forced_retreat_after_round_3: bool
    eliminated_count_for_vp: bool
    without_option: str


class Scenario(_Strict):
    id: str
    title: str
    rule: str
    day: int = Field(ge=1, le=3)
    start: Time
    end: str
    first_player: Side
    deploy_order: tuple[Side, Side] = ("usa", "csa")
    victory: VictoryBands
    victory_checks: tuple[str, ...] = ()
    setup: dict[Side, tuple[SetupHex, ...]]
    eliminated: tuple[Eliminated, ...] = ()
    acting: tuple[Acting, ...] = ()
    arrivals: tuple[Arrival, ...] = ()
    options: tuple[Option, ...] = ()
    cavalry_battle: CavalryBattle | None = None
    designed: tuple[DesignedPart, ...] = ()
    notes: tuple[str, ...] = ()

    @model_validator(mode="after")
    def _times(self) -> Self:
        if not TIME_RE.match(self.start):
            raise ValueError(f"start {self.start!r} is not 'HH:00'")
        return self

    def setup_units(self, side: Side) -> list[tuple[str, Placement]]:
        return [(h.hex, p) for h in self.setup.get(side, ()) for p in h.units]

    def placements(self) -> dict[str, tuple[str, int]]:
        """unit id -> (named hex, current strength) for both sides' set-ups."""
        out: dict[str, tuple[str, int]] = {}
        oob = default_oob()
        for side in SIDES:
            for hx, p in self.setup_units(side):
                strength = p.strength if p.strength is not None else oob[p.unit].max_strength
                out[p.unit] = (hx, strength)
        return out


# --- loading -------------------------------------------------------------------------------
def scenario_path(scenario: str | Path) -> Path:
    """An id like ``boc/day2`` or a path to a scenario YAML file."""
    s = str(scenario)
    if s in SCENARIO_FILES:
        return SCENARIO_DIR / SCENARIO_FILES[s]
    p = Path(s)
    if f"boc/{s}" in SCENARIO_FILES and not p.exists():  # "day2", as simulate takes it
        return SCENARIO_DIR / SCENARIO_FILES[f"boc/{s}"]
    if p.suffix in {".yaml", ".yml"} or p.exists():
        return p
    known = ", ".join(SCENARIO_FILES)
    raise DataError(s, s, "id", f"unknown scenario (known ids: {known}, or give a YAML path)")


def _entry_for(raw: Any, loc: tuple[Any, ...]) -> str:
    """Best human entry name for a pydantic error location (a unit id or a hex)."""
    node = raw
    best = "/".join(str(x) for x in loc[:1]) or "(file)"
    for key in loc:
        try:
            node = node[key]
        except (KeyError, IndexError, TypeError):
            break
        if isinstance(node, dict):
            for k in ("unit", "hex", "name", "id"):
                if k in node and isinstance(node[k], str):
                    best = node[k]
                    break
        elif isinstance(node, str) and key == "unit":
            best = node
    return best


def parse_scenario(
    raw: Any,
    source: str | Path,
    oob: OrderOfBattle | None = None,
    board: BoardLike | None = None,
) -> Scenario:
    src = str(source)
    if not isinstance(raw, dict):
        raise DataError(src, "(file)", "(root)", "expected a mapping")
    try:
        sc = Scenario.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = tuple(err["loc"])
        raise DataError(src, _entry_for(raw, loc), ".".join(map(str, loc)), err["msg"]) from exc
    validate_scenario(sc, src, oob if oob is not None else default_oob(), board)
    return sc


def validate_scenario(
    sc: Scenario, src: str, oob: OrderOfBattle, board: BoardLike | None = None
) -> None:
    """Cross-checks against the order of battle (and the board, if given)."""
    seen: dict[str, str] = {}

    def use(uid: str, side: Side | None, where: str, strength: int | None = None) -> None:
        if uid not in oob:
            raise DataError(src, uid, f"{where}.unit", "unknown unit id")
        u = oob[uid]
        if side is not None and u.side != side:
            raise DataError(src, uid, f"{where}.unit", f"is a {u.side} unit, listed for {side}")
        if uid in seen:
            raise DataError(src, uid, f"{where}.unit", f"duplicate: already in {seen[uid]}")
        seen[uid] = where
        if strength == 0 and not u.is_hq:
            raise DataError(
                src, uid, f"{where}.strength", "only an HQ can stand at strength 0 (4.3, 7.5)"
            )
        if strength is not None and strength > u.max_strength:
            raise DataError(
                src,
                uid,
                f"{where}.strength",
                f"strength {strength} above the block's maximum {u.max_strength}",
            )

    def check_hex(hx: str, where: str) -> None:
        if board is not None and not board.has_hex(hx):
            raise DataError(src, hx, f"{where}.hex", "hex is not on the map")

    for side in SIDES:
        hexes_seen: set[str] = set()
        for i, h in enumerate(sc.setup.get(side, ())):
            where = f"setup.{side}[{i}]"
            if h.hex in hexes_seen:
                raise DataError(src, h.hex, f"{where}.hex", "hex listed twice for this side")
            hexes_seen.add(h.hex)
            check_hex(h.hex, where)
            for j, p in enumerate(h.units):
                use(p.unit, side, f"{where}.units[{j}]", p.strength)
    for i, e in enumerate(sc.eliminated):
        use(e.unit, None, f"eliminated[{i}]")
        if oob[e.unit].side == e.counts_for:
            raise DataError(
                src,
                e.unit,
                f"eliminated[{i}].counts_for",
                "VPs for an eliminated unit go to the enemy (9.12)",
            )
    # Arrivals guarded by options may bring the same unit by another road.
    for i, a in enumerate(sc.arrivals):
        where = f"arrivals[{i}]"
        if a.hex is not None:
            check_hex(a.hex, where)
        for j, p in enumerate(a.units):
            key = f"{where}.units[{j}]"
            if a.option is not None:
                if p.unit not in oob or oob[p.unit].side != a.side:
                    raise DataError(src, p.unit, f"{key}.unit", "unknown unit for this side")
                continue
            use(p.unit, a.side, key, p.strength)
    for i, ac in enumerate(sc.acting):
        if ac.unit not in seen:
            raise DataError(src, ac.unit, f"acting[{i}].unit", "not in this scenario")
    cb = sc.cavalry_battle
    if cb is not None:
        ids = [*cb.on_map, *cb.withdrawn, *cb.csa_pool, *(r.unit for r in cb.rolls)]
        for side in SIDES:
            ids += list(cb.off_map.get(side, ()))
        for f in cb.fights:
            ids += list(f.usa_group)
        for uid in ids:
            if uid not in oob:
                raise DataError(src, uid, "cavalry_battle.unit", "unknown unit id")


def load_scenario(
    scenario: str | Path,
    oob: OrderOfBattle | None = None,
    board: BoardLike | None = None,
) -> Scenario:
    path = scenario_path(scenario)
    return parse_scenario(read_yaml(path), path, oob, board)


def list_scenarios() -> list[tuple[str, str, Path]]:
    """(id, title, file) of every shipped scenario."""
    out = []
    for sid, fname in SCENARIO_FILES.items():
        raw = read_yaml(SCENARIO_DIR / fname)
        if raw.get("rule") == "tutorial":
            continue  # the web client's tutorial (boc/tutorial.py), not one of the rulebook's
        out.append((sid, str(raw.get("title", "")), SCENARIO_DIR / fname))
    return out


# --- 9.2 set-up with overflow ----------------------------------------------------------------
@dataclass(frozen=True)
class Moved:
    unit: str
    side: Side
    named_hex: str
    placed_hex: str


@dataclass
class PlacementResult:
    positions: dict[str, str] = field(default_factory=dict)  # unit -> hex
    strengths: dict[str, int] = field(default_factory=dict)
    moved: list[Moved] = field(default_factory=list)

    def stack(self, hex_id: str) -> list[str]:
        return [u for u, h in self.positions.items() if h == hex_id]


def overflow_candidates(board: BoardLike, hex_id: str) -> list[str]:
    """Adjacent hexes in the fixed :data:`OVERFLOW_DIRECTIONS` order, on-map only."""
    on_map = set(board.neighbours(hex_id))
    letter, number = parse_hex(hex_id)
    out = []
    for dl, dn in OVERFLOW_DIRECTIONS:
        if letter + dl < 0 or number + dn < 0:
            continue
        h = format_hex(letter + dl, number + dn)
        if h in on_map:
            out.append(h)
    return out


def place_with_overflow(
    board: BoardLike,
    setup: Mapping[Side, Sequence[SetupHex]],
    oob: OrderOfBattle | None = None,
    source: str = "<setup>",
) -> PlacementResult:
    """Place a set-up following 9.2, deterministically.

    1. Every side's units go into their named hex, in listed order, up to its stacking limit.
    2. Units left over (in file order) go to the first adjacent hex, in the fixed order
       N, NE, ESE, S, SW, WNW (:data:`OVERFLOW_DIRECTIONS`), that is on the map, has room
       and is neither named in nor occupied by the enemy set-up.
    A unit that finds no room raises :class:`DataError`.
    """
    oob = oob if oob is not None else default_oob()
    res = PlacementResult()
    side_of: dict[str, Side] = {}
    named: dict[Side, set[str]] = {s: {h.hex for h in setup.get(s, ())} for s in SIDES}
    pending: list[tuple[Side, str, str]] = []

    def room(hx: str) -> int:
        return board.stacking_limit(hx) - len(res.stack(hx))

    for side in SIDES:
        for h in setup.get(side, ()):
            for p in h.units:
                res.strengths[p.unit] = (
                    p.strength if p.strength is not None else oob[p.unit].max_strength
                )
                side_of[p.unit] = side
                if room(h.hex) > 0:
                    res.positions[p.unit] = h.hex
                else:
                    pending.append((side, h.hex, p.unit))
    for side, hx, uid in pending:
        enemy: Side = "csa" if side == "usa" else "usa"
        for cand in overflow_candidates(board, hx):
            if cand in named[enemy]:
                continue
            if any(side_of[u] == enemy for u in res.stack(cand)):
                continue
            if room(cand) > 0:
                res.positions[uid] = cand
                res.moved.append(Moved(uid, side, hx, cand))
                break
        else:
            raise DataError(
                source, hx, "setup.hex", f"no room for {uid} in {hx} or any adjacent hex (9.2)"
            )
    return res
