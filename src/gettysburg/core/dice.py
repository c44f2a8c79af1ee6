"""Honest, replayable dice.

Two sources share the :class:`Dice` interface:

* :class:`SeededDice` — roll number ``n`` (0-based counter) of seed ``s`` is a pure
  function :func:`d6` of ``(s, n)``: SHA-256 over the canonical JSON
  ``["gettysburg.d6.v1", s, n, block]`` (``block`` = 0, 1, … only if a whole digest is
  rejected), then the first digest byte ``b < 252`` gives ``b % 6 + 1``. 252 is the largest
  multiple of 6 not above 256, so every face has probability exactly 1/6. No ``random``
  module is involved, so the values are identical on every Python version and machine
  and anyone holding the seed can re-derive and check every roll.
* :class:`KeyedDice` — the ``n``-th die rolled for one purpose (``"fire X at Y"``) is a
  pure function of ``(s, purpose, n)``. Within a game every die is still an independent,
  fair d6; what changes is how two games of the same seed relate: a shot fired in both gets
  the same dice even when other rolls came before it in one game only. The lab offers it
  (``simulate --dice keyed``) and a system's search hooks can use it in their worlds;
  it was meant to make paired comparisons less noisy and,
  measured, does not (docs/ai.md, "Coupled games").
* :class:`ScriptedDice` — a fixed list of values, for tests and tutorials.

Two dice: the d6 (faces 1..6; the default) and the d10, read 0..9 as the rulebooks that use
it number its faces. ``roll(..., die="d10")`` draws from its own domain (``gettysburg.d10.v1``,
first digest byte below 250, ``b % 10``), so adding it changed no d6 value, and a d6 roll's
record is what it was (a roll records its die only when it is not a d6).

Every roll is recorded as a :class:`Roll` (counter, purpose, rule section, value).

:class:`CommitReveal` produces a seed neither play-by-e-mail player could choose alone.
"""

from __future__ import annotations

import hashlib
import secrets
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from gettysburg.core.canonical import JSONDict, canonical_bytes, hash_json, is_sha256_hex

D6_DOMAIN = "gettysburg.d6.v1"
D10_DOMAIN = "gettysburg.d10.v1"
KEYED_DOMAIN = "gettysburg.d6.keyed.v1"
COMMIT_DOMAIN = "gettysburg.commit.v1"
SEED_DOMAIN = "gettysburg.seed.v1"
_LIMIT = 252  # 42 * 6: bytes at or above this are rejected so that b % 6 is unbiased
#: the dice a roll may use: lowest face, number of faces, and the rejection limit
#: (the largest multiple of the face count not above 256)
DICE: dict[str, tuple[int, int, int]] = {"d6": (1, 6, _LIMIT), "d10": (0, 10, 250)}


class DiceError(Exception):
    """Base class for dice problems."""


class DiceExhausted(DiceError):
    """A scripted source has no values left."""


class DiceValueError(DiceError, ValueError):
    """A die value outside its faces, an unknown die, or a malformed dice record."""


class CommitRevealError(DiceError):
    """A commit-reveal record is incomplete or a reveal does not match its commitment."""


def normalize_seed(seed: int | str) -> str:
    """Seeds are strings; an int seed means its decimal text, so ``7`` and ``"7"`` agree."""
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise DiceValueError(f"seed must be an int or a str, not {type(seed).__name__}")
    return str(seed)


def d6(seed: int | str, counter: int) -> int:
    """The value of roll number ``counter`` (0-based) for ``seed``; see the module doc."""
    if isinstance(counter, bool) or not isinstance(counter, int) or counter < 0:
        raise DiceValueError(f"roll counter must be an int >= 0, not {counter!r}")
    return _face([D6_DOMAIN, normalize_seed(seed), counter])


def _face(key: list[object], die: str = "d6") -> int:
    """A fair die from ``key``: the first byte below the die's limit (252 for a d6) of
    SHA-256 over the canonical JSON of ``key + [block]`` for ``block`` = 0, 1, ...
    (``b % faces + lowest``)."""
    lowest, faces, limit = DICE[die]
    block = 0
    while True:
        digest = hashlib.sha256(canonical_bytes([*key, block])).digest()
        for byte in digest:
            if byte < limit:
                return byte % faces + lowest
        block += 1  # all 32 bytes rejected: probability (4/256)**32, but stay correct


