"""Mundo Machango (seed 003): a campaign of divisions on a graph of positions, with its
battles fought at nightfall behind one interface (:mod:`gettysburg.machango.battle`)."""

from __future__ import annotations

from gettysburg.core.protocol import register_system
from gettysburg.machango.game import MachangoGame

register_system("machango", MachangoGame)
