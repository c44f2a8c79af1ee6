"""The GBACW game on the core protocol (:class:`gettysburg.core.protocol.Game`).

The position is :class:`gettysburg.gbacw.state.Position`; the turn follows
:mod:`gettysburg.gbacw.sequence` (002 §3.0); the actions are
:mod:`gettysburg.gbacw.actions`'. Automatic steps (initiative, efficiency draws, the blind
draws from the activation-marker pool, the coordination roll, the end segment) run inside
the action that leads to them, so ``to_move`` always names a seat with a real choice (the
defender's, while a shock or a shot waits for its answer).

The class is built in layers, one module each, every layer a subclass of the one before:
:mod:`questions` (data, caches and the questions), :mod:`legality` (the legal list and the
checks), :mod:`steps` (the sequence's steps), :mod:`view` (the seats' views), and here the
set-up and the execution of an action. Fire, shock and return fire are in
:mod:`fire_action`, :mod:`shock_step` and :mod:`return_fire`.
"""

from __future__ import annotations

from collections.abc import Sequence

from gettysburg.core.dice import Dice, normalize_seed
from gettysburg.core.protocol import (
    Action,
    Event,
    GameSetup,
    Seat,
    dice_event,
    resolve_dice,
)
from gettysburg.gbacw import (
    ammunition,
    artillery_near,
    barrage_step,
    battle_book_step,
    charge_step,
    collapse_step,
    drunk,
    end_segment,
    engineering_step,
    event_choices,
    fire_action,
    formation_step,
    mounting,
    move_step,
    nonphasing_fire,
    off_map_step,
    orders_step,
    reaction_step,
    results_step,
    resupply_turn,
    return_fire,
    scenario_step,
    setup_works,
    shock_step,
    withdrawal_step,
)
from gettysburg.gbacw.catalog import catalog
from gettysburg.gbacw.facing import Facing
from gettysburg.gbacw.lasting import hero_events, hero_off, hero_on, rain_rally_drm
from gettysburg.gbacw.questions import (
    COMMANDER_MA,
    LEADER_MA,
    OPTIONS,
    _towards,
    action_types,
    facing_kind,
    unit_class,
)
from gettysburg.gbacw.rally import rally
from gettysburg.gbacw.setup import turn_label
from gettysburg.gbacw.shock_action import combatant_of
from gettysburg.gbacw.state import (
    SEATS,
    Position,
    UnitState,
    other,
    unit_key,
)
from gettysburg.gbacw.view import EngineView

__all__ = ["COMMANDER_MA", "LEADER_MA", "OPTIONS", "GbacwGame", "action_types",
           "catalog", "facing_kind", "unit_class"]


