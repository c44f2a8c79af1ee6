"""A chart data file: where every value comes from, how the file is read, and its errors.

A value's source is one or more citations of the seeds (``002 §12.35``, ``004 chart``,
``004 §10.94``, ``004 sc.3``) joined by ``; ``, or the word ``substitute`` for a value the
seeds do not give: a substitute must say so (``substitute: true``) and carry its ``basis``,
the reasoning or formula behind it. Records inherit the source of the record that holds
them unless they name their own, so a table printed whole in 004 says ``004 chart`` once.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self, TypeVar

import yaml
from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

_CITE = (
    r"(?:002 §\d+(?:\.\d+)*[a-f]?(?:[–-]\d+(?:\.\d+)*[a-f]?)?"
    r"|004 (?:chart(?: note \[[a-z]+\])?|§\d+(?:\.\d+)*(?:[–-]\d+(?:\.\d+)*)?|sc\.\d))"
)
SOURCE_RE = re.compile(rf"^(?:substitute|{_CITE}(?:; {_CITE})*)$")
DECISION_RE = re.compile(r"^E-(?:[1-9]|[12]\d|3[01])$")

#: keys that name a record in a list, tried in this order, for error messages
_ID_KEYS = ("id", "code", "letter", "roll", "cause", "side", "order", "profile", "date")


class DataError(ValueError):
    """A chart file is wrong. The message names the FILE, the RECORD and the FIELD."""

    def __init__(self, file: str | Path, record: str, field: str, problem: str) -> None:
        self.file = str(file)
        self.record = record
        self.field = field
        self.problem = problem
        super().__init__(f"{self.file}: record {record!r}: field {field!r}: {problem}")


class ChartLookupError(ValueError):
    """A lookup asked for a cell the chart does not have (a roll, range or column out of reach)."""


class RecordProblem(ValueError):
    """Raised inside a validator to name the record and field of a cross-record check."""

    def __init__(self, record: str, field: str, problem: str) -> None:
        self.record = record
        self.field = field
        super().__init__(problem)


@dataclass(frozen=True)
class Provenance:
    """The resolved source of one value."""

    source: str
    substitute: bool
    basis: str | None = None
    decision: str | None = None


class Sourced(BaseModel):
    """A record that may name its own source; otherwise it inherits its holder's."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    source: str | None = None
    substitute: bool = False
    basis: str | None = None
    decision: str | None = None  # the E-item of docs/gbacw-decisions.md that chose the value

    @model_validator(mode="after")
    def _provenance_consistent(self) -> Self:
        if self.source is not None and not SOURCE_RE.match(self.source):
            raise RecordProblem(
                "", "source",
                f"{self.source!r} is not '002 §x.y', '004 chart', '004 §x.y', '004 sc.N' "
                "(several joined by '; ') or 'substitute'",
            )
        if self.substitute and self.source != "substitute":
            raise RecordProblem("", "source", "a substitute value needs source: substitute")
        if self.source == "substitute" and not self.substitute:
            raise RecordProblem("", "substitute", "source: substitute needs substitute: true")
        if self.substitute and not (self.basis and self.basis.strip()):
            raise RecordProblem("", "basis", "a substitute needs its basis (reasoning or formula)")
        if self.decision is not None and not DECISION_RE.match(self.decision):
            raise RecordProblem("", "decision", f"{self.decision!r} is not an E-item (E-1…E-31)")
        return self

    def provenance(self, holder: Provenance) -> Provenance:
        """This record's source, or the holder's when it names none."""
        if self.source is None:
            if self.decision is not None:
                return Provenance(holder.source, holder.substitute, holder.basis, self.decision)
            return holder
        return Provenance(self.source, self.substitute, self.basis, self.decision)


class ChartFile(Sourced):
    """The top of every chart file: its id, title and the source its records inherit."""

    chart: str
    title: str

    def provenances(self) -> Iterator[tuple[str, Provenance]]:
        """Every cell of the chart with its resolved source (each chart lists its own)."""
        yield "(chart)", self.root()

    def root(self) -> Provenance:
        if self.source is None:  # the field is optional on records, not on a chart
            raise RecordProblem("(chart)", "source", "a chart needs its source")
        return Provenance(self.source, self.substitute, self.basis, self.decision)

    @model_validator(mode="after")
    def _has_source(self) -> Self:
        self.root()
        return self


#: libyaml's safe loader when PyYAML has it (same safe subset, faster)
_SAFE_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _DuplicateKey(yaml.constructor.ConstructorError):
    def __init__(self, key: Any, mark: Any) -> None:
        self.key = key
        self.line = mark.line + 1
        super().__init__(None, None, f"key {key!r} appears twice in one mapping", mark)


class _UniqueKeyLoader(_SAFE_LOADER):  # type: ignore[misc]
    """The safe loader, refusing a key given twice in one mapping (YAML keeps the last)."""

    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if key in seen:
                raise _DuplicateKey(key, key_node.start_mark)
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


