"""Hex control (6.6), zones of control (6.61) and front-line hexes (6.62).

Hex ids are the BoC strings (``"J6"``) throughout the engine; :class:`BoardIndex`
caches each board's neighbour lists by id so the rules never re-parse ids.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from gettysburg.boc.board import BOC, Board
from gettysburg.boc.state import ON_MAP, BocState, other
from gettysburg.core.hexes import Hex


@dataclass
class BoardIndex:
    board: Board
    hex_of: dict[str, Hex]
    nbrs: dict[str, tuple[str, ...]]  # on-map neighbours in a fixed order
    edge: frozenset[str]
    # Hexes with entry roads (6.7), in board order, each with its entries sorted.
    entries: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # front_line answers per set of enemy-held hexes (issue 59): every legal-action list
    # and every move asks it, and a side's own moves never change it.
    front_memo: dict[frozenset[str], frozenset[str]] = field(default_factory=dict)

    def side_key(self, a: str, b: str) -> str:
        """A stable text key for the hexside between two adjacent hexes."""
        return f"{a}|{b}" if self.hex_of[a] < self.hex_of[b] else f"{b}|{a}"

    def distance(self, a: str, b: str) -> int:
        return self.hex_of[a].distance(self.hex_of[b])


def index(board: Board) -> BoardIndex:
    """The cached index of ``board`` (boards are treated as immutable once loaded; the
    index rides on the board object itself, so it dies with it)."""
    got = board.__dict__.get("_boc_index")
    if not isinstance(got, BoardIndex):
        hex_of = {info.id: h for h, info in board.hexes.items()}
        nbrs = {info.id: tuple(board.hexes[n].id for n in h.neighbours() if n in board.hexes)
                for h, info in board.hexes.items()}
        edge = frozenset(i.id for i in board.hexes.values() if i.edge or len(nbrs[i.id]) < 6)
        entries = tuple((i.id, tuple(sorted(i.entries)))
                        for i in board.hexes.values() if i.entries)
        got = BoardIndex(board, hex_of, nbrs, edge, entries)
        board.__dict__["_boc_index"] = got
    return got


def hex_id(h: Hex) -> str:
    return BOC.format(h)


def occupied_by(state: BocState) -> dict[str, str]:
    """hex -> side of the units in it (both sides never share a hex)."""
    out: dict[str, str] = {}
    for u in state.units.values():
        if u.status == ON_MAP and u.hex is not None:
            out[u.hex] = u.side
    return out


def compute_control(board: Board, state: BocState) -> dict[str, str]:
    """6.61 for the blocks as they stand in ``state``, by hex id: :func:`control_of`'s
    answer, sorted, worked out in one pass over the occupied hexes' neighbours (session 47:
    each empty hex's side is the one side next to it, none if both are)."""
    occ = occupied_by(state)
    nbrs = index(board).nbrs
    near: dict[str, str | None] = {}
    for hx, side in occ.items():
        for n in nbrs.get(hx, ()):
            if n in occ:
                continue
            was = near.get(n, side)
            near[n] = side if was == side else None
    out = dict(occ)
    out.update((n, s) for n, s in near.items() if s is not None)
    return dict(sorted(out.items()))


def control_at(hx: str, side_at: Callable[[str], str | None],
               nbrs: Mapping[str, Sequence[str]]) -> str | None:
    """6.61 for one hex, given who occupies which hex (``side_at``: hex -> side or
    ``None``): an occupied hex belongs to its occupant; an empty hex next to units of one
    side only belongs to that side; an empty hex next to both sides, or to none, is
    neutral (``None``). The AI asks it of positions it imagines (``doctrine_boc``)."""
    side = side_at(hx)
    if side is not None:
        return side
    near: str | None = None
    for n in nbrs.get(hx, ()):
        s = side_at(n)
        if s is None or s == near:
            continue
        if near is not None:
            return None  # both sides next to it
        near = s
    return near


def control_of(occ: Mapping[str, str], nbrs: Mapping[str, Sequence[str]]) -> dict[str, str]:
    """:func:`control_at` for the whole board from who occupies which hex (``occ``, hex ->
    side): the occupied hexes, then each empty hex next to one as first met; neutral
    hexes are left out. The AI projects control with it from what a seat sees."""
    control = dict(occ)
    met: set[str] = set()
    for hx in occ:
        for n in nbrs.get(hx, ()):
            if n in occ or n in met:
                continue
            met.add(n)
            side = control_at(n, occ.get, nbrs)
            if side is not None:
                control[n] = side
    return control


#: front_line answers kept per board before the memo starts afresh.
FRONT_MEMO = 256


def front_line(board: Board, state: BocState, side: str) -> frozenset[str]:
    """6.62 front-line hexes for ``side``: hexes next to enemy units (own-occupied ones
    included; enemy-occupied ones are not hexes ``side`` can be in). Entering any of them
    ends a move, which also covers the 6.61 ZOC stop: an enemy ZOC is the empty part of
    this set."""
    idx = index(board)
    enemy = other(side)
    # By occupied_by, as before the memo: a hex both sides are in for a moment (a melee)
    # counts for the side listed last there.
    held = frozenset(h for h, s in occupied_by(state).items() if s == enemy)
    memo = idx.front_memo
    got = memo.get(held)
    if got is None:
        out: set[str] = set()
        for hx in held:
            for n in idx.nbrs.get(hx, ()):
                if n not in held:
                    out.add(n)
        got = frozenset(out)
        if len(memo) >= FRONT_MEMO:
            memo.clear()  # simple, and safe with the server's threads sharing a board
        memo[held] = got
    return got


def enemy_hexes(state: BocState, side: str) -> frozenset[str]:
    """Hexes ``side`` sees as enemy in the 6.6 control snapshot."""
    enemy = other(side)
    return frozenset(h for h, s in state.control.items() if s == enemy)


def within(board: Board, start: str, steps: int, blocked: Iterable[str]) -> dict[str, int]:
    """Hexes reachable from ``start`` in at most ``steps`` hexes without passing *through*
    a blocked hex (a blocked hex may still be the last hex reached): the 4.5 command range
    traced through friendly or neutral hexes. Returns hex -> distance."""
    idx = index(board)
    bad = frozenset(blocked)
    dist = {start: 0}
    queue = deque([start])
    while queue:
        hx = queue.popleft()
        d = dist[hx]
        if d >= steps or (hx in bad and hx != start):
            continue
        for n in idx.nbrs.get(hx, ()):
            if n not in dist:
                dist[n] = d + 1
                queue.append(n)
    return dist


def connected(board: Board, start: str, goal: str, blocked: Iterable[str]) -> bool:
    """8.4 supply line: a chain of hexes from ``start`` to ``goal`` none of which (the goal
    included, the start excluded) is blocked."""
    idx = index(board)
    bad = frozenset(blocked)
    if goal in bad or goal not in idx.nbrs or start not in idx.nbrs:
        return False
    seen = {start}
    queue = deque([start])
    while queue:
        hx = queue.popleft()
        if hx == goal:
            return True
        for n in idx.nbrs[hx]:
            if n not in seen and n not in bad:
                seen.add(n)
                queue.append(n)
    return False
