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

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from gettysburg.boc.actions import ACTION_TYPES, ActionType, Field
from gettysburg.boc.control import index
from gettysburg.boc.game import BocGame
from gettysburg.boc.legal_list import Chunk, LegalActions
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
    return _codec(game)[0]


def _codec(game: BocGame) -> tuple[Layout, _Tables]:
    """The layout of the game's board and its look-up tables, kept on the board object
    (immutable once loaded, as ``control.index`` does): sorting and hashing the hex ids
    for every legal list cost more than encoding a move."""
    got = game.board.__dict__.get("_boc_codec")
    if not isinstance(got, tuple):
        lay = layout(tuple(sorted(info.id for info in game.board.hexes.values())))
        got = game.board.__dict__["_boc_codec"] = (lay, _tables(lay))
    return got


def action_space_size(game: BocGame) -> int:
    return game_layout(game).size


def _acting_field(t: ActionType) -> str | None:
    """The field naming the block that acts (slots and ranks are counted from it)."""
    return next((f.name for f in t.fields if f.kind == "unit"), None)


@dataclass(frozen=True)
class _Digit:
    """How one field of a type becomes its digit (everything that depends only on the
    layout, worked out once: a legal list holds hundreds of actions)."""

    field: Field
    radix: int  # Layout.values(field)
    absent: int  # 1 if its absence is numbered 0
    kind_values: int
    words: dict[str, int]  # word -> its digit (after the kind's values)


@dataclass(frozen=True)
class _Plan:
    """One action type's block: where it starts, the acting field and its digits (fixed
    fields, always digit 0 of radix 1, left out)."""

    type: ActionType
    offset: int
    actor: str | None
    digits: tuple[_Digit, ...]
    #: Fields whose value may be a rank among the legal actions (entry; reach).
    ranked: tuple[Field, ...]
    #: Per digit: field name, the table a plain value is looked up in (or None), how
    #: (_AS_IS, _LAST of a path, _RANK of an entry), radix, and the digit for the rest.
    steps: tuple[tuple[str, dict[str, int] | None, int, int, _Digit], ...]
    #: Whether a digit counts from the acting block (slots, ranks).
    actor_needed: bool
    #: A shape :meth:`_Encoder.encode_run` encodes in one pass: "unit+path" (a move: its
    #: block, the last hex of its path), "unit+entry+path" (an entry: block, entry rank,
    #: last hex), or "" (one action at a time).
    shape: str


_AS_IS, _LAST, _RANK = 0, 1, 2


@dataclass(frozen=True)
class _Tables:
    unit_ix: dict[str, int]
    hex_ix: dict[str, int]
    corps_ix: dict[str, int]
    plans: dict[str, _Plan]
    ranked_types: frozenset[str]  # the types with a field numbered by rank


@lru_cache(maxsize=8)
def _tables(lay: Layout) -> _Tables:
    off = lay.offsets
    unit_ix = {u: i for i, u in enumerate(lay.units)}
    hex_ix = {h: i for i, h in enumerate(lay.hexes)}
    plans: dict[str, _Plan] = {}
    for t in ACTION_TYPES:
        steps = []
        for f in t.fields:
            if f.fixed:
                continue
            absent, kv = _absence(f), lay.kind_values(f)
            d = _Digit(f, lay.values(f), absent, kv,
                       {w: absent + kv + i for i, w in enumerate(f.words)})
            plain = not absent and not f.words
            table = {"unit": unit_ix, "hex": hex_ix, "path": hex_ix}.get(f.kind) \
                if plain else None
            how = _LAST if f.kind == "path" else _RANK if f.kind == "entry" and plain \
                else _AS_IS
            steps.append((f.name, table, how, d.radix, d))
        kinds = "+".join(st[4].field.kind for st in steps)
        plain = all(st[2] == _RANK or st[1] is not None for st in steps)
        shape = kinds if plain and kinds in ("unit+path", "unit+entry+path") \
            and steps[0][4].field.name == _acting_field(t) else ""
        plans[t.name] = _Plan(t, off[t.name], _acting_field(t), tuple(s[4] for s in steps),
                              tuple(f for f in t.fields if f.kind in RANKED), tuple(steps),
                              any(f.kind in ("near", "reach", "entry") for f in t.fields),
                              shape)
    return _Tables(unit_ix, hex_ix, {c: i for i, c in enumerate(lay.corps)}, plans,
                   frozenset(name for name, plan in plans.items() if plan.ranked))


