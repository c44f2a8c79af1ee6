"""The turn and phase machine (1.x, 9.5, 9.7) and what happens between phases.

Each hour: initiative (1.1, 2d6 each, ties re-rolled; or CSA then USA with the fixed
order option), then player 1's and player 2's turns of five phases (1.2): command, fire,
movement, melee, supply. Day turns run 8 AM to 8 PM; a night turn (9.7) has only a
movement and a (night) supply phase, since there is no combat at night (9.71).

Scenario ends (boc-facts.md 4): Day 1 after its 8 PM turn; Day 2 and Day 3 after the
night turn; the full battle (9.5) judges after each day's 8 PM turn, goes on after a draw
(through the night turn into the next day) and has no night after Day 3 (2.4 note).
"""

from __future__ import annotations

from gettysburg.boc.board import Board
from gettysburg.boc.command import DHQ_TYPES, Orders, roles
from gettysburg.boc.control import compute_control, front_line, index
from gettysburg.boc.oob import ARTILLERY_TYPES, HQ_TYPES
from gettysburg.boc.state import (
    ELIMINATED,
    FIRST_HOUR,
    LAST_HOUR,
    NIGHT_HOUR,
    OFF_MAP,
    ON_MAP,
    RESERVE,
    WITHDRAWN,
    BocState,
    UnitState,
    clock,
    other,
)
from gettysburg.boc.supply import NIGHT_POINTS
from gettysburg.boc.victory import csa_total, verdict
from gettysburg.core.canonical import JSONDict
from gettysburg.core.dice import Dice
from gettysburg.core.protocol import Event, dice_event

DAY_PHASES = ("command", "fire", "movement", "melee", "supply")
NIGHT_PHASES = ("movement", "supply")  # 9.71 no combat at night
FIXED_ORDER = ("csa", "usa")  # 1.1 box: CSA plays first every hour
OPT_FIXED = "fixed_turn_order"
OPT_COLUMN = "column_line"
OPT_HANCOCK = "hancock"
OPT_FREE = "free_deployment"
DEPLOY = "deploy"  # 9.6 free deployment, before the first turn
# Entry roads the 2.4 return and 9.74 night reinforcements use.
NIGHT_ROADS = ("Taneytown Road", "Emmitsburg Road", "Littlestown Road")
NIGHT_CORPS = "II"  # 9.74 names the night reinforcements: the Union's II Corps


def phases(state: BocState) -> tuple[str, ...]:
    return NIGHT_PHASES if state.night else DAY_PHASES


def eliminate(state: BocState, orders: Orders, unit: UnitState, rule: str,
              why: str) -> Event:
    """Remove a block; it counts for the enemy (9.12). A fallen DHQ is rebuilt in its
    side's next supply phase, a fallen CHQ or AHQ is not (4.61)."""
    was = unit.hex
    unit.status, unit.hex = ELIMINATED, None
    unit.cmd_active = unit.in_command = unit.sup_active = False
    state.losses[unit.side] += 1
    kind = orders.oob[unit.id].type
    if kind in HQ_TYPES:
        state.fallen[unit.id] = state.now
        if kind in DHQ_TYPES and unit.id not in state.rebuild:
            state.rebuild.append(unit.id)
    return Event("eliminated", rule, {"unit": unit.id, "side": unit.side, "hex": was,
                                      "why": why, "fallen_leader": kind in HQ_TYPES})


def check_stacking(board: Board, state: BocState, orders: Orders, column_rule: bool
                   ) -> list[Event]:
    """6.2: at the end of every phase a hex may hold no more units than its limit; the
    excess is eliminated. Decision (the rules do not say who picks): the units that
    entered the hex last go first (highest arrival sequence, then unit id), so the result
    is deterministic and never up to the player who caused it."""
    events: list[Event] = []
    over: list[tuple[str, list[UnitState], int]] = []
    for hx, units in state.occupants().items():
        limit = board.hex(hx).stacking
        if column_rule and any(u.column for u in units):
            limit = 1  # column/line box: a hex with a column holds only that unit
        if len(units) > limit:
            over.append((hx, units, limit))
    over.sort(key=lambda o: o[0])  # by hex, as before; only the hexes over their limit
    for hx, units, limit in over:
        excess = sorted(units, key=lambda u: (-u.seq, u.id))[: len(units) - limit]
        for u in excess:
            events.append(eliminate(state, orders, u, "6.2",
                                    f"over the stacking limit of {hx} ({limit})"))
    return events


def reveal_front_artillery(board: Board, state: BocState, orders: Orders) -> list[Event]:
    """6.63: artillery in a front-line hex is revealed (the passive side's after the
    active player's movement, which is when this runs)."""
    events = []
    for side in ("usa", "csa"):
        front = front_line(board, state, side)
        for u in state.on_map(side):
            if not u.revealed and u.hex in front \
                    and orders.oob[u.id].type in ARTILLERY_TYPES:
                u.revealed = True
                events.append(Event("revealed", "6.63", {"unit": u.id, "side": side,
                                                         "hex": u.hex,
                                                         "strength": u.strength}))
    return events


