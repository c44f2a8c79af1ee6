"""Conditional cavalry of the campaign game in the engine (004 §14.7, ``tdg.14.71``-``tdg.14.76``;
the rule ``conditional-cavalry`` of ``battle.yaml``), through :mod:`conditional_cavalry`'s pure
checks. A step module (the game typed as :class:`engine_view.GameView`); its choices reach the
engine through :mod:`scenario_step`'s orders-segment choices.

- ``hold_cavalry`` {brigades, batteries}: the Confederates, in an orders segment up to the
  3 July 0900 turn, name any of Jenkins's, Fitz Lee's, Chambliss's and Hampton's brigades,
  each with one of the horse batteries Breathed, Griffin, Hart and McGregor (tdg.14.71); the
  Union, in the 3 July 1300 orders segment, any cavalry brigade of the conditional groups due
  at 1300-1500 (never Buford's; not those note [c] already keeps away), each with one horse
  battery of those groups (tdg.14.73). Once per side.
- Held units not yet on the map never come on (:func:`kept_off`: they are not ``waiting``);
  a held Confederate brigade already on the map leaves by ``withdraw_cavalry`` {brigade} in
  an orders segment up to the 1200 turn, when none of its units (nor its battery) is next to
  an enemy and each has a clear path (no enemy unit, no enemy front hex: E-2) to the direct
  hex of entry area 8 or 9 (tdg.14.72). One that never leaves stays in play and does not
  count (a reading).
- From the 3 July 1700 turn the side that kept more brigades away may bring the surplus back
  (``return_cavalry`` {brigades, area}, once): all by one of its two areas (tdg.14.75); they
  wait at that area's direct hex as reinforcements do, and lose a d10 of SP between them (0
  reads 10), spread one at a time over the returning cavalry regiments in id order, never
  below one SP (a reading of the owner's free split, tdg.14.76).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import Action, Event, RuleError, dice_event

from .conditional_cavalry import check_return, return_losses, settle
from .facing import front_hexes
from .reinforcements import entry_area
from .scenario import turn_key
from .setup import turn_label

if TYPE_CHECKING:
    from .engine_view import GameView as GbacwGame

RULE_ID = "conditional-cavalry"
CHOICES = ("hold_cavalry", "withdraw_cavalry", "return_cavalry")
WITHDRAW_AREAS = (8, 9)


def params(game: GbacwGame) -> dict[str, Any] | None:
    """The parameters of the conditional-cavalry special rule in this scenario, or None when it does
    not play (004 §14.7)."""
    scen = game.scen.scenario
    for r in scen.special_rules if scen is not None else ():
        if r.id == RULE_ID:
            return dict(r.params)
    return None


def _state(game: GbacwGame) -> dict[str, Any]:
    got = game.pos.tdg.get("cavalry")
    return dict(got) if isinstance(got, dict) else {}


def _battery_of(game: GbacwGame, key: str, names: list[str]) -> str | None:
    unit = game.counter(key).unit
    for n in names:
        if unit == n or unit.startswith(n + "/"):
            return n
    return None


def _held_units(game: GbacwGame, seat: str, brigades: list[str], batteries: list[str]) -> list[str]:
    return sorted(k for k, u in game.pos.units.items()
                  if u.seat == seat and (game.counter(k).formation in brigades
                                         or _battery_of(game, k, batteries) is not None))


def kept_off(game: GbacwGame, key: str) -> bool:
    """Whether ``key`` is kept out of the battle by a side's hold-back (tdg.14.72-14.73) and
    has not been brought back (tdg.14.75): it does not wait at an entry hex."""
    st = _state(game)
    if not st:
        return False
    return key in st.get("off", []) and key not in st.get("back", [])


# --- the options ------------------------------------------------------------------------------
def _usa_pool(game: GbacwGame, prm: dict[str, Any]) -> tuple[list[str], list[str]]:
    """The Union brigades and horse batteries of the conditional groups due 1300-1500."""
    due = {"3-1300", "3-1400", "3-1500"}
    scen = game.scen.scenario
    withheld = set(game.pos.tdg.get("withheld", []))
    brigades: list[str] = []
    batteries: list[str] = []
    for s, groups in scen.reinforcements.items() if scen is not None else ():
        if s != "usa":
            continue
        for grp in groups:
            if not grp.conditional or grp.turn not in due or grp.id in withheld:
                continue
            arr = next(a for a in game.scen.arrivals if a.id == grp.id)
            for c in arr.counters:
                cc = game.cat.counters[c]
                leader = game.cat.brigade_leader.get(cc.formation, "")
                if cc.arm == "cav" and game.cat.leader_level.get(leader) == "brigade" \
                        and cc.formation not in brigades:
                    brigades.append(cc.formation)
                if cc.arm in ("art", "horse_art") and cc.unit not in batteries:
                    batteries.append(cc.unit)
    return brigades, batteries


def _pool(game: GbacwGame, seat: str, prm: dict[str, Any]) -> tuple[list[str], list[str]]:
    if seat == "csa":
        return [str(b) for b in prm.get("csa_brigades", [])], \
            [str(b) for b in prm.get("csa_batteries", [])]
    return _usa_pool(game, prm)


def _hold_open(game: GbacwGame, seat: str, prm: dict[str, Any]) -> bool:
    p = game.pos
    if p.phase != "orders" or seat in _state(game).get("held", {}):
        return False
    now = turn_key(turn_label(p.turn))
    if seat == "csa":
        return now <= turn_key(str(prm.get("csa_decide_by")))
    return turn_label(p.turn) == prm.get("usa_decide_on")


def hold_options(game: GbacwGame, seat: str) -> list[Action]:
    """Each brigade alone with the first battery, and all of them with as many batteries
    (004 §14.71, §14.73)."""
    prm = params(game)
    if prm is None or not _hold_open(game, seat, prm):
        return []
    brigades, batteries = _pool(game, seat, prm)
    if not brigades or not batteries:
        return []
    out: list[Action] = [{"type": "hold_cavalry", "brigades": [b],
                          "batteries": [batteries[0]]} for b in brigades]
    n = min(len(brigades), len(batteries))
    if n > 1:
        out.append({"type": "hold_cavalry", "brigades": brigades[:n],
                    "batteries": batteries[:n]})
    return out


def check_hold(game: GbacwGame, action: Action, seat: str) -> None:
    """Refuse a hold-back that is not open now, names a brigade or battery outside the side's pool,
    or pairs them wrongly (004 §14.71 Confederates, §14.73 Union)."""
    prm = params(game)
    rule = "tdg.14.71" if seat == "csa" else "tdg.14.73"
    if prm is None or not _hold_open(game, seat, prm):
        raise RuleError(rule, "no cavalry hold-back choice is open now (Confederates by the "
                        "3 July 0900 orders segment, the Union in the 1300 one; once each)")
    brigades = [str(b) for b in action.get("brigades") or []]
    batteries = [str(b) for b in action.get("batteries") or []]
    pool_b, pool_t = _pool(game, seat, prm)
    bad = [b for b in brigades if b not in pool_b] + [t for t in batteries if t not in pool_t]
    if bad:
        raise RuleError(rule, f"{', '.join(bad)}: not among {', '.join(pool_b + pool_t)}")
    if len(set(brigades)) != len(brigades) or len(set(batteries)) != len(batteries) \
            or len(brigades) != len(batteries):
        raise RuleError(rule, "each held brigade takes one horse battery of its own")


def withdraw_problem(game: GbacwGame, brigade: str) -> RuleError | None:
    """tdg.14.72: a held Confederate brigade on the map leaves, clear of the enemy, with a
    path to area 8 or 9; by the 1200 turn."""
    prm = params(game)
    st = _state(game)
    p = game.pos
    held = st.get("held", {}).get("csa")
    if prm is None or held is None or brigade not in held["brigades"] or p.phase != "orders":
        return RuleError("tdg.14.72", f"{brigade} is not a held Confederate brigade")
    if turn_key(turn_label(p.turn)) > turn_key(str(prm.get("csa_withdraw_by"))):
        return RuleError("tdg.14.72", "withdrawals are made by the 3 July 1200 turn")
    units = [k for k in _with_battery(game, brigade) if game.on_map(k)]
    if not units:
        return RuleError("tdg.14.72", f"{brigade} has no unit on the map")
    if not clear_path(game, "csa", units, WITHDRAW_AREAS):
        return RuleError("tdg.14.72", f"{brigade}: a unit is next to an enemy or has no clear "
                         "path to entry area 8 or 9")
    return None


def _with_battery(game: GbacwGame, brigade: str) -> list[str]:
    """A held Confederate brigade's units and the horse battery named with it."""
    held = _state(game).get("held", {}).get("csa", {})
    brigades, batteries = list(held.get("brigades", [])), list(held.get("batteries", []))
    i = brigades.index(brigade) if brigade in brigades else len(batteries)
    return _held_units(game, "csa", [brigade], batteries[i:i + 1])


