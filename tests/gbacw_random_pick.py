"""Random play with hypothesis on a GBACW position, shared by the engine's property tests:
a seat's next action drawn from its legal list with some kinds of action made likelier, and
the replay check that closes each game."""

from __future__ import annotations

from collections.abc import Mapping

from hypothesis import strategies as st

from gettysburg.core.protocol import Action
from gettysburg.gbacw.game import GbacwGame


def pick(g: GbacwGame, data: st.DataObject, weights: Mapping[str, int]) -> tuple[str, Action]:
    """The seat to move and one of its legal actions: first a kind, each kind counted
    ``weights.get(kind, 1)`` times (all kinds alike if every weight is 0), then an action
    of that kind."""
    seat = g.to_move()[0]
    legal = g.legal_actions(seat)
    assert legal, "a seat to move always has an action"
    kinds = sorted({a["type"] for a in legal})
    weighted = [k for k in kinds for _ in range(weights.get(k, 1))] or kinds
    kind = weighted[data.draw(st.integers(0, len(weighted) - 1))]
    choices = [a for a in legal if a["type"] == kind]
    return seat, choices[data.draw(st.integers(0, len(choices) - 1))]


def assert_replays(g: GbacwGame, scenario: str, seed: int) -> None:
    """The game's recorded actions, played again on a new game of the same scenario and
    seed, reach the same state hash (the same dice give the same results)."""
    again = GbacwGame(scenario, seed=seed)
    for mv in g.history:
        again.apply(mv.action, mv.seat)
    assert again.state_hash() == g.state_hash()
