"""Mundo Machango's research hooks (:class:`gettysburg.core.protocol.ResearchHooks`), so the
OpenSpiel and PettingZoo adapters serve the campaign (``docs/research.md``).

* Actions: one fixed id range per action kind, its fields enumerated over the order of
  battle (divisions in forces order, up to ``CAPACITY`` units each), the board's lines in
  board order, the generals, the battle cards and the battle board's hexes.
* Observation: the seat's view without its list of legal actions. Divisions and generals
  carry their printed ids, which are public (no per-game handles).
* Hidden information: the contents of the USA's divisions no battle has shown yet (D3),
  the free USA generals riding with them, and in a battle the enemy's cards in hand and
  the deck's order. :meth:`MachangoResearch.resample` re-deals all three (its docstring
  says where it approximates).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from gettysburg.core.canonical import JSONDict
from gettysburg.core.dice import Dice
from gettysburg.core.protocol import REFEREE, Action, Game, Seat
from gettysburg.machango.battle_data import cards
from gettysburg.machango.battle_hexes import COLS, ROWS, parse
from gettysburg.machango.board import load_board
from gettysburg.machango.forces import KINDS, SIDES, load_forces
from gettysburg.machango.game import (
    DAYS,
    FIRST_HOUR,
    NIGHT_HOUR,
    USA_LOSSES_TO_WIN,
    MachangoGame,
)

#: Unit slots a division has in ids and tensors (the largest capacity, D1).
CAPACITY = 4
PHASES = ("compose", "day", "battle", "night", "over")
STEPS = ("ewell", "card", "order", "move", "fire")
UNIT_FEATURES = ("known", *KINDS, "figures")
DIVISION_FEATURES = ("board", "waiting", "eliminated", "own", "known", "line", "battle",
                     "standard", "bangs", "fortified", "moved", "mp", "resting")
LINE_FEATURES = ("own", "enemy", "star", "battle")
#: What a fork shares with its source (immutable, or copied on their own).
_SHARED = frozenset({"setup", "dice", "_log", "_history"})
FIGHTER_FEATURES = ("present", "own", "col", "row", "figures", "ordered", "moved", "fired",
                    "entrenched")


def _mg(game: Game) -> MachangoGame:
    if not isinstance(game, MachangoGame):
        raise TypeError(f"expected a machango game, got {type(game).__name__}")
    return game


@cache
def _tables() -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """(divisions, lines, generals, cards), each in its fixed order."""
    f = load_forces()
    return (tuple(f.divisions), tuple(load_board().lines), tuple(f.generals),
            tuple(sorted(cards())))


@cache
def layout() -> dict[str, tuple[int, int]]:
    """Each action kind's (first id, number of ids), in id order; ``end_turn`` is 0."""
    divs, lines, gens, deck = _tables()
    d, u, h = len(divs), len(divs) * CAPACITY, COLS * ROWS
    sizes = {"end_turn": 1, "recover": 1, "restore_skip": 1, "cards": 1, "night_pass": 1,
             "battle_done": 1, "compose": d * (CAPACITY + 1), "move": d * len(lines),
             "attack": d * len(lines), "rest": d, "restore": u, "stealth": d * len(lines),
             "fortify": d, "general": len(gens) * d, "battle_ewell": 2,
             "battle_card": len(deck), "battle_order": u, "battle_move": u * h,
             "battle_fire": u * u}
    out: dict[str, tuple[int, int]] = {}
    first = 0
    for kind, n in sizes.items():
        out[kind] = (first, n)
        first += n
    return out


def _index(table: Sequence[str], value: object, field: str, kind: str) -> int:
    try:
        return table.index(str(value))
    except ValueError:
        raise ValueError(f"{kind} action: field {field!r}: {value!r} is not one of the "
                         f"{len(table)} known") from None


def _unit(value: object, kind: str) -> int:
    """A battle unit ``<division>.<i>`` as its slot: division index × CAPACITY + i."""
    did, _, i = str(value).rpartition(".")
    if not i.isdigit() or int(i) >= CAPACITY:
        raise ValueError(f"{kind} action: field 'unit': {value!r} is not <division>.<0-3>")
    return _index(_tables()[0], did, "unit", kind) * CAPACITY + int(i)