def withdraw_options(game: GbacwGame, seat: str) -> list[Action]:
    """The held Confederate brigades on the map that may leave now (004 §14.72)."""
    held = _state(game).get("held", {}).get(seat) if seat == "csa" else None
    if held is None:
        return []
    return [{"type": "withdraw_cavalry", "brigade": b} for b in held["brigades"]
            if withdraw_problem(game, b) is None]


def surplus(game: GbacwGame) -> tuple[str | None, int]:
    """tdg.14.74-14.75: who kept more brigades away and by how many (the Confederates count
    those held back before arriving and those withdrawn)."""
    st = _state(game)
    held = st.get("held", {})
    csa = len(st.get("counted", []))
    usa = len(held.get("usa", {}).get("brigades", []))
    return settle(csa, usa)


def return_options(game: GbacwGame, seat: str) -> list[Action]:
    """The surplus brigades the side that kept more cavalry away may bring back, by either of its
    areas (004 §14.74-14.75)."""
    prm = params(game)
    st = _state(game)
    p = game.pos
    if prm is None or p.phase != "orders" or st.get("returned") or \
            turn_key(turn_label(p.turn)) < turn_key(str(prm.get("return_from"))):
        return []
    who, n = surplus(game)
    if who != seat or n < 1:
        return []
    pool = _returnable(game, seat)
    areas = prm.get(f"{seat}_return_areas", [])
    return [{"type": "return_cavalry", "brigades": pool[:n], "area": str(a)} for a in areas]


