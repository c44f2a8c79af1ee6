"""Command charts: Brigade Orders Change, Loose Cannon, Brigade Coordination and the
Orders summary (002 §5.34, §6.11-6.25; the tables printed in 004)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
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
    d10,
    unique_ids,
)

Order = Literal["march", "advance", "attack"]
Profile = Literal["A", "N", "C", "U"]


class Note(Sourced):
    text: str | None = None


class RollModifier(Sourced):
    id: str
    drm: int | None  # None: a rating read from the leader's counter
    text: str


def _sum_fixed(modifiers: tuple[RollModifier, ...], ids: Iterable[str], what: str) -> int:
    fixed = {m.id: m.drm for m in modifiers if m.drm is not None}
    total = 0
    for ident in ids:
        if ident not in fixed:
            raise ChartLookupError(f"{what}: no fixed modifier {ident!r}")
        total += fixed[ident]
    return total


# --- Brigade Orders Change (002 §6.23) -----------------------------------------------------
class OrdersChangeResult(Band):
    id: str
    change: bool
    stay: bool
    text: str
    note: str | None = None


class OrdersChangeTable(ChartFile):
    results: tuple[OrdersChangeResult, ...]
    change_to: tuple[Order, ...]
    change_to_source: Note
    stay_counts_for_fatigue: Note
    modifiers: tuple[RollModifier, ...]

    @model_validator(mode="after")
    def _complete(self) -> Self:
        check_bands(self.results, "results")
        unique_ids([r.id for r in self.results], "results")
        unique_ids([m.id for m in self.modifiers], "modifiers")
        return self

    def result(
        self, roll: int, *, orders_rating: int, modifiers: Iterable[str] = ()
    ) -> OrdersChangeResult:
        """d10 ``roll`` + the brigadier's orders rating + the stacking DRMs (002 §6.21-6.22)."""
        d10(roll, "orders change")
        return band_for(
            self.results, roll + orders_rating + _sum_fixed(self.modifiers, modifiers,
                                                             "orders change"), "orders change"
        )

    def provenances(self) -> Iterator[tuple[str, Provenance]]:
        yield from super().provenances()
        root = self.root()
        for r in self.results:
            yield f"result {r.id}", r.provenance(root)
        for m in self.modifiers:
            yield f"modifier {m.id}", m.provenance(root)
        yield "change_to", self.change_to_source.provenance(root)
        yield "stay_counts_for_fatigue", self.stay_counts_for_fatigue.provenance(root)