class _Encoder:
    """Encodes the legal actions of one state (entry ranks depend on the whole list)."""

    def __init__(self, game: BocGame, actions: Sequence[Action],
                 entries: Mapping[tuple[str, str, str], set[str]] | None = None) -> None:
        """``entries``: ranked values of actions not in ``actions`` (a lazy list's entry
        chunks, :func:`_encode_chunks`), by (type, unit, field)."""
        self.lay, tables = _codec(game)
        self.plans = tables.plans
        self.unit_ix, self.hex_ix, self.corps_ix = \
            tables.unit_ix, tables.hex_ix, tables.corps_ix
        self.nbrs = index(game.board).nbrs
        self.state = game.state
        ranked: dict[tuple[str, str, str], set[str]] = \
            {k: set(v) for k, v in (entries or {}).items()}
        ranked_types = tables.ranked_types
        for a in actions:
            kind = a.get("type")
            if not isinstance(kind, str) or kind not in ranked_types:
                continue
            plan = self.plans[kind]
            uid = self._actor(plan, a)
            for f in plan.ranked:
                if f.name in a and self._ranked(f, uid):
                    ranked.setdefault((plan.type.name, uid, f.name), set()).add(str(a[f.name]))
        self.rank_of = {k: {hx: i for i, hx in enumerate(sorted(v))} for k, v in ranked.items()}
        self.ranks_fit = all(len(v) <= MAX_ENTRIES for v in ranked.values())

    def encode_run(self, plan: _Plan, run: Sequence[Action]) -> list[int]:
        """The ids of actions of one type: moves and entries (most of a legal list) in one
        pass of plain look-ups; if any value is not of the plain form (or for other
        types), one action at a time, the general way with its refusals."""
        units, hexes, off = self.unit_ix, self.hex_ix, plan.offset
        try:
            if plan.shape == "unit+path":
                (unit, _, _, _, _), (path, _, _, r_path, _) = plan.steps
                if all(type(a[path]) is list for a in run):
                    return [off + units[a[unit]] * r_path + hexes[a[path][-1]] for a in run]
            elif plan.shape == "unit+entry+path" and self.ranks_fit:
                (unit, _, _, _, _), (entry, _, _, r_entry, _), (path, _, _, r_path, _) = \
                    plan.steps
                ranks, name = self.rank_of, plan.type.name
                if all(type(a[path]) is list and type(a[unit]) is str for a in run):
                    return [off + (units[a[unit]] * r_entry
                                   + ranks[(name, a[unit], entry)][a[entry]]) * r_path
                            + hexes[a[path][-1]] for a in run]
        except (KeyError, TypeError, IndexError):
            pass
        return [self.encode(a) for a in run]

    @staticmethod
    def _actor(plan: _Plan, a: Action) -> str:
        return str(a.get(plan.actor, "")) if plan.actor else ""

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

    def digit(self, t: ActionType, d: _Digit, a: Action, uid: str) -> int:
        """The field's value as a number below its radix (``Layout.values``)."""
        f = d.field
        if d.absent and f.name not in a:
            return 0
        value = a.get(f.name, f.default)
        if d.words and isinstance(value, str) and value in d.words:
            return d.words[value]
        return d.absent + self._number(t, f, value, uid)

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
        plan = self.plans.get(str(a["type"]))
        if plan is None:
            raise RuleError(RULE_ACTION, f"action type {a['type']!r} has no encoding")
        uid = self._actor(plan, a) if plan.actor_needed else ""
        number = 0
        for name, table, how, radix, d in plan.steps:
            # The common shapes (a unit; a hex or path spelled as the map prints it; an
            # entry hex among the ranked ones) by a plain look-up; anything else, or a
            # miss, the general way with its refusals.
            value, got = a.get(name), None
            if how == _LAST:
                value = value[-1] if isinstance(value, list) and value else None
            if how == _RANK:
                got = self.rank_of.get((plan.type.name, uid, name), _NONE).get(str(value))
                if got is not None and got >= MAX_ENTRIES:
                    got = None
            elif table is not None and isinstance(value, str):
                got = table.get(value)
            if got is None:
                got = self.digit(plan.type, d, a, uid)
            number = number * radix + got
        return plan.offset + number


