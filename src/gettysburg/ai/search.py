"""``search``: the general, with some of its decisions checked by look-ahead on sampled worlds.

Most of a game is left to the system's doctrine (:mod:`gettysburg.ai.general`); search
works at two levels (docs/ai.md, "How search works"):

* **styles**: at the start of each of its player turns the seat picks one style of its
  system's portfolio (``SystemHooks.portfolio``) by rollouts with every move, until the
  enemy has had its next player turn; the first style (the incumbent, the general's own)
  is kept unless another wins clearly (``STYLE_MIN_GAIN``, ``STYLE_Z``);
* **plans**: at a few kinds of decision, under the turn's style, the agent compares
  plans, each a variant of its policy for the rest of the player turn:

  - movement phase, the doctrine wants to declare a melee on hex X: as it is, and
    ``spare`` X (nobody attacks X), played to the end of our melee phase;
  - the scenario's last turn: as it is, against a control-greedy plan (``GREED``), both
    played with every move to the end of the game;
  - with the setting ``move_plans``, block by block: the doctrine moves a block that is or
    would be within ``MOVE_CONTACT`` hexes of a known enemy; plans: its move, its next best
    destinations (``MOVE_ALTERNATIVES``) and staying put, each played on through the
    enemy's reply (the next enemy player turn); with ``still_seats``, as one of those seats
    also the blocks the doctrine leaves where they are within ``STILL_CONTACT`` of a known
    enemy, as it ends the movement phase (staying against its best destinations).

Each plan is played in the same sampled worlds (the system's ``build``: hidden enemy
identities drawn from what the seat has seen, fresh dice; the same world and dice for
every plan, i.e. common random numbers) with the general for the enemy. The outcome is
scored from the world's full state (:func:`material_value`, the system's ``value``). What
search needs of a rule system comes through its ``SystemHooks``
(:mod:`gettysburg.core.search_hooks`); a system without them is played by the general.

A plan replaces the general's only if it wins by a clear margin over the paired
differences (``Z`` standard errors and ``MIN_GAIN``), so dice noise rarely makes search
play worse than the general. The chosen plan is remembered until the player turn ends,
so the decisions that follow obey it without searching again.

Determinism: the number of rounds comes from the budget (``ROLLOUTS_PER_S``,
``FINAL_ROUNDS_PER_S``, ``STYLE_WORLDS_PER_S``, ``MOVE_ROUNDS_PER_S``), not from the clock;
the same seed gives the same game on any machine. A wall-clock guard at ``GUARD``
(``STYLE_GUARD``) x budget stops runaway decisions (only then can timing matter). A person
waiting for the agent wants the budget kept instead: with ``clock_bound`` set
(``agent.bind_to_clock``; the server does, the lab does not) a decision stops searching
once its budget has passed on the clock, rollouts included, and plays the incumbent unless
the rounds finished so far show a clear gain; move plans level with the doctrine's after
``LEVEL_STOP`` worlds stop there; a player turn whose searches have taken
``TURN_BUDGETS`` budgets searches no more.

The agent reads only its seat's view: honesty is tested (same decisions when only hidden
identities differ).
"""

from __future__ import annotations

import logging
import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple

from gettysburg.ai.agent import JSONDict
from gettysburg.ai.doctrines import doctrine_for, search_hooks_for
from gettysburg.ai.general import RememberingAgent, best_index
from gettysburg.core.doctrine import DONE_TYPES, Doctrine
from gettysburg.core.protocol import Action, Game
from gettysburg.core.search_hooks import SystemHooks