def _returnable(game: GbacwGame, seat: str) -> list[str]:
    st = _state(game)
    if seat == "csa":
        return [str(b) for b in st.get("counted", [])]
    return [str(b) for b in st.get("held", {}).get("usa", {}).get("brigades", [])]


def check_return_action(game: GbacwGame, action: Action, seat: str) -> None:
    """Refuse a return that is not the surplus side's, comes too early or again, or names too many
    or the wrong brigades (004 §14.74-14.75)."""
    prm = params(game)
    who, n = surplus(game)
    brigades = [str(b) for b in action.get("brigades") or []]
    if prm is None or who != seat or _state(game).get("returned") or game.pos.phase != "orders":
        raise RuleError("tdg.14.75", "only the side that kept more cavalry away brings the "
                        "surplus back, once, in an orders segment")
    check_return(seat, turn_label(game.pos.turn), [int(str(action.get("area")))])  # type: ignore[arg-type]
    pool = _returnable(game, seat)
    if len(brigades) > n or len(set(brigades)) != len(brigades) \
            or any(b not in pool for b in brigades):
        raise RuleError("tdg.14.75", f"at most {n} of {', '.join(pool)}")


# --- applying -------------------------------------------------------------------------------
def options(game: GbacwGame, seat: str) -> list[Action]:
    """The conditional-cavalry choices open to ``seat`` now: hold back, withdraw, return
    (004 §14.71-14.75)."""
    return [*hold_options(game, seat), *withdraw_options(game, seat),
            *return_options(game, seat)]


def check(game: GbacwGame, action: Action, seat: str) -> None:
    """The check of a conditional-cavalry action, by its type (004 §14.71-14.75)."""
    kind = action.get("type")
    if kind == "hold_cavalry":
        check_hold(game, action, seat)
    elif kind == "withdraw_cavalry":
        if seat != "csa":
            raise RuleError("tdg.14.72", "only the Confederates withdraw held cavalry")
        problem = withdraw_problem(game, str(action.get("brigade")))
        if problem is not None:
            raise problem
    else:
        check_return_action(game, action, seat)


