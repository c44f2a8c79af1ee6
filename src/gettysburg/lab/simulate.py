"""Play many complete games between agents, in parallel, reproducibly.

Each game is a :class:`GameSpec` (scenario, seed, agent per seat, limits); :func:`play_game`
plays it through the public protocol only (the agents get their seat's view and legal
actions) and returns one row of results. Game ``k`` of a run with base seed ``S`` uses
``game_seed(S, k)``, so the same command gives the same games on any machine, however many
workers share them out. Rows are plain JSON (stored by :mod:`gettysburg.lab.store`).

``dice="keyed"`` plays with :class:`~gettysburg.core.dice.KeyedDice` instead of the usual
seeded dice: just as fair, and two runs of the same seeds that differ in one agent or option
keep sharing the dice of every shot and melee round they both make. Measured on one
scenario, that left the noise of their paired difference where it was (docs/ai.md,
"Coupled games").

What a row says beyond the protocol (the game's score, its turns, the pieces lost) is read
through the hooks its rule system declares (:class:`~gettysburg.core.system.LabHooks`).
"""

from __future__ import annotations

import functools
import gc
import hashlib
import importlib
import json
import math
import multiprocessing
import os
import signal
import statistics
import sys
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from gettysburg import systems as registry
from gettysburg.ai.agent import make_agent, random_stream, reads_view, seeded_rng, shares_view
from gettysburg.core.canonical import JSONDict
from gettysburg.core.dice import Dice, KeyedDice, SeededDice
from gettysburg.core.protocol import Action, Game, new_game, parse_spec
from gettysburg.core.system import LabHooks
from gettysburg.lab import checkpoint

Row = dict[str, Any]

#: The dice a lab game may be played with (``GameSpec.dice``), by name.
DICE_KINDS: dict[str, Callable[[str], Dice]] = {"seeded": SeededDice, "keyed": KeyedDice}


@dataclass(frozen=True)
class GameSpec:
    """One game to play."""

    scenario: str  # "SYSTEM/SCENARIO", e.g. "toy/standard"
    seed: str
    agents: dict[str, str]  # seat -> agent name
    index: int = 0
    max_actions: int = 20000
    budget_s: float = 1.0
    options: tuple[str, ...] = field(default=())
    dice: str = "seeded"  # a key of DICE_KINDS

    def __post_init__(self) -> None:
        if self.dice not in DICE_KINDS:
            raise ValueError(f"dice must be one of {sorted(DICE_KINDS)}, not {self.dice!r}")


def game_seed(base: int | str, k: int) -> str:
    """Seed of game ``k`` of a run: short, stable, independent of worker scheduling."""
    digest = hashlib.sha256(f"gettysburg.lab.game:{base}:{k}".encode()).hexdigest()
    return str(int(digest[:12], 16))


def make_specs(scenario: str, games: int, agents: Mapping[str, str], seed: int | str = 0,
               max_actions: int = 20000, budget_s: float = 1.0,
               options: Sequence[str] = (), dice: str = "seeded") -> list[GameSpec]:
    return [GameSpec(scenario, game_seed(seed, k), dict(agents), k, max_actions, budget_s,
                     tuple(options), dice) for k in range(games)]


def _spec_key(scenario: Any, seed: Any, index: Any, agents: Any, options: Any,
              budget_s: Any, max_actions: Any, dice: Any) -> str:
    return json.dumps([scenario, str(seed), int(index), dict(agents), list(options),
                       float(budget_s), int(max_actions), str(dice)], sort_keys=True)


