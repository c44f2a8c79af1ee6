"""One legal list's fire checks share a :class:`fire_action.Planner` (the scene of each
firer built once, each plan and check kept with its answer): ``order_options`` must list
exactly the split, rapid and combined fire that the checks made afresh allow (002 §10.15,
§10.63-10.65, §10.68), and a kept refusal must be raised again as it was."""

from __future__ import annotations

import random

import pytest

from gbacw_gunline import (
    AL5,
    AL13,
    CUSTER,
    HUGER_C,
    IN3,
    MI5,
    NAP1,
    NAP2,
    PITT_A,
    PITT_B,
    RESERVE,
    TN1,
    at,
    gunline,
    key_of,
    place,
)
from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import Action, RuleError
from gettysburg.gbacw import fire_action
from gettysburg.gbacw.charts import all_charts
from gettysburg.gbacw.game import GbacwGame


def candidates(g: GbacwGame, key: str) -> list[Action]:
    """The actions order_options tries, in its order (rapid, split pairs, combined)."""
    targets = fire_action.fire_targets(g, key)
    seat = g.pos.units[key].seat
    ids = [g.cat.board.hexes[t].id for t in targets]
    c = g.counter(key)
    battery = c.arm in ("art", "horse_art")
    rapid = battery and all_charts().range.weapon(c.weapon).rapid_fire
    out: list[Action] = [{"type": "rapid_fire", "unit": key, "target": t}
                         for t in (ids if rapid else [])]
    out += [{"type": "fire_split", "unit": key, "targets": [a, b]}
            for i, a in enumerate(ids) for b in ids[i + 1:]]
    here = g.hex_of(g.pos.units[key].hex)
    if battery and here is not None:
        stack = [k for k in fire_action.stack_keys(g, here) if g.pos.units[k].seat == seat]
        if stack and stack[0] == key:
            out += [{"type": "combined_fire", "unit": key, "with": [o], "target": t}
                    for o in stack[1:] for t in ids]
    return out


def fresh_answer(g: GbacwGame, action: Action, seat: str) -> object:
    try:
        return fire_action.check_order(g, action, seat)
    except RuleError as exc:
        return ("refused", exc.rule, exc.message)


def kept_answer(g: GbacwGame, action: Action, seat: str,
                planner: fire_action.Planner) -> object:
    try:
        return fire_action.check_order(g, action, seat, planner)
    except RuleError as exc:
        return ("refused", exc.rule, exc.message)


def check_all(g: GbacwGame, key: str) -> tuple[int, int]:
    """Every candidate of ``key`` through one planner (twice) against the fresh checks, and
    order_options against the candidates the fresh checks allow: (allowed, refused)."""
    seat = g.pos.units[key].seat
    planner = fire_action.Planner()
    tries = candidates(g, key)
    fresh = [fresh_answer(g, a, seat) for a in tries]
    for _ in range(2):
        assert [kept_answer(g, a, seat, planner) for a in tries] == fresh, key
    allowed = [a for a, f in zip(tries, fresh, strict=True) if not isinstance(f, tuple)]
    assert fire_action.order_options(g, key) == allowed, key
    return len(allowed), len(tries) - len(allowed)


ENEMY = (AL13, AL5, TN1, PITT_A, PITT_B, HUGER_C)


@pytest.mark.parametrize("seed", range(6))
def test_battery_line_planner(seed: int) -> None:
    """Two stacked batteries of the Artillery Reserve (002 §10.63) before six enemy units
    placed at random within 6 hexes (some out of the arc, some blocking others' sight,
    §10.26): the splits among any hexes (§10.65), rapid fire (§10.68) and combined fire as
    the fresh checks say."""
    r = random.Random(seed)
    g = gunline(RESERVE)
    place(g, NAP1, at(g, (0, 0)), 1)
    place(g, NAP2, at(g, (0, 0)), 1)
    spots = []  # the battery's front arc (vertex 1: directions 1 and 2), 1-6 hexes out
    for i in range(7):
        for j in range(7 - i):
            h = at(g, (0, 0))
            for d, n in ((1, i), (2, j)):
                for _ in range(n):
                    h = h.neighbour(d)
            if i + j > 0 and h in g.cat.board.hexes:
                spots.append(h)
    for k, h in zip(ENEMY, r.sample(spots, len(ENEMY)), strict=True):
        place(g, k, h, 4)
    g._memo.clear()
    allowed, refused = check_all(g, key_of(g, NAP1))
    assert allowed > 0 and refused > 0, (allowed, refused)


def test_split_and_combined_small_arms_planner() -> None:
    """Custer's Spencers stacked with the Indiana carbines, enemies in both front hexes and
    beyond (002 §10.15, the optional §10.82): splits and their refusals as the fresh checks
    say, with and without combined small arms."""
    seen = [0, 0]
    for options in ((), ("combined_small_arms",)):
        g = gunline(CUSTER, options=options)
        place(g, MI5, at(g, (0, 0)), 1)
        place(g, IN3, at(g, (0, 0)), 1)
        here = at(g, (0, 0))
        for k, h in zip(ENEMY, [here.neighbour(1), here.neighbour(2), here.neighbour(0),
                                 here.neighbour(3), at(g, (2, -4)), at(g, (0, 3))],
                        strict=True):
            place(g, k, h, 4)
        g._memo.clear()
        for unit in (MI5, IN3):
            allowed, refused = check_all(g, key_of(g, unit))
            seen[0] += allowed
            seen[1] += refused
    assert seen[0] > 0 and seen[1] > 0, seen


def every_allowed(g: GbacwGame, key: str) -> list[Hex]:
    """fire_targets written out: every enemy hex, each asked of plan_at."""
    seat = g.pos.units[key].seat
    firer = fire_action.firer_of(g, key, phasing=True)
    out = []
    for h in sorted(fire_action.enemy_targets(g, seat), key=lambda x: (x.q, x.r)):
        try:
            fire_action.plan_at(g, firer, h, seat)
        except RuleError:
            continue
        out.append(h)
    return out


@pytest.mark.parametrize("light", ["day", "dusk", "night"])
def test_fire_targets_skip_only_hexes_out_of_range_10_16(light: str) -> None:
    """fire_targets skips the enemy hexes beyond the weapon's range (halved at dusk and
    night, 002 §16.1) from every hex the unit fires from, and lists what plan_at allows:
    a battery and Spencers before enemies at 1-12 hexes."""
    turns = all_charts().turn_track.turns()
    seen = 0
    for seed in range(3):
        r = random.Random(seed)
        g = gunline(RESERVE)
        g.pos.turn = next(i for i, t in enumerate(turns) if t.light == light)
        place(g, NAP1, at(g, (0, 0)), 1)
        place(g, MI5, at(g, (-1, 0)), 1)
        spots = [h for h in (at(g, (dq, dr)) for dq in range(-12, 13) for dr in range(-12, 13))
                 if h in g.cat.board.hexes and 0 < h.distance(at(g, (0, 0))) <= 12]
        for k, h in zip(ENEMY, r.sample(spots, len(ENEMY)), strict=True):
            place(g, k, h, 4)
        g._memo.clear()
        for unit in (NAP1, MI5):
            k = key_of(g, unit)
            got = fire_action.fire_targets(g, k)
            assert got == every_allowed(g, k), (seed, unit)
            seen += len(got)
    assert seen > 0