def _hex(value: object, kind: str) -> int:
    try:
        c, r = parse(str(value))
    except (ValueError, IndexError):
        raise ValueError(f"{kind} action: field 'to': {value!r} is not a battle hex") from None
    if not (0 <= c < COLS and 0 <= r < ROWS):
        raise ValueError(f"{kind} action: field 'to': {value!r} is off the battle board")
    return r * COLS + c


def encode(action: Action) -> int:
    """The id of one action (its kind's first id plus its fields' offset)."""
    kind = str(action.get("type"))
    if kind not in layout():
        raise ValueError(f"action {action!r} has no machango action id (type must be one of "
                         f"{list(layout())})")
    first, _ = layout()[kind]
    divs, lines, gens, deck = _tables()
    u = len(divs) * CAPACITY

    def div() -> int:
        return _index(divs, action.get("division"), "division", kind)

    if kind == "compose":
        k = action.get("artillery")
        if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k <= CAPACITY:
            raise ValueError(f"compose action: field 'artillery': {k!r} is not 0..{CAPACITY}")
        return first + div() * (CAPACITY + 1) + k
    if kind in ("move", "stealth"):
        return first + div() * len(lines) + _index(lines, action.get("to"), "to", kind)
    if kind == "attack":
        return first + div() * len(lines) + _index(lines, action.get("target"), "target",
                                                   kind)
    if kind in ("rest", "fortify"):
        return first + div()
    if kind == "restore":
        i = action.get("unit")
        if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < CAPACITY:
            raise ValueError(f"restore action: field 'unit': {i!r} is not 0..{CAPACITY - 1}")
        return first + div() * CAPACITY + i
    if kind == "general":
        return first + _index(gens, action.get("general"), "general", kind) * len(divs) + div()
    if kind == "battle_ewell":
        return first + _index(("card", "aside"), action.get("choice"), "choice", kind)
    if kind == "battle_card":
        return first + _index(deck, action.get("card"), "card", kind)
    if kind == "battle_order":
        return first + _unit(action.get("unit"), kind)
    if kind == "battle_move":
        return first + _unit(action.get("unit"), kind) * COLS * ROWS + _hex(action.get("to"),
                                                                             kind)
    if kind == "battle_fire":
        return first + _unit(action.get("unit"), kind) * u + _unit(action.get("target"), kind)
    return first  # the kinds without fields


@dataclass(frozen=True)
class Recall:
    """What a seat remembers beyond the position: the kinds of unit it saw restored to
    each enemy division at night (N2: the faces are public, the division is told, the
    unit is not), the faces it saw waiting (to tell which one the next restore used), and
    how much of the log it has read."""

    restored: frozenset[tuple[str, str]] = frozenset()
    faces: tuple[str, ...] = ()
    scanned: int = 0


def _compositions(cap: int, deficits: list[int], kinds_needed: set[str]) -> list[int]:
    """The artillery counts ``k`` a division of ``cap`` units could have been composed
    with, given what its units have lost (``deficits``: -1 for a unit eliminated, else
    its full figures less its figures now) and the kinds it was seen to restore: the
    eliminated can be any units, and the damaged ones must fit on the rest (a unit still
    standing has lost fewer figures than its kind has). Greedy is exact here: the largest
    losses on the largest units, the dead on the smallest."""
    figures = load_forces().figures
    dead = sum(1 for d in deficits if d < 0)
    hurt = sorted((d for d in deficits if d > 0), reverse=True)
    out = []
    for k in range(cap + 1):
        if ("artillery" in kinds_needed and k == 0) or ("infantry" in kinds_needed and k == cap):
            continue
        fulls = sorted((figures[x] for x in ["infantry"] * (cap - k) + ["artillery"] * k),
                       reverse=True)[: cap - dead]
        if len(hurt) <= len(fulls) and all(h < full for h, full in zip(hurt, fulls,
                                                                      strict=False)):
            out.append(k)
    return out


