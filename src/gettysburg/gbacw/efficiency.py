"""Efficiency markers to activation markers (002 §5.2), how often brigades, units and March
formations activate (§5.26-5.28, §5.36), and the efficiency transfer (§5.4), with the battle
book's changes (004 §4.13, §4.35-4.36, §5.22-5.23).

Step II/B of the turn: each corps draws an efficiency marker (1-4); the OC may raise some
corps by one (§5.22); each division then starts from its corps' efficiency and adds the corps
commander's share, the out-of-range penalty and its leader's activation rating (§5.23); the
result is clamped (§5.24) and capped (§5.25, §13.32). Afterwards a player may make one
transfer (§5.4). Command status comes from step II/A (``gbacw.chain``).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass

from gettysburg.core.protocol import RuleError

AM_MIN, AM_MAX = 1, 4  # 002 §5.22, §5.24
OUT_OF_RANGE_CAP = 3  # 002 §5.25
INEFFECTIVE_CAP = 2  # 002 §13.23, §13.32
OC_MP_LIMIT = 10  # 002 §9.32


def _clamp(value: int, low: int = AM_MIN, high: int = AM_MAX) -> int:
    return max(low, min(high, value))


def _marker(marker: int) -> int:
    if isinstance(marker, bool) or not isinstance(marker, int) or not 1 <= marker <= 4:
        raise ValueError(f"an efficiency marker reads 1-4, not {marker!r}")
    return marker


# --- the OC's bonus (002 §5.22; 004 §5.22) ---------------------------------------------------
def check_oc_bonus(
    initiative_rating: int,
    eligible: Collection[str],
    chosen: Collection[str],
    *,
    oc_mp_spent: int = 0,
) -> None:
    """002 §5.22: an OC rated N may add 1 to the efficiency of up to N corps whose commanders
    are on the map and in his range (``eligible``), never twice to one corps; an OC who spent
    more than 10 MP last turn may not use his rating (002 §9.32). 004 §5.22: Lee, rated 1,
    with Hill and Longstreet both in range, raises one of them, not both."""
    chosen_set = set(chosen)
    if len(chosen_set) != len(list(chosen)):
        raise RuleError("5.22", "the OC raises a corps at most once")
    if not chosen_set:
        return
    if oc_mp_spent > OC_MP_LIMIT:
        raise RuleError("9.32", f"the OC spent {oc_mp_spent} MP last turn (over {OC_MP_LIMIT}):"
                        " he may not use his initiative rating this turn")
    outside = sorted(chosen_set - set(eligible))
    if outside:
        raise RuleError("5.22", f"{', '.join(outside)}: not a corps commander on the map in the"
                        " OC's command range")
    if len(chosen_set) > max(0, initiative_rating):
        raise RuleError("5.22", f"an OC rated {initiative_rating} may raise at most "
                        f"{max(0, initiative_rating)} corps, not {len(chosen_set)}")


def corps_efficiency(marker: int, oc_bonus: bool = False) -> int:
    """002 §5.22: the marker drawn, +1 if the OC chose this corps, kept within 1-4."""
    return _clamp(_marker(marker) + int(oc_bonus))


# --- per division (002 §5.23-5.25, §13.32; 004 §4.13, §5.23) ---------------------------------
@dataclass(frozen=True)
class DivisionStanding:
    """What §5.23 needs to know about one division at step II/B."""

    division: str
    activation: int = 0  # the division leader's activation rating
    leader_on_map: bool = True
    # the division leader is in his corps commander's range (False when either is off the map)
    in_corps_range: bool = True
    # 004 §4.13, §5.23: a TDG cavalry division draws its own marker and needs no chain
    independent: bool = False
    ineffective: bool = False  # combat ineffective (002 §13.32)
    fixed_ams: int | None = None  # a reinforcement's set number of AMs (002 §5.23, §9.71, §9.74)
    cap: int | None = None  # a scenario's ceiling (004 sc.2 Herr Ridge, decision E-17)


@dataclass(frozen=True)
class DivisionAMs:
    """The arithmetic of one division's AMs, term by term (for the log)."""

    division: str
    efficiency: int  # the corps' (or an independent division's own marker)
    corps_share: int  # §5.23 1a-1d
    out_of_range: int  # §5.23 2
    activation: int  # §5.23 3
    ams: int

    @property
    def raw(self) -> int:
        return self.efficiency + self.corps_share + self.out_of_range + self.activation


