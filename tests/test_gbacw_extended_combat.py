"""Extended lines in the engine's shock (002 §8.47-§8.49, gbacw/extended_combat.py): the
envelopment of a lone defender by a two-hex line, its gathering before it moves, and a line
advancing extended, on the hand-made position tests/data/gbacw/formations.yaml with scripted
d10s.

The geometry, as in the seed's example of §8.48 (attacker 3311-3312 facing east, defender in
3412 facing west, the half in 3311 swinging to 3411): 11 NC stands in L with its line extended
to its right into R; the dismounted 12th Illinois faces it in D, the front hex of R straight
ahead, so only R touches it; L's half swings round R to the hex beside D, D's flank."""

from __future__ import annotations

import pytest

from gettysburg.core.dice import ScriptedDice
from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import Action, Event, RuleError
from gettysburg.gbacw import extended_combat
from gettysburg.gbacw.facing import Facing, flank_hexes, front_hexes
from gettysburg.gbacw.game import GbacwGame
from test_gbacw_formation_engine import ENEMY, NC11, NC26, active, hid


def lined() -> tuple[GbacwGame, Hex, Hex, Hex]:
    """11 NC's line L-R (R its extension, facing vertex v) and the enemy in D = R's front
    hex ahead, facing back at R."""
    g = active()
    u = g.pos.units[NC11]
    assert u.facing is not None
    v = u.facing.index
    left = g.hex_of(u.hex)
    assert left is not None
    right = left.neighbour((v - 1) % 6)
    d = right.neighbour(v)
    u.extension, u.extends = "line", [hid(g, right)]
    e = g.pos.units[ENEMY]
    e.hex, e.facing = hid(g, d), Facing.vertex((v + 3) % 6)
    g._memo.clear()
    return g, left, right, d


def shocks(g: GbacwGame) -> list[Action]:
    return [a for a in g.legal_actions("csa") if a["type"] == "shock"]


def enveloping(g: GbacwGame) -> Action:
    return next(a for a in shocks(g) if any("envelop" in s for s in a["shocks"]))


def play_out(g: GbacwGame) -> list[Event]:
    """The defender stands (no withdrawal, no pre-shock fire); the attacker ends the shock
    when offered to go on."""
    ev: list[Event] = []
    while g.pos.pending is not None:
        seat = g.to_move()[0]
        legal = g.legal_actions(seat)
        act = next((a for a in legal if a["type"] in ("stand", "end_shock")), legal[0])
        ev += g.apply(act, seat)
    return ev


def test_a_two_hex_line_envelops_a_lone_defender_8_48() -> None:
    """The designation with the envelopment is listed beside the plain one; at step 3 the
    free half swings round the line's other end, free of MP, so the defender has the line
    in its front and on its flank: the pre-shock check takes the flank DRM and the roll the
    front-and-flank +4 (§8.48's note)."""
    g, left, right, d = lined()
    plain = {"type": "shock", "shocks": [{"attackers": [NC11], "targets": [hid(g, d)]}]}
    env = {"type": "shock", "shocks": [{"attackers": [NC11], "targets": [hid(g, d)],
                                        "envelop": [NC11]}]}
    assert shocks(g) == [plain, env]
    g.dice = ScriptedDice([0, 0] + [0] * 40, die="d10")  # pre-shock check passed, roll 0
    u = g.pos.units[NC11]
    spent = u.mp_spent
    ev = g.apply(env, "csa") + play_out(g)
    pivot = next(e for e in ev if e.type == "envelop")
    goal = right.neighbour((u.facing.index + 2) % 6)  # type: ignore[union-attr]
    assert pivot.data["from"] == [hid(g, left), hid(g, right)]
    assert pivot.data["hex"] == hid(g, goal) and pivot.data["extends"] == [hid(g, right)]
    e = g.pos.units[ENEMY]
    assert e.facing is not None and goal in flank_hexes(d, e.facing)
    assert d in front_hexes(goal, u.facing) and d in front_hexes(right, u.facing)  # type: ignore[arg-type]
    pre = next(e for e in ev if e.type == "shock_pre_shock_check")
    assert pre.data["drms"] == ["flank-or-rear"]
    fight = next(e for e in ev if e.type == "shock_resolved")
    assert {"id": "front-flank", "value": 4, "source": "11.44; E-7"} in fight.data["roll"]["drms"]
    assert u.mp_spent == spent  # no MP (§8.48)
    # nothing moved after the roll (the defender could not retreat and lost a step): the
    # line keeps its new place (§8.49 gathers only before an advance, retreat or continuation)
    assert g.pos.units[ENEMY].hex == hid(g, d)
    assert u.extension == "line" and u.hex == hid(g, goal) and u.extends == [hid(g, right)]


