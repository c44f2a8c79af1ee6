"""The GBACW doctrine: what the ``general`` agent plays in a GBACW game, read from its
seat's view (never the state: the enemy's orders, efficiency markers and pool are hidden,
002 §5.2-5.3, §6) and the public board, order of battle and scenario file.

The side that must take the scenario's objective hexes (its victory block) marches on them
from afar, advances when near and attacks when close; the other side holds them. Both fire
whenever a shot is offered (a shot costs the move it may forbid on Advance, 002 §6.15),
rally disordered units (002 §13.41), keep each leader near those he links to the chain of
command (002 §4.2, §6.12) and face the nearest enemy (002 §7.1). Orders-change rolls only
for a brigade whose orders no longer fit (002 §6.2); coordination is not tried (Confusion
costs more than it wins, §5.34). An action kind it does not know ranks below every done
action. Shock and the defender's answers are scored in :mod:`.combat`: shock on
good odds, above all against an objective's holders; stand on good ground or an objective,
withdraw when badly outnumbered off them; always return fire and fire before a shock;
face an enemy come next to a flank.
"""

from __future__ import annotations

from collections.abc import Sequence

from gettysburg.core.canonical import JSONDict
from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import Action
from gettysburg.gbacw.ai import campaign, choices, minor_choices, reactions, tactics
from gettysburg.gbacw.ai.combat import score_shock, score_withdraw
from gettysburg.gbacw.ai.ground import FAR, parse
from gettysburg.gbacw.ai.memory import REPEATS
from gettysburg.gbacw.ai.situation import MoveBase, Situation, facing_cos, situation

__all__ = ["GbacwDoctrine", "Situation", "situation"]

#: infantry MP to the nearest objective beyond which a brigade marches (002 §6.14), and
#: within which it attacks
MARCH_BEYOND = 14.0
ATTACK_WITHIN = 5.0
#: what one MP of progress toward the objective is worth
STEP = 0.1
#: the "done" actions: end a segment, a brigade, the commanders' moves, a shock step
DONE = frozenset({"end_orders", "end_orders_change", "end_brigade", "end_commanders",
                  "end_shock"})
#: decisions in one activation and phase beyond which the general takes any action that
#: finishes something (no real activation comes near: a brigade has a dozen units)
STUCK_AFTER = 400
FINISH = DONE | {"end_activation", "stand", "hold", "no_reaction", "let_pass", "no_advance",
                 "event_pass"}


