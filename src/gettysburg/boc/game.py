"""The Badges of Courage rule system: :class:`BocGame`, registered as ``boc``.

Actions are plain JSON objects; their types, fields, checks and applies are one table,
:data:`gettysburg.boc.actions.ACTION_TYPES`, which ``validate`` and ``execute`` dispatch
through. Every refusal is a :class:`RuleError` citing the rule section. Combat (fire 5.x,
melee 7.x, the 10.0 cavalry battles) is played through :mod:`gettysburg.boc.fire`,
:mod:`gettysburg.boc.melee` and :mod:`gettysburg.boc.cavalry_battle` (``docs/combat.md``):
whenever a player must choose (ties among equally strong blocks, melee turns, regroups, the
cavalry battles) the game waits for that player's seat (``to_move``) and offers only the
answers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from gettysburg.boc.actions import ACTION_TYPES, ActionType, action_type, check_fields
from gettysburg.boc.board import Board, BoardError, load_board
from gettysburg.boc.cavalry_battle import (
    DONE as CAVALRY_DONE,
)
from gettysburg.boc.cavalry_battle import (
    CavalryBattleState,
    begin_cavalry_battles,
    cavalry_decision,
    load_cavalry_battle,
)
from gettysburg.boc.combat import OPT_HIDDEN_HITS, Decision, is_hq
from gettysburg.boc.command import (
    COMMAND_HQ_TYPES,
    Orders,
    command_range,
)
from gettysburg.boc.control import compute_control, enemy_hexes, front_line, index
from gettysburg.boc.entry_roads import adjacent_roads, road_name
from gettysburg.boc.fire import (
    FireLedger,
    fire_options,
    pending_decision,
)
from gettysburg.boc.fog import fog_key, units_view
from gettysburg.boc.melee import (
    ENTRY,
    MeleeState,
    melee_decision,
    melee_declare_options,
    target_problem,
)
from gettysburg.boc.movement import (
    NO_ROAD,
    MoveRules,
    Reach,
    entry_cost,
    reachable,
    road_march,
)
from gettysburg.boc.oob import (
    HQ_TYPES,
    DataError,
    default_hierarchy,
    default_oob,
    read_yaml,
)
from gettysburg.boc.scenario import (
    SCENARIO_FILES,
    CavalryBattle,
    parse_scenario,
    place_with_overflow,
    scenario_path,
)
from gettysburg.boc.sequence import (
    DEPLOY,
    NIGHT_CORPS,
    NIGHT_ROADS,
    OPT_COLUMN,
    OPT_FIXED,
    OPT_FREE,
    OPT_HANCOCK,
    check_stacking,
    phases,
    reveal_front_artillery,
)
from gettysburg.boc.state import (
    ELIMINATED,
    OFF_MAP,
    ON_MAP,
    RESERVE,
    BocState,
    UnitState,
    clock,
    other,
    parse_time,
    time_label,
    turn_key,
)
from gettysburg.boc.supply import (
    NIGHT_POINTS,
    day_targets,
    night_targets,
)
from gettysburg.boc.victory import STANDARD_BANDS, csa_total
from gettysburg.core.canonical import JSONDict, canonical_json, json_copy
from gettysburg.core.dice import Dice, normalize_seed
from gettysburg.core.protocol import (
    REFEREE,
    RULE_ACTION,
    Action,
    Event,
    Game,
    GameSetup,
    RuleError,
    Seat,
    resolve_dice,
)

SEATS = ["usa", "csa"]
# Option names (brief) and the spellings the scenario files use.
OPTION_ALIASES = {
    "column_line": OPT_COLUMN, "column_and_line": OPT_COLUMN,
    "hancock": OPT_HANCOCK,
    "fixed_turn_order": OPT_FIXED, "fixed_sequence": OPT_FIXED, "fixed_order": OPT_FIXED,
    # Only changes which arrivals the battle scenario uses (its file marks them).
    "longstreet": "longstreet",
    "free_deployment": OPT_FREE,
    "cavalry_battles": "cavalry_battles", "cavalry_battle": "cavalry_battles",
    OPT_HIDDEN_HITS: OPT_HIDDEN_HITS,  # an engine option, no scenario sheet lists it
}
OPT_CAVALRY = "cavalry_battles"
# Each option by its brief name, with the rule that describes it (for menus and docs).
OPTION_RULES = {OPT_FIXED: "1.1", OPT_HANCOCK: "4.6", OPT_COLUMN: "6.0", "longstreet": "9.5",
                OPT_FREE: "9.6", OPT_CAVALRY: "10.0", OPT_HIDDEN_HITS: "5.23"}
# Options of the engine rather than of the rulebook's sheets (9.0): every scenario takes them.
ENGINE_OPTIONS = (OPT_HIDDEN_HITS,)
# Options the lobby ticks for a new game. hidden_hits plays hits as at the table (5.23); it
# stays off for the engine and the CLI so that games saved before it replay unchanged.
TICKED_OPTIONS = (OPT_HIDDEN_HITS,)
#: The action types in the order legal_actions lists them (from the table, actions.py).
ACTION_ORDER = [t.name for t in ACTION_TYPES]
_ORDER = {t: i for i, t in enumerate(ACTION_ORDER)}


def normalise_options(options: Sequence[str]) -> list[str]:
    out: set[str] = set()
    for opt in options:
        name = OPTION_ALIASES.get(opt)
        if name is None:
            raise ValueError(f"unknown or unsupported BoC option {opt!r}; supported: "
                             f"{sorted(set(OPTION_ALIASES))}")
        out.add(name)
    return sorted(out)


@lru_cache(maxsize=1)
def cavalry_data() -> CavalryBattle:
    """The 10.0 section (Day 3's file; the full battle uses the same one)."""
    return load_cavalry_battle("boc/day3")


def cavalry_key(cb: CavalryBattle) -> int:
    return turn_key(cb.day, parse_time(cb.deploy_time))


def _scenario_file(scenario: str) -> Path:
    key = scenario if scenario.startswith("boc/") else f"boc/{scenario}"
    return scenario_path(key if key in SCENARIO_FILES else scenario)


def load_context(scenario: str) -> tuple[dict[str, Any], dict[str, Any], Path, Board]:
    """Read a scenario file: (scenario data, ``engine`` extras, path, board).

    The ``engine`` mapping is this module's extension for positions set up by hand (tests,
    puzzles, play from a given moment): ``board`` (a board JSON file, relative to the
    scenario), ``phase``, ``active``, ``hour``, ``player_index``, ``order``, ``revealed``,
    ``column``, ``off_map``, ``campaign``, ``last_day``, ``losses``. The rest of the file
    is the scenario schema of :mod:`gettysburg.boc.scenario`."""
    path = _scenario_file(scenario)
    raw = read_yaml(path)
    if not isinstance(raw, dict):
        raise DataError(path, "(file)", "(root)", "expected a mapping")
    raw = dict(raw)
    engine = raw.pop("engine", None) or {}
    if not isinstance(engine, dict):
        raise DataError(path, "engine", "engine", "expected a mapping")
    board_file = engine.get("board")
    try:
        board = load_board(str((path.parent / str(board_file)).resolve())) if board_file \
            else load_board()
    except BoardError as exc:
        raise ValueError(f"{path}: {exc}") from exc
    return raw, engine, path, board


def board_for(scenario: str) -> Board:
    """The board a scenario plays on, cached per scenario file and modification time so
    that ``clone`` and ``from_json`` do not parse the scenario again."""
    path = _scenario_file(scenario)
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        stamp = 0
    return _board_for(str(path), stamp)


@lru_cache(maxsize=64)
def _board_for(path: str, stamp: int) -> Board:
    return load_context(path)[3]


def initial_state(raw: dict[str, Any], engine: dict[str, Any], path: Path, board: Board,
                  options: list[str]) -> BocState:
    """Set up a scenario (9.2: fill the named hex, overflow to adjacent hexes)."""
    oob = default_oob()
    sc = parse_scenario(raw, path, oob, board)
    placed = place_with_overflow(board, sc.setup, oob, str(path))
    units: dict[str, UnitState] = {}
    for uid, hx in sorted(placed.positions.items()):
        units[uid] = UnitState(uid, oob[uid].side, ON_MAP, hx, placed.strengths[uid])
    losses = {"usa": 0, "csa": 0}
    for e in sc.eliminated:
        units[e.unit] = UnitState(e.unit, oob[e.unit].side, ELIMINATED, None, 0)
        losses[oob[e.unit].side] += 1  # 9.12: counted for the enemy
    for a in sc.arrivals:
        if a.option is not None and a.option not in options:
            continue
        if a.unless_option is not None and a.unless_option in options:
            continue
        day = a.day if a.day is not None else sc.day
        for p in a.units:
            if p.unit in units:
                continue
            strength = p.strength if p.strength is not None else oob[p.unit].max_strength
            units[p.unit] = UnitState(
                p.unit, oob[p.unit].side, RESERVE, None, strength,
                arrival_key=turn_key(day, parse_time(a.time)), arrival_entry=a.entry,
                arrival_hex=a.hex,
                # 9.74 (es and de): the night march is the II Corps' privilege; others
                # arriving in the night (Meade, Humphreys) move by the 9.72 rules alone.
                night_road=a.time == "night" and a.side == "usa" and a.entry in NIGHT_ROADS
                and oob[p.unit].corps == NIGHT_CORPS)
    for uid in engine.get("revealed", []) or []:
        units[uid].revealed = True
    for uid in engine.get("column", []) or []:
        units[uid].column = True
    for item in engine.get("off_map", []) or []:
        u = units[item["unit"]]
        u.status, u.hex, u.exit_hex = OFF_MAP, None, item["exit"]
    for k, u in enumerate(sorted(units.values(), key=lambda x: x.id)):
        u.seq = k + 1
    for key, n in (engine.get("losses") or {}).items():
        losses[key] = int(n)
    campaign = bool(engine.get("campaign", sc.id == "boc/battle"))
    hour = int(engine.get("hour", parse_time(sc.start)))
    first = str(engine.get("active", sc.first_player))
    order = list(engine.get("order", [sc.first_player, other(sc.first_player)]))
    bands = {"csa_win_min": sc.victory.csa_win_min, "usa_win_max": sc.victory.usa_win_max}
    state = BocState(
        scenario=sc.id, title=sc.title, day=int(engine.get("day", sc.day)), hour=hour,
        phase="", active=first, order=order,
        player_index=int(engine.get("player_index", order.index(first))),
        units=units, options=options,
        last_day=int(engine.get("last_day", 3 if campaign else sc.day)),
        ends_after_night=sc.end == "night" and not campaign,
        campaign=campaign, bands=bands or dict(STANDARD_BANDS), losses=losses,
        acting={a.unit: a.corps for a in sc.acting if a.role == "chq"},
        seq=len(units))
    if OPT_CAVALRY in options:
        cb = cavalry_data()
        if state.last_day >= cb.day and state.now <= cavalry_key(cb):
            # 10.0: the cavalry fighting off the map waits there (never due on its own).
            for side, uids in sorted(cb.off_map.items()):
                for uid in uids:
                    if uid not in units:
                        units[uid] = UnitState(uid, side, RESERVE, None,
                                               oob[uid].max_strength, seq=state.next_seq())
    state.phase = str(engine.get("phase", phases(state)[0]))
    if state.phase not in phases(state) and state.phase != DEPLOY:
        raise ValueError(f"{path}: phase {state.phase!r} is not a phase of this turn")
    state.control = compute_control(board, state)
    if OPT_FREE in options and "phase" not in engine:
        state.deploy = list(sc.deploy_order)  # 9.6 before the first turn, USA first (9.2)
        state.phase, state.active = DEPLOY, state.deploy[0]
    if state.night and state.phase == "supply":
        state.night_points[state.active] = NIGHT_POINTS[state.active]  # 8.4 pool
    # Units in id order, as a loaded position has them: the legal actions are listed in
    # this order, so a game resumed from its save lists them exactly as the live one.
    state.units = dict(sorted(state.units.items()))
    return state


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


class BocGame(Game):
    """Gettysburg: Badges of Courage."""

    system = "boc"
    execute_checks = True  # execute() runs the same _check as validate()
    #: (occupants, side, the hexes that side holds in them), the last asked of ``_held``.
    _held_memo: tuple[Mapping[str, list[UnitState]], str, frozenset[str]] | None = None

    def __init__(self, scenario: str = "boc/day2", options: Sequence[str] = (),
                 seed: int | str = 0, dice: Dice | None = None) -> None:
        opts = normalise_options(options)
        raw, engine, path, board = load_context(scenario)
        super().__init__(GameSetup(self.system, scenario, tuple(options), normalize_seed(seed)),
                         resolve_dice(seed, dice))
        self.board = board
        self.orders = Orders.build(default_oob(), default_hierarchy())
        self.key = fog_key(self.setup.seed)
        self.state = initial_state(raw, engine, path, board, opts)
        self.record(Event("setup", "9.0", {"scenario": self.state.scenario,
                                           "title": self.state.title, "options": opts,
                                           "time": clock(self.state.day, self.state.hour)}))
        if self.state.phase != DEPLOY:
            # 6.63: artillery set up in the front line stands revealed from the start
            # (8.1's first-turn note leaves it face up too).
            self.record(*reveal_front_artillery(self.board, self.state, self.orders))
            # A position that starts at Day 3 2 PM begins with the cavalry battles (10.0).
            self.record(*self.maybe_cavalry_battles())

    # --- state -------------------------------------------------------------------------
    def position_json(self) -> JSONDict:
        return self.state.to_json()

    def load_position(self, position: JSONDict) -> None:
        if not hasattr(self, "board"):
            self.board = board_for(self.setup.scenario)
            self.orders = Orders.build(default_oob(), default_hierarchy())
            self.key = fog_key(self.setup.seed)
        self.state = BocState.from_json(position)

    def seats(self) -> list[Seat]:
        return list(SEATS)

    def to_move(self) -> list[Seat]:
        if self.state.over:
            return []
        d = self.decision()
        return [d.seat] if d is not None else [self.state.active]

    # --- combat decisions (docs/combat.md) ---------------------------------------------
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

    def is_terminal(self) -> bool:
        return self.state.over

    def result(self) -> JSONDict | None:
        return json_copy(self.state.result) if self.state.result is not None else None

    # --- rule queries: legal_actions and the checks of actions.py ask the same ones ----
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

    def deploy_targets(self, u: UnitState) -> list[str]:
        """4.3 / 8.1: an HQ may step one hex when activated, into a friendly hex (6.6) with
        room for it (6.2)."""
        assert u.hex is not None
        idx = index(self.board)
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

    # --- movement context ----------------------------------------------------------------
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
        full = frozenset(k for k, n in self.state.side_use.items() if n >= 2)
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

    def entry_hexes(self, u: UnitState) -> list[tuple[str, str]]:
        """(entry hex, entry road) pairs ``u`` may come on at now (6.7, 9.74, 2.4); one
        road per hex, named as the board names it."""
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
        u = self.state.units[uid]
        board = self.board
        idx = index(board)
        label = self.orders.oob[uid]
        if front is None:
            front = front_line(board, self.state, u.side)
        rules = self.move_rules(u, front, occ)
        out: dict[tuple[str, str], tuple[int, list[str]]] = {}
        for entry, road in self.entry_hexes(u):
            if entry in rules.forbidden:
                continue
            if u.night_road and self.state.night:
                for dest, path in road_march(board, entry, rules.forbidden,
                                             NIGHT_ROADS).items():
                    out[(entry, dest)] = (0, path)
                continue
            beside = sorted(n for n in idx.nbrs.get(entry, ())
                            if n in idx.edge and n not in rules.forbidden)
            firsts = [entry, *beside]
            for first in firsts:
                cost0, road0 = entry_cost(board, entry, first, road,
                                          label.movement.off_road_multiplier, rules.roads)
                if first != entry:
                    road0 = NO_ROAD
                sub = MoveRules(rules.budget, rules.multiplier, rules.roads, False,
                                rules.stop, rules.forbidden, rules.full_sides, entered=True)
                cands = {first: (cost0, [first])}
                if cost0 <= rules.budget:
                    reach = reachable(board, first, sub, road0 if rules.roads else NO_ROAD,
                                      cost0)
                    for dest, c in reach.cost.items():
                        cands[dest] = (c, list(reach.path[dest]))
                for dest, (c, p) in cands.items():
                    cur = out.get((entry, dest))
                    if cur is None or (c, p) < cur:
                        out[(entry, dest)] = (c, p)
        return out

    # --- legal actions ---------------------------------------------------------------------
    def legal_actions(self, seat: Seat) -> list[Action]:
        st = self.state
        if st.over:
            return []
        d = self.decision()
        if d is not None:
            return json_copy(d.options) if seat == d.seat else []
        if seat != st.active:
            return []
        acts: list[Action] = []
        if st.phase == DEPLOY:
            acts += self._swap_actions(seat)
        elif st.phase == "command":
            acts += self.hancock_actions(seat)
            for u in st.on_map(seat):
                if self.activation_problem(u) is None:
                    acts.append({"type": "activate", "hq": u.id})
                    acts += [{"type": "activate", "hq": u.id, "to": t}
                             for t in self.deploy_targets(u)]
        elif st.phase == "movement":
            front = front_line(self.board, st, seat)  # 6.61, the same for every unit
            occ = st.occupants()  # nothing moves while the actions are listed
            for u in st.on_map(seat):
                if self.move_problem(u) is not None:
                    continue
                if self.column_rule and self.orders.oob[u.id].type == "infantry" \
                        and self.formation_problem(u) is None:
                    acts.append({"type": "formation", "unit": u.id, "column": not u.column})
                reach = self.move_options(u.id, front, occ)
                # reach.path is sorted by destination; its paths are kept (copied here).
                acts += [{"type": "move", "unit": u.id, "path": list(p)}
                         for p in reach.path.values()]
                if u.hex in index(self.board).edge:
                    acts.append({"type": "leave_map", "unit": u.id})
            for uid in sorted(st.units):
                u = st.units[uid]
                if u.side != seat or self.entry_problem(u) is not None:
                    continue
                if self.column_rule and self.orders.oob[uid].type == "infantry":
                    acts.append({"type": "formation", "unit": uid, "column": not u.column})
                for (entry, _dest), (_c, path) in sorted(
                        self.enter_options(uid, front, occ).items()):
                    acts.append({"type": "enter", "unit": uid, "entry": entry, "path": path})
            if not st.night:  # 9.71 no combat at night
                ms = MeleeState.from_json(st.melee)
                acts += melee_declare_options(self.board, st, self.orders, seat, ms)
                acts += self._entry_melee_options(seat, ms)
        elif st.phase == "fire":
            acts += fire_options(self.board, st, self.orders, seat,
                                 FireLedger.from_json(st.fire))
        elif st.phase == "supply" and not st.night:
            for u in st.on_map(seat):
                if self.supply_activation_problem(u) is None:
                    acts.append({"type": "supply_activate", "hq": u.id})
                    acts += [{"type": "supply_activate", "hq": u.id, "to": t}
                             for t in self.deploy_targets(u)]
            for u in st.on_map(seat):
                if u.sup_active:
                    acts += [{"type": "supply", "hq": u.id, "unit": t, "steps": 1}
                             for t, _ in day_targets(self.board, st, self.orders, u.id)]
        elif st.phase == "supply":
            for uid, most, _per in night_targets(self.board, st, self.orders, seat):
                acts += [{"type": "night_supply", "unit": uid, "steps": n}
                         for n in range(1, most + 1)]
        acts.append({"type": "end_phase"})
        return sorted(acts, key=lambda a: _ORDER[a["type"]]) if acts else acts

    # --- validation and execution (the table of action types: actions.py) ------------------
    def validate(self, action: Action, seat: Seat) -> None:
        self._check(action, seat)

    def execute(self, action: Action, seat: Seat) -> list[Event]:
        kind, checked = self._check(action, seat)
        return kind.apply(self, action, seat, checked)

    def _check(self, action: Action, seat: Seat) -> tuple[ActionType, Any]:
        """The action's row and what its check returns; refuses (RuleError) otherwise."""
        kind = action_type(action["type"])
        check_fields(kind, action)
        if not kind.answer:
            d = self.decision()
            if d is not None:
                raise RuleError(d.rule, f"a combat decision ({d.kind}) must be answered first")
        return kind, kind.check(self, action, seat)

    # --- what legal_actions offers -------------------------------------------------------------
    def _entry_melee_options(self, seat: Seat, ms: MeleeState) -> list[Action]:
        """6.7: due arrivals may attack an enemy-held entry hex from their road."""
        st = self.state
        enemy = {u.hex for u in st.on_map(other(seat))}
        on_entries = any(self.board.hex(h).entries for h in enemy if h is not None)
        acts: list[Action] = []
        for uid in sorted(st.units):
            u = st.units[uid]
            if u.side != seat or u.status not in (RESERVE, OFF_MAP):
                continue
            label = self.orders.oob[uid]
            if is_hq(label) or label.type == "artillery" or ms.declared(uid) \
                    or self.entry_problem(u) is not None:
                continue
            if not on_entries and u.arrival_hex not in enemy:
                continue  # no enemy on any entry hex: the usual case, answered at once
            for hx, road in self.entry_hexes(u):
                if hx in enemy and target_problem(self.board, st, ms, seat, hx, ENTRY,
                                                   None, enemy) is None:
                    acts.append({"type": "melee", "unit": uid, "target": hx, "entry": road})
        return acts

    def _swap_actions(self, seat: Seat) -> list[Action]:
        own = sorted((u.id, u.hex) for u in self.state.on_map(seat))
        return [{"type": "swap", "units": [a, b]} for i, (a, ha) in enumerate(own)
                for b, hb in own[i + 1:] if ha != hb]

    def activation_problem(self, u: UnitState) -> str | None:
        kind = self.orders.oob[u.id].type
        if kind not in COMMAND_HQ_TYPES:
            return "only division, artillery and cavalry HQs command fire (4.2x)"
        return _hq_ready_problem(u, u.cmd_active, "")

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

    def formation_problem(self, u: UnitState) -> str | None:
        label = self.orders.oob[u.id]
        front = front_line(self.board, self.state, u.side)
        cost = label.movement.allowance if u.hex in front else label.movement.allowance // 2
        if u.mp_used + cost > label.movement.allowance:
            return "not enough MPs left to change formation"
        if not u.column and len(self.state.occupants().get(u.hex or "", [])) > 1:
            return "a unit in column must be alone in its hex"
        return None

    def supply_activation_problem(self, u: UnitState) -> str | None:
        if self.orders.oob[u.id].type not in HQ_TYPES:
            return "only HQs are activated for supply"
        return _hq_ready_problem(u, u.sup_active, " for supply")

    def cavalry_rules(self) -> CavalryBattle:
        """The 10.0 section the cavalry battles are fought by."""
        return cavalry_data()

    def maybe_cavalry_battles(self) -> list[Event]:
        """10.0 (option): the off-map cavalry battles are set up when the clock reaches
        Day 3 2 PM (after that hour's initiative roll)."""
        st = self.state
        if OPT_CAVALRY not in st.options or st.cavalry or st.over or st.night:
            return []
        cb = cavalry_data()
        if st.now != cavalry_key(cb):
            return []
        cs, events = begin_cavalry_battles(st, cb, self.dice)
        d = cavalry_decision(self.board, st, self.orders, cb, cs)
        st.cavalry = cs.to_json()
        if d is None:
            st.cavalry["stage"] = CAVALRY_DONE
        return [Event("cavalry_battles", "10.0", {"time": clock(st.day, st.hour)}),
                *events]

    # --- views -------------------------------------------------------------------------------
    def view(self, seat: Seat) -> JSONDict:
        st = self.state
        shown, hidden = units_view(self.key, st, seat)
        for unit in shown:  # the printed label of a block the seat already sees by id
            printed = self.orders.oob[str(unit["id"])]
            unit["name"], unit["type"] = printed.name, printed.type
        own = (lambda s: True) if seat == REFEREE else (lambda s: s == seat)
        supply_points = {k: v for k, v in st.supply_points.items() if own(st.units[k].side)}
        out: JSONDict = {
            "system": self.system, "seat": seat, "scenario": st.scenario, "title": st.title,
            # What the game was made from (a shipped name or a scenario file's path): public,
            # so an agent can read the scenario's own board, bands and set-up.
            "source": self.setup.scenario,
            "day": st.day, "hour": st.hour, "night": st.night,
            "time": time_label(st.day, st.hour), "phase": st.phase, "active": st.active,
            "order": list(st.order), "to_move": self.to_move(), "options": list(st.options),
            "control": dict(st.control), "losses": dict(st.losses),
            "victory": csa_total(self.board, st), "units": shown, "hidden": hidden,
            "supply_points": supply_points,
            "night_points": {k: v for k, v in st.night_points.items() if own(k)},
            # A rebuilt leader is a hidden block again: only its owner sees who it is.
            "fallen": sorted(uid for uid in st.fallen if seat in (REFEREE, st.units[uid].side)
                             or st.units[uid].status != ON_MAP or st.units[uid].revealed),
            "verdicts": json_copy(st.verdicts),
            "over": st.over, "result": self.result(),
        }
        out["command_ranges"] = self._command_ranges(seat)
        if seat == REFEREE or seat == "usa":
            out["hancock"] = dict(st.hancock)
        out["combat"] = self._combat_view(seat)
        if seat in SEATS:
            out["legal_actions"] = self.legal_actions(seat)
        return out

    def learned_from(self, seat: Seat, before: JSONDict, after: JSONDict) -> bool | None:
        """What the seat sees of the enemy: its revealed blocks (id, hex, strength), its
        hidden blocks (handle, hex), fallen leaders and losses. A move, an activation or
        the end of a phase leaves all of that alone; a block revealed (3.24, 6.63, 7.1)
        or lost changes it (the server's undo, docs/server.md)."""
        def enemy(view: JSONDict) -> JSONDict:
            return {"units": sorted((u for u in view.get("units", []) if u.get("side") != seat),
                                    key=lambda u: str(u.get("id"))),
                    "hidden": sorted((h for h in view.get("hidden", [])
                                      if h.get("side") != seat),
                                     key=lambda h: str(h.get("handle"))),
                    "fallen": view.get("fallen"), "losses": view.get("losses")}
        return canonical_json(enemy(before)) != canonical_json(enemy(after))

    def _combat_view(self, seat: Seat) -> JSONDict:
        """What ``seat`` knows of the combat in progress: the decision it must take (or
        whose turn it is), declared melees (attacker ids only to their owner), the melee
        being fought (all its blocks are revealed, 7.1), the hexsides used (5.21), its own
        half hits (5.24) and the cavalry battles' public state (10.0)."""
        st = self.state
        everything = seat == REFEREE
        out: JSONDict = {}
        d = self.decision()
        if d is not None:
            out["waiting"] = {"kind": d.kind, "seat": d.seat, "rule": d.rule}
            if everything or seat == d.seat:
                out["decision"] = {"kind": d.kind, "rule": d.rule, "data": json_copy(d.data)}
        if st.fire:
            led = FireLedger.from_json(st.fire)
            out["fired_hexsides"] = sorted(led.used)
            out["half_hits"] = sorted(u for u in led.half_hits
                                      if everything or st.units[u].side == seat)
        if st.melee:
            ms = MeleeState.from_json(st.melee)
            declared: list[JSONDict] = []
            for a in ms.attacks:
                item: JSONDict = {"side": st.units[a.unit].side, "from": a.from_hex,
                                  "target": a.target, "kind": a.kind}
                if everything or st.units[a.unit].side == seat:
                    item["unit"] = a.unit
                declared.append(item)
            out["melees"] = declared
            out["resolved"] = list(ms.resolved)
            if ms.battle is not None:
                b = ms.battle
                out["battle"] = {"hex": b.hex, "attacker": b.attacker, "kind": b.kind,
                                 "round": b.round, "attackers": sorted(b.attackers),
                                 "defenders": sorted(b.defenders)}
        if st.cavalry:
            cs = CavalryBattleState.from_json(st.cavalry)
            out["cavalry"] = {"stage": cs.stage, "outcomes": dict(cs.outcomes),
                              "current": cs.current}
        return out

    def _command_ranges(self, seat: Seat) -> dict[str, list[str]]:
        """4.5: the hexes each of the seat's HQs on the map reaches, traced through friendly
        or neutral hexes, for the command-range overlay. Built from what the seat already
        sees (its own HQs, hex control and enemy block positions), so it reveals nothing."""
        out: dict[str, list[str]] = {}
        enemy: dict[str, frozenset[str]] = {}  # per side: the same for all its HQs
        for uid in sorted(self.state.units):
            u = self.state.units[uid]
            if u.status != ON_MAP or u.hex is None or seat not in (REFEREE, u.side):
                continue
            if self.orders.is_hq(uid) and self.orders.oob[uid].command_range:
                if u.side not in enemy:
                    enemy[u.side] = enemy_hexes(self.state, u.side)
                out[uid] = sorted(command_range(self.board, self.state, self.orders, uid,
                                                enemy[u.side]))
        return out

    def stacking_problems(self) -> list[str]:
        """Hexes over their limit right now (used by tests at phase ends)."""
        probe = BocState.from_json(self.state.to_json())
        return [str(e.data["hex"]) for e in check_stacking(self.board, probe, self.orders,
                                                            self.column_rule)]
