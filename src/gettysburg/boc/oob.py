"""Badges of Courage order of battle: unit blocks and command hierarchy.

Data lives in ``boc/data/units.yaml`` and ``boc/data/hierarchy.yaml``; this
module holds the pydantic models, the loaders and the checks that tie the data
to the rulebook (section numbers are the rulebooks' own, see
``spec/boc-facts.md``).

Every problem found while loading raises :class:`DataError`, whose message
names the file, the entry (unit id, hex, ...) and the field.
"""

from __future__ import annotations

import importlib.util
import io
import os
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from gettysburg.core import datacache

DATA_DIR = Path(__file__).parent / "data"
UNITS_FILE = DATA_DIR / "units.yaml"
HIERARCHY_FILE = DATA_DIR / "hierarchy.yaml"

Side = Literal["usa", "csa"]
UnitType = Literal[
    "ahq",
    "chq",
    "dhq",
    "art_hq",
    "cav_chq",
    "cav_dhq",
    "infantry",
    "cavalry",
    "artillery",
    "horse_artillery",
]
Morale = Literal["A", "B", "C", "D"]

SIDES: tuple[Side, ...] = ("usa", "csa")
HQ_TYPES: frozenset[str] = frozenset({"ahq", "chq", "dhq", "art_hq", "cav_chq", "cav_dhq"})
ARTILLERY_TYPES: frozenset[str] = frozenset({"artillery", "horse_artillery"})


#: Every model here: no unknown fields, immutable, and its validator built when first used
#: rather than when the module is imported (a command that reads no hierarchy, say,
#: never pays for building its validators; issue 59).
_MODEL = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class DataError(ValueError):
    """A data file is wrong. The message names FILE, ENTRY and FIELD."""

    def __init__(self, file: str | Path, entry: str, field: str, problem: str) -> None:
        self.file = str(file)
        self.entry = entry
        self.field = field
        self.problem = problem
        super().__init__(f"{self.file}: entry {entry!r}: field {field!r}: {problem}")


# --- 3.13 / unit data table: movement allowance by block type ---------------------------
@dataclass(frozen=True)
class Movement:
    """Movement allowance (MP) and the multiplier on off-road hexside costs."""

    allowance: int
    off_road_multiplier: int = 1


#: The one place that holds movement by type (3.13, 3.21-3.25 and the unit data table):
#: HQs 8 (cavalry HQs 10), infantry 6, artillery 8 paying double off roads,
#: cavalry 10, horse artillery 10 (also double off roads, de player aid note *).
MOVEMENT: Mapping[str, Movement] = {
    "ahq": Movement(8),
    "chq": Movement(8),
    "dhq": Movement(8),
    "art_hq": Movement(8),
    "cav_chq": Movement(10),
    "cav_dhq": Movement(10),
    "infantry": Movement(6),
    "artillery": Movement(8, off_road_multiplier=2),
    "cavalry": Movement(10),
    "horse_artillery": Movement(10, off_road_multiplier=2),
}

#: Block counts of the 3.1 table (per side and kind).
EXPECTED_COUNTS: Mapping[Side, Mapping[str, int]] = {
    "usa": {"hq": 32, "infantry": 52, "cavalry": 8, "artillery": 13, "horse_artillery": 3},
    "csa": {"hq": 16, "infantry": 37, "cavalry": 7, "artillery": 15, "horse_artillery": 1},
}
#: HQ kinds (4.2x, boc-facts.md section 2).
EXPECTED_HQ_COUNTS: Mapping[Side, Mapping[str, int]] = {
    "usa": {"ahq": 1, "chq": 7, "dhq": 19, "art_hq": 1, "cav_chq": 1, "cav_dhq": 3},
    "csa": {"ahq": 1, "chq": 3, "dhq": 10, "art_hq": 1, "cav_chq": 1, "cav_dhq": 0},
}
# CSA dhq = the nine division HQs of 4.21 plus Trimble, the replacement DHQ of Day 3.

ID_RE = re.compile(r"^(usa|csa)-[a-z0-9]+(?:-[a-z0-9]+)*$")


def count_kind(unit_type: str) -> str:
    """The 3.1 table row a block type is counted under."""
    return "hq" if unit_type in HQ_TYPES else unit_type


