"""What the GBACW doctrine reads from one view of its seat (issue 54): its own units,
brigades and leaders, the enemy's SP by hex, and the objectives, with the distances and
facings every candidate action asks about remembered for the view (:class:`Situation`)."""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from gettysburg.core.canonical import JSONDict
from gettysburg.core.hexes import DIRECTIONS, Hex
from gettysburg.gbacw.ai.ground import FAR, Objectives, distance_field, objectives, parse
from gettysburg.gbacw.ai.memory import CHARGING, FIRED
from gettysburg.gbacw.catalog import catalog


def _front(facing: JSONDict | None) -> tuple[float, float] | None:
    """The plane vector a facing points along (002 §7.1: a vertex between two directions,
    or a hexside)."""
    if not facing:
        return None
    i = int(facing.get("index", 0))
    d = DIRECTIONS[i % 6]
    if facing.get("kind") == "vertex":
        d = d + DIRECTIONS[(i + 1) % 6]
    return _plane(d)


def _plane(h: Hex) -> tuple[float, float]:
    return (h.q + h.r / 2.0, h.r * math.sqrt(3) / 2.0)


def facing_cos(facing: JSONDict | None, frm: Hex, to: Hex) -> float:
    """How squarely ``facing`` at ``frm`` points at ``to`` (1: straight, -1: away)."""
    f = _front(facing)
    if f is None or frm == to:
        return 0.0
    return _cos_of(f, _with_norm(_plane(to - frm)))


def _with_norm(v: tuple[float, float]) -> tuple[float, float, float]:
    return (v[0], v[1], math.hypot(*v))


def _cos_of(f: tuple[float, float], v: tuple[float, float, float]) -> float:
    nf = math.hypot(*f)
    return (f[0] * v[0] + f[1] * v[1]) / (v[2] * nf)


#: ``Situation.cos_by``'s memo, by (facing kind, index, offset): pure geometry, so kept for
#: every view, up to this many
_COS: dict[tuple[object, object, int, int], float] = {}
_COS_KEEP = 100_000


def _subordinates(s: Situation, ld: str) -> list[Hex]:
    """Where the leaders (or, for a brigadier, the units) that ``ld`` links to the chain of
    command stand (the order of battle and the view's brigades; 002 §4.21)."""
    cat = catalog()
    brigades = s.view.get("brigades") or {}
    units = [k for k, u in s.own.items() if u.get("hex")]
    mine = [b for b, rec in brigades.items() if rec.get("seat") == s.seat]
    led = {b for b in mine if cat.brigade_leader.get(b) == ld}
    if led:
        return [h for k in units if s.own[k].get("brigade") in led
                if (h := s.unit_hex(k)) is not None]
    below: set[str] = set()
    for b in mine:
        rec = brigades[b]
        div, corps = str(rec.get("division")), str(rec.get("corps"))
        if cat.division_leader.get(div) == ld:
            below.add(cat.brigade_leader.get(b, ""))
        elif cat.corps_leader.get(corps) == ld:
            below.add(cat.division_leader.get(div) or cat.brigade_leader.get(b, ""))
        elif cat.army_leader.get(s.seat) == ld:
            below.add(cat.corps_leader.get(corps, ""))
    return [s.leaders[x] for x in sorted(below) if x in s.leaders]


_T = TypeVar("_T")
#: a move's score before its facing (``Situation._move_base``)
MoveBase = tuple[float, tuple[int, int] | None, bool | None]


