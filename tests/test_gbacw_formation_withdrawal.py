"""The withdrawal move of extended units (002 §9.54 with §8.44, gbacw/withdrawal.py and
withdrawal_step.py) on the hand-made position tests/data/gbacw/formations.yaml: 11 NC's line
on open ground steps back whole; blocked, it may gather disordered and withdraw from one of
its hexes; a column always takes that way."""

from __future__ import annotations

import pytest

from gettysburg.core.dice import ScriptedDice
from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import RuleError
from gettysburg.gbacw.facing import Facing, rear_hexes
from gettysburg.gbacw.game import GbacwGame
from test_gbacw_formation_engine import NC11, NC26, NC47, NC52, active, flank, hid


def lined() -> tuple[GbacwGame, Hex, Hex]:
    """11 NC's line: its counter's hex and its right extension (set by hand, no MP)."""
    g = active()
    u = g.pos.units[NC11]
    u.extension, u.extends = "line", [flank(g, NC11, "right")]
    g._memo.clear()
    here, ext = g.hex_of(u.hex), g.hex_of(u.extends[0])
    assert here is not None and ext is not None
    return g, here, ext


def withdrawals(g: GbacwGame, key: str = NC11) -> list[list[str]]:
    return [list(a["path"]) for a in g.legal_actions("csa")  # type: ignore[arg-type]
            if a["type"] == "withdrawal_move" and a["unit"] == key]


def test_a_line_withdraws_whole_9_54() -> None:
    """Each path names the counter's hexes; the extension steps back the same way, the
    facing kept, on open ground no UDD."""
    g, here, ext = lined()
    u = g.pos.units[NC11]
    assert u.facing is not None
    paths = withdrawals(g)
    backs = rear_hexes(here, u.facing)
    assert sorted(p[0] for p in paths) == sorted(hid(g, b) for b in backs for _ in range(3))
    path = [hid(g, backs[1]), hid(g, rear_hexes(backs[1], u.facing)[1])]
    assert path in paths
    ev = g.apply({"type": "withdrawal_move", "unit": NC11, "path": path}, "csa")
    end = g.cat.board.parse(path[-1])
    shift = (end.q - here.q, end.r - here.r)
    assert u.hex == path[-1] and u.extends == [hid(g, Hex(ext.q + shift[0], ext.r + shift[1]))]
    assert u.extension == "line" and u.facing == Facing.vertex(1) and not u.disordered
    assert ev[-1].data["extends"] == u.extends and ev[-1].data["checks"] == []


def test_not_after_a_formation_change_9_54() -> None:
    """The withdrawal is the unit's whole move: none once it extended this activation."""
    g = active()
    assert withdrawals(g)
    g.apply({"type": "extend", "unit": NC11, "sides": ["right"]}, "csa")
    assert withdrawals(g) == []


def block_the_line(g: GbacwGame, here: Hex, ext: Hex) -> None:
    """Friends of 11 NC (too big to stack with it) behind both of its parts."""
    u = g.pos.units[NC11]
    assert u.facing is not None
    behind = [*rear_hexes(ext, u.facing), *rear_hexes(here, u.facing)]
    for k, h in zip((NC26, NC47, NC52), dict.fromkeys(behind), strict=False):
        g.pos.units[k].hex = hid(g, h)
        g.pos.units[k].facing = u.facing
    g._memo.clear()


def test_a_blocked_line_gathers_disordered_and_withdraws_9_54() -> None:
    """With friends behind it the line cannot step back whole; it may gather into one of
    its hexes, taking a disorder, and withdraw from there as a one-hex unit (the path
    starts with the hex it gathers into)."""
    g, here, ext = lined()
    block_the_line(g, here, ext)
    paths = withdrawals(g)
    assert paths and all(p[0] in (hid(g, here), hid(g, ext)) and len(p) >= 2 for p in paths)
    g.dice = ScriptedDice([0] * 20, die="d10")
    path = paths[0]
    ev = g.apply({"type": "withdrawal_move", "unit": NC11, "path": path}, "csa")
    u = g.pos.units[NC11]
    assert u.extension is None and u.extends == [] and u.disordered
    assert ev[-1].data["gathered"] == path[0] and u.hex == path[-1]
    assert ev[-1].data["given_up"] == [x for x in (hid(g, here), hid(g, ext)) if x != path[0]]


def test_a_column_never_withdraws_as_a_column_9_54() -> None:
    """A column (11 NC set in column by hand on Advance) is offered only the gathering
    way; a made-up path for the whole column is refused with §9.54."""
    g = active()
    u = g.pos.units[NC11]
    here = g.hex_of(u.hex)
    assert here is not None and u.facing is not None
    tail = rear_hexes(here, u.facing)[0]
    u.extension, u.extends = "column", [hid(g, tail)]
    g._memo.clear()
    paths = withdrawals(g)
    assert paths and all(p[0] in (u.hex, hid(g, tail)) for p in paths)
    with pytest.raises(RuleError) as err:
        g.apply({"type": "withdrawal_move", "unit": NC11,
                 "path": [hid(g, rear_hexes(here, u.facing)[1])]}, "csa")
    assert err.value.rule == "9.54"
