"""The doctrine, memory and search hooks of a view's rule system, read from the registry
(:mod:`gettysburg.systems`) by the view's ``system``."""

from __future__ import annotations

from gettysburg import systems
from gettysburg.core.canonical import JSONDict
from gettysburg.core.doctrine import Doctrine, GenericDoctrine, Memory
from gettysburg.core.search_hooks import SystemHooks

_CACHE: dict[str, Doctrine] = {}


def doctrine_for(view: JSONDict) -> Doctrine:
    """The doctrine of the view's rule system (``view["system"]``), else the generic one."""
    name = str(view.get("system", ""))
    got = _CACHE.get(name)
    if got is not None:
        return got
    declared = systems.find(name)
    make = declared.ai.doctrine if declared is not None else None
    doctrine: Doctrine = make() if make is not None else GenericDoctrine()
    _CACHE[name] = doctrine
    return doctrine


def memory_for(view: JSONDict) -> Memory | None:
    """A fresh memory for the view's system, or ``None`` if its players keep none."""
    declared = systems.find(str(view.get("system", "")))
    make = declared.ai.memory if declared is not None else None
    return make() if make is not None else None


def search_hooks_for(view: JSONDict, memory: Memory | None) -> SystemHooks | None:
    """Search's hooks for the view's system, given one seat's memory (``None``: the
    system offers search none, and search plays as the general)."""
    declared = systems.find(str(view.get("system", "")))
    make = declared.ai.search if declared is not None else None
    return make(memory) if make is not None else None


_NAMED: dict[tuple[str, str], Doctrine] = {}


def named_doctrine(view: JSONDict, variant: str) -> Doctrine:
    """The view's system's doctrine variant ``variant`` (``AIHooks.doctrines``), made once;
    a ``ValueError`` naming the variants when the system has no such one."""
    key = (str(view.get("system", "")), variant)
    got = _NAMED.get(key)
    if got is None:
        declared = systems.find(key[0])
        offered = declared.ai.doctrines() if declared is not None else {}
        if variant not in offered:
            raise ValueError(f"setting doctrine={variant!r}: system {key[0]!r} offers "
                             f"{sorted(offered)}")
        got = _NAMED[key] = offered[variant]
    return got
