"""Battle-book rules about particular leaders and units (004 §4.36, §14.2, §14.4-14.6,
§14.77; named ``tdg.*``, E-1): Berdan's sharpshooters, Warren's extra activation, Trimble,
the Confederate cavalry that may not dismount, artillery AMs outside efficiency transfer,
and Imboden's fixed orders.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Literal

from gettysburg.core.protocol import RuleError

Seat = Literal["usa", "csa"]

# --- tdg.4.36 artillery AMs -----------------------------------------------------------------------


def check_transfer_parties(parties: Sequence[str], artillery_commands: Sequence[str]) -> None:
    """tdg.4.36: an artillery command's AMs neither give nor receive efficiency transfer."""
    bad = sorted(set(parties) & set(artillery_commands))
    if bad:
        raise RuleError("tdg.4.36", f"{', '.join(bad)}: artillery AMs take no part in "
                        "efficiency transfer")


# --- tdg.14.2 ------------------------------------------------------------------------------------
def check_dismount(seat: Seat) -> None:
    """tdg.14.2: Confederate cavalry never dismounts in TDG."""
    if seat == "csa":
        raise RuleError("tdg.14.2", "Confederate cavalry may not dismount")


# --- tdg.14.4 Berdan's sharpshooters --------------------------------------------------------------
SHARPSHOOTERS = ("1 USSS", "2 USSS")
BERDAN_ROUT_CORPS = "III"  # tdg.14.4: routed sharpshooters come back under III Corps
BERDAN_RANGE_RULE = "berdan-sharpshooters"  # the range chart's unit rule (max 6, -2 at 6)


def check_berdan_attachments(attach: Mapping[str, str], divisions: Sequence[str]) -> None:
    """tdg.14.4: at the start of the turn each sharpshooter unit picks one Union division
    whose AMs it activates on this turn."""
    for unit, division in attach.items():
        if unit not in SHARPSHOOTERS:
            raise RuleError("tdg.14.4", f"{unit!r} is not one of Berdan's sharpshooters")
        if division not in divisions:
            raise RuleError("tdg.14.4", f"{unit}: {division!r} is not a Union division")


def berdan_activates(unit: str, attach: Mapping[str, str], division: str) -> bool:
    """tdg.14.4: a sharpshooter unit activates on its chosen division's AMs only."""
    return attach.get(unit) == division


def berdan_rallies_alone(unit: str) -> bool:
    """tdg.14.4: the sharpshooters rally without a leader (as 002 §13.4 allows)."""
    return unit in SHARPSHOOTERS


# --- tdg.14.5 Warren -----------------------------------------------------------------------------
WARREN_FROM = dt.date(1863, 7, 2)
MAX_ACTIVATIONS = 4  # tdg.14.5: not for a brigade that would reach a 5th activation


def check_warren(seat: Seat, date: dt.date, used: bool, brigade_activations: int,
                 enabled: bool = True) -> None:
    """tdg.14.5: once in the game (E-16), from 2 July, at the end of an activation, the Union
    interrupts the draw to activate one brigade (with its in-command units) once more, with
    no fatigue; not a brigade that would make its 5th activation this turn."""
    if not enabled:
        raise RuleError("tdg.14.5", "Warren is not in play in this scenario")
    if seat != "usa":
        raise RuleError("tdg.14.5", "the Warren phase is the Union's")
    if date < WARREN_FROM:
        raise RuleError("tdg.14.5", "Warren acts from 2 July")
    if used:
        raise RuleError("tdg.14.5", "the Warren phase has been used (once per game, E-16)")
    if brigade_activations + 1 > MAX_ACTIVATIONS:
        raise RuleError("tdg.14.5", f"that brigade would make its {brigade_activations + 1}th "
                        "activation this turn")


WARREN_FATIGUE = False  # tdg.14.5: nothing done in the Warren phase tires the brigade


# --- tdg.14.6 Trimble ----------------------------------------------------------------------------
def trimble_side(level: str, used: bool = False) -> Literal["front", "back"]:
    """tdg.14.6: Trimble replaces a corps commander (his counter's front) or a division leader
    (its back); once placed he is in use."""
    if used:
        raise RuleError("tdg.14.6", "Trimble already replaces a leader")
    if level == "corps":
        return "front"
    if level == "division":
        return "back"
    raise RuleError("tdg.14.6", f"Trimble replaces a corps or division leader, not a {level}")


# --- tdg.14.77 Imboden ---------------------------------------------------------------------------
def check_imboden_orders(new_orders: str) -> None:
    """tdg.14.77: Imboden's brigade is always on Advance orders and never changes them."""
    if new_orders != "advance":
        raise RuleError("tdg.14.77", "Imboden's brigade stays on Advance orders")
