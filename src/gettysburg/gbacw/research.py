"""GBACW's research hooks (:class:`gettysburg.core.protocol.ResearchHooks`), so the OpenSpiel
and PettingZoo adapters serve its scenarios (``docs/research.md``, "GBACW").

* Actions: the ids are built from the declared action types (:data:`gbacw.actions.
  ACTION_TYPES`), so a type added there encodes without a change here. Each type owns a
  fixed block of ids, in the declared order; within its block an action's id is its rank
  among the legal actions of its type in the engine's (deterministic) legal order. A
  move's destinations and facings, a retreat's paths or a shock's designations are too
  many to enumerate over the map (about 6,000 hexes, 12 facings, 700 counters), so an id
  means "the k-th legal action of this type here": fixed for a position, not across
  positions (the action's string, or the observation, says what it is). Blocks are
  ``CAPACITY`` ids, larger for the movement types (:data:`LARGE`); a position with more
  legal actions of one type than its block is refused with a ValueError naming the type.
* Observation: the seat's view (the engine's fog, ``view.py``: no enemy counter off the
  map, no enemy orders, Reserve, fatigue or markers) without its list of legal actions.
  The tensor reads only that observation: per counter of the order of battle, whether
  the seat sees it, whose it is, its hex, facing, strength and disorder; then the clock,
  the phase, who moves, the objectives' control and a pending answer.
* Dice: the engine rolls d10s as it sets up and between decisions (efficiency draws,
  initiative), so the adapters play GBACW with its own seeded dice: ``chance = "sampled"``
  (OpenSpiel's SAMPLED_STOCHASTIC) instead of explicit chance nodes.
* Hidden information re-dealt by :meth:`GbacwResearch.resample`: none yet (see there).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from functools import cache
from typing import Literal

from gettysburg.core.canonical import JSONDict
from gettysburg.core.protocol import REFEREE, Action, Game, Seat
from gettysburg.gbacw.actions import ACTION_ORDER
from gettysburg.gbacw.game import GbacwGame

#: Ids a type's block holds (its most legal actions at once).
CAPACITY = 512
#: Larger blocks for the types whose legal actions run over many hexes and facings (a
#: random Herr Ridge game offered up to ~12,000 moves at once).
LARGE: dict[str, int] = {"move": 32768, "move_stack": 8192, "move_leader": 4096,
                         "move_commander": 4096, "build": 2048, "retreat": 2048,
                         "shock": 4096, "withdrawal_move": 2048, "react_move": 2048}
#: The adapters roll the engine's own dice (see the module's docstring).
chance: Literal["sampled"] = "sampled"
PHASES = ("orders", "first_am", "orders_change", "action", "commanders", "over")
UNIT_FEATURES = ("seen", "own", "on_map", "q", "r", "vertex", "side", "facing", "sp",
                 "disordered", "blown")
GLOBAL_FEATURES = ("usa", "turn", "night", *(f"phase_{p}" for p in PHASES), "to_move",
                   "initiative", "pending", "own_control", "enemy_control", "own_ci",
                   "enemy_ci", "result")
#: What a fork shares with its source (immutable, or rebuilt on their own).
_SHARED = frozenset({"setup", "scen", "cat", "_memo", "_log", "_history"})


def _g(game: Game) -> GbacwGame:
    if not isinstance(game, GbacwGame):
        raise TypeError(f"expected a gbacw game, got {type(game).__name__}")
    return game


@cache
def layout() -> dict[str, tuple[int, int]]:
    """Each declared action type's (first id, number of ids), in declared order."""
    out: dict[str, tuple[int, int]] = {}
    first = 0
    for kind in ACTION_ORDER:
        n = LARGE.get(kind, CAPACITY)
        out[kind] = (first, n)
        first += n
    return out


def encode_list(actions: Sequence[Action]) -> list[int]:
    """The ids of a position's legal actions (same order): each type's block start plus
    the action's rank among the listed actions of its type."""
    blocks = layout()
    seen: dict[str, int] = {}
    out: list[int] = []
    for a in actions:
        kind = str(a.get("type"))
        if kind not in blocks:
            raise ValueError(f"action type {kind!r} has no gbacw action id (declared types: "
                             f"{list(blocks)})")
        first, n = blocks[kind]
        rank = seen.get(kind, 0)
        if rank >= n:
            raise ValueError(f"more than {n} legal {kind!r} actions at once: over the "
                             f"type's id block (gbacw/research.py LARGE)")
        seen[kind] = rank + 1
        out.append(first + rank)
    return out


@cache
def _counters() -> tuple[str, ...]:
    from gettysburg.gbacw.oob import default_oob

    return tuple(sorted(c.id for c in default_oob().counters()))


@cache
def _bounds() -> tuple[int, int, int, int]:
    from gettysburg.gbacw.board import load_board

    hexes = list(load_board().hexes)
    return (min(h.q for h in hexes), max(h.q for h in hexes), min(h.r for h in hexes),
            max(h.r for h in hexes))


@cache
def _coords(hex_id: str) -> tuple[float, float]:
    from gettysburg.gbacw.board import load_board

    h = load_board().parse(hex_id)
    q0, q1, r0, r1 = _bounds()
    return (h.q - q0 + 1) / (q1 - q0 + 1), (h.r - r0 + 1) / (r1 - r0 + 1)


