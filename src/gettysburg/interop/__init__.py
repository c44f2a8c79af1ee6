"""Adapters for game-AI research frameworks (optional extra: ``gettysburg[research]``).

* :mod:`gettysburg.interop.openspiel` — every BoC scenario as an OpenSpiel Python game
  (``python_boc_day1`` … ``python_boc_battle``), dice as chance nodes.
* :mod:`gettysburg.interop.pettingzoo` — a PettingZoo AEC environment per scenario.

Nothing here is imported by the core package, and this ``__init__`` imports neither
framework: import the submodule you need (each fails with a clear message when its
framework is missing). Both adapters use only the game protocol and its research hooks
(:func:`gettysburg.core.protocol.research_hooks`). See ``docs/research.md``.
"""

from __future__ import annotations

#: The BoC scenarios the adapters expose, by short name (``boc/<name>``).
SCENARIOS: tuple[str, ...] = ("day1", "day2", "day3", "battle")
