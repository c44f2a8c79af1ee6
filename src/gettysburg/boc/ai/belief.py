"""Belief about what the fog hides in Badges of Courage, and determinised worlds.

:func:`sample_hidden` is the one sampler of hidden enemy identities; the search agent uses
it here and the OpenSpiel adapter can reuse it. It reads only:

* the seat's view: own blocks, revealed enemy blocks, hidden enemy blocks as
  ``{handle, side, hex, column}``, the enemy's loss count and fallen leaders;
* optionally the seat's :class:`Sightings`: what it remembers from the views it was given
  earlier in the game (where and when each hidden block was first seen, which blocks stood
  up again where, the strengths it saw, blocks lost);
* public knowledge: the scenario (which enemy units start on the map or are due to
  arrive by now, with their printed strengths), the board and the order of battle.

A sample gives every hidden block an enemy unit that could be there: present in the
scenario by now, not shown in the view (revealed blocks are accounted for), not known to
have fallen or been lost; each unit is used once, blocks known to be one of few units
first. A unit's weight falls off with the distance from where it came onto the map (its
set-up hex, or its entry road's hexes) to where the block was first seen, or stands now
when that is not remembered; a block first seen after the start is one that came on the
map about then (``Belief.lag``). Strengths are the last seen, else the printed ones.

The weights were chosen with ``experiments/belief_calibration.py`` (experiments/HISTORY.md, "The
sampler"): with sightings the true unit is the one drawn most often for 50% of the hidden
blocks on Day 1 (5% from the view alone, about as good as a uniform pick).

:func:`determinise` builds a complete, playable game from the view and a sample, through
the public protocol: a fresh game of the same scenario (``new_game``) provides everything
the scenario fixes; the view provides what the seat knows (clock, phase, control, losses,
own blocks in full, revealed enemy blocks); the sample provides the rest. The dice come
from a seed drawn from ``rng``, so rollouts see fresh dice, never the real ones.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from gettysburg.boc.ai.facts import MapFacts, facts_for, scenario_source
from gettysburg.core.protocol import Game, load_game, new_game

JSONDict = dict[str, Any]


@dataclass(frozen=True)
class Belief:
    """The sampler's weights (``experiments/belief_calibration.py`` measures them)."""

    spread: float = 4.0  # hexes: how far blocks are expected to wander from their set-up hex
    reserve_weight: float = 0.3  # weight of a unit with no known way onto the map
    worn: float = 0.0  # chance a hidden front-line block has lost a step
    pace: float = 0.0  # hexes a turn by which the spread grows once a unit is on the map
    entries: bool = True  # reinforcements measured from their entry road's hexes
    lag: float = 0.5  # turns: how long after it is due a block is first seen, typically
    recall: bool = True  # a block's strength as last seen (else as printed)


BELIEF = Belief()


@dataclass(frozen=True)
class Sample:
    """One guess at the hidden enemy blocks: handle -> (unit id, strength)."""

    blocks: dict[str, tuple[str, int]]


def scenario_start(view: JSONDict) -> JSONDict:
    """The public starting position of the view's scenario (``new_game(...).to_json()``
    with a fixed seed: the set-up and the arrival schedule, nothing of this game). Made
    once per scenario and options and shared: callers read it, never change it."""
    return _start_of(scenario_source(view), tuple(view.get("options", [])))


#: By source, not id (two custom scenario files may share an id); bounded, for a
#: long-lived server meets any number of custom scenario files.
STARTS_KEPT = 32


@lru_cache(maxsize=STARTS_KEPT)
def _start_of(source: str, options: tuple[str, ...]) -> JSONDict:
    return new_game(f"boc/{source}", options=list(options), seed="belief").to_json()


def _now(view: JSONDict) -> int:
    return int(view["day"]) * 100 + int(view["hour"])


def candidates(view: JSONDict, start: JSONDict) -> dict[str, JSONDict]:
    """Enemy units that may be behind a hidden block now, with their set-up data."""
    seat = str(view["seat"])
    shown = {str(u["id"]) for u in view.get("units", []) if u.get("side") != seat}
    fallen = set(view.get("fallen", []))
    now = _now(view)
    out: dict[str, JSONDict] = {}
    for uid, u in start["position"]["units"].items():
        if u["side"] == seat or uid in shown or uid in fallen:
            continue
        due = u["status"] == "reserve" and u.get("arrival_key") is not None \
            and int(u["arrival_key"]) <= now
        if u["status"] in ("on_map", "off_map") or due:
            out[uid] = u
    return out


