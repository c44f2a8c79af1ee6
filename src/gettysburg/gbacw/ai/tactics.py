"""How the GBACW general uses the rulebook's heavier tools (issue 54, session g5): the
artillery barrage (004 §10.9), continued shock (002 §11.47), cavalry charges (§11.5),
extended lines and columns (§8.4-8.5) and breastworks (§15.1-15.2).

Each scorer reads the seat's view (through :class:`.situation.Situation`), the public
board, order of battle and charts, and returns a score on the doctrine's scale (a "done"
action scores 0.01, a move that gains ground 0.1 an MP; ``activate`` 1.0 and up). A tool
not worth using here scores below 0, so the doctrine declines it when a decline is legal.
The rules of thumb, in short:

* barrage when enough batteries (in the chief's range, with an enemy 4+ hexes off within
  their guns' reach) can join; then fire the biggest group at the richest target;
* continue a shock on the Shock table's odds (the continued shock's -n counted, a
  disordered defender's +1) the way the first shock is judged (:mod:`.combat`);
* charge with mounted cavalry only at a disordered enemy or through a flank or rear, in
  the open (002 §11.55: the flank doubles the chargers, woods and town halve them);
* extend a line of 8+ SP when an enemy is within 3 hexes and the unit holds (the defender's,
  or the taker's on an objective): a 9-SP unit in one hex fires 7 SP (002 §8.3), extended
  it fires all 9 over a wider front; the taker gathers a line (retract) that must still
  move on, and a column forms line (or gathers) near the enemy or on Attack orders;
* build breastworks with a holding unit on Advance, on or near its objective, with no enemy
  within 4 hexes (any other action stops the work, §15.14), facing the enemy.
"""

from __future__ import annotations

from collections.abc import Callable

from gettysburg.core.canonical import JSONDict
from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import Action
from gettysburg.gbacw.ai.combat import odds, ratio_drm, terrain_drm
from gettysburg.gbacw.ai.ground import board, parse
from gettysburg.gbacw.ai.situation import Situation
from gettysburg.gbacw.barrage import MIN_RANGE, barrage_batteries
from gettysburg.gbacw.catalog import catalog
from gettysburg.gbacw.charts import all_charts
from gettysburg.gbacw.charts.ranges import Light
from gettysburg.gbacw.facing import Facing, aspect_of, front_hexes

ARTILLERY = ("art", "horse_art")
#: each side's artillery chief's post (004 §4.3, §4.35)
CHIEFS = {"usa": "hunt", "csa": "pendleton"}
#: batteries able to join a barrage from which it is declared: the Confederates need more,
#: since their barrage check removes a battery on 10+ (004 §10.94), the Union's never
BARRAGE_FROM = {"usa": 2, "csa": 3}
#: terrain that halves charging cavalry (002 §11.55) or spoils a charge's benefits
COVER = ("woods", "rough-woods", "town")
#: an extended line: the SP it needs (002 §8.41) and the enemy distance within which it
#: pays to hold a wider front; beyond GATHER_BEYOND a mover gathers it again
EXTEND_SP, EXTEND_WITHIN, GATHER_BEYOND = 8, 3, 4
#: breastworks: no enemy this near (its fire would stop the work, 002 §15.14), and the
#: unit no farther than this (MP) from the objective it holds
BUILD_CLEAR, BUILD_NEAR = 4, 3.0


def _units(s: Situation) -> JSONDict:
    return s.view.get("units") or {}


def _hex(u: JSONDict) -> Hex | None:
    return parse(str(u["hex"])) if u.get("hex") else None


def _enemy_units_at(s: Situation, h: Hex) -> list[JSONDict]:
    return [u for u in _units(s).values()
            if u.get("seat") != s.seat and _hex(u) == h]


def _terrain(h: Hex) -> str:
    info = board().hexes.get(h)
    return info.terrain if info is not None else "open"


