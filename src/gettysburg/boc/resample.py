"""Re-deal the hidden enemy identities of a position: one more world in the same
information set (for OpenSpiel's IS-MCTS and the adapters' own checks).

The seat's view decides what may change. Behind every hidden enemy block (3.0) and every
enemy unit the seat cannot place (due reinforcements, units off the map, 6.7 / 2.4) the
seat sees no identity, so those identities are permuted among themselves:

1. :func:`gettysburg.boc.ai.belief.sample_hidden` (the one sampler of hidden identities)
   proposes a unit for each hidden block from the seat's view and, when given, its
   ``Sightings`` (what it saw earlier: a block seen standing up again is one of the units
   that stood there, units seen lost are gone);
2. the proposal is completed into a permutation ``sigma`` of that pool of identities, so
   every unit is still somewhere exactly once;
3. each block *record* (where it stands, its status, step losses, formation, flags) keeps
   its place and is given the new identity; identity-bound data (arrival schedule, 6.7)
   follow the identity, strength is clamped to the new unit's printed maximum, and every
   other reference (fire ledger, melee state) is renamed with ``sigma``.

Units with a role tied to their identity (acting corps commanders, fallen leaders, HQs with
supply points, the cavalry battles) are left out of the pool. Because only hidden
identities move, the seat's view (without handles), legal actions and observation are
unchanged; ``tests/test_interop_openspiel.py`` checks that.
"""

from __future__ import annotations

import copy
import random
import weakref
from dataclasses import fields
from typing import TYPE_CHECKING, Any

from gettysburg.boc.fog import unit_handle
from gettysburg.boc.game import BocGame
from gettysburg.boc.state import OFF_MAP, ON_MAP, RESERVE, BocState, copy_units, other
from gettysburg.core.canonical import JSONDict
from gettysburg.core.dice import Dice, KeyedDice, ScriptedDice
from gettysburg.core.protocol import Seat

if TYPE_CHECKING:
    from gettysburg.boc.ai.belief import Sightings

_IDENTITY_FIELDS = ("arrival_key", "arrival_entry", "arrival_hex", "night_road", "returned")


def pool(game: BocGame, seat: Seat) -> list[str]:
    """Enemy unit ids whose whereabouts ``seat`` cannot tell apart."""
    st = game.state
    enemy = other(seat)
    tied = set(st.acting) | set(st.acting.values()) | set(st.fallen) | set(st.rebuild) \
        | set(st.supply_points) | _ids_in(st.cavalry)
    out = []
    for uid in sorted(st.units):
        u = st.units[uid]
        if u.side != enemy or uid in tied:
            continue
        hidden_on_map = u.status == ON_MAP and not u.revealed
        due = u.status == RESERVE and u.arrival_key is not None and u.arrival_key <= st.now
        if hidden_on_map or due or u.status == OFF_MAP:
            out.append(uid)
    return out


def _ids_in(data: Any) -> set[str]:
    found: set[str] = set()
    if isinstance(data, dict):
        for k, v in data.items():
            found.add(str(k))
            found |= _ids_in(v)
    elif isinstance(data, list):
        for v in data:
            found |= _ids_in(v)
    elif isinstance(data, str):
        found.add(data)
    return found


def _rename(data: Any, sigma: dict[str, str]) -> Any:
    if isinstance(data, dict):
        return {sigma.get(k, k) if isinstance(k, str) else k: _rename(v, sigma)
                for k, v in data.items()}
    if isinstance(data, list):
        return [_rename(v, sigma) for v in data]
    if isinstance(data, str):
        return sigma.get(data, data)
    return data


# IS-MCTS re-deals the same root position many times: its view is built once.
_VIEWS: weakref.WeakKeyDictionary[BocGame, tuple[tuple[int, int, str], JSONDict]] = \
    weakref.WeakKeyDictionary()


def _view(game: BocGame, seat: Seat) -> JSONDict:
    key = (len(game.history), game.dice.counter, seat)
    hit = _VIEWS.get(game)
    if hit is None or hit[0] != key:
        view = game.view(seat)
        view.pop("legal_actions", None)
        hit = _VIEWS[game] = (key, view)
    return hit[1]


