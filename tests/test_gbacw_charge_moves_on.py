"""A cavalry charge met by a reaction move moves on (002 §11.57 option 1, gbacw/charge_step.py):
the charging unit's second ``move`` from where it stands with the MA it has left, the charge
path (§11.54) counted over both moves, the shock it then owes (§11.21), option 2 failed
leading to option 1, and the refusals outside that window. A hand-made position on the
skirmish: Gamble's 12th Illinois mounted on Attack orders; a mounted regiment handed to the
Confederate seat (the skirmish has none) four hexes ahead, everyone else of that side off
the map; d10s scripted."""

from __future__ import annotations

from dataclasses import replace

import pytest

from gettysburg.core.dice import ScriptedDice
from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import Action, RuleError
from gettysburg.gbacw import charge_step, move_step
from gettysburg.gbacw.facing import Facing, front_hexes
from gettysburg.gbacw.game import GbacwGame
from gettysburg.gbacw.movement import Check
from test_gbacw_shock_charge import mounted_on_attack

REACTOR = "US-Cav:9 NY Cav"  # a Union counter handed to the Confederate seat
FIRST_STOP = "A3502"  # one hex ahead of the charger (A3403, facing vertex 1): 1 MP


def charged_and_met(dice: list[int]) -> tuple[GbacwGame, str, str]:
    """The charge declared (a 0 passes its UDD), one hex moved, the enemy regiment's
    reaction move away (two hexes, its UDD passed): the charger's §11.57 window is open.
    ``dice``: the d10s after those."""
    g, k, _d1 = mounted_on_attack([0])
    for u in g.pos.units.values():
        if u.seat == "csa":
            u.hex = None
    u = g.pos.units[k]
    here = g.hex_of(u.hex)
    assert here is not None and u.facing == Facing("vertex", 1)
    spot = here
    for _ in range(4):
        spot = spot.neighbour(1)
    x = g.pos.units[REACTOR]
    x.seat, x.hex, x.facing = "csa", g.cat.board.hexes[spot].id, Facing("vertex", 4)
    g._memo.clear()
    assert g.apply({"type": "charge", "unit": k}, "usa")[-1].data["check"]["passed"]
    g.dice = ScriptedDice([0] * 40, die="d10")  # no disorder on the way, the UDD passed
    g.apply({"type": "move", "unit": k, "to": FIRST_STOP,
             "facing": Facing("vertex", 1).to_json()}, "usa")
    assert g.pos.pending is not None and g.pos.pending["movers"] == [REACTOR]
    away = {"type": "react_move", "unit": REACTOR, "path": ["B3932", "A4001"]}
    assert away in g.legal_actions("csa")
    g.apply(away, "csa")
    assert g.pos.pending is None and g.to_move() == ["usa"]
    g.dice = ScriptedDice(dice + [0] * 40, die="d10")
    return g, k, REACTOR


def onto(g: GbacwGame, k: str, target: Hex) -> Action:
    """A listed move of ``k`` ending with ``target`` in a front hex."""
    for a in g.legal_actions("usa"):
        if a["type"] == "move" and a["unit"] == k:
            h = g.hex_of(a["to"])
            assert h is not None
            if target in front_hexes(h, Facing.from_json(a["facing"])):
                return a
    raise AssertionError("no move brings the enemy into a front hex")