@dataclass
class Situation:
    """What the doctrine reads from one view."""

    seat: str
    obj: Objectives
    view: JSONDict = field(default_factory=dict)
    own: dict[str, JSONDict] = field(default_factory=dict)  # unit key -> view record
    enemy_sp: dict[Hex, int] = field(default_factory=dict)
    own_at: dict[Hex, int] = field(default_factory=dict)  # own units per hex
    brigade_hexes: dict[str, list[Hex]] = field(default_factory=dict)
    leaders: dict[str, Hex] = field(default_factory=dict)
    orders: dict[str, str] = field(default_factory=dict)  # own unit key -> its orders
    fired: frozenset[str] = frozenset()  # own units seen to fire this activation (memory)
    building: frozenset[str] = frozenset()  # own units building breastworks (002 §15.13)
    charging: frozenset[str] = frozenset()  # own units seen to charge (memory, §11.53)
    # Memos for this view: every candidate action of one decision reads the same few
    # hexes, units and leaders again (hundreds of moves a decision), so each is worked out
    # once per view.
    # The hex terms (goal, to_goal, nearest, next_to, aim) hang only on the enemy's SP by
    # hex and our count on each objective: ``situation`` hands the same dicts to every
    # view that agrees on those (``_hex_terms``), so an activation's decisions, which
    # mostly list the same hexes, work each out once.
    _goal: dict[Hex, Hex | None] = field(default_factory=dict)
    _to_goal: dict[Hex, float] = field(default_factory=dict)
    _nearest: dict[Hex, tuple[int, Hex] | None] = field(default_factory=dict)
    _next_to: dict[Hex, int] = field(default_factory=dict)
    _aim: dict[Hex, Hex | None] = field(default_factory=dict)
    _terms: dict[Hex, tuple[bool, float, int, Hex | None]] = field(default_factory=dict)
    _unit_hex: dict[str, Hex | None] = field(default_factory=dict)
    _subs: dict[str, list[Hex]] = field(default_factory=dict)
    _spread: dict[tuple[str, Hex], float] = field(default_factory=dict)
    # a move's score before its facing, by the action's (unit, to): the score, the offset
    # from ``to`` to what it should face there (None: the facing does not count), and
    # whether it ends next to a much stronger enemy (``GbacwDoctrine._move``)
    _move_base: dict[tuple[object, object], MoveBase] = field(default_factory=dict)
    # the same by (``move_sig``, to), shared like the hex terms: a unit that has not moved
    # or changed is asked about the same hexes at each decision of its activation
    _move_shared: dict[tuple[object, object], MoveBase] = field(default_factory=dict)
    _sigs: dict[str, tuple[object, ...] | None] = field(default_factory=dict)
    _wanted: dict[str, str] = field(default_factory=dict)  # brigade -> orders it wants
    _fields: dict[Hex, dict[Hex, float]] = field(default_factory=dict)
    _enemy_qr: list[tuple[int, int]] | None = None
    _goals: list[tuple[Hex, dict[Hex, float], float]] | None = None  # goal_of's objectives

    @property
    def attacking(self) -> bool:
        return self.obj.taker == self.seat

    def unit_hex(self, key: str) -> Hex | None:
        if key not in self._unit_hex:
            u = self.own.get(key) or {}
            at = u.get("hex") or u.get("waiting_at")
            self._unit_hex[key] = parse(str(at)) if at else None
        return self._unit_hex[key]

    def goal_of(self, h: Hex) -> Hex | None:
        """The objective a unit at ``h`` heads for: the nearest, less one held by many
        friends already (so both objectives get troops)."""
        if h not in self._goal:
            if not self.obj.hexes:
                self._goal[h] = self.nearest_enemy(h)
            else:
                # the nearest in MP (mp_to), 4 MP more for each friend on it; q, r on ties
                if self._goals is None:
                    self._goals = [(g, self.goal_field(g), 4.0 * self.own_at.get(g, 0))
                                   for g in self.obj.hexes]
                best: tuple[float, int, int] | None = None
                found: Hex | None = None
                for g, mp, extra in self._goals:
                    k = (mp.get(h, FAR) + extra, g.q, g.r)
                    if best is None or k < best:
                        best, found = k, g
                self._goal[h] = found
        return self._goal[h]

    def goal_field(self, g: Hex) -> dict[Hex, float]:
        """``distance_field`` of objective ``g`` on the scenario's sheets (``mp_to``)."""
        got = self._fields.get(g)
        if got is None:
            got = self._fields[g] = distance_field(g, self.obj.sheets)
        return got

    def to_goal(self, h: Hex) -> float:
        if h not in self._to_goal:
            g = self.goal_of(h)
            if g is None:
                self._to_goal[h] = 0.0
            else:
                self._to_goal[h] = (self.goal_field(g).get(h, FAR) if self.obj.hexes
                                    else float(g.distance(h)))
        return self._to_goal[h]

    def move_sig(self, k: str) -> tuple[object, ...] | None:
        """Everything of own unit ``k`` a move's score reads besides the hex terms (its
        hexes, SP, mode, orders, whether it fired or builds), or None for a charging unit
        (its score reads the enemy's units too: not shared)."""
        if k not in self._sigs:
            u = self.own.get(k) or {}
            self._sigs[k] = None if k in self.charging else (
                k, u.get("hex"), u.get("waiting_at"), u.get("sp"), u.get("mode"),
                self.orders.get(k), k in self.fired, k in self.building)
        return self._sigs[k]

    def hex_terms(self, h: Hex) -> tuple[bool, float, int, Hex | None]:
        """What a move's score reads of a hex, in one look-up: whether it is an
        objective, ``to_goal``, ``enemy_next_to`` and ``aim``."""
        got = self._terms.get(h)
        if got is None:
            got = self._terms[h] = (h in self.obj.hexes, self.to_goal(h),
                                    self.enemy_next_to(h), self.aim(h))
        return got

    def aim(self, h: Hex) -> Hex | None:
        """What a unit at ``h`` should face: the nearest enemy within 6 hexes, else its
        objective."""
        if h not in self._aim:
            self._aim[h] = self.nearest_enemy(h, 6) or self.goal_of(h)
        return self._aim[h]

    def cos(self, facing: JSONDict | None, frm: Hex, to: Hex) -> float:
        """``facing_cos``, with the facing's vector and the offset's remembered."""
        if not facing or frm == to:
            return 0.0
        return self.cos_by(facing, to.q - frm.q, to.r - frm.r)

    def cos_by(self, facing: JSONDict | None, dq: int, dr: int) -> float:
        """``cos`` toward the offset (dq, dr), remembered by the facing and the offset
        (the same few recur for every hex of a big move list)."""
        if not facing or (dq == 0 and dr == 0):
            return 0.0
        key = (facing.get("kind"), facing.get("index", 0), dq, dr)
        got = _COS.get(key)
        if got is None:
            if len(_COS) > _COS_KEEP:
                _COS.clear()  # geometry alone: worked out again at little cost
            f = _front(facing) or (1.0, 0.0)
            got = _COS[key] = _cos_of(f, _with_norm(_plane(Hex(dq, dr))))
        return got

    def subordinates(self, ld: str) -> list[Hex]:
        if ld not in self._subs:
            self._subs[ld] = _subordinates(self, ld)
        return self._subs[ld]

    def spread(self, ld: str, x: Hex) -> float:
        """How far ``x`` lies from the ones ``ld`` links to the chain: the mean and the
        farthest distance, averaged (``subordinates`` must not be empty)."""
        key = (ld, x)
        if key not in self._spread:
            d = [x.distance(t) for t in self.subordinates(ld)]
            self._spread[key] = (sum(d) / len(d) + max(d)) / 2.0
        return self._spread[key]

    def nearest_enemy(self, h: Hex, within: int = 99) -> Hex | None:
        if h not in self._nearest:
            if self._enemy_qr is None:
                self._enemy_qr = [(e.q, e.r) for e in self.enemy_sp]
            q, r = h.q, h.r
            # Hex.distance written out (a few hundred enemy hexes for each hex asked)
            best = min(((max(abs(eq - q), abs(er - r), abs(eq - q + er - r)), eq, er)
                        for eq, er in self._enemy_qr), default=None)
            self._nearest[h] = None if best is None else (best[0], Hex(best[1], best[2]))
        found = self._nearest[h]
        return found[1] if found is not None and found[0] <= within else None

    def enemy_next_to(self, h: Hex) -> int:
        if h not in self._next_to:
            self._next_to[h] = sum(self.enemy_sp.get(h + d, 0) for d in DIRECTIONS)
        return self._next_to[h]


