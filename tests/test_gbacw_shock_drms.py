"""The shock step's modifiers from the position (gbacw/shock_step.py): breastworks on the
pre-shock check and the shock roll (002 §15.23, E-8), brigade fatigue on both (002 §17.31),
and the defender's pre-shock fire: a Spencer unit fires twice (002 §14.36), and the fatigue
DRMs of a shot stay out of the enemy's copy of its events. Hand-built positions on the
skirmish (Gamble's 12th Illinois shocks the Archer regiment in its front hex) with scripted
d10s: after the opening, 6 for the pre-shock check, 5 for the shock roll (or the shot)."""

from __future__ import annotations

import json
from dataclasses import replace

from gbacw_skirmish import ARCHER, GAMBLE
from gettysburg.core.protocol import Event
from gettysburg.gbacw import fatigue
from gettysburg.gbacw.game import GbacwGame
from test_gbacw_shock_engine import designated, stand


def _rolled(ev: list[Event], kind: str) -> dict[str, object]:
    return next(e.data for e in ev if e.type == kind)


def _drm_ids(resolved: dict[str, object]) -> dict[str, int]:
    roll = resolved["roll"]
    assert isinstance(roll, dict)
    return {str(d["id"]): int(d["value"]) for d in roll["drms"]}


def _works(g: GbacwGame, attacker: str, defender: str) -> None:
    """A breastwork in the defender's hex guarding the two hexsides towards the attacker."""
    a, d = g.hex_of(g.pos.units[attacker].hex), g.hex_of(g.pos.units[defender].hex)
    assert a is not None and d is not None
    side = next(i for i in range(6) if d.neighbour(i) == a)
    g.pos.breastworks.append({"hex": g.pos.units[defender].hex, "vertex": side})


def _stood() -> tuple[list[Event], list[Event], GbacwGame, str, str]:
    """The same shock twice, without and with works; the events of each."""
    plain, k, enemy = designated()
    before = stand(plain)
    g, k2, enemy2 = designated()
    _works(g, k2, enemy2)
    after = stand(g)
    return before, after, g, k, enemy


def test_breastworks_in_shock_15_23() -> None:
    """-1 on the defender's pre-shock check and -1 on the shock roll (the Terrain chart's
    breastworks line, counted once: E-8)."""
    before, after, _g, _k, _enemy = _stood()
    pre0, pre1 = _rolled(before, "shock_pre_shock_check"), _rolled(after, "shock_pre_shock_check")
    assert "breastworks" not in pre0["drms"] and "breastworks" in pre1["drms"]  # type: ignore[operator]
    r0, r1 = pre0["roll"], pre1["roll"]
    assert isinstance(r0, dict) and isinstance(r1, dict)
    assert r1["drm"] == r0["drm"] - 1
    s0, s1 = _rolled(before, "shock_resolved"), _rolled(after, "shock_resolved")
    t0, t1 = _drm_ids(s0).get("terrain", 0), _drm_ids(s1).get("terrain", 0)
    assert t1 == t0 - 1
    assert "breastworks" in json.dumps(s1["roll"]) and "breastworks" not in json.dumps(s0["roll"])


def test_works_on_the_other_sides_do_not_help_15_21() -> None:
    g, k, enemy = designated()
    a, d = g.hex_of(g.pos.units[k].hex), g.hex_of(g.pos.units[enemy].hex)
    assert a is not None and d is not None
    side = next(i for i in range(6) if d.neighbour(i) == a)
    g.pos.breastworks.append({"hex": g.pos.units[enemy].hex, "vertex": (side + 3) % 6})
    ev = stand(g)
    assert "breastworks" not in _rolled(ev, "shock_pre_shock_check")["drms"]  # type: ignore[operator]
    assert "breastworks" not in json.dumps(_rolled(ev, "shock_resolved")["roll"])


def test_fatigue_on_the_shock_roll_and_the_pre_shock_check_17_31() -> None:
    """The attacker's brigade at Fatigue 2 takes -1 (half, rounded up) on the shock roll;
    the defender's at Fatigue 3 gives the attacker +2 on it and +2 on its pre-shock check."""
    plain, _k, _e = designated()
    base = stand(plain)
    g, _k2, _e2 = designated()
    g.fatigue = True
    g.pos.brigades[GAMBLE].fatigue = fatigue.steps_of("2")
    g.pos.brigades[ARCHER].fatigue = fatigue.steps_of("3")
    ev = stand(g)
    drms = _drm_ids(_rolled(ev, "shock_resolved"))
    assert drms["fatigue-attacker"] == -1 and drms["fatigue-defender"] == 2
    assert "fatigue-attacker" not in _drm_ids(_rolled(base, "shock_resolved"))
    pre0 = _rolled(base, "shock_pre_shock_check")["roll"]
    pre1 = _rolled(ev, "shock_pre_shock_check")["roll"]
    assert isinstance(pre0, dict) and isinstance(pre1, dict)
    assert pre1["drm"] == pre0["drm"] + 2


