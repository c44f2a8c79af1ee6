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
from typing import TYPE_CHECKING, Any

from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import Action, Event, RuleError

from . import cavalry_step, off_map_step, setup_works, special_units
from .deployment import forbidden_ground
from .efficiency import DivisionStanding
from .facing import Facing
from .paths import Reach
from .reinforcements import entry_area
from .setup import turn_label
from .tdg_leaders import check_imboden_orders

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
        scen, board = game.scen.scenario, game.cat.board
        kept = _FORBIDDEN.get(id(scen))  # data: the same for every position (speed)
        if kept is None or kept[0] is not scen or kept[1] is not board:
            kept = _FORBIDDEN[id(scen)] = (scen, board, frozenset(
                forbidden_ground(scen, board) if scen is not None else ()))
        got = kept[2]
        game._memo[memo] = got
    return frozenset(got)


#: each scenario's forbidden ground on its board (kept with both, so an id is never reused)
_FORBIDDEN: dict[int, tuple[object, object, frozenset[Hex]]] = {}


def filter_reach(game: GbacwGame, key: str,
                 found: dict[tuple[Hex, Facing], Reach]) -> dict[tuple[Hex, Facing], Reach]:
    """004 sc.3: drop the moves that end on or pass over the forbidden ground, for a unit on
    the map that starts its move off that ground (see the module's note for the exceptions);
    and 004 §9.88's ban on moving next to an enemy unit on an off-map road
    (:func:`off_map_step.filter_reach`)."""
    return _north_limit(game, key, off_map_step.filter_reach(game, key, found))


def _north_limit(game: GbacwGame, key: str,
                 found: dict[tuple[Hex, Facing], Reach]) -> dict[tuple[Hex, Facing], Reach]:
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
    # speed: the paths share their (hex, facing) pairs, so each distinct pair is looked up
    # once (by identity, cheap beside hashing a Hex); most reaches touch no forbidden hex
    steps = {id(s): s for r in found.values() for s in r.path}
    if not any(h in bad for h, _f in steps.values()) and not any(
            r.hex in bad for r in found.values()):
        return dict(found)
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
    proxy_chain(game, seat, mine)  # 004 sc.3: McLaws's brigades within Longstreet's range


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


# --- 004 sc.3: McLaws off the map, in the chain of command --------------------------------------
def _proxy_rules(game: GbacwGame) -> list[tuple[str, str]]:
    scen = game.scen.scenario
    out: list[tuple[str, str]] = []
    for rule in scen.special_rules if scen is not None else ():
        leader, proxy = rule.params.get("leader"), rule.params.get("proxy")
        if isinstance(leader, str) and isinstance(proxy, str):
            out.append((leader, proxy))
    return out


def proxy_chain(game: GbacwGame, seat: str, mine: dict[str, list[str]]) -> None:
    """004 sc.3 (``mclaws-off-map``) at II/A: a brigade of the off-map division leader's
    division whose brigadier is within his corps commander's (the rule's ``proxy``) command
    range is in command as if its division leader were there (its brigadier in range, its
    chain whole); the division counts in its corps commander's range when all its units on
    the map are (as :func:`proxy_standing` reads it for the AMs). Others stay out."""
    for leader, proxy in _proxy_rules(game):
        if game.leader_hex(leader) is not None:
            continue
        at = game.leader_hex(proxy)
        reach = game.cat.rating(proxy, "command_range", 4)
        for d in game.divisions(seat):
            if game.cat.division_leader.get(d) != leader:
                continue
            near_all = at is not None
            for b in game.division_brigades(d):
                bl = game.cat.brigade_leader.get(b)
                h = game.leader_hex(bl)
                near = at is not None and h is not None and h.distance(at) <= reach
                spots = [game.hex_of(game.pos.units[k].hex) for k in game.brigade_units(b)
                         if game.on_map(k)]
                near_all = near_all and all(
                    x is not None and at is not None and x.distance(at) <= reach for x in spots)
                if near:
                    for key in ("brigadiers", "no_orders"):
                        if b in mine.get(key, []):
                            mine[key] = [x for x in mine[key] if x != b]
            if near_all and d in mine.get("divisions", []):
                mine["divisions"] = [x for x in mine["divisions"] if x != d]


# --- 004 sc.3: Artillery Reserve batteries attached where the Union likes ------------------------
RULE_RESERVE_ATTACH = "tdg.sc.3"


def _reserve_rule(game: GbacwGame, seat: str) -> bool:
    scen = game.scen.scenario
    return scen is not None and any(r.params.get("attach_reserve_batteries") == seat
                                    for r in scen.special_rules)


def _reserve_battery(game: GbacwGame, key: str) -> bool:
    c = game.counter(key)
    return c.arm in ("art", "horse_art") and c.corps == "US-AR"