def d10(seed: int | str, counter: int) -> int:
    """The value (0..9) of roll number ``counter`` for ``seed`` when that roll is a d10."""
    if isinstance(counter, bool) or not isinstance(counter, int) or counter < 0:
        raise DiceValueError(f"roll counter must be an int >= 0, not {counter!r}")
    return _face([D10_DOMAIN, normalize_seed(seed), counter], "d10")


def check_die(die: object) -> str:
    if not isinstance(die, str) or die not in DICE:
        raise DiceValueError(f"unknown die {die!r}; known: {sorted(DICE)}")
    return die


def keyed_d6(seed: int | str, purpose: str, n: int, die: str = "d6") -> int:
    """The value of the ``n``-th die (0-based) rolled for ``purpose`` under ``seed``: the
    first digest byte below 252 of SHA-256 over ``[KEYED_DOMAIN, seed, purpose, n, block]``,
    as :func:`d6` does (so every face has probability exactly 1/6)."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise DiceValueError(f"roll number must be an int >= 0, not {n!r}")
    if die == "d6":
        return _face([KEYED_DOMAIN, normalize_seed(seed), purpose, n])
    return _face([KEYED_DOMAIN, die, normalize_seed(seed), purpose, n], die)


def verify_rolls(seed: int | str, values: Iterable[int], start: int = 0) -> int | None:
    """Check recorded values against the seed; return the counter of the first wrong one."""
    for offset, value in enumerate(values):
        if d6(seed, start + offset) != value:
            return start + offset
    return None


def _check_value(value: object, where: str, die: str = "d6") -> int:
    lowest, faces, _ = DICE[die]
    top = lowest + faces - 1
    if isinstance(value, bool) or not isinstance(value, int) or not lowest <= value <= top:
        raise DiceValueError(f"{where}: {die} value must be an int in {lowest}..{top}, "
                             f"got {value!r}")
    return value


@dataclass(frozen=True)
class Roll:
    """One die rolled: its position in the sequence, why, under which rule, and the result."""

    counter: int
    value: int
    purpose: str = ""
    rule: str = ""
    die: str = "d6"

    def to_json(self) -> JSONDict:
        data: JSONDict = {"counter": self.counter, "value": self.value,
                          "purpose": self.purpose, "rule": self.rule}
        if self.die != "d6":
            data["die"] = self.die
        return data

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Roll:
        try:
            die = check_die(data.get("die", "d6"))
            return Roll(counter=int(data["counter"]),
                        value=_check_value(data["value"], "roll", die),
                        purpose=str(data.get("purpose", "")), rule=str(data.get("rule", "")),
                        die=die)
        except (KeyError, TypeError) as exc:
            raise DiceValueError(f"malformed roll record {dict(data)!r}: {exc}") from exc


class Dice(ABC):
    """A source of die values (d6, or d10 where asked) that records every roll.

    ``rewind(counter)`` forgets rolls from ``counter`` on; the game protocol uses it to undo
    an action that failed half-way, so a refused action never consumes dice.
    """

    kind: ClassVar[str]

    def __init__(self) -> None:
        self._rolls: list[Roll] = []

    @abstractmethod
    def _value(self, counter: int, purpose: str, rule: str, die: str) -> int:
        """The value for roll number ``counter`` (a ``die``: "d6" or "d10")."""

    @abstractmethod
    def state_json(self) -> JSONDict:
        """What determines future rolls (no roll log); part of the game's state hash."""

    @property
    def counter(self) -> int:
        """Number of dice rolled so far (= counter of the next roll)."""
        return len(self._rolls)

    @property
    def rolls(self) -> tuple[Roll, ...]:
        return tuple(self._rolls)

    def rolls_since(self, counter: int) -> list[Roll]:
        return self._rolls[counter:]

    def _noted(self, roll: Roll) -> None:  # noqa: B027 - a hook: most sources need nothing
        """Called once a roll is in the log (a source that counts rolls by purpose keeps its
        count here)."""

    def _forgot(self) -> None:  # noqa: B027 - a hook: most sources need nothing
        """Called after rolls were dropped from the log (``rewind``)."""

    def roll(self, purpose: str = "", rule: str = "", die: str = "d6") -> int:
        """Roll one die (a d6 unless ``die`` says "d10"), recording why (``purpose``) and
        under which rule section."""
        value = self._value(self.counter, purpose, rule, check_die(die))
        roll = Roll(self.counter, value, purpose, rule, die)
        self._rolls.append(roll)
        self._noted(roll)
        return value

    def roll_n(self, n: int, purpose: str = "", rule: str = "", die: str = "d6") -> list[int]:
        """Roll ``n`` dice at once (e.g. a block firing its strength in d6)."""
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise DiceValueError(f"number of dice must be an int >= 0, not {n!r}")
        start = self.counter
        try:
            return [self.roll(purpose, rule, die) for _ in range(n)]
        except DiceError:
            self.rewind(start)  # all-or-nothing: a half-rolled volley is never recorded
            raise

    def rewind(self, counter: int) -> None:
        """Forget rolls number ``counter`` and later."""
        if not 0 <= counter <= self.counter:
            raise DiceValueError(f"cannot rewind to {counter}; {self.counter} rolls made")
        del self._rolls[counter:]
        self._forgot()

    def to_json(self) -> JSONDict:
        """Full record: the state plus the roll log (for display and audit)."""
        data = self.state_json()
        data["rolls"] = [r.to_json() for r in self._rolls]
        return data

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Dice:
        """Rebuild either source; the roll log is re-checked against the source."""
        kind = data.get("kind")
        dice: Dice
        if kind == SeededDice.kind:
            dice = SeededDice(data["seed"])
        elif kind == KeyedDice.kind:
            dice = KeyedDice(data["seed"])
        elif kind == ScriptedDice.kind:
            dice = ScriptedDice(data["values"], die=check_die(data.get("die", "d6")))
        else:
            raise DiceValueError(f"unknown dice kind {kind!r}")
        rolls = [Roll.from_json(r) for r in data.get("rolls", [])]
        for i, r in enumerate(rolls):
            if r.counter != i:
                raise DiceValueError(f"roll log entry {i} has counter {r.counter}")
            expected = dice._value(i, r.purpose, r.rule, r.die)
            if expected != r.value:
                raise DiceValueError(f"roll {i} recorded as {r.value} but the source gives "
                                     f"{expected}")
            dice._rolls.append(r)
            dice._noted(r)
        counter = data.get("counter", len(rolls))
        if counter != len(rolls):
            raise DiceValueError(f"dice counter {counter} but {len(rolls)} rolls logged")
        return dice