class Sightings:
    """What one seat has seen of the enemy's blocks over the game, kept from the views it
    is given at its own decisions (a player at the table remembers as much):

    * where and when each hidden block (handle; a block keeps its handle
      while it is on the map, and a DHQ that returns under 4.61 gets a new one) was first
      seen: a block first seen after the start came on the map by then;
    * which units a handle must be: a revealed block that stands up again (8.1) shows as a
      new handle in the hex it stood in, and a handle that vanishes where a block is then
      revealed is that block; linked only when the counts in the hex match;
    * each unit's last strength seen, and units lost: revealed blocks that vanished with
      no handle in their place while the enemy's losses rose as much. A fallen DHQ that
      leaves the view's ``fallen`` list has been rebuilt (4.61): it is no longer lost, and
      stands at strength 0 under a new handle.

    Memory starts at the first view it is given; blocks first seen then count as seen at an
    unknown time. Updating twice with the same view changes nothing; a view of another
    scenario or seat, or from an earlier turn (a new game), starts it afresh."""

    #: ``recalled`` of the last view, kept while nothing it reads changes (issue 59; a
    #: class default, so that a memory pickled before it loads)
    _known: dict[str, tuple[str, int]] | None = None

    def __init__(self) -> None:
        self._reset()

    def _reset(self) -> None:
        self.first: dict[str, tuple[str, int]] = {}  # handle -> (hex, turn) first seen
        self.only: dict[str, frozenset[str]] = {}  # handle -> the units it may be
        self.strength: dict[str, int] = {}  # unit id -> last strength seen
        self.lost: set[str] = set()
        self.began: int | None = None
        self._game: tuple[str, str] | None = None
        self._handles: dict[str, str] = {}  # handle -> hex, in the last view
        self._shown: dict[str, str] = {}  # enemy unit id -> hex, in the last view
        self._losses = 0
        self._fallen: set[str] = set()  # fallen leaders, in the last view
        self._last = 0  # the turn of the last view
        self._known = None

    def update(self, view: JSONDict) -> None:
        seat = str(view["seat"])
        game = (str(view["scenario"]), seat)
        now = _turns(_now(view))
        if self._game != game or now < self._last:
            self._reset()  # another game (the clock went back): forget everything
            self._game = game
        if self.began is None:
            self.began = now
        self._last = now
        handles = {str(h["handle"]): str(h["hex"]) for h in view.get("hidden", [])}
        shown: dict[str, str] = {}
        strength = self.strength
        for u in view.get("units", []):
            if u.get("side") != seat and u.get("hex"):
                uid = str(u["id"])
                shown[uid] = str(u["hex"])
                now_strength = int(u.get("strength", 0))
                if strength.get(uid) != now_strength:
                    strength[uid] = now_strength
                    self._known = None
        losses = sum(int(n) for side, n in dict(view.get("losses", {})).items() if side != seat)
        # Most views show the enemy's blocks where the last one did (issue 59: a seat's
        # memory is fed every view): then nothing appeared, vanished or was lost.
        if handles != self._handles or shown != self._shown:
            self._compare(handles, shown, losses, now)
        # 4.61: the view lists an enemy leader as fallen while it is off the map; one that
        # leaves the list unseen is a DHQ rebuilt at 0 and hidden again, so it may be drawn.
        fallen = {str(uid) for uid in view.get("fallen", [])}
        left = self._fallen - fallen
        if left:
            for uid in left - set(shown):
                self.lost.discard(uid)
                strength[uid] = 0
                self._known = None
        self._handles, self._shown, self._losses = handles, shown, losses
        self._fallen = fallen

    def _compare(self, handles: dict[str, str], shown: dict[str, str], losses: int,
                 now: int) -> None:
        """What changed since the last view: blocks first seen, blocks linked to the
        units they must be, units lost."""
        self._known = None
        appeared = {h: hx for h, hx in handles.items() if h not in self._handles}
        # Every handle of the last view was noted when it appeared: only new ones here.
        for h, hx in appeared.items():
            self.first.setdefault(h, (hx, now))
        hid = {u: hx for u, hx in self._shown.items() if u not in shown}
        explained = self._link(hid, appeared)
        vanished = {h: hx for h, hx in self._handles.items() if h not in handles}
        self._link({u: hx for u, hx in shown.items() if u not in self._shown}, vanished)
        gone = sorted(set(hid) - explained)
        if gone and losses - self._losses >= len(gone):
            self.lost.update(gone)

    def copy(self) -> Sightings:
        """An independent copy (``update`` on it leaves this one as it is)."""
        twin = Sightings.__new__(Sightings)
        twin.__dict__.update(self.__dict__)
        twin.first, twin.only, twin.strength = dict(self.first), dict(self.only), \
            dict(self.strength)
        twin.lost = set(self.lost)
        return twin

    def _link(self, units: dict[str, str], handles: dict[str, str]) -> set[str]:
        """Handles and units that appeared and vanished in the same hex, counts equal:
        each handle is one of those units. Returns the units so accounted for."""
        done: set[str] = set()
        for hx in set(units.values()) & set(handles.values()):
            ids = frozenset(u for u, at in units.items() if at == hx)
            here = [h for h, at in handles.items() if at == hx]
            if len(ids) != len(here):
                continue
            for h in here:
                self.only[h] = (self.only.get(h, ids) & ids) or ids
            done |= ids
        return done

    def recalled(self, view: JSONDict) -> dict[str, tuple[str, int]]:
        """The view's hidden blocks known to be one unit, with the strength last seen."""
        out: dict[str, tuple[str, int]] = {}
        for h in view.get("hidden", []):
            ids = self.only.get(str(h["handle"]), frozenset())
            if len(ids) == 1:
                uid = next(iter(ids))
                if uid in self.strength and uid not in self.lost:
                    out[str(h["handle"])] = (uid, self.strength[uid])
        return out

    def _recalled_now(self) -> dict[str, tuple[str, int]]:
        """``recalled(view)`` for the view last given to ``update`` (issue 59: from the
        handles it noted, and the last answer while nothing it reads changed). Shared:
        the caller changes nothing in it."""
        if self._known is not None:
            return self._known
        out: dict[str, tuple[str, int]] = {}
        only, strength, lost = self.only, self.strength, self.lost
        for h in self._handles:
            ids = only.get(h)
            if ids is not None and len(ids) == 1:
                uid = next(iter(ids))
                if uid in strength and uid not in lost:
                    out[h] = (uid, strength[uid])
        self._known = out
        return out


