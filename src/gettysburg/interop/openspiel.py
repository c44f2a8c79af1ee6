"""Every rule system with research hooks as OpenSpiel Python games
(``pip install gettysburg[research]``).

Importing this module registers one game per scenario of every system the registry
(:mod:`gettysburg.systems`) lists with research hooks: ``python_<system>_<scenario>``
for the scenario ``<system>/<scenario>``::

    import pyspiel
    import gettysburg.interop.openspiel as adapter  # registers the games
    print(adapter.SCENARIOS)  # every system/scenario served
    game = adapter.load(adapter.SCENARIOS[0], max_turns=2)  # = pyspiel.load_game(...)

Design (``docs/research.md`` has the details):

* Two players, the system's seats in its play order (player 0 is the first seat).
  Sequential, imperfect information, zero-sum, terminal reward: +1 / -1 to the winner, 0
  for a draw. A game cut short by ``max_turns`` or ``max_decisions`` ends with the public
  standing instead (``ResearchHooks.standing``, a value in [-1, 1] both seats see).
* Dice are explicit chance nodes: the engine is driven with scripted dice; when an action
  needs a die that has not been drawn, the engine refuses it atomically (state untouched)
  and the state becomes a chance node with outcomes 0..5 (faces 1..6, p = 1/6 each). Each
  outcome is appended and the action replayed until it has all its dice. A system whose
  hooks declare ``chance = "sampled"`` (one that rolls its dice while setting up and between
  decisions) plays with its own dice seeded by the ``seed`` parameter instead: no chance
  nodes, so each seed is a DETERMINISTIC game (vary ``seed`` for the dice's spread).
* Actions are the system's fixed integer encoding (``ResearchHooks.encode_actions``). Ids
  are checked here, in Python, before they reach anything else.
* Observations come from ``make_py_observer``: the seat's observation without anything
  naming a hidden piece (string) and the system's tensor. With ``perfect_recall`` the
  string adds a digest chained over everything the seat has been shown and has done, so
  two histories the seat can tell apart never share an information state.
* ``resample_from_infostate`` re-deals what the seat cannot see, for OpenSpiel's IS-MCTS,
  consistently with what the seat saw at each position (``ResearchHooks.remember``), not
  only with what it sees now.
* A state holds one engine game whose copy (``ResearchHooks.fork``) may share the game's
  immutable data (pyspiel deep-copies every state attribute on clone).
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any

try:
    import numpy as np
    import pyspiel  # type: ignore[import-not-found, unused-ignore]
    from open_spiel.python.algorithms import mcts  # type: ignore[import-untyped, unused-ignore]
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ImportError("gettysburg.interop.openspiel needs OpenSpiel: "
                      "pip install 'gettysburg[research]'") from exc

from gettysburg.core.canonical import JSONDict, canonical_json
from gettysburg.core.dice import DiceExhausted, ScriptedDice
from gettysburg.core.protocol import (
    Action,
    Event,
    Game,
    ResearchHooks,
    Seat,
    new_game,
)
from gettysburg.core.system import RuleSystem
from gettysburg.interop import SCENARIOS, resolve

DIE_FACES = 6  # the core's dice (gettysburg.core.dice) are six-sided
#: Default cap on player decisions; it makes ``max_game_length`` a true bound.
DEFAULT_MAX_DECISIONS = 100_000
PARAMS: dict[str, Any] = {"seed": 0, "options": "", "max_turns": 0,
                          "max_decisions": DEFAULT_MAX_DECISIONS}


def game_name(spec: str) -> str:
    """``python_<system>_<scenario>`` for ``system/scenario`` (or a bare scenario name)."""
    system, scenario = resolve(spec)
    return f"python_{system.name}_{scenario}"


def _sampled(system: RuleSystem) -> bool:
    """A system whose hooks say ``chance = "sampled"`` rolls its own seeded dice, also
    between decisions (set-up and automatic steps): no explicit chance nodes."""
    return system.research is not None and \
        getattr(system.research(), "chance", "explicit") == "sampled"


def _game_type(system: RuleSystem, scenario: str) -> Any:
    title = system.menu().scenarios.get(scenario, scenario)
    # Seeded dice: each seed (a game parameter) is a deterministic game.
    chance = (pyspiel.GameType.ChanceMode.DETERMINISTIC if _sampled(system)
              else pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC)
    return pyspiel.GameType(
        short_name=f"python_{system.name}_{scenario}",
        long_name=f"Gettysburg: {system.title} ({title})",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=chance,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2, min_num_players=2,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=dict(PARAMS))


class _Shared:
    """Per-game data every state of the game shares (never copied)."""

    def __init__(self, system: RuleSystem, scenario: str, options: list[str], seed: int,
                 max_turns: int, max_decisions: int) -> None:
        assert system.research is not None  # only such systems are registered
        self.hooks: ResearchHooks = system.research()
        # What names a hidden piece (a handle) is stripped from what a seat recalls.
        self.is_handle: Callable[[str], bool] = system.is_handle or _no_handles
        self.template: Game = new_game(f"{system.name}/{scenario}", options=options,
                                       seed=seed,
                                       dice=None if _sampled(system) else ScriptedDice([]))
        self.seats: list[Seat] = self.template.seats()
        self.max_turns = max_turns
        self.max_decisions = max_decisions
        self.num_actions = self.hooks.action_space_size(self.template)
        self.tensor_size = self.hooks.tensor_size(self.template)
        self.key = canonical_json([system.name, scenario, options, seed, max_turns,
                                   max_decisions])


def _no_handles(text: str) -> bool:
    return False


# States refer to their game's shared data by key, so a pickled state (serialisation)
# finds it again in a process that has loaded the same game; games with equal parameters
# share it (pyspiel reloads the game for every serialised state it checks).
_SHARED: dict[str, _Shared] = {}


class _Engine:
    """The engine game held by a state: deep copies are the system's fork (which may share
    its immutable data, ``ResearchHooks.fork``); pickles carry the game's JSON."""

    def __init__(self, shared: _Shared, game: Game | None) -> None:
        self.shared = shared
        self._game = game  # None: the scenario start, copied when first needed
        # The sorted legal ids, each id's index in the legal sequence, the sequence.
        self.legal: tuple[list[int], dict[int, int], Sequence[Action]] | None = None
        self.seen: dict[Seat, JSONDict] = {}  # observation per seat at this position
        self.tensors: dict[Seat, list[float]] = {}
        self.memories: dict[Seat, tuple[object | None, object]] = {}  # see memory()

    @property
    def game(self) -> Game:
        if self._game is None:
            self._game = self.shared.hooks.fork(self.shared.template)
        return self._game

    def __deepcopy__(self, memo: dict[int, Any]) -> _Engine:
        twin = _Engine(self.shared, self.shared.hooks.fork(self.game))
        # Same position: the caches are replaced after a move, never mutated.
        twin.legal, twin.seen, twin.tensors = self.legal, self.seen, self.tensors
        twin.memories = self.memories
        return twin

    def moved(self) -> None:
        self.legal, self.seen, self.tensors, self.memories = None, {}, {}, {}

    def memory(self, seat: Seat, before: object | None) -> object:
        """``before`` (the seat's memory from its decisions) updated with this position,
        kept for this position: IS-MCTS re-deals the same root many times."""
        if seat not in self.memories or self.memories[seat][0] is not before:
            made = self.shared.hooks.remember(self.game, seat, before)
            self.memories = {**self.memories, seat: (before, made)}
        return self.memories[seat][1]

    def tensor(self, seat: Seat) -> list[float]:
        if seat not in self.tensors:
            # The observation when it is already built; else the hook builds what its
            # tensor needs (a system may build less than its whole view, legal list and all).
            values = self.shared.hooks.observation_tensor(self.game, seat,
                                                          self.seen.get(seat))
            self.tensors = {**self.tensors, seat: values}
        return self.tensors[seat]

    def observation(self, seat: Seat) -> JSONDict:
        if seat not in self.seen:
            self.seen = {**self.seen,
                         seat: self.shared.hooks.observation_json(self.game, seat)}
        return self.seen[seat]

    def __reduce__(self) -> tuple[Any, tuple[str, str]]:
        return (_restore_engine, (self.shared.key, canonical_json(self.game.to_json())))


