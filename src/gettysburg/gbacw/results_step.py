"""Combat results carried out in the GBACW engine (002 §12.4-12.8, §13.4-13.5).

The pure rules are in :mod:`retreat` (paths, chains, advance, guns) and :mod:`rally`; fire
and shock (``fire_action``, ``shock_step``) call in here to write what their results ask:

* :func:`retreat`: a retreat of 1, 2 or 1-2 hexes (§12.41-12.47). When more than one path
  is allowed the owner chooses it (§12.41): the unit leaves the map for the moment and
  ``Position.pending`` holds ``{"kind": "retreat", "queue": [...]}``; its owner answers
  with ``retreat`` {unit, path}. One path (or none) is carried out at once. Friends passed
  through take their UDDs after the retreat (§12.46, one chain = one ``checked`` set); a
  phasing unit that retreats is done for the activation (§12.47); a leader who would be
  left without friends goes with the unit (§12.72, a reading); guns met are recrewed by a
  unit in good order (§12.81).
* :func:`routs`: units routed go to their Division box (``routed`` and off the map, seen by
  their owner only) with the adjacent-rout chain (§12.53-12.54); when both sides rout in
  one shock the best unit keeps its place (§12.52).
* :func:`leader_losses` (§12.71 after shock losses), :func:`sweep` (routs still on the map,
  leaders whose command is gone, a leader alone next to the enemy, §12.71, §12.73).
* :func:`offer_fire_advance` and ``advance``/``no_advance`` (§12.6 after fire).
* :func:`rout_recovery_phase` (§13.51-13.53 in IV/B), :func:`recrew` (§12.81),
  :func:`rally_leaders` (§13.43).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import Action, Event, RuleError, dice_event

from . import extended_combat, fatigue, formation_step
from .charts.terrain import UnitClass
from .combatant import Combatant, Disorder, check
from .facing import Facing, vertex_steps
from .fire_result import leader_dies_with_command
from .kinds import facing_kind, unit_class
from .movement import FriendStack
from .paths import leader_costs
from .rally import rout_recovery
from .retreat import (
    RetreatPath,
    Surroundings,
    check_advance,
    retreat_options,
    retreat_order,
    rout_chain,
    through_checks,
)
from .shock import both_rout_keeper
from .shock_action import combatant_of
from .stacking import stack_problem
from .state import other

if TYPE_CHECKING:
    from .engine_view import GameView as GbacwGame
    from .formation_step import FormationGame  # the game itself, which is both

RETREAT = "retreat"  # the pending kind of an owner's retreat choice (§12.41)
ADVANCE = "advance"  # the pending kind of the optional advance after fire (§12.6)


def _hid(game: GbacwGame, h: Hex) -> str:
    return game.cat.board.hexes[h].id


def _class(game: GbacwGame, key: str) -> UnitClass:
    return unit_class(game.counter(key))


def _combatant(game: GbacwGame, key: str) -> Combatant | None:
    try:
        return combatant_of(game, key)
    except RuleError:
        return None


def _sorted(hexes: set[Hex]) -> list[Hex]:
    return sorted(hexes, key=lambda x: (x.q, x.r))


def _dice(game: GbacwGame, first: int, ev: list[Event]) -> list[Event]:
    """``ev`` with the rolls made since ``first`` in front (every roll logged)."""
    rolls = game.dice.rolls_since(first)
    return ([dice_event(rolls)] if rolls else []) + ev


def phasing_seat(game: GbacwGame) -> str | None:
    """The seat of the active brigade, None between activations: the side whose retreats, advances
    and collapses come second or first (002 §12.47-12.48, §12.6)."""
    b = game.pos.brigade
    return None if b is None else game.pos.brigades[b].seat


# --- retreats (002 §12.41-12.48) ----------------------------------------------------------


def surroundings(game: GbacwGame, key: str, causing: set[Hex]) -> Surroundings:
    """What the retreat of ``key`` must keep clear of (002 §12.44, §12.46): enemy hexes
    and front hexes, the causing units, friends (pass or stop) and friendly hexes of a
    shock still to resolve."""
    p = game.pos
    seat = p.units[key].seat
    enemy = game.enemy_hexes(seat)
    fronts: set[Hex] = set()
    for k, u in p.units.items():
        if u.seat != seat and u.hex is not None and u.facing is not None:
            c = _combatant(game, k)
            if c is not None:
                fronts |= set(c.fronts())
    pending: set[Hex] = set()
    pend = p.pending
    if pend is not None and pend.get("kind") == "shock":
        for s in pend.get("shocks", []):
            pending |= {h for t in s["targets"] if (h := game.hex_of(t)) is not None}
    return Surroundings(frozenset(enemy), frozenset(fronts), frozenset(causing),
                        game.friends_of(key), frozenset(pending))


def retreat(game: GbacwGame, key: str, need: tuple[int, int], causing: set[Hex], *,
            checked: set[str] | None = None, event: str = "retreat") -> list[Event]:
    """002 §12.41-12.47: retreat ``key`` ``need`` = (least, most) hexes away from the
    ``causing`` hexes. One allowed path (or none: SP lost, guns abandoned, §12.44-12.45) is
    carried out now; more than one waits for the owner's choice (``Position.pending``).
    **Reading:** while another decision is pending (a shock's steps before its roll: the
    withdrawal's and the pre-shock check's retreats, pre-shock fire) the first path is taken,
    since the shock goes on with the unit where the retreat left it."""
    p = game.pos
    u = p.units[key]
    here = game.hex_of(u.hex)
    if here is None or game.gone(key):
        return []
    checked = set(checked or ()) | {key}
    orders = game.orders_of(key)
    sur = surroundings(game, key, causing)
    opts = retreat_options(game.cat.board, here, need, unit_class=_class(game, key),
                           orders=orders if orders in ("march", "advance", "attack")
                           else "advance",  # type: ignore[arg-type]
                           sur=sur)
    opts = extended_combat.keep_extended(game, key, here, opts, sur)  # 002 §8.47
    pend = p.pending
    if len(opts.paths) > 1 and (pend is None or pend.get("kind") == RETREAT):
        entry: dict[str, Any] = {"unit": key, "from": u.hex, "need": list(need),
                 "causing": [_hid(game, h) for h in _sorted(causing)],
                 "paths": [{"hexes": [_hid(game, h) for h in pth.hexes],
                            "through": [_hid(game, h) for h in pth.through],
                            "checks": [[_hid(game, h), k] for h, k in pth.checks]}
                           for pth in opts.paths],
                 "lost_sp": opts.lost_sp, "event": event}
        u.hex = None  # off the map until its owner picks the path (a reading)
        _queue(game, entry, checked)
        return [Event("retreat_choice", "12.41", {"unit": key, "from": entry["from"],
                                                  "need": list(need),
                                                  "paths": [x["hexes"] for x in
                                                            entry["paths"]]})]
    path = opts.paths[0] if opts.paths else None
    return _carry(game, key, here, need, path, opts.lost_sp, opts.abandoned, causing, checked,
                  event)


def _queue(game: GbacwGame, entry: dict[str, Any], checked: set[str]) -> None:
    p = game.pos
    owner = p.units[entry["unit"]].seat
    if p.pending is not None and p.pending.get("kind") == RETREAT:
        queue = _in_order(game, [*p.pending["queue"], entry])
        p.pending["queue"] = queue
        p.pending["seat"] = other(p.units[queue[0]["unit"]].seat)
        p.pending["checked"] = sorted(set(p.pending["checked"]) | checked)
        return
    p.pending = {"kind": RETREAT, "seat": other(owner), "queue": [entry],
                 "checked": sorted(checked), "resume": p.pending}


def _in_order(game: GbacwGame, queue: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """002 §12.48: when both sides have retreats waiting, the side with the best cohesion
    (less half its fatigue) retreats last, the defenders first on a tie
    (``retreat.retreat_order``); each side keeps its own order."""
    p = game.pos
    seats = {p.units[e["unit"]].seat for e in queue}
    att = phasing_seat(game)
    if len(seats) < 2 or att is None:
        return queue

    def rec(e: dict[str, Any]) -> Combatant:
        k = e["unit"]
        c, u = game.counter(k), p.units[k]
        b = p.brigades.get(game.formation(k))
        tired = (fatigue.level(b.fatigue) or 0) if b is not None and game.fatigue else 0
        return Combatant(k, u.seat, (game.cat.board.parse(e["from"]),), Facing("vertex", 0),
                         "infantry", 1, c.cohesion_disordered if u.disordered else c.cohesion,
                         fatigue=tired)

    first = retreat_order([rec(e) for e in queue if p.units[e["unit"]].seat == att],
                          [rec(e) for e in queue if p.units[e["unit"]].seat != att])
    first_seat = att if first == "attacker" else other(att)
    return sorted(queue, key=lambda e: p.units[e["unit"]].seat != first_seat)


def _carry(game: GbacwGame, key: str, here: Hex, need: tuple[int, int],
           path: RetreatPath | None, lost_sp: int, abandoned: bool, causing: set[Hex],
           checked: set[str], event: str = "retreat") -> list[Event]:
    """Move ``key`` along ``path`` and write what the retreat brings (002 §12.44-12.47,
    §12.72, §12.81)."""
    p = game.pos
    u = p.units[key]
    frm = _hid(game, here)
    data: dict[str, Any] = {"unit": key, "from": frm, "need": list(need)}
    first = game.dice.counter
    ev: list[Event] = []
    good_order = not u.disordered
    if lost_sp:  # 002 §12.44: 1 SP a hex not retreated
        u.lost += lost_sp
        data["lost_sp"] = lost_sp
    if abandoned:  # 002 §12.45
        u.abandoned = u.abandoned or "abandoned-1"
        data["abandoned"] = True
    if path is not None:
        hexes = list(path.hexes)
        checks = dict(path.checks)
        me = _combatant(game, key) if u.hex is not None else None
        keep = extended_combat.retreats_extended(  # 002 §8.47: the line retreats whole
            game, key, here, path, surroundings(game, key, causing))
        if keep:
            u.refused = []  # 002 §7.33: the retreat ends a refusal, free
        elif u.extension is not None or u.refused:
            ev += _unextend(game, key, me)
        walked: list[Hex] = []
        for h in hexes:
            walked.append(h)
            kind = checks.get(h)
            if kind is None:
                continue
            failed = kind == "auto"
            if kind == "udd" and me is not None:
                c = check(game.dice, me, "retreat into terrain", "12.44")
                failed = not c.passed
            if failed:
                if u.disordered:  # 002 §12.35c: a second disorder from terrain stops it
                    data["stopped"] = _hid(game, h)
                    break
                u.disordered = True
                data["terrain_disorder"] = _hid(game, h)
        if walked and walked[-1] in path.through:
            walked = list(hexes)  # a unit never stops on friends it cannot stack with
        u.hex = _hid(game, walked[-1])
        data["path"] = [_hid(game, h) for h in walked]
        if keep:
            data["extends"] = extended_combat.shift_parts(game, key, here, walked[-1])
        joined = formation_step.join_stack(  # 002 §7.11, §8.23: one facing a hex
            cast("FormationGame", game), key, walked[-2] if len(walked) > 1 else here)
        if joined is not None:
            data["facing"] = joined
        ev.append(Event(event, "12.44", data))
        ev += _leaders_follow(game, key, here, walked[-1])
        if good_order:
            ev += recrew(game, key, [_hid(game, h) for h in walked])
        through = [h for h in path.through if h in walked]
        ev += _through(game, key, through, causing | {walked[-1]}, checked)
    else:
        ev.append(Event(event, "12.44", data))
    pend = p.pending
    if path is not None and pend is not None and pend.get("kind") == "shock":
        # 002 §12.47: an attacker that retreats before the roll (pre-shock fire) takes no
        # further part in the designated shock
        shocks = [{**s, "attackers": [a for a in s["attackers"] if a != key]}
                  for s in pend.get("shocks", [])]
        if shocks != pend.get("shocks"):
            pend["shocks"] = shocks
            ev.append(Event("shock_attacker_out", "12.47", {"unit": key}))
    if phasing_seat(game) == u.seat and game.in_activation(key):  # or its group (§5.34)
        u.moves = max(u.moves, game.moves_allowed(key))  # 002 §12.47: done this activation
        u.fired = [*u.fired, "phasing"] if "phasing" not in u.fired else u.fired
        ev.append(Event("retreat_done", "12.47", {"unit": key}))
    return _dice(game, first, ev)


def _unextend(game: GbacwGame, key: str, me: Combatant | None) -> list[Event]:
    """002 §8.47, §7.33: a retreat ends an extended line or column and a refused flank
    (**reading:** the engine never retreats a unit extended), then its owner rolls a UDD; a
    failure disorders a unit in good order (one already disordered takes nothing more, a
    reading: §8.47 names no cause for the 2nd Disorder Table)."""
    u = game.pos.units[key]
    had = u.extension
    given = formation_step.leave(cast("FormationGame", game), key)
    ev = [Event("retreat_unextended", "8.47", {"unit": key, "given_up": given})]
    if had is not None and me is not None:
        c = check(game.dice, me, "retreat of an extended unit", "8.47")
        ev.append(Event("retreat_unextended_check", "8.47", c.to_json()))
        if not c.passed:
            u.disordered = True
    return ev


def _through(game: GbacwGame, key: str, through: list[Hex], causing: set[Hex],
             checked: set[str]) -> list[Event]:
    """002 §12.46: the stationary friends a retreat passed through take a UDD each after it
    (an extended unit once; no unit twice in one chain); a failure is a disorder, and a
    second disorder of this cause may rout or retreat them in turn."""
    p = game.pos
    seat = p.units[key].seat
    stationary = [c for k, u in sorted(p.units.items())
                  if u.seat == seat and k != key and u.hex is not None
                  and game.hex_of(u.hex) in through and u.abandoned is None
                  and (c := _combatant(game, k)) is not None]
    if not stationary:
        return []
    checks, results = through_checks(game.dice, stationary, checked)
    ev = [Event("retreat_through", "12.46", {"unit": key, "checks": [c.to_json() for c in checks],
                                            "disorders": [d.to_json() for d in results]})]
    allot = stack_allotment(game, list(results))
    for d in results:
        ev += write_disorder(game, d, causing=causing, checked=checked,
                             sp=allot.get(d.unit, 0))
    return ev


def stack_allotment(game: GbacwGame, results: list[Disorder]) -> dict[str, int]:
    """002 §12.35e: stacked units (not artillery) that each lose an SP to second disorders
    of one event, failed UDDs included, lose one SP in all, from the unit on top; a Blown
    unit's own extra loss is not shared (§11.58). Units alone keep their own loss."""
    out: dict[str, int] = {}
    by_hex: dict[str, list[str]] = {}
    for d in results:
        u = game.pos.units[d.unit]
        if not d.sp_loss or d.abandoned or u.hex is None:
            continue
        if unit_class(game.counter(d.unit)) == "artillery" or d.blown:
            out[d.unit] = d.sp_loss
            continue
        by_hex.setdefault(u.hex, []).append(d.unit)
    for keys in by_hex.values():
        top = min(keys, key=lambda k: (game.pos.units[k].stack, k))
        out[top] = 1
    return out