class BocMemory:
    """The general's memory (``doctrine.Memory``): the seat's :class:`Sightings`; a view
    is handed on with ``recalled``, its hidden blocks known to be one unit (a block seen
    standing up again, 8.1) as ``{handle: [unit id, strength last seen]}``."""

    #: The last answer of ``Sightings._recalled_now`` and its items sorted (class
    #: defaults: a memory pickled before them loads).
    _known: dict[str, tuple[str, int]] | None = None
    _sorted: tuple[tuple[str, tuple[str, int]], ...] = ()

    def __init__(self) -> None:
        self.seen = Sightings()

    def recall(self, view: JSONDict) -> JSONDict:
        self.seen.update(view)
        known = self.seen._recalled_now()
        if not known:
            return view
        if known is not self._known:
            self._known, self._sorted = known, tuple(sorted(known.items()))
        return {**view, "recalled": {h: [uid, s] for h, (uid, s) in self._sorted}}


def sample_hidden(view: JSONDict, rng: random.Random, start: JSONDict | None = None,
                  belief: Belief = BELIEF, seen: Sightings | None = None) -> Sample:
    """Draw identities and strengths for the view's hidden enemy blocks (see module doc).

    With ``seen`` (the seat's :class:`Sightings`, updated with this view) a block is drawn
    among the units it may be, weighted by where and when it was first seen; without, by
    where it stands now. Deterministic for a given ``rng`` state; ``start`` (from
    :func:`scenario_start`) may be passed in to save rebuilding it for every sample."""
    start = start if start is not None else scenario_start(view)
    facts = facts_for(view)
    pool = candidates(view, start)
    if seen is not None:
        pool = {k: v for k, v in pool.items() if k not in seen.lost}
    own_hexes = {str(u["hex"]) for u in view.get("units", [])
                 if u.get("side") == view["seat"] and u.get("hex")}
    now = _turns(_now(view))
    blocks: dict[str, tuple[str, int]] = {}
    hidden = sorted(view.get("hidden", []), key=lambda h: (str(h["hex"]), str(h["handle"])))
    order = list(range(len(hidden)))
    rng.shuffle(order)  # no block gets first pick every time
    if seen is not None:  # blocks known to be one of few units pick first, then the
        # blocks seen earliest (fewer units could have been on the map by then)
        order.sort(key=lambda k: (len(seen.only.get(str(hidden[k]["handle"]), pool)),
                                  seen.first.get(str(hidden[k]["handle"]), ("", now))[1]))
    for k in order:
        h = hidden[k]
        hx, at, sighted, later = str(h["hex"]), now, False, False
        if seen is not None and str(h["handle"]) in seen.first:
            hx, at = seen.first[str(h["handle"])]
            sighted, later = True, at != seen.began
        only = seen.only.get(str(h["handle"])) if seen is not None else None
        ids = sorted(u for u in pool if only is None or u in only) or sorted(pool)
        if not ids:
            break
        weights = [_weight(facts, pool[uid], hx, at, sighted, later, start, belief)
                   for uid in ids]
        uid = rng.choices(ids, weights=weights)[0] if sum(weights) > 0 else rng.choice(ids)
        front = any(n in own_hexes for n in facts.nbrs.get(str(h["hex"]), ()))
        if seen is not None and belief.recall and uid in seen.strength:
            strength = seen.strength[uid]  # as last seen
        else:
            strength = int(pool[uid]["strength"])
            if front and strength > 1 and rng.random() < belief.worn:
                strength -= 1
        blocks[str(h["handle"])] = (uid, strength)
        del pool[uid]
    return Sample(blocks)