def _restore_engine(key: str, data: str) -> _Engine:
    import json

    from gettysburg.core.protocol import load_game

    shared = _SHARED.get(key)
    if shared is None:
        raise ValueError(f"no loaded OpenSpiel game matches {key}; load it first")
    return _Engine(shared, load_game(json.loads(data)))


class _Memories:
    """What each seat remembers (``ResearchHooks.remember``), never changed in place: an
    update makes a new one, so clones share it (pyspiel deep-copies every attribute of a
    state it clones)."""

    def __init__(self, by_seat: Mapping[Seat, object] | None = None) -> None:
        self._by_seat = dict(by_seat or {})

    def get(self, seat: Seat) -> object | None:
        return self._by_seat.get(seat)

    def updated(self, seat: Seat, memory: object) -> _Memories:
        return _Memories({**self._by_seat, seat: memory})

    def __deepcopy__(self, memo: dict[int, Any]) -> _Memories:
        return self


def _strip_handles(data: Any, is_handle: Callable[[str], bool]) -> Any:
    """Hidden pieces' handles name identities (per game): recall keeps only that a hidden
    piece was involved, as the table shows it."""
    if isinstance(data, dict):
        return {k: _strip_handles(v, is_handle) for k, v in data.items()}
    if isinstance(data, list):
        return [_strip_handles(v, is_handle) for v in data]
    if isinstance(data, str) and is_handle(data):
        return "hidden"
    return data