def reserve_attach_options(game: GbacwGame, seat: str) -> list[Action]:
    """004 sc.3 (``reserve-batteries-attach``): in the orders segment of the scenario's first
    turn (for the batteries set up on the map) or of the turn a battery's group arrives (it
    waits at its entry hex), an Artillery Reserve battery may join any brigade of its side
    that has no battery attached; once joined it stays (a reading: the book gives no way
    back). The book's "division" is read as one of its brigades (the engine attaches to
    brigades, 002 §4.32)."""
    p = game.pos
    if p.phase != "orders" or not _reserve_rule(game, seat):
        return []
    first = p.turn == game.scen.first_turn
    taken = set(p.attached.values())
    brigades = [n for n, b in sorted(p.brigades.items())
                if b.seat == seat and n not in taken and game.in_play(n)
                and game.cat.leader_level.get(game.cat.brigade_leader.get(n, "")) == "brigade"]
    out: list[Action] = []
    for k, u in sorted(p.units.items()):
        if u.seat != seat or k in p.attached or k in p.attach_done \
                or not _reserve_battery(game, k):
            continue
        now = (first and u.hex is not None) or (
            u.hex is None and game.waiting(k) is not None
            and _arrived_now(game, k))
        if now:
            out += [{"type": "attach", "unit": k, "brigade": n} for n in brigades]
    return out


def _arrived_now(game: GbacwGame, key: str) -> bool:
    counter = game.pos.units[key].counter
    for i, arr in enumerate(game.scen.arrivals):
        if counter in arr.counters:
            return game.pos.arrived_on.get(str(i)) == game.pos.turn
    return False


def reserve_attach(game: GbacwGame, action: Action, seat: str) -> bool:
    """Whether ``action`` (an ``attach``) is one of 004 sc.3's reserve attachments or a
    sharpshooter's pick of a division (tdg.14.4, :func:`special_units.berdan_attach`);
    refuses it under ``tdg.sc.3`` when it names a reserve battery it does not allow."""
    if special_units.berdan_attach(game, action, seat):
        return True
    key = str(action.get("unit"))
    if key not in game.pos.units or not _reserve_battery(game, key) \
            or not _reserve_rule(game, seat):
        return False
    if action not in reserve_attach_options(game, seat):
        raise RuleError(RULE_RESERVE_ATTACH, f"{key} may not join {action.get('brigade')!r} "
                        "now: a reserve battery joins a brigade with no battery at the start "
                        "or in the orders segment of the turn it arrives")
    return True


# --- 004 chart note [c]: Buford's division leaves on 2 July, or two cavalry brigades stay away ----
RULE_BUFORD = "tdg.chart.c"
CHOICES = ("buford_leaves", "buford_stays", "entry_area", "trimble", *cavalry_step.CHOICES,
           setup_works.KIND)


def _rule_params(game: GbacwGame, rule_id: str) -> dict[str, Any] | None:
    scen = game.scen.scenario
    for r in scen.special_rules if scen is not None else ():
        if r.id == rule_id:
            return dict(r.params)
    return None


def conditional_groups(game: GbacwGame, seat: str) -> list[str]:
    """The reinforcement groups of ``seat`` marked conditional (004 §14.7's [d] rows)."""
    scen = game.scen.scenario
    if scen is None:
        return []
    return [a.id for s, groups in scen.reinforcements.items() if s == seat
            for a in groups if a.conditional]


BUFORD_BATTERY = "A/2 US"  # note [c]: the horse battery that goes with the division


def _buford_units(game: GbacwGame, division: str) -> list[str]:
    units = {k for b in game.division_brigades(division) for k in game.brigade_units(b)}
    units |= {k for k, u in game.pos.units.items()
              if u.seat == "usa" and game.counter(k).unit == BUFORD_BATTERY}
    return sorted(k for k in units if game.on_map(k))


def buford_can_leave(game: GbacwGame) -> bool:
    """Note [c]: every unit of the division on the map (those eliminated do not count) is
    not next to an enemy unit and has a path of hexes free of enemy units and of their
    fronts (the zones of control, E-2) to the direct hex of entry area 11 or 12 (tdg.chart.c)."""
    params = _rule_params(game, "union-cavalry-withdrawal")
    if params is None:
        return False
    units = _buford_units(game, str(params.get("division")))
    return cavalry_step.clear_path(game, "usa", units, list(params.get("exit_areas", [])))


def _buford_turn(game: GbacwGame) -> bool:
    params = _rule_params(game, "union-cavalry-withdrawal")
    return params is not None and game.pos.phase == "orders" and \
        turn_label(game.pos.turn) == params.get("turn") and "buford" not in game.pos.tdg


