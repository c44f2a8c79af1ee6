"""What the lobby and the map need to know about each rule system, beyond the protocol.

``maps`` gives the drawing data of a system's board (the only system-specific input the
client gets besides the game's own view); ``offers`` gives the lobby's menus: the
system's title, its scenarios with their titles, and its options with their rules.
Both are plain registries so later systems plug in with one line each.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

import yaml

from gettysburg.core.canonical import JSONDict
from gettysburg.core.hexes import Hexside, Layout
from gettysburg.core.hexids import BOC
from gettysburg.core.protocol import UnknownSystemError, get_system, setup_seats


def _boc_map() -> JSONDict:
    from gettysburg.boc.board import load_board  # map data only, never the rules

    return with_geometry(load_board().to_json())


def with_geometry(doc: dict[str, Any]) -> JSONDict:
    """Add plane coordinates (metres, north = +y) so the client needs no hex codec:
    each hex's centre ``xy``, the six corner offsets in ``layout.corners``, and each
    hexside's end points ``seg``."""
    lay = doc["layout"]
    layout = Layout(basis_q=(float(lay["basis_q"][0]), float(lay["basis_q"][1])),
                    basis_r=(float(lay["basis_r"][0]), float(lay["basis_r"][1])),
                    origin=(float(lay["origin"][0]), float(lay["origin"][1])))
    zero = BOC.parse(doc["hexes"][0]["id"]) if doc["hexes"] else None
    out = dict(doc)
    hexes = []
    for row in doc["hexes"]:
        x, y = layout.to_plane(BOC.parse(row["id"]))
        hexes.append({**row, "xy": [round(x, 2), round(y, 2)]})
    out["hexes"] = hexes
    if zero is not None:
        cx, cy = layout.to_plane(zero)
        out["layout"] = {**lay, "corners": [[round(x - cx, 2), round(y - cy, 2)]
                                            for x, y in layout.corners(zero)]}
    sides = []
    for row in doc.get("hexsides", []):
        try:
            (x1, y1), (x2, y2) = layout.hexside_segment(
                Hexside.between(BOC.parse(row["a"]), BOC.parse(row["b"])))
        except ValueError:
            continue
        sides.append({**row, "seg": [[round(x1, 2), round(y1, 2)], [round(x2, 2), round(y2, 2)]]})
    out["hexsides"] = sides
    return out


#: system name -> builder of its map JSON (see docs/server.md).
maps: dict[str, Callable[[], JSONDict]] = {"boc": _boc_map}


@dataclass(frozen=True)
class Offer:
    """What the lobby offers for one system: its title, its scenarios (name -> title, in
    menu order), its options (name -> rule section), which of them each scenario takes
    (absent: all of them) and, for a system whose options are free text, a hint of their
    form."""

    title: str
    scenarios: dict[str, str]
    options: dict[str, str] = field(default_factory=dict)
    option_hint: str = ""
    scenario_options: dict[str, list[str]] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)  # other spellings -> menu names
    ticked: list[str] = field(default_factory=list)  # options a new game starts with ticked


def _boc_offer() -> Offer:
    from gettysburg.boc.game import (  # names only, no rules
        ENGINE_OPTIONS,
        OPTION_ALIASES,
        OPTION_RULES,
        TICKED_OPTIONS,
    )

    folder = resources.files("gettysburg") / "boc" / "data" / "scenarios"
    found: list[tuple[tuple[int, ...], str, str]] = []
    takes: dict[str, list[str]] = {}
    try:
        files = [p for p in folder.iterdir() if p.name.endswith(".yaml")]
    except OSError:
        files = []
    for path in files:
        name = path.name.removesuffix(".yaml")
        try:
            raw = yaml.safe_load(path.read_text("utf-8"))
        except (OSError, yaml.YAMLError):  # a broken file is reported when it is played
            raw = None
        raw = raw if isinstance(raw, dict) else {}
        # The rulebook's order (9.2 Day 1 ... 9.5 the battle); unnumbered files last.
        rule = tuple(int(n) for n in re.findall(r"\d+", str(raw.get("rule", "")))) or (99,)
        found.append((rule, name, str(raw.get("title") or name)))
        # The options its sheet lists (9.0) that the engine plays, by the menu's names
        # (docs/rules-coverage.md: buford_withdrawal is listed but not played).
        listed = raw.get("options")
        listed = listed if isinstance(listed, list) else []
        named = {OPTION_ALIASES.get(str(o.get("name"))) for o in listed if isinstance(o, dict)}
        takes[name] = sorted({n for n in named if n in OPTION_RULES} | set(ENGINE_OPTIONS))
    titles = {name: title for _, name, title in sorted(found)}
    return Offer("Badges of Courage", titles, dict(OPTION_RULES),
                 scenario_options={n: takes[n] for n in titles if takes.get(n)},
                 aliases=dict(OPTION_ALIASES), ticked=list(TICKED_OPTIONS))


