"""How the GBACW general answers the last decisions it used to leave to chance (issue 54,
session g5_general2): reaction refusals and moves (002 §9.61-9.63), refusing a flank in its
own activation (§7.3), restacking (§8.24), the non-phasing reserve shot (§10.15), the
Alexander swap (004 §4.35) and the conditional cavalry's choices (004 §14.7).

Each scorer reads the seat's view (through :class:`.situation.Situation`) and returns a
score on the doctrine's scale (a "done" action and ``end_orders`` 0.01, a decline such as
``no_reaction`` 0.0, a one-vertex reaction turn toward a flank about 0.28, a return or
withdrawal shot 1.0 and up). The rules of thumb:

* refuse a flank (in reaction or in the unit's own activation) when the enemy lies beyond
  that flank; the score sits below the turn toward it (``react``/``face``), so a refusal is
  chosen only when no such turn is offered;
* move mounted cavalry or artillery away in reaction when the enemy next to it is stronger
  than it (it would lose the shock), never off an objective, to the end hex farthest from
  the enemy and with fewest enemies next to it;
* restack so that the strongest unit of a stack near the enemy is on top (it fires first
  and a stacked battery fires only on top, 002 §8.33);
* keep the plain non-phasing shot over its reserve (half the SP held back) unless a second
  enemy hex is in reach of the unit's front;
* the Alexander swap (two AMs) only with a barrage in view: at least six Confederate
  batteries with an enemy 4+ hexes off within their reach;
* keep the cavalry in play (hold back or withdraw none), bring back a surplus when the
  rule allows, and keep Buford on the field on 2 July (004 chart c).
"""

from __future__ import annotations

from collections.abc import Callable

from gettysburg.core.canonical import JSONDict
from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import Action
from gettysburg.gbacw.ai.ground import parse
from gettysburg.gbacw.ai.situation import Situation, facing_cos
from gettysburg.gbacw.barrage import MIN_RANGE
from gettysburg.gbacw.catalog import catalog
from gettysburg.gbacw.charts import all_charts
from gettysburg.gbacw.facing import Facing, flank_direction

ARTILLERY = ("art", "horse_art")
#: how well the enemy must lie beyond the flank (cosine with the flank's direction)
BEYOND_FLANK = 0.7
#: the front arc's edge as a cosine (60°), with room for rounding
FRONT_COS = 0.49
#: refusing: below a one-vertex turn toward the flank (react 0.5·0.87 − 0.15 ≈ 0.28; face
#: 0.2·0.87 − 0.03 ≈ 0.14), above the declines
REACT_REFUSE, OWN_REFUSE = 0.2, 0.1
#: own activation: refuse only against an enemy this near
REFUSE_WITHIN = 3
#: Confederate batteries with a target for a barrage that make Alexander worth two AMs
ALEXANDER_FROM = 6


def _facing(u: JSONDict) -> Facing | None:
    f = u.get("facing") or {}
    if f.get("kind") not in ("vertex", "side"):
        return None
    return Facing(f["kind"], int(f.get("index") or 0))


def _beyond_flank(h: Hex, f: Facing, side: str, enemy: Hex) -> bool:
    """Whether ``enemy`` lies beyond the unit's ``side`` flank (002 §7.34: the flank hex a
    refusal turns into a front)."""
    if f.kind != "vertex" or side not in ("left", "right") or enemy == h:
        return False
    d = flank_direction(f, "left" if side == "left" else "right")
    return facing_cos({"kind": "side", "index": d}, h, enemy) >= BEYOND_FLANK


def _in_front(h: Hex, u: JSONDict, enemy: Hex) -> bool:
    """Whether ``enemy`` lies in the unit's front arc (002 §10.16, roughly: within 60° of its
    facing's direction, the arc edge counted in)."""
    return enemy != h and facing_cos(u.get("facing"), h, enemy) >= FRONT_COS


def react_refuse(s: Situation, a: Action) -> float:
    """002 §9.61: refuse the flank the mover or firer came from when it lies beyond it."""
    k = str(a.get("unit"))
    u, h = s.own.get(k) or {}, s.unit_hex(k)
    trigger = (s.view.get("pending") or {}).get("trigger")
    f = _facing(u)
    if h is None or f is None or not trigger:
        return -0.1
    if _beyond_flank(h, f, str(a.get("side")), parse(str(trigger))):
        return REACT_REFUSE
    return -0.1


def refuse(s: Situation, a: Action) -> float:
    """002 §7.32: in its own activation a unit refuses a flank (1 MP) when the nearest enemy
    within 3 hexes lies beyond it and none is in its front (it would rather turn, or fire)."""
    k = str(a.get("unit"))
    u, h = s.own.get(k) or {}, s.unit_hex(k)
    f = _facing(u)
    if h is None or f is None or u.get("refused"):
        return -0.1
    near = s.nearest_enemy(h, REFUSE_WITHIN)
    if near is None:
        return -0.1
    if any(_in_front(h, u, e) for e in s.enemy_sp if e.distance(h) <= REFUSE_WITHIN):
        return -0.1
    return OWN_REFUSE if _beyond_flank(h, f, str(a.get("side")), near) else -0.1


def react_move(s: Situation, a: Action) -> float:
    """002 §9.63: mounted cavalry or artillery backs away (1-2 hexes, then a UDD) when the
    enemy next to it is stronger than it and it holds no objective; the end hex farthest from
    the enemy, next to the fewest. Above approach fire (1.0 and up) then: a battery shocked
    by stronger infantry is lost."""
    return back_away(s, a, outnumbered=1, refuse=-0.1, base=1.2, alone=9)


