"""The toy system's declaration (:mod:`gettysburg.core.system`): hidden from the lobby,
served by every other layer so the tests can drive each of them with a game that plays
in milliseconds."""

from __future__ import annotations

from gettysburg.core.canonical import JSONDict
from gettysburg.core.doctrine import Doctrine
from gettysburg.core.protocol import ResearchHooks
from gettysburg.core.system import AIHooks, Opponent, RuleSystem, ScenarioMenu
from gettysburg.toy.game import SCENARIOS


def _menu() -> ScenarioMenu:
    return ScenarioMenu({name: name for name in SCENARIOS}, option_hint="turns=6")


def _doctrine() -> Doctrine:
    from gettysburg.toy.doctrine import ToyDoctrine

    return ToyDoctrine()


def _research() -> ResearchHooks:
    from gettysburg.toy.research import hooks

    return hooks()


def _map() -> JSONDict:
    """A tiny graph map (three positions), so the web client's drawing of a graph is tested
    with a game that plays in milliseconds; the toy's blocks stand on no position."""
    return {"system": "toy", "topology": "graph",
            "positions": [{"id": "hill", "name": "Hill", "xy": [0.0, 800.0], "victory": 1},
                          {"id": "ford", "name": "Ford", "xy": [-700.0, 0.0]},
                          {"id": "village", "name": "Village", "xy": [650.0, -50.0]}],
            "links": [{"a": "hill", "b": "ford", "kind": "trail"},
                      {"a": "hill", "b": "village", "kind": "road"},
                      {"a": "ford", "b": "village", "kind": "stream"}]}


def _opponents() -> tuple[Opponent, ...]:
    return (
        Opponent("random", "random", {"en": "Random"},
                 {"en": "Plays any legal action, drawn at random."}),
        Opponent("general", "general", {"en": "General"},
                 {"en": "Attacks with its strongest block and takes hits on it."}),
    )


SYSTEM = RuleSystem(
    name="toy",
    title="Toy game",
    seats={"red": "Red", "blue": "Blue"},
    menu=_menu,
    counters="markers",
    map_json=_map,
    colours={"red": "#a4322b", "blue": "#3d5a8c"},
    ai=AIHooks(doctrine=_doctrine, opponents=_opponents),
    research=_research,
    listed=False,
)
