"""What the GBACW doctrine reads from one view of its seat (issue 54): its own units,
brigades and leaders, the enemy's SP by hex, and the objectives, with the distances and
facings every candidate action asks about remembered for the view (:class:`Situation`)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from gettysburg.core.canonical import JSONDict
from gettysburg.core.hexes import DIRECTIONS, Hex
from gettysburg.gbacw.ai.ground import Objectives, mp_to, objectives, parse
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
    _goal: dict[Hex, Hex | None] = field(default_factory=dict)
    _to_goal: dict[Hex, float] = field(default_factory=dict)
    _nearest: dict[Hex, tuple[int, Hex] | None] = field(default_factory=dict)
    _next_to: dict[Hex, int] = field(default_factory=dict)
    _aim: dict[Hex, Hex | None] = field(default_factory=dict)
    _fronts: dict[tuple[object, object], tuple[float, float]] = field(default_factory=dict)
    _offsets: dict[tuple[Hex, Hex], tuple[float, float, float]] = field(default_factory=dict)
    _unit_hex: dict[str, Hex | None] = field(default_factory=dict)
    _subs: dict[str, list[Hex]] = field(default_factory=dict)
    _spread: dict[tuple[str, Hex], float] = field(default_factory=dict)
    _move_base: dict[tuple[str, Hex], tuple[float, Hex | None, bool | None]] = field(
        default_factory=dict)

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
                sheets = self.obj.sheets
                self._goal[h] = min(
                    self.obj.hexes,
                    key=lambda g: (mp_to(g, h, sheets) + 4.0 * self.own_at.get(g, 0), g.q, g.r))
        return self._goal[h]

    def to_goal(self, h: Hex) -> float:
        if h not in self._to_goal:
            g = self.goal_of(h)
            if g is None:
                self._to_goal[h] = 0.0
            else:
                self._to_goal[h] = (mp_to(g, h, self.obj.sheets) if self.obj.hexes
                                    else float(g.distance(h)))
        return self._to_goal[h]

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
        fkey = (facing.get("kind"), facing.get("index", 0))
        f = self._fronts.get(fkey)
        if f is None:
            f = self._fronts[fkey] = _front(facing) or (1.0, 0.0)
        v = self._offsets.get((frm, to))
        if v is None:
            v = self._offsets[(frm, to)] = _with_norm(_plane(to - frm))
        return _cos_of(f, v)

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
            best: tuple[int, int, int] | None = None
            for e in self.enemy_sp:
                k = (e.distance(h), e.q, e.r)
                if best is None or k < best:
                    best = k
            self._nearest[h] = None if best is None else (best[0], Hex(best[1], best[2]))
        found = self._nearest[h]
        return found[1] if found is not None and found[0] <= within else None

    def enemy_next_to(self, h: Hex) -> int:
        if h not in self._next_to:
            self._next_to[h] = sum(self.enemy_sp.get(h + d, 0) for d in DIRECTIONS)
        return self._next_to[h]


def situation(view: JSONDict) -> Situation:
    seat = str(view.get("seat"))
    s = Situation(seat, objectives(str(view.get("scenario", ""))), view)
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
            s.enemy_sp[h] = s.enemy_sp.get(h, 0) + int(u.get("sp") or 0)
    for ld, rec in (view.get("leaders") or {}).items():
        if rec.get("seat") == seat and rec.get("hex"):
            s.leaders[ld] = parse(str(rec["hex"]))
    return s