class _Recall:
    """One step of the history as the seats were shown it: the action and who took it,
    and the events it logged. A chain of these, never changed once made (clones share
    it), stands behind each seat's ``recall`` digest, hashed only when an information
    state string is asked for (and then once per step and seat)."""

    __slots__ = ("action", "digests", "events", "parent", "seat", "shared")

    def __init__(self, parent: _Recall | None, action: Action | None, seat: Seat,
                 events: tuple[Event, ...], shared: _Shared | None) -> None:
        self.parent, self.action, self.seat, self.events = parent, action, seat, events
        self.shared = shared  # the seats and handle test, for a pickle
        self.digests: dict[Seat, str] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> _Recall:
        return self

    def __reduce__(self) -> tuple[Any, tuple[dict[Seat, str]]]:
        # A pickle carries each seat's digest, not the chain (which would nest as deep as
        # the game is long): it is hashed now, as it would be when asked for.
        assert self.shared is not None
        is_handle = self.shared.is_handle
        return (_recalled, ({s: self.digest(s, is_handle) for s in self.shared.seats},))

    def digest(self, seat: Seat, is_handle: Callable[[str], bool]) -> str:
        """A digest chained over what ``seat`` did and was shown up to this step: the
        same digest for the same history as the seat saw it."""
        todo: list[_Recall] = []
        node: _Recall | None = self
        while node is not None and seat not in node.digests:
            todo.append(node)
            node = node.parent
        text = node.digests[seat] if node is not None else ""
        for step in reversed(todo):
            shown = _strip_handles([e for e in (ev.for_seat(seat) for ev in step.events)
                                    if e is not None], is_handle)
            mine = step.action if step.seat == seat else None
            if shown or mine is not None:
                text = hashlib.sha256(
                    (text + canonical_json([mine, shown])).encode()).hexdigest()
            step.digests[seat] = text
        return text


def _recalled(digests: dict[Seat, str]) -> _Recall:
    """A chain's step restored from a pickle: its digests, nothing before them."""
    node = _Recall(None, None, "", (), None)
    node.digests.update(digests)
    return node


