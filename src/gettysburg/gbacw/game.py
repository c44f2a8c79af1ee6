"""The GBACW game on the core protocol (:class:`gettysburg.core.protocol.Game`).

The position is :class:`gettysburg.gbacw.state.Position`; the turn follows
:mod:`gettysburg.gbacw.sequence` (002 §3.0); the actions are
:mod:`gettysburg.gbacw.actions`'. Automatic steps (initiative, efficiency draws, the blind
draws from the activation-marker pool, the coordination roll, the end segment) run inside
the action that leads to them, so ``to_move`` always names a seat with a real choice.
Fire and shock (issue 53) are not built: a brigade moves and turns.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from gettysburg.core.canonical import JSONDict
from gettysburg.core.dice import Dice, normalize_seed
from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import (
    REFEREE,
    Action,
    Event,
    Game,
    GameSetup,
    RuleError,
    Seat,
    dice_event,
    resolve_dice,
)
from gettysburg.gbacw import (
    effectiveness,
    efficiency,
    fatigue,
    fire_action,
    night,
    return_fire,
    sequence,
    shock_step,
)
from gettysburg.gbacw.actions import ACTION_ORDER, check_shape
from gettysburg.gbacw.board import Board
from gettysburg.gbacw.catalog import catalog
from gettysburg.gbacw.charts import all_charts
from gettysburg.gbacw.command_status import INDEPENDENT, CommandTree, measure
from gettysburg.gbacw.coordination import coordinate
from gettysburg.gbacw.facing import Facing, to_kind
from gettysburg.gbacw.initiative import InitiativeSide, roll_initiative
from gettysburg.gbacw.los import line_of_sight
from gettysburg.gbacw.movement import FriendStack, movement_allowance
from gettysburg.gbacw.oob import Counter
from gettysburg.gbacw.orders import (
    ReserveStanding,
    UnitSituation,
    changed_orders,
    check_march_orders,
    check_reserve,
    loose_cannon,
    near_enemy,
    orders_change,
)
from gettysburg.gbacw.paths import Reach, leader_costs, reachable
from gettysburg.gbacw.rally import activation_cap, rally
from gettysburg.gbacw.scenario import Control, SuddenDeath, VictoryPoints
from gettysburg.gbacw.setup import EngineSetup, engine_setup, turn_label
from gettysburg.gbacw.shock_action import combatant_of
from gettysburg.gbacw.stacking import StackEntry, stack_problem
from gettysburg.gbacw.state import (
    SEATS,
    BrigadeState,
    Position,
    UnitState,
    division_marker,
    march_marker,
    marker_parts,
    other,
    unit_key,
)
from gettysburg.gbacw.victory import Standing, UnitAt, Verdict, score

OPTIONS: dict[str, str] = {"no_fatigue": "17.0"}
LEADER_MA = 10  # brigade and division leaders (002 §4.16)
COMMANDER_MA = 40  # corps commanders and the OC (002 §4.16); more than 10 tires (§9.32)


def unit_class(c: Counter) -> str:
    """The Terrain chart's class of a counter (preamble conventions)."""
    if c.arm in ("art", "horse_art"):
        return "artillery"
    if c.arm == "cav" and c.mode == "mounted":
        return "mounted_cavalry"
    return "infantry"


def facing_kind(orders: str) -> str:
    """March units face a hexside, the others a vertex (002 §7.1)."""
    return "side" if orders == "march" else "vertex"


