"""The GBACW declaration (:class:`~gettysburg.core.system.RuleSystem`), in the registry
(``gettysburg/systems.py``) but not listed in the lobby until combat is built (issue 53):
``game new gbacw/<scenario>`` plays it from the CLI; the ``map`` and ``inspect`` commands
reach the map sheets through the hooks below."""

from __future__ import annotations

from gettysburg.core.system import MapHooks, RuleSystem, ScenarioMenu
from gettysburg.gbacw import map_hooks


def _menu() -> ScenarioMenu:
    from gettysburg.gbacw.game import OPTIONS
    from gettysburg.gbacw.scenario import scenario_ids

    return ScenarioMenu({name: name for name in scenario_ids()}, options=dict(OPTIONS))


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
