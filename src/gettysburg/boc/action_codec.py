"""A fixed integer encoding of every Badges of Courage action, for research adapters.

OpenSpiel and PettingZoo index actions by integers in ``range(size)``. Each action kind
owns a block of ids; inside a block the id is a mixed-radix number over the kind's fields:

* units by their index in the sorted order of battle (184 blocks), hexes by their index in
  the sorted board (259 hexes);
* a hex next to a unit (an HQ stepping when activated, 4.3 / 8.1; the hexside a block fires
  through, 5.21; an adjacent melee target, 7.1) by its *slot*, the position of that hex in
  the unit's fixed neighbour order (0..5);
* an entry hex (6.7, 2.4) by its rank among the entry hexes the unit's legal actions use
  now (0..MAX_ENTRIES-1): the path and the road are then fixed by the legal action itself.

Fields a legal action fixes by the others (a move's path: one path per destination; the
road of an entry attack; supply steps, always 1) are left out, so the encoding is injective
on the legal actions of any state, and :func:`decode_id` finds the action by encoding the
current legal list. ``decode(encode(a)) == a`` holds for every legal action (tested).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from gettysburg.boc.control import index
from gettysburg.boc.game import BocGame, cavalry_data
from gettysburg.boc.oob import default_hierarchy, default_oob
from gettysburg.core.protocol import Action, RuleError

#: Limits that size the fixed blocks (checked when encoding; a larger value is refused).
MAX_ENTRIES = 8
MAX_NIGHT_STEPS = 8
SLOTS = 6
FIGHTS = 4
CORPS = 16


@dataclass(frozen=True)
class Layout:
    """Sizes and id offsets of every action kind."""

    units: tuple[str, ...]
    hexes: tuple[str, ...]
    corps: tuple[str, ...]
    sizes: tuple[tuple[str, int], ...]

    @property
    def offsets(self) -> dict[str, int]:
        out: dict[str, int] = {}
        start = 0
        for kind, n in self.sizes:
            out[kind] = start
            start += n
        return out

    @property
    def size(self) -> int:
        return sum(n for _, n in self.sizes)


@lru_cache(maxsize=8)
def layout(hexes: tuple[str, ...]) -> Layout:
    units = tuple(sorted(default_oob().units))
    corps = tuple(sorted({c for side in ("usa", "csa")
                          for c in getattr(default_hierarchy(), side).corps}))
    if len(corps) > CORPS:
        raise ValueError(f"{len(corps)} corps exceed the codec's {CORPS}")
    u, h = len(units), len(hexes)
    sizes = (
        ("end_phase", 1), ("swap", u * u), ("hancock", CORPS),
        ("activate", u * (1 + SLOTS)), ("supply_activate", u * (1 + SLOTS)),
        ("fire", u * h * SLOTS * 2), ("formation", u * 2), ("move", u * h),
        ("enter", u * MAX_ENTRIES * h), ("leave_map", u),
        ("melee", u * SLOTS * 2), ("melee_entry", u * MAX_ENTRIES),
        ("casualty", u), ("repulse", u * h), ("melee_resolve", h), ("melee_fight", u),
        ("melee_line", u), ("melee_retreat", u * (h + 1)), ("regroup", u * h),
        ("regroup_done", 1), ("cavalry_custer", 2), ("cavalry_assign", u * FIGHTS),
        ("cavalry_assign_done", 1), ("supply", u * u), ("night_supply", u * MAX_NIGHT_STEPS),
    )
    return Layout(units, hexes, corps, sizes)


def game_layout(game: BocGame) -> Layout:
    return layout(tuple(sorted(info.id for info in game.board.hexes.values())))


def action_space_size(game: BocGame) -> int:
    return game_layout(game).size


class _Encoder:
    """Encodes the legal actions of one state (entry ranks depend on the whole list)."""

    def __init__(self, game: BocGame, actions: Sequence[Action]) -> None:
        self.lay = game_layout(game)
        self.off = self.lay.offsets
        self.unit_ix = {uid: i for i, uid in enumerate(self.lay.units)}
        self.hex_ix = {hx: i for i, hx in enumerate(self.lay.hexes)}
        self.corps_ix = {c: i for i, c in enumerate(self.lay.corps)}
        self.nbrs = index(game.board).nbrs
        self.state = game.state
        entries: dict[str, set[str]] = {}
        for a in actions:
            if a["type"] == "enter":
                entries.setdefault(a["unit"], set()).add(str(a["entry"]).upper())
            elif a["type"] == "melee" and "entry" in a:
                entries.setdefault("melee:" + a["unit"], set()).add(str(a["target"]))
        self.entry_rank = {k: {hx: i for i, hx in enumerate(sorted(v))}
                           for k, v in entries.items()}

    def unit(self, uid: object) -> int:
        try:
            return self.unit_ix[str(uid)]
        except KeyError:
            raise RuleError("protocol.action", f"unknown unit {uid!r}") from None

    def hex(self, hx: object) -> int:
        try:
            return self.hex_ix[str(hx).upper()]
        except KeyError:
            raise RuleError("protocol.action", f"unknown hex {hx!r}") from None

    def slot(self, uid: str, hx: object) -> int:
        here = self.state.units[uid].hex
        around = self.nbrs.get(here, ()) if here else ()
        target = str(hx).upper()
        if target not in around:
            raise RuleError("protocol.action", f"{hx!r} is not next to {uid}'s hex {here!r}")
        return around.index(target)

    def rank(self, key: str, hx: str) -> int:
        r = self.entry_rank.get(key, {}).get(hx)
        if r is None or r >= MAX_ENTRIES:
            raise RuleError("protocol.action", f"entry {hx} of {key} cannot be encoded")
        return r

    def encode(self, a: Action) -> int:
        kind = str(a["type"])
        u, h = len(self.lay.units), len(self.lay.hexes)
        if kind in ("end_phase", "regroup_done", "cavalry_assign_done"):
            return self.off[kind]
        if kind == "swap":
            x, y = a["units"]
            return self.off[kind] + self.unit(x) * u + self.unit(y)
        if kind == "hancock":
            return self.off[kind] + self.corps_ix[str(a["corps"])]
        if kind in ("activate", "supply_activate"):
            uid = str(a["hq"])
            step = 0 if "to" not in a else 1 + self.slot(uid, a["to"])
            return self.off[kind] + self.unit(uid) * (1 + SLOTS) + step
        if kind == "fire":
            uid = str(a["unit"])
            at = 1 if a.get("at") == "artillery" else 0
            return self.off[kind] + ((self.unit(uid) * h + self.hex(a["target"])) * SLOTS
                                     + self.slot(uid, a["through"])) * 2 + at
        if kind == "formation":
            return self.off[kind] + self.unit(a["unit"]) * 2 + int(bool(a["column"]))
        if kind == "move":
            return self.off[kind] + self.unit(a["unit"]) * h + self.hex(a["path"][-1])
        if kind == "enter":
            uid = str(a["unit"])
            r = self.rank(uid, str(a["entry"]).upper())
            return self.off[kind] + (self.unit(uid) * MAX_ENTRIES + r) * h \
                + self.hex(a["path"][-1])
        if kind == "melee":
            uid = str(a["unit"])
            if "entry" in a:
                r = self.rank("melee:" + uid, str(a["target"]))
                return self.off["melee_entry"] + self.unit(uid) * MAX_ENTRIES + r
            uns = 1 if a.get("unsupported") else 0
            return self.off[kind] + (self.unit(uid) * SLOTS + self.slot(uid, a["target"])) \
                * 2 + uns
        if kind in ("casualty", "melee_fight", "melee_line"):
            return self.off[kind] + self.unit(a["unit"])
        if kind in ("repulse", "regroup"):
            return self.off[kind] + self.unit(a["unit"]) * h + self.hex(a["to"])
        if kind == "melee_resolve":
            return self.off[kind] + self.hex(a["hex"])
        if kind == "melee_retreat":
            to = a["to"]
            where = h if to == "off" else self.hex(to)
            return self.off[kind] + self.unit(a["unit"]) * (h + 1) + where
        if kind == "cavalry_custer":
            return self.off[kind] + int(bool(a["move"]))
        if kind == "cavalry_assign":
            fights = _fight_names()
            return self.off[kind] + self.unit(a["unit"]) * FIGHTS + fights.index(a["fight"])
        if kind == "supply":
            return self.off[kind] + self.unit(a["hq"]) * u + self.unit(a["unit"])
        if kind == "night_supply":
            steps = int(a["steps"])
            if not 1 <= steps <= MAX_NIGHT_STEPS:
                raise RuleError("8.4", f"{steps} night supply steps cannot be encoded")
            return self.off[kind] + self.unit(a["unit"]) * MAX_NIGHT_STEPS + steps - 1
        if kind == "leave_map":
            return self.off[kind] + self.unit(a["unit"])
        raise RuleError("protocol.action", f"action type {kind!r} has no encoding")


@lru_cache(maxsize=1)
def _fight_names() -> list[str]:
    names = [f.name for f in cavalry_data().fights]
    if len(names) > FIGHTS:
        raise ValueError(f"{len(names)} cavalry fights exceed the codec's {FIGHTS}")
    return names


def encode_actions(game: BocGame, actions: Sequence[Action]) -> list[int]:
    """The ids of ``actions`` (a seat's legal list now), in the same order; raises if two
    legal actions would share an id (the codec would then be ambiguous)."""
    enc = _Encoder(game, actions)
    ids = [enc.encode(a) for a in actions]
    if len(set(ids)) != len(ids):
        raise ValueError("two legal actions share an id; the codec needs a wider field")
    return ids


def kind_of(game: BocGame, action_id: int) -> str:
    """The action kind whose block holds ``action_id`` (for error messages and docs)."""
    lay = game_layout(game)
    if not 0 <= action_id < lay.size:
        raise ValueError(f"action id {action_id} outside 0..{lay.size - 1}")
    for kind, start in sorted(lay.offsets.items(), key=lambda kv: -kv[1]):
        if action_id >= start:
            return kind
    raise AssertionError("unreachable")