def write_disorder(game: GbacwGame, d: Disorder, *, causing: set[Hex],
                   checked: set[str], sp: int | None = None) -> list[Event]:
    """One disorder result of a chain (002 §12.31, §12.35): the marker, the SP (``sp``: the
    unit's share of its stack's loss, :func:`stack_allotment`; None, its own), and the rout
    or retreat the second disorder brings."""
    u = game.pos.units[d.unit]
    if d.disordered or d.second:
        u.disordered = True
    lost = d.sp_loss if sp is None else sp
    u.lost += lost
    if d.blown:
        u.blown = True
    if d.abandoned:
        u.abandoned = u.abandoned or "abandoned-1"
    ev: list[Event] = []
    if lost:
        ev += leader_losses(game, {d.unit: lost})
    if d.rout:
        u.routed = True
        ev += routs(game, [d.unit], causing)
    elif d.retreat:
        ev += retreat(game, d.unit, d.retreat, causing, checked=checked)
    return ev


def retreat_options_now(game: GbacwGame) -> list[Action]:
    """The pending retreat's choices: each allowed path of the first unit in the queue
    (002 §12.4)."""
    pend = game.pos.pending
    if pend is None or pend.get("kind") != RETREAT or not pend["queue"]:
        return []
    head = pend["queue"][0]
    return [{"type": "retreat", "unit": head["unit"], "path": list(x["hexes"])}
            for x in head["paths"]]


