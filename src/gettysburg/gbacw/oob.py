"""The Three Days of Gettysburg order of battle as validated data: armies, corps, divisions,
brigades, artillery battalions and their regiments, batteries and leaders (``data/oob/*.yaml``).

A file holds one or more corps of one side. Every figure names its source: a record's
``source`` (an engaged strength, a gun count) is inherited from the file's ``sources`` unless the
record names its own. Counter values that no public source gives (cohesion, movement, leader
ratings, the cavalry's dismounted strength) are substitutes computed by the formulas of
``data/oob_formulas.yaml`` (a player may load another) and documented in
``docs/gbacw-order-of-battle.md``; a record that overrides one must say why (``basis``).
Bad data is refused with a :class:`DataError` naming the file, the record and the field.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from .charts.datafile import DataError, RecordProblem, read_yaml

OOB_DIR = Path(__file__).parent / "data" / "oob"

Side = Literal["union", "confederate"]
Arm = Literal["inf", "cav", "art", "horse_art"]
Service = Literal["green", "seasoned", "veteran", "elite"]
Level = Literal["army", "corps", "division", "brigade", "artillery", "staff"]
Profile = Literal["A", "N", "C", "U"]
SmallArms = Literal["M", "R", "ER", "AR", "TR", "CR", "C", "B", "SR", "S"]
Gun = Literal["L", "N", "TA", "TB", "TC", "P10", "P20", "H6", "H12", "H24", "HM", "W"]

#: 002 §2.41: one strength point is fifty men (infantry and cavalry) or one gun
MEN_PER_SP = 50

#: rank in stars by level (002 §2.22); a staff officer with a special rule has none
STARS = {"army": 4, "corps": 3, "division": 2, "brigade": 1, "artillery": 1, "staff": 0}
#: the substitutes' formulas, as data a player may replace (docs/gbacw-order-of-battle.md)
FORMULAS_PATH = Path(__file__).parent / "data" / "oob_formulas.yaml"


def strength_points(men: int) -> int:
    """Engaged strength / 50, rounded half up, never below 1 (002 §2.41)."""
    return max(1, (men + MEN_PER_SP // 2) // MEN_PER_SP)


def dismounted_points(sp: int, share: float) -> int:
    """The dismounted twin: ``share`` of the mounted points, rounded half up, never below 1."""
    return max(1, int(sp * share + 0.5))


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Formula(_Record):
    """A substitute: flagged, with the reasoning or formula behind it."""

    substitute: Literal[True]
    basis: str = Field(min_length=3)


class CohesionFormula(Formula):
    by_service: dict[Service, int]
    disordered_loss: int = Field(ge=0, le=5)

    @model_validator(mode="after")
    def _every_class(self) -> Self:
        missing = {"green", "seasoned", "veteran", "elite"} - set(self.by_service)
        if missing:
            raise RecordProblem("", "by_service", f"no cohesion for {sorted(missing)}")
        return self


MoveKey = Literal["inf", "cav", "cav_dismounted", "art", "horse_art"]


class MovementFormula(Formula):
    allowances: dict[MoveKey, tuple[int, int]]

    @model_validator(mode="after")
    def _every_arm(self) -> Self:
        missing = {"inf", "cav", "cav_dismounted", "art", "horse_art"} - set(self.allowances)
        if missing:
            raise RecordProblem("", "allowances", f"no allowance for {sorted(missing)}")
        return self


class DismountFormula(Formula):
    share: float = Field(gt=0, le=1)


class BattalionFormula(Formula):
    """How many counters a cavalry regiment makes (002 §2.41: many come in two or three)."""

    max_sp: int = Field(ge=1)
    max_battalions: int = Field(ge=1, le=3)

    def count(self, sp: int) -> int:
        return min(self.max_battalions, -(-sp // self.max_sp))


class LeaderFormula(Formula):
    defaults: dict[Level, dict[str, int | str]]


class Formulas(_Record):
    cohesion: CohesionFormula
    movement: MovementFormula
    dismounted: DismountFormula
    battalions: BattalionFormula
    leaders: LeaderFormula


class Published(_Record):
    """A published figure with its source."""

    men: int = Field(gt=0)
    source: str = Field(min_length=3)


class Leader(_Record):
    """A leader counter. Ratings left out take the level's default (a substitute); a rating
    given needs its ``basis``. ``replacement`` names the leader id that takes over, or holds an
    inline record for a successor who has no counter of his own."""

    id: str = Field(pattern=r"^[A-Za-z0-9.'_-]+$")
    name: str
    rank: str
    level: Level
    initiative: int | None = Field(default=None, ge=0, le=2)
    efficiency: int | None = Field(default=None, ge=-1, le=2)
    coordination: int | None = Field(default=None, ge=0, le=3)
    activation: int | None = Field(default=None, ge=-2, le=2)
    profile: Profile | None = None
    orders: int | None = Field(default=None, ge=-2, le=2)
    command_range: int | None = Field(default=None, ge=1, le=40)
    basis: str | None = None
    replacement: str | Leader | None = None
    note: str | None = None

    @model_validator(mode="after")
    def _ratings_fit_level(self) -> Self:
        allowed = {
            "army": {"initiative"},
            "corps": {"efficiency"},
            "division": {"coordination", "activation"},
            "brigade": {"profile", "orders"},
            "artillery": {"profile", "orders"},
            "staff": set(),
        }[self.level]
        given = {k for k in ("initiative", "efficiency", "coordination", "activation",
                             "profile", "orders") if getattr(self, k) is not None}
        wrong = given - allowed
        if wrong:
            raise RecordProblem("", sorted(wrong)[0], f"not a rating of a {self.level} leader")
        if (given or self.command_range is not None) and not (self.basis and self.basis.strip()):
            raise RecordProblem("", "basis", "a rating given by hand needs its basis")
        return self

    @property
    def stars(self) -> int:
        return STARS[self.level]

    @property
    def ratings_substitute(self) -> bool:
        """Every rating is designed: no public source prints them."""
        return True


class Section(_Record):
    """Guns of one type in a battery; a battery of mixed types is one counter per section."""

    weapon: Gun
    guns: int = Field(gt=0, le=8)


class Unit(_Record):
    """A regiment, battalion or battery (one or more counters)."""

    name: str = Field(min_length=1)
    title: str | None = None
    aliases: tuple[str, ...] = ()
    arm: Arm | None = None  # inherited from the formation
    men: int | None = Field(default=None, gt=0)
    source: str | None = None
    #: the strength is designed (no public figure); ``strength_basis`` gives the formula
    substitute: bool = False
    strength_basis: str | None = None
    engaged: bool = True  # False: present in the OR organisation but not in the battle
    weapon: SmallArms | None = None
    sections: tuple[Section, ...] = ()
    service: Service | None = None
    service_basis: str | None = None
    cohesion: int | None = Field(default=None, ge=2, le=9)
    basis: str | None = None
    green: bool = False
    battalions: int | None = Field(default=None, ge=1, le=3)  # None: the formula (cavalry)
    flags: tuple[str, ...] = ()
    note: str | None = None

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        if self.cohesion is not None and not (self.basis and self.basis.strip()):
            raise RecordProblem("", "basis", "a cohesion given by hand needs its basis")
        if self.service is not None and not (self.service_basis and self.service_basis.strip()):
            raise RecordProblem("", "service_basis",
                                "a unit's own service class needs its basis")
        if self.substitute and not (self.strength_basis and self.strength_basis.strip()):
            raise RecordProblem("", "strength_basis", "a substitute strength needs its formula")
        if self.sections and self.weapon is not None:
            raise RecordProblem("", "weapon", "a battery's weapons are in its sections")
        return self


class Formation(_Record):
    """A brigade or an artillery battalion/brigade: the formation counters belong to."""

    id: str = Field(pattern=r"^[A-Za-z0-9/.'_-]+$")
    name: str
    aliases: tuple[str, ...] = ()
    leader: Leader | None = None
    arm: Arm = "inf"
    service: Service = "veteran"
    service_basis: str = Field(min_length=3)
    weapon: SmallArms | None = None
    units: tuple[Unit, ...] = Field(min_length=1)
    note: str | None = None


class Division(_Record):
    id: str = Field(pattern=r"^[A-Za-z0-9/.'_-]+$")
    name: str
    aliases: tuple[str, ...] = ()
    leader: Leader | None = None
    brigades: tuple[Formation, ...] = ()
    artillery: tuple[Formation, ...] = ()
    note: str | None = None


class Corps(_Record):
    id: str = Field(pattern=r"^[A-Za-z0-9/.'_-]+$")
    name: str
    aliases: tuple[str, ...] = ()
    leader: Leader | None = None
    leaders: tuple[Leader, ...] = ()  # staff and artillery chiefs with counters
    #: who takes the corps, in order, when the counter's replacement is gone too (002 §12.74-12.76)
    succession: tuple[str, ...] = ()
    succession_source: str | None = None
    engaged: Published
    organisation: str = Field(min_length=3)  # where the brigade list comes from
    divisions: tuple[Division, ...] = ()
    brigades: tuple[Formation, ...] = ()  # attached straight to the corps (artillery, reserve)
    note: str | None = None


class Sources(_Record):
    organisation: str = Field(min_length=3)
    strength: str = Field(min_length=3)
    guns: str | None = None


class OobFile(_Record):
    side: Side
    army: str
    sources: Sources
    leaders: tuple[Leader, ...] = ()  # army-level leaders
    corps: tuple[Corps, ...] = ()


# --- resolved counters ---------------------------------------------------------------------
@dataclass(frozen=True)
class Counter:
    """One counter as the game prints it, with the provenance of each value."""

    id: str
    unit: str
    side: Side
    arm: Arm
    formation: str  # brigade/battalion id
    division: str | None
    corps: str
    mode: str  # "", "mounted", "dismounted" or the section label
    weapon: str
    sp: int
    cohesion: int
    cohesion_disordered: int
    ma: int
    ma_disordered: int
    green: bool
    flags: tuple[str, ...]
    men: int | None
    source: str
    substitutes: tuple[str, ...]  # fields whose value is a substitute


@dataclass(frozen=True)
class UnitRecord:
    unit: Unit
    side: Side
    arm: Arm
    formation: Formation
    division: Division | None
    corps: Corps
    file: str
    source: str

    @property
    def sp(self) -> int:
        if self.unit.sections:
            return sum(s.guns for s in self.unit.sections)
        if self.unit.men is None:
            raise ValueError(f"{self.unit.name}: no engaged strength")
        return strength_points(self.unit.men)

    @property
    def service(self) -> Service:
        return self.unit.service or self.formation.service

    def cohesion(self, formulas: Formulas) -> int:
        if self.unit.cohesion is not None:
            return self.unit.cohesion
        return formulas.cohesion.by_service[self.service]


@dataclass(frozen=True)
class LeaderRecord:
    leader: Leader
    side: Side
    command: str  # the formation id he leads ('' for a successor with no command of his own)
    file: str


@dataclass(frozen=True)
class Oob:
    files: tuple[tuple[str, OobFile], ...]
    units: tuple[UnitRecord, ...]
    leaders: tuple[LeaderRecord, ...]
    formulas: Formulas

    def rating(self, ident: str, key: str) -> Any:
        """A leader's rating: his own, or his level's default (a substitute)."""
        leader = self.leader(ident)
        value = getattr(leader, key)
        return self.formulas.leaders.defaults[leader.level].get(key) if value is None else value

    def corps(self, side: Side | None = None) -> Iterator[tuple[Side, Corps]]:
        for _, f in self.files:
            if side is None or f.side == side:
                for c in f.corps:
                    yield f.side, c

    def corps_by_id(self, ident: str) -> Corps:
        for _, c in self.corps():
            if c.id == ident:
                return c
        raise KeyError(f"no corps {ident!r}")

    def units_of(self, corps_id: str) -> list[UnitRecord]:
        return [u for u in self.units if u.corps.id == corps_id]

    def leader(self, ident: str) -> Leader:
        for rec in self.leaders:
            if rec.leader.id == ident:
                return rec.leader
        raise KeyError(f"no leader {ident!r}")

    def replacement_chain(self, ident: str) -> list[str]:
        """The leader ids that take over one after another (004 §12.7), stopping at a repeat."""
        chain = [ident]
        current = self.leader(ident)
        while current.replacement is not None:
            nxt = (self.leader(current.replacement) if isinstance(current.replacement, str)
                   else current.replacement)
            if nxt.id in chain:
                break
            chain.append(nxt.id)
            current = nxt
        return chain

    def counters(self) -> list[Counter]:
        return list(self._all_counters)

    # Built once: set-up asks for every counter once per deployment line.
    @cached_property
    def _all_counters(self) -> tuple[Counter, ...]:
        out: list[Counter] = []
        for rec in self.units:
            out.extend(_counters(rec, self.formulas))
        return tuple(out)

    def resolve(self, name: str, side: Side | None = None, kind: str | None = None,
                within: str | None = None) -> list[str]:
        """Every record (unit name, formation id or leader id) that ``name`` can mean; ``kind``
        keeps one kind: ``unit``, ``formation``, ``leader`` (commanders of troops) or
        ``artillery`` (artillery commanders); ``within`` keeps the units of one formation,
        division or corps (for names two batteries share, like 'Madison')."""
        hits = self._hits(normalise(name), side, within)
        if not hits and normalise(name).endswith(" bty"):  # 'battery A/2 US' names A/2 US
            hits = self._hits(normalise(name)[: -len(" bty")], side, within)
        return sorted(h for h in hits if kind is None or h.startswith(kind + ":"))

    def _hits(self, key: str, side: Side | None, within: str | None = None) -> set[str]:
        hits: set[str] = set()
        for rec in self.units:
            if side is not None and rec.side != side:
                continue
            if within is not None and within not in (
                    rec.formation.id, rec.division.id if rec.division else "", rec.corps.id):
                continue
            if key in {normalise(n) for n in (rec.unit.name, rec.unit.title or "",
                                              *rec.unit.aliases)}:
                hits.add(f"unit:{rec.corps.id}:{rec.unit.name}")
        for _, corps in self.corps(side):
            for form in _formations(corps):
                # 'US-1/1/I' is also known by its designation '1/1/I'
                short = form.id[3:] if form.id[:3] in ("US-", "CS-") else form.id
                names = {normalise(n) for n in (form.id, short, form.name, *form.aliases)}
                if key in names:
                    hits.add(f"formation:{form.id}")
        for lrec in self.leaders:
            if side is not None and lrec.side != side:
                continue
            ld = lrec.leader
            if key in {normalise(ld.id), normalise(ld.name), normalise(_surname(ld.name))}:
                hits.add(f"{'artillery' if ld.level == 'artillery' else 'leader'}:{ld.id}")
        return hits


def _surname(name: str) -> str:
    return name.split()[-1] if name.split() else name


#: the state spellings 004 uses, read as postal codes
_ABBREV = {"mass": "ma", "indiana": "in", "ohio": "oh", "miss": "ms", "mississippi": "ms",
           "ala": "al", "alabama": "al",
           "tenn": "tn", "tennessee": "tn", "va": "va", "virginia": "va", "nc": "nc",
           "sc": "sc", "la": "la", "fla": "fl", "ark": "ar", "tex": "tx", "texas": "tx",
           "mich": "mi", "ind": "in", "wis": "wi", "ill": "il", "penn": "pa", "pa": "pa"}


@cache  # a pure function of the name, asked for every record at every name set-up resolves
def normalise(name: str) -> str:
    """Compare names without case, punctuation or ordinals; the word 'battery' goes last, so
    '9 MA battery' finds the 9th Massachusetts Battery and not the 9th Massachusetts."""
    s = name.lower().replace("’", "'").replace(".", " ")
    s = re.sub(r"\b(\d+)(st|nd|rd|th)\b", r"\1", s)
    s = re.sub(r"[^a-z0-9/ ]", " ", s)
    words = [_ABBREV.get(w, w) for w in s.split() if w != "the"]
    battery = any(w in {"battery", "bty"} for w in words)
    words = [w for w in words if w not in {"battery", "bty"}]
    return " ".join(words + (["bty"] if battery else []))


def _formations(corps: Corps) -> Iterator[Formation | Division | Corps]:
    yield corps
    yield from corps.brigades
    for div in corps.divisions:
        yield div
        yield from div.brigades
        yield from div.artillery


def _counters(rec: UnitRecord, formulas: Formulas) -> list[Counter]:
    u = rec.unit
    coh = rec.cohesion(formulas)
    loss = formulas.cohesion.disordered_loss
    subs: tuple[str, ...] = ("cohesion", "ma") if u.cohesion is None else ("ma",)
    if not u.sections and u.weapon is None and rec.formation.weapon is None:
        subs += ("weapon",)

    def make(ident: str, mode: str, weapon: str, sp: int, move: str,
             extra: tuple[str, ...] = ()) -> Counter:
        ma, ma_dis = formulas.movement.allowances[move]  # type: ignore[index]
        return Counter(
            id=ident, unit=u.name, side=rec.side, arm=rec.arm, formation=rec.formation.id,
            division=rec.division.id if rec.division else None, corps=rec.corps.id, mode=mode,
            weapon=weapon, sp=sp, cohesion=coh, cohesion_disordered=coh - loss,
            ma=ma, ma_disordered=ma_dis, green=u.green or rec.service == "green", flags=u.flags,
            men=u.men, source=rec.source,
            substitutes=subs + extra + (("sp",) if u.substitute and "sp" not in extra else ()))

    base = f"{rec.corps.id}:{u.name}"
    if rec.arm in ("art", "horse_art"):
        many = len(u.sections) > 1
        return [make(f"{base}/{chr(65 + i)}" if many else base, chr(65 + i) if many else "",
                     sec.weapon, sec.guns, rec.arm) for i, sec in enumerate(u.sections)]
    weapon = u.weapon or rec.formation.weapon or ("C" if rec.arm == "cav" else "R")
    sp = rec.sp
    count = u.battalions or (formulas.battalions.count(sp) if rec.arm == "cav" else 1)
    if u.battalions is None and count > 1:
        subs += ("battalions",)
    parts = [sp // count + (1 if i < sp % count else 0) for i in range(count)]
    out: list[Counter] = []
    for b, part in enumerate(parts):
        ident = f"{base}#{b + 1}" if count > 1 else base
        if rec.arm == "cav":
            out.append(make(f"{ident}:mounted", "mounted", weapon, part, "cav"))
            out.append(make(f"{ident}:dismounted", "dismounted", weapon,
                            dismounted_points(part, formulas.dismounted.share),
                            "cav_dismounted", ("sp",)))
        else:
            out.append(make(ident, "", weapon, part, "inf"))
    return out


# --- loading -------------------------------------------------------------------------------
_NAME_KEYS = ("id", "name")


def _label(item: Any, index: int) -> str:
    if isinstance(item, Mapping):
        for key in _NAME_KEYS:
            if isinstance(item.get(key), str):
                return str(item[key])
    return f"#{index}"


def _locate(raw: Any, loc: Sequence[int | str]) -> tuple[str, str]:
    """The deepest named record on the error's path, and the field below it."""
    record, split, node = "(file)", 0, raw
    for i, key in enumerate(loc):
        if isinstance(key, int) and isinstance(node, list) and 0 <= key < len(node):
            node = node[key]
            if isinstance(node, Mapping) and any(isinstance(node.get(k), str) for k in _NAME_KEYS):
                record, split = _label(node, key), i + 1
            continue
        if isinstance(node, Mapping) and isinstance(node.get(key), Mapping) and key in (
                "leader", "replacement"):
            node = node[key]
            record, split = _label(node, 0), i + 1
            continue
        node = node.get(key) if isinstance(node, Mapping) else None
    field = ".".join(str(k) for k in loc[split:]
                     if not (isinstance(k, str) and k in ("str", "Leader"))) or "(record)"
    return record, field


