"""The strategic board as the rules read it: lines, links and what the derivation put on
them (``data/board.json``, written by :mod:`gettysburg.machango.mapgen`)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import Any

from gettysburg.core.topology import Link, Position, PositionGraph
from gettysburg.machango.paths import DATA


@dataclass(frozen=True)
class Board:
    graph: PositionGraph
    lines: dict[str, dict[str, Any]]  # id -> the board file's entry
    links: dict[frozenset[str], dict[str, Any]]
    stars: tuple[str, ...]
    star_option: dict[str, str]

    def link(self, a: str, b: str) -> dict[str, Any] | None:
        return self.links.get(frozenset((a, b)))

    def neighbours(self, pid: str) -> list[str]:
        return self.graph.neighbours(pid)

    def name(self, pid: str) -> str:
        return str(self.lines[pid]["name"])

    def artillery(self, pid: str) -> int:
        return int(self.lines[pid]["artillery"])

    def entry(self, pid: str) -> bool:
        return bool(self.lines[pid]["kind"] == "entry")

    def step_cost(self, a: str, b: str) -> int:
        """MP to move along a link: 1, +1 if obstructed (TE4)."""
        k = self.links[frozenset((a, b))]
        return 2 if k["kind"] == "obstructed" else 1


def board_from_json(data: dict[str, Any]) -> Board:
    plain = ("id", "name", "lon", "lat")
    positions = tuple(Position(p["id"], p["name"], p["lon"], p["lat"],
                               {k: v for k, v in p.items() if k not in plain})
                      for p in data["positions"])
    links = tuple(Link(k["a"], k["b"], k["kind"], {"length_m": k["length_m"]})
                  for k in data["links"])
    return Board(graph=PositionGraph(positions, links),
                 lines={p["id"]: p for p in data["positions"]},
                 links={frozenset((k["a"], k["b"])): k for k in data["links"]},
                 stars=tuple(data["stars"]), star_option=dict(data["star_alternative"]))


@cache
def load_board() -> Board:
    return board_from_json(json.loads((DATA / "board.json").read_text(encoding="utf-8")))