def check_retreat_choice(game: GbacwGame, action: Action, seat: str) -> dict[str, Any]:
    """A ``retreat`` answer: the owner names one of the paths allowed (002 §12.41)."""
    pend = game.pos.pending
    if pend is None or pend.get("kind") != RETREAT or not pend["queue"]:
        raise RuleError("12.41", "no retreat waits for its path")
    head = pend["queue"][0]
    if str(action.get("unit")) != head["unit"] or game.pos.units[head["unit"]].seat != seat:
        raise RuleError("12.41", f"the retreat to choose is {head['unit']}'s")
    chosen = [str(h) for h in action.get("path", [])]
    for x in head["paths"]:
        if list(x["hexes"]) == chosen:
            return dict(x)
    allowed = "; ".join(" ".join(x["hexes"]) for x in head["paths"])
    raise RuleError("12.44", f"not an allowed retreat for {head['unit']} (allowed: {allowed})")


def choose_retreat(game: GbacwGame, action: Action, seat: str) -> list[Event]:
    """Carry out the retreat the owner chose; the next in the queue waits, or the decision
    that was pending before comes back (``resume``) (002 §12.4)."""
    chosen = check_retreat_choice(game, action, seat)
    p = game.pos
    pend = p.pending
    assert pend is not None
    head = pend["queue"][0]
    queue = pend["queue"][1:]
    checked = set(pend["checked"])
    resume = pend.get("resume")
    key = head["unit"]
    here = game.cat.board.parse(head["from"])
    path = RetreatPath(tuple(game.cat.board.parse(h) for h in chosen["hexes"]),
                       tuple(game.cat.board.parse(h) for h in chosen["through"]),
                       tuple((game.cat.board.parse(h), k) for h, k in chosen["checks"]))
    causing = {game.cat.board.parse(h) for h in head["causing"]}
    if queue:
        owner = p.units[queue[0]["unit"]].seat
        p.pending = {**pend, "queue": queue, "seat": other(owner)}
    else:
        p.pending = resume
    p.units[key].hex = head["from"]
    ev = [Event("retreat_chosen", "12.41", {"unit": key, "path": chosen["hexes"]})]
    ev += _carry(game, key, here, (int(head["need"][0]), int(head["need"][1])), path,
                 int(head.get("lost_sp", 0)), False, causing, checked,
                 str(head.get("event", "retreat")))
    if p.pending is not None and p.pending.get("kind") == RETREAT and p.pending is not pend:
        p.pending["checked"] = sorted(set(p.pending["checked"]) | checked)
        if "advance" in pend:
            p.pending.setdefault("advance", pend["advance"])
    elif p.pending is None and "advance" in pend:  # 002 §12.6: the shot emptied the hex
        firer = str(pend["advance"]["unit"])
        ev += offer_fire_advance(game, firer, str(pend["advance"]["target"]),
                                 p.units[firer].hex)
    return ev


