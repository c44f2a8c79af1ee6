"""The Random Events table of Three Days of Gettysburg (004 §18.0, optional)."""

from __future__ import annotations

import datetime as dt
import string
from collections.abc import Iterator
from typing import Literal, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from .datafile import (
    Band,
    ChartFile,
    Provenance,
    RecordProblem,
    Sourced,
    band_for,
    check_bands,
    d10,
    unique_ids,
)

Side = Literal["usa", "csa"]
Light = Literal["dawn", "day", "dusk", "night"]


class Moment(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    date: dt.date
    hour: int = Field(ge=0, le=23)


class WhoRolls(Band):
    side: Side | None


class GridRow(Sourced):
    roll: int
    letters: tuple[str, ...]


class Event(Sourced):
    letter: str
    repeatable: bool
    sides: tuple[Side, ...] = ("usa", "csa")
    text: str


class RandomEventsTable(ChartFile):
    available_from: Moment
    excluded_light: tuple[Light, ...]
    ignored_if_last_drawn: bool
    who_rolls: tuple[WhoRolls, ...]
    columns: tuple[Band, ...]
    grid: tuple[GridRow, ...]
    events: tuple[Event, ...]

    @model_validator(mode="after")
    def _complete(self) -> Self:
        check_bands(self.who_rolls, "who_rolls", 0, 9)
        check_bands(self.columns, "columns", 0, 9)
        unique_ids([e.letter for e in self.events], "events")
        letters = {e.letter for e in self.events}
        for i, e in enumerate(self.events):
            if len(e.letter) != 1 or e.letter not in string.ascii_uppercase:
                raise RecordProblem(f"events[letter={e.letter}]", "letter", "one capital letter")
            if not e.sides:
                raise RecordProblem(f"events[{i}]", "sides", "an event needs a side")
        if [r.roll for r in self.grid] != list(range(10)):
            raise RecordProblem("(chart)", "grid", "the grid needs one row per roll 0-9, in order")
        for row in self.grid:
            if len(row.letters) != len(self.columns):
                raise RecordProblem(f"grid[roll={row.roll}]", "letters",
                                    f"{len(row.letters)} letters for {len(self.columns)} columns")
            for letter in row.letters:
                if letter not in letters:
                    raise RecordProblem(f"grid[roll={row.roll}]", "letters",
                                        f"letter {letter!r} has no event")
        used = {letter for row in self.grid for letter in row.letters}
        unused = letters - used
        if unused:
            raise RecordProblem("(chart)", "events", f"never rolled: {', '.join(sorted(unused))}")
        return self

    def who_rolls_for(self, roll: int) -> Side | None:
        """The d10 rolled when the marker is drawn: the side that rolls, or None (no event)."""
        return band_for(self.who_rolls, d10(roll, "random event"), "random event").side

    def event(self, first: int, second: int) -> Event:
        """The first d10 picks the column, the second the row."""
        column = self.columns.index(band_for(self.columns, d10(first, "random event"),
                                             "random event"))
        letter = self.grid[d10(second, "random event")].letters[column]
        return next(e for e in self.events if e.letter == letter)

    def in_pool(self, date: dt.date, hour: int, light: Light) -> bool:
        """Whether the marker goes into the AM pool on this turn."""
        start = self.available_from
        return (date, hour) >= (start.date, start.hour) and light not in self.excluded_light

    def provenances(self) -> Iterator[tuple[str, Provenance]]:
        yield from super().provenances()
        root = self.root()
        for i, band in enumerate(self.who_rolls):
            yield f"who rolls {i}", band.provenance(root)
        for row in self.grid:
            prov = row.provenance(root)
            for i in range(len(row.letters)):
                yield f"grid roll {row.roll} column {i}", prov
        for e in self.events:
            yield f"event {e.letter}", e.provenance(root)
