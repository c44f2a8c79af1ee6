"""``search``: flat Monte Carlo over the general's best candidates, on determinised worlds.

For a decision with real alternatives, the agent:

1. takes the doctrine's best ``CANDIDATES`` actions (plus the "done" action when legal);
2. repeatedly samples a world consistent with its view (:mod:`gettysburg.ai.belief_boc`:
   hidden enemy identities and strengths drawn from the order of battle, fresh dice) —
   never the real hidden state, which it cannot see;
3. plays each candidate in that world (every candidate of a round meets the same world
   and dice: common random numbers) and lets ``general`` continue for both sides for
   ``DEPTH`` actions, then scores the outcome with the doctrine's evaluation (or the result
   if the world's game ended);
4. plays the candidate with the best mean (ties: the general's order).

Determinism: the number of rollouts comes from the budget (``ROLLOUTS_PER_S``, at least
one round over the candidates), not from
the clock, so the same seed gives the same game on any machine; a wall-clock guard at
``GUARD`` x budget stops runaway decisions (only then can timing matter). Decisions where
the general's best candidate is clearly ahead (``MARGIN``) or which have no alternative
are left to the general, which keeps whole games affordable. Systems without a world
builder (``WORLDS``) are played by the general.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from gettysburg.ai.agent import JSONDict, register_agent
from gettysburg.ai.doctrine import DONE_TYPES, doctrine_for
from gettysburg.ai.general import GeneralAgent, ranked
from gettysburg.core.protocol import Action, Game, action_key

CANDIDATES = 3
DEPTH = 1
ROLLOUTS_PER_S = 16.0
MARGIN = 0.6
GUARD = 3.0
WIN_VALUE = 100.0
#: Decisions worth searching: where dice decide (fire, melee and their answers). Movement
#: is left to the general, whose doctrine one-action rollouts did not improve (docs/ai.md).
SEARCHED_TYPES = frozenset({"fire", "melee", "melee_fight", "melee_retreat", "melee_line",
                            "casualty", "repulse", "regroup", "attack", "assign"})

#: system -> builder of a world from (view, rng); cached public data lives inside.
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


WORLDS: dict[str, Callable[[], WorldBuilder]] = {"boc": _boc_world}


def _same_move(world: Game, seat: str, action: Action) -> Action | None:
    """``action`` if legal in the world, else the world's move of the same unit to the same
    place (paths can differ where the view does not show all move bookkeeping)."""
    legal = world.legal_actions(seat)
    key = action_key(action)
    if any(action_key(a) == key for a in legal):
        return action
    if "path" in action:
        for a in legal:
            if a.get("type") == action.get("type") and a.get("unit") == action.get("unit") \
                    and a.get("path", [None])[-1] == action["path"][-1]:
                return a
    return None


class SearchAgent:
    name = "search"

    def __init__(self, seed: str = "0") -> None:
        self.seed = seed
        self.general = GeneralAgent(seed)
        self._builders: dict[str, WorldBuilder] = {}
        self.searched = 0  # decisions actually searched (for benchmarks)

    def _builder(self, view: JSONDict) -> WorldBuilder | None:
        system = str(view.get("system", ""))
        if system not in WORLDS:
            return None
        if system not in self._builders:
            self._builders[system] = WORLDS[system]()
        return self._builders[system]

    def choose(self, view: JSONDict, legal_actions: Sequence[Action], budget_s: float,
               rng: random.Random) -> Action:
        if not legal_actions:
            raise ValueError("no legal actions to choose from")
        builder = self._builder(view)
        order = ranked(view, legal_actions)
        fallback = self.general.choose(view, legal_actions, budget_s, rng)
        if builder is None or len(legal_actions) == 1:
            return fallback
        cands = [i for _, i in order[:CANDIDATES]]
        cands += [i for i, a in enumerate(legal_actions)
                  if a.get("type") in DONE_TYPES and i not in cands][:1]
        if len(cands) < 2 or order[0][0] - order[1][0] >= MARGIN:
            return fallback
        if not any(legal_actions[i].get("type") in SEARCHED_TYPES for i in cands):
            return fallback
        self.searched += 1
        rounds = max(1, int(budget_s * ROLLOUTS_PER_S / len(cands)))
        deadline = time.perf_counter() + GUARD * max(budget_s, 0.05)
        values: dict[int, list[float]] = {i: [] for i in cands}
        for _ in range(rounds):
            if time.perf_counter() > deadline:
                break
            # Common random numbers: every candidate meets the same sampled world and dice.
            world_seed = rng.getrandbits(64)
            for i in cands:
                value = self._rollout(view, legal_actions[i], builder,
                                      random.Random(world_seed))
                if value is not None:
                    values[i].append(value)
        scored = [(statistics.fmean(v), -cands.index(i), i) for i, v in values.items() if v]
        if not scored:
            return fallback
        return dict(legal_actions[max(scored)[2]])

    def _rollout(self, view: JSONDict, action: Action, builder: WorldBuilder,
                 rng: random.Random) -> float | None:
        seat = str(view["seat"])
        try:
            world = builder(view, rng)
            first = _same_move(world, seat, action)
            if first is None:
                return None
            world.apply(first, seat)
            for _ in range(DEPTH):
                if world.is_terminal():
                    break
                mover = world.to_move()[0]
                wview = world.view(mover)
                legal = wview.get("legal_actions") or world.legal_actions(mover)
                world.apply(self.general.choose(wview, legal, 0.0, rng), mover)
        except Exception:
            # A world the sample could not make consistent (state the view does not show,
            # e.g. a half-fought melee): skip it rather than lose the decision.
            return None
        return self._value(world, seat)

    @staticmethod
    def _value(world: Game, seat: str) -> float:
        result: Any = world.result()
        if isinstance(result, dict) and "winner" in result:
            if result["winner"] == seat:
                return WIN_VALUE
            if result["winner"] is not None:
                return -WIN_VALUE
        view = world.view(seat)
        return doctrine_for(view).evaluate(view)


register_agent("search", SearchAgent)
