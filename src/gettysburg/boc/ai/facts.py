"""The board facts Badges of Courage's AI reasons with, and which scenario a view is of.

Kept apart from the doctrine so that the sampler (:mod:`gettysburg.boc.ai.belief`) and the
doctrine both read them without importing each other. Public knowledge only: the board
of the view's scenario (its own, for a custom scenario file with an ``engine:`` board).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gettysburg.boc.board import Board, load_board
from gettysburg.boc.combat import MELEE, hexside_penalty
from gettysburg.boc.game import board_for
from gettysburg.boc.scenario import SCENARIO_FILES
from gettysburg.core.doctrine import JSONDict
from gettysburg.core.hexes import Hex

GOOD_GROUND = frozenset({"woods", "town", "rocks", "orchard"})


@dataclass(frozen=True, eq=False)  # hashed by identity: a key of ``enemy_reach``
class MapFacts:
    """Board facts the doctrine uses, indexed by hex id (built once per board)."""

    board: Board
    hexes: dict[str, Hex]
    nbrs: dict[str, tuple[str, ...]]
    victory: dict[str, int]
    stacking: dict[str, int]
    shelter: dict[str, float]  # defensive value of standing in the hex
    table: dict[str, dict[str, int]]  # all-pairs hex distances (259 hexes: cheap)
    around_victory: frozenset[str]  # victory hexes and their neighbours
    # 7.3 penalties by (from, target) hex, made on first use (a melee is weighed often).
    melee_penalties: dict[tuple[str, str], int] = field(default_factory=dict)
    # Victory hexes within 1 of a hex (``near_victory``), made on first use.
    near_victories: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def dist(self, a: str, b: str) -> int:
        return self.table[a][b]

    def melee_penalty(self, frm: str, target: str) -> int:
        """The hexside penalty (7.3) of attacking ``target`` from ``frm``; 0 when the
        two are not next to each other."""
        got = self.melee_penalties.get((frm, target))
        if got is None:
            try:
                got = hexside_penalty(self.board, frm, target, MELEE)
            except ValueError:
                got = 0
            self.melee_penalties[(frm, target)] = got
        return got


def scenario_source(view: JSONDict) -> str:
    """The scenario a view's game was made from, as ``new_game`` and the scenario files
    take it after ``boc/``: a shipped name (``day1``) or a YAML path (a custom scenario,
    whose id alone names no file). Older views without ``source`` give their id."""
    source = view.get("source")
    if source:
        return str(source)
    scenario = str(view.get("scenario") or "")
    return scenario.split("/", 1)[1] if scenario.startswith("boc/") else scenario


#: Facts of the shipped scenarios, by the name a view gives (``scenario_source``): their
#: files do not change while a process runs, so the doctrine, which asks at every
#: decision, need not look for the file and its time again (issue 59).
_SHIPPED: dict[str, MapFacts] = {}


def facts_for(view: JSONDict) -> MapFacts:
    """The board facts of the view's scenario (its own board, as ``engine:`` may give a
    custom scenario one); the shipped board's when the scenario cannot be read."""
    source = scenario_source(view)
    got = _SHIPPED.get(source)
    if got is not None:
        return got
    try:
        board = board_for(source)
    except (ValueError, LookupError, OSError):
        return map_facts()
    got = map_facts(board)
    if source in SCENARIO_FILES or f"boc/{source}" in SCENARIO_FILES:
        _SHIPPED[source] = got
    return got


#: Facts of the boards used lately, (board, its facts) by id(board): the board is kept
#: with them, so its id cannot pass to another board while the entry lives.
_FACTS: dict[int, tuple[Board, MapFacts]] = {}
FACTS_KEPT = 8  # boards; each holds a table of all hex distances (a few MB)


def map_facts(board: Board | None = None) -> MapFacts:
    """The facts of ``board`` (default: the shipped board), made once per board while it
    is among the ``FACTS_KEPT`` boards used last."""
    board = board if board is not None else load_board()
    got = _FACTS.pop(id(board), None)
    if got is None or got[0] is not board:
        got = (board, _make_facts(board))
    _FACTS[id(board)] = got  # last in, last to go
    while len(_FACTS) > FACTS_KEPT:
        del _FACTS[next(iter(_FACTS))]
    return got[1]


def _make_facts(board: Board) -> MapFacts:
    hexes = {info.id: h for h, info in board.hexes.items()}
    nbrs = {info.id: tuple(board.hexes[n].id for n in h.neighbours() if n in board.hexes)
            for h, info in board.hexes.items()}
    shelter = {info.id: (0.3 if info.terrain in GOOD_GROUND else 0.0) + 0.2 * info.ground
           + (0.4 if info.double_defence else 0.0) for info in board.hexes.values()}
    victory = {i.id: i.victory for i in board.victory_hexes()}
    return MapFacts(board, hexes, nbrs, victory,
                    {info.id: info.stacking for info in board.hexes.values()}, shelter,
                    {a: {b: ha.distance(hb) for b, hb in hexes.items()}
                     for a, ha in hexes.items()},
                    frozenset(victory) | {n for v in victory for n in nbrs[v]})