def test_a_charge_moves_on_after_a_reaction_move_and_must_shock_11_57() -> None:
    """Option 1: after the reaction move the charger moves again, with its MA less the 1 MP
    spent, brings the regiment that drew back into a front hex, and must shock it with the
    charge's +1 (§11.21, §11.55); its window is then closed."""
    g, k, x = charged_and_met([])
    assert charge_step.moving_on(g, k)
    assert charge_step.mp_left(g, k) == g.mp_of(k) - 1
    legal = g.legal_actions("usa")
    assert {"type": "break_charge", "unit": k} in legal  # option 2 is still there
    on = [a for a in legal if a["type"] == "move" and a["unit"] == k]
    assert on and all(g.reach(k)[(g.cat.board.parse(a["to"]), Facing.from_json(a["facing"]))]
                      .half_mp <= 2 * charge_step.mp_left(g, k) for a in on)
    target = g.hex_of(g.pos.units[x].hex)
    assert target is not None
    ev = g.apply(onto(g, k, target), "usa")
    moved_on = next(e for e in ev if e.type == "charge_moves_on")
    assert moved_on.rule == "11.57" and moved_on.data["unit"] == k
    assert g.pos.units[k].moves == 2 and g.pos.units[k].charging
    while g.pos.pending is not None and g.pos.pending["kind"] in ("reaction", "approach"):
        g.apply({"type": "no_reaction"} if g.pos.pending["kind"] == "reaction"
                else {"type": "let_pass"}, g.to_move()[0])
    legal = g.legal_actions("usa")
    assert not charge_step.moving_on(g, k)
    assert {"type": "end_brigade"} not in legal  # the charge must shock (§11.21)
    assert not any(a["type"] in ("move", "break_charge") and a.get("unit") == k for a in legal)
    shock = next(a for a in legal if a["type"] == "shock" and a["shocks"][0]["attackers"] == [k])
    assert g.hex_of(shock["shocks"][0]["targets"][0]) == target


def test_the_charge_path_straddles_both_moves_11_54() -> None:
    """The first move entered one hex (A3502, facing vertex 1): moving on, the last three
    hexes count it too, so a continuation of one or two hexes may not turn; the same
    search without the first move's states would allow it."""
    g, k, _x = charged_and_met([])
    here = g.hex_of(g.pos.units[k].hex)
    assert here is not None
    raw = g._reach(k, charge_step.mp_left(g, k))
    turned = [(h, f) for (h, f), r in raw.items() if h.distance(here) == 1
              and f != Facing("vertex", 1)
              and len({s[0] for s in r.path}) == 2]  # one hex entered, after a turn
    assert turned
    found = g.reach(k)
    for h, f in turned:
        assert (h, f) not in found
        with pytest.raises(RuleError):
            g.validate({"type": "move", "unit": k, "to": g.cat.board.hexes[h].id,
                        "facing": f.to_json()}, "usa")
    straight = [s for s in found if s[0].distance(here) == 1]
    assert straight and all(f == Facing("vertex", 1) for _h, f in straight)


def test_a_failed_break_off_goes_on_as_option_one_11_57() -> None:
    """Option 2 failed (a 9): the charge goes on: the unit may still move on, not try to
    break off again until another reaction move."""
    g, k, _x = charged_and_met([9])
    ev = g.apply({"type": "break_charge", "unit": k}, "usa")
    assert next(e for e in ev if e.type == "break_charge").data["broken"] is False
    legal = g.legal_actions("usa")
    assert {"type": "break_charge", "unit": k} not in legal
    assert any(a["type"] == "move" and a["unit"] == k for a in legal)
    assert charge_step.moving_on(g, k)


def test_a_passed_break_off_closes_the_window_11_57() -> None:
    g, k, _x = charged_and_met([0])
    g.apply({"type": "break_charge", "unit": k}, "usa")
    assert not g.pos.units[k].charging
    assert not any(a.get("unit") == k for a in g.legal_actions("usa"))


def test_moving_on_is_refused_outside_its_window_11_57() -> None:
    """A charger that has moved may not move again without a reaction move since (11.57),
    nor after moving on once; a unit that is not charging is refused as before (5.3)."""
    g, k, _d1 = mounted_on_attack([0])
    g.apply({"type": "charge", "unit": k}, "usa")
    g.dice = ScriptedDice([0] * 40, die="d10")
    g.apply({"type": "move", "unit": k, "to": FIRST_STOP,
             "facing": Facing("vertex", 1).to_json()}, "usa")
    while g.pos.pending is not None and g.pos.pending["kind"] == "reaction":
        g.apply({"type": "no_reaction"}, "csa")
    nxt = {"type": "move", "unit": k, "to": "A3601", "facing": Facing("vertex", 1).to_json()}
    with pytest.raises(RuleError) as e:
        g.validate(nxt, "usa")
    assert e.value.rule == "11.57"
    assert not any(a["type"] == "move" and a["unit"] == k for a in g.legal_actions("usa"))
    g, k, x = charged_and_met([])
    target = g.hex_of(g.pos.units[x].hex)
    assert target is not None
    g.apply(onto(g, k, target), "usa")
    g.pos.pending = None  # whatever the defender may answer, the window stays shut
    g._memo.clear()
    with pytest.raises(RuleError) as e:
        g.validate(nxt, "usa")
    assert e.value.rule == "11.57"
    other = next(u for u in g.activation_units() if u != k and g.on_map(u))
    g.pos.units[other].moves = 1
    g.pos.units[other].moved = True
    g._memo.clear()
    with pytest.raises(RuleError) as e:
        g.validate({**nxt, "unit": other}, "usa")
    assert e.value.rule == "5.3"


