"""The turn record track (hourly turns; dawn, day, dusk and night; E-14) and the
efficiency-marker pools (E-30): substitutes, since 004 prints neither."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import Literal, Self

from pydantic import Field, model_validator

from .datafile import ChartFile, ChartLookupError, Provenance, RecordProblem, Sourced, unique_ids

Light = Literal["dawn", "day", "dusk", "night"]
Side = Literal["usa", "csa"]


class LightHours(Sourced):
    light: Light
    hours: tuple[int, ...]


class Day(Sourced):
    date: dt.date
    first_hour: int = Field(ge=0, le=23)
    last_hour: int = Field(ge=0, le=23)
    note: str | None = None


class CampaignEnd(Sourced):
    date: dt.date
    hour: int = Field(ge=0, le=23)
    result_if_no_winner: Literal["draw"]


class ScenarioSpan(Sourced):
    id: str
    date: dt.date
    first_hour: int = Field(ge=0, le=23)
    last_hour: int = Field(ge=0, le=23)
    turns: int = Field(ge=1)


@dataclass(frozen=True)
class Turn:
    index: int  # 0 = the first turn of the whole battle
    date: dt.date
    hour: int
    light: Light

    @property
    def label(self) -> str:
        return f"{self.date:%d %b} {self.hour:02d}00"


class TurnTrack(ChartFile):
    hours_per_turn: Literal[1]
    light: tuple[LightHours, ...]
    days: tuple[Day, ...]
    campaign_end: CampaignEnd
    scenarios: tuple[ScenarioSpan, ...] = ()

    @model_validator(mode="after")
    def _complete(self) -> Self:
        hours = [h for lh in self.light for h in lh.hours]
        if sorted(hours) != list(range(24)):
            raise RecordProblem("(chart)", "light", "every hour 0-23 needs exactly one light")
        for i, day in enumerate(self.days):
            where = f"days[date={day.date}]"
            if day.first_hour > day.last_hour:
                raise RecordProblem(where, "last_hour", "the day ends before it begins")
            if i and (day.date - self.days[i - 1].date).days != 1:
                raise RecordProblem(where, "date", "days must follow one another")
            if i and (self.days[i - 1].last_hour != 23 or day.first_hour != 0):
                raise RecordProblem(where, "first_hour", "turns must run on through midnight")
        end = self.campaign_end
        if (end.date, end.hour) != (self.days[-1].date, self.days[-1].last_hour):
            raise RecordProblem("campaign_end", "hour", "the campaign must end on the last turn")
        unique_ids([s.id for s in self.scenarios], "scenarios")
        for s in self.scenarios:
            where = f"scenarios[id={s.id}]"
            if s.last_hour - s.first_hour + 1 != s.turns:
                raise RecordProblem(where, "turns", "turns do not match the span")
            for hour in (s.first_hour, s.last_hour):
                if not self.has_turn(s.date, hour):
                    raise RecordProblem(where, "first_hour", f"{s.date} {hour:02d}00 is off "
                                        "the track")
        return self

    def has_turn(self, date: dt.date, hour: int) -> bool:
        return any(d.date == date and d.first_hour <= hour <= d.last_hour for d in self.days)

    def light_of(self, hour: int) -> Light:
        for lh in self.light:
            if hour in lh.hours:
                return lh.light
        raise ChartLookupError(f"turn track: hour {hour} is not 0-23")

    def turns(self) -> tuple[Turn, ...]:
        return self._turns

    # Built once: the engine asks for the track on every fire plan (the chart is frozen).
    @cached_property
    def _turns(self) -> tuple[Turn, ...]:
        out: list[Turn] = []
        for day in self.days:
            for hour in range(day.first_hour, day.last_hour + 1):
                out.append(Turn(len(out), day.date, hour, self.light_of(hour)))
        return tuple(out)

    def turn(self, date: dt.date, hour: int) -> Turn:
        for t in self.turns():
            if t.date == date and t.hour == hour:
                return t
        raise ChartLookupError(f"turn track: no turn at {date} {hour:02d}00")

    def provenances(self) -> Iterator[tuple[str, Provenance]]:
        yield from super().provenances()
        root = self.root()
        for lh in self.light:
            yield f"light {lh.light}", lh.provenance(root)
        for day in self.days:
            yield f"day {day.date}", day.provenance(root)
        yield "campaign_end", self.campaign_end.provenance(root)
        for s in self.scenarios:
            yield f"scenario {s.id}", s.provenance(root)


# --- efficiency-marker pools (002 §5.21-5.22) ----------------------------------------------
class Command(Sourced):
    id: str
    note: str | None = None


class SidePool(Sourced):
    side: Side
    markers: dict[int, int]
    commands: tuple[Command, ...]


class Cap(Sourced):
    value: int = Field(ge=1)


class EfficiencyPools(ChartFile):
    values: tuple[int, ...]
    sides: tuple[SidePool, ...]
    artillery_am_cap: Cap

    @model_validator(mode="after")
    def _complete(self) -> Self:
        unique_ids([s.side for s in self.sides], "sides")
        if {s.side for s in self.sides} != {"usa", "csa"}:
            raise RecordProblem("(chart)", "sides", "both sides need a pool")
        for s in self.sides:
            where = f"sides[side={s.side}]"
            bad = set(s.markers) - set(self.values)
            if bad:
                raise RecordProblem(where, "markers", f"marker values {sorted(bad)} are not "
                                    f"among {list(self.values)}")
            if any(n < 0 for n in s.markers.values()):
                raise RecordProblem(where, "markers", "a count cannot be negative")
            unique_ids([c.id for c in s.commands], f"{where}.commands")
            # one marker per command, drawn without replacement within the turn (002 §5.21)
            if sum(s.markers.values()) < len(s.commands):
                raise RecordProblem(where, "markers", f"{sum(s.markers.values())} markers for "
                                    f"{len(s.commands)} commands that may all draw")
        return self

    def pool(self, side: str) -> tuple[int, ...]:
        """The side's markers, one entry per marker, lowest first."""
        for s in self.sides:
            if s.side == side:
                return tuple(v for v in sorted(s.markers) for _ in range(s.markers[v]))
        raise ChartLookupError(f"efficiency: no side {side!r}")

    def provenances(self) -> Iterator[tuple[str, Provenance]]:
        yield from super().provenances()
        root = self.root()
        for s in self.sides:
            prov = s.provenance(root)
            yield f"pool {s.side}", prov
            for c in s.commands:
                yield f"pool {s.side} command {c.id}", c.provenance(prov)
        yield "artillery_am_cap", self.artillery_am_cap.provenance(root)
