"""The campaign's victory terms beyond the objective hexes, for the GBACW general (004
sc.6.7, the Battle; issue 54). Two rules of thumb, each read from the seat's own view and
the public scenario file (:func:`ground.campaign`):

- the Emmitsburg Road: the Union's geographic objective also needs no in-command
  Confederate infantry or cavalry on or east of the road between B4721 and C4645, so the
  Union values such units as targets: a shot at one is worth ``ROAD_FIRE`` more, a shock
  ``ROAD_SHOCK`` times its chance of driving them off. Command is not read (the enemy's
  chain is not worked out from a view): every Confederate infantry or cavalry unit there
  counts, the cautious reading for the Union.
- the loss objective: a side loses when enough of its own divisions are combat-
  ineffective (a cavalry brigade counting as a division; 12 Union, 6 Confederate). When its
  own count comes within ``NEAR`` of that limit, the general stops feeding the brigades
  that could tip another division (those not CI, in a division not CI) into fights at poor
  odds: their shocks cost ``caution * (SHOCK_COST + 2 * chance of being thrown back)``
  more, and their moves next to more enemy SP than the unit has ``caution * CROWD_COST``.
  ``caution`` is 1 one division short of the limit and 0.5 two short.

:func:`adjust` adds these to the doctrine's scores; in any other scenario it returns them
untouched.
"""

from __future__ import annotations

from collections.abc import Sequence

from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import Action
from gettysburg.gbacw.ai.combat import odds, shock_drm
from gettysburg.gbacw.ai.ground import Campaign, campaign, parse
from gettysburg.gbacw.ai.situation import Situation

#: a shot at a Confederate infantry or cavalry unit on or east of the road (the doctrine's
#: shots score 0.4-1.1; an objective's holders +1.0)
ROAD_FIRE = 0.6
#: a shock's bonus per unit of chance of driving road intruders back
ROAD_SHOCK = 1.0
#: how many divisions short of the loss limit caution starts
NEAR = 2
#: a cautious shock's fixed cost, and a cautious move's next to a stronger enemy
SHOCK_COST, CROWD_COST = 0.5, 0.4
FIRE_KINDS = frozenset({"fire", "combined_fire", "rapid_fire", "fire_split"})
FIGHTING_ARMS = frozenset({"inf", "cav"})


def intruders(s: Situation, terms: Campaign) -> frozenset[Hex]:
    """Hexes of the road zone holding an enemy infantry or cavalry unit (004 sc.6.7), for
    the seat that needs the road clear; empty for the other."""
    if terms.road_seat != s.seat:
        return frozenset()
    out: set[Hex] = set()
    for u in (s.view.get("units") or {}).values():
        if u.get("seat") != s.seat and u.get("hex") and u.get("arm") in FIGHTING_ARMS:
            h = parse(str(u["hex"]))
            if h in terms.road_zone:
                out.add(h)
    return frozenset(out)


def own_ci_divisions(s: Situation) -> int:
    """The seat's own combat-ineffective divisions as the campaign counts them (004 sc.6.7,
    from the view's public CI markers, 002 §13.22, §13.31): a CI cavalry brigade counts as
    a division, and a cavalry division by its brigades."""
    brigades = s.view.get("brigades") or {}
    mine = {b: rec for b, rec in brigades.items() if rec.get("seat") == s.seat}
    arms: dict[str, set[str]] = {}
    for u in s.own.values():
        if u.get("arm") not in ("art", "horse_art"):
            arms.setdefault(str(u.get("brigade")), set()).add(str(u.get("arm")))

    def cavalry(b: str) -> bool:
        return arms.get(b) == {"cav"}

    n = sum(1 for b in s.view.get("ci_brigades") or () if b in mine and cavalry(b))
    for d in s.view.get("ci_divisions") or ():
        members = [b for b, rec in mine.items() if rec.get("division") == d]
        if members and not all(cavalry(b) for b in members):
            n += 1
    return n


def caution(s: Situation, terms: Campaign) -> float:
    """How near the seat's own CI divisions are to the count that loses (0 far off, 0.5 two
    short, 1 one short or at it)."""
    limit = terms.limit(s.seat)
    if limit is None:
        return 0.0
    short = limit - own_ci_divisions(s)
    return 1.0 if short <= 1 else 0.5 if short <= NEAR else 0.0


def at_risk(s: Situation) -> frozenset[str]:
    """Own units whose losses could add a CI division: in a brigade not yet CI whose
    division is not CI either (002 §13.2-13.3)."""
    brigades = s.view.get("brigades") or {}
    ci_b = set(s.view.get("ci_brigades") or ())
    ci_d = set(s.view.get("ci_divisions") or ())
    out = set()
    for k, u in s.own.items():
        b = str(u.get("brigade"))
        div = (brigades.get(b) or {}).get("division")
        if b not in ci_b and (div is None or div not in ci_d):
            out.add(k)
    return frozenset(out)


def _shocks(a: Action) -> list[tuple[list[str], list[Hex]]]:
    return [([str(k) for k in sh.get("attackers") or []],
             [parse(str(t)) for t in sh.get("targets") or []])
            for sh in a.get("shocks") or []]


def adjust(s: Situation, legal: Sequence[Action], scores: list[float]) -> list[float]:
    """``scores`` (the doctrine's, one per legal action) with the campaign's terms added
    (module doc); the same list, untouched, outside the campaign."""
    terms = campaign(str(s.view.get("scenario", "")))
    if terms.road_seat is None and not terms.ci_limit:
        return scores
    kinds = {a.get("type") for a in legal}
    fights = bool(kinds & (FIRE_KINDS | {"shock"}))
    moves = bool(kinds & {"move", "move_stack"})
    if not fights and not moves:
        return scores
    road = intruders(s, terms) if fights else frozenset()
    care = caution(s, terms)
    if not road and not care:
        return scores
    risky = at_risk(s) if care else frozenset()
    units = s.view.get("units") or {}
    out = list(scores)
    for i, a in enumerate(legal):
        kind = a.get("type")
        if kind in FIRE_KINDS and road:
            t = a.get("target") or (a.get("targets") or [None])[0]
            if t and parse(str(t)) in road:
                out[i] += ROAD_FIRE
        elif kind == "shock":
            for attackers, targets in _shocks(a):
                win, lose = odds(shock_drm(units, attackers, targets,
                                           s.orders.get(attackers[0]) if attackers else None))
                if road and any(t in road for t in targets):
                    out[i] += ROAD_SHOCK * win
                if care and any(k in risky for k in attackers):
                    out[i] -= care * (SHOCK_COST + 2.0 * lose)
        elif kind in ("move", "move_stack") and care:
            k = str(a.get("unit"))
            if k not in risky:
                continue
            sp = int((s.own.get(k) or {}).get("sp") or 0)
            on_obj, _, next_to, _ = s.hex_terms(parse(str(a.get("to"))))
            if not on_obj and next_to > sp:
                out[i] -= care * CROWD_COST
    return out
