"""``search``: the general, with some of its decisions checked by look-ahead on sampled worlds.

Most of a game is left to a doctrine (:mod:`gettysburg.ai.general`), at two levels
(docs/ai.md, "Search"):

* **styles** (``STYLE_SEARCH``): at the start of each of its player turns the seat picks
  one style of its system's portfolio (``SystemHooks.portfolio``; BoC:
  ``doctrine_boc.STYLES``) by rollouts with every move, until the enemy has had its next
  player turn; the first style (the incumbent) is kept unless another wins clearly
  (``STYLE_MIN_GAIN``, ``STYLE_Z``);
* **plans**: at a few kinds of decision, under the turn's style, the agent compares
  plans, each a variant of the policy for the rest of the player turn:

  - movement phase, the doctrine wants to declare a melee on hex X (7.1): as it is, and
    ``spare`` X (nobody attacks X); with ``MASS_PLANS`` (an agent's ``mass_plans``) also
    ``mass`` on X (every block that may still attack X does so first), and at the end of
    the movement phase ``mass`` on the best ``AGGRESSION`` hexes the doctrine rejected;
  - the scenario's last turn (``FINAL_PLANS``): as it is, against a control-greedy plan,
    both played with every move to the end of the game;
  - with ``COMMAND_PLANS``: activate or idle an HQ (4.3); with ``FIRE_PLANS``: a block
    keeps its fire to attack in melee instead (7.1);
  - with ``MOVE_PLANS`` (the agent ``search-move``), block by block: the doctrine moves a
    block that is or would be within ``MOVE_CONTACT`` hexes of a known enemy; plans: its
    move, its next best destinations (``MOVE_ALTERNATIVES``) and staying put, each played
    on through the enemy's reply (the next enemy player turn), not just to our melee phase
    (an agent's ``move_horizon`` FIRE: and through our next fire phase); with an agent's
    ``move_still`` (the agent ``search-move-still``, as the CSA) also the blocks the
    doctrine leaves where they are near a known enemy, as it ends the movement phase;
  - with an agent's ``endgame`` (``ENDGAME_PLANS``), in the last ``ENDGAME_TURNS`` turns
    before a verdict (``SystemHooks.turns_left``) the move and melee plans (and with
    ``endgame_mass`` the mass plans) are played to that verdict, and in the battle each
    day's last turn gets the last-turn plans.

Each plan is played in the same sampled worlds (:mod:`gettysburg.boc.ai.belief`: hidden
enemy identities drawn from the order of battle, fresh dice; the same world and dice for
every plan, i.e. common random numbers) with ``general`` for the enemy, to the end of the
active player's melee phase (the rest of the movement phase cut to melee declarations,
which keeps rollouts cheap) or, for the last-turn plans, to the end of the game. The
outcome is scored from the world's full state (:func:`material_value`; BoC's
``search_boc.value``): the CSA total with projected control (9.1), plus the danger every
surviving block is in (a block at 1 step is worth half a victory point to whoever can
finish it). What search needs of a rule system comes through its ``SystemHooks``
(:mod:`gettysburg.core.search_hooks`; BoC's in :mod:`gettysburg.boc.ai.search_hooks`).

A plan replaces the general's only if it wins by a clear margin over the paired
differences (``Z`` standard errors and ``MIN_GAIN``), so dice noise rarely makes search
play worse than the general. The chosen plan is remembered until the player turn ends,
so the decisions that follow obey it without searching again.

Determinism: the number of rounds comes from the budget (``ROLLOUTS_PER_S``,
``FINAL_ROUNDS_PER_S``, ``STYLE_WORLDS_PER_S``), not from the clock; the same seed gives
the same game on any machine. A wall-clock guard at ``GUARD`` (``STYLE_GUARD``) x budget
stops runaway decisions (only then can timing matter). A person waiting for the agent
wants the budget kept instead: with ``clock_bound`` set (``agent.bind_to_clock``; the
server does, the lab does not) a decision stops searching once its budget has passed on
the clock, rollouts included, and plays the incumbent unless the rounds finished so far
show a clear gain; a player turn whose searches have taken ``TURN_BUDGETS`` budgets
searches no more.

The agent reads only its seat's view: honesty is tested (same decisions when only hidden
identities differ). Systems without hooks (``WORLDS``) are played by the general.
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

from gettysburg.ai.agent import JSONDict, register_agent
from gettysburg.ai.doctrines import doctrine_for, search_hooks_for
from gettysburg.ai.general import RememberingAgent, best_index, doctrine_choice
from gettysburg.core.doctrine import DONE_TYPES, Doctrine
from gettysburg.core.protocol import Action, Game
from gettysburg.core.search_hooks import SystemHooks

ROLLOUTS_PER_S = 8.0  # rollouts (plan x world) per second of budget
MIN_ROUNDS = 2
#: "mass" plans (attack a hex with everything that can): off. Their rollouts end with our
#: melee phase, before the enemy answers, so they favour attacking; measured at 4716729 they
#: changed 6 of 22 Day 1 games and 5 of those ended worse for search (docs/ai.md).
MASS_PLANS = False
FINAL_PLANS = True  # in the last turn, compare the general with a control-greedy plan
FINAL_ROUNDS_PER_S = 3.0  # rounds of rollouts to the game's end per second of budget
GREED = 2.0  # extra weight on control gains in the greedy plan
COMMAND_PLANS = False  # search which HQs to activate (4.3); off: costly, not yet measured
FIRE_PLANS = False  # "keep the fire, attack instead" plans; off: costly, not yet measured
#: Block-by-block movement plans (sessions 24 to 26): off in ``search``, on in the agent
#: ``search-move`` (``MoveSearchAgent``). Over the general on Day 1, points a game: as the
#: USA +1.57 ± 0.53 (40 games), as the CSA +0.50 ± 0.61 (40), at about 4 times plain
#: search's cost (docs/ai.md, "The agent search-move").
MOVE_PLANS = False
MOVE_CONTACT = 2  # hexes: a move searched starts or ends this near a known enemy block
MOVE_ALTERNATIVES = 2  # other destinations tried besides the doctrine's and staying put
#: Styles of the portfolio whose own best destination for a searched block joins its rivals
#: when the doctrine's do not hold it (say BoC's "hunter": toward worn enemy blocks). None:
#: measured in session 36, every style's destination was worse than the doctrine's
#: (docs/ai.md, "Offence as a rival"; benchmarks/rival_probe.py).
MOVE_STYLE_RIVALS: tuple[str, ...] = ()
MOVE_ROUNDS_PER_S = 4.0  # sampled worlds per second of budget, each playing every plan
MOVE_MIN_GAIN = 0.25  # value another destination must beat the doctrine's by
MOVE_Z = 1.5  # ... and this many standard errors (three rivals)
#: A block's move plans that end level with the doctrine's in every one of their first
#: this many worlds are not played further: in session 31's 2,380 samples of them
#: (benchmarks/move_learning.py) 862 were level after 2 worlds, and 1 of those 862 had a
#: rival win after 4. On the clock only (the server, ``clock_bound``): a person waits less,
#: while the lab plays every round, so the recorded games of ``search-move`` replay.
LEVEL_STOP = 2
#: On the clock only (the server): a player turn searches no more once its searches have
#: taken this many decision budgets (6 x the server's 5 s: 30 s), and plays the rest of the
#: turn as the doctrine would under the plans chosen so far. Before it, search-move-still's
#: longest turns kept a person waiting 53 s (95th percentile) to 78 s (session 32).
TURN_BUDGETS = 6.0
#: Still plans (session 31): when the doctrine ends its movement phase, the blocks it leaves
#: where they are within this many hexes of a known enemy are searched too, one by one:
#: staying put (the doctrine's choice) against its best destinations. -1: off (``search``,
#: ``search-move``); on (1) in ``search-move-still`` as the CSA (session 32, measured there
#: only), and in benchmark variants.
MOVE_STILL = -1
#: Endgame plans (session 28): in the last ``ENDGAME_TURNS`` turns before a verdict (9.1;
#: each day's 8 PM in the battle, 9.5) the move plans and the melee plans are played to
#: the verdict itself (horizon ``END``), so they are judged by who wins, and in the battle
#: each day's last turn gets the last-turn plans too. Off in ``search`` and ``search-move``.
ENDGAME_PLANS = False
ENDGAME_TURNS = 2
AGGRESSION = 2  # rejected melee targets tried as "mass" plans at the end of movement
Z = 1.0  # standard errors a plan must beat the general's by
MIN_GAIN = 0.15  # ... and at least this much value
GUARD = 20.0  # x budget: a runaway stop only, far above the measured cost
HORIZON = 400  # actions: a rollout never plays longer than this
WIN_VALUE = 100.0
MOVE_TYPES = frozenset({"move", "enter", "leave_map", "formation"})
#: How far a plan's rollouts play (``Plan.horizon``): to the end of our melee phase, the
#: rest of the movement phase cut to melee declarations (cheap); with every move until the
#: enemy has had its next player turn (move plans); the same and then our next fire phase
#: (``FIRE``: a move into the line is judged by our fire from it too, 1.2); with every move
#: to the next verdict (the last turn's plans, the endgame).
Horizon = Literal["melee", "reply", "fire", "end"]
MELEE: Horizon = "melee"
REPLY: Horizon = "reply"
FIRE: Horizon = "fire"
END: Horizon = "end"
#: Style search: at the start of each of its player turns the seat picks one of the
#: system's doctrine variants (its portfolio) for the turn, by rollouts through the
#: enemy's next player turn (initiative may give us two turns in a row first, 1.1).
STYLE_SEARCH = True
STYLE_WORLDS_PER_S = 2.0  # sampled worlds per second of budget (each plays every style)
STYLE_MIN_WORLDS = 2
STYLE_MIN_GAIN = 0.25  # value a style must beat the incumbent's by
STYLE_Z = 2.0  # ... and this many standard errors (five rivals: one in ten switches is luck)
STYLE_GUARD = 60.0  # x budget: the runaway stop of a style search (it plays whole turns)

def _now() -> float:
    """The clock the search reads (one place, so tests can run it at their own pace)."""
    return time.perf_counter()


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
    """The general's policy for one player turn with melee targets forced ("mass") or
    refused ("spare") and blocks that keep their fire for a melee ("hold")."""

    mass: set[str] = field(default_factory=set)
    spare: set[str] = field(default_factory=set)
    hold: set[str] = field(default_factory=set)
    activate: set[str] = field(default_factory=set)  # HQs activated whatever the general says
    idle: set[str] = field(default_factory=set)  # HQs left idle
    settled: set[str] = field(default_factory=set)  # targets, firers, HQs already searched
    greed: float = 0.0  # extra weight on the victory points a move wins in control
    #: Unit -> the hex it ends this movement phase in (its start hex: it stays put).
    moves: dict[str, str] = field(default_factory=dict)
    horizon: Horizon = MELEE  # how far its rollouts play

    def copy(self) -> Plan:
        return Plan(set(self.mass), set(self.spare), set(self.hold), set(self.activate),
                    set(self.idle), set(self.settled), self.greed, dict(self.moves),
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
               and not (a.get("type") == "fire" and a.get("unit") in plan.hold)
               and not (a.get("type") == "activate" and a.get("hq") in plan.idle)
               and not (plan.moves and _planned_move(a, plan) is False)]
    forced = [a for a in allowed if a.get("type") == "activate" and a.get("hq") in plan.activate
              and "to" not in a]
    if forced:
        return dict(forced[0])
    placed = [a for a in allowed if _planned_move(a, plan)] if plan.moves else []
    if placed:  # a planned move is made at once (by the doctrine's best path to it)
        scores = (doctrine or doctrine_for(view)).scores(view, placed)
        return dict(placed[best_index(scores, placed)])
    if rollout and plan.horizon == MELEE and view.get("phase") == "movement":
        allowed = [a for a in allowed if a.get("type") not in MOVE_TYPES]
    allowed = allowed or list(legal)
    massed = [a for a in allowed if _melee_target(a) in plan.mass]
    # Supported attackers first; an unsupported one (7.8) only if nobody else can go.
    pool = [a for a in massed if not a.get("unsupported")] or massed[:1] or allowed
    massed = pool if massed else []
    scores = (doctrine or doctrine_for(view)).scores(view, pool)
    if plan.greed and hooks is not None and view.get("phase") == "movement":
        gains = hooks.control_gain(view, pool)
        scores = [sc + plan.greed * g for sc, g in zip(scores, gains, strict=True)]
    if massed:
        return dict(pool[max(range(len(pool)), key=lambda i: (scores[i], -i))])
    return dict(pool[best_index(scores, pool)])


def _until_answered(seat: str, fire: bool = False) -> Callable[[JSONDict], bool]:
    """A rollout's stop: true from ``seat``'s next player turn once the enemy has had one
    (the horizon of style rollouts and move plans); with ``fire``, only once that turn's
    command and fire phases are over (1.2)."""
    answered = False

    def done(mview: JSONDict) -> bool:
        nonlocal answered
        if mview.get("active") != seat:
            answered = True
            return False
        return answered and not (fire and mview.get("phase") in ("command", "fire"))

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
    name = "search"
    #: The per-agent settings: which plans it compares and how far they look (module
    #: defaults in ``__init__``). A benchmark's variant changes only these
    #: (benchmarks/search_plan_trials.py); ``settings()`` reads them.
    SETTINGS: tuple[str, ...] = (
        "command_plans", "fire_plans", "mass_plans", "move_plans", "move_contact",
        "move_alternatives", "move_horizon", "move_still", "still_seats", "endgame",
        "endgame_mass", "style_search", "only_endgame", "move_rounds_per_s",
        "move_min_gain", "move_z", "search_days", "move_style_rivals", "base")

    def __init__(self, seed: str = "0") -> None:
        super().__init__(seed)
        self._systems: dict[str, SystemHooks] = {}
        self._plan = Plan()
        self._plan_key: tuple[Any, ...] | None = None
        self.searched = 0  # decisions actually searched (for benchmarks and tests)
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
        #: Which optional plans this agent compares (module defaults; a benchmark's variant
        #: may switch them per agent: benchmarks/search_plan_trials.py).
        self.command_plans = COMMAND_PLANS
        self.fire_plans = FIRE_PLANS
        self.mass_plans = MASS_PLANS
        self.move_plans = MOVE_PLANS
        self.move_contact = MOVE_CONTACT
        self.move_alternatives = MOVE_ALTERNATIVES
        self.move_style_rivals = MOVE_STYLE_RIVALS
        self.move_horizon: Horizon = REPLY  # how far the move plans' rollouts play
        self.move_still = MOVE_STILL
        #: How a block's move (and still) plans are judged: worlds per second of budget,
        #: and the margin a rival must clear (never varied yet: session 33's note).
        self.move_rounds_per_s = MOVE_ROUNDS_PER_S
        self.move_min_gain = MOVE_MIN_GAIN
        self.move_z = MOVE_Z
        #: The seats whose still blocks are searched (None: every seat).
        self.still_seats: frozenset[str] | None = None
        self.endgame = ENDGAME_PLANS
        #: In the endgame, the mass plans too: judged at the verdict, they no longer favour
        #: attacking as their rollouts to our melee phase's end do (``MASS_PLANS``).
        self.endgame_mass = False
        self.style_search = STYLE_SEARCH
        #: Search nothing before the endgame: the general's game until its last turns.
        self.only_endgame = False
        #: The days searched, as the view numbers them (BoC's ``day``); on the others the
        #: general's own choice. None: every day.
        self.search_days: frozenset[int] | None = None
        #: The doctrine the agent plays as its own and in its own side's rollouts:
        #: "general" (the general's styles), or another of its system's ``bases`` (BoC:
        #: "tuned"), which then is the incumbent of every comparison.
        self.base = "general"

    def settings(self) -> dict[str, Any]:
        """This agent's ``SETTINGS`` and their values."""
        return {key: getattr(self, key) for key in self.SETTINGS}

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
        if self.search_days is not None and view.get("day") not in self.search_days:
            # An unsearched day: the base doctrine's own choice (the general's by default).
            own = None if system is None or self.base == "general" else self._base(system)
            return doctrine_choice(view, legal_actions, own)
        styles = system.portfolio.get(str(view.get("seat"))) if system is not None else None
        if styles:
            styles = distinct_styles(styles, view)
        if system is not None and self.base != "general":
            styles = {self.base: self._base(system),
                      **{k: v for k, v in (styles or {}).items() if k != "general"}}
        if system is not None and self.style_search and styles \
                and view.get("active") == view.get("seat") and key != self._style_key:
            self._style_key = key
            name = self._pick_style(view, styles, system, budget_s, rng)
            self._doctrine = styles[name]
            self.styles[name] = self.styles.get(name, 0) + 1
        if self._doctrine is None and styles and (self.style_search or self.base != "general"):
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

    def _base(self, system: SystemHooks) -> Doctrine:
        """The doctrine named by ``base`` among the system's ``bases``."""
        try:
            return system.bases[self.base]
        except KeyError:
            raise ValueError(f"search setting base={self.base!r}: the system offers "
                             f"{['general', *system.bases]}") from None

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
        left = system.turns_left(view) if self.endgame else None
        endgame = left is not None and left < ENDGAME_TURNS
        if self.only_endgame and not endgame:
            return Offer([])
        massing = self.mass_plans or (endgame and self.endgame_mass)
        if FINAL_PLANS and view.get("phase") == "movement" and "final" not in base.settled \
                and (system.final_hour(view) or left == 0):
            # The last turn: control at its end is final (9.1), so play it out to the end
            # with every move, the general against a plan that weighs control gains more.
            keep = base.copy()
            keep.settled.add("final")
            keep.horizon = END
            greedy = keep.copy()
            greedy.greed = GREED
            return Offer([keep, greedy])
        if (base.horizon == END or view.get("night")) and not endgame:
            return Offer([])  # the last turn's plan is already played out to the end
        if view.get("phase") == "fire":
            return Offer(self._fire_plans(choice, system) if self.fire_plans else [])
        if view.get("phase") == "command":
            return Offer(self._command_plans(view, legal, choice) if self.command_plans
                         else [])
        if view.get("phase") != "movement":
            return Offer([])
        if self.move_plans and choice.get("type") == "move":
            return Offer(self._move_plans(view, legal, choice, system,
                                          END if endgame else self.move_horizon))
        if self.move_plans and self.move_still >= 0 and choice.get("type") in DONE_TYPES \
                and (self.still_seats is None or view.get("seat") in self.still_seats):
            still = self._still_plans(view, legal, system, END if endgame else self.move_horizon)
            if still:
                return Offer(still, still=True)
        target = _melee_target(choice)
        if target is not None:
            if target in base.settled or target in base.mass:
                return Offer([])
            keep = base.copy()
            keep.settled.add(target)
            if endgame:
                keep.horizon = END
            spare = keep.copy()
            spare.spare.add(target)
            plans = [keep, spare]
            joiners = {str(a["unit"]) for a in legal
                       if _melee_target(a) == target and not a.get("unsupported")}
            if massing and len(joiners) >= 2:  # massing differs from a single attack
                mass = keep.copy()
                mass.mass.add(target)
                plans.append(mass)
            return Offer(plans)
        if not massing or choice.get("type") not in DONE_TYPES:
            return Offer([])
        options = [a for a in legal if _melee_target(a) not in (None, *base.settled,
                                                                 *base.spare)]
        if not options:
            return Offer([])
        # The hexes the general liked best although it would not attack them.
        scores = doctrine_for(view).scores(view, options)
        reach: dict[str, float] = {}
        for a, sc in zip(options, scores, strict=True):
            t = str(a["target"])
            reach[t] = max(reach.get(t, -math.inf), sc)
        targets = sorted(reach, key=lambda t: (-reach[t], t))[:AGGRESSION]
        if not targets:
            return Offer([])
        keep = base.copy()
        keep.settled.update(targets)
        if endgame:
            keep.horizon = END
        plans = [keep]
        for t in targets:
            p = keep.copy()
            p.mass.add(t)
            plans.append(p)
        return Offer(plans)

    def _command_plans(self, view: JSONDict, legal: Sequence[Action], choice: Action
                       ) -> list[Plan]:
        """Activating an HQ costs it a step (4.3) and puts its blocks under command: they may
        fire and attack in supported melee. Plans: the general's activation, leaving that
        HQ idle, activating the best HQ the general leaves idle."""
        base = self._plan
        plans = [base.copy()]
        if choice.get("type") == "activate":
            hq = str(choice["hq"])
            if f"cmd:{hq}" in base.settled:
                return []
            plans[0].settled.add(f"cmd:{hq}")
            idle = plans[0].copy()
            idle.idle.add(hq)
            plans.append(idle)
        elif choice.get("type") not in DONE_TYPES:
            return []
        options = [a for a in legal if a.get("type") == "activate" and "to" not in a
                   and f"cmd:{a['hq']}" not in plans[0].settled and a != choice]
        if options:
            scores = doctrine_for(view).scores(view, options)
            k = max(range(len(options)), key=lambda i: (scores[i], -i))
            if scores[k] > -1.0:  # the doctrine's "never": an HQ too weak to pay (4.3)
                hq = str(options[k]["hq"])
                # At the phase's end one look suffices: every HQ counts as searched.
                done = {f"cmd:{a['hq']}" for a in options} if choice.get("type") in \
                    DONE_TYPES else {f"cmd:{hq}"}
                for p in plans:
                    p.settled.update(done)
                extra = plans[0].copy()
                extra.activate.add(hq)
                plans.append(extra)
        return plans if len(plans) > 1 else []

    def _move_plans(self, view: JSONDict, legal: Sequence[Action], choice: Action,
                    system: SystemHooks, horizon: Horizon) -> list[Plan]:
        """The block the doctrine moves next, near the enemy: its chosen destination, its
        next best ones and staying put, each played as far as ``horizon`` (the agent's
        ``move_horizon``; in the endgame to the verdict)."""
        uid, here, dest = str(choice["unit"]), str(choice["path"][0]), str(choice["path"][-1])
        if f"mv:{uid}" in self._plan.settled \
                or system.near_enemy(view, (here, dest)) > self.move_contact:
            return []
        mine = [a for a in legal if a.get("type") == "move" and str(a.get("unit")) == uid]
        others = self._ranked_destinations(view, mine, (dest, here))[:self.move_alternatives]
        others += self._style_rivals(view, mine, system, (dest, here, *others))
        return self._block_plans(uid, [dest, *others, here], horizon)

    def _still_plans(self, view: JSONDict, legal: Sequence[Action], system: SystemHooks,
                     horizon: Horizon) -> list[Plan]:
        """As the doctrine ends its movement phase: the first block (by id) it leaves where
        it is within ``move_still`` hexes of a known enemy and not yet searched this turn
        (blocks that fired have no moves, 6.1). Its plans: staying put (the doctrine's own
        choice), then its best destinations by the doctrine's scores, each played as far as
        ``horizon``."""
        mine: dict[str, list[Action]] = {}
        for a in legal:
            if a.get("type") == "move":
                mine.setdefault(str(a["unit"]), []).append(a)
        for uid in sorted(mine):
            here = str(mine[uid][0]["path"][0])
            if f"mv:{uid}" in self._plan.settled \
                    or system.near_enemy(view, (here,)) > self.move_still:
                continue
            others = self._ranked_destinations(view, mine[uid], (here,))
            if others:
                others = others[:self.move_alternatives]
                others += self._style_rivals(view, mine[uid], system, (here, *others))
                return self._block_plans(uid, [here, *others], horizon)
        return []

    def _style_rivals(self, view: JSONDict, moves: Sequence[Action], system: SystemHooks,
                      leave_out: Sequence[str]) -> list[str]:
        """For each of ``move_style_rivals`` in the seat's portfolio, that style's best
        destination among one block's ``moves``, if no plan holds it yet."""
        styles = system.portfolio.get(str(view.get("seat")), {})
        out: list[str] = []
        for name in self.move_style_rivals:
            if name in styles:
                best = self._ranked_destinations(view, moves, (), styles[name])[:1]
                out += [to for to in best if to not in (*leave_out, *out)]
        return out

    def _ranked_destinations(self, view: JSONDict, moves: Sequence[Action],
                             leave_out: Sequence[str], doctrine: Doctrine | None = None
                             ) -> list[str]:
        """The destinations of one block's ``moves`` but ``leave_out``, best first by the
        score of the best path to each (ties by hex id) under ``doctrine`` (by default the
        turn's style)."""
        scores = (doctrine or self._doctrine or doctrine_for(view)).scores(view, moves)
        best: dict[str, float] = {}
        for a, sc in zip(moves, scores, strict=True):
            to = str(a["path"][-1])
            best[to] = max(best.get(to, -math.inf), sc)
        return sorted((d for d in best if d not in leave_out), key=lambda d: (-best[d], d))

    def _block_plans(self, uid: str, destinations: Sequence[str], horizon: Horizon
                     ) -> list[Plan]:
        """One plan per destination of block ``uid`` (its start hex: it stays put), the
        block marked searched for the turn, each played as far as ``horizon``."""
        keep = self._plan.copy()
        keep.settled.add(f"mv:{uid}")
        keep.horizon = horizon
        plans = []
        for to in destinations:
            p = keep.copy()
            p.moves[uid] = to
            plans.append(p)
        return plans

    def _fire_plans(self, choice: Action, system: SystemHooks) -> list[Plan]:
        """A block the general would fire with next door may instead keep its fire and
        attack the hex in melee (a block that fired may not attack, 7.1)."""
        if choice.get("type") != "fire":
            return []
        unit, target = str(choice["unit"]), str(choice["target"])
        mark = f"fire:{unit}"
        if mark in self._plan.settled or choice.get("through", target) != target \
                or not system.may_melee(unit):
            return []
        keep = self._plan.copy()
        keep.settled.add(mark)
        hold = keep.copy()
        hold.hold.add(unit)
        hold.mass.add(target)
        return [keep, hold]

    def _search(self, view: JSONDict, plans: list[Plan], system: SystemHooks,
                budget_s: float, rng: random.Random) -> Plan:
        min_gain, z = MIN_GAIN, Z
        moving = any(p.moves != plans[0].moves for p in plans[1:])  # a block's move plans
        if moving:
            per_s, min_gain, z = self.move_rounds_per_s, self.move_min_gain, self.move_z
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
        ``REPLY``: until the enemy has had a player turn; ``FIRE``: that and our next fire
        phase); the value of the outcome (``None`` if the clock passed ``stop`` first)."""
        seat, active = str(view["seat"]), str(view["active"])
        enemy_plan = Plan(horizon=plan.horizon)
        judged = len(view.get("verdicts") or [])

        def melee_over(mview: JSONDict) -> bool:
            if plan.horizon == END:  # the next verdict (in the battle a draw plays on, 9.5)
                return len(mview.get("verdicts") or []) > judged
            return mview.get("active") != active or mview.get(
                "phase") not in ("command", "fire", "movement", "melee")

        done = _until_answered(seat, plan.horizon == FIRE) \
            if plan.horizon in (REPLY, FIRE) else melee_over

        def choose(mover: str, mview: JSONDict, legal: Sequence[Action]) -> Action:
            if mover == seat:
                return plan_choice(mview, legal, plan, rollout=True, hooks=hooks,
                                   doctrine=doctrine)
            return plan_choice(mview, legal, enemy_plan, rollout=True)

        return SearchAgent._play(view, hooks, rng, HORIZON, stop, done, choose)


class MoveSearchAgent(SearchAgent):
    """``search-move``: search with the block-by-block movement plans on (``MOVE_PLANS``).

    Its own name rather than a change of ``search``, so the rows recorded as ``search``
    keep their meaning. Measured on Day 1 against the general (docs/ai.md, "The agent
    search-move"): +1.04 ± 0.41 points a game over 80 games (clear as the USA, within its
    noise as the CSA), at about four times plain search's cost."""

    name = "search-move"

    def __init__(self, seed: str = "0") -> None:
        super().__init__(seed)
        self.move_plans = True


