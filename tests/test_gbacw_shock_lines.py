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


def test_an_extended_attacker_advances_extended_8_47() -> None:
    """Gamble's regiment extended into its flank hex wins (9 at 1.5:1): the compulsory
    advance keeps the line (002 §8.47; before g4_formations it gathered, the old reading):
    it enters the emptied hex with the fewest hexes entered, here a pivot on its end."""
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
    assert adv.data["extended"] is True and adv.data["to"] == target
    assert u.extension == "line" and len(u.extends) == 1
    assert target in (u.hex, *u.extends) and "retracted" not in adv.data


def test_artillery_in_the_engine_s_shock_11_61_11_63() -> None:
    """On the gun-line: Archer's 1st Tennessee shocks a hex of a battery of six Napoleons
    and the 3rd Indiana (dismounted, 5 SP less one horse holder). The battery never
    withdraws (§11.61) and adds 1 SP (six guns: one per four, at least one) only when it is
    the top unit (§11.63)."""
    from gbacw_gunline import ARCHER, IN3, NAP1, TN1, at, gunline, hid, key_of, place

    g = gunline(ARCHER)
    place(g, TN1, at(g, (0, 0)), 0)
    target = at(g, (0, 0)).neighbour(0)
    place(g, IN3, target, 3)
    place(g, NAP1, target, 3)
    g._memo.clear()
    tn1, in3, nap = key_of(g, TN1), key_of(g, IN3), key_of(g, NAP1)
    assert sa.shock_targets(g, nap) == []  # a battery never shocks (not even its own side's)
    g.dice = ScriptedDice([0, 5] + [0] * 40, die="d10")
    a = {"type": "shock", "shocks": [{"attackers": [tn1], "targets": [hid(g, target)]}]}
    g.validate(a, "csa")
    ev = g.apply(a, "csa")
    assert not any(x["type"] == "withdraw" and x.get("unit") == nap
                   for x in g.legal_actions("usa"))
    while g.pos.pending is not None and g.pos.pending["kind"] in ("shock", "retreat"):
        seat = g.to_move()[0]
        legal = g.legal_actions(seat)
        ev += g.apply({"type": "stand"} if {"type": "stand"} in legal else legal[0], seat)
    resolved = next(e for e in ev if e.type == "shock_resolved")
    order = list(g.pos.units)  # the stack's order is the position's
    on_top = order.index(nap) < order.index(in3)
    infantry = g.counter(in3).sp - 1  # one horse holder (§14.25)
    guns = max(1, g.counter(nap).sp // 4)
    assert resolved.data["defender_sp"] == str(infantry + (guns if on_top else 0))
