"""Command (4.x): who leads what, who commands whom, command range, HQ succession.

Roles are derived from the state each time they are needed, never stored, so a fallen or
late-arriving HQ changes them at once:

* 4.6 the AHQ if on the map; otherwise the most senior CHQ on the map is a temporary AHQ
  (with the Hancock option, Hancock until Meade arrives). If the AHQ has *fallen*, that
  CHQ acts as AHQ and the successor DHQ of its corps takes the corps (4.61).
* 4.61 a fallen CHQ is not replaced: the successor DHQ of the 4.6 table (or the next DHQ of
  the corps on the map) acts as CHQ, still commanding fire only for its own division.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gettysburg.boc.board import Board
from gettysburg.boc.control import enemy_hexes, within
from gettysburg.boc.oob import HQ_TYPES, Hierarchy, OrderOfBattle, Unit
from gettysburg.boc.state import ELIMINATED, ON_MAP, BocState

DHQ_TYPES = frozenset({"dhq", "cav_dhq"})
# 1.2 / 4.3 / 4.24 / 4.25: HQs that may be activated in the command phase (CHQs and AHQs
# supply but never command fire, 4.22, 4.23).
COMMAND_HQ_TYPES = frozenset({"dhq", "cav_dhq", "art_hq", "cav_chq"})
CORPS_LEADER_TYPES = frozenset({"chq", "cav_chq"})


@dataclass
class Orders:
    """Order of battle and hierarchy with the lookups the rules need."""

    oob: OrderOfBattle
    hierarchy: Hierarchy
    asset_of: dict[str, str] = field(default_factory=dict)  # unit -> corps (4.4)
    reserve_artillery: frozenset[str] = frozenset()  # USA reserve artillery box
    corps_chq: dict[tuple[str, str], str] = field(default_factory=dict)
    corps_dhqs: dict[tuple[str, str], list[str]] = field(default_factory=dict)
    seniority: dict[str, list[tuple[str, str, str]]] = field(default_factory=dict)
    independent: frozenset[str] = frozenset()  # 3.31 Berdan

    @staticmethod
    def build(oob: OrderOfBattle, hierarchy: Hierarchy) -> Orders:
        o = Orders(oob, hierarchy)
        reserve: set[str] = set()
        independent: set[str] = set()
        for side in ("usa", "csa"):
            sc = hierarchy.side(side)
            for corps, cc in sc.corps.items():
                o.corps_chq[(side, corps)] = cc.chq
                o.corps_dhqs[(side, corps)] = list(cc.divisions.values())
                for a in cc.assets:
                    o.asset_of[a] = corps
            for sp in sc.special:
                if sp.kind == "corps_asset":
                    o.asset_of[sp.unit] = oob[sp.unit].corps
                if sp.kind == "independent":
                    independent.add(sp.unit)
            if side == "usa":
                reserve.update(sc.artillery.units)
            o.seniority[side] = [(r.chq, r.corps, r.successor)
                                 for r in sorted(sc.chq_seniority, key=lambda r: r.rank)]
        o.reserve_artillery = frozenset(reserve)
        o.independent = frozenset(independent)
        return o

    def unit(self, uid: str) -> Unit:
        return self.oob[uid]

    def is_hq(self, uid: str) -> bool:
        return self.oob[uid].type in HQ_TYPES


@dataclass
class Roles:
    ahq: str | None  # acting AHQ (4.6, 4.61)
    chq: dict[str, str]  # corps -> acting CHQ


def _present(state: BocState, uid: str) -> bool:
    u = state.units.get(uid)
    return u is not None and u.status == ON_MAP


def roles(state: BocState, orders: Orders, side: str) -> Roles:
    sc = orders.hierarchy.side(side)  # type: ignore[arg-type]
    ranked = orders.seniority[side]
    hancock = state.hancock.get("corps") if side == "usa" else None
    hancock_id = sc.hancock_option.unit if sc.hancock_option is not None else None
    ahq: str | None = None
    ahq_fallen = state.units.get(sc.ahq) is not None and state.units[sc.ahq].status == ELIMINATED
    if _present(state, sc.ahq):
        ahq = sc.ahq
    elif hancock and hancock_id and _present(state, hancock_id) and not ahq_fallen:
        ahq = hancock_id  # Hancock option: acting army commander until Meade arrives
    else:
        ahq = next((chq for chq, _, _ in ranked if _present(state, chq)), None)
    chq: dict[str, str] = {}
    for (s, corps), leader in orders.corps_chq.items():
        if s != side:
            continue
        if hancock == corps and hancock_id and _present(state, hancock_id):
            chq[corps] = hancock_id
            continue
        replaced = (state.units.get(leader) is not None
                    and state.units[leader].status == ELIMINATED)
        if ahq_fallen and leader == ahq:
            replaced = True  # 4.61: this CHQ now leads the army; its successor the corps
        if hancock and leader == hancock_id:
            replaced = True  # Hancock left his own corps to its successor
        acting = [u for u, c in sorted(state.acting.items()) if c == corps and _present(state, u)]
        if acting:
            chq[corps] = acting[0]
        elif _present(state, leader) and not replaced:
            chq[corps] = leader
        elif replaced:
            successor = next((succ for c, cp, succ in ranked if cp == corps and c == leader), None)
            order = ([successor] if successor else []) + orders.corps_dhqs.get((side, corps), [])
            found = next((d for d in order if _present(state, d)), None)
            if found is not None:
                chq[corps] = found
    return Roles(ahq, chq)


def can_command(orders: Orders, hq: Unit, unit: Unit) -> bool:
    """Whether an active ``hq`` may put ``unit`` under command for fire and melee."""
    if hq.side != unit.side or unit.type in HQ_TYPES:
        return False
    if hq.type in DHQ_TYPES:
        if unit.corps == hq.corps and unit.division == hq.division \
                and unit.id not in orders.asset_of:
            return True
        if orders.asset_of.get(unit.id) == hq.corps:
            return True  # 4.4 corps assets: any active DHQ of the corps
        return unit.id in orders.reserve_artillery  # box: any USA DHQ, reserve artillery
    if hq.type == "art_hq":
        return unit.type == "artillery"  # 4.24 every artillery except horse artillery
    if hq.type == "cav_chq":
        return unit.type in ("cavalry", "horse_artillery")  # 4.25
    return False


def needs_command(orders: Orders, uid: str) -> bool:
    """3.31: Berdan fires and melees without command."""
    return uid not in orders.independent


def command_range(board: Board, state: BocState, orders: Orders, hq_id: str,
                  enemy: frozenset[str] | None = None) -> dict[str, int]:
    """4.5: hexes within the HQ's range, traced through friendly or neutral hexes only
    (``enemy``: the hexes its side sees as enemy, if the caller has them)."""
    hq = state.units[hq_id]
    assert hq.hex is not None
    rng = orders.oob[hq_id].command_range or 0
    if enemy is None:
        enemy = enemy_hexes(state, hq.side)
    return within(board, hq.hex, rng, enemy)


def commanded_units(board: Board, state: BocState, orders: Orders, hq_id: str) -> list[str]:
    """Units that come under command when ``hq_id`` activates now (4.3)."""
    reach = command_range(board, state, orders, hq_id)
    hq = orders.oob[hq_id]
    out = []
    for u in state.on_map(hq.side):
        if u.hex in reach and can_command(orders, hq, orders.oob[u.id]):
            out.append(u.id)
    return sorted(out)


def supply_roles(state: BocState, orders: Orders, hq_id: str,
                 side_roles: Roles | None = None) -> list[tuple[str, str]]:
    """The roles in which an HQ may hand out supply (8.2): ("ahq", ""), ("chq", corps),
    ("dhq", ""), ("art", ""), ("cav", "") (``side_roles``: :func:`roles` of its side, if
    the caller has them)."""
    unit = orders.oob[hq_id]
    r = roles(state, orders, unit.side) if side_roles is None else side_roles
    out: list[tuple[str, str]] = []
    if r.ahq == hq_id:
        out.append(("ahq", ""))
    out += [("chq", corps) for corps, leader in sorted(r.chq.items()) if leader == hq_id]
    if unit.type in DHQ_TYPES:
        out.append(("dhq", ""))
    if unit.type == "art_hq":
        out.append(("art", ""))
    if unit.type == "cav_chq":
        out.append(("cav", ""))
    return out


def may_supply(orders: Orders, hq_roles: list[tuple[str, str]], hq: Unit, target: Unit) -> bool:
    """8.2 who may add steps to whom."""
    if target.id == hq.id or target.side != hq.side:
        return False
    if target.type == "ahq":
        return False  # 4.23 the AHQ is rebuilt only by night supply
    asset = target.id in orders.asset_of or target.id in orders.reserve_artillery
    for role, corps in hq_roles:
        if role == "ahq":
            return True
        if target.type in ("chq", "art_hq", "cav_chq"):
            continue  # 8.2, 4.24, 4.25: only the AHQ supplies these
        if role == "chq" and (target.corps == corps or orders.asset_of.get(target.id) == corps):
            return True
        if target.type in DHQ_TYPES:
            continue  # 8.2 only a CHQ or the AHQ adds steps to a DHQ
        if role == "cav" and target.type in ("cavalry", "horse_artillery"):
            return True
        if role == "art" and target.type == "artillery":
            return True  # 4.24 the artillery HQ supplies any artillery (its box)
        if role == "dhq" and not asset and target.corps == hq.corps \
                and target.division == hq.division:
            return True
    return False