class SpielState(pyspiel.State):  # type: ignore[misc]
    """One position of a game, with a pending action while dice are being drawn."""

    def __init__(self, game: SpielGame) -> None:
        super().__init__(game)
        shared = game.shared
        # Copied lazily: pyspiel builds a fresh initial state for every clone and then
        # overwrites its attributes, so an eager copy would be wasted.
        self._engine = _Engine(shared, None)
        self._pending: tuple[Action, Seat] | None = None
        self._decisions = 0
        self._turns = 0
        self._clock = shared.hooks.turn(shared.template)  # without copying the start
        self._truncated = False
        self._recall: _Recall | None = None  # the last step (None: none yet)
        self._own_moves = {seat: 0 for seat in shared.seats}
        self._memory = _Memories()
        # Whether every seat's memory already holds this position (after each action).
        self._remembered = False

    # --- helpers ------------------------------------------------------------------------
    @property
    def engine(self) -> Game:
        """The engine game (omniscient; for tests and tools, not for players)."""
        return self._engine.game

    def _clock_now(self) -> int:
        return self._engine.shared.hooks.turn(self._engine.game)

    def seat_of(self, player: int) -> Seat:
        seats = self._engine.shared.seats
        if isinstance(player, bool) or not isinstance(player, int) \
                or not 0 <= player < len(seats):
            raise ValueError(f"player must be 0..{len(seats) - 1}, got {player!r}")
        return seats[player]

    def player_of(self, seat: Seat) -> int:
        seats = self._engine.shared.seats
        if seat not in seats:
            raise ValueError(f"seat must be one of {list(seats)}, got {seat!r}")
        return seats.index(seat)

    def pending_seat(self) -> Seat | None:
        """At a chance node, the seat whose action waits for its dice (else ``None``)."""
        return self._pending[1] if self._pending is not None else None

    def _legal(self) -> tuple[list[int], dict[int, int], Sequence[Action]]:
        if self._engine.legal is None:
            game = self._engine.game
            # The lazy sequence (a system may encode it without a dict per action); the
            # one action chosen is built from it, the caller's own.
            actions = game.legal_sequence(game.to_move()[0])
            ids = self._engine.shared.hooks.encode_actions(game, actions)
            self._engine.legal = (sorted(ids), {k: j for j, k in enumerate(ids)}, actions)
        return self._engine.legal

    def _legal_action(self, action_id: int) -> Action | None:
        """The legal action of ``action_id`` (None if it is not legal now)."""
        _ids, index, actions = self._legal()
        j = index.get(action_id)
        return None if j is None else actions[j]

    def decode(self, action_id: int) -> Action:
        """The engine action behind a legal id (checked in Python, never passed on)."""
        if isinstance(action_id, bool) or not isinstance(action_id, int | np.integer):
            raise ValueError(f"action id must be an int, got {action_id!r}")
        n = self._engine.shared.num_actions
        if not 0 <= int(action_id) < n:
            raise ValueError(f"action id {action_id} is outside 0..{n - 1}")
        if self.is_terminal() or self._pending is not None:
            raise ValueError("no player decision is awaited now")
        found = self._legal_action(int(action_id))
        if found is None:
            raise ValueError(f"action id {action_id} is not legal now")
        return found

    def recall(self, seat: Seat) -> str:
        """A digest of what the seat did and was shown so far ("" before anything)."""
        if self._recall is None:
            return ""
        return self._recall.digest(seat, self._engine.shared.is_handle)

    def observation(self, seat: Seat) -> JSONDict:
        """The seat's handle-free observation (cached for this position)."""
        return self._engine.observation(seat)

    def standing(self) -> float:
        """The public standing for player 0 in [-1, 1] (``ResearchHooks.standing``)."""
        return self._engine.shared.hooks.standing(self._engine.game)

    # --- pyspiel.State interface ----------------------------------------------------------
    def current_player(self) -> int:
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        if self._pending is not None:
            return int(pyspiel.PlayerId.CHANCE)
        return self._engine.shared.seats.index(self._engine.game.to_move()[0])

    def _legal_actions(self, player: int) -> list[int]:
        if self.is_terminal() or self._pending is not None \
                or player != self.current_player():
            return []
        return list(self._legal()[0])

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._pending is None:
            return []
        return [(face, 1.0 / DIE_FACES) for face in range(DIE_FACES)]

    def _apply_action(self, action_id: int) -> None:
        game = self._engine.game
        if self._pending is not None:
            face = int(action_id)
            if not 0 <= face < DIE_FACES:
                raise ValueError(f"chance outcome {action_id} is outside 0..{DIE_FACES - 1}")
            dice = game.dice
            assert isinstance(dice, ScriptedDice)
            dice.values.append(face + 1)
            action, seat = self._pending
            self._run(action, seat, own=False)
            return
        action = self.decode(int(action_id))
        seat = game.to_move()[0]
        # The seat remembers what it saw when it decided (resample honours it); after an
        # action it already does, so only the start (or a re-dealt world) is remembered here.
        if not self._remembered:
            self._memory = self._memory.updated(
                seat, self._engine.shared.hooks.remember(game, seat, self._memory.get(seat)))
        self._decisions += 1
        self._own_moves[seat] += 1
        self._run(action, seat, own=True)

    def _run(self, action: Action, seat: Seat, *, own: bool) -> None:
        """Apply ``action``; if its dice are not all drawn yet, wait at a chance node."""
        game = self._engine.game
        log_before = len(game.log)
        try:
            game.apply(action, seat)
        except DiceExhausted:
            self._pending = (action, seat)
            return
        self._pending = None
        self._engine.moved()
        shared = self._engine.shared
        # Every seat saw this position (its observation follows every action, chance
        # outcomes included): a piece revealed and hidden again between its decisions, or
        # one that left a place another then entered, is remembered as it was seen.
        for s in shared.seats:
            self._memory = self._memory.updated(
                s, shared.hooks.remember(game, s, self._memory.get(s)))
        self._remembered = True
        self._recall = _Recall(self._recall, action, seat, game.log[log_before:], shared)
        clock = self._clock_now()
        if clock != self._clock:
            self._turns += 1
            self._clock = clock
        if self._decisions >= shared.max_decisions \
                or (shared.max_turns and self._turns >= shared.max_turns):
            self._truncated = not game.is_terminal()

    def is_terminal(self) -> bool:
        return self._truncated or self._engine.game.is_terminal()

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        game = self._engine.game
        if self._truncated:
            s = self.standing()
            return [s, -s]
        result = game.result() or {}
        winner = result.get("winner")
        seats = self._engine.shared.seats
        if winner not in seats:
            return [0.0, 0.0]
        return [1.0 if s == winner else -1.0 for s in seats]

    def _action_to_string(self, player: int, action_id: int) -> str:
        if player == int(pyspiel.PlayerId.CHANCE):
            return f"die {int(action_id) + 1}"
        if self._pending is None and not self.is_terminal():
            found = self._legal_action(int(action_id))
            if found is not None:
                return canonical_json(found)
        return f"action {int(action_id)}"

    def resample_from_infostate(self, player_id: int, probability_sampler: Any
                                ) -> SpielState:
        """A state in the same information set of ``player_id``: what the seat cannot see
        re-dealt (``ResearchHooks.resample``); the seat's recall is unchanged."""
        seat = self.seat_of(player_id)
        draw = probability_sampler() if callable(probability_sampler) else 0.5
        seed = int(float(draw) * 2**31)
        return self.resample_with_seed(seat, seed)

    def resample_with_seed(self, seat: Seat, seed: int) -> SpielState:
        """The deterministic form: the draw agrees with what the seat sees now and with
        what it saw at each of its decisions so far (``ResearchHooks.remember``)."""
        if self._pending is not None and self._pending[1] != seat:
            # The other seat's action waits for its dice, naming its pieces: a re-deal of
            # what stands behind them would leave it naming the wrong pieces.
            raise ValueError("cannot re-deal for a seat at a chance node that follows the "
                             "other seat's action; re-deal at a decision node (as IS-MCTS "
                             "does) or at a chance node of the seat's own action")
        twin: SpielState = self.clone()
        shared = self._engine.shared
        memory = self._engine.memory(seat, self._memory.get(seat))
        twin._engine = _Engine(shared, shared.hooks.resample(self._engine.game, seat, seed,
                                                             memory))
        twin._remembered = False  # the other seats have not seen this world
        return twin

    def __str__(self) -> str:
        game = self._engine.game
        hist = game.history
        # Before the first action the state itself: a first action refused for want of dice
        # fixes the game's initial hash, which its JSON (so a deserialised copy) drops.
        digest = hist[-1].state_hash if hist else game.state_hash()
        text = f"{game.setup.system}/{game.setup.scenario} to_move={game.to_move()} " \
            f"state={digest[:16]}"
        if self._pending is not None:
            dice = game.dice
            assert isinstance(dice, ScriptedDice)
            drawn = dice.values[dice.counter:]
            text += f" pending={canonical_json(self._pending[0])} drawn={drawn}"
        if self._truncated:
            text += " truncated"
        return text