class GbacwGame(Game):
    """A GBACW game; the constructor is the registered factory."""

    system = "gbacw"

    def __init__(self, scenario: str = "herr-ridge", options: Sequence[str] = (),
                 seed: int | str = 0, dice: Dice | None = None) -> None:
        for opt in options:
            if opt not in OPTIONS:
                raise ValueError(f"unknown gbacw option {opt!r}; known: {sorted(OPTIONS)}")
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
        for e in self._begin_turn():
            self.record(e)

    # --- derived data --------------------------------------------------------------------

    def _derive(self) -> None:
        self._memo: dict[Any, Any] = {}  # answers for the position as it stands
        self.cat = catalog()
        self.scen: EngineSetup = _setup_of(self.setup.scenario)
        self.fatigue = "no_fatigue" not in self.setup.options and self.scen.fatigue
        self._arrival_of: dict[str, tuple[int, str]] = {
            cid: (i, arr.hex) for i, arr in enumerate(self.scen.arrivals)
            for cid in arr.counters}

    def _brigade(self, pos: Position, c: Counter, seat: Seat) -> BrigadeState:
        b = pos.brigades.get(c.formation)
        if b is None:
            # a brigade straight under its corps (artillery reserve, Stuart's cavalry)
            # activates as its own formation with the corps' marker
            b = BrigadeState(seat, c.division or c.corps, c.corps)
            pos.brigades[c.formation] = b
        return b

    # --- protocol ------------------------------------------------------------------------

    def seats(self) -> list[Seat]:
        return list(SEATS)

    def position_json(self) -> JSONDict:
        return self.pos.to_json()

    def load_position(self, position: JSONDict) -> None:
        self._derive()
        self.pos = Position.from_json(position)

    def is_terminal(self) -> bool:
        return self.pos.phase == "over"

    def to_move(self) -> list[Seat]:
        p = self.pos
        if p.phase == "orders":
            return [self._orders_seat()]
        if p.phase == "first_am":
            return [p.initiative or SEATS[0]]
        if p.pending is not None:  # the defender decides mid-activation (002 §11.33)
            return [other(str(p.pending["seat"]))]
        if p.phase in ("orders_change", "action") and p.current is not None:
            return [marker_parts(p.current)[0]]
        if p.phase == "commanders":
            first = p.initiative or SEATS[0]
            return [first if first not in p.commanders_done else other(first)]
        return []

    def _orders_seat(self) -> Seat:
        first = self.pos.initiative or SEATS[0]
        return first if first not in self.pos.orders_done else other(first)

    # --- questions the checks and the legal list share --------------------------------------

    def hex_of(self, hex_id: str | None) -> Hex | None:
        if hex_id is None:
            return None
        found = _HEXES.get(hex_id)
        if found is None:
            found = _HEXES[hex_id] = self.cat.board.parse(hex_id)
        return found

    def counter(self, key: str) -> Counter:
        return self.cat.counters[self.pos.units[key].counter]

    def formation(self, key: str) -> str:
        return self.counter(key).formation

    def brigade_units(self, brigade: str) -> list[str]:
        table = self._memo.get("brigade_units")
        if table is None:
            table = {}
            for k in sorted(self.pos.units):
                table.setdefault(self.formation(k), []).append(k)
            self._memo["brigade_units"] = table
        return list(table.get(brigade, []))

    def on_map(self, key: str) -> bool:
        return self.pos.units[key].hex is not None

    def waiting(self, key: str) -> str | None:
        """The entry hex of a reinforcement due and not yet on the map (002 §9.7)."""
        u = self.pos.units[key]
        if u.hex is not None:
            return None
        found = self._arrival_of.get(u.counter)
        if found is None or found[0] not in self.pos.arrived or self.gone(key):
            return None
        return self.pos.entries.get(str(found[0]), found[1])

    def gone(self, key: str) -> bool:
        """Eliminated or routed: off the map for good (002 §12.13, §12.53)."""
        u = self.pos.units[key]
        return u.routed or u.lost >= self.counter(key).sp

    def in_play(self, brigade: str) -> bool:
        return any(self.on_map(k) or self.waiting(k) for k in self.brigade_units(brigade))

    def divisions(self, seat: Seat) -> list[str]:
        return sorted({b.division or b.corps for n, b in self.pos.brigades.items()
                       if b.seat == seat and self.in_play(n)})

    def division_brigades(self, division: str) -> list[str]:
        return [n for n, b in sorted(self.pos.brigades.items()) if b.division == division]

    def leader_hex(self, leader: str | None) -> Hex | None:
        return None if leader is None else self.hex_of(self.pos.leaders.get(leader))

    def brigade_hexes(self, brigade: str) -> list[Hex]:
        return [h for k in self.brigade_units(brigade)
                if (h := self.hex_of(self.pos.units[k].hex)) is not None]

    def brigadier_in_command(self, brigade: str) -> bool:
        """002 §4.2 as taken at II/A (§4.23): the brigadier within his superior's range."""
        return brigade not in self.pos.command.get("brigadiers", [])

    def division_in_range(self, division: str) -> bool:
        """002 §5.23: the division leader within his corps commander's range at II/A."""
        return division not in self.pos.command.get("divisions", [])

    def superior_of(self, leader: str, seat: Seat) -> str | None:
        """The command tree (see :mod:`command_status`), among the leaders in play."""
        cat, p = self.cat, self.pos
        level, command = cat.leader_level.get(leader), cat.leader_command.get(leader, "")
        oc = cat.army_leader.get(seat)
        up: str | None
        if level in ("brigade", "artillery"):
            b = p.brigades.get(command)
            if b is None:
                return None
            up = cat.division_leader.get(b.division or "") or cat.corps_leader.get(b.corps)
        elif level == "division":
            up = oc if command in INDEPENDENT else cat.corps_leader.get(
                cat.division_corps.get(command, ""))
        elif level == "corps":
            up = oc
        else:
            up = None
        return up if up in p.leaders and up != leader else None

    def _command_tree(self, seat: Seat) -> CommandTree:
        cat, p = self.cat, self.pos
        mine = sorted(ld for ld in p.leaders if p.leader_seat.get(ld) == seat)
        superior = {ld: self.superior_of(ld, seat) for ld in mine}
        unit_leader: dict[str, str] = {}
        for k, u in sorted(p.units.items()):
            if u.seat != seat:
                continue
            b = self.formation(k)
            st = p.brigades[b]
            for ld in (cat.brigade_leader.get(b), cat.division_leader.get(st.division or ""),
                       cat.corps_leader.get(st.corps)):
                if ld in superior:
                    unit_leader[k] = ld
                    break
        light = self._light()
        ranges = {ld: 0 if ld in p.tired and cat.leader_level.get(ld) == "corps"
                  else night.command_range(cat.rating(ld, "command_range", 4), light)  # type: ignore[arg-type]
                  for ld in mine}
        return CommandTree(superior, unit_leader, ranges)

    def _chain(self) -> list[Event]:
        """II/A (002 §4.2, §4.23): each side's chain measured once for the turn; a
        reinforcement is in command on the turn it enters (002 §9.71)."""
        p, board = self.pos, self.cat.board
        status: dict[str, list[str]] = {"brigadiers": [], "divisions": [], "units": [],
                                        "no_orders": [], "oc_bonus": [], "oc_linked": [],
                                        "transfer_ok": []}
        ev: list[Event] = []
        for seat in SEATS:
            tree = self._command_tree(seat)
            where: dict[str, Hex | None] = {ld: self.leader_hex(ld) for ld in tree.superior}
            for k in tree.unit_leader:
                where[k] = self.hex_of(p.units[k].hex)
            own = {h for u in p.units.values() if u.seat == seat
                   and (h := self.hex_of(u.hex)) is not None}
            report = measure(board, tree, where, self.enemy_hexes(seat), own)
            mine: dict[str, list[str]] = {"brigadiers": [], "divisions": [], "units": [],
                                          "no_orders": []}
            for n, b in sorted(p.brigades.items()):
                if b.seat != seat or not self.in_play(n):
                    continue
                if self._arriving(n):
                    continue  # in command on its entry turn (002 §9.71)
                bl = self.cat.brigade_leader.get(n)
                if bl is None or bl not in report.leaders:
                    mine["brigadiers"].append(n)
                    mine["no_orders"].append(n)
                    continue
                if not report.leader(bl).in_range:
                    mine["brigadiers"].append(n)
                top = self._orders_top(n)
                if top is None or self.leader_hex(bl) is None or not report.intact(bl, top):
                    mine["no_orders"].append(n)
            for d in self.divisions(seat):
                dl = self.cat.division_leader.get(d)
                if dl is None or dl not in report.leaders or d in INDEPENDENT:
                    continue
                boss = report.leader(dl).superior
                if boss is not None and not report.leader(dl).in_range:
                    mine["divisions"].append(d)
            mine["units"] = sorted(u for u, st in report.units.items()
                                   if not st.in_command and p.units[u].hex is not None)
            # 002 §5.22: the corps whose commanders the OC may raise (on the map, in range);
            # he raises as many as his initiative rating, the first in id order (a reading:
            # the player's choice in the book)
            oc = self.cat.army_leader.get(seat)
            # 002 §5.42: only divisions whose chain reaches the OC take part in a transfer
            mine["transfer_ok"] = sorted(
                d for d in self.divisions(seat)
                if (dl := self.cat.division_leader.get(d)) is not None and oc is not None
                and dl in report.leaders and oc in report.leaders and report.intact(dl, oc))
            if oc is not None and self.leader_hex(oc) is not None:
                linked = sorted(self.cat.leader_command[ld] for ld, ch in report.leaders.items()
                                if ch.superior == oc and ch.in_range
                                and self.cat.leader_level.get(ld) == "corps")
                try:
                    count = max(0, self.cat.rating(oc, "initiative"))
                    efficiency.check_oc_bonus(count, linked, linked[:count],
                                              oc_mp_spent=11 if oc in p.tired else 0)
                    mine["oc_bonus"] = linked[:count]
                    mine["oc_linked"] = linked if count else []
                except RuleError:
                    pass
            for key, items in mine.items():
                status[key] += items
            ev.append(Event("chain", "4.2", {"seat": seat, **{k: sorted(v)
                                                              for k, v in mine.items()}},
                            visible_to=(seat,),
                            redacted={"seat": seat, "note": "chain of command checked"}))
        p.command = {k: sorted(v) for k, v in status.items()}
        return ev

    def _orders_top(self, brigade: str) -> str | None:
        """The leader a Division Orders chain must reach (002 §6.12; chain.py's
        ``division_orders_allowed``): the brigade's corps commander when he is on the map,
        else its division leader (TDG's cavalry divisions need none above, 004 §4.13),
        else the brigadier alone."""
        cat, b = self.cat, self.pos.brigades[brigade]
        division = b.division or ""
        corps = None if division in INDEPENDENT else cat.corps_leader.get(b.corps)
        for ld in (corps, cat.division_leader.get(division), cat.brigade_leader.get(brigade)):
            if ld is not None and self.leader_hex(ld) is not None:
                return ld
        return None

    def enemy_hexes(self, seat: Seat) -> set[Hex]:
        return {h for u in self.pos.units.values()
                if u.seat != seat and (h := self.hex_of(u.hex)) is not None}

    def enemy_artillery(self, seat: Seat) -> set[Hex]:
        return {h for k, u in self.pos.units.items()
                if u.seat != seat and unit_class(self.counter(k)) == "artillery"
                and (h := self.hex_of(u.hex)) is not None}

    def orders_of(self, key: str) -> str:
        return self.pos.brigades[self.formation(key)].orders

    def stack_entry(self, key: str) -> StackEntry:
        c = self.counter(key)
        return StackEntry(f"{c.corps}:{c.unit}", c.arm, c.sp, c.formation,
                          c.mode == "mounted")

    def moves_allowed(self, key: str) -> int:
        """One move a unit an activation; the March AM is four activations' worth (§5.35),
        or a reinforcement's set number on its entry turn (§5.35 exception 1, §9.74)."""
        p = self.pos
        if p.current is not None and marker_parts(p.current)[1] is None:
            limit = self.entry_limit(self.formation(key))
            return efficiency.march_activations(4, fixed=None if limit is None
                                                else max(1, min(4, limit)))
        return 1

    def entry_limit(self, brigade: str) -> int | None:
        """The AMs a reinforcement group may use on the turn it arrives (002 §9.74; the
        schedule's ``activations``), for a brigade of that group; None: no limit."""
        p = self.pos
        counters = {p.units[k].counter for k in self.brigade_units(brigade)}
        for key, turn in p.arrived_on.items():
            arr = self.scen.arrivals[int(key)]
            if turn == p.turn and arr.activations is not None \
                    and counters & set(arr.counters):
                return arr.activations
        return None

    def mp_of(self, key: str) -> int:
        """002 §9.1, §9.24: the counter's MA (its disordered MA), halved under Attack."""
        c = self.counter(key)
        ma = c.ma_disordered if self.pos.units[key].disordered else c.ma
        ma = movement_allowance(ma, self.orders_of(key), unit_class(c))  # type: ignore[arg-type]
        if self.fatigue and unit_class(c) != "artillery":  # 002 §17.31, artillery exempt
            ma = fatigue.fatigued_ma(ma, self.pos.brigades[self.formation(key)].fatigue)
        return ma

    def friends_of(self, key: str) -> dict[Hex, FriendStack]:
        """Friendly hexes as the mover sees them (002 §8.12, §8.22)."""
        p = self.pos
        seat, orders = p.units[key].seat, self.orders_of(key)
        mover = self.stack_entry(key)
        stacks: dict[Hex, list[str]] = {}
        for k, u in sorted(p.units.items()):
            if u.seat == seat and k != key and (h := self.hex_of(u.hex)) is not None:
                stacks.setdefault(h, []).append(k)
        out: dict[Hex, FriendStack] = {}
        for h, keys in stacks.items():
            entries = [self.stack_entry(k) for k in keys]
            out[h] = FriendStack(
                artillery_only=all(e.kind == "artillery" for e in entries),
                march=any(self.orders_of(k) == "march" for k in keys),
                combat=True, can_stack=stack_problem([*entries, mover], orders) is None)
        return out

    def reach(self, key: str) -> dict[tuple[Hex, Facing], Reach]:
        """Every (hex, facing) the unit may end its move in now (002 §7, §9 through
        :func:`paths.reachable`; the 4-hex-and-sight ban of March through LOS)."""
        memo = ("reach", key)
        if memo in self._memo:
            return dict(self._memo[memo])
        sig = self._reach_signature(key)
        found = _REACH_CACHE.get(sig)
        if found is None:
            found = self._reach(key)
            _REACH_CACHE[sig] = found
            while len(_REACH_CACHE) > _REACH_CACHE_SIZE:
                _REACH_CACHE.pop(next(iter(_REACH_CACHE)))
        self._memo[memo] = found
        return dict(found)

    def _reach_signature(self, key: str) -> tuple[Any, ...]:
        """Everything a unit's reach depends on: itself, its orders and the units close
        enough to matter (a search cannot go further than twice its MP in hexes, and the
        March ban looks 4 hexes beyond), so a cached search is reused only where it would
        come out the same."""
        p = self.pos
        u = p.units[key]
        here = self.hex_of(u.hex) or self.cat.board.parse(self.waiting(key) or "")
        radius = 2 * self.mp_of(key) + 6
        near = tuple(sorted(
            (v.hex, v.seat, v.counter, self.orders_of(k))
            for k, v in p.units.items()
            if k != key and v.hex is not None
            and here.distance(self.hex_of(v.hex)) <= radius))  # type: ignore[arg-type]
        return (self.setup.scenario, u.counter, u.hex, self.waiting(key), u.facing,
                u.disordered, self.orders_of(key), near)

    def _reach(self, key: str) -> dict[tuple[Hex, Facing], Reach]:
        p, board = self.pos, self.cat.board
        u = p.units[key]
        c = self.counter(key)
        seat, orders, cls = u.seat, self.orders_of(key), unit_class(c)
        enemy = self.enemy_hexes(seat)

        def sees(a: Hex, b: Hex) -> bool:
            return self._sight(a, b)

        start = self.hex_of(u.hex)
        facing = u.facing
        entering = start is None
        if start is None:
            entry = self.waiting(key)
            if entry is None:
                return {}
            start = board.parse(entry)
            facing = self._entry_facing(start, facing_kind(orders))
        assert facing is not None
        return reachable(board, start, facing, self.mp_of(key), unit_class=cls,  # type: ignore[arg-type]
                         orders=orders, enemy=enemy,  # type: ignore[arg-type]
                         friends=self.friends_of(key),
                         enemy_artillery=self.enemy_artillery(seat), sees=sees,
                         full_ma=c.ma, disordered=u.disordered,
                         mp_disordered=c.ma_disordered, entering=entering)

    def _entry_facing(self, entry: Hex, kind: str) -> Facing:
        """A reinforcement comes on facing into the map (its first front hex on it)."""
        for d in range(6):
            if entry.neighbour(d) in self.cat.board.hexes:
                return Facing(kind, d)  # type: ignore[arg-type]
        return Facing(kind, 0)  # type: ignore[arg-type]

    def destinations(self, key: str) -> list[tuple[Hex, Facing]]:
        """The moves a unit may make (its reach less staying where it is), in a fixed
        order: by hex (q, r), then facing."""
        u = self.pos.units[key]
        here = self.hex_of(u.hex)
        return sorted((k for k in self.reach(key) if k[0] != here),
                      key=lambda k: (k[0].q, k[0].r, k[1].kind, k[1].index))

    def movable_leaders(self) -> list[str]:
        """Leaders who may move now (002 §9.3): the active brigade's brigadier, and the
        drawn division's leader (on the March AM, the leaders of the March brigades, §6.19),
        each once an activation; corps commanders and the OC move only in IV/A."""
        p, cat = self.pos, self.cat
        if p.current is None or p.phase != "action":
            return []
        seat, division = marker_parts(p.current)
        out: list[str] = []
        if p.brigade is not None:
            out.append(cat.brigade_leader.get(p.brigade, ""))
        if division is not None:
            out.append(cat.division_leader.get(division, ""))
        return sorted({ld for ld in out if ld and p.leaders.get(ld) is not None
                       and p.leader_seat.get(ld) == seat and ld not in p.leaders_moved})

    def leader_moves(self, leader: str) -> list[Hex]:
        """Where a leader may go with his 10 MP (002 §4.16, §9.3: any direction, the best
        road rate, never next to the enemy unless onto friends)."""
        here = self.leader_hex(leader)
        return sorted((h for h in self.leader_reach(leader, LEADER_MA) if h != here),
                      key=lambda h: (h.q, h.r))

    def leader_reach(self, leader: str, mp: int) -> dict[Hex, int]:
        """Half-MP costs of a leader's moves with ``mp`` MP (:func:`paths.leader_costs`),
        kept by what they depend on (his hex, the friends and enemies within reach)."""
        memo = ("leader", leader, mp)
        if memo in self._memo:
            return dict(self._memo[memo])
        here = self.leader_hex(leader)
        seat = self.pos.leader_seat[leader]
        out: dict[Hex, int] = {}
        if here is not None and mp > 0:
            radius = 2 * mp + 2
            friends = {h for u in self.pos.units.values() if u.seat == seat
                       and (h := self.hex_of(u.hex)) is not None and h.distance(here) <= radius}
            enemy = {h for h in self.enemy_hexes(seat) if h.distance(here) <= radius}
            sig = ("leader", here, mp, frozenset(friends), frozenset(enemy))
            cached = _LEADER_CACHE.get(sig)
            if cached is None:
                cached = leader_costs(self.cat.board, here, mp, enemy=enemy,
                                      friends={h: FriendStack() for h in friends})
                _LEADER_CACHE[sig] = cached
                while len(_LEADER_CACHE) > _REACH_CACHE_SIZE:
                    _LEADER_CACHE.pop(next(iter(_LEADER_CACHE)))
            out = dict(cached)
        self._memo[memo] = out
        return dict(out)

    def commanders(self, seat: Seat) -> list[str]:
        """The seat's corps commanders and OC on the map (002 §9.32 moves them in IV/A)."""
        p, cat = self.pos, self.cat
        return sorted(ld for ld, h in p.leaders.items() if h is not None
                      and p.leader_seat.get(ld) == seat
                      and cat.leader_level.get(ld) in ("corps", "army"))

    def commander_moves(self, leader: str) -> dict[Hex, int]:
        """002 §4.16, §9.32: a corps commander or the OC has 40 MP in IV/A, taken here in
        legs of up to 10 MP (a reading that keeps each search small)."""
        left = COMMANDER_MA * 2 - self.pos.commander_mp.get(leader, 0)
        here = self.leader_hex(leader)
        return {h: c for h, c in self.leader_reach(leader, min(LEADER_MA, left // 2)).items()
                if h != here}

    def active_units(self) -> list[str]:
        """Units of the active brigade that may still move or turn."""
        p = self.pos
        if p.brigade is None:
            return []
        return [k for k in self.brigade_units(p.brigade)
                if (self.on_map(k) or self.waiting(k)) and p.units[k].moves < self.moves_allowed(k)]

    def may_move(self, brigade: str) -> bool:
        p = self.pos
        b = p.brigades[brigade]
        if b.stay:
            return False
        # 002 §5.34: confusion stops the in-command brigades
        return not (p.coordination == "confusion" and self.brigadier_in_command(brigade))

    def _fired_instead(self, key: str) -> bool:
        """002 §6.15, §10.32: a unit not on Attack that fired may not move after."""
        return "phasing" in self.pos.units[key].fired and self.orders_of(key) != "attack"

    def _rally_problem(self, key: str) -> RuleError | None:
        """002 §13.41, §3.0 III/C/3: a disordered unit of the active brigade that has not
        moved, turned or fired this activation may rally instead; not on March orders
        (§6.13), not collapsed (§12.23)."""
        u = self.pos.units[key]
        if u.hex is None or not u.disordered:
            return RuleError("13.41", f"{key} is not a disordered unit on the map")
        if u.moves or u.fired:
            return RuleError("13.41", f"{key} has acted this activation: rally is instead "
                             "of moving and firing (3.0 III/C/3)")
        if u.collapsed:
            return RuleError("12.23", f"{key} is collapsed: only stragglers bring it back")
        if self.orders_of(key) == "march":
            return RuleError("6.13", f"{key}: units on March orders do not rally")
        return None

    def fire_targets(self, key: str) -> list[Hex]:
        """The hexes a unit of the active brigade may fire at (fire_action.py), kept for
        the position as it stands."""
        memo = ("fire", key)
        if memo not in self._memo:
            self._memo[memo] = fire_action.fire_targets(self, key)
        return list(self._memo[memo])

    def may_fight(self, brigade: str) -> bool:
        """Whether the brigade's units may fire (002 §5.34: not under Confusion; a Stay
        result still lets them fire, §6.23)."""
        return not (self.pos.coordination == "confusion"
                    and self.brigadier_in_command(brigade))

    def eligible_brigades(self) -> list[str]:
        """Brigades the current marker activates that have not acted (002 §5.3, §5.28)."""
        p = self.pos
        if p.current is None:
            return []
        seat, division = marker_parts(p.current)
        out = []
        for n, b in sorted(p.brigades.items()):
            if b.seat != seat or b.reserve or n in p.done_brigades or not self.in_play(n):
                continue
            march = b.orders == "march"
            if division is None and march:
                out.append(n)
            elif division is not None and b.division == division and not march:
                # 002 §5.26-5.27: one AM fewer when the brigadier began the turn out of
                # range (the one it skips is the player's: here, the last), never below 1
                cap = efficiency.brigade_activations(
                    max(1, min(4, p.ams.get(division, 1))),
                    brigadier_in_range=self.brigadier_in_command(n))
                limit = self.entry_limit(n)
                if limit is not None:
                    cap = min(cap, limit)
                ci = activation_cap(brigade_ci=n in p.ci_brigades,
                                    division_ci=division in p.ci_divisions)
                if ci is not None:  # 002 §13.23, §13.32
                    cap = min(cap, ci)
                if b.activations < cap:
                    out.append(n)
        return out

    def legal_facings(self, key: str) -> list[Facing]:
        kind = facing_kind(self.orders_of(key))
        return [Facing(kind, i) for i in range(6)]  # type: ignore[arg-type]

    # --- legal actions ---------------------------------------------------------------------

    def legal_actions(self, seat: Seat) -> list[Action]:
        if seat not in self.to_move():
            return []
        p = self.pos
        out: list[Action] = []
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
            out.append({"type": "end_orders_change"})
        elif p.phase == "commanders":
            for ld in self.commanders(seat):
                moves = self.commander_moves(ld)
                out += [{"type": "move_commander", "leader": ld,
                         "to": self.cat.board.hexes[h].id}
                        for h in sorted(moves, key=lambda x: (x.q, x.r))]
            out.append({"type": "end_commanders"})
        elif p.phase == "action" and p.pending is not None:
            out += (return_fire.options(self) if p.pending.get("kind") == "fire"
                    else shock_step.defender_options(self))
        elif p.phase == "action":
            if p.brigade is None:
                out += [{"type": "activate", "brigade": n} for n in self.eligible_brigades()]
            else:
                moving = self.may_move(p.brigade)
                for k in self.active_units():
                    if moving and not self._fired_instead(k):
                        out += [{"type": "move", "unit": k,
                                 "to": self.cat.board.hexes[h].id, "facing": f.to_json()}
                                for h, f in self.destinations(k)]
                    out += [{"type": "face", "unit": k, "facing": f.to_json()}
                            for f in self._turns(k)]
                out += [{"type": "rally", "unit": k} for k in self.active_units()
                        if self._rally_problem(k) is None]
                if self.may_fight(p.brigade) and not shock_step.has_shocked(self, p.brigade):
                    for k in self.brigade_units(p.brigade):
                        if self.on_map(k):
                            out += [{"type": "fire", "unit": k,
                                     "target": self.cat.board.hexes[h].id}
                                    for h in self.fire_targets(k)]
                    out += shock_step.shock_options(self, seat)
                out.append({"type": "end_brigade"})
            for ld in self.movable_leaders():
                out += [{"type": "move_leader", "leader": ld,
                         "to": self.cat.board.hexes[h].id} for h in self.leader_moves(ld)]
            out.append({"type": "end_activation"})
        return out

    def _turns(self, key: str) -> list[Facing]:
        """Facings a unit may turn to in place: as its MP allow (002 §7.21), or one vertex
        without MP when its brigade may not move (002 §5.34, §6.23)."""
        u = self.pos.units[key]
        here = self.hex_of(u.hex)
        if here is None or u.facing is None:
            return []
        if self.pos.brigade is not None and not self.may_move(self.pos.brigade):
            return [f for f in self.legal_facings(key) if f.kind == u.facing.kind
                    and min((f.index - u.facing.index) % 6, (u.facing.index - f.index) % 6) == 1]
        return sorted(f for h, f in self.reach(key) if h == here and f != u.facing)

    def _own_markers(self, seat: Seat) -> list[str]:
        return sorted({m for m in self.pos.pool if marker_parts(m)[0] == seat})

    def _orders_choices(self, brigade: str) -> list[str]:
        b = self.pos.brigades[brigade]
        if self._division_orders_problem(brigade) is not None:
            return []
        return [o for o in ("march", "advance", "attack") if o != b.orders
                and self._orders_problem(brigade, o) is None]

    def _arriving(self, brigade: str) -> bool:
        return any(self.waiting(k) for k in self.brigade_units(brigade)) and not any(
            self.on_map(k) for k in self.brigade_units(brigade))

    def _division_orders_problem(self, brigade: str) -> RuleError | None:
        if self._arriving(brigade):
            return None  # 002 §9.7: a reinforcement's orders are given as it enters
        if self.pos.brigades[brigade].reserve:
            return RuleError("6.3", f"{brigade} is in Reserve; it takes orders as it leaves")
        if brigade in self.pos.command.get("no_orders", []):
            return RuleError("6.12", f"{brigade}: the chain of command is not intact; its "
                             "orders change only by a roll at its activation")
        return None

    def _orders_problem(self, brigade: str, orders: str) -> RuleError | None:
        """002 §6.14 through :func:`orders.check_march_orders`: March only for an arriving
        formation or one with no unit within 4 hexes and sight of the enemy."""
        if self.fatigue:
            try:
                fatigue.check_orders(self.pos.brigades[brigade].fatigue, orders)
            except RuleError as err:
                return err
        if orders != "march":
            return None
        try:
            check_march_orders(
                "reinforcement_orders" if self._arriving(brigade) else "division_orders",
                reinforcement=self._arriving(brigade),
                any_unit_near_enemy=any(self.near_enemy(h, self.pos.brigades[brigade].seat)
                                        for h in self.brigade_hexes(brigade)))
        except RuleError as err:
            return err
        return None

    def _sight(self, a: Hex, b: Hex) -> bool:
        key = ("los", a, b)
        found = self._memo.get(key)
        if found is None:
            occupied = {h for v in self.pos.units.values()
                        if (h := self.hex_of(v.hex)) is not None}
            found = self._memo[key] = line_of_sight(self.cat.board, a, b,
                                                    blockers=occupied - {a, b}).clear
        return bool(found)

    def near_enemy(self, h: Hex, seat: Seat) -> bool:
        """002 §6.13: within 4 hexes and in sight of an enemy combat unit."""
        return any(h.distance(e) <= 4 and near_enemy(h.distance(e), self._sight(e, h))
                   for e in self.enemy_hexes(seat))

    def _reserve_problem(self, brigade: str) -> RuleError | None:
        """002 §6.31 through :func:`orders.check_reserve` (a brigade leaves Reserve freely
        in this phase: the end segment's IV/B/3 is played here, a reading)."""
        b = self.pos.brigades[brigade]
        if b.reserve:
            return None
        hexes = self.brigade_hexes(brigade)
        if not hexes:
            return RuleError("6.3", f"{brigade} has no unit on the map")
        enemy = self.enemy_hexes(b.seat)
        standing = [ReserveStanding(
            self.cat.board.hexes[h].id,
            min((h.distance(e) for e in enemy), default=None),
            any(h.distance(e) < 10 and self._sight(e, h) for e in enemy)) for h in hexes]
        try:
            check_reserve(standing, night=self._light() == "night")
        except RuleError as err:
            return err
        return None

    def _share_options(self, seat: Seat) -> list[Action]:
        """002 §5.23 1a-1b: a corps commander rated +1 or +2 gives his share to divisions in
        his range (+2 to one or +1 to two; +1 to one; or less), chosen before the transfer."""
        p, cat = self.pos, self.cat
        if seat in p.transferred:
            return []
        out: list[Action] = []
        for cmd, divs in self._commands(seat):
            cl = cat.corps_leader.get(cmd)
            if cl is None or cmd not in p.em:
                continue
            rating = cat.rating(cl, "efficiency")
            eligible = [d for d in divs if d in cat.division_corps
                        and self.division_in_range(d) and self.leader_hex(cl) is not None]
            if rating <= 0 or not eligible:
                continue
            current = self._current_share(cmd, eligible, rating)
            options = [[d] for d in eligible]
            if rating >= 2:
                options += [[a, a] for a in eligible] + [
                    [a, b] for i, a in enumerate(eligible) for b in eligible[i + 1:]]
            for to in options:
                if self._share_of(to) != current:
                    out.append({"type": "share", "corps": cmd, "to": to})
        return out

    def _raise_options(self, seat: Seat) -> list[Action]:
        """002 §5.22: the OC raises up to his initiative rating in corps (+1 each) among
        those whose commanders are on the map in his range, before the transfer; the engine
        starts with the first in id order."""
        p, cat = self.pos, self.cat
        oc = cat.army_leader.get(seat)
        if oc is None or seat in p.transferred:
            return []
        linked = [c for c in p.command.get("oc_linked", []) if c in p.em
                  and cat.corps_leader.get(c) and p.leader_seat.get(
                      cat.corps_leader[c]) == seat]
        count = max(0, cat.rating(oc, "initiative"))
        current = sorted(c for c in p.command.get("oc_bonus", []) if c in linked)
        out: list[Action] = []
        for size in range(1, min(count, len(linked)) + 1):
            for combo in itertools.combinations(linked, size):
                if sorted(combo) != current:
                    out.append({"type": "raise", "corps": list(combo)})
        return out

    def _current_share(self, cmd: str, eligible: list[str], rating: int) -> dict[str, int]:
        found = self.pos.shares.get(cmd)
        if found is not None:
            return dict(found)
        return {eligible[0]: rating} if eligible and rating > 0 else {}

    @staticmethod
    def _share_of(to: list[str]) -> dict[str, int]:
        out: dict[str, int] = {}
        for d in to:
            out[d] = out.get(d, 0) + 1
        return out

    def _transfers(self, seat: Seat) -> list[Action]:
        """002 §5.4 through :func:`efficiency.transfer`: once a turn, 2 AMs from one or two
        divisions give 1 to another; only divisions whose chain reached the OC at II/A
        (§5.42); none below 1 nor above 4 (§5.43)."""
        p = self.pos
        if seat in p.transferred:
            return []
        ok = set(p.command.get("transfer_ok", []))
        divs = [d for d in self.divisions(seat) if d in p.ams and d in ok]
        out: list[Action] = []
        for to in divs:
            donors = [d for d in divs if d != to]
            options = [[a, a] for a in donors] + [
                [a, b] for i, a in enumerate(donors) for b in donors[i + 1:]]
            for frm in options:
                if self._transfer_result(seat, frm, to) is not None:
                    out.append({"type": "transfer", "from": frm, "to": to})
        return out

    def _transfer_result(self, seat: Seat, frm: list[str], to: str) -> dict[str, int] | None:
        taken: dict[str, int] = {}
        for d in frm:
            taken[d] = taken.get(d, 0) + 1
        try:
            return efficiency.transfer(
                self.pos.ams, taken, to, eligible=set(self.pos.command.get("transfer_ok", [])),
                used_this_turn=seat in self.pos.transferred)
        except (RuleError, ValueError):
            return None

    def _roll_problem(self, brigade: str) -> RuleError | None:
        b = self.pos.brigades[brigade]
        if b.rolled:
            return RuleError("6.2", f"{brigade} has rolled for orders this activation")
        if self.leader_hex(self.cat.brigade_leader.get(brigade)) is None:
            return RuleError("6.2", f"{brigade}'s brigadier is not on the map")
        return None

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
        if p.pending is not None and kind not in ("withdraw", "stand", "return_fire", "hold"):
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
        elif kind in ("move", "face"):
            key = action["unit"]
            if key not in p.units or p.units[key].seat != seat:
                raise RuleError("5.3", f"{key!r} is not one of your units")
            if p.brigade is None or self.formation(key) != p.brigade:
                raise RuleError("5.3", f"{key} is not of the active brigade")
            if key not in self.active_units():
                raise RuleError("5.35" if self.moves_allowed(key) > 1 else "5.3",
                                f"{key} has used its move this activation")
            facing = Facing.from_json(action["facing"])
            if kind == "face":
                if facing not in self._turns(key):
                    raise RuleError("7.2", f"{key} may not turn to {facing}")
                return facing
            if not self.may_move(p.brigade):
                raise RuleError("5.34" if p.coordination == "confusion" else "6.23",
                                f"{p.brigade} may spend no MP this activation")
            if self._fired_instead(key):
                raise RuleError("6.15", f"{key} fired: on Advance a unit moves or fires, "
                                "not both (10.32)")
            if facing.kind != facing_kind(self.orders_of(key)):
                raise RuleError("7.1", f"a unit on {self.orders_of(key)} orders faces a "
                                f"{facing_kind(self.orders_of(key))}")
            to = board.parse(action["to"])
            found = self.reach(key).get((to, facing))
            if found is None or to == self.hex_of(p.units[key].hex):
                raise RuleError("9.1", f"{key} cannot reach {action['to']} facing {facing} now "
                                "(terrain, MP, facing, enemy, stacking or its orders' bans)")
            return found
        elif kind == "rally":
            key = action["unit"]
            if key not in p.units or p.units[key].seat != seat:
                raise RuleError("13.41", f"{key!r} is not one of your units")
            if p.brigade is None or self.formation(key) != p.brigade:
                raise RuleError("5.3", f"{key} is not of the active brigade")
            problem = self._rally_problem(key)
            if problem is not None:
                raise problem
        elif kind == "fire":
            if p.brigade is not None and not self.may_fight(p.brigade):
                raise RuleError("5.34", f"{p.brigade} is in Confusion: no fire this AM")
            if p.brigade is not None and shock_step.has_shocked(self, p.brigade):
                raise RuleError("11.11", f"{p.brigade} has shocked: no fire after it")
            return fire_action.check_fire(self, action, seat)
        elif kind == "shock":
            if p.brigade is not None and not self.may_fight(p.brigade):
                raise RuleError("5.34", f"{p.brigade} is in Confusion: no shock this AM")
            return shock_step.check_designation(self, action, seat)
        elif kind in ("withdraw", "stand"):
            shock_step.check_defender(self, action, seat)
        elif kind in ("return_fire", "hold"):
            return_fire.check(self, action, seat)
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
        elif kind == "end_brigade" and p.brigade is None:
            raise RuleError("5.3", "no brigade is acting")
        return None

    def _own_brigade(self, name: Any, seat: Seat) -> str:
        b = self.pos.brigades.get(str(name))
        if b is None or b.seat != seat:
            raise RuleError("5.3", f"{name!r} is not one of your brigades")
        return str(name)

    def execute(self, action: Action, seat: Seat) -> list[Event]:
        try:
            return self._execute(action, seat)
        finally:
            self._memo.clear()  # the position changed

    def _execute(self, action: Action, seat: Seat) -> list[Event]:
        checked = self._check(action, seat)
        kind = action["type"]
        p = self.pos
        ev: list[Event] = []
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
        elif kind == "end_orders":
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
        elif kind == "activate":
            p.brigade = action["brigade"]
            b = p.brigades[p.brigade]
            b.activations += 1
            for k in self.brigade_units(p.brigade):
                u = p.units[k]
                u.moves, u.mp_spent, u.moved, u.charging = 0, 0, False, False
            for u in p.units.values():
                u.fired = []  # fire kinds count per brigade activation (002 §10.31, §10.41)
            ev.append(Event("activate", "5.3", {"brigade": p.brigade, "seat": seat}))
        elif kind == "move":
            ev += self._move(action, checked)
        elif kind == "face":
            u = p.units[action["unit"]]
            free = p.brigade is not None and not self.may_move(p.brigade)
            here = self.hex_of(u.hex)
            turned = None if free or here is None else self.reach(action["unit"]).get(
                (here, checked))
            u.facing = checked
            u.moves += 1
            self._did(action["unit"], "free_facing" if free else "facing")
            u.mp_spent += 0 if turned is None else (turned.half_mp + 1) // 2
            ev.append(Event("face", "7.2", {"unit": action["unit"], "hex": u.hex,
                                            "facing": checked.to_json()}))
        elif kind == "rally":
            key = action["unit"]
            u = p.units[key]
            here = self.hex_of(u.hex)
            first = self.dice.counter
            res = rally(self.dice, combatant_of(self, key), adjacent_enemy=here is not None and any(
                here.distance(e) == 1 for e in self.enemy_hexes(seat)))
            if res.rallied:
                u.disordered = False
            u.lost += res.sp_loss
            u.moves = self.moves_allowed(key)  # its action for this activation
            self._did(key, "rally")
            ev += [dice_event(self.dice.rolls_since(first)),
                   Event("rally", "13.41", res.to_json())]
            ev += self._casualties()
        elif kind == "fire":
            deferred = return_fire.defer(self, action, seat)  # 002 §10.42: an answer?
            ev += fire_action.execute_fire(self, action, seat) if deferred is None else deferred
            self._did(action["unit"], "fire")
            ev += self._casualties()
        elif kind in ("return_fire", "hold"):
            ev += return_fire.answer(self, action, seat)
            ev += self._casualties()
        elif kind == "shock":
            ev += shock_step.designate(self, action, seat)
            ev += self._casualties()
        elif kind == "withdraw":
            ev += shock_step.withdraw(self, action, seat)
            ev += self._casualties()
        elif kind == "stand":
            ev += shock_step.stand(self, action, seat)
            ev += self._casualties()
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
        return ev

    # --- the steps -------------------------------------------------------------------------

    def _refacing(self, brigade: str) -> None:
        """002 §7.1: a change between March and the other orders turns each unit to the
        facing of the new kind nearest its old one (the clockwise neighbour)."""
        kind = facing_kind(self.pos.brigades[brigade].orders)
        for k in self.brigade_units(brigade):
            u = self.pos.units[k]
            if u.facing is not None:
                u.facing = to_kind(u.facing, kind)  # type: ignore[arg-type]

    def _light(self) -> str:
        return all_charts().turn_track.turns()[self.pos.turn].light

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
            return InitiativeSide(p.last_initiative == seat, cat.rating(oc, "initiative"),
                                  spent, corps_near)

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

    def _commands(self, seat: Seat) -> list[tuple[str, list[str]]]:
        """The commands that draw an EM (002 §5.21): each corps with formations in play; the
        Union cavalry's divisions draw one each (the pools chart lists them so)."""
        out: dict[str, list[str]] = {}
        for d in self.divisions(seat):
            corps = self.cat.division_corps.get(d, d)
            cmd = d if corps == "US-Cav" else corps
            out.setdefault(cmd, []).append(d)
        return sorted(out.items())

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
        scen = self.scen.scenario
        turn = turn_label(p.turn)
        cl = cat.corps_leader.get(cmd)

        def standing(d: str) -> efficiency.DivisionStanding:
            dl = cat.division_leader.get(d)
            cap = scen.activation_cap(d, turn) if scen is not None else None
            return efficiency.DivisionStanding(
                d, activation=cat.rating(dl, "activation") if dl else 0,
                leader_on_map=dl is not None and self.leader_hex(dl) is not None,
                in_corps_range=self.division_in_range(d) and cl is not None
                and self.leader_hex(cl) is not None,
                independent=d in INDEPENDENT, cap=None if cap is None else max(1, cap))

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
        """A uniform index in 0..n-1 from d10s read as digits, rejecting the top (logged)."""
        digits = len(str(max(0, n - 1)))
        span = 10 ** digits
        limit = span - span % n
        while True:
            v = 0
            for _ in range(digits):
                v = v * 10 + self.d10(purpose, rule)
            if v < limit:
                return v % n

    def _start_activations(self) -> list[Event]:
        """III/A-B: every division's AMs and each side's March AM into the pool; the
        initiative player picks his first marker (nobody picks after a tie, §5.11)."""
        p = self.pos
        pool: list[str] = []
        for seat in SEATS:
            for d in self.divisions(seat):
                pool += [division_marker(seat, d)] * p.ams.get(d, 1)
            if any(b.seat == seat and b.orders == "march" and not b.reserve and self.in_play(n)
                   for n, b in p.brigades.items()):
                pool.append(march_marker(seat))
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
        return ev + self._activate_marker(marker, chosen=False)

    def _activate_marker(self, marker: str, *, chosen: bool) -> list[Event]:
        p = self.pos
        p.current, p.brigade, p.done_brigades, p.coordination = marker, None, [], None
        p.leaders_moved = []
        for b in p.brigades.values():
            b.stay, b.rolled = False, False
        for u in p.units.values():
            u.moves = 0
        seat, division = marker_parts(marker)
        ev = [Event("marker", "5.1" if chosen else "5.3",
                    {"marker": marker, "seat": seat, "division": division,
                     "march": division is None, "chosen": chosen})]
        p.phase = "orders_change"
        if not self.eligible_brigades():
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
        before = b.orders
        profile = None
        if res.change:
            b.orders = changed_orders(res, wanted)
        if res.stay:
            b.stay = True
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
        data = {"brigade": brigade, "roll": roll, "rating": rating, "total": res.total,
                "with_division_leader": with_div, "with_corps_or_oc": with_top,
                "result": res.result, "before": before, "orders": b.orders,
                "profile": profile}
        return [dice_event(self.dice.rolls_since(first), visible_to=(seat,),
                           redacted={"brigade": brigade}),
                Event("orders_change", "6.2", data, visible_to=(seat,),
                      redacted={"brigade": brigade, "stay": b.stay})]

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
        if frm is None:  # a reinforcement's leaders come on with its first unit (9.7)
            for arr in self.scen.arrivals:
                if u.counter in arr.counters:
                    for ld in arr.leaders:
                        if p.leaders.get(ld) is None:
                            p.leaders[ld] = action["to"]
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
                                                  "rule": c.rule} for c in reach.checks]})]

    def _casualties(self) -> list[Event]:
        """Units with no SP left are eliminated, routed ones leave for their division's
        box (002 §12.13, §12.53): both go off the map for good."""
        ev: list[Event] = []
        for k, u in sorted(self.pos.units.items()):
            if u.hex is None:
                continue
            if u.lost >= self.counter(k).sp or u.routed:
                what = "routed" if u.routed and u.lost < self.counter(k).sp else "eliminated"
                ev.append(Event(what, "12.53" if what == "routed" else "12.13",
                                {"unit": k, "hex": u.hex}))
                u.hex, u.facing = None, None
                self._memo.clear()
        return ev

    def _did(self, key: str, what: str) -> None:
        """Note what a unit did for fatigue (artillery never tires, 002 §17.26)."""
        if unit_class(self.counter(key)) != "artillery":
            self.pos.brigades[self.formation(key)].did.append(what)

    def _end_brigade(self) -> list[Event]:
        p = self.pos
        n = p.brigade
        if n is None:
            return []
        p.done_brigades.append(n)
        p.brigade = None
        ev = [Event("brigade_done", "5.3", {"brigade": n})]
        return ev + self._tire(n)

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
        if not self.fatigue or not fatigue.counts(did):
            return []
        moves = [d for d in did if d in ("move", "road_move")]
        worth = max(1, max((self.pos.units[k].moves for k in self.brigade_units(brigade)),
                           default=1)) if marker_parts(p.current or "")[1] is None else 1
        tally = fatigue.TurnTally(**b.tally) if b.tally else fatigue.TurnTally()
        tally, new = fatigue.after_activation(
            tally, worth=worth, road_march=bool(moves) and all(d == "road_move" for d in moves),
            night_attack=night.attack_activation_tires(
                self._light(), orders=b.orders, counts=True))  # type: ignore[arg-type]
        b.tally = tally.to_json()
        if not new:
            return []
        before = b.fatigue
        b.fatigue = fatigue.raised(b.fatigue, new)
        b.orders = fatigue.forced_orders(b.fatigue, b.orders)
        self._refacing(brigade)
        return [Event("fatigue", "17.22", {"brigade": brigade, "before": before,
                                           "after": b.fatigue,
                                           "marker": fatigue.label(b.fatigue)},
                      visible_to=(b.seat,))]

    def _end_marker(self) -> list[Event]:
        p = self.pos
        marker = p.current
        p.current, p.brigade, p.coordination = None, None, None
        p.done_brigades, p.leaders_moved = [], []
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
            if not self.commanders(seat):
                p.commanders_done.append(seat)
        if len(p.commanders_done) == 2:
            ev += self._end_turn()
        return ev

    def _end_turn(self) -> list[Event]:
        """IV/B recovery (§6.35's reserve actions: fatigue -2, disorder removed, stragglers
        at dusk and night, §16.2; an idle brigade rests a fatigue level off, §17.42), IV/C
        combat effectiveness (002 §13.2-13.3, effectiveness.py), then the next turn."""
        p = self.pos
        ev: list[Event] = []
        light = self._light()
        for n, b in sorted(p.brigades.items()):
            if b.reserve:
                for k in self.brigade_units(n):
                    p.units[k].disordered = False  # 002 §6.35's second step
                if night.stragglers_eligible(light, reserve=True):  # type: ignore[arg-type]
                    ev += self._stragglers(n)
            if self.fatigue:
                was_idle = not b.busy and not b.reserve
                b.fatigue = fatigue.end_of_turn(b.fatigue, reserve_all_turn=b.reserve,
                                                idle_choice="rest" if was_idle else None,
                                                was_idle=was_idle)
            b.activations, b.busy, b.tally = 0, False, {}
        # IV/C combat effectiveness (002 §13.2-13.3)
        ev += effectiveness.phase(self, {k for k, u in p.units.items()
                                         if u.hex is None and not self.gone(k)})
        p.orders_done, p.transferred, p.pool = [], [], []
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

    # --- result and views ------------------------------------------------------------------

    def victory_hexes(self) -> set[str]:
        """Every hex a victory condition names (control, VP objectives, sudden death)."""
        scen = self.scen.scenario
        if scen is None:
            return set()
        out: set[str] = set()
        for c in scen.victory.conditions:
            if isinstance(c, Control):
                out.update(c.hexes)
            elif isinstance(c, VictoryPoints):
                out.update(h for o in c.objectives for h in o.hexes)
            elif isinstance(c, SuddenDeath):
                out.update(h for g in c.geographic for h in g.hexes)
        return out

    def standing(self) -> Standing:
        """The position as :mod:`victory` reads it (CI counts from the last IV/C phase)."""
        p = self.pos
        out_of_command = set(p.command.get("units", []))
        units = tuple(UnitAt(u.hex, u.seat, self.counter(k).arm,  # type: ignore[arg-type]
                             k not in out_of_command)
                      for k, u in sorted(p.units.items()) if u.hex is not None)
        ci_divisions, ci_brigades = effectiveness.counts(self)
        return Standing(turn_label(p.turn), units, dict(p.control),  # type: ignore[arg-type]
                        {h: dict(v) for h, v in p.last_held.items()},  # type: ignore[misc]
                        ci_divisions, ci_brigades)  # type: ignore[arg-type]

    def verdict(self, *, final: bool) -> Verdict | None:
        scen = self.scen.scenario
        if scen is None:
            return None
        return score(scen.victory, self.standing(), final=final, board=self.cat.board)

    def result(self) -> JSONDict | None:
        """The scenario's victory through :func:`victory.score` (004 "Gli scenari": control,
        occupation, the CI differential, victory points, sudden death)."""
        if not self.is_terminal():
            return None
        v = self.verdict(final=True)
        if v is None:
            return {"winner": None, "scored": False}
        return {**v.to_json(), "scored": True}

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
                           "arm": c.arm, "mode": c.mode, "brigade": c.formation}
            if full or u.seat == seat:
                d["moves"] = u.moves
                d["waiting_at"] = self.waiting(k)
                d.update(fired=bool(u.fired), fire_kinds=list(u.fired),
                         mp_spent=u.mp_spent, moved=u.moved, ammo=u.ammo,
                         collapsed=u.collapsed, lost=u.lost)
            units[k] = d
        brigades = {n: b.to_json() for n, b in sorted(p.brigades.items())
                    if full or b.seat == seat}
        leaders = {ld: {"hex": h, "seat": p.leader_seat.get(ld, "")}
                   for ld, h in sorted(p.leaders.items())
                   if full or h is not None or p.leader_seat.get(ld) == seat}
        own_divs = set(self.divisions(seat)) if not full else set(p.ams)
        own_cmds = {c for c, _ in self._commands(seat)} if not full else set(p.em)
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
            "hidden": [] if full else [
                "the enemy's orders, Reserve and fatigue (his brigades' markers, 002 §6)",
                "the enemy's efficiency markers and activation-marker counts (002 §5.2)",
                "the enemy's markers in the pool and the pool's size (002 §5.3)",
                "the order of the pool: no draw exists before it is made (002 §5.3)",
                "the enemy's reinforcements not yet on the map (002 §9.7)"],
            "legal_actions": self.legal_actions(seat) if seat != REFEREE else [],
            "result": self.result(),
        }


