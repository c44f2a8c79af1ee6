"""The Range Effects Table (002 §10.16, §10.5, §10.67; the values printed in 004)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Literal, Self

from pydantic import Field, model_validator

from .datafile import ChartFile, ChartLookupError, Provenance, RecordProblem, Sourced, unique_ids

WeaponKind = Literal["small_arms", "artillery"]
Light = Literal["dawn", "day", "dusk", "night"]

BAND_RE = re.compile(r"^(?P<lo>[1-9]\d*)(?:-(?P<hi>[1-9]\d*)|(?P<open>\+))?$")
CANISTER_MAX = 3  # 002 §10.67: artillery at 1-3 hexes fires canister on the small-arms columns


def parse_band(label: str) -> tuple[int, int | None]:
    m = BAND_RE.match(label)
    if m is None:
        raise ValueError(f"{label!r} is not a range band ('1', '5-7', '17+')")
    lo = int(m["lo"])
    if m["open"]:
        return lo, None
    return lo, int(m["hi"]) if m["hi"] else lo


class CellNote(Sourced):
    """A note or a source of its own for one band of a weapon's row."""

    band: str
    note: str | None = None


class Weapon(Sourced):
    code: str
    kind: WeaponKind
    name: str
    max: int = Field(ge=1)
    prepared: int | None = Field(default=None, ge=0)  # small arms only; 0 = no prepared fire
    rapid_fire: bool = False
    drm: tuple[int | None, ...]
    cells: tuple[CellNote, ...] = ()

    @model_validator(mode="after")
    def _kind_fields(self) -> Self:
        if self.kind == "small_arms" and self.prepared is None:
            raise RecordProblem("", "prepared", "a small-arms weapon needs its prepared range")
        if self.kind == "artillery" and self.prepared is not None:
            raise RecordProblem("", "prepared", "artillery has no prepared range (10.5)")
        if self.kind == "small_arms" and self.rapid_fire:
            raise RecordProblem("", "rapid_fire", "only artillery may use rapid fire (10.68)")
        if self.prepared is not None and self.prepared > self.max:
            raise RecordProblem("", "prepared", "the prepared range exceeds the maximum")
        return self


class UnitRule(Sourced):
    id: str
    text: str
    max: int = Field(ge=1)
    drm_at: dict[int, int]


class ReducedLight(Sourced):
    halve_max_range_in: tuple[Light, ...]


class RangeBands(Sourced):
    small_arms: tuple[str, ...]
    artillery: tuple[str, ...]


class RangeTable(ChartFile):
    bands: RangeBands
    weapons: tuple[Weapon, ...]
    unit_rules: tuple[UnitRule, ...] = ()
    reduced_light: ReducedLight

    @model_validator(mode="after")
    def _complete(self) -> Self:
        for kind in ("small_arms", "artillery"):
            labels = getattr(self.bands, kind)
            expect: int | None = 1
            for label in labels:
                try:
                    lo, hi = parse_band(label)
                except ValueError as exc:
                    raise RecordProblem("bands", kind, str(exc)) from exc
                if expect is None or lo != expect:
                    raise RecordProblem("bands", kind, "bands must run on from 1 without gaps")
                expect = None if hi is None else hi + 1
        unique_ids([w.code for w in self.weapons], "weapons")
        for w in self.weapons:
            where = f"weapons[code={w.code}]"
            labels = self._labels(w.kind)
            if len(w.drm) != len(labels):
                raise RecordProblem(where, "drm", f"{len(w.drm)} values for {len(labels)} bands")
            for label, value in zip(labels, w.drm, strict=True):
                lo, hi = parse_band(label)
                beyond = lo > w.max
                if beyond and value is not None:
                    raise RecordProblem(where, "drm", f"a DRM at {label} beyond max {w.max}")
                if not beyond and value is None:
                    raise RecordProblem(where, "drm", f"no DRM at {label} within max {w.max}")
            for note in w.cells:
                if note.band not in labels:
                    raise RecordProblem(where, "cells", f"no band {note.band!r}")
        unique_ids([u.id for u in self.unit_rules], "unit_rules")
        return self

    def _labels(self, kind: WeaponKind) -> tuple[str, ...]:
        return self.bands.small_arms if kind == "small_arms" else self.bands.artillery

    # --- lookups ------------------------------------------------------------------------
    def weapon(self, code: str) -> Weapon:
        for w in self.weapons:
            if w.code == code:
                return w
        raise ChartLookupError(f"range: no weapon code {code!r}")

    def _rule(self, unit_rule: str | None) -> UnitRule | None:
        if unit_rule is None:
            return None
        for rule in self.unit_rules:
            if rule.id == unit_rule:
                return rule
        raise ChartLookupError(f"range: no unit rule {unit_rule!r}")

    def band_label(self, kind: WeaponKind, hexes: int) -> str:
        for label in self._labels(kind):
            lo, hi = parse_band(label)
            if hexes >= lo and (hi is None or hexes <= hi):
                return label
        raise ChartLookupError(f"range: {hexes} hexes is beyond every {kind} band")

    def max_range(self, code: str, light: Light = "day", unit_rule: str | None = None) -> int:
        """The weapon's maximum range, halved rounding up at dawn, dusk and night (§16.1)."""
        rule = self._rule(unit_rule)
        full = rule.max if rule is not None else self.weapon(code).max
        return -(-full // 2) if light in self.reduced_light.halve_max_range_in else full

    def drm(
        self, code: str, hexes: int, light: Light = "day", unit_rule: str | None = None
    ) -> tuple[int, Provenance]:
        """The range DRM at ``hexes``; out of range is refused with the weapon's maximum."""
        w = self.weapon(code)
        if hexes < 1:
            raise ChartLookupError(f"range: {hexes} hexes; fire needs a range of at least 1")
        top = self.max_range(code, light, unit_rule)
        if hexes > top:
            raise ChartLookupError(f"range: {code} reaches {top} hexes ({light}), not {hexes}")
        rule = self._rule(unit_rule)
        if rule is not None and hexes in rule.drm_at:
            return rule.drm_at[hexes], rule.provenance(self.root())
        if rule is not None and hexes > w.max:
            raise ChartLookupError(f"range: {rule.id} gives no DRM at {hexes} hexes")
        label = self.band_label(w.kind, hexes)
        value = w.drm[self._labels(w.kind).index(label)]
        if value is None:  # unreachable: max and the DRMs are checked on loading
            raise ChartLookupError(f"range: {code} cannot fire at {hexes} hexes")
        return value, self._cell_provenance(w, label)

    def _cell_provenance(self, w: Weapon, label: str) -> Provenance:
        prov = w.provenance(self.root())
        for note in w.cells:
            if note.band == label:
                prov = note.provenance(prov)
        return prov

    def prepared_range(self, code: str) -> int:
        w = self.weapon(code)
        return w.prepared or 0

    def is_canister(self, code: str, hexes: int) -> bool:
        """Artillery at 1-3 hexes fires canister, resolved on the small-arms columns."""
        return self.weapon(code).kind == "artillery" and 1 <= hexes <= CANISTER_MAX

    def provenances(self) -> Iterator[tuple[str, Provenance]]:
        yield from super().provenances()
        for w in self.weapons:
            for label, value in zip(self._labels(w.kind), w.drm, strict=True):
                if value is not None:
                    yield f"weapon {w.code} at {label}", self._cell_provenance(w, label)
        for rule in self.unit_rules:
            yield f"unit rule {rule.id}", rule.provenance(self.root())
        yield "reduced_light", self.reduced_light.provenance(self.root())
