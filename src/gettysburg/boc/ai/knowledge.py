"""What one seat knows at one decision of a BoC game, pre-digested from its view for the
doctrine (``Knowledge``): own blocks, the enemy blocks as known (hidden ones guessed), the
front line, melee declarations, the score against the scenario's bands, what each
victory hex needs. ``move_values.Situation`` adds to it how good each hex and move is.

Nothing here reads the game state: two views that look the same give the same knowledge.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

from gettysburg.boc.ai.facts import MapFacts, scenario_source
from gettysburg.boc.ai.melee_outlook import GUESS_STRENGTH
from gettysburg.boc.ai.move_memo import Key
from gettysburg.boc.ai.scenario_facts import (
    LAST_DAY_HOUR,
    scenario_bands,
    strength_mix,
    turns_left,
)
from gettysburg.boc.ai.style import DEFAULT_STYLE, Style, style_key
from gettysburg.boc.oob import HQ_TYPES, OrderOfBattle, Unit
from gettysburg.core.doctrine import JSONDict
from gettysburg.core.protocol import Action

HIDDEN_STRENGTH = 3.0  # a hidden enemy block is guessed at the typical full strength


class EnemyReach:
    """How far hexes are from one set of enemy hexes: the nearest enemy block, and how
    many enemy hexes lie within r. Worked out on demand and kept, since the enemy's hexes
    stay the same through a player's phase while many situations ask (``enemy_reach``)."""

    def __init__(self, facts: MapFacts, enemy_hexes: frozenset[str]) -> None:
        self.facts, self.enemy_hexes = facts, enemy_hexes
        self._nearest: dict[str, int] = {}
        self._within: dict[tuple[str, int], int] = {}
        nbrs = facts.nbrs
        #: The hexes next to an enemy block that hold none: the front line (``Knowledge``).
        self.front = frozenset([n for hx in enemy_hexes for n in nbrs.get(hx, ())
                                if n not in enemy_hexes])

    def nearest(self, hx: str) -> int:
        """Hexes from ``hx`` to the nearest enemy hex (99: none)."""
        got = self._nearest.get(hx)
        if got is None:
            got = min((self.facts.dist(hx, e) for e in self.enemy_hexes), default=99)
            self._nearest[hx] = got
        return got

    def within(self, hx: str, r: int) -> int:
        """Enemy hexes at most ``r`` hexes from ``hx``."""
        got = self._within.get((hx, r))
        if got is None:
            got = sum(1 for e in self.enemy_hexes if self.facts.dist(hx, e) <= r)
            self._within[(hx, r)] = got
        return got


#: ``_corps_of`` of the orders of battle met, by id (each kept with its answer, so that
#: its id is not reused while the entry lives); a few at most.
_CORPS: dict[int, tuple[OrderOfBattle, dict[str, str]]] = {}


def _corps_of(oob: OrderOfBattle) -> dict[str, str]:
    """The corps of each block of ``oob`` that is no HQ (4.5: an HQ's hex values count
    the blocks of its corps), by unit id."""
    got = _CORPS.get(id(oob))
    if got is None or got[0] is not oob:
        if len(_CORPS) >= 8:
            _CORPS.clear()
        got = _CORPS[id(oob)] = (oob, {uid: lab.corps for uid, lab in oob.units.items()
                                       if lab.type not in HQ_TYPES})
    return got[1]


@lru_cache(maxsize=32)
def enemy_reach(facts: MapFacts, enemy_hexes: frozenset[str]) -> EnemyReach:
    """The shared :class:`EnemyReach` of these enemy hexes on this board."""
    return EnemyReach(facts, enemy_hexes)


def near_victory(facts: MapFacts, hx: str) -> tuple[str, ...]:
    """The victory hexes at distance 0 or 1 from ``hx`` (their control can change when a
    block enters or leaves ``hx``, 6.61)."""
    got = facts.near_victories.get(hx)
    if got is None:
        got = tuple(v for v in facts.victory if facts.dist(v, hx) <= 1)
        facts.near_victories[hx] = got
    return got


@lru_cache(maxsize=8)
def _around_objectives(facts: MapFacts) -> tuple[tuple[str, frozenset[str]], ...]:
    """Each victory hex with the hexes next to it, in the board's order."""
    return tuple((v, frozenset(facts.nbrs.get(v, ()))) for v in facts.victory)


def other(side: str) -> str:
    return "csa" if side == "usa" else "usa"



