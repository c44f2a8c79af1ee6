"""Hosted games: the server's rules-agnostic core, above the game protocol.

:class:`Host` keeps the live games in memory (rebuilt from the store by replaying their
actions), checks seat tokens, applies actions atomically (game first, then the store
transaction; the action is acknowledged only after the commit), and answers undo,
replay and branch requests. It talks to rule systems only through
:mod:`gettysburg.core.protocol`.
"""

from __future__ import annotations

import bisect
import hashlib
import hmac
import json
import logging
import secrets
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from gettysburg.core import savefile
from gettysburg.core.canonical import JSONDict, canonical_json
from gettysburg.core.protocol import (
    REFEREE,
    RULE_OVER,
    RULE_SEAT,
    Action,
    Event,
    Game,
    RuleError,
    UnknownSystemError,
    action_key,
    check_action,
    new_game,
)
from gettysburg.server.agents import (
    DEFAULT_AGENT,
    SeatMind,
    UnknownAgentError,
    agent_names,
    stand_in,
)
from gettysburg.server.seats import hash_token, new_game_id, new_token, seat_for_token
from gettysburg.server.store import ActionRow, GameRow, RowError, SeatRow, Store, StoreError
from gettysburg.server.systems import (
    annotate_events,
    blames_options,
    map_json,
    options_problem,
    scenario_problem,
)

log = logging.getLogger(__name__)


#: The longest seed and the most options a game takes: each is stored with the game and
#: read with every state, so neither may grow without bound.
MAX_SEED = 200
MAX_OPTIONS = 32
MAX_OPTION = 100


def storable(text: str) -> bool:
    """Whether ``text`` is text a database stores: JSON may carry a lone UTF-16 surrogate
    (``"\\ud800"``), which no UTF-8 column takes."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def options_shape_problem(options: Sequence[str]) -> str | None:
    """Why ``options`` cannot be a game's options whatever the system (``None`` if they
    can): too many, too long, not text, or one given twice."""
    if len(options) > MAX_OPTIONS:
        return f"at most {MAX_OPTIONS} options, not {len(options)}"
    seen: set[str] = set()
    for option in options:
        if len(option) > MAX_OPTION or not storable(option):
            return f"an option is at most {MAX_OPTION} characters of text"
        if option in seen:
            return f"option {option!r} is given twice"
        seen.add(option)
    return None


class ApiError(Exception):
    """A refusal reported to the client as JSON: HTTP status, the rule or field, a message."""

    def __init__(self, status: int, rule: str, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.status, self.rule, self.message, self.field = status, rule, message, field

    def to_json(self) -> JSONDict:
        out: JSONDict = {"rule": self.rule, "message": self.message}
        if self.field is not None:
            out["field"] = self.field
        return out


class Damaged(ApiError):
    """A stored game that cannot be rebuilt (kept until restart, unlike a database that is
    unreachable for a moment). Clients get ``message`` (the game and the failing action
    index only: the replay's own error could describe hidden blocks, and anyone may ask
    without a token); ``detail`` goes to the server log and ``serve --check``."""

    def __init__(self, rule: str, message: str, detail: str) -> None:
        super().__init__(500, rule, message)
        self.detail = detail


def _damaged_action(game_id: str, index: int, detail: str) -> Damaged:
    return Damaged("store.replay", f"game {game_id} is damaged: its stored action {index} "
                                   "does not replay (the server log says why)", detail)


def unavailable(exc: StoreError) -> ApiError:
    """A database error, as the client sees it: nothing was recorded, try again. The detail
    (which names the database) goes to the server log only."""
    log.warning("database error: %s", exc)
    return ApiError(503, "store.unavailable", "the game database did not confirm this; send "
                                              "it again (an action with the same action_id "
                                              "is applied once)")


def rule_error(exc: RuleError) -> ApiError:
    """Map a game refusal to HTTP: out of turn / game over are conflicts (409), anything
    else the rules forbid is an unprocessable request (422)."""
    status = 409 if exc.rule in (RULE_SEAT, RULE_OVER) else 422
    return ApiError(status, exc.rule, exc.message)


@dataclass(frozen=True)
class SeatSpec:
    kind: str  # "human" or "ai"
    agent: str | None = None


@dataclass
class SeatLog:
    """Where one seat's entries are in a game's log: ``at[n]`` is the log position of the
    seat's entry ``n``, over the first ``read`` events of ``game``'s log. A push then reads
    only the events added since (issue 59) instead of going through the whole log, which
    grows with the game, to count and number the seat's entries."""

    game: Game | None = None
    read: int = 0
    at: list[int] = field(default_factory=list)

    def follow(self, game: Game, seat: str) -> None:
        size = game.log_length
        if game is not self.game or size < self.read:  # another game object (an undo)
            self.game, self.read, self.at = game, 0, []
        if size > self.read:
            self.at.extend(k for k, event in enumerate(game.log_slice(self.read, size),
                                                       self.read) if event.shown_to(seat))
            self.read = size