class SeatObserver:
    """Observation (default) or information state (``perfect_recall``) of one seat."""

    def __init__(self, shared: _Shared, iig_obs_type: Any = None) -> None:
        self.shared = shared
        self.perfect_recall = bool(iig_obs_type.perfect_recall) if iig_obs_type else False
        size = shared.tensor_size + (len(shared.seats) if self.perfect_recall else 0)
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, Any] = {"observation": self.tensor[:shared.tensor_size]}
        if self.perfect_recall:
            self.dict["moves_made"] = self.tensor[shared.tensor_size:]

    def set_from(self, state: SpielState, player: int) -> None:
        seat = state.seat_of(player)
        values = state._engine.tensor(seat)
        # Packed as doubles by one struct call, cast by numpy: three times as fast as numpy
        # reading the list of floats (issue 59).
        self.tensor[:self.shared.tensor_size] = np.frombuffer(
            _packer(len(values)).pack(*values), dtype=np.float64)
        if self.perfect_recall:
            # A short numeric summary of the history: moves made by each seat (own first).
            order = [seat, *[s for s in self.shared.seats if s != seat]]
            self.tensor[self.shared.tensor_size:] = [state._own_moves[s] / 1000.0
                                                     for s in order]

    def string_from(self, state: SpielState, player: int) -> str:
        seat = state.seat_of(player)
        text = canonical_json(state.observation(seat))
        if self.perfect_recall:
            text += f"\nrecall={state.recall(seat)}"
        return text


