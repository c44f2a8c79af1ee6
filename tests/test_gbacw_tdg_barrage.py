"""The artillery barrage through the engine (004 §10.9, tdg.10.91-10.95; barrage_step.py), on
the gun-line positions built by hand with scripted d10s."""

from __future__ import annotations

import pytest

from gbacw_gunline import (
    ARCHER,
    NAP1,
    NAP2,
    RESERVE,
    at,
    gunline,
    hid,
    key_of,
    place,
    script,
)
from gettysburg.core.protocol import RuleError
from gettysburg.gbacw import barrage_step
from gettysburg.gbacw.game import GbacwGame

TARGET = (6, 0)  # six hexes from the centre, open level ground


def artillery_am(dice: list[int], *, used: int = 0) -> GbacwGame:
    """The Union's artillery AM drawn (``used`` reserve activations already this turn), the
    two reserve Napoleons at the centre and one hex off, Hunt with them, Archer's 1 TN six
    hexes away; no brigade active."""
    g = gunline(RESERVE)
    p = g.pos
    p.brigade, p.current, p.done_brigades, p.phase = None, "usa/US-AR", [], "action"
    p.brigades[RESERVE].activations = used
    place(g, NAP1, at(g, (0, 0)), 0)
    place(g, NAP2, at(g, (0, 1)), 0)
    p.leaders["hunt"] = hid(g, at(g, (-1, 0)))
    arch = [k for k in p.units if g.formation(k) == ARCHER]
    place(g, arch[0], at(g, TARGET), 3)
    g._memo.clear()
    script(g, dice)
    return g


def test_barrage_declared_on_the_artillery_am() -> None:
    """tdg.10.92: offered on the drawn artillery AM before any brigade acts; the reserve's
    brigades then do not activate on it; only barrage fire and the end follow."""
    g = artillery_am([])
    assert {"type": "barrage"} in g.legal_actions("usa")
    g.apply({"type": "barrage"}, "usa")
    assert barrage_step.active(g)
    legal = g.legal_actions("usa")
    assert {a["type"] for a in legal} == {"barrage_fire", "end_activation"}
    assert {"type": "barrage_fire", "units": sorted([key_of(g, NAP1), key_of(g, NAP2)]),
            "target": hid(g, at(g, TARGET))} in legal
    with pytest.raises(RuleError) as e:
        g.validate({"type": "activate", "brigade": RESERVE}, "usa")
    assert e.value.rule == "tdg.10.93"


def test_no_barrage_without_the_chief_or_on_another_marker() -> None:
    """tdg.10.92: the chief on the map, an artillery AM only."""
    g = artillery_am([])
    g.pos.leaders["hunt"] = None
    g._memo.clear()
    with pytest.raises(RuleError) as e:
        g.validate({"type": "barrage"}, "usa")
    assert e.value.rule == "tdg.10.92"
    g = artillery_am([])
    g.pos.current = "usa/US-1/Cav"
    g._memo.clear()
    assert {"type": "barrage"} not in g.legal_actions("usa")


def test_example_10_94_third_artillery_am_gives_plus_three() -> None:
    """004 §10.94's example: a battery barraging on the third artillery AM of the turn (two
    used before by its brigade) adds 3 to its barrage check; a Union 9 or more disorders it,
    and the Fire Table's ammunition results are not read (no fire_ammunition event even on
    an unmodified 5)."""
    # fire roll 5 (unmodified 5: Low Ammo under 002 §10.69 in normal fire), its UDD, then
    # the barrage check 6 + 3 = 9
    g = artillery_am([5, 0, 6], used=2)
    g.apply({"type": "barrage"}, "usa")
    nap = key_of(g, NAP1)
    ev = g.apply({"type": "barrage_fire", "units": [nap], "target": hid(g, at(g, TARGET))}, "usa")
    shot = next(e for e in ev if e.type == "fire")
    assert shot.data["barrage"] is True and shot.data["roll"] == 5
    assert not [e for e in ev if e.type == "fire_ammunition"]
    check = next(e for e in ev if e.type == "barrage_check")
    assert check.rule == "tdg.10.94"
    assert check.data == {"unit": nap, "roll": 6, "drm": 3, "total": 9, "result": "disordered"}
    assert g.pos.units[nap].disordered and g.pos.units[nap].ammo == "none"
    # disordered artillery cannot fire again (002 §10.61)
    with pytest.raises(RuleError):
        g.validate({"type": "barrage_fire", "units": [nap], "target": hid(g, at(g, TARGET))},
                   "usa")


def test_first_artillery_am_check_fires_on() -> None:
    """tdg.10.94: on the first AM the DRM is +1: a 7 is 8, below the Union's 9."""
    g = artillery_am([3, 0, 7])
    g.apply({"type": "barrage"}, "usa")
    nap = key_of(g, NAP1)
    ev = g.apply({"type": "barrage_fire", "units": [nap], "target": hid(g, at(g, TARGET))}, "usa")
    check = next(e for e in ev if e.type == "barrage_check")
    assert (check.data["drm"], check.data["result"]) == (1, "fires-on")
    assert not g.pos.units[nap].disordered


