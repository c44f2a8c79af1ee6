"""Who has the initiative this turn (002 §5.1).

Each side rolls a d10 (0-9, 002 §2.5); the side that held the initiative last turn adds 1; a
side adds its OC's initiative rating when the OC spent no more than 10 MP in the last
Commander Movement phase and has at least one of his corps commanders in range (002 §5.11;
an OC who spent more may not use the rating for anything next turn, 002 §9.32). The higher
total wins; equal totals give the initiative to nobody, and then every AM goes into the pool
with none set aside for a first pick (002 §5.12-5.13). Scenarios may give a side the first
turn's initiative outright (002 §5.11; TDG gives it to the Confederates, 004 sc.1.4 and the
others).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from gettysburg.core.dice import Dice

Seat = Literal["usa", "csa"]
SEATS: tuple[Seat, Seat] = ("usa", "csa")
OC_MP_LIMIT = 10  # 002 §5.11, §9.32


def _d10(roll: int, what: str) -> int:
    if isinstance(roll, bool) or not isinstance(roll, int) or not 0 <= roll <= 9:
        raise ValueError(f"{what}: a d10 reads 0-9, not {roll!r}")
    return roll


@dataclass(frozen=True)
class InitiativeSide:
    """One side's standing for the roll (002 §5.11)."""

    had_initiative: bool  # last turn
    oc_rating: int  # the OC's initiative rating (0 when he has none or is off the map)
    oc_mp_spent: int  # in the last Commander Movement phase
    oc_has_corps_in_range: bool

    @property
    def oc_counts(self) -> bool:
        return self.oc_mp_spent <= OC_MP_LIMIT and self.oc_has_corps_in_range

    def modifier(self) -> int:
        return int(self.had_initiative) + (self.oc_rating if self.oc_counts else 0)


@dataclass(frozen=True)
class InitiativeResult:
    usa_total: int
    csa_total: int
    winner: Seat | None  # None: a tie, nobody has it (002 §5.12)
    fixed: bool = False  # given by the scenario, no roll


def initiative(
    usa_roll: int, csa_roll: int, usa: InitiativeSide, csa: InitiativeSide
) -> InitiativeResult:
    """002 §5.11-5.12 from the two unmodified d10 rolls."""
    ut = _d10(usa_roll, "usa initiative roll") + usa.modifier()
    ct = _d10(csa_roll, "csa initiative roll") + csa.modifier()
    winner: Seat | None = "usa" if ut > ct else "csa" if ct > ut else None
    return InitiativeResult(ut, ct, winner)


def roll_initiative(
    dice: Dice, usa: InitiativeSide, csa: InitiativeSide, *, given_to: Seat | None = None
) -> InitiativeResult:
    """002 §5.1 with the dice: the Union rolls first, then the Confederates. A scenario's
    first-turn initiative (``given_to``) rolls nothing."""
    if given_to is not None:
        if given_to not in SEATS:
            raise ValueError(f"given_to must be 'usa' or 'csa', not {given_to!r}")
        return InitiativeResult(0, 0, given_to, fixed=True)
    usa_roll = dice.roll("initiative usa", "5.11", die="d10")
    csa_roll = dice.roll("initiative csa", "5.11", die="d10")
    return initiative(usa_roll, csa_roll, usa, csa)
