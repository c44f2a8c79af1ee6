"""Mundo Machango (seed 003): a campaign of divisions on a graph of positions, with its
battles fought at nightfall on a BattleCry-style hex board inside the same game
(:mod:`gettysburg.machango.battle_turns`)."""

from __future__ import annotations

from gettysburg.core.protocol import register_system
from gettysburg.machango.game import MachangoGame

register_system("machango", MachangoGame)