@dataclass
class Live:
    """A game in memory with its rows; ``marks[i]`` is the log length after ``i`` actions."""

    row: GameRow
    seats: list[SeatRow]
    game: Game
    marks: list[int]
    action_ids: list[str]
    lock: threading.RLock = field(default_factory=threading.RLock)
    #: action index -> why the other seats noticed it ("" = they did not), recorded when
    #: the action was applied here, so the undo check needs no replay.
    noticed: dict[int, str] = field(default_factory=dict)
    #: When the host last handed this game out (its clock), for evicting idle games.
    used: float = 0.0
    #: The agent of each AI seat, kept for the game (``SeatMind``; ``None``: the seat's
    #: agent is not registered here). Made on the seat's first decision after a load.
    minds: dict[str, SeatMind | None] = field(default_factory=dict)
    #: seat -> (``mark``, its view there): a view is a function of the position, so one
    #: per seat per position serves the action's before and after checks, the AI seat's
    #: mind, the state answer and the push.
    views: dict[str, tuple[Mark, JSONDict]] = field(default_factory=dict)
    #: seat -> (what the state depends on, the state, its JSON text): built once per
    #: position and seat list, shared by the HTTP answer and every push of it.
    states: dict[str, tuple[object, JSONDict, str]] = field(default_factory=dict)
    #: seat -> where its entries are in the log (``SeatLog``).
    logs: dict[str, SeatLog] = field(default_factory=dict)

    @property
    def step(self) -> int:
        return len(self.game.history)

    @property
    def mark(self) -> Mark:
        """Where the game stands: the step and the state it led to. The step alone is not
        enough: after an undo and another action the step is back but the position may
        differ, and an AI choice computed for the old one must not be applied to it."""
        history = self.game.history
        return len(history), history[-1].state_hash if history else ""

    def seat_row(self, seat: str) -> SeatRow:
        return next(s for s in self.seats if s.seat == seat)

    def _seat_log(self, seat: str) -> SeatLog:
        log = self.logs.setdefault(seat, SeatLog())
        log.follow(self.game, seat)
        return log

    def log_size(self, seat: str) -> int:
        """``game.log_size(seat)``, from the events added since it was last asked (call
        under ``lock``)."""
        return len(self._seat_log(seat).at)

    def events_between(self, seat: str, lo: int, hi: int, since: int = 0) -> list[JSONDict]:
        """``game.events_between(seat, lo, hi, since)``, reading only the events it
        returns (call under ``lock``)."""
        at = self._seat_log(seat).at
        first = max(since, bisect.bisect_left(at, lo))
        last = bisect.bisect_left(at, hi)  # the seat's entries before position ``hi``
        if first >= last:
            return []
        events = self.game.log_slice(at[first], at[last - 1] + 1)
        out: list[JSONDict] = []
        for n in range(first, last):
            shown = events[at[n] - at[first]].for_seat(seat)
            if shown is not None:
                shown["n"] = n
                out.append(shown)
        return out

    def view(self, seat: str) -> JSONDict:
        """The seat's view of the position now, computed once per position (call under
        ``lock``). Callers only read it."""
        mark = self.mark
        cached = self.views.get(seat)
        if cached is not None and cached[0] == mark:
            return cached[1]
        view = self.game.view(seat)
        self.views[seat] = (mark, view)
        return view


Listener = Callable[[str], None]
#: ``Live.mark``: (step, state hash after it).
Mark = tuple[int, str]

#: Why an action that showed its player something of the other side is kept (undo).
LEARNED = "that action showed you something of the other side"


def _watchers(seats: Sequence[SeatRow], game: Game, seat: str, learned: bool | None
              ) -> list[str]:
    """The other seats that must not have noticed an action of ``seat`` it takes back:
    those a person plays. A computer opponent is not kept from seeing such a move (its mind
    is rebuilt without it, ``Host.undo``) unless the system cannot say what ``seat``
    learned by it (``learned`` None, ``Game.learned_from``): then every other seat."""
    ai = {s.seat for s in seats if s.kind == "ai"} if learned is not None else set()
    return [o for o in game.seats() if o != seat and o not in ai]


#: Games kept in memory before idle ones are let go (rebuilt from the store when asked for).
MAX_LIVE = 200
#: A game untouched for this long may be let go.
IDLE_SECONDS = 60.0


