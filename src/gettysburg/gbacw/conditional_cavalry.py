"""Conditional cavalry of the campaign game (004 §14.7, ``tdg.14.71``-``tdg.14.76``).

Both sides may keep cavalry brigades out of the 3 July cavalry fight: the Confederates choose
by the 0900 turn of 3 July among four brigades (holding back those not yet arrived,
withdrawing the others by the 1200 turn), the Union during the 1300 turn among its brigades
due at 1300-1500 (never Buford's). Each brigade takes one horse battery with it. Equal
numbers cancel out; the side that kept more out may bring the difference back from the 1700
turn on, all by one entry area, with d10 SP lost (0 = 10). The single-day scenarios use the
historical cavalry (§14.7), so this is for the campaign only.

Brigades are named by their brigadier's OOB leader id; turns are "d-hhmm".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

from gettysburg.core.protocol import RuleError

from .scenario import turn_key

Seat = Literal["usa", "csa"]

CSA_BRIGADES = ("jenkins", "fitzhugh", "chambliss", "hampton")  # tdg.14.71
CSA_BATTERIES = ("Breathed", "Griffin", "Hart", "McGregor")
CSA_DEADLINE = "3-0900"
CSA_WITHDRAW_BY = "3-1200"  # tdg.14.72
WITHDRAW_AREAS = (8, 9)
USA_TURN = "3-1300"  # tdg.14.73
USA_DUE = ("3-1300", "3-1400", "3-1500")
USA_NEVER = ("gamble", "devin")  # Buford's brigades (or their replacements)
RETURN_FROM = "3-1700"  # tdg.14.75
RETURN_AREAS: dict[Seat, tuple[int, int]] = {"csa": (9, 10), "usa": (8, 9)}


def _batteries(brigades: Sequence[str], batteries: Sequence[str], rule: str) -> None:
    if len(set(brigades)) != len(brigades):
        raise RuleError(rule, "a brigade is named twice")
    if len(batteries) != len(brigades) or len(set(batteries)) != len(batteries):
        raise RuleError(rule, f"each brigade takes one horse battery of its own: "
                        f"{len(brigades)} brigades, {len(set(batteries))} batteries")


def check_csa_choice(turn: str, brigades: Sequence[str], batteries: Sequence[str]) -> None:
    """tdg.14.71: by the 0900 turn of 3 July, any of the four brigades (never Imboden), each
    with one of the four horse batteries."""
    if turn_key(turn) > turn_key(CSA_DEADLINE):
        raise RuleError("tdg.14.71", f"the Confederate choice is made by {CSA_DEADLINE}")
    for b in brigades:
        if b not in CSA_BRIGADES:
            raise RuleError("tdg.14.71", f"{b!r} is not one of {', '.join(CSA_BRIGADES)}")
    for bat in batteries:
        if bat not in CSA_BATTERIES:
            raise RuleError("tdg.14.71", f"{bat!r} is not one of {', '.join(CSA_BATTERIES)}")
    _batteries(brigades, batteries, "tdg.14.71")


def check_withdrawal(turn: str, brigade: str, adjacent_enemy: bool, path_to_area: bool) -> None:
    """tdg.14.72: a chosen brigade already on the map leaves by the 1200 turn of 3 July,
    unless one of its units (or its battery) is next to an enemy combat unit or it has no
    path clear of enemy units and their front hexes (E-2) to entry area 8 or 9."""
    if turn_key(turn) > turn_key(CSA_WITHDRAW_BY):
        raise RuleError("tdg.14.72", f"withdrawals are done by {CSA_WITHDRAW_BY}")
    if adjacent_enemy:
        raise RuleError("tdg.14.72", f"{brigade}: a unit is next to an enemy combat unit")
    if not path_to_area:
        raise RuleError("tdg.14.72", f"{brigade}: no clear path to entry area 8 or 9")


def check_usa_choice(turn: str, brigades: Sequence[str], due: Mapping[str, str],
                     batteries: Sequence[str]) -> None:
    """tdg.14.73: during the 1300 turn of 3 July, any brigade due at 1300, 1400 or 1500
    (``due``: brigade -> its arrival turn), never Buford's, each with one horse battery."""
    if turn != USA_TURN:
        raise RuleError("tdg.14.73", f"the Union chooses during the {USA_TURN} turn")
    for b in brigades:
        if b in USA_NEVER:
            raise RuleError("tdg.14.73", f"{b} is Buford's: it may not be held back")
        if due.get(b) not in USA_DUE:
            raise RuleError("tdg.14.73", f"{b} is not due at 1300, 1400 or 1500 on 3 July")
    _batteries(brigades, batteries, "tdg.14.73")


def settle(csa: int, usa: int) -> tuple[Seat | None, int]:
    """tdg.14.74-14.75: equal numbers -> nobody returns; else the side that kept more out
    may bring back the difference."""
    if csa == usa:
        return None, 0
    return ("csa", csa - usa) if csa > usa else ("usa", usa - csa)


def check_return(seat: Seat, turn: str, areas: Sequence[int]) -> int:
    """tdg.14.75: from the 1700 turn of 3 July, all by one of the side's two entry areas."""
    if turn_key(turn) < turn_key(RETURN_FROM):
        raise RuleError("tdg.14.75", f"returning cavalry enters from {RETURN_FROM}")
    if len(set(areas)) != 1:
        raise RuleError("tdg.14.75", "all returning units enter by the same area")
    area = areas[0]
    if area not in RETURN_AREAS[seat]:
        raise RuleError("tdg.14.75", f"{seat} cavalry returns by area "
                        f"{' or '.join(map(str, RETURN_AREAS[seat]))}, not {area}")
    return area


def return_losses(roll: int) -> int:
    """tdg.14.76: the returning brigades lose d10 SP between them (a 0 reads 10)."""
    if not 0 <= roll <= 9:
        raise RuleError("tdg.14.76", f"a d10 reads 0-9, not {roll}")
    return roll or 10