def test_an_enveloping_line_gathers_before_it_advances_8_49() -> None:
    """The defender routs (pre-shock check 9 failed, roll 9): before the compulsory
    advance the enveloping line gathers into its counter's hex, then the counter alone
    advances into the emptied hex."""
    g, _, right, d = lined()
    g.dice = ScriptedDice([9, 9, 9] + [0] * 40, die="d10")
    ev = g.apply(enveloping(g), "csa") + play_out(g)
    kinds = [e.type for e in ev]
    assert kinds.index("envelop") < kinds.index("shock_resolved") \
        < kinds.index("envelop_retract") < kinds.index("shock_advance")
    gather = next(e for e in ev if e.type == "envelop_retract")
    assert gather.data["hexes"] == [hid(g, right)]
    u = g.pos.units[NC11]
    assert u.extension is None and u.extends == [] and u.hex == hid(g, d)


def test_a_line_advances_extended_8_47() -> None:
    """Without envelopment the routed defender's hex is entered by the line still extended
    (§8.47): straight ahead, R into D and L into its own front hex on the same side."""
    g, left, _, d = lined()
    u = g.pos.units[NC11]
    assert u.facing is not None
    ahead = left.neighbour(u.facing.index)
    g.dice = ScriptedDice([9, 9, 9] + [0] * 40, die="d10")
    plain = next(a for a in shocks(g) if not any("envelop" in s for s in a["shocks"]))
    ev = g.apply(plain, "csa") + play_out(g)
    adv = next(e for e in ev if e.type == "shock_advance")
    assert adv.data["extended"] is True and adv.data["to"] == hid(g, d)
    assert u.extension == "line" and u.hex == hid(g, ahead) and u.extends == [hid(g, d)]


def test_a_line_that_cannot_stay_extended_gathers_to_advance_8_47() -> None:
    """26 NC in L's front hex blocks the straight advance and no pivot enters D: the line
    cannot advance extended (the shock step then gathers it, §8.47)."""
    g, left, _, d = lined()
    u = g.pos.units[NC11]
    assert u.facing is not None
    g.pos.units[NC26].hex = hid(g, left.neighbour(u.facing.index))
    g._memo.clear()
    assert extended_combat.advance_line(g, NC11, d) is None


def test_envelopment_conditions_8_48() -> None:
    """No envelopment offered or accepted: a line in disorder, a line with a refused flank,
    a line whose free half starts in the defender's front, a plain unit."""
    g, _, _, d = lined()
    g.pos.units[NC11].disordered = True
    g._memo.clear()
    assert not any("envelop" in s for a in shocks(g) for s in a["shocks"])
    with pytest.raises(RuleError) as err:
        extended_combat.envelopment(g, NC11, d)
    assert err.value.rule == "8.48" and "good order" in err.value.message
    g.pos.units[NC11].disordered = False
    g.pos.units[NC11].refused = ["left"]
    with pytest.raises(RuleError, match="refused"):
        extended_combat.envelopment(g, NC11, d)
    g.pos.units[NC11].refused = []
    bad = {"type": "shock", "shocks": [{"attackers": [NC11], "targets": [hid(g, d)],
                                        "envelop": [NC26]}]}
    with pytest.raises(RuleError) as err:
        g.apply(bad, "csa")
    assert err.value.rule == "8.48"
    # another enemy behind L faces it: the free half starts in an enemy front hex
    g2, left, _, d2 = lined()
    v = g2.pos.units[NC11].facing.index  # type: ignore[union-attr]
    other = g2.pos.units["US-Cav:8 IL"]
    other.hex, other.facing = hid(g2, left.neighbour((v + 3) % 6)), Facing.vertex(v)
    g2._memo.clear()
    with pytest.raises(RuleError, match="front hex"):
        extended_combat.envelopment(g2, NC11, d2)


def retreat_from(g: GbacwGame, d: Hex) -> list[Event]:
    """11 NC retreats one hex from the enemy in ``d`` (results_step.retreat), its owner
    taking the first path offered."""
    from gettysburg.gbacw import results_step

    ev = results_step.retreat(g, NC11, (1, 1), {d})
    while g.pos.pending is not None and g.pos.pending.get("kind") == "retreat":
        act = next(a for a in g.legal_actions("csa") if a["type"] == "retreat")
        ev += g.apply(act, "csa")
    return ev


def test_a_line_retreats_extended_when_it_can_8_47() -> None:
    """The line retreats whole, its extension stepping the same way, facing kept, and no
    UDD (the seed's check is only for a unit that cannot retreat extended)."""
    g, left, right, d = lined()
    u = g.pos.units[NC11]
    was = u.facing
    g.dice = ScriptedDice([9] * 20, die="d10")  # any UDD would fail
    ev = retreat_from(g, d)
    moved = next(e for e in ev if e.type == "retreat")
    end = g.cat.board.parse(moved.data["path"][-1])
    shift = (end.q - left.q, end.r - left.r)
    assert u.extension == "line" and u.extends == [hid(g, Hex(right.q + shift[0],
                                                               right.r + shift[1]))]
    assert moved.data["extends"] == u.extends and u.facing == was and not u.disordered
    assert not any(e.type.startswith("retreat_unextended") for e in ev)