def _redeal_division(units: list[list[Any]], cap: int, needed: set[str],
                     rng: random.Random) -> list[list[Any]]:
    """A fresh composition for a hidden division carrying its losses: each eliminated
    unit stays eliminated, each damaged one keeps its loss on a unit that can bear it.
    Infantry first, as composing lays a division out (D1)."""
    figures = load_forces().figures
    deficits = [-1 if int(f) == 0 else figures[str(k)] - int(f) for k, f in units]
    # The true composition always fits; a memory from another game might fit none.
    choices = _compositions(cap, deficits, needed) or [sum(1 for k, _ in units
                                                           if k == "artillery")]
    k = rng.choice(choices)
    kinds = ["infantry"] * (cap - k) + ["artillery"] * k
    dead = sum(1 for d in deficits if d < 0)
    hurt = sorted((d for d in deficits if d > 0), reverse=True)
    # The largest losses go to the units with the most figures; the dead come last.
    order = sorted(range(cap), key=lambda i: -figures[kinds[i]])
    losses = dict.fromkeys(range(cap), 0)
    for i, h in zip(order, hurt, strict=False):
        losses[i] = h
    for i in order[len(order) - dead:]:
        losses[i] = figures[kinds[i]]
    return [[kinds[i], figures[kinds[i]] - losses[i]] for i in range(cap)]


def _redeal_generals(game: MachangoGame, seat: Seat, rng: random.Random) -> None:
    """Hidden free enemy generals onto hidden enemy divisions on the board. Exact for one
    such general (the USA has one, Hancock); with several, each is drawn on its own once
    any has moved, which may put more of them off their start than moves were made."""
    moves = sum(1 for e in game.log if e.type == "general" and not e.sees_all(seat)
                and e.redacted is not None)
    if not moves:
        return
    hidden = [did for did in game.on_board() if game.divisions[did]["side"] != seat
              and not game.divisions[did]["revealed"]]
    for gid, g in sorted(game.generals.items()):
        free = game.forces.generals[gid].tied is None
        # As in the view: a free enemy general on a division not revealed is not shown.
        if free and g["side"] != seat and not g["removed"] and g["division"] in hidden:
            g["division"] = rng.choice(hidden)


