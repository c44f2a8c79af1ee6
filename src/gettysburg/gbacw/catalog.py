"""What the OOB says of every piece and leader, looked up once for the engine (never saved:
it is the data): counters by id, each formation's leader, each leader's side, level and
command, each division's corps."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from gettysburg.core.protocol import Seat
from gettysburg.gbacw.board import Board, load_board
from gettysburg.gbacw.oob import Counter, Oob, default_oob
from gettysburg.gbacw.state import SEAT_OF_SIDE


@dataclass(frozen=True)
class Catalog:
    """What the OOB says of every piece, looked up once (never saved: it is the data)."""

    oob: Oob
    board: Board
    counters: dict[str, Counter]
    brigade_leader: dict[str, str]  # formation id -> leader id
    division_leader: dict[str, str]
    corps_leader: dict[str, str]
    army_leader: dict[Seat, str]
    leader_seat: dict[str, Seat]
    leader_level: dict[str, str]
    leader_command: dict[str, str]
    division_corps: dict[str, str]

    def rating(self, leader: str, key: str, default: int = 0) -> int:
        value = self.oob.rating(leader, key)
        return default if value is None else int(value)


@lru_cache(maxsize=1)
def catalog() -> Catalog:
    oob, board = default_oob(), load_board()
    brig: dict[str, str] = {}
    div: dict[str, str] = {}
    corps: dict[str, str] = {}
    army: dict[Seat, str] = {}
    seat_of: dict[str, Seat] = {}
    level: dict[str, str] = {}
    command: dict[str, str] = {}
    div_corps: dict[str, str] = {}
    for _, c in oob.corps():
        for d in c.divisions:
            div_corps[d.id] = c.id
    for rec in oob.leaders:
        ld = rec.leader
        seat_of[ld.id] = SEAT_OF_SIDE[rec.side]
        level[ld.id] = ld.level
        command[ld.id] = rec.command
        if not rec.command:
            continue
        if ld.level in ("brigade", "artillery"):
            brig.setdefault(rec.command, ld.id)
        elif ld.level == "division":
            div[rec.command] = ld.id
        elif ld.level == "corps":
            corps[rec.command] = ld.id
        elif ld.level == "army":
            army[SEAT_OF_SIDE[rec.side]] = ld.id
    return Catalog(oob, board, {c.id: c for c in oob.counters()}, brig, div, corps, army,
                   seat_of, level, command, div_corps)
