"""The GBACW game's sequence steps (:class:`EngineSteps`): initiative, efficiency, the
activation draws, orders changes, coordination, moves, casualties, the end of a brigade, a
marker and a turn (IV/B recovery, IV/C combat effectiveness), 002 §3.0."""

from __future__ import annotations

from typing import Any

from gettysburg.core.protocol import (
    Action,
    Event,
    Seat,
    dice_event,
)
from gettysburg.gbacw import (
    barrage_step,
    battle_book_step,
    charge_step,
    collapse_step,
    effectiveness,
    efficiency,
    end_segment,
    engineering_step,
    fatigue,
    formation_step,
    night,
    off_map_step,
    orders_step,
    random_events,
    results_step,
    scenario_step,
)
from gettysburg.gbacw.charts import all_charts
from gettysburg.gbacw.command_status import INDEPENDENT
from gettysburg.gbacw.coordination import coordinate
from gettysburg.gbacw.cup import uniform_index
from gettysburg.gbacw.facing import to_kind
from gettysburg.gbacw.initiative import InitiativeSide, roll_initiative
from gettysburg.gbacw.legality import EngineLegality
from gettysburg.gbacw.orders import (
    UnitSituation,
    changed_orders,
    loose_cannon,
    orders_change,
)
from gettysburg.gbacw.paths import Reach
from gettysburg.gbacw.questions import (
    EVENT_MARKER,
    LEADER_MA,
    facing_kind,
    unit_class,
)
from gettysburg.gbacw.retreat import abandoned_next
from gettysburg.gbacw.setup import turn_label
from gettysburg.gbacw.state import (
    SEATS,
    division_marker,
    march_marker,
    marker_parts,
)