def check_corps_shares(
    efficiency_rating: int, in_range: Collection[str], shares: Mapping[str, int]
) -> None:
    """002 §5.23 1a-1b: a corps commander rated +2 gives +2 to one division in his range or +1
    to two; rated +1, +1 to one; rated 0 or -1 he chooses nothing (a -1 falls on every division
    in his range by itself, decision E-28). The player may give less than the rating allows."""
    if efficiency_rating not in (-1, 0, 1, 2):
        raise ValueError(f"a corps commander's efficiency rating is -1..+2, not "
                         f"{efficiency_rating}")
    for div, share in sorted(shares.items()):
        if share < 1:
            raise RuleError("5.23", f"{div}: a corps commander's share is +1 or +2, not {share}")
        if div not in in_range:
            raise RuleError("5.23", f"{div}: its leader is not in the corps commander's range")
    total = sum(shares.values())
    if total > max(0, efficiency_rating):
        raise RuleError("5.23", f"a corps commander rated {efficiency_rating:+d} gives at most "
                        f"{max(0, efficiency_rating)}, not {total}")


def division_ams(
    efficiency: int, efficiency_rating: int, div: DivisionStanding, share: int = 0
) -> DivisionAMs:
    """002 §5.23-5.25 and §13.32 for one division from its corps' efficiency (§5.22).

    ``share`` is what the corps commander chose to give it (validated by
    :func:`check_corps_shares`). An independent TDG cavalry division (004 §4.13, §5.23) uses
    its own marker as ``efficiency`` and neither gains nor loses by a corps commander."""
    if div.fixed_ams is not None:
        if not AM_MIN <= div.fixed_ams <= AM_MAX:
            raise ValueError(f"{div.division}: fixed_ams must be 1-4, not {div.fixed_ams}")
        return DivisionAMs(div.division, efficiency, 0, 0, 0, div.fixed_ams)
    independent = div.independent
    if independent or not div.in_corps_range:
        corps_share = 0
    elif efficiency_rating < 0:
        corps_share = efficiency_rating  # §5.23 1c: every division in range
    else:
        corps_share = share
    out_of_range = 0 if independent or div.in_corps_range else -1  # §5.23 2
    activation = div.activation if div.leader_on_map else 0  # §5.23 3
    ams = _clamp(efficiency + corps_share + out_of_range + activation)  # §5.24
    if out_of_range:
        ams = min(ams, OUT_OF_RANGE_CAP)  # §5.25
    if div.ineffective:
        ams = min(ams, INEFFECTIVE_CAP)  # §13.32
    if div.cap is not None:
        ams = _clamp(min(ams, div.cap))
    return DivisionAMs(div.division, efficiency, corps_share, out_of_range, activation, ams)


def corps_ams(
    marker: int,
    efficiency_rating: int,
    divisions: Collection[DivisionStanding],
    *,
    oc_bonus: bool = False,
    shares: Mapping[str, int] | None = None,
) -> dict[str, DivisionAMs]:
    """002 §5.22-5.25: every division of one corps. 002 §5.23's example: marker 3, commander
    +1 given to 2/II, leaders rated 0/0/+1, 1/II out of range -> 2/4/4."""
    shares = dict(shares or {})
    names = [d.division for d in divisions]
    if len(set(names)) != len(names):
        raise ValueError("divisions: a division is listed twice")
    unknown = sorted(set(shares) - set(names))
    if unknown:
        raise ValueError(f"shares: {', '.join(unknown)} is not a division of this corps")
    in_range = {d.division for d in divisions
                if d.in_corps_range and not d.independent and d.fixed_ams is None}
    check_corps_shares(efficiency_rating, in_range, shares)
    eff = corps_efficiency(marker, oc_bonus)
    return {d.division: division_ams(eff, efficiency_rating, d, shares.get(d.division, 0))
            for d in divisions}


def independent_division_ams(marker: int, div: DivisionStanding) -> DivisionAMs:
    """004 §4.13 and §5.23: a TDG cavalry division (Stuart, Buford, Gregg, Kilpatrick) draws
    its own marker and adds its leader's activation rating, with no chain of command needed.
    004 §5.23's example: Buford, marker 3, rated +1 -> 4."""
    if not div.independent:
        raise ValueError(f"{div.division} is not an independent division")
    return division_ams(_marker(marker), 0, div)


def artillery_ams(marker: int, rating: int, cap: int = 3) -> int:
    """004 §4.3, §4.35-4.36 as read in decision E-29: an artillery chief (Hunt, Pendleton or
    Alexander) draws a marker like a corps; his AMs are the marker plus his rating, at least 1
    and at most ``cap`` (3 in TDG: a 4 counts as 3). ``cap`` is
    ``all_charts().efficiency_pools.artillery_am_cap.value``."""
    return _clamp(_marker(marker) + rating, AM_MIN, cap)