def retreat_pending(game: GbacwGame) -> bool:
    """Whether a retreat path waits for its owner's choice (002 §12.4)."""
    pend = game.pos.pending
    return pend is not None and pend.get("kind") == RETREAT


def _leaders_follow(game: GbacwGame, key: str, frm: Hex, to: Hex) -> list[Event]:
    """002 §12.72: leaders stacked with a retreating unit may go with it; the engine takes
    along those the retreat would leave without a friendly unit (a reading)."""
    p = game.pos
    seat = p.units[key].seat
    if any(u.seat == seat and u.hex is not None and game.hex_of(u.hex) == frm
           for u in p.units.values()):
        return []
    ev: list[Event] = []
    for ld, where in sorted(p.leaders.items()):
        if where is not None and game.hex_of(where) == frm and p.leader_seat.get(ld) == seat:
            p.leaders[ld] = _hid(game, to)
            ev.append(Event("leader_follows", "12.72", {"leader": ld, "unit": key,
                                                        "to": p.leaders[ld]}))
    return ev


# --- routs (002 §12.52-12.54) ------------------------------------------------------------


def routs(game: GbacwGame, keys: list[str], causing: set[Hex] | None = None) -> list[Event]:
    """002 §12.52-12.54: the routed units among ``keys`` (still on the map) go to their
    Division box, each making its friends next to or stacked with it take a UDD (failing is
    a disorder, so a disordered friend may rout in turn; no unit checks twice in a chain).
    If both sides rout, the single unit with the best cohesion (less half its fatigue) does
    not (the attacker on a tie, shock.both_rout_keeper)."""
    p = game.pos
    first_roll = game.dice.counter
    ev: list[Event] = []
    first = [k for k in dict.fromkeys(keys)
             if p.units[k].hex is not None and p.units[k].routed and not _dead(game, k)
             and _class(game, k) != "artillery"]
    for k in keys:  # artillery never routs (002 §12.53; its guns are abandoned)
        if p.units[k].routed and _class(game, k) == "artillery":
            p.units[k].routed = False
            p.units[k].abandoned = p.units[k].abandoned or "abandoned-1"
    if not first:
        return ev
    seats = {p.units[k].seat for k in first}
    if len(seats) == 2:
        att_seat = phasing_seat(game)
        cs = {k: c for k in first if (c := _combatant(game, k)) is not None}
        keeper = both_rout_keeper([c for c in cs.values() if c.side == att_seat],
                                  [c for c in cs.values() if c.side != att_seat], first)
        if keeper is not None:
            p.units[keeper].routed = False
            first.remove(keeper)
            ev.append(Event("rout_ignored", "12.52", {"unit": keeper}))
    by_seat: dict[str, list[str]] = {}
    for k in first:
        by_seat.setdefault(p.units[k].seat, []).append(k)
    for seat, group in sorted(by_seat.items()):
        units = [c for k, u in sorted(p.units.items())
                 if u.seat == seat and u.hex is not None and not _dead(game, k)
                 and (c := _combatant(game, k)) is not None]
        known = {c.unit for c in units}
        group = [k for k in group if k in known]
        if not group:
            continue
        where = {c.unit: c.hex for c in units}
        chain = rout_chain(game.dice, group, units)
        ev.append(Event("rout_chain", "12.54", chain.to_json()))
        for k in chain.routed:
            _to_box(game, k, ev)
        ev += sweep_leaders(game)
        checked = set(chain.routed) | {c.unit for c in chain.checks}
        allot = stack_allotment(game, [d for d in chain.disorders if not d.rout])
        for d in chain.disorders:
            if d.rout:
                continue  # already in the box with the chain
            ev += write_disorder(game, d, causing=(causing or set()) | {
                where[r] for r in chain.routed if r in where}, checked=checked,
                sp=allot.get(d.unit, 0))
    return _dice(game, first_roll, ev)