def read_yaml(path: Path) -> Any:
    try:
        with path.open(encoding="utf-8") as fh:
            return yaml.load(fh, Loader=_UniqueKeyLoader)
    except FileNotFoundError as exc:
        raise DataError(path, "(file)", "(file)", "file not found") from exc
    except UnicodeDecodeError as exc:
        raise DataError(path, "(file)", "(encoding)", f"not UTF-8 text: {exc}") from exc
    except OSError as exc:
        raise DataError(path, "(file)", "(file)", f"cannot be read: {exc.strerror}") from exc
    except _DuplicateKey as exc:
        raise DataError(path, f"(line {exc.line})", str(exc.key), "given twice") from exc
    except yaml.YAMLError as exc:
        raise DataError(path, "(file)", "(yaml)", f"not valid YAML: {exc}") from exc


def _name(item: Any, index: int) -> str:
    if isinstance(item, Mapping):
        for key in _ID_KEYS:
            if key in item and isinstance(item[key], str | int):
                return f"{key}={item[key]}"
    return str(index)


def _is_mapping(node: Any) -> bool:
    return isinstance(node, Mapping)


def locate(raw: Any, loc: Sequence[int | str], *, top: str = "(chart)",
           label: Callable[[Any, int], str] | None = None,
           is_record: Callable[[Any], bool] = _is_mapping,
           skip: frozenset[str] = frozenset()) -> tuple[str, str]:
    """Split a pydantic error location into the record (the deepest list item that
    ``is_record``, labelled by ``label``) and the field below it; ``skip`` names path keys
    that are not fields (a discriminated union's tags). ``top`` is the record when no list
    item is on the path."""
    name = label or _name
    segments: list[str] = []
    record = top
    split = 0
    node = raw
    for i, key in enumerate(loc):
        if isinstance(key, int) and isinstance(node, list) and 0 <= key < len(node):
            node = node[key]
            tag = f"[{name(node, key)}]"
            if segments:
                segments[-1] += tag
            else:
                segments.append(tag)
            if is_record(node):
                record, split = ".".join(segments), i + 1
            continue
        if isinstance(key, str) and key in skip:
            continue
        node = node.get(key) if isinstance(node, Mapping) else None
        segments.append(str(key))
    field = ".".join(str(k) for k in loc[split:]
                     if not (isinstance(k, str) and k in skip)) or "(record)"
    return record, field


M = TypeVar("M", bound=BaseModel)


def parse_chart(model: type[M], raw: Any, path: Path) -> M:
    """Validate ``raw`` as ``model``; any problem becomes a DataError naming record and field."""
    if not isinstance(raw, Mapping):
        raise DataError(path, "(chart)", "(top)", "a chart file must be a mapping")
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        record, field = locate(raw, err["loc"])
        cause = (err.get("ctx") or {}).get("error")
        if isinstance(cause, RecordProblem):
            if cause.record:
                record = cause.record if record == "(chart)" else f"{record}.{cause.record}"
            field = cause.field or field
            raise DataError(path, record, field, str(cause)) from exc
        raise DataError(path, record, field, str(err["msg"])) from exc


class Band(Sourced):
    """A record that covers the rolls min..max (None = open-ended on that side)."""

    min: int | None = None
    max: int | None = None

    def contains(self, roll: int) -> bool:
        return (self.min is None or roll >= self.min) and (self.max is None or roll <= self.max)

    def label(self) -> str:
        if self.min is None:
            return f"{self.max} or less"
        if self.max is None:
            return f"{self.min} or more"
        return str(self.min) if self.min == self.max else f"{self.min}-{self.max}"


def check_bands(
    bands: Sequence[Band], field: str, lo: int | None = None, hi: int | None = None
) -> None:
    """Bands listed in order must meet edge to edge, from ``lo`` (None: open) to ``hi``."""
    if not bands:
        raise RecordProblem("(chart)", field, "no bands")
    for i, band in enumerate(bands):
        where = f"{field}[{i}]"
        if i == 0:
            if band.min != lo:
                want = "no min (open-ended)" if lo is None else f"min {lo}"
                raise RecordProblem(where, "min", f"the first band needs {want}")
        else:
            before = bands[i - 1].max
            if band.min is None or before is None or band.min != before + 1:
                raise RecordProblem(where, "min", "bands must meet edge to edge, in order")
        if i == len(bands) - 1:
            if band.max != hi:
                want = "no max (open-ended)" if hi is None else f"max {hi}"
                raise RecordProblem(where, "max", f"the last band needs {want}")
        elif band.max is None:
            raise RecordProblem(where, "max", "only the last band may be open-ended")
        if band.min is not None and band.max is not None and band.min > band.max:
            raise RecordProblem(where, "max", "max is below min")


B = TypeVar("B", bound=Band)


def band_for(bands: Sequence[B], roll: int, what: str) -> B:
    for band in bands:
        if band.contains(roll):
            return band
    raise ChartLookupError(f"{what}: roll {roll} is outside the table")


def d10(roll: int, what: str) -> int:
    """An unmodified d10 reads 0-9 (002 §2.5)."""
    if not 0 <= roll <= 9:
        raise ChartLookupError(f"{what}: a d10 roll is 0-9, not {roll}")
    return roll


def unique_ids(ids: Sequence[str], field: str) -> None:
    seen: set[str] = set()
    for i, ident in enumerate(ids):
        if ident in seen:
            raise RecordProblem(f"{field}[{i}]", "id", f"{ident!r} appears twice")
        seen.add(ident)
