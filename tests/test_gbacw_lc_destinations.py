"""A Loose Cannon's moves (002 §6.24, ``orders_step.lc_destinations``) read each hex's
distance to the nearest enemy once per position: the moves left are those the distance
asked afresh for every destination leaves, for every task."""

from __future__ import annotations

import random

from gbacw_skirmish import active_gamble
from gettysburg.core.hexes import Hex
from gettysburg.gbacw import orders_step
from gettysburg.gbacw.facing import Facing
from gettysburg.gbacw.game import GbacwGame

TASKS = ("charge", "shock_without_fire", "close_in", "advance_toward_enemy",
         "shock_no_bonus", "retain")


def by_hand(g: GbacwGame, key: str, dests: list[tuple[Hex, Facing]]) -> list[tuple[Hex, Facing]]:
    """The filter written out: each destination's distance asked of every enemy hex."""
    task = g.pos.lc_tasks.get(key)
    seat = g.pos.units[key].seat

    def dist(h: Hex) -> int:
        return min((h.distance(e) for e in g.enemy_hexes(seat)), default=0)

    if task is None or not dests:
        return dests
    if task == "shock_no_bonus":
        return []
    if task in ("charge", "shock_without_fire"):
        return [d for d in dests if dist(d[0]) == 1] or dests
    if task in ("close_in", "advance_toward_enemy"):
        best = min(dist(d[0]) for d in dests)
        return [d for d in dests if dist(d[0]) == best]
    return dests


def test_loose_cannon_moves_as_written_out_6_24() -> None:
    """Gamble's troopers with Archer's men near, and moved about at random: for each unit
    and task, the kept-distance filter leaves the moves the written-out one leaves (some
    cut to the hexes next to the enemy, some to the nearest)."""
    r = random.Random(24)
    g, _, _ = active_gamble()
    cut = 0
    for _ in range(4):
        for k in g.brigade_units("US-1/1/Cav"):
            if not g.on_map(k):
                continue
            dests = sorted(g.reach(k), key=lambda d: (d[0].q, d[0].r, d[1].kind, d[1].index))
            for task in TASKS:
                g.pos.lc_tasks = {k: task}
                got = orders_step.lc_destinations(g, k, list(dests))
                assert got == by_hand(g, k, list(dests)), (k, task)
                cut += 0 < len(got) < len(dests)
        for k in g.brigade_units("CS-Archer/Heth"):  # the enemy somewhere else
            u = g.pos.units[k]
            if u.hex is not None:
                h = g.cat.board.parse(u.hex)
                step = h.neighbour(r.randrange(6))
                if step in g.cat.board.hexes:
                    u.hex = g.cat.board.hexes[step].id
        g.pos.lc_tasks = {}
        g._memo.clear()
    assert cut > 0