def test_combined_twice_then_no_more() -> None:
    """tdg.10.93: batteries in different hexes combine at one target (guns added), each
    fires twice in the phase and no more."""
    g = artillery_am([])
    g.apply({"type": "barrage"}, "usa")
    a, b = key_of(g, NAP1), key_of(g, NAP2)
    shot = {"type": "barrage_fire", "units": [a, b], "target": hid(g, at(g, TARGET))}
    ev = g.apply(shot, "usa")
    fire = next(e for e in ev if e.type == "fire")
    assert fire.data["combined"] == [a, b] and fire.data["sp"] == 12
    assert [e.data["unit"] for e in ev if e.type == "barrage_check"] == [a, b]
    assert g.pos.pending is None
    g.apply(shot, "usa")
    assert g.pos.tdg["barrage"]["shots"] == {a: 2, b: 2}
    with pytest.raises(RuleError) as e:
        g.validate({"type": "barrage_fire", "units": [a], "target": hid(g, at(g, TARGET))},
                   "usa")
    assert e.value.rule == "tdg.10.93"


def test_min_range_four() -> None:
    """tdg.10.93: barrage fire only at 4 hexes or more."""
    g = artillery_am([])
    arch = [k for k in g.pos.units if g.formation(k) == ARCHER]
    place(g, arch[1], at(g, (3, 0)), 3)
    g._memo.clear()
    g.apply({"type": "barrage"}, "usa")
    with pytest.raises(RuleError) as e:
        g.validate({"type": "barrage_fire", "units": [key_of(g, NAP1)],
                    "target": hid(g, at(g, (3, 0)))}, "usa")
    assert e.value.rule == "tdg.10.93"


def test_not_two_turns_running() -> None:
    """tdg.10.95: a side that barraged last turn may not barrage this turn."""
    g = artillery_am([])
    g.pos.tdg["barrage_turn"] = {"usa": g.pos.turn - 1}
    with pytest.raises(RuleError) as e:
        g.validate({"type": "barrage"}, "usa")
    assert e.value.rule == "tdg.10.95"
    g.pos.tdg["barrage_turn"] = {"usa": g.pos.turn - 2}
    g.validate({"type": "barrage"}, "usa")


def test_phase_ends_with_its_marker_and_replays() -> None:
    """The barrage phase is forgotten when its marker ends; the same actions on the same dice
    give the same position (determinism)."""
    def run() -> GbacwGame:
        g = artillery_am([4, 0, 2])
        g.apply({"type": "barrage"}, "usa")
        g.apply({"type": "barrage_fire", "units": [key_of(g, NAP1)],
                 "target": hid(g, at(g, TARGET))}, "usa")
        assert g.pos.tdg["barrage_turn"] == {"usa": g.pos.turn}
        g.apply({"type": "end_activation"}, "usa")
        return g

    g = run()
    assert not barrage_step.active(g) and "barrage" not in g.pos.tdg
    assert run().pos.to_json() == g.pos.to_json()


# --- the Confederates: Pendleton's own artillery AMs (E-29) -----------------------------------
def test_pendleton_draws_artillery_ams_and_barrages() -> None:
    """004 §4.35-4.36 (E-29): Pendleton draws an efficiency marker like a corps (his AMs, 1 to
    3, the marker CS-Art); on it the Confederates may barrage with the batteries in his range
    (tdg.10.92); a Confederate check above 9 removes the battery (tdg.10.94)."""
    from gettysburg.core.dice import ScriptedDice

    g = GbacwGame("third-day", seed=1)
    p = g.pos
    assert "csa/CS-Art" in [f"csa/{c}" for c, _ in g._commands("csa")]
    assert 1 <= p.ams["CS-Art"] <= 3
    p.phase, p.current, p.brigade, p.done_brigades = "action", "csa/CS-Art", None, []
    p.orders_done = ["usa", "csa"]
    g._memo.clear()
    assert {"type": "barrage"} in g.legal_actions("csa")
    g.apply({"type": "barrage"}, "csa")
    shots = [a for a in g.legal_actions("csa") if a["type"] == "barrage_fire"
             and len(a["units"]) == 1]
    assert shots
    shot = shots[0]
    g.dice = ScriptedDice([0] + [9] * 80, die="d10")  # the shot, then 9s (the check)
    ev = g.apply(shot, "csa")
    check = next(e for e in ev if e.type == "barrage_check")
    assert check.data["roll"] == 9 and check.data["total"] > 9
    assert check.data["result"] == "removed"
    assert g.pos.units[shot["units"][0]].hex is None  # eliminated
    with pytest.raises(RuleError):  # Pendleton's AMs give nothing in a transfer (tdg.4.36)
        from gettysburg.gbacw.kinds import ARTILLERY_COMMANDS
        from gettysburg.gbacw.tdg_leaders import check_transfer_parties
        check_transfer_parties(["CS-Art", "CS-Hood/I"], ARTILLERY_COMMANDS)
