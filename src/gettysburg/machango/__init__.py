"""Mundo Machango (seed 003): a campaign of divisions on a graph of positions, with its
battles fought at nightfall behind one interface (:mod:`gettysburg.machango.battle`)."""