def split_played(specs: Sequence[GameSpec], rows: Sequence[Row]
                 ) -> tuple[list[Row], list[GameSpec]]:
    """The stored rows that already play some of ``specs``, and the specs still to play.

    A row plays a spec when scenario, seed, index, agents, options, budget, action limit
    and dice all agree (a row without ``dice`` was played with seeded dice), so a resumed
    run never mixes games of another command into its summary. Rows that stopped on an
    error or the limit count as played: replaying them would give the same stop
    (docs/ai.md, "The lab")."""
    wanted = {spec_key(s): s for s in specs}
    kept: dict[str, Row] = {}
    for row in rows:
        try:
            key = _spec_key(row["scenario"], row["seed"], row["index"], row["agents"],
                            row.get("options", []), row["budget_s"], row["max_actions"],
                            row.get("dice", "seeded"))
        except (KeyError, TypeError, ValueError):
            continue  # a row of another kind (a benchmark's): never one of these games
        if key in wanted:
            kept.setdefault(key, row)  # a game stored twice counts once
    todo = [s for k, s in wanted.items() if k not in kept]
    return sorted(kept.values(), key=lambda r: int(r["index"])), todo


def system_of(scenario: str) -> str:
    """The rule system of a spec's ``SYSTEM/SCENARIO``."""
    return parse_spec(scenario)[0]


def lab_hooks(scenario: str) -> LabHooks:
    """What the system of ``scenario`` lets the lab read of its games (its declaration's
    ``lab``); a system that declares none, or is not in the registry, gives no clock, no
    score and no losses, and its rows say only what the protocol tells."""
    declared = registry.find(system_of(scenario))
    return declared.lab if declared is not None and declared.lab is not None else LabHooks()


def _losses(hooks: LabHooks, referee: JSONDict) -> dict[str, list[str]]:
    return hooks.losses(referee) if hooks.losses is not None else {}


def spec_key(spec: GameSpec) -> str:
    """What identifies a game of the lab: the fields a stored row repeats."""
    return _spec_key(spec.scenario, spec.seed, spec.index, spec.agents, spec.options,
                     spec.budget_s, spec.max_actions, spec.dice)


def _new_play(spec: GameSpec) -> checkpoint.InPlay:
    game: Game = new_game(spec.scenario, options=spec.options, seed=spec.seed,
                          dice=DICE_KINDS[spec.dice](spec.seed))
    system = system_of(spec.scenario)
    agents = {seat: make_agent(name, f"{spec.seed}:{seat}", system=system)
              for seat, name in spec.agents.items()}
    rngs = {seat: seeded_rng("lab", spec.seed, seat, random_stream(agents[seat], name))
            for seat, name in spec.agents.items()}
    # Pieces a scenario starts without (a later scenario opens with some already lost):
    # they count in its score, but were not lost in this game.
    return checkpoint.InPlay(spec_key(spec), game, agents, rngs,
                             at_start=_losses(lab_hooks(spec.scenario),
                                              game.view("referee")))


def play_game(spec: GameSpec, recorded: bool = False, checkpoints: Path | None = None,
              resume: bool = False) -> Row:
    """Play one game to its end (or to ``max_actions``) and describe it (``recorded``:
    through ``Game.apply``, with history and state hashes, as a hosted game is played).

    With a ``checkpoints`` folder the game in play is saved there now and then
    (:mod:`gettysburg.lab.checkpoint`), and with ``resume`` a game saved there goes on
    from its checkpoint; either way it ends as it would have without one."""
    with _fewer_collections():
        return _play(spec, recorded, checkpoints, resume)


# The garbage collector's first threshold while a game is played. A decision hands the
# agent thousands of fresh action dicts, so the default (700 allocations) sets off
# collections that walk the whole heap many times a decision; a game makes few cycles.
# Raising it cut a whole battle between two generals by a sixth of its CPU (5.1 -> 4.2 s
# and 5.6 -> 4.6 s, session 46); the games are the same.
GC_FIRST_THRESHOLD = 50_000


@contextmanager
def _fewer_collections() -> Iterator[None]:
    """Collect garbage less often while the body runs, as it was after."""
    old = gc.get_threshold()
    gc.set_threshold(GC_FIRST_THRESHOLD, old[1] * 2, old[2] * 10)
    try:
        yield
    finally:
        gc.set_threshold(*old)


