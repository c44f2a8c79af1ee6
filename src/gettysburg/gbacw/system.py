"""The GBACW declaration (:class:`~gettysburg.core.system.RuleSystem`). Not yet in the
registry (``gettysburg/systems.py``): there is no game to play, only the map sheets, which
the ``map`` and ``inspect`` commands reach through the hooks below."""

from __future__ import annotations

from gettysburg.core.system import MapHooks, RuleSystem, ScenarioMenu
from gettysburg.gbacw import map_hooks


def _menu() -> ScenarioMenu:
    return ScenarioMenu(scenarios={})


SYSTEM = RuleSystem(
    name="gbacw",
    title="Great Battles of the American Civil War: Three Days of Gettysburg",
    seats={"usa": "Union", "csa": "Confederate"},
    menu=_menu,
    map_json=map_hooks.map_json,
    listed=False,
    maps=MapHooks(build=map_hooks.build, render=map_hooks.render,
                  inspect_hex=map_hooks.inspect_hex, inspect_los=map_hooks.inspect_los),
)