def start_supply(board: Board, state: BocState, orders: Orders) -> list[Event]:
    """8.1: blocks stand up again except artillery in front-line hexes (6.63); 4.61: fallen
    DHQs of the phasing side come back at strength 0 with their CHQ (or the AHQ)."""
    events: list[Event] = []
    hidden = 0
    for side in ("usa", "csa"):
        front = front_line(board, state, side)
        for u in state.on_map(side):
            if u.revealed and not (u.hex in front and orders.oob[u.id].type in
                                   ARTILLERY_TYPES):
                u.revealed = False
                hidden += 1
    if hidden:
        events.append(Event("hidden", "8.1", {"blocks": hidden}))
    if state.night:
        state.night_points[state.active] = NIGHT_POINTS[state.active]
    events += rebuild_dhqs(board, state, orders)
    return events


def rebuild_dhqs(board: Board, state: BocState, orders: Orders) -> list[Event]:
    """4.61: a fallen DHQ returns free at strength 0 in its CHQ's hex, or the AHQ's if the
    CHQ is not on the map. Decision: if that hex is full it waits for a later supply
    phase rather than overstacking (which 6.2 would punish at once)."""
    events: list[Event] = []
    occ = state.occupants()
    for uid in list(state.rebuild):
        unit = state.units[uid]
        if unit.side != state.active:
            continue
        label = orders.oob[uid]
        r = roles(state, orders, unit.side)
        leader = r.chq.get(label.corps)
        if leader is None or leader == uid:
            leader = r.ahq
        host = state.units.get(leader) if leader else None
        if host is None or host.hex is None or host.status != ON_MAP:
            continue
        if len(occ.get(host.hex, [])) >= board.hex(host.hex).stacking:
            continue
        state.rebuild.remove(uid)
        unit = replacement(state, orders, unit)
        unit.status, unit.hex, unit.strength = ON_MAP, host.hex, 0
        unit.revealed, unit.seq = False, state.next_seq()
        unit.returned += 1
        occ.setdefault(host.hex, []).append(unit)
        uid = unit.id
        # The owner sees who came back; the enemy sees a block appear with the host HQ.
        events.append(Event("rebuilt", "4.61", {"unit": uid, "side": unit.side,
                                                "hex": host.hex, "strength": 0},
                            visible_to=(unit.side,),
                            redacted={"side": unit.side, "hex": host.hex}))
    return events


def replacement(state: BocState, orders: Orders, fallen: UnitState) -> UnitState:
    """4.61 / hierarchy.yaml: a fallen DHQ with a designated replacement (Trimble for
    Pender) is replaced by that block, if it is not in play yet, instead of coming back."""
    sc = orders.hierarchy.side(fallen.side)  # type: ignore[arg-type]
    for sp in sc.special:
        if sp.kind == "replacement" and sp.replaces == fallen.id:
            current = state.units.get(sp.unit)
            if current is None:
                current = UnitState(sp.unit, fallen.side, RESERVE, None, 0)
                state.units[sp.unit] = current
            if current.status == RESERVE:
                return current
    return fallen


def start_phase(board: Board, state: BocState, orders: Orders) -> list[Event]:
    if state.phase == "movement":
        state.side_use = {}
        state.entry_roads = {} if state.night else state.entry_roads
        for u in state.units.values():
            if u.moved is not False or u.mp_used != 0:  # a block's write only if it
                u.moved, u.mp_used = False, 0  # changes (unit_edits notes each write)
    if state.phase == "supply":
        return start_supply(board, state, orders)
    return []


def end_phase_effects(board: Board, state: BocState, orders: Orders) -> list[Event]:
    events: list[Event] = []
    if state.phase in ("movement", "melee"):
        # 6.63: after the movement, and again after melee retreats and regroups, which
        # can also bring artillery into the front line.
        events += reveal_front_artillery(board, state, orders)
    if state.phase == "melee":
        # 4.3: every HQ activated in the command phase loses a step after the melee phase.
        for u in state.on_map(state.active):
            if u.cmd_active:
                u.strength = max(0, u.strength - 1)
                events.append(Event("command_cost", "4.3", {"unit": u.id, "side": u.side,
                                                           "strength": u.strength}))
        for u in state.units.values():
            if u.cmd_active is not False or u.in_command is not False:
                u.cmd_active = u.in_command = False
    if state.phase == "supply":
        for u in state.units.values():
            if u.sup_active is not False or u.supplied is not False:
                u.sup_active = u.supplied = False
        state.supply_points = {}
        state.night_points = {}
    return events


def roll_initiative(state: BocState, dice: Dice) -> list[Event]:
    """1.1: both players roll 2d6, the higher total is player 1; ties are rolled again."""
    if OPT_FIXED in state.options:
        state.order = list(FIXED_ORDER)
        return [Event("initiative", "1.1", {"order": state.order, "fixed": True})]
    first = dice.counter
    while True:
        usa = sum(dice.roll_n(2, "initiative usa", "1.1"))
        csa = sum(dice.roll_n(2, "initiative csa", "1.1"))
        if usa != csa:
            break
    state.order = ["usa", "csa"] if usa > csa else ["csa", "usa"]
    return [dice_event(dice.rolls_since(first)),
            Event("initiative", "1.1", {"usa": usa, "csa": csa, "order": state.order})]


