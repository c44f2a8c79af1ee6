"""How good each hex and each move is for one of the seat's units: the BoC doctrine's move
scoring (``Situation``, the ``Knowledge`` of a decision with the values of hexes and
moves) and the moves of one unit scored together (``move_scores``).

A hex's value for a unit is the objectives' pull on it (``Situation.objective``: each
victory hex calls for troops, less the more friends already garrison it) plus what the hex
adds for that kind of block (``Situation.hex_terms``: shelter in the line, closing in,
guns' range, worn blocks out of the line, hunting worn enemy blocks, night), an HQ's its
corps' blocks within command range (4.5); a move's value is the destination's value less
the value of staying, plus what the move wins in projected control (6.61). The doctrine
keeps many of these numbers from one decision to the next (``move_keeping``,
``move_memo``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache

from gettysburg.boc.ai.facts import MapFacts
from gettysburg.boc.ai.knowledge import Knowledge, near_victory
from gettysburg.boc.ai.move_memo import HexTerms, KeptMoves, LastUsed, UnitMoves, ValueRowKey
from gettysburg.boc.ai.style import DEFAULT_STYLE, Style, decay_powers
from gettysburg.boc.control import control_at
from gettysburg.boc.oob import ARTILLERY_TYPES, HQ_TYPES, OrderOfBattle, Unit
from gettysburg.core.doctrine import JSONDict

OVERSTACK = -100.0


@lru_cache(maxsize=8)
def _no_room(facts: MapFacts) -> frozenset[str]:
    """Hexes of the board where no block may stand (stacking limit 0, 6.2)."""
    return frozenset(h for h, n in facts.stacking.items() if n < 1)


@lru_cache(maxsize=4096)
def pull_by_distance(need: float, den: float, decay: float) -> tuple[float, ...]:
    """An objective's pull on a unit at each distance from it (``Situation.objective``):
    ``need * decay ** d / den``, worked out as ``objective`` always did (the same
    floats); a game meets a few hundred (need, divisor) pairs."""
    return tuple([need * w / den for w in decay_powers(decay)])


@lru_cache(maxsize=8)
def around_victory_order(facts: MapFacts) -> tuple[str, ...]:
    """``facts.around_victory`` in a fixed order (a key of ``move_keeping.move_context``)."""
    return tuple(sorted(facts.around_victory))


class Situation(Knowledge):
    """What one seat knows at one decision (``Knowledge``), with the values of hexes and
    moves for its units (the module doc) and the tables they are kept in."""

    def __init__(self, view: JSONDict, facts: MapFacts, oob: OrderOfBattle,
                 style: Style = DEFAULT_STYLE) -> None:
        super().__init__(view, facts, oob, style)
        self.decay_pow = style.decay_pow
        self._prey_cache: dict[str, float] = {}
        #: Move parts kept across decisions of this context (``keep_moves``).
        self.move_memo: dict[str, UnitMoves] | None = None
        #: ``hex_terms`` by kind of block and hex (``keep_terms``: kept across decisions).
        self._terms: dict[tuple[bool, bool], dict[str, HexTerms]] = {}
        # What a victory point won in projected control is worth to a move (6.61).
        self.control_weight = style.control_weight
        self._flip_cache: dict[tuple[str, str | None], float] = {}
        self._control_now: dict[str, str | None] = {}  # 6.61 now, by victory hex
        self._value_cache: dict[tuple[str, str, str | None], float] = {}
        # ``hq_near`` by (corps, command range); kept rows by corps' hexes and range.
        self._hq_rows: dict[tuple[str, int], dict[str, int]] = {}
        self._hq_kept: LastUsed[dict[str, int]] | None = None
        self._worn: dict[str, list[str]] | None = None  # for ``room_cost``, made on first use
        self._leaving: dict[str, list[tuple[str, float, float]]] = {}
        self._full: frozenset[str] | None = None  # for ``may_overstack``, made on first use
        self._around_garrison: tuple[int, ...] | None = None  # made on first use
        # ``objective`` by the hex left (None: no garrison) and the hex reached.
        self._obj_rows: dict[str | None, dict[str, float]] = {}
        self._pulls: dict[str | None, list[tuple[str, tuple[float, ...]]]] = {}
        # ``value_row`` by kind of block, worn or not, and the row of ``objective``.
        self._value_rows: dict[ValueRowKey, dict[str, float]] = {}
        self._rows_of: dict[tuple[str, str | None], dict[str, float] | None] = {}
        #: Victory hexes and their neighbours: only a unit standing in one garrisons one.
        self._near = facts.around_victory
        self.near_victory_hexes = facts.around_victory  # the same, for the move scoring

    def around_garrison(self) -> tuple[int, ...]:
        """Own blocks in each victory hex and each hex next to one (in a fixed order)."""
        got = self._around_garrison
        if got is None:
            garrison = self.garrison
            got = self._around_garrison = tuple(
                [garrison.get(h, 0) for h in around_victory_order(self.facts)])
        return got

    def corps_key(self, uid: str) -> tuple[str, ...] | None:
        """For an HQ, the hexes of the blocks it keeps in command range (its corps', 4.5),
        which its hex values read (``hq_near``); None for any other unit."""
        label = self.oob.units.get(uid)
        if label is None or label.type not in HQ_TYPES:
            return None
        if label.corps:
            return tuple(sorted(self._corps_hexes.get(label.corps, [])))
        return tuple(sorted(h for hs in self._corps_hexes.values() for h in hs))

    def objective(self, hx: str, here: str | None) -> float:
        """Pull of the objectives on a unit standing in ``hx`` (it now stands in
        ``here``, which does not count as a garrison of the place it leaves)."""
        if here is not None and here not in self._near:
            here = None  # it garrisons no objective: where it leaves does not matter
        kept = self.objective_row(here)
        got = kept.get(hx)
        if got is not None:
            return got
        best = 0.0
        row = self.facts.table[hx]
        for v, pull in self.pulls(here):
            val = pull[row[v]]
            if val > best:
                best = val
        kept[hx] = best
        return best

    def pulls(self, here: str | None) -> list[tuple[str, tuple[float, ...]]]:
        """Each objective's pull by distance (``pull_by_distance``) on a unit now in
        ``here`` (one near an objective: ``objectives_leaving``; else None)."""
        got = self._pulls.get(here)
        if got is None:
            decay = self.style.decay
            got = self._pulls[here] = [
                (v, pull_by_distance(need, den, decay))
                for v, need, den in (self.objectives_now if here is None
                                     else self.objectives_leaving(here))]
        return got

    def objective_row(self, here: str | None) -> dict[str, float]:
        """The ``objective`` values found so far for a unit now in ``here``, by hex."""
        if here is not None and here not in self._near:
            here = None
        kept = self._obj_rows.get(here)
        if kept is None:
            kept = self._obj_rows[here] = {}
        return kept

    def objectives_leaving(self, here: str) -> list[tuple[str, float, float]]:
        """``objectives_now`` for a unit that leaves ``here`` (it garrisons it no more),
        worked out once per ``here``."""
        got = self._leaving.get(here)
        if got is None:
            got = []
            for v, need, held, adjacent in self._objectives:
                g = held
                if here == v:
                    g -= 1.0
                elif here in adjacent:
                    g -= 0.5
                got.append((v, need, 1.0 + self.style.crowd * max(0.0, g)))
            self._leaving[here] = got
        return got

    def hex_value(self, uid: str, hx: str, here: str | None) -> float:
        """How good it is for unit ``uid`` (now in ``here``) to end its move in ``hx``."""
        key = (uid, hx, here)
        got = self._value_cache.get(key)
        if got is not None:
            return got
        # A unit's row of values found once per decision (entries ask one hex at a time).
        unit_at = (uid, here)
        if unit_at in self._rows_of:
            row = self._rows_of[unit_at]
        else:
            row = self._rows_of[unit_at] = self._plain_row(uid, here)
        if row is None or self.overstacked(uid, here, hx):
            got = self.hex_values(uid, here, (hx,))[0]
        else:
            got = row.get(hx)
            if got is None:
                got = self.hex_values(uid, here, (hx,), stacking=False)[0]
        self._value_cache[key] = got
        return got

    def _plain_row(self, uid: str, here: str | None) -> dict[str, float] | None:
        """The ``value_row`` unit ``uid`` (now in ``here``) reads, or None where its
        values are not in one (an HQ's, or a style that keeps room to fall back)."""
        if self.style.keep_room:
            return None
        label = self.oob.units.get(uid)
        kind = label.type if label else "infantry"
        if kind in HQ_TYPES:
            return None
        return self.value_row(kind in ARTILLERY_TYPES, self.strength(uid), here)

    def overstacked(self, uid: str, here: str | None, hx: str) -> bool:
        """Whether unit ``uid`` (now in ``here``) ending its move in ``hx`` overstacks it
        (6.2; a column of another unit there holds the hex alone, 6.0 option)."""
        cols = self.columns.get(hx)
        limit = 1 if cols and (len(cols) > 1 or uid not in cols) \
            else self.facts.stacking.get(hx, 0)
        return limit - self.garrison.get(hx, 0) + (1 if here == hx else 0) < 1

    def may_overstack(self, here: str | None) -> frozenset[str]:
        """The hexes where ``overstacked`` may be true for a unit now in ``here`` (a
        superset: ``here`` itself, hexes with a column, hexes full already or with no
        room at all); any other hex of the board has room for one more block."""
        full = self._full
        if full is None:
            stacking, garrison = self.facts.stacking, self.garrison
            full = self._full = frozenset(
                {h for h, n in garrison.items() if stacking.get(h, 0) - n < 1}
                | set(self.columns) | _no_room(self.facts))
        return full | {here} if here is not None and here not in full else full

    def hex_values(self, uid: str, here: str | None, hexes: Iterable[str],
                   stacking: bool = True) -> list[float]:
        """``hex_value`` of each of ``hexes`` for unit ``uid`` (now in ``here``), none of
        them kept: the moves of a unit are scored together, each destination once, with
        what depends on the unit alone looked up once. ``stacking=False``: the values
        without the overstack check (``overstacked``), the only part that reads how many
        blocks stand in the hex itself (``move_context``).

        A block's value is the objectives' pull (``objective``) plus the terms of
        ``hex_terms``, added one by one in their order (so a value is the same number
        however its terms were found); an HQ's reads ``hq_near`` too."""
        label = self.oob.units.get(uid)
        kind = label.type if label else "infantry"
        out: list[float] = []
        objectives = self.objective_row(here)
        if kind in HQ_TYPES:
            # HQs keep their corps within command range (4.5) and stay out of the line.
            front, st, near_of = self.front, self.style, self.hq_near(label)
            for hx in hexes:
                if stacking and self.overstacked(uid, here, hx):
                    out.append(OVERSTACK)
                    continue
                near = near_of.get(hx)
                if near is None:
                    near = near_of[hx] = self._hq_near(label, hx)
                value = objectives.get(hx)
                if value is None:
                    value = self.objective(hx, here)
                out.append(st.hq_troops * near + 0.2 * value
                           - (st.hq_front if hx in front else 0.0))
            return out
        artillery, strength = kind in ARTILLERY_TYPES, self.strength(uid)
        terms_of = self.terms_of(artillery, strength)
        keep_room = self.style.keep_room
        if not keep_room:
            # The value reads the unit only through its kind, worn or not and the row of
            # the objectives' pull: units alike share a row (the first decision of a
            # phase scores some hundred units' moves into the same few hundred hexes).
            row = self.value_row(artillery, strength, here)
            over = self.overstacked
            for hx in hexes:
                if stacking and over(uid, here, hx):
                    out.append(OVERSTACK)
                    continue
                value = row.get(hx)
                if value is None:
                    value = row[hx] = self._plain_value(terms_of, objectives, artillery,
                                                        strength, hx, here)
                out.append(value)
            return out
        for hx in hexes:
            if stacking and self.overstacked(uid, here, hx):
                out.append(OVERSTACK)
                continue
            value = objectives.get(hx)
            if value is None:
                value = self.objective(hx, here)
            got = terms_of.get(hx)
            if got is None:
                got = terms_of[hx] = self.hex_terms(kind in ARTILLERY_TYPES,
                                                    self.strength(uid), hx)
            before, room, after = got
            for t in before:
                value += t
            if room and keep_room:
                value -= keep_room * self.room_cost(uid, hx, here)
            for t in after:
                value += t
            out.append(value)
        return out

    def value_row(self, artillery: bool, strength: int, here: str | None
                  ) -> dict[str, float]:
        """The values found so far (``hex_values`` without the overstack check, for a
        style that does not keep room to fall back) of a block of this kind and strength
        now in ``here``, by hex: all such blocks share them."""
        if here is not None and here not in self._near:
            here = None  # as ``objective_row``
        key = (artillery, strength <= self.style.weak_steps, here)
        got = self._value_rows.get(key)
        if got is None:
            got = self._value_rows[key] = {}
        return got

    def _plain_value(self, terms_of: dict[str, HexTerms], objectives: dict[str, float],
                     artillery: bool, strength: int, hx: str, here: str | None) -> float:
        """A value of ``hex_values`` with no room to keep: the objectives' pull plus the
        hex's terms, added one by one in their order."""
        value = objectives.get(hx)
        if value is None:
            value = self.objective(hx, here)
        got = terms_of.get(hx)
        if got is None:
            got = terms_of[hx] = self.hex_terms(artillery, strength, hx)
        before, _room, after = got
        for t in before:
            value += t
        for t in after:
            value += t
        return value

    def keep_hq_rows(self, kept: LastUsed[dict[str, int]]) -> None:
        """Find and keep ``hq_near`` rows in ``kept`` (the doctrine's, ``move_memo``)."""
        self._hq_kept = kept

    def keep_moves(self, kept: KeptMoves) -> None:
        """Find and keep move parts, objectives' pulls and control gains in ``kept``, the
        doctrine's tables for this ``move_context`` (``move_memo``)."""
        self.move_memo = kept.units
        self._obj_rows, self._flip_cache, self._control_now, self._leaving = \
            kept.objective, kept.gains, kept.control_now, kept.leaving
        self._value_rows = kept.values
        self._rows_of = {}

    def keep_terms(self, kept: dict[tuple[bool, bool], dict[str, HexTerms]]) -> None:
        """Find and keep ``hex_terms`` in ``kept``, the doctrine's table for this
        ``terms_context`` (``move_memo``)."""
        self._terms = kept

    def terms_of(self, artillery: bool, strength: int) -> dict[str, HexTerms]:
        """The ``hex_terms`` found so far for a block of this kind and strength, by hex:
        the doctrine's kept ones (``move_memo``, valid while the enemy, control and clock
        stay the same) or this decision's."""
        key = (artillery, strength <= self.style.weak_steps)
        got = self._terms.get(key)
        if got is None:
            got = self._terms[key] = {}
        return got

    def hex_terms(self, artillery: bool, strength: int, hx: str) -> HexTerms:
        """What a block (a battery or not, at ``strength``) ending its move in ``hx`` adds
        to the objectives' pull there, in order: the terms before the room to fall back
        (``keep_room``, which reads own blocks: added by ``hex_values``), whether that
        one applies, the terms after it. They read the enemy blocks, control, the style,
        seat, clock and score, never own blocks (kept across decisions, ``move_memo``)."""
        facts, st, victory = self.facts, self.style, self.facts.victory
        in_front = hx in self.front
        if self.night:
            # Pull back from the line, except the garrisons of victory hexes: the night
            # turn ends Days 2 and 3, and an abandoned objective scores for the enemy.
            return ((-(st.night_pull if in_front and hx not in victory else 0.0),), False, ())
        worn = strength <= st.weak_steps
        before: list[float] = []
        if in_front:
            before.append(st.shelter_weight * facts.shelter.get(hx, 0.0))
            if artillery:
                before.append(-st.gun_front)  # guns shoot best from two or three hexes away
            elif self.seat == "csa" or self.control.get(hx) != self.seat:
                # The attacker must close with the enemy to fire (the USA attacks only
                # where it does not hold the hex).
                before.append(st.close_in)
            if worn and hx not in victory:
                # One hit eliminates it: a point for the enemy (9.12).
                before.append(-st.weak_in_front)
            else:
                if worn:  # on a victory hex, whose pull keeps it there until relieved
                    before.append(-st.weak_on_objective)
                if not artillery:
                    before.append((st.hunt_behind if self.behind else st.hunt)
                                  * self.prey(hx))
        elif artillery and self._enemy_within(hx, 3):
            before.append(st.gun_range)
        after: tuple[float, ...] = ()
        if st.weak_reach > 1 and worn and not in_front and hx not in victory \
                and self._enemy_within(hx, st.weak_reach):
            # Within the enemy's reach of a move and a melee (6.1, 7.1): as bad as the
            # line.
            after = (-st.weak_in_front,)
        return (tuple(before), True, after)

    def _limit(self, hx: str) -> int:
        return 1 if self.columns.get(hx) else self.facts.stacking.get(hx, 0)

    def _room(self, at: str) -> list[str]:
        """5.32: the hexes next to ``at`` that a worn block there could be repulsed into
        now (friendly, no enemy block, room to stack)."""
        return [n for n in self.facts.nbrs.get(at, ()) if self.control.get(n) == self.seat
                and n not in self.enemy_at and self.garrison.get(n, 0) < self._limit(n)]

    def room_cost(self, uid: str, hx: str, here: str | None) -> int:
        """Worn blocks (at their last step) within the enemy's gun range (3 hexes, 5.31)
        that would have no hex to be repulsed into (5.32) after ``uid`` moves from ``here``
        to ``hx``: the mover itself, and each other that had one before the move."""
        if hx == here:
            return 0

        def freed(at: str) -> bool:  # ``here``, which the move empties, is room next to at
            return here is not None and here in self.facts.nbrs.get(at, ()) \
                and self.control.get(here) == self.seat and here not in self.enemy_at

        cost = 0
        label = self.unit(uid)
        if self.strength(uid) <= 1 and label is not None and not label.is_hq \
                and self._enemy_within(hx, 3) and not self._room(hx) and not freed(hx):
            cost += 1
        if self.garrison.get(hx, 0) + 1 < self._limit(hx) or self.control.get(hx) != self.seat \
                or hx in self.enemy_at:
            return cost  # hx keeps room after the move (or is no repulse hex)
        if self._worn is None:
            self._worn = {}
            for other, u in self.own_on.items():
                lab = self.unit(other)
                if lab is not None and not lab.is_hq \
                        and int(u.get("strength", 0)) <= 1 \
                        and self._enemy_within(str(u["hex"]), 3):
                    self._worn.setdefault(str(u["hex"]), []).append(other)
        for n in self.facts.nbrs.get(hx, ()):
            for other in self._worn.get(n, ()):
                if other != uid and self._room(n) == [hx] and not freed(n):
                    cost += 1
        return cost

    def prey(self, hx: str) -> float:
        """How easily a block standing in ``hx`` could finish an enemy block next to it:
        1 for a lone 1-step block, less the more steps must be shot away first (5.23)."""
        got = self._prey_cache.get(hx)
        if got is None:
            got = 0.0
            for n in self.facts.nbrs.get(hx, ()):
                blocks = self.enemy_blocks.get(n)
                if blocks:
                    got = max(got, 1.0 / (1.0 + sum(max(0, s - 1) for _, s in blocks)))
            self._prey_cache[hx] = got
        return got

    def hq_near(self, label: Unit | None) -> dict[str, int]:
        """For an HQ: blocks of its corps (every corps' for an HQ of none) within its
        command range (4.5) of each hex found so far, by hex; kept across decisions under
        the corps' hexes when the doctrine keeps them (``move_memo``)."""
        rng = (label.command_range or 1) if label else 1
        corps = label.corps if label else ""
        # A corps' HQs differ in range (a CHQ reaches farther than its DHQs, 4.5).
        got = self._hq_rows.get((corps, rng))
        if got is None:
            if self._hq_kept is None:
                got = {}
            else:
                hexes = self._corps_hexes.get(corps, []) if corps \
                    else [h for hs in self._corps_hexes.values() for h in hs]
                got = self._hq_kept.get((self.facts, tuple(sorted(hexes)), rng))
            self._hq_rows[(corps, rng)] = got
        return got

    def _hq_near(self, label: Unit | None, hx: str) -> int:
        rng = (label.command_range or 1) if label else 1
        corps = label.corps if label else ""
        row = self.facts.table[hx]
        if corps:
            hexes = self._corps_hexes.get(corps, [])
        else:
            hexes = [h for hs in self._corps_hexes.values() for h in hs]
        return len([h for h in hexes if row[h] <= rng])

    def _control_of(self, v: str, count: Counter[str],
                    moved: Mapping[str, int] | None = None) -> str | None:
        """6.61 (``control_at``) for one hex, with own blocks counted per hex in ``count``
        changed by ``moved`` (hex -> blocks more or fewer)."""
        delta = moved or {}

        def side_at(h: str) -> str | None:
            if count.get(h, 0) + delta.get(h, 0) > 0:
                return self.seat
            return self.enemy if h in self.enemy_at else None

        return control_at(v, side_at, self.facts.nbrs)

    def control_gain(self, dest: str, here: str | None) -> float:
        """Victory points the move ``here`` -> ``dest`` wins (or loses) for the seat in the
        control the blocks would give if the turn ended now (6.61, 9.1)."""
        if dest not in self._near and (here is None or here not in self._near):
            return 0.0  # most moves: no victory hex within 1 of either end
        key = (dest, here)
        got = self._flip_cache.get(key)
        if got is not None:
            return got
        touched = sorted(set(near_victory(self.facts, dest)
                             + (near_victory(self.facts, here) if here is not None else ())))
        gain = 0.0
        moved = {dest: 1}
        if here is not None:
            moved[here] = moved.get(here, 0) - 1
        for v in touched:
            before_c = self._control_now.get(v, "?")
            if before_c == "?":
                before_c = self._control_now[v] = self._control_of(v, self.garrison)
            after_c = self._control_of(v, self.garrison, moved)
            gain += self.facts.victory[v] * (self._worth(after_c) - self._worth(before_c))
        self._flip_cache[key] = gain
        return gain

    def control_gains(self, here: str, dests: Iterable[str]) -> list[float]:
        """``control_gain`` of the moves from ``here`` to each of ``dests``: those found
        already looked up without a call each (a unit's moves are scored together)."""
        near, found = self._near, self._flip_cache
        anywhere = here in near  # from a hex near a victory hex every move may count
        out: list[float] = []
        for dest in dests:
            if not anywhere and dest not in near:
                out.append(0.0)  # no victory hex within 1 of either end
                continue
            got = found.get((dest, here))
            out.append(got if got is not None else self.control_gain(dest, here))
        return out

    def _worth(self, controller: str | None) -> float:
        """What a victory hex under ``controller`` is worth to the seat: the CSA scores
        only hexes it controls (9.11); for the USA, denying is what counts."""
        if self.seat == "csa":
            return 1.0 if controller == "csa" else 0.0
        return 0.0 if controller == "csa" else (1.0 if controller == "usa" else 0.7)


def move_scores(sit: Situation, uid: str, here: str, paths: Sequence[Sequence[str]]
                ) -> list[float]:
    """The scores of the moves of unit ``uid`` from ``here`` along ``paths``, found afresh
    (``move_keeping.kept_move_scores``: from kept parts)."""
    stay = sit.hex_value(uid, here, here)
    weight, gain_of = sit.control_weight, sit.control_gain
    dests = [str(p[-1]) for p in paths]
    # Each destination is one move: their values are not kept (no use again).
    values = sit.hex_values(uid, here, dests)
    # Most moves start and end away from every victory hex: control_gain's own first
    # test, asked here without the call (issue 59).
    near = sit.near_victory_hexes if here not in sit.near_victory_hexes else None
    # Move only for a real gain.
    return [value - stay + weight * (0.0 if near is not None and dest not in near
                                     else gain_of(dest, here))
            - 0.01 * len(p) - 0.05
            for value, dest, p in zip(values, dests, paths, strict=True)]