class _DiceFromSeed(Dice):
    """Dice whose every value follows from a seed: the seed and how many dice were rolled
    are their whole state."""

    def __init__(self, seed: int | str) -> None:
        super().__init__()
        self.seed = normalize_seed(seed)

    def state_json(self) -> JSONDict:
        return {"kind": self.kind, "seed": self.seed, "counter": self.counter}


class SeededDice(_DiceFromSeed):
    """Dice derived from a seed by :func:`d6`; reproducible and checkable by anyone."""

    kind = "seeded"

    def _value(self, counter: int, purpose: str, rule: str, die: str) -> int:
        return d6(self.seed, counter) if die == "d6" else d10(self.seed, counter)


class KeyedDice(_DiceFromSeed):
    """Dice keyed by purpose (:func:`keyed_d6`): as fair and as checkable as
    :class:`SeededDice` (the roll log holds each die's purpose), and two games of one seed
    share the dice of every roll they both make for the same purpose the same number of
    times (see the module doc)."""

    kind = "keyed"

    def __init__(self, seed: int | str) -> None:
        super().__init__(seed)
        self._uses: dict[str, int] = {}  # dice rolled so far, by purpose

    def _value(self, counter: int, purpose: str, rule: str, die: str) -> int:
        return keyed_d6(self.seed, purpose, self._uses.get(purpose, 0), die)

    def _noted(self, roll: Roll) -> None:
        self._uses[roll.purpose] = self._uses.get(roll.purpose, 0) + 1

    def _forgot(self) -> None:
        self._uses = {}
        for r in self._rolls:
            self._noted(r)


class ScriptedDice(Dice):
    """Dice that return a fixed list of values in order, all of one die (a d6 unless
    ``die`` says "d10", whose values are 0..9)."""

    kind = "scripted"

    def __init__(self, values: Iterable[int], die: str = "d6") -> None:
        super().__init__()
        self.die = check_die(die)
        self.values = [_check_value(v, f"scripted die #{i}", self.die)
                       for i, v in enumerate(values)]

    def _value(self, counter: int, purpose: str, rule: str, die: str) -> int:
        if die != self.die:
            raise DiceValueError(f"a {die} was rolled for {purpose!r} (rule {rule}) but "
                                 f"these scripted dice are {self.die}s")
        if counter >= len(self.values):
            what = f" for {purpose!r}" if purpose else ""
            where = f" (rule {rule})" if rule else ""
            raise DiceExhausted(f"scripted dice exhausted: roll #{counter}{what}{where} "
                                f"requested but only {len(self.values)} values were scripted")
        return self.values[counter]

    @property
    def remaining(self) -> int:
        return len(self.values) - self.counter

    def state_json(self) -> JSONDict:
        data: JSONDict = {"kind": self.kind, "values": list(self.values),
                          "counter": self.counter}
        if self.die != "d6":
            data["die"] = self.die
        return data