def buford_options(game: GbacwGame, seat: str) -> list[Action]:
    """Note [c], in the Union's orders segment of the 2 July 1000 turn: take Buford's
    division off the map (when it can leave), or keep it and name two of the conditional
    cavalry groups due on 3 July that will not come, with one horse battery of theirs (the
    other group's battery still comes; campaign only; with none in the scenario, keeping
    Buford is simply not leaving). Ending the orders segment without a choice keeps Buford;
    then the first two conditional groups stay away with the first one's battery (a
    reading) (tdg.chart.c)."""
    if seat != "usa" or not _buford_turn(game):
        return []
    out: list[Action] = []
    if buford_can_leave(game):
        out.append({"type": "buford_leaves"})
    groups = conditional_groups(game, seat)
    for i, a in enumerate(groups):
        for b in groups[i + 1:]:
            out += [{"type": "buford_stays", "groups": [a, b], "battery": bat}
                    for bat in (_group_batteries(game, a) + _group_batteries(game, b)
                                or ["none"])]
    return out


def _arrival(game: GbacwGame, group: str) -> int | None:
    return next((i for i, a in enumerate(game.scen.arrivals) if a.id == group), None)


def _group_batteries(game: GbacwGame, group: str) -> list[str]:
    """The horse batteries (unit names) a reinforcement group brings, in id order."""
    i = _arrival(game, group)
    if i is None:
        return []
    return sorted({game.cat.counters[c].unit for c in game.scen.arrivals[i].counters
                   if game.cat.counters[c].arm in ("art", "horse_art")})


def _leave(game: GbacwGame) -> list[Event]:
    params = _rule_params(game, "union-cavalry-withdrawal") or {}
    division = str(params.get("division"))
    units = _buford_units(game, division)
    for k in units:
        u = game.pos.units[k]
        u.hex, u.facing = None, None  # off the map for good; not a loss
    leaders = [ld for ld in (game.cat.division_leader.get(division),
                             *(game.cat.brigade_leader.get(b)
                               for b in game.division_brigades(division)))
               if ld is not None and game.pos.leaders.get(ld) is not None]
    for ld in leaders:
        game.pos.leaders[ld] = None
    game.pos.tdg["buford"] = "left"
    game._memo.clear()
    return [Event("buford_leaves", RULE_BUFORD, {"division": division, "units": units,
                                                 "leaders": leaders})]


def _stay(game: GbacwGame, groups: list[str], battery: str | None = None,
          default: bool = False) -> list[Event]:
    """Note [c]: the two groups stay away with ONE horse battery (``battery``; by default
    the first group's): the other group's battery still comes on at its group's time, so
    it is listed under ``released`` (:func:`arrival_hex`, :func:`kept_back`)."""
    if battery is None:
        battery = next(iter(_group_batteries(game, groups[0]) if groups else []), "")
    released = [b for g in groups for b in _group_batteries(game, g) if b != battery]
    game.pos.tdg["buford"] = "stayed"
    game.pos.tdg["withheld"] = sorted({*game.pos.tdg.get("withheld", []), *groups})
    if released:
        game.pos.tdg["released"] = sorted({*game.pos.tdg.get("released", []), *released})
    return [Event("buford_stays", RULE_BUFORD, {"groups": groups, "battery": battery,
                                                "released": released, "default": default},
                  visible_to=("usa",))]


# --- 004 chart note [c] (Confederate table): Rodes's entry areas ---------------------------------
def _rodes(game: GbacwGame) -> dict[str, Any] | None:
    return _rule_params(game, "rodes-entry-choice")


def _groups_of(game: GbacwGame, brigade: str) -> list[int]:
    return [i for i, arr in enumerate(game.scen.arrivals)
            if any(game.cat.counters[c].formation == brigade for c in arr.counters)]


def entry_options(game: GbacwGame, seat: str) -> list[Action]:
    """The Confederate's written choice in the orders segment of the rule's turn (1 July
    1100): for each of Rodes's brigades not yet arrived, entry area 3, 4 or 5. Its group
    (the brigades arriving together) comes on by that area's direct hex at its printed
    turn; the choice is the player's to make or not (not choosing keeps the printed
    entries: our reading of "optional") (tdg.chart.c)."""
    params = _rodes(game)
    p = game.pos
    if params is None or seat != "csa" or p.phase != "orders" \
            or turn_label(p.turn) != params.get("turn"):
        return []
    chosen = dict(p.tdg.get("entry_choice", {}))
    out: list[Action] = []
    for b in game.division_brigades(str(params.get("division"))):
        groups = _groups_of(game, b)
        if not groups or any(i in p.arrived for i in groups):
            continue
        out += [{"type": "entry_area", "brigade": b, "area": str(a)}
                for a in params.get("areas", []) if chosen.get(b) != str(a)]
    return out