def _weight(facts: MapFacts, unit: JSONDict, hx: str, at: int, sighted: bool, later: bool,
            start: JSONDict, belief: Belief) -> float:
    """How likely ``unit`` is the block seen in hex ``hx`` at turn ``at``: its first
    sighting (``sighted``; ``later`` if after the seat's memory began) or, when that is
    not known, where it stands now."""
    origin, since = _origin(facts, unit, start, belief)
    if sighted and since > at:
        return 0.0  # first seen before it could have come on the map
    if origin and hx in facts.hexes:
        scale = belief.spread + belief.pace * max(at - since, 0)
        weight = math.exp(-min(facts.dist(o, hx) for o in origin) / scale)
    else:
        weight = belief.reserve_weight
    if later:  # a block first seen after the start came on the map about then
        weight *= math.exp(-(at - since) / belief.lag)
    return weight


def _turns(key: int) -> int:
    """A turn key (``day * 100 + hour``) as a count of turns: 14 a day (8 AM to night)."""
    return (key // 100) * 14 + key % 100


def _origin(facts: MapFacts, unit: JSONDict, start: JSONDict, belief: Belief
            ) -> tuple[tuple[str, ...], int]:
    """Where a unit comes onto the map (its set-up hex, its arrival hex, or with
    ``belief.entries`` its entry road's hexes) and from which turn; ``()`` if unknown."""
    first = _turns(int(start["position"]["day"]) * 100 + int(start["position"]["hour"]))
    at = unit.get("hex") if unit.get("status") == "on_map" else unit.get("arrival_hex")
    since = _turns(int(unit["arrival_key"])) if unit.get("arrival_key") is not None else first
    if at and at in facts.hexes:
        return (str(at),), since
    road = unit.get("arrival_entry")
    if belief.entries and road:
        return entry_hexes(facts, str(road)), since
    return (), since


@lru_cache(maxsize=256)  # bounded: its keys hold the facts of boards no longer in use
def entry_hexes(facts: MapFacts, road: str) -> tuple[str, ...]:
    """The map hexes where the entry road ``road`` starts (6.7), by either of its names
    (the scenario files' Chambersburg Pike is the map's Cashtown Pike)."""
    from gettysburg.boc.scenario import ENTRY_ROAD_ALIASES

    def name(n: str) -> str:
        return ENTRY_ROAD_ALIASES.get(n, n).casefold()

    return tuple(sorted(i.id for i in facts.board.hexes.values()
                        if any(name(e) == name(road) for e in i.entries)))


def determinise(view: JSONDict, sample: Sample, rng: random.Random,
                start: JSONDict | None = None, dice: str = "seeded") -> Game:
    """A playable game consistent with ``view`` in which the hidden blocks are ``sample``
    (see the module doc); the real game is never consulted. Its dice are ``dice``
    (``"seeded"`` or ``"keyed"``, :mod:`gettysburg.core.dice`) from a seed drawn from
    ``rng``."""
    start = start if start is not None else scenario_start(view)
    seat = str(view["seat"])
    data = {k: v for k, v in start.items() if k not in ("log", "history")}
    data["setup"] = dict(start["setup"], seed=f"world-{rng.getrandbits(48)}")
    data["dice"] = {"kind": dice, "seed": data["setup"]["seed"], "counter": 0, "rolls": []}
    pos: JSONDict = {k: v for k, v in start["position"].items()}
    for key in ("day", "hour", "phase", "active", "order", "control", "losses",
                "verdicts", "over", "result"):
        if key in view:
            pos[key] = view[key]
    pos["supply_points"] = dict(view.get("supply_points", {}))
    pos["night_points"] = dict(view.get("night_points", {}))
    if "hancock" in view:
        pos["hancock"] = dict(view["hancock"])
    order = list(view.get("order", []))
    pos["player_index"] = order.index(view["active"]) if view.get("active") in order else 0
    pos["side_use"], pos["entry_roads"] = {}, {}
    pos["deploy"] = [view["active"]] if view.get("phase") == "deploy" else []
    units: dict[str, JSONDict] = {k: dict(u) for k, u in start["position"]["units"].items()}
    placed: set[str] = set()
    for u in view.get("units", []):
        uid = str(u["id"])
        if u.get("side") == seat:
            units[uid] = dict(u)
        else:
            base = units.get(uid, {})
            units[uid] = {**base, "id": uid, "side": u["side"], "status": "on_map",
                          "hex": u["hex"], "strength": u["strength"], "revealed": True,
                          "column": bool(u.get("column"))}
        placed.add(uid)
    hidden = {str(h["handle"]): h for h in view.get("hidden", [])}
    for handle, (uid, strength) in sample.blocks.items():
        h = hidden[handle]
        units[uid] = {**units[uid], "status": "on_map", "hex": h["hex"], "strength": strength,
                      "revealed": False, "column": bool(h.get("column")),
                      "arrival_key": None, "arrival_entry": None, "arrival_hex": None}
        placed.add(uid)
    fallen = set(view.get("fallen", []))
    for uid, u in units.items():
        if u["side"] != seat and uid not in placed and u["status"] == "on_map":
            # Started on the map but not seen there: lost (or fallen) as far as we know.
            units[uid] = {**u, "status": "eliminated", "hex": None, "strength": 0}
    pos["fallen"] = {uid: _now(view) for uid in fallen}
    pos["units"] = units
    pos.update(combat_position(view, units, seat))
    pos["seq"] = max([int(u.get("seq", 0)) for u in units.values()] + [0]) + 1
    data["position"] = pos
    return load_game(data)


def combat_position(view: JSONDict, units: dict[str, JSONDict], seat: str) -> JSONDict:
    """The combat bookkeeping the view shows, as position fields: the hexsides already
    fired through (5.21) and the seat's own half hits (5.24), the melees declared and
    those resolved (7.1). An enemy declaration names its hex of origin, not its block: a
    block of that side in that hex stands in for it. A melee being fought is not rebuilt
    (the view does not show who has acted in the round); callers search elsewhere."""
    combat = view.get("combat") or {}
    out: JSONDict = {}
    used, half = combat.get("fired_hexsides") or [], combat.get("half_hits") or []
    if used or half:
        out["fire"] = {"used": sorted(used), "half_hits": sorted(half), "pending": None}
    declared = combat.get("melees")
    if declared and not combat.get("battle"):
        attacks: list[JSONDict] = []
        taken: set[str] = set()
        for m in declared:
            uid = m.get("unit")
            if uid is None:
                uid = next((k for k, u in sorted(units.items())
                            if u["side"] == m["side"] and u.get("hex") == m.get("from")
                            and u.get("status") == "on_map" and k not in taken), None)
            if uid is None:
                continue
            taken.add(str(uid))
            attacks.append({"unit": uid, "target": m["target"], "from_hex": m.get("from"),
                            "kind": m["kind"], "entry": None})
        out["melee"] = {"attacks": attacks, "resolved": list(combat.get("resolved", [])),
                        "battle": None, "retreated": []}
    return out
