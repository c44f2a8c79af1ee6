"""A tiny complete rule system ("toy") that exercises every part of the protocol.

Rules (section numbers are cited by every refusal and event):

* T1 Two seats, ``red`` and ``blue``; each has three blocks. A block's label and strength
  are hidden from the other seat until revealed. ``red`` moves first; turns alternate.
* T2 On its turn a seat takes one action: ``reveal`` (an own hidden block becomes
  public), ``attack`` (with an own block) or ``pass``.
* T3 An attack rolls as many dice as the attacker's strength; each 5 or 6 is a hit.
  The dice are shown only to the attacker; the defender learns the number of hits.
* T4 If hits were scored the *defender* chooses which own block takes them (``assign``);
  the block loses one strength per hit and is eliminated at zero.
* T5 The game ends after ``turns`` turns (option ``turns=N``, default 6) or when a side has
  no blocks; the side with more total strength wins, else it is a draw.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gettysburg.core.canonical import JSONDict
from gettysburg.core.dice import Dice, normalize_seed
from gettysburg.core.protocol import (
    REFEREE,
    Action,
    Event,
    Game,
    GameSetup,
    RuleError,
    Seat,
    action_key,
    resolve_dice,
)
from gettysburg.core.protocol import (
    dice_event as _dice_event,
)

SEATS: tuple[Seat, Seat] = ("red", "blue")
SCENARIOS: dict[str, dict[Seat, list[tuple[str, int]]]] = {
    "standard": {"red": [("Archer", 3), ("Baxter", 2), ("Cutler", 1)],
                 "blue": [("Davis", 2), ("Early", 3), ("Field", 1)]},
    "strong": {"red": [("Hood", 4), ("Law", 4), ("Pender", 3)],
               "blue": [("Reynolds", 4), ("Sickles", 4), ("Weed", 3)]},
}


def _other(seat: Seat) -> Seat:
    return SEATS[1] if seat == SEATS[0] else SEATS[0]


def _parse_turns(options: Sequence[str]) -> int:
    turns = 6
    for opt in options:
        name, _, value = opt.partition("=")
        if name != "turns" or not value.isdigit() or int(value) < 1:
            raise ValueError(f"unknown toy option {opt!r} (only turns=N, N >= 1)")
        turns = int(value)
    return turns


class ToyGame(Game):
    """The toy rule system; its constructor is also its registered factory."""

    system = "toy"

    def __init__(self, scenario: str = "standard", options: Sequence[str] = (),
                 seed: int | str = 0, dice: Dice | None = None) -> None:
        if scenario not in SCENARIOS:
            raise ValueError(f"unknown toy scenario {scenario!r}; have {sorted(SCENARIOS)}")
        turns = _parse_turns(options)
        game_dice = resolve_dice(seed, dice)
        super().__init__(GameSetup(self.system, scenario, tuple(options),
                                   normalize_seed(seed)), game_dice)
        # Block ids (r1, b2, …) are public; labels and strengths are the hidden part.
        self.blocks: dict[str, dict[str, Any]] = {
            f"{seat[0]}{i + 1}": {"side": seat, "label": label, "strength": strength,
                                  "revealed": False}
            for seat in SEATS for i, (label, strength) in enumerate(SCENARIOS[scenario][seat])}
        self.turn, self.turns, self.active = 1, turns, SEATS[0]
        self.pending_hits = 0  # > 0 while the defender must assign hits (T4)
        self.record(Event("setup", "T1", {"scenario": scenario, "turns": turns}))

    # --- state ---------------------------------------------------------------------------

    def position_json(self) -> JSONDict:
        return {"blocks": {k: dict(v) for k, v in self.blocks.items()}, "turn": self.turn,
                "turns": self.turns, "active": self.active, "pending_hits": self.pending_hits}

    def load_position(self, position: JSONDict) -> None:
        self.blocks = {k: dict(v) for k, v in position["blocks"].items()}
        self.turn, self.turns = int(position["turn"]), int(position["turns"])
        self.active, self.pending_hits = str(position["active"]), int(position["pending_hits"])

    def seats(self) -> list[Seat]:
        return list(SEATS)

    def _own(self, seat: Seat) -> list[str]:
        return [k for k, b in self.blocks.items() if b["side"] == seat]

    def _total(self, seat: Seat) -> int:
        return sum(int(self.blocks[k]["strength"]) for k in self._own(seat))

    # --- decisions -------------------------------------------------------------------------

    def is_terminal(self) -> bool:
        return self.turn > self.turns or any(not self._own(s) for s in SEATS)

    def to_move(self) -> list[Seat]:
        if self.is_terminal():
            return []
        return [_other(self.active)] if self.pending_hits else [self.active]

    def legal_actions(self, seat: Seat) -> list[Action]:
        if seat not in self.to_move():
            return []
        if self.pending_hits:
            return [{"type": "assign", "block": k} for k in self._own(seat)]
        own = self._own(seat)
        return ([{"type": "reveal", "block": k} for k in own if not self.blocks[k]["revealed"]]
                + [{"type": "attack", "block": k} for k in own] + [{"type": "pass"}])

    def validate(self, action: Action, seat: Seat) -> None:
        if action_key(action) in {action_key(a) for a in self.legal_actions(seat)}:
            return
        kind = action["type"]
        if self.pending_hits and kind != "assign":
            raise RuleError("T4", f"{seat} must first assign {self.pending_hits} hit(s)")
        if kind not in ("reveal", "attack", "pass", "assign"):
            raise RuleError("T2", f"unknown action type {kind!r}")
        if kind == "assign" and not self.pending_hits:
            raise RuleError("T4", "there are no hits to assign")
        rule = {"reveal": "T2", "attack": "T3", "assign": "T4", "pass": "T2"}[kind]
        raise RuleError(rule, f"{kind} {action.get('block', '')!s} is not allowed for {seat} "
                              "(not an own block, already revealed, or malformed)")

    def execute(self, action: Action, seat: Seat) -> list[Event]:
        kind, block = action["type"], action.get("block", "")
        if kind == "reveal":
            b = self.blocks[block]
            b["revealed"] = True
            events = [Event("reveal", "T2", {"seat": seat, "block": block, "label": b["label"],
                                             "strength": b["strength"]})]
        elif kind == "attack":
            strength = int(self.blocks[block]["strength"])
            first = self.dice.counter
            rolls = self.dice.roll_n(strength, f"{block} attacks", "T3")
            hits = sum(1 for v in rolls if v >= 5)
            events = [_dice_event(self.dice.rolls_since(first), visible_to=[seat],
                                  redacted={"note": f"{block} rolled its attack"}),
                      Event("attack", "T3", {"seat": seat, "block": block, "hits": hits})]
            if hits:
                self.pending_hits = hits
                return events  # the defender decides next; the turn continues (T4)
        elif kind == "assign":
            events = self._assign(block, seat)
        else:
            events = [Event("pass", "T2", {"seat": seat})]
        self.turn += 1
        self.active = _other(self.active)
        if self.is_terminal():
            events.append(Event("end", "T5", self.result() or {}))
        return events

    def _assign(self, block: str, seat: Seat) -> list[Event]:
        b = self.blocks[block]
        hits, self.pending_hits = self.pending_hits, 0
        b["strength"] = max(0, int(b["strength"]) - hits)
        if b["strength"] == 0:
            del self.blocks[block]
            return [Event("eliminated", "T4", {"block": block, "label": b["label"]})]
        # The attacker learns where the hits went, not the label or remaining strength.
        return [Event("hits", "T4", {"block": block, "hits": hits, "label": b["label"],
                                     "strength": b["strength"]},
                      visible_to=(seat,), redacted={"block": block, "hits": hits})]

    def result(self) -> JSONDict | None:
        if not self.is_terminal():
            return None
        red, blue = self._total("red"), self._total("blue")
        winner = "red" if red > blue else "blue" if blue > red else None
        return {"winner": winner, "strength": {"red": red, "blue": blue}}

    # --- fog of war ------------------------------------------------------------------------

    def view(self, seat: Seat) -> JSONDict:
        blocks: dict[str, JSONDict] = {}
        for k, b in self.blocks.items():
            if seat in (b["side"], REFEREE) or b["revealed"]:
                blocks[k] = dict(b)
            else:
                blocks[k] = {"side": b["side"], "revealed": False}
        return {"system": self.system, "seat": seat, "turn": self.turn, "turns": self.turns,
                "active": self.active,
                "pending_hits": self.pending_hits, "to_move": self.to_move(), "blocks": blocks,
                "legal_actions": self.legal_actions(seat), "result": self.result()}