ROLLOUTS_PER_S = 8.0  # rollouts (plan x world) per second of budget
MIN_ROUNDS = 2
FINAL_ROUNDS_PER_S = 3.0  # rounds of rollouts to the game's end per second of budget
GREED = 2.0  # extra weight on control gains in the last turn's greedy plan
MOVE_CONTACT = 2  # hexes: a move searched starts or ends this near a known enemy block
MOVE_ALTERNATIVES = 2  # other destinations tried besides the doctrine's and staying put
STILL_CONTACT = 1  # hexes: a block left where it is this near a known enemy is searched
MOVE_ROUNDS_PER_S = 4.0  # sampled worlds per second of budget, each playing every plan
MOVE_MIN_GAIN = 0.25  # value another destination must beat the doctrine's by
MOVE_Z = 1.5  # ... and this many standard errors (three rivals)
#: On the clock only (the server): a block's move plans that end level with the
#: doctrine's in every one of their first this many worlds are not played further (in
#: 2,380 sampled searches, 862 were level after 2 worlds and 1 of those had a rival win
#: after 4). The lab plays every round, so its games replay.
LEVEL_STOP = 2
#: On the clock only (the server): a player turn searches no more once its searches have
#: taken this many decision budgets (6 x the server's 5 s: 30 s), and plays the rest of the
#: turn as the doctrine would under the plans chosen so far.
TURN_BUDGETS = 6.0
Z = 1.0  # standard errors a plan must beat the general's by
MIN_GAIN = 0.15  # ... and at least this much value
GUARD = 20.0  # x budget: a runaway stop only, far above the measured cost
HORIZON = 400  # actions: a rollout never plays longer than this
WIN_VALUE = 100.0
MOVE_TYPES = frozenset({"move", "enter", "leave_map", "formation"})
#: How far a plan's rollouts play (``Plan.horizon``): to the end of our melee phase, the
#: rest of the movement phase cut to melee declarations (cheap); with every move until the
#: enemy has had its next player turn (move plans); with every move to the next verdict
#: (the last turn's plans).
Horizon = Literal["melee", "reply", "end"]
MELEE: Horizon = "melee"
REPLY: Horizon = "reply"
END: Horizon = "end"
#: Style search: at the start of each of its player turns the seat picks one of the
#: system's doctrine variants (its portfolio) for the turn, by rollouts through the
#: enemy's next player turn (initiative may give us two turns in a row first).
STYLE_WORLDS_PER_S = 2.0  # sampled worlds per second of budget (each plays every style)
STYLE_MIN_WORLDS = 2
STYLE_MIN_GAIN = 0.25  # value a style must beat the incumbent's by
STYLE_Z = 2.0  # ... and this many standard errors (five rivals: one in ten switches is luck)
STYLE_GUARD = 60.0  # x budget: the runaway stop of a style search (it plays whole turns)


def _now() -> float:
    """The clock the search reads (one place, so tests can run it at their own pace)."""
    return time.perf_counter()


log = logging.getLogger(__name__)


log = logging.getLogger(__name__)


def distinct_styles(styles: dict[str, Doctrine], view: JSONDict) -> dict[str, Doctrine]:
    """The portfolio less the variants that play exactly as an earlier entry here (a
    variant that is the general's own style in this scenario): their rollouts would repeat
    that entry's and could never win the comparison. A doctrine says how it plays a view
    through an optional ``style_for(view)``; one without it counts as distinct."""
    out: dict[str, Doctrine] = {}
    seen: set[object] = set()
    for name, doctrine in styles.items():
        style_for = getattr(doctrine, "style_for", None)
        key = style_for(view) if callable(style_for) else name
        if key not in seen:
            seen.add(key)
            out[name] = doctrine
    return out


def material_value(world: Game, seat: str, value: Callable[[Game, str], float]) -> float:
    """The system's ``value``, plus +-``WIN_VALUE`` for a finished world won or lost."""
    result: Any = world.result()
    bonus = 0.0
    if isinstance(result, dict) and result.get("winner") is not None:
        bonus = WIN_VALUE if result["winner"] == seat else -WIN_VALUE
    return bonus + value(world, seat)


@dataclass
class Plan:
    """The general's policy for one player turn with melee targets refused ("spare"),
    blocks sent to chosen hexes ("moves") or control weighed more ("greed")."""

    spare: set[str] = field(default_factory=set)
    settled: set[str] = field(default_factory=set)  # targets and blocks already searched
    greed: float = 0.0  # extra weight on the victory points a move wins in control
    #: Unit -> the hex it ends this movement phase in (its start hex: it stays put).
    moves: dict[str, str] = field(default_factory=dict)
    horizon: Horizon = MELEE  # how far its rollouts play

    def copy(self) -> Plan:
        return Plan(set(self.spare), set(self.settled), self.greed, dict(self.moves),
                    self.horizon)


