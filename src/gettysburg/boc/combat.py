"""Pieces shared by fire (5.x), melee (7.x) and the cavalry battles (10.0).

* :func:`hexside_penalty` - the terrain chart's fire and melee columns for one hexside.
* :func:`firepower` - a block's firepower in a given combat context.
* :func:`roll_hits` - strength in dice, a hit per die at or under the firepower (5.2).
* :class:`HitQueue` / :func:`apply_hits` - hits applied one at a time to the strongest
  block (5.23), with the owner's choice on ties, HQs last (7.5), half hits in double-defence
  hexes (5.24) and the long-range repulse (5.32). When the owner must choose, the queue stops
  and returns a :class:`Decision`; the caller stores the queue (it is JSON) and resumes it
  with the choice.

Decisions where the rulebooks leave room (German text wins where they differ):

* Roads never change a combat modifier (2.2 "roads ... but not for combat", 7.3). A road
  crossing a stream by a bridge or ford still leaves the stream on the hexside, so the
  stream's penalty applies (de 2.2 bridge note, chart footnote 6 "as creek/river for
  combat"), for fire and melee alike.
* Slopes count only uphill (chart footnote 7): rise 0 fire / -1 melee, hill -1 / -2.
* Terrain penalties may reach 0; a firepower of 0 rolls no dice (5.22, 7.3 chart note).
  Nothing raises firepower above what the rules add; a defending cavalry brigade rated 3
  fights at 4 in melee round 1 (7.6 says +1 and sets no ceiling).
* HQs take hits like any block, strongest first (5.23); an HQ at strength 0 that takes a
  hit is eliminated. 7.5 (es "always receive the last hit", de "always eliminated last")
  states the consequence of that extra 0 step, not a shelter: until session 18 HQs took
  hits only once nothing else was left, which neither book says.
* A block eliminated by fire on a hidden stack is reported to the enemy by hex only: the
  owner's event names it, the enemy's does not (5.23: targets stay hidden).
* The ``hidden_hits`` option (:data:`OPT_HIDDEN_HITS`, an engine option, off unless
  chosen): fire on a stack of two or more blocks asks the owner for every hit. Without it
  the game waits for the owner only on a tie, so the firer, who sees it wait, learns that
  two hidden blocks share the top strength; at the table the owner turns every block hit
  himself, tie or not. Off by default so that games saved before it replay unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any, Final

from gettysburg.boc.board import Board
from gettysburg.boc.command import Orders
from gettysburg.boc.control import index
from gettysburg.boc.oob import ARTILLERY_TYPES, HQ_TYPES, Unit
from gettysburg.boc.sequence import eliminate
from gettysburg.boc.state import ELIMINATED, ON_MAP, WITHDRAWN, BocState, UnitState
from gettysburg.core.canonical import JSONDict
from gettysburg.core.dice import Dice
from gettysburg.core.protocol import Event, RuleError

#: 5.23 engine option: the owner answers every hit on a fired-at stack of two or more.
OPT_HIDDEN_HITS: Final = "hidden_hits"

FIRE: Final = "fire"
MELEE: Final = "melee"

# Terrain chart, hexside columns (2.2): penalty to firepower when crossing the hexside.
FIRE_SIDE_PENALTY: Final = {"woods": 1, "orchard": 1, "marsh": 1, "town": 1, "river": 1,
                            "creek": 0}
MELEE_SIDE_PENALTY: Final = {"woods": 1, "orchard": 1, "marsh": 1, "town": 1, "river": 1,
                             "creek": 1}
# Slopes count only when firing or attacking uphill (chart footnote 7).
FIRE_SLOPE_PENALTY: Final = {"rise": 0, "hill": 1}
MELEE_SLOPE_PENALTY: Final = {"rise": 1, "hill": 2}

MORALE_ORDER: Final = "ABCD"


def hexside_penalty(board: Board, from_hex: str, to_hex: str, mode: str) -> int:
    """Summed fire or melee penalty for crossing from ``from_hex`` into ``to_hex``
    (5.22 / 7.3: penalties are cumulative; roads are ignored, bridges and fords keep the
    stream's penalty, de 2.2)."""
    info = board.side(from_hex, to_hex)
    table = FIRE_SIDE_PENALTY if mode == FIRE else MELEE_SIDE_PENALTY
    slopes = FIRE_SLOPE_PENALTY if mode == FIRE else MELEE_SLOPE_PENALTY
    total = sum(table.get(t, 0) for t in info.terrain)
    if info.slope is not None and info.is_uphill(board.parse(from_hex), board.parse(to_hex)):
        total += slopes[info.slope]
    return total


@dataclass(frozen=True)
class Context:
    """Where and how a block fights."""

    mode: str  # FIRE or MELEE
    range: int = 1  # fire: 1 short, 2-3 long (artillery, 5.31)
    round: int = 1  # melee round 1-3 (7.2)
    attacking: bool = False  # melee: attacker or defender
    penalty: int = 0  # hexside penalty crossed (hexside_penalty)


def is_hq(unit: Unit) -> bool:
    return unit.type in HQ_TYPES


def is_artillery(unit: Unit) -> bool:
    return unit.type in ARTILLERY_TYPES


def firepower(unit: Unit, ctx: Context) -> int:
    """The number a die must not exceed to hit (3.12), in context; 0 means no dice."""
    if ctx.mode == FIRE:
        return max(0, _fire_value(unit, ctx))
    return max(0, _melee_value(unit, ctx))


def _fire_value(unit: Unit, ctx: Context) -> int:
    if is_hq(unit):
        return 0  # 3.21: HQs never fire
    if is_artillery(unit) and ctx.range >= 2:
        # 5.31: long range uses the small number and ignores hexside terrain.
        return unit.long_firepower or 0
    return unit.firepower - ctx.penalty  # 5.22


def _melee_value(unit: Unit, ctx: Context) -> int:
    value = unit.melee_firepower or unit.firepower  # 3.31 Berdan: A1 in melee
    if is_artillery(unit) and ctx.round >= 2:
        value = 1  # 7.4: artillery and horse artillery drop to 1 after round 1
    if unit.type == "cavalry" and ctx.round == 1:
        value += -1 if ctx.attacking else 1  # 7.6
    if ctx.attacking and ctx.round == 1:
        value -= ctx.penalty  # 7.3: only the attacker, only round 1
    return value


@dataclass(frozen=True)
class Roll:
    dice: tuple[int, ...]
    firepower: int
    hits: int

    def to_json(self) -> JSONDict:
        # "hit" marks each die (docs/protocol.md, "event data"), so a client draws hits
        # and misses without knowing this rule.
        return {"dice": list(self.dice), "firepower": self.firepower, "hits": self.hits,
                "hit": [v <= self.firepower for v in self.dice]}


def roll_hits(dice: Dice, strength: int, fp: int, purpose: str, rule: str) -> Roll:
    """5.2 / 7.2: roll one die per strength point; each die at or under ``fp`` hits.
    A firepower of 0 rolls nothing (5.22)."""
    if fp <= 0 or strength <= 0:
        return Roll((), max(fp, 0), 0)
    values = tuple(dice.roll_n(strength, purpose=purpose, rule=rule))
    return Roll(values, fp, sum(1 for v in values if v <= fp))


# --- hit application -------------------------------------------------------------------


@dataclass(frozen=True)
class Decision:
    """A choice the engine waits for. ``kind`` is ``casualty`` (which of the equally strong
    blocks takes the next hit, 5.23), ``repulse`` (where a repulsed block goes, 5.32),
    ``melee_turn`` or one of the cavalry-battle choices."""

    kind: str
    seat: str
    options: list[JSONDict]
    rule: str
    data: JSONDict = field(default_factory=dict)

    def to_json(self) -> JSONDict:
        return {"kind": self.kind, "seat": self.seat, "options": self.options,
                "rule": self.rule, "data": self.data}


@dataclass
class HitQueue:
    """Hits waiting to be applied to one side's blocks in one place."""

    side: str  # owner of the blocks hit
    hits: int
    pool: list[str]  # blocks that may take hits (the target group, 5.2.3 de / 6.63)
    hex: str | None  # None: off-map cavalry battle (10.0)
    rule: str
    d2: bool = False  # 5.24 double defence (fire only)
    long_range: bool = False  # 5.32 repulse instead of elimination
    hidden: bool = False  # fire on a hidden stack: the enemy learns only the hex (5.23)
    # The hidden_hits option: the owner answers every hit while two or more blocks are
    # left, forced or not, so the firer cannot tell a tie (a choice) from a forced hit.
    ask: bool = False
    half: str | None = None  # the block carrying a half hit (5.24)
    chosen: str | None = None  # the owner's answer to a casualty decision
    repulsing: str | None = None  # block waiting for its repulse hex (5.32)

    def to_json(self) -> JSONDict:
        out = asdict(self)
        if not self.ask:
            del out["ask"]  # a game without the option keeps the state (and hashes) it had
        return out

    @staticmethod
    def from_json(data: dict[str, Any]) -> HitQueue:
        return HitQueue(**data)


@dataclass
class HitOutcome:
    events: list[Event]
    decision: Decision | None = None

    @property
    def done(self) -> bool:
        return self.decision is None


def strongest(state: BocState, pool: list[str]) -> list[str]:
    """5.23 the blocks that may take the next hit: the strongest in the pool, HQs among
    them. Both books give HQs no shelter from hits: 7.5 only remarks that their extra step
    (strength 0) makes them the last to be eliminated, which strongest-first already does
    (an HQ at 0 is the weakest block there is)."""
    if not pool:
        return []
    top = max(state.units[u].strength for u in pool)
    return sorted(u for u in pool if state.units[u].strength == top)


def would_eliminate(strength: int, hq: bool) -> bool:
    """Whether a hit eliminates a block at ``strength``: an HQ survives at strength 0
    (7.5); any other block dies with its last step."""
    return strength <= 0 if hq else strength <= 1


def repulse_hexes(board: Board, state: BocState, unit: UnitState) -> list[str]:
    """5.32: adjacent hexes friendly in the 6.6 snapshot, free of enemy blocks, with room."""
    assert unit.hex is not None
    occ = state.occupants()
    out = []
    for n in index(board).nbrs.get(unit.hex, ()):
        here = occ.get(n, [])
        if state.control.get(n) != unit.side or any(u.side != unit.side for u in here):
            continue
        if len(here) < board.hex(n).stacking:
            out.append(n)
    return sorted(out)


Remover = Callable[[UnitState, str, str], Event]


def apply_hits(board: Board, state: BocState, orders: Orders, q: HitQueue,
               remove: Remover | None = None) -> HitOutcome:
    """Apply the queue's hits until it is empty or the owner must choose.

    ``remove(unit, rule, why)`` takes a block out; by default it is eliminated
    (:func:`gettysburg.boc.sequence.eliminate`). Excess hits with nobody left are lost.
    """
    kill = remove or (lambda u, rule, why: eliminate(state, orders, u, rule, why))
    events: list[Event] = []
    while True:
        q.pool = [u for u in q.pool if state.units[u].status not in (ELIMINATED, WITHDRAWN)]
        if q.repulsing is not None:
            return HitOutcome(events, _repulse_decision(board, state, q))
        if q.hits <= 0:
            break
        if not q.pool:
            events.append(Event("hits_lost", q.rule, {"hex": q.hex, "side": q.side,
                                                      "hits": q.hits}))
            q.hits = 0
            break
        target = _next_target(state, q)
        if target is None:
            return HitOutcome(events, _casualty_decision(state, q))
        q.chosen = None
        events += _hit_one(board, state, orders, q, state.units[target], kill)
    return HitOutcome(events)


def casualty_candidates(state: BocState, q: HitQueue) -> list[str]:
    """The blocks that may take the queue's next hit: the one carrying a half hit (5.24:
    the second half goes to the same block), else the strongest (5.23)."""
    if q.half is not None and q.half in q.pool:
        return [q.half]
    return strongest(state, q.pool)


def _next_target(state: BocState, q: HitQueue) -> str | None:
    """The block the next hit goes to without asking, or ``None`` while the owner's
    answer is due (5.23: a tie; with ``ask``, every hit while two or more are left)."""
    cands = casualty_candidates(state, q)
    if len(cands) == 1 and not (q.ask and len(q.pool) > 1):
        return cands[0]
    return q.chosen if q.chosen in cands else None


def _casualty_decision(state: BocState, q: HitQueue) -> Decision:
    cands = casualty_candidates(state, q)
    return Decision("casualty", q.side, [{"type": "casualty", "unit": u} for u in cands],
                    "5.23", {"hex": q.hex, "hits_left": q.hits})


def choose_casualty(state: BocState, q: HitQueue, unit: str) -> None:
    """Record the owner's choice among the blocks that may take the next hit (5.23)."""
    if unit not in casualty_candidates(state, q):
        raise RuleError("5.23", f"{unit} is not one of the strongest blocks that may take "
                                "the next hit")
    q.chosen = unit


def _hit_one(board: Board, state: BocState, orders: Orders, q: HitQueue, u: UnitState,
             kill: Remover) -> list[Event]:
    q.hits -= 1
    if q.d2 and q.half != u.id:
        q.half = u.id  # 5.24: a first half hit marks the block, no step lost yet
        return [_hit_event(q, u, half=True)]
    q.half = None
    hq = is_hq(orders.oob[u.id])
    if not would_eliminate(u.strength, hq):
        u.strength -= 1
        return [_hit_event(q, u, half=False)]
    if q.long_range:
        room = repulse_hexes(board, state, u)
        if len(room) == 1:
            return [_move_repulsed(state, q, u, room[0])]
        if room:
            q.repulsing = u.id
            return []
        return [_elimination(q, u, kill, "5.32", "repulsed by long-range fire with no "
                                                  "friendly hex with room")]
    return [_elimination(q, u, kill, q.rule, "lost its last step")]


def _hit_event(q: HitQueue, u: UnitState, half: bool) -> Event:
    data: JSONDict = {"hex": q.hex, "side": u.side, "unit": u.id, "strength": u.strength,
                      "half": half}
    if not q.hidden or u.revealed:
        return Event("hit", q.rule, data)
    return Event("hit", q.rule, data, visible_to=(u.side,),
                 redacted={"hex": q.hex, "side": u.side, "half": half})


def _elimination(q: HitQueue, u: UnitState, kill: Remover, rule: str, why: str) -> Event:
    shown = u.revealed
    ev = kill(u, rule, why)
    if not q.hidden or shown:
        return ev
    return Event(ev.type, ev.rule, ev.data, visible_to=(u.side,),
                 redacted={"hex": q.hex, "side": u.side, "why": why})


def _repulse_decision(board: Board, state: BocState, q: HitQueue) -> Decision:
    assert q.repulsing is not None
    u = state.units[q.repulsing]
    return Decision("repulse", q.side,
                    [{"type": "repulse", "unit": u.id, "to": h}
                     for h in repulse_hexes(board, state, u)],
                    "5.32", {"hex": q.hex})


def choose_repulse(board: Board, state: BocState, q: HitQueue, to: str) -> Event:
    """Move the repulsed block to the hex its owner picked (5.32)."""
    if q.repulsing is None:
        raise RuleError("5.32", "no block is waiting to be repulsed")
    u = state.units[q.repulsing]
    if to not in repulse_hexes(board, state, u):
        raise RuleError("5.32", f"{to} is not an adjacent friendly hex with room")
    q.repulsing = None
    return _move_repulsed(state, q, u, to)


def _move_repulsed(state: BocState, q: HitQueue, u: UnitState, to: str) -> Event:
    was = u.hex
    u.hex, u.seq = to, state.next_seq()
    q.pool = [x for x in q.pool if x != u.id]
    data: JSONDict = {"unit": u.id, "side": u.side, "from": was, "to": to}
    if not q.hidden or u.revealed:
        return Event("repulsed", "5.32", data)
    return Event("repulsed", "5.32", data, visible_to=(u.side,),
                 redacted={"side": u.side, "from": was, "to": to})


def heal_half_hits(state: BocState, half_hits: list[str]) -> list[Event]:
    """5.24: a lone half hit is lost at the end of the fire phase."""
    events = []
    for uid in sorted(half_hits):
        u = state.units[uid]
        if u.status == ON_MAP:
            events.append(Event("half_hit_healed", "5.24", {"unit": uid, "hex": u.hex},
                                visible_to=(u.side,), redacted=None))
    half_hits.clear()
    return events
