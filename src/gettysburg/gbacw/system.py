"""The GBACW declaration (:class:`~gettysburg.core.system.RuleSystem`), in the registry
(``gettysburg/systems.py``) and listed in the lobby (issue 54: its browser tests, the lobby's
among them, pass): ``game new gbacw/<scenario>`` plays it from the CLI; the ``map`` and
``inspect`` commands reach the map sheets through the hooks below."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gettysburg.core.canonical import JSONDict
from gettysburg.core.doctrine import Doctrine, Memory
from gettysburg.core.protocol import Game, ResearchHooks
from gettysburg.core.system import (
    AIHooks,
    MapHooks,
    Opponent,
    RuleSystem,
    ScenarioMenu,
    words_file,
)
from gettysburg.gbacw import lab_hooks, map_hooks  # views and data only, never the rules


def _menu() -> ScenarioMenu:
    from gettysburg.gbacw.game import OPTIONS
    from gettysburg.gbacw.scenario import scenario_titles

    return ScenarioMenu(scenario_titles(), options=dict(OPTIONS))


def _scenario_doc(scenario: str) -> dict[str, Any]:
    """``gettysburg scenario show gbacw/<id>``: set-up, schedule, rules and victory."""
    from gettysburg.gbacw.scenario_show import scenario_doc

    return scenario_doc(scenario)


def _scenario_text(doc: dict[str, Any]) -> str:
    from gettysburg.gbacw.scenario_show import scenario_text

    return scenario_text(doc)


def _explain(game: Game, seat: str, piece: str, place: str) -> JSONDict | None:
    from gettysburg.gbacw.explain import explain  # asks the engine, imported when asked

    return explain(game, seat, piece, place)


def _preview(game: Game, seat: str, unit: str) -> JSONDict | None:
    from gettysburg.gbacw.preview import preview  # the charts' odds, imported when asked

    return preview(game, seat, unit)


def _research() -> ResearchHooks:
    from gettysburg.gbacw.research import hooks  # the OpenSpiel/PettingZoo codec, on first use

    return hooks()


def _doctrine() -> Doctrine:
    from gettysburg.gbacw.ai.doctrine import GbacwDoctrine

    return GbacwDoctrine()


def _memory() -> Memory:
    from gettysburg.gbacw.ai.memory import GbacwMemory

    return GbacwMemory()


def _opponents() -> tuple[Opponent, ...]:
    # easiest first: the random player, then the general (gbacw/ai/doctrine.py, issue 54)
    return (
        Opponent("random", "random",
                 {"en": "Random", "es": "Al azar", "de": "Zufall", "it": "Casuale"},
                 {"en": "Plays any legal action, drawn at random.",
                  "es": "Juega cualquier acción legal, elegida al azar.",
                  "de": "Spielt irgendeinen erlaubten Zug, zufällig gezogen.",
                  "it": "Gioca una mossa legale qualsiasi, estratta a caso."}),
        Opponent("general", "general",
                 {"en": "General", "es": "General", "de": "General", "it": "Generale"},
                 {"en": "Marches on the scenario's objectives or holds them, fires whenever "
                        "the charts offer a shot, rallies and keeps its leaders with their men.",
                  "es": "Marcha sobre los objetivos del escenario o los defiende, dispara "
                        "siempre que puede, reagrupa y mantiene a sus jefes con sus tropas.",
                  "de": "Marschiert auf die Ziele des Szenarios oder hält sie, feuert, wo "
                        "immer es geht, sammelt und hält seine Führer bei ihren Truppen.",
                  "it": "Marcia sugli obiettivi dello scenario o li difende, fa fuoco "
                        "appena può, riordina e tiene i comandanti con le loro truppe."}),
    )


_ENGINE_WORDS = words_file(Path(__file__).parent / "data" / "words.json")
_CLIENT_WORDS = words_file(Path(__file__).parent / "data" / "client_words.json")


def _words(lang: str) -> dict[str, str]:
    """The engine's words (actions, phases, seats) as every system gives them, and again
    with the web client's (the log's sentences, the phase bar's labels, the orders on a
    counter) under ``gbacw:<key>``: one catalogue serves every system, and the client reads
    a system's own words first on its game's pages (so BoC's sentence for ``activate``
    never says GBACW's event, nor GBACW's labels BoC's)."""
    own = {**_ENGINE_WORDS(lang), **_CLIENT_WORDS(lang)}
    return {**_ENGINE_WORDS(lang), **{f"gbacw:{k}": v for k, v in own.items()}}


SYSTEM = RuleSystem(
    name="gbacw",
    title="Great Battles of the American Civil War: Three Days of Gettysburg",
    seats={"usa": "Union", "csa": "Confederacy"},  # the titles the other systems give these seats
    # faced counters on the sheets (the client's "counters": facing pointer, markers, stacks)
    counters="counters",
    colours={"usa": "#2f4f8a", "csa": "#7d7f78"},
    ai=AIHooks(doctrine=_doctrine, memory=_memory, opponents=_opponents),
    words=_words,  # seats and markers; the client's sentences, view labels, orders
    menu=_menu,
    map_json=map_hooks.map_json,
    listed=True,  # offered in the lobby (tests/browser/test_gbacw_lobby.py)
    scenario_doc=_scenario_doc,
    explain=_explain,
    preview=_preview,  # a unit's fire and shock odds before sending (gbacw/preview.py)
    scenario_text=_scenario_text,
    research=_research,  # the adapters (gbacw/research.py, docs/research.md)
    lab=lab_hooks.HOOKS,  # simulate/report: the turn, the victory margin, losses by brigade
    maps=MapHooks(build=map_hooks.build, render=map_hooks.render,
                  inspect_hex=map_hooks.inspect_hex, inspect_los=map_hooks.inspect_los),
)