class GbacwGame(EngineView):
    """A GBACW game; the constructor is the registered factory. Its layers, each a module:
    ``questions`` (data and questions), ``legality`` (legal list and checks), ``steps`` (the
    sequence's automatic steps), ``view`` (the seats' views); here the set-up and the
    execution of an action."""

    system = "gbacw"

    def __init__(self, scenario: str = "herr-ridge", options: Sequence[str] = (),
                 seed: int | str = 0, dice: Dice | None = None) -> None:
        for opt in options:
            if opt not in OPTIONS:
                raise ValueError(f"unknown gbacw option {opt!r}; known: {sorted(OPTIONS)}")
        artillery_near.check_options(options)  # 002 §9.55: one option or the other
        game_dice = resolve_dice(seed, dice)
        super().__init__(GameSetup(self.system, scenario, tuple(options),
                                   normalize_seed(seed)), game_dice)
        self._derive()
        s = self.scen
        pos = Position(turn=s.first_turn, last_turn=s.last_turn, phase="orders",
                       first_initiative=s.initiative)
        cat = self.cat
        placed = {seat: [cat.board.parse(p.hex) for p in s.pieces.get(seat, [])]
                  for seat in SEATS}
        for seat in SEATS:
            for p in s.pieces.get(seat, []):
                c = cat.counters[p.counter]
                kind = facing_kind(p.orders)
                # a facing the book leaves free starts towards the nearest enemy
                facing = Facing(kind, p.facing) if p.facing is not None else _towards(  # type: ignore[arg-type]
                    cat.board.parse(p.hex), placed[other(seat)], kind)
                pos.units[unit_key(p.counter)] = UnitState(p.counter, seat, p.hex, facing,
                                                           lost=p.sp_lost)
                self._brigade(pos, c, seat).orders = p.orders if c.arm not in (
                    "art", "horse_art") or p.orders == "march" else "advance"
            for leader, hex_id in s.leaders.get(seat, []):
                pos.leaders[leader] = hex_id
                pos.leader_seat[leader] = seat
        for i, arr in enumerate(s.arrivals):
            chosen: dict[str, str] = {}
            for cid in arr.counters:
                key = unit_key(cid)
                # a cavalry regiment arrives mounted unless its group says otherwise
                if key not in chosen or cid.endswith(":mounted"):
                    chosen[key] = cid
            for key, cid in sorted(chosen.items()):
                c = cat.counters[cid]
                pos.units[key] = UnitState(cid, arr.seat, None, None)
                self._brigade(pos, c, arr.seat)
            for leader in arr.leaders:
                pos.leaders.setdefault(leader, None)
                pos.leader_seat[leader] = arr.seat
            del i
        # every leader of a formation in play stands where the scenario puts him, or off map
        for b, st in pos.brigades.items():
            for ld in (cat.brigade_leader.get(b), cat.division_leader.get(st.division or ""),
                       cat.corps_leader.get(st.corps), cat.army_leader.get(st.seat)):
                if ld is not None:
                    pos.leaders.setdefault(ld, None)
                    pos.leader_seat[ld] = st.seat
        for h in self.victory_hexes():  # who holds each objective at the start
            holders = {u.seat for u in pos.units.values() if u.hex == h}
            if len(holders) == 1:
                pos.control[h] = holders.pop()
        self.pos = pos
        self.record(Event("setup", "3.0", {"scenario": s.id, "title": s.title,
                                            "turn": turn_label(s.first_turn),
                                            "last_turn": turn_label(s.last_turn)}))
        for e in engineering_step.setup_breastworks(self):  # 004 sc. 4.5, E-18
            self.record(e)
        for e in self._begin_turn():
            self.record(e)

    def execute(self, action: Action, seat: Seat) -> list[Event]:
        before = end_segment.on_map_leaders(self)
        collapse_step.begin(self)  # 002 §12.23: the final UDD after losses outside combat
        hero = hero_on(self)  # 004 §18.0 P: Hero markers at this action's UDDs
        try:
            ev = orders_step.before_action(self, action, seat)  # 002 §6.34
            orders = orders_step.orders_before(self, action)
            first = orders_step.fresh(self, action)
            marching = orders_step.march_hexes(self)
            active = self.pos.brigade
            ev += self._execute(action, seat)
            orders_step.note_fired_on(self, ev, marching)  # 002 §6.26
            if action["type"] in ("end_brigade", "end_activation") and active is not None:
                ev += orders_step.march_fired_on(self)
            orders_step.count_act(self, first)  # 002 §5.36
            ev += orders_step.late_orders(self, orders)  # 002 §4.23
            if action["type"] in ("activate", "activate_group"):
                for n in self.active_brigades():
                    ev += orders_step.on_activate(self, n)  # 002 §4.23
            end_segment.note_fallen(self, before)  # replaced in IV/B (002 §12.74)
            end_segment.note_not_idle(self, action)  # 002 §13.45: shocked, reaction moves
            ev += engineering_step.after_action(self, action)  # 002 §15.14
            return ev + hero_events(self)  # 004 §18.0 P: markers played
        finally:
            hero_off(hero)
            self._memo.clear()  # the position changed

    def _execute(self, action: Action, seat: Seat) -> list[Event]:
        checked = self._check(action, seat)
        kind = action["type"]
        p = self.pos
        ev: list[Event] = []
        snap = results_step.before(self, action)  # 002 §12.81: a mover's order
        held = nonphasing_fire.before_move(self, action, seat)  # 002 §10.44: fire first
        if held is not None:
            return held
        if kind == "raise":
            mine = {c for c, _ in self._commands(seat)}
            before = set(p.command.get("oc_bonus", [])) & mine
            others = [c for c in p.command.get("oc_bonus", []) if c not in mine]
            p.command["oc_bonus"] = sorted([*others, *action["corps"]])
            divs_of = dict(self._commands(seat))
            for cmd in sorted(before | set(action["corps"])):
                self._division_ams(cmd, divs_of[cmd], p.em[cmd])
                p.ams.update({d: n for d in divs_of[cmd]
                              if (n := self._fixed_ams(d)) is not None})
            ev.append(Event("raise", "5.22", {"seat": seat, "corps": action["corps"]},
                            visible_to=(seat,)))
        elif kind == "share":
            cmd = action["corps"]
            p.shares[cmd] = self._share_of(action["to"])
            divs = dict(self._commands(seat))[cmd]
            self._division_ams(cmd, divs, p.em[cmd])
            p.ams.update({d: n for d in divs if (n := self._fixed_ams(d)) is not None})
            ev.append(Event("share", "5.23", {"seat": seat, "corps": cmd, "to": action["to"],
                                              "ams": {d: p.ams[d] for d in divs}},
                            visible_to=(seat,)))
        elif kind == "transfer":
            after = self._transfer_result(seat, action["from"], action["to"])
            assert after is not None  # checked
            p.ams = after
            p.transferred.append(seat)
            ev.append(Event("transfer", "5.4", {"seat": seat, "from": action["from"],
                                                "to": action["to"]},
                            visible_to=(seat,), redacted=None))
        elif kind == "set_orders":
            b = p.brigades[action["brigade"]]
            b.orders = action["orders"]
            self._refacing(action["brigade"])
            ev.append(Event("orders", "9.7" if self._arriving(action["brigade"]) else "6.12",
                            {"brigade": action["brigade"], "orders": b.orders},
                            visible_to=(seat,)))
        elif kind == "reserve":
            p.brigades[action["brigade"]].reserve = action["on"]
            ev.append(Event("reserve", "6.3", {"brigade": action["brigade"],
                                               "on": action["on"]}, visible_to=(seat,)))
        elif kind == "build":
            ev += engineering_step.start_build(self, action, seat)
        elif kind == "attach":
            ev += orders_step.apply_attach(self, action, seat)
        elif kind in scenario_step.CHOICES:  # 004 chart notes [c]
            ev += scenario_step.apply_choice(self, action, seat)
        elif kind == "alexander_swap":
            ev += orders_step.apply_swap(self, action, seat)
        elif kind == "idle_rally":
            ev += end_segment.apply_idle(self, action, seat)
        elif kind == "end_orders":
            ev += setup_works.finish(self, seat)  # 004 sc.4.5, sc.5.5: works left to place
            p.orders_done.append(seat)
            ev.append(Event("orders_done", "3.0", {"seat": seat}))
            if len(p.orders_done) == 2:
                ev += self._start_activations()
        elif kind == "first_am":
            p.pool.remove(action["marker"])
            ev += self._activate_marker(action["marker"], chosen=True)
        elif kind == "roll_orders":
            ev += self._roll_orders(action["brigade"], action["orders"], seat)
        elif kind == "coordinate":
            ev += self._coordinate()
        elif kind == "end_orders_change":
            p.phase = "action"  # no coordination tried (002 §3.0 III/C/2: the player may)
        elif kind in ("activate", "activate_group"):
            group = [str(x) for x in action.get("brigades", [action.get("brigade")])]
            p.brigade = group[0]
            if len(group) > 1:
                p.coordinated = group  # 002 §5.34: they act as one brigade
            for name in group:
                p.brigades[name].activations += 1  # each spends the activation
            for k in self.activation_units():
                u = p.units[k]
                u.moves, u.mp_spent, u.moved, u.charging = 0, 0, False, False
                u.formation_mp = 0
                u.remounted = False  # 002 §14.22: the halved MA lasts one activation
            for u in p.units.values():
                u.fired = []  # fire kinds count per brigade activation (002 §10.31, §10.41)
            p.reacted = []  # reaction facing: once per enemy brigade activation (§9.62)
            ev.append(Event("activate", "5.34" if len(group) > 1 else "5.3",
                            {"brigade": p.brigade, "seat": seat,
                             **({"group": group} if len(group) > 1 else {})}))
        elif kind == "move":
            ev += move_step.execute(self, action, checked)  # 002 §9, §9.47, §8.22 rolls
            ev += engineering_step.crossed(self, next(  # 002 §15.17
                (list(e.data.get("path", [])) for e in reversed(ev) if e.type == "move"), []))
            ev += reaction_step.after_move(self, action["unit"])  # 002 §9.61
        elif kind == "face":
            u = p.units[action["unit"]]
            free = not self.may_move(self.formation(action["unit"]))  # Stay, Confusion
            here = self.hex_of(u.hex)
            turned = None if free or here is None else self.reach(action["unit"]).get(
                (here, checked))
            u.facing = checked
            u.moves += 1
            stack = formation_step.face_stack(self, action["unit"])  # 002 §7.11, §8.26
            self._did(action["unit"], "free_facing" if free else "facing")
            u.mp_spent += 0 if turned is None else (turned.half_mp + 1) // 2
            ev.append(Event("face", "7.2", {"unit": action["unit"], "hex": u.hex,
                                            "facing": checked.to_json(),
                                            **({"stack": stack} if stack else {})}))
        elif kind in formation_step.KINDS:
            ev += formation_step.execute(self, action, int(checked))
            if kind == "restack":
                fire_action.mark_restacked(self, action["unit"])  # no fire on Advance (8.24)
        elif kind == "resupply":
            ev += ammunition.resupply(self, action, seat)  # 002 §10.92
        elif kind == resupply_turn.KIND:
            ev += resupply_turn.execute(self, action, seat)  # 002 §10.92
        elif kind in mounting.KINDS:
            ev += mounting.execute(self, action, seat)  # 002 §14.22
        elif kind in ("rally", "rally_face"):
            key = action["unit"]
            u = p.units[key]
            here = self.hex_of(u.hex)
            first = self.dice.counter
            res = rally(self.dice, combatant_of(self, key), adjacent_enemy=here is not None and any(
                here.distance(e) == 1 for e in self.enemy_hexes(seat)),
                rain=rain_rally_drm(self) != 0)  # 004 §18.0 M
            if res.rallied:
                u.disordered = False
            u.lost += res.sp_loss
            u.moves = self.moves_allowed(key)  # its action for this activation
            self._did(key, "rally")
            ev += [dice_event(self.dice.rolls_since(first)),
                   Event("rally", "13.41", res.to_json())]
            if res.rallied and kind == "rally_face":  # 002 §7.25: one vertex
                ev += formation_step.rally_turn(self, key, Facing.from_json(action["facing"]))
            ev += self._casualties()
        elif kind in fire_action.ORDER_TYPES:
            deferred = return_fire.defer(self, action, seat)  # 002 §10.42: an answer?
            ev += fire_action.execute_fire(self, action, seat) if deferred is None else deferred
            self._did(action["unit"], "fire")
            ev += self._casualties()
            ev += reaction_step.after_fire(self, ev)  # 002 §9.61: fire from outside the front
        elif kind in reaction_step.ANSWERS:
            ev += reaction_step.answer(self, action, seat)
            ev += self._casualties()  # §9.63's second disorder can take the last SP
            ev += charge_step.after_reaction(self, action)  # 002 §11.57
        elif kind == "withdrawal_move":
            ev += withdrawal_step.execute(self, action, checked)  # 002 §9.54
        elif kind == off_map_step.KIND:
            ev += off_map_step.apply(self, action, seat)  # 004 §9.88
            ev += reaction_step.after_move(self, action["unit"])  # 002 §9.61
        elif kind in return_fire.ANSWERS:
            ev += return_fire.answer(self, action, seat)
            ev += self._casualties()
            ev += reaction_step.after_fire(self, ev)  # 002 §9.61
        elif kind in nonphasing_fire.ACTION_KINDS:  # 002 §10.44-10.45
            ev += nonphasing_fire.answer(self, action, seat)
            ev += self._casualties()
        elif kind == "shock":
            ev += shock_step.designate(self, action, seat)
            ev += self._casualties()
        elif kind == "withdraw":
            ev += shock_step.withdraw(self, action, seat)
            ev += self._casualties()
        elif kind == "pre_shock_fire":
            ev += shock_step.pre_shock_fire(self, action, seat)
            ev += self._casualties()
        elif kind == "stand":
            ev += shock_step.stand(self, action, seat)
            ev += self._casualties()
        elif kind in ("continue_shock", "shock_advance", "end_shock"):
            ev += shock_step.answer_after_shock(self, action, seat)
            ev += self._casualties()
        elif kind == "charge":
            ev += charge_step.declare(self, action, seat)
        elif kind == "counter_charge":
            ev += shock_step.answer_counter_charge(self, action, seat)
        elif kind == "break_charge":
            ev += charge_step.break_off(self, action, seat)
        elif kind in results_step.ACTION_KINDS:  # 002 §12.41, §12.6: the answers
            ev += results_step.execute(self, action, seat)
            ev += shock_step.resume_pending(self)  # 002 §11.41: the shocks go on
        elif kind == "move_leader":
            frm = p.leaders[action["leader"]]
            p.leaders[action["leader"]] = action["to"]
            p.leaders_moved.append(action["leader"])
            if p.brigade is not None:
                p.brigades[p.brigade].did.append("leader_move")
            ev.append(Event("leader_move", "9.3", {"leader": action["leader"], "from": frm,
                                                   "to": action["to"]}))
        elif kind == "move_commander":
            ld = action["leader"]
            frm = p.leaders[ld]
            p.leaders[ld] = action["to"]
            p.commander_mp[ld] = p.commander_mp.get(ld, 0) + int(checked)
            ev.append(Event("leader_move", "9.32", {"leader": ld, "from": frm,
                                                    "to": action["to"],
                                                    "mp": p.commander_mp[ld] / 2}))
        elif kind == "end_commanders":
            p.commanders_done.append(seat)
            if len(p.commanders_done) == 2:
                ev += self._end_turn()
        elif kind == "end_brigade":
            ev += self._end_brigade()
        elif kind == "end_activation":
            if p.brigade is not None:
                ev += self._end_brigade()
            ev += self._end_marker()
        elif kind == "barrage":  # 004 §10.92
            ev += barrage_step.declare(self, action, seat)
        elif kind == "barrage_fire":  # 004 §10.93-10.94
            ev += barrage_step.fire(self, action, seat)
            ev += self._casualties()
        elif kind in event_choices.ACTION_KINDS:  # 004 §18.0: a random event's choice
            got, marker = battle_book_step.answer_event(self, action, seat)
            ev += got
            if marker is not None:
                ev += self._activate_marker(marker, chosen=True)
            elif p.pending is None:
                ev += self._draw()  # the draw the event stopped goes on
        elif kind == "relieve":  # 004 §18.0 L
            ev += drunk.relieve(self, action, seat)
        elif kind == "hero_policy":  # 004 §18.0 P (E-33)
            ev += battle_book_step.set_hero_policy(self, action, seat)
        elif kind == "warren":  # 004 §14.5
            called, marker = battle_book_step.call_warren(self, str(action["brigade"]))
            ev += called + self._activate_marker(marker, chosen=True)
        ev += battle_book_step.after_action(self, action)  # 004 §18.0 I
        ev += nonphasing_fire.after_move(self, action, ev)  # 002 §10.45
        # 002 §12.3-12.8, §13.43: retreats, routs, leaders, guns, the advance after fire
        ev += results_step.after_action(self, action, ev, snap, self._casualties)
        barrage_step.tidy(self)  # 004 §10.9: a barrage phase lasts its marker
        return ev
