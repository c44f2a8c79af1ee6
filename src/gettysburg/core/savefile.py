"""Save files: a tamper-evident record of a game, replayable from scratch.

A save holds the set-up (system, scenario, options, seed or commit-reveal record, dice
source), the state hash before the first action, and one entry per applied action:
the seat, the action, the dice values it consumed, the resulting state hash and a
*link*::

    genesis = SHA256(canonical(["gettysburg.save.genesis.v1", header]))
    link[i] = SHA256(canonical(["gettysburg.save.link.v1", link[i-1] (genesis for i = 0),
                                seat, action, dice, state_hash]))

Anyone holding the latest link hash is committed to the whole history before it. With
seeded dice :func:`replay` also re-derives every die from the seed, so a forged roll is
caught even if the forger recomputed the links. An optional snapshot (full state at some
action index) lets trusted loads skip the replay.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_serializer

from gettysburg.core.canonical import JSONDict, hash_json, json_copy
from gettysburg.core.dice import (
    CommitReveal,
    CommitRevealError,
    DiceError,
    ScriptedDice,
    SeededDice,
)
from gettysburg.core.protocol import Game, RuleError, load_game, new_game

FORMAT = "gettysburg-save"
VERSION = 1
GENESIS_DOMAIN = "gettysburg.save.genesis.v1"
LINK_DOMAIN = "gettysburg.save.link.v1"

#: a face of any die the project rolls (d6 1..6, d10 0..9); replay re-derives each one
Die = Annotated[int, Field(strict=True, ge=0, le=9)]
Hex64 = Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class DiceSpec(_Strict):
    """``seeded`` (values derived from the seed) or ``scripted`` with the full script."""

    kind: Literal["seeded", "scripted"]
    values: list[Die] | None = None
    #: the scripted dice's die (absent for d6, so older saves keep their genesis hash)
    die: Literal["d6", "d10"] | None = None

    @model_serializer
    def header(self) -> JSONDict:
        out: JSONDict = {"kind": self.kind, "values": self.values}
        if self.die is not None:
            out["die"] = self.die
        return out


class CommitRevealRecord(_Strict):
    seats: list[str]
    commitments: dict[str, Hex64]
    reveals: dict[str, str]


class SavedMove(_Strict):
    seat: str
    action: dict[str, Any]
    dice: list[Die]
    state_hash: Hex64
    link: Hex64


class Snapshot(_Strict):
    """Full game state (``Game.to_json``) after the first ``index`` moves."""

    index: int = Field(ge=0)
    state: dict[str, Any]


class SaveFile(_Strict):
    format: Literal["gettysburg-save"]
    version: Literal[1]
    system: str
    scenario: str
    options: list[str]
    seed: str
    dice: DiceSpec
    commit_reveal: CommitRevealRecord | None = None
    initial_state_hash: Hex64
    genesis: Hex64
    moves: list[SavedMove]
    snapshot: Snapshot | None = None

    def header(self) -> JSONDict:
        """The fields the genesis hash covers."""
        return {"format": self.format, "version": self.version, "system": self.system,
                "scenario": self.scenario, "options": list(self.options), "seed": self.seed,
                "dice": self.dice.header(),
                "commit_reveal": None if self.commit_reveal is None
                else self.commit_reveal.model_dump(),
                "initial_state_hash": self.initial_state_hash}


class SaveFileError(ValueError):
    """A save file is unreadable or malformed; the message names the offending field."""


@dataclass(frozen=True)
class Problem:
    """What :func:`replay` found wrong. ``index`` is the first bad move (``None``: header).

    ``kind`` is one of ``header`` (set-up fields or genesis), ``action`` (action or seat
    edited, or the recorded action is illegal), ``dice`` (recorded dice differ from the
    dice source), ``state`` (resulting state hash differs), ``link`` (the link field itself
    edited) or ``snapshot`` (snapshot does not match the replayed state).
    """

    index: int | None
    kind: str
    message: str

    def __str__(self) -> str:
        where = "header" if self.index is None else f"move {self.index}"
        if where == self.kind:  # a header problem: say "header" once
            return f"{where}: {self.message}"
        return f"{where}: {self.kind}: {self.message}"


class ReplayError(Exception):
    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem


def genesis_hash(header: JSONDict) -> str:
    return hash_json([GENESIS_DOMAIN, header])


def link_hash(prev: str, seat: str, action: Mapping[str, Any], dice: list[int],
              state_hash: str) -> str:
    return hash_json([LINK_DOMAIN, prev, seat, dict(action), list(dice), state_hash])


def save(game: Game, *, snapshot: bool = False) -> JSONDict:
    """The save-file data (a JSON object) for ``game``; ``snapshot`` embeds the state."""
    setup = game.setup
    if isinstance(game.dice, ScriptedDice):
        dice: JSONDict = {"kind": "scripted", "values": list(game.dice.values)}
        if game.dice.die != "d6":
            dice["die"] = game.dice.die
    elif isinstance(game.dice, SeededDice):
        if game.dice.seed != setup.seed:
            raise ValueError("seeded dice do not use the game's recorded seed")
        dice = {"kind": "seeded", "values": None}
    else:
        raise ValueError(f"cannot save a game using {type(game.dice).__name__} dice")
    model = SaveFile.model_validate({
        "format": FORMAT, "version": VERSION, "system": setup.system,
        "scenario": setup.scenario, "options": list(setup.options), "seed": setup.seed,
        "dice": dice, "commit_reveal": setup.commit_reveal,
        "initial_state_hash": game.initial_state_hash, "genesis": "0" * 64, "moves": []})
    prev = genesis_hash(model.header())
    moves: list[JSONDict] = []
    for move in game.history:
        prev = link_hash(prev, move.seat, move.action, list(move.dice), move.state_hash)
        moves.append({"seat": move.seat, "action": json_copy(move.action),
                      "dice": list(move.dice), "state_hash": move.state_hash, "link": prev})
    data: JSONDict = json_copy(model.model_dump())
    data["genesis"] = genesis_hash(model.header())
    data["moves"] = moves
    data["snapshot"] = ({"index": len(moves), "state": game.to_json()} if snapshot else None)
    return data


def parse(data: object) -> SaveFile:
    """Validate save-file data; :class:`SaveFileError` names every bad field."""
    if isinstance(data, SaveFile):
        return data
    try:
        return SaveFile.model_validate(data)
    except ValidationError as exc:
        lines = [f"{'.'.join(str(p) for p in err['loc']) or '(top level)'}: {err['msg']}"
                 for err in exc.errors()]
        raise SaveFileError("malformed save file:\n  " + "\n  ".join(lines)) from None


def write(data: SaveFile | Mapping[str, Any], path: str | os.PathLike[str]) -> None:
    """Validate and write a save file (sorted, indented JSON; atomic replace)."""
    model = parse(dict(data) if isinstance(data, Mapping) else data)
    text = json.dumps(model.model_dump(), sort_keys=True, indent=1, ensure_ascii=False) + "\n"
    target = Path(path)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def load(path: str | os.PathLike[str]) -> SaveFile:
    """Read and validate a save file."""
    try:
        raw = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise SaveFileError(f"{path}: cannot read: {exc}") from exc
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise SaveFileError(f"{path}: not JSON (line {exc.lineno}, column {exc.colno}: "
                            f"{exc.msg})") from None
    try:
        return parse(data)
    except SaveFileError as exc:
        raise SaveFileError(f"{path}: {exc}") from None


def _fail(index: int | None, kind: str, message: str) -> ReplayError:
    return ReplayError(Problem(index, kind, message))


def _start(model: SaveFile) -> Game:
    """A fresh game from the header (checking the commit-reveal record and dice spec)."""
    record = None
    seed = model.seed
    if model.commit_reveal is not None:
        try:
            record = CommitReveal.from_json(model.commit_reveal.model_dump())
            seed = record.verify()
        except CommitRevealError as exc:
            raise _fail(None, "header", f"commit-reveal record invalid: {exc}") from None
        if seed != model.seed:
            raise _fail(None, "header", "seed does not match the commit-reveal record")
    if model.dice.kind == "scripted":
        if model.dice.values is None:
            raise _fail(None, "header", "scripted dice without a script (dice.values)")
        try:
            dice = ScriptedDice(model.dice.values, die=model.dice.die or "d6")
        except DiceError as exc:
            raise _fail(None, "header", f"scripted dice: {exc}") from None
    else:
        if model.dice.values is not None:
            raise _fail(None, "header", "seeded dice must not list values")
        dice = None
    try:
        return new_game(f"{model.system}/{model.scenario}", options=model.options,
                        seed=model.seed, dice=dice, commit_reveal=record)
    except (ValueError, LookupError) as exc:
        raise _fail(None, "header", f"cannot set up the game: {exc}") from None


def replay(data: SaveFile | Mapping[str, Any], verify: bool = True) -> Game:
    """Rebuild the game a save describes.

    With ``verify`` every move is re-applied from the start and checked (dice re-derived,
    state hashes and links recomputed); the first problem raises :class:`ReplayError`
    whose ``problem`` says where and what. Without ``verify`` a snapshot, if present, is
    trusted and only later moves are applied.
    """
    model = parse(dict(data) if isinstance(data, Mapping) else data)
    if not verify:
        return _replay_fast(model)
    game = _start(model)  # first, so a bad commit-reveal record is named as such
    if genesis_hash(model.header()) != model.genesis:
        raise _fail(None, "header", "genesis hash does not match the header fields")
    if game.state_hash() != model.initial_state_hash:
        raise _fail(None, "header", "initial state differs (scenario, options, seed or "
                                    "rules version changed)")
    _check_snapshot(model, game, 0)
    prev = model.genesis
    for i, mv in enumerate(model.moves):
        try:
            game.apply(mv.action, mv.seat)
        except RuleError as exc:
            raise _fail(i, "action", f"recorded action {mv.action} by {mv.seat!r} is refused: "
                                     f"{exc}") from None
        except DiceError as exc:
            raise _fail(i, "dice", f"dice source failed: {exc}") from None
        done = game.history[-1]
        true_dice, true_state = list(done.dice), done.state_hash
        true_link = link_hash(prev, mv.seat, mv.action, true_dice, true_state)
        if mv.link == true_link and mv.dice == true_dice and mv.state_hash == true_state:
            prev = mv.link
            _check_snapshot(model, game, i + 1)
            continue
        self_consistent = mv.link == link_hash(prev, mv.seat, mv.action, mv.dice, mv.state_hash)
        if mv.link == true_link or self_consistent:
            # The action agrees with the link (or the whole entry was re-hashed after an
            # edit): blame the field that differs from what the replay produced.
            forged = "" if mv.link == true_link else " (links recomputed after the edit)"
            if mv.dice != true_dice:
                raise _fail(i, "dice", f"recorded dice {mv.dice}, dice source gives "
                                       f"{true_dice}{forged}")
            raise _fail(i, "state", f"recorded state hash {mv.state_hash[:12]}…, replay gives "
                                    f"{true_state[:12]}…{forged}")
        if i + 1 < len(model.moves):
            nxt = model.moves[i + 1]
            args = (nxt.seat, nxt.action, nxt.dice, nxt.state_hash)
            if link_hash(mv.link, *args) != nxt.link and link_hash(true_link, *args) == nxt.link:
                raise _fail(i, "link", "the link hash of this move was edited")
        raise _fail(i, "action", "link hash mismatch: the action or seat was edited")
    return game


def _check_snapshot(model: SaveFile, game: Game, index: int) -> None:
    if model.snapshot is None or model.snapshot.index != index:
        return
    try:
        snap_hash = load_game(model.snapshot.state).state_hash()
    except (ValueError, LookupError, TypeError, DiceError) as exc:
        raise _fail(index, "snapshot", f"snapshot cannot be loaded: {exc}") from None
    if snap_hash != game.state_hash():
        raise _fail(index, "snapshot", "snapshot state differs from the replayed state")


def _replay_fast(model: SaveFile) -> Game:
    if model.snapshot is not None:
        if model.snapshot.index > len(model.moves):
            raise _fail(None, "snapshot", "snapshot index beyond the recorded moves")
        game = load_game(model.snapshot.state)
        start = model.snapshot.index
    else:
        game, start = _start(model), 0
    for i in range(start, len(model.moves)):
        mv = model.moves[i]
        try:
            game.apply(mv.action, mv.seat)
        except (RuleError, DiceError) as exc:
            raise _fail(i, "action", f"recorded action cannot be applied: {exc}") from None
    return game


def check(data: SaveFile | Mapping[str, Any]) -> Problem | None:
    """``None`` if the save verifies, else the first :class:`Problem`."""
    try:
        replay(data, verify=True)
    except ReplayError as exc:
        return exc.problem
    return None