def _dead(game: GbacwGame, key: str) -> bool:
    return game.pos.units[key].lost >= game.counter(key).sp


def _to_box(game: GbacwGame, key: str, ev: list[Event]) -> None:
    """002 §12.53: off the map to the Division box (``routed``, no hex); its owner sees it
    there, the enemy only sees it leave."""
    u = game.pos.units[key]
    c = game.counter(key)
    frm = u.hex
    if u.extension is not None or u.refused:
        formation_step.leave(cast("FormationGame", game), key)  # off the map: no line left
    u.routed, u.hex, u.facing = True, None, None
    ev.append(Event("rout", "12.53", {"unit": key, "hex": frm,
                                      "box": c.division or c.formation}))


# --- leaders (002 §12.71-12.73, §13.43) --------------------------------------------------


def leader_losses(game: GbacwGame, losses: dict[str, int]) -> list[Event]:
    """002 §12.71: each leader stacked with units that lost steps (in shock, or to a second
    disorder) rolls a d10 once for the event; 0 kills him."""
    p = game.pos
    hexes = {h for k, n in losses.items() if n > 0
             and (h := game.hex_of(p.units[k].hex)) is not None}
    seats = {p.units[k].seat for k, n in losses.items() if n > 0}
    ev: list[Event] = []
    first = game.dice.counter
    for ld, where in sorted(p.leaders.items()):
        h = game.hex_of(where)
        if h is None or h not in hexes or p.leader_seat.get(ld) not in seats:
            continue
        roll = game.dice.roll(f"leader casualty: {ld}", rule="12.71", die="d10")
        killed = roll == 0
        ev.append(Event("leader_check", "12.71", {"leader": ld, "roll": roll,
                                                  "killed": killed}))
        if killed:
            p.leaders[ld] = None
            ev.append(Event("leader_killed", "12.71", {"leader": ld, "hex": where}))
    return _dice(game, first, ev)


def _command_index(game: GbacwGame) -> dict[str, list[str]]:
    """Each command's units (by its brigade, division or corps name), in key order, read
    in one pass for all the leaders (002 §12.71)."""
    out: dict[str, list[str]] = {}
    for k in sorted(game.pos.units):
        c = game.counter(k)
        for name in dict.fromkeys((c.formation, c.division, c.corps)):
            if name:
                out.setdefault(name, []).append(k)
    return out


def _command_units(game: GbacwGame, leader: str, index: dict[str, list[str]]) -> list[str]:
    """The units of the leader's command, from :func:`_command_index`."""
    cmd = game.cat.leader_command.get(leader, "")
    return list(index.get(cmd, [])) if cmd else []


def sweep_leaders(game: GbacwGame) -> list[Event]:
    """002 §12.71: a leader whose units are all eliminated dies (not if some are routed);
    002 §12.73: a leader with no friendly unit in his hex next to an enemy unit goes at once
    to the nearest friendly combat unit by a leader's path, or dies if none is reachable."""
    p = game.pos
    ev: list[Event] = []
    index = _command_index(game)  # no unit changes below: only leaders die or move
    friends_of: dict[str, set[Hex]] = {}
    enemy_of: dict[str, set[Hex]] = {}
    for ld, where in sorted(p.leaders.items()):
        if where is None:
            continue
        mine = _command_units(game, ld, index)
        if mine:
            left = sum(1 for k in mine if not _dead(game, k) and not p.units[k].routed)
            routed = sum(1 for k in mine if p.units[k].routed and not _dead(game, k))
            if leader_dies_with_command(left, routed):
                p.leaders[ld] = None
                ev.append(Event("leader_killed", "12.71", {"leader": ld, "hex": where,
                                                           "why": "command eliminated"}))
                continue
        seat = p.leader_seat.get(ld, "")
        here = game.hex_of(where)
        if here is None:
            continue
        friends = friends_of.get(seat)
        if friends is None:
            friends = friends_of[seat] = {
                h for u in p.units.values() if u.seat == seat
                and (h := game.hex_of(u.hex)) is not None and u.abandoned is None}
        enemy = enemy_of.get(seat)
        if enemy is None:  # once a seat: no unit moves in the sweep, only leaders
            enemy = enemy_of[seat] = game.enemy_hexes(seat)
        if here in friends or not (here in enemy or any(n in enemy for n in here.neighbours())):
            continue  # no enemy within one hex
        costs = leader_costs(game.cat.board, here, None, enemy=enemy,
                             friends={h: FriendStack() for h in friends})
        reach = sorted((c, h.q, h.r) for h, c in costs.items() if h in friends and h != here)
        if not reach:
            p.leaders[ld] = None
            ev.append(Event("leader_killed", "12.73", {"leader": ld, "hex": where,
                                                       "why": "no path to a friend"}))
            continue
        _, q, r = reach[0]
        to = next(h for h in costs if h.q == q and h.r == r)
        p.leaders[ld] = _hid(game, to)
        ev.append(Event("leader_displaced", "12.73", {"leader": ld, "from": where,
                                                      "to": p.leaders[ld]}))
    return ev


def rally_leaders(game: GbacwGame, key: str) -> list[str]:
    """002 §13.43: the leaders whose stars helped a rally have ended their move: they may not
    move again this activation (the engine marks them moved). Returns them."""
    p = game.pos
    here = game.hex_of(p.units[key].hex)
    c = game.counter(key)
    out = []
    for ld, where in sorted(p.leaders.items()):
        cmd = game.cat.leader_command.get(ld, "")
        if (here is not None and game.hex_of(where) == here and cmd
                and cmd in (c.formation, c.division, c.corps)
                and game.cat.oob.leader(ld).stars > 0 and ld not in p.leaders_moved):
            p.leaders_moved.append(ld)
            out.append(ld)
    return out


# --- abandoned guns (002 §12.81) ---------------------------------------------------------


