"""Badges of Courage doctrine: how a sensible commander plays, from public knowledge only.

Inputs are the seat's view (own blocks in full, revealed enemy blocks, hidden enemy blocks
as side + hex), the public board (``load_board()``: terrain, hexsides, victory hexes) and
the public order of battle (``default_oob()``: ratings and types). Nothing here reads the
game state, so two games that look the same from a seat get the same scores.

The commander's intent, as scores (0 = a "done" action such as ``end_phase``):

* objectives: CSA must take the victory hexes (9.1), USA must hold them; every unit is
  drawn towards the victory hex that needs it most, less so the more friends already
  garrison it (so the army spreads over the objectives instead of piling up);
* defend on good ground (woods, town, rocks, hills, double-defence hexes) when next to the
  enemy; never overstack (6.2 eliminates the excess at the phase's end);
* HQs stay in command range of their corps and out of the front line;
* at night (9.7) everybody pulls back from the front line, except victory-hex garrisons;
* fire where expected hits (strength x firepower/6, minus hexside terrain, halved in
  double-defence hexes) are best; melee only at good odds;
* activate HQs (they pay a step, 4.3) only where their troops face the enemy, spend supply
  (8.x) on depleted units, front line first.

The doctrine's parts: ``style`` (the weights, ``Style``, and which the general plays
where), ``scenario_facts`` (a scenario's public bands, schedule and strengths),
``knowledge`` (what the seat knows at a decision), ``move_values`` (how good each hex and
move is: the ``Situation`` the actions are scored in), ``move_keeping`` and ``move_memo``
(what is kept from one decision to the next), ``melee_outlook`` (a melee's Monte Carlo).
Here: the scores of every kind of action (``BocDoctrine``) and the evaluation of a view.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from math import comb
from typing import Any

from gettysburg.boc.ai.facts import MapFacts, facts_for
from gettysburg.boc.ai.facts import map_facts as map_facts  # re-exported: older callers
from gettysburg.boc.ai.knowledge import enemy_reach as enemy_reach  # re-exported
from gettysburg.boc.ai.melee_outlook import GUESS_STRENGTH, Fighter, fighter, outlook
from gettysburg.boc.ai.move_keeping import keep, kept_move_scores
from gettysburg.boc.ai.move_memo import MoveMemo
from gettysburg.boc.ai.move_runs import Runs, plan_moves
from gettysburg.boc.ai.move_values import Situation, move_scores
from gettysburg.boc.ai.scenario_facts import (  # re-exported: older callers
    scenario_bands as scenario_bands,
)
from gettysburg.boc.ai.scenario_facts import strength_mix as strength_mix
from gettysburg.boc.ai.scenario_facts import turns_left as turns_left
from gettysburg.boc.ai.scenario_facts import verdict_schedule as verdict_schedule
from gettysburg.boc.ai.style import (  # re-exported: older callers
    GENERAL_STYLES as GENERAL_STYLES,
)
from gettysburg.boc.ai.style import MELEE_MIN as MELEE_MIN
from gettysburg.boc.ai.style import MELEE_MIN_BEHIND as MELEE_MIN_BEHIND
from gettysburg.boc.ai.style import STYLES as STYLES
from gettysburg.boc.ai.style import Style as Style
from gettysburg.boc.ai.style import StyleKey as StyleKey
from gettysburg.boc.ai.style import general_style as general_style
from gettysburg.boc.ai.style import style_key
from gettysburg.boc.combat import would_eliminate
from gettysburg.boc.control import control_of
from gettysburg.boc.oob import ARTILLERY_TYPES, default_oob
from gettysburg.core.doctrine import DONE_TYPES, JSONDict
from gettysburg.core.protocol import Action

#: Its older name (tests).
_style_key = style_key

#: Melee scores kept (``MoveMemo.melee``): a battle's generals meet a few thousand.
MELEE_KEPT = 8192
FIRE_SIDE_TERRAIN = frozenset({"woods", "orchard", "town", "marsh", "river"})


def fire_penalty(facts: MapFacts, from_hex: str, through: str) -> int:
    """Hexside terrain between firer and ``through`` (5.22, terrain chart): woods, orchard,
    town, marsh, river -1; a hill crossed uphill -1."""
    try:
        side = facts.board.side(from_hex, through)
    except ValueError:
        return 0
    pen = 1 if side.terrain & FIRE_SIDE_TERRAIN else 0
    if side.slope == "hill" and side.uphill == facts.hexes.get(through):
        pen += 1
    return pen


def kill_chance(dice: int, firepower: int, strengths: Sequence[int],
                double_defence: bool) -> float:
    """Chance that one shot eliminates a block of the target hex: hits go one at a time
    to the strongest block (5.23), so the first elimination needs every block worn down
    to 1 step and one hit more; in a double-defence hex a step costs two half hits (5.24)."""
    if not strengths or dice <= 0 or firepower <= 0:
        return 0.0
    need = sum(max(0, s - 1) for s in strengths) + 1
    if double_defence:
        need *= 2
    if need > dice:
        return 0.0
    p = min(firepower, 6) / 6.0
    return sum(comb(dice, k) * p ** k * (1 - p) ** (dice - k) for k in range(need, dice + 1))


def expected_hits(strength: int, firepower: int, double_defence: bool) -> float:
    """Dice x P(hit): a die hits at or under the firepower (3.12)."""
    hits = strength * max(0, firepower) / 6.0
    return hits / 2.0 if double_defence else hits


class BocDoctrine:
    """Scores BoC actions for the ``general`` agent (see the module doc)."""

    def __init__(self, style: Style | None = None,
                 styles: Mapping[StyleKey, Style] | None = None, keep: bool = True) -> None:
        self.oob = default_oob()
        self.style = style  # None: by seat and scenario (``styles``, else the general's)
        #: Styles by (seat, scenario), or (seat, scenario, day) for one day of a multi-day
        #: scenario, that replace the general's own (``GENERAL_STYLES``) where given: e.g.
        #: the tuned styles (``gettysburg.boc.ai.tuned``).
        self.styles: dict[StyleKey, Style] = dict(styles or {})
        #: Whether to keep move values from one decision to the next (issue 59, ``memo``);
        #: ``keep=False`` scores every decision from scratch (the same scores, slower).
        self.keep = keep
        self._handlers: dict[str, Any] = {}  # ``score``'s method by action type
        self._local = threading.local()  # ``memo``: one per thread

    @property
    def memo(self) -> MoveMemo:
        """What this doctrine keeps between decisions (``move_memo``), one per thread: a
        server's games may ask one doctrine from several threads at once."""
        got: MoveMemo | None = getattr(self._local, "memo", None)
        if got is None:
            got = self._local.memo = MoveMemo()
        return got

    @property
    def _runs(self) -> dict[str, Runs]:
        """Each seat's runs of moves at its last decision (``move_runs``), per thread."""
        got: dict[str, Runs] | None = getattr(self._local, "runs", None)
        if got is None:
            got = self._local.runs = {}
        return got

    def __getstate__(self) -> dict[str, Any]:
        """Pickled without what it keeps (a player's checkpoint holds its doctrine)."""
        state = dict(self.__dict__)
        del state["_local"], state["_handlers"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._handlers = {}
        self._local = threading.local()

    def style_for(self, view: JSONDict) -> Style:
        """The style this doctrine plays the view's seat, scenario and day with."""
        if self.style is not None:
            return self.style
        seat, scenario = str(view.get("seat")), str(view.get("scenario"))
        day = view.get("day")
        return (self.styles.get((seat, scenario, day)) if isinstance(day, int) else None) \
            or self.styles.get((seat, scenario)) or general_style(seat, scenario)

    def situation(self, view: JSONDict) -> Situation:
        return Situation(view, facts_for(view), self.oob, self.style_for(view))

    def _keep(self, sit: Situation) -> None:
        """Hand ``sit`` the kept tables of its contexts (``move_keeping.keep``)."""
        keep(self.memo, sit)

    def scores(self, view: JSONDict, legal: Sequence[Action]) -> list[float]:
        sit = self.situation(view)
        if self.keep:
            self._keep(sit)
        # Moves are most of the actions, listed unit by unit: the moves of a unit are
        # scored together (``_s_moves``), other actions one by one, after the melees and
        # entries on offer are known (issue 59). A unit's run of moves handed out again
        # by a shared view is found by identity (``move_runs``).
        runs: dict[str, Runs] = self._runs
        plan, runs[sit.seat] = plan_moves(legal, runs.get(sit.seat, {}))
        for a in plan:
            if isinstance(a, tuple):
                continue
            kind = a.get("type")
            if kind == "melee" and not a.get("unsupported") and "entry" not in a:
                sit.melee_offers.setdefault(str(a["target"]), []).append(a)
            elif kind == "enter":
                sit.entries.setdefault(str(a["unit"]), set()).add(str(a["entry"]))
        out: list[float] = []
        moves, score = self._s_moves, self.score
        for item in plan:
            if isinstance(item, tuple):
                out += moves(sit, *item)
            else:
                out.append(score(sit, item))
        return out

    def score(self, sit: Situation, a: Action) -> float:
        kind = str(a.get("type"))
        if kind in DONE_TYPES:
            return 0.0
        handler = self._handlers.get(kind, self)
        if handler is self:
            handler = self._handlers[kind] = getattr(self, f"_s_{kind}", None)
        return float(handler(sit, a)) if handler is not None else -0.05

    # --- movement --------------------------------------------------------------------------
    def _s_move(self, sit: Situation, a: Action) -> float:
        return self._s_moves(sit, str(a["unit"]), str(a["path"][0]), [a["path"]])[0]

    def _s_moves(self, sit: Situation, uid: str, here: str, paths: Sequence[Sequence[str]]
                 ) -> list[float]:
        """``_s_move`` of the moves of unit ``uid`` from ``here`` along ``paths``: from the
        parts kept since an earlier decision (``move_keeping``) or afresh."""
        if sit.move_memo is not None:
            return kept_move_scores(sit, self.memo, sit.move_memo, uid, here, paths)
        return move_scores(sit, uid, here, paths)

    def _s_enter(self, sit: Situation, a: Action) -> float:
        dest = str(a["path"][-1])
        return 1.0 + sit.hex_value(str(a["unit"]), dest, None) \
            + sit.control_weight * sit.control_gain(dest, None) - 0.001 * len(a["path"])

    def _s_leave_map(self, sit: Situation, a: Action) -> float:
        return -3.0

    def _s_formation(self, sit: Situation, a: Action) -> float:
        """6.0 column/line option: the general keeps every unit in line (a column doctrine
        was measured and gained nothing: experiments/README.md, formation trials)."""
        return -0.2

    def _s_swap(self, sit: Situation, a: Action) -> float:
        return -0.1

    # --- command and supply -----------------------------------------------------------------
    def _s_activate(self, sit: Situation, a: Action) -> float:
        hq = str(a["hq"])
        # An HQ at 1 step stays idle but in the turn before a count (``spend_last_step``).
        if sit.night or sit.strength(hq) < (1 if sit.spend_last_step else 2):
            return -1.0
        st = sit.style
        return st.activate_per * sit.front_troops_in_range(hq) - st.activate_cost \
            - (0.01 if "to" in a else 0.0)

    def _s_hancock(self, sit: Situation, a: Action) -> float:
        return 1.0

    def _s_supply_activate(self, sit: Situation, a: Action) -> float:
        hq = str(a["hq"])
        if sit.strength(hq) < 2:
            return -1.0
        label = sit.unit(hq)
        sp = (label.command_range or 0) if label else 0
        return 0.3 * min(sit.depleted_in_range(hq), sp) - 0.7 - (0.01 if "to" in a else 0.0)

    def _s_supply(self, sit: Situation, a: Action) -> float:
        uid = str(a["unit"])
        u = sit.own.get(uid, {})
        front = 0.3 if u.get("hex") in sit.front else 0.0
        return 0.5 + 0.2 * sit.missing(uid) + front

    def _s_night_supply(self, sit: Situation, a: Action) -> float:
        uid = str(a["unit"])
        return 0.3 + 0.1 * sit.missing(uid) + 0.05 * int(a.get("steps", 1))

    # --- combat ----------------------------------------------------------------------------
    def _s_fire(self, sit: Situation, a: Action) -> float:
        uid, target = str(a["unit"]), str(a["target"])
        through = str(a.get("through", target))
        label, u = sit.unit(uid), sit.own.get(uid)
        if label is None or u is None or not u.get("hex"):
            return 0.0
        here = str(u["hex"])
        info = sit.facts.board.hex(target)
        long_range = label.type in ARTILLERY_TYPES and sit.facts.dist(here, target) >= 2
        if long_range:
            fp = label.long_firepower or label.firepower  # 5.31 no terrain at range
        else:
            fp = label.firepower - fire_penalty(sit.facts, here, through)
        hits = expected_hits(sit.strength(uid), fp, info.double_defence)
        bonus = 0.1 if a.get("at") == "artillery" else 0.0
        # A block eliminated is a victory point (9.12): favour shots that can finish one.
        # Long-range hits repulse instead of eliminating (5.32).
        kill = 0.0 if long_range else sit.style.kill_weight * kill_chance(
            sit.strength(uid), fp, sit.steps_before_loss(target), info.double_defence)
        return 0.1 + hits + kill + bonus + sit.style.fire_vp * sit.facts.victory.get(target, 0)

    def _s_melee(self, sit: Situation, a: Action) -> float:
        if sit.night:
            return -1.0
        if not self.keep:
            return self._melee(sit, a)
        # The same declarations come up at many decisions of a phase: a score is kept
        # under everything it reads (``Knowledge.melee_around`` and the block's own part).
        uid = str(a["unit"])
        entry = "entry" in a
        key = (sit.melee_around(str(a["target"])), uid, bool(a.get("unsupported")), entry,
               None if entry else sit.own.get(uid, {}).get("hex"), sit.strength(uid))
        kept = self.memo.melee
        got = kept.get(key)
        if got is None:
            if len(kept) >= MELEE_KEPT:
                kept.clear()
            got = kept[key] = self._melee(sit, a)
        return got

    def _melee(self, sit: Situation, a: Action) -> float:
        """``_s_melee`` worked out (7.1-7.7: the declaration's expected worth)."""
        target, uid = str(a["target"]), str(a["unit"])
        unsupported = bool(a.get("unsupported"))
        entry = "entry" in a
        frm = None if entry else str(sit.own.get(uid, {}).get("hex") or "") or None
        attackers = [self._attacker(sit, uid, frm, target)]
        if not unsupported:
            used = {frm} if frm else set()
            for other_uid, other_from, _kind in sit.declared.get(target, []):
                attackers.append(self._attacker(sit, other_uid, other_from, target))
                if other_from:
                    used.add(other_from)
            # The best block still free in each other hex next to the target may join
            # (7.1: one attacker per hexside), up to the target's stacking limit.
            best: dict[str, tuple[int, str]] = {}
            for offer in sit.melee_offers.get(target, []):
                ou = str(offer["unit"])
                oh = str(sit.own.get(ou, {}).get("hex") or "")
                if not oh or oh in used or ou == uid:
                    continue
                if oh not in best or sit.strength(ou) > best[oh][0]:
                    best[oh] = (sit.strength(ou), ou)
            room = max(1, sit.facts.stacking.get(target, 1)) - len(attackers)
            for _s, ou in sorted(best.values(), reverse=True)[:max(0, room)]:
                attackers.append(self._attacker(sit, ou, str(sit.own[ou]["hex"]), target))
        defenders = self._enemy_fighters(sit, target, defending=True)
        o = outlook(attackers, defenders, rounds=2 if unsupported else 3, guess=sit.guess)
        val = o.value(True, self._hex_worth(sit, target))
        if val < (sit.style.melee_min_behind if sit.behind and sit.late
                   else sit.style.melee_min):
            return -1.0
        return 0.3 + val + 0.02 * sit.strength(uid) - (0.3 if unsupported else 0.0)

    def _attacker(self, sit: Situation, uid: str, frm: str | None, target: str) -> Fighter:
        pen = 0
        if frm is not None and frm in sit.facts.hexes:
            pen = sit.facts.melee_penalty(frm, target)  # 7.3
        return fighter(sit.unit(uid), sit.seat, sit.strength(uid), False, pen)

    def _enemy_fighters(self, sit: Situation, hx: str, defending: bool) -> list[Fighter]:
        return [fighter(sit.unit(eid) if eid else None, sit.enemy, s, defending)
                for eid, s in sit.enemy_blocks.get(hx, []) if s > 0 and not sit.is_hq(eid)]

    def _hex_worth(self, sit: Situation, hx: str) -> float:
        """What holding or taking a hex in a melee is worth besides the blocks: a victory
        hex changes hands with its points (9.11)."""
        return 0.3 + sit.facts.victory.get(hx, 0)

    def _battle_values(self, sit: Situation, leaving: str | None) -> float:
        """Our side's expected net worth of the melee being fought, with the block
        ``leaving`` taken out of it (a retreat) or everyone fighting on (None)."""
        b = sit.battle or {}
        hx = str(b.get("hex") or "")
        we_attack = b.get("attacker") == sit.seat
        rnd = int(b.get("round", 1))
        total = 2 if b.get("kind") == "unsupported" else 3
        ours = [str(x) for x in (b.get("attackers") if we_attack else b.get("defenders")) or []]
        theirs = [str(x) for x in (b.get("defenders") if we_attack else b.get("attackers")) or []]
        strength = {eid: s for blocks in sit.enemy_blocks.values() for eid, s in blocks if eid}
        own = [fighter(sit.unit(u), sit.seat, sit.strength(u), not we_attack)
               for u in ours if u != leaving and sit.strength(u) > 0]
        foe = [fighter(sit.unit(e), sit.enemy, strength.get(e, GUESS_STRENGTH), we_attack)
               for e in theirs if strength.get(e, GUESS_STRENGTH) > 0]
        # Penalties of round 1 are already behind us from round 2 on; in round 1 they are
        # small next to the fight itself, so the estimate leaves them out here.
        rounds = max(1, total - rnd + 1)
        if we_attack:
            return outlook(own, foe, rounds, guess=sit.guess).value(True, self._hex_worth(sit, hx))
        return outlook(foe, own, rounds, guess=sit.guess).value(False, self._hex_worth(sit, hx))

    def _in_open_melee(self, sit: Situation) -> bool:
        b = sit.battle or {}
        return bool(b.get("hex")) and b.get("kind") != "cavalry"

    def _s_melee_resolve(self, sit: Situation, a: Action) -> float:
        return 0.1

    def _s_melee_fight(self, sit: Situation, a: Action) -> float:
        return 0.5

    def _s_melee_line(self, sit: Situation, a: Action) -> float:
        return 0.6

    def _s_melee_retreat(self, sit: Situation, a: Action) -> float:
        uid = str(a.get("unit", ""))
        to = str(a.get("to", ""))
        if not self._in_open_melee(sit):  # off-map cavalry battles: the old rule of thumb
            return 0.6 if uid and sit.strength(uid) <= 1 else -0.2
        here = str(sit.own.get(uid, {}).get("hex") or "")
        b = sit.battle or {}
        if b.get("attacker") != sit.seat and to in sit.facts.hexes:
            # A defender's retreat hex must have stacking room, or 6.2 eliminates the
            # excess at the end of the phase.
            room = sit.facts.stacking.get(to, 0) - sit.garrison.get(to, 0)
            if room < 1:
                return -5.0
        gain = self._battle_values(sit, uid) - self._battle_values(sit, None)
        where = 0.0
        if to in sit.facts.hexes and here in sit.facts.hexes:
            where = 0.05 * max(-1.0, min(1.0, sit.hex_value(uid, to, here)))
        return 0.5 + gain - 0.1 + where

    def _s_casualty(self, sit: Situation, a: Action) -> float:
        # Among equally strong blocks (5.23) spare the HQ, unless the hit would eliminate
        # the other block: an HQ at 1 falls to 0 and stays (7.5), a brigade at 1 is a
        # victory point lost (9.12).
        uid = str(a.get("unit", ""))
        hq = sit.is_hq(uid)
        strength = int(sit.own.get(uid, {}).get("strength") or 0)
        dies = would_eliminate(strength, hq)
        return 0.1 - (0.05 if hq else 0.0) - (0.5 if dies else 0.0)

    def _s_repulse(self, sit: Situation, a: Action) -> float:
        to = str(a.get("to", ""))
        uid = str(a.get("unit", ""))
        if to not in sit.facts.hexes:
            return 0.1
        return 0.1 + 0.1 * sit.hex_value(uid, to, None)

    def _s_regroup(self, sit: Situation, a: Action) -> float:
        uid, to = str(a.get("unit", "")), str(a.get("to", ""))
        here = str(sit.own.get(uid, {}).get("hex") or to)
        if to not in sit.facts.hexes or here not in sit.facts.hexes:
            return -0.1
        return sit.hex_value(uid, to, here) - sit.hex_value(uid, here, here) - 0.1

    def _s_cavalry_assign(self, sit: Situation, a: Action) -> float:
        return 0.3

    def _s_cavalry_custer(self, sit: Situation, a: Action) -> float:
        return 0.2 if a.get("move") else 0.1

    # --- evaluation ------------------------------------------------------------------------
    def evaluate(self, view: JSONDict) -> float:
        """The CSA total (9.1) with control projected from where the blocks stand now,
        from the seat's side, plus a little for the seat's strength on the map."""
        seat = str(view.get("seat"))
        total = float(projected_total(view, facts_for(view)))
        own = sum(int(u.get("strength", 0)) for u in view.get("units", [])
                  if u.get("side") == seat and u.get("status") == "on_map")
        sign = 1.0 if seat == "csa" else -1.0
        return sign * total + 0.05 * own


def projected_control(view: JSONDict, facts: MapFacts) -> dict[str, str]:
    """6.61 applied to the blocks as they stand (every block's side and hex is public): the
    control the next end of a player turn would fix if nothing moved."""
    occ: dict[str, str] = {}
    for u in view.get("units", []):
        if u.get("status", "on_map") == "on_map" and u.get("hex"):
            occ[str(u["hex"])] = str(u["side"])
    for h in view.get("hidden", []):
        if h.get("hex"):
            occ[str(h["hex"])] = str(h["side"])
    return control_of(occ, facts.nbrs)


def projected_total(view: JSONDict, facts: MapFacts) -> int:
    """CSA victory hexes under projected control + USA losses - CSA losses (9.1, 9.12)."""
    control = projected_control(view, facts)
    losses = view.get("losses") or {}
    terrain = sum(p for v, p in facts.victory.items() if control.get(v) == "csa")
    return terrain + int(losses.get("usa", 0)) - int(losses.get("csa", 0))