#: memos kept for the last few views' keys met (both seats' views alternate in reactions
#: and fights): by the enemy's units (hexes and SP) the enemy terms; by that, the scenario,
#: the seat and our count on each objective the goal terms and the move bases
_KEEP = 6
_EnemyTerms = tuple[dict[Hex, tuple[int, Hex] | None], dict[Hex, int]]
_GoalTerms = tuple[dict[Hex, Hex | None], dict[Hex, float], dict[Hex, Hex | None],
                   dict[Hex, tuple[bool, float, int, Hex | None]],
                   dict[tuple[object, object], MoveBase]]
_ENEMY: OrderedDict[tuple[object, ...], _EnemyTerms] = OrderedDict()
_GOAL: OrderedDict[tuple[object, ...], _GoalTerms] = OrderedDict()
_LOCK = threading.Lock()  # a server may run games' agents in threads


def _kept(store: OrderedDict[tuple[object, ...], _T], key: tuple[object, ...],
          make: Callable[[], _T]) -> _T:
    """``store[key]`` (made by ``make`` if new), the oldest of more than ``_KEEP`` gone."""
    with _LOCK:
        got = store.get(key)
        if got is None:
            got = store[key] = make()
            while len(store) > _KEEP:
                store.popitem(last=False)
        else:
            store.move_to_end(key)
        return got


