"""``search``: the general, with its melee decisions checked by look-ahead on sampled worlds.

Most of a game is left to the ``general`` (:mod:`gettysburg.ai.general`); search spends
its budget where dice settle the outcome and the doctrine's rule of thumb (melee at odds of
1.5 or better, 7.1) is crudest: **which enemy hexes to attack in the movement phase**.
At such a decision the agent compares a few *plans*, each a variant of the general's
policy for the rest of the phase:

* when the general wants to declare a melee on hex X: ``general`` as it is, ``mass`` on X
  (every block that may still attack X does so first), and ``spare`` X (nobody attacks X);
* when the general would end its movement phase with melees still possible on hexes it
  rejected: ``general`` (end the phase) and ``mass`` on each of the best ``AGGRESSION``
  such hexes (by the attack strength that could reach them).

Each plan is played in the same ``rounds`` sampled worlds (:mod:`gettysburg.ai.belief_boc`:
hidden enemy identities drawn from the order of battle, fresh dice; the same world and
dice for every plan, i.e. common random numbers) from now to the end of the active
player's melee phase, with ``general`` for both sides (the rest of the movement phase is
cut to melee declarations, which keeps rollouts cheap). The outcome is scored from the
world's full state (:func:`material_value`): the CSA total with projected control (9.1),
plus the danger every surviving block is in (a block at 1 step is worth half a victory
point to whoever can finish it).

A plan replaces the general's only if it wins by a clear margin over the paired
differences (``Z`` standard errors and ``MIN_GAIN``), so dice noise rarely makes search
play worse than the general. The chosen plan is remembered until the phase ends, so the
next decisions of the phase follow it without searching again.

Determinism: the number of rounds comes from the budget (``ROLLOUTS_PER_S``), not from the
clock; the same seed gives the same game on any machine. A wall-clock guard at ``GUARD`` x
budget stops runaway decisions (only then can timing matter). The agent reads only its
seat's view: honesty is tested (same decisions when only hidden identities differ).
Systems without a world builder (``WORLDS``) are played by the general.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from gettysburg.ai.agent import JSONDict, register_agent
from gettysburg.ai.doctrine import DONE_TYPES, doctrine_for
from gettysburg.ai.general import best_index
from gettysburg.core.protocol import REFEREE, Action, Game

ROLLOUTS_PER_S = 8.0  # rollouts (plan x world) per second of budget
MIN_ROUNDS = 2
AGGRESSION = 2  # rejected melee targets tried as "mass" plans at the end of movement
Z = 1.0  # standard errors a plan must beat the general's by
MIN_GAIN = 0.15  # ... and at least this much value
GUARD = 3.0
HORIZON = 400  # actions: a rollout never plays longer than this
WIN_VALUE = 100.0
#: Value of the danger a block at this strength is in (a block eliminated is a full
#: victory point, 9.12): an enemy block worn down is a point half-earned.
RISK = {0: 0.7, 1: 0.5, 2: 0.25, 3: 0.12}
RISK_FULL = 0.06
MOVE_TYPES = frozenset({"move", "enter", "leave_map", "formation"})

WorldBuilder = Callable[[JSONDict, random.Random], Game]


def _boc_world() -> WorldBuilder:
    from gettysburg.ai.belief_boc import determinise, sample_hidden, scenario_start

    starts: dict[tuple[str, tuple[str, ...]], JSONDict] = {}

    def build(view: JSONDict, rng: random.Random) -> Game:
        key = (str(view["scenario"]), tuple(view.get("options", [])))
        if key not in starts:
            starts[key] = scenario_start(view)
        start = starts[key]
        return determinise(view, sample_hidden(view, rng, start), rng, start)

    return build


def _boc_value(world: Game, seat: str) -> float:
    from gettysburg.ai.doctrine_boc import map_facts, projected_total

    ref = world.view(REFEREE)
    total = float(projected_total(ref, map_facts()))
    value = total if seat == "csa" else -total
    for u in ref.get("units", []):
        if u.get("status") != "on_map":
            continue
        risk = RISK.get(int(u.get("strength", 0)), RISK_FULL)
        value += -risk if u.get("side") == seat else risk
    return value


#: system -> (builder of worlds from (view, rng), value of a world for a seat).
WORLDS: dict[str, Callable[[], tuple[WorldBuilder, Callable[[Game, str], float]]]] = {
    "boc": lambda: (_boc_world(), _boc_value)}


def material_value(world: Game, seat: str, value: Callable[[Game, str], float]) -> float:
    """A finished world scores +-``WIN_VALUE``; otherwise the system's ``value``."""
    result: Any = world.result()
    if isinstance(result, dict) and "winner" in result:
        if result["winner"] == seat:
            return WIN_VALUE
        if result["winner"] is not None:
            return -WIN_VALUE
    return value(world, seat)