# --- brigades, units, March (002 §5.26-5.28, §5.35-5.36, §13.23) ------------------------------
def brigade_activations(
    division_ams: int, *, brigadier_in_range: bool = True, ineffective: bool = False
) -> int:
    """How many of its division's AMs a brigade may use: one fewer when its brigadier began
    the turn out of his division leader's range (002 §5.26, §5.36; the player picks the AM it
    skips), at most 2 when the brigade is combat ineffective (002 §13.23), never below 1
    (002 §5.27). The same count serves a single combat unit out of command (002 §5.36)."""
    if not AM_MIN <= division_ams <= AM_MAX:
        raise ValueError(f"division_ams must be 1-4, not {division_ams}")
    n = division_ams - (0 if brigadier_in_range else 1)
    if ineffective:
        n = min(n, INEFFECTIVE_CAP)
    return max(AM_MIN, n)


def unit_activations(division_ams: int, *, in_command: bool) -> int:
    """002 §5.36: a combat unit out of command activates one time fewer than its division,
    at least once."""
    return brigade_activations(division_ams, brigadier_in_range=in_command)


def march_activations(
    division_ams: int, *, ordered_this_turn: bool = False, fixed: int | None = None
) -> int:
    """The most activations' worth a March formation may move on its side's March AM
    (002 §5.28, §5.35): 4, whatever its command status (§5.25, §4.23's note); as many as its
    division's AMs when it was given March orders in this turn's Division Orders; a
    reinforcement's set number when the battle book gives one (§5.35 exception 1, §9.74)."""
    if fixed is not None:
        if not AM_MIN <= fixed <= AM_MAX:
            raise ValueError(f"fixed must be 1-4, not {fixed}")
        return fixed
    if ordered_this_turn:
        return _clamp(division_ams)
    return AM_MAX


# --- efficiency transfer (002 §5.4; 004 §4.35-4.36) ------------------------------------------
def transfer(
    ams: Mapping[str, int],
    donors: Mapping[str, int],
    recipient: str,
    *,
    eligible: Collection[str],
    used_this_turn: bool = False,
) -> dict[str, int]:
    """002 §5.41-5.44: once a turn, in II/B, a player takes 2 AMs (or 4, 6...) from one or two
    divisions and gives the recipient 1 for each 2 taken. Only divisions whose chain reaches
    the OC (``eligible``) take part (§5.42); none drops below 1 and the recipient not above 4
    (§5.43). Artillery AMs neither give nor take (004 §4.36): leave them out of ``eligible``.
    Returns the new AMs; ``ams`` is left as it was.

    002 §5.44's example: marker 2, 2/XV's leader +1: 2/3/2 -> 1/4/1."""
    if used_this_turn:
        raise RuleError("5.44", "a player makes one efficiency transfer a turn")
    taken = _check_donors(ams, donors, eligible)
    if recipient not in ams:
        raise ValueError(f"recipient: no division {recipient!r}")
    if recipient in donors:
        raise RuleError("5.43", f"{recipient} cannot give and receive in one transfer")
    if recipient not in eligible:
        raise RuleError("5.42", f"{recipient}: its chain of command does not reach the OC")
    if taken % 2:
        raise RuleError("5.43", f"AMs are taken in twos, not {taken}")
    gain = taken // 2
    if ams[recipient] + gain > AM_MAX:
        raise RuleError("5.43", f"{recipient} would have {ams[recipient] + gain} AMs (at most "
                        f"{AM_MAX})")
    out = dict(ams)
    for div, n in donors.items():
        out[div] -= n
    out[recipient] += gain
    return out


def alexander_swap(
    ams: Mapping[str, int],
    donors: Mapping[str, int],
    *,
    eligible: Collection[str],
    used_this_turn: bool = False,
) -> dict[str, int]:
    """004 §4.35: the Confederates replace Pendleton with Porter Alexander as artillery chief
    by spending an efficiency transfer worth 2 AMs (taken as §5.43 takes them, with nobody
    receiving). The counters' flips are the engine's."""
    if used_this_turn:
        raise RuleError("5.44", "a player makes one efficiency transfer a turn")
    taken = _check_donors(ams, donors, eligible)
    if taken != 2:
        raise RuleError("tdg.4.35", f"the swap costs 2 AMs, not {taken}")
    out = dict(ams)
    for div, n in donors.items():
        out[div] -= n
    return out


def _check_donors(ams: Mapping[str, int], donors: Mapping[str, int],
                  eligible: Collection[str]) -> int:
    if not donors:
        raise RuleError("5.43", "a transfer takes AMs from one or two divisions")
    if len(donors) > 2:
        raise RuleError("5.43", f"a transfer takes from one or two divisions, not {len(donors)}")
    for div, n in sorted(donors.items()):
        if div not in ams:
            raise ValueError(f"donors: no division {div!r}")
        if n < 1:
            raise RuleError("5.43", f"{div}: AMs taken must be 1 or more, not {n}")
        if div not in eligible:
            raise RuleError("5.42", f"{div}: its chain of command does not reach the OC")
        if ams[div] - n < AM_MIN:
            raise RuleError("5.43", f"{div} would drop to {ams[div] - n} AMs (never below "
                            f"{AM_MIN})")
    return sum(donors.values())
