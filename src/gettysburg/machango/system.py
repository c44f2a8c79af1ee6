"""Mundo Machango's declaration (:mod:`gettysburg.core.system`). Not yet in the registry
(``gettysburg/systems.py``): registering it there is one line once the lead decides."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gettysburg.core.canonical import JSONDict
from gettysburg.core.doctrine import Doctrine
from gettysburg.core.protocol import ResearchHooks
from gettysburg.core.system import (
    AIHooks,
    MapBuild,
    MapHooks,
    Opponent,
    RuleSystem,
    ScenarioMenu,
    load_opponents,
    words_file,
)
from gettysburg.machango.paths import DATA


def _menu() -> ScenarioMenu:
    from gettysburg.machango.game import OPTIONS, scenario_names

    return ScenarioMenu({name: name for name in scenario_names()}, options=dict(OPTIONS))


def _map() -> JSONDict:
    from gettysburg.core.battlefield import load_battlefield
    from gettysburg.core.mapjson import graph_map_json, ground_layer
    from gettysburg.machango.board import load_board

    b = load_board()
    return graph_map_json(b.graph, {"system": "machango", "stars": list(b.stars),
                                    "ground": ground_layer(load_battlefield(),
                                                           b.graph.projection)})


def _build() -> MapBuild:
    from gettysburg.machango.mapgen import board_text, derive_board
    board = derive_board()
    return MapBuild(board_text(board), DATA / "board.json",
                    f"{len(board['positions'])} positions, {len(board['links'])} links")


def _render(out: Path, ids: bool, sheet: str | None) -> Path:
    if sheet is not None:
        raise ValueError("the machango board has no sheets")
    from gettysburg.core.maprender import render_map

    return render_map(_map(), out, ids=ids, title="Mundo Machango: the strategic board")


def scenario_doc(scenario: str) -> JSONDict:
    """The set-up of a scenario: each side's cards and divisions with their lines and
    capacities, the stars and the arrivals (``gettysburg scenario show machango/...``)."""
    from gettysburg.machango.forces import SIDES
    from gettysburg.machango.game import MachangoGame

    game = MachangoGame(scenario)
    b, f = game.board, game.forces
    sides: dict[str, Any] = {}
    for side in SIDES:
        sides[side] = {
            "cards": game.cards[side],
            "divisions": [{"id": did, "name": f.divisions[did].name,
                           "line": b.name(str(game.divisions[did]["at"])),
                           "capacity": f.capacity_of(did)}
                          for did in game.on_board(side)]}
    return {"id": f"machango/{scenario}", "day": game.day, "hour": game.hour,
            "stars": [b.name(s) for s in game.stars], **sides,
            "arrivals": [{"day": a["day"], "hour": a["hour"], "entry": b.name(a["entry"]),
                          "division": f.divisions[a["division"]].name,
                          "side": f.divisions[a["division"]].side} for a in game.arrivals]}


def scenario_text(doc: JSONDict) -> str:
    lines = [f"{doc['id']}: day {doc['day']} {doc['hour']}:00; blue stars: "
             f"{', '.join(doc['stars'])}", ""]
    for side in ("usa", "csa"):
        lines.append(f"{side.upper()}: {doc[side]['cards']} command cards")
        lines += [f"  {d['line']:<20} {d['name']} (capacity {d['capacity']})"
                  for d in doc[side]["divisions"]]
    lines += ["", "Arrivals:"]
    lines += [f"  day {a['day']} {a['hour']:>2}:00  {a['side']}  {a['entry']:<18} {a['division']}"
              for a in doc["arrivals"]]
    return "\n".join(lines)


def _doctrine() -> Doctrine:
    from gettysburg.machango.doctrine import MachangoDoctrine

    return MachangoDoctrine()


def _opponents() -> tuple[Opponent, ...]:
    return load_opponents(DATA / "opponents.yaml")


def _research() -> ResearchHooks:
    from gettysburg.machango.research import hooks

    return hooks()


SYSTEM = RuleSystem(
    name="machango",
    title="Mundo Machango",
    seats={"usa": "Union", "csa": "Confederacy"},
    menu=_menu,
    counters="divisions",
    map_json=_map,
    ai=AIHooks(doctrine=_doctrine, opponents=_opponents),
    scenario_doc=scenario_doc,
    scenario_text=scenario_text,
    maps=MapHooks(build=_build, render=_render),
    words=words_file(DATA / "words.json"),  # the client's words: seats, actions, phases, cards
    research=_research,
)
