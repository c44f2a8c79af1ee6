"""The GBACW game's legal actions and checks (:class:`EngineLegality`): ``legal_actions``
and ``validate`` read the same questions, so the list and the check agree."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import (
    Action,
    RuleError,
    Seat,
)
from gettysburg.gbacw import (
    ammunition,
    barrage_step,
    battle_book_step,
    charge_step,
    continued_shock,
    coordination,
    drunk,
    end_segment,
    engineering_step,
    entry_step,
    event_choices,
    fire_action,
    formation_step,
    mounting,
    nonphasing_fire,
    off_map_step,
    orders_step,
    reaction_step,
    results_step,
    resupply_turn,
    return_fire,
    scenario_step,
    sequence,
    shock_step,
    withdrawal_step,
)
from gettysburg.gbacw.actions import check_shape
from gettysburg.gbacw.board import Board
from gettysburg.gbacw.facing import Facing
from gettysburg.gbacw.legal_list import LegalList
from gettysburg.gbacw.questions import (
    COMMANDER_MA,
    LEADER_MA,
    EngineQuestions,
    _hex_ok,
    facing_kind,
)
from gettysburg.gbacw.state import (
    marker_parts,
)


def _unit_move(key: str, board: Board) -> Callable[[tuple[Hex, Facing]], Action]:
    """Makes the ``move`` action of ``key`` to one of its destinations (a legal list's
    lazily made items)."""
    def make(dest: tuple[Hex, Facing]) -> Action:
        return {"type": "move", "unit": key, "to": board.hexes[dest[0]].id,
                "facing": dest[1].to_json()}
    return make


def _leader_move(kind: str, leader: str, board: Board) -> Callable[[Hex], Action]:
    """Makes a leader's (or commander's) move action to one hex (``kind``: its type)."""
    def make(h: Hex) -> Action:
        return {"type": kind, "leader": leader, "to": board.hexes[h].id}
    return make


class EngineLegality(EngineQuestions):
    """A layer of :class:`gettysburg.gbacw.game.GbacwGame` (see the module)."""

    # --- legal actions ---------------------------------------------------------------------

    def _owes_shock(self, seat: Seat) -> list[str]:
        """Units that must shock before the active brigade ends (002 §11.21), when it may
        shock at all (not under Confusion, §5.34)."""
        p = self.pos
        if p.brigade is None or not self.may_fight(p.brigade):
            return []
        memo = ("owes_shock", seat)
        if memo not in self._memo:
            self._memo[memo] = [k for k in shock_step.must_shock(self, seat)
                                if not entry_step.shock_barred(self, k)]  # 002 §9.72
        return list(self._memo[memo])

    def legal_actions(self, seat: Seat) -> list[Action]:
        return self.legal_sequence(seat).to_list()

    def legal_sequence(self, seat: Seat) -> LegalList:
        """The legal actions in :meth:`legal_actions`' order as a :class:`LegalList`: the
        units', leaders' and commanders' moves are made into dicts only when read (the
        random agent reads the count and one; issue 59)."""
        out = LegalList()
        if seat not in self.to_move():
            return out
        p = self.pos
        board = self.cat.board
        if p.phase == "orders":
            out += self._raise_options(seat)
            out += self._share_options(seat)
            out += self._transfers(seat)
            for n, b in sorted(p.brigades.items()):
                if b.seat != seat or not self.in_play(n):
                    continue
                for o in self._orders_choices(n):
                    out.append({"type": "set_orders", "brigade": n, "orders": o})
            for n, b in sorted(p.brigades.items()):
                if b.seat == seat and self.in_play(n) and self._reserve_problem(n) is None:
                    out.append({"type": "reserve", "brigade": n, "on": not b.reserve})
            out += orders_step.swap_options(self, seat)  # 004 §4.35
            out += orders_step.attach_options(self, seat)  # II/C (002 §4.32)
            out += scenario_step.choice_options(self, seat)  # 004 sc.3, chart notes [c]
            out += engineering_step.build_options(self, seat)  # II/F (002 §15.1)
            out.append({"type": "end_orders"})
        elif p.phase == "first_am":
            out += [{"type": "first_am", "marker": m} for m in self._own_markers(seat)]
        elif p.phase == "orders_change":
            for n in self.eligible_brigades():
                if self._roll_problem(n) is None:
                    out += [{"type": "roll_orders", "brigade": n, "orders": o}
                            for o in ("attack", "advance")]
            if self.coordination_eligible():
                out.append({"type": "coordinate"})
            out += barrage_step.declare_options(self, seat)  # 004 §10.92
            out.append({"type": "end_orders_change"})
        elif p.phase == "commanders":
            for ld in self.commanders(seat):
                moves = self.commander_moves(ld)
                out.add_made(sorted(moves, key=lambda x: (x.q, x.r)),
                             _leader_move("move_commander", ld, board))
            out += end_segment.idle_options(self, seat)  # for IV/B (002 §13.45)
            out.append({"type": "end_commanders"})
        elif p.phase == "action" and p.pending is not None and \
                p.pending.get("kind") == event_choices.KIND:
            out += event_choices.options(self)  # 004 §18.0: the event's choice
        elif p.phase == "action" and p.pending is not None and \
                p.pending.get("kind") in nonphasing_fire.KINDS:
            out += nonphasing_fire.options(self)  # 002 §10.44-10.45: the defender fires
        elif p.phase == "action" and p.pending is not None and \
                p.pending.get("kind") in results_step.KINDS:
            out += results_step.options(self)  # 002 §12.41, §12.6: the owner's choice
        elif p.phase == "action" and p.pending is not None:
            pending = p.pending.get("kind")
            out += (return_fire.options(self) if pending == "fire"
                    else reaction_step.options(self) if pending == "reaction"
                    else shock_step.defender_options(self))
        elif p.phase == "action" and barrage_step.active(self):  # 004 §10.93
            out += barrage_step.options(self, seat)
            out.append({"type": "end_activation"})
        elif p.phase == "action":
            if p.brigade is None:
                out += [{"type": "activate", "brigade": n} for n in self.eligible_brigades()]
                out += [{"type": "activate_group", "brigades": list(g)}  # 002 §5.34
                        for g in coordination.groups(self.group_candidates(),
                                                     self.group_limit())]
                out += barrage_step.declare_options(self, seat)  # 004 §10.92
            else:
                out += drunk.relief_options(self, seat)  # 004 §18.0 L
                for k in self.active_units():
                    moving = self.may_move(self.formation(k))  # its own Stay (§6.23)
                    if moving and not self._fired_instead(k) \
                            and formation_step.blocks_move(self, k) is None:  # 002 §7.33
                        out.add_made(self.destinations(k), _unit_move(k, board))
                    out += [{"type": "face", "unit": k, "facing": f.to_json()}
                            for f in self._turns(k)]
                    if moving:  # extend, retract, refuse, unrefuse (002 §7.3, §8.4, §8.5)
                        out += formation_step.options(self, k)
                out += [{"type": "rally", "unit": k} for k in self.active_units()
                        if self._rally_problem(k) is None]
                out += [{"type": "rally_face", "unit": k, "facing": f.to_json()}  # 002 §7.25
                        for k in self.active_units() if self._rally_problem(k) is None
                        for f in formation_step.rally_turns(self, k)]
                out += ammunition.resupply_options(self)  # 002 §10.92
                out += resupply_turn.options(self)  # 002 §10.92: and turn a vertex
                out += mounting.options(self)  # 002 §14.22
                out += withdrawal_step.options(self)  # 002 §9.54
                out += off_map_step.options(self, seat)  # 004 §9.88
                if self.may_fight(p.brigade) and not shock_step.has_shocked(self, p.brigade):
                    for k in self.activation_units():  # a coordinated group: all (§5.34)
                        if self.on_map(k) and orders_step.may_act(self, k) \
                                and orders_step.fire_problem(self, k) is None \
                                and charge_step.fire_problem(self, k) is None:  # 5.36, 6.24, 11.52
                            out += [{"type": "fire", "unit": k,
                                     "target": self.cat.board.hexes[h].id}
                                    for h in self.fire_targets(k)]
                            out += fire_action.order_options(self, k)  # 10.15, 10.63, 10.68
                    out += [a for a in shock_step.shock_options(self, seat)
                            if entry_step.shock_allowed(self, a)]  # 002 §9.72
                    out += [a for a in charge_step.options(self, seat)  # 002 §11.52-11.53
                            if not scenario_step.no_charge(self, a["unit"])]  # 004 sc.1
                    out += charge_step.break_options(self)  # 002 §11.57
                    out += charge_step.move_on_options(self)  # 002 §11.57 option 1
                if not self._owes_shock(seat) and not orders_step.owes_move(self):  # 11.21, 6.24
                    out.append({"type": "end_brigade"})
            for ld in self.movable_leaders():
                out.add_made(self.leader_moves(ld), _leader_move("move_leader", ld, board))
            if not self._owes_shock(seat) and not orders_step.owes_move(self):
                out.append({"type": "end_activation"})
                out += battle_book_step.warren_options(self, seat)  # 004 §14.5
        out += battle_book_step.hero_options(self, seat)  # 004 §18.0 P (E-33)
        return out

    def _turns(self, key: str) -> list[Facing]:
        """Facings a unit may turn to in place: as its MP allow (002 §7.21), or one vertex
        without MP when its brigade may not move (002 §5.34, §6.23)."""
        u = self.pos.units[key]
        here = self.hex_of(u.hex)
        if here is None or u.facing is None:
            return []
        special = formation_step.own_turns(self, key)  # refused, line or column (§7.33, §8.44)
        if special is not None:
            return special
        if self.in_activation(key) and not self.may_move(self.formation(key)):
            return [f for f in self.legal_facings(key) if f.kind == u.facing.kind
                    and min((f.index - u.facing.index) % 6, (u.facing.index - f.index) % 6) == 1]
        return sorted(f for h, f in self.reach(key) if h == here and f != u.facing)

    # --- validate / execute ----------------------------------------------------------------

    def validate(self, action: Action, seat: Seat) -> None:
        self._check(action, seat)

    def _check(self, action: Action, seat: Seat) -> Any:
        board = self.cat.board
        row = check_shape(action, lambda h: _hex_ok(board, h))
        p = self.pos
        if p.phase not in row.phases:
            raise RuleError(sequence.PHASES[p.phase].rule,
                            f"{row.name} belongs to the {'/'.join(row.phases)} phase; this is "
                            f"the {sequence.PHASES[p.phase].title}")
        kind = row.name
        if kind == "hero_policy":  # 004 §18.0 P: a standing choice (E-33)
            battle_book_step.check_hero_policy(self, action, seat)
            return None
        if kind in event_choices.ACTION_KINDS or (
                p.pending is not None and p.pending.get("kind") == event_choices.KIND):
            event_choices.check(self, action, seat)  # 004 §18.0
            return None
        if kind in nonphasing_fire.ACTION_KINDS or (
                p.pending is not None and p.pending.get("kind") in nonphasing_fire.KINDS):
            nonphasing_fire.check(self, action, seat)  # 002 §10.44-10.45
            return None
        if kind in results_step.ACTION_KINDS or (
                p.pending is not None and p.pending.get("kind") in results_step.KINDS):
            if kind not in results_step.ACTION_KINDS:  # 002 §12.41, §12.6
                raise RuleError("12.41", "a retreat or an advance after fire waits for "
                                "its answer first")
            results_step.check_answer(self, action, seat)
            return None
        if kind in barrage_step.ACTIONS or barrage_step.active(self):  # 004 §10.9
            barrage_step.check(self, action, seat)
            if kind in barrage_step.ACTIONS:
                return None
        if p.pending is not None and kind not in ("withdraw", "stand", "return_fire", "hold",
                                                  "return_fire_reserve", "rapid_return_fire",
                                                  *reaction_step.ANSWERS, "pre_shock_fire",
                                                  "continue_shock", "shock_advance",
                                                  "end_shock", "counter_charge"):
            raise RuleError("11.33", "a shock is designated: the defender withdraws or stands "
                            "first")
        if kind == "raise":
            if action not in self._raise_options(seat):
                raise RuleError("5.22", f"the OC may not raise {action['corps']} (corps whose "
                                "commanders are on the map in his range, as many as his "
                                "initiative rating, before the transfer)")
        elif kind == "share":
            if action not in self._share_options(seat):
                raise RuleError("5.23", f"share {action['to']} of {action['corps']} is not "
                                "allowed (own corps, divisions in its commander's range, within "
                                "his rating, before the transfer)")
        elif kind == "transfer":
            if action not in self._transfers(seat):
                raise RuleError("5.4", f"transfer {action['from']} -> {action['to']} is not "
                                "allowed (own divisions, once a turn, none below 1 or above 4)")
        elif kind == "set_orders":
            n = self._own_brigade(action["brigade"], seat)
            problem = self._division_orders_problem(n) or self._orders_problem(
                n, action["orders"])
            if problem is not None:
                raise problem
            if action["orders"] == p.brigades[n].orders:
                raise RuleError("6.12", f"{n} already has {action['orders']} orders")
        elif kind == "reserve":
            n = self._own_brigade(action["brigade"], seat)
            if action["on"] == p.brigades[n].reserve:
                raise RuleError("6.3", f"{n} is {'already' if action['on'] else 'not'} in "
                                "Reserve")
            problem = self._reserve_problem(n)
            if problem is not None:
                raise problem
        elif kind == "build":
            return engineering_step.check_build(self, action, seat)
        elif kind == "attach":
            if not scenario_step.reserve_attach(self, action, seat):  # 004 sc.3
                orders_step.check_attach(self, action, seat)
        elif kind in scenario_step.CHOICES:  # 004 chart notes [c]
            scenario_step.check_choice(self, action, seat)
        elif kind == "alexander_swap":
            orders_step.check_swap(self, action, seat)
        elif kind == "idle_rally":
            end_segment.check_idle(self, action, seat)
        elif kind == "first_am":
            if action["marker"] not in self._own_markers(seat):
                raise RuleError("5.1", f"{action['marker']!r} is not one of your markers in "
                                "the pool")
        elif kind == "roll_orders":
            n = self._own_brigade(action["brigade"], seat)
            if n not in self.eligible_brigades():
                raise RuleError("6.2", f"{n} is not activated by this marker")
            problem = self._roll_problem(n)
            if problem is not None:
                raise problem
            if action["orders"] == "march":
                raise RuleError("6.23", "a changed order is Attack or Advance")
        elif kind == "activate":
            n = self._own_brigade(action["brigade"], seat)
            if p.brigade is not None:
                raise RuleError("5.3", f"{p.brigade} is acting; end it first")
            if n not in self.eligible_brigades():
                raise RuleError("5.3", f"{n} may not act on this marker (another formation, "
                                "in Reserve, on March orders off the March AM, or done)")
        elif kind == "activate_group":
            self._check_group(action, seat)
        elif kind in ("move", "face"):
            key = action["unit"]
            if key not in p.units or p.units[key].seat != seat:
                raise RuleError("5.3", f"{key!r} is not one of your units")
            if not self.in_activation(key):
                raise RuleError("5.3", f"{key} is not of the active brigade")
            if (late := orders_step.act_problem(self, key)) is not None:
                raise late  # 002 §5.36
            if key not in self.active_units() and not (
                    kind == "move" and charge_step.check_move_on(self, key)):  # 002 §11.57
                raise RuleError("5.35" if self.moves_allowed(key) > 1 else "5.3",
                                f"{key} has used its move this activation")
            blocked = formation_step.blocks_move(self, key)  # 002 §7.33
            if blocked is not None:
                raise blocked
            facing = Facing.from_json(action["facing"])
            if kind == "face":
                if facing not in self._turns(key):
                    raise RuleError("7.2", f"{key} may not turn to {facing}")
                return facing
            if not self.may_move(self.formation(key)):
                raise RuleError("5.34" if p.coordination == "confusion" else "6.23",
                                f"{self.formation(key)} may spend no MP this activation")
            if self._fired_instead(key):
                raise RuleError("6.15", f"{key} fired: on Advance a unit moves or fires, "
                                "not both (10.32)")
            if facing.kind != facing_kind(self.orders_of(key)):
                raise RuleError("7.1", f"a unit on {self.orders_of(key)} orders faces a "
                                f"{facing_kind(self.orders_of(key))}")
            to = board.parse(action["to"])
            found = self.reach(key).get((to, facing))
            if found is not None and (lc := orders_step.lc_move_problem(self, key, to, facing)):
                raise lc  # 002 §6.24
            if found is None or (to == self.hex_of(p.units[key].hex)
                                 and not formation_step.is_line(self, key)):
                raise RuleError("9.1", f"{key} cannot reach {action['to']} facing {facing} now "
                                "(terrain, MP, facing, enemy, stacking or its orders' bans)")
            return found
        elif kind in formation_step.KINDS:
            return formation_step.check(self, action, seat)
        elif kind == "resupply":
            ammunition.check_resupply(self, action, seat)  # 002 §10.92-10.93
        elif kind == resupply_turn.KIND:
            return resupply_turn.check(self, action, seat)  # 002 §10.92
        elif kind in mounting.KINDS:
            mounting.check(self, action, seat)  # 002 §14.22
        elif kind in ("rally", "rally_face"):
            key = action["unit"]
            if key not in p.units or p.units[key].seat != seat:
                raise RuleError("13.41", f"{key!r} is not one of your units")
            if not self.in_activation(key):
                raise RuleError("5.3", f"{key} is not of the active brigade")
            problem = self._rally_problem(key)
            if problem is not None:
                raise problem
            if kind == "rally_face":  # 002 §7.25: one vertex if it rallies
                formation_step.check_rally_turn(self, key, Facing.from_json(action["facing"]))
        elif kind in fire_action.ORDER_TYPES:
            if str(action.get("unit")) in p.units and (
                    late := orders_step.act_problem(self, str(action.get("unit")))
                    or orders_step.fire_problem(self, str(action.get("unit")))) is not None:
                raise late  # 002 §5.36, §6.24
            if str(action.get("unit")) in p.units and (
                    charging := charge_step.fire_problem(self, str(action["unit"]))) is not None:
                raise charging  # 002 §11.52
            if p.brigade is not None and not self.may_fight(p.brigade):
                raise RuleError("5.34", f"{p.brigade} is in Confusion: no fire this AM")
            if p.brigade is not None and shock_step.has_shocked(self, p.brigade):
                raise RuleError("11.11", f"{p.brigade} has shocked: no fire after it")
            return fire_action.check_order(self, action, seat)
        elif kind == "shock":
            if p.brigade is not None and not self.may_fight(p.brigade):
                raise RuleError("5.34", f"{p.brigade} is in Confusion: no shock this AM")
            entry_step.check_shock(self, action)  # 002 §9.72
            return shock_step.check_designation(self, action, seat)
        elif kind in ("withdraw", "stand", "pre_shock_fire", "counter_charge"):
            shock_step.check_defender(self, action, seat)
        elif kind == "relieve":
            drunk.check_relief(self, action, seat)  # 004 §18.0 L
        elif kind == "warren":
            battle_book_step.check_warren_call(self, action, seat)  # 004 §14.5
        elif kind == "charge":
            charge_step.check(self, action, seat)
            if scenario_step.no_charge(self, str(action["unit"])):
                raise RuleError("tdg.sc.1", f"{action['unit']} is unfit and may not charge")
        elif kind == "break_charge":
            charge_step.check_break(self, action, seat)
        elif kind in ("continue_shock", "shock_advance", "end_shock"):
            continued_shock.check(self, action, seat)
        elif kind in return_fire.ANSWERS:
            return_fire.check(self, action, seat)
        elif kind in reaction_step.ANSWERS:
            reaction_step.check_answer(self, action, seat)
        elif kind == "withdrawal_move":
            return withdrawal_step.check(self, action, seat)
        elif kind == off_map_step.KIND:  # 004 §9.88
            off_map_step.check(self, action, seat)
        elif kind == "move_leader":
            ld = action["leader"]
            if ld not in self.movable_leaders():
                raise RuleError("9.3", f"{ld!r} may not move now (the active brigade's "
                                "brigadier or the drawn division's leader, once an activation)")
            if board.parse(action["to"]) not in self.leader_moves(ld):
                raise RuleError("9.3", f"{ld} cannot reach {action['to']} with "
                                f"{LEADER_MA} MP")
        elif kind == "move_commander":
            ld = action["leader"]
            if ld not in self.commanders(seat):
                raise RuleError("9.32", f"{ld!r} is not one of your corps commanders or your "
                                "OC on the map")
            cost = self.commander_moves(ld).get(board.parse(action["to"]))
            if cost is None:
                raise RuleError("9.32", f"{ld} cannot reach {action['to']} with the MP he has "
                                f"left (legs of {LEADER_MA}, {COMMANDER_MA} in all)")
            return cost
        elif kind == "coordinate" and not self.coordination_eligible():
            raise RuleError("5.34", "coordination needs two or more brigades whose brigadier is "
                            "in the division leader's range, and the leader on the map")
        elif kind in ("end_brigade", "end_activation") and orders_step.owes_move(self):
            raise RuleError("6.24", f"{', '.join(orders_step.owes_move(self))}: the Loose "
                            "Cannon's moves come first")
        elif kind in ("end_brigade", "end_activation") and self._owes_shock(seat):
            raise RuleError("11.21", f"{', '.join(self._owes_shock(seat))} must shock before "
                            "the brigade ends")
        elif kind == "end_brigade" and p.brigade is None:
            raise RuleError("5.3", "no brigade is acting")
        return None

    def _own_brigade(self, name: Any, seat: Seat) -> str:
        b = self.pos.brigades.get(str(name))
        if b is None or b.seat != seat:
            raise RuleError("5.3", f"{name!r} is not one of your brigades")
        return str(name)

    def group_candidates(self) -> list[str]:
        """002 §5.34: the brigades that may join a coordinated group now: after a result of
        two or more, before this marker's group has acted, those the marker may still
        activate whose brigadier is in command (the roll's eligibility; a CI division
        never rolls)."""
        p = self.pos
        if p.coordination is None or p.coordinated or p.brigade is not None:
            return []
        return [n for n in self.eligible_brigades() if self.brigadier_in_command(n)]

    def group_limit(self) -> int:
        """How many brigades the marker's coordination result lets act as one (002 §5.34);
        counted on the brigades eligible at the roll (those done since still count)."""
        p = self.pos
        eligible = {*self.group_candidates(), *(n for n in p.done_brigades
                                                if self.brigadier_in_command(n))}
        return coordination.group_limit(p.coordination, len(eligible))

    def _check_group(self, action: Action, seat: Seat) -> list[str]:
        """An ``activate_group`` (002 §5.34): distinct brigades of the seat, two up to the
        result's number, each a candidate (:meth:`group_candidates`)."""
        p = self.pos
        names = [self._own_brigade(n, seat) for n in action["brigades"]]
        if p.brigade is not None:
            raise RuleError("5.3", f"{p.brigade} is acting; end it first")
        if len(set(names)) != len(names) or len(names) < 2:
            raise RuleError("5.34", "a coordinated group is two or more different brigades")
        if p.coordinated:
            raise RuleError("5.34", "this marker's coordinated group has already acted")
        if coordination.group_limit(p.coordination, 2) < 2:
            raise RuleError("5.34", "no coordination result lets brigades act as one on this "
                            f"marker (result: {p.coordination or 'no roll'})")
        out = sorted(set(names) - set(self.group_candidates()))
        if out:
            raise RuleError("5.34", f"{', '.join(out)}: not eligible (brigadier out of the "
                            "division leader's range, another formation, in Reserve or done)")
        limit = self.group_limit()
        if len(names) > limit:
            raise RuleError("5.34", f"{p.coordination}: at most {limit} brigades act as one, "
                            f"not {len(names)}")
        return names

    def coordination_eligible(self) -> list[str]:
        """002 §5.34: the brigades of the drawn division whose brigadier is in the division
        leader's range; a roll may be tried when there are two or more and the leader is on
        the map (not on the March AM)."""
        p = self.pos
        division = marker_parts(p.current or "")[1]
        if division is None or p.phase != "orders_change":
            return []
        dl = self.cat.division_leader.get(division)
        if dl is None or self.leader_hex(dl) is None:
            return []
        if division in p.ci_divisions:
            return []  # 002 §13.32: a CI division's brigades never coordinate
        eligible = [n for n in self.eligible_brigades() if self.brigadier_in_command(n)]
        return eligible if len(eligible) >= 2 else []