class Host:
    """Live games over a :class:`Store`.

    At most about ``max_live`` games stay in memory: when a game is loaded and the cap is
    reached, the least recently used games idle for ``idle_seconds`` or more, and not in
    the middle of an action, are let go. Letting go loses nothing (every action is in the
    store) and is what a restart does to every game; the next request rebuilds the game
    by replay. Games that are all in use stay, so the cap can be exceeded."""

    def __init__(self, store: Store, *, max_live: int = MAX_LIVE,
                 idle_seconds: float = IDLE_SECONDS,
                 clock: Callable[[], float] = time.monotonic,
                 agents: Sequence[str] = ()) -> None:
        self.store = store
        #: Agents a new game may seat besides each system's own (``agent_names``): ones the
        #: program embedding the server registered itself (tests do).
        self.agents = tuple(agents)
        self.max_live, self.idle_seconds, self._clock = max_live, idle_seconds, clock
        self._live: dict[str, Live] = {}
        self._lock = threading.Lock()
        self._listeners: list[Listener] = []
        self._replays: dict[str, Game] = {}  # last replayed position per game (stepping)
        self._damaged: dict[str, Damaged] = {}  # games whose stored rows do not replay
        self._secret: bytes | None = None  # the store's secret (Store.secret), read once

    # --- notifications --------------------------------------------------------------------

    def listen(self, listener: Listener) -> None:
        """``listener(game_id)`` is called after every change to a game."""
        self._listeners.append(listener)

    def _changed(self, game_id: str) -> None:
        for listener in list(self._listeners):
            listener(game_id)

    # --- loading ----------------------------------------------------------------------------

    def _fresh(self, system: str, scenario: str, options: Sequence[str], seed: str,
               game_id: str | None = None) -> Game:
        """The game as set up, before any action; with ``game_id`` it takes that game's
        secret, so what the fog hides does not follow from the seed (a seed typed in the
        lobby fixes the dice only)."""
        game = new_game(f"{system}/{scenario}", options=list(options), seed=seed)
        if game_id is not None:
            game.use_secret(self._game_secret(game_id))
        return game

    def _game_secret(self, game_id: str) -> bytes:
        if self._secret is None:
            try:
                self._secret = self.store.secret()
            except StoreError as exc:
                raise unavailable(exc) from None
        return hmac.new(self._secret, b"game\x00" + game_id.encode("utf-8"),
                        hashlib.sha256).digest()

    def load(self, game_id: str) -> Live:
        """The live game, rebuilt from the store on first use by replaying every action
        and checking each resulting state hash against the stored one. A game whose rows
        cannot be read or no longer replay is remembered as damaged (500 naming the failing
        action) and does not stop any other game."""
        with self._lock:
            live = self._live.get(game_id)
            if live is not None:
                live.used = self._clock()
                return live
            damage = self._damaged.get(game_id)
            if damage is not None:
                raise damage
            try:
                live = self._rebuild(game_id)
            except Damaged as exc:
                self._damaged[game_id] = exc
                raise
            self._let_go_idle()
            live.used = self._clock()
            self._live[game_id] = live
            return live

    def _let_go_idle(self) -> None:
        """Make room for one more game (called under ``self._lock``)."""
        excess = len(self._live) + 1 - self.max_live
        if excess <= 0:
            return
        now = self._clock()
        for game_id, live in sorted(self._live.items(), key=lambda kv: kv[1].used):
            if excess <= 0 or now - live.used < self.idle_seconds:
                break
            # A game whose lock is held is being acted on: keep it. (Anyone who took it
            # from load() just now also touched ``used``, so it is not idle.)
            if not live.lock.acquire(blocking=False):
                continue
            try:
                del self._live[game_id]
                self._replays.pop(game_id, None)
                excess -= 1
            finally:
                live.lock.release()

    def in_memory(self) -> list[str]:
        """Ids of the games held in memory now, least recently used first."""
        with self._lock:
            return [g for g, _ in sorted(self._live.items(), key=lambda kv: kv[1].used)]

    def _rebuild(self, game_id: str) -> Live:
        try:
            row = self.store.game(game_id)
            if row is None:
                raise ApiError(404, "game", f"no game {game_id!r}", field="game_id")
            rows = self.store.actions(game_id)
            seats = self.store.seats(game_id)
        except RowError as exc:
            at = "" if exc.index is None else f" (action {exc.index})"
            raise Damaged("store.row", f"game {game_id} is damaged: a stored row cannot be "
                                       f"read{at}", str(exc)) from None
        except StoreError as exc:
            damage = self.store.damage()  # a damaged file, or a database out for a moment?
            if damage:
                raise Damaged("store.damaged", f"game {game_id} is damaged: the database "
                                               "file is damaged where it is kept (restore a "
                                               "backup)",
                              f"{exc}; SQLite integrity check: {'; '.join(damage)}") from None
            raise unavailable(exc) from None
        try:
            game = self._fresh(row.system, row.scenario, row.options, row.seed, row.id)
        except (UnknownSystemError, ValueError, KeyError, OSError) as exc:
            raise Damaged("store.system", f"game {game_id} cannot be set up on this server "
                                          f"({row.system}/{row.scenario})",
                          f"game {game_id} cannot be set up here: {exc}") from None
        marks, ids = [len(game.log)], []
        noticed: dict[int, str] = {}
        for i, a in enumerate(rows):
            if a.index != i:
                raise _damaged_action(game_id, i, f"game {game_id}: stored action {i} is "
                                                  f"missing (the next is numbered {a.index})")
            last = i == len(rows) - 1
            others = [o for o in game.seats() if o != a.seat] if last else []
            seen = {o: game.view(o) for o in others}
            mine = game.view(a.seat) if last else {}
            try:
                events = game.apply(a.action, a.seat)
            except Exception as exc:  # a refusal, or a rule system choking on a bad row
                raise _damaged_action(game_id, i, f"game {game_id}: stored action {i} is "
                                                  f"refused on replay: {exc}") from None
            if list(game.history[-1].dice) != list(a.dice):
                raise _damaged_action(game_id, i, f"game {game_id}: stored action {i}'s "
                                                  f"dice {a.dice} are not the dice it rolls "
                                                  "on replay")
            if game.history[-1].state_hash != a.state_hash:
                raise _damaged_action(game_id, i, f"game {game_id}: stored action {i} "
                                                  "replays to another state")
            marks.append(len(game.log))
            ids.append(a.action_id)
            if last:  # what undo needs to know about the action that may be taken back
                noticed[a.index] = self._noticed(game, seats, a.seat, seen, mine, events)
        return Live(row, seats, game, marks, ids, noticed=noticed)

    def active_games(self) -> list[str]:
        """Active games that load; each damaged one is logged (one line) and left out."""
        out = []
        try:
            ids = self.store.game_ids("active")
        except StoreError as exc:  # games are also loaded on their first request
            log.warning("cannot list the games to resume: %s", exc)
            return []
        for game_id in ids:
            try:
                self.load(game_id)
            except Damaged as exc:
                log.warning("game %s is not served: %s", game_id, exc.detail)
                continue
            except ApiError as exc:
                log.warning("game %s is not resumed now: %s", game_id, exc.message)
                continue
            out.append(game_id)
        return out

    def check(self) -> dict[str, str]:
        """Load every stored game (active or finished); what is wrong with each that fails."""
        problems: dict[str, str] = {}
        for game_id in self.store.game_ids():
            try:
                self.load(game_id)
            except Damaged as exc:
                problems[game_id] = f"[{exc.rule}] {exc.detail}"
            except ApiError as exc:
                problems[game_id] = f"[{exc.rule}] {exc.message}"
        damage = self.store.damage() if problems else []
        if damage:  # the file itself is damaged: say so beside each game it broke
            for game_id in problems:
                if "integrity check" not in problems[game_id]:
                    problems[game_id] += f" (SQLite integrity check: {'; '.join(damage)})"
        return problems

    def damaged(self) -> dict[str, str]:
        """Games found damaged so far, with what is wrong."""
        with self._lock:
            return {g: e.detail for g, e in self._damaged.items()}

    # --- auth ---------------------------------------------------------------------------------

    def auth(self, game_id: str, token: str | None) -> tuple[Live, str]:
        """The game and the seat the token opens, or 403 (same answer for a wrong token and
        for a token of another game, so tokens cannot be probed per game)."""
        live = self.load(game_id)
        seat = seat_for_token(live.seats, token)
        if seat is None:
            raise ApiError(403, "auth.token", "this link's token does not open a seat of "
                                              "this game")
        if not live.seat_row(seat).joined:  # the first use of the link: its player has come
            with live.lock:
                try:
                    self.store.mark_joined(game_id, seat)
                except StoreError as exc:
                    raise unavailable(exc) from None
                self._set_seat(live, seat, joined=True)
        return live, seat

    @staticmethod
    def _set_seat(live: Live, seat: str, **changes: Any) -> None:
        live.seats[:] = [replace(s, **changes) if s.seat == seat else s for s in live.seats]

    def new_link(self, live: Live, seat: str, target: str | None = None) -> tuple[str, str]:
        """A new link for ``seat``'s own seat (``target`` None or the same): the old one
        stops working, so a link that leaked (or the one the game's creator also holds)
        no longer opens it. For another seat ``target``: only while nobody has used its
        link, so the creator can take back a link sent to the wrong person, never a seat
        someone plays. Returns (seat, token)."""
        target = seat if target is None else target
        row = next((s for s in live.seats if s.seat == target), None)
        if row is None or row.kind != "human":
            raise ApiError(422, "seat.link", f"no seat {target!r} played by a person in this "
                                             "game", field="seat")
        token = new_token()
        with live.lock:
            try:
                done = self.store.set_token(live.row.id, target, hash_token(token),
                                            joined=target == seat,
                                            unless_joined=target != seat)
            except StoreError as exc:
                raise unavailable(exc) from None
            if not done:
                raise ApiError(409, "seat.joined", f"seat {target}'s link has been used: only "
                                                   "its player can change it", field="seat")
            self._set_seat(live, target, token_hash=hash_token(token), joined=target == seat)
        self._changed(live.row.id)
        return target, token

    # --- creation ---------------------------------------------------------------------------

    def create(self, system: str, scenario: str, options: Sequence[str], seed: str | None,
               seats: Mapping[str, SeatSpec], actions: Sequence[Mapping[str, Any]] = (),
               parent: tuple[str, int] | None = None,
               recorded: bool = False,
               kept_agents: Sequence[str] = ()) -> tuple[str, dict[str, str]]:
        """Create a game (optionally with a prefix of ``actions`` already played, for
        branches); returns its id and a token per human seat. An AI seat takes an agent
        the system offers (``agent_names``) or, in a branch, one of ``kept_agents`` (the
        original game's, even a name retired since)."""
        # A seed someone chose (typed in the lobby, read from a save) fixes the dice: both
        # seats are told (``dice_chosen``). The fog never follows from it (_fresh).
        dice_chosen = bool(seed)
        if seed is not None and (len(seed) > MAX_SEED or not storable(seed)):
            raise ApiError(422, "setup.seed", f"seed must be at most {MAX_SEED} characters of "
                                              "text (no lone UTF-16 surrogates)", field="seed")
        problem = options_shape_problem(options)
        if problem is not None:
            raise ApiError(422, "setup.options", problem, field="options")
        seed = seed if seed else secrets.token_hex(16)
        game_id = new_game_id()
        problem = scenario_problem(system, scenario)  # never a server-side file path
        if problem is not None:
            raise ApiError(422, "setup.scenario", problem, field="scenario")
        # A new game takes only its scenario's options; a branch or an imported save
        # (``recorded``) keeps the options its game was recorded with.
        problem = None if recorded else options_problem(system, scenario, options)
        if problem is not None:
            raise ApiError(422, "setup.options", problem, field="options")
        try:
            game = self._fresh(system, scenario, options, seed, game_id)
        except UnknownSystemError as exc:
            raise ApiError(422, "setup.system", str(exc), field="system") from None
        except (ValueError, KeyError, OSError) as exc:
            at = "options" if blames_options(system, scenario, options) else "scenario"
            raise ApiError(422, f"setup.{at}", f"cannot set up {system}/{scenario} "
                                               f"with options {list(options)}: {exc}",
                           field=at) from None
        names = game.seats()
        if set(seats) != set(names):
            raise ApiError(422, "setup.seats", f"say who plays each seat: {names}",
                           field="seats")
        if not any(spec.kind == "human" for spec in seats.values()):
            raise ApiError(422, "setup.seats", "at least one seat must be human",
                           field="seats")
        rows: list[SeatRow] = []
        tokens: dict[str, str] = {}
        for name in names:
            spec = seats[name]
            if spec.kind not in ("human", "ai"):
                raise ApiError(422, "setup.seats", f"seat {name}: kind must be human or ai",
                               field=f"seats.{name}.kind")
            agent = None
            if spec.kind == "ai":
                agent = spec.agent or DEFAULT_AGENT
                allowed = agent_names(system, self.agents)
                if agent not in allowed and agent not in kept_agents:
                    raise ApiError(422, "setup.agent", f"seat {name}: no opponent {agent!r} "
                                   f"for {system}; have {allowed}",
                                   field=f"seats.{name}.agent")
            token = new_token()
            if spec.kind == "human":
                tokens[name] = token
            rows.append(SeatRow(name, spec.kind, agent, secrets.token_hex(8), hash_token(token)))
        action_rows: list[ActionRow] = []
        for i, a in enumerate(actions):
            seat = str(a["seat"])
            game.apply(a["action"], seat)
            move = game.history[-1]
            action_rows.append(ActionRow(i, seat, move.action, f"branch:{i}", list(move.dice),
                                         move.state_hash))
        try:
            self.store.create_game(game_id, system, scenario, list(options), seed, rows,
                                   action_rows, parent=parent[0] if parent else None,
                                   parent_step=parent[1] if parent else None,
                                   status="finished" if game.is_terminal() else "active",
                                   result=game.result(), dice_chosen=dice_chosen)
        except StoreError as exc:
            raise unavailable(exc) from None
        return game_id, tokens

    # --- state for a seat -------------------------------------------------------------------

    def state(self, live: Live, seat: str) -> JSONDict:
        """Everything a seat's client needs to draw the game (fog of war applied by the
        rule system's ``view``). Built once per position and seat list (``Live.states``);
        each caller gets its own outer dict."""
        return dict(self._state(live, seat)[0])

    def state_json(self, live: Live, seat: str) -> str:
        """:meth:`state` as JSON text, serialised once per position for every push."""
        return self._state(live, seat)[1]

    def _state(self, live: Live, seat: str) -> tuple[JSONDict, str]:
        with live.lock:
            # What the state depends on besides the position: the seat rows (joined,
            # links), which change without an action.
            key = (live.mark, tuple(live.seats))
            cached = live.states.get(seat)
            if cached is not None and cached[0] == key:
                return cached[1], cached[2]
            state = self._build_state(live, seat)
            text = json.dumps(state, separators=(",", ":"), ensure_ascii=False)
            live.states[seat] = (key, state, text)
            return state, text

    def _build_state(self, live: Live, seat: str) -> JSONDict:
        game = live.game
        over = game.is_terminal()
        view = live.view(seat)
        return {
            "game_id": live.row.id, "system": live.row.system,
            "scenario": live.row.scenario, "options": live.row.options,
            "seat": seat,
            "seats": [{"seat": s.seat, "kind": s.kind, "agent": s.agent,
                       "joined": s.joined} for s in live.seats],
            "status": "finished" if over else "active",
            "result": game.result(), "step": live.step, "log_size": live.log_size(seat),
            "to_move": game.to_move(), "view": view, "legal": game.legal_in_view(view, seat),
            "undo": self._undo_refusal(live, seat) is None,
            "parent": live.row.parent, "parent_step": live.row.parent_step,
            "map": map_json(live.row.system) is not None,
            # Whether someone could know every die before play (a chosen seed): the
            # fog holds either way, the dice may not (docs/security.md).
            "dice_chosen": live.row.dice_chosen,
        }

    def events(self, live: Live, seat: str, since: int) -> list[JSONDict]:
        with live.lock:
            return annotate_events(live.row.system,
                                   live.events_between(seat, 0, live.game.log_length,
                                                       max(0, since)))

    # --- acting ------------------------------------------------------------------------------

    def _outcome(self, live: Live, seat: str, index: int, duplicate: bool) -> JSONDict:
        lo, hi = live.marks[index], live.marks[index + 1]
        events = annotate_events(live.row.system, live.events_between(seat, lo, hi))
        return {"applied": True, "duplicate": duplicate, "index": index,
                "step": live.step, "events": events}

    def act(self, game_id: str, seat: str, action: object, action_id: str,
            step: int | None = None) -> JSONDict:
        """Apply ``action`` for ``seat``, once per ``action_id``; with ``step``, only if the
        game is still at that step (a client re-sending a kept action after an outage)."""
        if not action_id or len(action_id) > 200:
            raise ApiError(422, "request", "action_id must be 1..200 characters",
                           field="action_id")
        if not storable(action_id):
            raise ApiError(422, "request", "action_id holds a lone UTF-16 surrogate (not "
                                           "text)", field="action_id")
        live = self.load(game_id)
        with live.lock:
            try:
                act = check_action(action)
            except RuleError as exc:
                raise rule_error(exc) from None
            done = None
            # Every applied action's id is in memory (``Live.action_ids``): the store, whose
            # one connection every game's commit waits for, is asked only about a repeat.
            if action_id in live.action_ids:
                try:
                    done = self.store.action_by_id(game_id, seat, action_id)
                except StoreError as exc:
                    raise unavailable(exc) from None
            if done is not None:
                if action_key(done.action) != action_key(act):
                    raise ApiError(409, "request.action_id",
                                   "this action_id was already used for another action",
                                   field="action_id")
                return self._outcome(live, seat, done.index, duplicate=True)
            if step is not None and step != live.step:
                raise ApiError(409, "protocol.step",
                               f"the game has moved on since this action was chosen (step "
                               f"{step}, now {live.step}); nothing was applied", field="step")
            game = live.game
            # Only a person's action may be taken back (undo, by a seat's token), so only
            # then does what it showed (``noticed``) matter. The views it compares are
            # taken before the action for the seats that certainly watch (people); a
            # computer's view is made only if the system cannot say what the actor
            # learned (then it is replayed: rare, and never for a system that can say).
            person = live.seat_row(seat).kind == "human"
            seen = {o.seat: live.view(o.seat) for o in live.seats
                    if person and o.seat != seat and o.kind != "ai"}
            mine = live.view(seat) if person else {}
            try:
                events = game.apply(act, seat)
            except RuleError as exc:
                raise rule_error(exc) from None
            move, index = game.history[-1], len(game.history) - 1
            noticed = self._noticed(game, live.seats, seat, seen, mine, events, live.view,
                                    lambda: self._prefix(live, index)) if person else ""
            over = game.is_terminal()
            row = ActionRow(index, seat, move.action, action_id, list(move.dice),
                            move.state_hash)
            try:
                self.store.append_action(game_id, row, "finished" if over else "active",
                                         game.result())
            except BaseException as exc:
                # Not committed, so not applied: rebuild the game from the store. This Live
                # also goes back to the stored position first: a request that took it before
                # the failure (waiting on its lock) must not read an action that never was,
                # e.g. the dice of a fire the player may now choose not to send again, or
                # the save and referee replay of an end that did not happen.
                live.game = self._prefix(live, index)
                with self._lock:
                    self._live.pop(game_id, None)
                if isinstance(exc, StoreError):
                    raise unavailable(exc) from None
                raise
            live.marks.append(len(game.log))
            live.action_ids.append(action_id)
            if person:
                live.noticed[index] = noticed
            self._show_minds(live)
            out = self._outcome(live, seat, index, duplicate=False)
        self._replays.pop(game_id, None)
        self._changed(game_id)
        return out

    # --- undo -------------------------------------------------------------------------------

    def _prefix(self, live: Live, k: int) -> Game:
        """A fresh game with the first ``k`` actions of ``live`` applied."""
        row = live.row
        game = self._fresh(row.system, row.scenario, row.options, row.seed, row.id)
        for move in live.game.history[:k]:
            game.apply(move.action, move.seat)
        return game

    @staticmethod
    def _noticed(game: Game, seats: Sequence[SeatRow], seat: str,
                 seen: Mapping[str, JSONDict], mine: JSONDict, events: Sequence[Event],
                 view: Callable[[str], JSONDict] | None = None,
                 before: Callable[[], Game] | None = None) -> str:
        """Why ``seat``'s action just applied may not be taken back ("" if it may): it
        showed the seat something of the other side (its view ``mine`` before), or another
        seat noticed it (its view, ``seen`` before, changed, or it was told of one of the
        action's events). Computer seats count only where the system cannot tell what the
        seat learned (``Game.learned_from``); a watcher ``seen`` lacks is shown the game
        ``before`` the action (a replay)."""
        # ``view``: the live game's cached views (the position after it).
        view = game.view if view is None else view
        learned = game.learned_from(seat, mine, view(seat))
        if learned:
            return LEARNED
        past: Game | None = None
        for other in _watchers(seats, game, seat, learned):
            was = seen.get(other)
            if was is None:
                if before is None:
                    raise KeyError(other)
                past = before() if past is None else past
                was = past.view(other)
            now = view(other)
            # Unequal views differ; equal ones are compared as canonical JSON too, which
            # tells apart what ``==`` does not (1, 1.0 and true).
            if now != was or canonical_json(now) != canonical_json(was):
                return f"{other} could see that action"
            if any(ev.for_seat(other) is not None for ev in events):
                return f"{other} was told about that action"
        return ""

    def _undo_refusal(self, live: Live, seat: str, deep: bool = False) -> str | None:
        """Why ``seat`` may not take back the last action, or ``None`` if it may.

        The rule (docs/server.md): only your own last action, only if it rolled no dice,
        showed you nothing of the other side (``Game.learned_from``) and no other seat
        played by a person could see any difference (their view and their log before and
        after the action are identical) — so undo cannot be used to fish for information
        or re-roll dice, and never takes back what a person saw.
        The view comparison costs a replay, so it runs only when ``deep``.
        """
        history = live.game.history
        if not history:
            return "nothing has been played yet"
        if live.game.is_terminal():
            # The end of a game releases the save (the seed, every hidden action) and the
            # referee's replay to every seat. Taking back the move that ended it would let a
            # seat read both and then play on: a computer opponent does not stop it (it is
            # no watcher), and a system's last action may roll nothing and show nothing.
            return "the game is over"
        last = history[-1]
        if last.seat != seat:
            return "the last action is not yours"
        if last.dice:
            return "that action rolled dice"
        if live.action_ids[-1].startswith("branch:"):
            return "that action belongs to the game this one branched from"
        noticed = live.noticed.get(len(history) - 1)
        if noticed is not None:
            return noticed or None
        if not deep:
            return None  # not known without a replay (the game was reloaded): undo will tell
        before = self._prefix(live, len(history) - 1)
        learned = live.game.learned_from(seat, before.view(seat), live.game.view(seat))
        if learned:
            return LEARNED
        for other in _watchers(live.seats, live.game, seat, learned):
            if canonical_json(before.view(other)) != canonical_json(live.game.view(other)):
                return f"{other} could see that action"
            if canonical_json(before.events(other)) != canonical_json(live.game.events(other)):
                return f"{other} was told about that action"
        return None

    def undo(self, game_id: str, seat: str) -> None:
        live = self.load(game_id)
        with live.lock:
            reason = self._undo_refusal(live, seat, deep=True)
            if reason is not None:
                raise ApiError(409, "undo", f"cannot take back: {reason}")
            index = len(live.game.history) - 1
            before = self._prefix(live, index)
            try:
                self.store.delete_last_action(game_id, index)
            except StoreError as exc:  # nothing deleted, nothing changed here: retry later
                raise unavailable(exc) from None
            live.game = before
            live.marks.pop()
            live.action_ids.pop()
            live.noticed.pop(index, None)
            # A mind that saw a view after the step undone is rebuilt from the history.
            live.minds = {s: m for s, m in live.minds.items()
                          if m is not None and m.seen_step <= live.step}
        self._replays.pop(game_id, None)
        self._changed(game_id)

    # --- replay, save, branch ------------------------------------------------------------

    def _at_step(self, live: Live, k: int) -> Game:
        cached = self._replays.get(live.row.id)
        if cached is not None and len(cached.history) <= k:
            game = cached
            for move in live.game.history[len(game.history):k]:
                game.apply(move.action, move.seat)
        else:
            game = self._prefix(live, k)
        self._replays[live.row.id] = game
        return game

    def replay(self, live: Live, seat: str, step: int) -> JSONDict:
        """The game as ``seat`` saw it after ``step`` actions. Once the game is over the
        referee's view (everything) is shown; before that, only the seat's own."""
        with live.lock:
            total = live.step
            k = min(max(0, step), total)
            over = live.game.is_terminal()
            who = REFEREE if over else seat
            game = self._at_step(live, k)
            move: JSONDict | None = None
            if k > 0:
                m = live.game.history[k - 1]
                move = {"seat": m.seat}
                if over or m.seat == seat:
                    move["action"] = m.action
                if over:
                    move["dice"] = list(m.dice)
            events = annotate_events(live.row.system,
                                     live.game.events_between(who, 0, live.marks[k]))
            return {"game_id": live.row.id, "step": k, "steps": total, "as": who,
                    "finished": over, "view": game.view(who), "to_move": game.to_move(),
                    "move": move, "events": events, "system": live.row.system}

    def save(self, live: Live) -> JSONDict:
        """The save file (seed, every action and die). It would reveal hidden information
        and future dice, so it is released only once the game is over."""
        with live.lock:
            if not live.game.is_terminal():
                raise ApiError(409, "fog.save", "the save file holds the seed and every die; "
                                                "it is available when the game is over")
            return savefile.save(live.game)

    def branch(self, live: Live, seat: str, step: int,
               seats: Mapping[str, SeatSpec] | None) -> tuple[str, dict[str, str]]:
        """What-if: a new game with the same set-up and the first ``step`` actions.

        Only from a finished game: branching a game in progress would hand the brancher
        the opponent's seat (and so their hidden blocks) and the seed."""
        with live.lock:
            if not live.game.is_terminal():
                raise ApiError(409, "fog.branch", "a game can be branched once it is over")
            k = min(max(0, step), live.step)
            moves = [{"seat": m.seat, "action": m.action} for m in live.game.history[:k]]
            row = live.row
        # A seat ``seats`` leaves out is played as in the original game: the computer
        # opponent stays, with its agent, so a what-if is replayed against it.
        kept = {s.seat: SeatSpec(s.kind, s.agent if s.kind == "ai" else None)
                for s in live.seats}
        specs = {**kept, **(seats or {})}
        return self.create(row.system, row.scenario, row.options, row.seed, specs,
                           actions=moves, parent=(row.id, k), recorded=True,
                           kept_agents=[s.agent for s in live.seats if s.agent])

    def import_save(self, data: object) -> tuple[str, dict[str, str]]:
        """Host a save file (verified by replaying it) as a new game; the uploader already
        holds everything the save reveals, so every seat's link is returned."""
        try:
            model = savefile.parse(data)
        except savefile.SaveFileError as exc:
            raise ApiError(422, "save.format", str(exc), field="save") from None
        problem = scenario_problem(model.system, model.scenario)  # checked before replaying
        if problem is not None:
            raise ApiError(422, "save.header", problem, field="save.scenario")
        problem = options_shape_problem(model.options)
        if problem is not None:
            raise ApiError(422, "save.header", problem, field="save.options")
        try:
            savefile.replay(model)
        except savefile.SaveFileError as exc:
            raise ApiError(422, "save.format", str(exc), field="save") from None
        except savefile.ReplayError as exc:
            raise ApiError(422, f"save.{exc.problem.kind}", str(exc.problem),
                           field="save") from None
        if model.dice.kind != "seeded":
            raise ApiError(422, "save.dice", "only games with seeded dice can be hosted "
                                             "(a scripted save replays, but cannot go on)",
                           field="save.dice")
        probe = self._fresh(model.system, model.scenario, model.options, model.seed)
        specs = {seat: SeatSpec("human") for seat in probe.seats()}
        moves = [{"seat": m.seat, "action": m.action} for m in model.moves]
        return self.create(model.system, model.scenario, model.options, model.seed, specs,
                           actions=moves, recorded=True)

    # --- AI seats ----------------------------------------------------------------------------

    def ai_turns(self, game_id: str) -> list[tuple[str, SeatMind | None, str, JSONDict,
                                                   Sequence[Action], Mark]]:
        """AI seats now to move: (seat, its mind, decision seed, view, legal actions, and
        the game's ``mark``, which must be unchanged when the choice is applied)."""
        live = self.load(game_id)
        with live.lock:
            game = live.game
            out: list[tuple[str, SeatMind | None, str, JSONDict, Sequence[Action], Mark]] = []
            for seat in game.to_move():
                row = live.seat_row(seat)
                if row.kind != "ai" or row.agent is None:
                    continue
                mind = self._mind(live, seat, row.agent, str(row.agent_seed))
                legal: Sequence[Action]
                if mind is not None and not mind.reads_view:
                    # An agent that reads only the legal actions (random) is given the
                    # view's summary and the actions as the system may list them lazily,
                    # as the lab does (agent_move says how they are read safely).
                    view, legal = game.view_summary(seat), game.legal_sequence(seat)
                else:
                    seen = mind.view_at(live.step) if mind is not None else None
                    view = live.view(seat) if seen is None else seen
                    legal = game.legal_in_view(view, seat)
                if legal:
                    out.append((seat, mind, f"{row.agent_seed}:{live.step}", view, legal,
                                live.mark))
            return out

    def _mind(self, live: Live, seat: str, agent: str, seed: str) -> SeatMind | None:
        """The seat's mind, made on first use by replaying the game (under ``live.lock``):
        it is shown the seat's view at every step where the seat was to move, as it would
        have been had the server kept it all along."""
        if seat in live.minds:
            mind = live.minds[seat]
            if mind is None or (mind.asked, mind.seed) == (agent, seed):
                return mind
        system = live.row.system
        try:
            mind = SeatMind(agent, seed, system)
        except UnknownAgentError:
            # A name retired since the game began (docs/server.md, "Opponents"): the game
            # goes on with the stand-in, rather than stopping or playing nonsense.
            other = stand_in(system)
            try:
                mind = None if other is None else SeatMind(other, seed, system, asked=agent)
            except UnknownAgentError:
                mind = None
            log.warning("game %s: seat %s's agent %r is not built here; %s plays it",
                        live.row.id, seat, agent, other if mind is not None else "its first "
                        "legal action")
            if mind is None:
                live.minds[seat] = None
                return None
        if mind.remembers and live.step:
            row = live.row
            past = self._fresh(row.system, row.scenario, row.options, row.seed, row.id)
            for k, move in enumerate(live.game.history):
                if seat in past.to_move():
                    mind.see(k, past.view(seat))
                # The stored actions replayed once already (state hashes checked on load).
                past.apply_unrecorded(move.action, move.seat)
        if mind.remembers and seat in live.game.to_move():
            mind.see(live.step, live.game.view(seat))
        live.minds[seat] = mind
        return mind

    @staticmethod
    def _show_minds(live: Live) -> None:
        """After an action: each AI seat now to move shows its mind the view (``SeatMind``)."""
        game = live.game
        for seat, mind in live.minds.items():
            if mind is not None and mind.remembers and seat in game.to_move():
                mind.see(live.step, live.view(seat))

    def agent_move(self, game_id: str, seat: str, mind: SeatMind | None, seed: str,
                   view: JSONDict, legal: Sequence[Action], mark: Mark, budget: float
                   ) -> None:
        """Ask the agent (outside the game lock: it may think) and apply its choice.

        An agent that reads only the legal actions (``SeatMind.reads_view`` false) got
        them as ``Game.legal_sequence``, which may read the game as items are asked for:
        it chooses under the lock, at the position they were listed for (it reads nothing
        else, so at once), and its choice is checked by applying it rather than by
        building the whole list to look it up."""
        lazy = mind is not None and not mind.reads_view
        choice: object = None
        if not lazy:
            choice = legal[0] if mind is None else mind.choose(view, legal, budget, seed)
            if not _listed(choice, legal):
                choice = legal[0]  # an agent returning nonsense must not stall the game
        live = self.load(game_id)
        try:
            with live.lock:  # re-entrant: act takes it again
                if live.mark != mark:
                    return  # the game moved (or was taken back) while the agent thought
                if mind is not None and lazy:
                    choice = mind.choose(view, legal, budget, seed)
                    try:
                        self.act(game_id, seat, choice, f"ai:{mark[0]}")
                        return
                    except ApiError as exc:
                        if exc.status != 422:
                            raise
                    choice = legal[0]  # refused (nothing changed): as for any nonsense
                self.act(game_id, seat, choice, f"ai:{mark[0]}")
        except ApiError as exc:
            # The game moved on while the agent thought (a human acted, or it ended): the
            # runner looks again. Anything else is a real fault and stops this driver.
            if exc.rule not in (RULE_SEAT, RULE_OVER):
                raise


def _listed(choice: object, legal: Sequence[Action]) -> bool:
    """Whether ``choice`` is one of ``legal`` (as :func:`action_key` tells actions apart):
    only the actions equal to it are keyed, not the whole list."""
    if not isinstance(choice, dict):
        return False
    key = action_key(choice)
    return any(a == choice and action_key(a) == key for a in legal)


def seat_specs(data: Mapping[str, Any]) -> dict[str, SeatSpec]:
    out: dict[str, SeatSpec] = {}
    for name, spec in data.items():
        if not isinstance(spec, Mapping):
            raise ApiError(422, "setup.seats", f"seat {name}: expected an object",
                           field=f"seats.{name}")
        agent = spec.get("agent")
        out[str(name)] = SeatSpec(str(spec.get("kind", "human")),
                                  None if agent is None else str(agent))
    return out
