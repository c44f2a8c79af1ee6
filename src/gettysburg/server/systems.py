"""What the lobby and the map need to know about each rule system, beyond the protocol,
read from each system's declaration in the registry (:mod:`gettysburg.systems`): the
drawing data of its map, its menus (scenarios and options), its opponents, the printed
names of its pieces and the shape of its hidden pieces' handles."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from functools import lru_cache

from gettysburg import systems as registry
from gettysburg.core.canonical import JSONDict
from gettysburg.core.protocol import UnknownSystemError, get_system, setup_seats
from gettysburg.core.system import RuleSystem
from gettysburg.server.agents import offered


def _strings(value: object) -> Iterator[str]:
    """Every string in ``value`` and in the keys of its mappings, at any depth."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield str(k)
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def annotate_events(system: str, events: list[JSONDict]) -> list[JSONDict]:
    """``events`` with the printed name of each piece their data names by id (``names``):
    the log can then name a block the seat saw once, after it hides again. Only ids the
    event already gives the seat are named, so this sends no id the seat was not told.
    A hidden piece's opaque handle in the data is listed in ``handles``, so the client can
    say "a hidden block" without knowing how a system shapes its handles."""
    declared = registry.find(system)
    builder = declared.roster if declared is not None else None
    is_handle = declared.is_handle if declared is not None else None
    if (builder is None and is_handle is None) or not events:
        return events
    roster = builder() if builder is not None else {}
    out: list[JSONDict] = []
    for e in events:
        strings = set(_strings(e.get("data")))
        found = {s: roster[s] for s in sorted(strings) if s in roster}
        handles = sorted(s for s in strings if s not in roster and is_handle is not None
                        and is_handle(s))
        extra: JSONDict = {}
        if found:
            extra["names"] = found
        if handles:
            extra["handles"] = handles
        out.append({**e, **extra} if extra else e)
    return out


_built: dict[str, JSONDict] = {}


def map_json(system: str) -> JSONDict | None:
    """The system's map, built once; ``None`` if it has none (yet)."""
    if system in _built:
        return _built[system]
    declared = registry.find(system)
    builder = declared.map_json if declared is not None else None
    if builder is None:
        return None
    try:
        doc = builder()
    except Exception:  # no board file yet, or a broken one: the client draws no map
        return None
    _built[system] = doc
    return doc


def opponents_json(declared: RuleSystem) -> list[JSONDict]:
    """The computer opponents the lobby offers for a system (``agents.offered``: at most
    four, easiest first): name, title, description (English), the same in every language
    (``i18n``) and thinking time."""
    out: list[JSONDict] = []
    for o in offered(declared.name):
        out.append({"name": o.name, "title": o.title, "description": o.description,
                    "thinking_s": o.thinking_s,
                    "i18n": {lang: {"title": o.titles.get(lang, o.title),
                                    "description": o.descriptions.get(lang, o.description)}
                             for lang in sorted(set(o.titles) | set(o.descriptions))}})
    return out


def available_systems() -> list[JSONDict]:
    """Systems that are registered (importing them on first use), for the lobby."""
    out: list[JSONDict] = []
    for declared in registry.all_systems():
        name = declared.name
        try:
            get_system(name)
        except (UnknownSystemError, ImportError):
            continue
        offer = declared.menu()
        out.append({"name": name, "title": declared.title, "scenarios": list(offer.scenarios),
                    "listed": declared.listed, "seats": dict(declared.seats),
                    "counters": declared.counters,
                    "colours": dict(declared.colours),
                    "opponents": opponents_json(declared),
                    "scenario_titles": offer.scenarios,
                    "options": [{"name": k, "rule": v} for k, v in offer.options.items()],
                    "scenario_options": offer.scenario_options, "ticked": offer.ticked,
                    "option_hint": offer.option_hint, "map": map_json(name) is not None,
                    # The first-game tutorial the lobby offers (core/system.py), or null.
                    "tutorial": declared.tutorial() if declared.tutorial else None})
    return out


_PLAIN_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")


def scenario_problem(system: str, scenario: str) -> str | None:
    """Why a remote client may not name ``scenario`` (``None`` if it may).

    The protocol also takes a file path as the scenario (handy on the command line); from
    the network that would make the server open any file it can read (and describe it in
    the error), so the server accepts only the scenarios a system lists, or a plain name
    (no path) for a system without a list."""
    listed = registry.find(system)
    if listed is not None:
        names = list(listed.menu().scenarios)
        if scenario in names:
            return None
        # The tutorial's scenario is offered by "Learn to play", not in the menu.
        if listed.tutorial is not None and scenario == listed.tutorial().get("scenario"):
            return None
        return f"no scenario {scenario!r} for {system}; have {names}"
    if _PLAIN_NAME.fullmatch(scenario) and ".." not in scenario:
        return None
    return f"scenario {scenario!r} must be a plain name, not a path"


@lru_cache(maxsize=256)  # bounded: the arguments come from the network
def seats_of(system: str, scenario: str, options: tuple[str, ...]) -> list[str]:
    """The seats of a set-up, found by building it (through the protocol)."""
    problem = scenario_problem(system, scenario)
    if problem is not None:
        raise ValueError(problem)
    return setup_seats(f"{system}/{scenario}", options)


def options_problem(system: str, scenario: str, options: Sequence[str]) -> str | None:
    """Why a new game of ``scenario`` may not take ``options`` (``None`` if it may):
    :meth:`ScenarioMenu.options_problem` of the system's menu."""
    declared = registry.find(system)
    return None if declared is None else declared.menu().options_problem(scenario, options)


def blames_options(system: str, scenario: str, options: Sequence[str]) -> bool:
    """Whether a set-up that failed did so for its options: it names some, and the same
    scenario sets up without them. An error then names the field the player got wrong."""
    if not options:
        return False
    try:
        seats_of(system, scenario, ())
    except Exception:
        return False
    return True


def words(lang: str) -> dict[str, str]:
    """Every registered system's words for the client in ``lang``: each seat's title
    (``seat.<id>``, from the declaration's ``seats`` where the system gives no word in
    that language) and the system's own words. Where two systems use one key, the first in
    the registry's order wins."""
    out: dict[str, str] = {}
    for declared in reversed(registry.all_systems()):
        mine = {f"seat.{seat}": title for seat, title in declared.seats.items()}
        if declared.words is not None:
            mine.update(declared.words(lang))
        out.update(mine)
    return out
