"""Every Badges of Courage action type, in one table: ``ACTION_TYPES``.

Each :class:`ActionType` gives a type's name, its fields in the order ``legal_actions``
writes them (each with its kind of value), the rule section that governs it, its check and
its apply. ``BocGame.validate`` and ``execute`` look the type up here, check the fields
against the table (:func:`check_fields`), then call the check (which refuses with a
:class:`RuleError` and changes nothing, returning what the apply needs) and the apply
(which changes the state and returns the events). The table's order is the order
``legal_actions`` lists the types in, and the action codec (:mod:`.action_codec`) numbers
each type's actions over the same fields in the same order.

To add an action type: write its check and apply here, add its row to ``ACTION_TYPES``
(the codec follows; a new kind of field needs a line in ``FIELD_KINDS`` and in the codec),
offer it in ``BocGame.legal_actions`` and give the client its words (``action.<type>``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import Any

from gettysburg.boc.board import BOC
from gettysburg.boc.cavalry_battle import DONE as CAVALRY_DONE
from gettysburg.boc.cavalry_battle import (
    CavalryBattleState,
    begin_cavalry_battles,
    cavalry_act,
    cavalry_decision,
)
from gettysburg.boc.combat import Decision, is_hq
from gettysburg.boc.command import commanded_units
from gettysburg.boc.control import front_line, index
from gettysburg.boc.entry_roads import road_name
from gettysburg.boc.fire import (
    FireLedger,
    Shot,
    end_fire_phase,
    resolve_choice,
    resolve_fire,
)
from gettysburg.boc.fire import check_fire as check_shot
from gettysburg.boc.fog import private
from gettysburg.boc.melee import (
    ENTRY,
    SUPPORTED,
    UNSUPPORTED,
    MeleeState,
    attack_problem,
    declare,
    end_melee_phase,
    melee_act,
    target_problem,
)
from gettysburg.boc.movement import NO_ROAD, MoveRules, entry_cost, path_cost, road_march
from gettysburg.boc.oob import ARTILLERY_TYPES
from gettysburg.boc.position import OPT_CAVALRY, Position, cavalry_data, cavalry_key
from gettysburg.boc.sequence import DEPLOY, NIGHT_ROADS, OPT_HANCOCK, end_phase
from gettysburg.boc.state import OFF_MAP, ON_MAP, RESERVE, UnitState, add_hours, clock, turn_key
from gettysburg.boc.supply import check_day_supply
from gettysburg.boc.supply import check_night_supply as night_supply_cost
from gettysburg.core.hexids import HexIdError
from gettysburg.core.protocol import RULE_ACTION, Action, Event, RuleError, Seat

HANCOCK_ROAD = "Taneytown Road"

#: The kinds of value a field holds: what a refusal says it must be. The codec numbers
#: each kind its own way (:mod:`.action_codec`).
FIELD_KINDS: dict[str, str] = {
    "unit": "a unit id",
    "pair": "a list of two unit ids",
    "hex": "a hex id",
    "near": "a hex id next to the acting block",
    "reach": "a hex id next to the acting block, or an entry hex for a block off the map",
    "entry": "an entry hex id",
    "path": "a non-empty list of hex ids",
    "road": "an entry road's name",
    "corps": "a corps name",
    "fight": "a cavalry fight's name",
    "bool": "true or false",
    "steps": "an integer",
    "word": "one of the listed words",
}
#: The kinds that name hexes (spelled as the map prints them, :func:`check_fields`).
HEX_KINDS = frozenset({"hex", "near", "reach", "entry", "path"})


@dataclass(frozen=True)
class Field:
    """One field of an action type."""

    name: str
    kind: str  # a key of FIELD_KINDS
    optional: bool = False
    #: The value an optional field stands for when left out (None: nothing).
    default: object = None
    #: Strings it may hold besides its kind (a retreat ``"off"`` the map); for ``word``,
    #: the only ones.
    words: tuple[str, ...] = ()
    #: Whether a legal action fixes it by its other fields (a move's path by its
    #: destination; the road of an entry attack by its hex): the codec leaves it out.
    fixed: bool = False

    def __post_init__(self) -> None:
        if self.kind not in FIELD_KINDS:
            raise ValueError(f"field {self.name!r}: unknown kind {self.kind!r}")

    def problem(self, value: object) -> str | None:
        """Why ``value`` cannot be this field's value, or ``None``."""
        if isinstance(value, str) and value in self.words:
            return None
        kind = self.kind
        if kind == "word":
            ok = False
        elif kind == "bool":
            ok = isinstance(value, bool)
        elif kind == "steps":
            ok = isinstance(value, int) and not isinstance(value, bool)
        elif kind == "path":
            ok = isinstance(value, list) and bool(value) \
                and all(isinstance(x, str) for x in value)
        elif kind == "pair":
            ok = isinstance(value, list) and len(value) == 2 \
                and all(isinstance(x, str) for x in value)
        else:
            ok = isinstance(value, str) and bool(value)
        if ok:
            return None
        shown = f" ({', '.join(map(repr, self.words))})" if self.words else ""
        return f"{self.name!r} must be {FIELD_KINDS[kind]}{shown}"


