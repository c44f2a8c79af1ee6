"""Extended lines in the engine's shock (002 §8.46, §8.49), on
the hand-made skirmish (tests/data/gbacw/skirmish.yaml) with scripted d10s. The extended
state is g3_formations' (``UnitState.extension`` / ``extends``), set here by hand."""

from __future__ import annotations

from gbacw_skirmish import active_gamble
from gettysburg.core.dice import ScriptedDice
from gettysburg.gbacw import shock_action as sa
from gettysburg.gbacw.facing import flank_hexes, front_hexes
from test_gbacw_shock_engine import shocks, stand


def test_an_extended_defender_is_shocked_whole_8_46() -> None:
    """Archer's regiment extended from A3502 into A3402 (its flank hex, the attacker's other
    front hex): a shock on either hex takes the whole unit, its SP counted once."""
    g, k, d1 = active_gamble()
    u, d = g.pos.units[k], g.pos.units[d1]
    here = g.hex_of(u.hex)
    assert here is not None and u.facing is not None and d.facing is not None
    other = next(h for h in front_hexes(here, u.facing) if g.cat.board.hexes[h].id != d.hex)
    assert other in flank_hexes(g.hex_of(d.hex), d.facing)  # type: ignore[arg-type]
    d.extension, d.extends = "line", [g.cat.board.hexes[other].id]
    g._memo.clear()
    assert sa.combatant_of(g, d1).hexes == (g.hex_of(d.hex), other)
    assert other in sa.shock_targets(g, k)
    g.dice = ScriptedDice([0, 5] + [0] * 40, die="d10")
    a = {"type": "shock", "shocks": [{"attackers": [k],
                                      "targets": [g.cat.board.hexes[other].id]}]}
    assert a in shocks(g)
    ev = g.apply(a, "usa") + stand(g)
    resolved = next(e for e in ev if e.type == "shock_resolved")
    designated = next(e for e in ev if e.type == "shock_designated")
    assert designated.data["defenders"] == [d1]
    assert resolved.data["defender_sp"] == str(g.counter(d1).sp)  # once, whole (§8.46)


def test_an_extended_attacker_gathers_before_advancing_8_49() -> None:
    """Gamble's regiment extended into its flank hex wins (9 at 1.5:1): before the
    compulsory advance it gathers into its counter's hex (the extension is given up)."""
    g, k, d1 = active_gamble()
    u = g.pos.units[k]
    here = g.hex_of(u.hex)
    assert here is not None and u.facing is not None
    flank = flank_hexes(here, u.facing)[0]
    fid = g.cat.board.hexes[flank].id
    for x in g.pos.units.values():
        if x.hex == fid:
            x.hex = "A4005"  # make room on the flank
    u.extension, u.extends = "line", [fid]
    g.pos.units[d1].lost = 4
    g.dice = ScriptedDice([0, 9] + [0] * 40, die="d10")
    g._memo.clear()
    target = g.pos.units[d1].hex
    a = next(a for a in shocks(g) if a["shocks"][0]["attackers"] == [k]
             and a["shocks"][0]["targets"] == [target])
    ev = g.apply(a, "usa") + stand(g)
    adv = next(e for e in ev if e.type == "shock_advance")
    assert adv.data["retracted"] == [fid] and adv.data["to"] == target
    assert u.extension is None and u.extends == [] and u.hex == target