def parse_file(raw: Any, path: Path) -> OobFile:
    if not isinstance(raw, Mapping):
        raise DataError(path, "(file)", "(top)", "an order-of-battle file must be a mapping")
    try:
        return OobFile.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        record, field = _locate(raw, err["loc"])
        cause = (err.get("ctx") or {}).get("error")
        if isinstance(cause, RecordProblem):
            raise DataError(path, record, cause.field or field, str(cause)) from exc
        raise DataError(path, record, field, str(err["msg"])) from exc


def _walk(path: Path, f: OobFile) -> Iterator[tuple[Leader | None, str, UnitRecord | None]]:
    """Every leader (with the id of what he commands) and every unit of a file."""
    name = path.name
    for ld in f.leaders:
        yield ld, "army", None
    for corps in f.corps:
        yield corps.leader, corps.id, None
        for ld in corps.leaders:
            yield ld, corps.id, None
        groups: list[tuple[Division | None, Formation]] = [(None, b) for b in corps.brigades]
        for div in corps.divisions:
            yield div.leader, div.id, None
            groups += [(div, b) for b in (*div.brigades, *div.artillery)]
        for div_or_none, form in groups:
            yield form.leader, form.id, None
            for u in form.units:
                src = u.source or (f.sources.guns if u.sections and f.sources.guns
                                   else f.sources.strength)
                yield None, form.id, UnitRecord(u, f.side, u.arm or form.arm, form, div_or_none,
                                                corps, name, src)