class Offer(NamedTuple):
    """The plans search compares at a decision (``SearchAgent.plans_for``)."""

    plans: list[Plan]
    #: A still block's plans (``_still_plans``): when the block stays, the next still
    #: block's plans follow at once, before the movement phase ends.
    still: bool = False


def _melee_target(a: Action) -> str | None:
    return str(a["target"]) if a.get("type") == "melee" else None


def _planned_move(a: Action, plan: Plan) -> bool | None:
    """For a move of a unit the plan places: whether it is the planned one (None: the
    plan does not place that unit, or ``a`` is no move)."""
    if a.get("type") != "move" or str(a.get("unit")) not in plan.moves:
        return None
    return str(a["path"][-1]) == plan.moves[str(a["unit"])]


def plan_choice(view: JSONDict, legal: Sequence[Action], plan: Plan,
                rollout: bool = False, hooks: SystemHooks | None = None,
                doctrine: Doctrine | None = None) -> Action:
    """The general's choice under ``plan`` (in a rollout the rest of the movement phase is
    cut to melee declarations unless the plan looks further), scored by ``doctrine`` (the
    view's own doctrine when None)."""
    allowed = [a for a in legal if _melee_target(a) not in plan.spare
               and not (plan.moves and _planned_move(a, plan) is False)]
    placed = [a for a in allowed if _planned_move(a, plan)] if plan.moves else []
    if placed:  # a planned move is made at once (by the doctrine's best path to it)
        scores = (doctrine or doctrine_for(view)).scores(view, placed)
        return dict(placed[best_index(scores, placed)])
    if rollout and plan.horizon == MELEE and view.get("phase") == "movement":
        allowed = [a for a in allowed if a.get("type") not in MOVE_TYPES]
    allowed = allowed or list(legal)
    scores = (doctrine or doctrine_for(view)).scores(view, allowed)
    if plan.greed and hooks is not None and view.get("phase") == "movement":
        gains = hooks.control_gain(view, allowed)
        scores = [sc + plan.greed * g for sc, g in zip(scores, gains, strict=True)]
    return dict(allowed[best_index(scores, allowed)])


def _until_answered(seat: str) -> Callable[[JSONDict], bool]:
    """A rollout's stop: true from ``seat``'s next player turn once the enemy has had one
    (the horizon of style rollouts and move plans)."""
    answered = False

    def done(mview: JSONDict) -> bool:
        nonlocal answered
        if mview.get("active") != seat:
            answered = True
            return False
        return answered

    return done


def _turn_key(view: JSONDict) -> tuple[Any, ...]:
    return (view.get("day"), view.get("hour"), view.get("active"))


def _paired_gain(base: list[float], other: list[float]) -> tuple[float, float]:
    """(mean, standard error) of the paired differences other - base."""
    diffs = [o - b for b, o in zip(base, other, strict=True)]
    if not diffs:
        return (0.0, math.inf)
    mean = statistics.fmean(diffs)
    se = statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else math.inf
    return (mean, se)


def _compare(play: Callable[[int, random.Random], float | None], n: int, rounds: int,
             deadline: float, rng: random.Random, min_gain: float, z: float,
             level_stop: int = 0) -> int:
    """Which of ``n`` candidates to play: 0 (the incumbent) unless another's mean paired
    gain over it is above both ``min_gain`` and ``z`` standard errors (the largest such
    gain wins). Each round plays every candidate in the same sampled world with the same
    dice (common random numbers); a round where a world could not be played is skipped.
    With ``level_stop``, once that many worlds are played and every candidate ended level
    with the incumbent in each, no more rounds are played (the incumbent stays)."""
    values: list[list[float]] = [[] for _ in range(n)]
    for _ in range(rounds):
        if _now() > deadline:
            break
        if level_stop and len(values[0]) == level_stop \
                and all(v == values[0] for v in values[1:]):
            break
        world_seed = rng.getrandbits(64)
        got = [play(k, random.Random(world_seed)) for k in range(n)]
        if any(v is None for v in got):
            continue
        for k, v in enumerate(got):
            assert v is not None
            values[k].append(v)
    best, best_gain = 0, 0.0
    for k in range(1, n):
        mean, se = _paired_gain(values[0], values[k])
        if mean > max(min_gain, z * se) and mean > best_gain:
            best, best_gain = k, mean
    return best


