"""The off-map roads of map C's south (004 §9.88, ``tdg.9.88``) as data and pure rules.

``data/off_map_roads.yaml`` links pairs of entry areas, each link with the turns a unit
spends off the map on it (substitutes, each with its basis: the seed gives neither the
roads' map nor their times). A journey may chain links; it takes the sum of their turns,
the quickest chain chosen (:func:`journey_turns`).
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from .charts.datafile import SOURCE_RE, DataError, read_yaml

RULE = "tdg.9.88"
FILE = "off_map_roads.yaml"
AREAS = range(1, 15)  # 004 §9.76


@dataclass(frozen=True, slots=True)
class OffMapLink:
    """Two entry areas joined off the map, and the turns the road takes (a substitute)."""

    a: int
    b: int
    turns: int
    basis: str


def _path() -> Path:
    return Path(str(resources.files("gettysburg.gbacw") / "data" / FILE))


def parse_links(raw: Any, where: str | Path = FILE) -> tuple[OffMapLink, ...]:
    """The links of a file's content; refuses a bad one naming the record and the field.
    (tdg.9.88)"""
    if not isinstance(raw, dict) or set(raw) - {"source", "links"}:
        raise DataError(where, "(file)", "(top)", "a mapping of 'source' and 'links'")
    if not isinstance(raw.get("source"), str) or not SOURCE_RE.match(raw["source"]):
        raise DataError(where, "(file)", "source", "cite the seed, e.g. '004 §9.88'")
    rows = raw.get("links")
    if not isinstance(rows, list) or not rows:
        raise DataError(where, "(file)", "links", "a list of links")
    out: list[OffMapLink] = []
    seen: set[frozenset[int]] = set()
    for i, row in enumerate(rows):
        rec = f"links[{i}]"
        if not isinstance(row, dict):
            raise DataError(where, rec, "(record)", "a mapping")
        extra = set(row) - {"a", "b", "turns", "substitute", "basis", "source"}
        if extra:
            raise DataError(where, rec, sorted(extra)[0], "unknown field")
        for f in ("a", "b"):
            if not isinstance(row.get(f), int) or row[f] not in AREAS:
                raise DataError(where, rec, f, "an entry area 1..14 (004 §9.76)")
        if row["a"] == row["b"]:
            raise DataError(where, rec, "b", "a link joins two different areas")
        if not isinstance(row.get("turns"), int) or row["turns"] < 1:
            raise DataError(where, rec, "turns", "a whole number of turns, at least 1")
        if row.get("substitute") is not True or not str(row.get("basis") or "").strip():
            raise DataError(where, rec, "basis", "the seed gives no times: flag the link "
                            "'substitute: true' and give its basis")
        pair = frozenset((row["a"], row["b"]))
        if pair in seen:
            raise DataError(where, rec, "b", "these two areas are already linked")
        seen.add(pair)
        out.append(OffMapLink(row["a"], row["b"], row["turns"], str(row["basis"])))
    return tuple(out)


@cache
def load_links() -> tuple[OffMapLink, ...]:
    """The off-map road links of ``data/off_map_roads.yaml`` (tdg.9.88)."""
    path = _path()
    return parse_links(read_yaml(path), path)


def journey_turns(links: Iterable[OffMapLink], frm: int, to: int) -> int | None:
    """The fewest turns from area ``frm`` to area ``to`` by the linked roads (None: no way).
    (tdg.9.88)"""
    graph: dict[int, list[tuple[int, int]]] = {}
    for ln in links:
        graph.setdefault(ln.a, []).append((ln.b, ln.turns))
        graph.setdefault(ln.b, []).append((ln.a, ln.turns))
    best = {frm: 0}
    queue = [(0, frm)]
    while queue:
        d, at = heapq.heappop(queue)
        if at == to:
            return d if frm != to else None
        if d > best.get(at, d):
            continue
        for nxt, t in graph.get(at, ()):
            if d + t < best.get(nxt, d + t + 1):
                best[nxt] = d + t
                heapq.heappush(queue, (d + t, nxt))
    return None


def destinations(links: Iterable[OffMapLink], frm: int) -> dict[int, int]:
    """Every area a unit leaving by ``frm`` may come on at, with the journey's turns (tdg.9.88)."""
    links = tuple(links)
    areas = {x for ln in links for x in (ln.a, ln.b)}
    out = {a: journey_turns(links, frm, a) for a in sorted(areas) if a != frm}
    return {a: t for a, t in out.items() if t is not None}
