"""The GBACW game's views (:class:`EngineView`): what each seat sees (the fog)."""

from __future__ import annotations

import copy

from gettysburg.core.canonical import JSONDict
from gettysburg.core.protocol import (
    REFEREE,
    Seat,
)
from gettysburg.gbacw import (
    end_segment,
    formation_step,
    own_view,
    sequence,
)
from gettysburg.gbacw.lasting import hero_view
from gettysburg.gbacw.setup import turn_label
from gettysburg.gbacw.steps import EngineSteps


class EngineView(EngineSteps):
    """A layer of :class:`gettysburg.gbacw.game.GbacwGame` (see the module)."""

    def learned_from(self, seat: Seat, before: JSONDict, after: JSONDict) -> bool | None:
        """The enemy's part of the seat's view changed (the server's undo; learned.py)."""
        from gettysburg.gbacw.learned import learned_from

        return learned_from(seat, before, after)

    def view_summary(self, seat: Seat) -> JSONDict:
        """The view's keys about the game as a whole (its clock, whose move, the
        objectives, the result), each as :meth:`view` gives it, without the pieces and the
        legal actions: what the lab reads for an agent that reads no view (the random
        agent), so the legal list is built once, by ``legal_sequence``."""
        p = self.pos
        return {
            "system": self.system, "seat": seat, "scenario": self.scen.id,
            "turn": turn_label(p.turn), "light": self._light(),
            "last_turn": turn_label(p.last_turn), "phase": p.phase,
            "segment": sequence.segment_of(p.phase), "initiative": p.initiative,
            "to_move": self.to_move(), "control": dict(sorted(p.control.items())),
            "result": self.result(),
        }

    def view(self, seat: Seat) -> JSONDict:
        p, cat = self.pos, self.cat
        full = seat == REFEREE
        units: dict[str, JSONDict] = {}
        for k, u in sorted(p.units.items()):
            c = cat.counters[u.counter]
            if u.hex is None and not (full or u.seat == seat):
                continue
            d: JSONDict = {"counter": u.counter, "seat": u.seat, "name": c.unit,
                           "hex": u.hex, "facing": None if u.facing is None
                           else u.facing.to_json(), "sp": c.sp - u.lost,
                           "disordered": u.disordered,
                           "arm": c.arm, "mode": c.mode, "brigade": c.formation,
                           "blown": u.blown, "abandoned": u.abandoned}  # markers on the map
            d.update(formation_step.view_fields(self, k))  # extends, refused: on the map too
            if full or u.seat == seat:
                d["moves"] = u.moves
                d["waiting_at"] = self.waiting(k)
                d.update(fired=bool(u.fired), fire_kinds=list(u.fired),
                         mp_spent=u.mp_spent, moved=u.moved, ammo=u.ammo,
                         collapsed=u.collapsed, lost=u.lost,
                         routed=u.routed)  # in its Division box, seen by its owner (12.53)
            units[k] = d
        own_view.add_away(self, units, seat, full=full)  # own units on off-map roads
        brigades = {n: b.to_json() for n, b in sorted(p.brigades.items())
                    if full or b.seat == seat}
        leaders = {ld: {"hex": h, "seat": p.leader_seat.get(ld, "")}
                   for ld, h in sorted(p.leaders.items())
                   if full or h is not None or p.leader_seat.get(ld) == seat}
        own_divs = set(self.divisions(seat)) if not full else set(p.ams)
        own_cmds = {c for c, _ in self._commands(seat)} if not full else set(p.em)
        legal = self.legal_actions(seat) if seat != REFEREE else []
        return {
            "system": self.system, "seat": seat, "scenario": self.scen.id,
            "turn": turn_label(p.turn), "light": self._light(),
            "last_turn": turn_label(p.last_turn), "phase": p.phase,
            "segment": sequence.segment_of(p.phase), "initiative": p.initiative,
            "to_move": self.to_move(), "units": units, "leaders": leaders,
            "brigades": brigades,
            "ams": {d: v for d, v in sorted(p.ams.items()) if d in own_divs},
            "em": {c: v for c, v in sorted(p.em.items()) if c in own_cmds},
            "pool": self._own_markers_counted(seat) if not full else {
                m: p.pool.count(m) for m in sorted(set(p.pool))},
            "control": dict(sorted(p.control.items())),  # the objectives: public
            "current": p.current, "brigade": p.brigade, "coordination": p.coordination,
            "done_brigades": list(p.done_brigades),
            # the group acting as one (002 §5.34): announced, as each activation is
            **({"coordinated": list(p.coordinated)} if p.coordinated else {}),
            # announced to both: a shock designated or a shot declared waiting for the
            # defender's answer, an enemy move that allows reaction (shock_step.py,
            # return_fire.py, reaction_step.py); CI markers stand on the map (002 §13.22)
            "pending": None if p.pending is None else copy.deepcopy(p.pending),
            "ci_brigades": list(p.ci_brigades), "ci_divisions": list(p.ci_divisions),
            "hidden": [] if full else [
                "the enemy's orders, Reserve and fatigue (his brigades' markers, 002 §6)",
                "the enemy's efficiency markers and activation-marker counts (002 §5.2)",
                "the enemy's markers in the pool and the pool's size (002 §5.3)",
                "the order of the pool: no draw exists before it is made (002 §5.3)",
                "the enemy's reinforcements not yet on the map (002 §9.7)",
                "the enemy's set-up breastworks not yet placed and his units on off-map "
                "roads (004 sc.4.5, sc.5.5, §9.88)",
                "the enemy's units keeping their own orders, attached batteries, Loose "
                "Cannon tasks and idle-rally choices (002 §4.23, §4.32, §6.24, §13.45)"],
            "legal_actions": legal,
            "result": self.result(),
            **end_segment.view_extras(self, seat, full=full),  # works, flips, own orders
            **hero_view(self, seat, full=full),  # 004 §18.0 P: own Hero markers (E-33)
            **own_view.works_to_place(self, seat, full=full),  # own set-up works left
            **own_view.place_hexes(self, legal),  # where a leave_map's area is on the map
        }