class StillSearchAgent(MoveSearchAgent):
    """``search-move-still``: ``search-move``, and as the CSA the still plans too (blocks
    the doctrine leaves where they are next to a known enemy are searched as it ends its
    movement phase: ``MOVE_STILL``).

    Measured on Day 1 as the CSA (docs/ai.md, "The still plans as the CSA"): on
    ``search-move``'s random numbers, +1.06 ± 0.45 points a game over ``search-move``'s
    games of the same seeds (34 games), +2.06 ± 0.58 over the general's. As the USA it
    plays as ``search-move``: the still plans showed no gain there in 10 games and cost a
    third more time.

    It draws ``search-move``'s random numbers in the lab (``stream``): as the USA its games
    are ``search-move``'s, and as the CSA a game of it is ``search-move``'s of the same seed
    until their decisions first differ (a still search draws worlds from the same numbers,
    so later searches may sample others), so ``gettysburg simulate`` replays the measured
    games and they pair with ``search-move``'s."""

    name = "search-move-still"
    stream = "search-move"

    def __init__(self, seed: str = "0") -> None:
        super().__init__(seed)
        self.move_still = 1
        self.still_seats = frozenset({"csa"})


class FirstDaySearchAgent(StillSearchAgent):
    """``search-move-still-day1``: ``search-move-still`` on the first day, the general's
    own play on the days after (``search_days``).

    Made to measure the battle (9.5) within a session's reach: ``search-move-still`` takes
    over two hours of a core for a battle that goes past Day 1, this about the cost of its
    Day 1 (docs/ai.md, "Search on the battle's first day"). It draws ``search-move``'s
    random numbers, as ``search-move-still`` does, so on Day 1 it plays as that agent."""

    name = "search-move-still-day1"
    stream = "search-move"

    def __init__(self, seed: str = "0") -> None:
        super().__init__(seed)
        self.search_days = frozenset({1})