def test_moving_on_replays_to_the_same_position_11_57() -> None:
    """Determinism: the same scripted dice and actions give the same position, the noted
    charge path included."""
    a, k, x = charged_and_met([])
    b, _k, _x = charged_and_met([])
    target = a.hex_of(a.pos.units[x].hex)
    assert target is not None
    move = onto(a, k, target)
    a.apply(move, "usa")
    b.apply(move, "usa")
    assert a.pos.to_json() == b.pos.to_json()
    assert any(s.startswith(charge_step.PATH + k) for s in a.pos.reacted)


def test_a_charger_disordered_on_the_way_completes_its_charge_11_52() -> None:
    """Cavalry disordered during its charge must complete it (§11.52): a failed UDD on the
    way (a 9 against cohesion 7) leaves it its path to the enemy's side, where a unit that
    is not charging stops short (§12.34); and a disordered charger's moves may end next to
    the enemy, where §12.34 bars any other disordered unit's."""
    g, k, d1 = mounted_on_attack([0])
    g.apply({"type": "charge", "unit": k}, "usa")
    target = g.hex_of(g.pos.units[d1].hex)
    assert target is not None
    a = onto(g, k, target)
    r = g.reach(k)[(g.cat.board.parse(a["to"]), Facing.from_json(a["facing"]))]
    first = next(h for h, _f in r.path if h != r.path[0][0])
    assert first.distance(target) > 1 and r.hex.distance(target) == 1
    checked = replace(r, checks=(Check(first, "udd", 0, "9.47"),))
    for charging, reaches in ((True, True), (False, False)):
        g.pos.units[k].charging = charging
        g.dice = ScriptedDice([9] * 4, die="d10")
        done, _ev = move_step.plan(g, k, checked)
        assert done.disordered
        assert (done.reach.hex == r.hex) is reaches
    g.pos.units[k].charging = True
    g.pos.units[k].disordered = True
    g._memo.clear()
    assert any(h.distance(target) == 1 for h, _f in g.reach(k))
    g.pos.units[k].charging = False
    g._memo.clear()
    assert not any(h.distance(target) == 1 for h, _f in g.reach(k))


def test_charging_cavalry_does_not_fire_11_52() -> None:
    """Next to the enemy after its charge move, the charger is offered no fire and a shot
    is refused (11.52); not charging, the same unit there may fire."""
    g, k, d1 = mounted_on_attack([0])
    g.apply({"type": "charge", "unit": k}, "usa")
    target = g.hex_of(g.pos.units[d1].hex)
    assert target is not None
    g.dice = ScriptedDice([0] * 40, die="d10")
    g.apply(onto(g, k, target), "usa")
    while g.pos.pending is not None and g.pos.pending["kind"] == "reaction":
        g.apply({"type": "no_reaction"}, "csa")
    shot = {"type": "fire", "unit": k, "target": g.pos.units[d1].hex}
    assert not any(a["type"] == "fire" and a["unit"] == k for a in g.legal_actions("usa"))
    with pytest.raises(RuleError) as e:
        g.validate(shot, "usa")
    assert e.value.rule == "11.52"
    g.pos.units[k].charging = False
    g._memo.clear()
    assert shot in g.legal_actions("usa")
