"""The Shock Resolution Table, its ratio and DRMs, and the defender's pre-shock check
(002 §11.37, §11.43-11.48, §11.55, §11.64, §11.72-11.73; the grid printed in 004)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from .datafile import (
    Band,
    ChartFile,
    ChartLookupError,
    Provenance,
    RecordProblem,
    Sourced,
    band_for,
    check_bands,
    unique_ids,
)

RATIO_RE = re.compile(r"^(?P<a>\d+(?:\.\d+)?):(?P<d>\d+(?:\.\d+)?)$")


def ratio_value(label: str) -> Fraction:
    m = RATIO_RE.match(label)
    if m is None:
        raise ValueError(f"{label!r} is not a ratio ('1:2', '1.5:1')")
    return Fraction(m["a"]) / Fraction(m["d"])


class SideEffect(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    retreat: int = Field(default=0, ge=0)
    disordered: bool = False
    sp_loss: int = Field(default=0, ge=0)
    udd_or_rout: bool = False


class ShockResult(Band):
    id: str
    attacker: SideEffect
    defender: SideEffect
    continued_shock: Literal["none", "attacker-may", "defender-may"] = "none"
    text: str


class Ratio(Sourced):
    label: str
    drm: int

    @model_validator(mode="after")
    def _label(self) -> Self:
        try:
            ratio_value(self.label)
        except ValueError as exc:
            raise RecordProblem("", "label", str(exc)) from exc
        return self

    @property
    def value(self) -> Fraction:
        return ratio_value(self.label)


class Note(Sourced):
    text: str


class Position(Sourced):
    id: str
    drm: int
    text: str | None = None


class ShockModifier(Sourced):
    id: str
    drm: int | None  # None: the value depends on the situation
    favours: Literal["attacker", "defender", "either"]
    text: str


class Multiplier(Sourced):
    id: str
    factor: float = Field(gt=0)
    text: str | None = None


class PreShockModifier(Sourced):
    id: str
    drm: int | None
    text: str


@dataclass(frozen=True)
class ShockOutcome:
    """A resolved shock: the modified roll, the ratio used and the table's row."""

    modified_roll: int
    ratio: Ratio
    result: ShockResult
    provenance: Provenance


class ShockTable(ChartFile):
    results: tuple[ShockResult, ...]
    ratios: tuple[Ratio, ...]
    ratio_rounding: Note
    position: tuple[Position, ...]
    modifiers: tuple[ShockModifier, ...]
    strength_multipliers: tuple[Multiplier, ...]
    pre_shock: tuple[PreShockModifier, ...]

    @model_validator(mode="after")
    def _complete(self) -> Self:
        check_bands(self.results, "results")
        unique_ids([r.id for r in self.results], "results")
        unique_ids([r.label for r in self.ratios], "ratios")
        values = [r.value for r in self.ratios]
        if values != sorted(values):
            raise RecordProblem("(chart)", "ratios", "ratios must be listed from the weakest up")
        unique_ids([p.id for p in self.position] + [m.id for m in self.modifiers], "modifiers")
        unique_ids([m.id for m in self.pre_shock], "pre_shock")
        return self

    # --- lookups ------------------------------------------------------------------------
    def ratio(self, attacker_sp: float, defender_sp: float, *, favour_attacker: bool) -> Ratio:
        """002 §11.43: reduce the SP comparison to a printed ratio, rounding toward the side
        it favours, and clamp to the table's ends."""
        if attacker_sp <= 0 or defender_sp <= 0:
            raise ChartLookupError(
                f"shock: strengths must be above 0 (attacker {attacker_sp}, defender {defender_sp})"
            )
        exact = Fraction(attacker_sp) / Fraction(defender_sp)
        if favour_attacker:
            return next((r for r in self.ratios if r.value >= exact), self.ratios[-1])
        return next((r for r in reversed(self.ratios) if r.value <= exact), self.ratios[0])

    def result(self, modified_roll: int) -> ShockResult:
        return band_for(self.results, modified_roll, "shock")

    def drm(self, ids: Iterable[str]) -> int:
        """The sum of the named position and other fixed shock DRMs."""
        fixed: dict[str, int] = {p.id: p.drm for p in self.position}
        for m in self.modifiers:
            if m.drm is not None:
                fixed[m.id] = m.drm
        variable = {m.id for m in self.modifiers if m.drm is None}
        total = 0
        for ident in ids:
            if ident in variable:
                raise ChartLookupError(f"shock: modifier {ident!r} has no fixed value; pass it "
                                       "as extra")
            if ident not in fixed:
                raise ChartLookupError(f"shock: no modifier {ident!r}")
            total += fixed[ident]
        return total

    def resolve(
        self, ratio: Ratio | str, roll: int, modifiers: Iterable[str] = (), extra: int = 0
    ) -> ShockOutcome:
        """d10 ``roll`` + the ratio DRM + the named DRMs + ``extra`` (terrain, fatigue)."""
        if not 0 <= roll <= 9:
            raise ChartLookupError(f"shock: a d10 roll is 0-9, not {roll}")
        if isinstance(ratio, str):
            found = next((r for r in self.ratios if r.label == ratio), None)
            if found is None:
                labels = ", ".join(r.label for r in self.ratios)
                raise ChartLookupError(f"shock: no ratio {ratio!r} (one of {labels})")
            ratio = found
        modified = roll + ratio.drm + self.drm(modifiers) + extra
        row = self.result(modified)
        return ShockOutcome(modified, ratio, row, row.provenance(self.root()))

    def pre_shock_drm(self, ids: Iterable[str], *, leader_stars: int = 0, fatigue: int = 0) -> int:
        """The defender's pre-shock check DRM: the named ones, minus every stacked leader's
        stars (E-10), plus half the fatigue level rounded up (002 §17.31)."""
        if leader_stars < 0 or fatigue < 0:
            raise ChartLookupError("pre-shock: leader stars and fatigue cannot be negative")
        fixed = {m.id: m.drm for m in self.pre_shock if m.drm is not None}
        total = 0
        for ident in ids:
            if ident not in fixed:
                raise ChartLookupError(f"pre-shock: no fixed modifier {ident!r}")
            total += fixed[ident]
        return total - leader_stars + -(-fatigue // 2)

    def provenances(self) -> Iterator[tuple[str, Provenance]]:
        yield from super().provenances()
        root = self.root()
        groups: tuple[tuple[str, Iterable[Sourced]], ...] = (
            ("result", self.results), ("ratio", self.ratios), ("position", self.position),
            ("modifier", self.modifiers), ("multiplier", self.strength_multipliers),
            ("pre-shock", self.pre_shock),
        )
        for name, records in groups:
            for i, rec in enumerate(records):
                yield f"{name} {i}", rec.provenance(root)
        yield "ratio_rounding", self.ratio_rounding.provenance(root)
