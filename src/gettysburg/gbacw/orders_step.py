"""Orders and command status in the engine, beyond the orders segment (through the pure
:mod:`orders` and :mod:`efficiency`):

- 002 §6.34: a Reserve formation one of whose units is designated the target of a shock, or
  of fire from 4 hexes or less, leaves Reserve at once: every unit disordered, Advance
  orders; the shot or shock then goes on as usual (:func:`before_action`).
- 002 §6.25: a March brigade's orders roll on its side's March AM (:func:`march_roll`):
  an aggressive brigadier's Loose Cannon reads as Retain, Change & Stay holds the brigade
  still on its division's first AM (``Position.stay_next``, lapsing at the turn's end).
- 002 §4.23, §5.36: a unit out of command (as II/A found it) keeps the orders it last had
  in command when its brigade's orders change (``Position.unit_orders``), and takes the
  brigade's orders at its brigade's next activation if it is then in range; it acts in one
  activation fewer than its division has AMs, never fewer than one (``Position.acted``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING

from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import Action, Event, RuleError, Seat
from gettysburg.gbacw import fatigue
from gettysburg.gbacw.efficiency import unit_activations
from gettysburg.gbacw.facing import Facing, to_kind
from gettysburg.gbacw.kinds import ARTILLERY_COMMANDS, facing_kind, unit_class
from gettysburg.gbacw.orders import (
    LooseCannon,
    OrdersChange,
    march_after_combat,
    march_orders_change,
    reserve_broken,
)
from gettysburg.gbacw.state import marker_parts

if TYPE_CHECKING:
    from gettysburg.gbacw.engine_view import GameView as GbacwGame

#: the actions by which a unit acts in an activation (002 §3.0 III/C/3)
_ACTS = ("move", "face", "rally", "fire", "fire_split", "combined_fire", "rapid_fire")


# --- 002 §6.34 ------------------------------------------------------------------------------


def _targets(game: GbacwGame, action: Action) -> list[tuple[str, bool]]:
    """(hex id, whether it breaks Reserve) for each hex an action designates."""
    p = game.pos
    if action.get("type") == "fire":
        frm = game.hex_of(p.units[str(action["unit"])].hex)
        to = game.hex_of(str(action["target"]))
        rng = None if frm is None or to is None else frm.distance(to)
        return [(str(action["target"]), reserve_broken(fire_range=rng))]
    if action.get("type") == "shock":
        return [(str(h), reserve_broken(shocked=True)) for s in action.get("shocks", [])
                if isinstance(s, dict) for h in s.get("targets", [])]
    return []


def before_action(game: GbacwGame, action: Action, seat: Seat) -> list[Event]:
    """002 §6.34, at the designation of a shot or a shock (the action is checked first, so
    a refused one changes nothing): the target's Reserve brigades leave Reserve,
    disordered and on Advance, before the shot or the shock is resolved."""
    p = game.pos
    if action.get("type") not in ("fire", "shock") or not any(
            b.reserve and b.seat != seat for b in p.brigades.values()):
        return []
    game._check(action, seat)  # type: ignore[attr-defined]
    hit: set[str] = set()
    for hex_id, breaks in _targets(game, action):
        if not breaks:
            continue
        for k, u in p.units.items():
            if u.hex == hex_id and u.seat != seat:
                n = game.formation(k)
                if p.brigades[n].reserve:
                    hit.add(n)
    ev = [break_reserve(game, n) for n in sorted(hit)]
    if ev:
        game._memo.clear()
    return ev


def break_reserve(game: GbacwGame, brigade: str) -> Event:
    """A Reserve brigade fired on or shocked leaves Reserve, disordered, on Advance (002
    §6.34)."""
    p = game.pos
    b = p.brigades[brigade]
    b.reserve = False
    b.orders = "advance"
    units = [k for k in game.brigade_units(brigade) if game.on_map(k)]
    for k in units:
        p.units[k].disordered = True
        p.unit_orders.pop(k, None)  # the whole brigade takes Advance
    game._refacing(brigade)  # type: ignore[attr-defined]
    # Reserve and orders are the owner's to know; the disorder shows on the map
    return Event("reserve_broken", "6.34", {"brigade": brigade, "disordered": units,
                                            "orders": "advance"},
                 visible_to=(b.seat,), redacted={"disordered": units})


# --- 002 §6.25 ------------------------------------------------------------------------------


def march_roll(game: GbacwGame, brigade: str, res: OrdersChange, profile: str) -> OrdersChange:
    """002 §6.25 for a March brigade rolling on the March AM: the roll as the engine applies
    it (an aggressive Loose Cannon read as Retain; a Change & Stay's Stay moved to the
    division's first AM). Any other roll is returned as it is."""
    p = game.pos
    if p.current is None or marker_parts(p.current)[1] is not None:
        return res
    if p.brigades[brigade].orders != "march":
        return res
    mc = march_orders_change(res, profile)
    if mc.result != res.result:
        return dataclasses.replace(res, result=mc.result, change=False, stay=False)
    if mc.stay_on == "first_division_am":
        if brigade not in p.stay_next:
            p.stay_next.append(brigade)
        return dataclasses.replace(res, stay=False)
    return res


def on_marker(game: GbacwGame) -> None:
    """At a drawn marker: a brigade whose Change & Stay waits for its division's first AM
    stays still on it (002 §6.25); the last marker's Loose Cannon tasks lapse (§6.24)."""
    p = game.pos
    p.lc_tasks = {}
    division = marker_parts(p.current or "")[1]
    if division is None:
        return
    for n in list(p.stay_next):
        if p.brigades[n].division == division or (
                p.brigades[n].division is None and p.brigades[n].corps == division):
            p.brigades[n].stay = True
            p.stay_next.remove(n)


def end_turn(game: GbacwGame) -> None:
    """A Change & Stay with no division AM left lapses (002 §6.25); activations counted
    per unit start again."""
    game.pos.stay_next = []
    game.pos.acted = {}


# --- 002 §4.23, §5.36: units out of command -------------------------------------------------


def out_of_command(game: GbacwGame, key: str) -> bool:
    """Whether the unit was found out of command at the last check (002 §4.23, §5.36)."""
    return key in game.pos.command.get("units", [])


def orders_before(game: GbacwGame, action: Action) -> dict[str, str]:
    """The brigades' orders before an action that may change them (§4.23's check)."""
    if action.get("type") not in ("set_orders", "roll_orders"):
        return {}
    return {n: b.orders for n, b in game.pos.brigades.items()}


def late_orders(game: GbacwGame, before: dict[str, str]) -> list[Event]:
    """002 §4.23: when a brigade's orders changed (Division Orders or a roll), its units out
    of command keep the orders they had, facing as those orders face."""
    p = game.pos
    ev: list[Event] = []
    for n, old in sorted(before.items()):
        b = p.brigades[n]
        if b.orders == old or b.reserve:  # in Reserve: every unit, whatever its status (6.35)
            continue
        kept = []
        for k in game.brigade_units(n):
            u = p.units[k]
            if u.hex is None or not out_of_command(game, k):
                continue
            own = p.unit_orders.get(k, old)
            if own == b.orders:
                p.unit_orders.pop(k, None)
                continue
            p.unit_orders[k] = own
            if u.facing is not None:  # as the unit's orders face (artillery's, §6.18)
                u.facing = to_kind(u.facing, facing_kind(game.orders_of(k)))  # type: ignore[arg-type]
            kept.append(k)
        if kept:
            ev.append(Event("late_orders", "4.23", {"brigade": n, "units": kept,
                                                    "orders": b.orders},
                            visible_to=(b.seat,)))
    return ev


def on_activate(game: GbacwGame, brigade: str) -> list[Event]:
    """002 §4.23: at its brigade's next activation a unit that kept its old orders takes
    the brigade's, if it is in its leader's range now."""
    from gettysburg.gbacw.end_segment import in_brigadier_range
    p = game.pos
    waiting = [k for k in game.brigade_units(brigade) if k in p.unit_orders]
    if not waiting:
        return []
    b = p.brigades[brigade]
    in_range = in_brigadier_range(game, b.seat)
    taken = []
    for k in waiting:
        if in_range.get(k, False):
            del p.unit_orders[k]
            u = p.units[k]
            if u.facing is not None:
                u.facing = to_kind(u.facing, facing_kind(game.orders_of(k)))  # type: ignore[arg-type]
            taken.append(k)
    game._memo.clear()
    if not taken:
        return []
    return [Event("late_orders_taken", "4.23", {"brigade": brigade, "units": taken,
                                                "orders": b.orders}, visible_to=(b.seat,))]


def fresh(game: GbacwGame, action: Action) -> str | None:
    """The unit an action makes act for the first time in this activation, if any (002
    §5.36's count)."""
    if action.get("type") not in _ACTS:
        return None
    key = str(action.get("unit"))
    u = game.pos.units.get(key)
    if u is None or u.moves or u.fired or u.moved:
        return None
    return key


def count_act(game: GbacwGame, key: str | None) -> None:
    """Count an activation a unit out of command acted in (the others need no count; 002
    §5.36)."""
    if key is not None and out_of_command(game, key):
        game.pos.acted[key] = game.pos.acted.get(key, 0) + 1


def may_act(game: GbacwGame, key: str) -> bool:
    """002 §5.36: a unit out of command acts in one activation fewer than its division's AMs
    (at least one); units on March orders count as in command for activation (§4.23's
    note), as does a unit already acting in this activation."""
    p = game.pos
    if not out_of_command(game, key) or p.current is None:
        return True
    division = marker_parts(p.current)[1]
    if division is None:
        return True
    u = p.units[key]
    if u.moves or u.fired or u.moved:
        return True
    cap = unit_activations(max(1, min(4, p.ams.get(division, 1))), in_command=False)
    return p.acted.get(key, 0) < cap


def act_problem(game: GbacwGame, key: str) -> RuleError | None:
    """Why a unit out of command may not act in this activation, or None (002 §5.36)."""
    if may_act(game, key):
        return None
    return RuleError("5.36", f"{key} is out of command: it has acted in as many activations "
                     "as it may this turn (one fewer than its division's AMs)")


# --- 002 §4.32: divisional batteries attached to brigades ----------------------------------


def _divisional_battery(game: GbacwGame, key: str) -> str | None:
    """The division of a battery of a divisional artillery battalion, else None."""
    c = game.counter(key)
    if unit_class(c) != "artillery":
        return None
    own = game.pos.brigades.get(c.formation)
    leader = game.cat.brigade_leader.get(c.formation, "")
    if own is None or game.cat.leader_level.get(leader) != "artillery":
        return None
    return own.division if own.division in game.cat.division_corps else None


def attach_options(game: GbacwGame, seat: Seat) -> list[Action]:
    """II/C (002 §4.32): each battery of a divisional battalion may join one brigade of its
    division that has none attached yet, or go back to its battalion, once a turn; command
    range does not matter for it (it does for the battery's activations, §5.36)."""
    p, cat = game.pos, game.cat
    out: list[Action] = []
    for k, u in sorted(p.units.items()):
        if u.seat != seat or u.hex is None or k in p.attach_done:
            continue
        division = _divisional_battery(game, k)
        if division is None:
            continue
        own = game.counter(k).formation
        now = p.attached.get(k, own)
        taken = {b for x, b in p.attached.items() if x != k}
        for n in game.division_brigades(division):
            leader = cat.brigade_leader.get(n, "")
            if n == now or n in taken or cat.leader_level.get(leader) != "brigade" \
                    or not game.in_play(n):
                continue
            out.append({"type": "attach", "unit": k, "brigade": n})
        if now != own:
            out.append({"type": "attach", "unit": k, "brigade": own})
    return out


def check_attach(game: GbacwGame, action: Action, seat: Seat) -> None:
    """Refuse an attachment of a divisional battery not listed (002 §4.32)."""
    if action not in attach_options(game, seat):
        raise RuleError("4.32", f"{action['unit']!r} may not join {action['brigade']!r}: a "
                        "battery of your divisional battalion joins a brigade of its division "
                        "with no battery attached (or goes back to its battalion)")


def apply_attach(game: GbacwGame, action: Action, seat: Seat) -> list[Event]:
    """Attach the battery to the brigade, or send it back to its battalion (002 §4.32)."""
    p = game.pos
    k, n = str(action["unit"]), str(action["brigade"])
    if n == game.counter(k).formation:
        p.attached.pop(k, None)
    else:
        p.attached[k] = n
    p.attach_done.append(k)
    game._memo.clear()
    game._refacing(n)  # type: ignore[attr-defined]
    return [Event("attach", "4.32", {"unit": k, "brigade": n}, visible_to=(seat,))]


# --- 004 §4.35: Pendleton gives way to Porter Alexander ------------------------------------

PENDLETON, ALEXANDER = "pendleton", "alexander"


def swap_options(game: GbacwGame, seat: Seat) -> list[Action]:
    """004 §4.35: while Pendleton and Alexander are both on the map the Confederates may,
    for an efficiency transfer worth 2 AMs (this turn's transfer, nobody receiving),
    flip Pendleton to Alexander as chief of artillery and Alexander's battalion counter to
    its replacement."""
    from gettysburg.gbacw.efficiency import alexander_swap

    p = game.pos
    if seat != "csa" or seat in p.transferred or PENDLETON in p.acting:
        return []
    if game.leader_hex(PENDLETON) is None or game.leader_hex(ALEXANDER) is None:
        return []
    ok = set(p.command.get("transfer_ok", [])) - set(ARTILLERY_COMMANDS)
    divs = [d for d in game.divisions(seat) if d in p.ams and d in ok]
    out: list[Action] = []
    for i, a in enumerate(divs):
        for frm in ([a, a], *([a, b] for b in divs[i + 1:])):
            donors: dict[str, int] = {}
            for d in frm:
                donors[d] = donors.get(d, 0) + 1
            try:
                alexander_swap(p.ams, donors, eligible=ok)
            except (RuleError, ValueError):
                continue
            out.append({"type": "alexander_swap", "from": list(frm)})
    return out


def check_swap(game: GbacwGame, action: Action, seat: Seat) -> None:
    """Refuse an Alexander swap not listed (tdg.4.35)."""
    if action not in swap_options(game, seat):
        raise RuleError("tdg.4.35", "the swap needs Pendleton and Alexander on the map, this "
                        "turn's transfer unused, and 2 AMs from one or two divisions whose "
                        "chain reaches Lee (none below 1)")


def apply_swap(game: GbacwGame, action: Action, seat: Seat) -> list[Event]:
    """Carry out the Alexander swap: two AMs given up, Alexander acting as Pendleton (tdg.4.35)."""
    from gettysburg.gbacw.efficiency import alexander_swap
    from gettysburg.gbacw.fire_result import replacement_for

    p = game.pos
    donors: dict[str, int] = {}
    for d in action["from"]:
        donors[str(d)] = donors.get(str(d), 0) + 1
    p.ams = alexander_swap(p.ams, donors, eligible=set(donors))
    p.transferred.append(seat)
    p.acting[PENDLETON] = ALEXANDER
    back = replacement_for(game.cat.oob, ALEXANDER, set(p.dead) | {ALEXANDER}).successor
    if back is not None:
        p.acting[ALEXANDER] = back
    return [Event("alexander_swap", "tdg.4.35", {"from": list(action["from"]),
                                                 "chief": ALEXANDER, "battalion": back},
                  visible_to=(seat,))]


# --- 002 §6.24: what a Loose Cannon makes the brigade do -------------------------------------

#: tasks that forbid firing (§6.24: the charge goes in without fire; closing in, stepping
#: back and the march toward the enemy leave no room for it)
_NO_FIRE = ("charge", "shock_without_fire", "shock_no_bonus", "close_in",
            "advance_toward_enemy", "step_back")
#: tasks that oblige a move before the brigade ends
_MUST_MOVE = ("charge", "shock_without_fire", "close_in", "advance_toward_enemy")


def apply_loose_cannon(game: GbacwGame, brigade: str, lc: LooseCannon) -> list[Event]:
    """002 §6.24 in the engine (E-4): the tasks are kept for the marker
    (``Position.lc_tasks``) and bind the brigade's activation (moves toward the enemy, no
    fire, moves before it ends); a cautious brigade steps every non-artillery unit back one
    hex at once and is done for this marker."""
    p = game.pos
    seat = p.brigades[brigade].seat
    for k, task in sorted(lc.tasks.items()):
        if task != "none":
            p.lc_tasks[k] = task
    ev = [Event("loose_cannon", "6.24", {"brigade": brigade, "acts_as": lc.acts_as,
                                         "tasks": dict(sorted(lc.tasks.items())),
                                         "green_checks": sorted(lc.green_checks)},
                visible_to=(seat,))]
    if lc.acts_as != "C":
        return ev
    for k, task in sorted(lc.tasks.items()):
        if task == "step_back":
            ev += _step_back(game, k)
        p.lc_tasks.pop(k, None)
    b = p.brigades[brigade]
    b.activations += 1  # its activation is the step back (§6.24: nothing else)
    if brigade not in p.done_brigades:
        p.done_brigades.append(brigade)
    game._memo.clear()
    return ev


def _step_back(game: GbacwGame, key: str) -> list[Event]:
    """One hex straight back, keeping the facing, where a move may end; the hex farthest
    from the enemy when both rear hexes will do; none: the unit stays (a reading)."""
    p = game.pos
    u = p.units[key]
    here = game.hex_of(u.hex)
    if here is None or u.facing is None:
        return []
    f = u.facing
    rear = [here.neighbour((f.index + 3) % 6)]
    if f.kind == "vertex":
        rear.append(here.neighbour((f.index + 4) % 6))
    reach = game.reach(key)
    enemy = game.enemy_hexes(u.seat)
    options = [h for h in rear if (h, f) in reach]
    if not options:
        return [Event("loose_cannon_step_back", "6.24", {"unit": key, "from": u.hex,
                                                         "to": None})]
    to = max(options, key=lambda h: (min((h.distance(e) for e in enemy), default=0),
                                     -h.q, -h.r))
    from gettysburg.gbacw.extended_combat import withdraw_parts

    frm = u.hex
    u.hex = game.cat.board.hexes[to].id
    u.moved = True
    parts = withdraw_parts(game, key, here, to)  # 002 §8.44: a line whole, else gathered
    game._memo.clear()
    return [Event("loose_cannon_step_back", "6.24", {"unit": key, "from": frm, "to": u.hex,
                                                      **parts})]


def _distances(game: GbacwGame, seat: Seat) -> Callable[[Hex], int]:
    """The distance from a hex to the nearest enemy of ``seat`` (0 with no enemy on the
    map), for one position: the enemy's hexes read once and each hex's distance worked out
    once (a destination hex comes with up to six facings and the filters ask twice; on the
    big map, asked afresh each time, that was millions of hex distances a game)."""
    enemies = tuple(game.enemy_hexes(seat))
    known: dict[Hex, int] = {}

    def distance(h: Hex) -> int:
        d = known.get(h)
        if d is None:
            d = known[h] = min((h.distance(e) for e in enemies), default=0)
        return d
    return distance


def lc_destinations(game: GbacwGame, key: str,
                    dests: list[tuple[Hex, Facing]]) -> list[tuple[Hex, Facing]]:
    """The moves a Loose Cannon leaves a unit (002 §6.24): a charging unit to a hex next to
    the enemy when it can reach one; a unit closing in or marching on the enemy as close to
    the nearest enemy as it can get; a unit already adjacent stays to shock."""
    task = game.pos.lc_tasks.get(key)
    if task is None or not dests:
        return dests
    seat = game.pos.units[key].seat
    if task == "shock_no_bonus":
        return []
    distance = _distances(game, seat)
    if task in ("charge", "shock_without_fire"):
        near = [d for d in dests if distance(d[0]) == 1]
        return near or dests
    if task in ("close_in", "advance_toward_enemy"):
        best = min(distance(d[0]) for d in dests)
        return [d for d in dests if distance(d[0]) == best]
    return dests


def lc_move_problem(game: GbacwGame, key: str, to: Hex, facing: Facing) -> RuleError | None:
    """Why a Loose Cannon's unit may not end its move there, or None (002 §6.24)."""
    if key not in game.pos.lc_tasks or (to, facing) in game.destinations(key):
        return None
    return RuleError("6.24", f"{key}: the Loose Cannon sends it toward the enemy "
                     f"({game.pos.lc_tasks[key]})")


def fire_problem(game: GbacwGame, key: str) -> RuleError | None:
    """Why a Loose Cannon's unit may not fire, or None (002 §6.24)."""
    task = game.pos.lc_tasks.get(key)
    if task in _NO_FIRE:
        return RuleError("6.24", f"{key} may not fire: the Loose Cannon's {task}")
    return None


def owes_move(game: GbacwGame) -> list[str]:
    """Units of the active brigade a Loose Cannon still obliges to move (002 §6.24)."""
    from gettysburg.gbacw.formation_step import blocks_move

    p = game.pos
    if p.brigade is None or not p.lc_tasks:
        return []
    return [k for k in game.activation_units() if game.may_move(game.formation(k))
            and p.lc_tasks.get(k) in _MUST_MOVE and not p.units[k].moves
            and k in game.active_units() and not game._fired_instead(k)
            and blocks_move(game, k) is None and game.destinations(k)]


# --- 002 §6.26: a March brigade fired on ----------------------------------------------------


def march_hexes(game: GbacwGame) -> dict[str, list[str]]:
    """Hex id -> the March brigades with a unit there, before an action (their units may
    have left the hex by the time its shots are read; 002 §6.26). A brigade counts as on
    March here too through a unit still on March orders of its own (§4.23)."""
    p = game.pos
    out: dict[str, list[str]] = {}
    for k, u in p.units.items():
        if u.hex is not None:
            n = game.formation(k)
            marching = p.brigades[n].orders == "march" or p.unit_orders.get(k) == "march"
            if marching and n not in out.get(u.hex, []):
                out.setdefault(u.hex, []).append(n)
    return out


def _own_march(game: GbacwGame, brigade: str) -> bool:
    """Whether a unit of the brigade still holds March orders of its own (002 §4.23)."""
    return any(game.pos.unit_orders.get(k) == "march" for k in game.brigade_units(brigade))


def combat_orders(game: GbacwGame, brigade: str) -> str:
    """002 §6.26 with §4.23: what is on March in a brigade shocked or fired on goes to
    Advance: the brigade if its orders are March, and its units still on March orders of
    their own (out of command at an earlier change). Combat is no orders-change roll, so
    command range plays no part; other orders are not changed (a unit that kept March in a
    brigade now on Attack is on Advance until it takes the brigade's orders, :func:`on_activate`).
    Every unit then faces as its orders say (§7.1, through the engine's refacing). Returns
    the brigade's orders."""
    p = game.pos
    b = p.brigades[brigade]
    if b.orders == "march":
        b.orders = march_after_combat("march", shocked=True)
    for k in game.brigade_units(brigade):
        own = p.unit_orders.get(k)
        if own == b.orders or (own == "march" and b.orders == "advance"):
            del p.unit_orders[k]
        elif own == "march":
            p.unit_orders[k] = "advance"
    game._refacing(brigade)  # type: ignore[attr-defined]
    game._memo.clear()
    return b.orders


def note_fired_on(game: GbacwGame, events: list[Event], marching: dict[str, list[str]]) -> None:
    """Each shot of an action (``fire`` events) at a hex where a March brigade stood, by
    anything but artillery shell (002 §6.26)."""
    p = game.pos
    for e in events:
        if e.type != "fire" or e.data.get("ammunition") == "shell":
            continue
        for n in marching.get(str(e.data.get("target")), []):
            if n not in p.fired_on:
                p.fired_on.append(n)


def fatigue_orders(game: GbacwGame, brigade: str) -> None:
    """002 §17.32: a brigade at Fatigue 4 is on Advance at once, and so is each of its units
    (orders a unit kept out of command, §4.23, end here too: the brigade may hold neither
    March nor Attack); every unit then faces as its orders say (§7.1)."""
    p = game.pos
    b = p.brigades[brigade]
    forced = fatigue.forced_orders(b.fatigue, b.orders)
    if forced != "advance" or (b.orders == forced and not any(
            k in p.unit_orders for k in game.brigade_units(brigade))):
        return
    b.orders = forced
    for k in game.brigade_units(brigade):
        p.unit_orders.pop(k, None)
    game._refacing(brigade)  # type: ignore[attr-defined]
    game._memo.clear()


def march_fired_on(game: GbacwGame) -> list[Event]:
    """At the end of the enemy brigade's activation: the March brigades it fired on take
    Advance orders (002 §6.26 through :func:`combat_orders`) and activate on their
    division's remaining AMs."""
    p = game.pos
    ev: list[Event] = []
    for n in sorted(p.fired_on):
        b = p.brigades[n]
        if b.orders != "march" and not _own_march(game, n):
            continue  # nothing on March any more (a Reserve broken by the same shot, 6.34)
        new = combat_orders(game, n)
        ev.append(Event("march_fired_on", "6.26", {"brigade": n, "orders": new},
                        visible_to=(b.seat,), redacted=None))
    p.fired_on = []
    if ev:
        game._memo.clear()
    return ev
