"""Badges of Courage's hooks for search (:class:`~gettysburg.core.search_hooks.SystemHooks`):
worlds sampled from what the seat has seen (:mod:`gettysburg.boc.ai.belief`), the value of
a world for a seat, the scenario clock, and the doctrine's portfolio of styles. Public
knowledge only: the rules, the order of battle, the scenario and the seat's own view."""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from gettysburg.core.canonical import JSONDict
from gettysburg.core.doctrine import Doctrine, Memory
from gettysburg.core.protocol import REFEREE, Action, Game
from gettysburg.core.search_hooks import SystemHooks, WorldBuilder

if TYPE_CHECKING:
    from gettysburg.boc.ai.belief import Sightings
    from gettysburg.boc.ai.doctrine import BocDoctrine

#: The dice of the sampled worlds: "seeded", or "keyed" (plans compared in one world then
#: share the dice of every shot and melee round they both make, even after they part).
#: Measured in session 13, keyed worlds left the noise of a style comparison about where it
#: was (sd 0.55 against 0.60), so search keeps the dice it was measured with
#: (experiments/HISTORY.md, "Coupled games"; experiments/coupled_dice.py flips this switch).
WORLD_DICE = "seeded"

#: Value of the danger a block at this strength is in (a block eliminated is a full
#: victory point, 9.12): an enemy block worn down is a point half-earned.
RISK = {0: 0.7, 1: 0.5, 2: 0.25, 3: 0.12}
RISK_FULL = 0.06


def world_builder(seen: Sightings | None = None) -> WorldBuilder:
    """Worlds drawn by ``belief``: from what ``seen`` (the agent's ``Sightings``)
    remembers of the enemy's blocks when given, else from the view alone; their dice are
    ``WORLD_DICE``."""
    # A partial of a module function rather than a closure, so an agent pickles (the
    # lab's checkpoints of a game in play).
    return functools.partial(_build_world, seen)


def _build_world(seen: Sightings | None, view: JSONDict, rng: random.Random) -> Game:
    from gettysburg.boc.ai.belief import determinise, sample_hidden, scenario_start

    start = scenario_start(view)
    return determinise(view, sample_hidden(view, rng, start, seen=seen), rng, start,
                       dice=WORLD_DICE)


def hooks(memory: Memory | None) -> SystemHooks:
    """Worlds drawn from what the agent's memory (``BocMemory``, the general's) has seen."""
    from gettysburg.boc.ai.belief import BocMemory

    seen = memory.seen if isinstance(memory, BocMemory) else None
    return SystemHooks(world_builder(seen), value, final_hour, control_gain, near_enemy,
                       portfolio())


def final_hour(view: JSONDict) -> bool:
    """Whether this is the scenario's last turn (its 8 PM turn, or the night turn of
    Days 2 and 3, 9.3): a verdict follows it, and the battle's (9.5) is never the last."""
    from gettysburg.boc.ai.facts import scenario_source
    from gettysburg.boc.ai.scenario_facts import turns_left, verdict_schedule

    campaign, _after_night, _last_day = verdict_schedule(scenario_source(view))
    return not campaign and turns_left(view) == 0


def control_gain(view: JSONDict, actions: Sequence[Action]) -> list[float]:
    """Victory points each move or entry wins in projected control (6.61, 9.1)."""
    doctrine = _general()
    sit = doctrine.situation(view)
    out: list[float] = []
    for a in actions:
        if a.get("type") in ("move", "enter") and a.get("path"):
            here = str(a["path"][0]) if a["type"] == "move" else None
            out.append(sit.control_gain(str(a["path"][-1]), here))
        else:
            out.append(0.0)
    return out


@functools.lru_cache(maxsize=1)
def _general() -> BocDoctrine:
    """The general's own doctrine, made once."""
    from gettysburg.boc.ai.doctrine import BocDoctrine

    return BocDoctrine()


def near_enemy(view: JSONDict, hexes: Sequence[str]) -> int:
    """Hexes from the nearest of ``hexes`` to the nearest enemy block ``view`` shows,
    hidden ones included."""
    from gettysburg.boc.ai.facts import facts_for
    from gettysburg.boc.ai.knowledge import enemy_reach

    seat = view.get("seat")
    enemy = frozenset(str(u["hex"]) for u in [*view.get("units", []), *view.get("hidden", [])]
                      if u.get("side") not in (None, seat) and u.get("hex")
                      and u.get("status", "on_map") == "on_map")
    reach = enemy_reach(facts_for(view), enemy)
    return min((reach.nearest(hx) for hx in hexes), default=99)


def value(world: Game, seat: str) -> float:
    """How good ``world`` is for ``seat``: the CSA total with projected control (9.1),
    signed for the seat, plus the danger every block on the map is in (``RISK``)."""
    from gettysburg.boc.ai.doctrine import projected_total
    from gettysburg.boc.ai.facts import facts_for

    ref = world.view(REFEREE)
    total = float(projected_total(ref, facts_for(ref)))
    out = total if seat == "csa" else -total
    for u in ref.get("units", []):
        if u.get("status") != "on_map":
            continue
        risk = RISK.get(int(u.get("strength", 0)), RISK_FULL)
        out += -risk if u.get("side") == seat else risk
    return out


def portfolio() -> dict[str, dict[str, Doctrine]]:
    """Per seat: the general (its own style for the seat and scenario), then the
    variants of ``doctrine.STYLES``."""
    from gettysburg.boc.ai.doctrine import STYLES, BocDoctrine

    general: Doctrine = BocDoctrine()
    return {seat: {"general": general, **{name: BocDoctrine(style)
                                          for name, style in styles.items()}}
            for seat, styles in STYLES.items()}
