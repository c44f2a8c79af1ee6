"""A fixed integer encoding of every Badges of Courage action, for research adapters.

OpenSpiel and PettingZoo index actions by integers in ``range(size)``. Each action type owns
a block of ids, in the order of the table of action types (``actions.ACTION_TYPES``); inside
a block the id is a mixed-radix number over the type's fields, in the table's order (the
first field the most significant), each field numbered by its kind:

* ``unit``: its index in the sorted order of battle (184 blocks); ``pair``: two of them;
  ``hex``: its index in the sorted board (259 hexes); ``path``: the hex it ends in;
* ``near``: a hex next to the acting block (the type's first unit field: an HQ stepping when
  activated, 4.3 / 8.1; the hexside a block fires through, 5.21) by its *slot*, the
  position of that hex in the block's fixed neighbour order (0..5);
* ``entry``: an entry hex (6.7, 2.4) by its rank among the ones the block's legal actions of
  that type use now (0..MAX_ENTRIES-1): the path and the road are then fixed by the legal
  action itself; ``reach`` (a melee target): a slot from the map, a rank from off it;
* ``corps``, ``fight``: their index in the sorted corps and the cavalry fights; ``bool``;
  ``steps`` (1..MAX_NIGHT_STEPS); ``word``: its index among the field's words. A field
  that may also hold words (a retreat ``"off"`` the map) numbers them after its kind's
  values; an optional field without a default numbers its absence 0.

Fields a legal action fixes by the others (``Field.fixed``: the road of an entry attack;
supply steps, always 1) are left out, as is the rest of a path (one path per destination),
so the encoding is injective on the legal actions of any state, and :func:`decode_id`
finds the action by encoding the current legal list. ``decode(encode(a)) == a`` holds for
every legal action (tested). A new action type or field follows from its row in the table;
a new kind of field needs its numbering here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from gettysburg.boc.actions import ACTION_TYPES, BY_NAME, ActionType, Field
from gettysburg.boc.control import index
from gettysburg.boc.game import BocGame
from gettysburg.boc.oob import default_hierarchy, default_oob
from gettysburg.boc.position import cavalry_data
from gettysburg.core.protocol import RULE_ACTION, Action, RuleError

#: Limits that size the fixed blocks (checked when encoding; a larger value is refused).
MAX_ENTRIES = 8
MAX_NIGHT_STEPS = 8
SLOTS = 6
FIGHTS = 4
CORPS = 16
#: Kinds numbered by a rank among the legal actions (``reach``: only from off the map).
RANKED = ("entry", "reach")


@dataclass(frozen=True)
class Layout:
    """Sizes and id offsets of every action type."""

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

    def values(self, field: Field) -> int:
        """How many values ``field`` is numbered over (1: left out): its kind's, then its
        words', and its absence first if it may be left out without a default."""
        if field.fixed:
            return 1
        return self.kind_values(field) + len(field.words) + _absence(field)

    def kind_values(self, field: Field) -> int:
        u, h = len(self.units), len(self.hexes)
        n = {"unit": u, "pair": u * u, "hex": h, "path": h, "near": SLOTS,
             "reach": SLOTS + MAX_ENTRIES, "entry": MAX_ENTRIES, "corps": CORPS,
             "fight": FIGHTS, "bool": 2, "steps": MAX_NIGHT_STEPS, "word": 0}.get(field.kind)
        if n is None:
            raise ValueError(f"the codec has no numbering for {field.kind!r} fields "
                             f"({field.name!r})")
        return n


def _absence(field: Field) -> int:
    """1 if the field may be left out with no default (its absence is then numbered 0)."""
    return int(field.optional and field.default is None)


@lru_cache(maxsize=8)
def layout(hexes: tuple[str, ...]) -> Layout:
    units = tuple(sorted(default_oob().units))
    corps = tuple(sorted({c for side in ("usa", "csa")
                          for c in getattr(default_hierarchy(), side).corps}))
    if len(corps) > CORPS:
        raise ValueError(f"{len(corps)} corps exceed the codec's {CORPS}")
    lay = Layout(units, hexes, corps, ())
    sizes = []
    for t in ACTION_TYPES:
        n = 1
        for f in t.fields:
            n *= lay.values(f)
        sizes.append((t.name, n))
    return Layout(units, hexes, corps, tuple(sizes))