class Unit(BaseModel):
    """One block (3.1). Current strength lives in scenarios; this is the block's label."""

    model_config = _MODEL

    id: str
    name: str
    aliases: tuple[str, ...] = ()
    side: Side
    type: UnitType
    corps: str
    division: str | None = None
    max_strength: int = Field(ge=1, le=4)  # 3.11: 4, 3, 2 or 1
    morale: Morale  # 3.12 letter
    firepower: int = Field(ge=1, le=3)  # 3.12 number (short range for artillery, 5.31)
    long_firepower: int | None = Field(default=None, ge=1, le=3)  # 5.31, artillery only
    melee_firepower: int | None = Field(default=None, ge=1, le=3)  # 3.31 Berdan: A1 in melee
    command_range: int | None = Field(default=None, ge=0, le=4)  # 4.5 = supply value 8.2
    special: tuple[str, ...] = ()
    attached_to: str | None = None  # historical attachment (e.g. divisional artillery)
    basis: str

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        if not ID_RE.match(self.id):
            raise ValueError(f"id {self.id!r} is not lowercase kebab-case with a side prefix")
        if not self.id.startswith(self.side + "-"):
            raise ValueError(f"id {self.id!r} does not start with its side {self.side!r}")
        is_hq = self.type in HQ_TYPES
        if is_hq and self.command_range is None:
            raise ValueError("an HQ needs command_range (4.5)")
        if not is_hq and self.command_range is not None:
            raise ValueError("only HQs have a command_range (4.5)")
        is_art = self.type in ARTILLERY_TYPES
        if is_art and self.long_firepower is None:
            raise ValueError("artillery needs long_firepower (5.31)")
        if not is_art and self.long_firepower is not None:
            raise ValueError("only artillery has long_firepower (5.31)")
        return self

    @property
    def is_hq(self) -> bool:
        return self.type in HQ_TYPES

    @property
    def movement(self) -> Movement:
        return MOVEMENT[self.type]

    @property
    def rating(self) -> str:
        """Printed combat rating, e.g. ``B2`` or ``A3/1`` for artillery (3.12, 5.31)."""
        base = f"{self.morale}{self.firepower}"
        if self.long_firepower is not None:
            return f"{base}/{self.long_firepower}"
        return base


def _field_of(err: ValidationError) -> str:
    first = err.errors()[0]
    loc = ".".join(str(p) for p in first["loc"])
    return loc or "(entry)"


def _msg_of(err: ValidationError) -> str:
    first = err.errors()[0]
    return str(first["msg"])


def _parse_yaml(content: bytes, path: Path) -> Any:
    # Imported only when a file is not in the data cache: a command whose files all are
    # never loads PyYAML. libyaml's safe loader when PyYAML was built with it (its wheels
    # are): the same safe subset of YAML, read about 6 times faster.
    import yaml

    loader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    # Decoded and newlines translated as a text-mode file would be; the stream is named
    # after the file so a syntax error points at it.
    stream = io.StringIO(content.decode("utf-8"), newline=None)
    stream.name = str(path)
    try:
        return yaml.load(stream, Loader=loader)
    except yaml.YAMLError as exc:
        raise DataError(path, "(file)", "(yaml)", f"not valid YAML: {exc}") from exc


@lru_cache(maxsize=1)
def _yaml_tag() -> str:
    """Names the installed PyYAML for the data cache (its module file's size and time), so
    an upgraded PyYAML never reads entries an older one made; found without importing it."""
    spec = importlib.util.find_spec("yaml")
    origin = spec.origin if spec is not None else None
    try:
        st = os.stat(origin) if origin else None
    except OSError:
        st = None
    return f"yaml-safe:{origin}:{st.st_size if st else 0}:{st.st_mtime_ns if st else 0}"


def read_yaml(path: Path) -> Any:
    """A YAML data file's content, through the data cache (:mod:`gettysburg.core.datacache`:
    a file is parsed once per content, not once per command)."""
    try:
        return datacache.load(path, lambda content: _parse_yaml(content, path), _yaml_tag())
    except FileNotFoundError as exc:
        raise DataError(path, "(file)", "(file)", "file not found") from exc
    except UnicodeDecodeError as exc:
        raise DataError(path, "(file)", "(encoding)", f"not UTF-8 text: {exc}") from exc
    except OSError as exc:  # a directory, no permission...
        raise DataError(path, "(file)", "(file)", f"cannot be read: {exc.strerror}") from exc


