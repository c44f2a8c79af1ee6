"""The random-play stacking invariant (tests/test_gbacw_random_play.py::check_moved_stacks)
can fail: it reads every hex a moved unit holds, each unit counted with the SP of its part
there (002 §8.12, §8.44, §8.5), and a column must end alone in each of its hexes (§8.5).
Hand-made cases on tests/data/gbacw/formations.yaml (Davis's 11 MS, 12 SP, on March)."""

from __future__ import annotations

import pytest

from gettysburg.gbacw.game import GbacwGame
from test_gbacw_formation_engine import MS11, NC26, active, hid
from test_gbacw_random_play import check_moved_stacks


def davis_column() -> tuple[GbacwGame, str, str]:
    """11 MS (12 SP, March) in column: lead and one trailing hex; their ids."""
    g = active()
    u = g.pos.units[MS11]
    assert u.facing is not None and u.facing.kind == "side"
    lead = g.hex_of(u.hex)
    assert lead is not None
    tail = lead.neighbour((u.facing.index + 3) % 6)
    u.extension, u.extends = "column", [hid(g, tail)]
    g._memo.clear()
    return g, str(u.hex), hid(g, tail)


def friend(g: GbacwGame) -> str:
    return next(k for k in g.brigade_units(g.formation(MS11)) if k != MS11)


def test_a_column_split_6_6_is_within_the_march_limit_8_5() -> None:
    g, _lead, _tail = davis_column()
    check_moved_stacks(g, MS11)  # 6 SP a hex <= 7


def test_a_lone_unit_gathered_on_march_is_allowed_only_while_its_column_is_short() -> None:
    g, _lead, _tail = davis_column()
    u = g.pos.units[MS11]
    u.extension, u.extends = None, []
    g._memo.clear()
    check_moved_stacks(g, MS11)  # 12 SP in one hex: its column still to come (§8.5)


def test_a_column_ending_on_a_friend_breaks_the_invariant_8_5() -> None:
    g, _lead, tail = davis_column()
    g.pos.units[friend(g)].hex = tail  # a friend where the trail is
    g._memo.clear()
    with pytest.raises(AssertionError):
        check_moved_stacks(g, MS11)


def test_a_line_s_part_counts_with_the_friends_in_its_hex_8_12() -> None:
    """26 NC's 17 SP in a line holds 6/6/5; a friend of more than 9 SP in the end hex of 6
    passes 15 on Advance; the invariant looks at that hex too, not only the counter's."""
    g = active()
    u = g.pos.units[NC26]
    here = g.hex_of(u.hex)
    assert here is not None and u.facing is not None and u.facing.kind == "vertex"
    v = u.facing.index
    left, right = here.neighbour((v - 1) % 6), here.neighbour((v + 2) % 6)
    u.extension, u.extends = "line", [hid(g, left), hid(g, right)]
    g._memo.clear()
    check_moved_stacks(g, NC26)
    big = max((k for k in g.brigade_units(g.formation(NC26)) if k != NC26),
              key=lambda k: g.stack_entry(k).sp)
    assert g.stack_entry(big).sp + 6 > 15
    g.pos.units[big].hex = hid(g, left)
    g._memo.clear()
    with pytest.raises(AssertionError):
        check_moved_stacks(g, NC26)