def _to_fire(spencer: bool = False, tired: bool = False) -> tuple[GbacwGame, str, str]:
    g, k, enemy = designated()
    if spencer:  # this game's copy of the data: the defender armed with Spencer rifles
        cid = g.pos.units[enemy].counter
        g.cat = replace(g.cat, counters={**g.cat.counters,
                                         cid: replace(g.cat.counters[cid], weapon="SR")})
    if tired:
        g.fatigue = True
        g.pos.brigades[ARCHER].fatigue = fatigue.steps_of("2")
    g.apply({"type": "stand"}, "csa")
    assert g.pos.pending is not None and g.pos.pending["stage"] == "fire"
    return g, k, enemy


def test_spencer_pre_shock_fire_twice_14_36() -> None:
    g, k, enemy = _to_fire(spencer=True)
    ev = g.apply({"type": "pre_shock_fire", "unit": enemy, "target": g.pos.units[k].hex}, "csa")
    shots = [e for e in ev if e.type == "fire"]
    assert len(shots) == 2 and all(e.data["unit"] == enemy for e in shots)
    g2, k2, enemy2 = _to_fire()
    ev2 = g2.apply({"type": "pre_shock_fire", "unit": enemy2,
                    "target": g2.pos.units[k2].hex}, "csa")
    assert len([e for e in ev2 if e.type == "fire"]) == 1  # a rifle fires once


def test_pre_shock_fire_hides_the_firers_fatigue_from_the_enemy_17_31() -> None:
    g, k, enemy = _to_fire(tired=True)
    ev = g.apply({"type": "pre_shock_fire", "unit": enemy, "target": g.pos.units[k].hex}, "csa")
    shot = next(e for e in ev if e.type == "fire")
    assert shot.visible_to == ("csa",) and shot.redacted is not None
    assert "fatigue" in json.dumps(shot.data)
    assert "fatigue" not in json.dumps(shot.redacted["modifiers"])
    mods = shot.data["modifiers"]
    assert isinstance(mods, list)
    tired = sum(int(m["value"]) for m in mods if m["source"] == "fatigue")
    assert tired < 0 and shot.redacted["modified"] == int(str(shot.data["modified"])) - tired
    for e in ev:  # nothing else the attacker reads names the fatigue
        seen = e.data if e.visible_to is None or "usa" in e.visible_to else e.redacted
        assert seen is None or "fatigue\"" not in json.dumps(seen).replace("fatigue (", "")


def test_shock_events_keep_each_sides_fatigue_from_the_enemy_17_31() -> None:
    """The shock roll carries both brigades' fatigue: each seat reads a copy without it (the
    referee the whole); the pre-shock check carries the defender's: in full to it only."""
    g, _k, _e = designated()
    g.fatigue = True
    g.pos.brigades[GAMBLE].fatigue = fatigue.steps_of("2")
    g.pos.brigades[ARCHER].fatigue = fatigue.steps_of("3")
    ev = stand(g)
    shock = next(e for e in ev if e.type == "shock_resolved")
    assert shock.visible_to == () and shock.redacted is not None
    full, seen = shock.data["roll"], shock.redacted["roll"]
    assert isinstance(full, dict) and isinstance(seen, dict)
    assert "fatigue" not in json.dumps(seen["drms"])
    assert seen["modified"] == int(full["modified"]) - (2 - 1)  # +2 defender, -1 attacker
    pre = next(e for e in ev if e.type == "shock_pre_shock_check")
    assert pre.visible_to == ("csa",) and pre.redacted is not None
    roll, hid = pre.data["roll"], pre.redacted["roll"]
    assert isinstance(roll, dict) and isinstance(hid, dict)
    assert hid["drm"] == int(roll["drm"]) - 2 and hid["hidden"] == ["fatigue (002 §17.31)"]
    for e in ev:  # neither seat reads the other's fatigue in any event of the shock
        for seat in ("usa", "csa"):
            if e.visible_to is None or seat in e.visible_to:
                continue
            assert e.redacted is None or "fatigue-" not in json.dumps(e.redacted)


def test_no_fatigue_no_change_in_the_events() -> None:
    g, _k, _e = designated()
    ev = stand(g)
    assert all(e.visible_to is None for e in ev if e.type.startswith("shock_"))
