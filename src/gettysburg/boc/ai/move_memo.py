"""What the general keeps from one decision to the next (issue 59).

In a movement phase the general moves one block per decision and scores every move of
every block again at the next one, although one block's move leaves most of what the
others' scores read unchanged. The doctrine keeps these, each under a *context* that
holds every input it reads, so that a kept number is the one a fresh computation would
give and the general's decisions do not change:

* the terms a hex adds to the objectives' pull for a kind of block
  (``move_values.Situation.hex_terms``): they read the enemy blocks, control, clock,
  style and score, never own blocks (``move_keeping.terms_context``), so they stay valid
  through a whole movement phase;
* for an HQ, how many blocks of its corps each hex has in command range (4.5), under the
  corps' hexes (``MoveMemo.hq_near``);
* each unit's move parts (``UnitMoves``: the destinations' values without the overstack
  check, their control gains, the value of staying), which also read own blocks in and
  next to the victory hexes (``move_keeping.move_context``); they are reused while the
  unit's hex, strength, destinations (and, for an HQ, its corps' hexes) are the same.
  When a block moves in or out of a victory hex's neighbourhood (a new move context), the
  new context starts from the last one's numbers, less those the change can reach
  (``move_keeping.carry_over``): the objectives' pull where a changed objective was or
  becomes the strongest, control gains near a victory hex whose neighbourhood changed,
  and, of a unit with a destination among those hexes, the values and gains of those
  destinations (``UnitMoves.stale``: found again when the unit is next scored; a
  destination's value reads nothing of the others'). The new context takes the last
  one's tables over in place, and that one is left empty (session 48);
* a hex's value without the overstack check for a kind of block (a battery or not, worn
  or not, and the hex it leaves if it garrisons a victory hex), shared by all such
  blocks (``KeptMoves.values``, ``Situation.value_row``; session 48);
* each unit's move scores with no hex overstacked, handed out as they are while its
  paths are the same as when they were made (session 47);
* melee declarations' scores (``MoveMemo.melee``), under everything one reads
  (``Knowledge.melee_around``: the target's enemy blocks, the own declarations on it and
  the blocks on offer against it, with their hexes and strengths) and the block's own
  part.

The overstack check (6.2), which reads the count of blocks in the destination hex itself,
is made afresh at every decision: only for the destinations that may be full
(``Situation.may_overstack``), whose scores are then patched.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

#: Contexts kept: the two seats' generals share one doctrine (and one thread may play
#: several games in turn), each switching context at most once a decision.
CONTEXTS_KEPT = 8

#: HQ rows kept (``MoveMemo.hq_near``): two seats' HQs, with room for their corps to move.
HQ_ROWS_KEPT = 128

V = TypeVar("V")

#: ``Situation.hex_terms``: terms before the room to fall back, whether that one applies,
#: terms after it.
HexTerms = tuple[tuple[float, ...], bool, tuple[float, ...]]

#: ``Situation.value_row``: a battery or not, worn or not, the hex left if it garrisons a
#: victory hex (None: it garrisons none).
ValueRowKey = tuple[bool, bool, str | None]


class Key:
    """A context: a tuple hashed once (a context holds a few hundred parts, and each
    lookup would hash them all again), equal to another key of an equal tuple."""

    __slots__ = ("_hash", "parts")

    def __init__(self, parts: tuple[Hashable, ...]) -> None:
        self.parts = parts
        self._hash = hash(parts)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Key) and self._hash == other._hash
                                 and self.parts == other.parts)


@dataclass(slots=True)
class UnitMoves:
    """One unit's kept move parts in one context; never changed once made (a plain
    class with slots: made thousands of times a game, issue 59)."""

    key: Hashable  # the unit's hex, strength, and for an HQ its corps' hexes (4.5)
    dests: tuple[str, ...]  # the destinations, in the legal list's order
    values: tuple[float, ...]  # ``hex_values`` of each without the overstack check
    gains: tuple[float, ...]  # ``control_gain`` of each (0.0 where no victory hex is near)
    stay: float  # ``hex_values`` of the unit's own hex without the overstack check
    #: The moves' paths these scores were made for, the control weight, and the moves'
    #: scores where no hex is overstacked (6.2): kept and handed out as they are while the
    #: paths are the same (``kept_move_scores``). The paths are kept as given, not copied
    #: (issue 59): the doctrine's run of the legal list's paths (``move_runs``), which
    #: nobody changes (a shared view's, or a fresh one's that its host does not edit), and
    #: the very same list at the next decision while a shared view hands out the same moves.
    paths: Sequence[Sequence[str]] = field(default_factory=list, compare=False)
    weight: float = 0.0
    scores: list[float] = field(default_factory=list, compare=False)
    #: The destinations, those the board has no stacking figure for (always asked), and
    #: whether one is the unit's own hex (always asked too).
    watch: frozenset[str] = frozenset()
    off_board: frozenset[str] = frozenset()
    from_here: bool = False
    #: Destinations whose value or gain a new context may have changed (taken over by
    #: ``move_keeping.carry_over``): found again before these parts are used.
    stale: frozenset[str] = frozenset()

    def marked(self, stale: frozenset[str]) -> UnitMoves:
        """These parts with ``stale`` destinations more to find again."""
        return UnitMoves(self.key, self.dests, self.values, self.gains, self.stay,
                         self.paths, self.weight, self.scores, self.watch, self.off_board,
                         self.from_here, self.stale | stale)


@dataclass
class KeptMoves:
    """What one ``move_keeping.move_context`` keeps: the units' move parts, and the
    situation's own tables of the numbers that read nothing else (the objectives' pull by
    the hex a unit leaves and the hex it reaches, ``objective``; control gains by move,
    ``control_gain``; control now by victory hex, 6.61)."""

    units: dict[str, UnitMoves] = field(default_factory=dict)
    objective: dict[str | None, dict[str, float]] = field(default_factory=dict)
    gains: dict[tuple[str, str | None], float] = field(default_factory=dict)
    control_now: dict[str, str | None] = field(default_factory=dict)
    #: The objectives' (hex, need, divisor) for a unit leaving a hex near one, by hex.
    leaving: dict[str, list[tuple[str, float, float]]] = field(default_factory=dict)
    #: Hexes' values by kind of block (``Situation.value_row``), by hex.
    values: dict[ValueRowKey, dict[str, float]] = field(default_factory=dict)
    #: Own blocks in and next to the victory hexes (``move_keeping.move_context``) and the
    #: objectives' (hex, need, divisor) these numbers were found with; None while new.
    garrison: tuple[int, ...] | None = None
    objectives: tuple[tuple[str, float, float], ...] = ()


@dataclass
class KeptTerms:
    """What one ``move_keeping.terms_context`` keeps: ``hex_terms`` by kind of block and hex,
    and the ``KeptMoves`` used last under it (a new move context starts from it,
    ``move_keeping.carry_over``)."""

    terms: dict[tuple[bool, bool], dict[str, HexTerms]] = field(default_factory=dict)
    latest: KeptMoves | None = None


class LastUsed(Generic[V]):
    """One value per context, made on first use, for the ``CONTEXTS_KEPT`` contexts
    used last (``kept`` of them)."""

    def __init__(self, make: Callable[[], V], kept: int = CONTEXTS_KEPT) -> None:
        self._make, self._size = make, kept
        self._kept: dict[Hashable, V] = {}

    def get(self, context: Hashable) -> V:
        """The value of ``context`` (a fresh one for a new context), now the latest used."""
        got = self._kept.pop(context, None)
        if got is None:
            got = self._make()
        self._kept[context] = got  # last in, last to go
        while len(self._kept) > self._size:
            del self._kept[next(iter(self._kept))]
        return got


class MoveMemo:
    """The doctrine's kept terms and move parts (module doc), one per thread that asks
    the doctrine (``BocDoctrine.memo``: nothing here is shared between threads, nor
    pickled); ``hits`` and ``misses`` count the units whose move parts were found kept or
    made (for benchmarks)."""

    def __init__(self) -> None:
        self.terms: LastUsed[KeptTerms] = LastUsed(KeptTerms)
        self.moves: LastUsed[KeptMoves] = LastUsed(KeptMoves)
        #: Blocks of an HQ's corps within its command range, by hex (``Situation.hq_near``),
        #: under the board, the corps' hexes and the range: a few dozen HQs per game.
        self.hq_near: LastUsed[dict[str, int]] = LastUsed(dict, kept=HQ_ROWS_KEPT)
        #: Melee declarations' scores under all they read (``BocDoctrine._s_melee``).
        self.melee: dict[Hashable, float] = {}
        #: The last context key made of each kind for each seat, with what it was made
        #: from (``last_key``).
        self._last: dict[tuple[str, str], tuple[tuple[object, ...], Hashable]] = {}
        self.hits = 0
        self.misses = 0
        self.carried = 0  # units whose parts a new move context took over
        self.refreshed = 0  # ... and whose changed destinations were found again

    def last_key(self, kind: str, seat: str, parts: tuple[object, ...],
                 make: Callable[[], Hashable]) -> Hashable:
        """The key ``make`` gives for ``parts`` (what it is made from, compared with
        ``==``): the last one of this kind and seat again when its parts are equal,
        which costs a comparison where a key costs sorting and hashing its parts."""
        last = self._last.get((kind, seat))
        if last is not None and last[0] == parts:
            return last[1]
        key = make()
        self._last[(kind, seat)] = (parts, key)
        return key