def _counter_features(u: JSONDict | None, seat: Seat) -> list[float]:
    if u is None:
        return [0.0] * len(UNIT_FEATURES)
    hex_id, facing = u.get("hex"), u.get("facing")
    q, r = _coords(str(hex_id)) if hex_id else (0.0, 0.0)
    kind = facing.get("kind") if isinstance(facing, dict) else None
    index = facing.get("index", 0) if isinstance(facing, dict) else 0
    sp = u.get("sp")
    return [1.0, float(u.get("seat") == seat), float(bool(hex_id)), q, r,
            float(kind == "vertex"), float(kind == "side"),
            (int(index) + 1) / 6 if kind else 0.0,
            float(sp) / 20 if isinstance(sp, int) else 0.0,
            float(bool(u.get("disordered"))), float(bool(u.get("blown")))]


class GbacwResearch:
    """The hooks; stateless."""

    chance: Literal["sampled"] = chance

    def action_space_size(self, game: Game) -> int:
        first, n = list(layout().values())[-1]
        return first + n

    def encode_actions(self, game: Game, actions: Sequence[Action]) -> list[int]:
        """Ids of the seat's legal actions as ``legal_actions`` lists them (all of them,
        in that order: the rank is counted over the list given)."""
        return encode_list(actions)

    def observation_json(self, game: Game, seat: Seat) -> JSONDict:
        view = _g(game).view(seat)
        view.pop("legal_actions", None)
        return view

    def observation_tensor(self, game: Game, seat: Seat,
                           observation: JSONDict | None = None) -> list[float]:
        obs = observation if observation is not None else self.observation_json(game, seat)
        units = obs.get("units") or {}
        out: list[float] = []
        for cid in _counters():
            u = units.get(cid)
            out += _counter_features(u if isinstance(u, dict) else None, seat)
        control = obs.get("control") or {}
        ci_b = obs.get("ci_brigades") or []
        brigades = obs.get("brigades") or {}
        own_ci = sum(1 for b in ci_b if isinstance(brigades.get(b), dict))
        result = obs.get("result")
        winner = result.get("winner") if isinstance(result, dict) else None
        game_ = _g(game)
        out += [float(seat == "usa"), game_.pos.turn / 100, float(obs.get("light") != "day"),
                *(float(obs.get("phase") == p) for p in PHASES),
                float(seat in (obs.get("to_move") or [])),
                float(obs.get("initiative") == seat), float(obs.get("pending") is not None),
                float(sum(1 for s in control.values() if s == seat)),
                float(sum(1 for s in control.values() if s not in (seat, None))),
                float(own_ci), float(len(ci_b) - own_ci),
                0.0 if winner is None else (1.0 if winner == seat else -1.0)]
        return out

    def tensor_size(self, game: Game) -> int:
        return len(_counters()) * len(UNIT_FEATURES) + len(GLOBAL_FEATURES)

    def fork(self, game: Game) -> Game:
        """A copy sharing the set-up and the (immutable) log entries; its position and dice
        deep-copied, its catalogue re-bound to the copy (the acting leaders, 002 §12.74)."""
        from gettysburg.gbacw.end_segment import acting_catalog

        g = _g(game)
        twin = GbacwGame.__new__(GbacwGame)
        twin.__dict__.update({k: v if k in _SHARED else copy.deepcopy(v)
                              for k, v in g.__dict__.items()})
        twin._log = list(g._log)
        twin._history = list(g._history)
        twin._memo = {}
        twin.cat = acting_catalog(twin)
        return twin

    def remember(self, game: Game, seat: Seat, memory: object | None = None) -> object:
        """Nothing beyond the position: what the fog hides (enemy orders, Reserve, fatigue,
        markers) is never shown, so there is nothing seen and hidden again to keep."""
        return memory

    def resample(self, game: Game, seat: Seat, seed: int,
                 memory: object | None = None) -> Game:
        """A copy. Not yet a re-deal: the enemy's orders, Reserve, fatigue and markers stay
        as they are, so a search that samples with it sees them (an information leak for
        IS-MCTS, said in docs/research.md); ``seed`` is not used."""
        return self.fork(game)

    def standing(self, game: Game) -> float:
        """The USA's public standing: +1 / -1 once the game is won, 0 for a draw; before
        the end, half the sign of who would win if the game ended now (the scenario's
        victory conditions read on the public position)."""
        g = _g(game)
        v = g.verdict(final=True)
        winner = None if v is None else v.winner
        sign = 1.0 if winner == "usa" else -1.0 if winner == "csa" else 0.0
        return sign if g.is_terminal() else sign / 2

    def turn(self, game: Game) -> int:
        """Game turns since the scenario began (each an hour of the turn record track)."""
        return int(_g(game).pos.turn)

    def render_text(self, game: Game, seat: Seat) -> str:
        """Clock, phase, who moves, then each counter on the map as the seat sees it."""
        g = _g(game)
        obs = self.observation_json(g, seat)
        lines = [f"gbacw/{obs['scenario']} - turn {obs['turn']}, {obs['phase']}, "
                 f"{'/'.join(obs['to_move']) or 'nobody'} to move (seen by {seat})"]
        if obs.get("control"):
            lines.append("control: " + ", ".join(f"{h} {s}" for h, s in
                                                 sorted(obs["control"].items())))
        for cid, u in sorted(obs["units"].items()):
            if u.get("hex"):
                f = u.get("facing") or {}
                lines.append(f"  {u['seat']}:{cid} {u['sp']} SP at {u['hex']} "
                             f"{f.get('kind', '')}{f.get('index', '')}"
                             f"{' disordered' if u.get('disordered') else ''}")
        if obs.get("result") is not None:
            lines.append(f"result: {obs['result'].get('winner')}")
        if seat != REFEREE:
            lines.append("(hidden: the enemy's orders, Reserve, fatigue and markers)")
        return "\n".join(lines) + "\n"


_HOOKS = GbacwResearch()


def hooks() -> GbacwResearch:
    return _HOOKS