def recrew(game: GbacwGame, key: str, hexes: list[str], *, rallied: bool = False,
           advanced: bool = False) -> list[Event]:
    """002 §12.81: abandoned guns are manned again when a friend in good order enters or
    crosses their hex (``hexes``), advances into it, or rallies there. One battery at a time
    (the first by id); it comes back disordered with the friend's facing."""
    p = game.pos
    u = p.units[key]
    ev: list[Event] = []
    for hid in dict.fromkeys(hexes):
        guns = sorted(k for k, x in p.units.items() if x.hex == hid and x.seat == u.seat
                      and x.abandoned is not None and k != key and not _dead(game, k))
        if not guns:
            continue
        g = p.units[guns[0]]
        g.abandoned, g.disordered = None, True
        if u.facing is not None and u.hex == hid:
            g.facing = u.facing
        g.moves = max(g.moves, game.moves_allowed(guns[0]))  # waits for its next activation
        why = "rallied" if rallied else "advanced" if advanced else "entered"
        ev.append(Event("recrewed", "12.81", {"unit": guns[0], "hex": hid, "by": key,
                                              "why": why}))
    return ev


# --- the optional advance after fire (002 §12.6) -----------------------------------------


def _vacated(game: GbacwGame, h: Hex, seat: str) -> bool:
    return all(u.abandoned is not None for u in game.pos.units.values()
               if u.seat != seat and u.hex is not None and game.hex_of(u.hex) == h)


def offer_fire_advance(game: GbacwGame, unit: str, target: str, start: str | None
                       ) -> list[Event]:
    """002 §12.6: when a phasing shot left its target hex empty (or only abandoned guns),
    the firer may advance into it if it began next to it; the choice is made at once
    (``Position.pending`` kind "advance" for the phasing seat: ``advance`` or
    ``no_advance``). Artillery never advances."""
    p = game.pos
    if p.pending is not None or p.brigade is None:
        return []
    u = p.units[unit]
    here, to, began = game.hex_of(u.hex), game.hex_of(target), game.hex_of(start)
    if here is None or to is None or began is None or here != began or here.distance(to) != 1:
        return []
    if u.routed or _class(game, unit) == "artillery" or not _vacated(game, to, u.seat):
        return []
    if not advance_facings(game, unit, to):
        return []
    p.pending = {"kind": ADVANCE, "seat": other(u.seat), "unit": unit, "to": target}
    return [Event("advance_offer", "12.6", {"unit": unit, "to": target})]


def advance_facings(game: GbacwGame, unit: str, to: Hex) -> list[Facing]:
    """The facings the advance into ``to`` may end with (its own or one vertex off); an
    extended line that can advance extended, the one facing that move gives it (§8.47)."""
    u = game.pos.units[unit]
    me = _combatant(game, unit)
    if me is None or u.facing is None:
        return []
    line = extended_combat.advance_line(game, unit, to) if u.extension == "line" else None
    if line is not None:
        return [line[0].facing]
    seat = u.seat
    enemy = game.enemy_hexes(seat) - {to}
    entries = [game.stack_entry(k) for k, x in game.pos.units.items()
               if x.hex == _hid(game, to) and x.seat == seat and x.abandoned is None]
    if stack_problem([*entries, game.stack_entry(unit)], game.orders_of(unit)) is not None:
        return []
    out = []
    for i in range(6):
        f = Facing(u.facing.kind, i)
        if vertex_steps(u.facing, f) > 1:
            continue
        try:
            check_advance(game.cat.board, me, to, new_facing=f, enemy=enemy)
        except RuleError:
            continue
        out.append(f)
    return out


def advance_options(game: GbacwGame) -> list[Action]:
    """The pending advance after combat's answers: each unit that may advance into the vacated hex,
    or none (002 §12.6, §11.46)."""
    pend = game.pos.pending
    if pend is None or pend.get("kind") != ADVANCE:
        return []
    to = game.hex_of(pend["to"])
    assert to is not None
    return [*({"type": "advance", "unit": pend["unit"], "to": pend["to"],
               "facing": f.to_json()} for f in advance_facings(game, pend["unit"], to)),
            {"type": "no_advance"}]


def answer_advance(game: GbacwGame, action: Action, seat: str) -> list[Event]:
    """The firer's advance (or not) after fire (002 §12.6): the hex's D or d is met on
    entering; a unit on Attack orders moves no more; guns there are recrewed (§12.81)."""
    p = game.pos
    pend = p.pending
    if pend is None or pend.get("kind") != ADVANCE or other(str(pend["seat"])) != seat:
        raise RuleError("12.6", "no advance after fire waits for you")
    if action["type"] == "no_advance":
        p.pending = None
        return [Event("no_advance", "12.6", {"unit": pend["unit"]})]
    key = str(action.get("unit"))
    if key != pend["unit"] or str(action.get("to")) != pend["to"]:
        raise RuleError("12.6", f"only {pend['unit']} may advance, into {pend['to']}")
    to = game.hex_of(pend["to"])
    assert to is not None
    f = Facing.from_json(action["facing"])
    if f not in advance_facings(game, key, to):
        raise RuleError("12.6", f"{key} may not advance into {pend['to']} facing {f}")
    me = _combatant(game, key)
    assert me is not None
    u = p.units[key]
    line = extended_combat.advance_line(game, key, to) if u.extension == "line" else None
    need = line[1] if line is not None else check_advance(  # 002 §8.47: a line extended
        game.cat.board, me, to, new_facing=f, enemy=game.enemy_hexes(me.side) - {to})
    p.pending = None
    given: list[str] = []
    frm = u.hex
    if line is not None:
        u.refused = []  # 002 §7.33
        extended_combat.place_line(game, key, line[0], event="fire_advance", rule="8.47")
    else:
        if u.extension is not None or u.refused:
            given = formation_step.leave(cast("FormationGame", game), key)
        u.hex, u.facing = pend["to"], f
    data: dict[str, Any] = {"unit": key, "from": frm, "to": pend["to"], "facing": f.to_json()}
    if line is not None:
        data.update({"hex": u.hex, "extends": list(u.extends), "extended": True})
    if given:
        data["given_up"] = given  # 002 §8.47: the marker goes before the advance
    first = game.dice.counter
    if need == "auto":
        u.disordered, data["terrain"] = True, "D"
    elif need == "udd":
        c = check(game.dice, me, "advance into terrain", "12.6")
        data["terrain"] = c.to_json()
        u.disordered = u.disordered or not c.passed
    if game.orders_of(key) == "attack":
        u.moves = max(u.moves, game.moves_allowed(key))
    ev = [Event("fire_advance", "12.6", data)]
    ev += recrew(game, key, [pend["to"]], advanced=True)
    end = game.hex_of(u.hex)
    if frm is not None and (h := game.hex_of(frm)) is not None and end is not None \
            and h != end:
        ev += _leaders_follow(game, key, h, end)
    return _dice(game, first, ev)


