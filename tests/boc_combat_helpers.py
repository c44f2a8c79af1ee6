"""Small positions for the combat tests: made-up blocks with chosen ratings on a clear
board (``boc_engine_boards.board_doc``), so every number in a test is visible in it."""

from __future__ import annotations

from typing import Any

from boc_engine_boards import board_doc
from gettysburg.boc.board import Board
from gettysburg.boc.command import Orders
from gettysburg.boc.control import compute_control
from gettysburg.boc.oob import OrderOfBattle, Unit, default_hierarchy
from gettysburg.boc.state import ON_MAP, BocState, UnitState

HQ_KINDS = {"ahq", "chq", "dhq", "art_hq", "cav_chq", "cav_dhq"}


def block(uid: str, kind: str = "infantry", rating: str = "B2", *, long: int | None = None,
          melee: int | None = None, special: tuple[str, ...] = ()) -> Unit:
    """A block ``usa-x`` / ``csa-x`` of type ``kind`` rated e.g. ``B2``."""
    side = uid.split("-")[0]
    extra: dict[str, Any] = {}
    if kind in HQ_KINDS:
        extra["command_range"] = 2
    if kind in ("artillery", "horse_artillery"):
        extra["long_firepower"] = long if long is not None else 1
    return Unit(id=uid, name=uid, side=side, type=kind, corps="X", max_strength=4,  # type: ignore[arg-type]
                morale=rating[0], firepower=int(rating[1]), melee_firepower=melee,  # type: ignore[arg-type]
                special=special, basis="test", **extra)


def orders_of(*units: Unit) -> Orders:
    o = Orders(OrderOfBattle(units), default_hierarchy())
    o.independent = frozenset(u.id for u in units if "independent" in u.special)
    return o


def make_state(board: Board, placed: list[tuple[str, str | None, int]], *,
               active: str = "csa", phase: str = "fire", command: bool = True,
               status: dict[str, str] | None = None) -> BocState:
    """``placed`` = [(unit id, hex, strength)]; every unit is under command unless
    ``command`` is False. The 6.6 control snapshot is taken from the placement."""
    units = {}
    for i, (uid, hx, strength) in enumerate(placed):
        units[uid] = UnitState(id=uid, side=uid.split("-")[0],
                               status=(status or {}).get(uid, ON_MAP), hex=hx,
                               strength=strength, in_command=command, seq=i + 1)
    st = BocState(scenario="test", title="test", day=2, hour=16, phase=phase, active=active,
                  order=[active, "usa" if active == "csa" else "csa"], player_index=0,
                  units=units, options=[], last_day=3, ends_after_night=True, campaign=False,
                  bands={"csa_win_min": 10, "usa_win_max": -1}, seq=len(placed))
    st.control = compute_control(board, st)
    return st


def clear_board(sides: list[dict[str, Any]] | None = None,
                hexes: dict[str, dict[str, Any]] | None = None) -> Board:
    return Board.from_json(board_doc(hexes=hexes, sides=sides))
