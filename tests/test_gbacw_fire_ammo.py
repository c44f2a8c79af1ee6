"""Ammunition in the engine (issue 53): batteries low and out (002 §10.69), the optional
small-arms rule (§10.9-10.91, game option ``small_arms_ammo``) and resupply (§10.92-10.93,
gbacw/ammunition.py), on hand-made gun-line positions with scripted d10s."""

from __future__ import annotations

import pytest

from gbacw_gunline import AL13, GAMBLE, IN3, NAP1, RESERVE, at, gunline, hid, place, script
from gettysburg.core.hexes import Hex
from gettysburg.core.protocol import RuleError
from gettysburg.gbacw.game import GbacwGame


def nb(h: Hex, d: int, n: int = 1) -> Hex:
    for _ in range(n):
        h = h.neighbour(d % 6)
    return h


def battery(distance: int, ammo: str) -> GbacwGame:
    g = gunline(RESERVE)
    c = at(g, (0, 0))
    place(g, NAP1, c, 0)
    place(g, AL13, nb(c, 0, distance), 3)
    g.pos.units[NAP1].ammo = ammo
    return g


def test_a_low_battery_resupplies_away_from_the_enemy_10_92() -> None:
    g = battery(5, "low")
    action = {"type": "resupply", "unit": NAP1}
    assert action in g.legal_actions("usa")
    ev = g.apply(action, "usa")
    assert [(e.type, e.rule) for e in ev] == [("resupply", "10.92")]
    assert g.pos.units[NAP1].ammo == "none"
    with pytest.raises(RuleError) as e:  # resupply was its action
        g.validate({"type": "fire", "unit": NAP1, "target": hid(g, nb(at(g, (0, 0)), 0, 5))},
                   "usa")
    assert e.value.rule == "10.92"


def test_out_comes_back_to_low_10_92() -> None:
    g = battery(5, "out")
    g.apply({"type": "resupply", "unit": NAP1}, "usa")
    assert g.pos.units[NAP1].ammo == "low"


def test_no_resupply_next_to_the_enemy_10_93() -> None:
    g = battery(1, "low")
    action = {"type": "resupply", "unit": NAP1}
    assert action not in g.legal_actions("usa")
    with pytest.raises(RuleError) as e:
        g.validate(action, "usa")
    assert e.value.rule == "10.93"


def test_nothing_to_resupply_10_92() -> None:
    g = battery(5, "none")
    with pytest.raises(RuleError) as e:
        g.validate({"type": "resupply", "unit": NAP1}, "usa")
    assert e.value.rule == "10.92"


def test_an_out_battery_cannot_fire_10_69() -> None:
    g = battery(5, "out")
    with pytest.raises(RuleError) as e:
        g.validate({"type": "fire", "unit": NAP1, "target": hid(g, nb(at(g, (0, 0)), 0, 5))},
                   "usa")
    assert e.value.rule == "10.69"


def small_arms(options: tuple[str, ...]) -> GbacwGame:
    g = gunline(GAMBLE, options=options)
    c = at(g, (0, 0))
    place(g, IN3, c, 0)
    place(g, AL13, nb(c, 0), 0)  # faces away: no return fire
    return g


@pytest.mark.parametrize(("options", "after"), [((), "none"), (("small_arms_ammo",), "low")])
def test_small_arms_low_on_an_unmodified_5_only_with_the_option_10_91(
        options: tuple[str, ...], after: str) -> None:
    g = small_arms(options)
    script(g, [5, 0, 0])
    ev = g.apply({"type": "fire", "unit": IN3, "target": hid(g, nb(at(g, (0, 0)), 0))}, "usa")
    if [e.type for e in ev] == ["fire_declared"]:
        script(g, [5, 0, 0])
        ev = g.apply({"type": "hold"}, "csa")
    assert g.pos.units[IN3].ammo == after
    if options:
        assert [e.rule for e in ev if e.type == "fire_ammunition"] == ["10.91"]


def test_no_fire_listed_after_resupply_10_92() -> None:
    g = battery(5, "low")
    g.apply({"type": "resupply", "unit": NAP1}, "usa")
    assert not [a for a in g.legal_actions("usa") if a.get("unit") == NAP1
                and "fire" in str(a["type"])]
