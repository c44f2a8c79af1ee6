"""The rule-system-agnostic game protocol.

A rule system (a package ``gettysburg.<name>``) subclasses :class:`Game` and
registers a factory with :func:`register_system`. Everything else — CLI, web server, AI
agents, the simulation lab, OpenSpiel/PettingZoo adapters, save files — talks only to the
public methods here:

``to_move() · legal_actions(seat) · apply(action, seat) · view(seat) · events(seat) ·
is_terminal() · result() · to_json() / from_json() · state_hash()``

The rule system writes the *hooks* (``validate``, ``execute``, ``position_json``,
``load_position``, …); :meth:`Game.apply` wraps them so that a refused action leaves the
state untouched, every applied action is recorded with the dice it consumed and the
resulting state hash, and the event log is kept for per-seat filtering.
See ``docs/protocol.md`` and :mod:`gettysburg.toy.game` for a worked example.
"""

from __future__ import annotations

import importlib
import math
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, ClassVar, Final, Protocol, Self, TypeAlias

from gettysburg.core.canonical import (
    CanonicalError,
    JSONDict,
    canonical_json,
    check_json,
    hash_json,
    json_copy,
)
from gettysburg.core.dice import CommitReveal, Dice, Roll, SeededDice, normalize_seed

#: A side's name ("usa", "csa", …). Rule systems choose the names.
Seat: TypeAlias = str
#: The omniscient seat: sees every event and the full view; never to move.
REFEREE: Final[Seat] = "referee"
#: An action is a plain JSON object with a non-empty string ``type``.
Action: TypeAlias = dict[str, Any]

# Rule citations for refusals made by the protocol itself rather than by a rule system.
RULE_ACTION: Final = "protocol.action"
RULE_SEAT: Final = "protocol.seat"
RULE_OVER: Final = "protocol.over"

FORMAT_STATE: Final = "gettysburg-state"


class RuleError(Exception):
    """An action was refused. ``rule`` names the section that forbids it (e.g. ``"6.62"``)."""

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{message} [rule {rule}]")
        self.rule = rule
        self.message = message

    def to_json(self) -> JSONDict:
        return {"rule": self.rule, "message": self.message}


def make_action(type_: str, **fields: Any) -> Action:
    """Build an action: ``make_action("move", block="b3", to="R12")``."""
    return check_action({"type": type_, **fields})


def check_action(obj: object) -> Action:
    """Validate an action's shape and return a canonical deep copy (tuples → lists), the
    data ``json_copy`` gives (plain data of the built-in types copied directly).

    Raises :class:`RuleError` (rule ``protocol.action``) for anything that is not a JSON
    object with a non-empty string ``type``, so malformed input from a client is refused
    exactly like an illegal move.
    """
    if not isinstance(obj, dict):
        raise RuleError(RULE_ACTION, f"an action must be a JSON object, not {type(obj).__name__}")
    kind = obj.get("type")
    if not isinstance(kind, str) or not kind:
        raise RuleError(RULE_ACTION, "an action needs a non-empty string 'type'")
    try:
        copy: Action = _plain_copy(obj)
        return copy
    except (_NotPlain, RecursionError):
        pass  # anything else the encoder's way, which refuses it naming where
    try:
        copy = json_copy(obj)
    except CanonicalError as exc:
        raise RuleError(RULE_ACTION, f"action is not plain JSON: {exc}") from exc
    return copy


class _NotPlain(Exception):
    """A value :func:`_plain_copy` leaves to ``json_copy``."""


#: Integers copied as they are; longer ones go through ``json_copy`` (Python limits the
#: digits it converts, so a huge one fails there as it always did).
_INT_LIMIT: Final = 10**18


