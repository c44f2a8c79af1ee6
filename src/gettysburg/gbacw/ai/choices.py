"""How the GBACW general answers the decisions the engine grew after its first version
(issue 54): the Random Events table's choices (004 §18.0), mounting and dismounting
(002 §14.22), resupply (§10.92), the fire variants (§10.15, §10.63, §10.68), Warren
(004 §14.5), Trimble (§14.6) and relieving a drunk brigadier (§18.0, L).

Each scorer returns a score on the doctrine's scale (a "done" action scores 0.01, a
decline 0.0); ``None`` means "not mine" and the doctrine falls back on its rank for a kind
it does not know (below every done action). A decision with no decline in its list
(a compulsory letter) is answered by its best-scored option, the first on ties.
"""

from __future__ import annotations

from collections.abc import Callable

from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import Action
from gettysburg.gbacw.ai.ground import parse
from gettysburg.gbacw.ai.situation import Situation

#: distance (hexes) to the nearest enemy within which mounted cavalry dismounts to fight,
#: and beyond which dismounted cavalry far from its objective mounts to ride there
DISMOUNT_WITHIN, MOUNT_BEYOND = 4, 8
#: infantry MP to the objective beyond which mounting to ride is worth its half MA
RIDE_BEYOND = 8.0


def _hex_of(s: Situation, key: str) -> Hex | None:
    u = (s.view.get("units") or {}).get(key) or {}
    return parse(str(u["hex"])) if u.get("hex") else None


def _letter(s: Situation) -> str:
    return str((s.view.get("pending") or {}).get("letter") or "")


def _brigade_size(s: Situation, brigade: str) -> int:
    return len(s.brigade_hexes.get(brigade, []))


def event_choice(s: Situation, a: Action) -> float:
    """004 §18.0: the pick a drawn letter asks for. Optional letters are taken when they
    help (B: the largest brigade acts; E: a shot at an enemy leader; H: Imboden comes; O:
    a routed unit comes back; K: below) and G is declined (its area shift may strand the
    group); a compulsory letter (D, L, N, Q) takes its best or first candidate."""
    letter, choice = str(a.get("letter") or _letter(s)), str(a.get("choice"))
    if letter == "B":
        return 0.5 + 0.01 * _brigade_size(s, choice)
    if letter in ("E", "H", "O"):
        return 0.5
    if letter == "G":
        return -0.1
    if letter == "K":
        return _k_unit(s, choice)
    if letter == "N":
        # an enemy may rout: the one on an objective first, then the strongest
        h = _hex_of(s, choice)
        sp = int(((s.view.get("units") or {}).get(choice) or {}).get("sp") or 0)
        return 0.5 + (1.0 if h in s.obj.hexes else 0.0) + 0.01 * sp
    if letter == "Q":
        # a cavalry brigade leaves play: the smallest goes
        return 0.5 - 0.01 * _brigade_size(s, choice)
    return 0.0  # D, L: any will do (the first)


def _k_unit(s: Situation, key: str) -> float:
    """004 §18.0, K (the roller's opponent moves up to two units of either side 3 hexes):
    pick an enemy unit on or next to an objective (to move it off), or one of ours short
    of one (to bring it nearer); otherwise decline."""
    h = _hex_of(s, key)
    if h is None:
        return -0.1
    ours = key in s.own
    near_obj = min((h.distance(g) for g in s.obj.hexes), default=99)
    if not ours and near_obj <= 1:
        return 1.5 - 0.5 * near_obj
    if ours and s.attacking and h not in s.obj.hexes and s.to_goal(h) > 1.0:
        return 0.2
    return -0.1


def event_move(s: Situation, a: Action) -> float:
    """K's move: an enemy unit as far from the objectives as it may go, one of ours as
    near (never next to a much stronger enemy); a move gaining nothing is declined."""
    key = str(a.get("unit"))
    frm, to = _hex_of(s, key), parse(str(a["to"]))
    if frm is None or not s.obj.hexes:
        return -0.1
    before, after = s.to_goal(frm), s.to_goal(to)
    if key not in s.own:
        return 0.1 * (after - before) - 0.05
    sp = int((s.own.get(key) or {}).get("sp") or 0)
    if s.enemy_next_to(to) > 2 * sp and to not in s.obj.hexes:
        return -0.5
    if to in s.obj.hexes and not s.own_at.get(to):
        return 2.0
    return 0.1 * (before - after) - 0.05


def mount(s: Situation, a: Action) -> float:
    """002 §14.22 (and §10.94: mounting refills the ammunition): mount to ride a long way
    with no enemy near, or to resupply a unit out of ammunition."""
    k = str(a.get("unit"))
    h = s.unit_hex(k)
    if h is None:
        return -0.05
    near = s.nearest_enemy(h, MOUNT_BEYOND)
    if near is not None and (s.own.get(k) or {}).get("ammo") != "out":
        return -0.05
    if (s.own.get(k) or {}).get("ammo") == "out":
        return 0.6
    return 0.25 if s.to_goal(h) > RIDE_BEYOND else -0.05


def dismount(s: Situation, a: Action) -> float:
    """002 §14.22: mounted cavalry dismounts to fight when an enemy is near."""
    h = s.unit_hex(str(a.get("unit")))
    if h is None:
        return -0.05
    return 0.25 if s.nearest_enemy(h, DISMOUNT_WITHIN) is not None else -0.05


def resupply(s: Situation, a: Action) -> float:
    """002 §10.92: a unit out of ammunition resupplies rather than act; one low does when
    it has nothing better to do (a small score, below a move that gains ground)."""
    ammo = (s.own.get(str(a.get("unit"))) or {}).get("ammo")
    return 0.8 if ammo == "out" else 0.2 if ammo == "low" else -0.05


def warren(s: Situation, a: Action) -> float:
    """004 §14.5: Warren's one call, taken when the Union has no brigade acting (it is
    offered only then): the largest brigade, just above ending the activation."""
    return 0.002 + 0.0001 * _brigade_size(s, str(a.get("brigade")))


def activate_group(s: Situation, a: Action) -> float:
    """002 §5.34: coordinated brigades act as one; worth more than activating the lead
    alone (the doctrine's ``activate``: 1.0 plus 0.01 a unit), so taken when offered."""
    return 1.01 + 0.01 * sum(_brigade_size(s, str(b)) for b in a.get("brigades") or [])


def _take(_s: Situation, _a: Action) -> float:
    return 0.5


SCORERS: dict[str, Callable[[Situation, Action], float]] = {
    "event_choice": event_choice,
    "event_move": event_move,
    "event_pass": lambda _s, _a: 0.0,
    "mount": mount,
    "dismount": dismount,
    "resupply": resupply,
    "warren": warren,
    "activate_group": activate_group,
    "trimble": _take,  # 004 §14.6: a fallen leader's post filled keeps the chain whole
    "relieve": _take,  # 004 §18.0, L: a drunk brigadier relieved
}


def score(s: Situation, a: Action) -> float | None:
    """The score of ``a`` if it is one of this module's kinds, else ``None``."""
    f = SCORERS.get(str(a.get("type")))
    return None if f is None else f(s, a)