def back_away(s: Situation, a: Action, *, outnumbered: int, refuse: float, base: float,
              alone: int) -> float:
    """A move of ``a["unit"]`` along ``a["path"]`` away from the enemy (a reaction move,
    002 §9.63, or a withdrawal, §9.54): ``refuse`` unless the unit holds no objective and
    the enemy SP next to it exceed ``outnumbered`` times its own; else ``base``, plus 0.05
    a hex from the nearest enemy at the path's end (``alone`` hexes with none in sight),
    less 0.01 an enemy SP next to that end."""
    k = str(a.get("unit"))
    h = s.unit_hex(k)
    path = a.get("path") or []
    if h is None or not path or h in s.obj.hexes:
        return refuse
    sp = int((s.own.get(k) or {}).get("sp") or 0)
    if s.enemy_next_to(h) <= outnumbered * sp:
        return refuse
    end = parse(str(path[-1]))
    near = s.nearest_enemy(end)
    gap = end.distance(near) if near is not None else alone
    return base + 0.05 * gap - 0.01 * s.enemy_next_to(end)


def restack(s: Situation, a: Action) -> float:
    """002 §8.24, §8.33: with an enemy within 3 hexes, the strongest unit of a stack goes on
    top (a stacked battery fires only there; the top one fires first); never otherwise (a
    restack is the unit's move)."""
    k = str(a.get("unit"))
    u, h = s.own.get(k) or {}, s.unit_hex(k)
    if h is None or s.nearest_enemy(h, 3) is None or not u.get("stack"):
        return -0.1
    mates = [x for x in s.own.values() if x.get("hex") == u.get("hex")]
    top = [x for x in mates if not x.get("stack")]
    top_sp = max((int(x.get("sp") or 0) for x in top), default=0)
    sp = int(u.get("sp") or 0)
    if u.get("arm") in ARTILLERY and not any(x.get("arm") in ARTILLERY for x in top):
        sp += 6  # a battery below fires nothing (§8.33)
    return 0.15 + 0.01 * (sp - top_sp) if sp > top_sp else -0.1


def _reach(u: JSONDict) -> int:
    """How far the unit's weapon carries by day (the range chart), 2 when unknown."""
    counter = catalog().counters.get(str(u.get("counter") or ""))
    if counter is None or not counter.weapon:
        return 2
    try:
        return all_charts().range.max_range(counter.weapon, "day")
    except (KeyError, ValueError):
        return 2


def fire_reserve(s: Situation, a: Action) -> float:
    """002 §10.15: a non-phasing shot with half the SP, the rest kept for a shot at another
    hex: worth it over the whole shot (1.0 + 0.01·SP) only when a second enemy hex is within
    the unit's reach in its front."""
    k = str(a.get("unit"))
    u, h = s.own.get(k) or {}, s.unit_hex(k)
    f = _facing(u)
    if h is None or f is None:
        return 0.5
    reach = _reach(u)
    targets = [e for e in s.enemy_sp if h.distance(e) <= reach and _in_front(h, u, e)]
    base = 1.0 + 0.01 * int(u.get("sp") or 0)
    return base + 0.05 if len(targets) >= 2 else base - 0.1


def alexander_swap(s: Situation, _a: Action) -> float:
    """004 §4.35: Alexander for the poor Pendleton costs a transfer's two AMs; worth it only
    when a barrage is in view (six batteries or more with an enemy 4+ hexes off in reach),
    as high as the orders segment's other choices then."""
    n = 0
    for u in s.own.values():
        at = u.get("hex")
        if not at or u.get("arm") not in ARTILLERY or u.get("disordered"):
            continue
        h, reach = parse(str(at)), _reach(u)
        if any(MIN_RANGE <= h.distance(e) <= reach for e in s.enemy_sp):
            n += 1
    return 0.5 if n >= ALEXANDER_FROM else -0.5


def hold_cavalry(_s: Situation, a: Action) -> float:
    """004 §14.71, §14.73: cavalry held back is out of play; hold none (the fewer the better)."""
    return -0.1 * len(a.get("brigades") or [])


SCORERS: dict[str, Callable[[Situation, Action], float]] = {
    "react_refuse": react_refuse,
    "refuse": refuse,
    "react_move": react_move,
    "restack": restack,
    "withdrawal_fire_reserve": fire_reserve,
    "approach_fire_reserve": fire_reserve,
    "return_fire_reserve": fire_reserve,
    "alexander_swap": alexander_swap,
    "hold_cavalry": hold_cavalry,
    "withdraw_cavalry": lambda _s, _a: -0.1,  # 004 §14.72: keep it in the fight
    "return_cavalry": lambda _s, _a: 0.3,  # §14.75: the surplus back (a d10 SP cost)
    # 004 chart c (2 July 1000): Buford's division on the field now is worth more than
    # two conditional cavalry groups coming later
    "buford_stays": lambda _s, _a: 0.05,
    "buford_leaves": lambda _s, _a: -0.05,
}


def score(s: Situation, a: Action) -> float | None:
    """The score of ``a`` if it is one of this module's kinds, else ``None``."""
    f = SCORERS.get(str(a.get("type")))
    return None if f is None else f(s, a)
