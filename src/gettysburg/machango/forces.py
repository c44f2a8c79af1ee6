"""Mundo Machango's forces as data (``data/oob.yaml``): divisions, arrivals, generals and
the figures of each kind of unit, checked on load."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import yaml

from gettysburg.machango.paths import DATA

SIDES = ("usa", "csa")
KINDS = ("infantry", "cavalry", "artillery")


class ForcesError(ValueError):
    """A malformed forces file; the message names the entry and the field."""


@dataclass(frozen=True)
class Division:
    id: str
    side: str
    name: str
    cavalry: bool
    elite: bool
    state: str | None
    start: str | None  # the line it starts on (S1/S2), None for a reinforcement


@dataclass(frozen=True)
class Arrival:
    division: str
    side: str
    day: int
    hour: int
    entry: str


@dataclass(frozen=True)
class General:
    id: str
    side: str
    name: str
    tied: str | None  # the one division he rides with (G0), else free
    start: str | None
    rule: str


@dataclass(frozen=True)
class Forces:
    divisions: dict[str, Division]
    arrivals: tuple[Arrival, ...]
    generals: dict[str, General]
    figures: dict[str, int]
    capacity: int
    start_capacity: int
    cavalry_units: int
    cards: dict[str, int]

    def capacity_of(self, did: str) -> int:
        """Units a division holds: 3 cavalry (D2), 3 for a starting USA division (S1),
        else 4 (D1)."""
        d = self.divisions[did]
        if d.cavalry:
            return self.cavalry_units
        if d.side == "usa" and d.start is not None:
            return self.start_capacity
        return self.capacity


def _need(entry: dict[str, Any], key: str, where: str) -> Any:
    if key not in entry:
        raise ForcesError(f"{where}: field {key!r} is missing")
    return entry[key]


def forces_from_json(raw: dict[str, Any]) -> Forces:
    divisions: dict[str, Division] = {}
    for k, e in enumerate(raw.get("divisions") or []):
        where = f"division {e.get('id', k)!r}"
        did = str(_need(e, "id", where))
        side = _need(e, "side", where)
        if side not in SIDES:
            raise ForcesError(f"{where}: field 'side' must be one of {list(SIDES)}")
        if did in divisions:
            raise ForcesError(f"{where}: field 'id' is used twice")
        divisions[did] = Division(did, side, str(_need(e, "name", where)),
                                  bool(e.get("cavalry", False)), bool(e.get("elite", False)),
                                  e.get("state"), e.get("start"))
    arrivals = []
    for k, e in enumerate(raw.get("arrivals") or []):
        where = f"arrival {k}"
        did = _need(e, "division", where)
        if did not in divisions:
            raise ForcesError(f"{where}: field 'division': no division {did!r}")
        hour = int(_need(e, "hour", where))
        if not 7 <= hour <= 19:
            raise ForcesError(f"{where}: field 'hour' must be 7..19 (T1)")
        arrivals.append(Arrival(did, divisions[did].side, int(_need(e, "day", where)), hour,
                                str(_need(e, "entry", where))))
    generals: dict[str, General] = {}
    for k, e in enumerate(raw.get("generals") or []):
        where = f"general {e.get('id', k)!r}"
        gid = str(_need(e, "id", where))
        for key in ("tied", "start"):
            if e.get(key) is not None and e[key] not in divisions:
                raise ForcesError(f"{where}: field {key!r}: no division {e[key]!r}")
        generals[gid] = General(gid, str(_need(e, "side", where)), str(_need(e, "name", where)),
                                e.get("tied"), e.get("start"), str(e.get("rule", "G0")))
    figures = {str(k): int(v) for k, v in (raw.get("figures") or {}).items()}
    if sorted(figures) != sorted(KINDS):
        raise ForcesError(f"field 'figures' must give each of {list(KINDS)}")
    return Forces(divisions, tuple(arrivals), generals, figures, int(raw["capacity"]),
                  int(raw["start_capacity"]), int(raw["cavalry_units"]),
                  {str(k): int(v) for k, v in raw["cards"].items()})


@cache
def load_forces() -> Forces:
    raw = yaml.safe_load((DATA / "oob.yaml").read_text(encoding="utf-8"))
    return forces_from_json(raw)