def _play(spec: GameSpec, recorded: bool, checkpoints: Path | None, resume: bool) -> Row:
    start = time.perf_counter()
    key = spec_key(spec)
    saved_at = checkpoint.path_for(checkpoints, key) if checkpoints is not None else None
    state = checkpoint.load(saved_at, key) if saved_at is not None and resume else None
    if state is None:
        state = _new_play(spec)
    game, agents, rngs = state.game, state.agents, state.rngs
    hooks = lab_hooks(spec.scenario)
    before = state.seconds  # played before this call, in earlier runs
    streams = {seat: random_stream(agents[seat], name) for seat, name in spec.agents.items()}
    last_save = start
    save_to = saved_at  # None once a save fails (an agent that will not pickle)
    seat, action = "", None
    error: str | None = None
    try:
        while not game.is_terminal() and state.actions < spec.max_actions:
            seat = game.to_move()[0]
            legal: Sequence[Action]
            if shares_view(agents[seat]):
                # The agent changes nothing it is given (the general): the view whose
                # parts the system may hand out again, decision after decision.
                view = game.view_shared(seat)
                legal = game.legal_in_view(view, seat)
            elif reads_view(agents[seat]):
                view = game.view(seat)
                legal = game.legal_in_view(view, seat)
            else:
                # The agent draws from the legal actions and reads nothing else (the random
                # agent): the view's summary (clock and score for the lab's hooks) and the
                # actions as a sequence the system may build lazily (issue 59). The same
                # actions in the same order: the same game.
                view = game.view_summary(seat)
                legal = game.legal_sequence(seat)
            clock = hooks.clock(view) if hooks.clock is not None else None
            # A game is saved as a turn starts; a system without a clock, at any decision.
            if clock is None or clock not in state.clocks:
                if clock is not None:
                    state.clocks.add(clock)
                    total = hooks.standing(view) if hooks.standing is not None else None
                    if total is not None:
                        state.vp_track.append([clock, total])
                now = time.perf_counter()
                if save_to is not None and now - last_save >= checkpoint.EVERY_S:
                    state.seconds, last_save = before + now - start, now
                    if not checkpoint.save(save_to, state):
                        save_to = None  # play on without
            action = agents[seat].choose(view, legal, spec.budget_s, rngs[seat])
            # Unrecorded: the rules checked as by apply(), without history, state hash or
            # snapshot. A lab game is replayed from its seed and agents, and a refused
            # action ends it with an error row anyway. 20-45% faster (docs/ai.md,
            # "Speed").
            (game.apply if recorded else game.apply_unrecorded)(action, seat)
            state.actions += 1
            kind = f"{seat}:{action.get('type')}"
            state.played[kind] = state.played.get(kind, 0) + 1
    except Exception as exc:  # an engine or agent bug: keep the run, record the game
        error = f"{type(exc).__name__}: {exc} (after {state.actions} actions, {seat} "\
                f"{json.dumps(action, sort_keys=True) if action else ''})"
    finished = game.is_terminal() and error is None
    result = game.result() if finished else None
    row: Row = {
        "scenario": spec.scenario, "seed": spec.seed, "index": spec.index,
        "agents": dict(spec.agents), "options": list(spec.options),
        "finished": finished,
        "winner": result.get("winner") if result else None,
        # The system's score of the game (LabHooks.score), under the rows' first name.
        "vp": hooks.score(result) if result and hooks.score is not None else None,
        "result": result,
        "eliminated": _losses(hooks, game.view("referee")),
        "eliminated_at_start": state.at_start,
        "turns": len(state.clocks) if hooks.clock is not None else None,
        "actions": state.actions,
        "seconds": round(before + time.perf_counter() - start, 3),
        "vp_track": state.vp_track, "budget_s": spec.budget_s, "max_actions": spec.max_actions,
        "dice": spec.dice,
        "error": error, "played": dict(sorted(state.played.items())),
        # What agents that keep counts did (search: decisions searched, styles played).
        "agent_stats": _agent_stats(agents),
    }
    if streams != spec.agents:  # a variant on another agent's random numbers: say whose
        row["streams"] = streams
    if saved_at is not None:
        # The row holds the game now; an earlier save is removed even when a later failed.
        checkpoint.discard(saved_at)
    return row