# --- the whole-position sweep after a combat action --------------------------------------


def sweep(game: GbacwGame) -> list[Event]:
    """After each combat action: units marked routed but still on the map go to their box
    with their chain (§12.53-12.54), then leaders left alone or without a command (§12.71,
    §12.73)."""
    p = game.pos
    left = sorted(k for k, u in p.units.items() if u.routed and u.hex is not None
                  and not _dead(game, k))
    ev = routs(game, left) if left else []
    return ev + sweep_leaders(game)


# --- rout recovery (002 §13.5, §6.35) ----------------------------------------------------


def rout_recovery_phase(game: GbacwGame) -> list[Event]:
    """002 §13.51-13.53 in IV/B: each routed unit in its Division box whose brigade spent the
    turn in Reserve (the brigade is in Reserve at the turn's end: a reading, since Reserve
    is set in the orders segment and ends only as §6.34 says) rolls against its disordered
    cohesion (cavalry: the mounted counter's). Back on the map within a hex of its brigadier,
    disordered, mounted and 1 SP weaker; or 1 SP weaker in the box; a 9 eliminates it. With
    no brigadier on the map, or no hex to stand in, it waits (a reading)."""
    p = game.pos
    ev: list[Event] = []
    first = game.dice.counter
    for k, u in sorted(p.units.items()):
        if not u.routed or u.hex is not None or _dead(game, k):
            continue
        b = p.brigades.get(game.formation(k))
        if b is None or not b.reserve:
            continue
        counter = _mounted_counter(game, k)
        cohesion = game.cat.counters[counter].cohesion_disordered
        res = rout_recovery(game.dice, k, disordered_cohesion=cohesion, reserve_all_turn=True)
        data: dict[str, Any] = res.to_json()
        if res.eliminated:
            u.lost = game.counter(k).sp
        else:
            u.lost += res.sp_loss
        if res.returned and not _dead(game, k):
            spot = _return_hex(game, k, counter)
            if spot is not None:
                u.counter = counter
                u.hex, u.facing = _hid(game, spot[0]), spot[1]
                u.routed, u.disordered = False, True
                data["hex"] = u.hex
            else:
                data["waits"] = "no brigadier on the map or no hex within one of him"
        ev.append(Event("rout_recovery", "13.52", data, visible_to=(u.seat,),
                        redacted={"unit": k, "hex": data.get("hex")}))
    return _dice(game, first, ev) if ev else ev


def _mounted_counter(game: GbacwGame, key: str) -> str:
    """002 §13.53: recovered cavalry comes back mounted."""
    c = game.counter(key)
    if c.arm == "cav":
        mounted = f"{key}:mounted"
        if mounted in game.cat.counters:
            return mounted
    return game.pos.units[key].counter


def _return_hex(game: GbacwGame, key: str, counter: str) -> tuple[Hex, Facing] | None:
    p = game.pos
    formation = game.formation(key)
    brigadier = next((ld for ld, w in sorted(p.leaders.items()) if w is not None
                      and game.cat.leader_command.get(ld) == formation), None)
    if brigadier is None:
        return None
    centre = game.hex_of(p.leaders[brigadier])
    if centre is None:
        return None
    seat = p.units[key].seat
    enemy = game.enemy_hexes(seat)
    kind = facing_kind(game.orders_of(key))
    mates = [u.facing for k, u in sorted(p.units.items()) if k != key and u.hex is not None
             and u.facing is not None and u.facing.kind == kind
             and game.formation(k) == formation]
    facing = mates[0] if mates else Facing(kind, 0)  # type: ignore[arg-type]
    for h in [centre, *_sorted(set(centre.neighbours()))]:
        if h not in game.cat.board.hexes or h in enemy:
            continue
        hid = _hid(game, h)
        entries = [game.stack_entry(k) for k, x in p.units.items()
                   if x.hex == hid and x.seat == seat and x.abandoned is None]
        old = p.units[key].counter
        p.units[key].counter = counter
        try:
            bad = stack_problem([*entries, game.stack_entry(key)], game.orders_of(key))
        finally:
            p.units[key].counter = old
        if bad is None:
            return h, facing
    return None


# --- the engine's hooks: decisions and the after-action pass -----------------------------

KINDS = (RETREAT, ADVANCE)  # the pending decisions of this module
ACTION_KINDS = ("retreat", "advance", "no_advance")
#: actions after which combat results may be waiting (fire of every kind, its answers,
#: shock and its steps, reaction, and this module's own decisions)
COMBAT_ACTIONS = frozenset({"fire", "fire_split", "combined_fire", "rapid_fire",
                            "return_fire", "hold", "shock", "withdraw", "pre_shock_fire",
                            "stand", "react", "no_reaction", *ACTION_KINDS})


def options(game: GbacwGame) -> list[Action]:
    """The legal answers while one of this module's decisions is pending (002 §12.4, §12.6)."""
    return retreat_options_now(game) + advance_options(game)


