"""The toy system's research hooks (:class:`gettysburg.core.protocol.ResearchHooks`): the
smallest complete example of what a system gives the OpenSpiel and PettingZoo adapters
(``docs/research.md`` walks through it).

* Actions: ``pass`` is id 0; ``reveal``, ``attack`` and ``assign`` each take one block of
  the scenario's roster, in roster order (red's blocks, then blue's).
* Observation: the seat's view without its list of legal actions (it follows from the
  rest); the tensor has four numbers a block (there, own, strength known, strength) and a
  few about the turn.
* Hidden information: the label and strength of an enemy block not yet revealed.
  :meth:`ToyResearch.resample` deals the enemy's unknown labels afresh among its hidden
  blocks, keeping every deal that agrees with what the seat was shown: the hits each block
  took (a block still standing had more strength than that) and the hits each scored (it
  rolled at least that many dice, T3).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass

from gettysburg.core.canonical import JSONDict
from gettysburg.core.protocol import Action, Game, Seat
from gettysburg.toy.game import SCENARIOS, SEATS, ToyGame

#: The action kinds that name a block, in id order after ``pass`` (id 0).
BLOCK_KINDS = ("reveal", "attack", "assign")
#: Numbers per roster block in the tensor, then the numbers about the turn.
BLOCK_FEATURES = ("present", "own", "known", "strength")
SCALARS = ("first_seat", "active", "to_move", "pending_hits", "turn_fraction", "over")


def _toy(game: Game) -> ToyGame:
    if not isinstance(game, ToyGame):
        raise TypeError(f"expected a toy game, got {type(game).__name__}")
    return game


def roster(scenario: str) -> list[tuple[str, Seat, str, int]]:
    """The scenario's blocks as dealt: (block id, side, label, strength), red first."""
    return [(f"{seat[0]}{i + 1}", seat, label, strength)
            for seat in SEATS for i, (label, strength) in enumerate(SCENARIOS[scenario][seat])]


@dataclass(frozen=True)
class Sightings:
    """What a seat has learnt of the enemy's hidden blocks: for each, the least strength it
    can have been dealt (``floor``), and the labels the seat has seen (revealed or
    eliminated), which no hidden block can carry."""

    floor: tuple[tuple[str, int], ...] = ()
    labels: frozenset[str] = frozenset()

    def merged(self, other: Sightings) -> Sightings:
        floor = dict(self.floor)
        for block, least in other.floor:
            floor[block] = max(floor.get(block, 0), least)
        return Sightings(tuple(sorted(floor.items())), self.labels | other.labels)


def read_log(game: ToyGame, seat: Seat) -> Sightings:
    """The seat's sightings, read from its own log (the toy shows a seat everything it was
    told there): hits taken and scored by each enemy block, labels seen."""
    taken: dict[str, int] = {}
    floor: dict[str, int] = {}
    labels: set[str] = set()
    for event in game.events(seat):
        data = event["data"]
        kind, block = event["type"], str(data.get("block", ""))
        if kind in ("reveal", "eliminated"):
            labels.add(str(data["label"]))
        elif kind == "hits":
            taken[block] = taken.get(block, 0) + int(data["hits"])
            floor[block] = max(floor.get(block, 0), taken[block] + 1)  # it still stands
        elif kind == "attack" and data.get("seat") != seat:
            # It rolled its strength in dice (T3): at least as many dice as hits.
            floor[block] = max(floor.get(block, 0), taken.get(block, 0) + int(data["hits"]))
    return Sightings(tuple(sorted(floor.items())), frozenset(labels))


