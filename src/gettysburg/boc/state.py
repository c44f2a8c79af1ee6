"""Badges of Courage game state: units, clock, control snapshot, counters.

Everything that shapes the future of a game lives in :class:`BocState` and round-trips
through JSON (``to_json`` / ``from_json``) so :class:`gettysburg.boc.game.BocGame` can hand
it to the protocol's atomic ``apply`` and to save files.
"""

from __future__ import annotations

import json
import math
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields
from itertools import repeat
from operator import attrgetter
from typing import Any, Final

from gettysburg.boc.unit_edits import note_edit
from gettysburg.core.canonical import CanonicalError, JSONDict, check_json, json_copy

SIDES: Final = ("usa", "csa")

# Unit status (brief, 2.4): not yet arrived / on the map / left the map (disorganised
# until night) / eliminated / gone for good (left on the last day).
RESERVE: Final = "reserve"
ON_MAP: Final = "on_map"
OFF_MAP: Final = "off_map"
ELIMINATED: Final = "eliminated"
WITHDRAWN: Final = "withdrawn"
STATUSES: Final = (RESERVE, ON_MAP, OFF_MAP, ELIMINATED, WITHDRAWN)

NIGHT_HOUR: Final = 21  # the 9.7 night turn sorts after the 8 PM turn of its day
FIRST_HOUR: Final = 8
LAST_HOUR: Final = 20


def other(side: str) -> str:
    return "csa" if side == "usa" else "usa"


def turn_key(day: int, hour: int) -> int:
    """Orderable time of a turn (``hour`` 8..20, or 21 for the night turn)."""
    return day * 100 + hour


def parse_time(text: str) -> int:
    """``"16:00"`` -> 16, ``"night"`` -> 21."""
    if text == "night":
        return NIGHT_HOUR
    return int(text.split(":")[0])


def add_hours(day: int, hour: int, n: int) -> tuple[int, int]:
    """``n`` turns later; the night turn counts as one turn and day turns start at 8 AM."""
    for _ in range(n):
        if hour < LAST_HOUR:
            hour += 1
        elif hour == LAST_HOUR:
            hour = NIGHT_HOUR
        else:
            day, hour = day + 1, FIRST_HOUR
    return day, hour


def clock(day: int, hour: int) -> JSONDict:
    """A time of day as events give it (docs/protocol.md, "event data"): the client words
    it in the player's language, so the log carries no English time text."""
    return {"day": day, "hour": hour, "night": hour == NIGHT_HOUR}


def time_label(day: int, hour: int) -> str:
    if hour == NIGHT_HOUR:
        return f"Day {day} night"
    shown = hour if hour <= 12 else hour - 12
    return f"Day {day} {shown} {'AM' if hour < 12 else 'PM'}"