def check_answer(game: GbacwGame, action: Action, seat: str) -> None:
    """Validate a ``retreat``/``advance``/``no_advance`` answer (changes nothing)
    (002 §12.4, §12.6)."""
    pend = game.pos.pending
    kind = action.get("type")
    want = RETREAT if kind == "retreat" else ADVANCE
    if pend is None or pend.get("kind") != want:
        raise RuleError("12.41" if want == RETREAT else "12.6",
                        f"no {'retreat' if want == RETREAT else 'advance after fire'} "
                        "waits for an answer")
    if other(str(pend["seat"])) != seat:
        raise RuleError("12.41" if want == RETREAT else "12.6", "it is not yours to answer")
    if want == RETREAT:
        check_retreat_choice(game, action, seat)
    elif kind == "advance":
        if str(action.get("unit")) != pend["unit"] or str(action.get("to")) != pend["to"]:
            raise RuleError("12.6", f"only {pend['unit']} may advance, into {pend['to']}")
        to = game.hex_of(pend["to"])
        assert to is not None
        if Facing.from_json(action["facing"]) not in advance_facings(game, pend["unit"], to):
            raise RuleError("12.6", f"{pend['unit']} may not advance into {pend['to']} with "
                            "that facing (its own or one vertex off)")


def execute(game: GbacwGame, action: Action, seat: str) -> list[Event]:
    """Carry out a checked retreat or advance answer (002 §12.4, §12.6)."""
    check_answer(game, action, seat)
    if action["type"] == "retreat":
        return choose_retreat(game, action, seat)
    return answer_advance(game, action, seat)


def before(game: GbacwGame, action: Action) -> dict[str, Any]:
    """What :func:`after_action` needs from before the action: whether a moving unit was in
    good order (§12.81: it recrews even if it is disordered on the way)."""
    if action.get("type") == "move":
        u = game.pos.units.get(str(action.get("unit")))
        return {"good_order": u is not None and not u.disordered}
    return {}


def after_action(game: GbacwGame, action: Action, ev: list[Event], snap: dict[str, Any],
                 casualties: Callable[[], list[Event]]) -> list[Event]:
    """After each action: guns recrewed by a move or a rally (§12.81), leaders who helped a
    rally (§13.43); after a combat action the retreats a shot asked for (§12.35a), phasing
    units done (§12.35f), routs to the box with their chain, leaders (§12.71, §12.73), and
    the advance after fire (§12.6)."""
    kind = str(action.get("type"))
    out: list[Event] = []
    if kind == "move" and snap.get("good_order"):
        path = next((list(e.data.get("path", [])) for e in reversed(ev) if e.type == "move"),
                    [])
        out += recrew(game, str(action["unit"]), [str(h) for h in path])
    if kind in ("move", "withdrawal_move"):
        out += sweep_leaders(game)  # 002 §12.73: "under any circumstance", a move too
    elif kind == "rally":
        r = next((e.data for e in reversed(ev) if e.type == "rally"), None)
        key = str(action["unit"])
        if r is not None and r.get("rallied") and game.pos.units[key].hex is not None:
            out += recrew(game, key, [str(game.pos.units[key].hex)], rallied=True)
        if r is not None and r.get("leader_stars"):
            helped = rally_leaders(game, key)
            if helped:
                out.append(Event("rally_leaders", "13.43", {"unit": key, "leaders": helped}))
    if kind not in COMBAT_ACTIONS:
        return out
    out += _shot_results(game, ev)
    out += sweep(game)
    out += casualties()
    out += sweep_leaders(game)
    out += _fire_advance(game, ev + out)
    return out


def _shot_results(game: GbacwGame, ev: list[Event]) -> list[Event]:
    """002 §12.35a: each ``fire_retreat`` of the shots in ``ev`` is made (away from the
    firer); §12.35f: each ``fire_done`` phasing unit is done for the activation."""
    p = game.pos
    out: list[Event] = []
    firer: str | None = None
    for e in ev:
        if e.type == "fire":
            firer = str(e.data.get("unit"))
        elif e.type == "fire_retreat":
            k = str(e.data.get("unit"))
            if k not in p.units or p.units[k].hex is None or p.units[k].routed:
                continue
            least, most = int(e.data.get("least", 1)), int(e.data.get("most", 2))
            causing = {h for h in [game.hex_of(p.units[firer].hex)] if h is not None} \
                if firer in p.units else set()
            out += retreat(game, k, (least, most), causing)
        elif e.type == "fire_done":
            k = str(e.data.get("unit"))
            if k not in p.units or p.units[k].hex is None:
                continue
            u = p.units[k]
            allowed = game.moves_allowed(k)
            if u.moves < allowed or "phasing" not in u.fired:  # no move, fire or rally
                u.moves = max(u.moves, allowed)
                u.fired = u.fired if "phasing" in u.fired else [*u.fired, "phasing"]
                out.append(Event("second_disorder_done", "12.35", {"unit": k}))
    return out


def _fire_advance(game: GbacwGame, ev: list[Event]) -> list[Event]:
    """002 §12.6: offer the advance to the first phasing firer whose target is now empty."""
    p = game.pos
    retreated = {str(e.data.get("unit")) for e in ev
                 if e.type in ("retreat", "shock_retreat", "retreat_choice")}
    for e in ev:
        if e.type != "fire":
            continue
        k = str(e.data.get("unit"))
        if k not in p.units or k in retreated or not game.in_activation(k):
            continue
        target = e.data.get("target")
        if not isinstance(target, str):
            continue
        if p.pending is not None and p.pending.get("kind") == RETREAT:
            # the target's retreat waits for its path: the offer comes once it is made
            p.pending.setdefault("advance", {"unit": k, "target": target})
            return []
        offer = offer_fire_advance(game, k, target, p.units[k].hex)
        if offer:
            return offer
    return []