#: reach searches by signature (pure: the same inputs give the same answer in any game)
_REACH_CACHE: dict[tuple[Any, ...], dict[tuple[Hex, Facing], Reach]] = {}
_REACH_CACHE_SIZE = 4096
_LEADER_CACHE: dict[tuple[Any, ...], dict[Hex, int]] = {}
_HEXES: dict[str, Hex] = {}


def _towards(h: Hex, enemy: list[Hex], kind: str) -> Facing:
    """The facing of ``kind`` whose front hexes lie nearest the nearest enemy (the lowest
    index on a tie); index 0 with no enemy placed."""
    if not enemy:
        return Facing(kind, 0)  # type: ignore[arg-type]
    target = min(enemy, key=lambda e: (h.distance(e), e.q, e.r))
    span = 1 if kind == "side" else 2
    best = min(range(6), key=lambda d: (sum(h.neighbour((d + i) % 6).distance(target)
                                            for i in range(span)), d))
    return Facing(kind, best)  # type: ignore[arg-type]


def _hex_ok(board: Board, hex_id: str) -> bool:
    try:
        return board.parse(hex_id) in board.hexes
    except (ValueError, KeyError):
        return False


_SETUPS: dict[str, EngineSetup] = {}


def _setup_of(scenario: str) -> EngineSetup:
    """The resolved set-up of a scenario (cached: it is data, the same every time)."""
    found = _SETUPS.get(scenario)
    if found is None:
        cat = catalog()
        found = engine_setup(scenario, cat.oob, cat.board)
        _SETUPS[scenario] = found
    return found


def action_types() -> list[str]:
    return list(ACTION_ORDER)
