"""Melee (7.x) as a small state machine kept in JSON (:class:`MeleeState`).

Movement phase - declarations (the attackers stay in their own hex in the state until they
win; the battle remembers where each came from)::

    {"type": "melee", "unit": U, "target": HEX}                       # 7.1 supported
    {"type": "melee", "unit": U, "target": HEX, "unsupported": true}  # 7.8
    {"type": "melee", "unit": U, "target": EDGE_HEX, "entry": ROAD}   # 6.7 from an entry road

Melee phase - resolution, hex by hex in the active player's order (7.1)::

    {"type": "melee_resolve", "hex": HEX}        # active player: which melee next
    {"type": "melee_fight", "unit": U}           # the unit's turn: fight (7.2)
    {"type": "melee_retreat", "unit": U, "to": HEX | "off"}   # or retreat (7.7)
    {"type": "melee_line", "unit": U}            # column box: a column defender forms line
    {"type": "casualty", "unit": U}              # owner's pick among equal blocks (5.23)
    {"type": "regroup", "unit": U, "to": HEX}    # 7.9 winners pull back / reinforce
    {"type": "regroup_done"}

:func:`melee_decision` says who must act and offers exactly the legal answers;
:func:`melee_act` applies one. Forced retreats (an attacker's turn in the last round) are
played automatically, since nothing is left to choose.

Decisions where the rules leave room (German text wins):

* Column box (6.0, optional): a block in column may not attack; defending, it retreats or
  forms line (``melee_line``) in round 1.
* 7.1 + de player aid: a unit may attack only a hex that was adjacent before it moved, so
  only units that have not moved this phase may declare; declaring ends their movement.
  Units that fired cannot move (6.1) and so cannot attack. HQs never attack (7.5), nor does
  artillery (7.4); horse artillery may.
* 7.1: one attacker per hexside of the target; attackers per hex at most the target's
  stacking limit (6.2). 7.8: an unsupported melee is one unit alone against its hex, and no
  other attack may join it. 6.7: one or two units per enemy-held entry hex, without
  command, from off the map; they may join other attacks on that hex and retreat off the
  map.
* 7.2 turn order: by morale letter A to D; within a letter the defender's blocks first.
  Within one letter and side the owner picks which of its blocks acts next.
* 7.3 terrain: the attacker's round-1 penalty comes from the hexside it crossed (roads
  ignored, bridges/fords count the stream). Entry attackers cross no hexside: no penalty.
* 7.7 retreats: an attacker goes back to the hex it came from (off the map for entry
  attackers); a defender goes to an adjacent hex friendly in the 6.6 snapshot and free of
  enemy blocks, only if there is none to a neutral one, never into the hex of a melee not
  yet resolved, one block per hexside per round, or off the map from an edge hex (2.4).
  Stacking is not checked on retreat: 6.2 removes any excess at the end of the phase.
* 7.9 regroup: the winner's blocks in the hex may pull back to adjacent friendly hexes (6.6
  snapshot, free of enemy blocks, not an unresolved melee hex) and friendly blocks in
  adjacent hexes may move in (up to the hex's stacking limit), one block per hexside in
  either direction. Blocks waiting for another melee of their own do not regroup.
* Won hexes: the attackers that are still in the battle move into it.
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass, field, fields
from typing import Any, Final

from gettysburg.boc.board import Board
from gettysburg.boc.combat import (
    MELEE,
    MORALE_ORDER,
    Context,
    Decision,
    HitQueue,
    apply_hits,
    choose_casualty,
    firepower,
    hexside_penalty,
    is_hq,
    roll_hits,
)
from gettysburg.boc.command import Orders, needs_command
from gettysburg.boc.control import index
from gettysburg.boc.state import ELIMINATED, OFF_MAP, ON_MAP, WITHDRAWN, BocState, other
from gettysburg.core.canonical import JSONDict
from gettysburg.core.dice import Dice
from gettysburg.core.lazy_actions import fresh
from gettysburg.core.protocol import Action, Event, RuleError

SUPPORTED: Final = "supported"
UNSUPPORTED: Final = "unsupported"
ENTRY: Final = "entry"
CAVALRY: Final = "cavalry"  # 10.0 off-map cavalry battle
OFF: Final = "off"

ROUNDS: Final = {SUPPORTED: 3, ENTRY: 3, UNSUPPORTED: 2, CAVALRY: 3}  # 7.2, 7.8, 10.0


@dataclass
class Attack:
    unit: str
    target: str
    from_hex: str | None  # None: from off the map (6.7)
    kind: str  # SUPPORTED / UNSUPPORTED / ENTRY
    entry: str | None = None


@dataclass
class Battle:
    """One melee being fought."""

    hex: str | None  # None for an off-map cavalry battle (10.0)
    attacker: str  # attacking side
    kind: str
    attackers: dict[str, str | None]  # unit -> hex it came from (still fighting)
    defenders: list[str]  # still fighting
    penalty: dict[str, int] = field(default_factory=dict)  # 7.3 round-1 penalty
    round: int = 1
    acted: list[str] = field(default_factory=list)  # took their turn this round
    retreat_sides: list[str] = field(default_factory=list)  # 7.7 this round
    hits: JSONDict | None = None  # HitQueue waiting for the owner's choice
    winner: str | None = None  # side, or "stalemate"
    regroup_sides: list[str] = field(default_factory=list)  # 7.9
    regrouped: list[str] = field(default_factory=list)  # 7.9 blocks that already regrouped
    over: bool = False

    @property
    def rounds(self) -> int:
        return ROUNDS[self.kind]

    @property
    def forced_retreat(self) -> bool:
        """7.2 / 7.8: attackers leave in the last round; 10.0: not in cavalry battles."""
        return self.kind != CAVALRY

    def side_of(self, uid: str) -> str:
        return self.attacker if uid in self.attackers else other(self.attacker)

    def fighting(self) -> list[str]:
        return sorted([*self.attackers, *self.defenders])

    def to_json(self) -> JSONDict:
        return {name: fresh(getattr(self, name)) for name in _BATTLE_FIELDS}

    @staticmethod
    def from_json(data: dict[str, Any]) -> Battle:
        return Battle(**data)


# ``asdict``'s data, made without its generic deep copy (issue 59: the melee state is
# written back after every melee action): an attack's fields are text or None, a battle's
# are JSON values (its lists and dicts copied all the way down).
_ATTACK_FIELDS: Final = tuple(f.name for f in fields(Attack))
_BATTLE_FIELDS: Final = tuple(f.name for f in fields(Battle))


@dataclass
class MeleeState:
    """Declared attacks, resolved hexes and the battle in progress."""

    attacks: list[Attack] = field(default_factory=list)
    resolved: list[str] = field(default_factory=list)
    battle: Battle | None = None
    retreated: list[str] = field(default_factory=list)  # blocks that left a melee (7.7)

    def to_json(self) -> JSONDict:
        return {"attacks": [{name: getattr(a, name) for name in _ATTACK_FIELDS}
                            for a in self.attacks], "resolved": list(self.resolved),
                "battle": self.battle.to_json() if self.battle else None,
                "retreated": list(self.retreated)}

    @staticmethod
    def from_json(data: dict[str, Any] | None) -> MeleeState:
        if not data:
            return MeleeState()
        b = data.get("battle")
        return MeleeState([Attack(**a) for a in data.get("attacks", [])],
                          list(data.get("resolved", [])),
                          Battle.from_json(b) if b else None, list(data.get("retreated", [])))

    def on(self, target: str) -> list[Attack]:
        return [a for a in self.attacks if a.target == target]

    def unresolved(self) -> list[str]:
        return sorted({a.target for a in self.attacks} - set(self.resolved))

    def declared(self, uid: str) -> bool:
        return any(a.unit == uid for a in self.attacks)


def side_key(a: str, b: str) -> str:
    return f"{a}|{b}" if a < b else f"{b}|{a}"


# --- declarations (movement phase) -----------------------------------------------------


def attack_problem(state: BocState, orders: Orders, uid: str, unsupported: bool) -> str | None:
    """Why ``uid`` may not declare a melee from the map now (7.1, 7.4, 7.5, 7.8)."""
    u = state.units[uid]
    unit = orders.oob[uid]
    if u.status != ON_MAP or u.hex is None:
        return "the unit is not on the map"
    if is_hq(unit):
        return "HQs only defend in melee (7.5)"
    if unit.type == "artillery":
        return "artillery cannot attack in melee (7.4)"
    if u.fired or u.moved or u.mp_used:
        return "only units that have neither fired nor moved may attack (7.1, 6.1)"
    if u.strength <= 0:
        return "the unit has no strength left"
    if u.column:
        return "a unit in column cannot fight; it forms line first (6.0 column box)"
    if not unsupported and needs_command(orders, uid) and not u.in_command:
        return "a supported melee needs command (7.1); see 7.8 for unsupported melee"
    return None


def _target_problem(board: Board, state: BocState, ms: MeleeState, side: str, target: str,
                    kind: str, from_hex: str | None,
                    enemy: Container[str | None] | None = None) -> tuple[str, str] | None:
    """(rule, reason) why another attacker of ``kind`` may not join the melee on
    ``target``, or None (``enemy``: the hexes of the enemy's blocks, if the caller has
    them: ``melee_declare_options`` asks for every block next to the enemy)."""
    if enemy is None:
        enemy = {u.hex for u in state.on_map(other(side))}
    if target not in enemy:
        return "7.1", f"{target} holds no enemy block"
    there = ms.on(target)
    if target in ms.resolved:
        return "7.1", f"the melee on {target} is already resolved"
    if any(a.kind == UNSUPPORTED for a in there) or (kind == UNSUPPORTED and there):
        return "7.8", "an unsupported melee is one unit alone against its hex"
    if len(there) >= board.hex(target).stacking:
        return "7.1", f"attackers may not exceed the stacking limit of {target} (6.2)"
    if from_hex is not None and any(a.from_hex == from_hex for a in there):
        return "7.1", "only one unit may attack across each hexside"
    if kind == ENTRY and sum(1 for a in there if a.kind == ENTRY) >= 2:
        return "6.7", "at most two units per entry hex may attack from the road"
    return None


target_problem = _target_problem  # public name: the game checks declarations without state


def melee_declare_options(board: Board, state: BocState, orders: Orders, side: str,
                          ms: MeleeState) -> list[Action]:
    """Legal on-map declarations: supported for units under command (or Berdan), the 7.8
    unsupported form for units without command."""
    idx = index(board)
    enemy = {u.hex for u in state.on_map(other(side))}
    acts: list[Action] = []
    declared = {a.unit for a in ms.attacks}
    for u in sorted(state.on_map(side), key=lambda x: x.id):
        if u.id in declared or u.hex is None:
            continue
        targets = [t for t in idx.nbrs[u.hex] if t in enemy]
        if not targets:
            continue  # cheap test first: legal_actions runs this for every block
        supported = attack_problem(state, orders, u.id, False) is None
        if not supported and attack_problem(state, orders, u.id, True) is not None:
            continue
        kind = SUPPORTED if supported else UNSUPPORTED
        for t in targets:
            if _target_problem(board, state, ms, side, t, kind, u.hex, enemy) is None:
                act: Action = {"type": "melee", "unit": u.id, "target": t}
                if not supported:
                    act["unsupported"] = True
                acts.append(act)
    return acts


def declare(board: Board, state: BocState, orders: Orders, side: str, ms: MeleeState,
            action: Action, entry_hexes: list[str] | None = None) -> Event:
    """Record a melee declaration. ``entry_hexes``: for a 6.7 entry attack, the edge hexes
    the unit may enter at now (the movement rules know them)."""
    uid, target = str(action.get("unit", "")), str(action.get("target", ""))
    u = state.units.get(uid)
    if u is None or u.side != side:
        raise RuleError("7.1", f"{uid!r} is not one of your units")
    if ms.declared(uid):
        raise RuleError("7.1", f"{uid} has already declared a melee")
    if action.get("entry"):
        attack = _entry_attack(board, state, orders, side, ms, uid, target, action,
                               entry_hexes or [])
    else:
        attack = _map_attack(board, state, orders, side, ms, uid, target, action)
    ms.attacks.append(attack)
    u.moved = True  # the attack is its move (7.1)
    data: JSONDict = {"unit": uid, "side": side, "from": attack.from_hex, "target": target,
                      "kind": attack.kind}
    return Event("melee_declared", "7.1", data, visible_to=(side,),
                 redacted={"side": side, "from": attack.from_hex, "target": target,
                           "kind": attack.kind})


def _map_attack(board: Board, state: BocState, orders: Orders, side: str, ms: MeleeState,
                uid: str, target: str, action: Action) -> Attack:
    unsupported = bool(action.get("unsupported"))
    why = attack_problem(state, orders, uid, unsupported)
    if why is not None:
        raise RuleError("7.8" if unsupported else "7.1", why)
    u = state.units[uid]
    assert u.hex is not None
    if target not in index(board).nbrs[u.hex]:
        raise RuleError("7.1", f"{target} is not adjacent to {u.hex}")
    kind = UNSUPPORTED if unsupported else SUPPORTED
    bad = _target_problem(board, state, ms, side, target, kind, u.hex)
    if bad is not None:
        raise RuleError(*bad)
    return Attack(uid, target, u.hex, kind)


def _entry_attack(board: Board, state: BocState, orders: Orders, side: str, ms: MeleeState,
                  uid: str, target: str, action: Action, entry_hexes: list[str]) -> Attack:
    u = state.units[uid]
    unit = orders.oob[uid]
    if u.status == ON_MAP or is_hq(unit) or unit.type == "artillery":
        raise RuleError("6.7", "only arriving combat units may attack from an entry road")
    if target not in entry_hexes:
        raise RuleError("6.7", f"{target} is not an entry hex this unit may use now")
    bad = _target_problem(board, state, ms, side, target, ENTRY, None)
    if bad is not None:
        raise RuleError(*bad)
    return Attack(uid, target, None, ENTRY, str(action.get("entry")))


# --- resolution ------------------------------------------------------------------------


def start_battle(board: Board, state: BocState, orders: Orders, ms: MeleeState,
                 target: str, side: str) -> list[Event]:
    """The active player picks the next melee (7.1); every block in it is revealed."""
    if ms.battle is not None:
        raise RuleError("7.1", "finish the current melee first")
    if target not in ms.unresolved():
        raise RuleError("7.1", f"no unresolved melee on {target}")
    attacks = [a for a in ms.on(target)
               if state.units[a.unit].status not in (ELIMINATED, WITHDRAWN)]
    kind = attacks[0].kind if attacks else SUPPORTED
    if any(a.kind == SUPPORTED for a in attacks):
        kind = SUPPORTED
    defenders = sorted(u.id for u in state.on_map(other(side)) if u.hex == target)
    b = Battle(target, side, kind, {a.unit: a.from_hex for a in attacks}, defenders)
    for a in attacks:
        if a.from_hex is not None:
            b.penalty[a.unit] = hexside_penalty(board, a.from_hex, target, MELEE)
    ms.battle = b
    events = [_reveal(state, b)]
    return events + advance(board, state, orders, ms)


def _reveal(state: BocState, b: Battle) -> Event:
    blocks = []
    for uid in b.fighting():
        u = state.units[uid]
        u.revealed = True  # 7.1: all blocks in a melee are revealed
        blocks.append({"unit": uid, "side": u.side, "strength": u.strength})
    return Event("melee_started", "7.1", {"hex": b.hex, "attacker": b.attacker,
                                          "kind": b.kind, "blocks": blocks,
                                          "from": {k: v for k, v in sorted(b.attackers.items())}})


def _alive(state: BocState, uid: str) -> bool:
    return state.units[uid].status not in (ELIMINATED, WITHDRAWN)


def _prune(state: BocState, b: Battle) -> None:
    b.attackers = {k: v for k, v in b.attackers.items() if _alive(state, k)}
    b.defenders = [d for d in b.defenders if _alive(state, d)]


def turn_group(b: Battle, orders: Orders) -> list[str]:
    """7.2: the blocks that may act next - the earliest morale letter still to act, the
    defender's blocks before the attacker's."""
    waiting = [u for u in b.fighting() if u not in b.acted]
    if not waiting:
        return []

    def key(uid: str) -> tuple[int, int]:
        return (MORALE_ORDER.index(orders.oob[uid].morale), 0 if uid in b.defenders else 1)

    first = min(key(u) for u in waiting)
    return sorted(u for u in waiting if key(u) == first)


def advance(board: Board, state: BocState, orders: Orders, ms: MeleeState) -> list[Event]:
    """Play what needs no choice: forced retreats, round ends, the verdict."""
    b = ms.battle
    events: list[Event] = []
    while b is not None and not b.over and b.hits is None and b.winner is None:
        _prune(state, b)
        if _verdict(state, b, events):
            break
        group = turn_group(b, orders)
        if not group:
            b.round += 1
            b.acted, b.retreat_sides = [], []
            if b.round > b.rounds:
                b.winner = "stalemate"  # 10.0 only: no forced retreat there
                events.append(Event("melee_stalemate", "10.0", {"hex": b.hex}))
            continue
        forced = [u for u in group if u in b.attackers and _must_retreat(b)]
        if not forced:
            break
        for uid in forced:
            ms.retreated.append(uid)
            events.append(_retreat_attacker(state, b, uid, forced=True))
    if b is not None and b.winner is not None and not _regroup_possible(b):
        events += _close(state, ms)
    return events


def _must_retreat(b: Battle) -> bool:
    return b.forced_retreat and b.round >= b.rounds


def _verdict(state: BocState, b: Battle, events: list[Event]) -> bool:
    """7.2 / 10.0: a melee is won when the enemy is eliminated or has retreated."""
    if b.attackers and b.defenders:
        return False
    if b.defenders or not b.attackers:
        b.winner = other(b.attacker)
    else:
        b.winner = b.attacker
        for uid in sorted(b.attackers):
            u = state.units[uid]
            if b.hex is not None:  # the attackers take the hex
                u.status, u.hex, u.seq, u.moved = ON_MAP, b.hex, state.next_seq(), True
    winners = sorted(b.attackers) if b.winner == b.attacker else sorted(b.defenders)
    events.append(Event("melee_won", "7.2", {"hex": b.hex, "winner": b.winner,
                                             "units": winners}))
    return True


def _regroup_possible(b: Battle) -> bool:
    return b.hex is not None and b.winner in ("usa", "csa")


def _close(state: BocState, ms: MeleeState) -> list[Event]:
    b = ms.battle
    assert b is not None
    b.over = True
    if b.hex is not None:
        ms.resolved.append(b.hex)
    ms.battle = None
    return [Event("melee_over", "7.1", {"hex": b.hex, "winner": b.winner})]


# --- one unit's turn -------------------------------------------------------------------


def retreat_hexes(board: Board, state: BocState, ms: MeleeState, b: Battle, uid: str
                  ) -> list[str]:
    """7.7 where ``uid`` may retreat to now (``"off"`` = off the map, 2.4)."""
    if uid in b.attackers:
        src = b.attackers[uid]
        if src is None:
            return [OFF]
        return [] if side_key(src, b.hex or "") in b.retreat_sides else [src]
    if b.hex is None:
        return [OFF]  # 10.0: off-map battle, the defender simply leaves
    side = state.units[uid].side
    occ = state.occupants()
    unresolved = set(ms.unresolved()) - {b.hex}
    friendly, neutral = [], []
    for n in index(board).nbrs[b.hex]:
        if side_key(n, b.hex) in b.retreat_sides or n in unresolved:
            continue
        if any(x.side != side for x in occ.get(n, [])):
            continue
        owner = state.control.get(n)
        if owner == side:
            friendly.append(n)
        elif owner is None:
            neutral.append(n)
    out = sorted(friendly) if friendly else sorted(neutral)
    if b.hex in index(board).edge:
        out.append(OFF)
    return out


def melee_decision(board: Board, state: BocState, orders: Orders, ms: MeleeState,
                   active: str) -> Decision | None:
    """What the melee phase waits for, or None when every melee is resolved."""
    b = ms.battle
    if b is None:
        hexes = ms.unresolved()
        if not hexes:
            return None
        return Decision("melee_order", active,
                        [{"type": "melee_resolve", "hex": h} for h in hexes], "7.1")
    if b.hits is not None:
        q = HitQueue.from_json(b.hits)
        d = apply_hits(board, state, orders, q).decision
        assert d is not None
        return d
    if b.winner is not None:
        return Decision("regroup", b.winner, regroup_options(board, state, ms, b), "7.9",
                        {"hex": b.hex})
    group = turn_group(b, orders)
    seat = b.side_of(group[0])
    opts: list[JSONDict] = []
    for uid in group:
        opts += _turn_options(board, state, orders, ms, b, uid)
    return Decision("melee_turn", seat, opts, "7.2", {"hex": b.hex, "round": b.round})


def _turn_options(board: Board, state: BocState, orders: Orders, ms: MeleeState, b: Battle,
                  uid: str) -> list[JSONDict]:
    u = state.units[uid]
    opts: list[JSONDict] = []
    if u.column and b.round == 1:  # column box: form line in round 1 instead of fighting
        opts.append({"type": "melee_line", "unit": uid})
    else:
        opts.append({"type": "melee_fight", "unit": uid})
    opts += [{"type": "melee_retreat", "unit": uid, "to": h}
             for h in retreat_hexes(board, state, ms, b, uid)]
    return opts


def melee_act(board: Board, state: BocState, orders: Orders, ms: MeleeState, seat: str,
              action: Action, dice: Dice, decided: Decision | None = None) -> list[Event]:
    """Apply one melee-phase action of ``seat`` (see the module docstring). ``decided``:
    the decision :func:`melee_decision` gives for this position, if the caller has it
    (issue 59: the engine asks for it to check the answer before applying it)."""
    d = decided if decided is not None else melee_decision(board, state, orders, ms,
                                                           state.active)
    if d is None:
        raise RuleError("7.1", "every melee is resolved")
    if seat != d.seat:
        raise RuleError(d.rule, f"waiting for {d.seat}")
    kind = action.get("type")
    if d.kind == "melee_order":
        if kind != "melee_resolve":
            raise RuleError("7.1", "pick the next melee to resolve first")
        return start_battle(board, state, orders, ms, str(action.get("hex")), seat)
    b = ms.battle
    assert b is not None
    if d.kind == "casualty":
        if kind != "casualty" or b.hits is None:
            raise RuleError("5.23", "choose which block takes the next hit first")
        q = HitQueue.from_json(b.hits)
        choose_casualty(state, q, str(action.get("unit", "")))
        return _run_hits(board, state, orders, ms, b, q)
    if action not in d.options:
        raise RuleError(d.rule, f"not a legal answer now: {action}")
    if kind == "regroup_done":
        return _close(state, ms)
    if kind == "regroup":
        return _regroup(state, b, str(action["unit"]), str(action["to"]))
    uid = str(action["unit"])
    b.acted.append(uid)
    if kind == "melee_fight":
        return _fight(board, state, orders, ms, b, uid, dice)
    if kind == "melee_line":
        state.units[uid].column = False
        return [Event("melee_line", "6.0", {"unit": uid, "hex": b.hex}),
                *advance(board, state, orders, ms)]
    ms.retreated.append(uid)
    if uid in b.attackers:
        ev = _retreat_attacker(state, b, uid, forced=False)
    else:
        ev = _retreat_defender(state, b, uid, str(action["to"]))
    return [ev, *advance(board, state, orders, ms)]


def _fight(board: Board, state: BocState, orders: Orders, ms: MeleeState, b: Battle,
           uid: str, dice: Dice) -> list[Event]:
    u = state.units[uid]
    attacking = uid in b.attackers
    ctx = Context(MELEE, round=b.round, attacking=attacking, penalty=b.penalty.get(uid, 0))
    fp = firepower(orders.oob[uid], ctx)
    roll = roll_hits(dice, u.strength, fp, f"melee {uid} round {b.round}", "7.2")
    ev = Event("melee_fire", "7.2", {"unit": uid, "side": u.side, "hex": b.hex,
                                     "round": b.round, **roll.to_json()})
    enemies = sorted(b.defenders) if attacking else sorted(b.attackers)
    q = HitQueue(side=other(u.side), hits=roll.hits, pool=enemies, hex=b.hex, rule="7.2")
    return [ev, *_run_hits(board, state, orders, ms, b, q)]


def _run_hits(board: Board, state: BocState, orders: Orders, ms: MeleeState, b: Battle,
              q: HitQueue) -> list[Event]:
    out = apply_hits(board, state, orders, q)
    if out.decision is not None:
        b.hits = q.to_json()
        return out.events
    b.hits = None
    return [*out.events, *advance(board, state, orders, ms)]


def _retreat_attacker(state: BocState, b: Battle, uid: str, forced: bool) -> Event:
    src = b.attackers.pop(uid)
    if src is not None and b.hex is not None:
        b.retreat_sides.append(side_key(src, b.hex))
    if uid not in b.acted:
        b.acted.append(uid)
    rule = "7.2" if forced else "7.7"
    return Event("melee_retreat", rule, {"unit": uid, "side": state.units[uid].side,
                                         "from": b.hex, "to": src or OFF, "forced": forced})


def _retreat_defender(state: BocState, b: Battle, uid: str, to: str) -> Event:
    u = state.units[uid]
    b.defenders.remove(uid)
    if to == OFF:
        u.status, u.exit_hex, u.hex = OFF_MAP, u.hex, None  # 2.4
        u.revealed = False
    else:
        assert b.hex is not None
        b.retreat_sides.append(side_key(to, b.hex))
        u.hex, u.seq = to, state.next_seq()
    return Event("melee_retreat", "7.7", {"unit": uid, "side": u.side, "from": b.hex,
                                          "to": to, "forced": False})


# --- 7.9 regroup -----------------------------------------------------------------------


def regroup_options(board: Board, state: BocState, ms: MeleeState, b: Battle) -> list[JSONDict]:
    """Pull-backs out of the won hex and reinforcements into it, one per hexside."""
    assert b.hex is not None and b.winner in ("usa", "csa")
    side = b.winner
    occ = state.occupants()
    waiting = {a.unit for a in ms.attacks if a.target in set(ms.unresolved()) - {b.hex}}
    unresolved = set(ms.unresolved()) - {b.hex}
    here = [u for u in occ.get(b.hex, []) if u.side == side]
    room = board.hex(b.hex).stacking - len(here)
    opts: list[JSONDict] = []
    for n in index(board).nbrs[b.hex]:
        if side_key(n, b.hex) in b.regroup_sides:
            continue
        there = occ.get(n, [])
        if any(x.side != side for x in there) or n in unresolved:
            continue
        if state.control.get(n) == side:
            opts += [{"type": "regroup", "unit": u.id, "to": n}
                     for u in sorted(here, key=lambda x: x.id) if u.id not in b.regrouped]
        if room > 0:
            opts += [{"type": "regroup", "unit": u.id, "to": b.hex}
                     for u in sorted(there, key=lambda x: x.id)
                     if u.id not in waiting and u.id not in b.regrouped]
    opts.append({"type": "regroup_done"})
    return opts


def _regroup(state: BocState, b: Battle, uid: str, to: str) -> list[Event]:
    u = state.units[uid]
    assert u.hex is not None and b.hex is not None
    was = u.hex
    b.regroup_sides.append(side_key(was if to == b.hex else to, b.hex))
    b.regrouped.append(uid)  # each block regroups once
    u.hex, u.seq = to, state.next_seq()
    data: JSONDict = {"unit": uid, "side": u.side, "from": was, "to": to}
    if u.revealed:
        return [Event("regroup", "7.9", data)]
    # A reinforcement from a neighbouring hex was not in the melee: it stays hidden.
    return [Event("regroup", "7.9", data, visible_to=(u.side,),
                  redacted={"side": u.side, "from": was, "to": to})]


def end_melee_phase(ms: MeleeState) -> None:
    """Forget the phase's melees (declarations are per player turn)."""
    ms.attacks.clear()
    ms.resolved.clear()
    ms.retreated.clear()
    ms.battle = None

