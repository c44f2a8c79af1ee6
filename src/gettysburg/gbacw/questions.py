"""The GBACW game's position questions (:class:`EngineQuestions`, the first layer of
:class:`gettysburg.gbacw.game.GbacwGame`): derived data, the protocol's read side, what the
legal list and the checks share (units, leaders, reach, eligibility, orders problems), the
result; and the module's helpers and caches (002 §3.0 and the sections each method cites)."""

from __future__ import annotations

import itertools
import json
from typing import Any

from gettysburg.core.canonical import JSONDict, canonical_json, hash_json, sha256_hex
from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import (
    FORMAT_STATE,
    Action,
    Event,
    Game,
    RuleError,
    Seat,
)
from gettysburg.gbacw import (
    artillery_near,
    barrage_step,
    battle_book_step,
    charge_step,
    coordination,
    drunk,
    effectiveness,
    efficiency,
    engineering_step,
    entry_step,
    fatigue,
    fire_action,
    formation_step,
    imboden,
    mounting,
    night,
    off_map_step,
    orders_step,
    scenario_step,
    sightlines,
)
from gettysburg.gbacw.actions import ACTION_ORDER
from gettysburg.gbacw.board import Board
from gettysburg.gbacw.catalog import catalog
from gettysburg.gbacw.charts import all_charts
from gettysburg.gbacw.command_status import INDEPENDENT, CommandTree, measure
from gettysburg.gbacw.engineering import Sources
from gettysburg.gbacw.facing import Facing
from gettysburg.gbacw.kinds import ARTILLERY_COMMANDS as ARTILLERY_COMMANDS
from gettysburg.gbacw.kinds import COMMANDER_MA as COMMANDER_MA
from gettysburg.gbacw.kinds import EVENT_MARKER as EVENT_MARKER
from gettysburg.gbacw.kinds import LEADER_MA as LEADER_MA
from gettysburg.gbacw.kinds import facing_kind as facing_kind
from gettysburg.gbacw.kinds import unit_class as unit_class
from gettysburg.gbacw.movement import FriendStack, movement_allowance
from gettysburg.gbacw.oob import Counter
from gettysburg.gbacw.orders import (
    ReserveStanding,
    artillery_orders,
    check_march_orders,
    check_reserve,
    near_enemy,
)
from gettysburg.gbacw.paths import Reach, leader_costs, reachable
from gettysburg.gbacw.rally import activation_cap
from gettysburg.gbacw.scenario import Control, SuddenDeath, VictoryPoints
from gettysburg.gbacw.setup import EngineSetup, engine_setup, turn_label
from gettysburg.gbacw.shock import blown_ma
from gettysburg.gbacw.stacking import StackEntry, entry_name, stack_problem
from gettysburg.gbacw.state import (
    SEATS,
    BrigadeState,
    Position,
    marker_parts,
    other,
)
from gettysburg.gbacw.tdg_leaders import check_transfer_parties
from gettysburg.gbacw.victory import Standing, UnitAt, Verdict, score

OPTIONS: dict[str, str] = {"no_fatigue": "17.0", "random_events": "tdg.18.0",
                           "small_arms_ammo": "10.9", "artillery_caution": "9.55",
                           "artillery_close": "9.55", "combined_small_arms": "10.82"}