Check = Callable[[Position, Action, Seat], Any]
Apply = Callable[[Position, Action, Seat, Any], list[Event]]


@dataclass(frozen=True)
class ActionType:
    """One row of the table: an action type and how the engine takes it."""

    name: str
    fields: tuple[Field, ...]
    rule: str  # the rule section that governs it
    check: Check  # refuses (RuleError) or returns what ``apply`` needs; changes nothing
    apply: Apply  # carries out a checked action and returns the events
    #: An answer to a pending combat decision (``combat.Decision``), taken only then.
    answer: bool = False

    @cached_property
    def field_names(self) -> frozenset[str]:
        """Worked out once (every action checked asks: issue 59)."""
        return frozenset(f.name for f in self.fields)


def check_fields(kind: ActionType, action: Action) -> None:
    """Refuse an action whose fields are not its type's: one it does not take, one it needs
    and lacks, one of the wrong kind, or a hex not spelled as the map prints it ("F4", not
    "f4": an action is stored as sent, so the engine takes each in the one form
    ``legal_actions`` lists it in)."""
    extra = sorted(set(action) - {"type"} - kind.field_names)
    if extra:
        raise RuleError(RULE_ACTION, f"{kind.name} takes no field {extra[0]!r}")
    for f in kind.fields:
        if f.name not in action:
            if f.optional:
                continue
            raise RuleError(RULE_ACTION, f"{kind.name} needs {f.name!r} "
                                         f"({FIELD_KINDS[f.kind]})")
        why = f.problem(action[f.name])
        if why is not None:
            raise RuleError(RULE_ACTION, f"{kind.name}: {why}")
        if f.kind in HEX_KINDS:
            _check_hex_spelling(kind.name, f.name, action[f.name])


def _check_hex_spelling(kind: str, name: str, value: object) -> None:
    for text in value if isinstance(value, list) else [value]:
        if not isinstance(text, str):
            continue
        canon = _canonical_hex(text)
        if canon is None:
            continue  # not a hex id at all: the rule that reads the field says why
        if canon != text:
            raise RuleError(RULE_ACTION, f"{kind}: {name} {text!r} is written {canon!r} "
                                         "(hex ids as the map prints them)")


@lru_cache(maxsize=4096)
def _canonical_hex(text: str) -> str | None:
    """How the map prints the hex ``text`` names, or ``None`` if it names none (kept:
    every move's path is checked hex by hex, issue 59)."""
    try:
        return BOC.format(BOC.parse(text))
    except HexIdError:
        return None


def _path(action: Action) -> list[str]:
    return [str(x).upper() for x in action["path"]]


def _unit(game: Position, action: Action, name: str = "unit") -> UnitState:
    """The unit a checked action names (its check made sure it is there)."""
    return game.state.units[action[name]]


# --- 9.6 free deployment -------------------------------------------------------------------