def _plain_copy(value: Any) -> Any:
    """What ``json_copy`` gives for ``value`` when it is plain JSON data of the exact
    built-in types (dicts with text keys, sorted; tuples as lists; every container new);
    raises :class:`_NotPlain` for anything else (issue 59: every action applied was
    encoded and decoded)."""
    kind = type(value)
    if kind is str or kind is bool or value is None:
        return value
    if kind is int:
        if -_INT_LIMIT < value < _INT_LIMIT:
            return value
    elif kind is float:
        if math.isfinite(value):
            return value
    elif kind is list or kind is tuple:
        return [_plain_copy(v) for v in value]
    elif kind is dict:
        for k in value:
            if type(k) is not str:
                raise _NotPlain
        return {k: _plain_copy(value[k]) for k in sorted(value)}
    raise _NotPlain


def action_key(action: Mapping[str, Any]) -> str:
    """Canonical text of an action; equal actions have equal keys (for set membership)."""
    return canonical_json(action)


@dataclass(frozen=True)
class Event:
    """Something that happened, as the log shows it.

    ``visible_to`` lists the seats that may see it in full (``None`` = everyone; the
    referee always does). Other seats see ``redacted`` instead (with the same ``type`` and
    ``rule``), or nothing at all if ``redacted`` is ``None``.
    """

    type: str
    rule: str = ""
    data: JSONDict = field(default_factory=dict)
    visible_to: tuple[Seat, ...] | None = None
    redacted: JSONDict | None = None

    def __post_init__(self) -> None:
        check_json(self.data, f"$event[{self.type}].data")
        if self.redacted is not None:
            check_json(self.redacted, f"$event[{self.type}].redacted")
        if self.visible_to is not None:
            object.__setattr__(self, "visible_to", tuple(self.visible_to))

    def sees_all(self, seat: Seat) -> bool:
        return seat == REFEREE or self.visible_to is None or seat in self.visible_to

    def shown_to(self, seat: Seat) -> bool:
        """Whether ``seat`` sees anything of this event (in full or redacted)."""
        return self.sees_all(seat) or self.redacted is not None

    def for_seat(self, seat: Seat) -> JSONDict | None:
        """What ``seat`` may see of this event, or ``None`` if nothing."""
        if self.sees_all(seat):
            out: JSONDict = {"type": self.type, "rule": self.rule, "data": json_copy(self.data)}
            if seat == REFEREE and self.visible_to is not None:
                out["visible_to"] = list(self.visible_to)
            return out
        if self.redacted is None:
            return None
        return {"type": self.type, "rule": self.rule, "data": json_copy(self.redacted),
                "redacted": True}

    def to_json(self) -> JSONDict:
        return {"type": self.type, "rule": self.rule, "data": json_copy(self.data),
                "visible_to": None if self.visible_to is None else list(self.visible_to),
                "redacted": None if self.redacted is None else json_copy(self.redacted)}

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Event:
        vis = data.get("visible_to")
        return Event(type=str(data["type"]), rule=str(data.get("rule", "")),
                     data=dict(data.get("data") or {}),
                     visible_to=None if vis is None else tuple(str(s) for s in vis),
                     redacted=None if data.get("redacted") is None else dict(data["redacted"]))


def dice_event(rolls: Sequence[Roll], *, visible_to: Sequence[Seat] | None = None,
               redacted: JSONDict | None = None) -> Event:
    """A log entry showing rolls (counter, value, purpose); cites the first roll's rule."""
    return Event(type="dice", rule=rolls[0].rule if rolls else "",
                 data={"rolls": [r.to_json() for r in rolls]},
                 visible_to=None if visible_to is None else tuple(visible_to), redacted=redacted)


@dataclass(frozen=True)
class GameSetup:
    """How a game was created; enough, with the actions, to rebuild it."""

    system: str
    scenario: str
    options: tuple[str, ...] = ()
    seed: str = "0"
    commit_reveal: JSONDict | None = None

    def to_json(self) -> JSONDict:
        return {"system": self.system, "scenario": self.scenario, "options": list(self.options),
                "seed": self.seed, "commit_reveal": self.commit_reveal}

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> GameSetup:
        return GameSetup(system=str(data["system"]), scenario=str(data["scenario"]),
                         options=tuple(str(o) for o in data.get("options", [])),
                         seed=normalize_seed(data.get("seed", "0")),
                         commit_reveal=data.get("commit_reveal"))


