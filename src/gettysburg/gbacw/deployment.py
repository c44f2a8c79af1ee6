"""The set-up placer: a scenario's set-up lines turned into counters on concrete hexes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .board import Board
    from .oob import Oob
    from .scenario import Scenario, Seat


@dataclass(frozen=True)
class Placement:
    """One counter (an OOB Counter.id; cavalry's mounted or dismounted twin) on a hex."""

    counter: str
    hex: str
    orders: str
    facing: int | None
    extension: tuple[str, ...] = ()  # trailing hexes of an extended column/line
    line: str = ""
    sp_lost: int = 0


@dataclass(frozen=True)
class LeaderPlacement:
    leader: str
    hex: str
    line: str = ""


def place_units(scen: Scenario, seat: Seat, oob: Oob, board: Board) -> list[Placement]:
    raise NotImplementedError("the placer comes next")


def place_leaders(scen: Scenario, seat: Seat, oob: Oob, board: Board) -> list[LeaderPlacement]:
    raise NotImplementedError("the placer comes next")