def _agent_stats(agents: Mapping[str, Any]) -> dict[str, Any]:
    """``stats()`` of the agents that keep counts (an optional method of an agent)."""
    out: dict[str, Any] = {}
    for seat, agent in agents.items():
        stats = getattr(agent, "stats", None)
        if callable(stats):
            out[seat] = stats()
    return out


def _play_dict(spec: dict[str, Any], checkpoints: Path | None = None,
               resume: bool = False) -> Row:
    return play_game(GameSpec(**spec), checkpoints=checkpoints, resume=resume)


def _leave_ctrl_c_to_the_parent() -> None:
    """Pool worker start-up: Ctrl-C reaches the whole process group, but only the parent
    should act on it (it stops the pool and tells what was kept); a worker that raised
    too would print "Process ForkPoolWorker-N:" and its traceback over that message."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run_local(specs: Sequence[GameSpec], workers: int = 1,
              progress: Callable[[Row], None] | None = None,
              checkpoints: Path | None = None, resume: bool = False) -> list[Row]:
    """Play the games on local cores; rows come back in spec order. ``checkpoints`` and
    ``resume`` are ``play_game``'s: save games in play to that folder, go on from them."""
    rows: list[Row] = []
    if workers <= 1 or len(specs) <= 1:
        for spec in specs:
            rows.append(play_game(spec, checkpoints=checkpoints, resume=resume))
            if progress:
                progress(rows[-1])
    else:
        ctx = multiprocessing.get_context("fork" if "fork" in
                                          multiprocessing.get_all_start_methods() else "spawn")
        with ctx.Pool(min(workers, len(specs)), initializer=_leave_ctrl_c_to_the_parent) as pool:
            play = functools.partial(_play_dict, checkpoints=checkpoints, resume=resume)
            for row in pool.imap_unordered(play, [asdict(s) for s in specs]):
                rows.append(row)
                if progress:
                    progress(row)
    return sorted(rows, key=lambda r: int(r["index"]))


def _probe_ray(address: str, timeout_s: float = 5.0) -> None:
    """Refuse (ConnectionError, naming ``address``) a ``HOST:PORT`` or ``ray://HOST:PORT``
    nobody answers at: ``ray.init`` would wait for it without end, deaf to Ctrl-C."""
    import socket

    hostport = address.removeprefix("ray://")
    host, sep, port = hostport.rpartition(":")
    if not sep or not port.isdigit():
        return  # "auto" and the like: Ray's own to resolve
    try:
        socket.create_connection((host.strip("[]") or "127.0.0.1", int(port)),
                                 timeout=timeout_s).close()
    except OSError as exc:
        raise ConnectionError(f"no Ray cluster answers at {address} ({exc})") from None


#: What to set when a cluster refuses us for want of its token.
RAY_TOKEN_HINT = ("if the cluster uses token authentication (Ray 2.52 and later; `ray start` turns "
                  "it on by default from 2.59), set RAY_AUTH_MODE=token and give the cluster's "
                  "token in RAY_AUTH_TOKEN, in a file named by RAY_AUTH_TOKEN_PATH, or in "
                  "~/.ray/auth_token (`ray get-auth-token` prints it on the head node)")


def ray_token_at_hand(environ: Mapping[str, str] | None = None,
                      home: Path | None = None) -> bool:
    """Whether a Ray token is available where Ray looks for one: RAY_AUTH_TOKEN,
    the file RAY_AUTH_TOKEN_PATH names, or ~/.ray/auth_token."""
    env = os.environ if environ is None else environ
    if env.get("RAY_AUTH_TOKEN"):
        return True
    path = Path(env["RAY_AUTH_TOKEN_PATH"]) if env.get("RAY_AUTH_TOKEN_PATH") else (
        (home or Path.home()) / ".ray" / "auth_token")
    return path.is_file() and path.stat().st_size > 0