class EngineSteps(EngineLegality):
    """A layer of :class:`gettysburg.gbacw.game.GbacwGame` (see the module)."""

    # --- the steps -------------------------------------------------------------------------

    def _refacing(self, brigade: str) -> None:
        """002 §7.1: a change between March and the other orders turns each unit to the
        facing of the new kind nearest its old one (the clockwise neighbour)."""
        for k in self.brigade_units(brigade):
            u = self.pos.units[k]
            if u.facing is not None:  # a unit's own orders: 002 §4.23 (orders_step.py)
                u.facing = to_kind(u.facing, facing_kind(self.orders_of(k)))  # type: ignore[arg-type]
        formation_step.on_orders(self, brigade)  # lines, columns, refusals (§7.26, §8.53)

    def d10(self, purpose: str, rule: str) -> int:
        return self.dice.roll(purpose, rule, die="d10")

    def _begin_turn(self) -> list[Event]:
        """I initiative (§5.1), reinforcements due (§9.7), II/A chain (§4.2) and II/B
        efficiency (§5.2) for the turn now on the track."""
        p = self.pos
        ev: list[Event] = [Event("turn", "3.0", {"turn": turn_label(p.turn),
                                                 "light": self._light()})]
        # reinforcements due this turn wait at their entry hex (002 §9.7)
        for i, arr in enumerate(self.scen.arrivals):
            if i in p.arrived:
                continue
            stage = next(((hx, roll) for t, hx, roll in ((arr.turn, arr.hex, arr.roll),
                                                          *arr.later) if t == p.turn), None)
            if stage is None:
                continue
            hex_id, roll = stage
            comes = scenario_step.arrival_hex(self, i, hex_id)  # 004 chart notes [c]
            if comes is None:
                continue
            hex_id = comes
            if roll is not None:  # a d10 decides whether it comes now (004's schedule)
                first = self.dice.counter
                die = self.d10(f"arrival {arr.id}", "9.7")
                ev.append(dice_event(self.dice.rolls_since(first), visible_to=(arr.seat,)))
                if not roll[0] <= die <= roll[1]:
                    ev.append(Event("reinforcements_delayed", "9.7",
                                    {"group": arr.id, "roll": die, "needed": list(roll)},
                                    visible_to=(arr.seat,)))
                    continue
            p.arrived.append(i)
            p.entries[str(i)] = hex_id
            p.arrived_on[str(i)] = p.turn
            if arr.orders is not None:  # the book's orders for the group (9.7)
                for cid in arr.counters:
                    b = p.brigades.get(self.cat.counters[cid].formation)
                    if b is not None:
                        b.orders = arr.orders
            ev.append(Event("reinforcements", "9.7", {"group": arr.id, "seat": arr.seat,
                                                      "hex": hex_id},
                            visible_to=(arr.seat,)))
        ev += battle_book_step.begin_turn(self)  # 004 §18.0 D, G, R
        ev += self._initiative()
        ev += self._chain()
        ev += self._efficiency()
        p.phase = "orders"
        return ev

    def _initiative(self) -> list[Event]:
        """002 §5.1 through :mod:`initiative`: a d10 each, +1 to last turn's holder, + the
        OC's initiative rating when he is on the map with a corps commander in his range
        (measured as II/A does, last turn's); a tie gives nobody; turn 1 may be given."""
        p, cat = self.pos, self.cat
        given = p.first_initiative if p.turn == self.scen.first_turn else None

        def side(seat: Seat) -> InitiativeSide:
            oc = cat.army_leader.get(seat)
            at = self.leader_hex(oc)
            if oc is None or at is None:
                return InitiativeSide(p.last_initiative == seat, 0, 0, False)
            reach = cat.rating(oc, "command_range", 20)
            corps_near = any(
                self.superior_of(ld, seat) == oc and (h := self.leader_hex(ld)) is not None
                and h.distance(at) <= reach
                for ld in p.leaders if cat.leader_level.get(ld) == "corps")
            spent = 2 * LEADER_MA + 1 if oc in p.tired else 0  # §9.32: over 10 MP
            rating = 0 if battle_book_step.lee_paralysed(self, seat) else cat.rating(
                oc, "initiative")  # 004 §18.0 S
            return InitiativeSide(p.last_initiative == seat, rating, spent, corps_near)

        first = self.dice.counter
        res = roll_initiative(self.dice, side("usa"), side("csa"),
                              given_to=given)  # type: ignore[arg-type]
        p.initiative = res.winner
        p.last_initiative = res.winner
        if res.fixed:
            return [Event("initiative", "5.1", {"seat": p.initiative, "scenario": True})]
        rolls = self.dice.rolls_since(first)
        return [dice_event(rolls),
                Event("initiative", "5.1", {"rolls": {"usa": rolls[0].value,
                                                      "csa": rolls[1].value},
                                            "totals": {"usa": res.usa_total,
                                                       "csa": res.csa_total},
                                            "seat": res.winner})]

    def _efficiency(self) -> list[Event]:
        p = self.pos
        p.em, p.ams, p.shares = {}, {}, {}
        ev: list[Event] = []
        for seat in SEATS:
            cup = list(all_charts().efficiency_pools.pool(seat))
            first = self.dice.counter
            drawn: dict[str, int] = {}
            for cmd, divs in self._commands(seat):
                fixed = {d: n for d in divs if (n := self._fixed_ams(d)) is not None}
                if len(fixed) < len(divs) and cup:
                    i = self._uniform(len(cup), f"efficiency {seat} {cmd}", "5.21")
                    value = cup.pop(i)
                    drawn[cmd] = value
                    p.em[cmd] = value
                    self._division_ams(cmd, divs, value)
                p.ams.update(fixed)  # a scenario's set count draws nothing (004 sc.2)
            ams = {d: p.ams[d] for _, divs in self._commands(seat) for d in divs if d in p.ams}
            rolls = self.dice.rolls_since(first)
            if rolls:
                ev.append(dice_event(rolls, visible_to=(seat,)))
            ev.append(Event("efficiency", "5.2", {"seat": seat, "em": drawn, "ams": ams},
                            visible_to=(seat,),
                            redacted={"seat": seat, "note": "efficiency markers drawn"}))
        return ev

    def _fixed_ams(self, division: str) -> int | None:
        """A scenario's exact AM count for a division on its first turn, when its rule says
        later turns are only capped (004 sc.1-2: Heth and Buford have two AMs at 0700 and
        draw nothing; E-17)."""
        scen = self.scen.scenario
        if scen is None or self.pos.turn != self.scen.first_turn:
            return None
        turn = turn_label(self.pos.turn)
        for rule in scen.special_rules:
            if rule.params.get("cap_after_first_turn"):
                for am in rule.activations:
                    if am.division == division and am.turn == turn:
                        return max(1, am.count)
        return None

    def _division_ams(self, cmd: str, divs: list[str], em: int) -> None:
        """002 §5.22-5.25 through :mod:`efficiency`: a corps' divisions from its marker, the
        commander's share going to the first division in his range (the player's choice in
        the book; here fixed, a reading until an action offers it); TDG's cavalry divisions
        on their own marker (004 §5.23); Hunt's reserve as an artillery chief (004 §4.36,
        E-29); brigades straight under a corps on the corps' marker. A scenario's count is
        a ceiling (E-17)."""
        cat, p = self.cat, self.pos
        if cmd == barrage_step.CSA_ARTILLERY:  # 004 §4.35-4.36: Pendleton's AMs (E-29)
            p.ams[cmd] = barrage_step.chief_ams(self, "csa", em)
            return
        scen = self.scen.scenario
        turn = turn_label(p.turn)
        cl = cat.corps_leader.get(cmd)

        def standing(d: str) -> efficiency.DivisionStanding:
            dl = cat.division_leader.get(d)
            cap = scen.activation_cap(d, turn) if scen is not None else None
            return scenario_step.proxy_standing(self, efficiency.DivisionStanding(  # 004 sc.3
                d, activation=cat.rating(dl, "activation") if dl else 0,
                leader_on_map=dl is not None and self.leader_hex(dl) is not None,
                in_corps_range=self.division_in_range(d) and cl is not None
                and self.leader_hex(cl) is not None,
                independent=d in INDEPENDENT, cap=None if cap is None else max(1, cap)))

        real = [d for d in divs if d in cat.division_corps]
        for d in divs:
            if d in INDEPENDENT:
                p.ams[d] = efficiency.independent_division_ams(em, standing(d)).ams
            elif d not in cat.division_corps:  # the corps' own brigades
                if cmd == "US-AR" and cl is not None:
                    p.ams[d] = efficiency.artillery_ams(
                        em, cat.rating(cl, "efficiency"),
                        all_charts().efficiency_pools.artillery_am_cap.value)
                else:
                    p.ams[d] = max(1, min(4, em))
        if real:
            rating = cat.rating(cl, "efficiency") if cl else 0
            stands = [standing(d) for d in real]
            eligible = [st.division for st in stands if st.in_corps_range]
            shares: dict[str, int] = dict(p.shares.get(cmd, {}))
            if cmd not in p.shares and rating > 0 and eligible:
                shares[eligible[0]] = rating  # until the player chooses (the share action)
            raised = cmd in self.pos.command.get("oc_bonus", [])
            for d, am in efficiency.corps_ams(em, rating, stands, shares=shares,
                                              oc_bonus=raised).items():
                p.ams[d] = am.ams

    def _uniform(self, n: int, purpose: str, rule: str) -> int:
        return uniform_index(self.dice, n, purpose, rule)

    def _start_activations(self) -> list[Event]:
        """III/A-B: every division's AMs and each side's March AM into the pool; the
        initiative player picks his first marker (nobody picks after a tie, §5.11)."""
        p = self.pos
        pool: list[str] = []
        for seat in SEATS:
            for d in [*self.divisions(seat), *barrage_step.extra_divisions(self, seat)]:
                pool += [division_marker(seat, d)] * p.ams.get(d, 1)
            if any(b.seat == seat and b.orders == "march" and not b.reserve and self.in_play(n)
                   for n, b in p.brigades.items()):
                pool.append(march_marker(seat))
        t = all_charts().turn_track.turns()[p.turn]
        if self.random_events and random_events.marker_in_pool(t.date, t.hour, t.light):
            pool.append(EVENT_MARKER)  # 004 §18.0 (optional rule)
        p.pool = sorted(pool)
        ev = [Event("pool", "5.3", {"seat": s, "markers": self._own_markers_counted(s)},
                    visible_to=(s,), redacted=None) for s in SEATS]
        if p.initiative is not None and self._own_markers(p.initiative):
            p.phase = "first_am"
            return ev
        return ev + self._draw()

    def _own_markers_counted(self, seat: Seat) -> dict[str, int]:
        out: dict[str, int] = {}
        for m in self.pos.pool:
            if marker_parts(m)[0] == seat:
                out[m] = out.get(m, 0) + 1
        return out

    def _draw(self) -> list[Event]:
        """III/C: a blind draw from the pool; the order exists nowhere before it (the pool is
        kept sorted, and the index comes from the dice at the draw)."""
        p = self.pos
        if not p.pool:
            return self._start_commanders()
        first = self.dice.counter
        i = self._uniform(len(p.pool), "activation draw", "5.3")
        marker = p.pool.pop(i)
        ev = [dice_event(self.dice.rolls_since(first), visible_to=())]
        if marker == EVENT_MARKER:
            got = self._random_event()  # 004 §18.0: a choice may stop the draw
            return ev + got + ([] if battle_book_step.choosing(self) else self._draw())
        return ev + self._activate_marker(marker, chosen=False)

    def _random_event(self) -> list[Event]:
        """004 §18.0 (optional): the Random Event marker drawn: ignored when it is the last
        marker of the turn, else who rolls and the letter (random_events.draw_event). The
        letter's effect is applied by :func:`battle_book_step.apply_event` (or announced with
        what it needs when it waits on a player's choice the engine has no action for)."""
        p = self.pos
        ev: list[Event] = [Event("random_event_marker", "tdg.18.0", {})]
        if not random_events.marker_counts(drawn_last=not p.pool):
            ev.append(Event("random_event", "tdg.18.0", {"ignored": "drawn last"}))
            return ev
        first = self.dice.counter
        d = random_events.draw_event(self.dice, frozenset(p.events_happened))
        ev.append(dice_event(self.dice.rolls_since(first)))
        data: dict[str, Any] = d.to_json()
        effects: list[Event] = []
        if d.letter is not None:
            p.events_happened.append(d.letter)
            fields, effects = battle_book_step.apply_event(self, d)
            data.update(fields)
        ev.append(Event("random_event", "tdg.18.0", data))
        return ev + effects

    def _activate_marker(self, marker: str, *, chosen: bool) -> list[Event]:
        p = self.pos
        p.current, p.brigade, p.done_brigades, p.coordination = marker, None, [], None
        p.coordinated = []
        p.leaders_moved = []
        for b in p.brigades.values():
            b.stay, b.rolled = False, False
        orders_step.on_marker(self)  # a Change & Stay from the March AM (002 §6.25)
        for u in p.units.values():
            u.moves = 0
        seat, division = marker_parts(marker)
        ev = [Event("marker", "5.1" if chosen else "5.3",
                    {"marker": marker, "seat": seat, "division": division,
                     "march": division is None, "chosen": chosen})]
        p.phase = "orders_change"
        if not self.eligible_brigades() and not barrage_step.declare_options(self, seat):
            ev.append(Event("marker_idle", "5.3", {"marker": marker}))
            return ev + self._end_marker()
        return ev

    def _roll_orders(self, brigade: str, wanted: str, seat: Seat) -> list[Event]:
        """002 §6.2 through :mod:`orders`: d10 + orders rating, +1 stacked with the division
        leader, +2 with the corps commander or OC; a Change gives the orders asked for
        (Attack or Advance); Loose Cannon by the brigadier's profile (§6.24; its moves and
        charges are the combat issue's: the orders it sets are applied here)."""
        cat, p = self.cat, self.pos
        b = p.brigades[brigade]
        b.rolled = True
        bl = cat.brigade_leader.get(brigade)
        here = p.leaders.get(bl or "")
        with_div = here is not None and p.leaders.get(
            cat.division_leader.get(b.division or "", "")) == here
        with_top = here is not None and here in (
            p.leaders.get(cat.corps_leader.get(b.corps, "")),
            p.leaders.get(cat.army_leader.get(seat, "")))
        first = self.dice.counter
        roll = self.d10(f"orders change {brigade}", "6.2")
        rating = cat.rating(bl, "orders") if bl else 0
        res = orders_change(roll, rating, with_division_leader=with_div,
                            with_corps_or_oc=with_top)
        res = orders_step.march_roll(  # 002 §6.25: a March brigade on the March AM
            self, brigade, res, str(cat.oob.rating(bl, "profile") or "N") if bl else "N")
        before = b.orders
        profile = None
        if res.change:
            b.orders = changed_orders(res, wanted)
        if res.stay:
            b.stay = True
        lc_events: list[Event] = []
        if res.loose_cannon:
            prof = str(cat.oob.rating(bl, "profile") or "N") if bl else "N"
            unreliable = self.d10(f"loose cannon {brigade}", "6.24") if prof == "U" else None
            enemy = self.enemy_hexes(seat)
            situations = []
            for k in self.brigade_units(brigade):
                h = self.hex_of(p.units[k].hex)
                if h is None:
                    continue
                near = min((h.distance(e) for e in enemy), default=None)
                c = self.counter(k)
                situations.append(UnitSituation(
                    k, artillery=unit_class(c) == "artillery",
                    mounted_cavalry=unit_class(c) == "mounted_cavalry",
                    disordered=p.units[k].disordered, green=c.green,
                    adjacent_enemy=near == 1,
                    # each hex costs at least 1 MP: the distance is a generous estimate
                    mp_to_enemy=None if near is None else max(0, near - 1)))
            lc = loose_cannon(prof, situations, unreliable_roll=unreliable,
                              on_march_am=marker_parts(p.current or "")[1] is None)
            profile = lc.acts_as
            if lc.orders is not None:
                b.orders = lc.orders
            self._refacing(brigade)
            lc_events = orders_step.apply_loose_cannon(self, brigade, lc)  # 002 §6.24
        self._refacing(brigade)
        data = {"brigade": brigade, "roll": roll, "rating": rating, "total": res.total,
                "with_division_leader": with_div, "with_corps_or_oc": with_top,
                "result": res.result, "before": before, "orders": b.orders,
                "profile": profile}
        return [dice_event(self.dice.rolls_since(first), visible_to=(seat,),
                           redacted={"brigade": brigade}),
                Event("orders_change", "6.2", data, visible_to=(seat,),
                      redacted={"brigade": brigade, "stay": b.stay}), *lc_events]

    def _coordinate(self) -> list[Event]:
        """002 §5.34 through :mod:`coordination`: one d10 + the division leader's rating,
        tried by the player (002 §3.0 III/C/2) when :meth:`coordination_eligible`."""
        p = self.pos
        eligible = self.coordination_eligible()
        division = marker_parts(p.current or "")[1] or ""
        dl = self.cat.division_leader.get(division, "")
        p.phase = "action"
        first = self.dice.counter
        roll = self.d10(f"coordination {division}", "5.34")
        rating = max(0, min(3, self.cat.rating(dl, "coordination")))
        res = coordinate(roll, rating, eligible)
        p.coordination = res.result
        return [dice_event(self.dice.rolls_since(first)),
                Event("coordination", "5.34", {"division": division, "roll": roll,
                                               "rating": rating, "total": res.total,
                                               "result": res.result,
                                               "eligible": sorted(res.eligible),
                                               "may_combine": res.may_combine})]

    def _move(self, action: Action, reach: Reach) -> list[Event]:
        """002 §9: the unit goes by the cheapest path found; a D on the way disorders it
        (§9.47); the disorder checks ("d") it met are listed for the combat issue."""
        p = self.pos
        key = action["unit"]
        u = p.units[key]
        frm = u.hex
        self._memo.clear()
        back = frm is None and off_map_step.came_back(self, key)  # 004 §9.88: no leaders
        if frm is None and not back:  # a reinforcement's leaders come on with its first unit (9.7)
            for arr in self.scen.arrivals:
                if u.counter in arr.counters and arr.id not in p.tdg.get("withheld", ()):
                    for ld in arr.leaders:  # (a battery of a group withheld for Buford alone)
                        if p.leaders.get(ld) is None:
                            p.leaders[ld] = action["to"]
        old_hex, old_facing = self.hex_of(u.hex), u.facing
        u.hex = action["to"]
        u.facing = reach.facing
        u.moves += 1
        if reach.disordered:
            u.disordered = True
        self._did(key, "road_move" if reach.road_only else "move")
        u.mp_spent += (reach.half_mp + 1) // 2
        u.moved = True
        ids: list[str] = []
        for h, _ in reach.path:
            hid = self.cat.board.hexes[h].id
            if not ids or ids[-1] != hid:
                ids.append(hid)
        objectives = self.victory_hexes()
        for hid in ids[1:] if frm is not None else ids:
            if hid in objectives:
                p.control[hid] = u.seat  # the last side to enter controls it (004 sc.1)
        return [Event("move", "9.1", {"unit": key, "from": frm, "to": u.hex, "path": ids,
                                      "mp": reach.half_mp / 2, "facing": u.facing.to_json(),
                                      "entered": frm is None, "disordered": reach.disordered,
                                      "stopped": reach.stopped,
                                      "checks": [{"hex": self.cat.board.hexes[c.hex].id,
                                                  "kind": c.kind, "drm": c.drm,
                                                  "rule": c.rule} for c in reach.checks]}),
                *formation_step.follow(self, key, old_hex, old_facing, reach)]  # §8.4, §8.5

    def _casualties(self) -> list[Event]:
        """Units with no SP left are eliminated, routed ones leave for their division's
        box (002 §12.13, §12.53): both go off the map for good."""
        # 002 §12.53-12.54: routed units go to the box with their chain, leaders follow
        ev: list[Event] = results_step.sweep(self)
        ev += collapse_step.sweep(self)  # 002 §12.23, §13.1, §16.2: whatever took the SP
        self._memo.clear()
        for k, u in sorted(self.pos.units.items()):
            if u.hex is None:
                continue
            if u.lost >= self.counter(k).sp or u.routed:
                what = "routed" if u.routed and u.lost < self.counter(k).sp else "eliminated"
                ev.append(Event(what, "12.53" if what == "routed" else "12.13",
                                {"unit": k, "hex": u.hex}))
                u.hex, u.facing = None, None
                self._memo.clear()
        return ev + formation_step.tidy(self, end_of_brigade=False)  # 002 §7.32

    def _did(self, key: str, what: str) -> None:
        """Note what a unit did for fatigue (artillery never tires, 002 §17.26)."""
        if unit_class(self.counter(key)) != "artillery":
            self.pos.brigades[self.formation(key)].did.append(what)

    def _end_brigade(self) -> list[Event]:
        """The active brigade's activation ends; a coordinated group's brigades end
        together, each taking its own Blown count-down and fatigue (002 §5.34)."""
        p = self.pos
        group = self.active_brigades()
        if not group:
            return []
        p.done_brigades += group
        p.brigade = None
        ev: list[Event] = []
        for n in group:
            battle_book_step.note_brigade(self, n)  # for 004 §18.0 A
            ev.append(Event("brigade_done", "5.3", {"brigade": n}))
        ev += formation_step.tidy(self, end_of_brigade=True)  # 002 §8.42, §8.43, §8.5
        for n in group:
            ev += charge_step.blown_recovery(self, n)  # 002 §11.58
        for n in group:
            ev += self._tire(n)
        return ev

    def _tire(self, brigade: str) -> list[Event]:
        """002 §17.21-17.23 through :mod:`fatigue`, once the brigade's activation is over: a
        counted activation beyond the turn's second adds a level (a March AM's moves count
        as that many; a march on roads alone is free to the third), two a turn at most; on
        a night turn an Attack activation tires at once (§16.12); Fatigue 4 forces Advance
        (§17.32). The marker is the owner's to see."""
        p = self.pos
        b = p.brigades[brigade]
        did, b.did = list(b.did), []
        if not fatigue.idle(did):
            b.busy = True
        if not self.fatigue or not fatigue.counts(did) or battle_book_step.warren_active(self):
            return []  # (004 §14.5: nothing done in the Warren phase tires)
        moves = [d for d in did if d in ("move", "road_move")]
        worth = max(1, max((self.pos.units[k].moves for k in self.brigade_units(brigade)),
                           default=1)) if marker_parts(p.current or "")[1] is None else 1
        tally = fatigue.TurnTally(**b.tally) if b.tally else fatigue.TurnTally()
        tally, new = fatigue.after_activation(
            tally, worth=worth, road_march=bool(moves) and all(d == "road_move" for d in moves),
            night_attack=night.attack_activation_tires(
                self._light(), orders=b.orders, counts=True))  # type: ignore[arg-type]
        b.tally = tally.to_json()
        new = battle_book_step.rain_fatigue(self, new)  # 004 §18.0 M
        if not new:
            return []
        before = b.fatigue
        b.fatigue = fatigue.raised(b.fatigue, new)
        orders_step.fatigue_orders(self, brigade)  # 002 §17.32, units' own orders too
        return [Event("fatigue", "17.22", {"brigade": brigade, "before": before,
                                           "after": b.fatigue,
                                           "marker": fatigue.label(b.fatigue)},
                      visible_to=(b.seat,))]

    def _end_marker(self) -> list[Event]:
        p = self.pos
        marker = p.current
        p.current, p.brigade, p.coordination = None, None, None
        p.done_brigades, p.leaders_moved, p.coordinated = [], [], []
        battle_book_step.warren_over(self)  # 004 §14.5
        for b in p.brigades.values():
            b.stay, b.rolled = False, False
        return [Event("marker_done", "5.5", {"marker": marker}), *self._draw()]

    def _start_commanders(self) -> list[Event]:
        """IV/A (002 §9.32): the initiative player first, then the other, may move corps
        commanders and the OC; a seat with none on the map is passed over."""
        p = self.pos
        p.phase, p.current, p.brigade = "commanders", None, None
        p.commanders_done, p.commander_mp = [], {}
        ev = [Event("phase", "3.0", {"phase": "commanders", "segment": "IV/A"})]
        for seat in SEATS:
            if not self.commanders(seat) and not end_segment.idle_options(self, seat):
                p.commanders_done.append(seat)
        if len(p.commanders_done) == 2:
            ev += self._end_turn()
        return ev

    def _end_turn(self) -> list[Event]:
        """IV/B recovery (§6.35's reserve actions: fatigue -2, disorder removed, stragglers
        at dusk and night, §16.2; an idle brigade rests a fatigue level off, §17.42), IV/C
        combat effectiveness (002 §13.2-13.3, effectiveness.py), then the next turn."""
        p = self.pos
        ev: list[Event] = end_segment.replace_leaders(self)  # IV/B/1 (002 §12.74-12.76)
        light = self._light()
        for n, b in sorted(p.brigades.items()):
            # 002 §6.35 in order: fatigue, disorder (not a collapsed unit's), stragglers;
            # an idle brigade rallies or rests (§13.45, §17.42): end_segment.py
            kept = b.fatigue
            ev += battle_book_step.no_rain_recovery(  # 004 §18.0 M
                self, n, kept, end_segment.recover_brigade(self, n))
            if b.reserve:
                for k in self.brigade_units(n):
                    if not p.units[k].collapsed:
                        p.units[k].disordered = False  # 002 §6.35's second step
                if night.stragglers_eligible(light, reserve=True):  # type: ignore[arg-type]
                    ev += self._stragglers(n)
                ev += end_segment.reserve_resupply(self, n)  # 002 §6.35 with §10.9
        for b in p.brigades.values():
            b.activations, b.busy, b.tally = 0, False, {}
        p.idle_rally = []
        orders_step.end_turn(self)
        # 002 §12.8, §12.82: abandoned guns turn Abandoned-2, then are lost at the next
        # Recovery phase
        for k, u in sorted(p.units.items()):
            if u.abandoned is None or u.hex is None:
                continue
            nxt = abandoned_next("abandoned-2" if u.abandoned == "abandoned-2"
                                 else "abandoned-1")
            if nxt == "eliminated":
                u.lost = self.counter(k).sp
            else:
                u.abandoned = nxt
            ev.append(Event("abandoned_guns", "12.82", {"unit": k, "hex": u.hex,
                                                        "now": nxt}))
        ev += engineering_step.complete(self)  # IV/B/6 (002 §15.13)
        ev += results_step.rout_recovery_phase(self)  # 002 §13.5 (brigades in Reserve)
        ev += self._casualties()
        # IV/C combat effectiveness (002 §13.2-13.3)
        ev += effectiveness.phase(self, {k for k, u in p.units.items()
                                         if u.hex is None and not self.gone(k)})
        p.orders_done, p.transferred, p.pool, p.attach_done = [], [], [], []
        # 002 §9.32: more than 10 MP in IV/A costs a commander his range (a corps commander)
        # or his rating (the OC) next turn
        p.tired = sorted(ld for ld, half in p.commander_mp.items() if half > 2 * LEADER_MA)
        p.commanders_done, p.commander_mp = [], {}
        for h in self.victory_hexes():  # who held each objective at the turn's end
            for seat in {u.seat for u in p.units.values() if u.hex == h}:
                p.last_held.setdefault(h, {})[seat] = turn_label(p.turn)
        ev.append(Event("end_turn", "3.0", {"turn": turn_label(p.turn)}))
        scen = self.scen.scenario
        if scen is not None and scen.victory.check == "every_turn" and p.turn < p.last_turn:
            v = self.verdict(final=False)  # sudden death (004 sc.6)
            if v is not None and v.decided:
                p.phase = "over"
                ev.append(Event("game_over", "3.0", self.result() or {}))
                return ev
        if p.turn >= p.last_turn:
            p.phase = "over"
            ev.append(Event("game_over", "3.0", self.result() or {}))
            return ev
        p.turn += 1
        return ev + self._begin_turn()

    def _stragglers(self, brigade: str) -> list[Event]:
        """002 §16.2 through :func:`night.recover_stragglers`: each non-artillery unit of a
        brigade in Reserve at dusk or night, in command, takes a UDD; a pass gives back 1 SP,
        never to its printed strength."""
        p = self.pos
        b = p.brigades[brigade]
        units = []
        for k in self.brigade_units(brigade):
            u = p.units[k]
            if u.hex is None or u.lost <= 0:
                continue
            c = self.counter(k)
            units.append(night.StragglerUnit(
                k, c.sp - u.lost, c.sp, c.cohesion_disordered if u.disordered else c.cohesion,
                artillery=unit_class(c) == "artillery",
                in_range=k not in p.command.get("units", []),
                udd_drm=fatigue.modifier(b.fatigue) if self.fatigue else 0))
        first = self.dice.counter
        ev: list[Event] = []
        for su, roll, sp in night.recover_stragglers(units, self.dice):
            p.units[su.unit].lost = su.printed_sp - sp
            ev.append(Event("stragglers", "16.22", {"unit": su.unit, "passed": roll.passed,
                                                    "sp": sp}, visible_to=(b.seat,),
                            redacted={"unit": su.unit, "sp": sp}))
        rolls = self.dice.rolls_since(first)
        return ([dice_event(rolls, visible_to=(b.seat,))] if rolls else []) + ev