@dataclass
class Plan:
    """The general's policy with melee targets forced ("mass") or refused ("spare")."""

    mass: set[str] = field(default_factory=set)
    spare: set[str] = field(default_factory=set)
    settled: set[str] = field(default_factory=set)  # targets already searched

    def copy(self) -> Plan:
        return Plan(set(self.mass), set(self.spare), set(self.settled))


def _melee_target(a: Action) -> str | None:
    return str(a["target"]) if a.get("type") == "melee" else None


def plan_choice(view: JSONDict, legal: Sequence[Action], plan: Plan,
                rollout: bool = False) -> Action:
    """The general's choice under ``plan`` (in a rollout the rest of the movement phase is
    cut to melee declarations)."""
    allowed = [a for a in legal if _melee_target(a) not in plan.spare]
    if rollout and view.get("phase") == "movement":
        allowed = [a for a in allowed if a.get("type") not in MOVE_TYPES]
    allowed = allowed or list(legal)
    massed = [a for a in allowed if _melee_target(a) in plan.mass
              and not a.get("unsupported")]
    pool = massed or allowed
    scores = doctrine_for(view).scores(view, pool)
    if massed:
        return dict(pool[max(range(len(pool)), key=lambda i: (scores[i], -i))])
    return dict(pool[best_index(scores, pool)])


def _phase_key(view: JSONDict) -> tuple[Any, ...]:
    return (view.get("day"), view.get("hour"), view.get("active"), view.get("phase"))


def _paired_gain(base: list[float], other: list[float]) -> tuple[float, float]:
    """(mean, standard error) of the paired differences other - base."""
    diffs = [o - b for b, o in zip(base, other, strict=True)]
    if not diffs:
        return (0.0, math.inf)
    mean = statistics.fmean(diffs)
    se = statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else math.inf
    return (mean, se)