class Knowledge:
    """What one seat knows at one decision, pre-digested for scoring."""

    def __init__(self, view: JSONDict, facts: MapFacts, oob: OrderOfBattle,
                 style: Style = DEFAULT_STYLE) -> None:
        self.facts, self.oob, self.style = facts, oob, style
        self.seat = str(view.get("seat"))
        self.enemy = other(self.seat)
        self.night = bool(view.get("night"))
        self.control: dict[str, str] = dict(view.get("control") or {})
        seat, enemy = self.seat, self.enemy
        own: dict[str, JSONDict] = {}
        own_on: dict[str, JSONDict] = {}
        garrison: Counter[str] = Counter()
        # Own columns by hex (6.0 option): a hex with a column holds that unit alone.
        self.columns: dict[str, set[str]] = {}
        # The hexes of each corps' blocks, HQs left out (``hq_near``, 4.5).
        self._corps_hexes: dict[str, list[str]] = {}
        corps_of = _corps_of(oob)
        self.enemy_at: dict[str, float] = {}
        # Enemy blocks per hex as the seat knows them: (unit id or None if hidden, strength).
        self.enemy_blocks: dict[str, list[tuple[str | None, int]]] = {}
        enemy_at, enemy_blocks = self.enemy_at, self.enemy_blocks
        counted = garrison.get
        for u in view.get("units", []):  # one pass (issue 59: a few hundred blocks)
            if not isinstance(u, dict):
                continue
            side = u.get("side")
            if side == seat:
                uid = str(u["id"])
                own[uid] = u
                at = u.get("hex")
                if at and u.get("status") == "on_map":
                    own_on[uid] = u
                    hx = str(at)
                    garrison[hx] = counted(hx, 0) + 1
                    if u.get("column"):
                        self.columns.setdefault(hx, set()).add(uid)
                    corps = corps_of.get(uid)
                    if corps is not None:
                        self._corps_hexes.setdefault(corps, []).append(hx)
            elif side == enemy and u.get("hex") and u.get("status", "on_map") == "on_map":
                hx = str(u["hex"])
                enemy_at[hx] = enemy_at.get(hx, 0.0) + float(u.get("strength", 0))
                got = enemy_blocks.get(hx)
                if got is None:
                    got = enemy_blocks[hx] = []
                got.append((str(u["id"]), int(u.get("strength", 0))))
        self.own, self.own_on, self.garrison = own, own_on, garrison
        # Hidden blocks the seat's memory ties to one unit (BocMemory: seen standing up
        # again, 8.1) count as that unit at the strength last seen.
        recalled = view.get("recalled") or {}
        for h in view.get("hidden", []):
            if h.get("side") == self.enemy and h.get("hex"):
                hx = str(h["hex"])
                known = recalled.get(str(h.get("handle")))
                if known:
                    uid, s = str(known[0]), int(known[1])
                    self.enemy_at[hx] = self.enemy_at.get(hx, 0.0) + s
                    self.enemy_blocks.setdefault(hx, []).append((uid, s))
                    continue
                self.enemy_at[hx] = self.enemy_at.get(hx, 0.0) + HIDDEN_STRENGTH
                self.enemy_blocks.setdefault(hx, []).append((None, GUESS_STRENGTH))
        combat = view.get("combat") or {}
        # Own melee declarations this phase (7.1): target -> [(unit, from hex, kind)].
        self.declared: dict[str, list[tuple[str, str | None, str]]] = {}
        for m in combat.get("melees") or []:
            if m.get("side") == self.seat and m.get("unit") \
                    and m.get("target") not in (combat.get("resolved") or []):
                frm = m.get("from")
                self.declared.setdefault(str(m["target"]), []).append(
                    (str(m["unit"]), str(frm) if frm else None, str(m.get("kind"))))
        self.battle: JSONDict | None = combat.get("battle")
        # 9.1 bands of the scenario (public file) against the CSA total the view shows: a
        # side that is not yet winning late in the day takes more risks (a draw is no win).
        self.hour = int(view.get("hour") or 0)
        total = (view.get("victory") or {}).get("total")
        usa_max, csa_min = scenario_bands(scenario_source(view))
        if not isinstance(total, int):
            self.behind = False
        elif self.seat == "usa":
            self.behind = total > usa_max
        else:
            self.behind = total < csa_min
        self.late = not self.night and self.hour >= LAST_DAY_HOUR - 1
        self.guess = strength_mix(scenario_source(view), self.enemy)
        # Supported melee declarations on offer, by target (set by BocDoctrine.scores).
        self.melee_offers: dict[str, list[Action]] = {}
        # Entry hexes on offer to each unit due to arrive (set by BocDoctrine.scores).
        self.entries: dict[str, set[str]] = {}
        # Distances to the enemy depend on the enemy's hexes alone (shared, see EnemyReach).
        self._reach = enemy_reach(facts, frozenset(self.enemy_at))
        self.front = self._reach.front
        self.need = self._needs()
        # Whether an HQ at 1 step may activate (4.3, ``final_turn_command``): our own turn,
        # and a verdict follows it (9.1).
        self.spend_last_step = style.final_turn_command \
            and str(view.get("active") or "") == self.seat and turns_left(view) == 0
        self._per_hq: dict[tuple[str, str], int] = {}  # HQ counts asked this decision
        self._melee_around: dict[str, Key] = {}  # ``melee_around``, by target
        # Garrison of each objective: blocks in it, plus half of those next to it.
        around = _around_objectives(facts)
        self.held = {v: counted(v, 0) + 0.5 * sum([counted(n, 0) for n in adjacent])
                     for v, adjacent in around}
        need, held = self.need, self.held
        self._objectives = [(v, need[v], held[v], adjacent) for v, adjacent in around]
        # The same, for a unit that garrisons none of them (``objective``).
        self.objectives_now = [(v, need, 1.0 + style.crowd * max(0.0, held))
                                for v, need, held, _ in self._objectives]

    def _needs(self) -> dict[str, float]:
        """How much each victory hex calls for troops: CSA must take, USA must hold."""
        need: dict[str, float] = {}
        st, held_by, within = self.style, self.control.get, self._reach.within
        take, hold, lost_too, reach = st.take, st.hold, st.take + st.lost, st.threat_reach
        threat, cap = st.threat, st.threat_cap
        for v, pts in self.facts.victory.items():
            side = held_by(v)
            base = hold if side == self.seat else (lost_too if side == self.enemy else take)
            need[v] = pts * (base + threat * min(cap, within(v, reach)))
        return need

    def melee_around(self, target: str) -> Key:
        """Everything a melee declaration on ``target`` is scored from besides its own
        block (which, from where, unsupported or not), as a key of kept scores
        (``BocDoctrine.melee_kept``): the board, seat, style, the guess of a hidden
        block's strength, whether the seat takes risks (behind and late), the own
        melees declared on it with their blocks' strengths, the supported declarations
        on offer against it with their blocks' hexes and strengths (``melee_offers``,
        complete once the legal list is read) and the enemy blocks in it. Made once per
        target and decision."""
        got = self._melee_around.get(target)
        if got is None:
            strength, own = self.strength, self.own
            got = self._melee_around[target] = Key((
                self.facts, style_key(self.style), self.seat, self.guess,
                self.behind and self.late, target,
                tuple([(u, frm, strength(u)) for u, frm, _kind in self.declared.get(target, ())]),
                tuple([(ou, own.get(ou, {}).get("hex"), strength(ou))
                       for ou in (str(o["unit"]) for o in self.melee_offers.get(target, ()))]),
                tuple(self.enemy_blocks.get(target, ()))))
        return got

    def steps_before_loss(self, hx: str) -> list[int]:
        """The enemy blocks in ``hx`` as ``kill_chance`` counts them: by strength, with a
        known HQ one step stronger, for its 0 step takes a hit before it falls (7.5)."""
        return [s + 1 if self.is_hq(eid) else s for eid, s in self.enemy_blocks.get(hx, [])]

    def unit(self, uid: str) -> Unit | None:
        return self.oob.units.get(uid)

    def is_hq(self, uid: str | None) -> bool:
        """Whether this seat knows ``uid`` for an HQ: an own block, or a revealed enemy
        one (a hidden enemy block comes with no id)."""
        lab = self.unit(uid) if uid else None
        return lab is not None and lab.is_hq

    def _enemy_within(self, hx: str, r: int) -> int:
        return self._reach.within(hx, r)

    def strength(self, uid: str) -> int:
        u = self.own.get(uid)
        return int(u.get("strength", 0)) if u else 0

    def missing(self, uid: str) -> int:
        label = self.unit(uid)
        return max(0, (label.max_strength if label else 0) - self.strength(uid))

    def front_troops_in_range(self, hq: str) -> int:
        """Blocks of ``hq``'s corps in the front line within its command range (4.5);
        asked once per HQ and decision (an HQ's activations are listed per destination)."""
        got = self._per_hq.get(("front", hq))
        if got is None:
            got = self._per_hq[("front", hq)] = self._front_troops_in_range(hq)
        return got

    def _front_troops_in_range(self, hq: str) -> int:
        label, u = self.unit(hq), self.own.get(hq)
        if label is None or u is None or not u.get("hex"):
            return 0
        rng = label.command_range or 0
        n = 0
        for uid, o in self.own_on.items():
            lab = self.unit(uid)
            if lab is None or lab.is_hq or lab.corps != label.corps:
                continue
            if o["hex"] in self.front and self.facts.dist(str(u["hex"]), str(o["hex"])) <= rng:
                n += 1
        return n

    def depleted_in_range(self, hq: str) -> int:
        """Steps missing from the blocks ``hq`` may supply (8.2), once per HQ and decision."""
        got = self._per_hq.get(("depleted", hq))
        if got is None:
            got = self._per_hq[("depleted", hq)] = self._depleted_in_range(hq)
        return got

    def _depleted_in_range(self, hq: str) -> int:
        label, u = self.unit(hq), self.own.get(hq)
        if label is None or u is None or not u.get("hex"):
            return 0
        rng = label.command_range or 0
        # Only the HQ's own corps: 8.2 supply runs down the chain of command (an AHQ,
        # whose corps is "army", supplies everyone).
        army = label.type == "ahq"
        total = 0
        for uid, o in self.own_on.items():
            lab = self.unit(uid)
            if uid == hq or lab is None or not (army or lab.corps == label.corps):
                continue
            if self.facts.dist(str(u["hex"]), str(o["hex"])) <= rng:
                total += self.missing(uid)
        return total
