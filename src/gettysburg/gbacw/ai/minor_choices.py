"""The GBACW general's lesser decisions (issue 54): the ones it used to take only when
nothing else was legal. Each is a rule of thumb read from the seat's own view and the
public board:

- attaching a divisional battery to a brigade (002 §4.32): to the nearest brigade of its
  division within 3 hexes, once; back to its battalion when that brigade is far off;
- the Third Day's ready-made breastworks (004 sc.5): every one placed, nearest the
  objectives first, guarding toward the enemy;
- leaving by map C's off-map roads (004 §9.88): only when the road, its turns off the map
  counted at a day's march of ``TURN_MP`` a turn, brings the unit at least ``ROAD_SAVES``
  MP nearer its objective than walking would (troops off the map fight nobody meanwhile);
- Rodes's entry area (004 chart c): the area nearest the objectives;
- counter-charge (002 §11.56): on Attack orders (no check), or on Advance in good order;
- breaking off a charge (§11.57): when the enemy next to the charger outweighs it;
- withdrawal move (§9.54): off an objective, when the enemy next to the unit has more than
  twice its SP;
- rally or resupply with a turn (§7.25, §10.92): the turn only when it brings the front
  nearer the enemy (else the plain rally or resupply, listed with its own score);
- idle rally (§13.45): when the brigade's disordered units outnumber its fatigue levels
  (resting takes one level off, rallying puts units back in the line);
- the Hero markers' policy (004 §18.0 P, E-33): with one marker, the default (save one's
  own failed checks); with two or more, "both" (the spare one also spoils an enemy's
  passed check, rather than wait for a save that may never come).

Scores are on the doctrine's scale (a "done" action 0.01, a decline 0.0); ``None``: not
one of this module's kinds.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import Action
from gettysburg.gbacw.ai.ground import FAR, board, mp_to, parse
from gettysburg.gbacw.ai.reactions import back_away
from gettysburg.gbacw.ai.situation import Situation, facing_cos
from gettysburg.gbacw.off_map import destinations, load_links

#: hexes within which a battery joins a brigade, and beyond which it goes back
ATTACH_WITHIN, DETACH_BEYOND = 3, 5
#: the MP a unit is reckoned to cover on the map in a turn (an infantry MA with a road's
#: help), and how many MP the off-map road must save over walking to be taken
TURN_MP, ROAD_SAVES = 8.0, 4.0
#: Hero markers held from which the policy is "both" (004 §18.0 P)
SPARE_HEROES = 2


def _sp(s: Situation, key: str) -> int:
    return int((s.own.get(key) or {}).get("sp") or 0)


def _brigade_distance(s: Situation, h: Hex, brigade: str) -> int:
    return min((h.distance(x) for x in s.brigade_hexes.get(brigade, [])), default=99)


def attach(s: Situation, a: Action) -> float:
    """002 §4.32: a battery joins the nearest brigade of its division (within 3 hexes),
    so it acts with the infantry it stands by; an attached one goes back to its battalion
    only when its brigade is more than 5 hexes off. Once attached, other brigades are
    declined (the engine allows one change a turn)."""
    k, b = str(a.get("unit")), str(a.get("brigade"))
    h = s.unit_hex(k)
    if h is None:
        return -0.1
    own = str((s.own.get(k) or {}).get("brigade"))
    now = str((s.view.get("attached") or {}).get(k) or own)
    if b == own:  # back to the battalion
        return 0.1 if _brigade_distance(s, h, now) > DETACH_BEYOND else -0.1
    if now != own:
        return -0.1
    d = _brigade_distance(s, h, b)
    return 0.2 - 0.03 * d if d <= ATTACH_WITHIN else -0.1


def place_works(s: Situation, a: Action) -> float:
    """004 sc.5: the scenario's ready-made breastworks, each placed (they cost nothing):
    nearest an objective first, then facing the nearest enemy (else the objective)."""
    h = parse(str(a.get("hex")))
    # one memo look-up per hex (a Third Day decision lists ~1,200 of these)
    on_obj, to_goal, _, target = s.hex_terms(h)
    d = to_goal if s.obj.hexes else 0.0
    score = 0.5 + (0.3 if on_obj else 0.0) - 0.01 * min(d, 30.0)
    if target is not None and target != h:
        score += 0.05 * s.cos(a.get("facing"), h, target)
    return score


@cache
def _area_hex(area: int) -> Hex | None:
    hits = [h for h, info in board().hexes.items() if info.entry == area]
    return hits[0] if len(hits) == 1 else None


def entry_area(s: Situation, a: Action) -> float:
    """004 chart c (1 July 1100): Rodes's brigade comes on by the area whose hex lies
    fewest MP from an objective."""
    try:
        h = _area_hex(int(str(a.get("area"))))
    except ValueError:
        h = None
    if h is None or not s.obj.hexes:
        return 0.1
    d = min(mp_to(g, h, s.obj.sheets) for g in s.obj.hexes)
    return 0.5 - 0.01 * min(d, FAR / 100)


def counter_charge(s: Situation, a: Action) -> float:
    """002 §11.56: on Attack orders the counter-charge needs no check, so it is taken; on
    Advance only in good order (a failed check leaves the charge's benefits against it)."""
    k = str(a.get("unit"))
    if s.orders.get(k) == "attack":
        return 0.5
    return -0.1 if (s.own.get(k) or {}).get("disordered") else 0.2


def break_charge(s: Situation, a: Action) -> float:
    """002 §11.57: after the enemy's reaction move, break off (above riding on) when the
    enemy next to the charger, or in its front within 2 hexes, outweighs the charging
    unit; otherwise ride on."""
    k = str(a.get("unit"))
    h = s.unit_hex(k)
    if h is None:
        return -0.1
    near = s.nearest_enemy(h, 2)
    foe = max(s.enemy_next_to(h), s.enemy_sp.get(near, 0) if near is not None else 0)
    return 3.0 if foe > _sp(s, k) else -0.1


def withdrawal_move(s: Situation, a: Action) -> float:
    """002 §9.54: a unit off the objectives backs away (facing kept) when the enemy next
    to it has more than twice its SP; the farther from the enemy at the end, the better."""
    return back_away(s, a, outnumbered=2, refuse=-0.2, base=0.5, alone=3)


def _turn_gain(s: Situation, a: Action) -> float:
    """How much nearer the enemy (else the objective) the new facing brings the front."""
    k = str(a.get("unit"))
    h = s.unit_hex(k)
    if h is None:
        return -1.0
    target = s.aim(h)
    if target is None or target == h:
        return -1.0
    now = facing_cos((s.own.get(k) or {}).get("facing"), h, target)
    return facing_cos(a.get("facing"), h, target) - now


def rally_face(s: Situation, a: Action) -> float:
    """002 §7.25: rally, then turn one vertex: above the plain rally (1.5) only when the
    turn brings the front nearer the enemy."""
    return 1.5 + 0.2 * _turn_gain(s, a) - 0.03


def resupply_face(s: Situation, a: Action) -> float:
    """002 §10.92 with §7.25's turn: the resupply's own score, plus the turn's gain as
    above."""
    ammo = (s.own.get(str(a.get("unit"))) or {}).get("ammo")
    base = 0.8 if ammo == "out" else 0.2 if ammo == "low" else -0.05
    return base + 0.2 * _turn_gain(s, a) - 0.03


def idle_rally(s: Situation, a: Action) -> float:
    """002 §13.45: an idle brigade rallies (rather than rests) when its disordered units
    outnumber its fatigue levels; the choice back to resting scores the other way."""
    b = str(a.get("brigade"))
    rec = (s.view.get("brigades") or {}).get(b) or {}
    fatigue = int(rec.get("fatigue") or 0)
    disordered = sum(1 for u in s.own.values()
                     if u.get("brigade") == b and u.get("hex") and u.get("disordered"))
    rally = disordered > fatigue
    return 0.3 if bool(a.get("on")) == rally else -0.1


def road_saving(s: Situation, a: Action) -> float | None:
    """004 §9.88: the infantry MP the off-map road saves the unit on its way to its
    objective: its distance now, less the distance from where the road comes back on
    (the view's ``place_hexes``) and the journey's turns at :data:`TURN_MP` each (the
    links' turns are public, ``data/off_map_roads.yaml``). ``None``: nothing to compare
    (no objective, or the unit or the road's end unknown)."""
    k = str(a.get("unit"))
    here = s.unit_hex(k)
    back = ((s.view.get("place_hexes") or {}).get("area") or {}).get(str(a.get("area")))
    if here is None or not back or not s.obj.hexes:
        return None
    area = board().hexes[here].entry
    turns = destinations(load_links(), area).get(int(str(a.get("area")))) \
        if area is not None else None
    if turns is None:
        return None
    there = s.to_goal(parse(str(back)))
    if there >= FAR:
        return None
    return s.to_goal(here) - (there + TURN_MP * turns)


def leave_map(s: Situation, a: Action) -> float:
    """004 §9.88: take the off-map road only when it saves at least :data:`ROAD_SAVES` MP
    over walking (then above any move, which gains at most a turn's march); never from an
    objective."""
    if s.unit_hex(str(a.get("unit"))) in s.obj.hexes:
        return -0.2
    saved = road_saving(s, a)
    if saved is None or saved < ROAD_SAVES:
        return -0.2  # troops off the map fight nobody
    return 1.0 + 0.02 * min(saved, 50.0)


def hero_policy(s: Situation, a: Action) -> float:
    """004 §18.0 P (E-33): "both" while two or more Hero markers are held, else the
    default "save"; every other policy declined."""
    held = int(((s.view.get("heroes") or {}).get(s.seat) or {}).get("held") or 0)
    want = "both" if held >= SPARE_HEROES else "save"
    return 0.05 if a.get("use") == want else -0.05


SCORERS: dict[str, Callable[[Situation, Action], float]] = {
    "attach": attach,
    "place_works": place_works,
    "leave_map": leave_map,
    "entry_area": entry_area,
    "counter_charge": counter_charge,
    "break_charge": break_charge,
    "withdrawal_move": withdrawal_move,
    "rally_face": rally_face,
    "resupply_face": resupply_face,
    "idle_rally": idle_rally,
    "hero_policy": hero_policy,
}


def score(s: Situation, a: Action) -> float | None:
    """The score of ``a`` if it is one of this module's kinds, else ``None``."""
    f = SCORERS.get(str(a.get("type")))
    return None if f is None else f(s, a)