@dataclass(frozen=True)
class Move:
    """One applied action: who, what, the dice it consumed, and the state it led to."""

    seat: Seat
    action: Action
    dice: tuple[int, ...]
    first_roll: int  # dice counter before the action; lets a viewer match rolls to moves
    state_hash: str

    def to_json(self) -> JSONDict:
        return {"seat": self.seat, "action": json_copy(self.action), "dice": list(self.dice),
                "first_roll": self.first_roll, "state_hash": self.state_hash}

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Move:
        return Move(seat=str(data["seat"]), action=check_action(data["action"]),
                    dice=tuple(int(v) for v in data["dice"]), first_roll=int(data["first_roll"]),
                    state_hash=str(data["state_hash"]))


class Game(ABC):
    """Base class of every rule system's game.

    Subclasses set ``system`` and implement the abstract hooks. Contract:

    * ``validate(action, seat)`` raises :class:`RuleError` for anything illegal and never
      changes state; it must accept exactly the actions ``legal_actions(seat)`` lists.
    * ``execute(action, seat)`` performs a validated action (rolling ``self.dice`` as
      needed) and returns the events. If it raises anyway, :meth:`apply` restores the
      state from a snapshot (:meth:`savepoint`), rewinds the dice and re-raises.
    * ``position_json()`` returns *fresh* JSON data (no aliasing of internal objects) with
      everything that shapes the future of the game except dice, log and history, which the
      base class keeps; ``load_position`` sets every attribute from it (``from_json`` does
      not call the subclass ``__init__``).
    * ``view(seat)`` must not leak hidden information, including the dice seed.
    """

    system: ClassVar[str]
    #: Whether ``execute`` checks the action itself (as ``validate`` would): then
    #: :meth:`apply_unrecorded` need not validate first.
    execute_checks: ClassVar[bool] = False

    def __init__(self, setup: GameSetup, dice: Dice) -> None:
        self.setup = setup
        self.dice = dice
        self._log: list[Event] = []
        self._history: list[Move] = []
        self._initial_hash: str | None = None  # fixed at the first apply (see below)

    # --- hooks written by each rule system -------------------------------------------------

    @abstractmethod
    def seats(self) -> list[Seat]:
        """The playing seats, in a fixed order (the referee is not one of them)."""

    @abstractmethod
    def to_move(self) -> list[Seat]:
        """Seats that must decide now (usually one; empty when the game is over)."""

    @abstractmethod
    def legal_actions(self, seat: Seat) -> list[Action]:
        """Every action ``seat`` may take now (empty if it is not to move), in a
        deterministic order: agents and adapters index into this list."""

    @abstractmethod
    def validate(self, action: Action, seat: Seat) -> None:
        """Raise :class:`RuleError` if ``seat`` may not take ``action``; change nothing."""

    @abstractmethod
    def execute(self, action: Action, seat: Seat) -> list[Event]:
        """Carry out a validated action and return what happened."""

    @abstractmethod
    def view(self, seat: Seat) -> JSONDict:
        """JSON view of the game for ``seat``, with fog of war applied."""

    # --- optional: less than the whole list or view, for callers that need less ----------

    def legal_sequence(self, seat: Seat) -> Sequence[Action]:
        """The actions :meth:`legal_actions` lists, in the same order, as a ``Sequence``
        that a system may build lazily, each item made only when read (issue 59): a caller
        that needs only the count and one item (the random agent) is spared the rest. Every
        item read is the caller's own: changing it changes no later answer. Its items are
        fixed when it is made, not read from the game later, so it still lists this
        position's actions after the game has moved on (a research adapter hands a state's
        sequence to its clones). Default: the list itself."""
        return self.legal_actions(seat)

    def view_shared(self, seat: Seat) -> JSONDict:
        """The view :meth:`view` gives, equal to it, for a reader that promises to change
        nothing in it (an agent with ``shares_view``, issue 59): its parts, such as its
        legal actions, may be the very objects an earlier call handed out while they still
        stand, so a system need not build hundreds of fresh dicts each decision. An action
        taken from it must be copied before it is changed or kept. Default: the view."""
        return self.view(seat)

    def legal_in_view(self, view: Mapping[str, Any], seat: Seat) -> list[Action]:
        """The legal actions ``view`` (this game's view for ``seat``) lists, else asked
        anew: every system's view holds ``legal_actions(seat)``, so a host that has the
        view builds a position's list once (the lab and the server)."""
        listed = view.get("legal_actions")
        return listed if isinstance(listed, list) else self.legal_actions(seat)

    def savepoint(self) -> Callable[[], None]:
        """A way back to the rule state as it is now, which :meth:`apply` takes before
        ``execute`` and calls if ``execute`` fails half-way (its atomicity). Default:
        :meth:`position_json` now, :meth:`load_position` of it to go back. A system may
        return something cheaper that restores the same position (issue 59: a recorded
        action encoded the whole state for this and again for its hash); dice, log and
        history are the base class's to restore."""
        snapshot = self.position_json()
        return lambda: self.load_position(snapshot)

    def view_summary(self, seat: Seat) -> JSONDict:
        """Part of :meth:`view` for a host that reads only what a view says of the game as
        a whole (its clock, score, result, whose turn) and passes it to agents that do not
        read views (the lab, playing the random agent). Each key it holds has the value
        ``view(seat)`` gives it; a system may leave out the costly keys, such as the pieces
        and the legal actions, but not what its lab hooks read. Default: the full view."""
        return self.view(seat)

    def use_secret(self, secret: bytes) -> None:
        """Take a per-game secret only the referee (the server) holds, from which the system
        derives whatever its seats must not compute (such as hidden pieces' handles); a
        system with nothing to hide ignores it. Without one a game falls back on its seed,
        which the players of a save file both hold (docs/security.md)."""
        return None

    def learned_from(self, seat: Seat, before: JSONDict, after: JSONDict) -> bool | None:
        """Whether ``seat``'s view ``after`` an action of its own shows it anything of the
        other seats' pieces that its view ``before`` did not; ``None``: the system cannot
        tell. The server lets a player take back a move its computer opponent saw only if
        the system says it learned nothing by it (docs/server.md, "Undo")."""
        return None

    @abstractmethod
    def is_terminal(self) -> bool: ...

    @abstractmethod
    def result(self) -> JSONDict | None:
        """Outcome (e.g. ``{"winner": "csa", "level": "decisive"}``) once terminal."""

    @abstractmethod
    def position_json(self) -> JSONDict:
        """The rule state (no dice, log or history) as fresh JSON data."""

    @abstractmethod
    def load_position(self, position: JSONDict) -> None:
        """Set the rule state from ``position_json()`` output."""

    # --- the protocol, provided here -------------------------------------------------------

    def record(self, *events: Event) -> None:
        """Append events to the log outside ``apply`` (e.g. scenario set-up messages)."""
        self._log.extend(events)

    def apply(self, action: object, seat: Seat) -> list[Event]:
        """Validate and perform ``action`` for ``seat``; on refusal nothing changes."""
        act = check_action(action)
        if self.is_terminal():
            raise RuleError(RULE_OVER, "the game is over")
        movers = self.to_move()
        if seat not in movers:
            raise RuleError(RULE_SEAT, f"{seat!r} is not to move (waiting for {movers})")
        self.validate(act, seat)
        initial_before = self._initial_hash
        if self._initial_hash is None:
            # Taken lazily so that set-up changes made after construction (new_game attaching
            # a commit-reveal record) are part of the starting point a save file records.
            self._initial_hash = self.state_hash()
        restore = self.savepoint()
        first_roll, log_len = self.dice.counter, len(self._log)
        try:
            events = list(self.execute(act, seat))
            for ev in events:
                if not isinstance(ev, Event):
                    raise TypeError(f"execute returned {type(ev).__name__}, not Event")
            self._log.extend(events)
            state_hash = self.state_hash()
        except BaseException:
            # Atomicity even when a rule system's execute fails half-way.
            restore()
            self.dice.rewind(first_roll)
            del self._log[log_len:]
            self._initial_hash = initial_before  # a refused first action fixes nothing
            raise
        dice = tuple(r.value for r in self.dice.rolls_since(first_roll))
        self._history.append(Move(seat, act, dice, first_roll, state_hash))
        return events

    def apply_unrecorded(self, action: Action, seat: Seat) -> None:
        """Perform ``action`` for ``seat`` in a private copy, such as a search rollout.

        The rules are checked as in :meth:`apply` (by ``validate``, or by ``execute`` when
        the system's ``execute_checks``), but nothing makes the game replayable or atomic:
        no history entry, no state hash, no snapshot. A refused action may leave the game
        half-changed, so the copy must then be thrown away. Never use it on a game a player
        owns.
        """
        act = check_action(action)
        if self.is_terminal():
            raise RuleError(RULE_OVER, "the game is over")
        if seat not in self.to_move():
            raise RuleError(RULE_SEAT, f"{seat!r} is not to move")
        if not self.execute_checks:
            self.validate(act, seat)
        self._log.extend(self.execute(act, seat))

    def events(self, seat: Seat, since: int = 0) -> list[JSONDict]:
        """The log as ``seat`` may see it, from the seat's entry ``since`` on.

        Each entry carries ``n``, its place in the seat's own log: 0, 1, 2... without gaps.
        Numbering by the whole log would show a seat how many events it was not told
        about (such as the lone half hits its enemy lost, 5.24)."""
        return self.events_between(seat, 0, len(self._log), since)

    def events_between(self, seat: Seat, lo: int, hi: int, since: int = 0
                       ) -> list[JSONDict]:
        """What ``seat`` may see of the events at log positions ``lo`` to ``hi - 1`` (a
        host's marks between actions), numbered as in :meth:`events`."""
        out: list[JSONDict] = []
        n = 0
        for k in range(min(hi, len(self._log))):
            event = self._log[k]
            if k < lo or n < since:
                n += event.shown_to(seat)
                continue
            shown = event.for_seat(seat)
            if shown is not None:
                shown["n"] = n
                out.append(shown)
                n += 1
        return out

    def log_size(self, seat: Seat) -> int:
        """How many events ``seat`` may see: the ``n`` its next event will carry."""
        return sum(e.shown_to(seat) for e in self._log)

    @property
    def history(self) -> tuple[Move, ...]:
        return tuple(self._history)

    @property
    def initial_state_hash(self) -> str:
        """State hash before the first action (the start of a save file's chain)."""
        return self._initial_hash if self._initial_hash is not None else self.state_hash()

    @property
    def log(self) -> tuple[Event, ...]:
        return tuple(self._log)

    @property
    def log_length(self) -> int:
        """How many events the log holds (the length of :attr:`log`, without copying it)."""
        return len(self._log)

    def log_slice(self, lo: int, hi: int) -> list[Event]:
        """The log's events at positions ``lo`` to ``hi - 1``: a host that follows the log
        reads only what is new (issue 59) rather than copying it whole."""
        return self._log[lo:hi]

    def hash_material(self) -> JSONDict:
        """What :meth:`state_hash` covers: set-up, rule state and dice state.

        The log and history are left out on purpose: they only grow, are fixed by the
        actions and dice, and are covered by the save file's hash chain instead; keeping
        them out keeps hashing cost per action independent of game length.
        """
        return {"format": FORMAT_STATE, "setup": self.setup.to_json(),
                "position": self.position_json(), "dice": self.dice.state_json()}

    def state_hash(self) -> str:
        """SHA-256 of the canonical JSON of :meth:`hash_material`."""
        return hash_json(self.hash_material())

    def to_json(self) -> JSONDict:
        """The full state (omniscient; not for players): enough for :meth:`from_json`."""
        return {"format": FORMAT_STATE, "system": self.system, "setup": self.setup.to_json(),
                "position": self.position_json(), "dice": self.dice.to_json(),
                "initial_state_hash": self.initial_state_hash,
                "log": [e.to_json() for e in self._log],
                "history": [m.to_json() for m in self._history]}

    def clone(self) -> Self:
        """An independent copy (omniscient: includes the seed; agents should plan from
        ``view(seat)`` rather than from a clone, or they would be cheating)."""
        return type(self).from_json(self.to_json())

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        if data.get("format") != FORMAT_STATE:
            raise ValueError(f"not a game state (format {data.get('format')!r})")
        if data.get("system") != cls.system:
            raise ValueError(f"state is for system {data.get('system')!r}, not {cls.system!r}")
        game = cls.__new__(cls)
        Game.__init__(game, GameSetup.from_json(data["setup"]), Dice.from_json(data["dice"]))
        game.load_position(json_copy(data["position"]))
        game._log = [Event.from_json(e) for e in data.get("log", [])]
        game._history = [Move.from_json(m) for m in data.get("history", [])]
        initial = data.get("initial_state_hash")
        game._initial_hash = str(initial) if initial is not None and game._history else None
        return game


