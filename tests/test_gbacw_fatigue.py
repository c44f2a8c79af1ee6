"""Brigade fatigue (002 §17): the marker scale, the §17.22 worked examples, caps, effects,
recovery, and hypothesis properties (bounded, monotone in march length)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gettysburg.core.protocol import RuleError
from gettysburg.gbacw import fatigue as fa
from gettysburg.gbacw.fatigue import TurnTally


def test_marker_scale_17_24() -> None:
    """No marker, OK, 0, 1, 2, 3, 4 in that order; the effect is half the number rounded up
    and none for no marker, OK and 0 (§17.31, §17.33)."""
    assert [fa.label(s) for s in range(7)] == ["none", "OK", "0", "1", "2", "3", "4"]
    assert [fa.modifier(s) for s in range(7)] == [0, 0, 0, 1, 1, 2, 2]
    assert [fa.steps_of(m) for m in ("none", "OK", "0", "1", "4")] == [0, 1, 2, 3, 6]
    with pytest.raises(ValueError, match="marker"):
        fa.steps_of("5")
    with pytest.raises(ValueError):
        fa.level(7)


def test_cap_at_fatigue_4_17_25() -> None:
    assert fa.raised(5, 3) == fa.MAX_STEPS
    assert fa.raised(fa.MAX_STEPS, 1) == fa.MAX_STEPS
    assert fa.lowered(1, 2) == fa.NO_MARKER


def _march(hexes: int, ma: int = 6) -> int:
    """Levels from one March AM of ``hexes`` road hexes at ½ MP each (002 §17.22)."""
    worth = fa.equivalents(hexes / 2, ma)
    _, levels = fa.after_activation(TurnTally(), worth=worth, road_march=True)
    return levels


def test_17_22_march_example_24_mp_fatigue_from_37th_road_hex() -> None:
    """002 §17.22's example: a March AM gives an MA-6 regiment up to 24 MP (4 AMs' worth),
    fatigue for whatever passes 18 MP; at ½ MP a road hex that is 48 hexes, tiring from the
    37th."""
    assert fa.equivalents(24, 6) == 4
    assert fa.equivalents(18, 6) == 3
    assert _march(36) == 0
    assert _march(37) == 1
    assert _march(48) == 1
    assert min(h for h in range(1, 49) if _march(h) > 0) == 37


def test_17_22_march_off_road_tires_at_the_third_equivalent() -> None:
    """Leaving pikes and roads makes the third equivalent tire as well as the fourth."""
    _, levels = fa.after_activation(TurnTally(), worth=3, road_march=False)
    assert levels == 1
    _, levels = fa.after_activation(TurnTally(), worth=4, road_march=False)
    assert levels == 2


def test_17_22_comprehensive_example_four_levels() -> None:
    """002 §17.22's comprehensive example: move (AM 1), shock (AM 2), shock (AM 3) and two
    shock defences in enemy phases: four levels, none from the first two activations or the
    first shock. From no marker that is the marker "Fatigue 2" (none, OK, 0, 1, 2)."""
    t, steps, gained = TurnTally(), fa.NO_MARKER, []
    t, n = fa.after_activation(t)  # AM 1: moves
    gained.append(n)
    t, n = fa.after_activation(t)  # AM 2: shock attack
    gained.append(n)
    t, n = fa.after_shock_phase(t)
    gained.append(n)
    t, n = fa.after_activation(t)  # AM 3: shock attack again
    gained.append(n)
    t, n = fa.after_shock_phase(t)
    gained.append(n)
    for _ in range(2):  # two enemy phases defending against shock
        t, n = fa.after_shock_phase(t)
        gained.append(n)
    assert gained == [0, 0, 0, 1, 1, 1, 1]
    steps = fa.raised(steps, sum(gained))
    assert sum(gained) == 4
    assert fa.label(steps) == "2"
    assert fa.effects(steps).udd == 1


def test_17_22_four_activations_two_levels_and_17_23_cap() -> None:
    """Four activations in a turn add two levels; a fifth adds none (two a turn at most from
    activations), while shock phases have no cap."""
    t, total = TurnTally(), []
    for _ in range(5):
        t, n = fa.after_activation(t)
        total.append(n)
    assert total == [0, 0, 1, 1, 0]
    for _ in range(4):
        t, n = fa.after_shock_phase(t)
        total.append(n)
    assert sum(total) == 2 + 3


def test_17_22_exempt_activations_do_not_count() -> None:
    assert not fa.counts([])
    assert not fa.counts(["rally", "free_facing", "engineering", "mount"])
    assert not fa.counts(["cautious_retreat", "leader_move"])
    assert fa.counts(["free_facing", "move"])
    assert fa.counts(["fire"])


def test_16_12_night_attack_activation_tires_even_the_first() -> None:
    t, n = fa.after_activation(TurnTally(), night_attack=True)
    assert n == 1
    t, n = fa.after_activation(t, night_attack=True)
    assert n == 1
    t, n = fa.after_activation(t, night_attack=True)
    assert n == 0  # the two-a-turn cap of §17.23


def test_17_26_broken_wheels() -> None:
    assert [fa.broken_wheels(r) for r in range(10)] == [False] * 6 + [True] * 4
    assert fa.wheel_check_due(3, 4)
    assert not fa.wheel_check_due(4, 4)
    assert not fa.wheel_check_due(0, 3)


def test_17_31_effects_and_ma() -> None:
    e = fa.effects(fa.steps_of("3"))
    assert (e.ma, e.fire, e.shock_attack) == (-2, -2, -2)
    assert (e.shock_defence, e.udd, e.pre_shock, e.rally) == (2, 2, 2, 2)
    # Attack orders halve MA 6 to 3 first, then Fatigue 3 takes 2 (§17.31)
    assert fa.fatigued_ma(3, fa.steps_of("3")) == 1
    assert fa.fatigued_ma(1, fa.MAX_STEPS) == 0


def test_17_32_fatigue_4_forces_advance() -> None:
    assert fa.forced_orders(fa.MAX_STEPS, "attack") == "advance"
    assert fa.forced_orders(5, "attack") == "attack"
    with pytest.raises(RuleError) as err:
        fa.check_orders(fa.MAX_STEPS, "march")
    assert err.value.rule == "17.32"
    fa.check_orders(fa.MAX_STEPS, "advance")
    fa.check_orders(5, "attack")


def test_17_34_fatigue_2_stops_building() -> None:
    assert [fa.may_build(s) for s in range(7)] == [True, True, True, True, False, False, False]


def test_17_41_17_42_recovery() -> None:
    assert fa.end_of_turn(5, reserve_all_turn=True) == 3
    assert fa.end_of_turn(1, reserve_all_turn=True) == 0
    assert fa.end_of_turn(5, reserve_all_turn=False, idle_choice="rest", was_idle=True) == 4
    assert fa.end_of_turn(5, reserve_all_turn=False, idle_choice="rally", was_idle=True) == 5
    with pytest.raises(RuleError) as err:
        fa.end_of_turn(5, reserve_all_turn=False, idle_choice="rest", was_idle=False)
    assert err.value.rule == "17.42"
    assert fa.idle(["free_facing", "reaction_refuse", "none"])
    assert not fa.idle(["reaction_move"])
    assert not fa.idle(["build"])
    assert not fa.idle(["shock_target"])


@given(st.lists(st.tuples(st.integers(1, 4), st.booleans(), st.booleans(), st.booleans()),
                max_size=12), st.integers(0, fa.MAX_STEPS))
def test_fatigue_stays_bounded(events: list[tuple[int, bool, bool, bool]], start: int) -> None:
    """Whatever a turn holds, activations add at most two levels and steps stay 0..6."""
    t, steps, from_acts = TurnTally(), start, 0
    for worth, road, night, shock in events:
        if shock:
            t, n = fa.after_shock_phase(t)
        else:
            t, n = fa.after_activation(t, worth=worth, road_march=road, night_attack=night)
            from_acts += n
        assert n >= 0
        steps = fa.raised(steps, n)
        assert fa.NO_MARKER <= steps <= fa.MAX_STEPS
    assert from_acts <= fa.ACTIVATION_CAP
    assert t.activation_levels == from_acts


@given(st.integers(1, 96), st.integers(1, 96), st.integers(2, 10), st.booleans())
def test_fatigue_monotone_in_march_length(a: int, b: int, ma: int, road: bool) -> None:
    """A longer March never tires less (002 §17.22)."""
    lo, hi = sorted((a, b))

    def levels(hexes: int) -> int:
        cost = hexes / 2 if road else float(hexes)
        _, n = fa.after_activation(TurnTally(), worth=fa.equivalents(cost, ma),
                                   road_march=road)
        return n

    assert levels(lo) <= levels(hi)
