"""Shock under random play (hypothesis) on the melee position (tests/data/gbacw/melee.yaml),
with the shock actions made likely: present strength never below zero, every event citing a
rule, no enemy unit that has never stood on the map named by a shock event (a unit seen
there once, later routed to its box or waiting for its retreat path, is no secret), no seat
reading both sides' fatigue in one, and the same seed and actions giving the same game
(002 §11, §17.31; the engine's shock_step, continued_shock, charge_step)."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from gbacw_random_pick import assert_replays, pick
from gettysburg.gbacw.game import GbacwGame

MELEE = str(Path(__file__).parent / "data" / "gbacw" / "melee.yaml")
LIKELY = {"shock": 8, "stand": 4, "withdraw": 3, "continue_shock": 6, "end_shock": 1,
          "shock_advance": 3, "charge": 4, "counter_charge": 4, "pre_shock_fire": 2,
          "move": 2, "retreat": 3, "end_activation": 1, "end_brigade": 1, "move_leader": 0,
          "move_commander": 0, "mount": 2, "dismount": 2}
SHOCK_EVENTS = ("shock", "charge", "counter_charge", "march_shocked", "blown_removed")
ACTIONS = 160


def _named(data: object, units: set[str]) -> set[str]:
    text = json.dumps(data)
    return {k for k in units if json.dumps(k) in text}


@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck),
          phases=[Phase.explicit, Phase.reuse, Phase.generate])  # no shrinking: slow here
@given(seed=st.integers(0, 10_000), data=st.data())
def test_shock_under_random_play(seed: int, data: st.DataObject) -> None:
    g = GbacwGame(MELEE, seed=seed)
    units = set(g.pos.units)
    seen = {k for k, u in g.pos.units.items() if u.hex is not None}
    for _ in range(ACTIONS):
        if g.is_terminal():
            break
        seat, action = pick(g, data, LIKELY)
        size = {s: g.log_size(s) for s in ("usa", "csa")}
        g.validate(action, seat)
        g.apply(action, seat)
        seen |= {k for k, u in g.pos.units.items() if u.hex is not None}
        for k, u in g.pos.units.items():  # strength never negative
            if u.hex is not None:
                assert g.counter(k).sp - u.lost > 0, (k, u.lost)
        for s in ("usa", "csa"):
            own = {k for k, u in g.pos.units.items() if u.seat == s}
            for e in g.events(s, since=size[s]):
                assert e["rule"], e["type"]  # every event cites a rule
                if e["type"].startswith(SHOCK_EVENTS):
                    hidden = _named(e["data"], units) - own - seen
                    assert not hidden, (e["type"], hidden)
                    text = json.dumps(e["data"])  # both sides' fatigue: no seat reads it
                    assert not ("fatigue-attacker" in text and "fatigue-defender" in text), e
            for k, u in g.view(s)["units"].items():
                assert u["sp"] >= 0 or k in own, k
    assert_replays(g, MELEE, seed)  # same dice, same result