def setup_seats(spec: str, options: Sequence[str] = ()) -> list[Seat]:
    """The seats of ``"system/scenario"`` with ``options``, in play order, found by building
    it: each system names and orders its own seats (the toy game: red, blue)."""
    return new_game(spec, options=options, seed="seats").seats()


# --- registry --------------------------------------------------------------------------------


class GameFactory(Protocol):
    """Builds a new game. ``dice`` overrides the default ``SeededDice(seed)``."""

    def __call__(self, scenario: str, options: Sequence[str], seed: int | str,
                 dice: Dice | None) -> Game: ...


GameLoader: TypeAlias = Callable[[Mapping[str, Any]], Game]


class UnknownSystemError(LookupError):
    """No rule system is registered under that name."""


@dataclass(frozen=True)
class SystemEntry:
    name: str
    factory: GameFactory
    loader: GameLoader


_SYSTEMS: dict[str, SystemEntry] = {}


def register_system(name: str, factory: GameFactory, *, loader: GameLoader | None = None,
                    replace_existing: bool = False) -> None:
    """Make a rule system available as ``name`` (``game new name/scenario``).

    If ``factory`` is a :class:`Game` subclass, its ``from_json`` is the default loader.
    Registering a different factory under a taken name is an error (catches two systems
    claiming one name); re-registering the same factory, as module reloads do, is not.
    """
    if not name or "/" in name:
        raise ValueError(f"bad system name {name!r}")
    if loader is None:
        if isinstance(factory, type) and issubclass(factory, Game):
            loader = factory.from_json
        else:
            raise ValueError(f"system {name!r}: a loader is needed when the factory is not a "
                             "Game subclass")
    old = _SYSTEMS.get(name)
    if old is not None and old.factory is not factory and not replace_existing:
        raise ValueError(f"system {name!r} is already registered")
    _SYSTEMS[name] = SystemEntry(name, factory, loader)


