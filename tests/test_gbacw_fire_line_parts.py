"""An extended line fires by its parts in split and non-phasing fire too (002 §8.45 with
§10.15 and §10.4): the 1st Tennessee (6 SP, 3 a hex) extended into its left flank hex, on
the gun-line test map (tests/gbacw_gunline.py)."""

from __future__ import annotations

import pytest

from gbacw_gunline import IN3, MI5, TN1, at, gunline, hid, key_of, place
from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import RuleError
from gettysburg.gbacw import fire_action as fa
from gettysburg.gbacw import return_fire as rf
from gettysburg.gbacw.game import GbacwGame


def line(active: str) -> tuple[GbacwGame, str, Hex, Hex]:
    """TN1 facing vertex 0 at the centre, extended into neighbour 5 (same facing)."""
    g = gunline(active)
    c = at(g, (0, 0))
    place(g, TN1, c, 0)
    tn = key_of(g, TN1)
    u = g.pos.units[tn]
    u.extension, u.extends = "line", [hid(g, c.neighbour(5))]
    g._memo.clear()
    return g, tn, c, c.neighbour(5)


def test_line_sp_is_every_parts_share_8_45() -> None:
    g, tn, _, _ = line("CS-Archer/Heth")
    assert fa.line_sp(g, tn) == 6


def test_split_fire_by_parts_each_share_from_the_part_next_to_it_10_15_8_45() -> None:
    g, tn, c, part = line("CS-Archer/Heth")
    right, left = c.neighbour(1), part.neighbour(0)  # each in the front of one part only
    place(g, IN3, right, 3)
    place(g, MI5, left, 3)
    g._memo.clear()
    order = fa.check_order(g, {"type": "fire_split", "unit": tn,
                               "targets": [hid(g, right), hid(g, left)]}, "csa")
    assert [(p.target, p.sp, p.firer.hex) for p in order.plans] == [(right, 3, c),
                                                                     (left, 3, part)]
    listed = fa.order_options(g, tn)
    assert any(a["type"] == "fire_split" for a in listed)


def test_split_fire_by_a_line_wants_adjacent_targets_10_15() -> None:
    g, tn, c, part = line("CS-Archer/Heth")
    near, far = c.neighbour(1), part.neighbour(0).neighbour(0)  # the second 2 hexes away
    place(g, IN3, near, 3)
    place(g, MI5, far, 3)
    g._memo.clear()
    with pytest.raises(RuleError) as err:
        fa.check_order(g, {"type": "fire_split", "unit": tn,
                           "targets": [hid(g, near), hid(g, far)]}, "csa")
    assert err.value.rule == "10.15"


@pytest.mark.parametrize(("way", "sp", "by"), [((1,), 3, 0), ((5, 0), 3, 1), ((0, 0), 6, None)])
def test_return_fire_by_parts_8_45(way: tuple[int, ...], sp: int, by: int | None) -> None:
    """Return fire at a hex one part reaches comes from that part with its share; at a hex
    both reach, the parts combine (SP added, the worst range DRM)."""
    g, tn, c, part = line("US-1/1/Cav")
    t = c
    for d in way:
        t = t.neighbour(d)
    place(g, IN3, t, 3)
    g._memo.clear()
    plan = rf.shot_plan(g, tn, t, "return")
    assert plan.sp == sp
    if by is None:
        assert plan.range_drm is not None
    else:
        assert plan.firer.hex == (c, part)[by] and plan.range_drm is None


def test_held_back_sp_bound_a_lines_second_return_shot_10_15() -> None:
    g, tn, c, _ = line("US-1/1/Cav")
    t = c.neighbour(0).neighbour(0)
    place(g, IN3, t, 3)
    g.pos.units[tn].fired = ["return", f"{rf.RESERVE}2@{hid(g, c.neighbour(2))}"]
    g._memo.clear()
    assert rf.shot_plan(g, tn, t, "return").sp == 2
