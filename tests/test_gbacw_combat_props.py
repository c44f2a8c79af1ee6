"""Two of issue 53's combat properties checked through the engine where the other property
tests check them on pure functions or on one shot at a time:

* the per-hex fire caps hold over a whole activation (002 §8.31-8.33, §10.14): three
  regiments stacked in one hex (15 SP) fire whatever fire orders the phasing seat picks,
  and the SP fired from that hex never add up to more than 7;
* no hidden identity reaches a seat through a combat event: under random play on the melee
  position, no event of chapters 10-14 that a seat reads names an enemy unit that has never
  stood on the map so far (a reinforcement not yet arrived: counters on the map are seen by
  both sides, so a unit seen there once, later in its box or waiting for its retreat path,
  is no secret); every event cites a rule; the same seed and actions replay to the same
  hash.
"""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gbacw_gunline import AL5, AL13, ARCHER, IN3, MI5, NAP1, TN1, at, gunline, key_of, place
from gbacw_random_pick import assert_replays
from gbacw_random_pick import pick as random_pick
from gettysburg.core.hexes import Hex
from gettysburg.gbacw.fire_action import ORDER_TYPES
from gettysburg.gbacw.game import GbacwGame
from gettysburg.gbacw.nonphasing_fire import ACTION_KINDS

FIRE_TYPES = (*ORDER_TYPES, "return_fire", "hold", *ACTION_KINDS)
SMALL_ARMS_CAP = 7  # 002 §8.31: infantry and dismounted cavalry a hex
MELEE = str(Path(__file__).parent / "data" / "gbacw" / "melee.yaml")
COMBAT_CHAPTERS = ("10.", "11.", "12.", "13.", "14.")
FAVOURED = {"fire": 6, "fire_split": 2, "shock": 8, "stand": 4, "withdraw": 1, "retreat": 4,
            "advance": 3, "no_advance": 1, "return_fire": 3, "hold": 2, "pre_shock_fire": 3,
            "rally": 2, "charge": 3, "counter_charge": 3, "break_charge": 2,
            "continue_shock": 3, "end_brigade": 2, "end_activation": 2, "activate": 4,
            "move": 1, "move_leader": 0, "move_commander": 0}
ACTIONS = 90


def _nb(h: Hex, d: int, n: int = 1) -> Hex:
    for _ in range(n):
        h = h.neighbour(d % 6)
    return h


def stacked_fire(dice: list[int]) -> GbacwGame:
    """Archer's brigade active: the 13th Alabama (6 SP), the 5th Alabama Battalion (3) and
    the 1st Tennessee (6) in one hex; a Union battery and two cavalry regiments (dismounted,
    stacked) two hexes off."""
    g = gunline(ARCHER, dice=dice)
    c = at(g, (0, 0))
    for k in (AL13, AL5, TN1):
        place(g, k, c, 3)
    place(g, NAP1, _nb(c, 3, 2), 0)
    place(g, IN3, _nb(c, 4, 2), 0)
    place(g, MI5, _nb(c, 4, 2), 0)
    g._memo.clear()
    return g


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(dice=st.lists(st.integers(0, 9), min_size=30, max_size=30),
       picks=st.lists(st.integers(0, 50), min_size=1, max_size=6))
def test_phasing_fire_keeps_the_hex_cap_over_the_activation_8_31(dice: list[int],
                                                                 picks: list[int]) -> None:
    g = stacked_fire(dice)
    phasing = {key_of(g, k) for k in (AL13, AL5, TN1)}
    home = {k: g.pos.units[k].hex for k in phasing}
    fired: dict[str, int] = {}
    shots = 0
    for pick in picks:
        seat = g.to_move()[0]
        legal = [a for a in g.legal_actions(seat) if a["type"] in FIRE_TYPES]
        if not legal:
            break
        for e in g.apply(legal[pick % len(legal)], seat):
            assert e.rule, e
            if e.type == "fire" and str(e.data.get("unit")) in phasing:
                h = str(home[str(e.data["unit"])])  # a unit that left still counts (§8.31)
                fired[h] = fired.get(h, 0) + int(e.data["sp"])
                shots += 1
    for h, sp in fired.items():
        assert sp <= SMALL_ARMS_CAP, (h, sp, shots)
    for k, u in g.pos.units.items():
        assert 0 <= u.lost <= g.counter(k).sp, (k, u.lost)


def _named(data: object, units: set[str]) -> set[str]:
    text = json.dumps(data)
    return {k for k in units if json.dumps(k) in text}


@settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10_000), data=st.data())
def test_no_hidden_unit_is_named_by_a_combat_event(seed: int, data: st.DataObject) -> None:
    g = GbacwGame(MELEE, seed=seed)
    units = set(g.pos.units)
    seen = {k for k, u in g.pos.units.items() if u.hex is not None}
    for _ in range(ACTIONS):
        if g.is_terminal():
            break
        seat, action = random_pick(g, data, FAVOURED)
        size = {s: g.log_size(s) for s in ("usa", "csa")}
        g.apply(action, seat)
        seen |= {k for k, u in g.pos.units.items() if u.hex is not None}
        for s in ("usa", "csa"):
            own = {k for k, u in g.pos.units.items() if u.seat == s}
            for e in g.events(s, since=size[s]):
                assert e["rule"], e["type"]  # every event cites a rule
                if str(e["rule"]).startswith(COMBAT_CHAPTERS):
                    hidden = _named(e["data"], units) - own - seen
                    assert not hidden, (s, e["type"], hidden)
    assert_replays(g, MELEE, seed)  # a combat's dice replay to the same result