@lru_cache(maxsize=8)
def _packer(size: int) -> struct.Struct:
    """Packs ``size`` floats as C doubles."""
    return struct.Struct(f"={size}d")


class FactoredObserver:
    """The public part of the observations (what every seat's shows alike) or one seat's
    private part (what its observation adds to the public part), as strings only: the
    systems' tensors are not split into parts, so these observers offer none."""

    def __init__(self, shared: _Shared, private: bool) -> None:
        self.shared = shared
        self.private = private
        self.tensor = None
        self.dict: dict[str, Any] = {}

    def set_from(self, state: SpielState, player: int) -> None:
        pass  # no tensor

    def string_from(self, state: SpielState, player: int) -> str:
        views = [state.observation(seat) for seat in self.shared.seats]
        public = views[0]
        for view in views[1:]:
            public = _common(public, view)
        if public is _ABSENT:
            public = {}
        if not self.private:
            return canonical_json(public)
        own = _beyond(views[state.player_of(state.seat_of(player))], public)
        return canonical_json({} if own is _ABSENT else own)


_ABSENT = object()


def _common(a: Any, b: Any) -> Any:
    """What two observations show alike: equal values, the keys both hold (recursively),
    lists of one length element by element (``None`` where an element differs wholly);
    ``_ABSENT`` when nothing is shared."""
    if a == b:
        return a
    if isinstance(a, dict) and isinstance(b, dict):
        both = {k: _common(a[k], b[k]) for k in a if k in b}
        kept = {k: v for k, v in both.items() if v is not _ABSENT}
        return kept if kept else _ABSENT
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        items = [_common(x, y) for x, y in zip(a, b, strict=True)]
        if all(v is _ABSENT for v in items):
            return _ABSENT
        return [None if v is _ABSENT else v for v in items]
    return _ABSENT


def _beyond(view: Any, public: Any) -> Any:
    """What ``view`` shows beyond ``public`` (as :func:`_common` built it)."""
    if public is _ABSENT:
        return view
    if view == public:
        return _ABSENT
    if isinstance(view, dict) and isinstance(public, dict):
        rest = {k: _beyond(v, public.get(k, _ABSENT)) for k, v in view.items()}
        return {k: v for k, v in rest.items() if v is not _ABSENT}
    if isinstance(view, list) and isinstance(public, list) and len(view) == len(public):
        items = [_beyond(v, _ABSENT if p is None else p)
                 for v, p in zip(view, public, strict=True)]
        return [None if v is _ABSENT else v for v in items]
    return view