def permutation(game: BocGame, seat: Seat, rng: random.Random,
                start: JSONDict | None = None, seen: Sightings | None = None
                ) -> dict[str, str]:
    """``sigma``: old identity -> new identity, a permutation of :func:`pool`. With
    ``seen`` (the seat's sightings, updated with its view of this position) the proposal
    also agrees with what the seat saw earlier in the game."""
    from gettysburg.boc.ai.belief import sample_hidden

    ids = pool(game, seat)
    if len(ids) < 2:
        return {}
    members = set(ids)
    view = _view(game, seat)
    by_handle = {unit_handle(game.key, game.state.units[uid]): uid for uid in ids}
    sample = sample_hidden(view, rng, start, seen=seen)
    sigma: dict[str, str] = {}
    used: set[str] = set()
    for h, (new, _strength) in sorted(sample.blocks.items()):
        old = by_handle.get(h)
        if old is not None and new in members and new not in used:
            sigma[old] = new
            used.add(new)
    # Complete to a permutation: the rest of the pool in a random order.
    rest_old = [uid for uid in ids if uid not in sigma]
    rest_new = [uid for uid in ids if uid not in used]
    rng.shuffle(rest_new)
    sigma.update(zip(rest_old, rest_new, strict=True))
    return {k: v for k, v in sigma.items() if k != v}


def resample(game: BocGame, seat: Seat, rng: random.Random,
             start: JSONDict | None = None, seen: Sightings | None = None) -> BocGame:
    """A copy of ``game`` with the hidden enemy identities re-dealt (see the module doc)."""
    sigma = permutation(game, seat, rng, start, seen)
    out = fork(game)
    if not sigma:
        return out
    pos = game.state.to_json()
    units = pos.pop("units")
    new_units = dict(units)
    for old, new in sigma.items():
        rec = dict(units[old])
        for f in _IDENTITY_FIELDS:
            rec.pop(f, None)
            if f in units[new]:
                rec[f] = units[new][f]
        if rec.get("status") in (RESERVE, OFF_MAP) and "arrival_key" not in rec:
            # A waiting record needs a schedule: the new identity's own.
            for f in _IDENTITY_FIELDS:
                if f in units[new]:
                    rec[f] = units[new][f]
        rec["id"] = new
        most = game.orders.oob[new].max_strength
        rec["strength"] = max(0, min(int(rec["strength"]), most))
        new_units[new] = rec
    pos = _rename(pos, sigma)
    pos["units"] = new_units
    out.state = BocState.from_json(pos)
    return out


def fork(game: BocGame) -> BocGame:
    """A fast independent copy that shares the immutable board and order of battle (the
    protocol's ``clone`` rebuilds them from JSON)."""
    twin = BocGame.__new__(BocGame)
    twin.__dict__.update(game.__dict__)
    twin.dice = _copy_dice(game.dice)
    twin.state = copy_state(game.state)
    twin._log = list(game._log)
    twin._history = list(game._history)
    return twin


def _copy_dice(dice: Dice) -> Dice:
    """Copy without re-checking the roll log against the source (``Dice.from_json`` does,
    which costs a hash per roll for seeded dice)."""
    out = copy.copy(dice)
    out._rolls = list(dice._rolls)
    if isinstance(out, ScriptedDice):
        out.values = list(out.values)
    if isinstance(out, KeyedDice):
        out._uses = dict(out._uses)  # its count by purpose, or the twins would share it
    return out


def _plain(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: _plain(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_plain(v) for v in data]
    return data


def copy_state(state: BocState) -> BocState:
    """An independent copy of a state; faster than a JSON round trip because unit records
    hold only immutable values and need a shallow copy each."""
    twin = copy.copy(state)
    for f in fields(BocState):
        if f.name == "units":
            twin.units = copy_units(state.units)
        else:
            setattr(twin, f.name, _plain(getattr(state, f.name)))
    return twin
