"""Dawn, dusk and night (002 §16) and straggler recovery (§16.2), with scripted d10s."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gettysburg.core.dice import ScriptedDice
from gettysburg.core.protocol import RuleError
from gettysburg.gbacw import night as ni
from gettysburg.gbacw.charts import all_charts
from gettysburg.gbacw.night import StragglerUnit


def _index(label: str) -> int:
    return next(t.index for t in all_charts().turn_track.turns() if t.label == label)


def test_light_from_the_turn_track_e14() -> None:
    assert ni.light(_index("01 Jul 0700")) == "day"
    assert ni.light(_index("01 Jul 2000")) == "dusk"
    assert ni.light(_index("01 Jul 2300")) == "night"
    assert ni.light(_index("02 Jul 0400")) == "night"
    assert ni.light(_index("02 Jul 0500")) == "dawn"
    with pytest.raises(ValueError, match="off the turn track"):
        ni.light(10_000)


def test_16_11_16_12_ranges_halved_rounding_up() -> None:
    assert ni.command_range(5, "day") == 5
    assert ni.command_range(5, "dusk") == 3
    assert ni.command_range(5, "night") == 3
    assert ni.max_fire_range(5, "dawn") == 3
    assert ni.max_fire_range(8, "night") == 4
    ni.check_fire_range(3, 5, "night")
    with pytest.raises(RuleError) as err:
        ni.check_fire_range(4, 5, "dusk")
    assert err.value.rule == "16.1"


def test_16_11_twilight_fire_minus_2_beyond_one_hex() -> None:
    assert ni.fire_drm(1, "dusk") == 0
    assert ni.fire_drm(2, "dawn") == -2
    assert ni.fire_drm(5, "day") == 0


def test_16_12_night_range_penalty_is_cumulative() -> None:
    """-1 at one hex, -3 at two (-1 -2), -6 at three, -10 at four (and beyond, 004)."""
    assert [ni.fire_drm(r, "night") for r in range(1, 7)] == [-1, -3, -6, -10, -10, -10]


@given(st.integers(1, 20))
def test_night_never_kinder_than_day(r: int) -> None:
    assert ni.fire_drm(r, "night") <= ni.fire_drm(r, "dusk") <= ni.fire_drm(r, "day")


def test_16_12_what_night_forbids() -> None:
    assert ni.artillery_fires_singly("night") and not ni.artillery_fires_singly("dusk")
    for check in (ni.check_charge, ni.check_prepared_fire):
        check("dusk")
        with pytest.raises(RuleError) as err:
            check("night")
        assert err.value.rule == "16.12"
    ni.check_reaction_move("night", becomes_adjacent=True)
    ni.check_reaction_move("day", becomes_adjacent=False)
    with pytest.raises(RuleError):
        ni.check_reaction_move("night", becomes_adjacent=False)
    assert ni.attack_activation_tires("night", orders="attack", counts=True)
    assert not ni.attack_activation_tires("night", orders="attack", counts=False)
    assert not ni.attack_activation_tires("night", orders="advance", counts=True)
    assert not ni.attack_activation_tires("dusk", orders="attack", counts=True)


def test_6_31_reserve_distance_five_at_night() -> None:
    assert ni.reserve_distance("night") == 5
    assert ni.reserve_distance("day") == 10


def test_16_21_stragglers_need_reserve_at_dusk_or_night() -> None:
    assert ni.stragglers_eligible("dusk", reserve=True)
    assert ni.stragglers_eligible("night", reserve=True)
    assert not ni.stragglers_eligible("night", reserve=False)
    assert not ni.stragglers_eligible("day", reserve=True)


def test_16_22_16_23_straggler_recovery_scripted() -> None:
    """Cohesion 5: a 4 passes (+1 SP), a 7 fails; artillery and units out of the brigadier's
    range roll nothing; a unit one below its printed SP is at the cap (§16.23) and rolls
    nothing; fatigue's +1 turns a 5 into a failure."""
    units = [
        StragglerUnit("1 PA", sp=6, printed_sp=9, cohesion=5),
        StragglerUnit("2 PA", sp=6, printed_sp=9, cohesion=5),
        StragglerUnit("Bty", sp=4, printed_sp=6, cohesion=5, artillery=True),
        StragglerUnit("3 PA", sp=3, printed_sp=9, cohesion=5, in_range=False),
        StragglerUnit("4 PA", sp=8, printed_sp=9, cohesion=5),
        StragglerUnit("5 PA", sp=2, printed_sp=9, cohesion=5, udd_drm=1),
    ]
    out = ni.recover_stragglers(units, ScriptedDice([4, 7, 5], die="d10"))
    assert [(u.unit, r.roll, r.passed, sp) for u, r, sp in out] == [
        ("1 PA", 4, True, 7), ("2 PA", 7, False, 6), ("5 PA", 5, False, 2)]
    assert ni.straggler_cap(9) == 8
