"""A movement phase's legal actions kept from one decision to the next (issue 59).

In a movement phase (6.x) the active player's actions change only the block they name:
a ``move``, ``enter``, ``leave_map`` or ``melee`` declaration moves that block, marks it
moved (6.1, 7.1) and may count hexside crossings (6.62), fix a division's entry road
(6.7) or add a declared melee (7.1). The enemy's blocks stay put, so the front line
(6.61/6.62) and the hexes the enemy holds (the reach searches' stops and forbidden
hexes) stay the same, and so does every other block's list of moves. A
:class:`MoveListing` keeps what ``BocGame.legal_sequence`` built for a movement phase
(the ready actions in their unsorted order, each unit's move chunk, each due unit's entry
chunk) together with everything else those answers read; after such an action the next
list is the kept one without the named block's actions, unless something the others
read changed too, which :func:`kept` tells (the list is then built again):

- another seat, turn, phase or set of options, or a decision waiting;
- the column/line option (a block's formation then limits its fellows' moves): never kept;
- a block leaving or entering a hex an enemy block is in (which side holds the hex);
- the block still free to move or enter afterwards (then its own actions changed).

Two changes are mended in place (:class:`Update`): a division's entry road newly fixed
(6.7) changes only the entry hexes of that division's due units, whose entries are listed
again; a melee declared (7.1) changes only which declarations the targets still take, so
the melee declarations are listed again (and after a road fixed, those from entry roads).
A hexside newly used twice (6.62) closes for every unit, but a unit's moves change only if
its search stepped from one of that hexside's hexes: :func:`kept` gives every unit rules
with the new full hexsides and searches again only those units (:func:`_close_sides`;
session 48: in the battle it was a third of the lists built afresh).

The kept list trusts that the state changed only by ``BocGame.execute`` since it was made
(``load_position`` swaps the state object, which the memo checks); a caller that changes
the state by hand calls ``forget_memos``. ``legal_sequence``, ``legal_actions`` and the
views (which list the legal actions at every decision) all keep and reuse it. While no action has
been executed since the list was brought up to date, ``check_move`` takes the mover's
rules (front line, stops, forbidden hexes, full hexsides) from it (:func:`current`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from gettysburg.boc.control import index
from gettysburg.boc.legal_list import Chunk, move_chunks
from gettysburg.boc.movement import MoveRules, ReachPaths, graph, reachable, stands_with_full
from gettysburg.boc.position import EnterListing, Position
from gettysburg.boc.state import BocState, UnitState
from gettysburg.core.canonical import JSONDict, json_copy
from gettysburg.core.protocol import Action

#: The movement-phase actions whose only effects on the list are named in the module doc.
INCREMENTAL = frozenset({"move", "enter", "leave_map", "melee"})


def full_sides(state: BocState) -> frozenset[str]:
    """6.62: the hexsides already crossed twice this phase."""
    return frozenset(k for k, n in state.side_use.items() if n >= 2)


def clock_key(state: BocState, seat: str) -> tuple[object, ...]:
    """Everything but the blocks that says which list this is."""
    return (seat, state.day, state.hour, state.phase, state.active, tuple(state.options))


@dataclass
class MoveListing:
    """One movement phase's list as built, for one seat (see the module doc)."""

    state: BocState  # the state object it was built for (load_position swaps it)
    key: tuple[object, ...]  # clock_key
    full: frozenset[str]
    entry_roads: dict[str, str]
    melee: JSONDict  # a copy of the declared melees
    enemy: frozenset[str]  # the hexes any enemy block is in
    front: frozenset[str]  # the seat's front line (6.61)
    rules: dict[str, MoveRules]  # each block's that may move or enter (its search's)
    #: The ready actions in the order built (before the sort by type) but the melees;
    #: every one names its block (``formation``, ``leave_map``).
    acts: list[Action]
    #: The melee declarations from the map (7.1, 7.8), then from entry roads (6.7).
    declare: list[Action]
    entry_melee: list[Action]
    moves: list[tuple[str, Sequence[list[str]]]]
    enters: list[tuple[str, EnterListing]]
    #: (block id, its hex before) of every action executed since: not yet taken out.
    touched: list[tuple[str, str | None]] = field(default_factory=list)
    #: ``legal_list.move_chunks`` of the moves and entries, made when first asked for.
    _chunks: list[tuple[Chunk, int]] | None = None
    #: The hexside crossings (6.62) :attr:`full` was last checked against (``kept``).
    side_use: dict[str, int] = field(default_factory=dict)

    def chunks(self) -> list[tuple[Chunk, int]]:
        """The moves' and entries' chunks for ``LegalActions.add_chunks``."""
        if self._chunks is None:
            self._chunks = move_chunks(self.moves, self.enters)
        return self._chunks

    def drop(self, uids: set[str]) -> None:
        """Take the actions of ``uids`` out of the kept list."""
        self.acts = [a for a in self.acts if a.get("unit") not in uids]
        self.declare = [a for a in self.declare if a.get("unit") not in uids]
        self.entry_melee = [a for a in self.entry_melee if a.get("unit") not in uids]
        self.moves = [m for m in self.moves if m[0] not in uids]
        self.enters = [e for e in self.enters if e[0] not in uids]
        for uid in uids:
            self.rules.pop(uid, None)  # they may neither move nor enter again
        if self._chunks is not None:
            # What move_chunks makes of the lists left (each chunk names its unit first).
            self._chunks = [c for c in self._chunks if c[0][0] not in uids]

    def set_enters(self, enters: list[tuple[str, EnterListing]]) -> None:
        """Due units' entries listed again (``Update.divisions``)."""
        self.enters = enters
        self._chunks = None

    def ready(self) -> list[Action]:
        """The ready actions, the caller's own (flat dicts of scalars: a shallow copy)."""
        return [dict(a) for a in (*self.acts, *self.declare, *self.entry_melee)]