# --- Loose Cannon (002 §6.24-6.25) ---------------------------------------------------------
class Reach(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    infantry: int = Field(ge=1)
    mounted_cavalry: int = Field(ge=1)


class LooseCannonProfile(Sourced):
    profile: Profile
    name: str
    text: str
    reach_mp: Reach | None = None
    retreat_hexes: int | None = None
    artillery_retreats: bool | None = None


class UnreliableBand(Band):
    acts_as: Literal["A", "N", "C"]


class LooseCannonTable(ChartFile):
    profiles: tuple[LooseCannonProfile, ...]
    unreliable: tuple[UnreliableBand, ...]
    march_aggressive_reads_as: Literal["retain"]
    march_source: Note

    @model_validator(mode="after")
    def _complete(self) -> Self:
        unique_ids([p.profile for p in self.profiles], "profiles")
        missing = {"A", "N", "C", "U"} - {p.profile for p in self.profiles}
        if missing:
            raise RecordProblem("(chart)", "profiles", f"no profile {', '.join(sorted(missing))}")
        check_bands(self.unreliable, "unreliable", 0, 9)
        return self

    def resolve(self, profile: Profile, roll: int | None = None) -> LooseCannonProfile:
        """The profile that acts: an unreliable (U) brigadier needs his d10 ``roll``."""
        if profile == "U":
            if roll is None:
                raise ChartLookupError("loose cannon: an unreliable brigadier needs a d10 roll")
            profile = band_for(self.unreliable, d10(roll, "loose cannon"), "loose cannon").acts_as
        elif roll is not None:
            raise ChartLookupError(f"loose cannon: profile {profile} rolls no die")
        for p in self.profiles:
            if p.profile == profile:
                return p
        raise ChartLookupError(f"loose cannon: no profile {profile!r}")

    def provenances(self) -> Iterator[tuple[str, Provenance]]:
        yield from super().provenances()
        root = self.root()
        for p in self.profiles:
            yield f"profile {p.profile}", p.provenance(root)
        for i, band in enumerate(self.unreliable):
            yield f"unreliable {i}", band.provenance(root)
        yield "march", self.march_source.provenance(root)


# --- Brigade Coordination (002 §5.34) ------------------------------------------------------
class CoordinationResult(Band):
    id: str
    brigades: int | None  # None = every eligible brigade
    text: str


class CoordinationTable(ChartFile):
    column: str
    results: tuple[CoordinationResult, ...]
    modifiers: tuple[RollModifier, ...]

    @model_validator(mode="after")
    def _complete(self) -> Self:
        check_bands(self.results, "results")
        unique_ids([r.id for r in self.results], "results")
        return self

    def result(self, roll: int, *, coordination_rating: int) -> CoordinationResult:
        if not 0 <= coordination_rating <= 3:
            raise ChartLookupError(
                f"coordination: a division leader's rating is 0-3, not {coordination_rating}"
            )
        d10(roll, "coordination")
        return band_for(self.results, roll + coordination_rating, "coordination")

    def provenances(self) -> Iterator[tuple[str, Provenance]]:
        yield from super().provenances()
        root = self.root()
        for r in self.results:
            yield f"result {r.id}", r.provenance(root)
        for m in self.modifiers:
            yield f"modifier {m.id}", m.provenance(root)


# --- Orders summary (002 §6.11) ------------------------------------------------------------
class KeepAway(Sourced):
    hexes: int = Field(ge=1)
    in_los: bool


class Stacking(Sourced):
    infantry_sp: int = Field(ge=1)
    mounted_cavalry_sp: int = Field(ge=1)


class OrderSummary(Sourced):
    order: Order
    road_cost: Literal["1/2", "1", "none"]
    activated_by: Literal["march-am", "division-am"]
    may_move_adjacent: Literal["never", "artillery-only", "yes"]
    keeps_away: KeepAway | None
    stacking: Stacking
    fire: bool
    reaction_fire: bool
    move_and_fire: bool
    shock: bool
    prepared_fire: bool
    charge: bool
    refuse_flank: bool
    construction: bool
    withdraw_before_shock: bool
    rally: bool
    extended_column: Literal["required", "on-roads", "never"]  # 002 §8.5
    pre_shock_drm: int
    notes: tuple[str, ...] = ()


class ArtilleryOrders(Sourced):
    orders: tuple[Order, ...]
    text: str


class OrdersSummary(ChartFile):
    orders: tuple[OrderSummary, ...]
    artillery: ArtilleryOrders

    @model_validator(mode="after")
    def _complete(self) -> Self:
        unique_ids([o.order for o in self.orders], "orders")
        missing = {"march", "advance", "attack"} - {o.order for o in self.orders}
        if missing:
            raise RecordProblem("(chart)", "orders", f"no order {', '.join(sorted(missing))}")
        return self

    def get(self, order: str) -> OrderSummary:
        for o in self.orders:
            if o.order == order:
                return o
        raise ChartLookupError(f"orders: no order {order!r} (march, advance or attack)")

    def provenances(self) -> Iterator[tuple[str, Provenance]]:
        yield from super().provenances()
        root = self.root()
        for o in self.orders:
            prov = o.provenance(root)
            yield f"order {o.order}", prov
            yield f"order {o.order} stacking", o.stacking.provenance(prov)
            if o.keeps_away is not None:
                yield f"order {o.order} keeps_away", o.keeps_away.provenance(prov)
        yield "artillery", self.artillery.provenance(root)
