"""The toy system's declaration (:mod:`gettysburg.core.system`): hidden from the lobby,
served by every other layer so the tests can drive each of them with a game that plays
in milliseconds."""

from __future__ import annotations

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
    ai=AIHooks(doctrine=_doctrine, opponents=_opponents),
    research=_research,
    listed=False,
)
