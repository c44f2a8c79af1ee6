"""The GBACW game on the core protocol (:class:`gettysburg.core.protocol.Game`).

The position is :class:`gettysburg.gbacw.state.Position`; the turn follows
:mod:`gettysburg.gbacw.sequence` (002 §3.0); the actions are
:mod:`gettysburg.gbacw.actions`'. Automatic steps (initiative, efficiency draws, the blind
draws from the activation-marker pool, the coordination roll, the end segment) run inside
the action that leads to them, so ``to_move`` always names a seat with a real choice.
Fire and shock (issue 53) are not built: a brigade moves and turns.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
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
from gettysburg.gbacw import interim, sequence
from gettysburg.gbacw.actions import ACTION_ORDER, check_shape
from gettysburg.gbacw.board import Board, load_board
from gettysburg.gbacw.charts import all_charts
from gettysburg.gbacw.facing import Facing
from gettysburg.gbacw.oob import Counter, Oob, default_oob
from gettysburg.gbacw.setup import EngineSetup, engine_setup, turn_label
from gettysburg.gbacw.state import (
    SEAT_OF_SIDE,
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

OPTIONS: dict[str, str] = {"no_fatigue": "17.0"}
MARCH_MOVES = 4  # the March AM moves a unit up to four activations' worth (002 §5.35)


@dataclass(frozen=True)
class Catalog:
    """What the OOB says of every piece, looked up once (never saved: it is the data)."""

    oob: Oob
    board: Board
    counters: dict[str, Counter]
    brigade_leader: dict[str, str]  # formation id -> leader id
    division_leader: dict[str, str]
    corps_leader: dict[str, str]
    army_leader: dict[Seat, str]
    leader_seat: dict[str, Seat]
    leader_level: dict[str, str]
    leader_command: dict[str, str]
    division_corps: dict[str, str]

    def rating(self, leader: str, key: str, default: int = 0) -> int:
        value = self.oob.rating(leader, key)
        return default if value is None else int(value)


@lru_cache(maxsize=1)
def catalog() -> Catalog:
    oob, board = default_oob(), load_board()
    brig: dict[str, str] = {}
    div: dict[str, str] = {}
    corps: dict[str, str] = {}
    army: dict[Seat, str] = {}
    seat_of: dict[str, Seat] = {}
    level: dict[str, str] = {}
    command: dict[str, str] = {}
    div_corps: dict[str, str] = {}
    for _, c in oob.corps():
        for d in c.divisions:
            div_corps[d.id] = c.id
    for rec in oob.leaders:
        ld = rec.leader
        seat_of[ld.id] = SEAT_OF_SIDE[rec.side]
        level[ld.id] = ld.level
        command[ld.id] = rec.command
        if not rec.command:
            continue
        if ld.level in ("brigade", "artillery"):
            brig.setdefault(rec.command, ld.id)
        elif ld.level == "division":
            div[rec.command] = ld.id
        elif ld.level == "corps":
            corps[rec.command] = ld.id
        elif ld.level == "army":
            army[SEAT_OF_SIDE[rec.side]] = ld.id
    return Catalog(oob, board, {c.id: c for c in oob.counters()}, brig, div, corps, army,
                   seat_of, level, command, div_corps)


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
        for seat in SEATS:
            for p in s.pieces.get(seat, []):
                c = cat.counters[p.counter]
                kind = facing_kind(p.orders)
                facing = Facing(kind, p.facing or 0)  # type: ignore[arg-type]
                pos.units[unit_key(p.counter)] = UnitState(p.counter, seat, p.hex, facing)
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
        self.pos = pos
        self.record(Event("setup", "3.0", {"scenario": s.id, "title": s.title,
                                            "turn": turn_label(s.first_turn),
                                            "last_turn": turn_label(s.last_turn)}))
        for e in self._begin_turn():
            self.record(e)

    # --- derived data --------------------------------------------------------------------

    def _derive(self) -> None:
        self.cat = catalog()
        self.scen: EngineSetup = _setup_of(self.setup.scenario)
        self.fatigue = "no_fatigue" not in self.setup.options and self.scen.fatigue

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
        if p.phase in ("orders_change", "action") and p.current is not None:
            return [marker_parts(p.current)[0]]
        return []

    def _orders_seat(self) -> Seat:
        first = self.pos.initiative or SEATS[0]
        return first if first not in self.pos.orders_done else other(first)

    # --- questions the checks and the legal list share --------------------------------------

    def hex_of(self, hex_id: str | None) -> Hex | None:
        return None if hex_id is None else self.cat.board.parse(hex_id)

    def counter(self, key: str) -> Counter:
        return self.cat.counters[self.pos.units[key].counter]

    def formation(self, key: str) -> str:
        return self.counter(key).formation

    def brigade_units(self, brigade: str) -> list[str]:
        return [k for k in sorted(self.pos.units) if self.formation(k) == brigade]

    def on_map(self, key: str) -> bool:
        return self.pos.units[key].hex is not None

    def waiting(self, key: str) -> str | None:
        """The entry hex of a reinforcement due and not yet on the map (002 §9.7)."""
        u = self.pos.units[key]
        if u.hex is not None:
            return None
        for i, arr in enumerate(self.scen.arrivals):
            if i in self.pos.arrived and u.counter in arr.counters:
                return arr.hex
        return None

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
        """002 §4.2 (interim ranges): the brigadier within his division leader's range (a
        brigade straight under a corps: within the corps commander's)."""
        b = self.pos.brigades[brigade]
        cat = self.cat
        bl = self.leader_hex(cat.brigade_leader.get(brigade))
        top = cat.division_leader.get(b.division or "") or cat.corps_leader.get(b.corps)
        if top is None:
            return bl is not None
        return interim.in_range(self.leader_hex(top), bl, cat.rating(top, "command_range", 5))

    def division_in_range(self, division: str) -> bool:
        cat = self.cat
        dl = cat.division_leader.get(division)
        cl = cat.corps_leader.get(cat.division_corps.get(division, ""))
        if dl is None or cl is None:
            return True
        return interim.in_range(self.leader_hex(cl), self.leader_hex(dl),
                                cat.rating(cl, "command_range", 10))

    def enemy_hexes(self, seat: Seat) -> set[Hex]:
        return {h for u in self.pos.units.values()
                if u.seat != seat and (h := self.hex_of(u.hex)) is not None}

    def enemy_artillery(self, seat: Seat) -> set[Hex]:
        return {h for k, u in self.pos.units.items()
                if u.seat != seat and unit_class(self.counter(k)) == "artillery"
                and (h := self.hex_of(u.hex)) is not None}

    def orders_of(self, key: str) -> str:
        return self.pos.brigades[self.formation(key)].orders

    def sp_in(self, hex_id: str, cls: str, but: str) -> int:
        return sum(self.counter(k).sp for k, u in self.pos.units.items()
                   if u.hex == hex_id and k != but and unit_class(self.counter(k)) == cls)

    def moves_allowed(self, key: str) -> int:
        p = self.pos
        if p.current is not None and marker_parts(p.current)[1] is None:
            return MARCH_MOVES
        return 1

    def mp_of(self, key: str) -> int:
        """002 §9.1-9.2: the counter's MA (its disordered MA), halved under Attack."""
        c = self.counter(key)
        ma = c.ma_disordered if self.pos.units[key].disordered else c.ma
        return max(1, ma // 2) if self.orders_of(key) == "attack" else ma

    def reach(self, key: str) -> dict[Hex, tuple[int, tuple[Hex, ...]]]:
        """Where a unit of the active brigade may end its move now (interim paths)."""
        u = self.pos.units[key]
        seat, orders, cls = u.seat, self.orders_of(key), unit_class(self.counter(key))
        enemy = self.enemy_hexes(seat)
        artillery = self.enemy_artillery(seat)
        near = {n for h in enemy for n in (h.neighbour(d) for d in range(6))}
        near_inf = {n for h in enemy - artillery for n in (h.neighbour(d) for d in range(6))}
        board = self.cat.board

        def forbidden(h: Hex) -> bool:
            if orders == "march" and any(interim.hex_distance(h, e) <= 1 for e in enemy):
                return True  # 002 §6.13: never adjacent; the 4-hex + LOS ban needs los.py
            if orders == "advance" and h in near_inf:
                return True  # 002 §6.15
            return cls == "artillery" and h in near  # 002 §9.5

        start = self.hex_of(u.hex)
        entering = start is None
        if start is None:
            entry = self.waiting(key)
            if entry is None:
                return {}
            start = board.parse(entry)
        found = interim.reachable(board, start, self.mp_of(key), unit_class=cls,
                                  orders=orders, blocked=enemy, stop=lambda h: h in near,
                                  forbidden=forbidden, entering=entering)
        c = self.counter(key)
        return {h: v for h, v in found.items() if (h != start or entering)
                and interim.stack_ok(cls, orders, self.sp_in(board.hexes[h].id, cls, key),
                                     c.sp)}

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
            if (division is None and march) or (b.division == division and not march):
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
            out.append({"type": "end_orders_change"})
        elif p.phase == "action":
            if p.brigade is None:
                out += [{"type": "activate", "brigade": n} for n in self.eligible_brigades()]
            else:
                moving = self.may_move(p.brigade)
                for k in self.active_units():
                    if moving:
                        reach = self.reach(k)
                        for h in sorted(reach, key=lambda x: (x.q, x.r)):
                            hid = self.cat.board.hexes[h].id
                            out += [{"type": "move", "unit": k, "to": hid,
                                     "facing": f.to_json()} for f in self.legal_facings(k)]
                    out += [{"type": "face", "unit": k, "facing": f.to_json()}
                            for f in self._turns(k)]
                out.append({"type": "end_brigade"})
            out.append({"type": "end_activation"})
        return out

    def _turns(self, key: str) -> list[Facing]:
        u = self.pos.units[key]
        if u.hex is None or u.facing is None:
            return []
        choices = [f for f in self.legal_facings(key) if f != u.facing]
        if self.pos.brigade is not None and not self.may_move(self.pos.brigade):
            # 002 §5.34 / §6.23: one vertex only, without MP
            return [f for f in choices if f.kind == u.facing.kind
                    and min((f.index - u.facing.index) % 6, (u.facing.index - f.index) % 6) == 1]
        return choices

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
        b = self.pos.brigades[brigade]
        if not self.brigadier_in_command(brigade) or not (
                b.division is None or self.division_in_range(b.division)):
            return RuleError("6.12", f"{brigade}: the chain of command is not intact; its "
                             "orders change only by a roll at its activation")
        return None

    def _orders_problem(self, brigade: str, orders: str) -> RuleError | None:
        if orders == "march":
            enemy = self.enemy_hexes(self.pos.brigades[brigade].seat)
            for h in self.brigade_hexes(brigade):
                if any(interim.hex_distance(h, e) <= 4 for e in enemy):
                    return RuleError("6.14", f"{brigade} has a unit within 4 hexes of the "
                                     "enemy; March orders may not be given")
        return None

    def _reserve_problem(self, brigade: str) -> RuleError | None:
        b = self.pos.brigades[brigade]
        if b.reserve:
            return None  # leaving Reserve is free in this phase (interim for IV/B/3)
        light = self._light()
        need = 5 if light == "night" else 10  # interim: LOS unknown, so the 10-hex test
        enemy = self.enemy_hexes(b.seat)
        if not self.brigade_hexes(brigade):
            return RuleError("6.3", f"{brigade} has no unit on the map")
        for h in self.brigade_hexes(brigade):
            if any(interim.hex_distance(h, e) < need for e in enemy):
                return RuleError("6.31", f"{brigade} has a unit within {need - 1} hexes of "
                                 "the enemy")
        return None

    def _transfers(self, seat: Seat) -> list[Action]:
        """002 §5.4: 2 AMs from one or two divisions give one more to a third, once a turn;
        none drops below 1 or passes 4."""
        p = self.pos
        if seat in p.transferred:
            return []
        divs = [d for d in self.divisions(seat) if d in p.ams]
        out: list[Action] = []
        for to in divs:
            if p.ams[to] >= 4:
                continue
            donors = [d for d in divs if d != to]
            for i, a in enumerate(donors):
                if p.ams[a] >= 3:
                    out.append({"type": "transfer", "from": [a, a], "to": to})
                for b in donors[i + 1:]:
                    if p.ams[a] >= 2 and p.ams[b] >= 2:
                        out.append({"type": "transfer", "from": [a, b], "to": to})
        return out

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
        if kind == "transfer":
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
            if facing.kind != facing_kind(self.orders_of(key)):
                raise RuleError("7.1", f"a unit on {self.orders_of(key)} orders faces a "
                                f"{facing_kind(self.orders_of(key))}")
            to = board.parse(action["to"])
            reach = self.reach(key)
            if to not in reach:
                raise RuleError("9.1", f"{key} cannot reach {action['to']} now (terrain, MP, "
                                "enemy, stacking or its orders' bans)")
            return reach[to]
        elif kind == "end_brigade" and p.brigade is None:
            raise RuleError("5.3", "no brigade is acting")
        return None

    def _own_brigade(self, name: Any, seat: Seat) -> str:
        b = self.pos.brigades.get(str(name))
        if b is None or b.seat != seat:
            raise RuleError("5.3", f"{name!r} is not one of your brigades")
        return str(name)

    def execute(self, action: Action, seat: Seat) -> list[Event]:
        checked = self._check(action, seat)
        kind = action["type"]
        p = self.pos
        ev: list[Event] = []
        if kind == "transfer":
            for d in action["from"]:
                p.ams[d] -= 1
            p.ams[action["to"]] += 1
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
        elif kind == "end_orders_change":
            ev += self._coordinate()
        elif kind == "activate":
            p.brigade = action["brigade"]
            b = p.brigades[p.brigade]
            b.activations += 1
            for k in self.brigade_units(p.brigade):
                p.units[k].moves = 0
            ev.append(Event("activate", "5.3", {"brigade": p.brigade, "seat": seat}))
        elif kind == "move":
            ev += self._move(action, checked)
        elif kind == "face":
            u = p.units[action["unit"]]
            u.facing = checked
            u.moves += 1
            ev.append(Event("face", "7.2", {"unit": action["unit"], "hex": u.hex,
                                            "facing": checked.to_json()}))
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
            if u.facing is not None and u.facing.kind != kind:
                u.facing = Facing(kind, u.facing.index)  # type: ignore[arg-type]

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
            if arr.turn == p.turn and i not in p.arrived:
                p.arrived.append(i)
                for ld in arr.leaders:
                    p.leaders[ld] = arr.hex
                ev.append(Event("reinforcements", "9.7", {"group": arr.id, "seat": arr.seat,
                                                          "hex": arr.hex}))
        ev += self._initiative()
        ev += self._efficiency()
        p.phase = "orders"
        return ev

    def _initiative(self) -> list[Event]:
        """002 §5.1: a d10 each, +1 to last turn's holder, + the OC's initiative rating when
        he is on the map (interim for his range and movement); a tie gives nobody."""
        p = self.pos
        if p.turn == self.scen.first_turn and p.first_initiative is not None:
            p.initiative = p.first_initiative
            return [Event("initiative", "5.1", {"seat": p.initiative, "scenario": True})]
        first = self.dice.counter
        totals: dict[str, int] = {}
        rolls: dict[str, int] = {}
        for seat in SEATS:
            r = self.d10(f"initiative {seat}", "5.1")
            oc = self.cat.army_leader.get(seat)
            bonus = self.cat.rating(oc, "initiative") if oc and self.pos.leaders.get(oc) else 0
            rolls[seat] = r
            totals[seat] = r + bonus + (1 if p.last_initiative == seat else 0)
        winner = None if totals["usa"] == totals["csa"] else max(totals, key=lambda s: totals[s])
        p.initiative = winner
        p.last_initiative = winner
        return [dice_event(self.dice.rolls_since(first)),
                Event("initiative", "5.1", {"rolls": rolls, "totals": totals,
                                            "seat": winner})]

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
        p.em, p.ams = {}, {}
        ev: list[Event] = []
        for seat in SEATS:
            cup = list(all_charts().efficiency_pools.pool(seat))
            first = self.dice.counter
            drawn: dict[str, int] = {}
            for cmd, divs in self._commands(seat):
                if not cup:
                    break
                i = self._uniform(len(cup), f"efficiency {seat} {cmd}", "5.21")
                value = cup.pop(i)
                drawn[cmd] = value
                p.em[cmd] = value
                self._division_ams(cmd, divs, value)
            ams = {d: p.ams[d] for _, divs in self._commands(seat) for d in divs if d in p.ams}
            rolls = self.dice.rolls_since(first)
            if rolls:
                ev.append(dice_event(rolls, visible_to=(seat,)))
            ev.append(Event("efficiency", "5.2", {"seat": seat, "em": drawn, "ams": ams},
                            visible_to=(seat,),
                            redacted={"seat": seat, "note": "efficiency markers drawn"}))
        return ev

    def _division_ams(self, cmd: str, divs: list[str], em: int) -> None:
        """002 §5.22-5.25 through the interim arithmetic; a scenario's count wins (004)."""
        cat, p = self.cat, self.pos
        cl = cat.corps_leader.get(cmd)
        rating = cat.rating(cl, "efficiency") if cl else 0
        bonus_left = rating if rating > 0 else 0
        scen = self.scen.scenario
        for d in divs:
            dl = cat.division_leader.get(d)
            in_range = self.division_in_range(d)
            bonus = 0
            if bonus_left and in_range:
                bonus, bonus_left = bonus_left, 0  # interim: all to the first in range
            has_cc = cl is not None and d in cat.division_corps
            value = interim.division_ams(
                em, corps_rating=rating, in_corps_range=in_range, bonus=bonus,
                activation=cat.rating(dl, "activation") if dl and p.leaders.get(dl) else 0,
                has_corps_commander=has_cc)
            cap = scen.activation_cap(d, turn_label(p.turn)) if scen is not None else None
            p.ams[d] = value if cap is None else max(1, cap)

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
            return self._end_turn()
        first = self.dice.counter
        i = self._uniform(len(p.pool), "activation draw", "5.3")
        marker = p.pool.pop(i)
        ev = [dice_event(self.dice.rolls_since(first), visible_to=())]
        return ev + self._activate_marker(marker, chosen=False)

    def _activate_marker(self, marker: str, *, chosen: bool) -> list[Event]:
        p = self.pos
        p.current, p.brigade, p.done_brigades, p.coordination = marker, None, [], None
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
        """002 §6.2: d10 + orders rating + 1 stacked with the division leader + 2 with the
        corps commander or OC; the chart gives the result; Loose Cannon by profile (§6.24:
        the orders it sets; its moves wait for the movement and combat modules)."""
        cat, p = self.cat, self.pos
        b = p.brigades[brigade]
        b.rolled = True
        bl = cat.brigade_leader.get(brigade)
        here = p.leaders.get(bl or "")
        mods: list[str] = []
        if here is not None:
            if p.leaders.get(cat.division_leader.get(b.division or "", "")) == here:
                mods.append("with-division-leader")
            if here in (p.leaders.get(cat.corps_leader.get(b.corps, "")),
                        p.leaders.get(cat.army_leader.get(seat, ""))):
                mods.append("with-corps-commander-or-oc")
        first = self.dice.counter
        roll = self.d10(f"orders change {brigade}", "6.2")
        rating = cat.rating(bl, "orders") if bl else 0
        res = all_charts().orders_change.result(roll, orders_rating=rating, modifiers=mods)
        before = b.orders
        profile = None
        if res.change:
            b.orders = wanted
        if res.stay:
            b.stay = True
        if res.id == "loose-cannon":
            prof = str(cat.oob.rating(bl, "profile") or "N") if bl else "N"
            if prof == "U":
                u = self.d10(f"loose cannon {brigade}", "6.24")
                prof = "A" if u <= 2 else "N" if u <= 6 else "C"
            profile = prof
            if prof == "A" and before != "march":
                b.orders = "attack"
            elif prof == "C":
                b.orders = "advance"
        self._refacing(brigade)
        data = {"brigade": brigade, "roll": roll, "modifiers": mods, "rating": rating,
                "result": res.id, "before": before, "orders": b.orders, "profile": profile}
        return [dice_event(self.dice.rolls_since(first), visible_to=(seat,),
                           redacted={"brigade": brigade}),
                Event("orders_change", "6.2", data, visible_to=(seat,),
                      redacted={"brigade": brigade, "stay": b.stay})]

    def _coordinate(self) -> list[Event]:
        """002 §5.34: one d10 + the division leader's coordination rating (a division AM)."""
        p = self.pos
        p.phase = "action"
        division = marker_parts(p.current or "")[1]
        if division is None:
            return [Event("coordination", "5.34", {"march": True})]
        dl = self.cat.division_leader.get(division)
        if dl is None or p.leaders.get(dl) is None:
            p.coordination = "fail"
            return [Event("coordination", "5.34", {"division": division, "result": "fail",
                                                   "note": "no division leader on the map"})]
        first = self.dice.counter
        roll = self.d10(f"coordination {division}", "5.34")
        rating = max(0, min(3, self.cat.rating(dl, "coordination")))
        res = all_charts().coordination.result(roll, coordination_rating=rating)
        p.coordination = res.id
        return [dice_event(self.dice.rolls_since(first)),
                Event("coordination", "5.34", {"division": division, "roll": roll,
                                               "rating": rating, "result": res.id})]

    def _move(self, action: Action, reach: tuple[int, tuple[Hex, ...]]) -> list[Event]:
        p = self.pos
        key = action["unit"]
        u = p.units[key]
        frm = u.hex
        cost, path = reach
        u.hex = action["to"]
        u.facing = Facing.from_json(action["facing"])
        u.moves += 1
        ids = [self.cat.board.hexes[h].id for h in path]
        return [Event("move", "9.1", {"unit": key, "from": frm, "to": u.hex,
                                      "path": ids, "mp": cost / 2,
                                      "facing": u.facing.to_json(), "entered": frm is None})]

    def _end_brigade(self) -> list[Event]:
        p = self.pos
        b = p.brigade
        if b is None:
            return []
        p.done_brigades.append(b)
        p.brigade = None
        return [Event("brigade_done", "5.3", {"brigade": b})]

    def _end_marker(self) -> list[Event]:
        p = self.pos
        marker = p.current
        p.current, p.brigade, p.coordination = None, None, None
        p.done_brigades = []
        for b in p.brigades.values():
            b.stay, b.rolled = False, False
        return [Event("marker_done", "5.5", {"marker": marker}), *self._draw()]

    def _end_turn(self) -> list[Event]:
        """IV: commander movement (not built), recovery (§6.3's reserve actions: fatigue -2
        and disorder removed), combat effectiveness (issue 53), then the next turn."""
        p = self.pos
        ev: list[Event] = []
        for n, b in sorted(p.brigades.items()):
            if b.reserve:
                b.fatigue = max(0, b.fatigue - 2)
                for k in self.brigade_units(n):
                    p.units[k].disordered = False
            b.activations = 0
        p.orders_done, p.transferred, p.pool = [], [], []
        ev.append(Event("end_turn", "3.0", {"turn": turn_label(p.turn)}))
        if p.turn >= p.last_turn:
            p.phase = "over"
            ev.append(Event("game_over", "3.0", self.result() or {}))
            return ev
        p.turn += 1
        return ev + self._begin_turn()

    # --- result and views ------------------------------------------------------------------

    def result(self) -> JSONDict | None:
        if not self.is_terminal():
            return None
        scen = self.scen.scenario
        if scen is None:
            return {"winner": None, "scored": False}
        occupied = {u.hex: u.seat for u in self.pos.units.values() if u.hex is not None}
        for cond in scen.victory.conditions:
            if cond.kind == "control":
                if all(occupied.get(h) == cond.seat for h in cond.hexes):
                    return {"winner": cond.seat, "scored": True, "rule": "victory",
                            "hexes": list(cond.hexes)}
            else:
                return {"winner": None, "scored": False,
                        "note": f"victory of kind {cond.kind} is not yet scored (issue 54)"}
        won = scen.victory.otherwise
        return {"winner": None if won in (None, "draw") else won, "scored": True,
                "draw": won == "draw" or won is None}

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
                           else u.facing.to_json(), "sp": c.sp, "disordered": u.disordered,
                           "arm": c.arm, "mode": c.mode, "brigade": c.formation}
            if full or u.seat == seat:
                d["moves"] = u.moves
                d["waiting_at"] = self.waiting(k)
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
