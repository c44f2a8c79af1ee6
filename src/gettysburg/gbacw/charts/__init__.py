"""The GBACW charts as validated data: one YAML file per chart in ``gbacw/data/charts``.

Every value carries its source (``002 §x.y``, ``004 chart``, or ``substitute`` with its
basis); a player may edit the files, and a bad one is refused with a :class:`DataError`
naming the file, the record and the field. :func:`all_charts` returns every chart; the
lookups the engine calls are methods of the chart models (``charts.fire.result(...)``,
``charts.shock.resolve(...)``) and raise :class:`ChartLookupError` for a cell out of reach.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, fields
from functools import lru_cache
from pathlib import Path
from typing import TypeVar

from .command import CoordinationTable, LooseCannonTable, OrdersChangeTable, OrdersSummary
from .datafile import ChartFile, ChartLookupError, DataError, Provenance, parse_chart, read_yaml
from .events import RandomEventsTable
from .fire import FireTable
from .morale import RallyTable, SecondDisorderTable
from .ranges import RangeTable
from .shock import ShockTable
from .terrain import TerrainChart
from .turns import EfficiencyPools, TurnTrack

__all__ = [
    "CHARTS_DIR",
    "ChartLookupError",
    "Charts",
    "DataError",
    "Provenance",
    "all_charts",
    "load_chart",
    "load_charts",
]

CHARTS_DIR = Path(__file__).resolve().parent.parent / "data" / "charts"

C = TypeVar("C", bound=ChartFile)


@dataclass(frozen=True)
class Charts:
    """Every chart; each field's metadata names its file."""

    fire: FireTable
    range: RangeTable
    terrain: TerrainChart
    shock: ShockTable
    rally: RallyTable
    orders_change: OrdersChangeTable
    loose_cannon: LooseCannonTable
    coordination: CoordinationTable
    orders: OrdersSummary
    random_events: RandomEventsTable
    second_disorder: SecondDisorderTable
    turn_track: TurnTrack
    efficiency_pools: EfficiencyPools

    def items(self) -> Iterator[tuple[str, ChartFile]]:
        for f in fields(self):
            yield f.name, getattr(self, f.name)

    def provenances(self) -> Iterator[tuple[str, str, Provenance]]:
        """(chart, cell, source) for every cell of every chart."""
        for name, chart in self.items():
            for cell, prov in chart.provenances():
                yield name, cell, prov


#: chart field -> (file name, model); the chart id inside the file must match
CHART_FILES: dict[str, tuple[str, type[ChartFile]]] = {
    "fire": ("fire.yaml", FireTable),
    "range": ("range.yaml", RangeTable),
    "terrain": ("terrain.yaml", TerrainChart),
    "shock": ("shock.yaml", ShockTable),
    "rally": ("rally.yaml", RallyTable),
    "orders_change": ("orders_change.yaml", OrdersChangeTable),
    "loose_cannon": ("loose_cannon.yaml", LooseCannonTable),
    "coordination": ("coordination.yaml", CoordinationTable),
    "orders": ("orders.yaml", OrdersSummary),
    "random_events": ("random_events.yaml", RandomEventsTable),
    "second_disorder": ("second_disorder.yaml", SecondDisorderTable),
    "turn_track": ("turn_track.yaml", TurnTrack),
    "efficiency_pools": ("efficiency_pools.yaml", EfficiencyPools),
}


def load_chart(path: str | Path, model: type[C]) -> C:
    """Load one chart file as ``model``; the file's ``chart`` id must be the model's."""
    p = Path(path)
    chart = parse_chart(model, read_yaml(p), p)
    expected = next((n for f, (n, m) in CHART_FILES.items() if m is model), None)
    want = _chart_id(expected) if expected else chart.chart
    if chart.chart != want:
        raise DataError(p, "(chart)", "chart", f"this file holds {chart.chart!r}, not {want!r}")
    return chart


def _chart_id(file_name: str) -> str:
    return file_name.removesuffix(".yaml").replace("_", "-")


def load_charts(directory: str | Path | None = None) -> Charts:
    """Load every chart from ``directory`` (default: the shipped ``gbacw/data/charts``)."""
    base = Path(directory) if directory is not None else CHARTS_DIR
    loaded = {
        name: load_chart(base / file_name, model)
        for name, (file_name, model) in CHART_FILES.items()
    }
    return Charts(**loaded)  # type: ignore[arg-type]


@lru_cache(maxsize=1)
def all_charts() -> Charts:
    """Every shipped chart, loaded once."""
    return load_charts()