def test_a_line_that_cannot_retreat_extended_gathers_and_checks_8_47() -> None:
    """A second enemy on the line's left and friends (too big to share a hex with) where
    the extension would step on every way back the counter has: the line gathers, retreats
    as one hex and takes §8.47's UDD."""
    from gettysburg.gbacw import results_step
    from gettysburg.gbacw.retreat import retreat_options

    g, left, right, d = lined()
    u = g.pos.units[NC11]
    assert u.facing is not None
    x = left.neighbour((u.facing.index + 2) % 6)  # a second enemy on L's left flank
    other = g.pos.units["US-Cav:8 IL"]
    other.hex, other.facing = hid(g, x), Facing.vertex((u.facing.index + 5) % 6)
    g._memo.clear()
    causing = {d, x}
    sur = results_step.surroundings(g, NC11, causing)
    opts = retreat_options(g.cat.board, left, (1, 1), unit_class="infantry",
                           orders="advance", sur=sur)
    targets = {Hex(right.q + p.end.q - left.q, right.r + p.end.r - left.r) for p in opts.paths}
    assert 0 < len(targets) <= 3 and left not in targets
    for k, h in zip([NC26, "CS-III:47 NC", "CS-III:52 NC"], sorted(targets), strict=False):
        g.pos.units[k].hex, g.pos.units[k].facing = hid(g, h), u.facing
    g._memo.clear()
    g.dice = ScriptedDice([9] * 20, die="d10")
    ev = results_step.retreat(g, NC11, (1, 1), causing)
    while g.pos.pending is not None and g.pos.pending.get("kind") == "retreat":
        ev += g.apply(next(a for a in g.legal_actions("csa") if a["type"] == "retreat"), "csa")
    assert any(e.type == "retreat_unextended" for e in ev)
    check = next(e for e in ev if e.type == "retreat_unextended_check")
    assert check.data["roll"] == 9 and check.data["rule"] == "8.47"
    assert u.extension is None and u.extends == []
    assert u.disordered == (not check.data["passed"])  # Heth's and Pettigrew's stars help


def test_a_line_advances_extended_after_fire_8_47_12_6() -> None:
    """The enemy in L's front hex gone after 11 NC's fire (taken off by hand), the advance
    offered (§12.6) is the line's: one facing, the one its move gives; of the two ways in
    (ahead whole, or a pivot on L swinging R into the hex) the engine takes the one entering
    fewer hexes, the pivot, as §8.47's example allows."""
    from gettysburg.gbacw import results_step

    g, left, _, _ = lined()
    u = g.pos.units[NC11]
    assert u.facing is not None
    v = u.facing.index
    target = left.neighbour(v)
    g.pos.units[ENEMY].hex = None
    g._memo.clear()
    ev = results_step.offer_fire_advance(g, NC11, hid(g, target), hid(g, left))
    assert [e.type for e in ev] == ["advance_offer"]
    offers = [a for a in g.legal_actions("csa") if a["type"] == "advance"]
    assert [a["facing"] for a in offers] == [Facing.vertex(v + 1).to_json()]
    ev = g.apply(offers[0], "csa")
    adv = next(e for e in ev if e.type == "fire_advance")
    assert adv.data["extended"] is True and adv.data["to"] == hid(g, target)
    assert u.extension == "line" and u.hex == hid(g, left) and u.extends == [hid(g, target)]
    assert u.facing == Facing.vertex(v + 1)


def test_a_line_withdraws_before_shock_whole_or_gathers_11_33_8_47() -> None:
    """Archer's 1st Tennessee (skirmish position) extended into its flank hex, shocked by
    Gamble's trooper: withdrawing one hex back (facing kept), its extension steps back the
    same way; with that hex taken by a friend the line gathers in the counter's new hex."""
    from gbacw_skirmish import active_gamble
    from gettysburg.gbacw.facing import front_hexes

    for blocked in (False, True):
        g, k, d1 = active_gamble()
        u, d = g.pos.units[k], g.pos.units[d1]
        here = g.hex_of(u.hex)
        assert here is not None and u.facing is not None
        other = next(h for h in front_hexes(here, u.facing) if hid(g, h) != d.hex)
        d.extension, d.extends = "line", [hid(g, other)]
        g._memo.clear()
        g.dice = ScriptedDice([0] * 40, die="d10")
        g.apply({"type": "shock", "shocks": [{"attackers": [k], "targets": [d.hex]}]}, "usa")
        back = next(a for a in g.legal_actions("csa") if a["type"] == "withdraw")
        start, to = g.hex_of(d.hex), g.hex_of(back["to"])
        assert start is not None and to is not None
        step = Hex(other.q + to.q - start.q, other.r + to.r - start.r)
        if blocked:
            friend = next(x for x in g.brigade_units("CS-Archer/Heth") if x != d1)
            g.pos.units[friend].hex = hid(g, step)
        ev = g.apply(back, "csa")
        moved = next(e for e in ev if e.type == "shock_withdrawal")
        assert d.hex == back["to"]
        if blocked:
            assert moved.data["given_up"] == [hid(g, other)] and d.extension is None
        else:
            assert moved.data["extends"] == [hid(g, step)] == d.extends
            assert d.extension == "line"