class SearchAgent:
    name = "search"

    def __init__(self, seed: str = "0") -> None:
        self.seed = seed
        self._systems: dict[str, tuple[WorldBuilder, Callable[[Game, str], float]]] = {}
        self._plan = Plan()
        self._plan_key: tuple[Any, ...] | None = None
        self.searched = 0  # decisions actually searched (for benchmarks and tests)
        self.overrides = 0  # of which a plan other than the general's won

    def _system(self, view: JSONDict
                ) -> tuple[WorldBuilder, Callable[[Game, str], float]] | None:
        system = str(view.get("system", ""))
        if system not in WORLDS:
            return None
        if system not in self._systems:
            self._systems[system] = WORLDS[system]()
        return self._systems[system]

    def choose(self, view: JSONDict, legal_actions: Sequence[Action], budget_s: float,
               rng: random.Random) -> Action:
        if not legal_actions:
            raise ValueError("no legal actions to choose from")
        key = _phase_key(view)
        if key != self._plan_key:
            self._plan, self._plan_key = Plan(), key
        choice = plan_choice(view, legal_actions, self._plan)
        system = self._system(view)
        if system is None or len(legal_actions) == 1:
            return choice
        plans = self._plans(view, legal_actions, choice)
        if len(plans) < 2:
            return choice
        self.searched += 1
        best = self._search(view, plans, system, budget_s, rng)
        if best is not plans[0]:
            self.overrides += 1
        self._plan = best
        return plan_choice(view, legal_actions, best)

    def _plans(self, view: JSONDict, legal: Sequence[Action], choice: Action) -> list[Plan]:
        """The plans worth comparing now; the first is the general's own."""
        combat = view.get("combat") or {}
        if view.get("phase") != "movement" or view.get("active") != view.get("seat") \
                or combat.get("battle") or view.get("night"):
            return []
        base = self._plan
        target = _melee_target(choice)
        if target is not None:
            if target in base.settled or target in base.mass:
                return []
            keep = base.copy()
            keep.settled.add(target)
            spare = keep.copy()
            spare.spare.add(target)
            plans = [keep, spare]
            joiners = {str(a["unit"]) for a in legal
                       if _melee_target(a) == target and not a.get("unsupported")}
            if len(joiners) >= 2:  # massing differs from the general's single attack
                mass = keep.copy()
                mass.mass.add(target)
                plans.append(mass)
            return plans
        if choice.get("type") not in DONE_TYPES:
            return []
        reach: dict[str, float] = {}
        for a in legal:
            t = _melee_target(a)
            if t is None or t in base.settled or t in base.spare or a.get("unsupported"):
                continue
            reach[t] = reach.get(t, 0.0) + 1.0
        targets = sorted(reach, key=lambda t: (-reach[t], t))[:AGGRESSION]
        if not targets:
            return []
        keep = base.copy()
        keep.settled.update(targets)
        plans = [keep]
        for t in targets:
            p = keep.copy()
            p.mass.add(t)
            plans.append(p)
        return plans

    def _search(self, view: JSONDict, plans: list[Plan],
                system: tuple[WorldBuilder, Callable[[Game, str], float]],
                budget_s: float, rng: random.Random) -> Plan:
        build, value = system
        rounds = max(MIN_ROUNDS, int(budget_s * ROLLOUTS_PER_S / len(plans)))
        deadline = time.perf_counter() + GUARD * max(budget_s, 0.05)
        values: list[list[float]] = [[] for _ in plans]
        for _ in range(rounds):
            if time.perf_counter() > deadline:
                break
            # Common random numbers: every plan meets the same sampled world and dice.
            world_seed = rng.getrandbits(64)
            got = [self._rollout(view, p, build, value, random.Random(world_seed))
                   for p in plans]
            if any(v is None for v in got):
                continue  # a world the sample could not make consistent: skip the round
            for k, v in enumerate(got):
                assert v is not None
                values[k].append(v)
        best, best_gain = plans[0], 0.0
        for k in range(1, len(plans)):
            mean, se = _paired_gain(values[0], values[k])
            if mean > max(MIN_GAIN, Z * se) and mean > best_gain:
                best, best_gain = plans[k], mean
        return best

    @staticmethod
    def _rollout(view: JSONDict, plan: Plan, build: WorldBuilder,
                 value: Callable[[Game, str], float], rng: random.Random) -> float | None:
        """Play ``plan`` for the seat (the general for the enemy) in a sampled world to
        the end of the active player's melee phase; the value of the outcome."""
        seat, active = str(view["seat"]), str(view["active"])
        try:
            world = build(view, rng)
            for _ in range(HORIZON):
                if world.is_terminal():
                    break
                mover = world.to_move()[0]
                mview = world.view(mover)
                if mview.get("active") != active or mview.get("phase") not in (
                        "movement", "melee"):
                    break
                legal = mview.get("legal_actions") or world.legal_actions(mover)
                if mover == seat:
                    action = plan_choice(mview, legal, plan, rollout=True)
                else:
                    action = plan_choice(mview, legal, Plan(), rollout=True)
                world.apply(action, mover)
        except Exception:
            # A world the sample could not make consistent (state the view does not show):
            # skip it rather than lose the decision.
            return None
        return material_value(world, seat, value)


register_agent("search", SearchAgent)