class OrderOfBattle:
    """All blocks of both sides, indexed by id."""

    def __init__(self, units: Iterable[Unit], source: str = "<memory>") -> None:
        self.source = source
        self.units: dict[str, Unit] = {}
        for u in units:
            if u.id in self.units:
                raise DataError(source, u.id, "id", "duplicate unit id")
            self.units[u.id] = u

    def __contains__(self, unit_id: object) -> bool:
        return unit_id in self.units

    def __getitem__(self, unit_id: str) -> Unit:
        return self.units[unit_id]

    def __iter__(self) -> Iterator[Unit]:
        return iter(self.units.values())

    def __len__(self) -> int:
        return len(self.units)

    def side(self, side: Side) -> list[Unit]:
        return [u for u in self.units.values() if u.side == side]

    def counts(self, side: Side) -> dict[str, int]:
        """Counts by 3.1 table row."""
        return dict(Counter(count_kind(u.type) for u in self.side(side)))

    def hq_counts(self, side: Side) -> dict[str, int]:
        return dict(Counter(u.type for u in self.side(side) if u.is_hq))

    def by_alias(self, name: str, side: Side | None = None) -> list[Unit]:
        """Blocks whose name, id or any seed spelling equals ``name`` (case-insensitive)."""
        key = name.strip().casefold()
        out = []
        for u in self.units.values():
            if side is not None and u.side != side:
                continue
            names = {u.id, u.name, *u.aliases}
            if key in {n.casefold() for n in names}:
                out.append(u)
        return out

    def division_members(self, side: Side, corps: str, division: str) -> list[Unit]:
        return [
            u
            for u in self.side(side)
            if u.corps == corps and u.division == division and u.type not in {"dhq", "cav_dhq"}
        ]

    def check_counts(self) -> None:
        """3.1 table and 4.2 HQ kinds must come out exactly."""
        for side in SIDES:
            got = self.counts(side)
            for kind, want in EXPECTED_COUNTS[side].items():
                if got.get(kind, 0) != want:
                    raise DataError(
                        self.source,
                        f"{side} {kind}",
                        "type",
                        f"{got.get(kind, 0)} blocks, the 3.1 table says {want}",
                    )
            hq = self.hq_counts(side)
            for kind, want in EXPECTED_HQ_COUNTS[side].items():
                if hq.get(kind, 0) != want:
                    raise DataError(
                        self.source,
                        f"{side} {kind}",
                        "type",
                        f"{hq.get(kind, 0)} HQs of this kind, 4.2 says {want}",
                    )


def parse_units(raw: Any, source: str | Path) -> OrderOfBattle:
    """Validate the content of a units file (``{units: [...]}``)."""
    src = str(source)
    if not isinstance(raw, dict) or not isinstance(raw.get("units"), list):
        raise DataError(src, "(file)", "units", "expected a mapping with a 'units' list")
    units: list[Unit] = []
    seen: set[str] = set()
    for i, entry in enumerate(raw["units"]):
        entry_id = str(entry.get("id", f"#{i}")) if isinstance(entry, dict) else f"#{i}"
        if entry_id in seen:
            raise DataError(src, entry_id, "id", "duplicate unit id")
        seen.add(entry_id)
        try:
            units.append(Unit.model_validate(entry))
        except ValidationError as exc:
            raise DataError(src, entry_id, _field_of(exc), _msg_of(exc)) from exc
    return OrderOfBattle(units, source=src)


def load_units(path: str | Path | None = None, *, check_counts: bool = True) -> OrderOfBattle:
    """Load and validate ``units.yaml`` (or another file with the same schema)."""
    p = Path(path) if path is not None else UNITS_FILE
    oob = parse_units(read_yaml(p), p)
    if check_counts:
        oob.check_counts()
    return oob


@lru_cache(maxsize=1)
def default_oob() -> OrderOfBattle:
    return load_units()


# --- hierarchy.yaml (4.4, 4.6, 4.61, Hancock option, artillery and cavalry HQs) -----------
class SeniorityEntry(BaseModel):
    """A row of the 4.6 table: CHQ by seniority and the DHQ (italic) that succeeds it."""

    model_config = _MODEL
    rank: int = Field(ge=1)
    chq: str
    corps: str
    successor: str


class CorpsCommand(BaseModel):
    model_config = _MODEL
    chq: str
    supplied_by: str  # 8.2: only an AHQ adds steps to a CHQ
    divisions: dict[str, str]  # division name -> DHQ id
    assets: tuple[str, ...] = ()  # 4.4 corps assets (commanded by any DHQ of the corps)
    note: str | None = None


class SupportCommand(BaseModel):
    """Artillery HQ (4.24) or cavalry CHQ (4.25) and what it commands and supplies."""

    model_config = _MODEL
    hq: str
    supplied_by: str
    commands: tuple[str, ...]  # unit types it may command and supply
    excludes: tuple[str, ...] = ()
    also_fired_by: str | None = None
    units: tuple[str, ...] = ()
    note: str | None = None


