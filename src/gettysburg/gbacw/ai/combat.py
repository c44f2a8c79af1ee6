"""How the GBACW general scores the combat decisions (issue 54, after issue 53): its own
shock designations (002 §11.31) by the odds the Shock table gives (the SP ratio's column,
002 §11.43, and the Terrain chart's shock DRMs between the hexes, §11.42), and the
defender's answers while the view's ``pending`` is set: withdraw or stand (§11.33),
pre-shock fire (§11.38), return fire or hold (§10.42), reaction facing (§9.61-9.62).
Everything is read from the seat's view and the public board and charts."""

from __future__ import annotations

from collections.abc import Iterable

from gettysburg.core.canonical import JSONDict
from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import Action, RuleError
from gettysburg.gbacw.ai.ground import board, parse
from gettysburg.gbacw.charts import all_charts
from gettysburg.gbacw.shock import terrain_shock_drm

#: a modified shock roll at or above this drives the defender back; at or below LOSE the
#: attacker falls back (the Shock table's result bands)
WIN, LOSE = 5, 1
#: the ratio column's DRM from which a defender off the objectives withdraws (2:1 against it)
OUTNUMBERED = 2


def _sp(units: JSONDict, keys: Iterable[str]) -> int:
    return sum(int((units.get(k) or {}).get("sp") or 0) for k in keys)


def _at(units: JSONDict, h: Hex) -> list[str]:
    return [k for k, u in units.items() if u.get("hex") and parse(str(u["hex"])) == h]


def ratio_drm(attack_sp: int, defend_sp: int) -> int:
    """The Shock table's ratio DRM (002 §11.43, rounded for the defender: a cautious guess)."""
    if attack_sp <= 0:
        return -9
    if defend_sp <= 0:
        return 9
    return all_charts().shock.ratio(attack_sp, defend_sp, favour_attacker=False).drm


def terrain_drm(attackers: Iterable[Hex], target: Hex) -> int:
    """The Terrain chart's shock DRM best for the defender over the adjacent pairs (§11.42)."""
    best: int | None = None
    for a in attackers:
        if a.distance(target) != 1:
            continue
        try:
            drm = terrain_shock_drm(board(), a, target)[0]
        except RuleError:
            continue
        best = drm if best is None else min(best, drm)
    return best or 0


def odds(drm: int) -> tuple[float, float]:
    """(chance the defender is driven back, chance the attacker is) on a d10 read 0..9."""
    rolls = range(10)
    return (sum(1 for r in rolls if r + drm >= WIN) / 10.0,
            sum(1 for r in rolls if r + drm <= LOSE) / 10.0)


def shock_drm(units: JSONDict, attackers: list[str], targets: list[Hex],
              attacker_orders: str | None) -> int:
    """The expected DRM of one designated shock: ratio, terrain, disorder, Advance orders
    (002 §11.42-11.43)."""
    a_hexes = [parse(str(units[k]["hex"])) for k in attackers
               if (units.get(k) or {}).get("hex")]
    defenders = [k for t in targets for k in _at(units, t)]
    drm = ratio_drm(_sp(units, attackers), _sp(units, defenders))
    drm += min((terrain_drm(a_hexes, t) for t in targets), default=0)
    if any((units.get(k) or {}).get("disordered") for k in defenders):
        drm += 1
    if any((units.get(k) or {}).get("disordered") for k in attackers):
        drm -= 1
    if attacker_orders == "advance":
        drm -= 1
    return drm


def score_shock(view: JSONDict, seat: str, a: Action, objective: frozenset[Hex],
                orders: dict[str, str]) -> float:
    """Shock when the odds favour it, most of all against an objective's holders."""
    units = view.get("units") or {}
    total = 0.0
    for s in a.get("shocks") or []:
        attackers = [str(k) for k in s.get("attackers") or []]
        targets = [parse(str(t)) for t in s.get("targets") or []]
        o = orders.get(attackers[0]) if attackers else None
        win, lose = odds(shock_drm(units, attackers, targets, o))
        value = 2.0 * win - 2.0 * lose - 0.6
        if any(t in objective for t in targets):
            value += 1.5 * win
        total += value
    return total


def _pending_attack(view: JSONDict) -> dict[Hex, list[str]]:
    """Target hex -> the attackers designated against it (the pending shock)."""
    out: dict[Hex, list[str]] = {}
    for s in (view.get("pending") or {}).get("shocks") or []:
        for t in s.get("targets") or []:
            out.setdefault(parse(str(t)), []).extend(str(k) for k in s.get("attackers") or [])
    return out


def score_withdraw(view: JSONDict, a: Action, objective: frozenset[Hex]) -> float:
    """Withdraw before shock (§11.33) when badly outnumbered on poor ground off the
    objectives; stand otherwise."""
    units = view.get("units") or {}
    me = units.get(str(a.get("unit"))) or {}
    if not me.get("hex"):
        return -1.0
    h = parse(str(me["hex"]))
    if h in objective:
        return -2.0
    attackers = _pending_attack(view).get(h, [])
    a_hexes = [parse(str(units[k]["hex"])) for k in attackers if (units.get(k) or {}).get("hex")]
    drm = ratio_drm(_sp(units, attackers), _sp(units, _at(units, h)))
    if drm + terrain_drm(a_hexes, h) < OUTNUMBERED:
        return -1.0
    to = parse(str(a["to"]))
    near = sum(1 for x in a_hexes if x.distance(to) <= 1)
    return 1.0 - 0.2 * near

