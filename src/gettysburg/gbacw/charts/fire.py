"""The Fire Table (002 §10.17, §10.67-10.69, §10.81; the grid of 004) and its DRMs."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Literal, Self

from pydantic import Field, model_validator

from .datafile import (
    ChartFile,
    ChartLookupError,
    Provenance,
    RecordProblem,
    Sourced,
    unique_ids,
)

FireKind = Literal["small_arms", "shell"]
Check = Literal["none", "udd", "auto"]
Side = Literal["usa", "csa"]
Ammo = Literal["none", "low", "out"]
BarrageOutcome = Literal["fires-on", "disordered", "removed"]

#: "-", "d", "d-2", "d+1", "D", "1d+2", "1D", "2D", "3D"
CELL_RE = re.compile(r"^(?:-|(?P<loss>[1-9])?(?:d(?P<drm>[+-][1-9])?|(?P<auto>D)))$")


@dataclass(frozen=True)
class FireResult:
    """One cell: SP lost first, then the disorder check (none, a UDD with a DRM, automatic)."""

    code: str
    sp_loss: int
    check: Check
    udd_drm: int
    provenance: Provenance

    @property
    def no_effect(self) -> bool:
        return self.sp_loss == 0 and self.check == "none"


def parse_cell(code: str) -> tuple[int, Check, int]:
    m = CELL_RE.match(code)
    if m is None:
        raise ValueError(f"{code!r} is not a fire result ('-', 'd', 'd+2', 'D', '1d+2', '2D')")
    if code == "-":
        return 0, "none", 0
    loss = int(m["loss"] or 0)
    if m["auto"]:
        return loss, "auto", 0
    return loss, "udd", int(m["drm"] or 0)


class FireColumn(Sourced):
    id: str
    kind: FireKind
    min: int = Field(ge=1)
    max: int | None = None

    def contains(self, strength: int) -> bool:
        return strength >= self.min and (self.max is None or strength <= self.max)


class FireRow(Sourced):
    roll: int
    cells: tuple[str, ...]

    @model_validator(mode="after")
    def _codes(self) -> Self:
        for i, code in enumerate(self.cells):
            try:
                parse_cell(code)
            except ValueError as exc:
                raise RecordProblem("", f"cells.{i}", str(exc)) from exc
        return self


class ClampRule(Sourced):
    rule: Literal["clamp"]


class FixedValue(Sourced):
    value: int


class RowMark(Sourced):
    roll: int
    effect: str


class Ammunition(Sourced):
    low_ammo_on_unmodified: tuple[int, ...]
    low_ammo_drm: int
    rapid_fire_out_on_unmodified: tuple[int, ...]
    superseded_row_marks: tuple[RowMark, ...] = ()


class Barrage(Sourced):
    disorder_at_or_above: dict[Side, int]
    removed_above: dict[Side, int] = Field(default_factory=dict)


class FireModifier(Sourced):
    id: str
    value: int | None  # None: the value depends on the situation (range, terrain, fatigue)
    applies: Literal["all", "small_arms", "small_arms_only", "shell"]
    text: str


class FireTable(ChartFile):
    columns: tuple[FireColumn, ...]
    rows: tuple[FireRow, ...]
    beyond_printed_rows: ClampRule
    artillery_target_udd_drm: FixedValue
    ammunition: Ammunition
    barrage: Barrage
    modifiers: tuple[FireModifier, ...]
    night_by_range: dict[int, int]

    @model_validator(mode="after")
    def _complete(self) -> Self:
        unique_ids([c.id for c in self.columns], "columns")
        for kind in ("small_arms", "shell"):
            cols = [c for c in self.columns if c.kind == kind]
            if not cols:
                raise RecordProblem("(chart)", "columns", f"no {kind} column")
            expect = 1
            for col in cols:
                if col.min != expect:
                    raise RecordProblem(
                        f"columns[id={col.id}]", "min",
                        f"{kind} columns must run on from {expect} without gaps",
                    )
                if col.max is None:
                    if col is not cols[-1]:
                        raise RecordProblem(f"columns[id={col.id}]", "max", "only the last "
                                            f"{kind} column may be open-ended")
                    break
                expect = col.max + 1
            if cols[-1].max is not None:
                raise RecordProblem(f"columns[id={cols[-1].id}]", "max",
                                    f"the last {kind} column must be open-ended")
        for i, row in enumerate(self.rows):
            if len(row.cells) != len(self.columns):
                raise RecordProblem(f"rows[roll={row.roll}]", "cells",
                                    f"{len(row.cells)} cells for {len(self.columns)} columns")
            if i and row.roll != self.rows[i - 1].roll + 1:
                raise RecordProblem(f"rows[roll={row.roll}]", "roll",
                                    "rows must run one roll apart, lowest first")
        unique_ids([m.id for m in self.modifiers], "modifiers")
        if sorted(self.night_by_range) != list(range(1, len(self.night_by_range) + 1)):
            raise RecordProblem("(chart)", "night_by_range", "ranges must run 1, 2, 3, ...")
        return self

    # --- lookups ------------------------------------------------------------------------
    @property
    def roll_min(self) -> int:
        return self.rows[0].roll

    @property
    def roll_max(self) -> int:
        return self.rows[-1].roll

    def column_for(self, kind: FireKind, strength: int) -> FireColumn:
        """The column of ``strength`` (SP for small arms and canister, guns for shell)."""
        for col in self.columns:
            if col.kind == kind and col.contains(strength):
                return col
        raise ChartLookupError(f"fire: no {kind} column for strength {strength} (at least 1)")

    def cell(self, column_id: str, roll: int) -> FireResult:
        """The printed cell; a modified roll off the printed rows reads the end row (E-21)."""
        index = next((i for i, c in enumerate(self.columns) if c.id == column_id), None)
        if index is None:
            raise ChartLookupError(f"fire: no column {column_id!r}")
        row = self.rows[min(max(roll, self.roll_min), self.roll_max) - self.roll_min]
        code = row.cells[index]
        loss, check, drm = parse_cell(code)
        prov = self.columns[index].provenance(row.provenance(self.root()))
        return FireResult(code, loss, check, drm, prov)

    def result(self, kind: FireKind, strength: int, roll: int) -> FireResult:
        return self.cell(self.column_for(kind, strength).id, roll)

    def drm(self, ids: Iterable[str], *, kind: FireKind, canister: bool = False) -> int:
        """The sum of the named fixed DRMs; a DRM that cannot apply to this fire (``kind``;
        artillery ``canister`` reads the small-arms columns) is refused."""
        by_id = {m.id: m for m in self.modifiers}
        total = 0
        for ident in ids:
            mod = by_id.get(ident)
            if mod is None:
                raise ChartLookupError(f"fire: no modifier {ident!r}")
            if mod.value is None:
                raise ChartLookupError(f"fire: modifier {ident!r} has no fixed value ({mod.text})")
            if mod.applies == "shell" and kind != "shell":
                raise ChartLookupError(f"fire: modifier {ident!r} applies to shell fire only")
            if mod.applies in ("small_arms", "small_arms_only") and kind != "small_arms":
                raise ChartLookupError(f"fire: modifier {ident!r} applies to small arms only")
            if mod.applies == "small_arms_only" and canister:
                raise ChartLookupError(f"fire: modifier {ident!r} does not apply to canister")
            total += mod.value
        return total

    def night_drm(self, hexes: int) -> int:
        if hexes < 1:
            raise ChartLookupError(f"fire: range {hexes} is below 1")
        return self.night_by_range[min(hexes, max(self.night_by_range))]

    def ammunition_after(self, unmodified: int, *, rapid_fire: bool, low: bool) -> Ammo:
        """The battery's ammunition after a shot (002 §10.68-10.69; decision E-5)."""
        if not 0 <= unmodified <= 9:
            raise ChartLookupError(f"fire: an unmodified roll is 0-9, not {unmodified}")
        ammo = self.ammunition
        if rapid_fire and unmodified in ammo.rapid_fire_out_on_unmodified:
            return "out"
        if unmodified in ammo.low_ammo_on_unmodified:
            return "out" if low else "low"
        return "low" if low else "none"

    def barrage_check(self, side: Side, roll: int, activations_used: int) -> BarrageOutcome:
        """004 §10.94: 'fires-on', 'disordered' or 'removed' for a battery that barraged."""
        if not 0 <= roll <= 9:
            raise ChartLookupError(f"barrage: a d10 roll is 0-9, not {roll}")
        if activations_used < 1:
            raise ChartLookupError("barrage: a battery that barraged used at least 1 activation")
        total = roll + activations_used
        removed = self.barrage.removed_above.get(side)
        if removed is not None and total > removed:
            return "removed"
        if total >= self.barrage.disorder_at_or_above[side]:
            return "disordered"
        return "fires-on"

    def provenances(self) -> Iterator[tuple[str, Provenance]]:
        yield from super().provenances()
        root = self.root()
        for col in self.columns:
            for r in range(self.roll_min, self.roll_max + 1):
                yield f"cell {col.id} roll {r}", self.cell(col.id, r).provenance
        for name, rec in (("beyond_printed_rows", self.beyond_printed_rows),
                          ("artillery_target_udd_drm", self.artillery_target_udd_drm),
                          ("ammunition", self.ammunition), ("barrage", self.barrage)):
            yield name, rec.provenance(root)
        for mod in self.modifiers:
            yield f"modifier {mod.id}", mod.provenance(root)


def column_ids(table: FireTable) -> Mapping[FireKind, tuple[str, ...]]:
    return {
        kind: tuple(c.id for c in table.columns if c.kind == kind)
        for kind in ("small_arms", "shell")
    }