def _check(path: Path, f: OobFile) -> tuple[list[UnitRecord], list[LeaderRecord]]:
    units: list[UnitRecord] = []
    leaders: list[LeaderRecord] = []
    for ld, command, rec in _walk(path, f):
        if ld is not None:
            leaders.append(LeaderRecord(ld, f.side, command, path.name))
            succ = ld.replacement
            while isinstance(succ, Leader):
                leaders.append(LeaderRecord(succ, f.side, "", path.name))
                succ = succ.replacement
        if rec is None:
            continue
        u = rec.unit
        if rec.arm in ("art", "horse_art"):
            if not u.sections:
                raise DataError(path, u.name, "sections", "a battery needs its guns by type")
        else:
            if u.sections:
                raise DataError(path, u.name, "sections", "only artillery has gun sections")
            if u.men is None:
                raise DataError(path, u.name, "men", "an engaged strength is needed")
        units.append(rec)
    return units, leaders


def load_formulas(path: Path | None = None) -> Formulas:
    """The substitutes' formulas (default: ``data/oob_formulas.yaml``)."""
    where = FORMULAS_PATH if path is None else path
    raw = read_yaml(where)
    if not isinstance(raw, Mapping):
        raise DataError(where, "(file)", "(top)", "a formulas file must be a mapping")
    try:
        return Formulas.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = [str(k) for k in err["loc"]]
        record = loc[0] if loc else "(file)"
        cause = (err.get("ctx") or {}).get("error")
        field = ".".join(loc[1:]) or "(record)"
        if isinstance(cause, RecordProblem):
            raise DataError(where, record, cause.field or field, str(cause)) from exc
        raise DataError(where, record, field, str(err["msg"])) from exc


