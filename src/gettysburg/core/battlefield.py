"""The one model of the 1863 ground, loaded from GeoJSON and a height field.

Every rule system derives its own map from this (a hex grid or a graph of positions,
:mod:`gettysburg.core.topology`); nothing else describes the geography. Files live
in ``gettysburg/data/battlefield/`` (see its README for the schema and sources).
"""

from __future__ import annotations

import gzip
import json
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from importlib import resources
from pathlib import Path
from typing import Any, Literal

import numpy as np
import shapely
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from shapely import geometry as sg
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

from gettysburg.core.geo import GETTYSBURG, LocalProjection

FEATURE_FILES = (
    "roads.geojson",
    "streams.geojson",
    "crossings.geojson",
    "landcover.geojson",
    "places.geojson",
    "relief.geojson",
)
# Finer features only some maps read (walls and fences, farm buildings): loaded when present,
# so a model without them (a test's small ground) still loads.
OPTIONAL_FILES = ("walls.geojson", "buildings.geojson")

Kind = Literal[
    "road",
    "railroad",
    "railroad_bed",
    "stream",
    "bridge",
    "ford",
    "town",
    "woods",
    "orchard",
    "marsh",
    "rocks",
    "field",
    "landmark",
    "farm",
    "place",
    "spot_height",
    "ridge_line",
    "valley_line",
    "stone_wall",
    "fence",
    "building",
]


class BattlefieldError(ValueError):
    """A battlefield data file that is missing, malformed or inconsistent."""


class FeatureProps(BaseModel):
    """Properties every feature carries (extra, kind-specific keys are kept)."""

    model_config = ConfigDict(extra="allow")

    id: str = Field(min_length=1)
    kind: Kind
    name: str | None = None
    source: str = Field(min_length=1)
    aliases: list[str] = Field(default_factory=list)
    note: str | None = None

    def extra(self, key: str, default: Any = None) -> Any:
        return (self.model_extra or {}).get(key, default)


@dataclass(frozen=True)
class Feature:
    props: FeatureProps
    lonlat: BaseGeometry  # as stored
    geom: BaseGeometry  # projected, metres

    @property
    def id(self) -> str:
        return self.props.id

    @property
    def kind(self) -> str:
        return self.props.kind

    @property
    def name(self) -> str | None:
        return self.props.name

    def names(self) -> list[str]:
        out = [self.props.name] if self.props.name else []
        return out + list(self.props.aliases)


@dataclass(frozen=True)
class HeightField:
    """Regular lon/lat grid of heights in feet, bilinearly interpolated."""

    west: float
    south: float
    dlon: float
    dlat: float
    heights: np.ndarray  # shape (nrows, ncols), rows northward
    source: str
    note: str = ""

    @property
    def east(self) -> float:
        return self.west + self.dlon * float(self.heights.shape[1] - 1)

    @property
    def north(self) -> float:
        return self.south + self.dlat * float(self.heights.shape[0] - 1)

    def at_lonlat(self, lon: float, lat: float) -> float:
        """Height in feet; points outside the grid take the nearest edge value."""
        return bilinear(self.heights, (lon - self.west) / self.dlon, (lat - self.south) / self.dlat)


def bilinear(grid: np.ndarray, fx: float, fy: float) -> float:
    """Bilinear value of ``grid`` at fractional column ``fx``, row ``fy``; points
    outside the grid take the nearest edge value."""
    nrows, ncols = grid.shape
    fx = min(max(fx, 0.0), ncols - 1.000001)
    fy = min(max(fy, 0.0), nrows - 1.000001)
    i, j = int(fy), int(fx)
    ty, tx = fy - i, fx - j
    return float(
        grid[i, j] * (1 - tx) * (1 - ty)
        + grid[i, j + 1] * tx * (1 - ty)
        + grid[i + 1, j] * (1 - tx) * ty
        + grid[i + 1, j + 1] * tx * ty
    )