def apply(game: GbacwGame, action: Action, seat: str) -> list[Event]:
    """Carry out a checked conditional-cavalry action: hold back, withdraw, or return with the d10
    of SP lost (004 §14.71-14.76)."""
    kind = action.get("type")
    p = game.pos
    st = _state(game)
    if kind == "hold_cavalry":
        brigades = [str(b) for b in action["brigades"]]
        batteries = [str(b) for b in action["batteries"]]
        held = dict(st.get("held", {}))
        held[seat] = {"brigades": brigades, "batteries": batteries}
        st["held"] = held
        units = _held_units(game, seat, brigades, batteries)
        off = [k for k in units if not game.on_map(k)]
        st["off"] = sorted({*st.get("off", []), *off})
        if seat == "csa":  # held back before arriving: counted at once (tdg.14.72)
            arriving = [b for b in brigades
                        if not any(game.on_map(k) for k in _held_units(game, seat, [b], []))]
            st["counted"] = sorted({*st.get("counted", []), *arriving})
        else:
            st["counted_usa"] = brigades
        p.tdg["cavalry"] = st
        game._memo.clear()
        return [Event("hold_cavalry", "tdg.14.71" if seat == "csa" else "tdg.14.73",
                      {"seat": seat, "brigades": brigades, "batteries": batteries},
                      visible_to=(seat,))]
    if kind == "withdraw_cavalry":
        b = str(action["brigade"])
        units = [k for k in _with_battery(game, b) if game.on_map(k)]
        for k in units:
            u = p.units[k]
            u.hex, u.facing = None, None
        leader = game.cat.brigade_leader.get(b)
        if leader is not None and p.leaders.get(leader) is not None:
            p.leaders[leader] = None
        st["off"] = sorted({*st.get("off", []), *units})
        st["counted"] = sorted({*st.get("counted", []), b})
        p.tdg["cavalry"] = st
        game._memo.clear()
        return [Event("withdraw_cavalry", "tdg.14.72", {"brigade": b, "units": units})]
    # return_cavalry (tdg.14.75-14.76)
    brigades = [str(b) for b in action["brigades"]]
    area = int(str(action["area"]))
    direct = game.cat.board.hexes[entry_area(game.cat.board, area).direct].id
    held = st.get("held", {}).get(seat, {})
    pairs = dict(zip(held.get("brigades", []), held.get("batteries", []), strict=False))
    batteries = [pairs[b] for b in brigades if b in pairs]  # each with its own battery
    units = [k for k in st.get("off", []) if game.pos.units[k].seat == seat and (
        game.counter(k).formation in brigades or _battery_of(game, k, batteries) is not None)]
    st["back"] = sorted({*st.get("back", []), *units})
    st["returned"] = seat
    for i, arr in enumerate(game.scen.arrivals):
        if any(game.pos.units[k].counter in arr.counters for k in units):
            if i not in p.arrived:
                p.arrived.append(i)
                p.arrived_on[str(i)] = p.turn
            p.entries[str(i)] = direct
    first = game.dice.counter
    roll = game.dice.roll("conditional cavalry losses", "tdg.14.76", die="d10")
    loss = return_losses(roll)
    cav = [k for k in units if game.counter(k).arm == "cav"]
    left = loss
    while left and cav:
        spread = False
        for k in cav:
            if left and game.counter(k).sp - p.units[k].lost > 1:
                p.units[k].lost += 1
                left -= 1
                spread = True
        if not spread:
            break
    p.tdg["cavalry"] = st
    game._memo.clear()
    return [dice_event(game.dice.rolls_since(first)),
            Event("return_cavalry", "tdg.14.75", {"seat": seat, "brigades": brigades,
                                                  "area": area, "hex": direct,
                                                  "loss": loss - left, "roll": roll})]


# --- a clear way off the map -------------------------------------------------------------------
def clear_path(game: GbacwGame, seat: str, units: list[str], areas: tuple[int, ...] | list[int]
               ) -> bool:
    """Every unit not next to an enemy and with a path free of enemy units and enemy front
    hexes (the zones of control, E-2) to the direct hex of one of ``areas`` (004 §14.72; E-2)."""
    board = game.cat.board
    enemies = game.enemy_hexes(seat)
    blocked: set[Hex] = set(enemies)
    for u in game.pos.units.values():
        h = game.hex_of(u.hex)
        if u.seat != seat and h is not None and u.facing is not None:
            blocked.update(front_hexes(h, u.facing))
    goals: set[Hex] = set()
    for area in areas:
        try:
            goals.add(entry_area(board, int(area)).direct)
        except RuleError:
            continue
    if not goals or not units:
        return False
    for k in units:
        start = game.hex_of(game.pos.units[k].hex)
        if start is None or any(start.distance(e) == 1 for e in enemies):
            return False
        seen, frontier, found = {start}, [start], start in goals
        while frontier and not found:
            nxt = []
            for h in frontier:
                for n in h.neighbours():
                    if n in seen or n not in board.hexes or n in blocked:
                        continue
                    if n in goals:
                        found = True
                        break
                    seen.add(n)
                    nxt.append(n)
                if found:
                    break
            frontier = nxt
        if not found:
            return False
    return True