class EngineQuestions(Game):
    """The first layer of the GBACW game: its data and its questions."""

    system = "gbacw"

    # --- derived data --------------------------------------------------------------------

    def _derive(self) -> None:
        self._memo: dict[Any, Any] = {}  # answers for the position as it stands
        self._placed: dict[Any, Any] | None = None  # see placed()
        # engineering.material_source's answers (002 §15.12): pure, for this game's board
        self.material_sources: Sources = {}
        # unit key -> (its UnitState.text_key, '"key":' + its canonical JSON): state_hash
        self._unit_texts: dict[str, tuple[tuple[Any, ...], str]] = {}
        self.cat = drunk.catalog_for(self)  # fallen posts (002 §12.74), drunks (004 §18.0 L)
        self.scen: EngineSetup = _setup_of(self.setup.scenario)
        self.fatigue = "no_fatigue" not in self.setup.options and self.scen.fatigue
        self.random_events = "random_events" in self.setup.options
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

    def state_hash(self) -> str:
        """:meth:`Game.state_hash`'s value (the SHA-256 of :meth:`hash_material`'s
        canonical JSON), written from parts: each unit's canonical text is kept while its
        fields stay the same (``UnitState.text_key``), so a recorded action encodes only
        the units it changed and the rest of the position (on Third Day the units are five
        sixths of the text). ``tests/test_gbacw_state_hash.py`` checks it against the
        protocol's own at every step of games."""
        head, rest = self.pos.json_parts()
        position = _with_text({**head, **rest}, "units", self._units_text())
        top = {"format": FORMAT_STATE, "setup": self.setup.to_json(),
               "dice": self.dice.state_json()}
        text = _with_text(top, "position", position) if position is not None else None
        if text is None:  # a string of the state holds the slot's text (never seen)
            return hash_json(self.hash_material())
        return sha256_hex(text)

    def _units_text(self) -> str:
        """The canonical JSON of the position's ``units`` (as ``Position.to_json`` writes
        them), each unit's text kept while its :meth:`UnitState.text_key` is unchanged."""
        kept = self._unit_texts
        parts = []
        for k, u in sorted(self.pos.units.items()):
            key = u.text_key()
            got = kept.get(k)
            if got is None or got[0] != key:
                got = kept[k] = (key, f"{json.dumps(k, ensure_ascii=False)}:"
                                      f"{canonical_json(u.to_json())}")
            parts.append(got[1])
        if len(kept) > len(self.pos.units):  # units gone (a position loaded): forget them
            for k in [k for k in kept if k not in self.pos.units]:
                del kept[k]
        return "{" + ",".join(parts) + "}"

    def load_position(self, position: JSONDict) -> None:
        self._derive()
        self.pos = Position.from_json(position)
        imboden.restore(self)  # 004 §18.0 H: this game's schedule has his group

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
        # a divisional battery attached to a brigade acts as part of it (002 §4.32)
        return self.pos.attached.get(key) or self.counter(key).formation

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
        if off_map_step.travelling(self, key):  # 004 §9.88: back by an off-map road
            return off_map_step.entry_hex(self, key)
        found = self._arrival_of.get(u.counter)
        if found is None or found[0] not in self.pos.arrived or self.gone(key):
            return None
        if entry_step.kept_off(self, key):  # 004 §14.72-14.73: held out of the battle
            return None
        if entry_step.held_up(self, found[0]):  # 002 §9.73: an earlier group first
            return None
        return self.pos.entries.get(str(found[0]), found[1])

    def gone(self, key: str) -> bool:
        """Eliminated or routed: off the map for good (002 §12.13, §12.53)."""
        u = self.pos.units[key]
        return u.routed or u.lost >= self.counter(key).sp \
            or battle_book_step.removed(self, key)  # 004 §18.0 Q: scouting

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
            scenario_step.command_status(self, seat, mine)  # 004 sc.3: all in command
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

    def placed(self) -> dict[Any, Any]:
        """Answers that depend only on where the units stand, kept while no unit's hex
        changes: checked against every unit's key and hex at each call (cheap beside the
        answers), so they stay right even when an action moves units between two questions.
        Kept outside ``_memo`` so that actions which move nobody (the orders segment's
        orders, Reserve and works) reuse them."""
        units = self.pos.units
        fp = tuple([u.hex for u in units.values()])
        t = self._placed
        if t is None or t[_PLACED] is not units or t["fp"] != fp or t["keys"] != tuple(units):
            t = self._placed = {_PLACED: units, "fp": fp, "keys": tuple(units)}
        return t

    def keys_at(self, h: Hex | None) -> list[str]:
        """The units whose counter stands in ``h``, in the position's order (a hex index
        kept in the :meth:`placed` table: a stack's units without a scan of the map)."""
        t = self.placed()
        index = t.get("by_hex")
        if index is None:
            index = t["by_hex"] = {}
            for k, u in self.pos.units.items():  # off the map under None, as hex_of says
                index.setdefault(self.hex_of(u.hex), []).append(k)
        return list(index.get(h, ()))

    def enemy_hexes(self, seat: Seat) -> set[Hex]:
        t = self.placed()
        found = t.get(("enemy", seat))
        if found is None:
            found = t[("enemy", seat)] = tuple(
                h for u in self.pos.units.values()
                if u.seat != seat and (h := self.hex_of(u.hex)) is not None)
        # a set filled in the units' order, as before: callers may read it in its order
        return set(found)

    def enemy_artillery(self, seat: Seat) -> set[Hex]:
        return {h for k, u in self.pos.units.items()
                if u.seat != seat and unit_class(self.counter(k)) == "artillery"
                and (h := self.hex_of(u.hex)) is not None}

    def orders_of(self, key: str) -> str:
        # a unit out of command keeps its last orders (002 §4.23, orders_step.py)
        own = self.pos.unit_orders.get(key) or self.pos.brigades[self.formation(key)].orders
        if own == "attack" and self.pos.units[key].blown:
            own = "advance"  # 002 §11.58: Blown cavalry is on Advance orders
        # 002 §6.18: artillery is on Advance, or on March with its formation
        return artillery_orders(own) if unit_class(self.counter(key)) == "artillery" else own

    def stack_entry(self, key: str) -> StackEntry:
        """The unit's stacking entry at its present strength: the limits of 002 §8.12
        count the SP a unit has now, its losses taken off (§12.13)."""
        c = self.counter(key)  # named by its counter, not its name (8 NY Cav#1, #2)
        return StackEntry(entry_name(key, corps=c.corps, name=c.unit, arm=c.arm), c.arm,
                          max(0, c.sp - self.pos.units[key].lost), c.formation,
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
        if self.pos.units[key].blown:  # 002 §11.58: half the disordered MA, rounded up
            ma = blown_ma(c.ma_disordered)
        ma = mounting.activation_ma(self, key, ma)  # 002 §14.22: half in that activation
        ma = movement_allowance(ma, self.orders_of(key), unit_class(c))  # type: ignore[arg-type]
        if self.fatigue and unit_class(c) != "artillery":  # 002 §17.31, artillery exempt
            ma = fatigue.fatigued_ma(ma, self.pos.brigades[self.formation(key)].fatigue)
        return battle_book_step.rain_ma(self, ma)  # 004 §18.0 M

    def friends_of(self, key: str) -> dict[Hex, FriendStack]:
        """Friendly hexes as the mover sees them (002 §8.12, §8.22)."""
        p = self.pos
        seat, orders = p.units[key].seat, self.orders_of(key)
        mover = self.stack_entry(key)
        t = self.placed()
        standing = t.get(("standing", seat))
        if standing is None:  # the seat's units on the map by key, with their hexes
            standing = t[("standing", seat)] = [
                (k, h) for k, u in sorted(p.units.items())
                if u.seat == seat and (h := self.hex_of(u.hex)) is not None]
        stacks: dict[Hex, list[str]] = {}
        for k, h in standing:
            if k != key:
                stacks.setdefault(h, []).append(k)
        out: dict[Hex, FriendStack] = {}
        for h, keys in stacks.items():
            entries = (*(self.stack_entry(k) for k in keys), mover)
            fits = _STACKS_FIT.get((entries, orders))
            if fits is None:
                if len(_STACKS_FIT) >= _STACKS_FIT_SIZE:
                    _STACKS_FIT.clear()
                fits = _STACKS_FIT[(entries, orders)] = stack_problem(entries, orders) is None
            out[h] = FriendStack(
                artillery_only=all(e.kind == "artillery" for e in entries[:-1]),
                march=any(self.orders_of(k) == "march" for k in keys),
                combat=True, can_stack=fits)
        return out

    def reach(self, key: str) -> dict[tuple[Hex, Facing], Reach]:
        """Every (hex, facing) the unit may end its move in now (002 §7, §9 through
        :func:`paths.reachable`; the 4-hex-and-sight ban of March through LOS)."""
        memo = ("reach", key)
        if memo in self._memo:
            return dict(self._memo[memo])
        if formation_step.is_line(self, key):  # an extended line moves as one (002 §8.44)
            found = formation_step.line_reach(self, key)
        elif self.pos.units[key].charging:  # 002 §11.52, §11.57: searched afresh
            found = formation_step.filter_reach(
                self, key, self._reach(key, charge_step.budget(self, key), charge=True))
        else:
            sig = (*self._reach_signature(key), formation_step.signature(self, key))
            cached = _REACH_CACHE.get(sig)
            if cached is None:
                cached = self._reach(key)
                _REACH_CACHE[sig] = cached
                while len(_REACH_CACHE) > _REACH_CACHE_SIZE:
                    _REACH_CACHE.pop(next(iter(_REACH_CACHE)))
            cached = entry_step.area_reach(self, key, cached)  # 004 §9.76
            found = formation_step.filter_reach(self, key, cached)  # 002 §7.11, §8.44, §8.5
        found = artillery_near.filter_reach(self, key, found)  # 002 §9.55's options
        found = entry_step.queue_filter(self, key, found)  # 002 §9.72
        found = charge_step.charge_path_filter(self, key, found)  # 002 §11.54
        found = scenario_step.filter_reach(self, key, found)  # 004 sc.3 north limit
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
                u.disordered, self.orders_of(key), near, self.mp_of(key),
                tuple((b["hex"], b["vertex"]) for b in p.breastworks))

    def _reach(self, key: str, mp: int | None = None, *, charge: bool = False
               ) -> dict[tuple[Hex, Facing], Reach]:
        """The search from the unit's hex; ``mp``: a budget other than its MA (a charge
        moving on, 002 §11.57), with no minimum move (§9.42); ``charge``: a charging unit,
        which may end next to the enemy disordered (§11.52 lifts §12.34's ban)."""
        p, board = self.pos, self.cat.board
        u = p.units[key]
        c = self.counter(key)
        seat, orders, cls = u.seat, self.orders_of(key), unit_class(c)
        enemy = self.enemy_hexes(seat) | formation_step.enemy_parts(self, seat)

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
        return reachable(board, start, facing,
                         formation_step.budget(self, key) if mp is None else mp,
                         unit_class=cls,
                         orders=orders, enemy=enemy,  # type: ignore[arg-type]
                         use_paths=formation_step.may_use_roads(self, key),  # 002 §8.13
                         friends=self.friends_of(key),
                         enemy_artillery=self.enemy_artillery(seat), sees=sees,
                         full_ma=c.ma if mp is None else None, disordered=u.disordered,
                         mp_disordered=c.ma_disordered, entering=entering,
                         breastwork_sides=engineering_step.guarded(self),  # 002 §15.22
                         approach_ban=not charge)

    def _entry_facing(self, entry: Hex, kind: str) -> Facing:
        """A reinforcement comes on facing into the map (its first front hex on it)."""
        for d in range(6):
            if entry.neighbour(d) in self.cat.board.hexes:
                return Facing(kind, d)  # type: ignore[arg-type]
        return Facing(kind, 0)  # type: ignore[arg-type]

    def destinations(self, key: str) -> list[tuple[Hex, Facing]]:
        """The moves a unit may make (its reach less staying where it is), in a fixed
        order: by hex (q, r), then facing. Kept for the position as it stands (``_memo``,
        as the reach it reads; with the unit's hex and Loose Cannon task in the key): the
        legal list and a Loose Cannon's owed moves (``orders_step.owes_move``, asked twice a
        list) read it for the same units."""
        u = self.pos.units[key]
        memo = ("destinations", key, u.hex, self.pos.lc_tasks.get(key))
        got = self._memo.get(memo)
        if got is None:
            here = self.hex_of(u.hex)
            line = formation_step.is_line(self, key)  # a line's pivot may keep its hex
            got = self._memo[memo] = orders_step.lc_destinations(self, key, sorted(
                (k for k in self.reach(key) if k[0] != here or line),  # Loose Cannon: 6.24
                key=lambda k: (k[0].q, k[0].r, k[1].kind, k[1].index)))
        return list(got)

    def movable_leaders(self) -> list[str]:
        """Leaders who may move now (002 §9.3): the active brigade's brigadier, and the
        drawn division's leader (on the March AM, the leaders of the March brigades, §6.19),
        each once an activation; corps commanders and the OC move only in IV/A."""
        p, cat = self.pos, self.cat
        if p.current is None or p.phase != "action":
            return []
        seat, division = marker_parts(p.current)
        out: list[str] = []
        out += [cat.brigade_leader.get(n, "") for n in self.active_brigades()]  # §5.34
        if division is not None:
            out.append(cat.division_leader.get(division, ""))
        return sorted({ld for ld in out if ld and p.leaders.get(ld) is not None
                       and p.leader_seat.get(ld) == seat and ld not in p.leaders_moved})

    def leader_moves(self, leader: str) -> list[Hex]:
        """Where a leader may go with his 10 MP (002 §4.16, §9.3: any direction, the best
        road rate, never next to the enemy unless onto friends)."""
        here = self.leader_hex(leader)
        ma = drunk.leader_ma(self, leader, LEADER_MA)  # 004 §18.0 L
        return sorted((h for h in self.leader_reach(leader, ma) if h != here),
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

    def active_brigades(self) -> tuple[str, ...]:
        """The brigades acting now: the active one, or its coordinated group (002 §5.34)."""
        return coordination.active_brigades(self.pos.brigade, self.pos.coordinated)

    def in_activation(self, key: str) -> bool:
        """Whether the unit belongs to a brigade acting now (002 §5.33, §5.34)."""
        return self.formation(key) in self.active_brigades()

    def activation_units(self) -> list[str]:
        """Every unit of the brigades acting now (002 §5.34: a group acts as one)."""
        return [k for n in self.active_brigades() for k in self.brigade_units(n)]

    def active_units(self) -> list[str]:
        """Units of the active brigade (or group) that may still move or turn."""
        p = self.pos
        return [k for k in self.activation_units()
                if (self.on_map(k) or self.waiting(k)) and p.units[k].moves < self.moves_allowed(k)
                and orders_step.may_act(self, k)]  # 002 §5.36

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
        if (late := orders_step.act_problem(self, key)) is not None:
            return late  # 002 §5.36
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
            if (b.seat != seat or b.reserve or n in p.done_brigades or not self.in_play(n)
                    or battle_book_step.finished(self, n)  # 004 §18.0 A
                    or battle_book_step.warren_excludes(self, n)):  # 004 §14.5
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
                cap = battle_book_step.warren_cap(self, n, cap)  # 004 §14.5
                if b.activations < cap:
                    out.append(n)
        return out

    def legal_facings(self, key: str) -> list[Facing]:
        kind = facing_kind(self.orders_of(key))
        return [Facing(kind, i) for i in range(6)]  # type: ignore[arg-type]

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
            return None  # 002 §6.35: free, whatever the chain (Attack or Advance)
        if brigade in self.pos.command.get("no_orders", []):
            return RuleError("6.12", f"{brigade}: the chain of command is not intact; its "
                             "orders change only by a roll at its activation")
        return None

    def _orders_problem(self, brigade: str, orders: str) -> RuleError | None:
        """002 §6.14 through :func:`orders.check_march_orders`: March only for an arriving
        formation or one with no unit within 4 hexes and sight of the enemy."""
        if (fixed := scenario_step.fixed_orders(self, brigade, orders)) is not None:
            return fixed  # 004 §14.77: Imboden stays on Advance
        if self.pos.brigades[brigade].reserve and orders == "march":
            return RuleError("6.35", "a formation in Reserve takes Attack or Advance orders")
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
            found = self._memo[key] = self._sight_in(self.placed(), a, b)
        return bool(found)

    def _sight_in(self, t: dict[Any, Any], a: Hex, b: Hex) -> bool:
        """Sight from ``a`` to ``b`` through the units standing as in ``t`` (a
        :meth:`placed` table, where the answer is kept while nobody moves)."""
        key = ("los", a, b)
        found = t.get(key)
        if found is None:
            occupied = t.get("occupied")
            if occupied is None:
                occupied = t["occupied"] = frozenset(
                    h for v in self.pos.units.values() if (h := self.hex_of(v.hex)) is not None)
            found = t[key] = sightlines.clear(self.cat.board, a, b, occupied)
        return bool(found)

    def _enemy_spots(self, t: dict[Any, Any], seat: Seat) -> tuple[Hex, ...]:
        """The enemy's hexes once each (first-seen order), from a :meth:`placed` table."""
        found = t.get(("spots", seat))
        if found is None:
            self.enemy_hexes(seat)
            found = t[("spots", seat)] = tuple(dict.fromkeys(t[("enemy", seat)]))
        return found

    def near_enemy(self, h: Hex, seat: Seat) -> bool:
        """002 §6.13: within 4 hexes and in sight of an enemy combat unit (kept in the
        :meth:`placed` table: it depends on where the units stand alone)."""
        t = self.placed()
        key = ("near", h, seat)
        found = t.get(key)
        if found is None:
            found = t[key] = any(
                h.distance(e) <= 4 and near_enemy(h.distance(e), self._sight_in(t, e, h))
                for e in self._enemy_spots(t, seat))
        return bool(found)

    def _reserve_problem(self, brigade: str) -> RuleError | None:
        """002 §6.31 through :func:`orders.check_reserve` (a brigade leaves Reserve freely
        in this phase: the end segment's IV/B/3 is played here, a reading). The answer is
        kept in the :meth:`placed` table by the brigade's hexes, seat and light."""
        b = self.pos.brigades[brigade]
        if b.reserve:
            return None
        hexes = self.brigade_hexes(brigade)
        if not hexes:
            return RuleError("6.3", f"{brigade} has no unit on the map")
        night = self._light() == "night"
        t = self.placed()
        key = ("reserve", tuple(hexes), b.seat, night)
        if key in t:  # a fresh error each time: a raised one carries its traceback
            kept = t[key]
            return None if kept is None else RuleError(kept.rule, kept.message)
        enemy = self._enemy_spots(t, b.seat)
        standing = [ReserveStanding(
            self.cat.board.hexes[h].id,
            min((h.distance(e) for e in enemy), default=None),
            any(h.distance(e) < 10 and self._sight_in(t, e, h) for e in enemy)) for h in hexes]
        problem: RuleError | None = None
        try:
            check_reserve(standing, night=night)
        except RuleError as err:
            problem = err
        t[key] = problem
        return problem

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
        (§5.42); none below 1 nor above 4 (§5.43). None while Lee is paralysed (004 §18.0 S)."""
        p = self.pos
        if seat in p.transferred or battle_book_step.lee_paralysed(self, seat):
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
            # 004 §4.36: Hunt's artillery AMs neither give nor receive
            check_transfer_parties([*frm, to], ARTILLERY_COMMANDS)
            return efficiency.transfer(
                self.pos.ams, taken, to, eligible=set(self.pos.command.get("transfer_ok", [])),
                used_this_turn=seat in self.pos.transferred)
        except (RuleError, ValueError):
            return None

    def _roll_problem(self, brigade: str) -> RuleError | None:
        b = self.pos.brigades[brigade]
        if (fixed := scenario_step.fixed_orders(self, brigade)) is not None:
            return fixed  # 004 §14.77: Imboden never rolls to change
        if b.rolled:
            return RuleError("6.2", f"{brigade} has rolled for orders this activation")
        if self.leader_hex(self.cat.brigade_leader.get(brigade)) is None:
            return RuleError("6.2", f"{brigade}'s brigadier is not on the map")
        return None

    def _light(self) -> str:
        return all_charts().turn_track.turns()[self.pos.turn].light

    def _commands(self, seat: Seat) -> list[tuple[str, list[str]]]:
        """The commands that draw an EM (002 §5.21): each corps with formations in play; the
        Union cavalry's divisions draw one each (the pools chart lists them so)."""
        out: dict[str, list[str]] = {}
        for d in self.divisions(seat):
            corps = self.cat.division_corps.get(d, d)
            cmd = d if corps == "US-Cav" else corps
            out.setdefault(cmd, []).append(d)
        out.update(barrage_step.extra_commands(self, seat))  # 004 §4.35: Pendleton (E-29)
        return sorted(out.items())

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


#: a string no state holds, standing for a part written apart (state_hash)
_SLOT = "\x00gbacw-slot\x00"
_SLOT_TEXT = canonical_json(_SLOT)


def _with_text(d: JSONDict, key: str, text: str | None) -> str | None:
    """The canonical JSON of ``d`` with ``key`` holding the value whose canonical text is
    ``text`` (sorted keys: the slot's place is the key's); None when a value of ``d``
    already holds the slot's text."""
    if text is None:
        return None
    whole = canonical_json({**d, key: _SLOT})
    if whole.count(_SLOT_TEXT) != 1:
        return None
    return whole.replace(_SLOT_TEXT, text)


#: reach searches by signature (pure: the same inputs give the same answer in any game)
_REACH_CACHE: dict[tuple[Any, ...], dict[tuple[Hex, Facing], Reach]] = {}
_REACH_CACHE_SIZE = 4096
_LEADER_CACHE: dict[tuple[Any, ...], dict[Hex, int]] = {}
_HEXES: dict[str, Hex] = {}
_PLACED = "placed"
#: whether a stack (its entries, the mover last) keeps the limits of 002 §8.12 under the
#: orders: :func:`stacking.stack_problem` is pure, and the same stacks recur all game
_STACKS_FIT: dict[tuple[tuple[StackEntry, ...], str], bool] = {}
_STACKS_FIT_SIZE = 100_000


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