# --- commit and reveal -----------------------------------------------------------------


def new_secret() -> str:
    """A fresh 256-bit secret for the commit phase (from the OS, not ``random``)."""
    return secrets.token_hex(32)


def commitment(seat: str, secret: str) -> str:
    """The hash a player sends first. The seat is bound in, so the opponent cannot simply
    copy this commitment and later echo the same secret back."""
    return hash_json([COMMIT_DOMAIN, seat, secret])


def combine_seed(reveals: Mapping[str, str]) -> str:
    """The game seed: SHA-256 over all reveals, ordered by seat name."""
    return hash_json([SEED_DOMAIN, [[seat, reveals[seat]] for seat in sorted(reveals)]])


@dataclass
class CommitReveal:
    """Seed agreement between remote players.

    1. every seat picks :func:`new_secret` and sends :func:`commitment` (``commit``);
    2. once all commitments are in, every seat sends its secret (``reveal``), which must
       hash to its commitment;
    3. ``seed()`` = :func:`combine_seed` of the reveals.

    Nobody can steer the seed: a secret is fixed before the others are known.
    """

    seats: tuple[str, ...]
    commitments: dict[str, str] = field(default_factory=dict)
    reveals: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if len(set(self.seats)) != len(self.seats) or len(self.seats) < 2:
            raise CommitRevealError(f"need at least two distinct seats, got {self.seats!r}")

    def _known(self, seat: str) -> None:
        if seat not in self.seats:
            raise CommitRevealError(f"unknown seat {seat!r}; seats are {list(self.seats)}")

    def commit(self, seat: str, digest: str) -> None:
        self._known(seat)
        if seat in self.commitments:
            raise CommitRevealError(f"seat {seat!r} has already committed")
        if not is_sha256_hex(digest):
            raise CommitRevealError(f"commitment for {seat!r} is not a SHA-256 hex digest")
        self.commitments[seat] = digest

    def reveal(self, seat: str, secret: str) -> None:
        self._known(seat)
        missing = [s for s in self.seats if s not in self.commitments]
        if missing:
            # Revealing early would let a late committer choose its secret after seeing it.
            raise CommitRevealError(f"cannot reveal before all have committed; missing {missing}")
        if commitment(seat, secret) != self.commitments[seat]:
            raise CommitRevealError(f"reveal for {seat!r} does not match its commitment")
        self.reveals[seat] = secret

    @property
    def complete(self) -> bool:
        return all(s in self.reveals for s in self.seats)

    def verify(self) -> str:
        """Check every commitment and reveal; return the seed or raise naming the seat."""
        for seat in self.seats:
            if seat not in self.commitments:
                raise CommitRevealError(f"seat {seat!r} has no commitment")
            if seat not in self.reveals:
                raise CommitRevealError(f"seat {seat!r} has not revealed")
            if commitment(seat, self.reveals[seat]) != self.commitments[seat]:
                raise CommitRevealError(f"reveal for {seat!r} does not match its commitment")
        extra = (set(self.commitments) | set(self.reveals)) - set(self.seats)
        if extra:
            raise CommitRevealError(f"entries for unknown seats {sorted(extra)}")
        return combine_seed(self.reveals)

    def seed(self) -> str:
        return self.verify()

    def to_json(self) -> JSONDict:
        return {"seats": list(self.seats), "commitments": dict(self.commitments),
                "reveals": dict(self.reveals)}

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> CommitReveal:
        try:
            return CommitReveal(tuple(str(s) for s in data["seats"]),
                                {str(k): str(v) for k, v in data.get("commitments", {}).items()},
                                {str(k): str(v) for k, v in data.get("reveals", {}).items()})
        except (KeyError, TypeError, AttributeError) as exc:
            raise CommitRevealError(f"malformed commit-reveal record: {exc}") from exc


def verify_commit_reveal(data: CommitReveal | Mapping[str, Any]) -> str:
    """Verify a complete record (object or JSON) and return the seed it yields."""
    record = data if isinstance(data, CommitReveal) else CommitReveal.from_json(data)
    return record.verify()