_NONE: dict[str, int] = {}


@lru_cache(maxsize=1)
def _fight_names() -> list[str]:
    names = [f.name for f in cavalry_data().fights]
    if len(names) > FIGHTS:
        raise ValueError(f"{len(names)} cavalry fights exceed the codec's {FIGHTS}")
    return names


def encode_actions(game: BocGame, actions: Sequence[Action]) -> list[int]:
    """The ids of ``actions`` (a seat's legal list now), in the same order; raises if two
    legal actions would share an id (the codec would then be ambiguous). A lazy list
    (``BocGame.legal_sequence``) is encoded from its chunks, without a dict per move."""
    got = _encode_chunks(game, actions) if isinstance(actions, LegalActions) else None
    if got is None:
        enc = _Encoder(game, actions)
        got = _encode_list(enc, actions)
    if len(set(got)) != len(got):
        raise ValueError("two legal actions share an id; the codec needs a wider field")
    return got


def _encode_list(enc: _Encoder, actions: Sequence[Action]) -> list[int]:
    """The ids of listed actions, run by run of one type."""
    ids: list[int] = []
    start, n = 0, len(actions)
    while start < n:  # runs of one type (legal lists come grouped by type)
        kind = actions[start].get("type")
        end = start + 1
        while end < n and actions[end].get("type") == kind:
            end += 1
        plan = enc.plans.get(kind) if isinstance(kind, str) else None
        run = actions[start:end]
        ids += enc.encode_run(plan, run) if plan is not None and plan.shape \
            else [enc.encode(a) for a in run]
        start = end
    return ids


def _encode_chunks(game: BocGame, seq: LegalActions) -> list[int] | None:
    """The ids of a lazy legal list read from its chunks (issue 59: a movement phase's
    hundreds of moves need no dict each): a unit's moves are its index and the last hex
    of each path, its entries add the entry's rank. ``None`` if the codec's move or entry
    plan is not of that plain form (then the list is encoded item by item)."""
    _lay, tables = _codec(game)
    move, enter = tables.plans.get("move"), tables.plans.get("enter")
    if move is None or move.shape != "unit+path" or "move" in tables.ranked_types \
            or enter is None or enter.shape != "unit+entry+path" \
            or [f.name for f in enter.ranked] != [enter.steps[1][0]]:
        return None
    chunks = seq.chunks  # (ready actions | unit, its paths | None, its entries | None)
    kept = _kept_chunk_ids(game, tables, chunks, move, enter)
    if kept is not None:
        return kept
    entry_name = enter.steps[1][0]
    ready: list[Action] = []
    ranked: dict[tuple[str, str, str], set[str]] = {}
    listed: list[Sequence[tuple[str, Sequence[str]]] | None] = []  # entries read once
    for head, paths, entries in chunks:
        if entries is not None:
            pairs = list(entries)
            ranked.setdefault(("enter", str(head), entry_name), set()).update(
                str(e) for e, _p in pairs)
            listed.append(pairs)
            continue
        listed.append(None)
        if paths is None:
            assert not isinstance(head, str)
            ready += head
    enc = _Encoder(game, ready, ranked)
    units, hexes = enc.unit_ix, enc.hex_ix
    ids: list[int] = []
    for (head, paths, _entries), entries in zip(chunks, listed, strict=True):
        if paths is None and entries is None:
            assert not isinstance(head, str)
            ids += _encode_list(enc, head)
        elif paths is not None:
            assert isinstance(head, str)
            r_path = move.steps[1][3]
            try:
                base = move.offset + units[head] * r_path
                ids += [base + hexes[p[-1]] for p in paths]
            except (KeyError, IndexError):
                ids += [enc.encode({"type": "move", "unit": head, "path": list(p)})
                        for p in paths]
        else:
            assert isinstance(head, str) and entries is not None
            r_entry, r_path = enter.steps[1][3], enter.steps[2][3]
            ranks = enc.rank_of.get(("enter", head, entry_name), _NONE)
            try:
                if not enc.ranks_fit:
                    raise KeyError(head)
                base = units[head] * r_entry
                ids += [enter.offset + (base + ranks[e]) * r_path + hexes[p[-1]]
                        for e, p in entries]
            except (KeyError, IndexError):
                ids += [enc.encode({"type": "enter", "unit": head, "entry": e,
                                    "path": list(p)}) for e, p in entries]
    return ids


