"""Session 48: a unit's copy (``copy.copy``, pickles, deep copies, savepoints,
``resample.copy_state``) is built without the write hook (``state.unit_from_values``):
the same unit as ``UnitState(*values)``, and writes to the copy are still noted."""

from __future__ import annotations

import copy
import pickle

from gettysburg.boc import resample
from gettysburg.boc.game import BocGame
from gettysburg.boc.state import _VALUES, UnitState, copy_units, unit_from_values
from gettysburg.boc.unit_edits import Watcher
from gettysburg.core.protocol import new_game


def _battle() -> BocGame:
    game = new_game("boc/battle", seed=1)
    assert isinstance(game, BocGame)
    return game


def test_a_unit_from_its_values_is_the_unit() -> None:
    units = _battle().state.units
    twins = copy_units(units)
    assert list(twins) == list(units) and twins == units
    assert all(twins[k] is not u for k, u in units.items())
    for u in units.values():
        values = _VALUES(u)
        for twin in (unit_from_values(values), copy.copy(u), copy.deepcopy(u),
                     pickle.loads(pickle.dumps(u))):
            assert type(twin) is UnitState and twin is not u
            assert twin == UnitState(*values) and _VALUES(twin) == values


def test_writes_to_copies_are_noted() -> None:
    game = _battle()
    twin = resample.copy_state(game.state)
    back = game.state.savepoint()()
    watcher = Watcher()
    assert watcher.edited() is None  # the first call: look at everything
    for st in (twin, back):
        u = st.units[sorted(st.units)[0]]
        assert u is not game.state.units[u.id]
        u.strength += 1
        assert u in (watcher.edited() or [])
    assert twin.to_json() != game.state.to_json()
    twin.units[sorted(twin.units)[0]].strength -= 1
    assert twin.to_json() == game.state.to_json()