# --- the artillery barrage (004 §10.9) -------------------------------------------------------
def barrage_batteries_ready(s: Situation) -> list[str]:
    """004 §10.92-10.93: own batteries in good order that may join (in the chief's command
    range, or linked to one that is by adjacent batteries) and see an enemy hex 4+ hexes off
    within their guns' reach (the range chart; line of sight is left to the engine)."""
    chief = CHIEFS.get(s.seat)
    at = s.leaders.get(chief) if chief else None
    if chief is None or at is None:
        return []
    cat, ranges = catalog(), all_charts().range
    light: Light = "day"
    for x in ("dawn", "dusk", "night"):
        if s.view.get("light") == x:
            light = x
    guns: dict[str, Hex] = {}
    for k, u in s.own.items():
        h = _hex(u)
        if h is not None and u.get("arm") in ARTILLERY and not u.get("routed"):
            guns[k] = h
    out = []
    for k in barrage_batteries(at, cat.rating(chief, "command_range", 4), guns):
        u, h = s.own[k], guns[k]
        if u.get("disordered"):
            continue
        counter = cat.counters.get(str(u.get("counter") or k))
        if counter is None or not counter.weapon:
            continue
        try:
            reach = ranges.max_range(counter.weapon, light)
        except (KeyError, ValueError):
            continue
        if any(MIN_RANGE <= h.distance(e) <= reach for e in s.enemy_sp):
            out.append(k)
    return out


def barrage(s: Situation, _a: Action) -> float:
    """Declare the barrage (above activating a brigade) when enough batteries can join."""
    n = len(barrage_batteries_ready(s))
    if n < BARRAGE_FROM.get(s.seat, 2):
        return -0.5
    return 1.4 + 0.05 * n


def barrage_fire(s: Situation, a: Action) -> float:
    """004 §10.93: once declared, every shot is taken (the check follows each shot whatever
    the target); the group with more guns first (one roll on a richer column), at the
    target with more SP, an objective's holders above all."""
    t = parse(str(a["target"]))
    score = 0.5 + 0.1 * len(a.get("units") or []) + 0.02 * min(12, s.enemy_sp.get(t, 0))
    return score + (0.5 if t in s.obj.hexes else 0.0)


# --- continued shock (002 §11.47) ------------------------------------------------------------
def continue_shock(s: Situation, a: Action) -> float:
    """002 §11.47: the group goes on from ``to`` and shocks every enemy in its front hexes
    at -n (the n-th continued shock), no attacker's rounding; scored as a first shock is
    (:func:`.combat.score_shock`): 2·win − 2·lose − 0.6, plus 1.5·win on an objective."""
    pending = s.view.get("pending") or {}
    group = [str(k) for k in pending.get("units") or []]
    to = parse(str(a["to"]))
    targets = [h for h in front_hexes(to, Facing.from_json(a["facing"]))
               if s.enemy_sp.get(h, 0) > 0]
    if not targets or not group:
        return -1.0
    units = _units(s)
    mine = [units.get(k) or {} for k in group]
    theirs = [u for t in targets for u in _enemy_units_at(s, t)]
    drm = ratio_drm(sum(int(u.get("sp") or 0) for u in mine),
                    sum(int(u.get("sp") or 0) for u in theirs))
    drm += min(terrain_drm([to], t) for t in targets)
    drm -= int(pending.get("continued") or 1)
    if any(u.get("disordered") for u in theirs):
        drm += 1
    if any(u.get("disordered") for u in mine):
        drm -= 1
    win, lose = odds(drm)
    value = 2.0 * win - 2.0 * lose - 0.6
    if any(t in s.obj.hexes for t in targets):
        value += 1.5 * win
    return value


# --- cavalry charges (002 §11.5) -------------------------------------------------------------
def charge_target(s: Situation, key: str) -> Hex | None:
    """The enemy hex a charge of ``key`` would aim at (002 §11.52-11.55): within 6 hexes
    (adjacency in 5 MP), in the open, disordered or open to the charger through a flank or
    rear (its facing is on the map), and not much stronger; the nearest such, else None."""
    u = s.own.get(key) or {}
    here = _hex(u)
    if here is None:
        return None
    sp = int(u.get("sp") or 0)
    best: tuple[int, int, int] | None = None
    for e, esp in s.enemy_sp.items():
        if here.distance(e) > 6 or _terrain(e) in COVER or esp > 2 * sp:
            continue
        foes = _enemy_units_at(s, e)
        weak = any(f.get("disordered") for f in foes)
        if not weak:
            near = min(e.neighbours(), key=lambda n: (n.distance(here), n.q, n.r))
            weak = any(f.get("facing") and aspect_of(e, Facing.from_json(f["facing"]), near)
                       != "front" for f in foes)
        if weak and (best is None or (here.distance(e), e.q, e.r) < best):
            best = (here.distance(e), e.q, e.r)
    return None if best is None else Hex(best[1], best[2])


def charge(s: Situation, a: Action) -> float:
    """Charge (above any move) only at a target :func:`charge_target` finds."""
    return 1.2 if charge_target(s, str(a["unit"])) is not None else -0.3