#: (layout, unit, id of its paths or entries object) -> (the layout, that object, their
#: ids): the kept movement list lists a unit's moves and entries from the same object while
#: they stand (``LegalActions.shared_list`` relies on it too), so their ids are kept.
_CHUNK_IDS: dict[tuple[int, str, int], tuple[Layout, object, list[int]]] = {}
CHUNK_MEMO = 4096


def _kept_chunk_ids(game: BocGame, tables: _Tables, chunks: Sequence[Chunk], move: _Plan,
                    enter: _Plan) -> list[int] | None:
    """:func:`_encode_chunks` with each unit's move and entry ids kept per chunk object;
    ``None`` (encode afresh) unless a unit's entry ranks come from its one entry chunk
    alone (no ready entry action, one entry chunk a unit) and fit."""
    entry_heads = [head for head, _p, entries in chunks if entries is not None]
    ready: list[Action] = []
    for head, paths, entries in chunks:
        if paths is None and entries is None:
            assert not isinstance(head, str)
            ready += head
    # Other ranked types (a melee's reach) rank among their own keys only.
    if len(set(entry_heads)) != len(entry_heads) \
            or any(a.get("type") == enter.type.name for a in ready):
        return None
    lay = game_layout(game)
    enc = _Encoder(game, ready)
    units, hexes = enc.unit_ix, enc.hex_ix
    ids: list[int] = []
    for head, paths, entries in chunks:
        if paths is None and entries is None:
            assert not isinstance(head, str)
            ids += _encode_list(enc, head)
            continue
        assert isinstance(head, str)
        listed: object = paths if paths is not None else entries
        key = (id(lay), head, id(listed))
        got = _CHUNK_IDS.get(key)
        if got is not None and got[0] is lay and got[1] is listed:
            ids += got[2]
            continue
        try:
            if paths is not None:
                base = move.offset + units[head] * move.steps[1][3]
                part = [base + hexes[p[-1]] for p in paths]
            else:
                assert entries is not None
                pairs = list(entries)
                rank = {e: i for i, e in enumerate(sorted({str(e) for e, _p in pairs}))}
                if len(rank) > MAX_ENTRIES:
                    return None
                r_entry, r_path = enter.steps[1][3], enter.steps[2][3]
                base = units[head] * r_entry
                part = [enter.offset + (base + rank[e]) * r_path + hexes[p[-1]]
                        for e, p in pairs]
        except (KeyError, IndexError):
            return None  # not of the plain form: the general way, with its refusals
        if len(_CHUNK_IDS) >= CHUNK_MEMO:
            _CHUNK_IDS.clear()
        _CHUNK_IDS[key] = (lay, listed, part)
        ids += part
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
