"""The Terrain Effects Chart (002 §9.41-9.47, §10.81, §11.42; the values printed in 004)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal, Self

from pydantic import Field, model_validator

from .datafile import ChartFile, ChartLookupError, Provenance, RecordProblem, Sourced, unique_ids

UnitClass = Literal["infantry", "mounted_cavalry", "artillery", "leader"]
UNIT_CLASSES: tuple[UnitClass, ...] = ("infantry", "mounted_cavalry", "artillery", "leader")
CostKind = Literal["enter", "add", "prohibited", "other", "half"]
Disorder = Literal["none", "udd", "auto"]

#: "2", "+1", "3 d", "+4 D", "P", "other", "half"
COST_RE = re.compile(r"^(?:P|other|half|(?P<add>\+)?(?P<mp>\d+)(?: (?P<dis>[dD]))?)$")


@dataclass(frozen=True)
class MoveCost:
    """What entering (or crossing, or following) the terrain costs one class of unit."""

    kind: CostKind
    mp: int | None
    disorder: Disorder
    provenance: Provenance


def parse_cost(code: str) -> tuple[CostKind, int | None, Disorder]:
    m = COST_RE.match(code)
    if m is None:
        raise ValueError(f"{code!r} is not a cost ('2', '+1', '3 d', '+4 D', 'P', 'other', 'half')")
    if code == "P":
        return "prohibited", None, "none"
    if code in ("other", "half"):
        return ("other" if code == "other" else "half"), None, "none"
    disorder: Disorder = {"d": "udd", "D": "auto", None: "none"}[m["dis"]]  # type: ignore[assignment]
    return ("add" if m["add"] else "enter"), int(m["mp"]), disorder


class Terrain(Sourced):
    id: str
    where: Literal["hex", "hexside", "path", "elevation", "action"]
    movement: dict[UnitClass, str]
    fire_drm: int | None  # on fire at a unit in the hex or through the hexside
    fire_drm_firing_out: int | None = None  # on fire by a unit in the hex (railroad cut)
    shock_drm: int | None  # on the shock roll against a defender in the hex or behind it
    blocks_los: bool
    los_levels: int = Field(default=0, ge=0)
    notes: tuple[str, ...] = ()

    @model_validator(mode="after")
    def _costs(self) -> Self:
        missing = [c for c in UNIT_CLASSES if c not in self.movement]
        if missing:
            raise RecordProblem("", "movement", f"no cost for {', '.join(missing)}")
        for cls, code in self.movement.items():
            try:
                parse_cost(code)
            except ValueError as exc:
                raise RecordProblem("", f"movement.{cls}", str(exc)) from exc
        return self


class OrphanedNote(Sourced):
    id: str
    text: str


class TerrainChart(ChartFile):
    terrain: tuple[Terrain, ...]
    orphaned_notes: tuple[OrphanedNote, ...] = ()

    @model_validator(mode="after")
    def _unique(self) -> Self:
        unique_ids([t.id for t in self.terrain], "terrain")
        return self

    def get(self, terrain_id: str) -> Terrain:
        for t in self.terrain:
            if t.id == terrain_id:
                return t
        raise ChartLookupError(f"terrain: no terrain {terrain_id!r}")

    def move_cost(self, terrain_id: str, unit_class: UnitClass) -> MoveCost:
        t = self.get(terrain_id)
        if unit_class not in t.movement:
            raise ChartLookupError(f"terrain: no unit class {unit_class!r}")
        kind, mp, disorder = parse_cost(t.movement[unit_class])
        return MoveCost(kind, mp, disorder, t.provenance(self.root()))

    def provenances(self) -> Iterator[tuple[str, Provenance]]:
        yield from super().provenances()
        for t in self.terrain:
            yield f"terrain {t.id}", t.provenance(self.root())
        for note in self.orphaned_notes:
            yield f"orphaned note {note.id}", note.provenance(self.root())