def current(memo: MoveListing | None, game: Position) -> MoveListing | None:
    """``memo`` if no action was executed since it was last brought up to date (so its
    front line and move rules are the state's), else ``None``."""
    st = game.state
    if memo is None or memo.touched or memo.state is not st \
            or memo.key != clock_key(st, st.active):
        return None
    return memo


@dataclass(frozen=True)
class Update:
    """What :func:`kept` found changed besides the named blocks: the divisions whose
    entry road was fixed (their due units' entries are listed again) and whether the
    declared melees changed (the melee declarations are listed again)."""

    divisions: frozenset[str] = frozenset()
    melee: bool = False


def kept(memo: MoveListing | None, game: Position, seat: str
         ) -> tuple[MoveListing, Update] | None:
    """``memo`` with the touched blocks' actions taken out, and what else the caller must
    list again for ``seat``'s next list, or ``None`` when it must be built again (the
    module doc's list)."""
    st = game.state
    if memo is None or memo.state is not st or memo.key != clock_key(st, seat) \
            or game.column_rule:
        return None
    if not memo.touched:
        return memo, Update()
    gone: set[str] = set()
    for uid, before in memo.touched:
        u: UnitState | None = st.units.get(uid)
        if u is None or u.side != seat or before in memo.enemy or u.hex in memo.enemy \
                or game.move_problem(u) is None or game.entry_problem(u) is None:
            return None
        gone.add(uid)
    old, new = memo.entry_roads, st.entry_roads
    divisions = frozenset() if old == new else \
        frozenset(k for k in old.keys() | new.keys() if old.get(k) != new.get(k))
    melee = st.melee != memo.melee
    memo.drop(gone)
    memo.touched.clear()
    if st.side_use != memo.side_use:  # a dict compared at C speed, most decisions
        full = full_sides(st)
        if full != memo.full:
            _close_sides(memo, game, full)
        memo.side_use = dict(st.side_use)
    if divisions:
        memo.entry_roads = dict(new)
    if melee or divisions:
        memo.melee = json_copy(st.melee)
    return memo, Update(divisions, melee or bool(divisions))


def _close_sides(memo: MoveListing, game: Position, full: frozenset[str]) -> None:
    """6.62: the hexsides used twice are now ``full``. Every unit of the list gets the
    rules it would get afresh (the same but for the full hexsides); a unit's moves are
    searched again only if its search could have gone otherwise with the new hexsides
    (``movement.stands_with_full``: the search stepped over a closed hexside to the
    cheapest way into a hex, which only units near it do)."""
    g = graph(game.board)
    # A hexside a unit's search took no step from stands for it at once.
    ends = {h for key in full ^ memo.full for h in g.side_ends(key) if h}
    renewed: dict[MoveRules, MoveRules] = {}  # equal rules stay shared
    rules = memo.rules
    was = dict(rules)
    for uid, old in was.items():
        new = renewed.get(old)
        if new is None:
            new = renewed[old] = MoveRules(old.budget, old.multiplier, old.roads,
                                           old.one_hex, old.stop, old.forbidden, full,
                                           old.entered)
        rules[uid] = new
    units = game.state.units
    moves: list[tuple[str, Sequence[list[str]]]] = []
    for uid, paths in memo.moves:
        reach = paths.reach if isinstance(paths, ReachPaths) else None
        if reach is None or (
                (reach.start in ends or not reach.end.keys().isdisjoint(ends))
                and not stands_with_full(g, reach, was[uid], full)):
            hx = units[uid].hex
            assert hx is not None
            paths = reachable(game.board, hx, rules[uid]).path_list
        moves.append((uid, paths))
    memo.moves = moves
    if memo.enters:
        occ: dict[str, list[UnitState]] | None = None
        enters: list[tuple[str, EnterListing]] = []
        for uid, listing in memo.enters:
            if not _near_entries(game, units[uid], ends, rules[uid].budget):
                enters.append((uid, listing))
                continue
            occ = game.state.occupants() if occ is None else occ
            enters.append((uid, game.enter_listing(uid, memo.front, occ, rules[uid])))
        memo.set_enters(enters)
    memo.full = full
    memo._chunks = None


def _near_entries(game: Position, u: UnitState, hexes: set[str], budget: int) -> bool:
    """Whether a due unit's entry searches (6.7) may have stepped from one of ``hexes``:
    they start at or beside an entry hex at 1 MP or more and go on while MPs are left,
    each step costing 1 MP or more, so no farther than ``budget`` hexes from it."""
    idx = index(game.board)
    return any(idx.distance(entry, h) <= budget
               for entry, _ in game.entry_hexes(u) for h in hexes)