class TunedGeneralAgent(SearchAgent):
    """``general-tuned``: the general's decision rule on the tuned doctrine, searching
    nothing (``search_days`` empty), so as fast as the general. In a system without search
    hooks (the toy game) it plays as the general. The tuned styles are measured against the
    general in docs/ai.md ("Tuned styles", "Tuned styles in the battle"); the general keeps
    its own styles so that it stays the fixed yardstick of every search measurement."""

    name = "general-tuned"

    def __init__(self, seed: str = "0") -> None:
        super().__init__(seed)
        self.base = "tuned"
        self.style_search = False
        self.search_days = frozenset()


class EndgameTunedAgent(MoveSearchAgent):
    """``search-end-day1-tuned``: the tuned doctrine (``general-tuned``), and in the last
    two turns before Day 1's verdict the endgame plans (move and melee plans played to
    that verdict, ``ENDGAME_PLANS``); no style search, nothing searched on other days.

    The battle's Confederate wins are made at Day 1's count (10 points, 9.5), so that is
    where its search is spent, at a cost a battle can afford (about a minute of a core a
    battle at ``--budget 0.5``). Measured against the general in the battle in docs/ai.md
    ("Search on the tuned doctrine in the battle, at scale"; "The last step of an HQ")."""

    name = "search-end-day1-tuned"

    def __init__(self, seed: str = "0") -> None:
        super().__init__(seed)
        self.endgame = True
        self.style_search = False
        self.only_endgame = True
        self.base = "tuned"
        self.search_days = frozenset({1})


register_agent("search", SearchAgent)
register_agent("general-tuned", TunedGeneralAgent)
register_agent("search-move", MoveSearchAgent)
register_agent("search-move-still", StillSearchAgent)
register_agent("search-move-still-day1", FirstDaySearchAgent)
register_agent("search-end-day1-tuned", EndgameTunedAgent)
