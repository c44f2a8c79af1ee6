"""Combat results under random legal play (002 §12-13, results_step.py): two brigades in
contact (tests/data/gbacw/melee.yaml) play fire, shock, retreats (the owner's path choice),
routs and the advance after fire, with these properties checked after every action:

* strength never negative: 0 <= lost <= printed SP;
* a unit is in one place: on the map (a hex and a facing), in its Division box (routed, no
  hex), eliminated (no SP left, no hex), or off the map waiting (not yet arrived, or for
  its owner's retreat path while that decision is pending);
* every event cites a rule; the enemy never sees a unit in the box;
* the same seed and actions replay to the same hash."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gbacw_random_pick import assert_replays, pick
from gettysburg.core.protocol import REFEREE, load_game
from gettysburg.gbacw.game import GbacwGame

MELEE = str(Path(__file__).parent / "data" / "gbacw" / "melee.yaml")
# combat and its answers first; the rest keeps the game moving
FAVOURED = {"fire": 6, "shock": 8, "stand": 4, "withdraw": 1, "retreat": 4, "advance": 4,
            "no_advance": 1, "return_fire": 3, "hold": 2, "pre_shock_fire": 3, "rally": 2,
            "end_brigade": 2, "end_activation": 2, "activate": 4, "move": 1}
ACTIONS = 250


def check(g: GbacwGame, since: int) -> int:
    p = g.pos
    waiting = {e["unit"] for e in (p.pending or {}).get("queue", [])} \
        if p.pending is not None and p.pending.get("kind") == "retreat" else set()
    for k, u in p.units.items():
        sp = g.counter(k).sp
        assert u.lost >= 0 and sp - u.lost >= 0, (k, sp, u.lost)  # strength never negative
        if u.hex is not None:
            assert u.facing is not None and not u.routed and u.lost < sp, k
        elif u.routed:
            assert k not in waiting
        if k in waiting:
            assert u.hex is None and not u.routed
    for seat in ("usa", "csa"):
        view = g.view(seat)
        for k, d in view["units"].items():
            if p.units[k].seat != seat:
                assert d["hex"] is not None and "routed" not in d, k
    events = g.events(REFEREE, since=since)
    for e in events:
        assert e["rule"], e["type"]
    return since + len(events)


@settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10_000), data=st.data())
def test_results_hold_their_properties_under_random_play(seed: int,
                                                         data: st.DataObject) -> None:
    g = GbacwGame(MELEE, seed=seed)
    since = check(g, 0)
    for _ in range(ACTIONS):
        if g.is_terminal():
            break
        seat, action = pick(g, data, FAVOURED)
        g.apply(action, seat)
        since = check(g, since)
    assert_replays(g, MELEE, seed)
    loaded = load_game(json.loads(json.dumps(g.to_json())))
    assert loaded.state_hash() == g.state_hash()