def send_ray_token_if_at_hand() -> bool:
    """Turn on Ray's token mode for this process when no mode is set and a token is at hand.

    A Ray client sends its token only in token mode, and reads the mode once, when ``ray``
    is imported; a token sent to a cluster without authentication does no harm. So, before
    the import, a token at hand means token mode; an explicit RAY_AUTH_MODE always wins."""
    if "RAY_AUTH_MODE" in os.environ or "ray" in sys.modules or not ray_token_at_hand():
        return False
    os.environ["RAY_AUTH_MODE"] = "token"
    return True


def run_ray(specs: Sequence[GameSpec], address: str,
            progress: Callable[[Row], None] | None = None) -> list[Row]:
    """Play the games as Ray tasks on the cluster at ``address`` ("local" starts one)."""
    if address != "local":
        send_ray_token_if_at_hand()
    ray: Any = importlib.import_module("ray")  # optional extra: gettysburg[ray]
    if not ray.is_initialized():
        if address == "local":
            # A small local instance: starting fewer worker processes starts faster.
            ray.init(num_cpus=min(2, multiprocessing.cpu_count()), include_dashboard=False,
                     log_to_driver=False)
        else:
            _probe_ray(address)
            try:
                ray.init(address=address, include_dashboard=False, log_to_driver=False)
            except ConnectionError as exc:
                raise ConnectionError(f"{exc}; {RAY_TOKEN_HINT}") from None
    remote = ray.remote(_play_dict)
    pending = [remote.remote(asdict(s)) for s in specs]
    rows: list[Row] = []
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        for ref in done:
            rows.append(ray.get(ref))
            if progress:
                progress(rows[-1])
    return sorted(rows, key=lambda r: int(r["index"]))


def seats_in(rows: Sequence[Row]) -> list[str]:
    """Every seat the rows' agents sit in, in the order first met."""
    out: list[str] = []
    for r in rows:
        out += [str(s) for s in r.get("agents") or {} if str(s) not in out]
    return out


def summarise(rows: Sequence[Row], seats: Sequence[str] | None = None) -> dict[str, Any]:
    """Counts and score statistics; unfinished games (limit reached, or an error recorded
    in the row) are counted apart, never as draws.

    ``wins`` counts the wins of each of ``seats`` (default: the seats of the rows'
    agents), in that order, then of any other winner; ``<seat>_wins`` repeats each of
    ``seats``' count under the seat's own name."""
    order = list(seats) if seats is not None else seats_in(rows)
    done = [r for r in rows if r.get("finished")]
    wins: dict[str, int] = dict.fromkeys(order, 0)
    for r in done:
        if r.get("winner"):
            wins[str(r["winner"])] = wins.get(str(r["winner"]), 0) + 1
    vps = [float(r["vp"]) for r in done if isinstance(r.get("vp"), int | float)]
    secs = [float(r["seconds"]) for r in rows]
    return {
        "games": len(rows),
        "wins": wins,
        **{f"{seat}_wins": wins[seat] for seat in order},
        "draws": sum(1 for r in done if not r.get("winner")),
        "unfinished": len(rows) - len(done),
        "errors": sum(1 for r in rows if r.get("error")),
        "vp_mean": round(statistics.fmean(vps), 3) if vps else None,
        # No score at all (a system whose results give none): no spread either, as no mean.
        "vp_stdev": (round(statistics.stdev(vps), 3) if len(vps) > 1
                     else 0.0 if vps else None),
        "seconds_per_game": round(statistics.fmean(secs), 3) if secs else 0.0,
    }


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for a proportion (95% by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # In exact arithmetic lo <= p <= hi; in floating point hi can fall a hair under p when
    # p is 1 (and lo over it when p is 0), which error bars cannot draw.
    return (min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half)))