class ToyResearch:
    """The hooks; stateless."""

    def action_space_size(self, game: Game) -> int:
        return 1 + len(BLOCK_KINDS) * len(roster(_toy(game).setup.scenario))

    def encode_actions(self, game: Game, actions: Sequence[Action]) -> list[int]:
        slot = {block: k for k, (block, *_rest) in enumerate(roster(_toy(game).setup.scenario))}
        ids: list[int] = []
        for action in actions:
            kind = action.get("type")
            if kind == "pass":
                ids.append(0)
            elif kind in BLOCK_KINDS and action.get("block") in slot:
                ids.append(1 + BLOCK_KINDS.index(str(kind)) * len(slot)
                           + slot[str(action["block"])])
            else:
                raise ValueError(f"action {action!r} has no toy action id (type must be one "
                                 f"of {['pass', *BLOCK_KINDS]}, block one of {list(slot)})")
        return ids

    def observation_json(self, game: Game, seat: Seat) -> JSONDict:
        view = _toy(game).view(seat)
        del view["legal_actions"]
        return view

    def observation_tensor(self, game: Game, seat: Seat,
                           observation: JSONDict | None = None) -> list[float]:
        toy = _toy(game)
        obs = observation if observation is not None else self.observation_json(toy, seat)
        out: list[float] = []
        for block, *_rest in roster(toy.setup.scenario):
            shown = obs["blocks"].get(block)
            if shown is None:  # eliminated
                out += [0.0] * len(BLOCK_FEATURES)
                continue
            known = "strength" in shown
            out += [1.0, float(shown["side"] == seat), float(known),
                    float(shown["strength"]) if known else 0.0]
        turns = max(1, int(obs["turns"]))
        out += [float(seat == toy.seats()[0]), float(obs["active"] == seat),
                float(seat in obs["to_move"]), float(obs["pending_hits"]),
                min(1.0, (int(obs["turn"]) - 1) / turns), float(obs["result"] is not None)]
        return out

    def tensor_size(self, game: Game) -> int:
        blocks = len(roster(_toy(game).setup.scenario))
        return blocks * len(BLOCK_FEATURES) + len(SCALARS)

    def fork(self, game: Game) -> Game:
        return _toy(game).clone()

    def remember(self, game: Game, seat: Seat, memory: object | None = None) -> object:
        """The seat's :class:`Sightings`. The toy's log already keeps all a seat was told,
        so this is the log read once more, merged with ``memory`` (left unchanged)."""
        seen = read_log(_toy(game), seat)
        return memory.merged(seen) if isinstance(memory, Sightings) else seen

    def resample(self, game: Game, seat: Seat, seed: int,
                 memory: object | None = None) -> Game:
        """A copy where the enemy's hidden blocks carry labels (and the strengths printed
        with them, less the hits each took) drawn afresh from the enemy's labels the seat
        has not seen, uniformly among the deals that agree with its sightings. The log and
        history keep the true past: a re-dealt world is for search, not for replay."""
        toy = _toy(game)
        seen = read_log(toy, seat)
        if isinstance(memory, Sightings):
            seen = seen.merged(memory)
        floor = dict(seen.floor)
        enemy = [s for s in toy.seats() if s != seat and seat in toy.seats()]
        hidden = sorted(k for k, b in toy.blocks.items()
                        if b["side"] in enemy and not b["revealed"])
        shown = {str(b["label"]) for b in toy.blocks.values()
                 if b["side"] in enemy and b["revealed"]}
        pool = [(label, strength) for _, side, label, strength in roster(toy.setup.scenario)
                if side in enemy and label not in shown and label not in seen.labels]
        # What each hidden block has lost is public (every hit is announced, T4): what
        # it was dealt less what it has now.
        dealt = {label: strength for _, _, label, strength in roster(toy.setup.scenario)}
        taken = {k: dealt[str(toy.blocks[k]["label"])] - int(toy.blocks[k]["strength"])
                 for k in hidden}
        deals = [deal for deal in itertools.permutations(pool, len(hidden))
                 if all(strength >= floor.get(k, 1) and strength > taken[k]
                        for k, (_, strength) in zip(hidden, deal, strict=True))]
        if len(pool) != len(hidden) or not deals:
            raise ValueError(f"no deal of {seat}'s unseen enemy labels {pool} fits its hidden "
                             f"blocks {hidden}: the memory is not from this game")
        deal = random.Random(seed).choice(deals)
        twin = toy.clone()
        for k, (label, strength) in zip(hidden, deal, strict=True):
            twin.blocks[k].update(label=label, strength=strength - taken[k])
        return twin

    def standing(self, game: Game) -> float:
        """The first seat's share of the strength left, from -1 to 1. Public although
        single strengths are not: every hit scored and every elimination is announced
        with the label, whose printed strength the scenario gives."""
        toy = _toy(game)
        first, second = (sum(int(b["strength"]) for b in toy.blocks.values()
                             if b["side"] == seat) for seat in toy.seats())
        return (first - second) / max(1, first + second)

    def turn(self, game: Game) -> int:
        return _toy(game).turn

    def render_text(self, game: Game, seat: Seat) -> str:
        """The turn and who moves, then every block as ``seat`` sees it (``?`` hidden)."""
        obs = self.observation_json(game, seat)
        lines = [f"toy/{_toy(game).setup.scenario} - turn {obs['turn']} "
                 f"of {obs['turns']}, {'/'.join(obs['to_move']) or 'nobody'} to move "
                 f"(seen by {seat})"]
        for block, info in sorted(obs["blocks"].items()):
            what = f"{info['label']} {info['strength']}" if "strength" in info else "?"
            lines.append(f"  {info['side']}:{block} {what}")
        if obs["result"] is not None:
            lines.append(f"result: {obs['result']}")
        return "\n".join(lines) + "\n"


_HOOKS = ToyResearch()


def hooks() -> ToyResearch:
    return _HOOKS