def _hex_terms(s: Situation, scenario: str, enemy: list[tuple[str, int]]) -> None:
    """Give ``s`` the memos of earlier views that agree on everything they are worked out
    from (module comment above), else fresh ones kept for the next views."""
    foes = tuple(sorted(enemy))
    s._nearest, s._next_to = _kept(_ENEMY, foes, lambda: ({}, {}))
    key = (scenario, s.seat, foes, tuple(s.own_at.get(g, 0) for g in s.obj.hexes))
    s._goal, s._to_goal, s._aim, s._terms, s._move_shared = _kept(
        _GOAL, key, lambda: ({}, {}, {}, {}, {}))


def situation(view: JSONDict) -> Situation:
    seat = str(view.get("seat"))
    scenario = str(view.get("scenario", ""))
    s = Situation(seat, objectives(scenario), view)
    enemy: list[tuple[str, int]] = []
    s.fired = frozenset(str(k) for k in view.get(FIRED) or ())
    s.building = frozenset(str(c.get("unit")) for c in view.get("constructions") or ())
    s.charging = frozenset(str(k) for k in view.get(CHARGING) or ())
    brigades = view.get("brigades") or {}
    for key, u in (view.get("units") or {}).items():
        at = u.get("hex")
        if u.get("seat") == seat:
            s.own[key] = u
            if u.get("fired"):  # the owner's view says so (newer engines)
                s.fired |= {key}
            s.orders[key] = str((brigades.get(str(u.get("brigade"))) or {}).get("orders"))
            if at:
                h = parse(str(at))
                s.own_at[h] = s.own_at.get(h, 0) + 1
                s.brigade_hexes.setdefault(str(u.get("brigade")), []).append(h)
        elif at:
            h = parse(str(at))
            sp = int(u.get("sp") or 0)
            s.enemy_sp[h] = s.enemy_sp.get(h, 0) + sp
            enemy.append((str(at), sp))
    for ld, rec in (view.get("leaders") or {}).items():
        if rec.get("seat") == seat and rec.get("hex"):
            s.leaders[ld] = parse(str(rec["hex"]))
    _hex_terms(s, scenario, enemy)
    return s
