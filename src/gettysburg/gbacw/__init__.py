"""Great Battles of the American Civil War with Three Days of Gettysburg (GMT): the rule system's
package: the charts as validated data (``gbacw.charts``), the board, the OOB, the scenarios
and the game (``gbacw.game``), registered here lazily so that importing a data module does
not load the engine."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gettysburg.core.dice import Dice
from gettysburg.core.protocol import Game, register_system


def _new(scenario: str, options: Sequence[str], seed: int | str, dice: Dice | None) -> Game:
    from gettysburg.gbacw.game import GbacwGame

    return GbacwGame(scenario, options, seed, dice)


def _load(data: Mapping[str, Any]) -> Game:
    from gettysburg.gbacw.game import GbacwGame

    return GbacwGame.from_json(data)


register_system("gbacw", _new, loader=_load)
