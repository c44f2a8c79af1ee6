"""Fire combat (5.x): who may fire, at what, and what the hits do.

Actions (JSON, offered by :func:`fire_options` in a fixed order)::

    {"type": "fire", "unit": U, "target": HEX, "through": HEX}
    {"type": "fire", "unit": U, "target": HEX, "through": HEX, "at": "artillery"}

``through`` is the hex across the hexside the unit fires through (5.21, 5.31); for
infantry and cavalry it is the target itself. While hits wait for the owner's choice the
phase offers only that owner's answers (:func:`pending_decision`)::

    {"type": "casualty", "unit": U}         # 5.23 tie among the strongest blocks
    {"type": "repulse", "unit": U, "to": H}  # 5.32 where a repulsed block goes

Decisions (German text wins where the rulebooks differ):

* 5.1: only blocks under command fire (``in_command``, set by the command phase), except
  Berdan (3.31, the ``independent`` tag). HQs never fire (3.21). A block fires once per
  fire phase. Blocks in column formation cannot fire (6.0 column box).
* 5.21: one firing block per hexside of the firing hex per player turn, whatever the
  range; the ledger keys the hexside as ``"FIRING>ACROSS"``.
* 5.2.3 de / 6.63: if the target hex holds revealed artillery the firer picks one target
  group: that artillery (``"at": "artillery"``) or the other blocks. Hits go only to the
  group; the rest are lost. With only revealed artillery in the hex, only the first form is
  offered.
* A shot whose firepower comes to 0 (5.22) could only reveal the firer and pin it; it is
  neither offered nor accepted.
* 5.24: a half hit stays on its block for the rest of the fire phase (a later shot at the
  hex must finish it first) and is healed by :func:`end_fire_phase`.
* Firing reveals the firer (5.2); the blocks hit stay hidden (5.23): the enemy's events name
  the hex only.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from gettysburg.boc.board import Board
from gettysburg.boc.combat import (
    FIRE,
    OPT_HIDDEN_HITS,
    Context,
    Decision,
    HitOutcome,
    HitQueue,
    apply_hits,
    choose_casualty,
    choose_repulse,
    firepower,
    heal_half_hits,
    hexside_penalty,
    is_artillery,
    is_hq,
    roll_hits,
)
from gettysburg.boc.command import Orders, needs_command
from gettysburg.boc.control import index
from gettysburg.boc.los import cone_targets, line_of_sight
from gettysburg.boc.state import ON_MAP, BocState, UnitState, other
from gettysburg.core.canonical import JSONDict
from gettysburg.core.dice import Dice
from gettysburg.core.protocol import Action, Event, RuleError


@dataclass
class FireLedger:
    """What the fire phase must remember between actions (stored as JSON)."""

    used: list[str] = field(default_factory=list)  # 5.21 hexsides fired through
    half_hits: list[str] = field(default_factory=list)  # 5.24 blocks with a half hit
    pending: JSONDict | None = None  # a HitQueue waiting for its owner's choice

    def to_json(self) -> JSONDict:
        return {"used": sorted(self.used), "half_hits": sorted(self.half_hits),
                "pending": self.pending}

    @staticmethod
    def from_json(data: dict[str, Any] | None) -> FireLedger:
        if not data:
            return FireLedger()
        return FireLedger(list(data.get("used", [])), list(data.get("half_hits", [])),
                          data.get("pending"))


@dataclass(frozen=True)
class Shot:
    """A checked fire action."""

    unit: str
    origin: str
    target: str
    through: str
    range: int
    firepower: int
    pool: tuple[str, ...]
    at_artillery: bool

    @property
    def side_key(self) -> str:
        return f"{self.origin}>{self.through}"


def fire_problem(state: BocState, orders: Orders, u: UnitState) -> str | None:
    """Why ``u`` may not fire now, or ``None`` (5.1, 3.21, 3.31)."""
    unit = orders.oob[u.id]
    if u.status != ON_MAP or u.hex is None:
        return "the unit is not on the map"
    if is_hq(unit):
        return "HQs do not fire (3.21)"
    if u.fired:
        return "the unit has already fired this turn"
    if u.strength <= 0:
        return "the unit has no strength left"
    if u.column:
        return "units in column cannot fire (6.0 column box)"
    if needs_command(orders, u.id) and not u.in_command:
        return "only units under command fire (5.1)"
    return None


def _enemies(state: BocState, hx: str, side: str) -> list[UnitState]:
    return sorted((u for u in state.on_map(other(side)) if u.hex == hx), key=lambda u: u.id)


def _enemy_map(state: BocState, side: str) -> dict[str, list[UnitState]]:
    """hex -> the enemy blocks in it, sorted by id (as _enemies gives them)."""
    out: dict[str, list[UnitState]] = {}
    for u in sorted(state.on_map(other(side)), key=lambda u: u.id):
        if u.hex is not None:
            out.setdefault(u.hex, []).append(u)
    return out


def target_pools(state: BocState, orders: Orders, hx: str, side: str,
                 enemy: dict[str, list[UnitState]] | None = None
                 ) -> dict[bool, tuple[str, ...]]:
    """Target groups in ``hx`` keyed by "at revealed artillery" (5.2.3 de, 6.63)."""
    blocks = _enemies(state, hx, side) if enemy is None else enemy.get(hx, [])
    art = tuple(u.id for u in blocks if u.revealed and is_artillery(orders.oob[u.id]))
    rest = tuple(u.id for u in blocks if u.id not in art)
    out: dict[bool, tuple[str, ...]] = {}
    if rest:
        out[False] = rest
    if art:
        out[True] = art
    return out


def _sights(board: Board, origin: str, through: str) -> tuple[tuple[str, int, bool], ...]:
    """(target, range, seen) for the hexes of the cone through ``origin``/``through``
    (5.31, 5.33). The board never changes, so the answer is cached on the board object
    (like :func:`gettysburg.boc.control.index`): ``legal_actions`` asks for it constantly."""
    cache: dict[tuple[str, str], tuple[tuple[str, int, bool], ...]] = \
        board.__dict__.setdefault("_boc_sights", {})
    got = cache.get((origin, through))
    if got is None:
        idx = index(board)
        rows = []
        for h in cone_targets(board, idx.hex_of[origin], idx.hex_of[through]):
            t = board.hexes[h].id
            rng = idx.distance(origin, t)
            seen = rng == 1 or line_of_sight(board, idx.hex_of[origin], h,
                                             idx.hex_of[through]).visible
            rows.append((t, rng, seen))
        got = cache[(origin, through)] = tuple(rows)
    return got


def _lines(board: Board, state: BocState, orders: Orders, u: UnitState,
           enemy: Collection[str | None] | None = None) -> list[tuple[str, str, int]]:
    """(target, through, range) for every hex ``u`` could fire at, ignoring 5.21."""
    assert u.hex is not None
    idx = index(board)
    if enemy is None:
        enemy = {x.hex for x in state.on_map(other(u.side))}
    out: list[tuple[str, str, int]] = []
    for thr in idx.nbrs[u.hex]:
        if not is_artillery(orders.oob[u.id]):
            if thr in enemy:
                out.append((thr, thr, 1))  # 5.1: infantry and cavalry fire next door only
            continue
        for t, rng, seen in _sights(board, u.hex, thr):
            if seen and t in enemy:
                out.append((t, thr, rng))  # 5.31 cone, 5.33 line of sight
    return out


def _shot(board: Board, state: BocState, orders: Orders, u: UnitState, target: str,
          through: str, rng: int, at_art: bool,
          enemy: dict[str, list[UnitState]] | None = None) -> Shot | None:
    assert u.hex is not None
    pool = target_pools(state, orders, target, u.side, enemy).get(at_art)
    if pool is None:
        return None
    penalty = 0 if rng >= 2 else hexside_penalty(board, u.hex, target, FIRE)
    fp = firepower(orders.oob[u.id], Context(FIRE, range=rng, penalty=penalty))
    if fp <= 0:
        return None
    return Shot(u.id, u.hex, target, through, rng, fp, pool, at_art)


def fire_options(board: Board, state: BocState, orders: Orders, side: str,
                 ledger: FireLedger) -> list[Action]:
    """Every legal fire action of ``side`` now, in a fixed order (unit, target, through)."""
    if ledger.pending is not None:
        return []
    acts: list[Action] = []
    enemy = _enemy_map(state, side)  # once for every unit and shot (issue 59)
    for u in sorted(state.on_map(side), key=lambda x: x.id):
        if fire_problem(state, orders, u) is not None:
            continue
        for target, thr, rng in sorted(_lines(board, state, orders, u, enemy)):
            if f"{u.hex}>{thr}" in ledger.used:
                continue
            for at_art in (False, True):
                if _shot(board, state, orders, u, target, thr, rng, at_art, enemy) is None:
                    continue
                act: Action = {"type": "fire", "unit": u.id, "target": target,
                               "through": thr}
                if at_art:
                    act["at"] = "artillery"
                acts.append(act)
    return acts


def check_fire(board: Board, state: BocState, orders: Orders, side: str,
               ledger: FireLedger, action: Action) -> Shot:
    """Validate a fire action; the refusal cites the rule that forbids it."""
    if ledger.pending is not None:
        raise RuleError("5.23", "hits from the last shot are still waiting for a choice")
    uid = str(action.get("unit", ""))
    u = state.units.get(uid)
    if u is None or u.side != side:
        raise RuleError("5.1", f"{uid!r} is not one of your units")
    why = fire_problem(state, orders, u)
    if why is not None:
        raise RuleError("5.1", why)
    target, thr = str(action.get("target", "")), str(action.get("through", ""))
    at_art = action.get("at") == "artillery"
    lines = {(t, th): r for t, th, r in _lines(board, state, orders, u)}
    if (target, thr) not in lines:
        rule = "5.31" if is_artillery(orders.oob[uid]) else "5.1"
        raise RuleError(rule, f"{uid} cannot fire at {target} through {thr}")
    if f"{u.hex}>{thr}" in ledger.used:
        raise RuleError("5.21", f"a unit has already fired through the {u.hex}/{thr} hexside "
                                "this turn")
    shot = _shot(board, state, orders, u, target, thr, lines[(target, thr)], at_art)
    if shot is None:
        rule = "6.63" if at_art else "5.22"
        raise RuleError(rule, "no such target group there, or the firepower comes to 0")
    return shot


def resolve_fire(board: Board, state: BocState, orders: Orders, ledger: FireLedger,
                 side: str, action: Action, dice: Dice, shot: Shot | None = None
                 ) -> HitOutcome:
    """Fire one unit (5.2) and apply its hits; stops at the first owner's choice.
    ``shot``: what :func:`check_fire` gave for this action in this position, if the
    caller has it (issue 59: the engine checks every action before applying it)."""
    if shot is None:
        shot = check_fire(board, state, orders, side, ledger, action)
    u = state.units[shot.unit]
    u.fired = u.revealed = True  # 5.2 the firer is revealed; 6.1 it may not move
    ledger.used.append(shot.side_key)
    roll = roll_hits(dice, u.strength, shot.firepower, f"fire {u.id} at {shot.target}",
                     "5.2")
    data: JSONDict = {"unit": u.id, "side": side, "hex": shot.origin, "target": shot.target,
                      "through": shot.through, "range": shot.range,
                      "at": "artillery" if shot.at_artillery else "hex", **roll.to_json()}
    fired = Event("fire", "5.2", data)
    half = next((x for x in shot.pool if x in ledger.half_hits), None)
    q = HitQueue(side=other(side), hits=roll.hits, pool=list(shot.pool), hex=shot.target,
                 rule="5.23", d2=board.hex(shot.target).double_defence,
                 long_range=shot.range >= 2, hidden=True, half=half,
                 ask=OPT_HIDDEN_HITS in state.options)
    out = _run(board, state, orders, ledger, q)
    return HitOutcome([fired, *out.events], out.decision)


def _run(board: Board, state: BocState, orders: Orders, ledger: FireLedger,
         q: HitQueue) -> HitOutcome:
    out = apply_hits(board, state, orders, q)
    if out.decision is not None:
        ledger.pending = q.to_json()
        return out
    ledger.pending = None
    ledger.half_hits = [x for x in ledger.half_hits if x not in q.pool]
    if q.half is not None:
        ledger.half_hits.append(q.half)
    return out


def pending_decision(board: Board, state: BocState, orders: Orders,
                     ledger: FireLedger) -> Decision | None:
    """The owner's choice the phase waits for, if any."""
    if ledger.pending is None:
        return None
    q = HitQueue.from_json(ledger.pending)
    return apply_hits(board, state, orders, q).decision


