"""The one registry of rule systems: the only module outside the system packages that
names them.

Each entry maps a system's name to the module holding its declaration (``SYSTEM``, a
:class:`gettysburg.core.system.RuleSystem`). Adding a rule system is one package and one
line here. The lobby lists the systems in this order.
"""

from __future__ import annotations

import importlib

from gettysburg.core.system import RuleSystem

_DECLARATIONS: dict[str, str] = {
    "boc": "gettysburg.boc.system",
    "machango": "gettysburg.machango.system",
    "gbacw": "gettysburg.gbacw.system",
    "toy": "gettysburg.toy.system",
}

_loaded: dict[str, RuleSystem] = {}


class UnknownSystem(LookupError):
    """No rule system of that name is registered here."""


def names(*, listed_only: bool = False) -> list[str]:
    """Every registered system's name, in the registry's order (``listed_only``: those the
    lobby shows)."""
    return [n for n in _DECLARATIONS if not listed_only or get(n).listed]


def get(name: str) -> RuleSystem:
    """The declaration of system ``name`` (its module imported on first use)."""
    found = _loaded.get(name)
    if found is not None:
        return found
    module = _DECLARATIONS.get(name)
    if module is None:
        raise UnknownSystem(f"unknown rule system {name!r}; known: {list(_DECLARATIONS)}")
    declared = importlib.import_module(module).SYSTEM
    if not isinstance(declared, RuleSystem) or declared.name != name:
        raise TypeError(f"{module}.SYSTEM must be the RuleSystem named {name!r}")
    _loaded[name] = declared
    return declared


def find(name: str) -> RuleSystem | None:
    """The declaration of ``name``, or ``None`` when no such system is registered."""
    try:
        return get(name)
    except UnknownSystem:
        return None


def all_systems(*, listed_only: bool = False) -> list[RuleSystem]:
    return [get(n) for n in names(listed_only=listed_only)]


def system_of_scenario(scenario: str) -> str | None:
    """The first system (in registry order) whose menu lists ``scenario`` by bare name
    (the CLI's ``day2`` for ``boc/day2``); ``None`` if none does."""
    for system in all_systems():
        if scenario in system.menu().scenarios:
            return system.name
    return None
