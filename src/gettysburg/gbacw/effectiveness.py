"""Combat effectiveness in the GBACW engine (002 §13.2-13.3, phase IV/C): which brigades and
divisions are combat ineffective (CI), through :mod:`rally`'s rules, and what victory counts.

A brigade's regiments are its units that are not artillery (§13.24); regiments of a
reinforcement not yet arrived are left out (§13.21). A brigade is CI while the rule holds at
a IV/C phase: the marker goes at the first IV/C at which it no longer does (§13.22). A
division (more than half its brigades CI, artillery brigades not counted, §13.31) keeps its
marker until a IV/C at which most of its brigades are no longer CI (§13.33): with exactly
half still CI it stays. Effects (§13.23, §13.32): at most two activations a turn, and a CI
division's brigades never coordinate.

For victory (004 scenarios): ``ci_brigades`` per seat, and ``ci_divisions`` per seat where a
CI cavalry brigade counts as a division (004 sc.6.7) and a cavalry division is counted by its
brigades instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gettysburg.core.protocol import Event

from .lasting import removed
from .rally import Status, brigade_ineffective, division_ineffective

if TYPE_CHECKING:
    from .engine_view import GameView as GbacwGame


def status(game: GbacwGame, key: str, *, arrived: bool) -> Status:
    """One regiment as §13.21 sees it."""
    u = game.pos.units[key]
    if removed(game, key):
        return "not-arrived"  # 004 §18.0 Q: sent scouting, out of play but not lost
    if u.lost >= game.counter(key).sp:
        return "eliminated"
    if u.routed:
        return "routed"
    if u.hex is None:
        return "not-arrived" if not arrived else "eliminated"
    if u.collapsed:
        return "collapsed"
    return "disordered" if u.disordered else "good"


def regiments(game: GbacwGame, brigade: str) -> list[str]:
    """A brigade's regiments: its units that are not artillery (002 §13.24)."""
    return [k for k in game.brigade_units(brigade)
            if game.counter(k).arm not in ("art", "horse_art")]


def cavalry(game: GbacwGame, brigade: str) -> bool:
    """Whether a brigade's regiments are all cavalry, for the cavalry counts of victory (004
    sc.6.7)."""
    regs = regiments(game, brigade)
    return bool(regs) and all(game.counter(k).arm == "cav" for k in regs)


def brigade_ci(game: GbacwGame, brigade: str, waiting: set[str]) -> bool:
    """002 §13.21, §13.24 for the brigade now (``waiting``: units not yet arrived)."""
    regs = regiments(game, brigade)
    if not regs:
        return False  # an artillery brigade has no CI status (§13.24)
    return brigade_ineffective([status(game, k, arrived=k not in waiting) for k in regs])


def phase(game: GbacwGame, waiting: set[str]) -> list[Event]:
    """IV/C: set or lift each brigade's and division's CI marker (002 §13.22, §13.31,
    §13.33); an event for every change."""
    p = game.pos
    ev: list[Event] = []
    now: set[str] = set()
    for n in sorted(p.brigades):
        if brigade_ci(game, n, waiting):
            now.add(n)
    for n in sorted(now ^ set(p.ci_brigades)):
        ev.append(Event("combat_ineffective" if n in now else "combat_effective", "13.22",
                        {"brigade": n, "seat": p.brigades[n].seat}))
    p.ci_brigades = sorted(now)
    divisions: dict[str, list[str]] = {}
    for n, b in sorted(p.brigades.items()):
        if b.division is not None and regiments(game, n):
            divisions.setdefault(b.division, []).append(n)
    ci_div: set[str] = set()
    for d, brigades in sorted(divisions.items()):
        flags = [n in now for n in brigades]
        was = d in p.ci_divisions
        lifted = 2 * flags.count(False) > len(flags)  # §13.33: most no longer CI
        if division_ineffective(flags) or (was and not lifted):
            ci_div.add(d)
    for d in sorted(ci_div ^ set(p.ci_divisions)):
        seat = next(p.brigades[n].seat for n in divisions[d])
        ev.append(Event("division_ineffective" if d in ci_div else "division_effective",
                        "13.31" if d in ci_div else "13.33", {"division": d, "seat": seat}))
    p.ci_divisions = sorted(ci_div)
    return ev


def counts(game: GbacwGame) -> tuple[dict[str, int], dict[str, int]]:
    """(ci_divisions, ci_brigades) per seat as victory counts them (002 §13.2-13.3; 004 sc.6.7)."""
    p = game.pos
    brigades: dict[str, int] = {}
    divisions: dict[str, int] = {}
    cav_divisions: set[str] = set()
    for n in p.ci_brigades:
        seat = p.brigades[n].seat
        brigades[seat] = brigades.get(seat, 0) + 1
        if cavalry(game, n):
            divisions[seat] = divisions.get(seat, 0) + 1  # 004 sc.6.7
            cav_divisions.add(p.brigades[n].division or "")
    for d in p.ci_divisions:
        members = [n for n, b in p.brigades.items() if b.division == d]
        if members and all(cavalry(game, n) for n in members if regiments(game, n)):
            continue  # a cavalry division counts by its brigades
        seat = p.brigades[members[0]].seat
        divisions[seat] = divisions.get(seat, 0) + 1
    return divisions, brigades
