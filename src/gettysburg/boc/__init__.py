"""Badges of Courage (Columbia Games): map, order of battle and rules."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from gettysburg.core.dice import Dice
from gettysburg.core.protocol import Game, register_system


def _factory(scenario: str, options: Sequence[str], seed: int | str, dice: Dice | None) -> Game:
    # Imported here so that ``import gettysburg.boc.board`` stays light.
    from gettysburg.boc.game import BocGame

    return BocGame(scenario, options, seed, dice)


def _loader(data: Mapping[str, Any]) -> Game:
    from gettysburg.boc.game import BocGame

    return BocGame.from_json(data)


register_system("boc", _factory, loader=_loader)