#: system name -> what its lobby offers. The lobby lists the systems in this order and
#: preselects the first scenario.
offers: dict[str, Callable[[], Offer]] = {
    "boc": lru_cache(maxsize=1)(_boc_offer),
    "toy": lambda: Offer("Toy game", {"standard": "standard", "strong": "strong"},
                         option_hint="turns=6"),
}


def _boc_names() -> dict[str, str]:
    from gettysburg.boc.oob import default_oob  # printed names only, never the rules

    return {uid: u.name for uid, u in default_oob().units.items()}


#: system name -> every piece's printed name by id (its public order of battle).
rosters: dict[str, Callable[[], dict[str, str]]] = {"boc": lru_cache(maxsize=1)(_boc_names)}


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


def _boc_is_handle(text: str) -> bool:
    from gettysburg.boc.fog import is_handle  # the handle's shape only, never the key

    return is_handle(text)


#: system name -> whether a string is one of its hidden pieces' opaque handles.
handle_tests: dict[str, Callable[[str], bool]] = {"boc": _boc_is_handle}


def annotate_events(system: str, events: list[JSONDict]) -> list[JSONDict]:
    """``events`` with the printed name of each piece their data names by id (``names``):
    the log can then name a block the seat saw once, after it hides again. Only ids the
    event already gives the seat are named, so this sends no id the seat was not told.
    A hidden piece's opaque handle in the data is listed in ``handles``, so the client can
    say "a hidden block" without knowing how a system shapes its handles."""
    builder, is_handle = rosters.get(system), handle_tests.get(system)
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
    builder = maps.get(system)
    if builder is None:
        return None
    try:
        doc = builder()
    except Exception:  # no board file yet, or a broken one: the client draws no map
        return None
    _built[system] = doc
    return doc


def available_systems() -> list[JSONDict]:
    """Systems that are registered (importing them on first use), for the lobby."""
    out: list[JSONDict] = []
    for name in offers:
        try:
            get_system(name)
        except (UnknownSystemError, ImportError):
            continue
        offer = offers[name]()
        out.append({"name": name, "title": offer.title, "scenarios": list(offer.scenarios),
                    "scenario_titles": offer.scenarios,
                    "options": [{"name": k, "rule": v} for k, v in offer.options.items()],
                    "scenario_options": offer.scenario_options, "ticked": offer.ticked,
                    "option_hint": offer.option_hint, "map": map_json(name) is not None})
    return out


_PLAIN_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")


def scenario_problem(system: str, scenario: str) -> str | None:
    """Why a remote client may not name ``scenario`` (``None`` if it may).

    The protocol also takes a file path as the scenario (handy on the command line); from
    the network that would make the server open any file it can read (and describe it in
    the error), so the server accepts only the scenarios a system lists, or a plain name
    (no path) for a system without a list."""
    listed = offers.get(system)
    if listed is not None:
        names = list(listed().scenarios)
        if scenario in names:
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
    """Why a new game of ``scenario`` may not take ``options`` (``None`` if it may).

    Each BoC scenario sheet lists the optional rules it is played with (9.0): Hancock
    (4.6) has no place on Day 2, nor the Longstreet option (9.5) outside the battle. The
    rule system itself accepts such an option and it changes nothing, so that games
    stored or saved before this check still load; every place that starts a new game
    (the lobby and API, `game new`, `simulate`) asks here first."""
    make = offers.get(system)
    if make is None:
        return None
    offer = make()
    listed = offer.scenario_options.get(scenario)
    if not listed:
        return None
    for opt in options:
        if offer.aliases.get(opt, opt) not in listed:
            return (f"option {opt!r} is not offered by scenario {scenario} (rule 9.0: its "
                    f"sheet lists {listed})")
    return None


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