class GbacwDoctrine:
    """Scores every legal action from the view (module doc)."""

    def scores(self, view: JSONDict, legal: Sequence[Action]) -> list[float]:
        s = situation(view)
        brigades = view.get("brigades") or {}
        out, gains, others = self._moves(s, legal)
        fire_first = self._fire_first(s, gains)
        for i in others:
            out[i] = self._score(s, brigades, legal[i], fire_first)
        out = campaign.adjust(s, legal, out)  # 004 sc.6.7: the road and the loss limit
        if not any(legal[i].get("type") in DONE for i in others):  # (no move is DONE)
            # 002 §11.21: a brigade whose mounted cavalry (or a charge) must shock has no
            # end until it designates one; the best designation then, never stalling with
            # facings and refusals (a Battle game refused and unrefused a flank 21 times)
            out = [x + 2.0 if a.get("type") == "shock" else x
                   for x, a in zip(out, legal, strict=True)]
        if int(view.get(REPEATS) or 0) > STUCK_AFTER:
            # an engine offering choice after choice (as raise/share once did): finish
            out = [x + 10.0 if a.get("type") in FINISH else x
                   for x, a in zip(out, legal, strict=True)]
        return out

    def _moves(self, s: Situation,
               legal: Sequence[Action]) -> tuple[list[float], dict[str, float], list[int]]:
        """Every ``move``'s score (``_move``, written out here: a decision may list ten
        thousand, each unit's hexes times their facings), each unit's best move, and the
        indices of the other actions (their scores left at 0.0 for the caller)."""
        out = [0.0] * len(legal)
        best: dict[object, float] = {}
        others: list[int] = []
        memo, cos_by = s._move_base, s.cos_by
        for i, a in enumerate(legal):
            if a.get("type") != "move":
                others.append(i)
                continue
            unit = a["unit"]
            got = memo.get((unit, a["to"]))
            if got is None:
                got = self._move_entry(s, a)
            base, aim, crowded = got
            score = base
            if aim is not None:
                score += 0.05 * cos_by(a.get("facing"), aim[0], aim[1])
            if crowded:
                score -= 0.4  # do not end next to a much stronger enemy
            out[i] = score
            if score > best.get(unit, 0.0):
                best[unit] = score
        return out, {str(u): x for u, x in best.items()}, others

    def _fire_first(self, s: Situation, gains: dict[str, float]) -> set[str]:
        """Units that should shoot before (or instead of) moving: those with no move that
        gains ground (``gains``: each unit's best move score, from ``_moves``), or holding
        an objective, or the defenders."""
        return {k for k in s.own if gains.get(k, 0.0) < 0.3 or not s.attacking}

    def _score(self, s: Situation, brigades: JSONDict, a: Action, fire_first: set[str]) -> float:
        kind = a.get("type")
        if kind == "set_orders":
            b = brigades.get(str(a["brigade"])) or {}
            want = self._wanted_orders(s, str(a["brigade"]))
            if b.get("orders") == want:
                return -1.0
            return 1.0 if a["orders"] == want else -0.5
        if kind == "reserve":
            return 0.5 if a.get("on") is False else -1.0
        if kind == "roll_orders":
            return self._roll(s, brigades, a)
        if kind in ("transfer", "coordinate"):
            return -0.5
        if kind == "first_am":
            return 0.5
        if kind == "activate":
            return 1.0 + 0.01 * len(s.brigade_hexes.get(str(a["brigade"]), []))
        if kind == "move":
            return self._move(s, a)
        if kind == "move_stack":
            # 002 §8.25: the stack as one, judged as its top unit's move; a hair below the
            # same move alone (the others then choose their own hexes)
            return self._move(s, a) - 0.02
        if kind == "face":
            return self._face(s, a)
        if kind in ("fire", "combined_fire", "rapid_fire"):
            return self._fire(s, a, fire_first)  # on ties the plain shot (listed first)
        if kind == "fire_split" and a.get("targets"):
            return self._fire(s, {**a, "target": a["targets"][0]}, fire_first) - 0.1
        if kind == "rally":
            return 1.5
        if kind == "shock":
            return score_shock(s.view, s.seat, a, frozenset(s.obj.hexes), s.orders)
        if kind == "withdraw":
            return score_withdraw(s.view, a, frozenset(s.obj.hexes))
        if kind in ("return_fire", "pre_shock_fire", "withdrawal_fire", "approach_fire",
                    "rapid_return_fire"):
            # simultaneous (§10.42) or before the fight (§11.38): a shot costs nothing here
            return 1.0 + 0.01 * int((s.own.get(str(a.get("unit"))) or {}).get("sp") or 0)
        if kind == "react":
            return self._react(s, a)
        if kind in ("stand", "hold", "no_reaction", "let_pass", "no_advance"):
            return 0.0
        if kind in ("advance", "shock_advance"):
            return self._advance(s, a)
        if kind == "retreat":
            return self._retreat(s, a)
        if kind in ("move_leader", "move_commander"):
            return self._leader(s, a)
        if kind == "end_activation":
            return 0.001  # below end_brigade: finish the brigade first
        if kind in ("raise", "share"):
            # 002 §5.22-5.23: the engine starts from a default and offers every other
            # choice after each one, so taking them when offered never ended the orders
            # segment (a Little Round Top game shared 19,991 times); the default stands.
            return 0.005
        if kind in DONE:
            return 0.01  # the "done" actions
        got = choices.score(s, a)
        if got is None:
            got = tactics.score(s, a)  # barrage, continued shock, charges, formations, works
        if got is None:
            got = reactions.score(s, a)  # refusals, reaction moves, restack, reserve, cavalry
        if got is None:
            got = minor_choices.score(s, a)  # attach, works, entry, counter-charge, idle...
        if got is not None:
            return got
        # A kind this doctrine does not know (the engine grows): below every done action,
        # so it is played only when nothing else is legal (and then it is legal).
        return -0.01

    def _roll(self, s: Situation, brigades: JSONDict, a: Action) -> float:
        """002 §6.2: roll for new orders only for a brigade stuck on orders that no longer
        fit (a chain broken after March was given, §6.12), or a taker's brigade near its
        objective still on Advance (it must reach and shock the holders)."""
        b = str(a["brigade"])
        now = (brigades.get(b) or {}).get("orders")
        want = self._wanted_orders(s, b)
        if now == want or a.get("orders") != want:
            return -0.5
        return 0.8 if now == "march" else 0.3

    def _advance(self, s: Situation, a: Action) -> float:
        """Advance after combat (002 §11.35, §12.6) onto an objective, or, for the taker,
        nearer one; otherwise stay."""
        k = str(a.get("unit"))
        frm, to = s.unit_hex(k), a.get("to")
        if frm is None or not to:
            return -0.1
        t = parse(str(to))
        if t in s.obj.hexes:
            return 2.0
        if frm in s.obj.hexes or not s.attacking:
            return -0.1
        return STEP * (s.to_goal(frm) - s.to_goal(t)) - 0.05

    def _retreat(self, s: Situation, a: Action) -> float:
        """A retreat path (002 §12.4): end as far from the enemy as the paths allow."""
        path = a.get("path") or []
        if not path:
            return 0.0
        end = parse(str(path[-1]))
        near = s.nearest_enemy(end)
        return 0.01 * (end.distance(near) if near is not None else 9)

    def _wanted_orders(self, s: Situation, brigade: str) -> str:
        # asked once for each of a brigade's order choices: remembered for the view
        got = s._wanted.get(brigade)
        if got is None:
            got = s._wanted[brigade] = self._orders_for(s, brigade)
        return got

    def _orders_for(self, s: Situation, brigade: str) -> str:
        keys = [k for k, u in s.own.items() if u.get("brigade") == brigade]
        hexes = [h for h in (s.unit_hex(k) for k in keys) if h is not None]
        if not hexes:
            return "advance"
        d = min(s.to_goal(h) for h in hexes)
        # the nearest enemy of any of them (nearest_enemy's memo for each hex)
        near = min((e.distance(h) for h in hexes if (e := s.nearest_enemy(h)) is not None),
                   default=99)
        if d > MARCH_BEYOND and near > 6:
            return "march"
        if s.attacking and d <= ATTACK_WITHIN:
            return "attack"
        return "advance"

    def _move(self, s: Situation, a: Action) -> float:
        """A move's score: its (unit, hex) part (``_move_base``, once per pair), then how
        squarely its facing points at what the unit should face there (``_moves`` has
        the same written out for a whole list)."""
        got = s._move_base.get((a["unit"], a["to"]))
        if got is None:
            got = self._move_entry(s, a)
        base, aim, crowded = got
        score = base
        if aim is not None:
            score += 0.05 * s.cos_by(a.get("facing"), aim[0], aim[1])
        if crowded:
            score -= 0.4  # do not end next to a much stronger enemy
        return score

    def _move_entry(self, s: Situation, a: Action) -> MoveBase:
        """``_move_base`` for the action's (unit, hex), with the target as an offset from
        the hex, remembered for the view (the memo ``_move`` and ``_moves`` read) and for
        the next views that agree on what it reads (``Situation.move_sig``)."""
        k = str(a["unit"])
        sig = s.move_sig(k)
        got = None if sig is None else s._move_shared.get((sig, a["to"]))
        if got is None:
            to = parse(str(a["to"]))
            base, target, crowded = self._move_base(s, k, to)
            got = (base, None if target is None else (target.q - to.q, target.r - to.r),
                   crowded)
            if sig is not None:
                s._move_shared[(sig, a["to"])] = got
        s._move_base[(a["unit"], a["to"])] = got
        return got

    def _move_base(self, s: Situation, k: str,
                   to: Hex) -> tuple[float, Hex | None, bool | None]:
        """A move's score before its facing: (the score, what the unit should face there,
        whether it ends next to a much stronger enemy); or (the final score, None, None)
        when the facing does not count. The same for every facing of one (unit, hex)."""
        if k in s.fired and s.orders.get(k) != "attack":
            return -1.0, None, None  # 002 §6.15: on Advance a unit that fired stays
        frm = s.unit_hex(k)
        if frm is None:
            return 0.0, None, None
        if k in s.charging:
            return self._charge_move(s, k, frm, to)
        u = s.own.get(k) or {}
        frm_on_obj, before, _, _ = s.hex_terms(frm)
        on_obj, after, next_to, aim = s.hex_terms(to)
        if frm_on_obj and u.get("hex") and to != frm:
            return -2.0, None, None
        if k in s.building and to != frm and not on_obj:
            return -0.3, None, None  # 002 §15.14: leaving stops the work
        if on_obj and not s.own_at.get(to):
            return 3.0, None, None
        if after >= FAR:
            return -1.0, None, None
        if not s.attacking and s.obj.hexes and before <= 3.0:
            gain = -0.5 if after > before else 0.0  # close enough to hold: stay
        else:
            gain = before - after
        sp = int(u.get("sp") or 0)
        crowded = next_to > 2 * sp and not on_obj
        if next_to and u.get("mode") == "mounted":
            # 002 §11.21: mounted cavalry that ends next to an enemy without firing must
            # shock it; it rides there only in a charge (tactics.charge)
            return STEP * gain - 0.35, aim, crowded
        return STEP * gain - 0.05, aim, crowded

    def _charge_move(self, s: Situation, k: str, frm: Hex,
                     to: Hex) -> tuple[float, Hex | None, bool | None]:
        """002 §11.54: a charging unit rides at its target (the one the charge was
        declared for, else the nearest enemy) and ends next to it facing it; it must
        shock (§11.21), so nothing else counts."""
        target = tactics.charge_target(s, k) or s.nearest_enemy(frm, 7)
        if target is None:
            return 0.0, None, None
        if to.distance(target) == 1:
            return 2.5, target, False
        return 0.2 * (frm.distance(target) - to.distance(target)) - 0.05, target, False

    def _face(self, s: Situation, a: Action) -> float:
        k = str(a["unit"])
        h = s.unit_hex(k)
        if h is None or k in s.building:
            return -1.0  # a turn would stop the breastworks' work (002 §15.14)
        target = s.nearest_enemy(h, 6) or s.goal_of(h)
        if target is None:
            return -1.0
        now = facing_cos((s.own.get(k) or {}).get("facing"), h, target)
        return 0.2 * (facing_cos(a.get("facing"), h, target) - now) - 0.03

    def _react(self, s: Situation, a: Action) -> float:
        """002 §9.62: turn toward the enemy that came next to us when the front gains much
        (a turn costs infantry and cavalry a UDD)."""
        k = str(a["unit"])
        h = s.unit_hex(k)
        trigger = (s.view.get("pending") or {}).get("trigger")
        if h is None or not trigger:
            return -1.0
        t = parse(str(trigger))
        now = (s.own.get(k) or {}).get("facing")
        gain = facing_cos(a.get("facing"), h, t) - facing_cos(now, h, t)
        return 0.5 * gain - 0.15

    def _fire(self, s: Situation, a: Action, fire_first: set[str]) -> float:
        k = str(a["unit"])
        h, t = s.unit_hex(k), parse(str(a["target"]))
        if h is None:
            return 0.0
        score = 0.4 + 0.3 / max(1, h.distance(t)) + 0.03 * min(12, s.enemy_sp.get(t, 0))
        if t in s.obj.hexes:
            score += 1.0  # clearing an objective
        return score if k in fire_first else 0.02

    def _leader(self, s: Situation, a: Action) -> float:
        """002 §4.2, §6.12: a leader keeps near the ones he links to the chain (a corps
        commander his division leaders, a division leader his brigadiers, a brigadier his
        troops), so the brigades stay in command and may be given orders."""
        ld = str(a["leader"])
        here = s.leaders.get(ld)
        if here is None:
            return -1.0
        if not s.subordinates(ld):
            return -1.0
        to = parse(str(a["to"]))
        before, after = s.spread(ld, here), s.spread(ld, to)
        if before <= 1.5:
            return -0.2
        if s.enemy_next_to(to) and not s.own_at.get(to):
            return -0.5
        return 0.1 * (before - after) - 0.05

    def evaluate(self, view: JSONDict) -> float:
        """Objectives held, then SP on the map against the enemy's."""
        s = situation(view)
        held = sum(1 for g in s.obj.hexes if s.own_at.get(g))
        own_sp = sum(int(u.get("sp") or 0) for u in s.own.values() if u.get("hex"))
        return 2.0 * held + 0.01 * (own_sp - sum(s.enemy_sp.values()))