class SearchAgent(RememberingAgent):
    """``search``: style search, melee and last-turn plans; the settings (an opponent
    preset's ``settings``) add the block-by-block move plans (``move_plans``) and the
    still plans for some seats (``still_seats``)."""

    name = "search"

    def __init__(self, seed: str = "0", move_plans: bool = False,
                 still_seats: Sequence[str] = ()) -> None:
        super().__init__(seed)
        if not isinstance(move_plans, bool):
            raise ValueError(f"search setting 'move_plans': true or false, not {move_plans!r}")
        if isinstance(still_seats, str) or any(not isinstance(s, str) for s in still_seats):
            raise ValueError(f"search setting 'still_seats': a list of seats, not "
                             f"{still_seats!r}")
        if still_seats and not move_plans:
            raise ValueError("search setting 'still_seats' needs 'move_plans': true")
        self.move_plans = move_plans
        #: The seats whose still blocks are searched (``_still_plans``).
        self.still_seats = frozenset(still_seats)
        self._systems: dict[str, SystemHooks] = {}
        self._plan = Plan()
        self._plan_key: tuple[Any, ...] | None = None
        self.searched = 0  # decisions actually searched (for the lab's rows and tests)
        self.overrides = 0  # of which a plan other than the general's won
        self._doctrine: Doctrine | None = None  # the style of this player turn (None: own)
        self._style_key: tuple[Any, ...] | None = None
        self.styles: dict[str, int] = {}  # player turns played in each style
        #: Rollouts lost to an exception, by exception type and message: a sampled world
        #: the engine refused, or a bug. Counted (lab rows) and logged, never silent.
        self.failures: dict[str, int] = {}
        #: Keep each decision within its budget on the clock (module doc); off in the lab.
        self.clock_bound = False
        self._stop: float | None = None  # when the current decision's budget runs out
        self._turn_spent = 0.0  # seconds searched in this player turn (clock_bound only)
        self.cut = 0  # rollouts cut short by the clock (clock_bound only)

    def stats(self) -> JSONDict:
        """Counts for the lab's game rows: decisions searched, overridden, styles played,
        rollouts that failed."""
        return {"searched": self.searched, "overrides": self.overrides,
                "styles": dict(sorted(self.styles.items())), "cut_rollouts": self.cut,
                "failed_rollouts": sum(self.failures.values()),
                "failures": dict(sorted(self.failures.items()))}

    def _failed(self, exc: Exception) -> None:
        key = f"{type(exc).__name__}: {str(exc)[:160]}"
        if key not in self.failures:
            log.warning("search: a rollout failed and was skipped (%s)", key)
        self.failures[key] = self.failures.get(key, 0) + 1

    def _system(self, view: JSONDict) -> SystemHooks | None:
        system = str(view.get("system", ""))
        if system not in self._systems:
            hooks = search_hooks_for(view, self.memory.get(view))
            if hooks is None:
                return None
            self._systems[system] = hooks
        return self._systems[system]

    def choose(self, view: JSONDict, legal_actions: Sequence[Action], budget_s: float,
               rng: random.Random) -> Action:
        if not legal_actions:
            raise ValueError("no legal actions to choose from")
        self._stop = _now() + max(budget_s, 0.0) if self.clock_bound else None
        key = _turn_key(view)
        if key != self._plan_key:
            self._plan, self._plan_key = Plan(), key
            self._turn_spent = 0.0
        # The lab reads no clock here: the same game on any machine.
        started = _now() if self._stop is not None else None
        try:
            return self._choose(view, legal_actions, budget_s, rng, key)
        finally:
            if started is not None:
                self._turn_spent += _now() - started

    def _choose(self, view: JSONDict, legal_actions: Sequence[Action], budget_s: float,
                rng: random.Random, key: tuple[Any, ...]) -> Action:
        """``choose`` within the player turn ``key``."""
        view = self.memory.recall(view)  # as the general does: it is the incumbent
        system = self._system(view)
        styles = system.portfolio.get(str(view.get("seat"))) if system is not None else None
        if styles:
            styles = distinct_styles(styles, view)
        if system is not None and styles and view.get("active") == view.get("seat") \
                and key != self._style_key:
            self._style_key = key
            name = self._pick_style(view, styles, system, budget_s, rng)
            self._doctrine = styles[name]
            self.styles[name] = self.styles.get(name, 0) + 1
        if self._doctrine is None and styles:
            self._doctrine = next(iter(styles.values()))  # the incumbent, until a search
        doctrine = self._doctrine
        choice = plan_choice(view, legal_actions, self._plan, hooks=system, doctrine=doctrine)
        if system is None or len(legal_actions) == 1 or self._turn_over(budget_s):
            return choice
        plans, still = self.plans_for(view, legal_actions, choice, system)
        if len(plans) < 2:
            return choice
        while True:
            self.searched += 1
            best = self._search(view, plans, system, budget_s, rng)
            if best is not plans[0]:
                self.overrides += 1
            kept, self._plan = self._plan, best.copy()
            if "final" in kept.settled or "final" not in best.settled:
                # Only the last turn's plans set the turn's horizon (played out to the end);
                # the others' horizons were for comparing them.
                self._plan.horizon = kept.horizon
            choice = plan_choice(view, legal_actions, best, hooks=system, doctrine=doctrine)
            if not still or best is not plans[0] or choice.get("type") not in DONE_TYPES:
                return choice
            # Still plans (``_still_plans``), and the block stays: the next one, before
            # the phase ends.
            plans, still = self.plans_for(view, legal_actions, choice, system)
            if len(plans) < 2 or (self._stop is not None and _now() > self._stop):
                return choice

    def _turn_over(self, budget_s: float) -> bool:
        """On the clock, whether this player turn has searched its ``TURN_BUDGETS``."""
        return self._stop is not None \
            and self._turn_spent >= TURN_BUDGETS * max(budget_s, 0.0)

    def plans_for(self, view: JSONDict, legal: Sequence[Action], choice: Action,
                  system: SystemHooks) -> Offer:
        """The plans worth comparing now, the first the general's own (fewer than two:
        nothing to search), given the general's ``choice``."""
        combat = view.get("combat") or {}
        if view.get("active") != view.get("seat") or combat.get("battle") \
                or combat.get("decision"):
            return Offer([])
        base = self._plan
        if view.get("phase") == "movement" and "final" not in base.settled \
                and system.final_hour(view):
            # The last turn: control at its end is final, so play it out to the end with
            # every move, the general against a plan that weighs control gains more.
            keep = base.copy()
            keep.settled.add("final")
            keep.horizon = END
            greedy = keep.copy()
            greedy.greed = GREED
            return Offer([keep, greedy])
        if base.horizon == END or view.get("night") or view.get("phase") != "movement":
            return Offer([])  # the last turn's plan is already played out to the end
        if self.move_plans and choice.get("type") == "move":
            return Offer(self._move_plans(view, legal, choice, system))
        if self.move_plans and choice.get("type") in DONE_TYPES \
                and view.get("seat") in self.still_seats:
            still = self._still_plans(view, legal, system)
            if still:
                return Offer(still, still=True)
        target = _melee_target(choice)
        if target is None or target in base.settled:
            return Offer([])
        keep = base.copy()
        keep.settled.add(target)
        spare = keep.copy()
        spare.spare.add(target)
        return Offer([keep, spare])

    def _move_plans(self, view: JSONDict, legal: Sequence[Action], choice: Action,
                    system: SystemHooks) -> list[Plan]:
        """The block the doctrine moves next, near the enemy: its chosen destination, its
        next best ones and staying put."""
        uid, here, dest = str(choice["unit"]), str(choice["path"][0]), str(choice["path"][-1])
        if f"mv:{uid}" in self._plan.settled \
                or system.near_enemy(view, (here, dest)) > MOVE_CONTACT:
            return []
        mine = [a for a in legal if a.get("type") == "move" and str(a.get("unit")) == uid]
        others = self._ranked_destinations(view, mine, (dest, here))[:MOVE_ALTERNATIVES]
        return self._block_plans(uid, [dest, *others, here])

    def _still_plans(self, view: JSONDict, legal: Sequence[Action], system: SystemHooks
                     ) -> list[Plan]:
        """As the doctrine ends its movement phase: the first block (by id) it leaves where
        it is within ``STILL_CONTACT`` hexes of a known enemy and not yet searched this
        turn (blocks that fired have no moves). Its plans: staying put (the doctrine's own
        choice), then its best destinations by the doctrine's scores."""
        mine: dict[str, list[Action]] = {}
        for a in legal:
            if a.get("type") == "move":
                mine.setdefault(str(a["unit"]), []).append(a)
        for uid in sorted(mine):
            here = str(mine[uid][0]["path"][0])
            if f"mv:{uid}" in self._plan.settled \
                    or system.near_enemy(view, (here,)) > STILL_CONTACT:
                continue
            others = self._ranked_destinations(view, mine[uid], (here,))
            if others:
                return self._block_plans(uid, [here, *others[:MOVE_ALTERNATIVES]])
        return []

    def _ranked_destinations(self, view: JSONDict, moves: Sequence[Action],
                             leave_out: Sequence[str]) -> list[str]:
        """The destinations of one block's ``moves`` but ``leave_out``, best first by the
        score of the best path to each (ties by hex id) under the turn's style."""
        scores = (self._doctrine or doctrine_for(view)).scores(view, moves)
        best: dict[str, float] = {}
        for a, sc in zip(moves, scores, strict=True):
            to = str(a["path"][-1])
            best[to] = max(best.get(to, -math.inf), sc)
        return sorted((d for d in best if d not in leave_out), key=lambda d: (-best[d], d))

    def _block_plans(self, uid: str, destinations: Sequence[str]) -> list[Plan]:
        """One plan per destination of block ``uid`` (its start hex: it stays put), the
        block marked searched for the turn, each played through the enemy's reply."""
        keep = self._plan.copy()
        keep.settled.add(f"mv:{uid}")
        keep.horizon = REPLY
        plans = []
        for to in destinations:
            p = keep.copy()
            p.moves[uid] = to
            plans.append(p)
        return plans

    def _search(self, view: JSONDict, plans: list[Plan], system: SystemHooks,
                budget_s: float, rng: random.Random) -> Plan:
        min_gain, z = MIN_GAIN, Z
        moving = any(p.moves != plans[0].moves for p in plans[1:])  # a block's move plans
        if moving:
            per_s, min_gain, z = MOVE_ROUNDS_PER_S, MOVE_MIN_GAIN, MOVE_Z
        elif plans[-1].horizon == END:
            per_s = FINAL_ROUNDS_PER_S
        else:
            per_s = ROLLOUTS_PER_S / len(plans)
        rounds = max(MIN_ROUNDS, int(budget_s * per_s))
        deadline = self._deadline(GUARD, budget_s)
        level = LEVEL_STOP if self.clock_bound and moving else 0
        k = _compare(self._guarded(lambda k, world: self._cut(self.rollout(
                         view, plans[k], system, world, self._doctrine, stop=self._stop))),
                     len(plans), rounds, deadline, rng, min_gain, z, level)
        return plans[k]

    def _pick_style(self, view: JSONDict, styles: dict[str, Doctrine], system: SystemHooks,
                    budget_s: float, rng: random.Random) -> str:
        """The portfolio's style for this player turn: every style plays the turn in the
        same sampled worlds with the same dice; another replaces the incumbent (the first)
        only on a clear paired gain."""
        names = list(styles)
        worlds = max(STYLE_MIN_WORLDS, int(budget_s * STYLE_WORLDS_PER_S))
        deadline = self._deadline(STYLE_GUARD, budget_s)
        best = _compare(self._guarded(lambda k, world: self._cut(self._style_rollout(
                            view, styles[names[k]], system, world, stop=self._stop))),
                        len(names), worlds, deadline, rng, STYLE_MIN_GAIN, STYLE_Z)
        self.searched += 1
        if best:
            self.overrides += 1
        return names[best]

    def _deadline(self, guard: float, budget_s: float) -> float:
        """When to start no more rounds: the runaway guard, or the decision's budget on
        the clock when bound to it."""
        deadline = _now() + guard * max(budget_s, 0.05)
        return deadline if self._stop is None else min(deadline, self._stop)

    def _cut(self, value: float | None) -> float | None:
        """A rollout's value; ``None`` (counted) when the clock cut it short."""
        if value is None:
            self.cut += 1
        return value

    def _guarded(self, play: Callable[[int, random.Random], float | None]
                 ) -> Callable[[int, random.Random], float | None]:
        """``play``, with a rollout that raises counted (``failures``) and skipped: a
        sampled world the engine refuses must not lose the decision, and a bug must show."""
        def run(k: int, world: random.Random) -> float | None:
            try:
                return play(k, world)
            except Exception as exc:  # any failure: counted and reported
                self._failed(exc)
                return None
        return run

    @staticmethod
    def _play(view: JSONDict, hooks: SystemHooks, rng: random.Random, steps: int,
              stop: float | None, done: Callable[[JSONDict], bool],
              choose: Callable[[str, JSONDict, Sequence[Action]], Action]) -> float | None:
        """The loop of every rollout: in a world sampled for ``view``'s seat, the mover's
        ``choose`` acts until ``done`` says so for the mover's view, the game ends or
        ``steps`` run out; the seat's value then (``None`` if the clock passed ``stop``)."""
        world = hooks.build(view, rng)
        for _ in range(steps):
            if world.is_terminal():
                break
            if stop is not None and _now() > stop:
                return None
            mover = world.to_move()[0]
            mview = world.view(mover)
            if done(mview):
                break
            legal = mview.get("legal_actions") or world.legal_actions(mover)
            world.apply_unrecorded(dict(choose(mover, mview, legal)), mover)
        return material_value(world, str(view["seat"]), hooks.value)

    @staticmethod
    def _style_rollout(view: JSONDict, doctrine: Doctrine, hooks: SystemHooks,
                       rng: random.Random, stop: float | None = None) -> float | None:
        """Play a sampled world with ``doctrine`` for the seat and the general for the
        enemy until the enemy has had a player turn (or to the game's end); its value
        (``None`` if the clock passed ``stop`` first)."""
        seat = str(view["seat"])
        done = _until_answered(seat)

        def choose(mover: str, mview: JSONDict, legal: Sequence[Action]) -> Action:
            scores = (doctrine if mover == seat else doctrine_for(mview)).scores(mview, legal)
            return legal[best_index(scores, legal)]

        return SearchAgent._play(view, hooks, rng, HORIZON * 4, stop, done, choose)

    @staticmethod
    def rollout(view: JSONDict, plan: Plan, hooks: SystemHooks, rng: random.Random,
                 doctrine: Doctrine | None = None, stop: float | None = None) -> float | None:
        """Play ``plan`` for the seat (the general for the enemy) in a sampled world to
        the end of the active player's melee phase (horizon ``END``: to the next verdict;
        ``REPLY``: until the enemy has had a player turn); the value of the outcome
        (``None`` if the clock passed ``stop`` first)."""
        seat, active = str(view["seat"]), str(view["active"])
        enemy_plan = Plan(horizon=plan.horizon)
        judged = len(view.get("verdicts") or [])

        def melee_over(mview: JSONDict) -> bool:
            if plan.horizon == END:  # the next verdict (in the battle a draw plays on, 9.5)
                return len(mview.get("verdicts") or []) > judged
            return mview.get("active") != active or mview.get(
                "phase") not in ("command", "fire", "movement", "melee")

        done = _until_answered(seat) if plan.horizon == REPLY else melee_over

        def choose(mover: str, mview: JSONDict, legal: Sequence[Action]) -> Action:
            if mover == seat:
                return plan_choice(mview, legal, plan, rollout=True, hooks=hooks,
                                   doctrine=doctrine)
            return plan_choice(mview, legal, enemy_plan, rollout=True)

        return SearchAgent._play(view, hooks, rng, HORIZON, stop, done, choose)


def build(seed: str, move_plans: bool = False, still_seats: Sequence[str] = ()
          ) -> SearchAgent:
    """Search with a preset's settings (``SearchAgent``)."""
    return SearchAgent(seed, move_plans, still_seats)
