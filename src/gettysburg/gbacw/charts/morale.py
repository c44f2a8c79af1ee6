"""Cohesion charts: the Rally table (002 §13.41-13.42) and the 2nd Disorder Table rebuilt
from 002 §12.35-12.36."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Literal, Self

from pydantic import Field, model_validator

from .datafile import ChartFile, ChartLookupError, Provenance, RecordProblem, Sourced, unique_ids


# --- Rally (002 §13.41-13.42) --------------------------------------------------------------
class RallyRule(Sourced):
    id: str
    text: str


class RallyModifier(Sourced):
    id: str
    drm: int | None  # None: leader stars or fatigue, passed by the caller
    text: str


@dataclass(frozen=True)
class RallyResult:
    modified_roll: int
    rallied: bool
    sp_loss: int


class RallyTable(ChartFile):
    rallies_at_or_below_cohesion: Literal[True]
    sp_loss_at_or_above_cohesion_times: int = Field(ge=2)
    sp_loss_at_or_above_roll: int
    rules: tuple[RallyRule, ...]
    modifiers: tuple[RallyModifier, ...]

    @model_validator(mode="after")
    def _unique(self) -> Self:
        unique_ids([r.id for r in self.rules], "rules")
        unique_ids([m.id for m in self.modifiers], "modifiers")
        return self

    def result(
        self,
        roll: int,
        cohesion: int,
        modifiers: Iterable[str] = (),
        *,
        leader_stars: int = 0,
        fatigue: int = 0,
    ) -> RallyResult:
        """Rally a disordered unit of disordered ``cohesion`` with d10 ``roll``: stacked leaders
        subtract their stars; half the fatigue level, rounded up, is added (002 §17.31)."""
        if not 0 <= roll <= 9:
            raise ChartLookupError(f"rally: a d10 roll is 0-9, not {roll}")
        if cohesion < 0 or leader_stars < 0 or fatigue < 0:
            raise ChartLookupError("rally: cohesion, leader stars and fatigue cannot be negative")
        fixed = {m.id: m.drm for m in self.modifiers if m.drm is not None}
        total = 0
        for ident in modifiers:
            if ident not in fixed:
                raise ChartLookupError(f"rally: no fixed modifier {ident!r}")
            total += fixed[ident]
        modified = roll + total - leader_stars + -(-fatigue // 2)
        rallied = modified <= cohesion
        loses = not rallied and (
            modified >= self.sp_loss_at_or_above_cohesion_times * cohesion
            or modified >= self.sp_loss_at_or_above_roll
        )
        return RallyResult(modified, rallied, 1 if loses else 0)

    def provenances(self) -> Iterator[tuple[str, Provenance]]:
        yield from super().provenances()
        root = self.root()
        for r in self.rules:
            yield f"rule {r.id}", r.provenance(root)
        for m in self.modifiers:
            yield f"modifier {m.id}", m.provenance(root)


# --- 2nd Disorder Table (002 §12.35-12.36) -------------------------------------------------
Cause = Literal[
    "fire", "friendly-fire", "pre-shock-check", "shock-result", "withdrawal-before-shock",
    "reaction-facing", "adjacent-rout", "retreat-through", "terrain", "post-shock",
]
Arm = Literal["infantry", "mounted-cavalry", "artillery"]


class SecondDisorderCell(Sourced):
    cause: Cause
    arm: Arm
    sp_loss: int = Field(default=0, ge=0, le=1)
    retreat: tuple[int, int] | None = None
    check: Literal["udd"] | None = None
    on_check_fail: Literal["rout"] | None = None
    stop: bool = False
    blown: bool = False
    abandoned: bool = False
    not_applicable: bool = False
    note: str | None = None

    @model_validator(mode="after")
    def _coherent(self) -> Self:
        if (self.check is None) != (self.on_check_fail is None):
            raise RecordProblem("", "on_check_fail", "a check and its failure go together")
        if self.retreat is not None and not 0 < self.retreat[0] <= self.retreat[1]:
            raise RecordProblem("", "retreat", "a retreat is [min, max] hexes with 0 < min <= max")
        effects = (self.sp_loss or self.retreat or self.check or self.stop or self.blown
                   or self.abandoned)
        if self.not_applicable and effects:
            raise RecordProblem("", "not_applicable", "a case that cannot arise has no effects")
        if not self.not_applicable and not effects:
            raise RecordProblem("", "(record)", "no effect given; mark not_applicable if the "
                                "case cannot arise")
        return self


class GeneralRule(Sourced):
    id: str
    text: str


class SecondDisorderTable(ChartFile):
    causes: tuple[Cause, ...]
    arms: tuple[Arm, ...]
    cells: tuple[SecondDisorderCell, ...]
    general: tuple[GeneralRule, ...] = ()

    @model_validator(mode="after")
    def _every_cell(self) -> Self:
        seen: set[tuple[str, str]] = set()
        for i, cell in enumerate(self.cells):
            key = (cell.cause, cell.arm)
            if key in seen:
                raise RecordProblem(f"cells[{i}]", "cause", f"{cell.cause} x {cell.arm} twice")
            if cell.cause not in self.causes or cell.arm not in self.arms:
                raise RecordProblem(f"cells[{i}]", "cause", "cause or arm not listed")
            seen.add(key)
        for cause in self.causes:
            for arm in self.arms:
                if (cause, arm) not in seen:
                    raise RecordProblem("(chart)", "cells", f"no cell for {cause} x {arm}")
        return self

    def outcome(self, cause: str, arm: str) -> tuple[SecondDisorderCell, Provenance]:
        for cell in self.cells:
            if cell.cause == cause and cell.arm == arm:
                if cell.not_applicable:
                    raise ChartLookupError(
                        f"2nd disorder: {cause} cannot give {arm} a 2nd disorder ({cell.note})"
                    )
                return cell, cell.provenance(self.root())
        raise ChartLookupError(
            f"2nd disorder: no cell {cause!r} x {arm!r} (causes: {', '.join(self.causes)}; "
            f"arms: {', '.join(self.arms)})"
        )

    def provenances(self) -> Iterator[tuple[str, Provenance]]:
        yield from super().provenances()
        root = self.root()
        for cell in self.cells:
            yield f"cell {cell.cause} x {cell.arm}", cell.provenance(root)
        for rule in self.general:
            yield f"rule {rule.id}", rule.provenance(root)