class SpielGame(pyspiel.Game):  # type: ignore[misc]
    """One scenario of a system as an OpenSpiel game (see the module doc for the
    parameters). One class serves every scenario: OpenSpiel makes each game through its
    :class:`GameMaker`, and a game pickles as its name and parameters."""

    def __init__(self, spec: str, params: Mapping[str, Any] | None = None) -> None:
        self.system, self.scenario = resolve(spec)
        p = {**PARAMS, **dict(params or {})}
        options = [o for o in str(p["options"]).split(",") if o]
        max_turns, max_decisions = int(p["max_turns"]), int(p["max_decisions"])
        if max_turns < 0 or max_decisions < 1:
            raise ValueError("max_turns must be >= 0 and max_decisions >= 1")
        key = canonical_json([self.system.name, self.scenario, options, int(p["seed"]),
                              max_turns, max_decisions])
        shared = _SHARED.get(key)
        if shared is None:
            shared = _SHARED[key] = _Shared(self.system, self.scenario, options,
                                            int(p["seed"]), max_turns, max_decisions)
        self.shared = shared
        info = pyspiel.GameInfo(
            num_distinct_actions=self.shared.num_actions, max_chance_outcomes=DIE_FACES,
            num_players=len(self.shared.seats), min_utility=-1.0, max_utility=1.0,
            utility_sum=0.0, max_game_length=max_decisions)
        super().__init__(_game_type(self.system, self.scenario), info, dict(p))

    def __reduce__(self) -> tuple[Any, tuple[str, dict[str, Any]]]:
        # pyspiel.load_game finds the game again in any process that imported this module.
        return (pyspiel.load_game, (self.get_type().short_name, self.get_parameters()))

    def new_initial_state(self) -> SpielState:
        return SpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: Mapping[str, Any] | None = None
                         ) -> SeatObserver | FactoredObserver:
        if params:
            raise ValueError(f"these observers take no parameters, got {dict(params)}")
        if iig_obs_type is None or (
                iig_obs_type.public_info
                and iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER):
            return SeatObserver(self.shared, iig_obs_type)
        if iig_obs_type.perfect_recall:
            raise ValueError("only a seat's own view (public and its private info) comes "
                             "with perfect recall")
        if iig_obs_type.public_info \
                and iig_obs_type.private_info == pyspiel.PrivateInfoType.NONE:
            return FactoredObserver(self.shared, private=False)
        if not iig_obs_type.public_info \
                and iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            return FactoredObserver(self.shared, private=True)
        raise ValueError("observers: a seat's view, the public part, or a seat's private "
                         "part; not all players' private info")


class GameMaker:
    """What OpenSpiel calls to make the game of one ``system/scenario`` (a module-level
    class, so it pickles)."""

    def __init__(self, spec: str) -> None:
        self.spec = spec
        # OpenSpiel's registry (C++) drops its reference at exit without holding the GIL:
        # this cycle keeps the count above zero then, so nothing is freed there (a crash).
        self._alive = self

    def __call__(self, params: Mapping[str, Any] | None = None) -> SpielGame:
        return SpielGame(self.spec, params)


#: What makes the game of every ``system/scenario`` registered with OpenSpiel.
GAME_MAKERS: dict[str, GameMaker] = {}
for _spec in SCENARIOS:
    GAME_MAKERS[_spec] = GameMaker(_spec)
    pyspiel.register_game(_game_type(*resolve(_spec)), GAME_MAKERS[_spec])


def load(spec: str, **params: Any) -> Any:
    """``pyspiel.load_game`` for ``system/scenario`` (or a bare scenario name such as
    ``"day3"``, read as the first system listing it) with parameters."""
    unknown = set(params) - set(PARAMS)
    if unknown:
        raise ValueError(f"unknown parameters {sorted(unknown)}; have {sorted(PARAMS)}")
    return pyspiel.load_game(game_name(spec), params)


class StandingEvaluator(mcts.Evaluator):  # type: ignore[misc]
    """An MCTS / IS-MCTS evaluator from the public standing (``ResearchHooks.standing``),
    uniform priors: random rollouts through a whole battle day would cost minutes per
    simulation."""

    def evaluate(self, state: Any) -> Any:
        if state.is_terminal():
            return np.array(state.returns())
        s = state.standing()
        return np.array([s, -s])

    def prior(self, state: Any) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return list(state.chance_outcomes())
        legal = state.legal_actions()
        return [(a, 1.0 / len(legal)) for a in legal]


def legal_ids(state: Any) -> Sequence[int]:
    """The legal ids of a state (a convenience that never calls pyspiel with a bad id)."""
    return list(state.legal_actions())