@dataclass
class Battlefield:
    """All features by id and kind, in lon/lat and in local metres."""

    features: dict[str, Feature]
    heights: HeightField
    projection: LocalProjection = field(default=GETTYSBURG)

    def of_kind(self, *kinds: str) -> Iterator[Feature]:
        for f in self.features.values():
            if f.kind in kinds:
                yield f

    def get(self, fid: str) -> Feature:
        try:
            return self.features[fid]
        except KeyError:
            raise BattlefieldError(f"no battlefield feature with id {fid!r}") from None

    def find_named(self, name: str, *kinds: str) -> Feature:
        """The feature whose name or alias matches ``name`` (case-insensitive)."""
        key = name.strip().lower()
        for f in self.of_kind(*kinds) if kinds else self.features.values():
            if any(n.lower() == key for n in f.names()):
                return f
        raise BattlefieldError(f"no battlefield feature named {name!r}")

    def height_xy(self, x: float, y: float) -> float:
        lon, lat = self.projection.to_lonlat(x, y)
        return self.heights.at_lonlat(lon, lat)

    @cached_property
    def area_union(self) -> dict[str, BaseGeometry]:
        """Union of polygons per landcover kind (woods, orchard, town, marsh, rocks)."""
        out: dict[str, BaseGeometry] = {}
        for kind in ("woods", "orchard", "town", "marsh", "rocks"):
            geoms = [f.geom for f in self.of_kind(kind)]
            out[kind] = unary_union(geoms) if geoms else sg.GeometryCollection()
        return out


def default_data_dir() -> Path:
    return Path(str(resources.files("gettysburg") / "data" / "battlefield"))


def _project(geom: BaseGeometry, proj: LocalProjection) -> BaseGeometry:
    offset = np.array([proj.lon0, proj.lat0])
    scale = np.array([proj.kx, proj.ky])
    return shapely.transform(geom, lambda xy: (xy - offset) * scale)


def load_features(path: Path, proj: LocalProjection = GETTYSBURG) -> list[Feature]:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise BattlefieldError(f"{path.name}: cannot read GeoJSON: {exc}") from exc
    if doc.get("type") != "FeatureCollection" or not isinstance(doc.get("features"), list):
        raise BattlefieldError(f"{path.name}: not a GeoJSON FeatureCollection")
    out: list[Feature] = []
    for i, raw in enumerate(doc["features"]):
        where = f"{path.name}: feature #{i}"
        props_raw = raw.get("properties") or {}
        if "id" in props_raw:
            where = f"{path.name}: feature {props_raw['id']!r}"
        try:
            props = FeatureProps.model_validate(props_raw)
        except ValidationError as exc:
            first = exc.errors()[0]
            loc = ".".join(str(p) for p in first["loc"]) or "properties"
            raise BattlefieldError(f"{where}: field {loc!r}: {first['msg']}") from exc
        try:
            geom = sg.shape(raw["geometry"])
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise BattlefieldError(f"{where}: field 'geometry': {exc}") from exc
        if geom.is_empty:
            raise BattlefieldError(f"{where}: field 'geometry': empty")
        out.append(Feature(props=props, lonlat=geom, geom=_project(geom, proj)))
    return out


def load_heights(path: Path) -> HeightField:
    try:
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            doc = json.load(fh)
    except (OSError, json.JSONDecodeError, EOFError) as exc:
        raise BattlefieldError(f"{path.name}: cannot read height field: {exc}") from exc
    for key in ("west", "south", "dlon", "dlat", "rows"):
        if key not in doc:
            raise BattlefieldError(f"{path.name}: missing field {key!r}")
    arr = np.asarray(doc["rows"], dtype=np.float64)
    if arr.ndim != 2 or arr.shape[0] < 2 or arr.shape[1] < 2:
        raise BattlefieldError(f"{path.name}: field 'rows' must be a 2-D grid")
    if not np.isfinite(arr).all():
        raise BattlefieldError(f"{path.name}: field 'rows' holds non-numbers")
    return HeightField(
        west=float(doc["west"]),
        south=float(doc["south"]),
        dlon=float(doc["dlon"]),
        dlat=float(doc["dlat"]),
        heights=arr,
        source=str(doc.get("source", "")),
        note=str(doc.get("estimated_note", "")),
    )


def load_battlefield(data_dir: Path | None = None) -> Battlefield:
    d = data_dir or default_data_dir()
    feats: dict[str, Feature] = {}
    for name in FEATURE_FILES + OPTIONAL_FILES:
        p = d / name
        if not p.exists():
            if name in OPTIONAL_FILES:
                continue
            raise BattlefieldError(f"{name}: missing from {d}")
        for f in load_features(p):
            if f.id in feats:
                raise BattlefieldError(f"{name}: feature {f.id!r}: field 'id': duplicate")
            feats[f.id] = f
    return Battlefield(features=feats, heights=load_heights(d / "heights.json.gz"))


def metres_between(a: tuple[float, float], b: tuple[float, float]) -> float:
    return math.hypot(a[0] - b[0], a[1] - b[1])
