"""Adapters for game-AI research frameworks (optional extra: ``gettysburg[research]``).

* :mod:`gettysburg.interop.openspiel` — every scenario of every rule system that declares
  research hooks as an OpenSpiel Python game (``python_<system>_<scenario>``), dice as
  chance nodes.
* :mod:`gettysburg.interop.pettingzoo` — a PettingZoo AEC environment per scenario.

Nothing here is imported by the core package, and this ``__init__`` imports neither
framework: import the submodule you need (each fails with a clear message when its
framework is missing). Both adapters read the registry of systems
(:mod:`gettysburg.systems`) and use only the game protocol and each system's research
hooks (:class:`gettysburg.core.protocol.ResearchHooks`). See ``docs/research.md``.
"""

from __future__ import annotations

from gettysburg import systems
from gettysburg.core.system import RuleSystem


def research_systems() -> list[RuleSystem]:
    """The registered systems the adapters serve: those that declare research hooks (the
    adapters are for two-seat games, as every system here is)."""
    return [s for s in systems.all_systems() if s.research is not None and len(s.seats) == 2]


def scenario_specs() -> tuple[str, ...]:
    """``system/scenario`` for every scenario of every system the adapters serve, in the
    registry's and the menus' order."""
    return tuple(f"{s.name}/{name}" for s in research_systems() for name in s.menu().scenarios)


def resolve(name: str) -> tuple[RuleSystem, str]:
    """The system and scenario of ``system/scenario``, or of a bare scenario name (the first
    served system whose menu lists it, as the CLI reads ``day3``)."""
    served = research_systems()
    system_name, sep, scenario = name.partition("/")
    if sep:
        found = [s for s in served if s.name == system_name]
        if not found:
            raise ValueError(f"no research hooks for a system named {system_name!r}; "
                             f"have {[s.name for s in served]}")
        if scenario not in found[0].menu().scenarios:
            raise ValueError(f"unknown {system_name} scenario {scenario!r}; have "
                             f"{list(found[0].menu().scenarios)}")
        return found[0], scenario
    for system in served:
        if name in system.menu().scenarios:
            return system, name
    raise ValueError(f"unknown scenario {name!r}; have {list(scenario_specs())}")


#: Every ``system/scenario`` the adapters expose, read from the registry at import.
SCENARIOS: tuple[str, ...] = scenario_specs()
