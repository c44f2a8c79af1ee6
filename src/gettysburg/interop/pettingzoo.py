"""Every rule system with research hooks as PettingZoo AEC environments
(``pip install gettysburg[research]``).

::

    from gettysburg.interop import SCENARIOS
    from gettysburg.interop.pettingzoo import env
    e = env(SCENARIOS[0], max_turns=2, render_mode="ansi")  # every system/scenario served
    e.reset(seed=7)
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        action = None if termination or truncation else \
            e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

* Scenarios are ``system/scenario`` for every system the registry (:mod:`gettysburg.systems`)
  lists with research hooks; a bare scenario name is read as the first system listing it.
* Agents are the system's seats; ``agent_selection`` is whoever the rules wait for (an
  answer can come from the side whose turn it is not).
* Observation: ``{"observation": float32 (the system's tensor of the seat's view, see
  docs/research.md), "action_mask": int8 over the fixed action ids}``; the agent not to move
  gets an all-zero mask, and so does every agent once the game is over or cut short. The
  mask is as long as the action space (over a million ids for some systems):
  ``infos[agent]["legal_ids"]`` holds the same ids, sorted, so an agent need not scan it.
  Each position's legal actions and tensors are built once, however often they are asked
  for, and shared by the mask, the infos and ``step``.
* Actions are the system's fixed ids (``ResearchHooks.encode_actions``); an id that is not
  legal now is refused with ``ValueError`` naming it, and nothing changes.
* Dice are the engine's seeded dice: ``reset(seed=s)`` gives the same game for the same
  actions; ``reset()`` without a seed reuses the last one (0 at first).
* Rewards come at the end: +1 / -1 to the winner, 0 each for a draw. ``max_turns`` /
  ``max_decisions`` cut a game short (truncation) with the public standing
  (``ResearchHooks.standing``) as reward (a value in [-1, 1], zero-sum).
* ``render_mode``: ``"ansi"`` returns a text picture, ``"human"`` prints it; both as
  ``render_seat`` sees the game (default ``"referee"``: everything, for the experimenter).
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

try:
    import gymnasium
    import numpy as np
    from pettingzoo import AECEnv  # type: ignore[import-untyped, unused-ignore]
except ImportError as exc:  # pragma: no cover - depends on the installed extras
    raise ImportError("gettysburg.interop.pettingzoo needs PettingZoo: "
                      "pip install 'gettysburg[research]'") from exc

from gettysburg.core.protocol import REFEREE, Action, Game, Seat, new_game
from gettysburg.interop import resolve

#: Bounds of the observation space: the research hooks promise every tensor value in it.
OBS_BOUND = 100.0
RENDER_MODES = ("ansi", "human")


class GameEnv(AECEnv):  # type: ignore[misc]
    """One scenario of a system as an AEC environment (see the module doc)."""

    def __init__(self, scenario: str, *, options: str | Sequence[str] = (),
                 max_turns: int = 0, max_decisions: int = 0, render_mode: str | None = None,
                 render_seat: Seat = REFEREE) -> None:
        super().__init__()
        system, self.scenario = resolve(scenario)
        assert system.research is not None  # resolve() serves only such systems
        self.system = system.name
        self.metadata: dict[str, Any] = {"name": f"gettysburg_{system.name}_v0",
                                         "render_modes": list(RENDER_MODES),
                                         "is_parallelizable": False}
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {list(RENDER_MODES)}")
        if max_turns < 0 or max_decisions < 0:
            raise ValueError("max_turns and max_decisions must be >= 0 (0 = no limit)")
        # "a,b" as OpenSpiel's parameter takes it, or a sequence of option names.
        named = options.split(",") if isinstance(options, str) else list(options)
        self.options = tuple(o.strip() for o in named if o.strip())
        self.max_turns, self.max_decisions = max_turns, max_decisions
        self.render_mode, self.render_seat = render_mode, render_seat
        self.hooks = system.research()
        self._seed: int = 0
        self.game: Game = self._new_game()
        self.possible_agents: list[Seat] = self.game.seats()
        self.num_actions = self.hooks.action_space_size(self.game)
        size = self.hooks.tensor_size(self.game)
        self._obs_spaces = {a: gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(-OBS_BOUND, OBS_BOUND, (size,), np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (self.num_actions,), np.int8)})
            for a in self.possible_agents}
        self._act_spaces = {a: gymnasium.spaces.Discrete(self.num_actions)
                            for a in self.possible_agents}
        # The legal ids in the legal sequence's order, and the sequence.
        self._legal: tuple[list[int], Sequence[Action]] | None = None
        self._ids: Any = None  # the sorted legal ids (numpy) of this position
        self._tensors: dict[Seat, Any] = {}  # each agent's tensor at this position
        self.agents: list[Seat] = []
        self.truncations: dict[Seat, bool] = {}  # set by reset()

    def _new_game(self) -> Game:
        return new_game(f"{self.system}/{self.scenario}", options=list(self.options),
                        seed=self._seed)

    def observation_space(self, agent: Seat) -> gymnasium.spaces.Space[Any]:
        return self._obs_spaces[agent]

    def action_space(self, agent: Seat) -> gymnasium.spaces.Space[Any]:
        return self._act_spaces[agent]

    # --- episode --------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seed = int(seed)
        self.game = self._new_game()
        self._moved()
        self._decisions = 0
        self._start_turn = self._turn = self.hooks.turn(self.game)
        self._turns = 0
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[Seat, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.game.to_move()[0]
        self._tell_legal_ids()

    def _moved(self) -> None:
        """The position changed: what was built for the last one is dropped."""
        self._legal, self._ids, self._tensors = None, None, {}

    def _legal_map(self) -> tuple[list[int], Sequence[Action]]:
        if self._legal is None:
            seat = self.game.to_move()[0]
            # The lazy sequence (a system may encode it without a dict per action); the
            # one action chosen is built from it.
            actions = self.game.legal_sequence(seat)
            ids = self.hooks.encode_actions(self.game, actions)
            self._legal = (ids, actions)
            self._ids = np.array(sorted(ids), dtype=np.int64)
        return self._legal

    def _tell_legal_ids(self) -> None:
        """The agent to move finds its legal ids in its info (the others none)."""
        for a in self.agents:
            self.infos[a].pop("legal_ids", None)
        if not self.game.is_terminal() and not any(self.truncations.values()):
            self._legal_map()
            self.infos[self.agent_selection]["legal_ids"] = self._ids.copy()

    def observe(self, agent: Seat) -> dict[str, Any]:
        if agent not in self._tensors:
            # Packed as doubles by one struct call, then rounded to float32 by numpy:
            # three times as fast as a C float array (issue 59) or numpy reading the list.
            values = self.hooks.observation_tensor(self.game, agent)
            packed = _packer(len(values)).pack(*values)
            self._tensors[agent] = np.frombuffer(packed, dtype=np.float64).astype(np.float32)
        mask = np.zeros(self.num_actions, dtype=np.int8)
        # A game cut short offers nothing more (as its infos hold no legal ids).
        if not self.game.is_terminal() and not self.truncations.get(agent, False) \
                and agent in self.game.to_move():
            self._legal_map()
            mask[self._ids] = 1
        # Copies: an agent may change what it is given without touching the cache.
        return {"observation": self._tensors[agent].copy(), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if isinstance(action, bool) or not isinstance(action, int | np.integer):
            raise ValueError(f"action must be an int id, got {action!r}")
        if not 0 <= int(action) < self.num_actions:
            raise ValueError(f"action id {action} is outside 0..{self.num_actions - 1}")
        ids, actions = self._legal_map()
        try:
            # One step a position: a scan of its few hundred ids costs less than a map.
            chosen = actions[ids.index(int(action))]
        except ValueError:
            raise ValueError(f"action id {action} is not legal for {agent} now") from None
        self.game.apply(chosen, agent)
        self._moved()
        self._decisions += 1
        turn = self.hooks.turn(self.game)
        if turn != self._turn:
            self._turns, self._turn = self._turns + 1, turn
        self._clear_rewards()
        self._cumulative_rewards[agent] = 0.0
        if self.game.is_terminal():
            result = self.game.result() or {}
            winner = result.get("winner")
            for a in self.agents:
                self.rewards[a] = 0.0 if winner not in self.agents else \
                    (1.0 if a == winner else -1.0)
                self.terminations[a] = True
        elif (self.max_decisions and self._decisions >= self.max_decisions) \
                or (self.max_turns and self._turns >= self.max_turns):
            s = self.hooks.standing(self.game)
            first = self.possible_agents[0]
            for a in self.agents:
                self.rewards[a] = s if a == first else -s
                self.truncations[a] = True
        else:
            self.agent_selection = self.game.to_move()[0]
        self._tell_legal_ids()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        text = self.hooks.render_text(self.game, self.render_seat)
        if self.render_mode == "human":
            print(text, end="")
            return None
        return text

    def close(self) -> None:
        pass


@lru_cache(maxsize=8)
def _packer(size: int) -> struct.Struct:
    """Packs ``size`` floats as C doubles."""
    return struct.Struct(f"={size}d")


def env(scenario: str, **kwargs: Any) -> GameEnv:
    """A new environment for ``system/scenario`` (or a bare scenario name); keyword
    arguments as :class:`GameEnv`."""
    return GameEnv(scenario, **kwargs)
