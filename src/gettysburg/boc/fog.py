"""Fog of war: what each seat may see of the blocks and the log (3.0, 6.63, 8.1).

A hidden enemy block shows only its side and hex, under an opaque handle that stays the
same while it is on the map (a DHQ rebuilt under 4.61, or a block back from off the map
(2.4), returns under a new one) but cannot be linked to the unit id without the per-game
fog key: on the server an HMAC key from a secret only the server holds (a seed typed in
the lobby fixes the dice, never the handles); in a save file's game, from the seed, which
both players of a file hold. A revealed enemy block shows its identity and strength
instead, without the handle. Own blocks are shown in full, and the
referee sees everything.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Callable
from dataclasses import fields
from functools import lru_cache
from operator import attrgetter

from gettysburg.boc.oob import Unit
from gettysburg.boc.state import ON_MAP, BocState, UnitState
from gettysburg.core.canonical import JSONDict
from gettysburg.core.protocol import REFEREE, Event

FOG_DOMAIN = b"gettysburg.boc.fog.v1"
HANDLE_SHAPE = re.compile(r"b-[0-9a-f]{12}")  # what handle() makes
#: A block's field values as one tuple: all that ``unit_view`` reads of it (issue 59).
unit_values = attrgetter(*(f.name for f in fields(UnitState)))


def fog_key(seed: str) -> bytes:
    return hashlib.sha256(FOG_DOMAIN + b"\x00" + seed.encode("utf-8")).digest()


def secret_key(secret: bytes) -> bytes:
    """The fog key of a game whose referee holds ``secret`` (the server): nothing a player
    chose or can read, the seed included, gives it."""
    return hmac.new(secret, FOG_DOMAIN, hashlib.sha256).digest()


@lru_cache(maxsize=4096)
def handle(key: bytes, unit_id: str, returned: int = 0) -> str:
    """The opaque name of a hidden block. A DHQ that comes back after its fall (4.61) or a
    block back from off the map (2.4) is put on the map among identical backs, so it gets a
    new name: under the old one, a seat that had followed it could tell which returned where."""
    # Kept (lru_cache): every view names every hidden block, and an HMAC is the dearest
    # part of a view (issue 59).
    name = unit_id if returned == 0 else f"{unit_id}#{returned}"
    return "b-" + hmac.new(key, name.encode("utf-8"), hashlib.sha256).hexdigest()[:12]


def is_handle(text: str) -> bool:
    """Whether ``text`` has a hidden block's handle's shape (the server marks these in the
    log it sends, so the client can say "a hidden block" without knowing BoC)."""
    return HANDLE_SHAPE.fullmatch(text) is not None


def unit_handle(key: bytes, unit: UnitState) -> str:
    return handle(key, unit.id, unit.returned)


def sees(seat: str, unit: UnitState) -> bool:
    """Whether ``seat`` may see this block's identity and strength."""
    return seat in (REFEREE, unit.side) or unit.revealed


def unit_view(unit: UnitState, full: bool) -> JSONDict:
    if full:
        return unit.to_json()
    return {"id": unit.id, "side": unit.side, "hex": unit.hex, "strength": unit.strength,
            "revealed": True, "column": unit.column}


def label_view(printed: Unit) -> JSONDict:
    """What a block's printed label shows (3.1): name, type, combat rating (morale letter
    and firepower), maximum strength and movement allowance. Only for a block the seat
    already sees by id, whose label the public order of battle gives anyway; a hidden
    block's back shows none of it."""
    return {"name": printed.name, "type": printed.type, "rating": printed.rating,
            "max_strength": printed.max_strength, "movement": printed.movement.allowance}


def hidden_view(key: bytes, unit: UnitState) -> JSONDict:
    return {"handle": unit_handle(key, unit), "side": unit.side, "hex": unit.hex,
            "column": unit.column}


def units_view(key: bytes, state: BocState, seat: str,
               show: Callable[[UnitState, bool], JSONDict] = unit_view
               ) -> tuple[list[JSONDict], list[JSONDict]]:
    """(blocks shown by identity, hidden enemy blocks by handle), each sorted; ``show``
    makes a shown block's dict (``unit_view`` or what a caller adds to it). What a seat
    sees of the blocks; the game keeps it per seat (``shared_blocks``), and the tests
    compare that with this."""
    shown: list[JSONDict] = []
    hidden: list[JSONDict] = []
    for uid in sorted(state.units):
        u = state.units[uid]
        own = seat in (REFEREE, u.side)
        if own:
            shown.append(show(u, True))
        elif u.status == ON_MAP:
            if u.revealed:
                shown.append(show(u, False))
            else:
                hidden.append(hidden_view(key, u))
    hidden.sort(key=hidden_order)
    return shown, hidden


def hidden_order(d: JSONDict) -> tuple[str, str]:
    """The order of the hidden blocks in a view: by hex, then handle."""
    return str(d["hex"]), str(d["handle"])


def private(type_: str, rule: str, unit: UnitState, data: JSONDict, public: JSONDict,
            key: bytes) -> Event:
    """An event about ``unit``: its owner sees ``data``; the enemy sees ``public`` plus the
    unit's identity if it is revealed, or its handle if not."""
    shown = dict(public)
    if unit.revealed:
        shown["unit"] = unit.id
    else:
        shown["unit"] = unit_handle(key, unit)
    return Event(type_, rule, data, visible_to=(unit.side,), redacted=shown)
