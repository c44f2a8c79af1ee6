"""GBACW scenarios as data (004 "Gli scenari", 004 sc.1-6): the file format, its loader and
its checks.

A scenario file (``data/scenarios/<id>.yaml``) holds a header (maps, first and last turn,
initiative, options), special rules with the parameters the engine reads, each seat's
set-up as *lines* (what: formations, units, leaders; where: the book's instruction kept as
data), each seat's reinforcements, breastworks, and a typed victory block. The format is
described in ``docs/gbacw-scenarios.md``. Structural problems are refused at load time
(:class:`~gettysburg.gbacw.charts.datafile.DataError` naming file, record and field);
whether every name resolves to one OOB record and every hex lies on the scenario's maps
is checked against the OOB and the board by :func:`check` (and by the placer,
:mod:`gettysburg.gbacw.deployment`, which turns lines into hexes).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from .charts.datafile import SOURCE_RE, DataError, RecordProblem, locate, read_yaml

Seat = Literal["usa", "csa"]
Order = Literal["march", "advance", "attack"]
Sheet = Literal["A", "B", "C"]

#: the OOB's sides for the engine's seats
SIDE_OF_SEAT: dict[str, Literal["union", "confederate"]] = {
    "usa": "union", "csa": "confederate"}

TURN_RE = re.compile(r"^[1-4]-(?:[01]\d|2[0-3])[0-5]\d$")
HEX_RE = re.compile(r"^[ABC]\d{4}$")
DATA_DIR = Path(__file__).parent / "data" / "scenarios"


def turn_key(turn: str) -> tuple[int, int]:
    """A turn string ``<July day>-<HHMM>`` as a sortable (day, minutes) pair."""
    day, hhmm = turn.split("-")
    return int(day), int(hhmm[:2]) * 60 + int(hhmm[2:])


def _turn(value: str, field: str) -> str:
    if not TURN_RE.match(value):
        raise RecordProblem("", field,
                            f"{value!r} is not a turn '<July day>-<HHMM>' (e.g. '1-0700')")
    return value


def _hex(value: str, field: str) -> str:
    if not HEX_RE.match(value):
        raise RecordProblem("", field, f"{value!r} is not a hex id like 'A3005'")
    return value


def _hex_list(values: Sequence[str], field: str) -> None:
    if not values and field == "hexes":
        raise RecordProblem("", field, "names no hex")
    for i, h in enumerate(values):
        _hex(h, f"{field}[{i}]")


class _Rec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _Sourced(_Rec):
    """A record that may cite the seed, or be a substitute with its basis."""

    source: str | None = None
    substitute: bool = False
    basis: str | None = None
    decision: str | None = None  # an E-item of docs/gbacw-decisions.md
    note: str | None = None

    @model_validator(mode="after")
    def _provenance(self) -> Self:
        if self.source is not None and not SOURCE_RE.match(self.source):
            raise RecordProblem("", "source",
                                f"{self.source!r} is not a citation ('004 sc.2', '002 §8.12', "
                                "'004 §14.5', several joined by '; ') or 'substitute'")
        if self.substitute and not (self.basis and self.basis.strip()):
            raise RecordProblem("", "basis", "a substitute needs its basis (why it is so)")
        if self.source == "substitute" and not self.substitute:
            raise RecordProblem("", "substitute", "source: substitute needs substitute: true")
        if self.decision is not None and not re.match(r"^E-\d{1,2}$", self.decision):
            raise RecordProblem("", "decision", f"{self.decision!r} is not an E-item like 'E-17'")
        return self


# --- what: formations, units, leaders ------------------------------------------------------
class UnitRef(_Rec):
    """A unit by its OOB name; ``within`` (a formation, division or corps id) picks one of
    two units sharing a name; ``section`` (a battery's Counter.mode label, "A", "B", ...)
    names one section of a battery the book splits between two hexes (004 sc.5's
    Hardaway). In ``units`` the line brings that section only; in ``less`` or
    ``eliminated`` it keeps the battery's other sections."""

    name: str
    within: str | None = None
    section: str | None = Field(default=None, pattern=r"^[A-Z]$")

    def label(self) -> str:
        out = self.name if self.within is None else f"{self.name} (within {self.within})"
        return out if self.section is None else f"{out} section {self.section}"


def _unit_ref(value: Any) -> Any:
    return {"name": value} if isinstance(value, str) else value




class Force(_Sourced):
    """What a set-up line or a reinforcement brings: whole formations (``less`` some units),
    single units, leaders; and the state they start in."""

    formations: tuple[str, ...] = ()  # OOB formation ids or names, whole
    less: tuple[UnitRef, ...] = ()  # units of those formations that are not brought
    units: tuple[UnitRef, ...] = ()
    leaders: tuple[str, ...] = ()  # leader ids (artillery commanders too)
    orders: Order | None = None  # None: the owner chooses (the placer uses 'advance')
    mounted: bool | None = None  # cavalry: True mounted, False dismounted, None owner's choice
    pl: int = Field(default=0, ge=0)  # PL-n: SP lost before the scenario (digest §D.2)
    losses: dict[str, int] = Field(default_factory=dict)  # SP (guns) lost by one unit by name
    eliminated: tuple[UnitRef, ...] = ()  # units removed before the scenario
    ci: bool = False  # the brigade starts combat-ineffective ("inefficient")
    replacement: tuple[str, ...] = ()  # leader ids whose replacement is in command
    flags: tuple[str, ...] = ()  # unit states the engine reads, e.g. 'not_combat_ready'
    fatigue: int = Field(default=0, ge=0, le=4)

    @model_validator(mode="before")
    @classmethod
    def _refs(cls, data: Any) -> Any:
        if isinstance(data, Mapping):
            data = dict(data)
            for key in ("less", "units", "eliminated"):
                if isinstance(data.get(key), list):
                    data[key] = [_unit_ref(v) for v in data[key]]
        return data

    @model_validator(mode="after")
    def _brings_something(self) -> Self:
        if not (self.formations or self.units or self.leaders):
            raise RecordProblem("", "formations", "names no formation, unit or leader")
        if self.less and not self.formations:
            raise RecordProblem("", "less", "'less' needs whole 'formations' to take units from")
        for name, sp in self.losses.items():
            if sp < 1:
                raise RecordProblem("", f"losses.{name}", "a loss is at least 1 SP")
        return self


# --- where ---------------------------------------------------------------------------------------
class Within(_Rec):
    """Every counter within ``radius`` hexes of ``of`` (one hex, or every hex of a list such as
    the edge of a wood); ``side`` keeps only the hexes on that side of the ``of`` hexes
    (west = larger YY in the same row, 004's numbering)."""

    of: tuple[str, ...]
    radius: int = Field(ge=0, le=6)
    side: Literal["west", "east"] | None = None
    line: bool = False  # ``of`` are the two ends of a straight row of hexes (a wood's edge)

    @model_validator(mode="before")
    @classmethod
    def _one_or_many(cls, data: Any) -> Any:
        if isinstance(data, Mapping) and isinstance(data.get("of"), str):
            data = dict(data)
            data["of"] = [data["of"]]
        return data

    @model_validator(mode="after")
    def _hexes(self) -> Self:
        if not self.of:
            raise RecordProblem("", "of", "names no hex")
        if self.line and len(self.of) != 2:
            raise RecordProblem("", "of", "a line needs its two end hexes")
        for i, h in enumerate(self.of):
            _hex(h, f"of[{i}]")
        return self


class Where(_Rec):
    """One of: ``hex`` (all in one hex), ``within``, ``road: [FROM, TO]`` (along the road from
    FROM, the head of the column, to TO), ``hexes`` (a list, filled in order) or ``line:
    [FROM, TO]`` (the straight row of hexes between them)."""

    hex: str | None = None
    within: Within | None = None
    road: tuple[str, str] | None = None
    hexes: tuple[str, ...] | None = None
    line: tuple[str, str] | None = None  # the straight row of hexes from FROM to TO

    @model_validator(mode="after")
    def _exactly_one(self) -> Self:
        kinds = ("hex", "within", "road", "hexes", "line")
        given = [k for k in kinds if getattr(self, k) is not None]
        if len(given) != 1:
            raise RecordProblem("", "where", "give exactly one of hex, within, road, hexes, "
                                f"line (got {given or 'none'})")
        if self.hex is not None:
            _hex(self.hex, "hex")
        for i, h in enumerate(self.road or ()):
            _hex(h, f"road[{i}]")
        for i, h in enumerate(self.line or ()):
            _hex(h, f"line[{i}]")
        for i, h in enumerate(self.hexes or ()):
            _hex(h, f"hexes[{i}]")
        if self.hexes is not None and not self.hexes:
            raise RecordProblem("", "hexes", "an empty list")
        return self

    def hex_ids(self) -> Iterator[str]:
        if self.hex is not None:
            yield self.hex
        if self.within is not None:
            yield from self.within.of
        yield from self.road or ()
        yield from self.hexes or ()
        yield from self.line or ()


class SetupLine(Force):
    """One line of a seat's set-up: what goes where, in which orders and array."""

    id: str
    where: Where
    facing: int | None = Field(default=None, ge=0, le=5)  # None: free facing
    arrangement: Literal["line", "column", "extended_column", "extended_line"] | None = None
    per_hex: int = Field(default=1, ge=1, le=4)  # units (a battery = one unit) per hex
    stack_with: str | None = None  # a leader id: every unit of the line goes in his hex


# --- reinforcements ------------------------------------------------------------------------------
class Entry(_Rec):
    """Where a reinforcement comes on: an entry area (1-14, 002 §9.76), one hex, or a choice."""

    area: int | None = Field(default=None, ge=1, le=14)
    hex: str | None = None
    hexes: tuple[str, ...] | None = None  # the owner's choice among these

    @model_validator(mode="after")
    def _exactly_one(self) -> Self:
        given = [k for k in ("area", "hex", "hexes") if getattr(self, k) is not None]
        if len(given) != 1:
            raise RecordProblem("", "entry", "give exactly one of area, hex, hexes "
                                f"(got {given or 'none'})")
        if self.hex is not None:
            _hex(self.hex, "hex")
        for i, h in enumerate(self.hexes or ()):
            _hex(h, f"hexes[{i}]")
        return self

    def hex_ids(self) -> Iterator[str]:
        if self.hex is not None:
            yield self.hex
        yield from self.hexes or ()


class Arrival(_Rec):
    """A later chance to arrive, when an arrival roll failed."""

    turn: str
    entry: Entry
    roll: tuple[int, int] | None = None  # arrives on a d10 in lo..hi; None: certain
    activations: int | None = Field(default=None, ge=0)

    @model_validator(mode="after")
    def _check(self) -> Self:
        _turn(self.turn, "turn")
        _roll(self.roll)
        return self


def _roll(roll: tuple[int, int] | None) -> None:
    if roll is not None and not 0 <= roll[0] <= roll[1] <= 9:
        raise RecordProblem("", "roll", f"{list(roll)} is not a d10 range lo..hi within 0..9")


class Reinforcement(Force):
    """A group that enters on ``turn`` at ``entry`` (004's tables, digest §D.5)."""

    id: str
    turn: str
    entry: Entry
    printed_time: str | None = None  # the book's time when not on the hour ("1840", E-19)
    activations: int | None = Field(default=None, ge=0)  # max AMs on the entry turn
    roll: tuple[int, int] | None = None  # arrives on a d10 in lo..hi, else ``later``
    later: tuple[Arrival, ...] = ()
    after: str | None = None  # the id of a group that enters first through the same hex
    attach: bool = False  # reserve batteries may attach to any division or brigade on entry
    conditional: bool = False  # conditional cavalry (004 §14.7)
    cold_start_only: bool = False  # superseded when the scenario's set-up is used (E-15)

    @model_validator(mode="after")
    def _check(self) -> Self:
        _turn(self.turn, "turn")
        for key in ("units", "less", "eliminated"):
            for i, ref in enumerate(getattr(self, key)):
                if ref.section is not None:  # batteries arrive whole (004's tables split none)
                    raise RecordProblem("", f"{key}[{i}].section",
                                        "a section is placed apart only in a set-up line")
        _roll(self.roll)
        if self.roll is not None and not self.later:
            raise RecordProblem("", "later", "an arrival roll needs a 'later' arrival if it fails")
        prev = self.turn
        for i, a in enumerate(self.later):
            if turn_key(a.turn) <= turn_key(prev):
                raise RecordProblem("", f"later[{i}].turn", "later arrivals must come later")
            prev = a.turn
        return self


# --- special rules, options, breastworks --------------------------------------------------------
class AmOverride(_Rec):
    """A division's activation markers on one turn (e.g. 'Heth gets 2 AMs at 0700')."""

    division: str  # OOB formation id of the division (a cavalry division for Buford)
    turn: str
    count: int = Field(ge=0, le=6)

    @model_validator(mode="after")
    def _check(self) -> Self:
        _turn(self.turn, "turn")
        return self


class Forbidden(_Rec):
    """Hexes no unit may enter: every row XX <= ``rows_up_to`` of ``sheet`` (004's 'on or
    north of row NN'), and/or listed hexes; ``exceptions`` says in words who may still
    enter, ``exempt`` lists the set-up lines and groups the placer does not hold to it."""

    sheet: Sheet | None = None
    rows_up_to: int | None = Field(default=None, ge=1, le=99)
    hexes: tuple[str, ...] = ()
    exceptions: tuple[str, ...] = ()
    exempt: tuple[str, ...] = ()  # set-up line / reinforcement ids the placer does not hold to it

    @model_validator(mode="after")
    def _check(self) -> Self:
        if (self.sheet is None) != (self.rows_up_to is None):
            raise RecordProblem("", "rows_up_to", "sheet and rows_up_to go together")
        for i, h in enumerate(self.hexes):
            _hex(h, f"hexes[{i}]")
        return self


ParamValue = str | int | bool | list[str] | list[int]


class SpecialRule(_Sourced):
    """A scenario rule: its section, a summary in our own words, and what the engine reads."""

    id: str
    section: str
    summary: str
    activations: tuple[AmOverride, ...] = ()
    forbidden: Forbidden | None = None
    no_events_before: str | None = None  # no random-event marker before this turn
    params: dict[str, ParamValue] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _check(self) -> Self:
        if not self.summary.strip():
            raise RecordProblem("", "summary", "empty")
        if self.no_events_before is not None:
            _turn(self.no_events_before, "no_events_before")
        return self


class Options(_Rec):
    """Optional rules on or off for this scenario."""

    fatigue: bool = True  # 002 §17 (004 sc.3 plays without it)
    random_events: bool = True  # 004 §18
    small_arms_ammo: bool = False  # 002 §10.9 (off for TDG, E-5)
    free_facing: bool = True  # the set-up's facing is the owner's choice unless a line says
    any_orders: bool = False  # set-up orders are the owner's choice (004 sc.3-5)


class Breastworks(_Sourced):
    """Breastworks a seat starts with: markers in listed hexes, and ``free`` more to place."""

    seat: Seat
    hexes: tuple[str, ...] = ()
    markers: dict[str, int] = Field(default_factory=dict)  # hex -> markers when not 1
    free: int = Field(default=0, ge=0)  # placed by the owner in hexes his infantry holds
    may_build: bool = True

    @model_validator(mode="after")
    def _check(self) -> Self:
        for i, h in enumerate(self.hexes):
            _hex(h, f"hexes[{i}]")
        for h, n in self.markers.items():
            if h not in self.hexes:
                raise RecordProblem("", f"markers.{h}", "not one of this record's hexes")
            if not 1 <= n <= 3:
                raise RecordProblem("", f"markers.{h}", "1 to 3 markers")
        return self


# --- victory -------------------------------------------------------------------------------------
Outcome = Literal["usa", "csa", "draw"]


class Control(_Sourced):
    """``seat`` wins (``result``) when it controls every one of ``hexes`` (occupies, or was
    the last to occupy, 004 sc.1) at the check; ``since`` = at any time after that turn."""

    kind: Literal["control"]
    seat: Seat
    hexes: tuple[str, ...]
    occupy: bool = False  # must occupy at the end (004 sc.3), not merely control
    since: str | None = None

    @model_validator(mode="after")
    def _check(self) -> Self:
        _hex_list(self.hexes, "hexes")
        if self.since is not None:
            _turn(self.since, "since")
        return self


class CiStep(_Rec):
    more: int = Field(ge=1)  # how many more CI divisions the seat has than the other
    result: Outcome


class CiDifferential(_Sourced):
    """After the control test: if ``seat`` has more CI divisions than the other, the result
    becomes the step's (004 sc.1)."""

    kind: Literal["ci_differential"]
    seat: Seat
    steps: tuple[CiStep, ...]


class VpObjective(_Rec):
    id: str
    hexes: tuple[str, ...]  # every hex must be occupied to score
    usa: int = Field(ge=0)
    csa: int = Field(ge=0)

    @model_validator(mode="after")
    def _check(self) -> Self:
        _hex_list(self.hexes, "hexes")
        return self


class VictoryPoints(_Sourced):
    """Points for objectives occupied at the end and for each enemy CI brigade (004 sc.4)."""

    kind: Literal["victory_points"]
    objectives: tuple[VpObjective, ...]
    enemy_ci_brigade: int = 1


class SuddenDeath(_Sourced):
    """Checked every turn: ``seat`` wins on its geographic objectives (all of them) or when
    the enemy has ``enemy_ci_divisions`` CI divisions (004 sc.6)."""

    kind: Literal["sudden_death"]
    seat: Seat
    geographic: tuple[Control, ...] = ()
    from_turn: str | None = None  # geographic test applies from this turn
    enemy_ci_divisions: int | None = None
    clear_road: tuple[str, str] | None = None  # no in-command enemy on/east of this road stretch

    @model_validator(mode="after")
    def _check(self) -> Self:
        _hex_list(self.clear_road or (), "clear_road")
        if self.from_turn is not None:
            _turn(self.from_turn, "from_turn")
        return self


Condition = Annotated[Control | CiDifferential | VictoryPoints | SuddenDeath,
                      Field(discriminator="kind")]


class Victory(_Sourced):
    check: Literal["end", "every_turn"] = "end"
    conditions: tuple[Condition, ...]
    otherwise: Outcome | None = None  # the result when no condition gives one


# --- the scenario --------------------------------------------------------------------------------
class Scenario(_Sourced):
    id: str
    title: str
    maps: tuple[Sheet, ...]
    first_turn: str
    last_turn: str | None  # None: no fixed end (the campaign)
    initiative: Seat | None
    options: Options = Options()
    special_rules: tuple[SpecialRule, ...] = ()
    setup: dict[Seat, tuple[SetupLine, ...]] = Field(default_factory=dict)
    setup_from: str | None = None  # another scenario's id whose set-up this one uses
    reinforcements: dict[Seat, tuple[Reinforcement, ...]] = Field(default_factory=dict)
    breastworks: tuple[Breastworks, ...] = ()
    leave_out: dict[Seat, tuple[str, ...]] = Field(default_factory=dict)  # set-up line ids unused
    victory: Victory
    summary: str | None = None

    @model_validator(mode="after")
    def _check(self) -> Self:
        if not re.match(r"^[a-z0-9-]+$", self.id):
            raise RecordProblem("", "id", f"{self.id!r}: lower-case letters, digits and '-' only")
        if self.source is None:
            raise RecordProblem("", "source", "a scenario needs its source ('004 sc.N')")
        if not self.maps or len(set(self.maps)) != len(self.maps):
            raise RecordProblem("", "maps", "one or more of A, B, C, each once")
        _turn(self.first_turn, "first_turn")
        if self.last_turn is not None:
            _turn(self.last_turn, "last_turn")
            if turn_key(self.last_turn) < turn_key(self.first_turn):
                raise RecordProblem("", "last_turn", "before first_turn")
        if self.setup_from is not None and self.setup:
            raise RecordProblem("", "setup_from", "give either setup or setup_from, not both")
        _unique([r.id for r in self.special_rules], "special_rules")
        for seat, lines in self.setup.items():
            _unique([ln.id for ln in lines], f"setup.{seat}")
        for seat, groups in self.reinforcements.items():
            _unique([g.id for g in groups], f"reinforcements.{seat}")
            ids = {g.id for g in groups}
            for g in groups:
                if g.after is not None and g.after not in ids:
                    raise RecordProblem(f"reinforcements.{seat}[id={g.id}]", "after",
                                        f"no group {g.after!r} among this seat's")
        return self

    # -- the engine's questions --
    def activation_cap(self, division: str, turn: str) -> int | None:
        """The scenario's AM count for a division on a turn, if a special rule sets one."""
        for rule in self.special_rules:
            for am in rule.activations:
                if am.division == division and am.turn == turn:
                    return am.count
        return None

    def forbidden(self) -> list[Forbidden]:
        return [r.forbidden for r in self.special_rules if r.forbidden is not None]



def _unique(ids: Sequence[str], field: str) -> None:
    seen: set[str] = set()
    for i, ident in enumerate(ids):
        if ident in seen:
            raise RecordProblem(f"{field}[{i}]", "id", f"{ident!r} appears twice")
        seen.add(ident)


# --- loading -------------------------------------------------------------------------------------
def _label(node: Any, key: int) -> str:
    if isinstance(node, Mapping):
        for k in ("id", "name", "kind"):
            if isinstance(node.get(k), str):
                return f"{k}={node[k]}"
    return str(key)


#: the victory block's union tags: on an error's path, not fields
_VICTORY_TAGS = frozenset({"control", "ci_differential", "victory_points", "sudden_death"})


def _is_record(node: Any) -> bool:
    return isinstance(node, Mapping) and any(isinstance(node.get(k), str) for k in ("id", "kind"))


def _locate(raw: Any, loc: Sequence[int | str]) -> tuple[str, str]:
    """The deepest named record on a pydantic error path (e.g. ``setup.csa[id=archer]``) and
    the field below it."""
    return locate(raw, loc, top="(scenario)", label=_label, is_record=_is_record,
                  skip=_VICTORY_TAGS)


def parse_scenario(raw: Any, path: Path) -> Scenario:
    """Validate a file's contents; a problem is a DataError naming file, record and field."""
    if not isinstance(raw, Mapping):
        raise DataError(path, "(scenario)", "(top)", "a scenario file must be a mapping")
    try:
        scen = Scenario.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        record, field = _locate(raw, err["loc"])
        cause = (err.get("ctx") or {}).get("error")
        if isinstance(cause, RecordProblem):
            if cause.record:
                record = cause.record if record == "(scenario)" else f"{record}.{cause.record}"
            raise DataError(path, record, cause.field or field, str(cause)) from exc
        raise DataError(path, record, field, str(err["msg"])) from exc
    if scen.id != path.stem:
        raise DataError(path, "(scenario)", "id",
                        f"{scen.id!r} differs from the file name {path.stem!r}")
    return scen


def scenario_ids(directory: Path | None = None) -> list[str]:
    """The ids of the scenario files, sorted."""
    return sorted(p.stem for p in (directory or DATA_DIR).glob("*.yaml"))


def scenario_titles(directory: Path | None = None) -> dict[str, str]:
    """Each scenario file's id and its ``title`` line, read without parsing the whole file
    (the menu lists them; ``load_scenario`` validates the title with the rest)."""
    out: dict[str, str] = {}
    for ident in scenario_ids(directory):
        text = ((directory or DATA_DIR) / f"{ident}.yaml").read_text("utf-8")
        found = re.search(r"^title:\s*(.+?)\s*$", text, re.MULTILINE)
        out[ident] = found.group(1).strip("\"'") if found else ident
    return out


def load_scenario(id_or_path: str | Path) -> Scenario:
    """A scenario by id (a file of ``data/scenarios``) or by path; ``setup_from`` is followed,
    so the result carries the set-up it plays with."""
    path = Path(id_or_path)
    if isinstance(id_or_path, str) and path.suffix != ".yaml" and "/" not in id_or_path:
        path = DATA_DIR / f"{id_or_path}.yaml"  # an id, not a path
    return _load(path.resolve(), ())


def _load(path: Path, seen: tuple[Path, ...]) -> Scenario:
    scen = _cached(path) if path.is_relative_to(DATA_DIR.resolve()) else parse_scenario(
        read_yaml(path), path)
    if scen.setup_from is None:
        return scen
    base_path = path.parent / f"{scen.setup_from}.yaml"
    if base_path in seen or base_path == path:
        raise DataError(path, "(scenario)", "setup_from", "set-ups refer to each other in a loop")
    if not base_path.exists():
        raise DataError(path, "(scenario)", "setup_from",
                        f"no scenario {scen.setup_from!r} beside it")
    base = _load(base_path, (*seen, path))
    return scen.model_copy(update={"setup": base.setup})


@cache
def _cached(path: Path) -> Scenario:
    return parse_scenario(read_yaml(path), path)