class SpecialCommand(BaseModel):
    model_config = _MODEL
    unit: str
    rule: str
    kind: Literal["corps_asset", "independent", "replacement", "army_asset"]
    commanded_by: str
    supplied_by: str
    replaces: str | None = None
    note: str


class TemporaryCommand(BaseModel):
    model_config = _MODEL
    day: int
    time: str
    commander: str
    note: str


class HancockOption(BaseModel):
    model_config = _MODEL
    unit: str
    rule: str
    replaces: str  # which HQ he may replace
    delay_hours: int
    entry: str
    acts_as: tuple[str, ...]
    until: str
    note: str


class SideCommand(BaseModel):
    model_config = _MODEL
    ahq: str
    chq_seniority: tuple[SeniorityEntry, ...]
    ahq_succession: str
    temporary_ahq: str
    temporary_ahq_history: tuple[TemporaryCommand, ...] = ()
    corps: dict[str, CorpsCommand]
    artillery: SupportCommand
    cavalry: SupportCommand
    special: tuple[SpecialCommand, ...] = ()
    hancock_option: HancockOption | None = None


class Hierarchy(BaseModel):
    model_config = _MODEL
    usa: SideCommand
    csa: SideCommand

    def side(self, side: Side) -> SideCommand:
        return self.usa if side == "usa" else self.csa

    def chq_successor(self, side: Side, chq: str) -> str:
        for row in self.side(side).chq_seniority:
            if row.chq == chq:
                return row.successor
        raise KeyError(chq)

    def unit_refs(self) -> list[tuple[str, str, str]]:
        """(side, entry, unit id) for every unit id the hierarchy mentions."""
        refs: list[tuple[str, str, str]] = []
        for side in SIDES:
            sc = self.side(side)
            refs.append((side, "ahq", sc.ahq))
            for row in sc.chq_seniority:
                refs += [(side, f"chq_seniority.{row.rank}", row.chq)]
                refs += [(side, f"chq_seniority.{row.rank}", row.successor)]
            for name, c in sc.corps.items():
                refs.append((side, f"corps.{name}.chq", c.chq))
                refs.append((side, f"corps.{name}.supplied_by", c.supplied_by))
                refs += [(side, f"corps.{name}.divisions", d) for d in c.divisions.values()]
                refs += [(side, f"corps.{name}.assets", a) for a in c.assets]
            for key, sup in (("artillery", sc.artillery), ("cavalry", sc.cavalry)):
                refs.append((side, f"{key}.hq", sup.hq))
                refs.append((side, f"{key}.supplied_by", sup.supplied_by))
                refs += [(side, f"{key}.units", u) for u in sup.units]
            for sp in sc.special:
                refs += [(side, f"special.{sp.unit}", x) for x in (sp.unit, sp.commanded_by)]
                refs.append((side, f"special.{sp.unit}", sp.supplied_by))
                if sp.replaces:
                    refs.append((side, f"special.{sp.unit}", sp.replaces))
            for t in sc.temporary_ahq_history:
                refs.append((side, f"temporary_ahq_history.{t.day}.{t.time}", t.commander))
            if sc.hancock_option is not None:
                refs.append((side, "hancock_option", sc.hancock_option.unit))
        return refs


def load_hierarchy(path: str | Path | None = None, oob: OrderOfBattle | None = None) -> Hierarchy:
    """Load ``hierarchy.yaml`` and check every id against the order of battle."""
    p = Path(path) if path is not None else HIERARCHY_FILE
    raw = read_yaml(p)
    try:
        h = Hierarchy.model_validate(raw)
    except ValidationError as exc:
        loc = _field_of(exc)
        raise DataError(p, loc.split(".")[0], loc, _msg_of(exc)) from exc
    oob = oob if oob is not None else default_oob()
    for side, entry, uid in h.unit_refs():
        if uid not in oob:
            raise DataError(p, f"{side}.{entry}", "unit", f"unknown unit {uid!r}")
        if oob[uid].side != side:
            raise DataError(p, f"{side}.{entry}", "unit", f"{uid!r} belongs to the other side")
    for side in SIDES:
        sc = h.side(side)
        for name, c in sc.corps.items():
            for div, dhq in c.divisions.items():
                u = oob[dhq]
                if u.type not in {"dhq", "cav_dhq"} or u.division != div or u.corps != name:
                    raise DataError(
                        p,
                        f"{side}.corps.{name}.divisions.{div}",
                        "dhq",
                        f"{dhq!r} is not the DHQ of division {div!r} of corps {name!r}",
                    )
    return h


@lru_cache(maxsize=1)
def default_hierarchy() -> Hierarchy:
    return load_hierarchy()
