"""A Badges of Courage game as its rules see it: :class:`Position`.

The board, the orders of battle and the state, and the questions the rules ask of them:
which combat decision waits, whose a unit is, which phase allows what, where a unit may
move or come on, what keeps an HQ from being activated. ``BocGame.legal_actions`` and the
checks of the table of action types (:mod:`gettysburg.boc.actions`) ask the same questions
here, so what is listed and what is accepted cannot drift apart. Nothing here changes the
state.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from functools import lru_cache
from typing import overload

from gettysburg.boc.board import Board
from gettysburg.boc.cavalry_battle import DONE as CAVALRY_DONE
from gettysburg.boc.cavalry_battle import CavalryBattleState, cavalry_decision, load_cavalry_battle
from gettysburg.boc.combat import Decision
from gettysburg.boc.command import COMMAND_HQ_TYPES, Orders
from gettysburg.boc.control import front_line, index
from gettysburg.boc.entry_roads import adjacent_roads, road_name
from gettysburg.boc.fire import FireLedger, pending_decision
from gettysburg.boc.melee import MeleeState, melee_decision
from gettysburg.boc.movement import NO_ROAD, MoveRules, Reach, entry_cost, reachable, road_march
from gettysburg.boc.oob import HQ_TYPES
from gettysburg.boc.scenario import CavalryBattle
from gettysburg.boc.sequence import NIGHT_ROADS, OPT_COLUMN, OPT_HANCOCK
from gettysburg.boc.state import (
    OFF_MAP,
    ON_MAP,
    RESERVE,
    BocState,
    UnitState,
    other,
    parse_time,
    turn_key,
)
from gettysburg.core.dice import Dice
from gettysburg.core.protocol import RULE_ACTION, Action, RuleError, Seat

OPT_CAVALRY = "cavalry_battles"  # 10.0, an option of the Day 3 and battle scenarios


@lru_cache(maxsize=1)
def cavalry_data() -> CavalryBattle:
    """The 10.0 section (Day 3's file; the full battle uses the same one)."""
    return load_cavalry_battle("boc/day3")


def cavalry_key(cb: CavalryBattle) -> int:
    return turn_key(cb.day, parse_time(cb.deploy_time))


def _hq_ready_problem(u: UnitState, active: bool, what: str) -> str | None:
    """What keeps an HQ from being activated, for fire command (4.2x) or supply (8.1)
    alike: it must be on the map, not yet active for that, and above strength 0 (4.3)."""
    if u.status != ON_MAP:
        return "the HQ is not on the map"
    if active:
        return f"the HQ is already active{what}"
    if u.strength <= 0:
        return "an HQ at strength 0 cannot be activated (4.3)"
    return None


#: (entry hex, destination) -> (MP, path): what ``Position.enter_options`` answers.
EnterOptions = dict[tuple[str, str], tuple[int, list[str]]]
#: An entry's destination as worked out: (MP, the search that found it or ``None``, the
#: hex, its path if known: a night march's, 9.74). The path is traced when asked for.
Planned = tuple[int, "Reach | None", str, "list[str] | None"]
#: (entry hex, destination) -> :data:`Planned`: ``enter_options``'s answer, paths untraced.
EnterPlan = dict[tuple[str, str], Planned]
#: ``enter_options`` answers kept per game; the oldest go first beyond this many.
ENTER_MEMO = 512


def _traced(kept: Planned) -> list[str]:
    """The path of a planned entry: the one known, the search's trail to the hex, or the
    hex alone (a unit coming on there and stopping)."""
    _c, reach, dest, path = kept
    if path is not None:
        return list(path)
    return [dest] if reach is None else list(reach.trail(dest))


class EnterListing(Sequence[tuple[str, list[str]]]):
    """A due unit's ``enter`` actions as (entry hex, path) pairs, sorted by (entry hex,
    destination), each path traced when first read (issue 59: a legal list reads few).
    Callers must not change the paths they get."""

    __slots__ = ("_items", "_paths")

    def __init__(self, plan: EnterPlan) -> None:
        self._items = sorted(plan.items())
        self._paths: list[list[str] | None] = [None] * len(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def _pair(self, i: int) -> tuple[str, list[str]]:
        (entry, _dest), kept = self._items[i]
        path = self._paths[i]
        if path is None:
            path = self._paths[i] = _traced(kept)
        return entry, path

    @overload
    def __getitem__(self, i: int) -> tuple[str, list[str]]: ...

    @overload
    def __getitem__(self, i: slice) -> list[tuple[str, list[str]]]: ...

    def __getitem__(self, i: int | slice
                    ) -> tuple[str, list[str]] | list[tuple[str, list[str]]]:
        if isinstance(i, slice):
            return [self._pair(k) for k in range(*i.indices(len(self._items)))]
        return self._pair(range(len(self._items))[i])

    def __iter__(self) -> Iterator[tuple[str, list[str]]]:
        return (self._pair(k) for k in range(len(self._items)))


class Position:
    """What a BoC game holds and the rules' questions about it (``BocGame`` is one)."""

    board: Board
    orders: Orders
    state: BocState
    dice: Dice
    key: bytes  # the fog key: the handles of hidden blocks (fog.fog_key)
    #: (occupants, side, the hexes that side holds in them), the last asked of ``_held``.
    _held_memo: tuple[Mapping[str, list[UnitState]], str, frozenset[str]] | None = None
    #: (occupants, the hexsides used twice), the last worked out by ``move_rules``.
    _full_memo: tuple[Mapping[str, list[UnitState]], frozenset[str]] | None = None
    #: ``enter_options`` answers keyed by everything they depend on (not by a position
    #: version, so a state changed by any route can never be answered from a stale entry).
    _enter_memo: dict[tuple[object, ...], EnterPlan] | None = None
    #: The same answers as (entry hex, path) pairs in the legal list's order, per answer.
    _enter_list_memo: dict[tuple[object, ...], EnterListing] | None = None
    #: ``entry_hexes`` answers keyed by all they read of the unit and the state.
    _entries_memo: dict[tuple[object, ...], tuple[tuple[str, str], ...]] | None = None

    def cavalry_rules(self) -> CavalryBattle:
        """The 10.0 section the cavalry battles are fought by."""
        return cavalry_data()

    def cavalry_active(self) -> bool:
        return bool(self.state.cavalry) and self.state.cavalry.get("stage") != CAVALRY_DONE

    def decision(self) -> Decision | None:
        """The combat choice the game waits for (5.23, 5.32, 7.x, 10.0), or ``None``."""
        st = self.state
        if st.over:
            return None
        if self.cavalry_active():
            return cavalry_decision(self.board, st, self.orders, cavalry_data(),
                                    CavalryBattleState.from_json(st.cavalry))
        if st.phase == "fire" and st.fire.get("pending") is not None:
            return pending_decision(self.board, st, self.orders, FireLedger.from_json(st.fire))
        if st.phase == "melee" and st.melee:
            return melee_decision(self.board, st, self.orders, MeleeState.from_json(st.melee),
                                  st.active)
        return None

    @property
    def column_rule(self) -> bool:
        return OPT_COLUMN in self.state.options

    def own_unit(self, seat: Seat, uid: str) -> UnitState:
        u = self.state.units.get(uid)
        if u is None or u.side != seat:
            # Same words whether the id is unknown or the enemy's: no identity leaks.
            raise RuleError(RULE_ACTION, f"{uid!r} is not one of your units in this game")
        return u

    def require_phase(self, *allowed: str, rule: str = "1.2") -> None:
        if self.state.phase not in allowed:
            raise RuleError(rule, f"not allowed in the {self.state.phase} phase "
                                  f"(only in: {', '.join(allowed)})")

    def require_day(self, rule: str) -> None:
        if self.state.night:
            raise RuleError(rule, "not allowed in the night turn (9.7)")

    def _stack_room(self, hx: str, extra: int = 1,
                    occ: Mapping[str, list[UnitState]] | None = None) -> bool:
        """``occ``: the hexes' occupants, if the caller has them."""
        n = len((self.state.occupants() if occ is None else occ).get(hx, []))
        return n + extra <= self.board.hex(hx).stacking

    def deploy_targets(self, u: UnitState,
                       occ: Mapping[str, list[UnitState]] | None = None) -> list[str]:
        """4.3 / 8.1: an HQ may step one hex when activated, into a friendly hex (6.6) with
        room for it (6.2). ``occ``: the hexes' occupants, if the caller has them (a legal
        list asks for every HQ of a side in one position)."""
        assert u.hex is not None
        idx = index(self.board)
        if occ is None:
            occ = self.state.occupants()
        out = []
        for n in idx.nbrs.get(u.hex, ()):
            if self.state.control.get(n) != u.side:
                continue
            if any(x.side != u.side for x in occ.get(n, [])):
                continue
            if self._stack_room(n, occ=occ):
                out.append(n)
        return sorted(out)

    def activation_problem(self, u: UnitState) -> str | None:
        kind = self.orders.oob[u.id].type
        if kind not in COMMAND_HQ_TYPES:
            return "only division, artillery and cavalry HQs command fire (4.2x)"
        return _hq_ready_problem(u, u.cmd_active, "")

    def supply_activation_problem(self, u: UnitState) -> str | None:
        if self.orders.oob[u.id].type not in HQ_TYPES:
            return "only HQs are activated for supply"
        return _hq_ready_problem(u, u.sup_active, " for supply")

    def hancock_actions(self, seat: Seat) -> list[Action]:
        st = self.state
        if seat != "usa" or OPT_HANCOCK not in st.options or st.hancock:
            return []
        sc = self.orders.hierarchy.usa.hancock_option
        if sc is None:
            return []
        hancock = st.units.get(sc.unit)
        if hancock is None or hancock.status != RESERVE:
            return []
        out: list[Action] = []
        for (side, corps), chq in sorted(self.orders.corps_chq.items()):
            if side == "usa" and chq != sc.unit and chq in st.fallen \
                    and self.orders.oob[chq].type == "chq":
                out.append({"type": "hancock", "corps": corps})
        return out

    def move_problem(self, u: UnitState) -> str | None:
        """Why ``u`` may not move now (6.1), or ``None``."""
        if u.status != ON_MAP:
            return "the unit is not on the map"
        if u.moved:
            return "the unit has already moved this phase"
        if u.fired:
            return "units that fired this turn cannot move (6.1)"
        if u.cmd_active:
            return "an HQ activated in the command phase cannot move (6.1)"
        return None

    def kept_move(self, u: UnitState) -> tuple[frozenset[str], MoveRules] | None:
        """The front line and ``u``'s move rules if a memo knows them for this very state
        (``BocGame``'s kept movement list, issue 59), else ``None``."""
        return None

    def move_rules(self, u: UnitState, front: frozenset[str],
               occ: Mapping[str, list[UnitState]] | None = None) -> MoveRules:
        """``occ``: the hexes' occupants, if the caller has them (``legal_actions`` asks
        for every unit of a side in one position)."""
        label = self.orders.oob[u.id]
        if occ is None:
            occ = self.state.occupants()
        forbidden = self._held(occ, other(u.side))
        if self.state.night:
            forbidden |= front  # 9.72 no entering front-line hexes at night
        infantry = label.type == "infantry"
        if self.column_rule and infantry:
            if u.column:
                forbidden |= {h for h, us in occ.items()
                              if any(x.id != u.id and x.side == u.side for x in us)}
            else:
                forbidden |= {h for h, us in occ.items()
                              if any(x.column and x.side == u.side for x in us)}
        # Like _held: the same for every unit asked with the same ``occ`` (issue 59).
        fm = self._full_memo
        if fm is not None and fm[0] is occ:
            full = fm[1]
        else:
            full = frozenset(k for k, n in self.state.side_use.items() if n >= 2)
            self._full_memo = (occ, full)
        return MoveRules(
            budget=label.movement.allowance - u.mp_used,
            multiplier=label.movement.off_road_multiplier,
            roads=not (self.column_rule and infantry and not u.column),
            one_hex=u.mp_used == 0, stop=front, forbidden=frozenset(forbidden),
            full_sides=full)

    def _held(self, occ: Mapping[str, list[UnitState]], side: str) -> frozenset[str]:
        """The hexes ``side`` holds among the occupants ``occ``. ``legal_actions`` asks
        for every unit with the same ``occ``: the answer is kept for it, and being the
        same object it hashes at once in the reach cache's keys (``MoveRules``)."""
        memo = self._held_memo
        if memo is not None and memo[0] is occ and memo[1] == side:
            return memo[2]
        held = frozenset(h for h, us in occ.items() if us and us[0].side == side)
        self._held_memo = (occ, side, held)
        return held

    def move_options(self, uid: str, front: frozenset[str] | None = None,
                     occ: Mapping[str, list[UnitState]] | None = None) -> Reach:
        """Where ``uid`` may move now (``front``: its side's front line, ``occ``: the
        hexes' occupants, if known)."""
        u = self.state.units[uid]
        assert u.hex is not None
        if front is None:
            front = front_line(self.board, self.state, u.side)
        return reachable(self.board, u.hex, self.move_rules(u, front, occ))

    def formation_problem(self, u: UnitState) -> str | None:
        label = self.orders.oob[u.id]
        front = front_line(self.board, self.state, u.side)
        cost = label.movement.allowance if u.hex in front else label.movement.allowance // 2
        if u.mp_used + cost > label.movement.allowance:
            return "not enough MPs left to change formation"
        if not u.column and len(self.state.occupants().get(u.hex or "", [])) > 1:
            return "a unit in column must be alone in its hex"
        return None

    def entry_hexes(self, u: UnitState) -> list[tuple[str, str]]:
        """(entry hex, entry road) pairs ``u`` may come on at now (6.7, 9.74, 2.4); one
        road per hex, named as the board names it."""
        # Asked for every due unit at every decision: kept per all it reads (issue 59).
        div = self.division_key(u)
        key = (u.status, u.arrival_hex, u.arrival_entry, bool(u.night_road and
               self.state.night), div, self.state.entry_roads.get(div))
        memo = self._entries_memo
        if memo is None:
            memo = self._entries_memo = {}
        got = memo.get(key)
        if got is None:
            got = tuple(self._entry_hexes(u))
            if len(memo) >= ENTER_MEMO:
                del memo[next(iter(memo))]
            memo[key] = got
        return list(got)

    def _entry_hexes(self, u: UnitState) -> list[tuple[str, str]]:
        """:meth:`entry_hexes` worked out."""
        board = self.board
        if u.status == OFF_MAP:
            if not u.arrival_hex or not board.has_hex(u.arrival_hex):
                return []
            names = sorted(board.hex(u.arrival_hex).entries)
            return [(u.arrival_hex, names[0] if names else "")]
        if u.night_road and self.state.night:
            roads = list(NIGHT_ROADS)
        else:
            named = u.arrival_entry or ""
            roads = [named, *adjacent_roads(board, named)]
            div = self.division_key(u)
            if div in self.state.entry_roads:
                roads = [self.state.entry_roads[div]]  # 6.7 division integrity
        out: dict[str, str] = {}
        wanted = {road_name(r) for r in roads}
        for hid, hex_entries in index(board).entries:
            for name in hex_entries:
                if road_name(name) in wanted and hid not in out:
                    out[hid] = name
        if u.arrival_hex and board.has_hex(u.arrival_hex) and u.arrival_hex not in out \
                and road_name(u.arrival_entry or "") in wanted:
            out[u.arrival_hex] = u.arrival_entry or ""
        return sorted(out.items())

    def division_key(self, u: UnitState) -> str:
        """6.7 division integrity binds the units of one division arriving together."""
        label = self.orders.oob[u.id]
        if label.division is None or u.id in self.orders.asset_of:
            return ""
        return f"{u.side}/{label.corps}/{label.division}/{u.arrival_key}"

    def entry_problem(self, u: UnitState) -> str | None:
        if u.status not in (RESERVE, OFF_MAP):
            return "the unit is not waiting off the map"
        if u.arrival_key is None or u.arrival_key > self.state.now:
            return "the unit is not due yet"
        if u.moved:
            return "the unit has already moved this phase"
        return None

    def enter_options(self, uid: str, front: frozenset[str] | None = None,
                      occ: Mapping[str, list[UnitState]] | None = None
                      ) -> dict[tuple[str, str], tuple[int, list[str]]]:
        """(entry hex, destination) -> (MP, path) for a unit due to arrive (``front``: its
        side's front line, ``occ``: the hexes' occupants, if known)."""
        got = self.shared_enter_options(uid, front, occ)
        return {k: (c, list(p)) for k, (c, p) in got.items()}

    def enter_listing(self, uid: str, front: frozenset[str],
                      occ: Mapping[str, list[UnitState]],
                      rules: MoveRules | None = None) -> EnterListing:
        """The ``enter`` actions of a due unit as (entry hex, path), in the order the legal
        actions list them (by entry hex, then destination); kept with the answer of
        :meth:`shared_enter_options` (issue 59). The caller must change nothing in it.
        ``rules``: the unit's ``move_rules`` for ``front`` and ``occ``, if known."""
        key = self._enter_key(uid, front, occ, rules)
        memo = self._enter_list_memo
        if memo is None:
            memo = self._enter_list_memo = {}
        got = memo.get(key)
        if got is None:
            got = EnterListing(self._enter_answer(key))
            if len(memo) >= ENTER_MEMO:
                del memo[next(iter(memo))]
            memo[key] = got
        return got

    def shared_enter_options(self, uid: str, front: frozenset[str] | None = None,
                             occ: Mapping[str, list[UnitState]] | None = None
                             ) -> EnterOptions:
        """:meth:`enter_options` as kept: the caller must change nothing in it."""
        plan = self._enter_answer(self._enter_key(uid, front, occ))
        return {at: (kept[0], _traced(kept)) for at, kept in plan.items()}

    def _enter_key(self, uid: str, front: frozenset[str] | None,
                   occ: Mapping[str, list[UnitState]] | None,
                   rules: MoveRules | None = None) -> tuple[object, ...]:
        """All an ``enter_options`` answer reads: entry hexes, night march, move rules (the
        unit's own part in it is its off-road multiplier, which the rules hold)."""
        u = self.state.units[uid]
        if rules is None:
            if front is None:
                front = front_line(self.board, self.state, u.side)
            rules = self.move_rules(u, front, occ)
        entries = tuple(self.entry_hexes(u))
        night_march = bool(u.night_road and self.state.night)
        # Due units wait off the map for many decisions while little near their entry
        # changes: the answer is kept per (entry hexes, move rules), which is all it reads
        # (issue 59), and so shared by the units of a division that come on together
        # (session 47: half the answers of a random Day 1 game). Callers get their own
        # path lists.
        return (entries, night_march, rules)

    def _enter_answer(self, key: tuple[object, ...]) -> EnterPlan:
        """The answer for a key of :meth:`_enter_key`, worked out once."""
        memo = self._enter_memo
        if memo is None:
            memo = self._enter_memo = {}
        got = memo.get(key)
        if got is None:
            entries, night_march, rules = key
            assert isinstance(entries, tuple)
            assert isinstance(night_march, bool) and isinstance(rules, MoveRules)
            got = self._enter_options(entries, night_march, rules)
            if len(memo) >= ENTER_MEMO:
                del memo[next(iter(memo))]
            memo[key] = got
        return got

    def _enter_options(self, entries: tuple[tuple[str, str], ...], night_march: bool,
                       rules: MoveRules) -> EnterPlan:
        """:meth:`enter_options` worked out (6.7, 9.74), the paths not yet traced; the
        unit's off-road multiplier (3.24/3.25) is its rules' (``move_rules``)."""
        board = self.board
        idx = index(board)
        best: EnterPlan = {}
        # The search from the hex a unit comes on at (6.7): one hex is not always possible.
        sub = MoveRules(rules.budget, rules.multiplier, rules.roads, False, rules.stop,
                        rules.forbidden, rules.full_sides, entered=True)
        for entry, road in entries:
            if entry in rules.forbidden:
                continue
            if night_march:
                for dest, path in road_march(board, entry, rules.forbidden,
                                             NIGHT_ROADS).items():
                    best[(entry, dest)] = (0, None, dest, path)
                continue
            beside = sorted(n for n in idx.nbrs.get(entry, ())
                            if n in idx.edge and n not in rules.forbidden)
            firsts = [entry, *beside]
            for first in firsts:
                cost0, road0 = entry_cost(board, entry, first, road, rules.multiplier,
                                          rules.roads)
                if first != entry:
                    road0 = NO_ROAD
                at = (entry, first)
                cur = best.get(at)
                # (cost, path) pairs compare by cost first: a path is traced only to
                # break a tie (issue 59).
                if cur is None or cost0 < cur[0] or (cost0 == cur[0]
                                                     and [first] < _traced(cur)):
                    best[at] = (cost0, None, first, None)
                if cost0 > rules.budget:
                    continue
                reach = reachable(board, first, sub, road0 if rules.roads else NO_ROAD,
                                  cost0)
                for dest, c in reach.cost.items():
                    if dest == first:
                        continue  # the search's start is not among its answers
                    at = (entry, dest)
                    cur = best.get(at)
                    if cur is None or c < cur[0] or (c == cur[0] and reach.trail(dest)
                                                     < _traced(cur)):
                        best[at] = (c, reach, dest, None)
        return best