@dataclass
class UnitState:
    """One block's dynamic state (its printed label lives in the order of battle)."""

    id: str
    side: str
    status: str
    hex: str | None
    strength: int
    revealed: bool = False
    cmd_active: bool = False  # HQ activated in the command phase (4.3)
    in_command: bool = False  # under command until the end of the melee phase (4.3)
    sup_active: bool = False  # HQ activated for supply this supply phase (8.1)
    supplied: bool = False  # received a step this (day) supply phase (8.3)
    fired: bool = False  # fired this player turn (5.2); fired units cannot move (6.1)
    moved: bool = False  # moved or entered this movement phase
    mp_used: int = 0  # MPs spent this movement phase (formation changes, column/line box)
    column: bool = False  # column formation (column/line option)
    seq: int = 0  # when it last entered its hex: later arrivals are the stacking excess (6.2)
    exit_hex: str | None = None  # 2.4: where it left the map
    arrival_key: int | None = None  # turn_key from which it may enter (reserve / off-map)
    arrival_entry: str | None = None  # entry road name (6.7)
    arrival_hex: str | None = None  # entry hex when fixed (scenario hex or 2.4 return hex)
    night_road: bool = False  # 9.74 night reinforcement: road march to I6, MPs not counted
    returned: int = 0  # times it came back (a DHQ 4.61, off the map 2.4): a new handle each

    def __setattr__(self, name: str, value: Any) -> None:
        # Every write is noted (unit_edits), so a seat's kept view of the blocks looks
        # again at the blocks written to, not at all of them (issue 59). Not through
        # self.__dict__: asking for it gives the instance a dict of its own, and then
        # every attribute read of it is several times slower (CPython 3.11).
        _set_field(self, name, value)
        note_edit(self)

    def __reduce__(self) -> tuple[Callable[[tuple[Any, ...]], UnitState], tuple[Any, ...]]:
        # Pickles and copies are built again from the field values: the default way asks
        # for the instance's __dict__ (see __setattr__), the original's and the copy's.
        return unit_from_values, (_VALUES(self),)

    def __copy__(self) -> UnitState:
        return unit_from_values(_VALUES(self))

    def to_json(self, full: bool = True) -> JSONDict:
        """All fields, or (``full=False``, for the compact game state) only the five that
        every unit has plus those that differ from their defaults."""
        # Every field is a str, int, bool or None: no deep copy needed (asdict is slow).
        # Most units are unchanged from one action to the next: the compact form is kept
        # per tuple of field values (issue 59: the state is encoded twice per recorded
        # action). Every value is a hashable scalar; the caller gets its own dict.
        values = _VALUES(self)
        if full:
            return dict(zip(_NAMES, values, strict=True))
        got = _COMPACT.get(values)
        if got is None:
            # From the values, not self.__dict__: asking for __dict__ gives the instance a
            # dict of its own, which makes every later attribute read of it slower.
            got = {k: v for k, v in zip(_NAMES, values, strict=True)
                   if k in _ALWAYS or v != _DEFAULTS[k]}
            check_json(got)  # once per form: the game's hash encodes it unchecked
            if len(_COMPACT) >= COMPACT_MEMO:
                _COMPACT.clear()
            _COMPACT[values] = got
        return dict(got)

    def compact_text(self) -> str:
        """The canonical JSON text of ``to_json(full=False)``, kept per field values."""
        values = _VALUES(self)
        got = _TEXT.get(values)
        if got is None:
            got = canonical_dumps(self.to_json(full=False))
            if len(_TEXT) >= COMPACT_MEMO:
                _TEXT.clear()
            _TEXT[values] = got
        return got

    @staticmethod
    def from_json(data: dict[str, Any]) -> UnitState:
        names = {f.name for f in fields(UnitState)}
        return UnitState(**{k: v for k, v in data.items() if k in names})