def resolve_choice(board: Board, state: BocState, orders: Orders, ledger: FireLedger,
                   seat: str, action: Action) -> HitOutcome:
    """Apply a ``casualty`` or ``repulse`` answer and carry on with the hits."""
    if ledger.pending is None:
        raise RuleError("5.23", "no hits are waiting for a choice")
    q = HitQueue.from_json(ledger.pending)
    if seat != q.side:
        raise RuleError("5.23", "the owner of the blocks hit chooses")
    events: list[Event] = []
    if action.get("type") == "repulse":
        if action.get("unit") != q.repulsing:
            raise RuleError("5.32", f"{action.get('unit')!r} is not being repulsed")
        events.append(choose_repulse(board, state, q, str(action.get("to", ""))))
    elif action.get("type") == "casualty" and q.repulsing is None:
        choose_casualty(state, q, str(action.get("unit", "")))
    else:
        raise RuleError("5.23", "answer the pending choice first")
    out = _run(board, state, orders, ledger, q)
    return HitOutcome([*events, *out.events], out.decision)


def end_fire_phase(state: BocState, ledger: FireLedger) -> list[Event]:
    """5.24: heal lone half hits; 5.21's hexside count starts afresh next player turn."""
    events = heal_half_hits(state, ledger.half_hits)
    ledger.used.clear()
    ledger.pending = None
    return events