def check_swap(game: Position, action: Action, seat: Seat) -> tuple[str, str]:
    game.require_phase(DEPLOY, rule="9.6")
    a, b = (game.own_unit(seat, x) for x in action["units"])
    if a.status != ON_MAP or b.status != ON_MAP or a.hex == b.hex:
        raise RuleError("9.6", "free deployment swaps two set-up units in different hexes")
    return a.id, b.id


def apply_swap(game: Position, action: Action, seat: Seat, ids: tuple[str, str]) -> list[Event]:
    """Two set-up units trade places, so every hex keeps its number of units."""
    a, b = game.state.units[ids[0]], game.state.units[ids[1]]
    a.hex, b.hex = b.hex, a.hex
    return [Event("swap", "9.6", {"units": [a.id, b.id], "hexes": [b.hex, a.hex]},
                  visible_to=(a.side,), redacted={"side": a.side})]


# --- 4.x command ---------------------------------------------------------------------------

def check_hancock(game: Position, action: Action, seat: Seat) -> tuple[str, int]:
    game.require_phase("command", rule="4.6")
    corps = action["corps"]
    if OPT_HANCOCK not in game.state.options:
        raise RuleError("4.6", "the Hancock option is not in play")
    for a in game.hancock_actions(seat):
        if a["corps"] == corps:
            chq = game.orders.corps_chq[("usa", corps)]
            return corps, game.state.fallen[chq]
    raise RuleError("4.6", f"Hancock cannot replace the CHQ of corps {corps!r} now "
                           "(it must have fallen, Hancock must still be on his way, "
                           "and the option is used once)")