def canonical_dumps(value: Any) -> str:
    """``core.canonical.canonical_json``'s encoding of already checked data."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)


def plain_copy(value: Any) -> Any:
    """What ``json_copy`` gives for plain JSON data (dicts with their keys sorted, tuples
    as lists, every container new), without encoding and decoding it (issue 59: the
    state is copied for every recorded action). Refuses what ``check_json`` refuses; a
    non-finite float is refused by the encoder (``allow_nan=False``) where it is used."""
    if isinstance(value, _SCALARS):
        return value
    if isinstance(value, dict):
        for k in value:
            if not isinstance(k, str):
                raise CanonicalError(f"key {k!r} is {type(k).__name__}, not str")
        return {k: plain_copy(value[k]) for k in sorted(value)}
    if isinstance(value, list | tuple):
        return [plain_copy(v) for v in value]
    if isinstance(value, float) and math.isfinite(value):
        return value
    check_json(value)  # raises, naming what is not JSON
    raise CanonicalError(f"{value!r} is not plain JSON")


_SCALARS = (str, bool, int, type(None))
_set_field = object.__setattr__
_ALWAYS = frozenset({"id", "side", "status", "hex", "strength"})
_NAMES = tuple(f.name for f in fields(UnitState))
_DEFAULTS: dict[str, Any] = {f.name: f.default for f in fields(UnitState)}
_VALUES = attrgetter(*_NAMES)  # a unit's field values as one tuple, in _NAMES order
_new_object = object.__new__
#: Runs an iterator to its end, keeping nothing.
_consume: Callable[[Iterable[object]], None] = deque[object](maxlen=0).extend


def unit_from_values(values: tuple[Any, ...]) -> UnitState:
    """``UnitState(*values)`` (``values`` in ``_NAMES`` order, all of them) without the
    write hook: copies and savepoints build every unit of a state (issue 59), and a new
    object is no write to note (a reader of the write log checks new objects itself,
    ``unit_edits``). The fields are set by one C loop, not a Python call each: about a
    third cheaper; still not through ``__dict__`` (see ``UnitState.__setattr__``)."""
    unit: UnitState = _new_object(UnitState)
    _consume(map(_set_field, repeat(unit, len(_NAMES)), _NAMES, values))
    return unit


def copy_units(units: dict[str, UnitState]) -> dict[str, UnitState]:
    """A copy of each unit (``copy.copy``'s, without its dispatch), in the same order."""
    return {k: unit_from_values(_VALUES(u)) for k, u in units.items()}
#: Field values -> the compact JSON of a unit (``UnitState.to_json(full=False)``).
_COMPACT: dict[tuple[Any, ...], JSONDict] = {}
#: Field values -> the canonical text of the compact JSON (``UnitState.compact_text``).
_TEXT: dict[tuple[Any, ...], str] = {}
#: How many compact forms are kept before the memo starts afresh.
COMPACT_MEMO = 20000
#: Keys (unit ids, field names) -> their canonical JSON text: a hash writes every one.
_KEY_TEXT: dict[str, str] = {}


def _key_text(key: object) -> str:
    """``canonical_dumps(key)``, kept for text keys (issue 59: some 120 keys a hash, a
    hash an action)."""
    if type(key) is not str:
        return canonical_dumps(key)
    got = _KEY_TEXT.get(key)
    if got is None:
        got = canonical_dumps(key)
        if len(_KEY_TEXT) >= COMPACT_MEMO:
            _KEY_TEXT.clear()
        _KEY_TEXT[key] = got
    return got


_OPTIONAL = frozenset({"fire", "melee", "cavalry"})
#: Fields of ``BocState`` holding only strings and numbers (``BocState.savepoint`` copies
#: them shallowly): dicts, then lists.
_FLAT_DICTS = frozenset({"control", "side_use", "losses", "supply_points", "night_points",
                         "entry_roads", "acting", "fallen", "bands"})
_FLAT_LISTS = frozenset({"order", "options", "rebuild", "deploy"})


@dataclass
class BocState:
    """The whole rule state of a game."""

    scenario: str
    title: str
    day: int
    hour: int
    phase: str
    active: str
    order: list[str]  # player 1 and player 2 of the current hour (1.1)
    player_index: int  # 0 = player 1's turn, 1 = player 2's
    units: dict[str, UnitState]
    options: list[str]
    last_day: int  # the scenario's final day
    ends_after_night: bool  # the scenario ends after the night turn of its last day (9.3)
    campaign: bool  # 9.5 the full battle: verdict after each day, go on after a draw
    bands: dict[str, int]  # 9.1 CSA total: csa_win_min / usa_win_max
    control: dict[str, str] = field(default_factory=dict)  # 6.6 snapshot: hex -> side
    side_use: dict[str, int] = field(default_factory=dict)  # 6.62 crossings per hexside
    losses: dict[str, int] = field(default_factory=lambda: {"usa": 0, "csa": 0})  # 9.12
    supply_points: dict[str, int] = field(default_factory=dict)  # 8.2 SP left per HQ
    night_points: dict[str, int] = field(default_factory=dict)  # 8.4 SP left per side
    entry_roads: dict[str, str] = field(default_factory=dict)  # 6.7 division -> road used
    acting: dict[str, str] = field(default_factory=dict)  # scenario: unit -> corps it leads
    fallen: dict[str, int] = field(default_factory=dict)  # HQ -> turn_key it fell (4.61)
    rebuild: list[str] = field(default_factory=list)  # fallen DHQs to rebuild (4.61)
    hancock: dict[str, Any] = field(default_factory=dict)  # {"corps": C} once chosen
    deploy: list[str] = field(default_factory=list)  # 9.6 sides still to deploy, in order
    fire: JSONDict = field(default_factory=dict)  # fire.FireLedger (5.21, 5.23, 5.24)
    melee: JSONDict = field(default_factory=dict)  # melee.MeleeState (7.x, 6.7)
    cavalry: JSONDict = field(default_factory=dict)  # cavalry_battle state (10.0 option)
    seq: int = 0
    verdicts: list[JSONDict] = field(default_factory=list)
    over: bool = False
    result: JSONDict | None = None

    def _fields_json(self) -> JSONDict:
        """The fields but the units, as they are (not copied)."""
        # The combat fields are left out while empty, so positions without combat keep
        # the JSON (and hashes) they had before the combat rules.
        return {f.name: getattr(self, f.name) for f in fields(self)
                if f.name != "units" and not (f.name in _OPTIONAL
                                              and not getattr(self, f.name))}

    def to_json(self) -> JSONDict:
        data: JSONDict = plain_copy(self._fields_json())
        data["units"] = {k: u.to_json(full=False) for k, u in sorted(self.units.items())}
        return data

    def canonical_text(self) -> str:
        """``canonical_json(self.to_json())``, each unit's part kept as text per its field
        values (issue 59: a recorded action hashes the whole state; most units did not
        change). Keys sorted as ``json.dumps(sort_keys=True)`` sorts them."""
        data = self._fields_json()
        check_json(data)
        units = ",".join(f"{_key_text(k)}:{u.compact_text()}"
                         for k, u in sorted(self.units.items()))
        # The other fields in two encodings, those before "units" and those after, with
        # the units' text put between them (two json.dumps calls instead of one a field).
        before = canonical_dumps({k: v for k, v in data.items() if k < "units"})[1:-1]
        after = canonical_dumps({k: v for k, v in data.items() if k > "units"})[1:-1]
        return "{" + ",".join(t for t in (before, f'"units":{{{units}}}', after) if t) + "}"

    def savepoint(self) -> Callable[[], BocState]:
        """A way back to this state as it is now (issue 59: ``apply`` takes one before
        every action): each unit's field values, shallow copies of the fields that hold
        strings and numbers only, deep copies of the rest. The function builds the state
        ``from_json(self.to_json())`` would build (units and dict keys sorted), new each
        time it is called."""
        units = [(k, _VALUES(u)) for k, u in sorted(self.units.items())]
        flat: dict[str, Any] = {}
        deep: dict[str, Any] = {}
        for k, v in self._fields_json().items():
            if k in _FLAT_DICTS:
                flat[k] = dict(sorted(v.items()))
            elif k in _FLAT_LISTS:
                flat[k] = list(v)
            elif isinstance(v, _SCALARS):
                flat[k] = v
            else:
                deep[k] = plain_copy(v)

        def restore() -> BocState:
            fields_: dict[str, Any] = {k: (v.copy() if isinstance(v, dict | list) else v)
                                       for k, v in flat.items()}
            fields_.update(plain_copy(deep))
            return BocState(units={k: unit_from_values(v) for k, v in units}, **fields_)
        return restore

    @staticmethod
    def from_json(data: dict[str, Any]) -> BocState:
        raw = json_copy(dict(data))
        units = {k: UnitState.from_json(v) for k, v in sorted(raw.pop("units").items())}
        names = {f.name for f in fields(BocState)}
        return BocState(units=units, **{k: v for k, v in raw.items() if k in names})

    # -- queries used everywhere --------------------------------------------------------
    @property
    def night(self) -> bool:
        return self.hour == NIGHT_HOUR

    @property
    def now(self) -> int:
        return turn_key(self.day, self.hour)

    def on_map(self, side: str | None = None) -> list[UnitState]:
        return [u for u in self.units.values()
                if u.status == ON_MAP and (side is None or u.side == side)]

    def occupants(self) -> dict[str, list[UnitState]]:
        out: dict[str, list[UnitState]] = {}
        for u in self.units.values():
            if u.status == ON_MAP and u.hex is not None:
                out.setdefault(u.hex, []).append(u)
        return out

    def next_seq(self) -> int:
        self.seq += 1
        return self.seq
