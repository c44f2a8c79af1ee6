"""AI players that sit on top of the game protocol.

An agent sees only its seat's ``view(seat)`` and ``legal_actions(seat)`` and a time budget;
it never touches the hidden truth. ``make_agent(name, seed)`` builds one by name:

* ``random``  uniform over the legal actions (:mod:`gettysburg.ai.random_agent`);
* ``general`` a fast heuristic commander driven by a per-system doctrine
  (:mod:`gettysburg.ai.general`, :mod:`gettysburg.boc.ai.doctrine`);
* ``search``  the general, with a style per player turn and some decisions chosen by
  rollouts on worlds sampled from what the seat has seen (:mod:`gettysburg.ai.search`).
"""

from __future__ import annotations

from gettysburg.ai.agent import Agent, agent_names, make_agent, observe, register_agent

__all__ = ["Agent", "agent_names", "make_agent", "observe", "register_agent"]