# --- extended lines and columns (002 §8.4-8.5) -----------------------------------------------
def _holds(s: Situation, h: Hex) -> bool:
    """Whether a unit at ``h`` holds ground rather than marches on: the defender's within
    3 MP of an objective (where the doctrine keeps it), or the taker's standing on one (an
    extended line moves only forward or by pivoting, 002 §8.44, which would slow the
    taker's last steps onto the objectives). Without objectives, every unit holds."""
    if not s.obj.hexes:
        return True
    return h in s.obj.hexes if s.attacking else s.to_goal(h) <= BUILD_NEAR


def extend(s: Situation, a: Action) -> float:
    """002 §8.41-8.44: extend a unit of 8+ SP that holds a front (an enemy within 3 hexes);
    both flanks when it may (a wider front)."""
    u = s.own.get(str(a["unit"])) or {}
    h = _hex(u)
    if h is None or u.get("extension") or int(u.get("sp") or 0) < EXTEND_SP:
        return -0.2
    if s.nearest_enemy(h, EXTEND_WITHIN) is None or not _holds(s, h):
        return -0.2
    return 0.35 + 0.05 * len(a.get("sides") or [])


def retract(s: Situation, a: Action) -> float:
    """002 §8.42: gather a column on Attack orders (it may neither move nor shock so,
    §8.53) or one near the enemy; a line that must move on (see :func:`_holds`) is gathered
    by the taker, and by the holder with no enemy within 4; into the part nearest the
    objective."""
    k = str(a["unit"])
    u = s.own.get(k) or {}
    h = _hex(u)
    if h is None:
        return -0.2
    to = parse(str(a["to"]))
    tie = -0.01 * s.to_goal(to) if s.obj.hexes else 0.0
    near = s.nearest_enemy(h, EXTEND_WITHIN) is not None
    if u.get("extension") == "column":
        if s.orders.get(k) == "attack" or near:
            return 0.45 + max(tie, -0.04)
        return -0.2
    if u.get("extension") == "line" and not _holds(s, h) and (
            s.nearest_enemy(h, GATHER_BEYOND) is None or s.attacking):
        return 0.3 + max(tie, -0.04)
    return -0.2


def form(s: Situation, a: Action) -> float:
    """002 §8.52: a column near the enemy forms line facing it (better than gathering);
    a line is not formed into a column (the March order's column comes with its moves)."""
    k = str(a["unit"])
    u = s.own.get(k) or {}
    h = _hex(u)
    if h is None or u.get("extension") != "column":
        return -0.2
    foe = s.nearest_enemy(h, EXTEND_WITHIN)
    if foe is None and s.orders.get(k) != "attack":
        return -0.2
    aim = foe or s.aim(h)
    return 0.45 + (0.05 * s.cos(a.get("facing"), h, aim) if aim is not None else 0.0)


# --- breastworks (002 §15.1) -----------------------------------------------------------------
def builders(s: Situation) -> frozenset[str]:
    """Own units building breastworks now (the view's construction markers)."""
    return s.building & frozenset(s.own)


def build(s: Situation, a: Action) -> float:
    """002 §15.11-15.14: a unit that will stay builds: on Advance, within 3 MP of the
    objective it holds (the defender's; the taker's only on it), no breastworks there yet,
    with no enemy within 4 hexes (its fire, or the enemy's, would stop the work);
    the facing that points most squarely at the enemy, else the objective's approach."""
    k = str(a["unit"])
    h = s.unit_hex(k)
    if h is None or s.orders.get(k) != "advance" or not s.obj.hexes:
        return -0.2
    if s.to_goal(h) > BUILD_NEAR or (s.attacking and h not in s.obj.hexes):
        return -0.2  # still on its way (the taker's units march on: only holders dig in)
    if s.nearest_enemy(h, BUILD_CLEAR) is not None:
        return -0.2
    here = board().hexes[h].id
    if any(str(b.get("hex")) == here for b in s.view.get("breastworks") or []):
        return -0.2  # dug in already
    aim = s.nearest_enemy(h) or s.goal_of(h)
    cos = s.cos(a.get("facing"), h, aim) if aim is not None and aim != h else 0.0
    return 0.3 + 0.1 * cos


SCORERS: dict[str, Callable[[Situation, Action], float]] = {
    "barrage": barrage,
    "barrage_fire": barrage_fire,
    "continue_shock": continue_shock,
    "charge": charge,
    "extend": extend,
    "retract": retract,
    "form": form,
    "build": build,
}


def score(s: Situation, a: Action) -> float | None:
    """The score of ``a`` if it is one of this module's kinds, else ``None``."""
    f = SCORERS.get(str(a.get("type")))
    return None if f is None else f(s, a)