def load(directory: Path | None = None, formulas: Path | None = None) -> Oob:
    """Read and cross-check every ``*.yaml`` of ``directory`` (default: the package data),
    with the substitutes' formulas of ``formulas`` (default: ``data/oob_formulas.yaml``)."""
    rules = load_formulas(formulas)
    folder = OOB_DIR if directory is None else directory
    paths = sorted(folder.glob("*.yaml"))
    if not paths:
        raise DataError(folder, "(folder)", "(files)", "no order-of-battle files")
    files: list[tuple[str, OobFile]] = []
    units: list[UnitRecord] = []
    leaders: list[LeaderRecord] = []
    for path in paths:
        f = parse_file(read_yaml(path), path)
        u, ld = _check(path, f)
        files.append((path.name, f))
        units += u
        leaders += ld
    _cross_check(units, leaders, files, folder)
    return Oob(tuple(files), tuple(units), tuple(leaders), rules)


def _cross_check(units: list[UnitRecord], leaders: list[LeaderRecord],
                 files: list[tuple[str, OobFile]], folder: Path) -> None:
    seen: dict[str, str] = {}
    for rec in leaders:
        ident = rec.leader.id
        if ident in seen:
            raise DataError(folder / rec.file, ident, "id",
                            f"leader id also used in {seen[ident]}")
        seen[ident] = rec.file
    for rec in leaders:
        ref = rec.leader.replacement
        if isinstance(ref, str) and ref not in seen:
            raise DataError(folder / rec.file, rec.leader.id, "replacement",
                            f"no leader {ref!r}")
    forms: dict[str, str] = {}
    for name, f in files:
        for corps in f.corps:
            for ident in corps.succession:
                if ident not in seen:
                    raise DataError(folder / name, corps.id, "succession", f"no leader {ident!r}")
            if corps.succession and not corps.succession_source:
                raise DataError(folder / name, corps.id, "succession_source",
                                "a succession needs its source")
    for name, f in files:
        for corps in f.corps:
            for form in _formations(corps):
                if form.id in forms:
                    raise DataError(folder / name, form.id, "id",
                                    f"formation id also used in {forms[form.id]}")
                forms[form.id] = name
    names: dict[tuple[str, str], str] = {}
    for u in units:
        key = (u.side, u.unit.name)
        if key in names:
            raise DataError(folder / u.file, u.unit.name, "name",
                            f"a {u.side} unit of that name is also in {names[key]}")
        names[key] = u.file


@cache
def default_oob() -> Oob:
    return load()