def game_layout(game: BocGame) -> Layout:
    return layout(tuple(sorted(info.id for info in game.board.hexes.values())))


def action_space_size(game: BocGame) -> int:
    return game_layout(game).size


def _acting_field(t: ActionType) -> str | None:
    """The field naming the block that acts (slots and ranks are counted from it)."""
    return next((f.name for f in t.fields if f.kind == "unit"), None)


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
        ranked: dict[tuple[str, str, str], set[str]] = {}
        for a in actions:
            t = BY_NAME.get(str(a.get("type")))
            if t is None:
                continue
            uid = self._actor(t, a)
            for f in t.fields:
                if f.name in a and self._ranked(f, uid):
                    ranked.setdefault((t.name, uid, f.name), set()).add(str(a[f.name]))
        self.rank_of = {k: {hx: i for i, hx in enumerate(sorted(v))} for k, v in ranked.items()}

    def _actor(self, t: ActionType, a: Action) -> str:
        name = _acting_field(t)
        return str(a.get(name, "")) if name else ""

    def _ranked(self, f: Field, uid: str) -> bool:
        if f.kind == "entry":
            return True
        unit = self.state.units.get(uid)
        return f.kind == "reach" and (unit is None or unit.hex is None)

    def unit(self, uid: object) -> int:
        try:
            return self.unit_ix[str(uid)]
        except KeyError:
            raise RuleError(RULE_ACTION, f"unknown unit {uid!r}") from None

    def hex(self, hx: object) -> int:
        try:
            return self.hex_ix[str(hx).upper()]
        except KeyError:
            raise RuleError(RULE_ACTION, f"unknown hex {hx!r}") from None

    def slot(self, uid: str, hx: object) -> int:
        unit = self.state.units.get(uid)
        here = unit.hex if unit is not None else None
        around = self.nbrs.get(here, ()) if here else ()
        target = str(hx).upper()
        if target not in around:
            raise RuleError(RULE_ACTION, f"{hx!r} is not next to {uid}'s hex {here!r}")
        return around.index(target)

    def rank(self, key: tuple[str, str, str], hx: object) -> int:
        r = self.rank_of.get(key, {}).get(str(hx))
        if r is None or r >= MAX_ENTRIES:
            raise RuleError(RULE_ACTION, f"entry {hx} of {key[1]} cannot be encoded")
        return r

    def digit(self, t: ActionType, f: Field, a: Action, uid: str) -> int:
        """The field's value as a number below ``Layout.values(f)``."""
        if f.fixed:
            return 0
        absent = _absence(f)
        if absent and f.name not in a:
            return 0
        value = a.get(f.name, f.default)
        if isinstance(value, str) and value in f.words:
            return absent + self.lay.kind_values(f) + f.words.index(value)
        return absent + self._number(t, f, value, uid)

    def _number(self, t: ActionType, f: Field, value: object, uid: str) -> int:
        kind, u = f.kind, len(self.lay.units)
        if kind == "unit":
            return self.unit(value)
        if kind == "pair" and isinstance(value, list) and len(value) == 2:
            return self.unit(value[0]) * u + self.unit(value[1])
        if kind == "hex":
            return self.hex(value)
        if kind == "path" and isinstance(value, list) and value:
            return self.hex(value[-1])
        if kind == "near":
            return self.slot(uid, value)
        if kind == "reach":
            if self._ranked(f, uid):
                return SLOTS + self.rank((t.name, uid, f.name), value)
            return self.slot(uid, value)
        if kind == "entry":
            return self.rank((t.name, uid, f.name), value)
        if kind == "corps" and value in self.corps_ix:
            return self.corps_ix[str(value)]
        if kind == "fight" and value in _fight_names():
            return _fight_names().index(str(value))
        if kind == "bool" and isinstance(value, bool):
            return int(value)
        if kind == "steps" and isinstance(value, int) and 1 <= value <= MAX_NIGHT_STEPS:
            return value - 1
        raise RuleError(RULE_ACTION, f"{t.name}: {f.name} {value!r} cannot be encoded")

    def encode(self, a: Action) -> int:
        t = BY_NAME.get(str(a["type"]))
        if t is None:
            raise RuleError(RULE_ACTION, f"action type {a['type']!r} has no encoding")
        uid = self._actor(t, a)
        number = 0
        for f in t.fields:
            number = number * self.lay.values(f) + self.digit(t, f, a, uid)
        return self.off[t.name] + number


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