def system_names() -> list[str]:
    return sorted(_SYSTEMS)


def get_system(name: str) -> SystemEntry:
    """The entry for ``name``, importing ``gettysburg.<name>`` on first use if needed (so a
    save file for any installed system can be replayed without importing it by hand)."""
    if name not in _SYSTEMS and name.isidentifier():
        module = f"gettysburg.{name}"  # a system package registers itself on import
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name != module:
                raise  # the system exists but one of its own imports is broken
    try:
        return _SYSTEMS[name]
    except KeyError:
        known = sorted(set(_SYSTEMS) | set(_shipped_systems()))
        raise UnknownSystemError(f"unknown rule system {name!r}; known: {known}") from None


def _shipped_systems() -> list[str]:
    """The system packages installed beside this one, imported or not: the packages of
    ``gettysburg`` that hold a declaration (``system.py``, :mod:`gettysburg.core.system`)."""
    import gettysburg

    out: list[str] = []
    for folder in gettysburg.__path__:
        root = Path(folder)
        out += [p.parent.name for p in root.glob("*/system.py")
                if (p.parent / "__init__.py").exists()]
    return out


def parse_spec(spec: str) -> tuple[str, str]:
    """``"toy/standard"`` → ``("toy", "standard")``; the scenario part may be a path."""
    system, sep, scenario = spec.partition("/")
    if not sep or not system or not scenario:
        raise ValueError(f"expected SYSTEM/SCENARIO, got {spec!r}")
    return system, scenario