class MachangoResearch:
    """The hooks; stateless."""

    def action_space_size(self, game: Game) -> int:
        first, n = list(layout().values())[-1]
        return first + n

    def encode_actions(self, game: Game, actions: Sequence[Action]) -> list[int]:
        return [encode(a) for a in actions]

    def observation_json(self, game: Game, seat: Seat) -> JSONDict:
        view = _mg(game).view(seat)
        del view["legal_actions"]
        return view

    def observation_tensor(self, game: Game, seat: Seat,
                           observation: JSONDict | None = None) -> list[float]:
        mg = _mg(game)
        obs = observation if observation is not None else self.observation_json(mg, seat)
        divs, lines, gens, deck = _tables()
        out: list[float] = []
        for did in divs:
            d = obs["divisions"][did]
            units = d["units"]
            out += [float(d["status"] == s) for s in ("board", "waiting", "eliminated")]
            out += [float(d["side"] == seat), float(units is not None),
                    (lines.index(d["at"]) + 1) / len(lines) if d["at"] else 0.0,
                    float(d["battle"] is not None), float(d["standard"]), float(d["bangs"]),
                    float(d["fortified"]), float(d["moved"]), float(d["mp"] or 0),
                    float(d["resting"])]
            for i in range(CAPACITY):
                unit = units[i] if units is not None and i < len(units) else None
                out += ([1.0, *(float(unit[0] == k) for k in KINDS), float(unit[1])]
                        if unit is not None else [0.0] * len(UNIT_FEATURES))
        held: dict[str, list[float]] = {line: [0.0] * len(LINE_FEATURES) for line in lines}
        for d in obs["divisions"].values():
            if d["status"] == "board" and d["at"] in held:
                held[d["at"]][0 if d["side"] == seat else 1] += 1.0
        for star, holder in obs["stars"].items():
            held[star][2] = 1.0 if holder == seat else -1.0
        for b in obs["battles"]:
            held[b["line"]][3] = 1.0
        out += [x for line in lines for x in held[line]]
        for gid in gens:
            g = obs["generals"][gid]
            out += [(divs.index(g["division"]) + 1) / len(divs) if g["division"] else 0.0,
                    float(bool(g.get("hidden"))), float(g["removed"])]
        enemy = next(s for s in SIDES if s != seat) if seat in SIDES else SIDES[1]
        result = obs["result"]
        faces = obs["pending_faces"]
        out += [float(seat == SIDES[0]), obs["day"] / DAYS,
                (obs["hour"] - FIRST_HOUR) / (NIGHT_HOUR - FIRST_HOUR),
                *(float(obs["phase"] == p) for p in PHASES), float(obs["active"] == seat),
                float(seat in obs["to_move"]), obs["night_step"] / 4,
                float(obs["cards"].get(seat, 0)), float(obs["cards"][enemy]),
                obs["usa_units_lost"] / USA_LOSSES_TO_WIN,
                *(float(faces.count(k)) for k in KINDS),
                0.0 if result is None else (1.0 if result["winner"] == seat else -1.0)]
        out += self._battle_tensor(obs["battle"], seat, divs, deck)
        return out

    def _battle_tensor(self, fight: JSONDict | None, seat: Seat, divs: tuple[str, ...],
                       deck: tuple[str, ...]) -> list[float]:
        head = [0.0] * (1 + len(STEPS) + 4 + 2 * len(deck) + 3)
        fighters = [0.0] * (len(divs) * CAPACITY * len(FIGHTER_FEATURES))
        if fight is None:
            return head + fighters
        hand = fight["hands"].get(seat)
        enemy = [n for s, n in fight["hands"].items() if s != seat]
        head = [1.0, *(float(fight["step"] == s) for s in STEPS),
                float(fight["attacker"] == seat), float(fight["active"] == seat),
                fight["turn"] / max(1, fight["turns"]), fight["deck"] / len(deck),
                *(float(hand.count(c)) if isinstance(hand, list) else 0.0 for c in deck),
                *(float(fight["card"] == c) for c in deck),
                float(enemy[0] if enemy and isinstance(enemy[0], int) else 0),
                float(fight["orders_left"]) if fight["orders_left"] < 99 else 10.0,
                float(fight["card_dice"])]
        entrench = set(fight["entrench"])
        for uid, u in fight["units"].items():
            did, _, i = uid.rpartition(".")
            at = (divs.index(did) * CAPACITY + int(i)) * len(FIGHTER_FEATURES)
            c, r = parse(u["hex"]) if u["hex"] else (-1, -1)
            fighters[at: at + len(FIGHTER_FEATURES)] = [
                float(bool(u["hex"])), float(u["side"] == seat), (c + 1) / COLS,
                (r + 1) / ROWS, float(u["figures"]), float(u["ordered"]), float(u["moved"]),
                float(u["fired"]), float(bool(u["hex"]) and u["hex"] in entrench)]
        return head + fighters

    def tensor_size(self, game: Game) -> int:
        divs, lines, gens, deck = _tables()
        return (len(divs) * (len(DIVISION_FEATURES) + CAPACITY * len(UNIT_FEATURES))
                + len(lines) * len(LINE_FEATURES) + 3 * len(gens)
                + 10 + len(PHASES) + len(KINDS)
                + 1 + len(STEPS) + 4 + 2 * len(deck) + 3
                + len(divs) * CAPACITY * len(FIGHTER_FEATURES))

    def fork(self, game: Game) -> Game:
        """A copy sharing the cached board and forces and the (immutable) log entries."""
        mg = _mg(game)
        twin = MachangoGame.__new__(MachangoGame)
        # Deep copies keep the position's dict order (a JSON round trip sorts the keys,
        # which would reorder the legal actions).
        twin.__dict__.update({k: v if k in _SHARED else copy.deepcopy(v)
                              for k, v in mg.__dict__.items()})
        twin.dice = Dice.from_json(mg.dice.to_json())
        twin._log = list(mg._log)
        twin._history = list(mg._history)
        return twin

    def remember(self, game: Game, seat: Seat, memory: object | None = None) -> object:
        """The seat's :class:`Recall`, updated with a restore it saw since (there is at most
        one an action; the faces waiting before it say which kind it restored)."""
        mg = _mg(game)
        was = memory if isinstance(memory, Recall) else Recall()
        log = mg.log
        restored = set(was.restored)
        # Only the entries since the last call are read, so a game costs linear time.
        for event in log[was.scanned if was.scanned <= len(log) else 0:]:
            if event.type != "restore" or not event.shown_to(seat) or not was.faces:
                continue
            did = str((event.data if event.sees_all(seat) else event.redacted or {})
                      .get("division"))
            if did in mg.divisions and mg.divisions[did]["side"] != seat:
                restored.add((did, was.faces[0]))
        return Recall(frozenset(restored), tuple(mg.pending_faces), len(log))

    def resample(self, game: Game, seat: Seat, seed: int,
                 memory: object | None = None) -> Game:
        """A copy where what ``seat`` cannot see is drawn afresh:

        * each enemy division whose units are hidden (D3) gets a composition drawn
          uniformly among those that fit what the seat knows: its capacity, its units
          eliminated and damaged (the losses move to units that can bear them) and the
          kinds it was seen to restore (``Recall``); not weighted by how likely each made
          the bombardments' announced losses;
        * in a battle, the enemy's hand and the deck are shuffled together and dealt again
          (the seat's own hand, the discards and the cards played stay).

        * a free enemy general the seat cannot see rides a hidden division drawn
          uniformly, once the enemy has made a night move of a general (N6; the seat is
          told one happened, not whose or where); before that he is where he started.

        The log and history keep the true past: a re-dealt world is for search, not for
        replay."""
        mg = _mg(game)
        rng = random.Random(seed)
        twin = _mg(self.fork(mg))
        if seat not in SIDES:
            return twin
        recall = memory if isinstance(memory, Recall) else Recall()
        f = load_forces()
        for did, d in twin.divisions.items():
            if (d["side"] == seat or d["revealed"] or d["units"] is None
                    or f.divisions[did].cavalry):
                continue
            needed = {k for x, k in recall.restored if x == did}
            d["units"] = _redeal_division(d["units"], len(d["units"]), needed, rng)
        _redeal_generals(twin, seat, rng)
        fight = twin.fight
        if fight is not None:
            enemy = next(s for s in fight["hands"] if s != seat)
            pool = list(fight["deck"]) + list(fight["hands"][enemy])
            rng.shuffle(pool)
            n = len(fight["hands"][enemy])
            fight["hands"][enemy], fight["deck"] = pool[:n], pool[n:]
        return twin

    def standing(self, game: Game) -> float:
        """The USA's public standing: +1 or -1 once the game is won, else from 0.5 down to
        -0.5 as the CSA nears V1 (most stars, 8 USA units destroyed; each half counts
        half). The USA starts ahead: it wins if the CSA fails in the three days (T3)."""
        mg = _mg(game)
        if mg.winner is not None:
            return 1.0 if mg.winner == SIDES[0] else -1.0
        csa = sum(1 for v in mg.stars.values() if v != SIDES[0]) / max(1, len(mg.stars))
        lost = min(1.0, mg.usa_lost / USA_LOSSES_TO_WIN)
        return 0.5 - (csa + lost) / 2

    def turn(self, game: Game) -> int:
        """Hours since the campaign began (the night counts as hour 20)."""
        mg = _mg(game)
        return (mg.day - 1) * (NIGHT_HOUR - FIRST_HOUR + 1) + mg.hour - FIRST_HOUR

    def render_text(self, game: Game, seat: Seat) -> str:
        """Clock, phase, stars, cards, then each division on the board as the seat sees it
        (``?`` for hidden contents) and the battle's units with their hexes."""
        mg = _mg(game)
        obs = self.observation_json(mg, seat)
        b = load_board()
        lines = [f"machango/{mg.setup.scenario} - day {obs['day']} {obs['hour']}:00, "
                 f"{obs['phase']}, {'/'.join(obs['to_move']) or 'nobody'} to move "
                 f"(seen by {seat})",
                 "stars: " + ", ".join(f"{b.name(s)} {h}" for s, h in obs["stars"].items()),
                 f"cards: {obs['cards']}; USA units lost: {obs['usa_units_lost']}"]
        for did, d in obs["divisions"].items():
            if d["status"] != "board":
                continue
            units = (" ".join(f"{k[0]}{n}" for k, n in d["units"]) if d["units"] is not None
                     else "?" if d["side"] != seat and seat != REFEREE else "not composed")
            lines.append(f"  {d['side']}:{did} at {b.name(d['at'])}: {units}")
        fight = obs["battle"]
        if fight is not None:
            lines.append(f"battle on {b.name(fight['line'])}: turn {fight['turn']} of "
                         f"{fight['turns']}, {fight['active']} {fight['step']}, "
                         f"hands {fight['hands']}")
            lines += [f"  {u['side']}:{uid} {u['kind']} {u['figures']} at {u['hex']}"
                      for uid, u in sorted(fight["units"].items()) if u["hex"]]
        if obs["result"] is not None:
            lines.append(f"result: {obs['result']['winner']}")
        return "\n".join(lines) + "\n"


_HOOKS = MachangoResearch()


def hooks() -> MachangoResearch:
    return _HOOKS
