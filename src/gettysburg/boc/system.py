"""Badges of Courage's declaration (:mod:`gettysburg.core.system`): everything the lobby,
the server, the lab, the CLI, the AI and the research adapters need of it."""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources
from pathlib import Path

import yaml

from gettysburg.boc import lab_hooks, show  # views and data only, never the rules
from gettysburg.core.canonical import JSONDict
from gettysburg.core.doctrine import Doctrine, Memory
from gettysburg.core.protocol import Game, ResearchHooks
from gettysburg.core.search_hooks import SystemHooks
from gettysburg.core.system import (
    AIHooks,
    MapBuild,
    MapHooks,
    Opponent,
    RuleSystem,
    ScenarioMenu,
    words_file,
)


def _map() -> JSONDict:
    from gettysburg.boc.board import BOC, load_board  # map data only, never the rules
    from gettysburg.core.mapjson import hex_map_json

    return hex_map_json(load_board().to_json(), BOC)


# The map and inspect commands' hooks: each imports BoC's map modules only when called.


def _build() -> MapBuild:
    from gettysburg.boc import map_hooks

    return map_hooks.build()


def _render(out: Path, ids: bool, sheet: str | None) -> Path:
    from gettysburg.boc import map_hooks

    return map_hooks.render(out, ids, sheet)


def _inspect_hex(hex_id: str) -> JSONDict:
    from gettysburg.boc import map_hooks

    return map_hooks.inspect_hex(hex_id)


def _inspect_cone(origin: str, through: str) -> JSONDict:
    from gettysburg.boc import map_hooks

    return map_hooks.inspect_cone(origin, through)


def _inspect_los(origin: str, target: str, through: str | None) -> JSONDict:
    from gettysburg.boc import map_hooks

    return map_hooks.inspect_los(origin, target, through)


def _explain(game: Game, seat: str, unit: str, place: str) -> JSONDict | None:
    from gettysburg.boc.explain import explain  # asks the rules, imported when asked

    return explain(game, seat, unit, place)


def _tutorial() -> JSONDict:
    from gettysburg.boc.tutorial import tutorial  # data only

    return tutorial()


def _preview(game: Game, seat: str, unit: str) -> JSONDict | None:
    from gettysburg.boc.explain import preview  # asks the rules, imported when asked

    return preview(game, seat, unit)


@lru_cache(maxsize=1)
def _menu() -> ScenarioMenu:
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
        if raw.get("rule") == "tutorial":
            continue  # the tutorial's own scenario: offered by "Learn to play" instead
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
    return ScenarioMenu(titles, dict(OPTION_RULES),
                        scenario_options={n: takes[n] for n in titles if takes.get(n)},
                        aliases=dict(OPTION_ALIASES), ticked=list(TICKED_OPTIONS),
                        options_rule="9.0")


@lru_cache(maxsize=1)
def _roster() -> dict[str, str]:
    from gettysburg.boc.oob import default_oob  # printed names only, never the rules

    return {uid: u.name for uid, u in default_oob().units.items()}


def _is_handle(text: str) -> bool:
    from gettysburg.boc.fog import is_handle  # the handle's shape only, never the key

    return is_handle(text)


def _research() -> ResearchHooks:
    from gettysburg.boc.research import hooks

    return hooks()


def _doctrine() -> Doctrine:
    from gettysburg.boc.ai.doctrine import BocDoctrine

    return BocDoctrine()


def _memory() -> Memory:
    from gettysburg.boc.ai.belief import BocMemory

    return BocMemory()


def _search(memory: Memory | None) -> SystemHooks:
    from gettysburg.boc.ai.search_hooks import hooks

    return hooks(memory)


def _doctrines() -> dict[str, Doctrine]:
    from gettysburg.boc.ai.tuned import tuned_doctrine

    return {"tuned": tuned_doctrine()}


def _opponents() -> tuple[Opponent, ...]:
    from gettysburg.boc.ai.opponents import opponents

    return opponents()


SYSTEM = RuleSystem(
    name="boc",
    title="Badges of Courage",
    seats={"usa": "Union", "csa": "Confederacy"},
    menu=_menu,
    counters="blocks",
    map_json=_map,
    maps=MapHooks(build=_build, render=_render, inspect_hex=_inspect_hex,
                  inspect_cone=_inspect_cone, inspect_los=_inspect_los),
    roster=_roster,
    is_handle=_is_handle,
    research=_research,
    ai=AIHooks(doctrine=_doctrine, memory=_memory, search=_search, opponents=_opponents,
                doctrines=_doctrines),
    capabilities=frozenset({"undo", "research", "search"}),
    lab=lab_hooks.HOOKS,
    view_text=show.view_text,
    view_picture=show.view_picture,
    explain=_explain,
    preview=_preview,
    card=show.card,
    scenario_doc=show.scenario_doc,
    scenario_text=show.scenario_text,
    colours={"usa": "#3d5a8c", "csa": "#8b8c84"},
    # The client's words for BoC: seat titles, events, actions, options, phases, unit
    # types, scenario titles and the fields that name a side.
    words=words_file(Path(str(resources.files("gettysburg") / "boc" / "data"))
                     / "words.json"),
    tutorial=_tutorial,
)