def resolve_dice(seed: int | str, dice: Dice | None) -> Dice:
    """The dice a factory should use: the override if given, else ``SeededDice(seed)``."""
    return dice if dice is not None else SeededDice(seed)


def new_game(spec: str, *, options: Sequence[str] = (), seed: int | str = 0,
             dice: Dice | None = None, commit_reveal: CommitReveal | None = None) -> Game:
    """Create ``"system/scenario"``; with ``commit_reveal`` the seed comes from that record."""
    system, scenario = parse_spec(spec)
    entry = get_system(system)
    if commit_reveal is not None:
        seed = commit_reveal.verify()
    game = entry.factory(scenario, list(options), normalize_seed(seed), dice)
    if commit_reveal is not None:
        game.setup = replace(game.setup, commit_reveal=commit_reveal.to_json())
    return game


def load_game(data: Mapping[str, Any]) -> Game:
    """Rebuild any registered system's game from ``to_json()`` output."""
    return get_system(str(data.get("system"))).loader(data)


# --- research hooks (OpenSpiel / PettingZoo adapters) ----------------------------------------


class ResearchHooks(Protocol):
    """What ``gettysburg.interop`` needs beyond the protocol: a fixed integer action
    encoding, an observation free of anything naming a hidden piece, fast copies and
    re-dealt hidden information. A system provides it as ``hooks()`` in
    ``gettysburg.<system>.research`` and declares it as ``research`` in its
    :class:`gettysburg.core.system.RuleSystem` (the adapters serve every system that does).
    Two seats; dice are the core's six-sided dice. See ``docs/research.md``."""

    def action_space_size(self, game: Game) -> int:
        """Every action id of this system lies in ``range(action_space_size(game))``."""
        ...

    def encode_actions(self, game: Game, actions: Sequence[Action]) -> list[int]:
        """Ids of a seat's current legal actions, same order, all distinct."""
        ...

    def observation_json(self, game: Game, seat: Seat) -> JSONDict:
        """The seat's view with nothing that identifies a hidden piece (no handles)."""
        ...

    def observation_tensor(self, game: Game, seat: Seat,
                           observation: JSONDict | None = None) -> list[float]:
        """Floats from ``observation`` (default: ``observation_json(game, seat)``), each
        within [-100, 100] (the PettingZoo observation space's bounds)."""
        ...

    def tensor_size(self, game: Game) -> int: ...

    def fork(self, game: Game) -> Game:
        """An independent copy that may share immutable map and order-of-battle data."""
        ...

    def remember(self, game: Game, seat: Seat, memory: object | None = None) -> object:
        """What ``seat`` remembers once it has seen the position as it stands: a new
        object built on ``memory`` (its memory before, None at first; left unchanged).
        Opaque to callers, who keep it per seat and hand it to ``resample``."""
        ...

    def resample(self, game: Game, seat: Seat, seed: int,
                 memory: object | None = None) -> Game:
        """A copy in which what ``seat`` cannot see is drawn afresh (same information set).
        With ``memory`` (from ``remember`` at this position) the draw also agrees with what
        the seat saw earlier in the game, not only with what it sees now."""
        ...

    def standing(self, game: Game) -> float:
        """Public score in [-1, 1] for the first seat (the second gets its negative)."""
        ...

    def turn(self, game: Game) -> int:
        """The public game clock as an orderable number (it grows by turns)."""
        ...

    def render_text(self, game: Game, seat: Seat) -> str:
        """A short text picture of the position as ``seat`` sees it."""
        ...


def research_hooks(system: str) -> ResearchHooks:
    """The research hooks of ``system`` (imports ``gettysburg.<system>.research``)."""
    if not system.isidentifier():
        raise UnknownSystemError(f"bad system name {system!r}")
    name = f"gettysburg.{system}.research"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name is None or not name.startswith(exc.name):
            raise  # the hooks exist but one of their own imports is missing
        raise UnknownSystemError(f"system {system!r} provides no research hooks") from exc
    hooks: ResearchHooks = module.hooks()
    return hooks