def judge(board: Board, state: BocState) -> JSONDict:
    """9.1: the CSA total and who it makes the winner (``None`` = draw)."""
    score = csa_total(board, state)
    winner = verdict(int(score["total"]), state.bands)
    out: JSONDict = {"day": state.day, "winner": winner, **score}
    state.verdicts.append(out)
    return out


def finish(state: BocState, last: JSONDict) -> Event:
    state.over = True
    # 2.4: with no night to come, units off the map have left the battle.
    for u in state.units.values():
        if u.status == OFF_MAP:
            u.status = WITHDRAWN
    state.result = {"winner": last["winner"], "csa_vp": last["total"],
                    "day": last["day"], "verdicts": list(state.verdicts)}
    return Event("game_over", "9.1", dict(state.result))


def return_hexes(board: Board, state: BocState) -> None:
    """2.4: units off the map come back in the night at the nearest entry-road hex that is
    friendly or neutral to them. Ties go to the lowest hex id."""
    idx = index(board)
    entries = sorted(i.id for i in board.hexes.values() if i.entries)
    for u in state.units.values():
        if u.status != OFF_MAP or u.exit_hex is None:
            continue
        ok = [e for e in entries if state.control.get(e) != other(u.side)]
        if not ok:
            continue
        best = min(ok, key=lambda e: (idx.distance(e, u.exit_hex or e), e))
        u.arrival_key, u.arrival_hex, u.arrival_entry = state.now, best, None


def advance_clock(board: Board, state: BocState, dice: Dice) -> list[Event]:
    """After player 2's turn: move the time marker, judge days, roll initiative."""
    events: list[Event] = []
    if state.hour == LAST_HOUR:
        night_follows = not (state.campaign and state.day >= 3) and (
            state.campaign or state.ends_after_night or state.day < state.last_day)
        if state.campaign:
            last = judge(board, state)
            events.append(Event("verdict", "9.5", dict(last)))
            if last["winner"] is not None or state.day >= 3:
                events.append(finish(state, last))
                return events
        elif not night_follows:
            events.append(finish(state, judge(board, state)))
            return events
        state.hour = NIGHT_HOUR
    elif state.hour == NIGHT_HOUR:
        if not state.campaign and state.day >= state.last_day:
            events.append(finish(state, judge(board, state)))
            return events
        state.day, state.hour = state.day + 1, FIRST_HOUR
        # 2.4: units still off the map after their night stay out, available to re-enter.
    else:
        state.hour += 1
    # 2.4 (es): units come back in the night only when another day follows it; in a
    # one-day scenario whose last turn is a night (9.3) they stay off (withdrawn at the end).
    if state.night and (state.campaign or state.day < state.last_day):
        return_hexes(board, state)
    events.append(Event("time", "1.3", clock(state.day, state.hour)))
    events += roll_initiative(state, dice)
    state.player_index = 0
    state.active = state.order[0]
    state.phase = phases(state)[0]
    return events


def end_player_turn(board: Board, state: BocState, dice: Dice) -> list[Event]:
    """6.6: control changes only at the end of a player turn."""
    state.control = compute_control(board, state)
    for u in state.units.values():
        if u.fired is not False:
            u.fired = False
    if state.player_index == 0:
        state.player_index = 1
        state.active = state.order[1]
        state.phase = phases(state)[0]
        return [Event("player_turn", "1.3", {"active": state.active})]
    return advance_clock(board, state, dice)


def end_deploy(board: Board, state: BocState) -> list[Event]:
    """9.6: the sides finish their swaps in set-up order (9.2: USA first); then the first
    turn begins with the scenario's player 1."""
    state.deploy.remove(state.active)
    if state.deploy:
        state.active = state.deploy[0]
        return [Event("phase", "9.6", {"phase": DEPLOY, "active": state.active})]
    state.control = compute_control(board, state)
    state.player_index, state.active = 0, state.order[0]
    state.phase = phases(state)[0]
    return [Event("phase", "1.2", {"phase": state.phase, "active": state.active})]


def end_phase(board: Board, state: BocState, orders: Orders, dice: Dice,
              column_rule: bool) -> list[Event]:
    if state.phase == DEPLOY:
        events = end_deploy(board, state)
        if state.phase != DEPLOY:  # 6.63: the set-up is final; its front line is known
            events += reveal_front_artillery(board, state, orders)
        return events
    events = end_phase_effects(board, state, orders)
    events += check_stacking(board, state, orders, column_rule)
    seq = phases(state)
    at = seq.index(state.phase)
    if at + 1 < len(seq):
        state.phase = seq[at + 1]
        events.append(Event("phase", "1.2", {"phase": state.phase, "active": state.active}))
    else:
        events += end_player_turn(board, state, dice)
        if state.over:
            return events
        events.append(Event("phase", "1.2", {"phase": state.phase, "active": state.active}))
    events += start_phase(board, state, orders)
    return events
