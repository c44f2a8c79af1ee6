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

from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from gettysburg.boc.actions import (
    ACTION_TYPES,
    ActionType,
    action_type,
    cavalry_battles_if_due,
    check_fields,
)
from gettysburg.boc.board import Board, BoardError, load_board
from gettysburg.boc.cavalry_battle import (
    CavalryBattleState,
)
from gettysburg.boc.combat import OPT_HIDDEN_HITS, Decision, is_hq
from gettysburg.boc.command import (
    Orders,
    command_range,
)
from gettysburg.boc.control import compute_control, enemy_hexes, front_line, index
from gettysburg.boc.fire import (
    FireLedger,
    fire_options,
)
from gettysburg.boc.fog import (
    fog_key,
    handle,
    label_view,
    secret_key,
    unit_values,
    unit_view,
)
from gettysburg.boc.legal_list import Chunk, LegalActions, SharedMoves
from gettysburg.boc.melee import (
    ENTRY,
    MeleeState,
    melee_declare_options,
    target_problem,
)
from gettysburg.boc.move_listing import (
    INCREMENTAL,
    MoveListing,
    Update,
    clock_key,
    current,
    full_sides,
    kept,
)
from gettysburg.boc.movement import MoveRules, reachable
from gettysburg.boc.oob import (
    DataError,
    OrderOfBattle,
    Unit,
    default_hierarchy,
    default_oob,
    read_yaml,
)
from gettysburg.boc.position import (
    OPT_CAVALRY,
    EnterListing,
    Position,
    cavalry_data,
    cavalry_key,
)
from gettysburg.boc.scenario import (
    SCENARIO_FILES,
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
from gettysburg.boc.shared_blocks import SharedBlocks
from gettysburg.boc.shared_ranges import SharedRanges
from gettysburg.boc.state import (
    ELIMINATED,
    OFF_MAP,
    ON_MAP,
    RESERVE,
    BocState,
    UnitState,
    canonical_dumps,
    clock,
    other,
    parse_time,
    plain_copy,
    time_label,
    turn_key,
)
from gettysburg.boc.supply import (
    NIGHT_POINTS,
    day_targets,
    night_targets,
    side_now,
)
from gettysburg.boc.victory import STANDARD_BANDS, csa_total
from gettysburg.core.canonical import JSONDict, canonical_json, check_json, json_copy, sha256_hex
from gettysburg.core.dice import Dice, normalize_seed
from gettysburg.core.protocol import (
    FORMAT_STATE,
    REFEREE,
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
_MOVE_PLACE = _ORDER["move"]
assert _ORDER["enter"] == _MOVE_PLACE + 1  # legal_sequence lists the entries after the moves


def normalise_options(options: Sequence[str]) -> list[str]:
    out: set[str] = set()
    for opt in options:
        name = OPTION_ALIASES.get(opt)
        if name is None:
            raise ValueError(f"unknown or unsupported BoC option {opt!r}; supported: "
                             f"{sorted(set(OPTION_ALIASES))}")
        out.add(name)
    return sorted(out)


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


#: command-range answers kept per game; the oldest go first beyond this many.
RANGE_MEMO = 512
#: Shown blocks' view dicts kept (``_shown``) before that memo starts afresh.
SHOWN_MEMO = 4096
#: The attributes that only speed answers up (issue 59): never part of a game's state.
_MEMOS = ("_range_memo", "_enter_memo", "_held_memo", "_full_memo", "_entries_memo",
          "_label_memo", "_enter_list_memo", "_listing_memo", "_shown_memo",
          "_hq_memo", "_enemy_memo", "_ranges_memo", "_blocks_memo", "_shared_ranges_memo",
          "_shared_moves_memo")


class BocGame(Position, Game):
    """Gettysburg: Badges of Courage: a :class:`Position` played by the game protocol."""

    system = "boc"
    execute_checks = True  # execute() runs the same _check as validate()
    #: (HQ hex, range, enemy hexes) -> the command range's hexes, for views (issue 59).
    _range_memo: dict[tuple[str, int | None, frozenset[str]], tuple[str, ...]] | None = None
    #: unit id -> (its printed label, what the view shows of it), for views (issue 59).
    _label_memo: dict[str, tuple[Unit, JSONDict]] | None = None
    #: (full, a block's field values) -> (its printed label, its view dict with the
    #: label's), for views (issue 59).
    _shown_memo: dict[tuple[bool, tuple[object, ...]], tuple[Unit, JSONDict]] | None = None
    #: (order of battle, the ids of its HQs with a command range), for views (issue 59).
    _hq_memo: tuple[OrderOfBattle, tuple[str, ...]] | None = None
    #: side -> the hexes its enemy holds, as the last view found them (issue 59).
    _enemy_memo: dict[str, frozenset[str]] | None = None
    #: seat -> (its HQs' places and enemy hexes, its last command ranges) (issue 59).
    _ranges_memo: dict[str, tuple[tuple[object, ...], dict[str, tuple[str, ...]]]] \
        | None = None
    #: seat -> its blocks as its last view listed them (issue 59).
    _blocks_memo: dict[str, SharedBlocks] | None = None
    #: seat -> its command ranges as its last shared view gave them (issue 59).
    _shared_ranges_memo: dict[str, SharedRanges] | None = None
    #: The last movement-phase list built, kept for the next decision (issue 59).
    _listing_memo: MoveListing | None = None
    #: The move and entry dicts the last shared view listed (``view_shared``, issue 59).
    _shared_moves_memo: SharedMoves | None = None

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
            self.record(*cavalry_battles_if_due(self))

    # --- state -------------------------------------------------------------------------
    def position_json(self) -> JSONDict:
        return self.state.to_json()

    def state_hash(self) -> str:
        """The protocol's hash (SHA-256 of the canonical JSON of ``hash_material``), the
        same bytes, the position's text put together from its parts
        (``BocState.canonical_text``: each unit's text kept per its field values). Issue
        59: a recorded action hashes the whole state."""
        setup, dice = self.setup.to_json(), self.dice.state_json()
        check_json([setup, dice])
        # hash_material's keys in sorted order: dice, format, position, setup.
        return sha256_hex(f'{{"dice":{canonical_dumps(dice)},'
                          f'"format":{canonical_dumps(FORMAT_STATE)},'
                          f'"position":{self.state.canonical_text()},'
                          f'"setup":{canonical_dumps(setup)}}}')

    def savepoint(self) -> Callable[[], None]:
        """The protocol's way back for ``apply`` (issue 59), cheaper than the position's
        JSON: each unit's field values and a copy of the other fields (state.savepoint);
        going back builds the position ``load_position`` would have built from the JSON."""
        back = self.state.savepoint()

        def restore() -> None:
            self.state = back()
        return restore

    def use_secret(self, secret: bytes) -> None:
        self.key = secret_key(secret)  # the handles no longer follow from the seed

    def load_position(self, position: JSONDict) -> None:
        if not hasattr(self, "board"):
            self.board = board_for(self.setup.scenario)
            self.orders = Orders.build(default_oob(), default_hierarchy())
            self.key = fog_key(self.setup.seed)
        self.state = BocState.from_json(position)

    def seats(self) -> list[Seat]:
        return list(SEATS)

    def to_move(self) -> list[Seat]:
        return [] if self.state.over else self._movers(self.decision())

    def _movers(self, d: Decision | None) -> list[Seat]:
        """:meth:`to_move` in a game not over, given its ``decision()``."""
        return [d.seat] if d is not None else [self.state.active]

    def is_terminal(self) -> bool:
        return self.state.over

    def result(self) -> JSONDict | None:
        return json_copy(self.state.result) if self.state.result is not None else None

    # --- legal actions ---------------------------------------------------------------------
    def legal_actions(self, seat: Seat) -> list[Action]:
        """The legal actions; in a movement phase from the kept list, as
        :meth:`legal_sequence` (issue 59: the view lists them at every decision)."""
        return self._legal(seat, reuse=True).to_list()

    def legal_sequence(self, seat: Seat) -> LegalActions:
        """The legal actions as :meth:`legal_actions` lists them, built lazily (issue 59):
        ``len`` and one item without a dict and a path list for every move. In a movement
        phase the list of the last call is kept and only the blocks the actions since then
        named are taken out of it (``move_listing``): this trusts that the state changed
        only by ``execute`` since (a caller changing it by hand calls ``forget_memos``)."""
        return self._legal(seat, reuse=True)

    def _legal(self, seat: Seat, reuse: bool) -> LegalActions:
        """:meth:`legal_sequence`; ``reuse``: may answer from the kept movement list."""
        out = LegalActions()
        st = self.state
        if st.over:
            return out
        d = self.decision()
        if d is not None:
            if seat == d.seat:
                out.add(json_copy(d.options))
            return out
        if seat != st.active:
            return out
        acts: list[Action] = []
        moves: list[tuple[str, Sequence[list[str]]]] = []  # (unit, paths): all of one type
        enters: list[tuple[str, EnterListing]] = []  # (unit, (entry, path)...): next type
        ready: list[tuple[Chunk, int]] | None = None  # or both as chunks, made before
        if st.phase == DEPLOY:
            acts += self._swap_actions(seat)
        elif st.phase == "command":
            acts += self.hancock_actions(seat)
            occ = None  # the occupants, once for every HQ (nothing moves while listing)
            for u in st.on_map(seat):
                if self.activation_problem(u) is None:
                    occ = st.occupants() if occ is None else occ
                    acts.append({"type": "activate", "hq": u.id})
                    acts += [{"type": "activate", "hq": u.id, "to": t}
                             for t in self.deploy_targets(u, occ)]
        elif st.phase == "movement":
            got = kept(self._listing_memo, self, seat) if reuse else None
            if got is None:
                memo = self._movement_listing(seat)
            else:
                memo = got[0]
                self._mend_listing(memo, got[1], seat)
            acts += memo.ready()
            ready = memo.chunks()  # the moves and entries as LegalActions chunks
            # Kept for legal_sequence's next call; never under the column/line option (a
            # block's formation limits its fellows).
            self._listing_memo = memo if reuse and not self.column_rule else None
        elif st.phase == "fire":
            acts += fire_options(self.board, st, self.orders, seat,
                                 FireLedger.from_json(st.fire))
        elif st.phase == "supply" and not st.night:
            occ = None
            for u in st.on_map(seat):
                if self.supply_activation_problem(u) is None:
                    occ = st.occupants() if occ is None else occ
                    acts.append({"type": "supply_activate", "hq": u.id})
                    acts += [{"type": "supply_activate", "hq": u.id, "to": t}
                             for t in self.deploy_targets(u, occ)]
            now = None  # the side's front, enemy hexes and roles, once for every HQ
            for u in st.on_map(seat):
                if u.sup_active:
                    now = side_now(self.board, st, self.orders, seat) if now is None else now
                    acts += [{"type": "supply", "hq": u.id, "unit": t, "steps": 1}
                             for t, _ in day_targets(self.board, st, self.orders, u.id, now)]
        elif st.phase == "supply":
            for uid, most, _per in night_targets(self.board, st, self.orders, seat):
                acts += [{"type": "night_supply", "unit": uid, "steps": n}
                         for n in range(1, most + 1)]
        acts.append({"type": "end_phase"})
        acts.sort(key=lambda a: _ORDER[a["type"]])
        # The order a stable sort of everything by type would give, without sorting the
        # moves and entries: they go, as listed, after the other actions that come before
        # them (the entries' type comes right after the moves').
        cut = next((i for i, a in enumerate(acts) if _ORDER[a["type"]] > _MOVE_PLACE),
                   len(acts))
        out.add(acts[:cut])
        if ready is not None:
            out.add_chunks(ready)
        for uid, paths in moves:
            out.add_moves(uid, paths)
        for uid, listing in enters:
            out.add_entries(uid, listing)
        out.add(acts[cut:])
        return out

    def _movement_listing(self, seat: Seat) -> MoveListing:
        """A movement phase's actions for ``seat`` built afresh (6.x, 6.7, 7.1, 2.4), with
        what ``move_listing.kept`` checks before it reuses them."""
        st = self.state
        front = front_line(self.board, st, seat)  # 6.61, the same for every unit
        occ = st.occupants()  # nothing moves while the actions are listed
        column_rule, oob, edge = self.column_rule, self.orders.oob, index(self.board).edge
        acts: list[Action] = []
        moves: list[tuple[str, Sequence[list[str]]]] = []
        enters: list[tuple[str, EnterListing]] = []
        rules: dict[str, MoveRules] = {}
        for u in st.on_map(seat):
            if self.move_problem(u) is not None:
                continue
            if column_rule and oob[u.id].type == "infantry" \
                    and self.formation_problem(u) is None:
                acts.append({"type": "formation", "unit": u.id, "column": not u.column})
            # The reach's paths, sorted by destination; copied only when handed out.
            assert u.hex is not None
            rules[u.id] = self.move_rules(u, front, occ)
            moves.append((u.id, reachable(self.board, u.hex, rules[u.id]).path_list))
            if u.hex in edge:
                acts.append({"type": "leave_map", "unit": u.id})
        for uid in sorted(st.units):
            u = st.units[uid]
            if u.side != seat or self.entry_problem(u) is not None:
                continue
            if column_rule and oob[uid].type == "infantry":
                acts.append({"type": "formation", "unit": uid, "column": not u.column})
            # Built when handed out, as the moves are (issue 59). The rules are kept for
            # check_enter and apply_enter (kept_move), as the movers' for check_move.
            rules[uid] = self.move_rules(u, front, occ)
            enters.append((uid, self.enter_listing(uid, front, occ, rules[uid])))
        enemy = frozenset(h for h, us in occ.items() if any(x.side != seat for x in us))
        memo = MoveListing(st, clock_key(st, seat), full_sides(st), dict(st.entry_roads),
                           json_copy(st.melee), enemy, front, rules, acts, [], [], moves,
                           enters)
        self._list_melees(memo, seat)
        return memo

    def _list_melees(self, memo: MoveListing, seat: Seat) -> None:
        """The melee declarations of a movement list (none at night, 9.71)."""
        st = self.state
        if not st.night:
            ms = MeleeState.from_json(st.melee)
            memo.declare = melee_declare_options(self.board, st, self.orders, seat, ms)
            memo.entry_melee = self._entry_melee_options(seat, ms)

    def _mend_listing(self, memo: MoveListing, update: Update, seat: Seat) -> None:
        """List again what ``update`` names (``move_listing.Update``): the entries of the
        due units of divisions whose entry road was fixed, the melee declarations."""
        if update.divisions:
            occ = self.state.occupants()
            memo.set_enters([
                (uid, self.enter_listing(uid, memo.front, occ)
                 if self.division_key(self.state.units[uid]) in update.divisions
                 else listing)
                for uid, listing in memo.enters])
        if update.melee:
            self._list_melees(memo, seat)

    def kept_move(self, u: UnitState) -> tuple[frozenset[str], MoveRules] | None:
        """The front line and ``u``'s move rules from the kept movement list, if no action
        was executed since it was brought up to date (``move_listing.current``)."""
        memo = current(self._listing_memo, self)
        if memo is None or u.id not in memo.rules:
            return None
        return memo.front, memo.rules[u.id]

    # --- validation and execution (the table of action types: actions.py) ------------------
    def validate(self, action: Action, seat: Seat) -> None:
        self._check(action, seat)

    def execute(self, action: Action, seat: Seat) -> list[Event]:
        kind, checked = self._check(action, seat)
        memo = self._listing_memo
        if memo is None:
            return kind.apply(self, action, seat, checked)
        # The kept movement list learns which block the action changes (move_listing).
        u = self.state.units.get(str(action.get("unit")))
        if kind.name not in INCREMENTAL or u is None or memo.state is not self.state:
            self._listing_memo = None
            return kind.apply(self, action, seat, checked)
        before = u.hex
        events = kind.apply(self, action, seat, checked)
        memo.touched.append((u.id, before))
        return events

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
        on_entries = any(h in enemy for h, _ in index(self.board).entries)
        acts: list[Action] = []
        for uid in sorted(st.units):
            u = st.units[uid]
            if u.side != seat or u.status not in (RESERVE, OFF_MAP):
                continue
            if not on_entries and u.arrival_hex not in enemy:
                continue  # no enemy on any entry hex: the usual case, answered at once
            label = self.orders.oob[uid]
            if is_hq(label) or label.type == "artillery" or ms.declared(uid) \
                    or self.entry_problem(u) is not None:
                continue
            for hx, road in self.entry_hexes(u):
                if hx in enemy and target_problem(self.board, st, ms, seat, hx, ENTRY,
                                                   None, enemy) is None:
                    acts.append({"type": "melee", "unit": uid, "target": hx, "entry": road})
        return acts

    def forget_memos(self) -> None:
        """Empty the speed memos of issue 59 (this game's, its board's front lines and the
        fog handles; the board's reach cache, older, stays): the next answers are worked
        out afresh. Benchmarks time the engine without them this way; tests compare."""
        for name in _MEMOS:
            setattr(self, name, None)
        index(self.board).front_memo.clear()
        handle.cache_clear()

    def __getstate__(self) -> dict[str, Any]:
        """Pickled (a lab checkpoint) without the speed memos: they are rebuilt on demand."""
        state = self.__dict__.copy()
        for name in _MEMOS:
            state.pop(name, None)
        return state

    def _swap_actions(self, seat: Seat) -> list[Action]:
        own = sorted((u.id, u.hex) for u in self.state.on_map(seat))
        return [{"type": "swap", "units": [a, b]} for i, (a, ha) in enumerate(own)
                for b, hb in own[i + 1:] if ha != hb]

    # --- views -------------------------------------------------------------------------------
    def view(self, seat: Seat) -> JSONDict:
        return self._view(seat, full=True)

    def view_shared(self, seat: Seat) -> JSONDict:
        """:meth:`view` for a reader that changes nothing in it (the protocol's): its
        moves and entries are the dicts an earlier shared view listed while the kept
        movement list keeps the unit's paths (issue 59: ~400 fresh dicts a decision)."""
        return self._view(seat, full=True, shared=True)

    def view_summary(self, seat: Seat) -> JSONDict:
        """The view's clock, turn order, options, losses, VP total and result, without
        the board's state (control, blocks, command ranges, supply, combat) or the legal
        actions: the protocol's summary, what the lab reads of a view when its agent reads
        none (each key as :meth:`view` gives it). Issue 59: a view's cost is the rest."""
        return self._view(seat, full=False)

    def _view(self, seat: Seat, full: bool, shared: bool = False) -> JSONDict:
        st = self.state
        d = self.decision()  # once a view (issue 59: a melee's is worked out each time)
        head: JSONDict = {
            "system": self.system, "seat": seat, "scenario": st.scenario, "title": st.title,
            # What the game was made from (a shipped name or a scenario file's path): public,
            # so an agent can read the scenario's own board, bands and set-up.
            "source": self.setup.scenario,
            "day": st.day, "hour": st.hour, "night": st.night,
            "time": time_label(st.day, st.hour), "phase": st.phase, "active": st.active,
            "order": list(st.order), "to_move": [] if st.over else self._movers(d),
            "options": list(st.options)}
        if not full:  # the summary
            head.update({"losses": dict(st.losses), "victory": csa_total(self.board, st),
                         "over": st.over, "result": self.result()})
            return head
        own = (lambda s: True) if seat == REFEREE else (lambda s: s == seat)
        out: JSONDict = {**head, "control": dict(st.control), "losses": dict(st.losses),
                         "victory": csa_total(self.board, st)}
        shown, hidden = self._shared_blocks(seat)
        if not shared:  # the caller's own dicts
            shown, hidden = [dict(b) for b in shown], [dict(b) for b in hidden]
        out["units"], out["hidden"] = shown, hidden
        out.update({
            "supply_points": {k: v for k, v in st.supply_points.items()
                              if own(st.units[k].side)},
            "night_points": {k: v for k, v in st.night_points.items() if own(k)},
            # A rebuilt leader is a hidden block again: only its owner sees who it is.
            "fallen": sorted(uid for uid in st.fallen if seat in (REFEREE, st.units[uid].side)
                             or st.units[uid].status != ON_MAP or st.units[uid].revealed),
            "verdicts": plain_copy(st.verdicts),  # json_copy's answer, 10x quicker
            "over": st.over, "result": self.result(),
        })
        out["command_ranges"] = self._shared_ranges(seat) if shared \
            else self._command_ranges(seat)
        if seat == REFEREE or seat == "usa":
            out["hancock"] = dict(st.hancock)
        out["combat"] = self._combat_view(seat, d)
        if seat in SEATS:
            out["legal_actions"] = self._shared_legal(seat) if shared \
                else self.legal_actions(seat)
        return out

    def _shared_legal(self, seat: Seat) -> list[Action]:
        """:meth:`legal_actions` with the moves and entries of the last shared list
        again where their paths are the same objects (``LegalActions.shared_list``)."""
        listed, self._shared_moves_memo = self._legal(seat, reuse=True).shared_list(
            self._shared_moves_memo or {})
        return listed

    def _shown(self, u: UnitState, full: bool) -> JSONDict:
        """A block the seat sees by id: ``fog.unit_view`` and its printed label (3.1),
        kept per the block's field values and label object (issue 59: most blocks are the
        same from one decision to the next) and shared: a caller copies it to change it."""
        memo = self._shown_memo
        if memo is None:
            memo = self._shown_memo = {}
        key = (full, unit_values(u))
        printed = self.orders.oob[u.id]
        got = memo.get(key)
        if got is None or got[0] is not printed:
            labels = self._label_memo
            if labels is None:
                labels = self._label_memo = {}
            label = labels.get(u.id)
            if label is None or label[0] is not printed:
                label = labels[u.id] = (printed, label_view(printed))
            if len(memo) >= SHOWN_MEMO:
                memo.clear()
            got = memo[key] = (printed, {**unit_view(u, full), **label[1]})
        return got[1]

    def _shared_blocks(self, seat: Seat) -> tuple[list[JSONDict], list[JSONDict]]:
        """The blocks of a view: ``fog.units_view``'s lists, their dicts kept from one
        view to the next and looked at again only for the blocks written to since
        (``shared_blocks``, issue 59); :meth:`view` hands out copies of them."""
        memo = self._blocks_memo
        if memo is None:
            memo = self._blocks_memo = {}
        kept = memo.get(seat)
        if kept is None:
            kept = memo[seat] = SharedBlocks(seat)
        return kept.blocks(self.state, self.key, self.orders.oob, self._shown)

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

    def _combat_view(self, seat: Seat, d: Decision | None) -> JSONDict:
        """What ``seat`` knows of the combat in progress: the decision it must take (or
        whose turn it is), declared melees (attacker ids only to their owner), the melee
        being fought (all its blocks are revealed, 7.1), the hexsides used (5.21), its own
        half hits (5.24) and the cavalry battles' public state (10.0); ``d``: the game's
        ``decision()``."""
        st = self.state
        everything = seat == REFEREE
        out: JSONDict = {}
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
        units = self.state.units
        placed: list[tuple[str, str, str]] = []  # (HQ, its hex, its side)
        for uid in self._ranged_hqs():
            u = units.get(uid)
            if u is not None and u.status == ON_MAP and u.hex is not None \
                    and seat in (REFEREE, u.side):
                placed.append((uid, u.hex, u.side))
        # The enemy hexes per side, the same set object while they stay the same, so the
        # keys below compare by identity (issue 59).
        kept = self._enemy_memo
        if kept is None:
            kept = self._enemy_memo = {}
        enemy: dict[str, frozenset[str]] = {}
        for side in sorted({side for _, _, side in placed}):
            now = enemy_hexes(self.state, side)
            was = kept.get(side)
            enemy[side] = kept[side] = was if was == now else now
        # The whole answer, kept per seat while its HQs stand where they stood (the
        # order of battle, which gives their ranges, compares by identity).
        whole = self._ranges_memo
        if whole is None:
            whole = self._ranges_memo = {}
        key = (self.orders.oob, tuple(placed), tuple(sorted(enemy.items())))
        last = whole.get(seat)
        if last is not None and last[0] == key:
            return {uid: list(hexes) for uid, hexes in last[1].items()}
        got: dict[str, tuple[str, ...]] = {}
        memo = self._range_memo
        if memo is None:
            memo = self._range_memo = {}
        for uid, hx, side in placed:
            # Kept per (hex, range, enemy hexes), all the trace reads (issue 59).
            one = (hx, self.orders.oob[uid].command_range, enemy[side])
            hexes = memo.get(one)
            if hexes is None:
                hexes = tuple(sorted(command_range(self.board, self.state, self.orders,
                                                   uid, enemy[side])))
                if len(memo) >= RANGE_MEMO:
                    del memo[next(iter(memo))]
                memo[one] = hexes
            got[uid] = hexes
        whole[seat] = (key, got)
        return {uid: list(hexes) for uid, hexes in got.items()}

    def _shared_ranges(self, seat: Seat) -> dict[str, list[str]]:
        """The command ranges of :meth:`view_shared`: the same dict while they stand
        (``shared_ranges``, issue 59)."""
        memo = self._shared_ranges_memo
        if memo is None:
            memo = self._shared_ranges_memo = {}
        kept = memo.get(seat)
        if kept is None:
            kept = memo[seat] = SharedRanges()
        return kept.ranges_now(self.state, self.orders.oob, self._ranged_hqs(),
                               lambda: self._command_ranges(seat))

    def _ranged_hqs(self) -> tuple[str, ...]:
        """The ids of the HQs with a command range (4.5), sorted: the only blocks
        ``_command_ranges`` looks at (issue 59: not every block at every view). Kept per
        order of battle (its printed labels do not change in a game)."""
        got = self._hq_memo
        oob = self.orders.oob
        if got is None or got[0] is not oob:
            ids = tuple(sorted(u.id for u in oob
                               if self.orders.is_hq(u.id) and u.command_range))
            got = self._hq_memo = (oob, ids)
        return got[1]

    def stacking_problems(self) -> list[str]:
        """Hexes over their limit right now (used by tests at phase ends)."""
        probe = BocState.from_json(self.state.to_json())
        return [str(e.data["hex"]) for e in check_stacking(self.board, probe, self.orders,
                                                            self.column_rule)]