def arrival_hex(game: GbacwGame, index: int, hex_id: str) -> str | None:
    """The hex group ``index`` comes on by this turn, or None when it stays away (note [c]'s
    withheld cavalry); Rodes's written choice replaces the printed hex (tdg.chart.c)."""
    arr = game.scen.arrivals[index]
    p = game.pos
    params = _rule_params(game, "union-cavalry-withdrawal")
    if params is not None and "buford" not in p.tdg and arr.id in conditional_groups(
            game, arr.seat) and p.turn > _turn_of(str(params.get("turn"))):
        _stay(game, conditional_groups(game, arr.seat)[:2], default=True)
    if arr.id in p.tdg.get("withheld", []) and not any(
            game.cat.counters[c].unit in p.tdg.get("released", []) for c in arr.counters):
        return None
    chosen = dict(p.tdg.get("entry_choice", {}))
    for c in arr.counters:
        area = chosen.get(game.cat.counters[c].formation)
        if area is not None:
            return game.cat.board.hexes[entry_area(game.cat.board, int(area)).direct].id
    return hex_id


def _turn_of(label: str) -> int:
    from .setup import turn_index
    return turn_index(label)


# --- the choices' legal list, check and execution ---------------------------------------------
def choice_options(game: GbacwGame, seat: str) -> list[Action]:
    """The choices open now (orders segment): reserve attachments, Buford, Rodes, and the
    battle book's Berdan and Trimble (:mod:`special_units`).
    (004 sc.3; tdg.chart.c; tdg.14.4-14.7; 004 sc.4.5, sc.5.5)"""
    return [*reserve_attach_options(game, seat), *buford_options(game, seat),
            *entry_options(game, seat), *special_units.berdan_options(game, seat),
            *special_units.trimble_options(game, seat), *cavalry_step.options(game, seat),
            *setup_works.options(game, seat)]  # 004 sc.4.5, sc.5.5


def check_choice(game: GbacwGame, action: Action, seat: str) -> None:
    """Refuses a scenario choice not open now, naming its rule
    (004 sc.3; tdg.chart.c; tdg.14.6-14.7; 004 sc.4.5, sc.5.5)."""
    kind = action.get("type")
    if kind == setup_works.KIND:
        setup_works.check(game, action, seat)
    elif kind in cavalry_step.CHOICES:
        cavalry_step.check(game, action, seat)
    elif kind == "trimble":
        special_units.check_trimble(game, action, seat)
    elif kind in ("buford_leaves", "buford_stays"):
        if action not in buford_options(game, seat):
            raise RuleError(RULE_BUFORD, "not a choice open now: in the Union orders segment "
                            "of the 2 July 1000 turn, Buford leaves if every unit can reach "
                            "area 11 or 12 clear of the enemy, or two conditional groups and one "
                            "of their horse batteries stay away")
    elif kind == "entry_area" and action not in entry_options(game, seat):
        raise RuleError("tdg.chart.c", "Rodes's brigades choose area 3, 4 or 5 in the "
                        "Confederate orders segment of the 1 July 1100 turn, before arriving")


def apply_choice(game: GbacwGame, action: Action, seat: str) -> list[Event]:
    """Carries out a checked scenario choice (tdg.chart.c; tdg.14.6-14.7; 004 sc.4.5, sc.5.5)."""
    kind = action.get("type")
    if kind == setup_works.KIND:
        return setup_works.apply(game, action, seat)
    if kind == "buford_leaves":
        return _leave(game)
    if kind == "buford_stays":
        return _stay(game, [str(g) for g in action["groups"]], str(action["battery"]))
    if kind == "trimble":
        return special_units.apply_trimble(game, action, seat)
    if kind in cavalry_step.CHOICES:
        return cavalry_step.apply(game, action, seat)
    b, area = str(action["brigade"]), str(action["area"])
    chosen = dict(game.pos.tdg.get("entry_choice", {}))
    chosen[b] = area
    game.pos.tdg["entry_choice"] = dict(sorted(chosen.items()))
    return [Event("entry_area", "tdg.chart.c", {"brigade": b, "area": area},
                  visible_to=("csa",))]


# --- 004 §14.77: Imboden's orders never change ----------------------------------------------------
def fixed_orders(game: GbacwGame, brigade: str, orders: str | None = None) -> RuleError | None:
    """tdg.14.77 (``imboden``): the rule's formation keeps its orders (Advance) for good: no
    Division Orders change (``orders`` given) and no orders-change roll (``orders`` None)."""
    params = _rule_params(game, "imboden")
    if params is None or params.get("formation") != brigade:
        return None
    if orders is not None:
        try:
            check_imboden_orders(orders)
            return None
        except RuleError as err:
            return err
    return RuleError("tdg.14.77", "Imboden's brigade stays on Advance orders: no roll")
