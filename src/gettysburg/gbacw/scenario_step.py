"""Scenario special rules the engine applies during play (seed 004's scenario pages; the
``special_rules`` of ``data/scenarios/*.yaml``, read through :mod:`scenario`).

- 004 sc.3 (Little Round Top, ``north-limit``): no unit moves onto row 12 of sheet C or north
  of it (:func:`filter_reach`). The book's exceptions are read this way: a Union unit coming
  on from off the map may cross and stop on that ground as it enters; a unit that starts its
  move there (Eshleman's battalion at set-up, a reinforcement that came on there) is free to
  move off it (the book's road-then-trail path for Eshleman is not enforced hex by hex).
- 004 sc.1 (``third-west-virginia``): the 3rd West Virginia may not charge or dismount
  (:func:`no_charge`, :func:`no_dismount`: the OOB flags the unit).

The other special rules are applied at set-up or by their own steps (activation counts in
``steps``, prior losses and combat-ineffective starts in ``deployment``/``setup``); the
coverage rows of docs/gbacw-rules-coverage.md say which are not yet in the engine.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from gettysburg.core.hexes import Hex

from .deployment import forbidden_ground
from .efficiency import DivisionStanding
from .facing import Facing
from .paths import Reach

if TYPE_CHECKING:
    from .engine_view import GameView as GbacwGame

RULE_NORTH_LIMIT = "tdg.sc.3"
RULE_3WV = "tdg.sc.1"


def forbidden_hexes(game: GbacwGame) -> frozenset[Hex]:
    """004 sc.3: the hexes of the scenario's forbidden rows and listed hexes (empty when the
    scenario has none)."""
    memo = ("tdg-forbidden",)
    got = game._memo.get(memo)
    if got is None:
        scen = game.scen.scenario
        got = frozenset(forbidden_ground(scen, game.cat.board) if scen is not None else ())
        game._memo[memo] = got
    return frozenset(got)


def filter_reach(game: GbacwGame, key: str,
                 found: dict[tuple[Hex, Facing], Reach]) -> dict[tuple[Hex, Facing], Reach]:
    """004 sc.3: drop the moves that end on or pass over the forbidden ground, for a unit on
    the map that starts its move off that ground (see the module's note for the exceptions)."""
    bad = forbidden_hexes(game)
    if not bad:
        return found
    u = game.pos.units[key]
    here = game.hex_of(u.hex)
    if here is None:
        return found if u.seat == "usa" else _drop(found, bad)
    if here in bad:
        return found
    return _drop(found, bad)


def _drop(found: dict[tuple[Hex, Facing], Reach],
          bad: frozenset[Hex]) -> dict[tuple[Hex, Facing], Reach]:
    return {k: r for k, r in found.items()
            if r.hex not in bad and not any(h in bad for h, _f in r.path)}


def no_charge(game: GbacwGame, key: str) -> bool:
    """004 sc.1: a unit flagged unfit (the 3rd West Virginia) may not charge."""
    return "no_charge" in game.counter(key).flags


def no_dismount(game: GbacwGame, key: str) -> bool:
    """004 sc.1: a unit flagged unfit (the 3rd West Virginia) may not dismount."""
    return "no_dismount" in game.counter(key).flags


# --- 004 sc.3: every Union unit in command --------------------------------------------------------
OUT_OF_COMMAND = ("units", "brigadiers", "divisions", "no_orders")


def all_in_command(game: GbacwGame, seat: str) -> bool:
    """004 sc.3 (``union-in-command``): the scenario counts every unit of ``seat`` in command
    for its whole length, though no corps commander of that side starts on the map."""
    scen = game.scen.scenario
    return scen is not None and any(r.params.get("all_in_command") == seat
                                    for r in scen.special_rules)


def command_status(game: GbacwGame, seat: str, mine: dict[str, list[str]]) -> None:
    """004 sc.3: clear the II/A lists of units, brigadiers and divisions out of command (and the
    brigades whose chain misses the top, our reading of "in command") for such a side."""
    if all_in_command(game, seat):
        for key in OUT_OF_COMMAND:
            if key in mine:
                mine[key] = []


# --- 004 sc.3: McLaws off the map ---------------------------------------------------------------
def proxy_standing(game: GbacwGame, standing: DivisionStanding) -> DivisionStanding:
    """004 sc.3 (``mclaws-off-map``): the division leader named by the rule is off the map;
    when every unit of his division on the map is within his corps commander's (the rule's
    ``proxy``) command range his absence is ignored for the division's AMs, otherwise he
    counts as out of the corps commander's range."""
    scen = game.scen.scenario
    if scen is None:
        return standing
    d = standing.division
    for rule in scen.special_rules:
        leader, proxy = rule.params.get("leader"), rule.params.get("proxy")
        if not isinstance(leader, str) or not isinstance(proxy, str):
            continue
        if game.cat.division_leader.get(d) != leader or game.leader_hex(leader) is not None:
            continue
        at = game.leader_hex(proxy)
        reach = game.cat.rating(proxy, "command_range", 4)
        spots = [game.hex_of(game.pos.units[k].hex) for b in game.division_brigades(d)
                 for k in game.brigade_units(b) if game.on_map(k)]
        near = at is not None and bool(spots) and all(
            h is not None and h.distance(at) <= reach for h in spots)
        return replace(standing, leader_on_map=True, in_corps_range=near)
    return standing