def apply_hancock(game: Position, action: Action, seat: Seat,
                  checked: tuple[str, int]) -> list[Event]:
    corps, fell = checked
    sc = game.orders.hierarchy.usa.hancock_option
    assert sc is not None
    day, hour = add_hours(fell // 100, fell % 100, sc.delay_hours)
    h = game.state.units[sc.unit]
    h.arrival_key, h.arrival_entry, h.arrival_hex = turn_key(day, hour), HANCOCK_ROAD, None
    h.night_road = False
    game.state.hancock = {"corps": corps}
    data = {"corps": corps, "arrives": clock(day, hour), "entry": HANCOCK_ROAD}
    return [Event("hancock", "4.6", data, visible_to=("usa",),
                  redacted={"note": "the USA player made a command decision"})]


def _check_step(game: Position, action: Action, u: UnitState, rule: str) -> str | None:
    """4.3 / 8.1: the hex an activated HQ steps into, if it steps."""
    if "to" not in action:
        return None
    to = str(action["to"]).upper()
    if to not in game.deploy_targets(u):
        raise RuleError(rule, f"{to} is not an adjacent friendly hex with room for the HQ")
    return to


def _step_hq(game: Position, u: UnitState, to: str | None) -> None:
    if to is not None:
        u.hex, u.seq = to, game.state.next_seq()
    u.revealed = True


def check_activate(game: Position, action: Action, seat: Seat) -> str | None:
    game.require_phase("command")
    u = game.own_unit(seat, action["hq"])
    why = game.activation_problem(u)
    if why:
        raise RuleError("4.3", why)
    return _check_step(game, action, u, "4.3")


def apply_activate(game: Position, action: Action, seat: Seat, to: str | None) -> list[Event]:
    u = _unit(game, action, "hq")
    _step_hq(game, u, to)
    u.cmd_active = True
    under = commanded_units(game.board, game.state, game.orders, u.id)
    for uid in under:
        game.state.units[uid].in_command = True
    public = {"hq": u.id, "hex": u.hex, "strength": u.strength, "units": len(under)}
    return [Event("activate", "4.3", {**public, "under_command": under},
                  visible_to=(u.side,), redacted=public)]


# --- 5.x fire ------------------------------------------------------------------------------

def check_fire(game: Position, action: Action, seat: Seat) -> Shot:
    game.require_phase("fire", rule="5.0")
    return check_shot(game.board, game.state, game.orders, seat, FireLedger.from_json(
        game.state.fire), action)


def apply_fire(game: Position, action: Action, seat: Seat, shot: Shot) -> list[Event]:
    st = game.state
    led = FireLedger.from_json(st.fire)
    out = resolve_fire(game.board, st, game.orders, led, seat, action, game.dice, shot)
    st.fire = led.to_json()
    return out.events


# --- 6.x movement --------------------------------------------------------------------------

def _crossings(game: Position, path: list[str], front: frozenset[str]) -> None:
    """6.62: count every hexside of a front-line hex the move crosses. An entering unit's
    path starts on the map, so its step in from the edge is not counted (6.7)."""
    idx = index(game.board)
    for i in range(1, len(path)):
        a, b = path[i - 1], path[i]
        if a in front or b in front:
            key = idx.side_key(a, b)
            game.state.side_use[key] = game.state.side_use.get(key, 0) + 1


def _arrive(game: Position, u: UnitState, dest: str, front: frozenset[str]) -> list[Event]:
    u.hex, u.seq, u.moved = dest, game.state.next_seq(), True
    label = game.orders.oob[u.id]
    if label.type in ARTILLERY_TYPES and dest in front and not u.revealed:
        u.revealed = True  # 6.63 the active player's artillery shows at once
        return [Event("revealed", "6.63", {"unit": u.id, "side": u.side, "hex": dest,
                                           "strength": u.strength})]
    return []


def check_formation(game: Position, action: Action, seat: Seat) -> bool:
    game.require_phase("movement", rule="6.0 column/line")
    if not game.column_rule:
        raise RuleError("6.0 column/line", "the column/line option is not in play")
    u = game.own_unit(seat, action["unit"])
    column: bool = action["column"]
    if game.orders.oob[u.id].type != "infantry":
        raise RuleError("6.0 column/line", "only infantry changes formation")
    if column == u.column:
        raise RuleError("6.0 column/line", "already in that formation")
    if u.status in (RESERVE, OFF_MAP):
        # The box: units come on in line or in column, as the player wishes (no MP).
        why = game.entry_problem(u)
    else:
        why = game.move_problem(u) or game.formation_problem(u)
    if why:
        raise RuleError("6.0 column/line", why)
    return column


def apply_formation(game: Position, action: Action, seat: Seat, column: bool) -> list[Event]:
    u = _unit(game, action)
    label = game.orders.oob[u.id]
    front = front_line(game.board, game.state, u.side)
    cost = label.movement.allowance if u.hex in front else label.movement.allowance // 2
    if u.status != ON_MAP:
        cost = 0  # choosing the formation to enter in is free
    u.mp_used += cost
    u.column = column
    # Formation is visible on the table (the block lies face down in column).
    return [private("formation", "6.0 column/line", u,
                    {"unit": u.id, "column": column, "mp": cost},
                    {"side": u.side, "hex": u.hex, "column": column}, game.key)]


def check_move(game: Position, action: Action, seat: Seat) -> int:
    game.require_phase("movement")
    u = game.own_unit(seat, action["unit"])
    why = game.move_problem(u)
    if why:
        raise RuleError("6.1", why)
    path = _path(action)
    if path[0] != u.hex:
        raise RuleError("6.3", f"the path must start where the unit is ({u.hex})")
    if len(path) < 2:
        raise RuleError("6.3", "the path must leave the starting hex")
    kept = game.kept_move(u)  # the rules the listed moves were searched by (issue 59)
    if kept is not None:
        return path_cost(game.board, path, kept[1])
    front = front_line(game.board, game.state, seat)
    return path_cost(game.board, path, game.move_rules(u, front))


def apply_move(game: Position, action: Action, seat: Seat, cost: int) -> list[Event]:
    u = _unit(game, action)
    path = _path(action)
    kept = game.kept_move(u)  # nothing changed yet: the listed front line (issue 59)
    front = kept[0] if kept is not None else front_line(game.board, game.state, u.side)
    _crossings(game, path, front)
    u.mp_used += cost
    ev = private("move", "6.3", u, {"unit": u.id, "path": path, "mp": cost},
                 {"side": u.side, "path": path}, game.key)
    return [ev, *_arrive(game, u, path[-1], front)]


def check_enter(game: Position, action: Action, seat: Seat) -> tuple[int, str]:
    game.require_phase("movement", rule="6.7")
    u = game.own_unit(seat, action["unit"])
    why = game.entry_problem(u)
    if why:
        raise RuleError("6.7", why)
    entry = str(action["entry"]).upper()
    path = _path(action)
    roads = dict(game.entry_hexes(u))
    if entry not in roads:
        raise RuleError("6.7", f"{entry} is not an entry hex this unit may use now "
                               "(its entry road or an adjacent one, division together)")
    idx = index(game.board)
    first = path[0]
    # The front line and rules the listed entries were worked out by (issue 59), if the
    # kept movement list is current; else afresh.
    kept = game.kept_move(u)
    if kept is not None:
        front, rules = kept
    else:
        front = front_line(game.board, game.state, seat)
        rules = game.move_rules(u, front)
    if u.night_road and game.state.night:
        march = road_march(game.board, entry, rules.forbidden, NIGHT_ROADS)
        if march.get(path[-1]) != path:
            raise RuleError("9.74", "night reinforcements march from their entry hex "
                                    "along the Taneytown, Emmitsburg or Littlestown "
                                    "roads, as far as I6, and never into the front "
                                    "line; use the listed path")
        return 0, roads[entry]
    if first != entry and not (first in idx.nbrs.get(entry, ()) and first in idx.edge):
        raise RuleError("6.7", "a unit comes on at the entry hex or an edge hex beside it")
    if first in rules.forbidden:
        raise RuleError("6.7", f"{first} may not be entered now")
    label = game.orders.oob[u.id]
    cost0, road0 = entry_cost(game.board, entry, first, roads[entry],
                              label.movement.off_road_multiplier, rules.roads)
    if len(path) == 1:
        return cost0, roads[entry]
    sub = MoveRules(rules.budget, rules.multiplier, rules.roads, False, rules.stop,
                    rules.forbidden, rules.full_sides, entered=True)
    cost = path_cost(game.board, path, sub, road0 if first == entry and rules.roads
                     else NO_ROAD, cost0)
    return cost, roads[entry]


def apply_enter(game: Position, action: Action, seat: Seat,
                checked: tuple[int, str]) -> list[Event]:
    cost, road = checked
    u = _unit(game, action)
    entry, path = str(action["entry"]).upper(), _path(action)
    st = game.state
    kept = game.kept_move(u)  # nothing changed yet: the listed front line (issue 59)
    front = kept[0] if kept is not None else front_line(game.board, st, u.side)
    _crossings(game, path, front)
    div = game.division_key(u)
    if div and road and u.status == RESERVE:
        st.entry_roads[div] = road
    was_off = u.status == OFF_MAP
    if was_off:
        # Back from off the map (2.4) it shows the same back as its fellows: a new handle.
        u.returned += 1
    u.status, u.mp_used = ON_MAP, u.mp_used + cost
    u.arrival_key = u.arrival_hex = u.arrival_entry = None
    u.exit_hex, u.night_road = None, False
    rule = "2.4" if was_off else ("9.74" if st.night else "6.7")
    ev = private("enter", rule, u, {"unit": u.id, "entry": entry, "path": path, "mp": cost},
                 {"side": u.side, "entry": entry, "path": path}, game.key)
    return [ev, *_arrive(game, u, path[-1], front)]


def check_leave_map(game: Position, action: Action, seat: Seat) -> None:
    game.require_phase("movement", rule="2.4")
    u = game.own_unit(seat, action["unit"])
    why = game.move_problem(u)
    if why:
        raise RuleError("2.4", why)
    if u.hex not in index(game.board).edge:
        raise RuleError("2.4", "only a unit in a map-edge hex can leave the map")


def apply_leave_map(game: Position, action: Action, seat: Seat, checked: None) -> list[Event]:
    u = _unit(game, action)
    ev = private("leave_map", "2.4", u, {"unit": u.id, "hex": u.hex},
                 {"side": u.side, "hex": u.hex}, game.key)
    u.status, u.exit_hex, u.hex, u.moved = OFF_MAP, u.hex, None, True
    u.revealed = False
    return [ev]


# --- 7.x melee declarations ----------------------------------------------------------------

def check_melee(game: Position, action: Action, seat: Seat) -> list[str]:
    """7.1 / 7.8 / 6.7 declarations (pure: :func:`melee.declare` applies them); for an
    attack from an entry road, the edge hexes the unit may come on at."""
    game.require_phase("movement", rule="7.1")
    game.require_day("7.1")
    st = game.state
    u = game.own_unit(seat, action["unit"])
    target = action["target"]
    ms = MeleeState.from_json(st.melee)
    if ms.declared(u.id):
        raise RuleError("7.1", f"{u.id} has already declared a melee")
    if "entry" in action:
        road = action["entry"]
        if u.status == ON_MAP:
            raise RuleError("6.7", "only arriving units attack from an entry road")
        why = game.entry_problem(u)
        if why:
            raise RuleError("6.7", why)
        label = game.orders.oob[u.id]
        if is_hq(label) or label.type == "artillery":
            raise RuleError("6.7", "HQs and artillery do not attack in melee (7.4, 7.5)")
        pairs = game.entry_hexes(u)
        if not any(h == target and road_name(r) == road_name(road) for h, r in pairs):
            raise RuleError("6.7", f"{target} by the {road} is not an entry this unit "
                                   "may use now")
        bad = target_problem(game.board, st, ms, seat, target, ENTRY, None)
        if bad is not None:
            raise RuleError(*bad)
        return [h for h, _ in pairs]
    unsupported: bool = action.get("unsupported", False)
    why = attack_problem(st, game.orders, u.id, unsupported)
    if why is not None:
        raise RuleError("7.8" if unsupported else "7.1", why)
    if unsupported and attack_problem(st, game.orders, u.id, False) is None:
        raise RuleError("7.8", "a unit under command attacks supported; 7.8 is for "
                               "units without command")
    assert u.hex is not None
    if target not in index(game.board).nbrs.get(u.hex, ()):
        raise RuleError("7.1", f"{target} is not adjacent to {u.hex}")
    bad = target_problem(game.board, st, ms, seat, target,
                         UNSUPPORTED if unsupported else SUPPORTED, u.hex)
    if bad is not None:
        raise RuleError(*bad)
    return []


def apply_melee(game: Position, action: Action, seat: Seat,
                entry_hexes: list[str]) -> list[Event]:
    st = game.state
    ms = MeleeState.from_json(st.melee)
    u = _unit(game, action)
    if "entry" in action:
        div = game.division_key(u)
        if div and u.status == RESERVE:  # 6.7 the division keeps to this road
            road = dict(game.entry_hexes(u)).get(action["target"])
            if road:
                st.entry_roads[div] = road
    ev = declare(game.board, st, game.orders, seat, ms, action, entry_hexes)
    st.melee = ms.to_json()
    return [ev]


# --- answers to combat decisions (5.23, 5.32, 7.x, 10.0) -----------------------------------

def check_answer(game: Position, action: Action, seat: Seat) -> Decision:
    d = game.decision()
    if d is None:
        raise RuleError("1.2", f"no combat decision is waiting for {action['type']!r}")
    if seat != d.seat:
        raise RuleError(d.rule, f"the {d.kind} decision is {d.seat}'s")
    if action not in d.options:
        raise RuleError(d.rule, f"not one of the answers to the {d.kind} decision now")
    return d


def apply_answer(game: Position, action: Action, seat: Seat, d: Decision) -> list[Event]:
    st = game.state
    if game.cavalry_active():
        cs = CavalryBattleState.from_json(st.cavalry)
        events = cavalry_act(game.board, st, game.orders, game.cavalry_rules(), cs, seat,
                             action, game.dice)
        st.cavalry = cs.to_json()
        return events
    if st.phase == "fire":
        led = FireLedger.from_json(st.fire)
        out = resolve_choice(game.board, st, game.orders, led, seat, action)
        st.fire = led.to_json()
        return out.events
    ms = MeleeState.from_json(st.melee)
    events = melee_act(game.board, st, game.orders, ms, seat, action, game.dice, d)
    st.melee = ms.to_json()
    for a in ms.attacks:  # 6.7: an entry attacker that won the hex has arrived
        u = st.units[a.unit]
        if a.kind == ENTRY and u.status == ON_MAP and u.arrival_key is not None:
            u.arrival_key = u.arrival_hex = u.arrival_entry = None
            u.exit_hex, u.night_road = None, False
    return events


# --- 8.x supply ----------------------------------------------------------------------------

def check_supply_activate(game: Position, action: Action, seat: Seat) -> str | None:
    game.require_phase("supply", rule="8.1")
    game.require_day("8.1")
    u = game.own_unit(seat, action["hq"])
    why = game.supply_activation_problem(u)
    if why:
        raise RuleError("8.1", why)
    return _check_step(game, action, u, "8.1")


def apply_supply_activate(game: Position, action: Action, seat: Seat,
                          to: str | None) -> list[Event]:
    u = _unit(game, action, "hq")
    _step_hq(game, u, to)
    u.sup_active = True
    u.strength = max(0, u.strength - 1)  # 8.1 / 8.0 example: activation costs a step
    sp = game.orders.oob[u.id].command_range or 0
    game.state.supply_points[u.id] = sp
    return [Event("supply_activate", "8.1", {"hq": u.id, "hex": u.hex,
                                             "strength": u.strength, "sp": sp})]


def check_supply(game: Position, action: Action, seat: Seat) -> int:
    game.require_phase("supply", rule="8.3")
    game.require_day("8.3")
    hq = game.own_unit(seat, action["hq"])
    u = game.own_unit(seat, action["unit"])
    return check_day_supply(game.board, game.state, game.orders, hq.id, u.id,
                            action.get("steps", 1))


def apply_supply(game: Position, action: Action, seat: Seat, cost: int) -> list[Event]:
    hq, u = _unit(game, action, "hq"), _unit(game, action)
    u.strength += 1
    u.supplied = True
    game.state.supply_points[hq.id] -= cost
    return [private("supply", "8.3", u, {"hq": hq.id, "unit": u.id, "cost": cost,
                                         "strength": u.strength},
                    {"hq": hq.id, "cost": cost}, game.key)]


def check_night_supply(game: Position, action: Action, seat: Seat) -> int:
    game.require_phase("supply", rule="8.4")
    if not game.state.night:
        raise RuleError("8.4", "night supply is given only in the night turn (9.73)")
    u = game.own_unit(seat, action["unit"])
    return night_supply_cost(game.board, game.state, game.orders, u.id,
                              action.get("steps", 1))


def apply_night_supply(game: Position, action: Action, seat: Seat, cost: int) -> list[Event]:
    u = _unit(game, action)
    steps: int = action.get("steps", 1)
    u.strength += steps
    game.state.night_points[u.side] -= cost
    return [private("night_supply", "8.4", u, {"unit": u.id, "steps": steps, "cost": cost,
                                               "strength": u.strength},
                    {"side": u.side, "cost": cost}, game.key)]


# --- 1.2 the end of a phase ----------------------------------------------------------------

def check_end_phase(game: Position, action: Action, seat: Seat) -> None:
    return None


def apply_end_phase(game: Position, action: Action, seat: Seat, checked: None) -> list[Event]:
    """5.24 / 5.21 after the fire phase, the melee bookkeeping after the melee phase, then
    the phase machine (``sequence.end_phase``) and, at Day 3 2 PM, the cavalry battles."""
    st = game.state
    events: list[Event] = []
    if st.phase == "fire" and st.fire:
        events += end_fire_phase(st, FireLedger.from_json(st.fire))
        st.fire = {}
    if st.phase == "melee" and st.melee:
        end_melee_phase(MeleeState.from_json(st.melee))
        st.melee = {}
    events += end_phase(game.board, st, game.orders, game.dice, game.column_rule)
    return events + cavalry_battles_if_due(game)


def cavalry_battles_if_due(game: Position) -> list[Event]:
    """10.0 (option): the off-map cavalry battles are set up when the clock reaches Day 3
    2 PM (after that hour's initiative roll), or at once in a position that starts then."""
    st = game.state
    if OPT_CAVALRY not in st.options or st.cavalry or st.over or st.night:
        return []
    cb = cavalry_data()
    if st.now != cavalry_key(cb):
        return []
    cs, events = begin_cavalry_battles(st, cb, game.dice)
    d = cavalry_decision(game.board, st, game.orders, cb, cs)
    st.cavalry = cs.to_json()
    if d is None:
        st.cavalry["stage"] = CAVALRY_DONE
    return [Event("cavalry_battles", "10.0", {"time": clock(st.day, st.hour)}), *events]


# --- the table -----------------------------------------------------------------------------

_UNIT = Field("unit", "unit")
_TO_HEX = Field("to", "hex")


def _answer(name: str, rule: str, *fields: Field) -> ActionType:
    return ActionType(name, fields, rule, check_answer, apply_answer, answer=True)


#: Every action type, in the order ``legal_actions`` lists them: command decisions, fire,
#: moves and entries, melee declarations, combat answers, supply, then ``end_phase``.
ACTION_TYPES: tuple[ActionType, ...] = (
    ActionType("swap", (Field("units", "pair"),), "9.6", check_swap, apply_swap),
    ActionType("hancock", (Field("corps", "corps"),), "4.6", check_hancock, apply_hancock),
    ActionType("activate", (Field("hq", "unit"), Field("to", "near", optional=True)), "4.3",
               check_activate, apply_activate),
    ActionType("fire", (_UNIT, Field("target", "hex"), Field("through", "near"),
                        Field("at", "word", optional=True, words=("artillery",))), "5.2",
               check_fire, apply_fire),
    ActionType("formation", (_UNIT, Field("column", "bool")), "6.0 column/line",
               check_formation, apply_formation),
    ActionType("move", (_UNIT, Field("path", "path")), "6.3", check_move, apply_move),
    ActionType("enter", (_UNIT, Field("entry", "entry"), Field("path", "path")), "6.7",
               check_enter, apply_enter),
    ActionType("melee", (_UNIT, Field("target", "reach"),
                         Field("unsupported", "bool", optional=True, default=False),
                         Field("entry", "road", optional=True, fixed=True)), "7.1",
               check_melee, apply_melee),
    ActionType("leave_map", (_UNIT,), "2.4", check_leave_map, apply_leave_map),
    _answer("casualty", "5.23", _UNIT),
    _answer("repulse", "5.32", _UNIT, _TO_HEX),
    _answer("melee_resolve", "7.1", Field("hex", "hex")),
    _answer("melee_fight", "7.2", _UNIT),
    _answer("melee_line", "6.0 column/line", _UNIT),
    _answer("melee_retreat", "7.7", _UNIT, Field("to", "hex", words=("off",))),
    _answer("regroup", "7.9", _UNIT, _TO_HEX),
    _answer("regroup_done", "7.9"),
    _answer("cavalry_custer", "10.0", Field("move", "bool")),
    _answer("cavalry_assign", "10.0", _UNIT, Field("fight", "fight")),
    _answer("cavalry_assign_done", "10.0"),
    ActionType("supply_activate", (Field("hq", "unit"), Field("to", "near", optional=True)),
               "8.1", check_supply_activate, apply_supply_activate),
    ActionType("supply", (Field("hq", "unit"), _UNIT,
                          Field("steps", "steps", optional=True, default=1, fixed=True)),
               "8.3", check_supply, apply_supply),
    ActionType("night_supply", (_UNIT, Field("steps", "steps", optional=True, default=1)),
               "8.4", check_night_supply, apply_night_supply),
    ActionType("end_phase", (), "1.2", check_end_phase, apply_end_phase),
)
BY_NAME: dict[str, ActionType] = {t.name: t for t in ACTION_TYPES}


def action_type(name: str) -> ActionType:
    """The row for ``name``; an unknown type is refused naming the known ones."""
    found = BY_NAME.get(name)
    if found is None:
        raise RuleError(RULE_ACTION, f"unknown action type {name!r}; known: "
                                     f"{', '.join(BY_NAME)}")
    return found
