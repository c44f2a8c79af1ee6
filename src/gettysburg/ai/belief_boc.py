"""Belief about what the fog hides in Badges of Courage, and determinised worlds.

:func:`sample_hidden` is the one sampler of hidden enemy identities; the search agent uses
it here and the OpenSpiel adapter can reuse it. It reads only:

* the seat's view: own blocks, revealed enemy blocks, hidden enemy blocks as
  ``{handle, side, hex, column}``, the enemy's loss count and fallen leaders;
* public knowledge: the scenario (which enemy units start on the map or are due to
  arrive by now, with their printed strengths), the board and the order of battle.

A sample gives every hidden block an enemy unit that could be there: present in the
scenario by now, not shown in the view (revealed blocks are accounted for), not known to
have fallen; each unit is used once. Units are drawn with weights falling off with the
distance from where they started (blocks rarely cross the whole map), reinforcements with a
flat weight. Strengths are the printed set-up strengths, one step lower with probability
``WORN`` for blocks in the front line (they have probably been fighting).

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
from typing import Any

from gettysburg.ai.doctrine_boc import map_facts
from gettysburg.core.protocol import Game, load_game, new_game

JSONDict = dict[str, Any]
WORN = 0.3  # chance a hidden front-line block has lost a step
SPREAD = 4.0  # hexes: how far blocks are expected to wander from their set-up hex
RESERVE_WEIGHT = 0.3


@dataclass(frozen=True)
class Sample:
    """One guess at the hidden enemy blocks: handle -> (unit id, strength)."""

    blocks: dict[str, tuple[str, int]]


def scenario_start(view: JSONDict) -> JSONDict:
    """The public starting position of the view's scenario (``new_game(...).to_json()``
    with a fixed seed: the set-up and the arrival schedule, nothing of this game)."""
    return new_game(str(view["scenario"]), options=list(view.get("options", [])),
                    seed="belief").to_json()


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


def sample_hidden(view: JSONDict, rng: random.Random, start: JSONDict | None = None
                  ) -> Sample:
    """Draw identities and strengths for the view's hidden enemy blocks (see module doc).

    Deterministic for a given ``rng`` state; ``start`` (from :func:`scenario_start`) may be
    passed in to save rebuilding it for every sample."""
    start = start if start is not None else scenario_start(view)
    facts = map_facts()
    pool = candidates(view, start)
    own_hexes = {str(u["hex"]) for u in view.get("units", [])
                 if u.get("side") == view["seat"] and u.get("hex")}
    blocks: dict[str, tuple[str, int]] = {}
    hidden = sorted(view.get("hidden", []), key=lambda h: (str(h["hex"]), str(h["handle"])))
    order = list(range(len(hidden)))
    rng.shuffle(order)  # no block gets first pick every time
    for k in order:
        h = hidden[k]
        hx = str(h["hex"])
        if not pool:
            break
        ids = sorted(pool)
        weights = []
        for uid in ids:
            at = pool[uid].get("hex")
            if at and at in facts.hexes and hx in facts.hexes:
                weights.append(math.exp(-facts.dist(str(at), hx) / SPREAD))
            else:
                weights.append(RESERVE_WEIGHT)
        uid = rng.choices(ids, weights=weights)[0]
        strength = int(pool[uid]["strength"])
        front = any(n in own_hexes for n in facts.nbrs.get(hx, ()))
        if front and strength > 1 and rng.random() < WORN:
            strength -= 1
        blocks[str(h["handle"])] = (uid, strength)
        del pool[uid]
    return Sample(blocks)


def determinise(view: JSONDict, sample: Sample, rng: random.Random,
                start: JSONDict | None = None) -> Game:
    """A playable game consistent with ``view`` in which the hidden blocks are ``sample``
    (see the module doc); the real game is never consulted."""
    start = start if start is not None else scenario_start(view)
    seat = str(view["seat"])
    data = {k: v for k, v in start.items() if k not in ("log", "history")}
    data["setup"] = dict(start["setup"], seed=f"world-{rng.getrandbits(48)}")
    data["dice"] = {"kind": "seeded", "seed": data["setup"]["seed"], "counter": 0,
                    "rolls": []}
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
