"""AI players that sit on top of the game protocol.

An agent sees only its seat's ``view(seat)`` and ``legal_actions(seat)`` and a time budget;
it never touches the hidden truth. Three generic agents know no rule system:

* ``random``  uniform over the legal actions (:mod:`gettysburg.ai.random_agent`);
* ``general`` a fast heuristic commander driven by the system's doctrine
  (:mod:`gettysburg.ai.general`);
* ``search``  the general, with a style per player turn and some decisions chosen by
  rollouts on worlds sampled from what the seat has seen (:mod:`gettysburg.ai.search`).

Each rule system declares its opponents as presets of these (``AIHooks.opponents``);
``make_agent(name, seed, system)`` builds a preset or a generic agent by name.
"""

from __future__ import annotations

from gettysburg.ai.agent import Agent, agent_names, make_agent, observe, register_agent

__all__ = ["Agent", "agent_names", "make_agent", "observe", "register_agent"]
